"""The scrambler on the Pi's GPIO pins: a button, an LED and a buzzer (gpiozero 2.0).

A short press rolls; a long press runs a host-chosen action (start or stop the random
timer). The LED and buzzer show the named patterns of `companion.scrambler.patterns`.
Callbacks only debounce and post: a press calls ``send({"type": "roll"})`` and a long press
calls ``on_hold()``; the table's owner does the rest.

    >>> from gpiozero import Device
    >>> from gpiozero.pins.mock import MockFactory
    >>> Device.pin_factory = MockFactory()
    >>> sent = []
    >>> g = GpioScrambler(GpioPins(button=17, led=27, buzzer=22, debounce=0), send=sent.append)
    >>> btn = Device.pin_factory.pin(17)
    >>> btn.drive_low(); btn.drive_high()
    >>> sent
    [{'type': 'roll'}]
    >>> g.close()

On a machine without GPIO, `open_gpio` logs that once and returns None, and the table runs
with the on-screen scrambler; ``GPIOZERO_PIN_FACTORY=mock`` gives mock pins on a laptop. A
machine that is no Raspberry Pi, has no GPIO device file and names no pin factory is told so
without importing gpiozero at all (`pins_may_exist`). On a
Raspberry Pi whose Python lacks lgpio (plain Debian: ``python3-lgpio`` is Raspberry Pi OS's
package) the line says so, and how to get it.

Debounce is our own (gpiozero's mock does not simulate bounce, so theirs cannot be tested
here): an edge within `debounce` seconds of the last accepted edge is contact bounce.
Presses count on *release*, so that a long press never rolls as well.
"""

from __future__ import annotations

import glob
import importlib.util
import logging
import os
import sys
import threading
import time
import warnings
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Mapping

from companion.scrambler.patterns import (
    BEEP_PATTERNS,
    LED_PATTERNS,
    TONE_PATTERNS,
    PatternPlayer,
)

log = logging.getLogger(__name__)

#: What a press of the button posts to the table's owner (actor "scrambler").
ROLL_ENTRY = {"type": "roll"}

_said_no_gpio = threading.Event()  # say "no GPIO" once per process, not once per attempt

#: Where Linux names the board ("Raspberry Pi 5 Model B Rev 1.0"). SABACC_PI_MODEL_FILE points
#: elsewhere, to try a Pi's paths on another machine (scripts/pi-rootfs-check does, as does
#: scripts/serve, which reads the same variable).
MODEL_FILE = "/proc/device-tree/model"
#: The device files a machine with GPIO pins has (lgpio and gpiozero's native pins open the chips,
#: RPi.GPIO the memory map). Without any of them, no board and no pin factory named in the
#: environment, gpiozero could find no pins here.
GPIO_DEVICES = ("/dev/gpiochip*", "/dev/gpiomem*")
#: The environment variables that name where gpiozero's pins are (mock pins, a remote pigpio).
PIN_FACTORY_VARIABLES = ("GPIOZERO_PIN_FACTORY", "PIGPIO_ADDR")


@dataclass(frozen=True)
class GpioPins:
    """Which BCM pins the scrambler uses (None: not fitted) and how the button behaves."""

    button: int | None = 17
    led: int | None = 27
    buzzer: int | None = 22
    tonal: bool = False  # the buzzer is a passive piezo, played with TonalBuzzer
    hold_time: float = 1.5  # seconds held that make a long press
    debounce: float = 0.03  # seconds after an accepted edge in which edges are bounce

    @classmethod
    def from_settings(cls, data: Mapping[str, Any]) -> "GpioPins":
        """Pins from settings such as ``{"button": 17, "led": 27, "buzzer": null}``."""
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        for name in ("button", "led", "buzzer"):
            value = known.get(name)
            if value is not None and (not isinstance(value, int) or not 0 <= value <= 27):
                raise ValueError(f"gpio.{name} must be a BCM pin number 0-27 or null")
        return cls(**known)


