"""What the guest-attack drills share (issues 15 and 22): the real table made with the owner
token, its seated phone measured while a guest attacks, and the server's memory sampled.
(A module the drills import, not a conftest: the tests import the top-level conftest by name.)

The phone is a real client on 127.0.0.1; the guest takes other loopback addresses (127.0.0.2
and up: a laptop on the Wi-Fi can hold many). Every drill stops by itself."""

from __future__ import annotations

import statistics
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from companion.bench.clients import JsonClient, Listener
from companion.bench.server import ServerProcess

#: What a seated phone must feel during any attack (issue 15's "done when").
MEDIAN_S = 0.050
P99_S = 0.250
#: The server's memory during an attack stays within this of its start (MiB).
MEMORY_MB = 20.0
#: Loopback addresses a guest may use (a laptop taking many addresses on the Wi-Fi).
GUEST_ADDRESSES = [f"127.0.0.{n}" for n in range(2, 12)]


@dataclass
class RealTable:
    """The owner's table: made from the host's link (with the owner token), Lando seated."""

    server: ServerProcess
    code: str
    host: str
    seat: str
    display_key: str
    owner_token: str


def owner_token(server: ServerProcess) -> str:
    """The owner token `serve` keeps in its data folder (and prints for the host)."""
    return (Path(server.data) / "owner-token").read_text(encoding="ascii").strip()


def real_table(server: ServerProcess) -> RealTable:
    """Make the owner's table (the host's link carries the owner token) and seat a phone."""
    token = owner_token(server)
    host = JsonClient(server.port, timeout=10)
    try:
        status, made, _ = host.call("POST", "/api/v1/tables", {"rules": "weg"}, token)
        assert status == 201, made
        status, joined, _ = host.call("POST", f"/api/v1/tables/{made['code']}/join", {"name": "Lando"})
        assert status == 201, joined
        status, bound, _ = host.call("GET", "/api/v1/scrambler")
        assert bound["code"] == made["code"], "the owner's table did not take the scrambler"
    finally:
        host.close()
    return RealTable(server, made["code"], made["host_token"], joined["token"], made["display_key"], token)


def guest_table(port: int, address: str, seats: int) -> tuple[str, str, list[str]]:
    """A guest's own table made from `address` (no owner token), with `seats` seats joined:
    its code, host token and seat tokens."""
    client = JsonClient(port, timeout=10)
    client.conn.source_address = (address, 0)
    try:
        status, made, _ = client.call("POST", "/api/v1/tables", {"rules": "weg"})
        assert status == 201, made
        tokens = []
        for n in range(seats):
            status, joined, _ = client.call("POST", f"/api/v1/tables/{made['code']}/join", {"name": f"Guest {n}"})
            assert status == 201, joined
            tokens.append(joined["token"])
    finally:
        client.close()
    return made["code"], made["host_token"], tokens


def percentile(values: list[float], p: float) -> float:
    """The `p`-th percentile (nearest rank) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


@dataclass
class PhoneLog:
    """What the phone, the host and the display felt."""

    commands: list[float] = field(default_factory=list)
    snapshots: list[float] = field(default_factory=list)
    refused: list[tuple[str, int, object]] = field(default_factory=list)
    timeouts: int = 0

    def words(self) -> str:
        """The figures, for the drill's printout and SECURITY.md."""
        # nan: none was answered
        c, s = self.commands or [float("nan")], self.snapshots or [float("nan")]
        return (f"{len(self.commands)} commands median {statistics.median(c) * 1000:.1f} ms, p99 "
                f"{percentile(c, 99) * 1000:.1f} ms, max {max(c) * 1000:.1f} ms; {len(self.snapshots)} stream "
                f"snapshots median {statistics.median(s) * 1000:.1f} ms, p99 {percentile(s, 99) * 1000:.1f} ms; "
                f"{len(self.refused)} refused, {self.timeouts} time-outs")

    def check(self) -> None:
        """The issue's bounds: median ≤ 50 ms, p99 ≤ 250 ms, nothing refused, no time-out."""
        assert len(self.commands) >= 10 and len(self.snapshots) >= 4, self.words()
        assert not self.refused and self.timeouts == 0, (self.refused, self.timeouts)
        for values in (self.commands, self.snapshots):
            assert statistics.median(values) <= MEDIAN_S, self.words()
            assert percentile(values, 99) <= P99_S, self.words()


class Phone(threading.Thread):
    """The seated phone (and every few rounds the host's and the display's streams): a command
    every `every` seconds and a fresh stream (a reload) every fourth round, until stopped."""

    def __init__(self, table: RealTable, every: float = 0.25, fresh: bool = False):
        super().__init__(daemon=True)
        self.table, self.every = table, every
        # fresh: every command on a new connection (a phone's browser after its Wi-Fi slept, or
        # behind a router that drops idle connections): the connect and the server's accept
        # are timed too (issue 28).
        self.fresh = fresh
        self.log = PhoneLog()
        self._halt = threading.Event()

    def stop(self) -> PhoneLog:
        """Stop and return what was felt."""
        self._halt.set()
        self.join(30)
        return self.log

    def _stream(self, path: str, who: str) -> None:
        t0 = time.perf_counter()
        stream = Listener(self.table.server.port, path)
        try:
            if not stream.wait_for(0, timeout=5):
                if stream.status not in (None, 200):
                    self.log.refused.append((who + " stream", stream.status, None))
                else:
                    self.log.timeouts += 1
                return
            self.log.snapshots.append(time.perf_counter() - t0)
        finally:
            stream.close()

    def run(self) -> None:
        t = self.table
        phone = JsonClient(t.server.port, timeout=5)
        streams = [(f"/api/v1/tables/{t.code}/events?token={t.seat}", "phone"),
                   (f"/api/v1/tables/{t.code}/events?token={t.host}", "host"),
                   (f"/api/v1/tables/{t.code}/events?display={t.display_key}", "display")]
        i = 0
        try:
            while not self._halt.is_set():
                if self.fresh:
                    phone.close()
                    phone = JsonClient(t.server.port, timeout=5)
                try:
                    t0 = time.perf_counter()
                    status, body, dt = phone.call("POST", f"/api/v1/tables/{t.code}/commands",
                                                  {"type": "sit_out" if i % 2 == 0 else "sit_in"}, t.seat)
                    if self.fresh:  # the connect included, and a retry after a reset too
                        dt = time.perf_counter() - t0
                except OSError:
                    self.log.timeouts += 1
                    phone.close()
                    phone = JsonClient(t.server.port, timeout=5)
                else:
                    if status == 200:
                        self.log.commands.append(dt)
                    else:
                        self.log.refused.append(("command", status, body))
                if i % 4 == 0:
                    self._stream(*streams[(i // 4) % len(streams)])
                i += 1
                self._halt.wait(self.every)
        finally:
            phone.close()


class Memory(threading.Thread):
    """Samples the server's resident memory until stopped; `growth` is the most above `start`."""

    def __init__(self, server: ServerProcess, every: float = 0.2):
        super().__init__(daemon=True)
        self.server, self.every = server, every
        self.start_mb = server.rss_mb()
        self.most_mb = self.start_mb
        self._halt = threading.Event()
        self.start()

    def run(self) -> None:
        while not self._halt.wait(self.every):
            try:
                self.most_mb = max(self.most_mb, self.server.rss_mb())
            except (OSError, KeyError):
                return

    def stop(self) -> float:
        """Stop; the growth over the start (MiB)."""
        self._halt.set()
        self.join(5)
        return self.most_mb - self.start_mb
