"""A table's snapshot is its state's JSON, each settled history row encoded once (issue 19).

At hand 500 a snapshot had cost 21 ms of copying and encoding the whole session's history at
every hand's start; `Table.snapshot_text` remembers the text of each settled row (a command
copies only the latest row), so a snapshot encodes only what changed. These tests hold it to
the bytes `json.dumps` of `to_json()` gives, through hands, undos and a dealer's choice, and
count the rows encoded.
"""

from __future__ import annotations

import json

import pytest

from companion.bench.play import build_session, owner_actor, play_hand
from companion.table import engine
from companion.table.registry import Registry


def _plain(table) -> str:
    return json.dumps(table.to_json(), separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("rules", ["weg", "spike"])
def test_the_snapshot_text_is_the_states_json_after_every_entry(tmp_path, rules):
    reg = Registry(tmp_path)
    try:
        owner, _, tokens = build_session(reg, {"rules": rules}, ["Lando", "Han", "Qi'ra ✦"], 2)
        act = owner_actor(owner, list(tokens))
        checked = 0
        for _ in range(3):
            for _ in play_hand(act, owner.table.view(None)):
                assert owner.table.snapshot_text() == _plain(owner.table)
                checked += 1
        owner.undo("host")  # an undone entry's rows are gone from the text too
        assert owner.table.snapshot_text() == _plain(owner.table)
        assert checked > 20
        # What the ledger holds loads back as the same table.
        assert type(owner.table).from_json(reg.ledger.snapshot(owner.code).state) is not None
        owner.close()
        reloaded = Registry(tmp_path).get(owner.code)
        assert reloaded.table.to_json() == owner.table.to_json()
    finally:
        reg.close()


def test_a_snapshot_encodes_only_the_rows_that_changed(tmp_path, monkeypatch):
    reg = Registry(tmp_path)
    try:
        owner, _, tokens = build_session(reg, {"rules": "weg"}, ["Lando", "Han"], 12)
        rows = len(owner.table.to_json()["hands"]) + len(owner.table.to_json()["stack_history"])
        assert rows >= 24
        owner.table.snapshot_text()  # every row once
        encoded: list[object] = []
        real = engine.dumps
        monkeypatch.setattr(engine, "dumps", lambda value: encoded.append(value) or real(value))
        act = owner_actor(owner, list(tokens))
        for _ in play_hand(act, owner.table.view(None)):
            pass
        encoded.clear()  # (the hand's start took a snapshot of its own)
        owner.table.snapshot_text()
        # The other keys of the state, plus the one or two rows per history list the hand
        # added or changed: not the session's rows again.
        keys = len(owner.table.to_json())
        assert len(encoded) <= 2 * keys + 4, len(encoded)
    finally:
        reg.close()
