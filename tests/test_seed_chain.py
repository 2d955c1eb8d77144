"""Issue 11, item 5: the verifiable dice hold across a host-given commitment and a full disk.

Every hand's seed is revealed after the hand, its commitment was published before it, no two
hands share a seed, and every roll is derived from it: checked with the project's own verify
code (`companion.scrambler.seed.verify` and `sabacc-companion verify --record`). A full disk
never makes an answer say "nothing changed" about an entry that is on disk, nor the reverse.
"""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from companion.cli import main as cli_main
from companion.refusal import Refused
from companion.scrambler.seed import SeededRoller, verify, verify_chain
from companion.table.engine import Table
from companion.table.ledger import Ledger
from companion.table.owner import HOST, TableOwner
from test_ledger import legal_moves, play_to_the_end, real_table


def hand_records(ledger: Ledger, code: str = "KMXTR") -> list[dict]:
    """Each hand's audit record from the log, as `sabacc-companion verify --record` reads it."""
    hands: list[dict] = []
    for e in ledger.entries(code):
        if not e.applies:
            continue
        if e.type == "start_hand":
            hands.append({"commitment": e.body.get("seed_commitment"), "seed": None, "rolls": []})
        elif e.type == "roll" and e.body.get("dice"):
            trigger = next(ev["roll"]["trigger"] for ev in e.events if ev.get("type") == "rolled")
            hands[-1]["rolls"].append({"trigger": trigger, "dice": e.body["dice"]})
        elif e.type == "reveal_seed":
            hands[-1]["seed"] = e.body["seed"]
    return hands


def assert_chain_verifies(ledger: Ledger, tmp_path, hands_at_least: int) -> list[dict]:
    """Every hand but a running last one: revealed, verified, and its seed used once."""
    hands = hand_records(ledger)
    done = [h for h in hands if h["seed"] is not None]
    assert len(done) >= hands_at_least
    assert all(h["seed"] is not None for h in hands[:-1]), "a finished hand's seed was never revealed"
    commitments = [h["commitment"] for h in hands]
    assert len(set(commitments)) == len(commitments), "two hands share a commitment"
    assert sum(len(h["rolls"]) for h in done) > 0, "no hand rolled: nothing was checked"
    for n, hand in enumerate(done):
        outcome = verify(hand["seed"], hand["commitment"], hand["rolls"])
        assert outcome.ok, (n, outcome.problems)
        record = tmp_path / f"hand-{n}.json"
        record.write_text(json.dumps(hand))
        assert cli_main(["verify", "--record", str(record)]) == 0
    api_log = [{"type": e.type, "body": e.body, "events": e.events, "undone_by": e.undone_by}
               for e in ledger.entries("KMXTR")]
    chain = verify_chain(api_log)
    assert chain.ok, chain.problems
    return hands


def test_item5_verify_chain_finds_an_unrevealed_hand_and_a_reused_commitment():
    seed = "00" * 32
    from companion.scrambler.seed import commitment

    hand = [{"type": "start_hand", "body": {"seed_commitment": commitment(seed)}, "events": []},
            {"type": "reveal_seed", "body": {"seed": seed}, "events": []}]
    assert verify_chain(hand).ok
    broken = verify_chain(hand + hand[:1] + [{"type": "start_hand", "body": {"seed_commitment": "ab" * 32}, "events": []}])
    assert broken.problems == ["hand 2: the commitment of hand 1 again", "hand 2: its seed was never revealed"]


def test_item5_a_host_given_commitment_is_refused_and_every_hand_still_verifies(tmp_path):
    ledger = Ledger(tmp_path / "t.sqlite3")
    try:
        owner = real_table(ledger, SeededRoller())
        size = ledger.count_entries("KMXTR")
        with pytest.raises(Refused) as refused:
            owner.submit({"type": "start_hand", "seed_commitment": "ab" * 32}, HOST)
        assert (refused.value.status, refused.value.field) == (422, "seed_commitment")
        assert "leave seed_commitment out" in refused.value.error
        assert ledger.count_entries("KMXTR") == size  # nothing changed
        for _ in range(3):
            owner.submit({"type": "start_hand"}, HOST)
            play_to_the_end(owner)
        assert_chain_verifies(ledger, tmp_path, 3)
    finally:
        ledger.close()