class Debouncer:
    """Turns a button's raw edges, bounce and all, into presses and long presses.

    An edge within `debounce` seconds of the last accepted edge is bounce and ignored.
    `release()` answers whether a short press just ended; `hold()` whether a long press just
    began (once per press).

        >>> t = [0.0]
        >>> d = Debouncer(0.03, clock=lambda: t[0])
        >>> d.press(); t[0] = 0.002; d.release()   # bounce: the contact opens for 2 ms
        False
        >>> d.press(); t[0] = 0.2; d.release()      # the real release
        True
    """

    def __init__(self, debounce: float, clock: Callable[[], float] = time.monotonic):
        self.debounce = debounce
        self._clock = clock
        self._lock = threading.Lock()
        self._down = False
        self._held = False
        self._last_edge = -float("inf")

    def press(self) -> None:
        """A raw press edge."""
        with self._lock:
            now = self._clock()
            if not self._down and now - self._last_edge >= self.debounce:
                self._down, self._held, self._last_edge = True, False, now

    def release(self) -> bool:
        """A raw release edge; True when it ends a short press (roll now)."""
        with self._lock:
            now = self._clock()
            if not self._down or now - self._last_edge < self.debounce:
                return False
            self._down, self._last_edge = False, now
            return not self._held

    def hold(self) -> bool:
        """The button has been held the long-press time; True the first time per press."""
        with self._lock:
            if not self._down or self._held:
                return False
            self._held = True
            return True


def raspberry_pi_model(path: str | None = None) -> str | None:
    """The board's model when this machine is a Raspberry Pi, else None.

        >>> raspberry_pi_model("/nonexistent") is None
        True
    """
    path = path or os.environ.get("SABACC_PI_MODEL_FILE") or MODEL_FILE
    try:
        with open(path, "rb") as f:
            model = f.read().decode(errors="replace").strip("\0\n ")
    except OSError:
        return None
    return model if "Raspberry Pi" in model else None


def pins_may_exist() -> bool:
    """Whether gpiozero could find pins on this machine: a pin factory already set in this
    process or named in the environment, a Raspberry Pi, or a GPIO device file. Asked without
    importing gpiozero, which costs a laptop with no GPIO 2.6 MB and some 50 ms at every start
    (measured on the benchmark's machine) to learn that it has no pins. A False here is what
    gpiozero would conclude too; a True still lets gpiozero decide.
    """
    gpiozero = sys.modules.get("gpiozero")
    if gpiozero is not None and getattr(gpiozero.Device, "pin_factory", None) is not None:
        return True
    if any(os.environ.get(name) for name in PIN_FACTORY_VARIABLES) or raspberry_pi_model() is not None:
        return True
    return any(glob.glob(pattern) for pattern in GPIO_DEVICES)


def no_lgpio_words(model: str) -> str:
    """Why a Raspberry Pi's pins are not used when its Python has no lgpio, and the way out."""
    return (f"the GPIO button, LED and buzzer are not used: gpiozero needs the lgpio library on"
            f" this {model} and this Python has none (Raspberry Pi OS: sudo apt install"
            f" python3-lgpio, then scripts/serve again; plain Debian: see hardware/pi/INSTALL.md)")


#: What the log says once on a machine with no GPIO pins.
NO_PINS_WORDS = "no GPIO pins on this machine (set GPIOZERO_PIN_FACTORY=mock to try them)"


def _say_no_gpio(message: str) -> None:
    if not _said_no_gpio.is_set():
        _said_no_gpio.set()
        log.warning("%s; the table uses the on-screen scrambler", message)


