"""The USB scrambler box, host side: finds the box, keeps a link to it, reconnects after an unplug.

The box (a Pico running `firmware/`) speaks `firmware/PROTOCOL.md`. `ScramblerBox` runs one
supervisor thread that opens the port (a configured path or URL, or the first port with USB
ID 2E8A:0005), reads it with pyserial's `ReaderThread` and a `LineReader`, shakes hands
(``HELLO proto=1``), and after an unplug closes the port and tries again with back-off
(0.5 s, 1 s, 2 s, 5 s, then every 10 s). Meanwhile the table goes on with the on-screen
scrambler.

A ``PRESS`` from the box calls ``send({"type": "roll"})``; a ``HOLD`` calls ``on_hold()``.
`show_pattern` sends ``LED``/``BEEP`` lines back. Lines that break the protocol are logged and
ignored, and nothing from a box is acted on before its ``HELLO``.

    >>> box = ScramblerBox(send=print, path="loop://", backoff=(0.01,))
    >>> box.state
    'stopped'
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable

import serial
import serial.threaded
import serial.tools.list_ports

from companion.scrambler.gpio import ROLL_ENTRY
from companion.scrambler.protocol import MAX_LINE, PROTO, ProtocolError, format_line, parse

log = logging.getLogger(__name__)

USB_ID = (0x2E8A, 0x0005)  # Raspberry Pi Pico running MicroPython
BACKOFF = (0.5, 1.0, 2.0, 5.0, 10.0)  # seconds between attempts; the last one repeats

#: Patterns firmware 1.0.x does not know -> the one it shows instead.
OLD_FIRMWARE = {"rolled": "noshift"}

# States of the link, as `state` reports them (and the hub shows them to the host).
STOPPED, SEARCHING, CONNECTING, READY, INCOMPATIBLE = (
    "stopped", "searching", "connecting", "ready", "incompatible")


def find_box(usb_id: tuple[int, int] = USB_ID) -> str | None:
    """The device path of the first serial port with `usb_id` (vendor, product), if any."""
    for port in sorted(serial.tools.list_ports.comports(), key=lambda p: p.device):
        if (port.vid, port.pid) == usb_id:
            return port.device
    return None


class _BoxLink(serial.threaded.LineReader):
    """One open connection's line reader (the reader thread calls it)."""

    TERMINATOR = b"\n"  # a "\r" before it is stripped by `parse`

    def __init__(self, box: "ScramblerBox"):
        super().__init__()
        self.box = box

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if len(self.buffer) > 2 * MAX_LINE:
            # No newline for far too long: noise on the line, not a protocol line.
            log.info("dropped %d bytes from the box without a line end", len(self.buffer))
            del self.buffer[:]

    def handle_packet(self, packet: bytes) -> None:
        self.box._handle_line(bytes(packet))

    def connection_lost(self, exc: BaseException | None) -> None:
        # The base class re-raises `exc` in the reader thread; an unplug is not an error here.
        self.transport = None
        self.box._connection_lost(exc)


class _Reader(serial.threaded.ReaderThread):
    """pyserial's reader thread, also treating an OSError as the loss of the port.

    After an unplug, `in_waiting` (an ioctl) can fail with EIO before `read` would raise its
    SerialException, and the base loop lets that OSError kill the thread silently.
    """

    def run(self) -> None:
        try:
            super().run()
        except OSError as exc:
            self.alive = False
            # As the base loop does when it ends: the protocol is let go once the port is lost.
            # pyserial itself sets it to None there; its stubs declare it never None.
            protocol, self.protocol = self.protocol, None  # type: ignore[assignment]
            if protocol is not None:
                protocol.connection_lost(exc)


