"""Issue 29's check that the runtime names no game: none of any game's own words outside its package.

The issue's "Done when": outside a game's package no code, template, script or comment names a
game, one of its presets or a concept only it has (docs, tests and the README may). This test
reads the runtime for such words — every `companion/**/*.py` outside `companion/games/`, and
every `web/**/*.js`, `*.html` and `*.css` — case-insensitively, comments included, and counts
the hits per file.

Every file must have none. (Until the games had moved into `companion/games/<name>/`, the
counts were a ratchet that could only fall: 1,400 when issue 29 was filed, 0 since.) To list
where a word is, with its line::

    PYTHONPATH=$PWD python tests/test_game_words_tree.py

Each game's words are a reviewed list (docs/design/games-interface.md §1b was the start): its
name and presets, and the concepts only it has. A word two games share is no game's (a side
pot, the scrambler's shift, the sabacc pot, Pure Sabacc, a discard pile, a suit's staves: see
`SHARED`); the lists must not overlap, and a test says so. Words are matched from the start of
a word on (`demise` finds `demise_card`, `sudden demise`, `DEMISE`), with the exceptions noted.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Where a game lives; nothing under it is read.
GAMES_DIR = "companion/games/"

#: Each game's own words: what a reader would call it -> the pattern found (case-insensitive).
#: The name is what `test_no_word_belongs_to_two_games` checks the other games' patterns with.
GAME_WORDS: dict[str, dict[str, str]] = {
    "classic": {
        # the game's name and its five presets
        "classic": r"classic",
        "weg": r"weg(?![a-z])",
        "holodex": r"holodex",
        "pagat": r"pagat",  # pagat and pagat-d6
        # its concepts
        "sudden demise": r"demise",
        "bomb out": r"bomb",
        "Idiot's Array": r"idiot",
        "Fairy Empress": r"fairy",
        "force sabacc": r"force[ _-]?sabacc",
        "hold'em": r"hold'?em",
        "Corellia run": r"corellia[ _-]run",
        "Alderaan": r"alderaan",
        "call the hand": r"call_?hand",
        "pot building": r"pot[ _-]building",
        "negative pure": r"negative[ _-]pure",
        # the static field (not the web folder: `static/`, STATIC_DIR, "static" files or
        # assets, url_for('static', ...), Flask's static_folder and static_url_path, and the
        # URL path "/static" it is served under)
        "static field": r"(?<!/)static(?![a-z]|/|_dir|_folder|_url_path|', *filename| assets| files|\"\s*\n)",
        # its suits (Flask the framework is not a suit: the plural only)
        "Sabers": r"sabers?(?![a-z])",
        "Flasks": r"flasks",
        "Coins": r"coins(?![a-z])",
    },
    "spike": {
        # the game's name and its two presets (spike, spike-book, SpikeKind, spike_rules)
        # (not "2d6-spike": the scrambler's trigger of two d6 shifting on the double of one
        # chosen face, the sources' "spike face"; settings, the API and the CLI carry the value)
        "spike": r"(?<!2d6-)spike",
        # its concepts
        # (not an older snapshot's key, which the runtime reads once to rename it)
        "junk": r"junk(?!\": \"out_of_play\")",
        "sylop": r"sylop",
        "blind draw": r"blind[ _-]?draw",
        "game pot": r"game[ _-]pot",
        "gain and keep": r"gain_?keep",
        "gain and discard": r"gain_?discard",
        "swap": r"swap(?!s )",  # not the print pipeline's "flipping ... swaps left and right"
        "Prime Sabacc": r"prime(?!s\b)",  # not SHA-256's "the first 64 primes"
        "the survivor shows": r"survivor",
        "ante to the sabacc pot": r"ante_sabacc",
        "Nulrhek": r"nulrhek",
        "Yee-Haa": r"yee[ _-]?haa",
        "Rhylet": r"rhylet",
        "Squadron": r"squadron",
        "Gee Whiz": r"gee[ _-]?whiz",
        "Straight Khyron": r"khyron",
        "Banthas Wild": r"banthas?[ _-]wild",
        "Rule of Two": r"rule[ _-]of[ _-]two",
        "Sabacc with a pair": r"sabacc[ _-]pair",
        "Sabacc Shift": r"sabacc[ _-]shift",
    },
    "kessel": {
        # the game's name and its preset (kessel, kessel-dice)
        "kessel": r"kessel",
        # its concepts (its package's `own_words`; its sylops are Spike's word too: counted there)
        "Impostor": r"impostor",
        "shift token": r"shift[ _-]tokens?",
        "credits pot": r"credits[ _-]pot",
        "Tariff": r"tariff",
        "Embezzlement": r"embezzle",
        "Embargo": r"embargo",
        "Exhaustion": r"exhaustion",
        "Direct Transaction": r"direct[ _-]transaction",
        "Cook the Books": r"cook[ _-]the[ _-]books",
        "Major Fraud": r"major[ _-]fraud",
        "General Audit": r"general[ _-]audit",
        "Target Audit": r"target[ _-]audit",
        "Extra Refund": r"extra[ _-]refund",
    },
    "coruscant": {
        # the game's name and its preset (coruscant, coruscant-target)
        "coruscant": r"coruscant",
        # its concepts (its package's `own_words`, but for the tie draw: see SHARED)
        "gold die": r"gold[ _-]die",
        "silver die": r"silver[ _-]die",
        "target number": r"target[ _-]number",
        "target suit": r"target[ _-]suit",
        "Starcruiser": r"starcruiser",
        "Halcyon": r"halcyon",
    },
}

#: Words left out because more than one game has them (or the runtime names a generic thing so):
#: none of these may be matched by a game's pattern.
SHARED: dict[str, str] = {
    "side": "side pots (betting rounds of any game); classic's light and dark sides are its own, "
            "but the word is everywhere",
    "light": "as side",
    "dark": "as side",
    "shift": "classic's and Coruscant Shift's; also the scrambler's generic 'shift or not'",
    "sabacc pot": "classic and Spike both have one",
    "Pure Sabacc": "a hand kind of classic and of Spike",
    "discard top": "a public discard pile is a building block (Kessel has two)",
    "staves": "classic's suit, and the marks of Spike's cards (deck.staves)",
    "stave": "as staves",
    "scrambler": "the hardware is runtime (the issue's list)",
    "flask": "the web framework",
    "tie draw": "a tie broken by drawn cards: the runtime's block (companion/table/tie_draw.py), "
                "which classic's sudden demise, Spike's blind draw and Coruscant Shift's tie draw compose",
    "free draw": "Kessel's token, but also any game's plain draw that costs nothing",
}

_UNION = re.compile(
    "|".join(f"(?P<{game}>{'|'.join(f'(?<![a-z]){p}' for p in words.values())})"
             for game, words in GAME_WORDS.items()),
    re.IGNORECASE,
)


def hits(text: str) -> Counter[str]:
    """Each game's words in `text`, counted per game (a hit is counted once).

        >>> dict(hits("a sudden demise; the sylop; sidestep; the static/ folder; Spike-book"))
        {'classic': 1, 'spike': 2}
    """
    found: Counter[str] = Counter()
    for m in _UNION.finditer(text):
        found[m.lastgroup or "?"] += 1
    return found


def runtime_files(root: Path = ROOT) -> list[Path]:
    """The files the check reads under `root`: the runtime's Python outside a game's package,
    and the pages' scripts, templates and styles."""
    out = [p for p in root.glob("companion/**/*.py")
           if not p.relative_to(root).as_posix().startswith(GAMES_DIR)]
    out += [p for ext in ("js", "html", "css") for p in root.glob(f"web/**/*.{ext}")]
    return sorted(out)


