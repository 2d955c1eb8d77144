"""The random timer: intervals within [min, max] with the chosen mean, start/stop/armed, and
firing on a fake clock (no sleeps) and on its own thread (waited for with events)."""

from __future__ import annotations

import math
import secrets
import statistics
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.scrambler.timer import FakeClock, IntervalDistribution, RandomTimer

SETTINGS = [(120, 20, 600), (50, 20, 60), (30, 20, 40), (21, 20, 600), (400, 20, 600)]


def integrated_mean(d: IntervalDistribution, steps: int = 20_000) -> float:
    """The mean of the sampled intervals, integrated over the quantile function."""
    return sum(d.sample((i + 0.5) / steps) for i in range(steps)) / steps


@pytest.mark.parametrize("mean,lo,hi", SETTINGS)
def test_intervals_have_the_chosen_mean(mean, lo, hi):
    d = IntervalDistribution(mean, lo, hi)
    assert integrated_mean(d) == pytest.approx(mean, rel=1e-3)


@pytest.mark.parametrize("mean,lo,hi", SETTINGS)
def test_operating_system_random_intervals_average_the_chosen_mean(mean, lo, hi):
    d = IntervalDistribution(mean, lo, hi)
    xs = [d.sample() for _ in range(20_000)]
    sd = statistics.pstdev(xs)
    assert abs(statistics.fmean(xs) - mean) < 5 * sd / math.sqrt(len(xs))  # 5 sigma


@given(st.floats(0, 1, exclude_max=True))
@settings(deadline=None)  # no timing bound: on an emulated Pi one case took 523 ms, then 9 ms
def test_every_interval_lies_between_min_and_max(u):
    for mean, lo, hi in SETTINGS:
        assert lo <= IntervalDistribution(mean, lo, hi).sample(u) <= hi


def test_a_mean_below_the_middle_is_exponential_falling_from_the_minimum():
    d = IntervalDistribution(120, 20, 600)
    assert d.rate > 0
    # Memoryless within the window: waiting 100 s changes nothing about the next 100 s.
    survive = lambda t: 1 - (1 - math.exp(-d.rate * (t - 20))) / (1 - math.exp(-d.rate * 580))
    p_first = 1 - survive(120)
    assert d.sample(p_first) == pytest.approx(120, abs=1e-6)
    median = d.sample(0.5)
    assert 20 < median < 120  # skewed: most shifts come sooner than the mean


def test_the_mean_at_the_middle_is_the_uniform_distribution():
    d = IntervalDistribution(30, 20, 40)
    assert d.sample(0.25) == pytest.approx(25, abs=1e-6)


@pytest.mark.parametrize("mean,lo,hi,expected", [(20, 20, 600, 20), (600, 20, 600, 600),
                                                 (10, 10, 10, 10)])
def test_a_mean_at_either_end_of_the_window_fixes_the_interval(mean, lo, hi, expected):
    assert IntervalDistribution(mean, lo, hi).sample(0.7) == expected


@pytest.mark.parametrize("mean,lo,hi", [(10, 20, 600), (700, 20, 600), (5, -1, 10)])
def test_a_mean_outside_the_window_is_refused(mean, lo, hi):
    with pytest.raises(ValueError):
        IntervalDistribution(mean, lo, hi)


def make_timer(clock, uniform=0.5, fired=None, changes=None):
    fired = [] if fired is None else fired
    return RandomTimer(IntervalDistribution(120, 20, 600), lambda: fired.append(clock()),
                       clock=clock, threaded=False, uniform=lambda: uniform,
                       on_change=None if changes is None else changes.append)


def test_the_timer_fires_when_its_interval_is_up_and_not_before():
    clock, fired = FakeClock(), []
    t = make_timer(clock, fired=fired)
    t.start()
    interval = t.next_fire_at - clock()
    assert interval == pytest.approx(IntervalDistribution(120, 20, 600).sample(0.5))
    clock.advance(interval - 0.001)
    assert not t.tick() and fired == []
    clock.advance(0.001)
    assert t.tick() and fired == [clock()]
    assert t.next_fire_at == pytest.approx(clock() + interval)  # the next interval is drawn


def test_a_stopped_timer_never_fires():
    clock, fired, changes = FakeClock(), [], []
    t = make_timer(clock, fired=fired, changes=changes)
    t.start()
    assert t.armed
    t.stop()
    clock.advance(10_000)
    assert not t.armed and not t.tick() and fired == [] and t.next_fire_at is None
    assert changes == [True, False]


def test_toggle_arms_and_disarms():
    clock = FakeClock()
    t = make_timer(clock)
    assert t.toggle() is True and t.armed
    assert t.toggle() is False and not t.armed


def test_a_failing_roll_does_not_stop_the_timer():
    clock = FakeClock()

    def refuse():
        raise RuntimeError("not now")

    t = RandomTimer(IntervalDistribution(30, 20, 40), refuse, clock=clock, threaded=False,
                    uniform=lambda: 0.0)
    t.start()
    clock.advance(20)
    assert t.tick() and t.armed and t.fired == 1


def test_over_an_evening_the_fake_clock_sees_the_chosen_mean():
    clock, fired = FakeClock(0), []
    t = RandomTimer(IntervalDistribution(120, 20, 600), lambda: fired.append(clock()),
                    clock=clock, threaded=False, uniform=secrets.SystemRandom().random)
    t.start()
    while len(fired) < 3000:
        clock.advance(t.next_fire_at - clock())
        t.tick()
    gaps = [b - a for a, b in zip(fired, fired[1:])]
    assert min(gaps) >= 20 and max(gaps) <= 600
    assert statistics.fmean(gaps) == pytest.approx(120, rel=0.1)


def test_the_threaded_timer_fires_on_its_own_and_stops():
    hits = threading.Semaphore(0)
    t = RandomTimer(IntervalDistribution(0.03, 0.01, 0.1), hits.release)
    t.start()
    try:
        assert all(hits.acquire(timeout=5) for _ in range(3))  # three firings, no sleeps
    finally:
        t.stop()
    count = t.fired
    assert not t.armed
    for _ in range(count - 3):  # firings between the third and stop()
        assert hits.acquire(timeout=1)
    # Armed, it fires at least every 0.1 s: 0.3 s of silence means it stopped.
    assert not hits.acquire(timeout=0.3) and t.fired == count


def test_the_documented_examples_hold():
    import doctest

    import companion.scrambler.timer as timer_module

    result = doctest.testmod(timer_module)
    assert result.attempted > 0 and result.failed == 0


def test_the_hub_takes_the_rule_sets_timer_settings():
    from companion.games.classic.presets import PRESETS
    from companion.scrambler.hub import Scrambler

    rs = PRESETS["classic"]
    hub = Scrambler(lambda e: None, timer_options={"threaded": False, "clock": FakeClock()})
    hub.configure_timer(rs.timer_mean_s, rs.timer_min_s, rs.timer_max_s)
    assert hub.timer.distribution.actual_mean() == pytest.approx(rs.timer_mean_s)
    with pytest.raises(ValueError):
        hub.configure_timer(5, 10, 20)
