"""The box's logic under CPython: protocol lines, the debounced button, the modes.

The firmware modules import each other by their top-level names (as on the Pico), so the
firmware folder goes on sys.path; none of these modules touches `machine`.
"""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from conftest import examples

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"
sys.path.insert(0, str(FIRMWARE))

import buttons  # noqa: E402
import modes  # noqa: E402
import patterns  # noqa: E402
import protocol  # noqa: E402
import ticks  # noqa: E402
from buttons import HOLD, PRESS, Button  # noqa: E402

from companion.rules.rulesets import Trigger  # noqa: E402
from companion.scrambler import dice as companion_dice  # noqa: E402


# --- protocol ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "raw, verb, fields",
    [
        ("HELLO proto=1\n", "HELLO", {"proto": 1}),
        (b"HELLO proto=1\r\n", "HELLO", {"proto": 1}),
        ("LED pattern=shift", "LED", {"pattern": "shift"}),
        ("BEEP pattern=error\r\n", "BEEP", {"pattern": "error"}),
        ("MODE mode=dice trigger=d12\n", "MODE", {"mode": "dice", "trigger": "d12"}),
        ("MODE mode=companion\n", "MODE", {"mode": "companion"}),
        ("TIMER mean=90 min=2.5 max=300 armed=1\n", "TIMER",
         {"mean": 90.0, "min": 2.5, "max": 300.0, "armed": True}),
        ("PING\n", "PING", {}),
    ],
)
def test_every_host_verb_parses_to_its_checked_fields(raw, verb, fields):
    assert protocol.parse(raw) == (verb, fields)


def test_unknown_fields_of_a_known_verb_are_ignored_for_later_versions():
    assert protocol.parse("LED pattern=idle colour=red\n") == ("LED", {"pattern": "idle"})


@pytest.mark.parametrize(
    "raw, reason",
    [
        ("\n", "verb"),                              # empty
        ("\r\n", "verb"),
        ("JUMP how=high\n", "verb"),                 # unknown verb
        ("led pattern=idle\n", "verb"),              # verbs are capitals
        ("LED pattern=idle\u00e9\n", "verb"),         # not ASCII
        (b"PING \xff\n", "verb"),
        ("LED pattern=" + "x" * 120 + "\n", "long"),  # over 120 characters
        ("LED\n", "field"),                          # required field missing
        ("LED pattern=sparkle\n", "field"),          # not a pattern
        ("LED  pattern=idle\n", "field"),            # double space
        ("LED pattern\n", "field"),                  # no '='
        ("LED pattern=\n", "field"),                 # empty value
        ("LED pattern=idle pattern=off\n", "field"),  # the same field twice
        ("MODE mode=dice trigger=timer\n", "field"),  # the timer is a mode, not a dice trigger
        ("MODE mode=poker\n", "field"),
        ("TIMER mean=-5\n", "field"),
        ("TIMER mean=1e3\n", "field"),
        ("TIMER mean=nan\n", "field"),
        ("TIMER mean=4000\n", "field"),              # over an hour
        ("TIMER armed=yes\n", "field"),
        ("HELLO proto=one\n", "field"),
    ],
)
def test_lines_the_box_cannot_act_on_give_the_protocol_reason(raw, reason):
    with pytest.raises(protocol.LineError) as caught:
        protocol.parse(raw)
    assert caught.value.reason == reason


def test_a_line_of_exactly_120_characters_is_not_too_long():
    raw = "LED pattern=idle x=" + "y" * (120 - len("LED pattern=idle x="))
    assert len(raw) == 120
    assert protocol.parse(raw + "\r\n") == ("LED", {"pattern": "idle"})


@given(st.binary(max_size=200))
def test_no_bytes_from_the_host_crash_the_parser(raw):
    try:
        verb, fields = protocol.parse(raw)
    except protocol.LineError as exc:
        assert exc.reason in ("verb", "field", "long")
    else:
        assert verb in protocol.HOST_VERBS


def test_box_lines_are_formatted_as_in_protocol_md():
    assert protocol.hello("1.0.0", "dice") == (
        "HELLO proto=1 box=sabacc-scrambler fw=1.0.0 mode=dice")
    assert protocol.line("ROLL", ("trigger", "2d6-doubles"), ("dice", (3, 3)),
                         ("shift", True)) == "ROLL trigger=2d6-doubles dice=3,3 shift=1"
    assert protocol.error("long") == "ERR reason=long"


# --- the button ----------------------------------------------------------------------------

def feed(button, levels):
    """Feed `(pressed, ms)` samples; returns the events with their times."""
    return [(t, e) for pressed, t in levels if (e := button.update(pressed, t))]


