"""The scrambler's dice: what each trigger rolls and when a roll is a shift.

This is the one roll interface of the project. The live table asks a `Roller` for a `Roll`
at the moments its rule set names; the GPIO button, the USB box and the on-screen scrambler
all end up here. The default roller draws from the operating system (`secrets`)::

    >>> from companion.rules.rulesets import Trigger, ShiftKind
    >>> judge(Trigger.TWO_D6_DOUBLES, (4, 4), ShiftKind.BY_SYMBOL).kind
    <ShiftKind.RIM: 'rim'>
    >>> judge(Trigger.D6_LOW, (5,), ShiftKind.CORE).shift
    False
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Protocol

from companion.rules.rulesets import DEFAULT_FACE, ShiftKind, Trigger

#: Faces of the die (and how many dice) each trigger rolls. The timer rolls no dice.
DICE: dict[Trigger, tuple[int, int]] = {
    Trigger.TWO_D6_DOUBLES: (2, 6),
    Trigger.TWO_D6_SPIKE: (2, 6),
    Trigger.D6_HIGH: (1, 6),
    Trigger.D6_LOW: (1, 6),
    Trigger.D10: (1, 10),
    Trigger.D12: (1, 12),
    Trigger.D20: (1, 20),
}

#: by-symbol shifts: the doubled (or single) die face picks the kind.
SYMBOL_KIND = {1: ShiftKind.CORE, 2: ShiftKind.CORE, 3: ShiftKind.RIM, 4: ShiftKind.RIM,
               5: ShiftKind.WILD, 6: ShiftKind.WILD}


@dataclass(frozen=True)
class Roll:
    """One roll of the scrambler: the dice faces, whether it shifts, and the shift's kind."""

    trigger: Trigger
    dice: tuple[int, ...]
    shift: bool
    kind: ShiftKind | None  # the resolved kind (never by-symbol) when `shift`, else None

    def to_json(self) -> dict:
        """The roll as recorded in the ledger and sent to the phones."""
        return {
            "trigger": self.trigger.value,
            "dice": list(self.dice),
            "shift": self.shift,
            "kind": self.kind.value if self.kind else None,
        }


def is_shift(trigger: Trigger, dice: tuple[int, ...], face: int | None = None) -> bool:
    """Whether `dice` rolled for `trigger` cause a shift (`face`: the chosen face, if any)."""
    if trigger is Trigger.TIMER:
        return True  # the timer only "rolls" when it fires
    face = face or DEFAULT_FACE.get(trigger)
    if trigger is Trigger.TWO_D6_DOUBLES:
        return dice[0] == dice[1]
    if trigger is Trigger.TWO_D6_SPIKE:
        return dice[0] == dice[1] == face
    if trigger is Trigger.D6_HIGH:
        return dice[0] >= 4
    if trigger is Trigger.D6_LOW:
        return dice[0] <= 3
    return dice[0] == face


def judge(
    trigger: Trigger, dice: tuple[int, ...], kind: ShiftKind, face: int | None = None
) -> Roll:
    """The `Roll` that `dice` make under `trigger`, with a by-symbol kind resolved."""
    count, sides = DICE.get(trigger, (0, 0))
    if len(dice) != count or not all(1 <= d <= sides for d in dice):
        raise ValueError(f"{list(dice)} is not a roll of {count} d{sides} for {trigger}")
    shift = is_shift(trigger, tuple(dice), face)
    if not shift:
        return Roll(trigger, tuple(dice), False, None)
    if kind is ShiftKind.BY_SYMBOL:
        # The timer and the single big dice have no symbol: their shifts are core shifts.
        kind = SYMBOL_KIND.get(dice[0], ShiftKind.CORE) if dice and dice[0] <= 6 else ShiftKind.CORE
    return Roll(trigger, tuple(dice), True, kind)


class Roller(Protocol):
    """Anything that rolls the scrambler's dice for a trigger."""

    def dice(self, trigger: Trigger) -> tuple[int, ...]:
        """Fresh dice faces for `trigger` (empty for the timer)."""
        ...


class SoftwareRoller:
    """The default roller: fair dice from the operating system's random source."""

    def dice(self, trigger: Trigger) -> tuple[int, ...]:
        """Roll the dice `trigger` uses."""
        count, sides = DICE.get(trigger, (0, 0))
        return tuple(secrets.randbelow(sides) + 1 for _ in range(count))


def roll(roller: Roller, trigger: Trigger, kind: ShiftKind, face: int | None = None) -> Roll:
    """Roll with `roller` and judge the result."""
    return judge(trigger, roller.dice(trigger), kind, face)
