"""The companion's HTTP front: waitress, with the deadlines and shares a shared Wi-Fi needs.

waitress alone lets one guest stall the table (issue 11): it closes a connection only after
`channel_timeout` seconds *without a byte*, so a client that sends one header byte every few
seconds keeps its connection forever, and 400 of them (its `connection_limit`) take every
place. This module adds, in a small subclass of waitress's own server and channel (no new
dependency, nothing else to install or start: `sabacc-companion serve` is still the one
command):

- a **header deadline**: a request's headers must be complete `HEADER_TIMEOUT_S` after its
  first byte (or after the connection opened, for its first request), and the whole request,
  body included, within `REQUEST_TIMEOUT_S`; otherwise the connection is closed. Idle
  keep-alive connections between requests keep waitress's `channel_timeout`.
- a **send deadline**: a response (an event stream above all) whose client has stopped reading
  is closed once `SEND_TIMEOUT_S` pass with bytes waiting and none taken.
- a **fair share per address**: one client address holds at most `PER_ADDRESS_CONNECTIONS`
  open connections; one more is answered `429` and closed at once, so the server's
  `CONNECTION_LIMIT` can only be reached by many addresses together.
- **the owner's tables first** (issue 15, 22): the application marks who each connection's
  client is (`mark`: a seat, host or display of one of the owner's tables, of another table, or
  anonymous). Requests not of the owner's tables run in a few guest lanes (`LaneDispatcher`),
  none starting while a request of the owner's tables runs, and each class of guests within a
  share of the interpreter (`GUEST_CPU_SHARE`); one request at a time per connection, the next once the
  client has taken the answer before it, and requests pipelined past `PIPELINE_MAX` wait
  unparsed; the guests' unsent answers are bounded in memory (`GUEST_UNSENT_BYTES`) and nothing
  unsent ever goes to a temporary file. docs/SECURITY.md says how each resource is shared.
- **hold, don't close** (issue 28): at `CONNECTION_LIMIT` a newcomer from an address holding
  few connections (a phone) takes the place of a connection not of the owner's tables, of the
  address holding the most; a newcomer from an address holding many is *parked*: accepted and
  held, neither read nor watched by the loop, until a place is free (`TableServer.admit`). A
  guest's script brings every closed connection straight back: closing cost the table more
  than holding costs it.
- refusals made by waitress itself (a body over `max_request_body_size`, read as soon as its
  `Content-Length` header arrives and, for a chunked body, as it grows) get the API's JSON body
  in words instead of waitress's plain text.

Why not a reverse proxy in front (nginx, HAProxy)? They do all this, but the Pi would need a
second service, its configuration and its updates, and `./scripts/serve` would no longer be
the whole installation. waitress's loop already has the hook every one of these checks needs
(`maintenance`, run from the loop every `cleanup_interval`); the checks read the channel's own
fields, and `tests/drills/test_slow_header_drill.py` holds them to their numbers.

`make_server(app, host, port)` is the one way the companion builds its server: `serve` and the
test suite's `LiveServer` both use it.
"""

from __future__ import annotations

import json
import logging
import socket
import sys
import threading
import time
from collections import deque
from typing import Any, Callable
from urllib.parse import parse_qs

from waitress.adjustments import Adjustments
from waitress.channel import ClientDisconnected, HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher, WSGITask

log = logging.getLogger("companion.front")

#: A request's headers must arrive within this many seconds of its first byte. A phone on a
#: weak Wi-Fi sends its headers (well under 8 KB) in one packet; 5 s is a hundred round trips.
HEADER_TIMEOUT_S = 5.0
#: The whole request, body included (at most `MAX_BODY_BYTES`), within this many seconds.
REQUEST_TIMEOUT_S = 15.0
#: A response whose client takes no byte for this long, with bytes waiting, is dropped.
SEND_TIMEOUT_S = 5.0
#: Open connections one client address may hold. A phone uses 1 to 6 (a browser's own cap per
#: host), a laptop with the host console, the display and the audit page open perhaps 20.
PER_ADDRESS_CONNECTIONS = 48
#: Connections the whole server holds (waitress's `connection_limit`).
CONNECTION_LIMIT = 400
#: Idle keep-alive connections (between two requests) are closed after this many seconds.
CHANNEL_TIMEOUT_S = 30
#: Bodies larger than this are refused (413) before they are read: the API's largest body,
#: a table's settings, is a few KB. `companion.server.app` applies the same number.
MAX_BODY_BYTES = 256 * 1024
#: A request's headers (waitress's default is 256 KiB): a phone sends 1 to 2 KiB; 400
#: connections' worth of half-sent headers stay within a few megabytes.
MAX_HEADER_BYTES = 32 * 1024
#: The kernel's send buffer per connection (Linux doubles it): plenty for a LAN, and small
#: enough that a client which stops reading is noticed after a few updates, not megabytes.
SEND_BUFFER_BYTES = 32 * 1024
#: How often (seconds) the deadlines are checked; waitress's own default is 30.
CHECK_INTERVAL_S = 1
#: waitress's own cap on connections sits this far above `CONNECTION_LIMIT`, so that it never
#: stops accepting while a guest's connections can still be shed for a known client's.
ACCEPT_SLACK = 16
#: Connections accepted in one pass of the loop, at most (all waiting, in practice).
ACCEPTS_PER_PASS = 64
#: With the server full, a newcomer from an address holding fewer connections than this (a
#: phone: a browser opens at most 6 to one server) takes a guest connection's place; one from
#: an address holding more is parked (`TableServer.admit`).
SHED_FOR_BELOW = 8
#: Connections parked at most (more: `503`), and for how long (then closed). Parked ones cost
#: a file descriptor and the kernel's buffers, nothing in the loop: 400 served + 400 parked
#: stay under the 1024 descriptors a process may open by default.
PARKED_LIMIT = 400
PARKED_TIMEOUT_S = 60.0

