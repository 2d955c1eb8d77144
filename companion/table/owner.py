"""The one owner of a table's state: applies commands in order, records them, tells listeners.

Everything that changes a table goes through its `TableOwner`: web requests, the GPIO button,
the USB scrambler box, a timer. Each calls `submit` (from any thread); the owner

1. answers a retried request (same idempotency key) with the original result,
2. refuses a command made against a stale `version`,
3. fills in the dice of a roll from the table's roller (`Table.roll_needed`),
4. applies it to the engine's `Table` (which refuses bad commands with the state unchanged),
5. appends it to the ledger — committed to disk — and only then
6. publishes the events to the table's subscribers and returns.

Publishing hands every subscriber the same `Update` (the events and the table's
`VersionViews` at that version), the public part of every view encoded once for all of them
(companion.table.views). An event stream writes its own update to its connection
(`Subscription.write_directly`): the thread that committed the entry renders each stream's
text and sends it, in seq order, once the state's lock is free, without waking a thread per
stream; within a web request (`defer_delivery`) that happens once the command's answer has
been sent. Other subscribers (the scrambler link) read their mailbox. The same `VersionViews`
answers the command's own view and the host console's legal moves, so each part of a
version's views is worked out once however many ask.

One lock per table keeps this strictly one-at-a-time. A GPIO or serial callback must do no
more than call `submit`::

    owner = registry.scrambler_table()
    if owner is not None:
        owner.submit({"type": "roll"}, actor=SCRAMBLER)
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import queue
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from companion.games import registry
from companion.refusal import Refused
from companion.scrambler.dice import Roller, SoftwareRoller
from companion.scrambler.seed import SeededRoller
from companion.scrambler.seed import commitment as seed_commitment_of
from companion.table.evening import undone_words
from companion.table.ledger import UNDO, Entry, Ledger, NotWritten
from companion.table.views import Update, VersionViews, cuts_history, dumps

if TYPE_CHECKING:  # for the annotations only: the engine is imported where a table is made
    from companion.table.engine import Table

log = logging.getLogger(__name__)

#: Actor names shared with the engine (companion.table.engine.HOST / SCRAMBLER).
HOST = "host"
SCRAMBLER = "scrambler"
#: The entry type that seats a new player, and the actor it is applied as.
JOIN = "join"
GUEST = "guest"
#: The engine's words this owner acts on: the start and end of a hand, and the seed reveal.
HAND_STARTED = "hand_started"
HAND_ENDED = "hand_ended"
START_HAND = "start_hand"
REVEAL_SEED = "reveal_seed"

#: Settled hands of the stack chart in the state the API answers and streams send: the
#: latest few, so that an action costs the same at hand 500 as at hand 1 (the benchmark's
#: growth_ratio). The whole session: `view(history=None)` (the history page, chart.svg).
VIEW_HISTORY = 20

#: Take a full snapshot every this many entries even within a long hand, so that loading a
#: table never replays more than this many entries.
SNAPSHOT_EVERY = 25

#: Entry fields that hold a seat's hidden cards. The audit log shows them only to that seat;
#: everyone sees the hands in the public `revealed` event once every player has entered.
#: (The engine's events and views never carry them: docs/table-commands.md.) A refused undo does
#: not quote the refusal of an entry of these kinds either: its words may name the cards.
#: Each game's engine declares its own (`HIDDEN_FIELDS`: command type -> fields; `SHOWN_BY`:
#: command type -> the events that put them face up, before which an undo of a later entry
#: is refused); the table hides the union of every registered game's, so no game's secret
#: shows whatever game the table plays now (dealer's choice).
_SECRETS: list[Any] = [None, {}, {}]


def secret_fields() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """(HIDDEN_FIELDS, SHOWN_BY) of every registered game's engine, joined; worked out again
    only when the registry's games change."""
    games = registry.games()
    if _SECRETS[0] is not games:
        hidden: dict[str, tuple[str, ...]] = {}
        shown: dict[str, tuple[str, ...]] = {}
        for game in games.values():
            engine = game.engine()
            for into, declared in ((hidden, getattr(engine, "HIDDEN_FIELDS", {})),
                                   (shown, getattr(engine, "SHOWN_BY", {}))):
                for typ, names in declared.items():
                    into[typ] = tuple(dict.fromkeys(into.get(typ, ()) + tuple(names)))
        _SECRETS[:] = [games, hidden, shown]
    return _SECRETS[1], _SECRETS[2]


@dataclass
class Result:
    """What an accepted (or replayed) entry did."""

    seq: int
    events: list[dict[str, Any]]
    replayed: bool = False
    seat: str | None = None  # joins: the new seat
    token: str | None = None  # joins: the seat's secret token (only ever returned, never kept)
    undone: int | None = None  # undos: the seq undone


#: Set on a `rolled` event's roll whose dice the host entered by hand (not from the seed): the
#: ledger keeps it, the audit page and `verify` say "rolled by hand, not from the seed".
BY_HAND = "by_hand"


def mark_by_hand(events: list[dict[str, Any]]) -> None:
    """Mark the rolls among `events` as entered by hand."""
    for ev in events:
        if ev.get("type") == "rolled" and isinstance(ev.get("roll"), dict):
            ev["roll"] = {**ev["roll"], BY_HAND: True}


