"""LED and beep patterns as data, and the small player that shows them on a device.

The names are the ones the USB box understands (`firmware/PROTOCOL.md`): LED ``idle``,
``rolling``, ``shift``, ``noshift``, ``rolled``, ``armed``, ``off``; beeps ``shift``,
``noshift``, ``rolled``, ``press``, ``error``. ``rolled`` announces dice whose faces are read,
not judged for a shift (a game's `DiceSpec` says which: a card's value, a target). On the Pi the same names are played on gpiozero devices by a
`PatternPlayer`: one thread per device, so no GPIO callback ever waits for a blink.

``idle``, ``armed`` and ``off`` are *background* patterns: they last until replaced. The
others are shown once and then the player goes back to its background (``rolling`` repeats
until the result replaces it).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Callable, Mapping

from companion.scrambler.dice import Roll, spec_of

INF = math.inf


@dataclass(frozen=True)
class Pattern:
    """Steps of (level, seconds); `repeat` loops them until another pattern is shown.

    The level is 0..1 for an LED or a plain buzzer and a frequency in Hz (0: silent) for a
    passive piezo. A final step of `INF` seconds holds its level.
    """

    steps: tuple[tuple[float, float], ...]
    repeat: bool = False

    @property
    def duration(self) -> float:
        """Seconds one pass takes (infinite for a held or repeating pattern)."""
        return INF if self.repeat else sum(s for _, s in self.steps)


def _times(n: int, *steps: tuple[float, float]) -> tuple[tuple[float, float], ...]:
    return tuple(steps) * n


LED_PATTERNS: dict[str, Pattern] = {
    "off": Pattern(((0, INF),)),
    "idle": Pattern(((1, INF),)),  # steady: the scrambler is ready
    "armed": Pattern(((1, 0.1), (0, 0.9)), repeat=True),  # a heartbeat: the timer runs
    "rolling": Pattern(((1, 0.05), (0, 0.05)), repeat=True),
    "shift": Pattern(_times(3, (1, 0.1), (0, 0.1)) + ((1, 0.5),)),  # three flashes, then on
    "noshift": Pattern(((0, 0.5),)),  # a short dark pause, then back to the background
    # Two slow blinks, one per die: dice were thrown and are read on the screens.
    "rolled": Pattern(((0, 0.2), (1, 0.25), (0, 0.2), (1, 0.25))),
}
BACKGROUND_PATTERNS = frozenset({"off", "idle", "armed"})

BEEP_PATTERNS: dict[str, Pattern] = {
    "silent": Pattern(((0, INF),)),
    "press": Pattern(((1, 0.03), (0, 0))),
    "shift": Pattern(_times(3, (1, 0.12), (0, 0.08))),
    "noshift": Pattern(((1, 0.08), (0, 0))),
    "rolled": Pattern(((1, 0.05), (0, 0.1), (1, 0.05), (0, 0))),
    "error": Pattern(((1, 0.4), (0, 0))),
}

#: The same beeps as tunes for a passive piezo (Hz; within A3..A5, TonalBuzzer's default range).
TONE_PATTERNS: dict[str, Pattern] = {
    "silent": Pattern(((0, INF),)),
    "press": Pattern(((880, 0.03), (0, 0))),
    "shift": Pattern(((440, 0.12), (0, 0.06), (660, 0.12), (0, 0.06), (880, 0.25), (0, 0))),
    "noshift": Pattern(((330, 0.1), (0, 0))),
    "rolled": Pattern(((660, 0.05), (0, 0.1), (660, 0.05), (0, 0))),
    "error": Pattern(((220, 0.4), (0, 0))),
}


def patterns_for(roll: Roll | Mapping) -> tuple[str, str]:
    """The (LED, beep) pattern names that announce `roll` (a `Roll` or its JSON), as the dice
    it names (its ``trigger``: a shift trigger or a game's dice key) say.

        >>> patterns_for({"trigger": "2d6-doubles", "dice": [3, 3], "shift": True})
        ('shift', 'shift')
        >>> from companion.games import registry  # any game's dice whose faces are read
        >>> read = next(k for k, spec in registry.dice().items() if not spec.shifts and spec.led == "rolled")
        >>> patterns_for({"trigger": read, "dice": [2, 5], "shift": False})
        ('rolled', 'rolled')
    """
    if isinstance(roll, Roll):
        shift, key = roll.shift, roll.trigger.value
    else:
        shift, key = bool(roll.get("shift")), str(roll.get("trigger"))
    spec = spec_of(key)
    if spec is None:  # dice no game declares any more: say whether the record says it shifted
        return ("shift", "shift") if shift else ("noshift", "noshift")
    return spec.announce(shift)


class PatternPlayer:
    """Plays named patterns on one output through `apply(level)`, in its own thread.

    `show(name)` returns at once; a new pattern interrupts the one playing. After a
    one-off pattern the player returns to its background pattern. `wait_done()` waits until
    a one-off pattern has finished (tests use it instead of sleeping).
    """

    def __init__(self, apply: Callable[[float], None], patterns: Mapping[str, Pattern],
                 background: str, name: str = "pattern-player"):
        self._apply = apply
        self.patterns = dict(patterns)
        self._cond = threading.Condition()
        self._background = background
        self._request: str | None = background
        self._requested_at = time.monotonic()
        self._generation = 0
        self._done = threading.Event()
        self._done.set()
        self._closed = False
        self.current: str | None = None
        # Per pattern name, how late (seconds) its latest playing set an edge at worst: a busy
        # machine wakes the thread late, and a test can tell that from a wrong pattern.
        self.lateness: dict[str, float] = {}
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    @property
    def background(self) -> str:
        """The pattern shown when nothing else is."""
        return self._background

    def set_background(self, name: str) -> None:
        """Change the background; shown at once unless a one-off pattern is playing."""
        if name not in self.patterns:
            raise ValueError(f"unknown pattern {name!r}")
        with self._cond:
            self._background = name
            if self._done.is_set():  # no one-off pattern playing: show it now
                self._show_locked(name)

    def show(self, name: str) -> None:
        """Show pattern `name`, interrupting whatever is showing."""
        if name not in self.patterns:
            raise ValueError(f"unknown pattern {name!r}")
        with self._cond:
            self._show_locked(name)

    def _show_locked(self, name: str) -> None:
        self._request = name
        self._requested_at = time.monotonic()
        self._generation += 1
        if name == self._background:
            self._done.set()
        else:
            self._done.clear()
        self._cond.notify_all()

    def wait_showing(self, name: str, timeout: float | None = None) -> bool:
        """Wait until the player has started pattern `name`; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: self.current == name, timeout)

    def wait_done(self, timeout: float | None = None) -> bool:
        """Wait until no one-off pattern is playing; False on timeout."""
        return self._done.wait(timeout)

    def close(self) -> None:
        """Stop the thread and leave the output at level 0."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._closed or self._request is not None)
                name = self._request
                if self._closed or name is None:  # None only when closed: the wait saw one
                    break
                gen, since = self._generation, self._requested_at
                self._request = None
                self.current = name
                self._cond.notify_all()
            pattern = self.patterns[name]
            finished = self._play(name, pattern, gen, since)
            with self._cond:
                if finished and gen == self._generation and not self._closed:
                    # A one-off pattern ran to its end: back to the background.
                    self._request = self._background
                    self._requested_at = time.monotonic()
                    self._generation += 1
                    self._done.set()
        self._apply(0)

    def _play(self, name: str, pattern: Pattern, gen: int, since: float) -> bool:
        """Play until the end (True) or until interrupted (False); `since`: when it was asked for."""
        # Steps are timed from the pattern's start, not from each late wake-up, so that a
        # busy machine delays one edge instead of stretching the whole pattern.
        deadline = time.monotonic()
        self.lateness[name] = deadline - since
        while True:
            for level, seconds in pattern.steps:
                late = time.monotonic() - deadline
                if late > self.lateness[name]:
                    self.lateness[name] = late
                self._apply(level)
                deadline += seconds
                with self._cond:
                    if self._cond.wait_for(
                        lambda: self._closed or self._generation != gen,
                        None if seconds == INF else max(0.0, deadline - time.monotonic()),
                    ):
                        return False
            if not pattern.repeat:
                # Its end is an edge too: the background's level is set now, as late as this.
                self.lateness[name] = max(self.lateness[name], time.monotonic() - deadline)
                return True
