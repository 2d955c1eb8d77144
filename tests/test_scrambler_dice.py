"""The shift engine: every trigger shifts at the rate RULES.md gives, every kind resolves, and
the dice are fair — checked by chi-square over 10^5 rolls of both rollers."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.rulesets import ShiftKind, Trigger
from companion.scrambler.dice import DICE, SoftwareRoller, judge, roll
from companion.scrambler.seed import SeededRoller
from companion.scrambler.simulate import expected_kinds, expected_rate, simulate

ROLLS = 100_000
# The shift rates RULES.md states for each trigger (with the default face where one is chosen).
RULES_RATES = {
    Trigger.TWO_D6_DOUBLES: Fraction(1, 6),
    Trigger.TWO_D6_ONE_FACE: Fraction(1, 36),
    Trigger.D6_HIGH: Fraction(1, 2),
    Trigger.D6_LOW: Fraction(1, 2),
    Trigger.D10: Fraction(1, 10),
    Trigger.D12: Fraction(1, 12),
    Trigger.D20: Fraction(1, 20),
}
FIXED_SEED = "5eed" * 16  # a fixed seed makes the SeededRoller runs reproducible


def chi2_pvalue(x: float, dof: int) -> float:
    """P(a chi-square variable with `dof` degrees of freedom exceeds `x`), in closed form."""
    h = x / 2
    if dof % 2 == 0:
        return math.exp(-h) * sum(h**i / math.factorial(i) for i in range(dof // 2))
    return math.erfc(math.sqrt(h)) + math.exp(-h) * sum(
        h ** (i + 0.5) / math.gamma(i + 1.5) for i in range((dof - 1) // 2))


def chi2_bound(dof: int, p: float = 1e-6) -> float:
    """The chi-square value exceeded with probability `p`: a fair run fails about once in 10^6."""
    lo, hi = 0.0, 1000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if chi2_pvalue(mid, dof) > p else (lo, mid)
    return lo


def chi2(observed: list[int], expected: list[float]) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected))


def test_chi2_bound_matches_the_table_values():
    # Published critical values: 3.841 (1 dof, 5%), 11.070 (5 dof, 5%), 23.928 (1 dof, 1e-6).
    assert chi2_bound(1, 0.05) == pytest.approx(3.841, abs=1e-3)
    assert chi2_bound(5, 0.05) == pytest.approx(11.070, abs=1e-3)
    assert chi2_bound(2, 0.01) == pytest.approx(9.210, abs=1e-3)
    assert chi2_bound(1) == pytest.approx(23.928, abs=1e-2)


@pytest.mark.parametrize("trigger", list(RULES_RATES))
def test_each_trigger_shifts_at_the_rate_the_rules_give(trigger):
    assert expected_rate(trigger) == RULES_RATES[trigger]


@pytest.mark.parametrize("trigger,face", [(Trigger.D10, 3), (Trigger.D12, 1), (Trigger.D20, 7),
                                          (Trigger.TWO_D6_ONE_FACE, 6)])
def test_a_chosen_face_shifts_as_often_as_the_default(trigger, face):
    assert expected_rate(trigger, face) == RULES_RATES[trigger]
    assert judge(trigger, (face,) * DICE[trigger][0], ShiftKind.CORE, face).shift


def test_two_d6_doubles_shift_on_any_double_only():
    assert judge(Trigger.TWO_D6_DOUBLES, (2, 2), ShiftKind.CORE).shift
    assert not judge(Trigger.TWO_D6_DOUBLES, (2, 3), ShiftKind.CORE).shift


def test_spike_shifts_only_on_the_double_spike_face():
    assert judge(Trigger.TWO_D6_ONE_FACE, (1, 1), ShiftKind.CORE).shift
    assert not judge(Trigger.TWO_D6_ONE_FACE, (4, 4), ShiftKind.CORE).shift


def test_d6_high_shifts_on_4_to_6_and_d6_low_on_1_to_3():
    assert [judge(Trigger.D6_HIGH, (f,), ShiftKind.CORE).shift for f in range(1, 7)] == [
        False, False, False, True, True, True]
    assert [judge(Trigger.D6_LOW, (f,), ShiftKind.CORE).shift for f in range(1, 7)] == [
        True, True, True, False, False, False]


@pytest.mark.parametrize("kind", [ShiftKind.CORE, ShiftKind.RIM, ShiftKind.WILD])
def test_a_fixed_shift_kind_is_the_kind_of_every_shift(kind):
    assert judge(Trigger.TWO_D6_DOUBLES, (5, 5), kind).kind is kind
    assert judge(Trigger.D20, (20,), kind).kind is kind
    assert judge(Trigger.TWO_D6_DOUBLES, (5, 6), kind).kind is None


@pytest.mark.parametrize("face,kind", [(1, "core"), (2, "core"), (3, "rim"), (4, "rim"),
                                       (5, "wild"), (6, "wild")])
def test_by_symbol_the_doubled_face_picks_the_kind(face, kind):
    r = judge(Trigger.TWO_D6_DOUBLES, (face, face), ShiftKind.BY_SYMBOL)
    assert r.shift and r.kind.value == kind


def test_by_symbol_spreads_doubles_evenly_over_the_three_kinds():
    kinds = expected_kinds(Trigger.TWO_D6_DOUBLES, ShiftKind.BY_SYMBOL)
    assert kinds == {"core": Fraction(1, 18), "rim": Fraction(1, 18), "wild": Fraction(1, 18)}


def test_the_timer_always_shifts_and_rolls_no_dice():
    r = roll(SoftwareRoller(), Trigger.TIMER, ShiftKind.WILD)
    assert r.dice == () and r.shift and r.kind is ShiftKind.WILD


def test_the_roll_shows_its_dice_faces():
    r = judge(Trigger.TWO_D6_DOUBLES, (3, 3), ShiftKind.BY_SYMBOL)
    assert r.to_json() == {"trigger": "2d6-doubles", "dice": [3, 3], "shift": True, "kind": "rim"}


@given(st.sampled_from(list(DICE)), st.lists(st.integers(-2, 25), min_size=0, max_size=3))
def test_judge_refuses_faces_the_dice_cannot_show(trigger, faces):
    count, sides = DICE[trigger]
    valid = len(faces) == count and all(1 <= f <= sides for f in faces)
    if valid:
        assert judge(trigger, tuple(faces), ShiftKind.CORE).dice == tuple(faces)
    else:
        with pytest.raises(ValueError):
            judge(trigger, tuple(faces), ShiftKind.CORE)


def _check_run(summary: dict, trigger: Trigger) -> None:
    n, p = summary["rolls"], float(RULES_RATES[trigger])
    shifts = summary["shifts"]
    assert chi2([shifts, n - shifts], [n * p, n * (1 - p)]) < chi2_bound(1), summary
    count, sides = DICE[trigger]
    faces = [summary["faces"][str(f)] for f in range(1, sides + 1)]
    assert sum(faces) == n * count
    assert chi2(faces, [n * count / sides] * sides) < chi2_bound(sides - 1), summary


@pytest.mark.slow
@pytest.mark.parametrize("trigger", list(RULES_RATES))
def test_software_roller_shift_rate_and_faces_pass_chi_square(trigger):
    _check_run(simulate(trigger, ROLLS, roller=SoftwareRoller()), trigger)


@pytest.mark.slow
@pytest.mark.parametrize("trigger", list(RULES_RATES))
def test_seeded_roller_shift_rate_and_faces_pass_chi_square(trigger):
    _check_run(simulate(trigger, ROLLS, roller=SeededRoller(FIXED_SEED)), trigger)


def test_by_symbol_kinds_are_even_over_many_seeded_rolls():
    s = simulate(Trigger.TWO_D6_DOUBLES, 30_000, kind=ShiftKind.BY_SYMBOL,
                 roller=SeededRoller(FIXED_SEED))
    counts = [s["kinds"][k] for k in ("core", "rim", "wild")]
    assert sum(counts) == s["shifts"]
    assert chi2(counts, [s["shifts"] / 3] * 3) < chi2_bound(2)


class _LoadedDie:
    """A d6 that never shows 6 (a crooked roller the statistics test must catch)."""

    def __init__(self):
        self._inner = SeededRoller(FIXED_SEED)

    def dice(self, trigger):
        return tuple(min(f, 5) for f in self._inner.dice(trigger))


def test_the_chi_square_check_catches_a_loaded_die():
    with pytest.raises(AssertionError):
        _check_run(simulate(Trigger.D6_HIGH, 20_000, roller=_LoadedDie()), Trigger.D6_HIGH)


def test_simulate_counts_shifts_as_the_dice_judge_them():
    s = simulate(Trigger.D6_LOW, 600, roller=SeededRoller(FIXED_SEED))
    faces = Counter({int(k): v for k, v in s["faces"].items()})
    assert s["shifts"] == faces[1] + faces[2] + faces[3]
    assert s["observed_rate"] == s["shifts"] / 600
