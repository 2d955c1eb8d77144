"""`GET /api/v1/tables/<code>/events`: the table's live Server-Sent Events stream.

A snapshot of the asker's view on connect, then one `update` per ledger entry (its events and
the asker's fresh view), each with the entry's seq as its `id`; `Last-Event-ID` resumes.
A `: ping` comment every few seconds finds dead clients: under waitress a write to a closed
connection fails, the stream is closed and its `close()` unsubscribes (FIELD-NOTES).

Each open stream holds one waitress thread, so the number of streams is capped (`MAX_STREAMS`,
set by `companion.serve` below its thread count) and one too many is answered `503` with
`Retry-After`: action requests always find a free thread.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from typing import Callable, Iterator

from flask import Flask, Response, current_app, request

from companion.refusal import Refused
from companion.server.openapi import describe, error_response
# The stream is a route of the tables blueprint (one blueprint for the whole table API).
from companion.server.tables_api import _owner, bp, viewer
from companion.table.owner import HOST, Subscription, TableOwner

#: Defaults; `companion.serve` sets MAX_STREAMS from its thread pool.
DEFAULT_MAX_STREAMS = 96
DEFAULT_HEARTBEAT_S = 5.0
#: How often a waiting stream asks waitress whether its client has gone (when it can tell).
DISCONNECT_POLL_S = 0.5
#: A client further behind than this many entries gets a fresh snapshot instead of a replay.
REPLAY_LIMIT = 500
#: How long the browser waits before reconnecting (ms), sent as the stream's `retry:`.
RETRY_MS = 2000


class StreamGate:
    """Counts open streams and refuses one beyond the cap."""

    def __init__(self, limit: int):
        self.limit = limit
        self.open = 0
        self._lock = threading.Lock()

    def enter(self) -> bool:
        """Take a place if one is free."""
        with self._lock:
            if self.open >= self.limit:
                return False
            self.open += 1
            return True

    def leave(self) -> None:
        """Give a place back."""
        with self._lock:
            self.open -= 1


def _gate(app: Flask) -> StreamGate:
    return app.extensions["table_streams"]


def message(kind: str | None, data: str, id_: int | None = None) -> str:
    """One SSE message (data is one line of JSON)."""
    head = f"id: {id_}\n" if id_ is not None else ""
    head += f"event: {kind}\n" if kind else ""
    return f"{head}data: {data}\n\n"


class EventStream:
    """The body of one stream: iterating yields SSE text; `close()` (called by the server
    when the client is gone or the response ends) unsubscribes, exactly once."""

    def __init__(
        self,
        owner: TableOwner,
        sub: Subscription,
        gate: StreamGate,
        first: list[str],
        heartbeat: float,
        disconnected: Callable[[], bool] | None = None,
    ):
        self.owner, self.sub, self.gate = owner, sub, gate
        self.first = first
        self.heartbeat = heartbeat
        # waitress (with channel_request_lookahead > 0) tells us when the client has gone, so
        # its place is freed within DISCONNECT_POLL_S instead of at the next failed ping.
        self.disconnected = disconnected
        self._closed = False
        self._close_lock = threading.Lock()

    def __iter__(self) -> Iterator[bytes]:
        try:
            for text in self.first:
                yield text.encode("utf-8")
            poll = min(self.heartbeat, DISCONNECT_POLL_S) if self.disconnected else self.heartbeat
            last_write = time.monotonic()
            while not self._closed:
                try:
                    msg = self.sub.messages.get(timeout=poll)
                except queue.Empty:
                    if self.disconnected is not None and self.disconnected():
                        return
                    if time.monotonic() - last_write >= self.heartbeat:
                        last_write = time.monotonic()
                        yield b": ping\n\n"
                    continue
                last_write = time.monotonic()
                if msg is None:  # the server is shutting down, or the seat's token was replaced
                    yield message("bye", "{}").encode("utf-8")
                    return
                seq, kind, data = msg
                yield message(kind, data, seq).encode("utf-8")
        finally:
            self.close()

    def close(self) -> None:
        """Unsubscribe and free the stream's place (idempotent)."""
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        self.owner.unsubscribe(self.sub)
        self.gate.leave()


def _last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    if raw is None:
        return None
    raw = raw.strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 16 else -1


@bp.get("/api/v1/tables/<code>/events")
def events(code: str):
    """The table's live events for the asker (public, seat or host view)."""
    owner = _owner(code)
    who = viewer(owner)
    seat, host = (None, True) if who == HOST else (who, False)
    last = _last_event_id()
    gate = _gate(current_app)
    if not gate.enter():
        err = Refused(503, "too many open event streams; try again shortly", None)
        resp = current_app.json.response(err.body())
        resp.status_code = 503
        resp.headers["Retry-After"] = "5"
        return resp
    try:
        sub, version, state = owner.subscribe(seat, host)
    except BaseException:
        gate.leave()
        raise
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
    body = EventStream(owner, sub, gate, first, heartbeat,
                       request.environ.get("waitress.client_disconnected"))
    resp = Response(body, mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp


def init_streams(app: Flask) -> None:
    """The stream cap for this app (config `MAX_STREAMS`)."""
    app.extensions["table_streams"] = StreamGate(int(app.config.get("MAX_STREAMS", DEFAULT_MAX_STREAMS)))


describe(
    paths={
        "/api/v1/tables/{code}/events": {
            "get": {
                "summary": "The table's live event stream (Server-Sent Events)",
                "description": (
                    "A `snapshot` message on connect, then an `update` per ledger entry (id = "
                    "the entry's version), `: ping` every few seconds. `Last-Event-ID` resumes. "
                    "Optional token as `?token=` (EventSource cannot send headers)."
                ),
                "parameters": [
                    {"name": "code", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "token", "in": "query", "required": False, "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": {
                        "description": "The stream: one schema per message (`data` is one line of JSON)",
                        "content": {
                            "text/event-stream": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "event": {"enum": ["snapshot", "update", "bye"]},
                                        "id": {"type": "string", "pattern": "^[0-9]+$"},
                                        "data": {"type": "string"},
                                        "retry": {"type": "integer"},
                                    },
                                }
                            }
                        },
                    },
                    "403": error_response("Unknown token"),
                    "404": error_response("No such table"),
                    "503": error_response("Too many open streams (Retry-After)"),
                },
            }
        }
    }
)
