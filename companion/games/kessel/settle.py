"""Kessel Sabacc's settlement (RULES-KESSEL.md K21–K27, K40): chips only ever leave the table.

The winners (every hand tied for best, K21) take their invested piles back. Every other player
is a loser: their invested pile leaves the game and they pay a penalty from stock (1 for a
Sabacc, else the difference), capped at their stock (K23). A player left with 0 chips is
eliminated (K25); when one player has chips the game is over and they take the credits pot
(K26); when nobody has, the round's winners share it (K27)::

    >>> from companion.games.kessel.hands import judge
    >>> s = settle([Seat("Ana", judge(["s2", "b2"]), 3, 2), Seat("Ben", judge(["s4", "b1"]), 4, 1)])
    >>> s.winners, s.chips_after, [(p.name, p.amount) for p in s.penalties], s.chips_removed
    (['Ana'], {'Ana': 5, 'Ben': 1}, [('Ben', 3)], 4)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from companion.games.kessel.hands import KesselHand, penalty, winners


@dataclass(frozen=True)
class Seat:
    """One player at the reveal, in seat order from the round's starter: their judged hand and
    their chips before the settlement."""

    name: str
    hand: KesselHand
    stock: int
    invested: int


@dataclass(frozen=True)
class Penalty:
    """What a loser paid (K23): `reason` "sabacc" or "difference", `amount` paid, `shortfall`
    what the cap at their stock kept them from paying."""

    name: str
    reason: str
    amount: int
    shortfall: int

    def to_json(self) -> dict[str, Any]:
        """As the payout calculator writes it."""
        return {"name": self.name, "reason": self.reason, "amount": self.amount, "shortfall": self.shortfall}


@dataclass(frozen=True)
class Settlement:
    """One reveal's settlement. `chips_after` is each player's stock after it (nothing stays
    invested); `chips_removed` the chips that left the game (losers' invested piles and the
    penalties paid); `game_winners` and `credits_payouts` only when the game is over."""

    seats: tuple[Seat, ...]
    winners: list[str]
    penalties: list[Penalty]
    chips_after: dict[str, int]
    eliminated: list[str]
    chips_removed: int
    game_over: bool
    game_winners: list[str] = field(default_factory=list)
    credits_payouts: dict[str, int] | None = None

    def conserved(self) -> bool:
        """K24: Σ stock after = Σ (stock + invested) before − Σ losers' invested − Σ penalties paid."""
        before = sum(s.stock + s.invested for s in self.seats)
        losers_invested = sum(s.invested for s in self.seats if s.name not in self.winners)
        paid = sum(p.amount for p in self.penalties)
        return sum(self.chips_after.values()) == before - losers_invested - paid == before - self.chips_removed


def split_credits(pot: int, names: Sequence[str]) -> dict[str, int]:
    """The credits pot shared equally by `names` (in seat order from the round's starter); odd
    credits one each from the first (K27).

    >>> split_credits(301, ["Ana", "Ben"]), split_credits(5, ["Ana", "Ben", "Cas"])
    ({'Ana': 151, 'Ben': 150}, {'Ana': 2, 'Ben': 2, 'Cas': 1})
    """
    share, odd = divmod(pot, len(names))
    return {n: share + (1 if i < odd else 0) for i, n in enumerate(names)}


def settle(seats: Sequence[Seat], credits_pot: int | None = None) -> Settlement:
    """Settle one reveal (K21–K27). `seats` in seat order from the round's starter, every player
    still in the game (at least one); `credits_pot`, when given, is paid out if the game ends."""
    best = [seats[i].name for i in winners([s.hand for s in seats])]
    penalties: list[Penalty] = []
    after: dict[str, int] = {}
    removed = 0
    for s in seats:
        if s.name in best:  # K22: the invested pile comes back; nothing from anyone else
            after[s.name] = s.stock + s.invested
            continue
        owed = penalty(s.hand)
        paid = min(owed, s.stock)
        penalties.append(Penalty(s.name, "sabacc" if s.hand.sabacc else "difference", paid, owed - paid))
        after[s.name] = s.stock - paid
        removed += s.invested + paid
    eliminated = [s.name for s in seats if after[s.name] == 0]  # K25
    left = [s.name for s in seats if after[s.name] > 0]
    game_winners: list[str] = []
    if len(left) == 1:  # K26
        game_winners = left
    elif not left:  # K27: everyone out at once; the round's winners win the game
        game_winners = best
    payouts = split_credits(credits_pot, game_winners) if game_winners and credits_pot is not None else None
    if payouts is not None:
        payouts = {s.name: payouts.get(s.name, 0) for s in seats}
    return Settlement(tuple(seats), best, penalties, after, eliminated, removed, bool(game_winners),
                      game_winners, payouts)