#: What the server knows of a connection's client (`TableChannel.rank`), best first:
#: the seats, host or display of one of the owner's tables (bound to the scrambler, or made
#: with the owner token); a seat, host or display of another table; anyone else.
OWN_TABLE, OTHER_TABLE, ANONYMOUS = 0, 1, 2
#: Requests of clients other than the owner's tables' that run at once (the "guest lanes"),
#: for other tables' clients and for anonymous ones apart (so a spectators' crowd does not hold
#: up another table's phones); the rest wait their turn. The owner's tables' requests never
#: wait for a lane.
GUEST_LANES = {OTHER_TABLE: 2, ANONYMOUS: 2}
#: The share of the interpreter (one core's time) each class of guests' requests (other
#: tables' clients; anonymous ones) uses at most, all its lanes together, past a burst of
#: `GUEST_CPU_BURST_S`: a guest lane rests after a request while its class is over it
#: (`LaneDispatcher.charge`), so that the owner's tables always find the interpreter free often.
#: A busy real table of another party (eight phones, a display) uses a few percent.
GUEST_CPU_SHARE = 0.35
GUEST_CPU_BURST_S = 0.1
#: The guests keep to their share only while the owner's tables are in use: a request of
#: theirs started within this many seconds (`LaneDispatcher.guest_rest`).
OWNER_ACTIVE_S = 10.0
#: Bytes answered but not yet taken by their clients, over every connection not of the owner's
#: tables: past this, the connection holding the most is dropped. (Kept in memory: nothing a
#: client has not read is written to disk, see `OUTBUF_OVERFLOW`.)
GUEST_UNSENT_BYTES = 12 * 1024 * 1024
#: The interpreter's thread switch interval under `serve` (Python's default is 5 ms): a request
#: of the owner's tables waiting for the interpreter behind the guests' lanes gets it sooner.
SWITCH_INTERVAL_S = 0.002
#: Requests one connection may have waiting (pipelined, sent before their answers were read):
#: browsers send one at a time; a client's further requests wait unparsed (and nothing more is
#: read) until these are answered, so a burst of pipelined requests costs the server at most
#: this many parsed requests and one read's bytes per connection.
PIPELINE_MAX = 8
#: waitress blocks a response's thread once this many bytes wait on its connection. Above any
#: response the companion makes (the largest, a 500-entry log page, is about 1 MB); an event
#: stream is cut long before (`companion.server.events.STREAM_BEHIND_BYTES`).
OUTBUF_HIGH_WATERMARK = 4 * 1024 * 1024
#: waitress moves a connection's unsent output to a temporary file past this size. Set far above
#: every bound here, so it never happens: a client's unread output never reaches the disk.
OUTBUF_OVERFLOW = 64 * 1024 * 1024
#: A request body is kept in memory up to this size (waitress spools larger ones to a file):
#: above `MAX_BODY_BYTES`, so no body ever reaches the disk either.
INBUF_OVERFLOW = 512 * 1024


def _json_answer(status: str, error: str, field: str | None, extra_headers: str = "") -> bytes:
    body = json.dumps({"error": error, "field": field}).encode("utf-8")
    return (
        f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        f"Connection: close\r\n{extra_headers}\r\n"
    ).encode("ascii") + body


#: Sent (without waiting) to a connection over its address's share, before it is closed.
OVER_SHARE_ANSWER = _json_answer(
    "429 Too Many Requests",
    f"this device already holds {PER_ADDRESS_CONNECTIONS} connections to the table; "
    "close some pages and try again",
    None,
    "Retry-After: 5\r\n",
)
#: Sent to a newcomer when every place is held by the owner's tables' own clients.
SERVER_FULL_ANSWER = _json_answer(
    "503 Service Unavailable",
    "the table's server is full; try again shortly", None, "Retry-After: 5\r\n",
)


