"""The game registry (issue 29): games found as plug-ins, clashes and broken plug-ins refused.

A plug-in is found as pip would install it: a folder on `sys.path` holding the module and a
``NAME-0.1.dist-info/{METADATA,entry_points.txt}`` (FIELD-NOTES.md, "Plug-ins through entry
points"). High-low (tests/registry_plugins/highlow.py) is a game no file outside tests/ knows.
"""

from __future__ import annotations

import importlib.metadata
import logging
import sys
from pathlib import Path

import pytest

from companion.games import registry
from companion.games.api import Game, InvalidRules

PLUGINS = Path(__file__).parent / "registry_plugins"
#: The built-in games: every package under companion/games/ (classic, spike and any game added
#: there since), which the registry lists first, in name order, before any plug-in.
BUILT_IN = sorted(p.name for p in (Path(__file__).parent.parent / "companion" / "games").iterdir()
                  if (p / "__init__.py").is_file())


@pytest.fixture
def on_path(monkeypatch):
    """Put folders on `sys.path` for one test; afterwards the registry forgets what it found."""
    added: list[str] = []

    def put(folder: Path) -> None:
        monkeypatch.syspath_prepend(str(folder))
        added.append(str(folder))
        registry.reload()

    yield put
    for name in [m for m, mod in sys.modules.items()
                 if any(str(getattr(mod, "__file__", "") or "").startswith(a) for a in added)]:
        del sys.modules[name]
    for a in added:
        while a in sys.path:
            sys.path.remove(a)
    registry.reload()


def _dist(folder: Path, name: str, entry_points: dict[str, str]) -> None:
    """A distribution's metadata as pip writes it: `name-0.1.dist-info` with its entry points."""
    info = folder / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[sabacc_companion.games]\n" + "".join(f"{k} = {v}\n" for k, v in entry_points.items()))


def test_the_built_in_games_are_found_by_the_scan_with_their_presets_in_order():
    registry.reload()
    games = registry.games()
    assert {"classic", "spike"} <= set(BUILT_IN) and list(games) == BUILT_IN
    # Every preset, game by game in that order, each game's in its own order.
    names = list(registry.presets())
    assert names == [p for g in games.values() for p in g.presets]
    classic = names.index("weg")
    assert names[classic:classic + 5] == ["weg", "classic", "holodex", "pagat", "pagat-d6"]
    assert names[names.index("spike"):names.index("spike") + 2] == ["spike", "spike-book"]
    assert registry.game_of("holodex").name == "classic" and registry.game_of("spike-book").name == "spike"
    assert registry.default_preset() == "classic"
    assert {"sabacc", "spike"} <= set(registry.decks())
    assert registry.rules_from({"preset": "spike-book", "junk_penalty": 2}).fold_fee == 2
    # The engine is the table's, imported only when asked for.
    assert games["classic"].engine().__name__ == "ClassicHand"


def test_the_built_in_games_entry_points_give_the_same_games_once(tmp_path, on_path):
    _dist(tmp_path, "sabacc_companion", {"classic": "companion.games.classic:GAME",
                                          "spike": "companion.games.spike:GAME"})
    on_path(tmp_path)
    eps = {ep.name: ep for ep in importlib.metadata.entry_points(group=registry.GROUP)}
    assert {"classic", "spike"} <= set(eps)
    games = registry.games()
    assert eps["classic"].load() is games["classic"] and eps["spike"].load() is games["spike"]
    assert list(games) == BUILT_IN  # each once, though found both ways
    assert len(registry.presets()) == sum(len(g.presets) for g in games.values())


