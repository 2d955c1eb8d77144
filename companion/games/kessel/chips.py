"""Kessel Sabacc's chips between the reveals: each player's **stock** and **invested** piles
(K5), and the moves that only shift chips between them (K9, K31, K35, K36).

Chips leave the game only at the reveal (`settle`), or at once through tariffs and audits when
the table plays ``tariff_chips: "out"`` (K36); nothing here ever makes a chip::

    >>> piles = {"Kay": Pile(6), "Lando": Pile(6)}
    >>> draw(piles["Kay"]); pay(piles["Lando"], 2, "invested"), piles["Lando"]
    ((2, 0), Pile(stock=4, invested=2))
    >>> refund(piles["Lando"], 3), piles["Lando"]
    (2, Pile(stock=6, invested=0))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

#: Where tariff and audit chips go (K36): the payer's invested pile, or out of the game.
TARIFF_INVESTED, TARIFF_OUT = "invested", "out"


@dataclass
class Pile:
    """One player's chips: `stock` (their own) and `invested` (put in this round, at risk)."""

    stock: int
    invested: int = 0

    @property
    def total(self) -> int:
        """Both piles."""
        return self.stock + self.invested


class NoChips(ValueError):
    """A paid draw by a player with no stock (K10: they must stand, unless Free Draw)."""


def draw(pile: Pile, free: bool = False) -> None:
    """A draw's fee: 1 chip from stock into the invested pile, nothing with Free Draw (K9).
    Raises `NoChips` for a paid draw with an empty stock."""
    if free:
        return
    if pile.stock < 1:
        raise NoChips("a player with no chips in stock must stand (unless they played Free Draw)")
    pile.stock -= 1
    pile.invested += 1


def pay(pile: Pile, n: int, tariff_chips: str) -> tuple[int, int]:
    """"Pays n" (K31): n chips from stock, or all of it if fewer; into the payer's invested pile
    (``"invested"``) or out of the game (``"out"``). Returns (paid, shortfall)."""
    paid = min(n, pile.stock)
    pile.stock -= paid
    if tariff_chips == TARIFF_INVESTED:
        pile.invested += paid
    return paid, n - paid


def refund(pile: Pile, n: int) -> int:
    """Refund and Extra Refund (K35): up to n chips from the invested pile back to stock.
    Returns how many moved."""
    moved = min(n, pile.invested)
    pile.invested -= moved
    pile.stock += moved
    return moved


def embezzle(piles: Mapping[str, Pile], player: str, others: Iterable[str]) -> list[str]:
    """Embezzlement (K35, K36): 1 chip from the invested pile of every one of `others` who has
    one invested, into `player`'s invested pile. `others` are the players it reaches (not the
    player, not the immune). Returns who gave a chip."""
    gave = [o for o in others if o != player and piles[o].invested >= 1]
    for o in gave:
        piles[o].invested -= 1
        piles[player].invested += 1
    return gave


def in_play(piles: Mapping[str, Pile]) -> int:
    """Every chip still in the game: stock and invested of every player."""
    return sum(p.total for p in piles.values())
