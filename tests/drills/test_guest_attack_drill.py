"""Issue 15: a guest with ten addresses or four seats must neither stall nor blind the table.

Each test is one attack from the issue, run against the real `sabacc-companion serve` on
loopback: the real table is the owner's (made from the host's link, with the owner token) and
its seated phone plays on 127.0.0.1 while the guest attacks from 127.0.0.2 and up. During every
attack the phone's commands and its, the host's and the display's stream snapshots answer
within a median of 50 ms and a 99th percentile of 250 ms, none is refused (no 503) and none
times out; the server's memory stays within 20 MB of its start.

Bounded: at most 440 sockets or 96 streams, about 12 s of attack each, loopback only."""

from __future__ import annotations

import socket
import time

import pytest

from attack_kit import GUEST_ADDRESSES, MEMORY_MB, Memory, Phone, guest_table, real_table
from companion.bench.clients import JsonClient, Listener
from companion.bench.server import ServerProcess
from companion.server import front
from served_table import server  # noqa: F401  (fixture)

#: Its bounds are wall-clock times: scripts/test runs it alone, after the rest (`--timed`).
pytestmark = pytest.mark.timed

ATTACK_S = 12.0


class SlowGuest:
    """`per_address` connections from each of `addresses`, of five kinds in turn: silent,
    slow headers, a slow body, a slow chunked body, an idle keep-alive. Each round (every
    second) the slow ones send one more byte or line, and whatever the server closed is
    opened again."""

    KINDS = ("silent", "headers", "body", "chunked", "keepalive")

    def __init__(self, port: int, addresses: list[str], per_address: int):
        self.port = port
        self.slots = [(a, self.KINDS[i % len(self.KINDS)]) for a in addresses for i in range(per_address)]
        self.socks: list[socket.socket | None] = [None] * len(self.slots)
        self.opened = self.reopened = 0

    def _open(self, address: str, kind: str) -> socket.socket | None:
        s = socket.socket()
        s.setblocking(False)
        try:
            s.bind((address, 0))
            s.connect_ex(("127.0.0.1", self.port))
            time.sleep(0)
            s.settimeout(0.5)
            first = {
                "silent": b"",
                "headers": b"GET /api/v1/ping HTTP/1.1\r\n",
                "body": b"POST /api/v1/settle HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{",
                "chunked": b"POST /api/v1/settle HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
                "keepalive": b"GET /api/v1/ping HTTP/1.1\r\nHost: x\r\n\r\n",
            }[kind]
            if first:
                s.sendall(first)
        except OSError:
            s.close()
            return None
        self.opened += 1
        return s

    def _more(self, s: socket.socket, kind: str) -> bool:
        """One more byte or line; False when the server has closed the connection."""
        try:
            s.setblocking(False)
            try:
                data = s.recv(65536)
                if not data:
                    return False
                if kind != "keepalive" or not data.startswith(b"HTTP/1.1 200"):
                    return False  # an answer to a slow request: the server closed it
            except BlockingIOError:
                pass
            s.settimeout(0.5)
            extra = {"headers": b"X-Slow: 1\r\n", "body": b" ", "chunked": b"1\r\nx\r\n"}.get(kind)
            if extra:
                s.sendall(extra)
            return True
        except OSError:
            return False

    def run_for(self, seconds: float) -> None:
        """Keep the connections up for `seconds`."""
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            start = time.monotonic()
            for i, (address, kind) in enumerate(self.slots):
                s = self.socks[i]
                if s is not None and not self._more(s, kind):
                    s.close()
                    s = None
                    self.reopened += 1
                if s is None:
                    s = self._open(address, kind)
                self.socks[i] = s
            time.sleep(max(0.0, 1.0 - (time.monotonic() - start)))

    def close(self) -> None:
        for s in self.socks:
            if s is not None:
                s.close()


def _report(name: str, phone, grew: float, extra: str = "") -> None:
    print(f"\n{name}: phone {phone.words()}; memory +{grew:.1f} MB{extra}")


@pytest.mark.slow
def test_slow_headers_silent_sockets_slow_bodies_and_idle_keepalives_from_ten_addresses(server):
    table = real_table(server)
    memory = Memory(server)
    guest = SlowGuest(server.port, GUEST_ADDRESSES, 44)  # 440 connections, over the 400 places
    phone = Phone(table)
    try:
        guest.run_for(2.0)  # every place is taken by now
        phone.start()
        guest.run_for(ATTACK_S)
        felt = phone.stop()
    finally:
        guest.close()
    grew = memory.stop()
    _report("slow connections from 10 addresses", felt, grew,
            f"; guest opened {guest.opened} connections, {guest.reopened} closed by the server")
    felt.check()
    assert guest.reopened > 40, "the guest's connections were never shed: the server was not full"
    assert grew <= MEMORY_MB


def _guest_tables(port: int, addresses: list[str], seats: int) -> list[tuple[str, list[str], str]]:
    """Each address makes a table of its own (no owner token) and seats `seats` players."""
    out = []
    for address in addresses:
        code, _, tokens = guest_table(port, address, seats)
        out.append((code, tokens, address))
    return out


