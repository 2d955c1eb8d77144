"""How often each trigger shifts and each face of a game's dice comes up: exact chances from
the dice, and simulated runs of rolls.

    >>> from companion.rules.rulesets import Trigger
    >>> expected_rate(Trigger.TWO_D6_DOUBLES)
    Fraction(1, 6)
    >>> expected_rate(Trigger.D20, face=7)
    Fraction(1, 20)
    >>> from companion.games.api import DiceSpec, Die
    >>> expected_faces(DiceSpec("coin", "the coin", (Die("coin", ("heads", "heads", "tails")),), "who starts"))
    [{'heads': Fraction(2, 3), 'tails': Fraction(1, 3)}]
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

from companion.games.api import DiceSpec
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


def expected_faces(spec: DiceSpec) -> list[dict[str, Fraction]]:
    """Per die of `spec`, the exact chance of each face's words (a word on two faces: twice)."""
    out = []
    for die in spec.dice:
        counts = Counter(die.faces)
        out.append({word: Fraction(n, die.sides) for word, n in counts.items()})
    return out


def simulate_dice(
    spec: DiceSpec,
    rolls: int,
    *,
    kind: ShiftKind = ShiftKind.CORE,
    face: int | None = None,
    roller: Roller | None = None,
) -> dict[str, Any]:
    """Roll a game's dice `rolls` times and count each die's faces in the dice's own words,
    beside their exact chances (a JSON-able summary). Shift dice also count their shifts as
    `simulate` does (with `kind` and `face`)."""
    if spec.count == 0:
        raise ValueError(f"{spec.name} throw no dice")
    roller = roller or SoftwareRoller()
    outcomes = Counter(roller.dice(spec) for _ in range(rolls))
    seen: list[Counter[str]] = [Counter() for _ in spec.dice]
    for dice, n in outcomes.items():
        for counter, word in zip(seen, spec.read(dice)):
            counter[word] += n
    out: dict[str, Any] = {
        "dice": spec.key,
        "name": spec.name,
        "means": spec.means,
        "shape": f"{spec.count}d{spec.sides}",
        "rolls": rolls,
        "announce": list(spec.announce(False)) if not spec.shifts else ["shift", "noshift"],
        "faces": [
            {"die": die.name,
             "counts": {word: seen[i].get(word, 0) for word in chances},
             "expected": {word: float(p) for word, p in chances.items()}}
            for i, (die, chances) in enumerate(zip(spec.dice, expected_faces(spec)))
        ],
    }
    if spec.shifts and spec.key in {t.value for t in DICE}:
        trigger = Trigger(spec.key)
        shifts = sum(n for dice, n in outcomes.items() if judge(trigger, dice, kind, face).shift)
        rate = expected_rate(trigger, face)
        out.update(shifts=shifts, expected_rate=float(rate), observed_rate=shifts / rolls if rolls else None,
                   expected_rate_fraction=f"{rate.numerator}/{rate.denominator}")
    return out
