"""Coruscant Shift's payout-calculator request and answer as JSON Schema (RULES-CORUSCANT.md "The
payout calculator for Coruscant Shift"), declared as data for the OpenAPI document
(`GAME.calculator_schema`)::

    >>> s = schema()
    >>> s.request, s.result, s.components["CoruscantRequest"]["required"]
    ('CoruscantRequest', 'CoruscantResult', ['rules', 'target', 'players'])
"""

from __future__ import annotations

from typing import Any

from companion.games.api import CalculatorSchema
from companion.games.coruscant.calculator import MAX_CREDITS
from companion.rules.request import MAX_NAME
from companion.games.coruscant.cards import CORUSCANT_DECK, SELECTION_MAX, SELECTION_MIN, SUITS, TARGET_NUMBERS, signed
from companion.games.coruscant.judge import CONCEDED_KIND, FOLDED, SELECTION, TIE_DRAW
from companion.games.coruscant.presets import ANTE_RISES, ENDS, PRESETS

_CREDITS = {"type": "integer", "minimum": 0, "maximum": MAX_CREDITS}
_NAMES = {"type": "array", "items": {"type": "string"}}
_CARD = {"type": "string", "description": "A card code of the Coruscant Shift deck, case-insensitive: "
         + ", ".join(CORUSCANT_DECK.cards) + ".", "examples": ["ci+7", "tr-3", "sylop"]}
_TARGET = {"type": "object", "required": ["number", "suit"], "additionalProperties": False,
           "properties": {"number": {"type": "integer", "enum": list(TARGET_NUMBERS)},
                          "suit": {"type": "string", "description": "One of " + ", ".join(SUITS)
                                   + " (case-insensitive)."}}}
_HANDS = {"type": "array", "items": {
    "type": "object", "additionalProperties": False,
    "required": ["name", "total", "distance", "suit_count", "kind"],
    "properties": {"name": {"type": "string"},
                   "total": {"type": ["integer", "null"]},
                   "distance": {"type": ["integer", "null"], "minimum": 0},
                   "suit_count": {"type": ["integer", "null"], "minimum": 0},
                   "kind": {"type": "string", "enum": [SELECTION, FOLDED, CONCEDED_KIND]}}}}
#: The request example: example 1 of RULES-CORUSCANT.md's settlement examples.
EXAMPLE = {"rules": "coruscant", "target": {"number": -5, "suit": "circle"}, "players": [
    {"name": "Ana", "cards": ["ci-3", "sq-2"], "committed": 10, "stack": 90},
    {"name": "Ben", "cards": ["tr-10", "ci+4"], "committed": 10, "stack": 90}]}


