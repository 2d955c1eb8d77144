"""Every page a host and a phone open works for every game the registry holds, not only the
games the pages were first written for (issue 31: Coruscant Shift's tables were a 500 on the
console and the audit page, its deck's summary a 500).

For each preset of each registered game (the registry is iterated: a game added under
companion/games/, or installed as a plug-in, is covered with no edit here), a table is made
through the API, two players join (one with a name made of HTML) and buy in; then the console,
the audit log, the history, the summary, the table display, the phone's seat page, the join
page, the table's rules, the rules page, the start page, the decks page and the summary of
each of the game's decks are asked for, between hands and again once a hand has started. Each
answers 200, says the game's own title where a player looks for it, and shows the hostile name
only as text. A game whose rules hold only what docs/games.md promises (High card, a plug-in
known only to tests/) is checked the same way.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from markupsafe import escape

from companion.games import registry
from companion.server.app import create_app

PLUGIN = Path(__file__).parent / "plugin_game"
#: A player's name made of HTML (at most the 24 characters a name may have).
HOSTILE = "<b onmouseover=x>Bo</b>"

#: The table's pages a host or a phone opens (under /t/<code>/), each with whether the
#: preset's title is on it as the server draws it (the phone's seat page draws it from the
#: view, in the browser).
TABLE_PAGES = {"host": True, "audit": False, "history": False, "summary": False, "display": True,
               "seat": False, "join": False, "rules": True}
#: The pages that write the players' names into their HTML on the server.
NAMED_PAGES = ("audit", "history", "summary")


def _escaped(text: str) -> str:
    """`text` as the pages' templates write it into HTML."""
    return str(escape(text))


def _post(client, path, body, token=None, status=200):
    r = client.post(path, json=body, headers={"Authorization": f"Bearer {token}"} if token else {})
    assert r.status_code == status, (path, body, r.status_code, r.get_json())
    return r.get_json()


def _seated_table(client, preset: str) -> tuple[str, str]:
    """A table of `preset` with Ann and the hostile name seated and bought in: (code, host token)."""
    made = _post(client, "/api/v1/tables", {"rules": preset}, status=201)
    code, host = made["code"], made["host_token"]
    buy_in = registry.presets()[preset].buy_in
    for name in ("Ann", HOSTILE):
        joined = _post(client, f"/api/v1/tables/{code}/join", {"name": name}, status=201)
        _post(client, f"/api/v1/tables/{code}/commands", {"type": "buy_in", "amount": buy_in or 50},
              joined["token"])
    seats = client.get(f"/api/v1/tables/{code}").get_json()["state"]["seats"]
    assert [(s["name"], s["stack"]) for s in seats] == [("Ann", buy_in or 50), (HOSTILE, buy_in or 50)]
    return code, host


def _text(client, path: str) -> str:
    """The page at `path`, which must answer 200."""
    r = client.get(path)
    assert r.status_code == 200, (path, r.status_code, r.get_data(as_text=True)[-600:])
    return r.get_data(as_text=True)


def _check_every_page(client, preset: str) -> None:
    game = registry.game_of(preset)
    rules = registry.presets()[preset]
    title, game_title = _escaped(rules.title), _escaped(game.title)
    code, host = _seated_table(client, preset)

    def check_table_pages(when: str) -> None:
        for page, titled in TABLE_PAGES.items():
            text = _text(client, f"/t/{code}/{page}")
            assert HOSTILE not in text and "<b onmouseover" not in text, (when, page)
            if titled:
                assert title in text, (when, page)
            if page in NAMED_PAGES:
                assert _escaped(HOSTILE) in text, (when, page)
        # The console offers dealer's choice only among the presets the table may switch to.
        console = _text(client, f"/t/{code}/host")
        for name, other in registry.presets().items():
            offered = f'<option value="{name}"' in console
            assert offered == registry.may_follow(game, registry.game_of(name)), (when, name)

    check_table_pages("between hands")
    # A hand started (where the host may start one): the same pages, mid-hand.
    state = client.get(f"/api/v1/tables/{code}", headers={"Authorization": f"Bearer {host}"}).get_json()["state"]
    assert "start_hand" in state["host_legal"], state["host_legal"]
    _post(client, f"/api/v1/tables/{code}/commands", {"type": "start_hand"}, host)
    assert client.get(f"/api/v1/tables/{code}").get_json()["state"]["hand"]["no"] == 1
    check_table_pages("in the first hand")
    # The sabacc pot's count and column are on the history where the table has had one.
    had = client.get(f"/api/v1/tables/{code}").get_json()["state"]["sabacc_pot"] > 0
    assert ("Sabacc pot share" in _text(client, f"/t/{code}/history")) == had

    # The pages about the game: its preset on the start page, its rules, its decks.
    assert f'value="{preset}"' in _text(client, "/host")
    page = _text(client, f"/rules?preset={preset}")
    assert title in page
    for section in game.explain(rules):
        assert _escaped(section.title) in page, section.key
    decks = _text(client, "/decks")
    for deck in game.decks:
        assert f"/decks/{deck}/summary?paper=a4" in decks and game_title in decks
        summary = _text(client, f"/decks/{deck}/summary")
        assert _escaped(game.presets[game.default_preset()].title) in summary
        assert _text(client, f"/decks/{deck}").count(f"deck-{deck}") > 0
    # The calculator page lists only the games whose form it knows, and never breaks.
    _text(client, "/calculator")