def count_tree(root: Path = ROOT) -> dict[str, Counter[str]]:
    """Per file (its path from `root`) with any hit, the hits per game."""
    out: dict[str, Counter[str]] = {}
    for path in runtime_files(root):
        found = hits(path.read_text(encoding="utf-8", errors="replace"))
        if found:
            out[path.relative_to(root).as_posix()] = found
    return out


def area(path: str) -> str:
    """The part of the tree a file is in, for the totals (companion/table, web/static/js)."""
    parts = path.split("/")
    return "/".join(parts[:3]) if parts[0] == "web" and parts[1] == "static" else "/".join(parts[:2])


def totals(counts: dict[str, Counter[str]]) -> str:
    """One line: the total, per game and per area."""
    per_game: Counter[str] = Counter()
    per_area: Counter[str] = Counter()
    for path, found in counts.items():
        per_game.update(found)
        per_area[area(path)] += sum(found.values())
    games = ", ".join(f"{g} {n}" for g, n in sorted(per_game.items()))
    areas = ", ".join(f"{a} {n}" for a, n in sorted(per_area.items()))
    return f"game words in the runtime: {sum(per_game.values())} ({games}); by area: {areas} (goal: 0)"


# -- the tests -----------------------------------------------------------------------------------


def test_the_runtime_names_no_game(capsys):
    counts = count_tree()
    with capsys.disabled():
        print("\n" + totals(counts))
    assert not counts, (
        f"game words in the runtime (file: hits per game); move what names a game into its package "
        f"under {GAMES_DIR} instead, or name the thing for what it does: {dict(counts)}")


