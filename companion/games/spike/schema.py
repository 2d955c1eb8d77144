"""Corellian Spike's payout-calculator request and answer as JSON Schema: the rule-set request
it shares with classic (classic's `schema`), with the calculator page's form in Spike's words
(no options, nobody calls, junked, and a tie is a blind draw whose cards add up)::

    >>> s = schema()
    >>> s.request, s.form["tie"]["field"], [f["label"] for f in s.form["player"] if f["key"] == "folded"]
    ('SettleRequest', 'blind_draw', ['Junked'])
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.api import CalculatorSchema
from companion.games.classic.schema import form, schema as rule_set_schema
from companion.games.spike.presets import PRESETS

#: The blind draw's exchange on the calculator page (RULES-SPIKE.md "Ties").
BLIND_DRAW = {
    "status": "blind_draw", "players": "blind_draw_players", "field": "blind_draw", "adds": True,
    "title": "Blind draw",
    "text": "{names} tie. Each of them draws a card from the draw pile: pick the card each one drew, then settle.",
    "label": "Card drawn by {name}",
}


def schema() -> CalculatorSchema:
    """The rule-set request and answer, with Spike's form (`GAME.calculator_schema`)."""
    return replace(rule_set_schema(), form=form(PRESETS["spike"], options=False, calls=False, tie=BLIND_DRAW))