def samples(start, end, pressed, step=5):
    return [(pressed, t) for t in range(start, end, step)]


def test_a_short_press_is_reported_once_on_release():
    b = Button(debounce_ms=30, hold_ms=800)
    events = feed(b, samples(0, 100, False) + samples(100, 300, True) + samples(300, 500, False))
    assert events == [(330, PRESS)]


def test_bounce_shorter_than_the_debounce_time_is_filtered():
    b = Button(debounce_ms=30, hold_ms=800)
    bouncy = [(True, 100), (False, 103), (True, 107), (False, 110), (True, 114)]
    release = [(False, 300), (True, 304), (False, 309), (True, 311), (False, 316)]
    events = feed(b, bouncy + samples(115, 300, True) + release + samples(320, 500, False))
    assert events == [(350, PRESS)]


def test_a_glitch_while_idle_is_not_a_press():
    b = Button(debounce_ms=30, hold_ms=800)
    assert feed(b, [(True, 10), (True, 25), (False, 30)] + samples(35, 400, False)) == []


def test_a_long_press_is_one_hold_while_down_and_no_press_on_release():
    b = Button(debounce_ms=30, hold_ms=800)
    events = feed(b, samples(0, 2000, True) + samples(2000, 2200, False))
    assert events == [(830, HOLD)]


def test_debounce_and_hold_survive_the_tick_counter_wrapping():
    start = ticks.PERIOD - 400
    b = Button(debounce_ms=30, hold_ms=800, now=start)
    levels = [(True, ticks.add(start, d)) for d in range(0, 1000, 5)]
    levels += [(False, ticks.add(start, d)) for d in range(1000, 1100, 5)]
    events = feed(b, levels)
    assert events == [(ticks.add(start, 830), HOLD)]


def test_a_button_held_at_power_on_reports_nothing_until_released_once():
    b = Button(debounce_ms=30, hold_ms=800, pressed_at_start=True)
    events = feed(b, samples(0, 2000, True) + samples(2000, 2100, False)
                  + samples(2100, 2200, True) + samples(2200, 2300, False))
    assert events == [(2230, PRESS)]


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(1, 29), min_size=0, max_size=6),
       st.lists(st.integers(1, 29), min_size=0, max_size=6),
       st.integers(60, 500))
def test_any_bounce_under_the_debounce_time_gives_exactly_one_press(on_bounce, off_bounce, hold):
    """Bounces (each shorter than 30 ms) at press and release never add or lose a press.

    (The press lasts until the release has settled: at most 500 + 6 * 29 + 30 ms, under the
    800 ms of a long press.)"""
    b = Button(debounce_ms=30, hold_ms=800)
    t, levels, level = 100, [], True
    for width in on_bounce:
        levels.append((level, t))
        t, level = t + width, not level
    down_from = t
    levels += samples(down_from, down_from + hold, True, step=1)
    t, level = down_from + hold, False
    for width in off_bounce:
        levels.append((level, t))
        t, level = t + width, not level
    levels += samples(t, t + 100, False, step=1)
    assert [e for _, e in feed(b, levels)] == [PRESS]


# --- patterns --------------------------------------------------------------------------------

def test_a_one_shot_pattern_ends_at_rest_and_a_looping_one_repeats():
    p = patterns.Player()
    p.play(((1, 100), (0, 50)), False, 0)
    assert [p.value(t) for t in (0, 99, 100, 149, 150, 400)] == [1, 1, 0, 0, 0, 0]
    assert not p.playing
    p.play(((1, 100), (0, 50)), True, 0)
    assert [p.value(t) for t in (0, 120, 150, 249, 260)] == [1, 0, 1, 1, 0]


# --- the box -----------------------------------------------------------------------------------

class Outputs:
    """Records what the box does to its LED and buzzer."""

    def __init__(self):
        self.leds, self.tones = [], []

    def led(self, level):
        self.leds.append(level)

    def tone(self, freq):
        self.tones.append(freq)


class Loaded:
    """Dice that show the given faces in turn (`rand_below` gives face - 1)."""

    def __init__(self, *faces):
        self.faces = itertools.cycle(faces)

    def __call__(self, n):
        return next(self.faces) - 1


def make_box(mode="companion", faces=(3,), rand=None, **kw):
    out, sent = Outputs(), []
    box = modes.Box(out, sent.append, rand or Loaded(*faces), mode=mode, **kw)
    box.boot(0)
    return box, out, sent


def run(box, start, end, step=10):
    for t in range(start, end, step):
        box.tick(t)


