"""The table options a host may change, as form fields: which options each game offers, in
that game's words, with a preset's values as the defaults.

The one place the host's pages (the start page, the console's dealer's choice) learn which
options a rule set's game takes and how each is worded; the pages draw their fields from it::

    >>> from companion.games.registry import presets
    >>> name, rs = next(iter(presets().items()))  # any preset of any game
    >>> offered_here = option_fields(rs)
    >>> all(f["default"] == option_value(rs, f["name"]) for f in offered_here)
    True
    >>> all(f["name"] in registry.game_of(rs.name).options for f in offered_here)
    True

A game lists the fields it offers, in order (`Game.fields`, found through the registry; the
shared ones are here); a field is offered where the game accepts the option and its `shown`
says the rules have use for it.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from companion.games import registry
from companion.games.api import OptionField

#: The kinds of field: a whole number, one of a few values, a switch, a penalty (the hand pot,
#: or a fixed whole number).
WHOLE, CHOICE, SWITCH, PENALTY = "whole", "choice", "switch", "penalty"

#: The groups the fields are shown in, in order, with their headings.
GROUPS = (("money", "Money"), ("play", "Order of play"), ("scrambler", "The scrambler and shifts"),
          ("variants", "Variants"))


#: The fields of options every game played with a rule set may take (each game lists the fields
#: it offers, in its order, in `Game.fields`; these are the shared ones).
ANTE = OptionField("ante", "Ante, credits", "money")
BUY_IN = OptionField("buy_in", "Buy-in, credits", "money", hint="0: free, each player buys in for what they like.")
BET_LIMIT = OptionField("bet_limit", "Bet and raise limit, credits", "money", minimum=1, empty="Empty: no limit.")
HOUSE_DEALER = OptionField("house_dealer", "A house dealer who does not play (a token shows who is dealt first)",
                           "variants", kind=SWITCH)


def option_value(rs: Any, name: str) -> Any:
    """Option `name`'s value in `rs`, as a rule-set description writes it (an enum by its value;
    an option a game names in its own words read from the attribute it sets, `HandRanking.renames`;
    a game's own option from its own options, `RuleSet.game_options`)."""
    hands = getattr(rs, "hands", None)
    attribute = dict(hands.renames).get(name, name) if hands is not None else name
    own = getattr(rs, "game_options", None)
    value = getattr(own, attribute) if own is not None and hasattr(own, attribute) else getattr(rs, attribute)
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

