"""Corellian Spike on the table engine (RULES-SPIKE.md "A game"): the parts the table plays
today — antes per game, three rounds of turn, betting and spike dice, no calls, the turn
actions with their fees and the hand-size limits, junk, the Sabacc Shift and the reveal
settled by Spike's ranking. The presets are not yet open to hosts (`live_table`); these tests
open them for themselves."""

from __future__ import annotations

import dataclasses

import pytest

from companion.rules import rulesets
from companion.table.engine import Refused, Table

NAMES = ["Lando", "Han", "Chewie"]


@pytest.fixture
def spike(monkeypatch):
    """Open the spike preset to the table engine for one test."""
    opened = dataclasses.replace(rulesets.RULE_SETS["spike"], live_table=True)
    monkeypatch.setitem(rulesets.RULE_SETS, "spike", opened)

    def make(stack=30) -> Table:
        t = Table.create("SPIKE", {"rules": "spike"})
        for i, name in enumerate(NAMES):
            t.apply({"type": "join", "name": name}, None)
            t.apply({"type": "buy_in", "amount": stack}, f"s{i + 1}")
        return t

    return make


def step(t: Table):
    h = t.view(None)["hand"]
    return h["stage"], h["step"]


def do(t, actor, type_, **fields):
    return t.apply({"type": type_, **fields}, actor)


def test_spike_table_is_refused_to_hosts_until_the_table_plays_all_of_spike():
    with pytest.raises(Refused) as exc:
        Table.create("SPIKE", {"rules": "spike"})
    assert exc.value.field == "rules"


def test_spike_antes_once_a_game_into_the_game_pot_and_the_sabacc_pot(spike):
    t = spike()
    do(t, "host", "start_hand")
    s = t.to_json()
    assert s["sabacc_pot"] == 3 * 2  # ante_sabacc 2 each
    assert {sid: p["committed"] for sid, p in s["hand"]["p"].items()} == {"s2": 1, "s3": 1, "s1": 1}
    assert {sid: seat["stack"] for sid, seat in s["seats"].items()} == {"s1": 27, "s2": 27, "s3": 27}


def play_round(t, actions, bets=None):
    """The turn phase (each player's action, from the dealer's left), a betting phase of
    checks, and the dealer's spike dice (no match)."""
    h = t.to_json()["hand"]
    order = h["players"]
    for sid in order:
        do(t, sid, "draw", action=actions.get(sid, "stand"))
    for sid in order:
        if not t.to_json()["hand"]["p"][sid]["folded"]:
            do(t, sid, "check")
    do(t, t.to_json()["hand"]["dealer"], "roll", dice=[1, 2])


def test_spike_three_rounds_then_the_reveal_and_nobody_calls(spike):
    t = spike()
    do(t, "host", "start_hand")
    for rnd in (1, 2, 3):
        assert t.to_json()["hand"]["round"] == rnd and t.to_json()["hand"]["stage"] == "play"
        with pytest.raises(Refused):
            do(t, "s2", "call_hand")
        play_round(t, {})
    assert t.to_json()["hand"]["stage"] == "reveal"


def test_spike_turn_actions_fees_into_the_game_pot_and_hand_limits(spike):
    t = spike()
    do(t, "host", "start_hand")
    h = t.to_json()["hand"]
    first, second, third = h["players"]
    do(t, first, "draw", action="gain_keep")  # 3 cards, free
    do(t, second, "draw", action="swap")  # fee_swap 2
    do(t, third, "draw", action="gain_keep_discard")  # fee_gain_discard 1
    s = t.to_json()
    p = s["hand"]["p"]
    assert (p[first]["hand_size"], p[second]["hand_size"], p[third]["hand_size"]) == (3, 2, 2)
    assert (p[first]["committed"], p[second]["committed"], p[third]["committed"]) == (1, 3, 2)
    assert s["seats"][second]["stack"] == 27 - 2


def test_spike_a_hand_of_five_cannot_keep_a_gained_card(spike):
    t = spike()
    do(t, "host", "start_hand")
    first = t.to_json()["hand"]["players"][0]
    for _ in range(3):
        play_round(t, {first: "gain_keep"})
    # three rounds of gain-and-keep: 2 + 3 = 5 cards, and the reveal
    assert t.to_json()["hand"]["p"][first]["hand_size"] == 5


def test_spike_keeping_a_sixth_card_is_refused_in_words(spike):
    t = spike()
    do(t, "host", "start_hand")
    first = t.to_json()["hand"]["players"][0]
    t._s["hand"]["p"][first]["hand_size"] = 5  # as after three gains
    with pytest.raises(Refused) as exc:
        do(t, first, "draw", action="gain_keep")
    assert "at most 5" in str(exc.value)


def test_spike_a_fee_the_player_cannot_pay_leaves_the_free_actions(spike):
    t = spike(stack=3)  # 3 - antes 3 = 0 left
    do(t, "host", "start_hand")
    first = t.to_json()["hand"]["players"][0]
    with pytest.raises(Refused):
        do(t, first, "draw", action="swap")
    legal = [x["action"] for x in t.legal(first) if x["type"] == "draw"]
    assert legal == ["stand", "gain_keep", "gain_discard", "junk"]


def test_spike_junk_in_the_turn_phase_and_the_last_player_takes_the_game_pot(spike):
    t = spike()
    do(t, "host", "start_hand")
    first, second, third = t.to_json()["hand"]["players"]
    do(t, first, "draw", action="junk")
    do(t, second, "draw", action="junk")
    s = t.to_json()
    assert s["hand"] is None or s["hand"]["settlement"]["status"] == "conceded"
    assert s["seats"][third]["stack"] == 27 + 3
    assert s["sabacc_pot"] == 6  # the sabacc pot carries


def test_spike_matching_symbols_are_a_sabacc_shift_redealing_the_same_count(spike):
    t = spike()
    do(t, "host", "start_hand")
    h = t.to_json()["hand"]
    for sid in h["players"]:
        do(t, sid, "draw", action="gain_keep" if sid == h["players"][0] else "stand")
    for sid in h["players"]:
        do(t, sid, "check")
    events = do(t, h["dealer"], "roll", dice=[4, 4])
    shift = next(e for e in events if e["type"] == "shift")
    assert shift["kind"] == "sabacc"
    assert "Discard your 3 cards; the dealer deals you 3." in shift["instructions"][h["players"][0]]


def test_spike_reveal_is_settled_by_spikes_ranking(spike):
    t = spike()
    do(t, "host", "start_hand")
    for _ in range(3):
        play_round(t, {})
    first, second, third = t.to_json()["hand"]["players"]
    do(t, first, "reveal", cards=["+4", "-4"])
    do(t, second, "reveal", cards=["+3", "+1"])
    do(t, third, "reveal", cards=["sylop", "-2"])
    s = t.to_json()
    row = s["hands"][-1]
    kinds = {x["name"]: x["kind"] for x in row["settlement"]["hands"]}
    assert kinds == {first: "sabacc_pair", second: "nulrhek", third: "nulrhek"}
    assert row["settlement"]["sabacc_pot_winners"] == [first]
    assert s["seats"][first]["stack"] == 27 + 3 + 6 and s["sabacc_pot"] == 0
