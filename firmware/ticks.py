"""A millisecond clock that wraps like MicroPython's `time.ticks_ms()`.

The firmware's logic never reads the clock itself: `main.py` passes `now()` in, and the unit
tests pass their own numbers. Differences go through `diff()`, which stays right across the
wrap-around (every 2**30 ms, about 12 days), exactly as `time.ticks_diff()` does::

    >>> diff(add(PERIOD - 5, 10), PERIOD - 5)
    10
"""

import time

#: MicroPython's ticks wrap at 2**30 on every port (`time.ticks_add(0, -1)` is 2**30 - 1).
PERIOD = 1 << 30
_MASK = PERIOD - 1
_HALF = PERIOD // 2


def diff(later, earlier):
    """Signed milliseconds from `earlier` to `later`, correct across the wrap."""
    return ((later - earlier + _HALF) & _MASK) - _HALF


def add(ticks, delta):
    """The tick count `delta` milliseconds after `ticks` (delta may be negative)."""
    return (ticks + delta) & _MASK


def now():
    """The current tick count in milliseconds (wrapping at `PERIOD`)."""
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms() & _MASK
    return int(time.monotonic() * 1000) & _MASK  # CPython, for trying the logic on a laptop