@pytest.fixture
def client(tmp_path):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")}).test_client()


@pytest.mark.parametrize("preset", list(registry.presets()))
def test_every_page_of_a_table_of_every_registered_preset_opens(client, preset):
    _check_every_page(client, preset)


def test_the_built_in_games_are_all_checked():
    """The list above is the registry's: Coruscant Shift's presets are in it with the others."""
    assert {"classic", "spike", "coruscant", "coruscant-starcruiser"} <= set(registry.presets())


@pytest.fixture
def highcard():
    """High card (tests/plugin_game/) found as a plug-in, for one test."""
    sys.path.insert(0, str(PLUGIN))
    registry.reload()
    try:
        yield registry.games()["highcard"]
    finally:
        sys.path.remove(str(PLUGIN))
        sys.modules.pop("highcard", None)
        registry.reload()


def test_every_page_opens_for_a_plug_in_game_with_only_what_the_interface_promises(highcard, tmp_path):
    # No deck, no dice, no hand ranking, no turn actions: only docs/games.md's fields.
    rules = highcard.presets["highcard"]
    assert not any(hasattr(rules, a) for a in ("deck", "dice", "hands", "actions", "ending"))
    client = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")}).test_client()
    for preset in highcard.presets:
        _check_every_page(client, preset)


def test_a_game_played_to_its_end_reads_in_its_own_words_on_the_history_audit_and_summary(client):
    """A whole game of a preset that is no classic-style rule set (Coruscant Shift aboard the
    Halcyon: three rounds, one with a tie draw) on the pages that read the settled hands."""
    from test_coruscant_table import Table, _quiet_round

    t = Table(client, "coruscant-starcruiser", ["Ana", HOSTILE, "Cas"])
    _quiet_round(t, [3, 1], {HOSTILE: ["ci+5"], "Cas": ["tr+1"], "Ana": ["sq+2"]})
    _quiet_round(t, [1, 3], {"Cas": ["ci+1", "ci-1"], "Ana": ["tr+2", "tr-2"], HOSTILE: ["sq+6"]},
                 draws={"Cas": "tr+3", "Ana": "sq-8"})
    _quiet_round(t, [6, 6], {"Ana": ["sq-10"], HOSTILE: ["ci-3"], "Cas": ["tr-9"]})
    t.act("host", {"type": "end_session"})
    pages = {p: _text(client, f"/t/{t.code}/{p}") for p in TABLE_PAGES}
    for page, text in pages.items():
        assert "<b onmouseover" not in text, page
    history, audit = pages["history"], pages["audit"]
    bo = _escaped(HOSTILE)
    # Each round's selections by the deck's card names, the tie draw by the game's word for it,
    # and each player's net (round 1: the hostile name took the pot of 15 for an ante of 5).
    assert "Hand 2 · Coruscant Shift (Galactic Starcruiser)" in history
    assert "Triangle +2, Triangle −2" in history and "Square −8" in history and "Tie draw" in history
    assert f"Pot, 15: {bo}." in history
    # A game without a sabacc pot shows none (no count, no column, no share).
    for page in ("history", "summary"):
        assert "sabacc pot" not in pages[page].lower(), page
    row = " ".join(history[history.index("Hand 1 · Coruscant"):].split("</tr>")[1].split())
    assert bo in row and ">+15<" in row and ">+10<" in row, row
    # The audit log: the dice in the game's words, each move and the result in the game's own
    # words (its events' `words`), the names escaped.
    # The host's roll is the dealer's (Ana deals the first round): the roll names her.
    assert "<li>Ana rolls +5 and Circle (coruscant-target)</" in audit  # a roll that shifts nothing
    assert f"{bo} selects 1 card." in audit
    assert f"The pot of 15 goes to {bo}." in audit and "Ana wins the game." in audit
    assert "selection_entered" not in audit and "sabacc pot None" not in audit
    # The summary: put in, took out and the net of each round, which add up to the stacks.
    summary = " ".join(pages["summary"].split())
    first = summary[summary.index("Hand 1 · Coruscant"):summary.index("Hand 2 · Coruscant")]
    row = next(r for r in first.split("</tr>") if bo in r)
    assert [c.strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)][:5] == [bo, "5", "15", "+10", "110"], row
