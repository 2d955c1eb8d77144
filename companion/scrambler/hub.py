"""The scrambler hub: every physical scrambler (GPIO, USB box) and the random timer, in one place.

The server builds one `Scrambler` from its settings and wires it to the table's owner::

    hub = Scrambler.from_settings(
        {"gpio": {"button": 17, "led": 27, "buzzer": 22}, "serial": "auto",
         "long_press": "timer", "timer": {"mean": 120, "min": 20, "max": 600}},
        send=lambda entry: owner.submit(entry, actor="scrambler"),
    )
    hub.start()
    ...  # for each `rolled` event of the table: hub.show(event["roll"])
    hub.close()

Inputs: a button press or a box ``PRESS`` posts ``{"type": "roll"}``; a timer firing posts
the same entry; a long press (or ``HOLD``) runs the host-chosen `long_press` action. Posted
entries go through one worker thread that calls `send`, so no GPIO or serial callback thread
ever waits for the table; a refused entry (send raises) sounds the ``error`` beep.

Outputs: `show(roll)` lights and beeps the result on every attached device,
`show_pattern(led, beep)` any named pattern. `on_screen` says whether the table needs the
on-screen scrambler (no physical one attached right now).
"""

from __future__ import annotations

import logging
import queue
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from companion.scrambler.dice import Roll
from companion.scrambler.gpio import ROLL_ENTRY, GpioPins, GpioScrambler, open_gpio
from companion.scrambler.patterns import patterns_for
from companion.scrambler.serial_box import ScramblerBox
from companion.scrambler.timer import IntervalDistribution, RandomTimer

log = logging.getLogger(__name__)

#: What a long press (GPIO) or HOLD (box) may do, chosen by the host.
LONG_PRESS_ACTIONS = ("timer", "roll", "none")


@dataclass(frozen=True)
class ScramblerSettings:
    """How the scrambler is built: GPIO pins (None: no GPIO), the box's port, the long press.

    `serial`: None for no box, ``"auto"`` to find it by USB ID 2E8A:0005, else a device path
    or pyserial URL. `long_press`: ``"timer"`` starts/stops the random timer, ``"roll"``
    rolls, ``"none"`` does nothing. `timer`: the random timer's intervals.
    """

    gpio: GpioPins | None = None
    serial: str | None = None
    long_press: str = "timer"
    timer: IntervalDistribution = field(default_factory=lambda: IntervalDistribution(120, 20, 600))

    @classmethod
    def from_settings(cls, data: Mapping[str, Any]) -> "ScramblerSettings":
        """Settings from plain JSON values; raises ValueError naming the bad setting."""
        gpio = data.get("gpio")
        if gpio is not None and not isinstance(gpio, Mapping):
            raise ValueError("gpio must be an object of BCM pin numbers, or null")
        long_press = data.get("long_press", "timer")
        if long_press not in LONG_PRESS_ACTIONS:
            raise ValueError(f"long_press must be one of {', '.join(LONG_PRESS_ACTIONS)}")
        serial = data.get("serial")
        if serial is not None and not isinstance(serial, str):
            raise ValueError("serial must be a path, 'auto', or null")
        t = data.get("timer") or {}
        try:
            timer = IntervalDistribution(float(t.get("mean", 120)), float(t.get("min", 20)),
                                         float(t.get("max", 600)))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"timer: {exc}") from None
        return cls(GpioPins.from_settings(gpio) if gpio is not None else None, serial,
                   long_press, timer)


