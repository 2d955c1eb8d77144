"""Serial unplug storm: the USB scrambler box (a pseudo-terminal) is plugged in, shakes hands
and is pulled out 100 times while phones keep playing the table over HTTP. Every handshake
succeeds, presses reach the table as rolls, the table's actions are all accepted, and the
companion ends with no extra threads and no leaked file descriptors."""

from __future__ import annotations

import os
import select
import threading
import time

from companion.bench.clients import JsonClient
from companion.bench.play import moves
from companion.scrambler.hub import Scrambler, ScramblerSettings
from companion.scrambler.serial_box import SEARCHING
from companion.table.owner import SCRAMBLER
from companion.table.registry import registry_for
from conftest import LiveServer

CYCLES = 100
FAST = (0.005, 0.01, 0.02)
BOX_HELLO = b"HELLO proto=1 box=sabacc-scrambler fw=1.0.0 mode=companion\r\n"


class PtyBox:
    """The box's end of a pseudo-terminal pair; `unplug` closes both ends."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        self._buf = b""

    def expect(self, prefix: bytes, timeout: float = 5.0) -> bytes:
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self._buf:
                line, self._buf = self._buf.split(b"\n", 1)
                if line.startswith(prefix):
                    return line
            left = deadline - time.monotonic()
            assert left > 0, f"the companion never sent {prefix!r}"
            if select.select([self.master], [], [], left)[0]:
                self._buf += os.read(self.master, 1024)

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def unplug(self) -> None:
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


class Phones(threading.Thread):
    """Plays hands over HTTP the whole time; records every status it gets."""

    def __init__(self, port, code, tokens):
        super().__init__(daemon=True)
        self.client = JsonClient(port)
        self.code, self.tokens = code, tokens
        self.stop = threading.Event()
        self.statuses: list[int] = []
        self.accepted = 0

    def run(self):
        try:
            while not self.stop.is_set():
                _, body, _ = self.client.call("GET", f"/api/v1/tables/{self.code}", None, self.tokens["host"])
                for actor, entry in moves(body["state"]):
                    status, _, _ = self.client.call("POST", f"/api/v1/tables/{self.code}/commands",
                                                    entry, self.tokens[actor])
                    self.statuses.append(status)
                    if status == 200:
                        self.accepted += 1
                        break
        finally:
            self.client.close()


def test_a_hundred_unplugs_and_replugs_while_the_table_keeps_playing(app):
    server = LiveServer(app)
    client = JsonClient(int(server.url.rsplit(":", 1)[1]))
    try:
        _, created, _ = client.call("POST", "/api/v1/tables", {"rules": "weg"})
        code = created["code"]
        tokens = {"host": created["host_token"]}
        for name in ("Lando", "Han", "Leia"):
            _, joined, _ = client.call("POST", f"/api/v1/tables/{code}/join", {"name": name})
            tokens[joined["seat"]] = joined["token"]
            client.call("POST", f"/api/v1/tables/{code}/commands", {"type": "buy_in", "amount": 500},
                        joined["token"])
        owner = registry_for(app).get(code)
        rolls = {"sent": 0}

        def send(entry):
            rolls["sent"] += 1
            owner.submit(entry, actor=SCRAMBLER)

        base_threads, base_fds = threading.active_count(), open_fds()
        first = PtyBox()
        hub = Scrambler(send, ScramblerSettings(serial=first.path), box_options={"backoff": FAST})
        hub.start()
        phones = Phones(int(server.url.rsplit(":", 1)[1]), code, tokens)
        phones.start()
        box = first
        presses = 0
        try:
            for cycle in range(CYCLES):
                if cycle:
                    box = PtyBox()
                    hub.box.path = box.path
                assert box.expect(b"HELLO") == b"HELLO proto=1"
                box.write(BOX_HELLO)
                assert hub.box.wait_connections(cycle + 1, timeout=5), f"cycle {cycle}: no handshake"
                assert not hub.on_screen
                if cycle % 5 == 0:
                    box.write(b"PRESS\r\n")  # a roll, whether or not it is the time for one
                    presses += 1
                    assert until(lambda: hub.sent + hub.refused == presses, 5), f"cycle {cycle}: press lost"
                box.unplug()
                assert hub.box.wait_state(SEARCHING, timeout=5), f"cycle {cycle}: unplug unnoticed"
                assert hub.on_screen  # the on-screen scrambler takes over meanwhile
        finally:
            phones.stop.set()
            phones.join(timeout=10)
            hub.close()
        assert hub.box is None and hub.sent + hub.refused == presses == rolls["sent"]
        assert hub.sent > 0  # some presses came at a roll step and were applied
        # The table played on: every request answered, none with a server error.
        assert phones.accepted > 50 and all(s < 500 for s in phones.statuses)
        assert until(lambda: threading.active_count() <= base_threads, 5), threading.enumerate()
        assert open_fds() <= base_fds + 1, (open_fds(), base_fds)
        state = client.call("GET", f"/api/v1/tables/{code}", None, tokens["host"])[1]["state"]
        hand = state["hand"]
        pot = hand["hand_pot"] if hand and hand["stage"] != "settled" else 0
        assert sum(s["stack"] for s in state["seats"]) + pot + state["sabacc_pot"] == 1500
    finally:
        client.close()
        server.close()


def until(predicate, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not predicate():
        time.sleep(0.05)
    return predicate()