class JsonErrorTask(ErrorTask):
    """waitress's own refusals (body too large, malformed request line) with a JSON body in
    words, like every other refusal of the companion."""

    def execute(self) -> None:
        e = self.request.error
        words = {
            413: f"the body is larger than {self.channel.adj.max_request_body_size} bytes",
            400: "the request is malformed",
            431: "the request's headers are too large",
        }.get(e.code, e.reason.lower())
        body = json.dumps({"error": words, "field": "body" if e.code == 413 else None,
                           "detail": str(e.body)[:200]}).encode("utf-8")
        self.status = f"{e.code} {e.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class TableTask(WSGITask):
    """waitress's WSGI task, telling the application which connection asks
    (`environ["companion.channel"]`), so that it can say who the client is (`mark`) and cut a
    stream that falls behind (`drop`)."""

    def get_environment(self) -> dict:
        environ = super().get_environment()
        environ["companion.channel"] = self.channel
        environ["companion.task"] = self
        return environ

    def write(self, data) -> None:
        """waitress's write, except that a response's header goes out with the first piece of
        its body in one send: one packet on the table's Wi-Fi instead of two, and one system
        call (issue 19)."""
        if self.wrote_header or type(data) is not bytes or not data:
            super().write(data)
            return
        channel = self.channel
        pieces: list[bytes] = []
        # Nothing else writes to the connection before its response's header.
        channel.held = pieces
        try:
            super().write(data)  # the header and the framed piece, held by the channel
        finally:
            channel.held = None
        if pieces:
            channel.write_soon(b"".join(pieces))


def _channel(environ: dict) -> "TableChannel | None":
    channel = environ.get("companion.channel")
    return channel if isinstance(channel, TableChannel) else None


def mark(environ: dict, rank: int, token: str | None = None) -> None:
    """The application has learned who asks on this connection: `rank` (`OWN_TABLE`,
    `OTHER_TABLE`). A connection keeps the best rank it has shown; an `OWN_TABLE` token is
    remembered, so that its next requests (on any connection) are served before the guests'."""
    channel = _channel(environ)
    if channel is None:
        return
    if rank < channel.rank:
        channel.rank = rank
    if rank != ANONYMOUS and token:
        channel.server.remember(token, rank)


def streaming(environ: dict) -> None:
    """This connection's request is an event stream: it holds its thread for long, waiting, so
    it gives its guest lane back, and the connection keeps being read (to see the client go)."""
    channel = _channel(environ)
    if channel is not None:
        channel.streaming = True
        dispatcher = channel.server.task_dispatcher
        if isinstance(dispatcher, LaneDispatcher):
            dispatcher.release()


def unsent(environ: dict) -> int:
    """Bytes of this connection's answer waiting for its client (0 outside waitress)."""
    channel = _channel(environ)
    return channel.total_outbufs_len if channel is not None else 0


class Gone(Exception):
    """The client of a response being written has gone (its connection is closed)."""


def served_by_waitress(environ: dict) -> bool:
    """Whether this request is answered by the companion's waitress server (which closes
    every response once it is written), not a test client."""
    return isinstance(environ.get("companion.task"), TableTask)


def chunk_writer(environ: dict) -> "Callable[[bytes], None] | None":
    """A function that writes the next piece of this request's response from any thread, once
    the response has begun (its first piece given to waitress); None outside waitress.

    An event stream's updates are written by the thread that committed them, instead of
    waking the stream's own thread to write each (issue 19). The pieces of one response must
    be written one at a time (the caller's lock); the send never blocks (what the socket does
    not take waits in the connection's buffer, bounded by the caller). Raises `Gone` when
    the client has gone."""
    task = environ.get("companion.task")
    if not isinstance(task, TableTask):
        return None

    def write(data: bytes) -> None:
        try:
            task.write(data)
        except (ClientDisconnected, OSError) as exc:
            raise Gone() from exc

    return write


def drop(environ: dict, why: str) -> None:
    """Close this connection now, discarding what its client has not read."""
    channel = _channel(environ)
    if channel is not None:
        channel.server.drop(channel, why)


