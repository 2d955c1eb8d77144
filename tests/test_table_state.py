"""The table state holds exactly what companion/table/state.py declares, and the game its own
fields (issue 16's guard; a game's `OWN_STATE`, issue 29).

The type checker (tests/test_types.py) proves that the engine reads and writes only declared
keys; these tests check the other side at run time: a snapshot, fresh or migrated from an older
version, has every declared key of every record and no undeclared one. A key written past the
declaration (or one the declaration lost) fails here, and a key read from a record that an older
snapshot lacks cannot be: `migrate` gives every record today's keys.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.refusal import Refused
from companion.rules.rulesets import ruleset_from
from companion.table.engine import Game, Table, engine_of
from companion.table.ledger import Ledger
from companion.table.state import (
    Betting,
    DealJob,
    DrewLast,
    Hand,
    HistoryRow,
    OwnState,
    Player,
    Seat,
    Settings,
    Step,
    TableState,
)
from test_table_fuzz import PRESETS, Fuzz

FIXTURE = Path(__file__).parent / "fixtures" / "table-snapshot-v0.json"


def _keys(record: dict[str, Any], declared: Any, where: str, own: Any = ()) -> list[str]:
    """What `record` holds beyond, or lacks of, the keys the TypedDict `declared` names and the
    game's own fields `own` (its `OWN_STATE.hand` or `.player`: required as well)."""
    names = set(declared.__required_keys__) | set(declared.__optional_keys__) | set(own)
    out = [f"{where} holds {k!r}, which neither {declared.__name__} nor the game declares"
           for k in sorted(set(record) - names)]
    out += [f"{where} lacks {k!r} of {declared.__name__} or the game"
            for k in sorted((set(declared.__required_keys__) | set(own)) - set(record))]
    return out


def own_state(state: dict[str, Any]) -> OwnState:
    """The game's own fields at the table of snapshot `state` (its engine's `OWN_STATE`)."""
    return engine_of(ruleset_from(state["settings"]["rules"])).OWN_STATE


def shape_problems(state: dict[str, Any]) -> list[str]:
    """Every record of a snapshot against its declaration; an empty list when all hold. (An
    older snapshot may lack whole fields: what is missing is reported, not looked into.)"""
    out = _keys(state, TableState, "the state") + _keys(state.get("settings", {}), Settings, "settings")
    for where in ("seats", "departed"):
        for sid, seat in state.get(where, {}).items():
            out += _keys(seat, Seat, f"{where}[{sid}]")
    for i, row in enumerate(state.get("hands", [])):
        out += _keys(row, HistoryRow, f"hands[{i}]")
    h = state.get("hand")
    if h is not None:
        own = own_state(state)
        out += _keys(h, Hand, "the hand", own.hand)
        for sid, p in h.get("p", {}).items():
            out += _keys(p, Player, f"hand.p[{sid}]", own.player)
        for i, st in enumerate(h.get("steps", [])):
            out += _keys(st, Step, f"hand.steps[{i}]")
        for i, job in enumerate(h.get("deal", [])):
            out += _keys(job, DealJob, f"hand.deal[{i}]")
        if h.get("betting") is not None:
            out += _keys(h["betting"], Betting, "hand.betting")
        if h.get("drew_last") is not None:
            out += _keys(h["drew_last"], DrewLast, "hand.drew_last")
    return out


class ShapeFuzz(Fuzz):
    """The random-play fuzz's table, its snapshot checked against the declarations after every
    command it accepts or refuses."""

    def check(self) -> None:
        super().check()
        assert shape_problems(self.table.to_json()) == []


@pytest.mark.parametrize("preset", PRESETS)
def test_every_record_of_a_played_table_holds_exactly_its_declared_keys(tmp_path, preset):
    """Hands played by random legal moves: after every command the snapshot's records (the
    state, seats, hand, players, steps, betting round, deal, history rows) match state.py."""
    ledger = Ledger(tmp_path / "shape.sqlite3")
    try:
        fuzz = ShapeFuzz(ledger, "SHAPE", preset, {}, random.Random(f"shape {preset}"))
        for _ in range(2):
            fuzz.play_hand()
        assert fuzz.table.to_json()["hands"], "no hand was settled: the history went unchecked"
    finally:
        ledger.close()


def test_an_older_snapshot_migrates_to_exactly_the_declared_keys():
    """tests/fixtures/table-snapshot-v0.json (written before fields were added) loads with every
    field added since, so a key read of today's engine finds it."""
    old = json.loads(FIXTURE.read_text())
    assert shape_problems(old), "the fixture should predate some field"
    assert shape_problems(Table.from_json(old).to_json()) == []


def test_the_hand_in_play_is_refused_not_crashed_when_the_table_has_none():
    """`Play.hand`, the engine's one accessor for the hand: with no hand at all a step that
    needs one is a 409 refusal, never a TypeError (a 500)."""
    t = Table.create("NOHND", {"rules": "weg"})
    game = Game(t.to_json(), t.rules, ())
    with pytest.raises(Refused) as refused:
        game.hand
    assert refused.value.status == 409 and "no hand" in refused.value.error