class DiskFills:
    """The ledger's connection, with a disk that fills on cue: while `full`, every COMMIT fails
    as SQLite's does on a full disk (and leaves nothing written); `fill_at_reveal` fills the
    disk the moment a hand's seed reveal is written (the end of a hand); `after_write` makes
    the next COMMIT report an error although it has written (a late I/O error)."""

    def __init__(self, db):
        self.db = db
        self.full = False
        self.fill_at_reveal = False
        self.after_write = False
        self._tx_reveals = False

    def execute(self, sql, *args):
        if sql.startswith("INSERT INTO entries") and args and args[0][2] == "reveal_seed":
            self._tx_reveals = True
        if sql == "BEGIN IMMEDIATE":
            self._tx_reveals = False
        if sql == "COMMIT":
            if self.fill_at_reveal and self._tx_reveals:
                self.full = True
            if self.full:
                raise sqlite3.OperationalError("database or disk is full")
            if self.after_write:
                self.after_write = False
                self.db.execute(sql)
                raise sqlite3.OperationalError("disk I/O error")
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def test_item5_a_disk_that_fills_at_the_end_of_a_hand_leaves_the_seed_owed_then_revealed(tmp_path):
    ledger = Ledger(tmp_path / "t.sqlite3")
    disk = DiskFills(ledger._db)
    ledger._db = disk
    try:
        owner = real_table(ledger, SeededRoller())
        owner.submit({"type": "start_hand"}, HOST)
        disk.fill_at_reveal = True
        # Play to the end: every answer is a success, and each of those entries is on disk,
        # including the one that ended the hand although its seed's reveal failed.
        for _ in range(200):
            if owner.view()[1]["hand"]["stage"] == "settled":
                break
            actor, entry = [m for m in legal_moves(owner) if m[1]["type"] in ("reveal", "check", "call", "no_call", "roll", "call_hand") or m[1].get("action") == "stand"][0]
            result = owner.submit(entry, actor)
            assert ledger.entry("KMXTR", result.seq).type == entry["type"]
        assert disk.full, "the reveal was attempted and hit the full disk"
        assert [e.type for e in ledger.entries("KMXTR")].count("reveal_seed") == 0
        # No hand starts while the seed is owed: refused in words, nothing written.
        size = ledger.count_entries("KMXTR")
        with pytest.raises(Refused) as refused:
            owner.submit({"type": "start_hand"}, HOST)
        assert refused.value.status == 503 and "seed could not be revealed" in refused.value.error
        assert ledger.count_entries("KMXTR") == size
        # Room again: the next command first pays the owed reveal, then the chain goes on.
        disk.full = disk.fill_at_reveal = False
        owner.submit({"type": "buy_in", "amount": 5}, "s1")
        types = [e.type for e in ledger.entries("KMXTR")]
        assert types[-2:] == ["reveal_seed", "buy_in"]
        for _ in range(2):
            owner.submit({"type": "start_hand"}, HOST)
            play_to_the_end(owner)
        assert_chain_verifies(ledger, tmp_path, 3)
        # A restart verifies the same chain and goes on with an unused seed.
        ledger._db = disk.db
        ledger.close()
        ledger = Ledger(tmp_path / "t.sqlite3")
        owner = TableOwner("KMXTR", ledger, Table, SeededRoller())
        owner.submit({"type": "start_hand"}, HOST)
        play_to_the_end(owner)
        assert_chain_verifies(ledger, tmp_path, 4)
    finally:
        ledger.close()


def test_item5_a_commit_that_errs_after_writing_is_answered_as_written(tmp_path):
    ledger = Ledger(tmp_path / "t.sqlite3")
    disk = DiskFills(ledger._db)
    ledger._db = disk
    try:
        owner = real_table(ledger, SeededRoller())
        disk.after_write = True
        result = owner.submit({"type": "start_hand"}, HOST)  # on disk: a success, not a 503
        assert ledger.entry("KMXTR", result.seq).type == "start_hand"
        assert owner.version == result.seq == ledger.last_seq("KMXTR")
        play_to_the_end(owner)
        assert_chain_verifies(ledger, tmp_path, 1)
    finally:
        ledger.close()


def test_item5_the_seed_chain_holds_with_the_disk_filling_at_random_points(tmp_path):
    """The drill of the issue: SQLite's own full-disk error (PRAGMA max_page_count) at random
    moments of several hands. An answered entry is on disk, a refused one is not, every
    finished hand's seed is revealed and verifies, and no commitment is used twice."""
    rng = random.Random(11)
    ledger = Ledger(tmp_path / "t.sqlite3")
    db = ledger._db
    try:
        owner = real_table(ledger, SeededRoller())
        refusals = 0
        for step in range(700):
            if step % 9 == 0:  # the disk fills (no page more) or is cleared again
                pages = db.execute("PRAGMA page_count").fetchone()[0]
                db.execute(f"PRAGMA max_page_count={pages if rng.random() < 0.5 else 1 << 30}")
            moves = [m for m in legal_moves(owner) if m[1]["type"] != "end_session"] or [(HOST, {"type": "start_hand"})]
            actor, entry = rng.choice(moves)
            before = ledger.count_entries("KMXTR")
            try:
                result = owner.submit(entry, actor)
            except Refused as exc:
                assert exc.status in (409, 422, 503, 507), exc.error
                if exc.status == 503:
                    refusals += 1
                    # "nothing changed" is true: the entry is not on disk (a pending reveal
                    # may have been written first, before the refused entry).
                    assert all(e.type == "reveal_seed" for e in ledger.entries("KMXTR", after=before))
                continue
            assert ledger.entry("KMXTR", result.seq).type == entry["type"]
        db.execute("PRAGMA max_page_count=1073741824")
        if (owner.view()[1].get("hand") or {}).get("stage", "settled") != "settled":
            play_to_the_end(owner)
        owner.submit({"type": "buy_in", "amount": 1}, "s1")  # pays an owed reveal, if any
        assert refusals > 0, "the disk never filled during a write"
        hands = assert_chain_verifies(ledger, tmp_path, 2)
        assert all(h["seed"] for h in hands)
    finally:
        ledger.close()