class TableChannel(HTTPChannel):
    """One client connection, with the clocks its deadlines need and what is known of its client.

    `request_started`: when the request being received began (its first byte, or the opening
    of the connection for the first request). `send_progress`: the last time the client took
    bytes, or the time bytes began to wait for it. `last_served`: when its last answer was made
    (or it opened): the connection idle longest is shed first. `rank`: who its client is
    (`OWN_TABLE`, `OTHER_TABLE`, `ANONYMOUS`), set by the application (`mark`).
    """

    error_task_class = JsonErrorTask
    task_class = TableTask

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map=map)
        self.request_started = self.send_progress = self.last_served = time.time()
        self.received_any = False
        self.rank = ANONYMOUS
        self.streaming = False
        self.host = addr[0] if isinstance(addr, tuple) else str(addr)
        self.counted = isinstance(server, TableServer)
        if self.counted:
            server.count(self, 1)

    def uncount(self) -> None:
        """This connection holds its place no more (dropped, or closed)."""
        if self.counted:
            self.counted = False
            self.server.count(self, -1)

    def del_channel(self, map=None) -> None:
        """waitress's, and the place is free."""
        super().del_channel(map)
        self.uncount()

    # waitress's own (HTTPChannel's class attributes), declared for the type checker.
    request: Any = None
    sent_continue: Any = False

    #: Bytes received but not parsed yet: requests pipelined past `PIPELINE_MAX` (at most one
    #: read, `recv_bytes`, since nothing more is read while requests wait).
    unparsed = b""

    def received(self, data: bytes) -> bool:
        """waitress's `received` (3.0: parse requests off `data`, queue each complete one),
        noting when a request starts, and parsing no more while `PIPELINE_MAX` requests wait:
        the rest of the bytes wait unparsed (`unparsed`) until those are answered (`readable`).
        Dropping such a connection instead only brought it straight back, pipelining again
        (issue 28: 4,000 connections in 15 s, the owner's commands at a 340 ms median)."""
        if not data:
            return False
        self.received_any = True
        with self.requests_lock:
            if self.will_close or self.close_when_flushed:
                return False
            while data:
                request = self.request
                if request is None:
                    if len(self.requests) >= PIPELINE_MAX:
                        self.unparsed = data
                        break
                    self.request_started = time.time()
                    request = self.request = self.parser_class(self.adj)
                n = request.received(data)
                if (request.expect_continue and request.headers_finished and not self.requests
                        and not self.sent_continue):
                    self.send_continue()
                if request.completed:
                    self.sent_continue = False
                    if not request.empty:
                        self.requests.append(request)
                        if len(self.requests) == 1:
                            self.server.add_task(self)
                    self.request = None
                if n >= len(data):
                    break
                data = data[n:]
        return True

    #: A request is waiting for this connection's client to take the answer before it.
    deferred = False

    def next_request(self) -> bool:
        """Whether the connection's next request may run now: only once its client has taken
        every byte of the answers before it (else it waits: `deferred`). Called with the
        next request queued."""
        with self.outbuf_lock:
            if self.total_outbufs_len and self.connected:
                self.deferred = True
                return False
            self.deferred = False
            return True

    def resume(self) -> None:
        """Run the deferred request once the answers before it are all taken."""
        if not self.deferred:
            return
        with self.outbuf_lock:
            ready = self.deferred and not self.total_outbufs_len and self.connected and bool(self.requests)
            if ready:
                self.deferred = False
        if ready:
            self.server.task_dispatcher.add_task(self)

    def handle_write(self) -> None:
        """waitress's flush; then a deferred request runs if its turn has come."""
        super().handle_write()
        self.resume()

    #: A task thread is in `write_soon` (sending, or about to): see `writable`.
    task_writing = False
    #: The pieces a task's `write` is putting together for one send (`TableTask.write`), or
    #: None.
    held: list[bytes] | None = None

    def write_soon(self, data) -> int:
        """Queue a response's bytes; if nothing was waiting, the send clock starts now. A
        guest's connection whose answer would take the guests' unsent bytes past
        `GUEST_UNSENT_BYTES` is dropped (or the guest connection holding the most).

        waitress sends them from this (the task's) thread, holding the buffer's lock; while it
        does, the channel is not `writable` for the main loop, which would otherwise find the
        socket ready and the lock taken, and poll again at once until the send is done (87
        polls per update with 6 streams, issue 19). What the task could not send is left to
        the main loop, woken for it here."""
        if self.held is not None:
            self.held.append(data)
            return len(data)
        if data and self.rank != OWN_TABLE and self.server.over_budget(len(data), self):
            raise ClientDisconnected
        if data and not self.total_outbufs_len:
            self.send_progress = time.time()
        self.task_writing = True
        try:
            return super().write_soon(data)
        finally:
            self.task_writing = False
            if self.total_outbufs_len:
                self.server.pull_trigger()

    def _flush_some(self, do_close=True) -> bool:
        sent = super()._flush_some(do_close=do_close)
        if sent:
            self.send_progress = time.time()
        return sent

    def service(self) -> None:
        """Answer one request; the connection has been served now."""
        try:
            super().service()
        finally:
            self.last_served = time.time()

    #: Why the server dropped this connection (set by `TableServer.drop`), or None.
    drop_reason: str | None = None

    def readable(self) -> bool:
        """Close a dropped connection here, at the start of a loop pass, before its socket is
        watched: closing it anywhere else in the pass could free its file descriptor while
        the pass still watches it, and a connection accepted in the same pass (which reuses
        the number) would then be closed in its place.

        One request at a time: while a request is being answered the connection is not read
        (pipelined requests wait in the client's socket, not in the server's memory), except
        an event stream's, read to see its client go; and waitress reads nothing more while
        an answer waits for the client."""
        if self.drop_reason is not None:
            if self.connected or self.socket is not None:
                self.handle_close()
            return False
        if self.requests and not self.streaming:
            return False
        if self.unparsed and not self.requests:
            # The requests pipelined past `PIPELINE_MAX`: parsed now that the ones before are
            # answered; the socket is read once they are too.
            data, self.unparsed = self.unparsed, b""
            self.received(data)
            return False
        return super().readable()

    def writable(self) -> bool:
        """A dropped connection is not watched any more; nor is one whose task is sending
        (`write_soon`)."""
        return False if self.drop_reason is not None or self.task_writing else super().writable()

    def sheddable(self) -> bool:
        """Whether the server may close this connection to make room for another: a client
        not of the owner's tables, with no request being answered (an idle keep-alive, or a
        request still arriving, however slowly)."""
        return (self.rank != OWN_TABLE and not self.requests and not self.streaming
                and self.drop_reason is None)

    def request_rank(self) -> int:
        """Who the request about to run is from: the connection's rank, or better when its
        token is known (`TableServer.rank_of`)."""
        rank = self.rank
        request = self.requests[0] if self.requests else None
        if rank == OWN_TABLE or request is None or request.error:
            return rank
        for token in _request_tokens(request):
            rank = min(rank, self.server.rank_of(token))
        return rank

    def overdue(self, now: float) -> str | None:
        """Why this connection must go now, or None."""
        if self.total_outbufs_len and now - self.send_progress > SEND_TIMEOUT_S:
            return "its client stopped reading"
        partial = self.request
        if partial is not None and not partial.completed:
            if not partial.headers_finished and now - self.request_started > HEADER_TIMEOUT_S:
                return "its headers did not arrive in time"
            if now - self.request_started > REQUEST_TIMEOUT_S:
                return "its body did not arrive in time"
        elif not self.received_any and not self.requests and now - self.request_started > HEADER_TIMEOUT_S:
            return "it sent no request"
        return None


