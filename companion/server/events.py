"""`GET /api/v1/tables/<code>/events`: the table's live Server-Sent Events stream (its own
blueprint).

A snapshot of the asker's view on connect, then one `update` per ledger entry (its events and
the asker's fresh view), each with the entry's seq as its `id`; `Last-Event-ID` resumes. With
`?changed=1` (the pages ask for it) an update's state holds only the top-level parts that
changed since the last state the stream sent: the client keeps the others (the rules, the
game's blocks, the settings: most of a view's bytes, rarely changed).
A `: ping` comment every few seconds finds dead clients: under waitress a write to a closed
connection fails, the stream is closed and its `close()` unsubscribes (FIELD-NOTES). A client
that stops reading is dropped by the server's send deadline (`companion.server.front`).

Each open stream holds one waitress thread, so streams are counted in two pools (`StreamGate`):
- the **seats' pool** (`MAX_STREAMS`): streams with a seat's, the host's or the display's token.
  One token holds at most `STREAMS_PER_TOKEN` streams: one more (a reloaded page) takes the
  place of its oldest, which is told goodbye, so a seat's own phone always gets through; one
  address holds at most `TOKEN_STREAMS_PER_ADDRESS` of the pool. With the pool full, every
  stream of the owner's tables still gets in (a reload or a second tab included, issue 28), a
  token's reload takes its own oldest stream's place, and other tables share by party (issue
  15; see `StreamGate`).
- the **spectators' pool** (`MAX_SPECTATOR_STREAMS`): token-less streams (guests watching, the
  table display, the audit page). One address holds at most `SPECTATOR_STREAMS_PER_ADDRESS`.
A stream over its address's share is answered `429`, one beyond a full pool `503`, both with
`Retry-After`. `companion.serve` sizes its thread pool above both pools together, so action
requests always find a free thread. A stream more than `STREAM_BEHIND_BYTES` behind its client
is cut (its connection closed); the phone reconnects to a fresh snapshot, as after sleep.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections import deque
from typing import Callable, Iterator

from flask import Blueprint, Flask, Response, current_app, request

from companion.refusal import Refused
from companion.server import front
from companion.server.access import client_address, request_token, table_owner, viewer
from companion.table.owner import HOST, Subscription, TableOwner
from companion.table.views import Update
from companion.table.registry import registry_for

bp = Blueprint("events", __name__)

#: Defaults; `companion.serve` sets the pools from its thread pool.
DEFAULT_MAX_STREAMS = 96
DEFAULT_MAX_SPECTATOR_STREAMS = 48
#: A seat's phone, a second tab, a page being reloaded.
STREAMS_PER_TOKEN = 3
#: A laptop with the host console and a few seats' pages open while testing a table.
TOKEN_STREAMS_PER_ADDRESS = 24
#: A quarter of the spectators' pool: a guest's phone and tablet watching; the display, the audit
#: page and a few test pages on the Pi itself.
SPECTATOR_STREAMS_PER_ADDRESS = 12
DEFAULT_HEARTBEAT_S = 5.0
#: How often a waiting stream asks waitress whether its client has gone (when it can tell).
DISCONNECT_POLL_S = 0.5
#: A client further behind than this many entries gets a fresh snapshot instead of a replay.
REPLAY_LIMIT = 500
#: How long the browser waits before reconnecting (ms), sent as the stream's `retry:`.
RETRY_MS = 2000


#: A stream whose client has not taken this many bytes of it is cut (its connection closed):
#: a phone that far behind (dozens of updates) reconnects and gets a fresh snapshot, as after
#: sleep. It bounds what the server holds per stream: at the stream limits, 144 × 128 KiB = 18 MiB.
STREAM_BEHIND_BYTES = 128 * 1024


class Pool:
    """One pool of stream places, with a share per address."""

    def __init__(self, name: str, limit: int, per_address: int):
        self.name, self.limit, self.per_address = name, limit, per_address
        self.open = 0
        self.by_address: dict[str, int] = {}
        self.places: list["Place"] = []


class Place:
    """One stream's place in a pool; `leave()` gives it back (once).

    `table`: the table it streams; `party`: whose tables those are (`"owner"` for the owner's
    tables, else who made it); `own`: a stream of the owner's tables' seats, host or display."""

    def __init__(self, gate: "StreamGate", pool: Pool, address: str, token: str | None,
                 party: str | None = None, own: bool = False):
        self.gate, self.pool, self.address, self.token = gate, pool, address, token
        self.party, self.own = party, own
        self.stream: "EventStream | None" = None
        self.left = False

    def leave(self) -> None:
        """Give the place back (idempotent)."""
        self.gate.leave(self)


class StreamGate:
    """Counts open streams in their pools and refuses one beyond a pool or a share.

    `enter(address, token, party, own)` returns a `Place` or raises `Refused` (429 over the
    address's share, 503 with the pool full). A token's stream beyond `per_token` takes the
    place of that token's oldest stream, which is told goodbye. With the seats' pool full, a
    token's first stream (any stream of the owner's tables' tokens) still gets in, in the place
    of (in this order): another token's extra stream (its second or third), a stream of
    another party's tables when the newcomer is of the owner's tables, or a stream of the
    party holding the most places when it holds more than the newcomer's party would; failing
    those, a token's further stream takes its own oldest's place (a reload: that page is most
    likely gone). The owner's tables' places are never taken for another's stream. So the
    owner's tables' seats, host and display always get their streams, and one client's tables
    (however many addresses made them) hold no more of the pool than another table's party
    needs.
    """

    def __init__(self, seats: int, spectators: int, per_token: int = STREAMS_PER_TOKEN,
                 token_per_address: int = TOKEN_STREAMS_PER_ADDRESS,
                 spectator_per_address: int = SPECTATOR_STREAMS_PER_ADDRESS):
        self.seats = Pool("seats", seats, token_per_address)
        self.spectators = Pool("spectators", spectators, spectator_per_address)
        self.per_token = per_token
        self._by_token: dict[str, deque[Place]] = {}
        self._lock = threading.Lock()
        #: Streams that lost their place to a more entitled one.
        self.shed = 0

    @property
    def open(self) -> int:
        """Streams open in both pools."""
        return self.seats.open + self.spectators.open

    def _victim(self, pool: Pool, party: str | None, own: bool, spared: list[Place]) -> Place | None:
        """The place a token's first stream of `party` may take in the full `pool`, or None."""
        # The owner's tables' places are never taken for another's stream.
        others = [p for p in pool.places if p not in spared and not p.own]
        extra = [p for p in others if p.token is not None and len(self._by_token.get(p.token, ())) > 1
                 and self._by_token[p.token][-1] is not p]
        if extra:
            return extra[0]
        if own:
            return others[0] if others else None
        count: dict[str | None, int] = {}
        for p in others:
            count[p.party] = count.get(p.party, 0) + 1
        if not count:
            return None
        richest = max(count, key=lambda k: count[k])
        if count[richest] > count.get(party, 0) + 1:
            return next(p for p in others if p.party == richest)
        return None

    def enter(self, address: str, token: str | None, party: str | None = None,
              own: bool = False) -> Place:
        """Take a place for a stream from `address` (with `token`, when it has a valid one, of
        `party`'s tables; `own`: of the owner's tables)."""
        pool = self.seats if token is not None else self.spectators
        evict: list[Place] = []
        with self._lock:
            mine = self._by_token.get(token) if token is not None else None
            if mine and len(mine) >= self.per_token:
                # The same seat again (a reload, a new tab): it replaces its oldest stream.
                evict.append(mine[0])
            held = pool.by_address.get(address, 0)
            freed = sum(1 for p in evict if p.pool is pool)
            if held - sum(1 for p in evict if p.address == address) >= pool.per_address:
                raise Refused(429, f"this device already has {held} {'live' if token else 'spectator'} "
                              "streams open; close a page and try again", None, retry_after=5)
            if pool.open - freed >= pool.limit:
                victim = None
                if token is not None and (own or not mine):
                    # A token's first stream; or any of the owner's tables' (a reload or a
                    # second tab while the first still streams: issue 28) before its own.
                    victim = self._victim(pool, party, own, evict)
                if victim is not None:
                    self.shed += 1
                elif mine and not evict:
                    # A reload with the pool full: it takes its own oldest stream's place
                    # (that page is most likely gone) rather than a 503.
                    victim = mine[0]
                else:
                    raise Refused(503, "too many open event streams; try again shortly", None, retry_after=5)
                evict.append(victim)
            for old in evict:
                self._forget(old)
            held = pool.by_address.get(address, 0)
            if token is not None:
                mine = self._by_token.setdefault(token, deque())
            pool.open += 1
            pool.by_address[address] = held + 1
            place = Place(self, pool, address, token, party, own)
            pool.places.append(place)
            if token is not None:
                self._by_token[token].append(place)
        for old in evict:
            if old.stream is not None:
                old.stream.goodbye(cut=old.token != token)
        return place

    def _release(self, place: Place) -> None:
        if place.left:
            return
        place.left = True
        pool = place.pool
        pool.open -= 1
        try:
            pool.places.remove(place)
        except ValueError:
            pass
        left = pool.by_address.get(place.address, 1) - 1
        if left:
            pool.by_address[place.address] = left
        else:
            pool.by_address.pop(place.address, None)

    def _forget(self, place: Place) -> None:
        """Release `place` and take it off its token's list (under the lock)."""
        self._release(place)
        if place.token is not None:
            mine = self._by_token.get(place.token)
            if mine is not None:
                try:
                    mine.remove(place)
                except ValueError:
                    pass
                if not mine:
                    del self._by_token[place.token]

    def leave(self, place: Place) -> None:
        """Give a place back."""
        with self._lock:
            self._forget(place)


def _gate(app: Flask) -> StreamGate:
    return app.extensions["table_streams"]


def message(kind: str | None, data: str, id_: int | None = None) -> str:
    """One SSE message (data is one line of JSON)."""
    head = f"id: {id_}\n" if id_ is not None else ""
    head += f"event: {kind}\n" if kind else ""
    return f"{head}data: {data}\n\n"


class EventStream:
    """The body of one stream: iterating yields SSE text; `close()` (called by the server
    when the client is gone or the response ends) unsubscribes, exactly once.

    Under waitress, once the first messages (the snapshot or the replay) are written, the
    stream's updates are written by the thread that committed each entry
    (`Subscription.write_directly`, `front.chunk_writer`): no thread wakes per stream and
    update, and each stream is written as soon as its own text is ready. The stream's own
    thread only waits: for its end, for its client to go, and to send a heartbeat. Elsewhere
    (a test client) the thread takes each update from its mailbox and yields it."""

    def __init__(
        self,
        owner: TableOwner,
        sub: Subscription,
        place: Place,
        first: list[str],
        heartbeat: float,
        disconnected: Callable[[], bool] | None = None,
        environ: dict | None = None,
    ):
        self.owner, self.sub, self.place = owner, sub, place
        # The server's request environment: how far behind the client is (`front.unsent`),
        # and how to cut it (`front.drop`). None outside waitress.
        self.environ = environ
        self._write = front.chunk_writer(environ) if environ is not None else None
        place.stream = self
        self.first = first
        self.heartbeat = heartbeat
        # waitress (with channel_request_lookahead > 0) tells us when the client has gone, so
        # its place is freed within DISCONNECT_POLL_S instead of at the next failed ping.
        self.disconnected = disconnected
        self._closed = False
        self._close_lock = threading.Lock()
        # One piece at a time on the connection: an update (written by the thread that
        # committed it) and the stream's own heartbeat or goodbye.
        self._write_lock = threading.Lock()
        self._last_write = time.monotonic()
        self._gone = False  # the client has gone, or the stream was cut: write nothing more

    def _send(self, data: bytes) -> bool:
        """Write one piece now (direct mode); False once the client has gone."""
        write = self._write
        assert write is not None
        with self._write_lock:
            if self._gone:
                return False
            try:
                write(data)
            except front.Gone:
                self._gone = True
                self.sub.messages.put(None)  # wake the stream's thread: it ends
                return False
            self._last_write = time.monotonic()
            return True

    def _behind(self) -> bool:
        """Whether the client is too far behind; if so its connection is cut. Holding more for
        it would let one slow reader fill the server's memory: it reconnects, and a fresh
        snapshot catches it up."""
        if self.environ is not None and front.unsent(self.environ) > STREAM_BEHIND_BYTES:
            front.drop(self.environ, "its event stream fell too far behind")
            return True
        return False

    def _deliver(self, seq: int, update: Update) -> None:
        """Write entry `seq`'s update for this viewer (called by the delivering thread)."""
        if self._gone or self._cut:
            return
        if self._behind():
            self._gone = True
            self.sub.messages.put(None)
            return
        self._send(message("update", self.sub.text(update), seq).encode("utf-8"))

    def __iter__(self) -> Iterator[bytes]:
        try:
            for text in self.first:
                yield text.encode("utf-8")
            # The first pieces are written: from now on the updates are written by whoever
            # delivers them (the mailbox's waiting updates first). False: told to end already.
            direct = self._write is not None
            if direct and not self.sub.write_directly(self._deliver):
                yield message("bye", "{}").encode("utf-8")
                return
            poll = min(self.heartbeat, DISCONNECT_POLL_S) if self.disconnected else self.heartbeat
            self._last_write = time.monotonic()
            while not self._closed:
                try:
                    msg = self.sub.messages.get(timeout=poll)
                except queue.Empty:
                    if self._gone or (self.disconnected is not None and self.disconnected()):
                        return
                    if time.monotonic() - self._last_write >= self.heartbeat:
                        if not direct:
                            self._last_write = time.monotonic()
                            yield b": ping\n\n"
                        elif not self._send(b": ping\n\n"):
                            return
                    continue
                if msg is None:  # shutting down, the seat's token replaced, or a newer stream
                    if self._gone or self._cut:
                        return
                    bye = message("bye", "{}").encode("utf-8")
                    if direct:
                        self.sub.stop()  # the goodbye is the last thing written
                        self._send(bye)
                    else:
                        yield bye
                    return
                if self._cut or self._behind():
                    return
                self._last_write = time.monotonic()
                seq, kind, update = msg
                yield message(kind, self.sub.text(update), seq).encode("utf-8")
        finally:
            self.close()

    def close(self) -> None:
        """Unsubscribe and free the stream's place (idempotent). Once it returns nothing more
        is written by a delivering thread (the server may end the response)."""
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        self.owner.unsubscribe(self.sub)
        self.place.leave()

    _cut = False

    def goodbye(self, cut: bool = False) -> None:
        """End this stream with a `bye` (a newer stream of the same token took its place); with
        `cut` (a more entitled stream took it), also close its connection at once, so that its
        thread is freed even if its client does not read."""
        if cut:
            self._cut = True
            if self.environ is not None:
                front.drop(self.environ, "its stream's place was needed")
        self.sub.messages.put(None)


def _last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    if raw is None:
        return None
    raw = raw.strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 16 else -1


@bp.get("/api/v1/tables/<code>/events")
def events(code: str):
    """The table's live events for the asker (public, seat or host view)."""
    owner = table_owner(code)
    who = viewer(owner)
    seat, host = (None, True) if who == HOST else (who, False)
    changed = request.args.get("changed")
    if changed is not None and changed != "1":  # the one value the document names
        raise Refused(400, "changed must be 1 (or left out)", "changed")
    last = _last_event_id()
    gate = _gate(current_app)
    # The table display holds no token (a TV shows only public things) but its key: it takes
    # a place in the seats' pool, so guests filling the spectators' pool cannot blind it.
    key = request.args.get("display")
    display = who is None and key is not None and 0 < len(key) <= 64 and owner.is_display_key(key)
    place_token = request_token() if who is not None else f"display:{owner.code}" if display else None
    reg = registry_for()
    own = place_token is not None and reg.is_priority(owner.code)
    if display:
        front.mark(request.environ, front.OWN_TABLE if own else front.OTHER_TABLE, f"display:{key}")
    place = gate.enter(client_address(), place_token, reg.party(owner.code), own)
    try:
        sub, version, state = owner.subscribe(seat, host)
    except BaseException:
        place.leave()
        raise
    # `?changed=1`: the client keeps the last state it was sent (the pages do: live.js), so
    # each update carries only the top-level parts that changed, not the rules again.
    sub.changed_only = changed == "1"
    first = [f"retry: {RETRY_MS}\n\n"]
    viewer_json = {"seat": seat, "host": host}
    if last is not None and 0 <= last <= version and version - last <= REPLAY_LIMIT:
        missed = [e for e in owner.ledger.entries(owner.code, after=last, limit=version - last) if e.seq <= version]
        if len(missed) == version - last:
            for i, e in enumerate(missed):
                final = i == len(missed) - 1
                first.append(message("update", owner.update_json(e.seq, e.events, state if final else None), e.seq))
        else:
            last = None
    else:
        last = None
    if last is None:
        snapshot = json.dumps({"version": version, "viewer": viewer_json, "state": state},
                              separators=(",", ":"), ensure_ascii=False)
        first.append(message("snapshot", snapshot, version))
    heartbeat = float(current_app.config.get("SSE_HEARTBEAT_S", DEFAULT_HEARTBEAT_S))
    body = EventStream(owner, sub, place, first, heartbeat,
                       request.environ.get("waitress.client_disconnected"), request.environ)
    front.streaming(request.environ)
    resp = Response(body, mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp


def init_app(app: Flask) -> None:
    """The stream pools for this app (config `MAX_STREAMS`, `MAX_SPECTATOR_STREAMS`)."""
    app.extensions["table_streams"] = StreamGate(
        int(app.config.get("MAX_STREAMS", DEFAULT_MAX_STREAMS)),
        int(app.config.get("MAX_SPECTATOR_STREAMS", DEFAULT_MAX_SPECTATOR_STREAMS)),
        per_token=int(app.config.get("STREAMS_PER_TOKEN", STREAMS_PER_TOKEN)),
        token_per_address=int(app.config.get("TOKEN_STREAMS_PER_ADDRESS", TOKEN_STREAMS_PER_ADDRESS)),
        spectator_per_address=int(app.config.get("SPECTATOR_STREAMS_PER_ADDRESS", SPECTATOR_STREAMS_PER_ADDRESS)),
    )
