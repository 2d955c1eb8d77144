"""Issue 22: a guest must not fill the Pi's disk or memory and stop the real table.

Run on a small file system standing in for a nearly full SD card: a tmpfs mounted for the
drill (and unmounted after it, whatever happens). Where mounting is not allowed the drills are
skipped, saying why; the server can also be given a small free space without a mount (the
app's `FREE_SPACE_PROBE`, the ledger's `free_space_probe`), which `tests/test_limits.py`
uses. The real table is the owner's (made with the owner token, bound to the scrambler); its
phone sends a command every 0.5 s and its host makes a new table every few seconds. None of
theirs is refused; the guest's writes are refused first; the server's temporary files plus its
memory growth stay within 64 MB.

Bounded: 36 streams or 3 writers, about 12 s of attack each, loopback only."""

from __future__ import annotations

import os
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from attack_kit import GUEST_ADDRESSES, Memory, guest_table, real_table
from companion.bench.clients import JsonClient
from companion.bench.server import ServerProcess
from companion.table import ledger as ledger_mod

#: Its bounds are wall-clock times: scripts/test runs it alone, after the rest (`--timed`).
pytestmark = pytest.mark.timed

ATTACK_S = 12.0
#: Temporary files plus memory growth the server may reach during an attack (MiB).
SPENT_MB = 64.0
MIB = 1024 * 1024


@pytest.fixture
def small_disk(tmp_path, request):
    """A tmpfs of `request.param` MB, mounted at a fresh folder (unmounted after the test)."""
    size = request.param
    where = tmp_path / "card"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}m,mode=0755", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a {size} MB tmpfs here ({(done.stderr or 'not allowed').strip()}); "
                    "the free-space probe tests in test_limits.py still run")
    try:
        yield where
    finally:
        if subprocess.run(["umount", str(where)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(where)], capture_output=True)


def free_bytes(path: Path) -> int:
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize


def temp_bytes(folder: Path) -> int:
    """Bytes of the files under `folder` (the server's TMPDIR)."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


class RealPlay(threading.Thread):
    """The real phone's command every `every` s and the host's new table every `tables_every`
    s (with the owner token, as from the host's link); every answer recorded."""

    def __init__(self, table, every: float = 0.5, tables_every: float = 3.0):
        super().__init__(daemon=True)
        self.table, self.every, self.tables_every = table, every, tables_every
        self.commands: list[int] = []
        self.tables: list[int] = []
        self.halt = threading.Event()

    def run(self) -> None:
        t = self.table
        phone = JsonClient(t.server.port, timeout=5)
        host = JsonClient(t.server.port, timeout=5)
        last_table = 0.0
        i = 0
        try:
            while not self.halt.is_set():
                status, _, _ = phone.call("POST", f"/api/v1/tables/{t.code}/commands",
                                          {"type": "sit_out" if i % 2 == 0 else "sit_in"}, t.seat)
                self.commands.append(status)
                if time.monotonic() - last_table >= self.tables_every:
                    status, _, _ = host.call("POST", "/api/v1/tables", {"rules": "weg"}, t.owner_token)
                    self.tables.append(status)
                    last_table = time.monotonic()
                i += 1
                self.halt.wait(self.every)
        finally:
            phone.close()
            host.close()


def _guest_table(port: int, seats: int) -> tuple[str, str, list[str]]:
    """The guest's own table (no owner token), with `seats` seats joined from its address."""
    return guest_table(port, GUEST_ADDRESSES[0], seats)


class Actor(threading.Thread):
    """One of the guest's clients sending `entry` as fast as the server takes it."""

    def __init__(self, port: int, address: str, path: str, entry, token: str):
        super().__init__(daemon=True)
        self.port, self.address, self.path, self.entry, self.token = port, address, path, entry, token
        self.answers: list[tuple[float, int]] = []
        self.halt = threading.Event()

    def run(self) -> None:
        client = JsonClient(self.port, timeout=5)
        client.conn.source_address = (self.address, 0)
        i = 0
        try:
            while not self.halt.is_set():
                status, _, _ = client.call("POST", self.path, self.entry(i), self.token)
                self.answers.append((time.monotonic(), status))
                i += 1
                if status == 429:
                    self.halt.wait(0.05)
        finally:
            client.close()


@pytest.mark.slow
@pytest.mark.parametrize("small_disk", [200], indirect=True, ids=["200MB"])
def test_36_slow_read_streams_of_the_guests_table_with_three_seats_at_their_rate_limits(small_disk, tmp_path):
    tmp = small_disk / "tmp"
    tmp.mkdir()
    server = ServerProcess(small_disk / "data", env={"TMPDIR": str(tmp)}).start()
    try:
        table = real_table(server)
        code, _, tokens = _guest_table(server.port, 3)
        streams = []
        for n in range(36):  # 12 spectator streams from each of three addresses
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)
            s.bind((GUEST_ADDRESSES[1 + n // 12], 0))
            s.connect(("127.0.0.1", server.port))
            s.sendall(f"GET /api/v1/tables/{code}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            s.setblocking(False)
            streams.append(s)
        memory = Memory(server)
        actors = [Actor(server.port, GUEST_ADDRESSES[4 + n], f"/api/v1/tables/{code}/commands",
                        lambda i: {"type": "sit_out" if i % 2 == 0 else "sit_in"}, token)
                  for n, token in enumerate(tokens)]
        play = RealPlay(table)
        most_temp = 0
        for a in actors:
            a.start()
        play.start()
        stop = time.monotonic() + ATTACK_S
        while time.monotonic() < stop:
            for s in streams:  # 64 KB every 2 s, as slow as a phone on a bad Wi-Fi
                try:
                    s.recv(65536)
                except (BlockingIOError, OSError):
                    pass
            most_temp = max(most_temp, temp_bytes(tmp))
            time.sleep(2.0)
        play.halt.set()
        for a in actors:
            a.halt.set()
        play.join(10)
        for a in actors:
            a.join(10)
        grew = memory.stop()
        for s in streams:
            s.close()
    finally:
        server.stop()
    accepted = sum(1 for a in actors for _, st in a.answers if st == 200)
    print(f"\n36 slow streams: real phone {len(play.commands)} commands {set(play.commands)}, host's "
          f"tables {play.tables}; guest's seats {accepted} accepted, "
          f"{sum(1 for a in actors for _, st in a.answers if st == 429)} refused 429; "
          f"temp files at most {most_temp} bytes, memory +{grew:.1f} MB")
    assert play.commands and set(play.commands) == {200}
    assert play.tables and set(play.tables) == {201}
    assert most_temp == 0, "unread output went to a temporary file"
    assert most_temp / MIB + grew <= SPENT_MB


@pytest.mark.slow
@pytest.mark.parametrize("small_disk", [120], indirect=True, ids=["120MB"])
def test_the_guests_host_adjusts_with_200_character_reasons_from_3_addresses(small_disk):
    """The disk starts just above the guest's reserve and fills (the guest's writes and a
    stand-in for everything else on the card) down to 24 MB free: the guest's writes are
    refused first, the real phone's and the host's never."""
    server = ServerProcess(small_disk / "data").start()
    ballast = small_disk / "ballast"
    try:
        table = real_table(server)
        code, host_token, _ = _guest_table(server.port, 2)
        # Just above the guest's reserve for commands.
        start_free = ledger_mod.GUEST_MIN_FREE_COMMAND + 2 * MIB
        with open(ballast, "wb") as f:
            f.write(b"\0" * max(0, free_bytes(small_disk) - start_free))
        actors = [Actor(server.port, GUEST_ADDRESSES[n], f"/api/v1/tables/{code}/commands",
                        lambda i: {"type": "adjust", "seat": "s1", "amount": 1 if i % 2 == 0 else -1,
                                   "reason": "x" * 200}, host_token) for n in range(3)]
        play = RealPlay(table)
        memory = Memory(server)
        for a in actors:
            a.start()
        play.start()
        stop = time.monotonic() + ATTACK_S
        step = max(0, start_free - 24 * MIB) // int(ATTACK_S * 4)
        with open(ballast, "ab") as f:
            while time.monotonic() < stop:
                if free_bytes(small_disk) - step > 24 * MIB:
                    f.write(b"\0" * step)
                    f.flush()
                time.sleep(0.25)
        time.sleep(1.5)  # the phone's commands at 24 MB free
        left = free_bytes(small_disk)
        play.halt.set()
        for a in actors:
            a.halt.set()
        play.join(10)
        for a in actors:
            a.join(10)
        grew = memory.stop()
    finally:
        server.stop()
    guest = sorted(x for a in actors for x in a.answers)
    first_full = next((t for t, st in guest if st == 507), None)
    print(f"\nguest adjusting on a filling disk: free at the end {left / MIB:.1f} MB; guest "
          f"{sum(1 for _, st in guest if st == 200)} accepted, {sum(1 for _, st in guest if st == 507)} "
          f"refused 507; real phone {len(play.commands)} commands {set(play.commands)}, host's tables "
          f"{play.tables}; memory +{grew:.1f} MB")
    assert left <= 26 * MIB
    assert first_full is not None, "the guest's writes were never refused"
    assert play.commands and set(play.commands) == {200}
    assert play.tables and set(play.tables) == {201}
    assert grew <= SPENT_MB