def test_a_game_defined_in_tests_is_found_by_its_entry_point_and_its_presets_resolve(on_path):
    on_path(PLUGINS)
    assert list(registry.games()) == [*BUILT_IN, "highlow"]  # the plug-in after the built-in games
    assert list(registry.presets())[-2:] == ["highlow", "highlow-low"]
    rules = registry.rules_from({"preset": "highlow-low", "stake": 5})
    assert (rules.name, rules.stake, rules.low_wins) == ("highlow-low", 5, True)
    assert registry.game_of("highlow").title == "High-low"
    assert registry.decks()["highlow"].size() == 40
    # Each game refuses the other's options, in words, with the field's path.
    with pytest.raises(InvalidRules) as exc:
        registry.rules_from({"preset": "highlow", "bomb_out_penalty": 3})
    assert (exc.value.field, exc.value.message) == ("rules.bomb_out_penalty", "bomb_out_penalty is not an option of High-low")
    with pytest.raises(InvalidRules) as exc:
        registry.rules_from({"preset": "classic", "stake": 3})
    assert exc.value.message == "stake is not an option of Classic Sabacc v1.01"
    with pytest.raises(InvalidRules) as exc:
        registry.rules_from({"preset": "highlow", "stake": 0})
    assert (exc.value.field, exc.value.message) == ("rules.stake", "stake must be a whole number from 1 to 100")
    with pytest.raises(InvalidRules) as exc:
        registry.rules_from({"preset": "highlow-low", "stake": 60})
    assert (exc.value.field, exc.value.message) == ("rules.stake", "a low game's stake is at most 50")


def test_a_plug_in_games_presets_appear_on_the_pages_with_no_edit(on_path, tmp_path):
    on_path(PLUGINS)
    from companion.server.app import create_app

    client = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")}).test_client()
    page = client.get("/rules?preset=highlow-low")
    assert page.status_code == 200
    assert "the lowest card takes everything" in page.get_data(as_text=True)
    assert "High-low, low wins" in client.get("/").get_data(as_text=True)
    start = client.get("/host").get_data(as_text=True)
    assert 'value="highlow"' in start and "Stake, credits" in start  # its preset and its option field
    from companion.rules.option_fields import option_fields

    assert [(f["name"], f["default"]) for f in option_fields(registry.presets()["highlow-low"])] == \
        [("stake", 1), ("low_wins", True)]
    # It has no payout calculator: the settle API says so, in words, and settles the others.
    r = client.post("/api/v1/settle", json={"rules": {"preset": "highlow"}, "players": [], "sabacc_pot": 0})
    assert r.status_code == 422 and r.json["field"] == "rules.preset"
    assert r.json["error"].startswith("High-low has no payout calculator")
    r = client.post("/api/v1/settle", json={"rules": "classic", "sabacc_pot": 0, "players": [
        {"name": "Lando", "cards": ["co7", "sa11"], "committed": 5},
        {"name": "Han", "cards": ["co8", "sa12"], "committed": 5, "called": True}]})
    assert r.status_code == 200 and r.json["payouts"] == {"Lando": 0, "Han": 10}


_CLASHES = '''
from companion.games.api import Game
from companion.rules.cards import Card
from companion.rules.decks import Deck, Group
import highlow

def game(name, presets, decks=None):
    return Game(name=name, title=name.title(), summary="", presets=presets, options={},
                rules_from=lambda spec, field="rules": None, engine=lambda: object,
                decks=decks or {}, explain=lambda rules: [])

def rules(name):
    return highlow.HighLowRules(name, name, "")

one = {"x": Card("x", 1, 1, "X", "X")}
SAME_NAME = game("spike", {"spike-again": rules("spike-again")})
SAME_PRESET = game("another", {"another": rules("another"), "classic": rules("classic")})
SAME_DECK = game("decked", {"decked": rules("decked")},
                 {"sabacc": Deck("sabacc", "not the classic deck", one, (Group("x", "X", ("x",)),), "value")})
NOT_A_GAME = {"name": "dict"}
FINE = game("fine", {"fine": rules("fine")})
'''


