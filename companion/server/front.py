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
import time
from typing import Any

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask

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


class TableChannel(HTTPChannel):
    """One client connection, with the clocks its deadlines need.

    `request_started`: when the request being received began (its first byte, or the opening
    of the connection for the first request). `send_progress`: the last time the client took
    bytes, or the time bytes began to wait for it.
    """

    error_task_class = JsonErrorTask

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map=map)
        self.request_started = self.send_progress = time.time()
        self.received_any = False

    def received(self, data: bytes) -> bool:
        """Note when a new request starts, then let waitress parse it."""
        if data and self.request is None:
            self.request_started = time.time()
        if data:
            self.received_any = True
        return super().received(data)

    #: A task thread is in `write_soon` (sending, or about to): see `writable`.
    task_writing = False

    def write_soon(self, data) -> int:
        """Queue a response's bytes; if nothing was waiting, the send clock starts now.

        waitress sends them from this (the task's) thread, holding the buffer's lock; while it
        does, the channel is not `writable` for the main loop, which would otherwise find the
        socket ready and the lock taken, and poll again at once until the send is done (87
        polls per update with 6 streams, issue 19). What the task could not send is left to
        the main loop, woken for it here."""
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

    #: Why the server dropped this connection (set by `TableServer.maintenance`), or None.
    drop_reason: str | None = None

    def readable(self) -> bool:
        """Close a dropped connection here, at the start of a loop pass, before its socket is
        watched: closing it anywhere else in the pass could free its file descriptor while
        the pass still watches it, and a connection accepted in the same pass (which reuses
        the number) would then be closed in its place."""
        if self.drop_reason is not None:
            if self.connected or self.socket is not None:
                self.handle_close()
            return False
        return super().readable()

    def writable(self) -> bool:
        """A dropped connection is not watched any more; nor is one whose task is sending
        (`write_soon`)."""
        return False if self.drop_reason is not None or self.task_writing else super().writable()

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


class TableServer(TcpWSGIServer):
    """waitress's TCP server, enforcing the deadlines and the per-address share."""

    channel_class = TableChannel

    def handle_accept(self) -> None:
        """Accept a connection unless its address already holds its share."""
        try:
            pair = self.accept()
            if pair is None:
                return
            conn, addr = pair
            self.set_socket_options(conn)
        except OSError:
            return
        addr = self.fix_addr(addr)
        host = addr[0] if isinstance(addr, tuple) else addr
        held = sum(1 for ch in list(self.active_channels.values())
                   if isinstance(ch.addr, tuple) and ch.addr[0] == host)
        if held >= PER_ADDRESS_CONNECTIONS:
            self.refused_over_share += 1
            if self.refused_over_share in (1, 10, 100, 1000) or self.refused_over_share % 10000 == 0:
                log.warning("%s holds %d connections: refused %d over its share so far",
                            host, held, self.refused_over_share)
            try:
                conn.setblocking(False)
                conn.send(OVER_SHARE_ANSWER)
            except OSError:
                pass
            conn.close()
            return
        self.channel_class(self, conn, addr, self.adj, map=self._map)

    refused_over_share = 0
    dropped = 0

    def maintenance(self, now: float) -> None:
        """waitress's idle timeout, then the companion's deadlines."""
        super().maintenance(now)
        for channel in list(self.active_channels.values()):
            why = channel.overdue(now) if channel.drop_reason is None else None
            if why is not None:
                self.dropped += 1
                level = logging.INFO if self.dropped in (1, 10, 100) or self.dropped % 1000 == 0 else logging.DEBUG
                log.log(level, "closed a connection from %s: %s (%d so far)",
                        channel.addr[0] if channel.addr else "?", why, self.dropped)
                # Not waitress's `will_close`, which waits for the socket to be writable: a
                # client that does not read never makes it writable again. The channel closes
                # itself at the start of the next pass (`TableChannel.readable`), at once.
                channel.drop_reason = why
                self.pull_trigger()


def server_settings(threads: int) -> dict[str, Any]:
    """waitress's adjustments for the companion (the numbers above)."""
    return {
        "threads": threads,
        "connection_limit": CONNECTION_LIMIT,
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
    return TableServer(app, map={}, adj=adj, sockinfo=adj.listen[0])