def _request_tokens(request) -> list[str]:
    """The tokens a parsed request carries (header, `?token=`, the display's `?display=`)."""
    found = []
    auth = request.headers.get("AUTHORIZATION", "")
    if auth[:7].lower() == "bearer ":
        found.append(auth[7:].strip())
    if request.headers.get("X_SEAT_TOKEN"):
        found.append(request.headers["X_SEAT_TOKEN"])
    if request.query and ("token=" in request.query or "display=" in request.query):
        args = parse_qs(request.query[:1024])
        found += args.get("token", [])[:1] + [f"display:{k}" for k in args.get("display", [])[:1]]
    return found


class LaneDispatcher(ThreadedTaskDispatcher):
    """waitress's thread pool, serving the owner's tables first: their requests run as soon as
    a thread is free; everyone else's take one of `GUEST_LANES` lanes, and wait for one. An
    event stream gives its lane back once it streams (`streaming`): it holds its thread
    waiting, not working, and the stream pools bound those threads
    (`companion.server.events`)."""

    def __init__(self, guest_lanes: dict[int, int] | None = None):
        super().__init__()
        self.guest_lanes = dict(guest_lanes or GUEST_LANES)
        self.guest_queues: dict[int, deque] = {rank: deque() for rank in self.guest_lanes}
        self.guests_running = {rank: 0 for rank in self.guest_lanes}
        # The lane (a rank) the current worker thread holds: a lane belongs to the thread
        # running the request, not to its connection, whose next request may already run on
        # another thread by the time this one ends.
        self._held = threading.local()
        #: Per class of guests: the interpreter's seconds owed, and when last counted (`charge`).
        self._guest_debt: dict[int, tuple[float, float]] = {}

    def add_task(self, task) -> None:
        """Queue a connection's next request: in the owner's queue or its class's."""
        rank = task.request_rank() if isinstance(task, TableChannel) else OWN_TABLE
        with self.lock:
            (self.guest_queues[rank] if rank in self.guest_queues else self.queue).append(task)
            self.queue_cv.notify()

    #: The owner's tables' requests running now (not their streams, once streaming).
    owner_running = 0

    def _lane(self) -> int | None:
        """A class of guests with a request waiting and a free lane, or None. None while a
        request of the owner's tables runs: a guest's request starting then would take the
        interpreter from it (issue 28)."""
        if self.owner_running:
            return None
        for rank, waiting in self.guest_queues.items():
            if waiting and self.guests_running[rank] < self.guest_lanes[rank]:
                return rank
        return None

    def _ready(self) -> bool:
        return bool(self.queue) or self._lane() is not None

    def handler_thread(self, thread_no: int) -> None:
        """waitress's worker loop, taking the owner's requests first."""
        while True:
            with self.lock:
                while not self._ready() and self.stop_count == 0:
                    self.active_count -= 1
                    self.queue_cv.wait()
                    self.active_count += 1
                if self.stop_count > 0:
                    self.active_count -= 1
                    self.stop_count -= 1
                    self.threads.discard(thread_no)
                    self.thread_exit_cv.notify()
                    break
                # Ready: the owner's queue has a request, or else a class of guests has a lane.
                rank = None if self.queue else self._lane()
                if rank is None:
                    task = self.queue.popleft()
                    self._held.lane = None
                    self._held.owner = True
                    self.owner_running += 1
                    self.owner_seen = time.monotonic()
                else:
                    task = self.guest_queues[rank].popleft()
                    self.guests_running[rank] += 1
                    self._held.lane = rank
            cpu = time.thread_time()
            try:
                task.service()
            except BaseException:
                self.logger.exception("Exception when servicing %r", task)
            finally:
                if getattr(self._held, "lane", None) is not None:
                    # A guest's request (not a stream: a stream gives its lane back): its lane
                    # rests while the guests are over their share of the interpreter.
                    rest = self.guest_rest(time.thread_time() - cpu, self._held.lane)
                    if rest > 0:
                        time.sleep(rest)
                self.release()

    #: When a request of the owner's tables last started (`time.monotonic()`; None before any).
    owner_seen: float | None = None

    def guest_rest(self, used: float, rank: int, now: float | None = None) -> float:
        """How long a guest lane rests after a request of the guests of `rank` that used `used`
        seconds of the interpreter: their share (`charge`) while the owner's tables are in use
        (a request of theirs started within `OWNER_ACTIVE_S`), else none, and nothing owed.
        With nobody of the owner's asking, holding the guests back protects no one and only
        slows them: a server of other tables alone (the benchmark's load of 96 streams and 200
        commands a second) answered in 74 ms instead of 3 ms."""
        seen, now = self.owner_seen, time.monotonic() if now is None else now
        if seen is None or now - seen > OWNER_ACTIVE_S:
            with self.lock:
                self._guest_debt.pop(rank, None)
            return 0.0
        return self.charge(used, rank)

    def charge(self, used: float, rank: int = ANONYMOUS) -> float:
        """Count `used` seconds of the interpreter spent on a request of the guests of `rank`;
        how long its lane must rest so that those guests, all their lanes together, use at
        most `GUEST_CPU_SHARE` of it beyond a `GUEST_CPU_BURST_S` burst (issue 28: 48
        connections pipelining for large answers kept two lanes busy without pause, and the
        owner's commands waited behind them for the interpreter). Each class of guests has its
        own account: spectators' requests do not make another table's phones wait."""
        with self.lock:
            now = time.monotonic()
            debt, then = self._guest_debt.get(rank, (0.0, now))
            debt = max(0.0, debt - (now - then) * GUEST_CPU_SHARE) + used
            self._guest_debt[rank] = (debt, now)
        return max(0.0, (debt - GUEST_CPU_BURST_S) / GUEST_CPU_SHARE)

    def release(self) -> None:
        """Give back the guest lane the current thread holds, if it holds one; or count its
        request of the owner's tables done (the guests' requests may start again)."""
        rank = getattr(self._held, "lane", None)
        if getattr(self._held, "owner", False):
            with self.lock:
                self._held.owner = False
                self.owner_running -= 1
                if not self.owner_running:
                    waiting = sum(len(q) for q in self.guest_queues.values())
                    if waiting:
                        self.queue_cv.notify(min(waiting, sum(self.guest_lanes.values())))
        if rank is None:
            return
        with self.lock:
            self._held.lane = None
            self.guests_running[rank] -= 1
            self.queue_cv.notify()

    def shutdown(self, cancel_pending: bool = True, timeout: float = 5) -> bool:
        """waitress's shutdown, the guests' queue included."""
        with self.lock:
            for waiting in self.guest_queues.values():
                self.queue.extend(waiting)
                waiting.clear()
        return super().shutdown(cancel_pending, timeout)


