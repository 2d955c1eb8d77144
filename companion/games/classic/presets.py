"""Classic Sabacc's presets (RULES.md "Rule sets"): the five rule sets of the sources as values,
with the values that make the game (its hand ranking, turn actions, ending, dice and words)
and its chip sets, and how options change a preset (`rules_from`)::

    >>> rs = rules_from({"preset": "classic", "bet_limit": 10, "bomb_out_penalty": 5})
    >>> rs.game_options.ranking, rs.bet_limit, rs.game_options.bomb_out_penalty
    (<Ranking.CLOSEST_POSITIVE: 'closest-positive'>, 10, 5)
    >>> PRESETS["pagat-d6"].scrambler_trigger
    <Trigger.D6_HIGH: 'd6-high'>
    >>> rules_from({"preset": "holodex", "buy_in": 1000}).chip_set == HOLODEX_TOURNAMENT_CHIPS
    True
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping

from companion.games.api import InvalidRules, OptionField
from companion.games.classic.cards import SABACC
from companion.games.classic.options import RANKING_WORDS, AfterCall, CallingRule, ClassicOptions, Ranking, StaticField
from companion.rules import option_fields as fields
from companion.rules.game import DROPPED_OUT, Dice, Ending, GameWords, HandRanking, TurnAction
from companion.rules.rulesets import (
    BET,
    BETTING,
    CALL,
    COMMON_OPTIONS,
    DICE,
    DRAW,
    HAND_POT,
    PLAY,
    ROLL,
    TRADE,
    AnteRule,
    CHIPS_100,
    CHIPS_500,
    CHIPS_1000,
    OrderOfPlay,
    Phase,
    RuleSet,
    ShiftKind,
    Trigger,
    apply_options,
    bool_option,
    enum_option,
    penalty_option,
    whole_option,
)

#: How a classic tie is settled (RULES.md): each tied player is dealt one more card into the
#: hand, and the hands are judged again. The pages and the API carry this name.
SUDDEN_DEMISE = "sudden_demise"
#: The answer's field naming the players a sudden demise deals a card.
DEMISE_PLAYERS = "demise_players"

#: Classic Sabacc (RULES.md "Hands"): judged by `companion.games.classic.hands.evaluate`.
CLASSIC_HANDS = HandRanking(
    name="sabacc",
    kinds=(("idiots_array", "Idiot's Array"), ("pure_sabacc", "Pure Sabacc"),
           ("fairy_empress", "Fairy Empress"), ("ordinary", "ordinary"), ("bomb_out", "bombed out"),
           *DROPPED_OUT),
    evaluator="companion.games.classic.hands:evaluate",
    sabacc_pot_kinds=frozenset({"idiots_array", "pure_sabacc"}),
    tie=SUDDEN_DEMISE,
    # The hands that take the sabacc pot stand out; a bomb-out is the hand that loses by itself.
    marks=(("idiots_array", "special"), ("pure_sabacc", "special"), ("bomb_out", "bust")),
    options=frozenset({"bomb_out_penalty", "ranking", "negative_pure", "fairy_empress", "holdem",
                       "force_sabacc", "corellia_run"}),
    reveal="companion.games.classic.settle:PlayerReveal",
)


#: Classic (RULES.md "Drawing"): gain a card, trade one (discard one, be dealt one), or stand.
CLASSIC_ACTIONS: tuple[TurnAction, ...] = (
    TurnAction("gain", "Gain a card", "gains a card", cards=1, dealt=1),
    TurnAction("trade", "Trade a card", "trades a card", dealt=1, discards=1, offer="trade one"),
    TurnAction("stand", "Stand", "stands", primary=True),
)


#: Classic: a hand ends when a player calls (RULES.md "Calling").
BY_CALL = Ending(by_call=True)


#: The classic scrambler: numbered dice (which faces shift is the rule set's trigger).
SCRAMBLER_DICE = Dice("the scrambler")


#: Classic Sabacc's words (RULES.md).
CLASSIC_WORDS = GameWords(tie="sudden demise", tie_card="sudden-demise card", over_limit="bomb-out penalty")


_TURNS = (BET, ROLL, CALL, DRAW)

#: Generic chips for the free buy-in presets (values chosen so that small antes can be paid).
DEFAULT_CHIPS = CHIPS_100
#: Holodex lay game: 500 credits (the ruling on 001's table that does not add up).
HOLODEX_LAY_CHIPS = CHIPS_500
#: Holodex tournament: 1000 credits.
HOLODEX_TOURNAMENT_CHIPS = CHIPS_1000

_WEG_CALL = CallingRule(Phase.CALL, 1, True, (AfterCall.REVEAL,))

#: Classic's presets, in the start page's order.
PRESETS: dict[str, RuleSet] = {
    rs.name: rs
    for rs in (
        RuleSet(
            name="weg",
            title="West End Games (1989)",
            summary="The Crisis on Cloud City rules: 1-credit ante, 3-credit bet limit, "
            "a shift on 1-3 of one die, rim shifts, no static field.",
            source="seed 003; seed 000 part 1",
            ante=1,
            ante_rule=AnteRule.SABACC_POT_WHEN_EMPTY,
            fold_fee=1,
            bet_limit=3,
            buy_in=0,
            chip_set=DEFAULT_CHIPS,
            order_of_play=OrderOfPlay.TURNS,
            turn_phases=_TURNS,
            scrambler_trigger=Trigger.D6_LOW,
            shift_kind=ShiftKind.RIM,
            deck=SABACC, hands=CLASSIC_HANDS, ending=BY_CALL, actions=CLASSIC_ACTIONS, dice=SCRAMBLER_DICE,
            words=CLASSIC_WORDS,
            game_options=ClassicOptions(
                ranking=Ranking.HIGHEST,
                negative_pure=False,
                fairy_empress=False,
                bomb_out_penalty=HAND_POT,
                calling=_WEG_CALL,
                static_field=StaticField.NONE,
                only_turn_player_opens=True,
                fold_until_roll=True,
            ),
        ),
        RuleSet(
            name="classic",
            title="Classic Sabacc v1.01",
            summary="The community rules: equal ante to both pots, no bet limit, shift on any "
            "double, core shifts, a free static field, closest to 23 either side.",
            source="seed 000 (v1.01)",
            ante=1,
            ante_rule=AnteRule.BOTH_POTS,
            fold_fee=1,
            bet_limit=None,
            buy_in=0,
            chip_set=DEFAULT_CHIPS,
            order_of_play=OrderOfPlay.TURNS,
            turn_phases=_TURNS,
            scrambler_trigger=Trigger.TWO_D6_DOUBLES,
            shift_kind=ShiftKind.CORE,
            deck=SABACC, hands=CLASSIC_HANDS, ending=BY_CALL, actions=CLASSIC_ACTIONS, dice=SCRAMBLER_DICE,
            words=CLASSIC_WORDS,
            game_options=ClassicOptions(
                ranking=Ranking.CLOSEST_POSITIVE,
                negative_pure=True,
                fairy_empress=False,
                bomb_out_penalty=HAND_POT,
                calling=_WEG_CALL,
                static_field=StaticField.FREE,
                only_turn_player_opens=True,
                fold_until_roll=True,
            ),
        ),
        RuleSet(
            name="holodex",
            title="Games of the Galaxy Holodex",
            summary="Betting, trade and dice phases; call Alderaan after two rounds; 500-credit "
            "buy-in; negative hands win ties; the Fairy Empress.",
            source="seed 001",
            ante=5,
            ante_rule=AnteRule.BOTH_POTS,
            fold_fee=1,
            bet_limit=None,
            buy_in=500,
            chip_set=HOLODEX_LAY_CHIPS,
            order_of_play=OrderOfPlay.PHASES,
            turn_phases=(BETTING, TRADE, DICE),
            scrambler_trigger=Trigger.TWO_D6_DOUBLES,
            shift_kind=ShiftKind.CORE,
            starter_rotates_each_round=True,
            deck=SABACC, hands=CLASSIC_HANDS, ending=BY_CALL, actions=CLASSIC_ACTIONS, dice=SCRAMBLER_DICE,
            words=CLASSIC_WORDS,
            game_options=ClassicOptions(
                ranking=Ranking.CLOSEST_NEGATIVE,
                negative_pure=True,
                fairy_empress=True,
                bomb_out_penalty=HAND_POT,
                calling=CallingRule(
                    Phase.TRADE, 2, False, (AfterCall.FINISH_PHASE, AfterCall.REVEAL)
                ),
                static_field=StaticField.ONE_CHANGE_PER_TURN,
            ),
        ),
        RuleSet(
            name="pagat",
            title="Brockley's rules (pagat.com)",
            summary="Play rounds and betting rounds; the dealer rolls two dice after each "
            "betting round; call from the 4th betting round; highest hand wins.",
            source="seed 000 part 2 (Brockley); seeds 004, 002",
            ante=1,
            ante_rule=AnteRule.BOTH_POTS,
            fold_fee=1,
            bet_limit=None,
            buy_in=0,
            chip_set=DEFAULT_CHIPS,
            order_of_play=OrderOfPlay.PLAY_AND_BETTING,
            turn_phases=(PLAY, BETTING),
            scrambler_trigger=Trigger.TWO_D6_DOUBLES,
            shift_kind=ShiftKind.CORE,
            dealer_rolls_after=(Phase.BETTING,),
            deck=SABACC, hands=CLASSIC_HANDS, ending=BY_CALL, actions=CLASSIC_ACTIONS, dice=SCRAMBLER_DICE,
            words=CLASSIC_WORDS,
            game_options=ClassicOptions(
                ranking=Ranking.HIGHEST,
                negative_pure=True,
                fairy_empress=False,
                bomb_out_penalty=HAND_POT,
                calling=CallingRule(
                    Phase.BETTING, 3, False, (AfterCall.FINISH_PHASE, AfterCall.ROLL, AfterCall.REVEAL)
                ),
                static_field=StaticField.ONE_IN_ONE_OUT_PLAY_ROUND,
            ),
        ),
    )
}
# pagat-d6 (seed 002): the same game with one die that shifts on 4-6.
PRESETS["pagat-d6"] = dataclasses.replace(
    PRESETS["pagat"],
    name="pagat-d6",
    title="Brockley's rules with one die",
    summary="As pagat, but the scrambler is one die and a 4-6 shifts (half of all rolls).",
    source="seed 002",
    scrambler_trigger=Trigger.D6_HIGH,
)


#: The options classic takes: its own (the first seven names are fixed by SETTLE-API.md), then
#: those every rule set takes.
OPTIONS: dict[str, Callable[[Any], Any]] = {
    "bomb_out_penalty": penalty_option,
    "ranking": enum_option(Ranking),
    "negative_pure": bool_option,
    "fairy_empress": bool_option,
    "holdem": bool_option,
    "force_sabacc": bool_option,
    "corellia_run": bool_option,
    "pot_building_rounds": whole_option(0),
    "static_field": enum_option(StaticField),
    **COMMON_OPTIONS,
}
#: Classic's options of its order of play (not of its hands): who may call when, the static field.
PLAY_OPTIONS = frozenset({"pot_building_rounds", "static_field"})
assert set(OPTIONS) - set(COMMON_OPTIONS) == CLASSIC_HANDS.options | PLAY_OPTIONS, \
    "the game's own options are its hands' and its order of play's"


def _follow(base: RuleSet, changes: dict[str, Any]) -> None:
    """What classic's options set beside themselves: the calling rule from
    `pot_building_rounds`."""
    rounds = changes.pop("pot_building_rounds", None)
    if rounds is not None:
        own: ClassicOptions = base.game_options
        changes["calling"] = dataclasses.replace(own.calling, rounds_before_call=rounds)


def rules_from(spec: Any, field: str = "rules") -> RuleSet:
    """A classic rule set from a preset name or ``{"preset": name, **options}`` (the registry
    has refused unknown presets and options first). Raises `InvalidRules` for a bad value."""
    spec = {"preset": spec} if isinstance(spec, str) else spec
    if not isinstance(spec, Mapping) or spec.get("preset") not in PRESETS:
        raise InvalidRules("unknown preset; one of " + ", ".join(PRESETS), f"{field}.preset")
    base = PRESETS[spec["preset"]]
    rs = apply_options(base, spec, field, OPTIONS, adjust=lambda changes: _follow(base, changes))
    own: ClassicOptions = rs.game_options
    if own.force_sabacc and own.corellia_run:
        raise InvalidRules("force_sabacc and corellia_run cannot be combined", f"{field}.corellia_run")
    return rs


#: How many dice each trigger throws, in words, for the host's trigger picker.
TRIGGER_CHOICES = {
    Trigger.TWO_D6_DOUBLES: "two d6: any double shifts (1 in 6)",
    Trigger.TWO_D6_ONE_FACE: "two d6: only the double of the chosen face shifts (1 in 36)",
    Trigger.D6_HIGH: "one d6: 4 to 6 shifts (1 in 2)",
    Trigger.D6_LOW: "one d6: 1 to 3 shifts (1 in 2)",
    Trigger.D10: "one d10: the chosen face shifts (1 in 10)",
    Trigger.D12: "one d12: the chosen face shifts (1 in 12)",
    Trigger.D20: "one d20: the chosen face shifts (1 in 20)",
    Trigger.TIMER: "the random timer: shifts at random moments",
}
#: What each shift kind does, in a few words, for the host's picker (the rules page says it in full).
SHIFT_CHOICES = {
    ShiftKind.CORE: "core: every card outside the static field is replaced",
    ShiftKind.RIM: "rim: one card each, picked at random by the player on the right, is replaced",
    ShiftKind.WILD: "wild: as core, with the junk pile shuffled back in",
    ShiftKind.BY_SYMBOL: "by symbol: the doubled face picks core (1-2), rim (3-4) or wild (5-6)",
    ShiftKind.SABACC: "Sabacc Shift: every player still in discards all and is dealt as many again",
}

#: The scrambler's fields: when it shifts, on which face, and what a shift does.
SCRAMBLER_TRIGGER = OptionField("scrambler_trigger", "When the scrambler shifts", "scrambler", kind=fields.CHOICE,
                                choices=tuple((t.value, f"{t.value} — {w}") for t, w in TRIGGER_CHOICES.items()))
TRIGGER_FACE = OptionField("trigger_face", "The face that shifts (d10, d12, d20, 2d6-spike)", "scrambler", minimum=1,
                           maximum=20, empty="Empty: the rule set's own face.")
SHIFT_KIND = OptionField("shift_kind", "What a shift does", "scrambler", kind=fields.CHOICE,
                         choices=tuple((k.value, w) for k, w in SHIFT_CHOICES.items()))


#: Classic's options as the host's form fields, in the order the pages show them.
FIELDS: tuple[OptionField, ...] = (
    fields.ANTE,
    fields.BUY_IN,
    fields.BET_LIMIT,
    OptionField("fold_fee", "Fold fee to the sabacc pot, credits", "money"),
    OptionField("pot_building_rounds", "Pot-building rounds before a call", "money"),
    OptionField("bomb_out_penalty", "Bomb-out penalty", "money", kind=fields.PENALTY, amount="Fixed penalty, credits",
                choices=((HAND_POT, "The size of the hand pot"), ("fixed", "A fixed amount"))),
    SCRAMBLER_TRIGGER,
    TRIGGER_FACE,
    SHIFT_KIND,
    OptionField("ranking", "Which total wins", "variants", kind=fields.CHOICE,
                choices=tuple((r.value, w) for r, w in RANKING_WORDS.items())),
    OptionField("negative_pure", "−23 is also a Pure Sabacc", "variants", kind=fields.SWITCH),
    OptionField("fairy_empress", "The Fairy Empress: two Queens of Air and Darkness (−4) as a special hand",
                "variants", kind=fields.SWITCH),
    OptionField("holdem", "Hold 'Em: every card in a static field is a community card at the reveal",
                "variants", kind=fields.SWITCH),
    OptionField("force_sabacc", "Force Sabacc: each player declares the Light (+23) or the Dark (−23) side",
                "variants", kind=fields.SWITCH),
    OptionField("corellia_run", "Corellia Run: no face cards but the Idiot, the target is 0", "variants",
                kind=fields.SWITCH),
    fields.HOUSE_DEALER,
)