def test_the_box_says_hello_at_boot_and_in_answer_to_hello():
    box, _, sent = make_box("dice")
    box.receive("HELLO proto=1\r\n", 5)
    assert sent == ["HELLO proto=1 box=sabacc-scrambler fw=1.1.0 mode=dice"] * 2


def test_ping_is_answered_and_garbage_gets_err():
    box, _, sent = make_box()
    for raw in ("PING\n", "WHAT\n", "LED pattern=rainbow\n", "LED pattern=" + "z" * 130):
        box.receive(raw, 5)
    assert sent[1:] == ["PONG", "ERR reason=verb", "ERR reason=field", "ERR reason=long"]


def test_in_companion_mode_the_box_only_reports_the_button():
    box, out, sent = make_box("companion")
    box.button(PRESS, 10)
    box.button(HOLD, 20)
    run(box, 20, 1000)
    assert sent[1:] == ["PRESS", "HOLD"]
    assert 1760 not in out.tones  # no shift beep: the companion decides what to show


def test_the_host_drives_the_led_and_the_buzzer():
    box, out, sent = make_box("companion")
    run(box, 0, 100)
    out.leds.clear()
    out.tones.clear()
    box.receive("LED pattern=shift\n", 100)
    box.receive("BEEP pattern=shift\n", 100)
    run(box, 100, 3000)
    assert out.leds[:4] == [1, 0, 1, 0]            # the shift pattern's flashing
    assert out.tones[:3] == [1760, 0, 1760]
    assert out.tones[-1] == 0                       # and then quiet
    assert sent == sent[:1]                         # nothing to answer


def test_the_host_announces_a_games_dice_to_read_with_two_blinks_and_two_chirps():
    # A Kessel Impostor's or a Coruscant target's roll (their DiceSpec's ``rolled``): the box
    # blinks once per die and chirps twice, then goes back to its idle blip.
    box, out, sent = make_box("companion")
    run(box, 0, 100)
    out.leds.clear()
    out.tones.clear()
    box.receive("LED pattern=rolled\n", 100)
    box.receive("BEEP pattern=rolled\n", 100)
    run(box, 100, 1000, step=5)
    assert out.leds[:3] == [1, 0, 1]  # from the dark between idle blips: on, off, on
    assert out.tones == [1320, 0, 1320, 0]
    assert sent == sent[:1]  # both lines understood: no ERR


def test_a_dice_mode_press_rolls_reports_and_shows_a_shift():
    box, out, sent = make_box("dice", faces=(4, 4))
    box.button(PRESS, 10)
    run(box, 10, 1200)
    assert sent[1:] == ["ROLL trigger=2d6-doubles dice=4,4 shift=1"]
    assert 2349 in out.tones  # the shift fanfare's last note


def test_a_dice_mode_press_without_a_shift_shows_no_shift():
    box, out, sent = make_box("dice", faces=(2, 5))
    box.button(PRESS, 10)
    run(box, 10, 1200)
    assert sent[1:] == ["ROLL trigger=2d6-doubles dice=2,5 shift=0"]
    assert 440 in out.tones and 1760 not in out.tones


def test_a_long_press_steps_through_every_trigger_then_the_timer_then_round_again():
    box, _, sent = make_box("dice", faces=(1,))
    seen = []
    for i in range(9):
        box.button(HOLD, 100 * i)
        seen.append("timer" if box.mode == "timer" else box.trigger)
    assert seen == ["2d6-spike", "d6-high", "d6-low", "d10", "d12", "d20", "timer",
                    "2d6-doubles", "2d6-spike"]
    assert sent[1:] == []  # choosing a trigger is silent on the line


def test_the_mode_line_switches_mode_and_trigger():
    box, _, sent = make_box("companion", faces=(20,))
    box.receive("MODE mode=dice trigger=d20\n", 10)
    box.button(PRESS, 20)
    box.receive("HELLO proto=1\n", 30)
    assert sent[1:] == ["ROLL trigger=d20 dice=20 shift=1",
                        "HELLO proto=1 box=sabacc-scrambler fw=1.1.0 mode=dice"]


def test_the_armed_timer_fires_between_min_and_max_and_reports_timer():
    box, out, sent = make_box("timer", rand=random.Random(7).randrange)
    box.receive("TIMER mean=3 min=2 max=5 armed=1\n", 0)
    fired_at = []
    for t in range(0, 30_005, 5):
        before = len(sent)
        box.tick(t)
        fired_at += [t] * (len(sent) - before)
    assert all(s == "TIMER shift=1" for s in sent[1:])
    gaps = [b - a for a, b in zip([0] + fired_at, fired_at)]
    # every wait between 2 and 5 s (to the 5 ms the loop ticks at)
    assert len(gaps) >= 6 and all(2000 <= g <= 5005 for g in gaps)
    assert 2349 in out.tones


