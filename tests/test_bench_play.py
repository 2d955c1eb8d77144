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
    monkeypatch.setattr(play, "reveal_cards", lambda hand, seat, deck, kept=None: ["+1", "-1"])
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


def _credits(state: dict) -> tuple[int, int]:
    """(credits at the table: stacks and the table's pot, credits brought: bought in less cashed
    out plus the host's adjustments), between hands, when no pot of a hand holds any."""
    seats = state["seats"]
    held = sum(s["stack"] for s in seats) + state["sabacc_pot"]
    return held, sum(s["bought_in"] - s["cashed_out"] + s["adjusted"] for s in seats)


@pytest.mark.slow
def test_the_bench_plays_every_registered_preset_through_a_real_server(tmp_path):
    """Every registered preset, at a table made over HTTP on the real server: the bench's
    player (scripted for classic and Spike, by the offers for any other game) plays two hands
    with no 5xx (the bench's actor raises on one), every move it sends a 200 or a 4xx it
    retries, and after them the credits at the table are the credits brought to it. A game
    played to a winner (Kessel: one hand is the whole game) is started again as a new table."""
    from companion.bench import NO_LIMITS, new_table, play_hands
    from companion.bench.clients import JsonClient
    from companion.bench.server import ServerProcess
    from companion.games import registry

    played: dict[str, tuple[int, int, int]] = {}
    with ServerProcess(tmp_path / "data", prelude=NO_LIMITS) as srv:
        client = JsonClient(srv.port)
        for preset in registry.presets():
            times: list[float] = []
            out: dict = {}
            table = play_hands(client, new_table(client, preset, 3), 2, times, out)
            status, body, _ = client.call("GET", f"/api/v1/tables/{table.code}", None, table.host)
            assert status == 200
            state = body["state"]
            assert state["rules"]["name"] == preset
            assert state["hand"]["stage"] == "settled" and state["hand_no"] >= 1
            assert state["departed"] == []  # the player never leaves nor cashes out
            held, brought = _credits(state)
            assert held == brought, preset
            played[preset] = (len(times), state["hand_no"], out.get("new_tables", 0))
        client.close()
    assert set(played) == set(registry.presets())
    assert all(moves >= 2 * 3 for moves, _, _ in played.values())  # at least a move a seat a hand
    assert played["kessel"][2] == 1 and played["kessel-plain"][2] == 1  # the second game: a new table
    assert played["weg"][1] == 2 and played["spike"][1] == 2  # hands within one session


def test_the_bench_server_is_the_build_the_bench_runs_with_wherever_it_is_started(tmp_path, monkeypatch):
    """A benchmark started from a checkout of another version (a `companion/` package in the
    working folder) still measures its own build: the server it starts does not import the
    working folder's package (here one that cannot be imported), and answers."""
    from companion.bench.clients import JsonClient
    from companion.bench.server import ServerProcess

    elsewhere = tmp_path / "checkout"
    (elsewhere / "companion").mkdir(parents=True)
    (elsewhere / "companion" / "__init__.py").write_text("raise ImportError('the working folder\\'s companion')\n")
    monkeypatch.chdir(elsewhere)
    with ServerProcess(tmp_path / "data") as srv:
        client = JsonClient(srv.port)
        status, body, _ = client.call("GET", "/api/v1/ping")
        client.close()
    assert status == 200 and body["ok"] is True