class ScramblerBox:
    """A supervised link to the USB scrambler box.

    `path`: ``None`` or ``"auto"`` finds the box by USB ID; anything else is a device path or
    a pyserial URL (``hwgrep://2E8A:0005``, ``loop://``). It can be changed while running
    (the link reopens on the new path). `backoff`: seconds between attempts to (re)open.
    `on_state(state)` hears every change of `state`.
    """

    def __init__(
        self,
        *,
        send: Callable[[dict], Any],
        on_hold: Callable[[], Any] | None = None,
        path: str | None = None,
        usb_id: tuple[int, int] = USB_ID,
        baudrate: int = 115200,
        backoff: tuple[float, ...] = BACKOFF,
        handshake_timeout: float = 2.0,
        on_state: Callable[[str], Any] | None = None,
    ):
        self._send = send
        self._on_hold = on_hold
        self._path = path
        self.usb_id = usb_id
        self.baudrate = baudrate
        self.backoff = backoff
        self.handshake_timeout = handshake_timeout
        self.on_state = on_state
        self._cond = threading.Condition()
        self._wake = threading.Event()
        self._state = STOPPED
        self._stop = False
        self._lost = False
        self._repath = False
        self._reader: _Reader | None = None
        self._thread: threading.Thread | None = None
        self._background = "idle"
        self.hello: dict[str, str] = {}  # the fields of the box's last HELLO
        self.connections = 0  # how many times a handshake has succeeded
        self.ignored = 0  # lines logged and ignored

    # --- public -----------------------------------------------------------------------
    @property
    def state(self) -> str:
        """``stopped``, ``searching``, ``connecting``, ``ready`` or ``incompatible``."""
        return self._state

    @property
    def ready(self) -> bool:
        """Whether a box is connected and has shaken hands."""
        return self._state == READY

    @property
    def path(self) -> str | None:
        """The configured path or URL (None: find the box by USB ID)."""
        return self._path

    @path.setter
    def path(self, value: str | None) -> None:
        with self._cond:
            self._path = value
            self._repath = True
        self._wake.set()

    def start(self) -> None:
        """Start the supervisor thread (once)."""
        with self._cond:
            if self._thread is not None:
                return
            self._stop = False
            self._thread = threading.Thread(target=self._supervise, name="scrambler-box",
                                            daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the supervisor and close the port."""
        with self._cond:
            self._stop = True
            thread, self._thread = self._thread, None
        self._wake.set()
        if thread is not None:
            thread.join(timeout=5)
        self._set_state(STOPPED)

    def wait_state(self, state: str, timeout: float | None = None) -> bool:
        """Wait until the link is in `state`; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: self._state == state, timeout)

    def wait_connections(self, count: int, timeout: float | None = None) -> bool:
        """Wait until `count` handshakes have succeeded in all; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: self.connections >= count, timeout)

    def send_line(self, verb: str, **fields) -> bool:
        """Send one protocol line to a ready box; False when no box is ready to hear it."""
        if not self.ready:
            return False
        return self._write(format_line(verb, **fields))

    def show_pattern(self, led: str | None = None, beep: str | None = None) -> None:
        """Show an LED pattern and play a beep pattern on the box (when connected). A box whose
        firmware predates the ``rolled`` patterns (1.0.x) is sent ``noshift`` for them."""
        if self.hello.get("fw", "").startswith("1.0."):
            led, beep = (OLD_FIRMWARE.get(p, p) if p is not None else None for p in (led, beep))
        if led is not None:
            self.send_line("LED", pattern=led)
        if beep is not None:
            self.send_line("BEEP", pattern=beep)

    def set_background(self, led: str) -> None:
        """The LED pattern the box shows at rest (``idle`` or ``armed``); sent now and on connect."""
        self._background = led
        self.send_line("LED", pattern=led)

    # --- reader thread ----------------------------------------------------------------
    def _handle_line(self, raw: bytes) -> None:
        try:
            msg = parse(raw)
        except ProtocolError as exc:
            self.ignored += 1
            log.info("ignored a line from the box (%s): %r", exc, raw[:MAX_LINE])
            return
        if msg.verb == "HELLO":
            self._hello(msg.fields)
        elif not self.ready:
            self.ignored += 1
            log.info("ignored %s from the box before its HELLO", msg.verb)
        elif msg.verb in ("PRESS", "HOLD"):
            # Whatever the table answers, the reader thread must live on (an exception from
            # here would end pyserial's read loop and drop the box).
            try:
                if msg.verb == "PRESS":
                    self._send(dict(ROLL_ENTRY))
                elif self._on_hold is not None:
                    self._on_hold()
            except Exception:
                log.exception("the table did not take the box's %s", msg.verb)
        elif msg.verb == "ERR":
            log.warning("the box did not understand a line (reason=%s)", msg.fields["reason"])
        else:
            # ROLL and TIMER come from the box's standalone modes; the table makes its own
            # (verifiable) rolls, so they are only logged.
            log.info("box: %s %s", msg.verb, msg.fields)

    def _hello(self, fields: dict[str, str]) -> None:
        proto = int(fields["proto"])
        self.hello = dict(fields)
        if proto != PROTO:
            log.warning("the scrambler box speaks protocol %s, the companion %s: left alone "
                        "(the table uses the on-screen scrambler)", proto, PROTO)
            self._set_state(INCOMPATIBLE)
            return
        first = self._state != READY
        with self._cond:
            if first:
                self.connections += 1
            self._state = READY
            self._cond.notify_all()
        if first:
            log.info("scrambler box connected: fw=%s mode=%s", fields.get("fw"),
                     fields.get("mode"))
            if self.on_state is not None:
                self.on_state(READY)
        if fields.get("mode") != "companion":
            self._write(format_line("MODE", mode="companion"))
        self._write(format_line("LED", pattern=self._background))

    def _connection_lost(self, exc: BaseException | None) -> None:
        if exc is not None:
            log.warning("the scrambler box is gone (%s)", exc)
        with self._cond:
            self._lost = True
        self._wake.set()

    # --- supervisor thread ------------------------------------------------------------
    def _set_state(self, state: str) -> None:
        with self._cond:
            changed = state != self._state
            self._state = state
            self._cond.notify_all()
        if changed and self.on_state is not None:
            self.on_state(state)

    def _write(self, line: str) -> bool:
        reader = self._reader
        if reader is None:
            return False
        try:
            reader.write(line.encode("ascii"))
            return True
        except (serial.SerialException, OSError) as exc:
            self._connection_lost(exc)
            return False

    def _resolve(self) -> str | None:
        with self._cond:
            self._repath = False
            path = self._path
        return find_box(self.usb_id) if path in (None, "", "auto") else path

    def _pause(self, attempt: int) -> None:
        self._wake.wait(self.backoff[min(attempt, len(self.backoff) - 1)])
        self._wake.clear()

    def _supervise(self) -> None:
        attempt = 0
        said_missing = False
        while not self._stop:
            self._set_state(SEARCHING)
            url = self._resolve()
            if url is None:
                if not said_missing:
                    log.info("no scrambler box found (USB %04X:%04X)", *self.usb_id)
                    said_missing = True
                self._pause(attempt)
                attempt += 1
                continue
            try:
                port = serial.serial_for_url(url, baudrate=self.baudrate, timeout=1)
            except (serial.SerialException, OSError, ValueError) as exc:
                if not said_missing:
                    log.info("cannot open the scrambler box at %s: %s", url, exc)
                    said_missing = True
                self._pause(attempt)
                attempt += 1
                continue
            said_missing = False
            if self._connected(port):
                attempt = 0  # it worked for a while: retry quickly after the next unplug
            self._pause(attempt)
            attempt += 1

    def _connected(self, port) -> bool:
        """Run one connection until it is lost, closed or repathed; True if it shook hands."""
        with self._cond:
            self._lost = False
        self._wake.clear()
        reader = _Reader(port, lambda: _BoxLink(self))
        reader.start()
        self._reader = reader
        self._set_state(CONNECTING)
        self._write(format_line("HELLO", proto=PROTO))
        before = self.connections
        try:
            while True:
                self._wake.wait(None if self._state in (READY, INCOMPATIBLE)
                                else self.handshake_timeout)
                self._wake.clear()
                if self._stop or self._lost or self._repath:
                    return self.connections > before
                if self._state == CONNECTING:  # no answer yet: ask again
                    self._write(format_line("HELLO", proto=PROTO))
        finally:
            self._reader = None
            try:
                reader.close()  # stops the reader thread, then closes the port
            except Exception:  # the port may be half gone after an unplug
                log.debug("closing the box's port failed", exc_info=True)
            if not self._stop:
                self._set_state(SEARCHING)
