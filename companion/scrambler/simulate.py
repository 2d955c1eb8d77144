"""How often each trigger shifts: exact rates from the dice, and simulated runs of rolls.

    >>> from companion.rules.rulesets import Trigger
    >>> expected_rate(Trigger.TWO_D6_DOUBLES)
    Fraction(1, 6)
    >>> expected_rate(Trigger.D20, face=7)
    Fraction(1, 20)
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

from companion.rules.rulesets import ShiftKind, Trigger
from companion.scrambler.dice import DICE, Roller, SoftwareRoller, judge


def _all_faces(trigger: Trigger):
    count, sides = DICE[trigger]
    return itertools.product(range(1, sides + 1), repeat=count)


def expected_rate(trigger: Trigger, face: int | None = None) -> Fraction:
    """The exact chance that one roll for `trigger` shifts, counted over every outcome."""
    outcomes = list(_all_faces(trigger))
    shifts = sum(judge(trigger, f, ShiftKind.CORE, face).shift for f in outcomes)
    return Fraction(shifts, len(outcomes))


def expected_kinds(trigger: Trigger, kind: ShiftKind, face: int | None = None) -> dict[str, Fraction]:
    """The exact chance of each resolved shift kind per roll (by-symbol spreads them)."""
    outcomes = list(_all_faces(trigger))
    counts = Counter(judge(trigger, f, kind, face).kind for f in outcomes)
    return {k.value: Fraction(n, len(outcomes)) for k, n in counts.items() if k is not None}


def simulate(
    trigger: Trigger,
    rolls: int,
    *,
    kind: ShiftKind = ShiftKind.CORE,
    face: int | None = None,
    roller: Roller | None = None,
) -> dict[str, Any]:
    """Roll `rolls` times and count shifts, shift kinds and die faces (a JSON-able summary)."""
    trigger, kind = Trigger(trigger), ShiftKind(kind)
    if trigger not in DICE:
        raise ValueError(f"the {trigger} trigger rolls no dice")
    roller = roller or SoftwareRoller()
    # Count each outcome, then judge each distinct outcome once: the same answer as judging
    # every roll, several times faster for 10^5 rolls.
    outcomes = Counter(roller.dice(trigger) for _ in range(rolls))
    shifts = 0
    kinds: Counter[str] = Counter()
    faces: Counter[int] = Counter()
    for dice, n in outcomes.items():
        r = judge(trigger, dice, kind, face)
        for f in r.dice:
            faces[f] += n
        if r.kind is not None:  # a shift (a roll's kind is set exactly when it shifts)
            shifts += n
            kinds[r.kind.value] += n
    rate = expected_rate(trigger, face)
    count, sides = DICE[trigger]
    return {
        "trigger": trigger.value,
        "kind": kind.value,
        "face": face,
        "dice": f"{count}d{sides}",
        "rolls": rolls,
        "shifts": shifts,
        "expected_rate": float(rate),
        "expected_rate_fraction": f"{rate.numerator}/{rate.denominator}",
        "observed_rate": shifts / rolls if rolls else None,
        "kinds": {k: kinds.get(k, 0) for k in sorted(expected_kinds(trigger, kind, face))},
        "faces": {str(f): faces.get(f, 0) for f in range(1, sides + 1)},
    }