class TableServer(TcpWSGIServer):
    """waitress's TCP server, enforcing the deadlines, the per-address share and the owner's
    tables' reserved places."""

    channel_class = TableChannel

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self._known: dict[str, int] = {}
        self._known_lock = threading.Lock()
        #: Connections being served (not dropped), in all and per address (`count`).
        self.live = 0
        self.live_by_address: dict[str, int] = {}
        self._count_lock = threading.Lock()
        #: Parked connections: (socket, address, host, since), the oldest first (`admit`).
        self.parked: deque[tuple[socket.socket, Any, str, float]] = deque()
        self.parked_by_address: dict[str, int] = {}

    def count(self, channel: "TableChannel", step: int) -> None:
        """A connection starts (`step` 1) or stops (-1) holding a place (a drop may come from a
        task's thread)."""
        with self._count_lock:
            self.live += step
            n = self.live_by_address.get(channel.host, 0) + step
            if n > 0:
                self.live_by_address[channel.host] = n
            else:
                self.live_by_address.pop(channel.host, None)

    #: Tokens remembered for scheduling with their rank (not for access: the application checks
    #: every token itself); the oldest are forgotten past this many.
    KNOWN_TOKENS = 4096

    def remember(self, token: str, rank: int = OWN_TABLE) -> None:
        """Remember `token`'s rank (`mark`)."""
        with self._known_lock:
            self._known[token[:200]] = rank
            if len(self._known) > self.KNOWN_TOKENS:
                self._known.pop(next(iter(self._known)))

    #: Asked about a token not yet seen (`rank_of`): its rank (`make_server` sets the
    #: registry's `token_rank`). None: only tokens seen count.
    classifier: Any = None

    def rank_of(self, token: str) -> int:
        """`token`'s rank: seen before, or said by the `classifier` (a restarted server's
        display, a phone's first request on a new connection); unknown: `ANONYMOUS`."""
        token = token[:200]
        rank = self._known.get(token)
        if rank is not None:
            return rank
        if self.classifier is not None and token:
            try:
                rank = self.classifier(token)
            except Exception:  # a question about scheduling must never stop the loop
                log.exception("the token classifier failed")
                return ANONYMOUS
            if rank != ANONYMOUS:
                self.remember(token, rank)
            return rank
        return ANONYMOUS

    def add_task(self, channel) -> None:
        """Queue a connection's request, unless the answer before it still waits for its client
        (then it runs once that is taken: one request at a time, bounded output per connection)."""
        if isinstance(channel, TableChannel) and not channel.next_request():
            self.pull_trigger()
            return
        super().add_task(channel)

    def handle_accept(self) -> None:
        """Accept every connection waiting (up to `ACCEPTS_PER_PASS`): one accept per pass of
        the loop would leave a phone's new connection queued behind a guest's reconnecting
        ones, a pass (every connection's readable/writable) each. Then give parked connections
        the places that are free."""
        for _ in range(ACCEPTS_PER_PASS):
            try:
                pair = self.accept()
                if pair is None:
                    break
                conn, addr = pair
                self.set_socket_options(conn)
            except OSError:
                break
            self.admit(conn, self.fix_addr(addr))
        self.unpark()

    def admit(self, conn: socket.socket, addr) -> None:
        """Place a new connection (issue 28). Over its address's share it is refused (`429`).
        With a place free it is served. With the server at `CONNECTION_LIMIT`, a newcomer
        from an address holding fewer than `SHED_FOR_BELOW` connections (a phone) takes the
        place of a connection not of the owner's tables (`victim`); one from an address that
        holds more is *parked*: held, unread and unwatched, until a place is free. Closing
        it instead would only bring it straight back (a guest's script reconnects at once:
        11,000 to 16,000 connections closed and reopened in 30 s, each costing the table more
        than holding it does)."""
        host = addr[0] if isinstance(addr, tuple) else str(addr)
        held = self.live_by_address.get(host, 0) + self.parked_by_address.get(host, 0)
        if held >= PER_ADDRESS_CONNECTIONS:
            self.refused_over_share += 1
            if self.refused_over_share in (1, 10, 100, 1000) or self.refused_over_share % 10000 == 0:
                log.warning("%s holds %d connections: refused %d over its share so far",
                            host, held, self.refused_over_share)
            self._refuse(conn, OVER_SHARE_ANSWER)
            return
        if self.live >= CONNECTION_LIMIT:
            victim = self.victim() if self.live_by_address.get(host, 0) < SHED_FOR_BELOW else None
            if victim is not None:
                self.shed += 1
                self.drop(victim, "its place was needed (the server was full)")
            elif len(self.parked) < PARKED_LIMIT:
                self.parked.append((conn, addr, host, time.monotonic()))
                self.parked_by_address[host] = self.parked_by_address.get(host, 0) + 1
                self.parked_total += 1
                return
            else:
                self._refuse(conn, SERVER_FULL_ANSWER)
                return
        self.channel_class(self, conn, addr, self.adj, map=self._map)

    def victim(self) -> "TableChannel | None":
        """The connection whose place a newcomer takes: one not of the owner's tables, idle or
        still sending its request (`sheddable`); of the address holding the most, then the
        anonymous before other tables' clients, the longest idle first. None: every place
        is the owner's tables'."""
        idle = [ch for ch in list(self.active_channels.values())
                if isinstance(ch, TableChannel) and ch.sheddable()]
        if not idle:
            return None
        by = self.live_by_address
        return min(idle, key=lambda ch: (-by.get(ch.host, 0), -ch.rank, ch.last_served))

    def unpark(self, now: float | None = None) -> None:
        """Serve parked connections in the places now free, the longest parked first; close
        those parked longer than `PARKED_TIMEOUT_S` (their client comes back, if it is still
        there, at that slow pace)."""
        now = time.monotonic() if now is None else now
        while self.parked and (self.live < CONNECTION_LIMIT or now - self.parked[0][3] > PARKED_TIMEOUT_S):
            conn, addr, host, since = self.parked.popleft()
            left = self.parked_by_address.get(host, 1) - 1
            if left:
                self.parked_by_address[host] = left
            else:
                self.parked_by_address.pop(host, None)
            if self.live >= CONNECTION_LIMIT:
                conn.close()
                continue
            try:
                self.channel_class(self, conn, addr, self.adj, map=self._map)
            except OSError:  # the client has gone meanwhile
                conn.close()

    @staticmethod
    def _refuse(conn: socket.socket, answer: bytes) -> None:
        try:
            conn.setblocking(False)
            conn.send(answer)
        except OSError:
            pass
        conn.close()

    refused_over_share = 0
    dropped = 0
    shed = 0
    parked_total = 0

    def close(self) -> None:
        """waitress's close, and the parked connections'."""
        while self.parked:
            self.parked.popleft()[0].close()
        super().close()

    def over_budget(self, adding: int, writer: TableChannel) -> bool:
        """Whether `writer` (not of the owner's tables) may not add `adding` unsent bytes: past
        `GUEST_UNSENT_BYTES` over all such connections, the one holding the most is dropped;
        True when that is the writer."""
        guests = [ch for ch in list(self.active_channels.values())
                  if getattr(ch, "rank", ANONYMOUS) != OWN_TABLE and ch.drop_reason is None]
        total = adding + sum(ch.total_outbufs_len for ch in guests)
        while total > GUEST_UNSENT_BYTES and guests:
            biggest = max(guests, key=lambda ch: ch.total_outbufs_len + (adding if ch is writer else 0))
            guests.remove(biggest)
            total -= biggest.total_outbufs_len + (adding if biggest is writer else 0)
            self.drop(biggest, "the guests' unsent answers were over their share of memory")
            if biggest is writer:
                return True
        return False

    def drop(self, channel: TableChannel, why: str) -> None:
        """Close `channel` at the start of the loop's next pass, discarding its unsent bytes."""
        if channel.drop_reason is not None:
            return
        self.dropped += 1
        level = logging.INFO if self.dropped in (1, 10, 100) or self.dropped % 1000 == 0 else logging.DEBUG
        log.log(level, "closed a connection from %s: %s (%d so far)",
                channel.addr[0] if channel.addr else "?", why, self.dropped)
        # Not waitress's `will_close`, which waits for the socket to be writable: a client that
        # does not read never makes it writable again. The channel closes itself at the start
        # of the next pass (`TableChannel.readable`), at once. A thread waiting to write to it
        # is woken and told the client is gone.
        channel.drop_reason = why
        channel.uncount()
        with channel.outbuf_lock:
            channel.connected = False
            channel.outbuf_lock.notify_all()
        self.pull_trigger()

    def maintenance(self, now: float) -> None:
        """waitress's idle timeout, then the companion's deadlines; parked connections get the
        places freed."""
        super().maintenance(now)
        for channel in list(self.active_channels.values()):
            if channel.deferred:
                channel.resume()
            why = channel.overdue(now) if channel.drop_reason is None else None
            if why is not None:
                self.drop(channel, why)
        self.unpark()