def schema() -> CalculatorSchema:
    """Coruscant Shift's request (`CoruscantRequest`) and answer (`CoruscantResult`: settled,
    or a tie draw)."""
    whole = {"type": "integer", "minimum": 1}
    options = {"stock": whole, "ante": whole, "ante_rise": {"type": "string", "enum": list(ANTE_RISES)},
               "min_bet": whole, "bet_limit": {"type": ["integer", "null"], "minimum": 1},
               "end": {"type": "string", "enum": list(ENDS)}}
    components: dict[str, Any] = {
        "CoruscantRequest": {
            "type": "object",
            "description": "A Coruscant Shift reveal. Unknown fields are a 422.",
            "required": ["rules", "target", "players"],
            "additionalProperties": False,
            "properties": {
                "rules": {"oneOf": [
                    {"type": "string", "enum": list(PRESETS)},
                    {"type": "object", "required": ["preset"], "additionalProperties": False,
                     "properties": {"preset": {"type": "string", "enum": list(PRESETS)}, **options}},
                ]},
                "target": {**_TARGET, "description": "The gold die's number and the silver die's suit."},
                "players": {
                    "type": "array", "minItems": 2,
                    "description": "In seat order from the starting player.",
                    "items": {
                        "type": "object", "additionalProperties": False,
                        "required": ["name", "cards", "committed"],
                        "properties": {
                            "name": {"type": "string", "minLength": 1, "maxLength": MAX_NAME},
                            "cards": {"type": "array", "maxItems": SELECTION_MAX, "items": _CARD,
                                      "description": "The selection (empty if folded)."},
                            "committed": {**_CREDITS, "description": "Ante and bets this round."},
                            "stack": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_CREDITS,
                                      "description": "Credits behind once committed is in."},
                            "folded": {"type": "boolean", "default": False},
                            "tie_draw": {"type": "array", "minItems": 1, "maxItems": 1, "items": _CARD,
                                         "description": "The card drawn in a tie draw, only for a player "
                                         "a response named in tie_draw_players."},
                        },
                    },
                },
            },
        },
        "CoruscantSettled": {
            "type": "object",
            "required": ["status", "target", "hands", "pots", "tie_draws", "penalties", "payouts"],
            "additionalProperties": False,
            "properties": {
                "status": {"type": "string", "const": "settled"},
                "target": _TARGET,
                "hands": _HANDS,
                "pots": {"type": "array", "items": {
                    "type": "object", "additionalProperties": False, "required": ["amount", "eligible", "winners"],
                    "properties": {"amount": {"type": "integer", "minimum": 0}, "eligible": _NAMES,
                                   "winners": _NAMES}}},
                "tie_draws": {"type": "object", "additionalProperties": {"type": "string"}},
                "penalties": {"type": "array", "maxItems": 0},
                "payouts": {"type": "object", "additionalProperties": {"type": "integer"},
                            "description": "Credits each player receives from the pots."},
            },
        },
        "CoruscantTieDraw": {
            "type": "object",
            "required": ["status", "target", "tie_draw_players", "hands"],
            "additionalProperties": False,
            "properties": {
                "status": {"type": "string", "const": TIE_DRAW},
                "target": _TARGET,
                "tie_draw_players": {**_NAMES, "minItems": 2,
                                     "description": "Send each of them one tie_draw card."},
                "hands": _HANDS,
            },
        },
        "CoruscantResult": {"oneOf": [{"$ref": "#/components/schemas/CoruscantSettled"},
                                      {"$ref": "#/components/schemas/CoruscantTieDraw"}]},
    }
    description = ("Coruscant Shift (RULES-CORUSCANT.md, presets " + ", ".join(PRESETS) + "): the target "
                   "and each player's selection; a tie the suit cannot break answers status tie_draw "
                   "with the players who must draw; send the request again with each one's tie_draw card.")
    return CalculatorSchema("CoruscantRequest", "CoruscantResult", components, description,
                            {"coruscant": {"summary": "Ana hits the target", "value": EXAMPLE}}, FORM)


#: The calculator page's form (`CalculatorSchema.form`): the request's fields in words.
FORM: dict[str, Any] = {
    "legend": "The target",
    "seats": {"hint": "Add players in seat order, starting with the round's starting player."},
    "fields": [
        {"key": "target.number", "label": "Gold die: the target number", "kind": "choice",
         "choices": [[n, signed(n)] for n in TARGET_NUMBERS]},
        {"key": "target.suit", "label": "Silver die: the target suit", "kind": "choice",
         "choices": [[suit, suit.capitalize()] for suit in SUITS]},
    ],
    "player": [
        {"key": "name", "label": "Name", "kind": "text"},
        {"key": "cards", "label": f"Selection at the reveal ({SELECTION_MIN} to {SELECTION_MAX} cards)",
         "kind": "cards", "max": SELECTION_MAX},
        {"key": "committed", "label": "Committed", "kind": "whole"},
        {"key": "stack", "label": "Stack behind (optional)", "kind": "whole", "optional": True},
        {"key": "folded", "label": "Folded", "kind": "flag"},
    ],
    "tie": {"status": TIE_DRAW, "players": "tie_draw_players", "field": "tie_draw", "title": "Tie draw",
            "text": "{names} tie. Each of them draws a card: pick the card each one drew, then settle.",
            "label": "Card drawn by {name}"},
    "result": {"amount": "payouts", "amount_label": "Payout", "signed": True, "after": "stack",
               "after_label": "Stack after", "kinds": {SELECTION: "selection", FOLDED: "folded",
                                                       CONCEDED_KIND: "conceded"},
               "facts": [["total", "total"], ["distance", "distance"]]},
}