def test_clashing_plug_ins_are_refused_in_words_and_the_rest_load(tmp_path, on_path, caplog):
    (tmp_path / "clashing_games.py").write_text(_CLASHES)
    _dist(tmp_path, "clashing", {name: f"clashing_games:{name.upper()}"
                                 for name in ("same_name", "same_preset", "same_deck", "not_a_game", "fine")})
    on_path(PLUGINS)
    on_path(tmp_path)
    with caplog.at_level(logging.WARNING, logger="companion.games.registry"):
        games = registry.games()
    assert list(games) == [*BUILT_IN, "fine", "highlow"]  # plug-ins by entry-point name
    assert registry.game_of("classic").name == "classic" and registry.decks()["sabacc"].size() == 76
    words = "\n".join(r.getMessage() for r in caplog.records)
    assert "game 'spike' (clashing_games:SAME_NAME) left out: another game is named 'spike' too" in words
    assert ("game 'another' (clashing_games:SAME_PRESET) left out: its preset 'classic' is already a preset of "
            "Classic Sabacc") in words
    assert "game 'decked' (clashing_games:SAME_DECK) left out: its deck 'sabacc' is another deck of that name" in words
    assert "(clashing_games:NOT_A_GAME) left out: its GAME is a dict, not a companion.games.api.Game" in words
    assert all(r.levelno == logging.WARNING for r in caplog.records)


def test_a_plug_in_that_raises_on_import_is_left_out_and_the_site_still_works(tmp_path, on_path, caplog):
    (tmp_path / "broken_game.py").write_text("raise RuntimeError('the plug-in is broken')\n")
    _dist(tmp_path, "broken", {"broken": "broken_game:GAME", "missing": "no_such_module_here:GAME"})
    on_path(tmp_path)
    with caplog.at_level(logging.WARNING, logger="companion.games.registry"):
        assert list(registry.games()) == BUILT_IN
    words = "\n".join(r.getMessage() for r in caplog.records)
    assert "game broken_game:GAME left out: it raised RuntimeError: the plug-in is broken" in words
    assert "game no_such_module_here:GAME left out: it raised ModuleNotFoundError" in words
    from companion.server.app import create_app

    client = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")}).test_client()
    assert client.get("/rules?preset=spike").status_code == 200
    r = client.post("/api/v1/tables", json={"rules": "classic"})
    assert r.status_code == 201, r.json


def test_register_adds_a_game_for_a_test_and_its_undo_takes_it_away():
    spike = registry.games()["spike"]
    clone = Game(name="spike-copy", title="Copy", summary="", presets={"copy": spike.presets["spike"]},
                 options={}, rules_from=lambda spec, field="rules": None, engine=lambda: object,
                 decks={}, explain=lambda rules: [])
    # The preset's rules are named "spike": a preset holds rules of its own name.
    with pytest.raises(registry.GameRefused, match="its preset 'copy' holds rules named 'spike'"):
        registry.register(clone)
    import dataclasses

    ok = dataclasses.replace(clone, presets={"copy": dataclasses.replace(spike.presets["spike"], name="copy")},
                             rules_from=lambda spec, field="rules": "copied")
    undo = registry.register(ok)
    try:
        assert registry.game_of("copy") is ok and registry.rules_from("copy") == "copied"
        with pytest.raises(registry.GameRefused, match="another game is named 'spike-copy' too"):
            registry.register(ok)
    finally:
        undo()
    with pytest.raises(InvalidRules, match="unknown preset 'copy'"):
        registry.rules_from("copy")


def test_the_registry_reads_no_game_of_its_own():
    """The runtime's registry and interface name no game: they know games only as plug-ins."""
    for module in ("registry.py", "api.py", "__init__.py"):
        text = (Path(registry.__file__).parent / module).read_text().lower()
        for word in ("spike", "weg", "holodex", "pagat", "sylop", "idiot", "demise"):
            assert word not in text, (module, word)


