"""Issue 28, items 18 and 20, in small: how the server's front (`companion.server.front`) holds
a guest's excess connections and pipelined requests without closing them (a guest's script
brings a closed connection straight back), and keeps the interpreter for the owner's tables.
The drills (`tests/drills/test_shared_wifi_drill.py`) measure the same at full size."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from companion.server import front

GUEST = "127.0.0.2"
PING = b"GET /api/v1/ping HTTP/1.1\r\nHost: x\r\n\r\n"


def _connect(port: int, source: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    return s


def _answers(s: socket.socket, count: int, timeout: float = 5.0) -> int:
    """Read until `count` complete answers have come (or the timeout); how many came."""
    s.settimeout(timeout)
    buf, got = b"", 0
    deadline = time.monotonic() + timeout
    while got < count and time.monotonic() < deadline:
        try:
            data = s.recv(65536)
        except socket.timeout:
            break
        if not data:
            break
        buf += data
        while b"\r\n\r\n" in buf:
            head, rest = buf.split(b"\r\n\r\n", 1)
            length = next((int(line.split(b":")[1]) for line in head.lower().split(b"\r\n")
                           if line.startswith(b"content-length:")), 0)
            if len(rest) < length:
                break
            buf, got = rest[length:], got + 1
    return got


def _silent_for(s: socket.socket, seconds: float) -> bool:
    """True when nothing (no answer, no close) comes on `s` for `seconds`."""
    s.settimeout(seconds)
    try:
        s.recv(1, socket.MSG_PEEK)
    except socket.timeout:
        return True
    return False


def test_a_connection_pipelining_past_the_limit_is_answered_in_turn_not_dropped(live_server):
    """Item 20: 40 requests sent at once on one connection are all answered, in order, on
    that connection (before: more than `PIPELINE_MAX` waiting closed it, and the guest's script
    reconnected and pipelined again, over and over)."""
    port = live_server.server.effective_port
    s = _connect(port, GUEST)
    try:
        s.sendall(PING * 40)
        assert _answers(s, 40) == 40
        s.sendall(PING)  # and the connection is still there
        assert _answers(s, 1) == 1
    finally:
        s.close()


def test_a_full_server_parks_a_heavy_addresses_newcomer_and_a_phone_still_gets_in(live_server, monkeypatch):
    """Item 18: at the server's limit, a newcomer from an address holding many connections is
    parked (held open, unanswered) instead of closing another of the guest's connections for
    it; a phone's newcomer takes one guest connection's place; the parked one is served once
    a place is free."""
    monkeypatch.setattr(front, "CONNECTION_LIMIT", 6)
    monkeypatch.setattr(front, "SHED_FOR_BELOW", 3)
    port = live_server.server.effective_port
    held = []
    try:
        for _ in range(6):  # the guest's idle keep-alives fill the server
            s = _connect(port, GUEST)
            s.sendall(PING)
            assert _answers(s, 1) == 1
            held.append(s)
        extra = _connect(port, GUEST)
        extra.sendall(PING)
        # Parked: no answer and no close; and none of the guest's other connections was closed.
        assert _silent_for(extra, 1.5)
        assert all(_silent_for(s, 0.05) for s in held), "a guest connection was shed for its own newcomer"
        # A phone (an address holding nothing) gets in at once, in a guest connection's place.
        phone = _connect(port, "127.0.0.1")
        phone.sendall(PING)
        assert _answers(phone, 1) == 1
        phone.close()
        shed = [s for s in held if not _silent_for(s, 0.2)]
        assert len(shed) == 1
        # Once a place is free, the parked connection is read and answered.
        for s in shed:
            s.close()
            held.remove(s)
        assert _answers(extra, 1, timeout=5) == 1
        held.append(extra)
    finally:
        for s in held:
            s.close()


def test_guests_requests_wait_while_a_request_of_the_owners_tables_runs():
    """Item 20: a guest's request does not start while the owner's tables' request runs (it
    would take the interpreter from it); it starts once that one ends."""
    dispatcher = front.LaneDispatcher({front.OTHER_TABLE: 1, front.ANONYMOUS: 1})
    owner_in, owner_go = threading.Event(), threading.Event()
    log: list[str] = []

    class Conn(front.TableChannel):
        def __init__(self, rank, name):
            self.rank, self.requests, self.name = rank, [], name

        def service(self):
            log.append(f"{self.name} starts")
            if self.name == "owner":
                owner_in.set()
                owner_go.wait(5)
            log.append(f"{self.name} ends")

    dispatcher.set_thread_count(4)
    try:
        dispatcher.add_task(Conn(front.OWN_TABLE, "owner"))
        assert owner_in.wait(5)
        dispatcher.add_task(Conn(front.ANONYMOUS, "guest"))
        time.sleep(0.2)
        assert log == ["owner starts"]
        owner_go.set()
        deadline = time.monotonic() + 5
        while len(log) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert log == ["owner starts", "owner ends", "guest starts", "guest ends"]
    finally:
        dispatcher.shutdown()


def test_the_guests_lanes_rest_once_the_guests_are_over_their_share_of_the_interpreter():
    dispatcher = front.LaneDispatcher()
    # Within the burst: no rest.
    assert dispatcher.charge(front.GUEST_CPU_BURST_S / 2) == 0.0
    # A guest's request that used 0.3 s more: the lanes rest until the debt is back at the burst.
    before_first = time.monotonic()
    rest = dispatcher.charge(0.3)
    after_first = time.monotonic()
    expected = (front.GUEST_CPU_BURST_S / 2 + 0.3 - front.GUEST_CPU_BURST_S) / front.GUEST_CPU_SHARE
    assert rest == pytest.approx(expected, abs=0.02)
    time.sleep(0.1)  # the debt is paid back at the share's pace
    # However long the sleep took on this machine: the rest left is the first one less the
    # time that has passed between the two charges (measured on both sides of each).
    before_second = time.monotonic()
    left = dispatcher.charge(0.0)
    after_second = time.monotonic()
    assert expected - (after_second - before_first) - 0.01 <= left <= expected - (before_second - after_first) + 0.01
    # Another class of guests (another table's phones) has its own account.
    assert dispatcher.charge(0.01, front.OTHER_TABLE) == 0.0


def test_the_guests_keep_to_their_share_only_while_the_owners_tables_are_in_use():
    """With no request of the owner's tables for `OWNER_ACTIVE_S`, a guest lane never rests
    and owes nothing (a server of other tables alone runs at full speed); once the owner's
    tables ask again, the share holds from a clean account."""
    dispatcher = front.LaneDispatcher()
    heavy = front.GUEST_CPU_BURST_S + 0.5
    assert dispatcher.guest_rest(heavy, front.OTHER_TABLE) == 0.0  # the owner's tables never asked
    dispatcher.owner_seen = time.monotonic()
    rest = dispatcher.guest_rest(heavy, front.OTHER_TABLE)
    assert rest == pytest.approx(0.5 / front.GUEST_CPU_SHARE, abs=0.05)
    later = dispatcher.owner_seen + front.OWNER_ACTIVE_S + 1
    assert dispatcher.guest_rest(heavy, front.OTHER_TABLE, now=later) == 0.0  # idle owner: no rest
    dispatcher.owner_seen = time.monotonic()  # the owner's tables ask again: nothing was owed
    assert dispatcher.guest_rest(front.GUEST_CPU_BURST_S / 2, front.OTHER_TABLE) == 0.0
