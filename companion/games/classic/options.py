"""Classic Sabacc's own options (RULES.md "Rule sets" and "Variants"): what a classic rule set
holds beside the options every game dealt in hands has (`RuleSet.game_options`)::

    >>> from companion.games.classic.presets import PRESETS
    >>> own = PRESETS["holodex"].game_options
    >>> own.ranking.value, own.fairy_empress, own.pot_building_rounds
    ('closest-negative', True, 2)
    >>> sorted(set(own.to_json()) - {f.name for f in dataclasses.fields(own)})
    ['pot_building_rounds']
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from companion.rules.rulesets import CallingRule, Ranking, StaticField


@dataclass(frozen=True)
class ClassicOptions:
    """Classic's own options: how hands compare and what counts as a special hand, the
    penalty for going over, who may call and when, the static field, the variants, and who
    may open the betting or fold when (the seeds' own rulings)."""

    ranking: Ranking
    negative_pure: bool  # -23 is also a Pure Sabacc
    fairy_empress: bool
    bomb_out_penalty: int | str  # HAND_POT or a fixed whole number of credits
    calling: CallingRule
    static_field: StaticField
    holdem: bool = False
    force_sabacc: bool = False
    corellia_run: bool = False
    # Only the player whose turn it is may open the betting; others call or raise.
    only_turn_player_opens: bool = False
    # Seed 003 ("the player whose turn it is must ask each player if they wish to
    # fold"): folding stays open after the betting of a turn ends, until that turn's roll.
    fold_until_roll: bool = False

    @property
    def pot_building_rounds(self) -> int:
        """Rounds that must be played before anyone may call (an option name of its own)."""
        return self.calling.rounds_before_call

    def to_json(self) -> dict[str, Any]:
        """The options as the rule set's JSON carries them, with `pot_building_rounds`."""
        return {**dataclasses.asdict(self), "pot_building_rounds": self.pot_building_rounds}