class Scrambler:
    """Ties the GPIO scrambler, the USB box and the random timer to one `send` callable.

    `send(entry)` hands an entry to the table's owner (actor ``scrambler``). `gpio_options`
    go to `GpioScrambler` (tests pass `pin_factory` and `clock`); `box_options` to
    `ScramblerBox` (tests pass a short `backoff`); `timer_options` to `RandomTimer`.
    `on_timer(armed)` hears the random timer start and stop (e.g. to tell the phones).
    """

    def __init__(
        self,
        send: Callable[[dict], Any],
        settings: ScramblerSettings = ScramblerSettings(),
        *,
        gpio_options: Mapping[str, Any] | None = None,
        box_options: Mapping[str, Any] | None = None,
        timer_options: Mapping[str, Any] | None = None,
        on_timer: Callable[[bool], Any] | None = None,
    ):
        self.settings = settings
        self.on_timer = on_timer
        self._send = send
        self._gpio_options = dict(gpio_options or {})
        self._box_options = dict(box_options or {})
        self._queue: queue.SimpleQueue[tuple[dict, bool] | None] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self.gpio: GpioScrambler | None = None
        self.box: ScramblerBox | None = None
        self.timer = RandomTimer(settings.timer, self._timer_fired, on_change=self._timer_changed,
                                 **dict(timer_options or {}))
        self.sent = 0  # entries handed to `send` without error
        self.refused = 0  # entries `send` raised on

    @classmethod
    def from_settings(cls, data: Mapping[str, Any], send: Callable[[dict], Any],
                      **options) -> "Scrambler":
        """A hub from plain JSON settings (see `ScramblerSettings.from_settings`)."""
        return cls(send, ScramblerSettings.from_settings(data), **options)

    # --- life ------------------------------------------------------------------------------
    def start(self) -> "Scrambler":
        """Open the GPIO pins (if any), start the box's supervisor (if any) and the worker."""
        if self._worker is None:
            self._worker = threading.Thread(target=self._work, name="scrambler-hub", daemon=True)
            self._worker.start()
        if self.settings.gpio is not None and self.gpio is None:
            self.gpio = open_gpio(self.settings.gpio, send=self.post, on_hold=self.long_press,
                                  **self._gpio_options)
        if self.settings.serial is not None and self.box is None:
            path = None if self.settings.serial == "auto" else self.settings.serial
            self.box = ScramblerBox(send=self.post, on_hold=self.long_press, path=path,
                                    **self._box_options)
            self.box.start()
        return self

    def close(self) -> None:
        """Stop the timer, close the devices and the worker."""
        self.timer.stop()
        if self.gpio is not None:
            self.gpio.close()
            self.gpio = None
        if self.box is not None:
            self.box.close()
            self.box = None
        if self._worker is not None:
            self._queue.put(None)
            self._worker.join(timeout=5)
            self._worker = None

    def __enter__(self) -> "Scrambler":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    # --- inputs ----------------------------------------------------------------------------
    def post(self, entry: dict, *, beep_refusal: bool = True) -> None:
        """Queue `entry` for the table's owner (callable from any thread; never blocks).

        If the owner refuses it, the ``error`` beep sounds (unless `beep_refusal` is False).
        """
        self._queue.put((dict(entry), beep_refusal))

    def long_press(self) -> None:
        """The host-chosen long-press action (`settings.long_press`)."""
        action = self.settings.long_press
        if action == "timer":
            self.timer.toggle()
        elif action == "roll":
            self.post(ROLL_ENTRY)

    def configure_timer(self, mean: float, minimum: float, maximum: float) -> None:
        """New random-timer intervals (e.g. from the rule set's timer_mean_s/_min_s/_max_s),
        used from the next interval on. Raises ValueError unless minimum <= mean <= maximum."""
        self.timer.configure(IntervalDistribution(mean, minimum, maximum))

    def _timer_fired(self) -> None:
        # Between hands the table refuses the timer's rolls: no reason to beep at anyone.
        self.post(ROLL_ENTRY, beep_refusal=False)

    def _timer_changed(self, armed: bool) -> None:
        background = "armed" if armed else "idle"
        if self.gpio is not None:
            self.gpio.set_background(background)
        if self.box is not None:
            self.box.set_background(background)
        if self.on_timer is not None:
            self.on_timer(armed)

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            entry, beep_refusal = item
            try:
                self._send(entry)
                self.sent += 1
            except Exception as exc:  # refused (not the time to roll) or the table is gone
                self.refused += 1
                log.info("the table did not take the scrambler's %s: %s", entry.get("type"), exc)
                if beep_refusal:
                    self.show_pattern(beep="error")

    # --- outputs ---------------------------------------------------------------------------
    def show(self, roll: Roll | Mapping[str, Any]) -> None:
        """Announce a roll (a `Roll` or its JSON) on every device: shift or no shift."""
        led, beep = patterns_for(roll)
        self.show_pattern(led, beep)

    def show_pattern(self, led: str | None = None, beep: str | None = None) -> None:
        """Show LED pattern `led` and play beep pattern `beep` on every attached device."""
        if self.gpio is not None:
            self.gpio.show_pattern(led, beep)
        if self.box is not None:
            self.box.show_pattern(led, beep)

    @property
    def on_screen(self) -> bool:
        """Whether no physical scrambler is attached now (the screen's scrambler is needed)."""
        gpio = self.gpio is not None and self.gpio.button is not None
        return not gpio and not (self.box is not None and self.box.ready)

    def status(self) -> dict[str, Any]:
        """What is attached, for the host's page: GPIO, the box's state, the timer."""
        d = self.timer.distribution
        return {
            "gpio": self.gpio is not None,
            "box": self.box.state if self.box is not None else None,
            "box_firmware": (self.box.hello.get("fw") if self.box is not None else None),
            "on_screen": self.on_screen,
            "long_press": self.settings.long_press,
            "timer": {"armed": self.timer.armed, "mean": d.mean, "min": d.minimum,
                      "max": d.maximum},
        }
