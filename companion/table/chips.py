"""A table's physical chips: checking a chip set and breaking an amount into chips.

The cash-out tells the banker which chips to hand over, largest first::

    >>> from companion.rules.rulesets import Chip
    >>> small = (Chip("aurodium", 25, 2), Chip("argentium", 5, 6), Chip("bronzium", 1, 20))
    >>> breakdown(142, small).words
    '5 aurodium, 3 argentium, 2 bronzium'
    >>> large = (Chip("aurodium", 100, 2), Chip("argentium", 50, 4), Chip("bronzium", 5, 20))
    >>> b = breakdown(518, large)
    >>> b.words, b.remainder
    ('5 aurodium, 3 bronzium; 3 credits below the smallest chip (5): the banker pays them in cash or writes an IOU', 3)

At the end of the session the credits no chip can pay are settled by the table's rule, the
odd-chip rule (`hand_back`): the chips on the table pay everyone, so the odd credits are rounded
to whole chips, one smallest chip each to those who have the most of them::

    >>> back = hand_back([("s1", 1), ("s2", 4), ("s3", 500)], large)
    >>> back.rows["s1"]["words"], back.rows["s2"]["words"]
    ('nothing (1 credit below the smallest chip, rounded down)', '1 bronzium (4 credits below the smallest chip, rounded up)')
    >>> print(back.words({"s1": "Lando", "s2": "Leia"}.get))
    Credits no chip can pay: Lando 1, Leia 4 (the smallest chip is 1 bronzium, 5 credits). The table rounds them to whole chips, so that the chips on the table pay everyone: together they make 1 bronzium, which goes to Leia, who has the most of them (one chip each, the most first, ties from the dealer's left); the others are rounded down. Net is counted in credits, before this rounding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

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


@dataclass(frozen=True)
class HandBack:
    """The chips each player is handed back at the end of the session: `rows` (seat -> the
    breakdown's JSON, its words saying how the seat's odd credits were rounded), and how the
    odd credits (each stack's credits below the smallest chip) were settled: `up`, the seats
    given one smallest chip for theirs; `unpaid`, odd credits that make no whole chip together
    (no chip on the table stands for them: only a buy-in, adjustment or carried pot of odd
    credits leaves any)."""

    rows: dict[str, dict[str, Any]]
    odd: dict[str, int]
    up: tuple[str, ...]
    unpaid: int
    smallest: Chip | None

    def words(self, name: Callable[[str], str | None]) -> str:
        """How the table settled the odd credits, in words for the standings (empty when there
        were none). `name` gives a seat's name."""
        odd = {sid: n for sid, n in self.odd.items() if n}
        if not odd or self.smallest is None:
            return ""
        chip = self.smallest
        who = ", ".join(f"{name(sid) or sid} {n}" for sid, n in odd.items())
        out = (f"Credits no chip can pay: {who} (the smallest chip is 1 {chip.name}, {chip.value} credits). "
               "The table rounds them to whole chips, so that the chips on the table pay everyone: ")
        if self.up:
            given = len(self.up)
            takers = [name(sid) or sid for sid in self.up]
            names = takers[0] if given == 1 else ", ".join(takers[:-1]) + " and " + takers[-1]
            out += (f"together they make {given} {chip.name}, which go{'es' if given == 1 else ''} to {names}, "
                    f"who {'has' if given == 1 else 'have'} the most of them (one chip each, the most first, "
                    "ties from the dealer's left)")
            out += "; the others are rounded down." if len(odd) > given else "."
        else:
            out += (f"together they make no whole {chip.name}: no chip on the table stands for them, "
                    "so they are not handed back.")
        if self.unpaid and self.up:
            out += (f" {self.unpaid} credit{'' if self.unpaid == 1 else 's'} of them make{'s' if self.unpaid == 1 else ''} "
                    "no whole chip: no chip on the table stands for them, so they are not handed back.")
        return out + " Net is counted in credits, before this rounding."


def from_dealers_left(order: list[str], dealer: str | None) -> list[str]:
    """`order` (the seats in seat order) starting from the dealer's left: who gets odd credits
    first (RULES.md, the end of a session). The dealer's own seat comes last.

    >>> from_dealers_left(["s1", "s2", "s3"], "s2")
    ['s3', 's1', 's2']
    """
    start = (order.index(dealer) + 1) % len(order) if dealer in order else 0
    return order[start:] + order[:start]


def hand_back(stacks: list[tuple[str, int]], chips: tuple[Chip, ...]) -> HandBack:
    """The table's rule for credits no chip can pay (issue 28), in this one place: each stack
    is handed back in the fewest chips (`breakdown`); the credits below the smallest chip are
    pooled, and the pool's whole smallest chips go one each to the players with the most odd
    credits (ties: the order of `stacks`, which the caller gives from the dealer's left); the
    others' odd credits are rounded down. Every chip on the table is handed back and none is
    made up: the largest-remainder rounding of the poker table's odd-chip rule, with no cash
    and no IOU between players."""
    smallest = min(chips, key=lambda c: c.value) if chips else None
    parts = {sid: breakdown(stack, chips) for sid, stack in stacks}
    odd = {sid: b.remainder for sid, b in parts.items()}
    pool = sum(odd.values())
    whole = pool // smallest.value if smallest else 0
    ranked = sorted((sid for sid, n in odd.items() if n), key=lambda sid: -odd[sid])  # stable: ties in order
    up = tuple(ranked[:whole])
    rows: dict[str, dict[str, Any]] = {}
    for sid, stack in stacks:
        n = odd[sid]
        if not n or smallest is None:
            rows[sid] = parts[sid].to_json()
            continue
        rounded = breakdown(stack - n + (smallest.value if sid in up else 0), chips)
        how = "up" if sid in up else "down"
        row = rounded.to_json()
        row.update(amount=stack, odd=n, rounded=how,
                   words=f"{rounded.words} ({n} credit{'' if n == 1 else 's'} below the smallest chip, rounded {how})")
        rows[sid] = row
    return HandBack(rows, odd, up, pool - whole * (smallest.value if smallest else 0), smallest)


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