def test_dealers_choice_changes_only_between_games_played_in_hands():
    import dataclasses

    from companion.refusal import Refused
    from companion.table.engine import HOST, Table

    spike = registry.games()["spike"]
    once = dataclasses.replace(spike.presets["spike"], name="spike-once", title="Spike to a winner")
    undo = registry.register(dataclasses.replace(
        spike, name="to-a-winner", title="Spike to a winner", presets={"spike-once": once}, default="",
        by_hand=False, rules_from=lambda spec, field="rules": once))
    try:
        t = Table.create("DEAL", {"rules": "classic"})
        for name in ("Lando", "Han"):
            t.apply({"type": "join", "name": name}, None)
        with pytest.raises(Refused) as exc:
            t.apply({"type": "change_rules", "rules": "spike-once"}, HOST)
        assert exc.value.status == 409 and exc.value.field == "rules"
        assert "not from Classic Sabacc to Spike to a winner" in exc.value.error
        assert t.rules.name == "classic"
        t.apply({"type": "change_rules", "rules": "spike-book"}, HOST)  # both played in hands
        assert t.rules.name == "spike-book"
    finally:
        undo()


def test_nothing_outside_a_games_package_imports_it_but_through_the_registry():
    """The runtime (the table, the server, the rules it shares, the decks, the bench, the
    scrambler) reaches a game only through `companion.games.registry`."""
    import ast

    root = Path(registry.__file__).parents[1]
    games = {p.parent.name for p in (root / "games").glob("*/__init__.py")}
    assert {"classic", "spike"} <= games
    found = []
    for path in root.rglob("*.py"):
        inside = path.relative_to(root).parts
        if inside[0] == "games" and len(inside) > 2:  # a game's own package
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [f"{node.module}.{a.name}" for a in node.names] if isinstance(node, ast.ImportFrom) and node.module else []
            found += [(str(path.relative_to(root)), n) for n in names
                      if any(n == f"companion.games.{g}" or n.startswith(f"companion.games.{g}.") for g in games)]
    assert found == []


#: What a built-in game loads only when it is asked for (a table of it made or opened, its rules
#: page, its payout calculator or the API document asked for), besides its engine's module.
ON_DEMAND = ("explain", "calculator", "schema", "settle", "judge")

STARTED = """
import json, sys
from companion.cli import build_parser
from companion.server import create_app
build_parser(["serve"])  # what `sabacc-companion serve` builds first
app = create_app({"DATA_DIR": sys.argv[1]})
assert app.test_client().get("/api/v1/ping").status_code == 200
from companion.games import registry
listed = {name: list(game.presets) for name, game in registry.games().items()}
started = set(sys.modules)
engines = {name: game.engine().__module__ for name, game in registry.games().items()}
print(json.dumps({"listed": listed, "started": sorted(started), "engines": engines,
                  "engines_loaded": all(m in sys.modules for m in engines.values())}))
"""


def test_starting_the_server_lists_every_game_but_loads_no_engine_rules_page_or_calculator(tmp_path):
    """A server that starts (its command line, the app, a first request) lists every game and
    preset, but imports no game's engine, rules page, payout calculator, schema, settlement or
    judge: they are imported when first needed (a Pi Zero's memory and start-up). Run in a
    fresh interpreter: this one has imported everything already."""
    import json
    import subprocess

    done = subprocess.run([sys.executable, "-c", STARTED, str(tmp_path / "data")], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert list(out["listed"]) == BUILT_IN and all(out["listed"].values())
    games = Path(registry.__file__).parent
    lazy = {name: [out["engines"][name]] + [f"companion.games.{name}.{m}" for m in ON_DEMAND
                                            if (games / name / f"{m}.py").is_file()] for name in BUILT_IN}
    assert all(len(modules) > 2 for modules in lazy.values())  # every game has its engine and more
    loaded_at_start = {name: [m for m in modules if m in out["started"]] for name, modules in lazy.items()}
    assert loaded_at_start == {name: [] for name in BUILT_IN}
    assert out["engines_loaded"]  # and asking for an engine loads it
