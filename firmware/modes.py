"""What the box does: the dice, the random shift timer, and the `companion` mode.

`Box` holds the box's whole state. `main.py` feeds it the host's lines (`receive`), the
button's events (`button`) and the time (`tick`); it answers through two small objects it
is given: `write(line)` sends a line to the host, and `outputs` has `led(level)` and
`tone(freq)`. The random source is injected too, so the tests can load the dice::

    >>> from modes import roll
    >>> roll("2d6-doubles", lambda n: 2)     # both dice show 3
    ((3, 3), True)
    >>> roll("d20", lambda n: 4)
    ((5,), False)
"""

import math

import patterns
import protocol
import ticks
from buttons import HOLD, PRESS

FW_VERSION = "1.1.0"

#: trigger -> (number of dice, faces): the same table as companion/scrambler/dice.py.
DICE = {
    "2d6-doubles": (2, 6),
    "2d6-spike": (2, 6),
    "d6-high": (1, 6),
    "d6-low": (1, 6),
    "d10": (1, 10),
    "d12": (1, 12),
    "d20": (1, 20),
}

#: The face that shifts when nothing else is chosen, as in the companion: the spike symbol
#: is on face 1, and a d10/d12/d20 shifts on its highest face.
DEFAULT_FACE = {"2d6-spike": 1, "d10": 10, "d12": 12, "d20": 20}

#: What a long press steps through when the box plays by itself: every dice trigger, then
#: the random timer, then round again.
CYCLE = protocol.DICE_TRIGGERS + ("timer",)

#: The timer refuses intervals shorter than this: a shift every few ms is no game.
MIN_INTERVAL_S = 1


def is_shift(trigger, dice, face=None):
    """Whether `dice` rolled for `trigger` make a shift (RULES.md, "Variants")."""
    if face is None:
        face = DEFAULT_FACE.get(trigger)
    if trigger == "2d6-doubles":
        return dice[0] == dice[1]
    if trigger == "2d6-spike":
        return dice[0] == dice[1] == face
    if trigger == "d6-high":
        return dice[0] >= 4
    if trigger == "d6-low":
        return dice[0] <= 3
    return dice[0] == face


def roll(trigger, rand_below, face=None):
    """Roll the dice `trigger` uses with `rand_below(n)` (0..n-1); returns (dice, shift)."""
    count, sides = DICE[trigger]
    dice = tuple([rand_below(sides) + 1 for _ in range(count)])
    return dice, is_shift(trigger, dice, face)


def interval_s(mean, lowest, highest, rand_below):
    """Seconds until the random timer's next shift.

    The minimum plus an exponential wait whose mean is `mean - lowest` (shifts come without
    a rhythm players could learn), drawn again while it exceeds the maximum; so the average
    is `mean` whenever the maximum is well above it.
    """
    span = mean - lowest
    if span <= 0:
        return lowest
    for _ in range(32):
        u = (rand_below(1 << 24) + 1) / (1 << 24)  # in (0, 1], so log(u) is finite
        wait = lowest - span * math.log(u)
        if wait <= highest:
            return wait
    return highest


def valid_timer(mean, lowest, highest):
    """Whether the timer settings make sense: MIN_INTERVAL_S <= min <= mean <= max."""
    return MIN_INTERVAL_S <= lowest <= mean <= highest