@pytest.mark.slow
def test_four_addresses_holding_seat_tokens_open_96_seat_streams(server):
    table = real_table(server)
    memory = Memory(server)
    guests = _guest_tables(server.port, GUEST_ADDRESSES[:4], 8)
    hogs: list[Listener] = []
    try:
        for code, tokens, address in guests:
            for token in tokens:
                for _ in range(3):
                    hogs.append(Listener(server.port, f"/api/v1/tables/{code}/events?token={token}", source=address))
        admitted = sum(1 for h in hogs if h.wait_status(5) == 200)
        # The seats' pool is the guests' now (96 places): the owner's table must still get in.
        phone = Phone(table)
        phone.start()
        time.sleep(ATTACK_S)
        felt = phone.stop()
        # A guest that reconnects what was cut does not get the owner's places back.
        still = sum(1 for h in hogs if not h.closed)
    finally:
        for h in hogs:
            h.close()
    grew = memory.stop()
    _report("96 seat streams from 4 addresses", felt, grew,
            f"; guest streams admitted {admitted}, {still} still open at the end")
    assert admitted == 96
    felt.check()
    assert grew <= MEMORY_MB


class Pipeliner:
    """`count` connections from one address, each sending `depth` pipelined requests for large
    answers at once and never reading; what the server closes is opened again."""

    PATHS = ("/api/v1/openapi.json", "/rules", "/static/js/host.js", "/host")

    def __init__(self, port: int, address: str, count: int, depth: int):
        self.port, self.address, self.count, self.depth = port, address, count, depth
        self.socks: list[socket.socket | None] = [None] * count
        self.born = [0.0] * count
        self.opened = 0

    def _open(self) -> socket.socket | None:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        try:
            s.bind((self.address, 0))
            s.settimeout(1)
            s.connect(("127.0.0.1", self.port))
            burst = b"".join(f"GET {self.PATHS[i % len(self.PATHS)]} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
                             for i in range(self.depth))
            s.setblocking(False)
            s.send(burst)
        except OSError:
            s.close()
            return None
        self.opened += 1
        return s

    def run_for(self, seconds: float) -> None:
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            for i in range(self.count):
                s = self.socks[i]
                if s is not None and time.monotonic() - self.born[i] > front.SEND_TIMEOUT_S + 1.5:
                    # The server has dropped it by now (its answers unread; the end of the
                    # connection waits behind them): a new one, pipelining again.
                    s.close()
                    s = None
                if s is None:
                    s = self._open()
                    self.born[i] = time.monotonic()
                self.socks[i] = s
            time.sleep(0.5)

    def close(self) -> None:
        for s in self.socks:
            if s is not None:
                s.close()


@pytest.mark.slow
def test_48_pipelining_connections_from_one_address(server):
    table = real_table(server)
    memory = Memory(server)
    guest = Pipeliner(server.port, GUEST_ADDRESSES[0], front.PER_ADDRESS_CONNECTIONS, front.PIPELINE_MAX)
    phone = Phone(table)
    try:
        guest.run_for(1.0)
        phone.start()
        guest.run_for(ATTACK_S)
        felt = phone.stop()
    finally:
        guest.close()
    grew = memory.stop()
    _report("48 pipelining connections", felt, grew, f"; guest opened {guest.opened} connections")
    assert guest.opened >= 2 * front.PER_ADDRESS_CONNECTIONS, "the guest did not pipeline again"
    felt.check()
    assert grew <= MEMORY_MB


@pytest.mark.slow
def test_a_guest_creates_the_first_table_on_a_freshly_started_server(tmp_path):
    srv = ServerProcess(tmp_path / "data").start()
    try:
        guest = JsonClient(srv.port, timeout=10)
        guest.conn.source_address = (GUEST_ADDRESSES[0], 0)
        status, made, _ = guest.call("POST", "/api/v1/tables", {"rules": "weg"})
        assert status == 201
        # Being first takes nothing: the scrambler is bound to no table.
        assert guest.call("GET", "/api/v1/scrambler")[1]["code"] is None
        # Nor can the guest's own host token take it.
        status, body, _ = guest.call("PUT", "/api/v1/scrambler", {"code": made["code"]}, made["host_token"])
        assert status == 403, body
        # A guessed owner token makes no table the owner's.
        status, body, _ = guest.call("POST", "/api/v1/tables", {"rules": "weg"}, "x" * 32)
        assert status == 403 and body["field"] == "token"
        guest.close()
        table = real_table(srv)  # the host's link: the owner token binds the scrambler
        phone = Phone(table)
        phone.start()
        time.sleep(4.0)
        felt = phone.stop()
    finally:
        srv.stop()
    again = ServerProcess(tmp_path / "data").start()
    try:
        client = JsonClient(again.port, timeout=10)
        assert client.call("GET", "/api/v1/scrambler")[1]["code"] == table.code
        listed = {t["code"]: t["scrambler"] for t in client.call("GET", "/api/v1/tables")[1]["tables"]}
        assert listed == {made["code"]: False, table.code: True}
        client.close()
    finally:
        again.stop()
    print(f"\nfirst table by a guest: phone {felt.words()}")
    felt.check()
