"""Classic's facts as the pages show them (docs/games.md, "Facts"): each seat's static field,
the cards it has laid face up (RULES.md "The static field"), on every seat list, and in Force
Sabacc the side each player declared (RULES.md "Force Sabacc"). Both are public: every player
sees the cards on the table and heard the side declared.

>>> from companion.rules.rulesets import PRESETS
>>> h = {"players": ["s1", "s2"], "p": {"s1": {"static": ["sa1", "co7"]}, "s2": {"static": []}}}
>>> seat_facts(h, PRESETS["classic"])
{'s1': [{'key': 'static', 'words': 'static field', 'value': '1 of Sabers, 7 of Coins', 'hint': ''}]}
>>> seat_facts(h, PRESETS["classic"], {"s2": "dark"})["s2"]
[{'key': 'side', 'words': 'side', 'value': 'Dark (aims for −23)', 'hint': ''}]
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.games.api import fact
from companion.rules.rulesets import RuleSet
from companion.table.offers import card_name
from companion.games.classic.sides import SIDES
from companion.games.classic.static_field import of
from companion.table.state import Hand


def seat_facts(h: Hand, rules: RuleSet, sides: Mapping[str, str | None] | None = None) -> dict[str, list[dict[str, Any]]]:
    """Each seat's static field, by the deck's card names, for the seats that have laid cards
    there (a seat without any has no fact: nothing to read), and the side of each seat that
    declared one (`sides`: seat -> "light" or "dark", given only where the rules have sides)."""
    words = dict(SIDES)
    out: dict[str, list[dict[str, Any]]] = {}
    for sid in h["players"]:
        side = (sides or {}).get(sid)
        if side in words:
            out.setdefault(sid, []).append(fact("side", "side", words[side]))
        if of(h, sid)["static"]:
            out.setdefault(sid, []).append(
                fact("static", "static field", ", ".join(card_name(rules, c) for c in of(h, sid)["static"])))
    return out
