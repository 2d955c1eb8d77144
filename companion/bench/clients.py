"""Real clients for the benchmark and the drills: a keep-alive JSON client and an SSE listener.

Both use only the standard library (`http.client`, `socket`, threads), as a phone's browser
would talk to the companion: one connection per phone, one open event stream per page.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from typing import Any


class JsonClient:
    """One keep-alive HTTP connection that sends and receives JSON.

    `call(method, path, body=None, token=None)` returns `(status, json_or_None, seconds)`;
    the time is the round trip as the client sees it (request written → body read).
    """

    def __init__(self, port: int, host: str = "127.0.0.1", timeout: float = 30.0):
        self.host, self.port, self.timeout = host, port, timeout
        self.conn = http.client.HTTPConnection(host, port, timeout=timeout)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any, float]:
        """Send one request; reconnect once if the server closed the kept-alive connection."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        hdrs = dict(headers or {})
        if data is not None:
            hdrs.setdefault("Content-Type", "application/json")
        if token:
            hdrs["Authorization"] = f"Bearer {token}"
        for attempt in (0, 1):
            t0 = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=hdrs)
                resp = self.conn.getresponse()
                raw = resp.read()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
                if attempt:
                    raise
                continue
            elapsed = time.perf_counter() - t0
            try:
                parsed = json.loads(raw) if raw else None
            except ValueError:
                parsed = None
            return resp.status, parsed, elapsed
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()


class Listener(threading.Thread):
    """An open event stream read on a raw socket, recording when each message id arrived.

    HTTP/1.0 keeps waitress from chunking the body, so the stream is plain SSE text.
    `arrived[id]` is the `time.perf_counter()` at which the message with that id was read;
    `wait_for(id, timeout)` blocks until it has arrived. `status` is the HTTP status.
    `source`: the loopback address to connect from (another device: the server limits
    streams per address).
    """

    def __init__(self, port: int, path: str, host: str = "127.0.0.1", source: str | None = None):
        super().__init__(daemon=True)
        self.sock = socket.create_connection((host, port), timeout=30,
                                             source_address=(source, 0) if source else None)
        self.sock.sendall(f"GET {path} HTTP/1.0\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.arrived: dict[int, float] = {}
        self.kinds: dict[int, str] = {}
        self.status: int | None = None
        self.last_id = -1
        self.closed = False
        self._cond = threading.Condition()
        self.start()

    def run(self) -> None:
        buf = b""
        head_done = False
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    break
                now = time.perf_counter()
                buf += data
                if not head_done:
                    if b"\r\n\r\n" not in buf:
                        continue
                    head, buf = buf.split(b"\r\n\r\n", 1)
                    self.status = int(head.split(b" ", 2)[1])
                    head_done = True
                    with self._cond:
                        self._cond.notify_all()
                while b"\n\n" in buf:
                    block, buf = buf.split(b"\n\n", 1)
                    self._message(block, now)
        except OSError:
            pass
        finally:
            with self._cond:
                self.closed = True
                self._cond.notify_all()

    def _message(self, block: bytes, now: float) -> None:
        msg_id, kind = None, None
        for line in block.split(b"\n"):
            if line.startswith(b"id: "):
                msg_id = int(line[4:])
            elif line.startswith(b"event: "):
                kind = line[7:].decode()
        if msg_id is None:
            return
        with self._cond:
            self.arrived.setdefault(msg_id, now)
            self.kinds[msg_id] = kind or ""
            self.last_id = max(self.last_id, msg_id)
            self._cond.notify_all()

    def wait_for(self, msg_id: int, timeout: float = 10.0) -> bool:
        """Wait until the message with id `msg_id` (or a later one) has arrived."""
        with self._cond:
            return self._cond.wait_for(lambda: self.last_id >= msg_id or self.closed, timeout) \
                and self.last_id >= msg_id

    def wait_status(self, timeout: float = 10.0) -> int | None:
        """The HTTP status, once the response head has arrived."""
        with self._cond:
            self._cond.wait_for(lambda: self.status is not None or self.closed, timeout)
        return self.status

    def close(self) -> None:
        """Hang up (the server notices at its next write)."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.join(timeout=5)
