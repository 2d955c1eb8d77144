"""Corellian Spike's facts as the pages show them (docs/games.md, "Facts"): the discard pile's
top card, which lies face up (RULES-SPIKE.md; the runtime's `PublicDiscardPile` keeps it), for a
hand still being played.

>>> from companion.rules.rulesets import PRESETS
>>> table_facts({"stage": "play", "discard_top": "-3"}, PRESETS["spike"])
[{'key': 'discard_top', 'words': 'Discard pile', 'value': '−3', 'hint': ''}]
>>> table_facts({"stage": "play", "discard_top": None}, PRESETS["spike"])[0]["value"]
'the top card is not entered yet'
>>> table_facts({"stage": "settled", "discard_top": "-3"}, PRESETS["spike"])
[]
"""

from __future__ import annotations

from typing import Any

from companion.games.api import fact
from companion.rules.rulesets import RuleSet
from companion.table.offers import card_name
from companion.table.state import Hand


def table_facts(h: Hand, rules: RuleSet) -> list[dict[str, Any]]:
    """The discard pile's top card while the hand is played; where the pile lies face up and
    nobody has entered the card on top yet (before the first is turned up, or after a fold laid
    a whole hand on it), that it is to be entered. Nothing once the hand is settled."""
    if h["stage"] == "settled":
        return []
    if h["discard_top"] is not None:
        return [fact("discard_top", "Discard pile", card_name(rules, h["discard_top"]))]
    if rules.game_options.discard_pile_public:
        return [fact("discard_top", "Discard pile", "the top card is not entered yet")]
    return []
