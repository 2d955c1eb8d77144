"""The random timer ("randomiser"): a shift at random moments, with a chosen mean.

Intervals follow an exponential distribution *truncated* to ``[minimum, maximum]``, with its
rate chosen so that the truncated mean is exactly the chosen mean. Why exponential: it is
memoryless, so however long the table has waited, the next shift is no more predictable than
before (no one can "count down" to it); the minimum keeps shifts from coming back to back,
the maximum guarantees one comes. A mean below the window's midpoint gives a falling density
(positive rate), above it a rising one (negative rate), at it the uniform distribution.

    >>> d = IntervalDistribution(mean=120, minimum=20, maximum=600)
    >>> round(d.actual_mean(), 6)
    120.0
    >>> 20 <= d.sample(0.5) <= 600
    True

The `RandomTimer` runs its own thread (or is ticked by hand), takes an injectable clock, and
only calls `on_fire` — which forwards a roll to the table's owner::

    >>> clock = FakeClock()
    >>> fired = []
    >>> t = RandomTimer(d, lambda: fired.append(clock()), clock=clock, threaded=False,
    ...                 uniform=lambda: 0.5)
    >>> t.start(); t.armed
    True
    >>> clock.advance(t.next_fire_at - clock()); t.tick()
    True
    >>> len(fired)
    1
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

log = logging.getLogger(__name__)

_SYSTEM_RANDOM = secrets.SystemRandom()


def _truncated_mean(rate: float, width: float) -> float:
    """Mean of an exponential of `rate` truncated to [0, width] (rate may be negative)."""
    x = rate * width
    if abs(x) < 1e-9:
        return width / 2
    # 1/rate - width/(e^(rate*width) - 1), written to stay finite for large |x|.
    if x > 0:
        return 1 / rate - width * math.exp(-x) / -math.expm1(-x)
    return 1 / rate - width / math.expm1(x)


@dataclass(frozen=True)
class IntervalDistribution:
    """Intervals between timer shifts: truncated exponential on [minimum, maximum] seconds."""

    mean: float
    minimum: float
    maximum: float
    rate: float = field(init=False, repr=False)  # per second; +-inf at the window's ends

    def __post_init__(self):
        if not 0 <= self.minimum <= self.mean <= self.maximum:
            raise ValueError("the timer needs 0 <= minimum <= mean <= maximum")
        width = self.maximum - self.minimum
        target = self.mean - self.minimum
        if width == 0 or target in (0, width):
            rate = math.inf if target == 0 else -math.inf
        else:
            # The truncated mean falls monotonically with the rate: bisect on it.
            lo, hi = -1.0, 1.0
            while _truncated_mean(lo, width) < target:
                lo *= 2
            while _truncated_mean(hi, width) > target:
                hi *= 2
            for _ in range(200):
                mid = (lo + hi) / 2
                if _truncated_mean(mid, width) > target:
                    lo = mid
                else:
                    hi = mid
            rate = (lo + hi) / 2
        object.__setattr__(self, "rate", rate)

    def actual_mean(self) -> float:
        """The distribution's actual mean (equals the chosen mean, up to rounding)."""
        width = self.maximum - self.minimum
        if math.isinf(self.rate) or width == 0:
            return self.minimum if self.rate > 0 or width == 0 else self.maximum
        return self.minimum + _truncated_mean(self.rate, width)

    def sample(self, u: float | None = None) -> float:
        """One interval in seconds, by inverting the CDF at `u` (uniform in [0, 1))."""
        u = _SYSTEM_RANDOM.random() if u is None else u
        width = self.maximum - self.minimum
        if width == 0 or math.isinf(self.rate):
            return self.minimum if width == 0 or self.rate > 0 else self.maximum
        x = self.rate * width
        if abs(x) < 1e-9:
            return self.minimum + u * width
        # F(y) = (1 - e^(-rate*y)) / (1 - e^(-rate*width)); solve F(y) = u.
        y = -math.log1p(u * math.expm1(-x)) / self.rate
        return min(self.maximum, max(self.minimum, self.minimum + y))


class FakeClock:
    """A clock for tests: it stands still until `advance` moves it."""

    def __init__(self, start: float = 1000.0):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move time forward by `seconds`."""
        self.now += seconds


class RandomTimer:
    """Calls `on_fire()` at random intervals drawn from `distribution` while armed.

    `clock` gives the time in seconds (monotonic); `uniform` draws the uniforms behind each
    interval (the operating system's by default). With `threaded=True` a daemon thread waits
    for each firing (on real time, so use it with `time.monotonic`); with `threaded=False`
    whoever owns the timer calls `tick()`, which fires when due — tests do this with a
    `FakeClock`. `on_fire` runs outside the timer's lock; it should only post a command.
    `on_change(armed)` hears every start and stop.
    """

    def __init__(
        self,
        distribution: IntervalDistribution,
        on_fire: Callable[[], None],
        *,
        clock: Callable[[], float] = time.monotonic,
        uniform: Callable[[], float] | None = None,
        threaded: bool = True,
        on_change: Callable[[bool], None] | None = None,
    ):
        self.distribution = distribution
        self.on_fire = on_fire
        self.on_change = on_change
        self._clock = clock
        self._uniform = uniform or _SYSTEM_RANDOM.random
        self._threaded = threaded
        self._cond = threading.Condition()
        self._armed = False
        self._next: float | None = None
        self._thread: threading.Thread | None = None
        self.fired = 0  # how many times it has fired since it was made

    @property
    def armed(self) -> bool:
        """Whether the timer is running."""
        return self._armed

    @property
    def next_fire_at(self) -> float | None:
        """When (on `clock`) it fires next, or None when stopped."""
        return self._next

    def configure(self, distribution: IntervalDistribution) -> None:
        """Use a new distribution from the next interval on."""
        with self._cond:
            self.distribution = distribution

    def start(self) -> None:
        """Arm the timer (no effect when armed already)."""
        with self._cond:
            if self._armed:
                return
            self._armed = True
            self._next = self._clock() + self.distribution.sample(self._uniform())
            if self._threaded:
                self._thread = threading.Thread(target=self._run, name="random-timer",
                                                daemon=True)
                self._thread.start()
            self._cond.notify_all()
        self._changed(True)

    def stop(self) -> None:
        """Disarm the timer (no effect when stopped already); waits for its thread."""
        with self._cond:
            if not self._armed:
                return
            self._armed = False
            self._next = None
            thread, self._thread = self._thread, None
            self._cond.notify_all()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)
        self._changed(False)

    def toggle(self) -> bool:
        """Start a stopped timer or stop a running one; returns whether it is now armed."""
        if self._armed:
            self.stop()
        else:
            self.start()
        return self._armed

    def tick(self) -> bool:
        """Fire if the timer is armed and due (then draw the next interval); True if it fired."""
        with self._cond:
            if not self._armed or self._next is None or self._clock() < self._next:
                return False
            self._next = self._clock() + self.distribution.sample(self._uniform())
            self.fired += 1
        self._fire()
        return True

    def _run(self) -> None:
        me = threading.current_thread()
        while True:
            with self._cond:
                # Armed means a next time is drawn (start() sets both under the lock).
                if not self._armed or self._next is None or self._thread is not me:
                    return
                delay = self._next - self._clock()
                if delay > 0:
                    self._cond.wait(delay)
                    continue
            self.tick()

    def _fire(self) -> None:
        try:
            self.on_fire()
        except Exception:  # a refused roll must not kill the timer
            log.exception("the random timer's roll failed")

    def _changed(self, armed: bool) -> None:
        if self.on_change is not None:
            self.on_change(armed)
