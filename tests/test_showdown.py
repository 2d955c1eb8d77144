"""The runtime's showdown (`companion/rules/showdown.py`): the settlement of every game played
with a `RuleSet` begins there, and no game's package borrows another game's.

Issue 29: "Mechanisms several games use ... are building blocks a game composes, named for what
they do, not for the game that used them first." Classic's and Corellian Spike's settlements,
calculators and calculator schemas share the showdown; each game's own fields of a player are
its own `PlayerReveal`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.games import registry
from companion.rules.rulesets import ruleset_from
from companion.rules.settle import InvalidReveal, award
from companion.rules.showdown import SETTLED, Judged, PlayerReveal, Settlement, read_request, settle
from companion.rules import showdown_schema

GAMES = Path(__file__).resolve().parent.parent / "companion" / "games"


def games_imported(path: Path) -> set[str]:
    """The games' packages a module imports (`companion.games.<name>`), the interface and the
    registry left out."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else \
            [node.value] if isinstance(node, ast.Constant) and isinstance(node.value, str) else []
        # A lazy reference ("companion.games.<name>.module:function") is an import too.
        for name in names:
            parts = name.split(":")[0].split(".")
            if parts[:2] == ["companion", "games"] and len(parts) > 2 and parts[2] not in ("api", "registry"):
                found.add(parts[2])
    return found


def test_no_games_package_imports_another_games():
    """Each game's package imports the runtime and itself, never another game: what two games
    share is the runtime's (the showdown, the tie draw, the pots)."""
    packages = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").exists())
    assert {"classic", "spike", "kessel", "coruscant"} <= set(packages)
    borrowed = {f"{package}/{path.relative_to(GAMES / package)}": games_imported(path) - {package}
                for package in packages for path in sorted((GAMES / package).rglob("*.py"))}
    assert {where: names for where, names in borrowed.items() if names} == {}


def test_a_game_with_no_fields_of_its_own_settles_with_the_showdown_and_a_finish_of_its_own():
    """The showdown's own `PlayerReveal` and a finish that splits every tie: Rey's zero (a
    Sabacc) beats Finn's 3 for the pot of 12 (Poe folded after 2) and takes the sabacc pot, 10.
    Credits are conserved."""
    rules = ruleset_from("spike")  # any rule set's deck and hand ranking

    def split_ties(j: Judged) -> Settlement:
        received, pots, _, sabacc, winners = award(j.names, j.built, j.pot_ties, j.sabacc_tie, j.standing,
                                                   lambda tie, others: tie, j.sabacc_pot)
        return Settlement(SETTLED, j.hands, pots=tuple(pots), sabacc_pot_winners=tuple(j.names[i] for i in winners),
                          sabacc_pot_after=sabacc, payouts={n: received[i] for i, n in enumerate(j.names)})

    players = [PlayerReveal("Rey", ("+1", "-1"), committed=5), PlayerReveal("Finn", ("+5", "-2"), committed=5),
               PlayerReveal("Poe", (), committed=2, folded=True)]
    s = settle(rules, players, 10, split_ties)
    assert s.status == SETTLED
    assert s.payouts == {"Rey": 22, "Finn": 0, "Poe": 0} and s.sabacc_pot_after == 0
    assert s.sabacc_pot_winners == ("Rey",)
    assert sum(s.payouts.values()) + s.sabacc_pot_after == 5 + 5 + 2 + 10


def test_a_tie_card_in_a_hand_won_by_the_last_player_standing_is_refused_in_the_games_words():
    """Nobody is tied when everyone else folded: a tie card sent then is refused at its field,
    the tie named as the game names it."""
    classic = registry.presets()["classic"]
    reveal = classic.hands.reveal_class()
    players = [reveal("Han", ("co1", "sa2"), committed=5, demise=("fl3",)),
               reveal("Leia", (), committed=5, folded=True)]
    with pytest.raises(InvalidReveal) as err:
        settle(classic, players, 0, lambda j: pytest.fail("nothing to finish"))
    assert err.value.field == "players[0].demise"
    assert classic.words.tie in err.value.message


@pytest.mark.parametrize("preset, own, other", [("classic", "demise", "blind_draw"),
                                                ("spike", "blind_draw", "demise")])
def test_a_request_is_read_with_the_fields_of_its_games_own_reveal(preset, own, other):
    """A calculator request's player is the rules' game's `PlayerReveal`: its own field is read,
    another game's is an unknown field, refused where it was sent."""
    tied = {"rules": preset, "sabacc_pot": 0, "players": [
        {"name": "A", "cards": ["+2", "-2"] if preset == "spike" else ["co10", "sa9"], "committed": 5},
        {"name": "B", "cards": ["+3", "-3"] if preset == "spike" else ["fl10", "st9"], "committed": 5}]}
    rules, players, _ = read_request(tied)
    assert type(players[0]) is rules.hands.reveal_class() and own in type(players[0]).OWN_FIELDS
    tied["players"][1][other] = ["+1"] if preset == "spike" else ["co1"]
    with pytest.raises(InvalidReveal) as err:
        read_request(tied)
    assert err.value.field == f"players[1].{other}" and "unknown field" in err.value.message


def test_every_rule_set_game_declares_the_same_calculator_schema():
    """The request every game played with a `RuleSet` reads is one set of components (the
    OpenAPI document lists it once), with each game's own fields and tie answer in it."""
    declared = [g.calculator_schema() for g in registry.games().values()
                if g.calculator_schema is not None and g.calculator_schema().request == "SettleRequest"]
    assert len(declared) >= 2
    assert all(d.components == declared[0].components for d in declared)
    player = declared[0].components["PlayerReveal"]["properties"]
    for reveal in showdown_schema.reveals(showdown_schema.rule_sets()):
        assert set(reveal.OWN_FIELDS) <= set(player)
    assert {"SuddenDemise", "BlindDraw"} <= set(declared[0].components)
