"""Corellian Spike's own options (RULES-SPIKE.md "Presets" and "Options"): what a Spike rule set
holds beside the options every game dealt in hands has (`RuleSet.game_options`)::

    >>> from companion.games.spike.presets import PRESETS
    >>> own = PRESETS["spike"].game_options
    >>> own.ante_sabacc, own.fee_swap, own.prime_sabacc, own.phase_order
    (2, 2, True, 'turn-bet-spike')
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SpikeOptions:
    """Spike's own options: its second ante, its fees, its special hand, the order of a
    round's phases, when the dealer passes, and its public discard pile and junk penalty."""

    ante_sabacc: int = 0  # each game's ante into the sabacc pot (`ante` is the game pot's)
    fee_gain_discard: int = 0  # the fee to keep a gained card and discard another
    fee_swap: int = 0  # the fee to take the discard pile's top card for a card of the hand
    prime_sabacc: bool = False  # Prime Sabacc is a hand of its own
    phase_order: str = "turn-bet-spike"  # or "turn-spike-bet"
    dealer_rotates: str = "game"  # or "round"
    # The discarded cards lie face up and the pile's top card is public: every discard
    # is entered, and the companion shows the top card on every screen.
    discard_pile_public: bool = False
    # The fold fee (the junk penalty) goes into the game pot instead of the sabacc pot.
    fold_fee_into_pot: bool = False

    def to_json(self) -> dict[str, Any]:
        """The options as the rule set's JSON carries them."""
        return dataclasses.asdict(self)
