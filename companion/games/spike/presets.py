"""Corellian Spike's presets (RULES-SPIKE.md "Presets") as rule-set values, its options and how
options change a preset (`rules_from`)::

    >>> rs = rules_from({"preset": "spike", "phase_order": "turn-spike-bet", "junk_penalty": 2})
    >>> [p.words for p in rs.turn_phases], rs.fold_fee, rs.overrides
    (['turn', 'spike dice', 'betting'], 2, ('junk_penalty', 'phase_order'))
    >>> PRESETS["spike-book"].game_options.prime_sabacc
    False
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping

from companion.games.api import DiceSpec, Die, InvalidRules, OptionField
from companion.games.spike.hands import SPIKE_ACTIONS, SPIKE_DECK, SPIKE_DICE, SPIKE_HANDS, SPIKE_WORDS, THREE_ROUNDS
from companion.games.spike.options import SpikeOptions
from companion.rules import option_fields as fields
from companion.rules.rulesets import (
    BETTING,
    COMMON_OPTIONS,
    AnteRule,
    CHIPS_100,
    OrderOfPlay,
    Phase,
    PhaseRule,
    RuleSet,
    ShiftKind,
    Trigger,
    Who,
    apply_options,
    bool_option,
    choice_option,
    whole_option,
)

#: The same two dice as the scrambler throws them (`Game.dice`): a shift roll of the presets'
#: trigger (any double), each face in the dice's own symbols.
SPIKE_SHIFT_DICE = DiceSpec(Trigger.TWO_D6_DOUBLES.value, SPIKE_DICE.name, (Die("spike die", SPIKE_DICE.faces),) * 2,
                            "a Sabacc Shift when the symbols match", shifts=True)

#: Spike's own phases (RULES-SPIKE.md "A game"): each player's turn, and the dealer's roll of
#: the spike dice.
TURN = PhaseRule(Phase.TURN, ("draw",), Who.EACH_PLAYER, "turn")
#: The dealer rolls the spike dice: a phase of Spike's own (its steps record it as "spike").
DEALER_DICE = Phase("spike")
SPIKE_ROLL = PhaseRule(DEALER_DICE, ("roll",), Who.DEALER, "spike dice")


_SPIKE = RuleSet(
    name="spike",
    title="Corellian Spike (Black Spire Outpost)",
    summary="The Galaxy's Edge deck and spike dice: three rounds of turn, betting and spike "
    "dice; antes of 1 to the game pot and 2 to the sabacc pot; a 1-credit fee to keep a gained "
    "card and discard another, 2 to swap; Prime Sabacc.",
    source="RULES-SPIKE.md (the printed rule book; the Black Spire Outpost table rules)",
    ante=1,
    ante_rule=AnteRule.GAME_AND_SABACC,
    fold_fee=0,
    bet_limit=None,
    buy_in=0,
    chip_set=CHIPS_100,
    order_of_play=OrderOfPlay.PHASES,
    turn_phases=(TURN, BETTING, SPIKE_ROLL),  # PHASE_ORDERS["turn-bet-spike"]
    scrambler_trigger=Trigger.TWO_D6_DOUBLES,  # matching symbols: 1 in 6
    shift_kind=ShiftKind.SABACC,
    deck=SPIKE_DECK,
    hands=SPIKE_HANDS,
    ending=THREE_ROUNDS,
    actions=SPIKE_ACTIONS,
    dice=SPIKE_DICE,
    words=SPIKE_WORDS,
    game_options=SpikeOptions(
        ante_sabacc=2,
        fee_gain_discard=1,
        fee_swap=2,
        prime_sabacc=True,
        discard_pile_public=True,
        fold_fee_into_pot=True,  # the junk penalty (the option junk_penalty is its fold fee)
    ),
)
#: Spike's phase orders by the option `phase_order`: BSO's, and the tournaments' (you bet on
#: the hand you will reveal).
PHASE_ORDERS: dict[str, tuple[PhaseRule, ...]] = {
    "turn-bet-spike": (TURN, BETTING, SPIKE_ROLL),
    "turn-spike-bet": (TURN, SPIKE_ROLL, BETTING),
}

#: Corellian Spike's presets (RULES-SPIKE.md "Presets"), in the start page's order.
PRESETS: dict[str, RuleSet] = {_SPIKE.name: _SPIKE}
# spike-book: the printed hierarchy (no Prime Sabacc) with BSO's antes and betting, no fees.
PRESETS["spike-book"] = dataclasses.replace(
    _SPIKE,
    name="spike-book",
    title="Corellian Spike (the printed rule book)",
    summary="The printed hand hierarchy (no Prime Sabacc) with Black Spire Outpost's antes and "
    "betting; no fees.",
    game_options=dataclasses.replace(_SPIKE.game_options, fee_gain_discard=0, fee_swap=0, prime_sabacc=False),
)


#: The options Spike takes: those every rule set takes, then its own (RULES-SPIKE.md).
OPTIONS: dict[str, Callable[[Any], Any]] = {
    **COMMON_OPTIONS,
    "ante_game": whole_option(0),
    "ante_sabacc": whole_option(0),
    "fee_gain_discard": whole_option(0),
    "fee_swap": whole_option(0),
    "prime_sabacc": bool_option,
    "phase_order": choice_option(*PHASE_ORDERS),
    "junk_penalty": whole_option(0),
    "dealer_rotates": choice_option("game", "round"),
}
assert set(OPTIONS) - set(COMMON_OPTIONS) == SPIKE_HANDS.options, "the game's own options are its hands'"


def _follow(changes: dict[str, Any]) -> None:
    """What Spike's options set beside themselves."""
    if "phase_order" in changes:
        changes["turn_phases"] = PHASE_ORDERS[changes["phase_order"]]
    if "dealer_rotates" in changes:
        # The dealer passes left after each round: the round's dealer rolls, and the player on
        # their left starts each phase.
        each_round = changes["dealer_rotates"] == "round"
        changes["dealer_rotates_each_round"] = changes["starter_rotates_each_round"] = each_round


