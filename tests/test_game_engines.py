"""Each game's engine brings its own moves (issue 29): classic's and Spike's live-table engines
compose the shared dealt-hand engine with sections from their own packages, and a table accepts
only its game's moves besides the runtime's."""

from __future__ import annotations

import pytest

from companion.table.commands import COMMANDS as RUNTIME
from companion.table.dealt import DealtHand
from companion.table.engine import HOST, Refused, Table

CLASSIC_MOVES = {"call_hand", "no_call", "declare_side", "static_add", "static_remove"}
SPIKE_MOVES = {"discard_top", "show", "no_show"}


def table(preset: str) -> Table:
    t = Table.create("GAME", {"rules": preset})
    for name in ("Han", "Leia"):
        t.apply({"type": "join", "name": name}, None)
        t.apply({"type": "buy_in", "seat": t.seat_ids()[-1], "amount": 50}, HOST)
    t.apply({"type": "start_hand"}, HOST)
    return t


@pytest.mark.parametrize("preset, own, other", [("classic", CLASSIC_MOVES, SPIKE_MOVES),
                                                ("spike", SPIKE_MOVES, CLASSIC_MOVES)])
def test_a_table_accepts_its_own_games_moves_and_refuses_another_games(preset, own, other):
    t = table(preset)
    assert own <= set(t.command_schemas()) and not other & set(t.command_schemas())
    before = t.to_json()
    for typ in sorted(other):
        with pytest.raises(Refused) as refused:
            t.apply({"type": typ, "seat": "s1", "card": "x", "cards": [], "side": "light"}, HOST)
        assert (refused.value.status, refused.value.field) == (400, "type"), typ
    assert t.to_json() == before  # nothing half-applied


def test_the_runtime_names_no_games_move_but_the_api_lists_every_one():
    assert not (CLASSIC_MOVES | SPIKE_MOVES) & set(RUNTIME)
    assert not (CLASSIC_MOVES | SPIKE_MOVES) & set(DealtHand.COMMANDS)
    assert (CLASSIC_MOVES | SPIKE_MOVES | set(RUNTIME)) <= set(Table.every_command_schema())


def test_each_games_own_move_is_played_through_its_own_section():
    """A classic table's seat lays a card in the static field (classic's section) and a Spike
    table's seat enters the discard pile's top card (the face-up pile's block)."""
    classic = table("classic")
    h = classic.view()["hand"]
    sid = h["turn"] or h["to_act"]
    events = classic.apply({"type": "static_add", "card": "sa5", "seat": sid}, HOST)
    assert events[-1]["type"] == "static_added" and classic.view()["hand"]["players"][
        [p["seat"] for p in classic.view()["hand"]["players"]].index(sid)]["static"] == ["sa5"]
    spike = table("spike")
    card = next(iter(spike.rules.deck.cards))
    spike.apply({"type": "discard_top", "card": card}, HOST)
    assert spike.view()["hand"]["discard_top"] == card
