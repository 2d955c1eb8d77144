"""Issue 14 and the rulings of RULES.md's "Rulings added in the third round of play-testing", one
test (or a few) per item, named after it. Each failed on the engine before it.

Seats: Lando s1 (the first dealer), Han s2, Chewie s3, Leia s4; play starts at the dealer's left.
"""

from __future__ import annotations

import pytest

from companion.table.engine import HOST, Refused, Table

NAMES = ["Lando", "Han", "Chewie", "Leia"]


def table(rules="classic", players=2, stack=30, **settings) -> Table:
    t = Table.create("THIRD", {"rules": rules, **settings})
    for i in range(players):
        t.apply({"type": "join", "name": NAMES[i]}, None)
        t.apply({"type": "buy_in", "amount": stack}, f"s{i + 1}")
    return t


def do(t: Table, actor, type_, **fields):
    return t.apply({"type": type_, **fields}, actor)


def refused(t: Table, actor, type_, **fields) -> Refused:
    before = t.to_json()
    with pytest.raises(Refused) as info:
        t.apply({"type": type_, **fields}, actor)
    assert t.to_json() == before, "a refused command changed the table"
    return info.value


def hand(t: Table, seat=None):
    return t.view(seat)["hand"]


def legal(t: Table, seat) -> list[str]:
    return [m["type"] for m in t.view(seat)["you"]["legal"]]


def quiet_dice(t: Table) -> list[int]:
    """A roll that shifts nothing: a 6 under d6-low, a 1-2 under two d6."""
    return [6] if t.rules.scrambler_trigger.value == "d6-low" else [1, 2]


def quiet_turn(t: Table, sid):
    """A quiet weg/classic turn: check, roll without a shift, stand."""
    do(t, sid, "check")
    do(t, sid, "roll", dice=quiet_dice(t))
    do(t, sid, "draw", action="stand")


def to_round_2(rules="weg", players=4, stack=50, **settings) -> Table:
    """Every player had a quiet turn; round 2 begins with Han's bet step."""
    t = table(rules, players=players, stack=stack, **settings)
    do(t, HOST, "start_hand")
    order = [f"s{i}" for i in range(2, players + 1)] + ["s1"]
    for sid in order:
        quiet_turn(t, sid)
    assert (hand(t)["round"], hand(t)["turn"], hand(t)["do"]) == (2, "s2", "bet")
    return t


# -- 1. a folded turn player's call window --------------------------------------------------------

@pytest.mark.parametrize("rules", ["weg", "classic"])
def test_item1_folded_turn_players_call_window_closes_when_the_next_player_acts(rules):
    t = to_round_2(rules)
    do(t, "s2", "fold")  # Han folds in his own turn: he still rolls
    do(t, HOST, "roll", dice=quiet_dice(t))
    h = hand(t)
    assert (h["turn"], h["do"], h["call_open"]) == ("s2", "call", True)
    assert "check" in legal(t, "s3") and "bet" in legal(t, "s3")  # Chewie's move is offered
    assert "call_hand" in legal(t, "s4")  # the others may still call while it is open
    assert refused(t, "s4", "fold").status == 409  # Leia's fold is not the next turn's move
    events = do(t, "s3", "check")  # Chewie, the next player, acts: the window closes
    assert [e["type"] for e in events][:2] == ["no_call", "step"]
    h = hand(t)
    assert (h["turn"], h["do"], h["call_open"], h["called_by"]) == ("s3", "roll", False, None)
    assert refused(t, "s4", "call_hand").status == 409


def test_item1_the_next_players_bet_also_closes_it_and_the_host_may_still_tap_it_shut():
    t = to_round_2("weg")
    do(t, "s2", "fold")
    do(t, "s2", "roll", dice=[6])
    do(t, "s3", "bet", amount=2)
    assert (hand(t)["to_act"], hand(t)["current_bet"]) == ("s4", 2)
    t = to_round_2("weg")
    do(t, "s2", "fold")
    do(t, "s2", "roll", dice=[6])
    do(t, HOST, "no_call")
    assert (hand(t)["turn"], hand(t)["do"]) == ("s3", "bet")