def rules_from(spec: Any, field: str = "rules") -> RuleSet:
    """A Spike rule set from a preset name or ``{"preset": name, **options}`` (the registry has
    refused unknown presets and options first). Raises `InvalidRules` for a bad value."""
    spec = {"preset": spec} if isinstance(spec, str) else spec
    if not isinstance(spec, Mapping) or spec.get("preset") not in PRESETS:
        raise InvalidRules("unknown preset; one of " + ", ".join(PRESETS), f"{field}.preset")
    return apply_options(PRESETS[spec["preset"]], spec, field, OPTIONS, adjust=_follow)


#: Spike's options as the host's form fields, in the order the pages show them (its own dice
#: shift on matching symbols: no scrambler fields; no calls: no house dealer).
FIELDS: tuple[OptionField, ...] = (
    OptionField("ante_game", "Game ante into the game pot, credits", "money"),
    OptionField("ante_sabacc", "Sabacc ante into the sabacc pot, credits", "money"),
    fields.BUY_IN,
    fields.BET_LIMIT,
    OptionField("junk_penalty", "Junk penalty into the game pot, credits", "money"),
    OptionField("fee_gain_discard", "Fee to keep a gained card and discard another, credits", "money"),
    OptionField("fee_swap", "Fee to swap with the discard pile, credits", "money"),
    OptionField("phase_order", "The phases of a round", "play", kind=fields.CHOICE, choices=(
        ("turn-bet-spike", "turn, betting, spike dice (Black Spire Outpost)"),
        ("turn-spike-bet", "turn, spike dice, betting (some tournaments: you bet on the hand you reveal)"))),
    OptionField("dealer_rotates", "The dealer passes to the left", "play", kind=fields.CHOICE, choices=(
        ("game", "after each game"), ("round", "after each round"))),
    OptionField("prime_sabacc", "Prime Sabacc: sylop, +10, −10 is a hand of its own (else a Yee-Haa of tens)",
                "variants", kind=fields.SWITCH),
)
