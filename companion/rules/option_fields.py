"""The table options a host may change, as form fields: which options each game offers, in
that game's words, with a rule set's values as the defaults.

The one place the host's pages (the start page, the console's dealer's choice) learn which
options a rule set's game takes and how each is worded; the pages draw their fields from it::

    >>> from companion.games.registry import presets
    >>> [f["name"] for f in option_fields(presets()["spike"])][:4]
    ['ante_game', 'ante_sabacc', 'buy_in', 'bet_limit']
    >>> {f["name"]: f["default"] for f in option_fields(presets()["spike-book"])}["fee_swap"]
    0
    >>> "fold_fee" in {f["name"] for f in option_fields(presets()["spike"])}
    False

A game offers the options it accepts (`Game.options`, through the registry); an option every
game has is left out where the game names the same value in its own words (its
`HandRanking.renames`), or where `shown` says the game has no use for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable

from companion.games import registry
from companion.rules.rulesets import HAND_POT, RANKING_WORDS, RuleSet, ShiftKind, Trigger

#: The kinds of field: a whole number, one of a few values, a switch, the bomb-out penalty
#: (the hand pot, or a fixed whole number).
WHOLE, CHOICE, SWITCH, PENALTY = "whole", "choice", "switch", "penalty"

#: The groups the fields are shown in, in order, with their headings.
GROUPS = (("money", "Money"), ("play", "Order of play"), ("scrambler", "The scrambler and shifts"),
          ("variants", "Variants"))

#: How many dice each trigger throws, in words, for the trigger picker.
TRIGGER_WORDS = {
    Trigger.TWO_D6_DOUBLES: "two d6: any double shifts (1 in 6)",
    Trigger.TWO_D6_SPIKE: "two d6: only the double of the chosen face shifts (1 in 36)",
    Trigger.D6_HIGH: "one d6: 4 to 6 shifts (1 in 2)",
    Trigger.D6_LOW: "one d6: 1 to 3 shifts (1 in 2)",
    Trigger.D10: "one d10: the chosen face shifts (1 in 10)",
    Trigger.D12: "one d12: the chosen face shifts (1 in 12)",
    Trigger.D20: "one d20: the chosen face shifts (1 in 20)",
    Trigger.TIMER: "the random timer: shifts at random moments",
}
#: What each shift kind does, in a few words (the rules page says it in full).
SHIFT_WORDS = {
    ShiftKind.CORE: "core: every card outside the static field is replaced",
    ShiftKind.RIM: "rim: one card each, picked at random by the player on the right, is replaced",
    ShiftKind.WILD: "wild: as core, with the junk pile shuffled back in",
    ShiftKind.BY_SYMBOL: "by symbol: the doubled face picks core (1-2), rim (3-4) or wild (5-6)",
    ShiftKind.SABACC: "Sabacc Shift: every player still in discards all and is dealt as many again",
}


def _always(rs: RuleSet) -> bool:
    return True


def _by_call(rs: RuleSet) -> bool:
    """The game's hands end by a call (Spike's after three rounds: no calls, no house dealer)."""
    return rs.ending.by_call


def _scrambler(rs: RuleSet) -> bool:
    """The game rolls the scrambler, whose trigger and shift are the table's to choose (Spike's
    own dice shift on matching symbols, a Sabacc Shift)."""
    return not rs.dice.shift_words  # a game's own dice say their shift in words


@dataclass(frozen=True)
class OptionField:
    """One option as a form field: its words, its kind and limits, its group, and when a game
    has use for it (an option only some games take is offered only where it is accepted)."""

    name: str  # the option's name in a rule-set description
    label: str
    group: str
    kind: str = WHOLE
    minimum: int = 0
    maximum: int | None = None
    empty: str = ""  # a whole number that may be left empty: what empty means (its hint)
    hint: str = ""
    choices: tuple[tuple[str, str], ...] = ()  # (value, words) of a CHOICE or a PENALTY
    amount: str = ""  # a PENALTY's fixed amount, in words
    shown: Callable[[RuleSet], bool] = _always


#: Every option the host's pages offer, in the order they show them.
FIELDS: tuple[OptionField, ...] = (
    OptionField("ante", "Ante, credits", "money"),
    OptionField("ante_game", "Game ante into the game pot, credits", "money"),
    OptionField("ante_sabacc", "Sabacc ante into the sabacc pot, credits", "money"),
    OptionField("buy_in", "Buy-in, credits", "money", hint="0: free, each player buys in for what they like."),
    OptionField("bet_limit", "Bet and raise limit, credits", "money", minimum=1, empty="Empty: no limit."),
    OptionField("fold_fee", "Fold fee to the sabacc pot, credits", "money"),
    OptionField("junk_penalty", "Junk penalty into the game pot, credits", "money"),
    OptionField("fee_gain_discard", "Fee to keep a gained card and discard another, credits", "money"),
    OptionField("fee_swap", "Fee to swap with the discard pile, credits", "money"),
    OptionField("pot_building_rounds", "Pot-building rounds before a call", "money", shown=_by_call),
    OptionField("bomb_out_penalty", "Bomb-out penalty", "money", kind=PENALTY, amount="Fixed penalty, credits",
                choices=((HAND_POT, "The size of the hand pot"), ("fixed", "A fixed amount"))),
    OptionField("phase_order", "The phases of a round", "play", kind=CHOICE, choices=(
        ("turn-bet-spike", "turn, betting, spike dice (Black Spire Outpost)"),
        ("turn-spike-bet", "turn, spike dice, betting (some tournaments: you bet on the hand you reveal)"))),
    OptionField("dealer_rotates", "The dealer passes to the left", "play", kind=CHOICE, choices=(
        ("game", "after each game"), ("round", "after each round"))),
    OptionField("scrambler_trigger", "When the scrambler shifts", "scrambler", kind=CHOICE, shown=_scrambler,
                choices=tuple((t.value, f"{t.value} — {w}") for t, w in TRIGGER_WORDS.items())),
    OptionField("trigger_face", "The face that shifts (d10, d12, d20, 2d6-spike)", "scrambler", minimum=1,
                maximum=20, empty="Empty: the rule set's own face.", shown=_scrambler),
    OptionField("shift_kind", "What a shift does", "scrambler", kind=CHOICE, shown=_scrambler,
                choices=tuple((k.value, w) for k, w in SHIFT_WORDS.items())),
    OptionField("ranking", "Which total wins", "variants", kind=CHOICE,
                choices=tuple((r.value, w) for r, w in RANKING_WORDS.items())),
    OptionField("prime_sabacc", "Prime Sabacc: sylop, +10, −10 is a hand of its own (else a Yee-Haa of tens)",
                "variants", kind=SWITCH),
    OptionField("negative_pure", "−23 is also a Pure Sabacc", "variants", kind=SWITCH),
    OptionField("fairy_empress", "The Fairy Empress: two Queens of Air and Darkness (−4) as a special hand",
                "variants", kind=SWITCH),
    OptionField("holdem", "Hold 'Em: every card in a static field is a community card at the reveal",
                "variants", kind=SWITCH),
    OptionField("force_sabacc", "Force Sabacc: each player declares the Light (+23) or the Dark (−23) side",
                "variants", kind=SWITCH),
    OptionField("corellia_run", "Corellia Run: no face cards but the Idiot, the target is 0", "variants",
                kind=SWITCH),
    OptionField("house_dealer", "A house dealer who does not play (a token shows who is dealt first)",
                "variants", kind=SWITCH, shown=_by_call),
)


def option_value(rs: RuleSet, name: str) -> Any:
    """Option `name`'s value in `rs`, as a rule-set description writes it (an enum by its value)."""
    value = getattr(rs, dict(rs.hands.renames).get(name, name))
    return value.value if isinstance(value, Enum) else value


