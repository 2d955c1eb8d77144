"""Debounce and long-press detection for the box's one button.

A real switch bounces for a few milliseconds on each press and release, so the raw level
must stay the same for `debounce_ms` before it counts. A press held for `hold_ms` is a
long press (`HOLD`, reported once, while the button is still down); a shorter one is a
short press (`PRESS`, reported on release, so that a long press never also rolls)::

    >>> b = Button(debounce_ms=20, hold_ms=800)
    >>> [b.update(True, t) for t in (0, 25)]       # down, stable after 20 ms
    [None, None]
    >>> [b.update(False, t) for t in (100, 125)]   # released 100 ms later
    [None, 'PRESS']

The caller passes the level and the time in (see `ticks`): no clock, no pins in here.
"""

import ticks

PRESS = "PRESS"
HOLD = "HOLD"


class Button:
    """The state machine of a push button; feed it `update(pressed, now)` every few ms."""

    def __init__(self, debounce_ms=30, hold_ms=800, pressed_at_start=False, now=0):
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms
        self._raw = pressed_at_start
        self._raw_since = now
        self._down = pressed_at_start
        self._down_since = now
        self._held = False
        # A button already down at power-on (held to pick a boot mode) reports nothing
        # until it has been released once.
        self._ignore = pressed_at_start

    @property
    def down(self):
        """Whether the button is pressed, after debouncing."""
        return self._down

    def update(self, pressed, now):
        """Take the raw level at `now`; returns `PRESS`, `HOLD` or None."""
        pressed = bool(pressed)
        if pressed != self._raw:
            self._raw = pressed
            self._raw_since = now
        if pressed != self._down and ticks.diff(now, self._raw_since) >= self.debounce_ms:
            self._down = pressed
            if pressed:
                self._down_since = now
                self._held = False
                return None
            was_held, ignored = self._held, self._ignore
            self._ignore = False
            if was_held or ignored:
                return None
            return PRESS
        if (self._down and not self._held and not self._ignore
                and ticks.diff(now, self._down_since) >= self.hold_ms):
            self._held = True
            return HOLD
        return None
