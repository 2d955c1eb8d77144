"""Issue 11, item 1: the slow-header flood. One guest opens 420 connections to the real
`sabacc-companion serve` and sends one header line on each every 2 s, never finishing a
request (the attack that took the table down: waitress reset its idle timer on every byte and
its 400 places were full). Meanwhile a phone plays: every command and every newly opened
event stream is answered within 1 s, the guest never holds more than its share of
connections, and every slow connection is closed by the header deadline.

Bounded: 420 sockets, 12 s of flood, loopback only (the guest is 127.0.0.2, the phone
127.0.0.1: two devices on the table's Wi-Fi)."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from companion.bench.clients import Listener
from companion.server import front
from served_table import seated, server  # noqa: F401  (fixtures)

#: Its bounds are wall-clock times: scripts/test runs it alone, after the rest (`--timed`).
pytestmark = pytest.mark.timed

SLOW_CONNECTIONS = 420
FLOOD_S = 12.0
LINE_EVERY_S = 2.0
GUEST = "127.0.0.2"
#: What a phone must feel during the flood.
ANSWER_WITHIN_S = 1.0


class SlowGuest(threading.Thread):
    """Keeps up to `count` connections open, each sending a header line every few seconds and
    never the blank line that ends the headers; reconnects whatever the server closes."""

    def __init__(self, port: int, count: int, duration: float):
        super().__init__(daemon=True)
        self.port, self.count, self.duration = port, count, duration
        self.socks: list[socket.socket | None] = [None] * count
        self.opened = self.closed_by_server = self.over_share = 0
        self.most_open = 0
        self.stop_at = time.monotonic() + duration

    def _open(self) -> socket.socket | None:
        s = socket.socket()
        s.settimeout(0.2)
        try:
            s.bind((GUEST, 0))
            s.connect(("127.0.0.1", self.port))
            s.sendall(b"GET /api/v1/ping HTTP/1.1\r\n")
        except OSError:
            s.close()
            return None
        self.opened += 1
        return s

    def _alive(self, s: socket.socket) -> bool:
        """Send one more header line; False when the server has closed the connection."""
        try:
            s.setblocking(False)
            try:
                data = s.recv(4096)
                if data.startswith(b"HTTP/1.1 429"):
                    self.over_share += 1
                return False  # an answer (429 over the share) or the server's close
            except BlockingIOError:
                pass
            s.settimeout(0.2)
            s.sendall(b"X-Slow: 1\r\n")
            return True
        except OSError:
            return False

    def run(self) -> None:
        while time.monotonic() < self.stop_at:
            round_start = time.monotonic()
            for i in range(self.count):
                s = self.socks[i]
                if s is not None and not self._alive(s):
                    s.close()
                    self.closed_by_server += 1
                    s = None
                if s is None:
                    s = self._open()
                self.socks[i] = s
            self.most_open = max(self.most_open, sum(1 for s in self.socks if s is not None))
            time.sleep(max(0.0, LINE_EVERY_S - (time.monotonic() - round_start)))

    def still_open_after(self, seconds: float) -> int:
        """How many of the guest's connections the server has not closed `seconds` later."""
        time.sleep(seconds)
        left = 0
        for s in self.socks:
            if s is None:
                continue
            try:
                s.setblocking(False)
                if s.recv(4096) == b"":
                    continue
            except BlockingIOError:
                left += 1
            except OSError:
                continue
        return left

    def close(self) -> None:
        for s in self.socks:
            if s is not None:
                s.close()


@pytest.mark.slow
def test_slow_header_flood_phone_command_and_stream_answer_within_a_second(server, seated):
    phone, code, host, seat = seated.phone, seated.code, seated.host, seated.seat

    guest = SlowGuest(server.port, SLOW_CONNECTIONS, FLOOD_S)
    guest.start()
    command_times, stream_times = [], []
    try:
        time.sleep(3.0)  # the guest's connections are all open (or refused) by now
        i = 0
        while guest.is_alive():
            # A seat's command (sit out / sit in, always legal between hands).
            status, body, dt = phone.call("POST", f"/api/v1/tables/{code}/commands",
                                          {"type": "sit_out" if i % 2 == 0 else "sit_in"}, seat)
            assert status == 200, body
            command_times.append(dt)
            if i % 4 == 0:
                # A phone opening its stream (a reload) gets its snapshot at once.
                t0 = time.perf_counter()
                stream = Listener(server.port, f"/api/v1/tables/{code}/events?token={seat}")
                assert stream.wait_for(0, timeout=5), stream.status
                stream_times.append(time.perf_counter() - t0)
                stream.close()
            i += 1
            time.sleep(0.5)
        guest.join(5)
        # Every slow connection still open is closed by the header deadline.
        left = guest.still_open_after(front.HEADER_TIMEOUT_S + 2 * front.CHECK_INTERVAL_S + 1)
    finally:
        guest.close()
        phone.close()
    print(f"\nslow-header flood: guest opened {guest.opened} connections, at most "
          f"{guest.most_open} open at once, {guest.over_share} refused over its share, "
          f"{guest.closed_by_server} closed by the server; phone: {len(command_times)} commands, "
          f"median {sorted(command_times)[len(command_times) // 2] * 1000:.1f} ms, "
          f"max {max(command_times) * 1000:.1f} ms; {len(stream_times)} streams, "
          f"max {max(stream_times) * 1000:.1f} ms to the snapshot")
    assert len(command_times) >= 10 and len(stream_times) >= 3
    assert max(command_times) < ANSWER_WITHIN_S, command_times
    assert max(stream_times) < ANSWER_WITHIN_S, stream_times
    # The guest was held to its share, and its slow connections were closed, not kept.
    assert guest.over_share > 0 and guest.closed_by_server >= SLOW_CONNECTIONS - front.PER_ADDRESS_CONNECTIONS
    assert left == 0, left