def server_settings(threads: int) -> dict[str, Any]:
    """waitress's adjustments for the companion (the numbers above)."""
    return {
        "threads": threads,
        # waitress stops accepting at its limit; the companion sheds guests before it is reached.
        "connection_limit": CONNECTION_LIMIT + ACCEPT_SLACK,
        "outbuf_high_watermark": OUTBUF_HIGH_WATERMARK,
        "outbuf_overflow": OUTBUF_OVERFLOW,
        "inbuf_overflow": INBUF_OVERFLOW,
        "channel_timeout": CHANNEL_TIMEOUT_S,
        "cleanup_interval": CHECK_INTERVAL_S,
        "max_request_body_size": MAX_BODY_BYTES,
        "max_request_header_size": MAX_HEADER_BYTES,
        "asyncore_use_poll": True,  # select() cannot watch more than 1024 sockets
        # Keep reading a connection while its request runs, so that a stream whose client has
        # gone is noticed at once (environ["waitress.client_disconnected"]), not at the next ping.
        "channel_request_lookahead": 1,
    }


#: Options set on every accepted connection (waitress sets TCP_NODELAY alone by default).
SOCKET_OPTIONS = [
    (socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),
    (socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES),
]


def make_server(app, host: str, port: int, threads: int) -> TableServer:
    """The companion's server for `app` on `host:port` (port 0: a free one), not yet running."""
    adj = Adjustments(host=host, port=port, **server_settings(threads))
    adj.socket_options = list(SOCKET_OPTIONS)  # not a keyword of Adjustments
    dispatcher = LaneDispatcher()
    dispatcher.set_thread_count(threads)
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    server = TableServer(app, map={}, adj=adj, sockinfo=adj.listen[0], dispatcher=dispatcher)
    tables = getattr(app, "extensions", {}).get("tables")
    if tables is not None:
        server.classifier = lambda token: {True: OWN_TABLE, False: OTHER_TABLE, None: ANONYMOUS}[
            tables.token_is_priority(token)]
    return server
