"""A table's physical chips: checking a chip set and breaking an amount into chips.

The cash-out tells the banker which chips to hand over, largest first::

    >>> from companion.rules.rulesets import DEFAULT_CHIPS
    >>> breakdown(142, DEFAULT_CHIPS).words
    '5 aurodium, 3 argentium, 2 bronzium'
    >>> from companion.rules.rulesets import HOLODEX_LAY_CHIPS
    >>> b = breakdown(518, HOLODEX_LAY_CHIPS)
    >>> b.words, b.remainder
    ('5 aurodium, 3 bronzium; 3 credits below the smallest chip (5): the banker pays them in cash or writes an IOU', 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.rulesets import Chip


class InvalidChips(ValueError):
    """A chip set that cannot be used (message and the path of the bad field)."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.message, self.field = message, field


@dataclass(frozen=True)
class Breakdown:
    """An amount as chips (`counts`: (chip, how many), largest first) plus what no chip covers."""

    amount: int
    counts: tuple[tuple[Chip, int], ...]
    remainder: int  # credits smaller than the smallest chip (paid in cash or an IOU)

    @property
    def words(self) -> str:
        """The breakdown as players say it: "4 aurodium, 3 argentium, 7 bronzium"."""
        parts = ", ".join(f"{n} {chip.name}" for chip, n in self.counts if n)
        if not self.remainder:
            return parts or "nothing"
        return "; ".join(x for x in (parts, self.small_words) if x)

    @property
    def small_words(self) -> str:
        """How the table settles the credits no chip covers (a 1-credit fold fee against a
        5-credit smallest chip): the banker pays them in cash or writes an IOU; they are never
        rounded away. Empty when every credit is a chip."""
        if not self.remainder:
            return ""
        smallest = min((chip.value for chip, _ in self.counts), default=1)
        one = self.remainder == 1
        return (f"{self.remainder} credit{'' if one else 's'} below the smallest chip ({smallest}): "
                f"the banker pays {'it' if one else 'them'} in cash or writes an IOU")

    def to_json(self) -> dict[str, Any]:
        """The breakdown as sent in the `cashed_out` event."""
        return {
            "amount": self.amount,
            "chips": [{"name": c.name, "value": c.value, "count": n} for c, n in self.counts if n],
            "remainder": self.remainder,
            "small": self.small_words,
            "words": self.words,
        }


def breakdown(amount: int, chips: tuple[Chip, ...]) -> Breakdown:
    """Break `amount` into the fewest chips, largest denomination first.

    Largest-first is what a banker does at the table; for the usual chip sets (each value a
    multiple of the next smaller one) it is also the fewest chips.
    """
    if amount < 0:
        raise ValueError("a breakdown needs an amount of at least 0")
    left = amount
    counts = []
    for chip in sorted(chips, key=lambda c: -c.value):
        n, left = divmod(left, chip.value)
        counts.append((chip, n))
    return Breakdown(amount, tuple(counts), left)


def chip_set_from(spec: Any, field: str = "chip_set") -> tuple[Chip, ...]:
    """Parse a chip set given as `[{"name", "value", "per_buy_in"?}, ...]`; raise InvalidChips."""
    if not isinstance(spec, list) or not 1 <= len(spec) <= 6:
        raise InvalidChips("a chip set is a list of 1 to 6 chips", field)
    out: list[Chip] = []
    for i, item in enumerate(spec):
        where = f"{field}[{i}]"
        if not isinstance(item, dict):
            raise InvalidChips("each chip is an object with name and value", where)
        unknown = set(item) - {"name", "value", "per_buy_in"}
        if unknown:
            raise InvalidChips(f"unknown chip field {sorted(unknown)[0]!r}", f"{where}.{sorted(unknown)[0]}")
        name, value, per = item.get("name"), item.get("value"), item.get("per_buy_in", 0)
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 24:
            raise InvalidChips("a chip's name has 1 to 24 characters", f"{where}.name")
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidChips("a chip's value is a whole number of credits, at least 1", f"{where}.value")
        if isinstance(per, bool) or not isinstance(per, int) or per < 0:
            raise InvalidChips("per_buy_in is a whole number, at least 0", f"{where}.per_buy_in")
        if any(c.name == name.strip() for c in out):
            raise InvalidChips(f"two chips are named {name.strip()!r}", f"{where}.name")
        if any(c.value == value for c in out):
            raise InvalidChips(f"two chips are worth {value}", f"{where}.value")
        out.append(Chip(name.strip(), value, per))
    return tuple(out)


def chip_set_to_json(chips: tuple[Chip, ...]) -> list[dict[str, Any]]:
    """A chip set as plain JSON (the inverse of `chip_set_from`)."""
    return [{"name": c.name, "value": c.value, "per_buy_in": c.per_buy_in} for c in chips]
