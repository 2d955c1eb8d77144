"""The scrambler's dice: what a game's dice are (`DiceSpec`), and when a shift roll shifts.

This is the one roll interface of the project. Each game declares its dice as `DiceSpec`
values (`Game.dice`); the live table's engine says which of them a roll throws now
(`roll_due`), the table's `Roller` throws them (covered by the hand's committed seed), and
the GPIO LED and buzzer and the USB box announce the roll as the spec says. The GPIO button,
the USB box and the on-screen scrambler all end up here. A shift roll (the rule set's
trigger) is judged for a shift; any other roll is read, face by face::

    >>> from companion.rules.rulesets import Trigger, ShiftKind
    >>> judge(Trigger.TWO_D6_DOUBLES, (4, 4), ShiftKind.BY_SYMBOL).kind
    <ShiftKind.RIM: 'rim'>
    >>> judge(Trigger.D6_LOW, (5,), ShiftKind.CORE).shift
    False
    >>> coin = DiceSpec("coin", "the coin", (Die("coin", ("heads", "tails")),), "who starts")
    >>> coin.read((2,)), coin.announce(False), shift_dice(Trigger.D6_LOW).announce(True)
    (('tails',), ('rolled', 'rolled'), ('shift', 'shift'))
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any, Mapping, Protocol

from companion.games.api import DiceSpec, Die
from companion.rules.rulesets import DEFAULT_FACE, ShiftKind, Trigger

def _dice_named(trigger: Trigger) -> tuple[int, int] | None:
    """(how many dice, how many faces) a trigger's name says ("2d6-…": two d6, "d20": one
    d20); None for a trigger that throws no dice (the timer)."""
    m = re.match(r"(\d*)d(\d+)(?![0-9])", trigger.value)
    return (int(m.group(1) or 1), int(m.group(2))) if m else None


#: Faces of the die (and how many dice) each trigger rolls, read from the trigger's name (the
#: rule set's words: RULES.md "Variants"). The timer rolls no dice.
DICE: dict[Trigger, tuple[int, int]] = {t: named for t in Trigger if (named := _dice_named(t)) is not None}

#: by-symbol shifts: the doubled (or single) die face picks the kind.
SYMBOL_KIND = {1: ShiftKind.CORE, 2: ShiftKind.CORE, 3: ShiftKind.RIM, 4: ShiftKind.RIM,
               5: ShiftKind.WILD, 6: ShiftKind.WILD}


def shift_dice(trigger: Trigger) -> DiceSpec:
    """The dice a shift `trigger` throws, as a `DiceSpec` (its key is the trigger's name; the
    timer's throws no dice: it "rolls" a shift each time it fires)."""
    count, sides = DICE.get(trigger, (0, 0))
    die = Die("die", tuple(str(n) for n in range(1, sides + 1)))
    name = "the timer" if not count else f"{count}d{sides}" if count > 1 else f"d{sides}"
    return DiceSpec(trigger.value, name, (die,) * count, "a shift or not, judged by the rule set's trigger",
                    shifts=True)


#: Every shift trigger's dice, by trigger (the timer's included: no dice).
SHIFT_DICE: dict[Trigger, DiceSpec] = {t: shift_dice(t) for t in Trigger}


def game_dice() -> Mapping[str, DiceSpec]:
    """Every dice of every game by its key (`companion.games.registry.dice`), the shift dice
    included; imported when asked for, since the games import this module."""
    from companion.games import registry

    return registry.dice()


def spec_of(what: "DiceSpec | Trigger | str") -> DiceSpec | None:
    """The dice `what` names: a spec itself, a shift trigger, or any game's dice key (None:
    no dice, as the timer, or a key no game declares)."""
    if isinstance(what, DiceSpec):
        return what
    try:
        return SHIFT_DICE.get(Trigger(what))
    except ValueError:
        return game_dice().get(str(what))


def shape(what: "DiceSpec | Trigger | str") -> tuple[int, int]:
    """(how many dice, how many sides) a roll of `what` throws; (0, 0) for no dice."""
    if not isinstance(what, DiceSpec):
        try:  # a shift trigger's dice are `DICE`'s (one table: tests may load it)
            return DICE.get(Trigger(what), (0, 0))
        except ValueError:
            pass
    spec = spec_of(what)
    return (spec.count, spec.sides) if spec is not None else (0, 0)


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
    if trigger is Trigger.D6_HIGH:
        return dice[0] >= 4
    if trigger is Trigger.D6_LOW:
        return dice[0] <= 3
    # Every other trigger shifts when all its dice match: any double, or, for a trigger with a
    # chosen face (DEFAULT_FACE names them), only that face (one big die's, or both symbols).
    chosen = (face or DEFAULT_FACE[trigger]) if trigger in DEFAULT_FACE else None
    return len(set(dice)) == 1 and (chosen is None or dice[0] == chosen)


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
    """Anything that rolls the scrambler's dice: a game's `DiceSpec` or a shift trigger."""

    def dice(self, trigger: Any) -> tuple[int, ...]:
        """Fresh dice faces for `trigger` (a `DiceSpec`, a `Trigger`; empty for the timer)."""
        ...


class SoftwareRoller:
    """The default roller: fair dice from the operating system's random source."""

    def dice(self, trigger: Any) -> tuple[int, ...]:
        """Roll the dice `trigger` names (a `DiceSpec`, a `Trigger` or a dice key)."""
        count, sides = shape(trigger)
        return tuple(secrets.randbelow(sides) + 1 for _ in range(count))


def roll(roller: Roller, trigger: Trigger, kind: ShiftKind, face: int | None = None) -> Roll:
    """Roll with `roller` and judge the result."""
    return judge(trigger, roller.dice(trigger), kind, face)