def test_a_press_in_timer_mode_starts_and_stops_the_timer():
    box, _, sent = make_box("timer", timer=(2, 1, 3))
    box.button(PRESS, 0)
    assert box.armed and box.next_fire is not None
    box.button(PRESS, 100)
    run(box, 100, 10_000)
    assert not box.armed and not any(s.startswith("TIMER") for s in sent)


def test_impossible_timer_settings_are_refused_whole():
    box, _, sent = make_box("timer", timer=(120, 30, 300))
    box.receive("TIMER mean=10 min=20 max=300 armed=1\n", 0)   # min above mean
    box.receive("TIMER mean=0.5 min=0.2 max=1\n", 0)           # under a second
    assert sent[1:] == ["ERR reason=field", "ERR reason=field"]
    assert (box.mean, box.min, box.max, box.armed) == (120, 30, 300, False)


def test_the_timer_only_runs_in_timer_mode():
    box, _, sent = make_box("dice")
    box.receive("TIMER mean=1 min=1 max=1 armed=1\n", 0)
    run(box, 0, 5000)
    assert not any(s.startswith("TIMER") for s in sent)
    box.receive("MODE mode=timer\n", 5000)
    run(box, 5000, 7500)
    assert [s for s in sent if s.startswith("TIMER")] == ["TIMER shift=1"] * 2


@pytest.mark.parametrize("trigger", modes.DICE)
def test_the_box_judges_every_roll_as_the_companion_does(trigger):
    count, sides = modes.DICE[trigger]
    assert companion_dice.DICE[Trigger(trigger)] == (count, sides)
    for dice in itertools.product(range(1, sides + 1), repeat=count):
        assert modes.is_shift(trigger, dice) == companion_dice.is_shift(Trigger(trigger), dice)


def test_the_timer_interval_keeps_to_min_and_max_and_averages_the_mean():
    rng = random.Random(5)
    draws = [modes.interval_s(60, 20, 600, rng.randrange) for _ in range(20_000)]
    assert min(draws) >= 20 and max(draws) <= 600
    assert abs(sum(draws) / len(draws) - 60) < 1.5
    assert modes.interval_s(30, 30, 30, rng.randrange) == 30


def test_loaded_dice_cover_every_face():
    """`roll` maps rand_below(n) 0..n-1 onto faces 1..n, for every trigger."""
    for trigger, (count, sides) in modes.DICE.items():
        faces = {modes.roll(trigger, lambda n, f=f: f)[0][0] for f in range(sides)}
        assert faces == set(range(1, sides + 1))


# --- both ends of PROTOCOL.md agree -------------------------------------------------------------

def test_every_line_the_box_sends_parses_on_the_companions_side():
    from companion.scrambler.protocol import parse as companion_parse

    box, _, sent = make_box("companion", rand=random.Random(3).randrange, timer=(2, 1, 3))
    box.button(PRESS, 0)
    box.button(HOLD, 10)
    for raw in ("PING\n", "NOPE\n", "LED pattern=x\n", "LED pattern=" + "x" * 130 + "\n",
                "HELLO proto=1\n", "MODE mode=dice trigger=d12\n"):
        box.receive(raw, 20)
    box.button(PRESS, 30)
    box.receive("MODE mode=dice trigger=2d6-doubles\n", 40)
    box.button(PRESS, 50)
    box.receive("MODE mode=timer\n", 60)
    box.receive("TIMER armed=1\n", 60)
    run(box, 60, 4000)
    verbs = {companion_parse(line + "\r\n").verb for line in sent}
    assert verbs == {"HELLO", "PRESS", "HOLD", "PONG", "ERR", "ROLL", "TIMER"}


def test_every_line_the_companion_sends_parses_on_the_box():
    from companion.scrambler.protocol import format_line

    lines = [
        format_line("HELLO", proto=1),
        format_line("PING"),
        format_line("LED", pattern="armed"),
        format_line("BEEP", pattern="noshift"),
        format_line("LED", pattern="rolled"),
        format_line("BEEP", pattern="rolled"),
        format_line("MODE", mode="dice", trigger="d6-low"),
        format_line("TIMER", mean=120, min=20, max=600, armed=1),
    ]
    assert [protocol.parse(line)[0] for line in lines] == [
        "HELLO", "PING", "LED", "BEEP", "LED", "BEEP", "MODE", "TIMER"]
