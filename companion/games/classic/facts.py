"""Classic's facts as the pages show them (docs/games.md, "Facts"): each seat's static field,
the cards it has laid face up (RULES.md "The static field"), on every seat list. The cards are
public: every player sees them on the table.

>>> from companion.rules.rulesets import PRESETS
>>> h = {"players": ["s1", "s2"], "p": {"s1": {"static": ["sa1", "co7"]}, "s2": {"static": []}}}
>>> seat_facts(h, PRESETS["classic"])
{'s1': [{'key': 'static', 'words': 'static field', 'value': '1 of Sabers, 7 of Coins', 'hint': ''}]}
"""

from __future__ import annotations

from typing import Any

from companion.games.api import fact
from companion.rules.rulesets import RuleSet
from companion.table.offers import card_name
from companion.games.classic.static_field import of
from companion.table.state import Hand


def seat_facts(h: Hand, rules: RuleSet) -> dict[str, list[dict[str, Any]]]:
    """Each seat's static field, by the deck's card names, for the seats that have laid cards
    there (a seat without any has no fact: nothing to read)."""
    return {sid: [fact("static", "static field", ", ".join(card_name(rules, c) for c in of(h, sid)["static"]))]
            for sid in h["players"] if of(h, sid)["static"]}
