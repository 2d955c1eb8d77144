"""Settling a called hand, exactly as RULES.md "Settling a called hand".

The one settlement function of the project: the payout calculator's API and every hand of a
live table call `settle`. It is a pure function of the rule set, the players at the reveal
(in seat order from the dealer's left, so the dealer is last) and the sabacc pot.

Sudden demise is a two-step exchange: when tied players must be dealt one more card, `settle`
returns a `Settlement` with `status == "sudden_demise"` and `demise_players`; the caller
supplies each of them a `demise` card and calls again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules.rulesets import RuleSet, Side


@dataclass(frozen=True)
class PlayerReveal:
    """One player at the reveal, as SETTLE-API.md describes a request's `players[i]`."""

    name: str
    cards: tuple[str, ...]  # canonical card codes, static-field cards included
    committed: int  # credits put into the hand pot this hand (ante and bets)
    stack: int | None = None  # credits behind; None: penalties are not capped
    folded: bool = False
    called: bool = False
    demise: tuple[str, ...] = ()  # the one card dealt in a sudden demise, once asked for
    static: tuple[str, ...] = ()  # Hold 'Em: which of `cards` are community cards
    side: Side | None = None  # Force Sabacc


@dataclass(frozen=True)
class HandResult:
    """How one player's hand was judged."""

    name: str
    total: int | None
    kind: str  # idiots_array, pure_sabacc, fairy_empress, ordinary, bomb_out, folded, conceded


@dataclass(frozen=True)
class PotResult:
    """One pot (main pot first, then side pots) and who took it."""

    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...]
    to_sabacc_pot: bool = False


@dataclass(frozen=True)
class Penalty:
    """A penalty paid to the sabacc pot after the pots are awarded."""

    name: str
    reason: str  # bomb_out or caller_lost
    amount: int
    shortfall: int


@dataclass(frozen=True)
class Settlement:
    """The outcome of `settle`: either settled, or waiting for sudden-demise cards."""

    status: str  # "settled" or "sudden_demise"
    hands: tuple[HandResult, ...]
    demise_players: tuple[str, ...] = ()
    pots: tuple[PotResult, ...] = ()
    sabacc_pot_winners: tuple[str, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    sabacc_pot_after: int | None = None
    payouts: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The response body of SETTLE-API.md."""
        raise NotImplementedError  # filled in with the engine


def settle(rules: RuleSet, players: list[PlayerReveal], sabacc_pot: int) -> Settlement:
    """Settle a called hand (see the module docstring)."""
    raise NotImplementedError  # filled in with the engine
