"""The benchmark's scripted play (companion.bench.play) at a Corellian Spike table: fast, in the
default run (not a benchmark). The bench prepares its tables with `prepare(..., rules)` and plays
its growth hands with `play_hand`; both are driven here, so `sabacc-companion bench --rules spike`
plays whole Spike hands through the same code."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.bench import prepare
from companion.bench import play
from companion.bench.play import build_session, owner_actor, play_hand
from companion.games.spike.hands import SPIKE_DECK
from companion.table.registry import Registry


def test_the_bench_prepares_spike_tables_with_whole_hands_played(tmp_path):
    tables = prepare(tmp_path, 3, "spike")
    reg = Registry(tmp_path)
    try:
        long = reg.get(tables["long"].code).table.view(None)
        assert long["rules"]["name"] == "spike"
        assert long["hand_no"] == 3
        assert long["hand"]["stage"] == "settled"
        assert long["hand"]["round"] == 3  # Spike's three rounds, nobody called
        assert long["hand"]["settlement"] is not None
        for p in long["hand"]["players"]:
            cards = p["cards"]
            assert 2 <= len(cards) <= 5 and all(c in SPIKE_DECK.cards for c in cards)
        shown = Counter(c for p in long["hand"]["players"] for c in p["cards"])
        assert all(n <= SPIKE_DECK.cards[c].copies for c, n in shown.items())
        five = reg.get(tables["five"].code).table.view(None)
        assert five["rules"]["name"] == "spike" and five["hand"]["stage"] == "play"
    finally:
        reg.ledger.close()


def test_the_bench_plays_a_spike_hand_through_every_step(tmp_path):
    reg = Registry(tmp_path)
    try:
        owner, _, tokens = build_session(reg, {"rules": "spike"}, ["Lando", "Han", "Leia"], 0)
        seen = Counter()
        for state in play_hand(owner_actor(owner, list(tokens)), owner.table.view(None)):
            hand = state["hand"]
            seen[(hand["stage"], hand["phase"])] += 1
        assert {("play", "turn"), ("play", "betting"), ("play", "spike")} <= set(seen)
        assert seen[("play", "spike")] >= 3  # a spike roll each round
        assert state["hand"]["stage"] == "settled"
        assert sum(s["stack"] for s in state["seats"]) + state["sabacc_pot"] == 3 * 200
    finally:
        reg.ledger.close()


def test_a_spike_tie_goes_to_a_blind_draw_and_the_bench_settles_it(tmp_path, monkeypatch):
    """Every hand the same value (a tie for all): the players enter blind-draw cards once each."""
    monkeypatch.setattr(play, "reveal_cards", lambda hand, seat, deck: ["+1", "-1"])
    reg = Registry(tmp_path)
    try:
        owner, _, tokens = build_session(reg, {"rules": "spike"}, ["Lando", "Han", "Leia"], 0)
        stages = [s["hand"]["stage"] for s in play_hand(owner_actor(owner, list(tokens)),
                                                         owner.table.view(None))]
        assert "demise" in stages and stages[-1] == "settled"
    finally:
        reg.ledger.close()


@pytest.mark.parametrize("preset", ["weg", "spike"])
def test_the_bench_option_names_the_rule_set(preset):
    import argparse

    from companion.bench import register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["bench", "--rules", preset] if preset != "weg" else ["bench"])
    assert args.rules == preset
