"""The USB scrambler box over a pseudo-terminal pair: handshake, a press that rolls, garbage,
an unplug (closing the master) and a replug. Every wait is on an event or a read with a timeout."""

from __future__ import annotations

import os
import select
import threading
from types import SimpleNamespace

import pytest
import serial.tools.list_ports

from companion.scrambler.dice import judge
from companion.scrambler.hub import Scrambler, ScramblerSettings
from companion.scrambler.serial_box import READY, ScramblerBox, find_box
from companion.rules.rulesets import ShiftKind, Trigger

BOX_HELLO = b"HELLO proto=1 box=sabacc-scrambler fw=1.0.0 mode=companion\r\n"
FAST = (0.01, 0.02, 0.05)  # back-off for tests


class FakeBox:
    """The box's end of a pseudo-terminal: the companion opens `path` (the slave)."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        self._buffer = b""

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def readline(self, timeout: float = 5.0) -> str | None:
        """The next line the companion sent, or None if none comes within `timeout`."""
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([self.master], [], [], timeout)
            if not ready:
                return None
            self._buffer += os.read(self.master, 1024)
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode()

    def expect(self, prefix: str, timeout: float = 5.0) -> str:
        """Read lines until one starts with `prefix` (fails after `timeout` without one)."""
        while True:
            line = self.readline(timeout)
            assert line is not None, f"the companion never sent {prefix!r}"
            if line.startswith(prefix):
                return line

    def unplug(self) -> None:
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def fake_box():
    boxes = []

    def make():
        boxes.append(FakeBox())
        return boxes[-1]

    yield make
    for b in boxes:
        for fd in (b.master, b.slave):
            try:
                os.close(fd)
            except OSError:
                pass


class Recorder:
    """A `send` callable that remembers entries and lets a test wait for them."""

    def __init__(self):
        self.entries = []
        self._sem = threading.Semaphore(0)

    def __call__(self, entry):
        self.entries.append(entry)
        self._sem.release()

    def wait(self, timeout=5.0) -> bool:
        return self._sem.acquire(timeout=timeout)


def connect(box: FakeBox, link: ScramblerBox) -> None:
    """Answer the companion's HELLO as the firmware does."""
    assert box.expect("HELLO") == "HELLO proto=1"
    box.write(BOX_HELLO)
    assert link.wait_state(READY, timeout=5)


@pytest.fixture
def link_for():
    links = []

    def make(path, **kw):
        kw.setdefault("send", Recorder())
        link = ScramblerBox(path=path, backoff=FAST, **kw)
        links.append(link)
        link.start()
        return link

    yield make
    for link in links:
        link.close()


def test_handshake_hello_both_ways_then_the_led_shows_idle(fake_box, link_for):
    box = fake_box()
    link = link_for(box.path)
    connect(box, link)
    assert link.hello == {"proto": "1", "box": "sabacc-scrambler", "fw": "1.0.0",
                          "mode": "companion"}
    assert box.expect("LED") == "LED pattern=idle"
    assert link.connections == 1


def test_the_companion_repeats_hello_until_the_box_answers(fake_box, link_for):
    box = fake_box()
    link = link_for(box.path, handshake_timeout=0.05)
    assert box.expect("HELLO") == "HELLO proto=1"
    assert box.expect("HELLO") == "HELLO proto=1"  # asked again: no answer yet
    box.write(BOX_HELLO)
    assert link.wait_state(READY, timeout=5)


def test_a_press_on_the_box_sends_a_roll_to_the_table(fake_box, link_for):
    box = fake_box()
    send = Recorder()
    link = link_for(box.path, send=send)
    connect(box, link)
    box.write(b"PRESS\r\n")
    assert send.wait() and send.entries == [{"type": "roll"}]


def test_a_hold_on_the_box_runs_the_hosts_action(fake_box, link_for):
    box = fake_box()
    held = threading.Event()
    link = link_for(box.path, on_hold=held.set)
    connect(box, link)
    box.write(b"HOLD\r\n")
    assert held.wait(timeout=5)


def test_garbage_lines_are_ignored_and_the_link_keeps_working(fake_box, link_for):
    box = fake_box()
    send = Recorder()
    link = link_for(box.path, send=send)
    connect(box, link)
    box.write(b"\x00\xff\xfe garbage\r\nSHOUT loud=1\r\nPRESS now\r\nROLL dice=x\r\n"
              + b"Z" * 500 + b"\r\n" + b"PRESS\r\n")
    assert send.wait()
    assert send.entries == [{"type": "roll"}]  # "PRESS now" was malformed, the last one counts
    assert link.ignored >= 5 and link.ready  # the over-long line may arrive in pieces


