"""Building blocks of a settlement, named for what they do: the pots and side pots built from
what each player committed (`build_pots`), an amount split among winners (`split`), the best
hands among some players (`best`), the pots and the sabacc pot awarded to the best hands
(`award`), and a tie broken by drawing cards one at a time (`draw_off`).

A game's own settlement composes them (each game's package holds its `settle`); the live
table's engine asks its game for the settlement of a reveal. A hand of three pots::

    >>> pots = build_pots({"Ana": 30, "Ben": 10, "Cy": 30})
    >>> pots
    (Pot(amount=30, eligible=('Ana', 'Ben', 'Cy')), Pot(amount=40, eligible=('Ana', 'Cy')))
    >>> split(31, [2, 0])
    {2: 16, 0: 15}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence


class InvalidReveal(ValueError):
    """A reveal that cannot be settled: `message` says why, `field` is the bad field's path
    (as a calculator's request names it, e.g. ``players[2].cards[1]``)."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.message, self.field = message, field


@dataclass(frozen=True)
class Pot:
    """A pot built from commitments: its credits and who can win it (names in seat order)."""

    amount: int
    eligible: tuple[str, ...]

    @property
    def contested(self) -> bool:
        """Two or more players can win it (an uncontested pot is returned to its one player)."""
        return len(self.eligible) >= 2


@dataclass(frozen=True)
class PotResult:
    """One pot (main pot first, then side pots) and who took it; `to_sabacc_pot` when nobody
    could win it and it moved to the sabacc pot."""

    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...]
    to_sabacc_pot: bool = False


def build_pots(committed: Mapping[str, int], folded: Iterable[str] = (), dead: int = 0) -> tuple[Pot, ...]:
    """The hand pot and side pots, derived from what each player committed this hand.

    `committed` maps each player's name to their commitment, in seat order; `folded` names the
    players who folded (their credits stay in the pots; they can win none). Each distinct
    commitment level makes a pot of what every player put in up to that level, which the
    players who did not fold and committed at least that much can win; neighbouring levels
    with the same eligible players are one pot. Main pot first.

    >>> build_pots({"Han": 50, "Lando": 20, "Leia": 50, "Chewie": 10}, folded={"Chewie"})
    (Pot(amount=70, eligible=('Han', 'Lando', 'Leia')), Pot(amount=60, eligible=('Han', 'Leia')))

    The table engine calls this during a hand to show the live pots. `dead` credits (fees
    paid into the pot) join the main pot without a level of their own.
    """
    out = set(folded)
    pots: list[Pot] = []
    previous = 0
    for level in sorted({c for c in committed.values() if c > 0}):
        amount = sum(min(c, level) - min(c, previous) for c in committed.values())
        eligible = tuple(n for n, c in committed.items() if c >= level and n not in out)
        if pots and pots[-1].eligible == eligible:
            amount += pots.pop().amount
        pots.append(Pot(amount, eligible))
        previous = level
    if dead:
        if pots:
            pots[0] = Pot(pots[0].amount + dead, pots[0].eligible)
        else:
            pots.append(Pot(dead, tuple(n for n in committed if n not in out)))
    return tuple(pots)


def split(amount: int, winners: Sequence[int]) -> dict[int, int]:
    """Share `amount` between `winners` (seat indices in seat order from the dealer's left):
    equal shares, then the odd credits one at a time in seat order.

    >>> split(10, [1, 3, 4])
    {1: 4, 3: 3, 4: 3}
    """
    share, odd = divmod(amount, len(winners))
    return {w: share + (1 if n < odd else 0) for n, w in enumerate(winners)}


def best(indices: Iterable[int], hands: Mapping[int, Any]) -> list[int]:
    """The players among `indices` holding the best hand (several when they tie), in seat
    order; each hand has a `rank` (a larger rank wins).

    >>> from types import SimpleNamespace as H
    >>> best([2, 0, 1], {0: H(rank=5), 1: H(rank=7), 2: H(rank=7)})
    [1, 2]
    """
    indices = sorted(indices)
    if not indices:
        return []
    top = max(hands[i].rank for i in indices)
    return [i for i in indices if hands[i].rank == top]


#: How a game breaks a tie: `resolve(tie, others)` -> the winners among `tie` (seat indices);
#: `others` are the pot's other contenders, for a game whose tie may leave it to them.
Resolve = Callable[[list[int], list[int]], list[int]]


def award(
    names: list[str],
    built: tuple[Pot, ...],
    pot_ties: list[list[int]],
    sabacc_tie: list[int],
    standing: list[int],
    resolve: Resolve,
    sabacc_pot: int,
) -> tuple[dict[int, int], list[PotResult], set[int], int, list[int]]:
    """Award each pot to its best hand and the sabacc pot to the best hand of the table that
    may take it; `resolve(tie, others)` settles a tie, as the game breaks one.

    `pot_ties` holds, per pot of `built`, its best hands among the `standing` players (empty
    for an uncontested pot); `sabacc_tie` the hands that may take the sabacc pot. An
    uncontested pot is returned to its player; a pot no eligible player can win moves to the
    sabacc pot, which its winners then take in full. Returns what each player received, the
    pots' results, who won a contested pot, the sabacc pot after, and who took it."""
    index = {n: i for i, n in enumerate(names)}
    received = {i: 0 for i in range(len(names))}
    moved = 0
    pot_results = []
    won_contested: set[int] = set()
    for pot, tie in zip(built, pot_ties):
        if len(pot.eligible) == 1:  # uncontested: returned to its player
            winners = [index[pot.eligible[0]]]
        else:
            contenders = [index[n] for n in pot.eligible if index[n] in standing]
            winners = resolve(tie, [i for i in contenders if i not in tie])
            won_contested.update(winners)
        if not winners:  # a pot no eligible player can win
            moved += pot.amount
            pot_results.append(PotResult(pot.amount, pot.eligible, (), True))
            continue
        for i, amount in split(pot.amount, winners).items():
            received[i] += amount
        pot_results.append(PotResult(pot.amount, pot.eligible, tuple(names[i] for i in winners)))

    sabacc = sabacc_pot + moved
    sabacc_winners = resolve(sabacc_tie, []) if len(sabacc_tie) > 1 else sabacc_tie
    if sabacc_winners:
        for i, amount in split(sabacc, sabacc_winners).items():
            received[i] += amount
        sabacc = 0
    return received, pot_results, won_contested, sabacc, sabacc_winners


def draw_off(tie: Sequence[int], draws: Mapping[int, Sequence[str]],
             key: Callable[[str], Any]) -> tuple[list[int], list[int]]:
    """A tie broken by drawing cards: the tied players' drawn cards (`draws`, each player's in
    the order drawn) compare one draw at a time by `key` (a larger key wins); the players still
    tied compare their next draw. Returns (winners, []) or, when a still-tied player has not
    drawn the card needed yet, ([], the players who must draw another card).

    >>> draw_off([0, 1, 2], {0: ["5"], 1: ["9", "2"], 2: ["9", "4"]}, int)
    ([2], [])
    >>> draw_off([0, 1], {0: ["9"], 1: ["9"]}, int)
    ([], [0, 1])
    """
    remaining = list(tie)
    k = 0
    while len(remaining) > 1:
        short = [i for i in remaining if len(draws.get(i, ())) <= k]
        if short:
            return [], short
        keys = {i: key(draws[i][k]) for i in remaining}
        top = max(keys.values())
        remaining = [i for i in remaining if keys[i] == top]
        k += 1
    return remaining, []