#: The longest idempotency key a request may carry.
KEY_MAX = 100


def check_transport(version: Any, key: Any) -> None:
    """The one check of a request's transport fields (`version`, `idempotency_key`), for the
    web layer and the owner alike: a fault gets the same answer, status and field wherever it
    is caught (400: the request is malformed, as for a command field of the wrong type).

        >>> check_transport(3, "bet-1")
        >>> try:
        ...     check_transport("3", None)
        ... except Refused as exc:
        ...     print(exc.status, exc.field)
        400 version
    """
    if version is not None and (isinstance(version, bool) or not isinstance(version, int) or version < 0):
        raise Refused(400, "version must be a whole number ≥ 0", "version")
    if key is None:
        return
    if not isinstance(key, str) or not 1 <= len(key) <= KEY_MAX:
        raise Refused(400, f"idempotency_key must be a string of 1 to {KEY_MAX} characters", "idempotency_key")
    try:
        key.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused(400, "idempotency_key holds a lone surrogate (not text)", "idempotency_key") from None


def _seeded_roll(e: Entry) -> bool:
    """Whether entry `e` is a roll that threw dice (each takes the next number of the hand's
    seed: companion.scrambler.seed). Dice the host entered by hand took no number."""
    return e.type == "roll" and bool(e.body.get("dice")) and not any(
        isinstance(ev.get("roll"), dict) and ev["roll"].get(BY_HAND)
        for ev in e.events if ev.get("type") == "rolled")


def token_hash(token: str) -> str:
    """How a token is stored: its SHA-256 (a stolen database does not hand out seats)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh secret token for a seat or a host."""
    return secrets.token_urlsafe(24)


#: What a stream writing its own updates is handed: `writer(seq, update)`.
Writer = Callable[[int, Update], None]


@dataclass(eq=False)
class Subscription:
    """One listener (an event stream) of a table: what it may see and its mailbox.

    `messages` receives `(seq, "update", Update)` tuples, one per committed entry, in seq
    order (`text(update)` is this viewer's message); `None` means the stream must end (the
    table is closing, or the seat's token was replaced). A listener that can write its own
    updates (an event stream on its connection) says so with `write_directly`: from then on
    its updates go to its writer, not its mailbox.
    """

    seat: str | None
    host: bool
    messages: "queue.SimpleQueue[tuple[int, str, Update] | None]" = field(default_factory=queue.SimpleQueue)
    writer: Writer | None = None
    #: No more updates: unsubscribed, or told to end.
    ended: bool = False
    #: The state this listener was sent last (`subscribe`'s, then each update's).
    last_state: dict | None = None
    #: Whether its client keeps the last state's parts: each update then leaves out the
    #: top-level parts that are the very same as in `last_state` (`Update.text`).
    changed_only: bool = False
    # Orders a delivery against the switch to a writer and the end (never held while waiting).
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def key(self) -> tuple[str | None, bool]:
        """Viewers with the same key see the same thing."""
        return (self.seat, self.host)

    def text(self, update: Update) -> str:
        """`update` as this viewer's `update` message (JSON text): with `changed_only`, what
        changed since the last state it was sent. Asked once per update, in seq order."""
        last = self.last_state
        self.last_state = update.views.shown(self.seat, self.host)
        return update.text(self.seat, self.host, last if self.changed_only else None)

    def receive(self, seq: int, update: Update) -> None:
        """Entry `seq`'s update: written by the writer, else put in the mailbox."""
        with self._lock:
            if self.ended:
                return
            if self.writer is not None:
                self.writer(seq, update)
                return
            self.messages.put((seq, "update", update))

    def write_directly(self, writer: Writer) -> bool:
        """From now on, hand each update to `writer` (called by the thread delivering it). The
        updates already in the mailbox go to `writer` first, so none is missed, doubled or out
        of order. False, with nothing written after it, when the mailbox holds the end."""
        with self._lock:
            while True:
                try:
                    msg = self.messages.get_nowait()
                except queue.Empty:
                    break
                if msg is None:
                    return False
                writer(msg[0], msg[2])
            self.writer = writer
            return True

    def stop(self) -> None:
        """No more updates (a delivery under way finishes first); the mailbox is left as it is."""
        with self._lock:
            self.ended = True
            self.writer = None

    def end(self) -> None:
        """No more updates, and the listener is told to end (`None` in its mailbox)."""
        self.stop()
        self.messages.put(None)


# The tables whose updates wait for the current thread's web answer to be sent
# (`defer_delivery`), or None (deliver at once).
_waiting = threading.local()


def defer_delivery() -> None:
    """Updates committed by this thread from now on are delivered to their streams only when
    `deferred_deliveries()`'s owners are told to `deliver()`: a web request answers the command
    first, then writes the other viewers' updates."""
    _waiting.owners = []


def deferred_deliveries() -> list["TableOwner"]:
    """Stop deferring in this thread; the owners with updates waiting (call `deliver()`)."""
    owners = getattr(_waiting, "owners", None) or []
    _waiting.owners = None
    return owners