class Box:
    """The scrambler box: modes, dice, timer, and the LED and buzzer it drives."""

    def __init__(self, outputs, write, rand_below, mode="companion", trigger="2d6-doubles",
                 timer=(120, 30, 300), now=0):
        if mode not in protocol.MODES or trigger not in DICE or not valid_timer(*timer):
            raise ValueError("bad settings: mode %s, trigger %s, timer %s" % (mode, trigger, timer))
        self.outputs = outputs
        self.write = write
        self.rand_below = rand_below
        self.mode = mode
        self.trigger = trigger
        self.mean, self.min, self.max = timer
        self.armed = False
        self.next_fire = None  # tick of the timer's next shift while it runs
        self._led = patterns.Player()
        self._beep = patterns.Player()
        self._base = "idle"  # the looping LED pattern to return to
        self._led_level = None
        self._tone = None
        self._led.play(patterns.LED["idle"][0], True, now)

    # --- what comes in -------------------------------------------------------------

    def boot(self, now):
        """Say hello, as the box does at power-on."""
        self.write(protocol.hello(FW_VERSION, self.mode))
        self.tick(now)

    def receive(self, raw, now):
        """Act on one line from the host; answers `ERR` for a line it cannot parse."""
        try:
            verb, fields = protocol.parse(raw)
            if verb == "TIMER":
                self._set_timer(fields, now)
        except protocol.LineError as exc:
            self.write(protocol.error(exc.reason))
            return
        if verb == "HELLO":
            self.write(protocol.hello(FW_VERSION, self.mode))
        elif verb == "PING":
            self.write("PONG")
        elif verb == "LED":
            self.show(fields["pattern"], now)
        elif verb == "BEEP":
            self.beep(fields["pattern"], now)
        elif verb == "MODE":
            self.trigger = fields.get("trigger", self.trigger)
            self._enter(fields["mode"], now)

    def button(self, event, now):
        """Act on a debounced button event (`PRESS` or `HOLD`)."""
        if self.mode == "companion":
            # The companion decides what a press means and what the box shows.
            self.write(event)
        elif event == HOLD:
            self._next_trigger(now)
        elif self.mode == "dice":
            self._roll(now)
        else:  # timer mode: a press starts or stops the timer
            self._arm(not self.armed, now)
            self.beep("press", now)

    def tick(self, now):
        """Fire the timer when due and bring the LED and buzzer up to date."""
        if self.mode == "timer" and self.armed and self.next_fire is not None:
            if ticks.diff(now, self.next_fire) >= 0:
                self.write(protocol.line("TIMER", ("shift", 1)))
                self.show("shift", now)
                self.beep("shift", now)
                self._schedule(now)
        if not self._led.playing:
            self.show(self._base, now)
        self._output(self._led.value(now), self._beep.value(now))

    # --- what goes out ---------------------------------------------------------------

    def show(self, pattern, now):
        """Show an LED pattern; a looping one also becomes what the LED returns to."""
        steps, loops = patterns.LED[pattern]
        if loops:
            self._base = pattern
        self._led.play(steps, loops, now)

    def beep(self, pattern, now):
        """Play a beep pattern."""
        self._beep.play(patterns.BEEP[pattern], False, now)

    def _output(self, level, freq):
        # Only touch the pins on a change: PWM frequency writes restart the waveform.
        if level != self._led_level:
            self._led_level = level
            self.outputs.led(level)
        if freq != self._tone:
            self._tone = freq
            self.outputs.tone(freq)

    # --- the modes -----------------------------------------------------------------------

    def _roll(self, now):
        dice, shift = roll(self.trigger, self.rand_below)
        self.write(protocol.line("ROLL", ("trigger", self.trigger), ("dice", dice),
                                 ("shift", shift)))
        self.show("shift" if shift else "noshift", now)
        self.beep("shift" if shift else "noshift", now)

    def _next_trigger(self, now):
        current = "timer" if self.mode == "timer" else self.trigger
        chosen = CYCLE[(CYCLE.index(current) + 1) % len(CYCLE)]
        if chosen == "timer":
            self._enter("timer", now)
        else:
            self.trigger = chosen
            self._enter("dice", now)
        # Blink the chosen entry's place in the cycle: 1 = 2d6-doubles ... 8 = timer.
        self._led.play(patterns.blinks(CYCLE.index(chosen) + 1), False, now)
        self.beep("press", now)

    def _enter(self, mode, now):
        self.mode = mode
        if mode == "timer":
            self._arm(self.armed, now)
        else:
            self.next_fire = None
            self.show("idle", now)

    def _arm(self, armed, now):
        self.armed = armed
        if armed and self.mode == "timer":
            self._schedule(now)
            self.show("armed", now)
        else:
            self.next_fire = None
            if self.mode == "timer":
                self.show("idle", now)

    def _schedule(self, now):
        wait = interval_s(self.mean, self.min, self.max, self.rand_below)
        self.next_fire = ticks.add(now, int(wait * 1000))

    def _set_timer(self, fields, now):
        mean = fields.get("mean", self.mean)
        lowest = fields.get("min", self.min)
        highest = fields.get("max", self.max)
        if not valid_timer(mean, lowest, highest):
            raise protocol.LineError("field")
        changed = (mean, lowest, highest) != (self.mean, self.min, self.max)
        self.mean, self.min, self.max = mean, lowest, highest
        armed = fields.get("armed", self.armed)
        if armed != self.armed or (changed and armed):
            self._arm(armed, now)