def test_the_scanner_finds_a_planted_word_and_skips_a_games_package(tmp_path):
    (tmp_path / "companion" / "table").mkdir(parents=True)
    (tmp_path / "companion" / "games" / "classic").mkdir(parents=True)
    (tmp_path / "web" / "static" / "js").mkdir(parents=True)
    (tmp_path / "web" / "templates").mkdir(parents=True)
    (tmp_path / "companion" / "table" / "tie.py").write_text(
        "def settle(h):\n    # a tie goes to a SUDDEN DEMISE (only a comment names it)\n    return h\n")
    (tmp_path / "companion" / "table" / "clean.py").write_text("def settle(h):\n    return h  # a tie, drawn\n")
    (tmp_path / "companion" / "games" / "classic" / "tie.py").write_text("# the sudden demise, at home\n")
    (tmp_path / "web" / "static" / "js" / "pile.js").write_text('const top = "sylop"; // holodex\n')
    (tmp_path / "web" / "static" / "js" / "dice.js").write_text('// an Impostor rolls; the Coruscant target\n')
    (tmp_path / "web" / "templates" / "page.html").write_text('<link href="/static/css/site.css">\n')
    assert count_tree(tmp_path) == {"companion/table/tie.py": Counter({"classic": 1}),
                                    "web/static/js/pile.js": Counter({"spike": 1, "classic": 1}),
                                    "web/static/js/dice.js": Counter({"kessel": 1, "coruscant": 1})}


def test_no_word_belongs_to_two_games():
    patterns = {game: [re.compile(f"(?<![a-z]){p}", re.I) for p in words.values()]
                for game, words in GAME_WORDS.items()}
    for game, words in GAME_WORDS.items():
        for other, found in patterns.items():
            if other == game:
                continue
            clashes = [w for w in words if any(p.search(w) for p in found)]
            assert not clashes, f"{game}'s words {clashes} are also {other}'s"
    for word in SHARED:
        owners = [g for g, found in patterns.items() if any(p.search(word) for p in found)]
        assert not owners, f"{word!r} is shared by several games but is counted as {owners}'"


if __name__ == "__main__":
    for path in runtime_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in _UNION.finditer(text):  # as the check reads it: the whole file, not line by line
            no = text.count("\n", 0, m.start()) + 1
            print(f"{path.relative_to(ROOT)}:{no}: {text.splitlines()[no - 1].strip()}")
    print(totals(count_tree()))
