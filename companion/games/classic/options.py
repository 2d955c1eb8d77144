"""Classic Sabacc's own options (RULES.md "Rule sets" and "Variants"): what a classic rule set
holds beside the options every game dealt in hands has (`RuleSet.game_options`), with the
values they take (how hands compare, the calling rule, the static field)::

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
from enum import StrEnum
from typing import Any

from companion.rules.rulesets import Phase


class Ranking(StrEnum):
    """How ordinary hands compare (RULES.md "Hands")."""

    HIGHEST = "highest"  # the higher total wins
    CLOSEST_POSITIVE = "closest-positive"  # larger magnitude; +n beats -n
    CLOSEST_NEGATIVE = "closest-negative"  # larger magnitude; -n beats +n


#: Each ranking in plain words (the rules page and the host's option picker say it so).
RANKING_WORDS = {
    Ranking.HIGHEST: "the higher total wins (22 beats 5, 5 beats -3)",
    Ranking.CLOSEST_POSITIVE: "the total furthest from zero wins (-22 beats 21); at equal "
    "distance the positive total wins (+20 beats -20)",
    Ranking.CLOSEST_NEGATIVE: "the total furthest from zero wins (-22 beats 21); at equal "
    "distance the negative total wins (-20 beats +20, -10 beats 9)",
}



class AfterCall(StrEnum):
    """The steps between a call and the reveal."""

    FINISH_PHASE = "finish_phase"  # the other players finish the current phase/round
    ROLL = "roll"  # the scrambler fires once more
    REVEAL = "reveal"



class StaticField(StrEnum):
    """How a player may change the cards they keep from a shift."""

    NONE = "none"  # no card is kept from a shift in this rule set
    FREE = "free"  # add and remove cards at any time in the player's own turn
    ONE_CHANGE_PER_TURN = "one_change_per_turn"  # one card added or removed a turn
    ONE_IN_ONE_OUT_PLAY_ROUND = "one_in_one_out_play_round"  # one in and one out, play round only



@dataclass(frozen=True)
class CallingRule:
    """Who may call, when, and what happens between the call and the reveal."""

    phase: Phase  # the phase of a turn or round in which a call is made
    # Full rounds (every player, dealer included, has had a turn) before a call is allowed.
    rounds_before_call: int
    # The caller is a player other than the one whose turn it is.
    not_by_turn_player: bool
    after_call: tuple[AfterCall, ...]


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
