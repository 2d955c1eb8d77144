"""The LED and buzzer patterns, as data, and a player that needs no timers or threads.

A pattern is a tuple of `(value, ms)` steps: for the LED the value is 0 or 1, for the
buzzer a frequency in Hz (0 is silence). Looping patterns repeat until replaced; the others
play once and then the LED falls back to the last looping pattern (the *base*).
"""

import ticks

#: name -> (steps, loops)
LED = {
    "idle": (((1, 40), (0, 2960)), True),          # a short blip: the box is alive
    "rolling": (((1, 80), (0, 80)), True),         # fast flicker while the host rolls
    "shift": (((1, 120), (0, 80)) * 6 + ((1, 2000),), False),  # flashing, then on: shift!
    "noshift": (((1, 600),), False),               # one calm glow
    "rolled": (((0, 200), (1, 250), (0, 200), (1, 250)), False),  # two blinks: dice to read
    "armed": (((1, 80), (0, 120), (1, 80), (0, 1220)), True),  # double blink: timer runs
    "off": (((0, 1000),), True),
}

BEEP = {
    "shift": ((1760, 120), (0, 60), (1760, 120), (0, 60), (2349, 320)),
    "noshift": ((440, 150),),
    "rolled": ((1320, 50), (0, 100), (1320, 50)),
    "press": ((2000, 25),),
    "error": ((220, 250), (0, 100), (220, 250)),
}


def blinks(count):
    """A one-shot LED pattern of `count` blinks (how the box shows a chosen trigger)."""
    return ((0, 300),) + ((1, 150), (0, 250)) * count


class Player:
    """Plays one pattern at a time; `value(now)` says what the output should be now."""

    def __init__(self, rest=0):
        self.rest = rest  # the value once a one-shot pattern is over
        self._steps = None
        self._loops = False
        self._start = 0
        self._total = 0

    def play(self, steps, loops, now):
        """Start `steps` at `now` (replacing whatever played)."""
        self._steps = steps
        self._loops = loops
        self._start = now
        self._total = 0
        for step in steps:
            self._total += step[1]

    @property
    def playing(self):
        """Whether a pattern is still playing (a looping one always is)."""
        return self._steps is not None

    def value(self, now):
        """The output value at `now`; a finished one-shot pattern stops and gives `rest`."""
        if self._steps is None:
            return self.rest
        elapsed = ticks.diff(now, self._start)
        if elapsed >= self._total:
            if not self._loops or self._total <= 0:
                self._steps = None
                return self.rest
            elapsed %= self._total
        for step in self._steps:
            if elapsed < step[1]:
                return step[0]
            elapsed -= step[1]
        return self.rest
