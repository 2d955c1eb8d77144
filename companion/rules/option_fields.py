"""The table options a host may change, as form fields: which options each game offers, in
that game's words, with a preset's values as the defaults.

The one place the host's pages (the start page, the console's dealer's choice) learn which
options a rule set's game takes and how each is worded; the pages draw their fields from it::

    >>> from companion.games.registry import presets
    >>> [f["name"] for f in option_fields(presets()["spike"])][:4]
    ['ante_game', 'ante_sabacc', 'buy_in', 'bet_limit']
    >>> {f["name"]: f["default"] for f in option_fields(presets()["spike-book"])}["fee_swap"]
    0
    >>> "fold_fee" in {f["name"] for f in option_fields(presets()["spike"])}
    False

A game lists the fields it offers, in order (`Game.fields`, found through the registry; the
shared ones are here); a field is offered where the game accepts the option and its `shown`
says the rules have use for it.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from companion.games import registry
from companion.games.api import OptionField
from companion.rules.rulesets import ShiftKind, Trigger

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


#: The fields of options every game played with a rule set may take (each game lists the fields
#: it offers, in its order, in `Game.fields`; these are the shared ones).
ANTE = OptionField("ante", "Ante, credits", "money")
BUY_IN = OptionField("buy_in", "Buy-in, credits", "money", hint="0: free, each player buys in for what they like.")
BET_LIMIT = OptionField("bet_limit", "Bet and raise limit, credits", "money", minimum=1, empty="Empty: no limit.")
SCRAMBLER_TRIGGER = OptionField("scrambler_trigger", "When the scrambler shifts", "scrambler", kind=CHOICE,
                                choices=tuple((t.value, f"{t.value} — {w}") for t, w in TRIGGER_WORDS.items()))
TRIGGER_FACE = OptionField("trigger_face", "The face that shifts (d10, d12, d20, 2d6-spike)", "scrambler", minimum=1,
                           maximum=20, empty="Empty: the rule set's own face.")
SHIFT_KIND = OptionField("shift_kind", "What a shift does", "scrambler", kind=CHOICE,
                         choices=tuple((k.value, w) for k, w in SHIFT_WORDS.items()))
HOUSE_DEALER = OptionField("house_dealer", "A house dealer who does not play (a token shows who is dealt first)",
                           "variants", kind=SWITCH)


def option_value(rs: Any, name: str) -> Any:
    """Option `name`'s value in `rs`, as a rule-set description writes it (an enum by its value;
    an option a game names in its own words read from the attribute it sets, `HandRanking.renames`)."""
    hands = getattr(rs, "hands", None)
    value = getattr(rs, dict(hands.renames).get(name, name) if hands is not None else name)
    return value.value if isinstance(value, Enum) else value


def offered(rs: Any, f: OptionField) -> bool:
    """Whether `rs`'s game takes option `f` and has use for it."""
    return f.name in registry.game_of(rs.name).options and f.shown(rs)


def option_fields(rs: Any) -> list[dict[str, Any]]:
    """The fields of the options `rs`'s game offers (`Game.fields`), each with `rs`'s value as
    its `default` (JSON for the pages: name, label, group, kind, minimum, maximum, empty, hint,
    choices, amount)."""
    out = []
    for f in registry.game_of(rs.name).fields:
        if offered(rs, f):
            out.append({"name": f.name, "label": f.label, "group": f.group, "kind": f.kind,
                        "minimum": f.minimum, "maximum": f.maximum, "empty": f.empty, "hint": f.hint,
                        "choices": [list(c) for c in f.choices], "amount": f.amount, "default": option_value(rs, f.name)})
    return out


def presets_fields() -> dict[str, list[dict[str, Any]]]:
    """Every preset's fields by its name (the pages switch between them without a reload)."""
    return {name: option_fields(rs) for name, rs in registry.presets().items()}

