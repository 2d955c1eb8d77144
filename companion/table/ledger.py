"""The ledger: every table's entries, appended to SQLite and committed before anyone is told.

A table's state is what its entries say. The ledger stores, per table:

- `entries`: one row per accepted entry (a command with its resolved dice, a join, an undo),
  numbered `seq` = 1, 2, 3, ... with its actor, time, idempotency key, the events it produced,
  and `undone_by` (the seq of the undo entry that cancelled it, if any);
- `snapshots`: the full state (`Table.to_json()`) after some entries — always after entry 0
  (the new table), at the start of every hand and every `SNAPSHOT_EVERY` entries — so loading
  a table costs one snapshot plus a few entries however long the evening has run (only the
  current hand's snapshots are kept);
- `tokens`: a hash of each seat's secret token (the tokens themselves are never stored).

The database runs in WAL mode with `synchronous=FULL`: once `append` returns, the entry is on
disk and survives a pulled plug. One connection is shared by all threads behind a lock;
the owners already apply one command at a time per table, so the lock is rarely contended.

    >>> import tempfile, pathlib
    >>> ledger = Ledger(pathlib.Path(tempfile.mkdtemp()) / "tables.sqlite3")
    >>> ledger.create_table("KMXTR", {"rules": "any preset"}, "hash", {"state": 0})
    >>> ledger.append("KMXTR", Entry(1, "bet", "s1", {"type": "bet", "amount": 3}, 0.0, None, None, []))
    >>> [e.type for e in ledger.entries("KMXTR")]
    ['bet']
    >>> ledger.close()
"""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from companion.refusal import Refused
from companion.table.state import dumps

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    created REAL NOT NULL,
    settings TEXT NOT NULL,
    host_token_hash TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
    table_code TEXT NOT NULL,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    actor TEXT,
    body TEXT NOT NULL,
    ts REAL NOT NULL,
    idempotency_key TEXT,
    undone_by INTEGER,
    events TEXT NOT NULL,
    PRIMARY KEY (table_code, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS entries_by_key
    ON entries (table_code, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE TABLE IF NOT EXISTS snapshots (
    table_code TEXT NOT NULL,
    seq INTEGER NOT NULL,
    hand_start INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL,
    PRIMARY KEY (table_code, seq)
);
CREATE TABLE IF NOT EXISTS tokens (
    table_code TEXT NOT NULL,
    seat TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    issued REAL NOT NULL,
    PRIMARY KEY (table_code, seat)
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT
);
"""

#: The type of the counter-entry that cancels an earlier entry.
UNDO = "undo"

#: Free space the data folder's disk must keep (docs/DATA-SAFETY.md). Below `MIN_FREE_COMMAND`
#: no command is accepted, below `MIN_FREE_TABLE` no new table: the tables already playing keep
#: room to finish their hands (and reveal their seeds) after new tables are refused, and the
#: disk never fills to the last byte, where SQLite can no longer even roll back cleanly.
MIB = 1024 * 1024
MIN_FREE_COMMAND = 8 * MIB
MIN_FREE_TABLE = 20 * MIB
#: The same for a guest's table (one not of the owner's: not bound to the scrambler, not made
#: with the owner token): refused well before the owner's, so the last part of the disk's
#: reserve is the owner's tables' alone (docs/SECURITY.md).
GUEST_MIN_FREE_COMMAND = 64 * MIB
GUEST_MIN_FREE_TABLE = 96 * MIB

#: SQLite's primary result codes for a damaged file: SQLITE_CORRUPT, SQLITE_NOTADB.
_DAMAGED_CODES = (11, 26)


class NotWritten(Refused):
    """A write the ledger could not commit: nothing of it is on disk (a full disk, an I/O
    error, a read-only file). A 503: the client may try again once there is room."""

    def __init__(self, why: str):
        super().__init__(503, f"the table's file could not be written ({why}); nothing changed", None)
        self.why = why


class NoRoom(Refused):
    """The data folder's disk is nearly full: refused before anything is applied (507)."""

    def __init__(self, free: int, need: int, what: str):
        super().__init__(
            507,
            f"the server's disk is nearly full ({free // MIB} MB free, {what} needs "
            f"{need // MIB} MB kept free); nothing changed",
            None,
        )


def is_damaged(exc: BaseException) -> bool:
    """Whether `exc` says the SQLite file itself is damaged (not full, not read-only)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _DAMAGED_CODES
    text = str(exc)
    return isinstance(exc, sqlite3.DatabaseError) and (
        "malformed" in text or "not a database" in text
    )


def _why(exc: BaseException) -> str:
    """A short reason for a failed write, in words."""
    text = str(exc) or type(exc).__name__
    if "full" in text:
        return "the disk is full"
    if "readonly" in text or "read-only" in text:
        return "the file is read-only"
    if isinstance(exc, UnicodeError):
        return "it holds text that cannot be stored"
    return text


@dataclass(frozen=True)
class Entry:
    """One row of a table's ledger."""

    seq: int
    type: str
    actor: str | None
    body: dict[str, Any]  # the entry as applied (for undo: {"undoes": seq})
    ts: float
    idempotency_key: str | None
    undone_by: int | None
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def undoes(self) -> int | None:
        """For an undo entry, the seq it cancels."""
        return self.body.get("undoes") if self.type == UNDO else None

    @property
    def applies(self) -> bool:
        """Whether replaying the ledger applies this entry to the table."""
        return self.type != UNDO and self.undone_by is None


@dataclass(frozen=True)
class Snapshot:
    """A table's full state after entry `seq`."""

    seq: int
    hand_start: bool
    state: dict[str, Any]


@dataclass(frozen=True)
class TableRow:
    """How a table was created."""

    code: str
    created: float
    settings: dict[str, Any]
    host_token_hash: str


class Ledger:
    """The SQLite file holding every table of one server."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._folder = str(self.path.parent)  # asked for its free space before every command
        self._lock = threading.RLock()
        # One connection for all threads, serialised by our lock; autocommit mode so that
        # transactions are exactly the BEGIN IMMEDIATE ... COMMIT blocks below.
        self._db = sqlite3.connect(
            str(self.path), check_same_thread=False, isolation_level=None, timeout=10
        )
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            # FULL: the WAL is synced at every commit, so an acknowledged entry survives power loss.
            self._db.execute("PRAGMA synchronous=FULL")
        except BaseException:
            self._db.close()
            raise
        # Closed when the ledger is garbage (a test or tool that forgot `close`): SQLite
        # connections left to the collector warn (ResourceWarning) on Python 3.13.
        self._closer = weakref.finalize(self, self._db.close)
        try:
            self._db.execute("PRAGMA foreign_keys=ON")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
        except BaseException:
            self.close()
            raise
        #: Free bytes the disk must keep for a command / a new table (tests lower or raise them).
        self.min_free_command = MIN_FREE_COMMAND
        self.min_free_table = MIN_FREE_TABLE
        self.guest_min_free_command = GUEST_MIN_FREE_COMMAND
        self.guest_min_free_table = GUEST_MIN_FREE_TABLE
        #: What the free space is read from (tests give the server a small disk with it);
        #: None: the data folder's file system.
        self.free_space_probe: Callable[[], int] | None = None

    # -- plumbing -------------------------------------------------------------------------

    class _Tx:
        def __init__(self, ledger: "Ledger"):
            self.ledger = ledger

        def __enter__(self) -> sqlite3.Connection:
            self.ledger._lock.acquire()
            try:
                self.ledger._db.execute("BEGIN IMMEDIATE")
            except BaseException:
                self.ledger._lock.release()
                raise
            return self.ledger._db

        def __exit__(self, kind, exc, tb) -> None:
            db = self.ledger._db
            try:
                if kind is None:
                    try:
                        db.execute("COMMIT")
                    except BaseException:
                        # A COMMIT that fails (disk full, I/O error) leaves the transaction
                        # open: this connection would go on reading the unwritten rows as
                        # if they were on disk, and every later BEGIN would fail.
                        if db.in_transaction:
                            db.execute("ROLLBACK")
                        raise
                elif db.in_transaction:  # (SQLite rolls back itself after some errors)
                    db.execute("ROLLBACK")
            finally:
                self.ledger._lock.release()

    def _transaction(self) -> "_Tx":
        """All-or-nothing: a block whose writes are committed together (synced) or not at all."""
        return Ledger._Tx(self)

    def _query(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def _write(self, work: Callable[[sqlite3.Connection], object],
               written: Callable[[], bool] = lambda: False) -> None:
        """Run `work` in one transaction. Raises `NotWritten` when it could not be committed —
        unless `written()` then finds it on disk after all (a COMMIT can report an error after
        its pages reached the file): a committed write is never reported as "nothing changed".
        An `IntegrityError` (a taken key) passes through unchanged."""
        try:
            with self._transaction() as db:
                work(db)
        except sqlite3.IntegrityError:
            raise
        except (sqlite3.Error, OSError, UnicodeError, OverflowError) as exc:
            try:
                if written():
                    log.warning("%s: the commit reported %r, but the write is on disk", self.path, exc)
                    return
            except sqlite3.Error:
                pass
            raise NotWritten(_why(exc)) from exc

    def close(self) -> None:
        """Close the database (checkpointing the WAL). Safe to call twice."""
        with self._lock:
            self._closer()

    # -- room on the disk -------------------------------------------------------------------

    def free_bytes(self) -> int:
        """Free bytes on the data folder's disk (for an unprivileged process), or what
        `free_space_probe` says."""
        if self.free_space_probe is not None:
            return int(self.free_space_probe())
        return shutil.disk_usage(self._folder).free

    def check_room(self, table: bool = False, guest: bool = False) -> None:
        """Refuse (`NoRoom`, 507) a command, or with `table` a new table, when the disk keeps
        less free space than it must (`min_free_command`, `min_free_table`; for a `guest`'s
        table the larger `guest_min_free_command`, `guest_min_free_table`)."""
        need = self.min_free_table if table else self.min_free_command
        if guest:  # never less than the owner's
            need = max(need, self.guest_min_free_table if table else self.guest_min_free_command)
        if need <= 0:
            return
        try:
            free = self.free_bytes()
        except OSError:
            return  # cannot tell: let the write itself decide
        if free < need:
            raise NoRoom(free, need, "a new table" if table else "a command")

    # -- tables ---------------------------------------------------------------------------

    def create_table(
        self, code: str, settings: dict[str, Any], host_token_hash: str, state: dict[str, Any]
    ) -> None:
        """Record a new table and its starting state (snapshot 0). Raises `KeyError` if the
        code is taken, `NotWritten` if it could not be written."""
        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO tables (code, created, settings, host_token_hash) VALUES (?,?,?,?)",
                (code, time.time(), dumps(settings), host_token_hash),
            )
            db.execute(
                "INSERT INTO snapshots (table_code, seq, hand_start, state) VALUES (?,0,1,?)",
                (code, dumps(state)),
            )

        try:
            self._write(work, lambda: self._query(
                "SELECT 1 FROM tables WHERE code=? AND host_token_hash=?", (code, host_token_hash)) != [])
        except sqlite3.IntegrityError:
            raise KeyError(code) from None

    def table_codes(self) -> list[str]:
        """Every table's code, oldest first."""
        return [r[0] for r in self._query("SELECT code FROM tables ORDER BY created, code")]

    def table(self, code: str) -> TableRow | None:
        """How table `code` was created, or None."""
        rows = self._query(
            "SELECT code, created, settings, host_token_hash FROM tables WHERE code=?", (code,)
        )
        if not rows:
            return None
        c, created, settings, host = rows[0]
        return TableRow(c, created, json.loads(settings), host)

    # -- entries --------------------------------------------------------------------------

    def append(
        self,
        code: str,
        entry: Entry,
        *,
        snapshot: dict[str, Any] | str | None = None,
        hand_start: bool = False,
        seat_token: tuple[str, str] | None = None,
        meta: dict[str, str | None] | None = None,
    ) -> None:
        """Append `entry` (and, atomically with it: the state after it as a snapshot, a dict or
        its JSON text; a seat's token hash; server settings `meta`; and for an undo the mark
        on the undone entry). Durable on return.

        Raises `sqlite3.IntegrityError` if `entry.seq` or its idempotency key is taken, and
        `NotWritten` if the entry is not on disk (then nothing of it is). When the COMMIT
        reports an error but the entry is on disk after all, it returns normally: written.
        """

        def written() -> bool:
            found = self.entry(code, entry.seq)
            return found is not None and found.ts == entry.ts and found.type == entry.type

        self._write(lambda db: self._append(db, code, entry, snapshot, hand_start, seat_token, meta),
                    written)

    def _append(self, db: sqlite3.Connection, code: str, entry: Entry, snapshot: dict | str | None,
                hand_start: bool, seat_token: tuple[str, str] | None,
                meta: dict[str, str | None] | None) -> None:
        db.execute(
            "INSERT INTO entries (table_code, seq, type, actor, body, ts, idempotency_key,"
            " undone_by, events) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                code,
                entry.seq,
                entry.type,
                entry.actor,
                dumps(entry.body),
                entry.ts,
                entry.idempotency_key,
                entry.undone_by,
                dumps(entry.events),
            ),
        )
        if entry.undoes is not None:
            db.execute(
                "UPDATE entries SET undone_by=? WHERE table_code=? AND seq=?",
                (entry.seq, code, entry.undoes),
            )
            # Snapshots taken after the undone entry include it: they no longer describe
            # the table.
            db.execute(
                "DELETE FROM snapshots WHERE table_code=? AND seq>=? AND seq<?",
                (code, entry.undoes, entry.seq),
            )
        if snapshot is not None:
            db.execute(
                "INSERT OR REPLACE INTO snapshots (table_code, seq, hand_start, state)"
                " VALUES (?,?,?,?)",
                (code, entry.seq, int(hand_start), snapshot if isinstance(snapshot, str) else dumps(snapshot)),
            )
        if snapshot is not None and hand_start:
            # Loading needs only the latest snapshot and undo only the current hand's, so
            # earlier hands' snapshots go: the file grows with the entries, not with
            # entries × state size. (Snapshot 0, the new table, stays.)
            db.execute(
                "DELETE FROM snapshots WHERE table_code=? AND seq>0 AND seq<?",
                (code, entry.seq),
            )
        if seat_token is not None:
            self._set_token(db, code, *seat_token)
        for key, value in (meta or {}).items():
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?,?)", (key, value))

    def _row_entry(self, row: tuple) -> Entry:
        seq, type_, actor, body, ts, key, undone_by, events = row
        return Entry(seq, type_, actor, json.loads(body), ts, key, undone_by, json.loads(events))

    _COLUMNS = "seq, type, actor, body, ts, idempotency_key, undone_by, events"

    def entries_of_type(self, code: str, types: tuple[str, ...]) -> list[Entry]:
        """Table `code`'s entries of the given `types`, in order."""
        marks = ",".join("?" * len(types))
        sql = (f"SELECT {self._COLUMNS} FROM entries WHERE table_code=? AND type IN ({marks}) "
               "ORDER BY seq")
        return [self._row_entry(r) for r in self._query(sql, (code, *types))]

    def entries(self, code: str, after: int = 0, limit: int | None = None) -> list[Entry]:
        """Table `code`'s entries with seq > `after`, in order (at most `limit`)."""
        sql = f"SELECT {self._COLUMNS} FROM entries WHERE table_code=? AND seq>? ORDER BY seq"
        args: tuple = (code, after)
        if limit is not None:
            sql += " LIMIT ?"
            args += (limit,)
        return [self._row_entry(r) for r in self._query(sql, args)]

    def entry(self, code: str, seq: int) -> Entry | None:
        """Entry `seq` of table `code`, or None."""
        rows = self._query(
            f"SELECT {self._COLUMNS} FROM entries WHERE table_code=? AND seq=?", (code, seq)
        )
        return self._row_entry(rows[0]) if rows else None

    def entry_by_key(self, code: str, key: str) -> Entry | None:
        """The entry of table `code` that was made with idempotency key `key`, or None."""
        rows = self._query(
            f"SELECT {self._COLUMNS} FROM entries WHERE table_code=? AND idempotency_key=?",
            (code, key),
        )
        return self._row_entry(rows[0]) if rows else None

    def last_seq(self, code: str) -> int:
        """The seq of table `code`'s latest entry (0 if none)."""
        return self._query("SELECT COALESCE(MAX(seq), 0) FROM entries WHERE table_code=?", (code,))[0][0]

    def count_entries(self, code: str) -> int:
        """How many entries table `code` has."""
        return self._query("SELECT COUNT(*) FROM entries WHERE table_code=?", (code,))[0][0]

    # -- snapshots ------------------------------------------------------------------------

    def snapshot(self, code: str, before: int | None = None, hand_start: bool = False) -> Snapshot:
        """The latest snapshot of table `code` (with seq < `before`, if given; only those taken
        at the start of a hand if `hand_start`). Snapshot 0 always exists."""
        seq, hs, state = self._latest_snapshot("seq, hand_start, state", code, before, hand_start)
        return Snapshot(seq, bool(hs), json.loads(state))

    def snapshot_seq(self, code: str, before: int | None = None, hand_start: bool = False) -> int:
        """`snapshot(...).seq`, without reading the state (a table's start asks where its
        running hand began: that snapshot's state is not needed)."""
        return self._latest_snapshot("seq", code, before, hand_start)[0]

    def _latest_snapshot(self, columns: str, code: str, before: int | None, hand_start: bool) -> tuple:
        """`columns` of the snapshot `snapshot` means."""
        sql = f"SELECT {columns} FROM snapshots WHERE table_code=?"
        args: tuple = (code,)
        if before is not None:
            sql += " AND seq<?"
            args += (before,)
        if hand_start:
            sql += " AND hand_start=1"
        rows = self._query(sql + " ORDER BY seq DESC LIMIT 1", args)
        if not rows:
            raise KeyError(code)
        return rows[0]

    # -- tokens ---------------------------------------------------------------------------

    @staticmethod
    def _set_token(db: sqlite3.Connection, code: str, seat: str, token_hash: str) -> None:
        db.execute("DELETE FROM tokens WHERE table_code=? AND seat=?", (code, seat))
        db.execute(
            "INSERT INTO tokens (table_code, seat, token_hash, issued) VALUES (?,?,?,?)",
            (code, seat, token_hash, time.time()),
        )

    def set_token(self, code: str, seat: str, token_hash: str) -> None:
        """Give `seat` a new token (its previous one stops working). `NotWritten` if it could
        not be written (the old token still works then)."""
        self._write(lambda db: self._set_token(db, code, seat, token_hash),
                    lambda: self.seat_for(code, token_hash) == seat)

    def seat_for(self, code: str, token_hash: str) -> str | None:
        """The seat of table `code` whose token has hash `token_hash`, or None."""
        rows = self._query(
            "SELECT seat FROM tokens WHERE table_code=? AND token_hash=?", (code, token_hash)
        )
        return rows[0][0] if rows else None

    # -- server settings ------------------------------------------------------------------

    def table_of_token(self, token_hash: str) -> str | None:
        """The table a seat's or host token (by its hash) belongs to, or None."""
        rows = self._query("SELECT table_code FROM tokens WHERE token_hash=? "
                           "UNION ALL SELECT code FROM tables WHERE host_token_hash=? LIMIT 1",
                           (token_hash, token_hash))
        return rows[0][0] if rows else None

    def get_meta(self, key: str) -> str | None:
        """A server-wide setting (e.g. which table the scrambler serves), or None."""
        rows = self._query("SELECT value FROM meta WHERE key=?", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str | None) -> None:
        """Store a server-wide setting durably (`NotWritten` if it could not be written)."""
        self._write(lambda db: db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?,?)", (key, value)),
                    lambda: self._query("SELECT value FROM meta WHERE key=?", (key,)) == [(value,)])

    def iter_all(self) -> Iterator[tuple[str, Entry]]:
        """Every entry of every table (for checks and tests)."""
        for code in self.table_codes():
            for e in self.entries(code):
                yield code, e