def offered(rs: RuleSet, f: OptionField) -> bool:
    """Whether `rs`'s game takes option `f` and has use for it."""
    if f.name not in registry.game_of(rs.name).options:
        return False
    # An option every game has, which this game names in its own words, is offered by that name.
    renamed = {attribute for _, attribute in rs.hands.renames}
    return f.name not in renamed and f.shown(rs)


def option_fields(rs: RuleSet) -> list[dict[str, Any]]:
    """The fields of the options `rs`'s game offers, each with `rs`'s value as its `default`
    (JSON for the pages: name, label, group, kind, minimum, maximum, empty, hint, choices,
    amount)."""
    out = []
    for f in FIELDS:
        if offered(rs, f):
            out.append({"name": f.name, "label": f.label, "group": f.group, "kind": f.kind,
                        "minimum": f.minimum, "maximum": f.maximum, "empty": f.empty, "hint": f.hint,
                        "choices": [list(c) for c in f.choices], "amount": f.amount, "default": option_value(rs, f.name)})
    return out


def presets_fields() -> dict[str, list[dict[str, Any]]]:
    """Every preset's fields by its name (the pages switch between them without a reload)."""
    return {name: option_fields(rs) if isinstance(rs, RuleSet) else []
            for name, rs in registry.presets().items()}