def test_nothing_is_acted_on_before_the_boxs_hello(fake_box, link_for):
    box = fake_box()
    send = Recorder()
    link = link_for(box.path, send=send)
    box.expect("HELLO")
    box.write(b"PRESS\r\n")
    box.write(BOX_HELLO)
    assert link.wait_state(READY, timeout=5)
    box.write(b"PRESS\r\n")
    assert send.wait() and not send.wait(timeout=0.2)
    assert send.entries == [{"type": "roll"}]


def test_a_box_speaking_another_protocol_version_is_left_alone(fake_box, link_for):
    box = fake_box()
    send = Recorder()
    link = link_for(box.path, send=send)
    box.expect("HELLO")
    box.write(b"HELLO proto=2 box=sabacc-scrambler fw=2.0.0 mode=companion\r\n")
    assert link.wait_state("incompatible", timeout=5)
    box.write(b"PRESS\r\n")
    assert box.readline(timeout=0.3) is None  # no LED line, nothing sent to it
    assert send.entries == [] and not link.send_line("LED", pattern="shift")


def test_a_box_in_dice_mode_is_switched_to_companion_mode(fake_box, link_for):
    box = fake_box()
    link = link_for(box.path)
    box.expect("HELLO")
    box.write(b"HELLO proto=1 box=sabacc-scrambler fw=1.0.0 mode=dice\r\n")
    assert box.expect("MODE") == "MODE mode=companion"


def test_unplug_then_replug_on_a_new_port_reconnects(fake_box, link_for):
    first = fake_box()
    send = Recorder()
    states = []
    link = link_for(first.path, send=send, on_state=states.append)
    connect(first, link)
    first.unplug()
    assert link.wait_state("searching", timeout=5)
    assert not link.ready and not link.send_line("LED", pattern="idle")
    second = fake_box()  # the box comes back as another device
    link.path = second.path
    connect(second, link)
    assert link.connections == 2
    second.write(b"PRESS\r\n")
    assert send.wait() and send.entries == [{"type": "roll"}]
    assert states.count(READY) == 2


def test_the_box_is_found_by_its_usb_id(fake_box, link_for, monkeypatch):
    box = fake_box()
    ports = [SimpleNamespace(device="/dev/ttyS9", vid=None, pid=None),
             SimpleNamespace(device=box.path, vid=0x2E8A, pid=0x0005)]
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: ports)
    assert find_box() == box.path
    link = link_for("auto")
    connect(box, link)


def test_without_a_box_the_link_keeps_searching(link_for, monkeypatch):
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    states = threading.Event()
    link = link_for(None, on_state=lambda s: states.set() if s == "searching" else None)
    assert states.wait(timeout=5) and link.state == "searching" and not link.ready


# --- the hub with the box ------------------------------------------------------------


def test_hub_a_box_press_rolls_and_the_result_goes_back_to_the_box(fake_box):
    box = fake_box()
    send = Recorder()
    hub = Scrambler(send, ScramblerSettings(serial=box.path), box_options={"backoff": FAST})
    hub.start()
    try:
        assert hub.on_screen  # no box yet
        connect(box, hub.box)
        assert not hub.on_screen
        box.write(b"PRESS\r\n")
        assert send.wait() and send.entries == [{"type": "roll"}]
        hub.show(judge(Trigger.TWO_D6_DOUBLES, (6, 6), ShiftKind.BY_SYMBOL))
        assert box.expect("LED pattern=shift") and box.expect("BEEP") == "BEEP pattern=shift"
        hub.show({"trigger": "d6-low", "dice": [5], "shift": False, "kind": None})
        assert box.expect("LED") == "LED pattern=noshift"
        assert box.expect("BEEP") == "BEEP pattern=noshift"
        box.unplug()
        assert hub.box.wait_state("searching", timeout=5)
        assert hub.on_screen  # the table falls back to the on-screen scrambler
    finally:
        hub.close()


def test_hub_a_hold_on_the_box_arms_the_timer_and_the_box_shows_it(fake_box):
    box = fake_box()
    changed = threading.Event()
    hub = Scrambler(lambda e: None, ScramblerSettings(serial=box.path),
                    box_options={"backoff": FAST}, on_timer=lambda armed: changed.set(),
                    timer_options={"threaded": False})
    hub.start()
    try:
        connect(box, hub.box)
        box.write(b"HOLD\r\n")
        assert changed.wait(timeout=5) and hub.timer.armed
        assert box.expect("LED pattern=armed")
        assert hub.status()["timer"]["armed"] is True
    finally:
        hub.close()
