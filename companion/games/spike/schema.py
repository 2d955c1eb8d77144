"""Corellian Spike's part of the showdown's calculator request as JSON Schema (the runtime's
`companion.rules.showdown_schema` builds the request every game played with a `RuleSet` reads):
a player's blind draw and its answer; and its calculator page's form in Spike's words (no
options, nobody calls, junked, and a tie is a blind draw whose cards add up)::

    >>> s = schema()
    >>> s.request, s.form["tie"]["field"], [f["label"] for f in s.form["player"] if f["key"] == "folded"]
    ('SettleRequest', 'blind_draw', ['Junked'])
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.games.api import CalculatorSchema
from companion.games.spike.presets import PRESETS
from companion.rules import showdown_schema
from companion.rules.request import MAX_CARDS
from companion.rules.rulesets import RuleSet

#: The blind draw's exchange on the calculator page (RULES-SPIKE.md "Ties").
BLIND_DRAW: dict[str, Any] = {
    "status": "blind_draw", "players": "blind_draw_players", "field": "blind_draw", "adds": True,
    "title": "Blind draw",
    "text": "{names} tie. Each of them draws a card from the draw pile: pick the card each one drew, then settle.",
    "label": "Card drawn by {name}",
}


def schema() -> CalculatorSchema:
    """The showdown's request and answer, with Spike's form (`GAME.calculator_schema`)."""
    return showdown_schema.schema({}, showdown_schema.form(PRESETS["spike"], BLIND_DRAW, calls=False))


def own_fields(card: Mapping[str, Any], rule_sets: Mapping[str, RuleSet]) -> dict[str, Any]:
    """Spike's own field of a request's player (`PlayerReveal.own_schema`): its blind draw."""
    drawn = [n for n, rs in rule_sets.items() if rs.hands.tie == BLIND_DRAW["status"]]
    return {"blind_draw": {
        "type": "array",
        "minItems": 1,
        "maxItems": MAX_CARDS,
        "items": card,
        "description": "The cards drawn in a blind draw, one a draw in order, only for a player a "
        "response named in blind_draw_players (rules whose ties are a blind draw: " + ", ".join(drawn) + ").",
    }}


def blind_draw(names: Mapping[str, Any]) -> tuple[str, dict[str, Any], str]:
    """The answer while a blind draw is drawn (`PlayerReveal.tie_answer`)."""
    return ("BlindDraw",
            showdown_schema.tie_players(BLIND_DRAW["status"], BLIND_DRAW["players"], names,
                                        "Send each of them one more blind-draw card (after the ones already sent)."),
            "Where a tie is a blind draw, answers status blind_draw with the players who must draw; send the "
            "request again with each one's blind_draw cards (one card a draw, in order; still tied, they are "
            "asked for one more).")