class TableOwner:
    """The one owner of table `code`'s state. Thread-safe; see the module docstring."""

    def __init__(
        self,
        code: str,
        ledger: Ledger,
        table_class: type[Table],
        roller: Roller | None = None,
    ):
        self.code = code
        self.ledger = ledger
        self.table_class = table_class
        # Whether the table class can cut its stack chart to the latest rows (the engine can).
        self._cuts_history = cuts_history(table_class)
        self.roller: Roller = roller or SoftwareRoller()
        #: The same roller when it commits to a secret seed for every hand (verifiable dice).
        self.seeded: SeededRoller | None = self.roller if isinstance(self.roller, SeededRoller) else None
        self._lock = threading.RLock()
        self._subscriptions: set[Subscription] = set()
        # Committed updates not yet handed to their subscribers, in seq order (`deliver`).
        self._outbox: deque[tuple[int, Update, list[Subscription]]] = deque()
        self._delivering = threading.Lock()
        self._views: VersionViews | None = None  # the views of `version`, made when first asked
        # The texts of the last version's public parts, for the next version's views to find
        # what has not changed (the rule set, the settled hands' rows) already encoded
        # (VersionViews' `carry`).
        self._carried_texts: dict[Any, tuple[Any, str]] = {}
        self._host_hash: str | None = None  # the host token's hash, once read (`_host_token_hash`)
        self.version = 0
        self.hand_start_seq = 0
        self.table: Any = None
        self._seed: str | None = None  # the seed the roller rolls from (committing rollers)
        self._reveal_pending = False  # a hand's seed is owed: its reveal could not be written
        #: A guest's table (not the owner's): the registry says so; its writes stop earlier.
        self.guest = False
        self._load()
        if self._commits():
            self._restore_seed()

    # -- creation and loading -------------------------------------------------------------

    @classmethod
    def create(
        cls,
        code: str,
        settings: dict[str, Any],
        ledger: Ledger,
        table_class: type[Table],
        roller: Roller | None = None,
    ) -> tuple["TableOwner", str]:
        """Create table `code` (the engine validates `settings`); returns the owner and the
        host token. Raises `Refused` (422) for bad settings, `KeyError` if the code is taken."""
        table = table_class.create(code, settings)
        host_token = new_token()
        ledger.create_table(code, settings, token_hash(host_token), table.to_json())
        return cls(code, ledger, table_class, roller), host_token

    def _load(self) -> None:
        """Rebuild the live table from the latest snapshot and the entries after it."""
        snap = self.ledger.snapshot(self.code)
        table = self._from_snapshot(snap.state)
        for e in self.ledger.entries(self.code, after=snap.seq):
            if e.applies:
                table.apply(dict(e.body), e.actor)
        self.table = table
        self._views = None
        self.version = self.ledger.last_seq(self.code)
        self.hand_start_seq = self.ledger.snapshot_seq(self.code, hand_start=True)
        self._since_snapshot = self.version - snap.seq

    def _from_snapshot(self, state: dict[str, Any]) -> Any:
        """The table a snapshot's state (just read from the ledger, held by nobody else)
        describes: taken as it is where the table class can (`from_owned_json`: no copy of a
        whole evening's state first), else through `from_json`."""
        owned = getattr(self.table_class, "from_owned_json", None)
        return owned(state) if owned is not None else self.table_class.from_json(state)

    # -- reading --------------------------------------------------------------------------

    def view(self, seat: str | None = None, host: bool = False,
             history: int | None = None) -> tuple[int, dict[str, Any]]:
        """`(version, state)` for one viewer: the public view, a seat's, or the host's.
        `history`: rows of `stack_history` to include (None: the whole session; the API and
        the event stream send `VIEW_HISTORY`)."""
        with self._lock:
            return self.version, self._view(seat, host, history)

    def view_text(self, seat: str | None = None, host: bool = False) -> tuple[int, str]:
        """`(version, state)` as `view(seat, host, VIEW_HISTORY)` gives it, the state as JSON
        text: the same text the viewer's event stream sends, worked out once for both."""
        with self._lock:
            return self.version, self._current_views().text(seat, host)

    def legal(self, seat: str) -> tuple[int, list[dict[str, Any]]]:
        """`(version, legal moves)` of one seat, for the host console playing it: the list the
        seat's own view carries (worked out once per version), then the host's corrections
        for the seat (`Table.host_offers`, where the table class has them)."""
        with self._lock:
            views = self._current_views()
            moves = views.legal(seat)
            extra = getattr(views.table, "host_offers", None)
            return self.version, moves + (extra(seat) if extra is not None else [])

    def _current_views(self) -> VersionViews:
        """The views of the table as it is now (under the lock): made from a copy, so that a
        stream may render from it after the table has moved on."""
        views = self._views
        if views is None or views.version != self.version:
            # The engine's `frozen` shares the state (no command changes one in place).
            freeze = getattr(self.table, "frozen", None)
            frozen = freeze() if freeze is not None else self.table_class.from_json(self.table.to_json())
            views = self._views = VersionViews(frozen, self.version, VIEW_HISTORY if self._cuts_history else None,
                                               carry=self._carried_texts)
        return views

    def _table_view(self, table: Any, seat: str | None, host: bool, history: int | None) -> dict[str, Any]:
        """`table.view` for one viewer, its stack chart cut to `history` rows where the table
        class can (the engine's `view(history=n)`; a plain `view(seat, host=)` otherwise)."""
        if history is not None and self._cuts_history:
            return table.view(seat, host=host, history=history)
        return table.view(seat, host=host)

    def _view(self, seat: str | None, host: bool, history: int | None = None) -> dict[str, Any]:
        # The table's version is the ledger's (it also counts undos), not the engine's count
        # of applied entries: one number for clients, event ids and stale checks.
        if history == VIEW_HISTORY or not self._cuts_history:
            # A fresh top level (the caller may add to it); the parts below it are shared.
            return dict(self._current_views().state(seat, host))
        state = self._table_view(self.table, seat, host, history)
        state["version"] = self.version
        return state

    def log_entry(self, e: Entry, who: str | None) -> dict[str, Any]:
        """Entry `e` as the audit log shows it to `who` (a seat, HOST or None)."""
        body = dict(e.body)
        hidden = secret_fields()[0].get(e.type, ())
        if hidden and who != body.get("seat", e.actor):
            for name in hidden:
                if name in body:
                    body[name] = "hidden"
        return {
            "seq": e.seq,
            "ts": e.ts,
            "type": e.type,
            "actor": e.actor,
            "undone_by": e.undone_by,
            "undoes": e.undoes,
            "body": body,
            "events": e.events,
        }

    def seat_ids(self) -> list[str]:
        """The table's seats."""
        with self._lock:
            return list(self.table.seat_ids())

    def seat_for_token(self, token: str) -> str | None:
        """`HOST` for the host token, the seat id for a seat token, else None."""
        digest = token_hash(token)
        host = self._host_token_hash()
        if host is not None and secrets.compare_digest(host, digest):
            return HOST
        return self.ledger.seat_for(self.code, digest)

    def _host_token_hash(self) -> str | None:
        """The host token's hash, read from the ledger once: a table's host token never
        changes (every request asked SQLite for it again, issue 19)."""
        found = self._host_hash
        if found is None:
            row = self.ledger.table(self.code)
            found = self._host_hash = row.host_token_hash if row is not None else None
        return found

    def display_key(self) -> str | None:
        """The table display's key: lets the display's event stream into the seats' pool (so
        guests filling the spectators' pool cannot blind it) with the public view only. Made
        from the host token's hash, so only the host console (which holds the host token)
        hands it out; it reads nothing a spectator cannot."""
        host = self._host_token_hash()
        if host is None:
            return None
        return hmac.new(host.encode(), b"display", hashlib.sha256).hexdigest()[:32]

    def is_display_key(self, key: str) -> bool:
        """Whether `key` is this table's display key."""
        mine = self.display_key()
        return mine is not None and secrets.compare_digest(mine.encode(), key.encode("utf-8", "replace"))

    def issue_token(self, seat: str) -> str:
        """A new token for `seat` (moving it to another phone); the old one stops working."""
        with self._lock:
            if seat not in self.table.seat_ids():
                raise Refused(404, f"there is no seat {seat!r} at this table", "seat")
            token = new_token()
            self.ledger.set_token(self.code, seat, token_hash(token))
            # The old phone's open streams were let in with the old token: end them now, or
            # they would go on receiving the seat's private view. Its reconnect is refused.
            for sub in [s for s in self._subscriptions if s.seat == seat and not s.host]:
                self._subscriptions.discard(sub)
                sub.end()
            return token

    # -- changing -------------------------------------------------------------------------

    def submit(
        self,
        entry: dict[str, Any],
        actor: str | None,
        version: int | None = None,
        idempotency_key: str | None = None,
    ) -> Result:
        """Apply `entry` ({"type": ..., **fields}) as `actor` (a seat id, HOST or SCRAMBLER).

        Thread-safe and synchronous: returns once the entry is on disk, or raises `Refused`
        with nothing changed. A repeated `idempotency_key` returns the first result. Once the
        entry is on disk the answer is a success, whatever the work after it (publishing,
        revealing the hand's seed) meets: a committed entry is never reported as refused.
        Its update reaches the streams before this returns, or, within a web request
        (`defer_delivery`), once the answer is sent.
        """
        try:
            return self._submit(entry, actor, version, idempotency_key)
        finally:
            self._deliver_soon()

    def _submit(self, entry: dict[str, Any], actor: str | None, version: int | None,
                idempotency_key: str | None) -> Result:
        entry = dict(entry)
        check_transport(version, idempotency_key)
        with self._lock:
            done = self._replayed(entry, actor, idempotency_key)
            if done is not None:
                return done
            self._check_version(version)
            # 507 while the disk is nearly full: nothing changed. A guest's table is refused
            # well before the owner's (the registry sets `guest`; docs/SECURITY.md).
            self.ledger.check_room(guest=self.guest)
            if self._reveal_pending:
                self._reveal_seed()  # owed since a full disk refused it: try again first
            if self._commits() and entry.get("type") == START_HAND:
                self._prepare_seed(entry)
            trigger = self.table.roll_needed(entry)
            if trigger is not None:
                try:
                    entry["dice"] = list(self.roller.dice(trigger))
                except Exception:
                    log.exception("table %s: the roller failed", self.code)
                    raise Refused(503, "the scrambler could not roll; try again", "dice") from None
            try:
                events = self._apply(entry, actor)
            except Refused:
                if trigger is not None and self.seeded is not None:
                    self.seeded.discard()  # nobody saw this roll: a seeded roller takes it back
                raise
            if (trigger is None and entry.get("type") == "roll" and entry.get("dice") is not None
                    and self._commits()):
                # The table rolls from its own committed seeds: dice the host typed are not.
                mark_by_hand(events)
            seat_token = None
            result = Result(self.version + 1, events)
            if entry.get("type") == JOIN:
                result.seat = next((e.get("seat") for e in events if e.get("seat")), None)
                if result.seat is not None:
                    result.token = new_token()
                    seat_token = (result.seat, token_hash(result.token))
            try:
                self._commit(entry, actor, idempotency_key, events, seat_token=seat_token)
            except Refused:
                if trigger is not None and self.seeded is not None:
                    self.seeded.discard()  # not written, so never seen: the roll is taken back
                raise
            # The entry is on disk: from here on nothing may turn the answer into a refusal.
            if self._commits() and any(e.get("type") == HAND_ENDED for e in events):
                self._reveal_seed()  # never raises; a reveal it cannot write stays owed
            return result

    def join(self, name: str, idempotency_key: str | None = None) -> Result:
        """Seat a new player called `name`; the result carries the seat and its token."""
        return self.submit({"type": JOIN, "name": name}, GUEST, idempotency_key=idempotency_key)

    def undo(
        self,
        actor: str | None,
        seq: int | None = None,
        version: int | None = None,
        idempotency_key: str | None = None,
    ) -> Result:
        """Cancel entry `seq` (default: the latest one that is not undone) with a counter-entry.

        Host only. The state is rebuilt from the last snapshot before that entry, replaying
        the rest without it; if any of them no longer applies, the undo is refused (409) and
        nothing changes. Only entries of the current hand can be undone, and not joins.
        """
        try:
            return self._undo(actor, seq, version, idempotency_key)
        finally:
            self._deliver_soon()

    def _undo(self, actor: str | None, seq: int | None, version: int | None,
              idempotency_key: str | None) -> Result:
        check_transport(version, idempotency_key)
        with self._lock:
            body = {"type": UNDO} if seq is None else {"type": UNDO, "seq": seq}
            done = self._replayed(body, actor, idempotency_key)
            if done is not None:
                return done
            if actor != HOST:
                raise Refused(403, "only the host can undo", None)
            self._check_version(version)
            target = self._undo_target(seq)
            self._check_undo_keeps_secrets(target)
            snap = self.ledger.snapshot(self.code, before=target.seq)
            table = self._from_snapshot(snap.state)
            for e in self.ledger.entries(self.code, after=snap.seq):
                if e.seq == target.seq or not e.applies:
                    continue
                try:
                    table.apply(dict(e.body), e.actor)
                except Exception as exc:
                    why = exc.error if isinstance(exc, Refused) else str(exc)
                    if e.type in secret_fields()[0]:
                        # Its words may name the entry's hidden cards ("sa5 would be on the
                        # table 2 times"): the host is not told another player's hand.
                        why = "the cards entered no longer fit the table"
                    raise Refused(
                        409,
                        f"entry {e.seq} ({e.type}) would no longer apply without entry "
                        f"{target.seq}: {why}",
                        "seq",
                    ) from None
            # Seat names for the undo's words (a table class without seats has none to give).
            seats = self.table.to_json().get("seats") or {}
            names = {sid: seat.get("name", sid) for sid, seat in seats.items() if isinstance(seat, dict)}
            events = [
                {"type": "undone", "seq": target.seq, "entry_type": target.type, "actor": target.actor,
                 "words": undone_words(target.type, dict(target.body), target.actor,
                                       lambda sid: names.get(sid, sid), getattr(self.table, "rules", None))}
            ]
            new_seq = self.version + 1
            entry = Entry(new_seq, UNDO, actor, {"undoes": target.seq}, time.time(),
                          idempotency_key, None, events)
            try:
                self.ledger.append(self.code, entry, snapshot=self._snapshot_of(table))
            except Exception:
                log.exception("table %s: the undo could not be written", self.code)
                raise Refused(503, "the ledger could not be written; nothing changed", None) from None
            self.table = table
            self.version = new_seq
            self._since_snapshot = 0
            if self._commits():
                self._rewind_roller()
            self._publish(new_seq, events, None)
            return Result(new_seq, events, undone=target.seq)

    def _check_undo_keeps_secrets(self, target: Entry) -> None:
        """Refuse an undo that would change what is already public, or whose answer would
        depend on what is still hidden; the refusal depends only on public facts (which
        entries exist and what has been shown), never on a hidden card.

        - Once a hand's seed is revealed, everyone knows its rolls: its play is settled and
          corrections are adjustments (the third-round ruling on undo and the dice).
        - A roll of the hand's seed is undone only from the latest back: the n-th roll of a
          hand that stands is the seed's n-th roll, so `verify` checks every finished hand.
        - An undo never replays an entry whose cards are still hidden (a hand entered at the
          reveal before every hand is in, a tie card before every card is in): whether it
          would still fit would tell the host that player's cards (issue 15)."""
        later = [e for e in self.ledger.entries(self.code, after=target.seq) if e.applies]
        hand = [target] + later
        for e in hand:
            if e.type == REVEAL_SEED:
                raise Refused(409, f"this hand's seed is revealed (entry {e.seq}): everyone knows its "
                                   f"rolls, so its play can no longer be undone; correct a stack with "
                                   f"an adjustment instead", "seq")
        if self._commits() and target.type == "roll" and _seeded_roll(target):
            rolls = [e.seq for e in later if e.type == "roll" and _seeded_roll(e)]
            if rolls:
                raise Refused(409, f"entry {rolls[-1]} is a later roll of this hand: undo the rolls "
                                   f"from the latest back (the hand's n-th roll is always the "
                                   f"seed's n-th roll)", "seq")
        shown_by = secret_fields()[1]
        for i, e in enumerate(later):
            if e.type in shown_by and not any(ev.get("type") in shown_by[e.type]
                                              for x in later[i:] for ev in x.events):
                raise Refused(409, f"entry {e.seq} ({e.type}) holds cards that are not face up "
                                   f"yet: undo it first, or wait until every card is in", "seq")

    def _rewind_roller(self) -> None:
        """After an undo: the seeded roller goes back to the number of this hand's rolls that
        stand, so that an undone roll rolled again gives the same dice."""
        start, seeded = self._start_entry(), self.seeded
        if seeded is None or start is None or start.body.get("seed_commitment") != seeded.commitment:
            return
        standing = sum(1 for e in self.ledger.entries(self.code, after=self.hand_start_seq)
                       if e.applies and e.type == "roll" and _seeded_roll(e))
        while seeded.index > standing:
            seeded.discard()

    def _undo_target(self, seq: int | None) -> Entry:
        if seq is None:
            for e in reversed(self.ledger.entries(self.code, after=self.hand_start_seq)):
                if e.applies and e.type != JOIN:
                    return e
            raise Refused(409, "nothing in this hand can be undone", "seq")
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise Refused(422, "seq must be a whole number", "seq")
        # Past the table's version there is no entry (and SQLite takes no number over 2**63).
        target = self.ledger.entry(self.code, seq) if 1 <= seq <= self.version else None
        if target is None:
            raise Refused(404, f"there is no entry {seq}", "seq")
        if target.type == UNDO:
            raise Refused(409, "an undo cannot be undone", "seq")
        if target.undone_by is not None:
            raise Refused(409, f"entry {seq} is already undone (by entry {target.undone_by})", "seq")
        if target.type == JOIN:
            raise Refused(409, "a join cannot be undone (the seat can leave instead)", "seq")
        if target.seq <= self.hand_start_seq:
            raise Refused(409, f"entry {seq} belongs to an earlier hand", "seq")
        return target

    def _replayed(self, body: dict, actor: str | None, key: str | None) -> Result | None:
        """The stored result for a repeated idempotency key, or None for a new key."""
        if key is None:
            return None
        old = self.ledger.entry_by_key(self.code, key)
        if old is None:
            return None
        def plain(b: dict) -> dict:  # without what the owner fills in (dice, commitment)
            return {k: v for k, v in b.items() if k not in ("dice", "seed_commitment")}

        if old.type == UNDO:
            same = body.get("type") == UNDO and body.get("seq", old.undoes) == old.undoes
        else:
            same = old.actor == actor and plain(old.body) == plain(body)
        if not same:
            raise Refused(422, "this idempotency_key was already used for another command", "idempotency_key")
        result = Result(old.seq, old.events, replayed=True, undone=old.undoes)
        if old.type == JOIN:
            # Only the hash of the first token was kept: the retrying phone gets a new one.
            result.seat = next((e.get("seat") for e in old.events if e.get("seat")), None)
            if result.seat is not None:
                result.token = new_token()
                self.ledger.set_token(self.code, result.seat, token_hash(result.token))
        return result

    def _check_version(self, version: int | None) -> None:
        if version is None:
            return
        if version != self.version:
            raise Refused(
                409,
                f"the table has changed since version {version} (it is at {self.version})",
                "version",
                version=self.version,
            )

    @staticmethod
    def _snapshot_of(table: Any) -> dict[str, Any] | str:
        """`table`'s snapshot for the ledger: its JSON text where the table class makes it
        (the engine's `snapshot_text`, which encodes each settled history row once), else
        `to_json()`."""
        text = getattr(table, "snapshot_text", None)
        return text() if text is not None else table.to_json()

    def _apply(self, entry: dict[str, Any], actor: str | None) -> list[dict[str, Any]]:
        try:
            return self.table.apply(entry, actor)
        except Refused:
            raise
        except Exception as exc:
            # An engine bug must not leave a half-changed table behind: start again from disk.
            log.exception("table %s: %r from %s could not be applied", self.code, entry, actor)
            self._load()
            raise Refused(422, f"the table could not apply this command ({type(exc).__name__})", "type") from None

    def _commit(
        self,
        entry: dict[str, Any],
        actor: str | None,
        key: str | None,
        events: list[dict[str, Any]],
        seat_token: tuple[str, str] | None = None,
        meta: dict[str, str | None] | None = None,
    ) -> None:
        """Append the applied entry (durably, with `meta` in the same transaction), then move
        the version on and publish. Raises `Refused` (503) only when the entry is not on disk;
        the ledger tells a failed write from a commit that reported an error after writing."""
        seq = self.version + 1
        # A hand starts with the entry whose events include `hand_started`: snapshot there,
        # so undo and loading never replay more than the current hand.
        hand_start = any(e.get("type") == HAND_STARTED for e in events)
        snapshot = None
        if hand_start or self._since_snapshot + 1 >= SNAPSHOT_EVERY:
            snapshot = self._snapshot_of(self.table)
        try:
            self.ledger.append(
                self.code,
                Entry(seq, str(entry.get("type")), actor, entry, time.time(), key, None, events),
                snapshot=snapshot,
                hand_start=hand_start,
                seat_token=seat_token,
                meta=meta,
            )
        except Exception as exc:
            why = exc.why if isinstance(exc, NotWritten) else type(exc).__name__
            log.error("table %s: entry %d could not be written: %s", self.code, seq, why)
            self._load()  # the table in memory is ahead of the disk: go back to the disk
            raise Refused(503, f"the ledger could not be written ({why}); nothing changed", None) from None
        self.version = seq
        self._since_snapshot = 0 if snapshot is not None else self._since_snapshot + 1
        if hand_start:
            self.hand_start_seq = seq
        try:
            self._publish(seq, events, actor)
        except Exception:  # written: the listeners catch up from the ledger when they reconnect
            log.exception("table %s: entry %d could not be published", self.code, seq)

    # -- verifiable dice --------------------------------------------------------------------
    # With a committing roller (companion.scrambler.seed.SeededRoller: `commitment`, `reveal`,
    # `new_hand`), every hand's rolls come from a secret seed whose commitment the start_hand
    # entry carries; once the hand has ended the owner appends `reveal_seed`, and the next
    # hand's seed is stored in the same transaction. The secret seed is kept in the ledger
    # (never in a view, event or the API) so that a restart in the middle of a hand goes on
    # rolling from the same seed and roll number. The chain's rules (docs/DATA-SAFETY.md):
    # - such a table commits to its own seeds: a host-given `seed_commitment` is refused (the
    #   server could not reveal a seed it does not know, and its rolls would not verify);
    # - a hand's seed is used for one hand only, and is stored before the hand starts;
    # - no hand starts while the previous hand's seed is owed (its reveal was not written).

    def _commits(self) -> bool:
        return self.seeded is not None

    @property
    def _seed_key(self) -> str:
        return f"hand_seed:{self.code}"

    def _use_seed(self, seed: str) -> None:
        self._seed = seed
        if self.seeded is not None:
            self.seeded.new_hand(seed)

    def _new_seed(self) -> None:
        """Draw, store (raises `NotWritten` if it cannot) and roll from a fresh seed."""
        seed = secrets.token_hex(32)
        self.ledger.set_meta(self._seed_key, seed)
        self._use_seed(seed)

    def _start_entry(self) -> Entry | None:
        return self.ledger.entry(self.code, self.hand_start_seq) if self.hand_start_seq else None

    def _owed_reveal(self) -> bool:
        """Whether the current hand rolled from our seed, has ended, and its seed is not yet
        revealed."""
        start = self._start_entry()
        if self._seed is None or start is None:
            return False
        if start.body.get("seed_commitment") != seed_commitment_of(self._seed):
            return False
        ended = revealed = False
        for e in self.ledger.entries(self.code, after=self.hand_start_seq):
            if e.applies:
                ended = ended or any(ev.get("type") == HAND_ENDED for ev in e.events)
                revealed = revealed or e.type == REVEAL_SEED
        return ended and not revealed

    def _restore_seed(self) -> None:
        """Give the roller the stored seed, wound on past the rolls this hand already made."""
        seed = self.ledger.get_meta(self._seed_key)
        if seed is None:
            seed = secrets.token_hex(32)
            try:
                self.ledger.set_meta(self._seed_key, seed)
            except NotWritten as exc:  # stored before the next hand starts (`_prepare_seed`)
                log.warning("table %s: the next hand's seed is not stored yet: %s", self.code, exc.why)
        self._use_seed(seed)
        start, seeded = self._start_entry(), self.seeded
        if seeded is None or start is None or start.body.get("seed_commitment") != seeded.commitment:
            return  # the stored seed is for the next hand: nothing rolled from it yet
        for e in self.ledger.entries(self.code, after=self.hand_start_seq):
            if e.applies and e.type == "roll" and _seeded_roll(e):
                # The same roll number as before the restart, for the dice the roll recorded.
                key = next((ev["roll"].get("trigger") for ev in e.events
                            if ev.get("type") == "rolled" and ev.get("roll")), None)
                self.roller.dice(key if key is not None else self.table.roll_needed({"type": "roll"}))
        if self._owed_reveal():
            self._reveal_seed()  # stopped between the hand's end and the reveal

    def _prepare_seed(self, entry: dict[str, Any]) -> None:
        """Before a hand starts: the previous hand's seed revealed, a fresh seed stored, and its
        commitment in the start_hand entry. Raises `Refused` with nothing changed."""
        given = entry.get("seed_commitment")
        if given is not None:
            raise Refused(
                422,
                "this table's scrambler commits to its own seed for every hand and reveals it "
                "after the hand; leave seed_commitment out",
                "seed_commitment",
            )
        if self._owed_reveal() and not self._reveal_seed():
            raise Refused(
                503,
                "the last hand's seed could not be revealed yet (the table's file could not be "
                "written); the next hand was not started, nothing changed",
                None,
            )
        start, seeded = self._start_entry(), self.seeded
        if seeded is None:
            return  # a roller that commits to no seed (asked only when `_commits`)
        used = seeded.index > 0 or (
            start is not None and start.body.get("seed_commitment") == seeded.commitment
        )
        if used or self.ledger.get_meta(self._seed_key) != self._seed:
            try:
                self._new_seed()  # never one seed for two hands; stored before it is used
            except NotWritten as exc:
                raise Refused(503, f"the next hand's seed could not be stored ({exc.why}); "
                              "the hand was not started, nothing changed", None) from None
        entry["seed_commitment"] = seeded.commitment

    def _reveal_seed(self) -> bool:
        """Append `reveal_seed` for the hand that just ended, with the next hand's seed stored
        in the same transaction, and roll from that seed. Returns False when the reveal could
        not be written (it stays owed: tried again at the next command, and no hand starts
        before it). Never raises: the entry that ended the hand is already committed."""
        try:
            if not self._owed_reveal():
                self._reveal_pending = False
                return True
            entry = {"type": REVEAL_SEED, "seed": self._seed}
            try:
                events = self._apply(entry, SCRAMBLER)
            except Refused as exc:  # the engine will not take it: nothing to wait for
                log.warning("table %s: the seed was not revealed: %s", self.code, exc.error)
                self._reveal_pending = False
                return True
            next_seed = secrets.token_hex(32)
            self._commit(entry, SCRAMBLER, None, events, meta={self._seed_key: next_seed})
        except Exception as exc:
            why = exc.error if isinstance(exc, Refused) else repr(exc)
            log.error("table %s: the hand's seed is owed, its reveal was not written: %s", self.code, why)
            self._reveal_pending = True
            return False
        self._reveal_pending = False
        self._use_seed(next_seed)
        return True

    # -- listening ------------------------------------------------------------------------

    def subscribe(self, seat: str | None = None, host: bool = False) -> tuple[Subscription, int, dict]:
        """Start listening as a viewer; returns the subscription, the version and the viewer's
        state (shared parts: read only), taken at the same instant, so no update is missed or
        doubled."""
        sub = Subscription(seat, host)
        with self._lock:
            self._subscriptions.add(sub)
            state = sub.last_state = self._view(seat, host, VIEW_HISTORY)
            return sub, self.version, state

    def unsubscribe(self, sub: Subscription) -> None:
        """Stop listening (safe to call twice): once this returns, nothing more is written to
        or put in its mailbox."""
        with self._lock:
            self._subscriptions.discard(sub)
        sub.stop()

    @property
    def subscriber_count(self) -> int:
        """How many listeners the table has."""
        return len(self._subscriptions)

    @staticmethod
    def update_json(seq: int, events: list[dict], state: dict | None) -> str:
        """One `update` message: the entry's events (public: the engine never puts hidden
        cards in an event) and, if given, the viewer's state after it."""
        msg: dict[str, Any] = {"version": seq, "events": events}
        if state is not None:
            msg["state"] = state
        return dumps(msg)

    def _publish(self, seq: int, events: list[dict], actor: str | None) -> None:
        """Queue entry `seq`'s update for every subscriber (called under the lock, in seq
        order, right after the commit); `deliver` hands it over once the lock is free. Nothing
        is rendered here. A subscriber that joined after the entry was committed is not
        handed it: its snapshot already includes it."""
        if not self._subscriptions:
            return
        # The players' phones first, then spectators (the display); the actor's own streams
        # last, as its answer already carries the same state.
        subs = sorted(self._subscriptions, key=lambda sub: (
            sub.seat == actor if sub.seat is not None else sub.host and actor == HOST, sub.seat is None))
        self._outbox.append((seq, Update(seq, events, self._current_views()), subs))

    def _deliver_soon(self) -> None:
        """Deliver the queued updates now, or after the current web answer (`defer_delivery`)."""
        if not self._outbox:
            return
        waiting = getattr(_waiting, "owners", None)
        if waiting is None:
            self.deliver()
        elif self not in waiting:
            waiting.append(self)

    def deliver(self) -> None:
        """Hand every queued update to its subscribers, in seq order, from this thread: each
        stream writing its own updates renders and sends its text here (a stream's send never
        blocks: one too far behind is cut), the others find it in their mailbox. Safe from any
        thread; a thread that finds another delivering waits for it, then finds the queue
        empty or goes on with what came since."""
        with self._delivering:
            while self._outbox:
                seq, update, subs = self._outbox.popleft()
                for sub in subs:
                    try:
                        sub.receive(seq, update)
                    except Exception:  # one broken stream must not keep the others waiting
                        log.exception("table %s: update %d could not be handed to a stream", self.code, seq)

    def close(self) -> None:
        """Tell every listener the table is going away (server shutdown); the updates already
        committed reach them before the goodbye."""
        self.deliver()
        with self._lock:
            subs = list(self._subscriptions)
            for sub in subs:
                sub.messages.put(None)