class GpioScrambler:
    """The button, LED and buzzer of the scrambler on GPIO pins (see the module's example).

    `send(entry)` receives ``{"type": "roll"}`` for each short press; `on_hold()` is called
    for each long press. `pin_factory` (a gpiozero factory) and `clock` (for the debounce)
    are for tests.
    """

    def __init__(
        self,
        pins: GpioPins,
        *,
        send: Callable[[dict], Any],
        on_hold: Callable[[], Any] | None = None,
        pin_factory=None,
        clock: Callable[[], float] = time.monotonic,
        background: str = "idle",
    ):
        from gpiozero import LED, Button, Buzzer, TonalBuzzer  # import here: optional on laptops

        self.pins = pins
        self._send = send
        self._on_hold = on_hold
        self.debouncer = Debouncer(pins.debounce, clock)
        self.button = self.led = self.buzzer = None
        self.led_player = self.beep_player = None
        try:
            with warnings.catch_warnings():
                # gpiozero warns at every pin library it tries; one line from us is enough.
                warnings.simplefilter("ignore")
                if pins.button is not None:
                    self.button = Button(pins.button, pull_up=True, bounce_time=None,
                                         hold_time=pins.hold_time, pin_factory=pin_factory)
                if pins.led is not None:
                    self.led = LED(pins.led, pin_factory=pin_factory)
                if pins.buzzer is not None:
                    self.buzzer = (TonalBuzzer(pins.buzzer, pin_factory=pin_factory) if pins.tonal
                                   else Buzzer(pins.buzzer, pin_factory=pin_factory))
        except BaseException:
            self.close()
            raise
        if self.button is not None:
            self.button.when_pressed = self._pressed
            self.button.when_released = self._released
            self.button.when_held = self._held
        # Each player drives the one device it was made for (bound here, where it exists).
        if self.led is not None:
            self.led_player = PatternPlayer(partial(_switch, self.led), LED_PATTERNS, background,
                                            "gpio-led")
        if self.buzzer is not None:
            if pins.tonal:
                self.beep_player = PatternPlayer(partial(_tone, self.buzzer), TONE_PATTERNS,
                                                 "silent", "gpio-tone")
            else:
                self.beep_player = PatternPlayer(partial(_switch, self.buzzer), BEEP_PATTERNS,
                                                 "silent", "gpio-buzz")

    # Callbacks (gpiozero's threads): debounce and post, nothing else.
    def _pressed(self) -> None:
        self.debouncer.press()

    def _released(self) -> None:
        if self.debouncer.release():
            self._send(dict(ROLL_ENTRY))

    def _held(self) -> None:
        if self.debouncer.hold() and self._on_hold is not None:
            self._on_hold()

    def show_pattern(self, led: str | None = None, beep: str | None = None) -> None:
        """Show LED pattern `led` and play beep pattern `beep` (either may be None)."""
        if led is not None and self.led_player is not None:
            self.led_player.show(led)
        if beep is not None and self.beep_player is not None:
            self.beep_player.show(beep)

    def set_background(self, led: str) -> None:
        """The LED pattern to return to after each one-off pattern (``idle`` or ``armed``)."""
        if self.led_player is not None:
            self.led_player.set_background(led)

    def close(self) -> None:
        """Release the pins (LED and buzzer end off)."""
        for player in (self.led_player, self.beep_player):
            if player is not None:
                player.close()
        for device in (self.button, self.led, self.buzzer):
            if device is not None:
                device.close()


# Outputs (run on the players' threads).
def _switch(device: Any, level: float) -> None:
    """Turn an LED or a plain buzzer on (any level above 0) or off."""
    device.value = 1 if level else 0


def _tone(buzzer: Any, hz: float) -> None:
    """Sound a tonal buzzer at `hz`, or silence it at 0."""
    if hz:
        buzzer.play(hz)
    else:
        buzzer.stop()


def open_gpio(pins: GpioPins, *, send: Callable[[dict], Any],
              on_hold: Callable[[], Any] | None = None, **kwargs) -> GpioScrambler | None:
    """The GPIO scrambler, or None (said once in the log) when this machine has no GPIO."""
    if not pins_may_exist():
        _say_no_gpio(NO_PINS_WORDS)
        return None
    from gpiozero.exc import BadPinFactory, GPIOZeroError

    try:
        return GpioScrambler(pins, send=send, on_hold=on_hold, **kwargs)
    except (GPIOZeroError, OSError) as exc:
        model = raspberry_pi_model()
        if model is not None and importlib.util.find_spec("lgpio") is None:
            _say_no_gpio(no_lgpio_words(model))  # the Pi's own pin library is what is missing
        elif model is not None and isinstance(exc, BadPinFactory):
            _say_no_gpio(f"the GPIO pins of this {model} could not be opened (may this user open"
                         f" /dev/gpiochip*? the gpio group: see hardware/pi/INSTALL.md)")
        elif isinstance(exc, BadPinFactory):
            _say_no_gpio(NO_PINS_WORDS)
        else:
            _say_no_gpio(f"the GPIO scrambler could not start ({exc})")
    return None
