"""The money of a hand as the table records and tells it (issue 28): Spike's junk penalty in
either phase, the log's words for where a fee went, the evening summary's "Put in", "Took out"
and net reconciled, and a bet, raise or call of a whole stack told as all-in."""

from __future__ import annotations

import csv
import io

from companion.server.host_pages import event_words
from companion.table.engine import HOST, Table

NAMES = ("Lando", "Han", "Chewie")


def spike_table(penalty: int = 2, stack: int = 30) -> Table:
    """A Spike table with a junk penalty and three seats (Lando, Han, Chewie), each bought in."""
    t = Table.create("JUNK", {"rules": {"preset": "spike", "junk_penalty": penalty}})
    for i, name in enumerate(NAMES):
        t.apply({"type": "join", "name": name}, None)
        t.apply({"type": "buy_in", "amount": stack}, f"s{i + 1}")
    return t


def test_spike_junking_pays_the_junk_penalty_into_the_game_pot_in_the_turn_phase_as_in_the_betting_phase():
    """RULES-SPIKE.md: the junk penalty goes into the game pot whenever a player junks."""
    t = spike_table(penalty=2)
    t.apply({"type": "start_hand"}, HOST)  # antes: 1 to the game pot, 2 to the sabacc pot each
    first, second, third = t.to_json()["hand"]["players"]
    events = t.apply({"type": "draw", "action": "junk"}, first)  # the turn phase
    view = t.view(None)
    stacks = {s["seat"]: s["stack"] for s in view["seats"]}
    assert stacks[first] == 30 - 3 - 2
    assert view["hand"]["hand_pot"] == 3 + 2 and view["sabacc_pot"] == 6
    folded = next(e for e in events if e["type"] == "folded")
    assert folded["fee"] == 2
    for sid in (second, third):
        t.apply({"type": "draw", "action": "stand"}, sid)
    t.apply({"type": "bet", "amount": 1}, second)
    t.apply({"type": "fold"}, third)  # the betting phase: junks, pays the same penalty
    s = t.to_json()
    # Han takes the game pot uncontested: the antes, his bet and both penalties.
    assert s["seats"][second]["stack"] == 30 - 3 - 1 + (3 + 1 + 2 + 2)
    assert s["seats"][third]["stack"] == 30 - 3 - 2
    assert s["sabacc_pot"] == 6  # no penalty went into the sabacc pot
    assert t.credits() == 90


def test_spike_a_junk_with_an_empty_stack_pays_no_penalty():
    t = spike_table(penalty=2)
    t.apply({"type": "start_hand"}, HOST)
    first = t.to_json()["hand"]["players"][0]
    t.apply({"type": "adjust", "seat": first, "amount": -27, "reason": "all in"}, HOST)
    events = t.apply({"type": "draw", "action": "junk"}, first)
    assert next(e for e in events if e["type"] == "folded")["fee"] == 0
    assert t.to_json()["seats"][first]["stack"] == 0


def test_the_log_says_a_junk_penalty_goes_to_the_game_pot_and_a_fold_fee_to_the_sabacc_pot():
    t = spike_table(penalty=2)
    t.apply({"type": "start_hand"}, HOST)
    first = t.to_json()["hand"]["players"][0]
    folded = next(e for e in t.apply({"type": "draw", "action": "junk"}, first) if e["type"] == "folded")
    words = event_words(folded, {"s1": "Lando", "s2": "Han", "s3": "Chewie"})
    assert words is not None and "paying 2 to the game pot" in words and "sabacc" not in words

    weg = Table.create("FOLD", {"rules": "weg"})
    for i, name in enumerate(NAMES[:2]):
        weg.apply({"type": "join", "name": name}, None)
        weg.apply({"type": "buy_in", "amount": 20}, f"s{i + 1}")
    weg.apply({"type": "start_hand"}, HOST)
    turn = weg.view(None)["hand"]["turn"]
    weg.apply({"type": "bet", "amount": 1}, turn)
    other = next(sid for sid in ("s1", "s2") if sid != turn)
    folded = next(e for e in weg.apply({"type": "fold"}, other) if e["type"] == "folded")
    assert event_words(folded, {"s1": "Lando", "s2": "Han"}).endswith("paying 1 to the sabacc pot")
    assert weg.to_json()["sabacc_pot"] == 2 + 1
