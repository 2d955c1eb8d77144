"""Kessel Sabacc's payout-calculator request and answer as JSON Schema (RULES-KESSEL.md "The
payout calculator for Kessel"), declared as data for the OpenAPI document
(`GAME.calculator_schema`)::

    >>> s = schema()
    >>> s.request, s.result, sorted(s.components["KesselRequest"]["required"])
    ('KesselRequest', 'KesselResult', ['players', 'rules'])
"""

from __future__ import annotations

from typing import Any

from companion.games.api import CalculatorSchema
from companion.games.kessel.calculator import EFFECT_FIELDS, MAX_AMOUNT
from companion.rules.request import MAX_NAME
from companion.games.kessel.cards import KESSEL_DECK
from companion.games.kessel.chips import TARIFF_INVESTED, TARIFF_OUT
from companion.games.kessel.hands import KINDS
from companion.games.kessel.presets import (MAX_CHIPS, MAX_PLAYERS, MIN_CHIPS, MIN_PLAYERS, PRESETS, TOKEN_DEALS)

_CHIPS = {"type": "integer", "minimum": 0, "maximum": MAX_AMOUNT}
_NAMES = {"type": "array", "items": {"type": "string"}}
_CARD = {"type": "string", "description": "A card code of the Kessel deck, case-insensitive: "
         + ", ".join(KESSEL_DECK.cards) + ".", "examples": ["s2", "b5", "si", "bs"]}
_BY_NAME = {"type": "object", "additionalProperties": {"type": "integer"}}
#: The request example: row 1 of RULES-KESSEL.md's settlement examples.
EXAMPLE = {"rules": "kessel", "players": [
    {"name": "Ana", "cards": ["s2", "b2"], "invested": 2, "stock": 3},
    {"name": "Ben", "cards": ["s4", "b1"], "invested": 1, "stock": 4}]}


def schema() -> CalculatorSchema:
    """Kessel's request (`KesselRequest`) and answer (`KesselResult`)."""
    options = {
        "chips": {"type": "integer", "minimum": MIN_CHIPS, "maximum": MAX_CHIPS},
        "buy_in": {"type": "integer", "minimum": 0, "maximum": MAX_AMOUNT},
        "tokens": {"type": "string", "enum": list(TOKEN_DEALS)},
        "tariff_chips": {"type": "string", "enum": [TARIFF_INVESTED, TARIFF_OUT]},
    }
    components: dict[str, Any] = {
        "KesselRequest": {
            "type": "object",
            "description": "A Kessel Sabacc reveal. Unknown fields are a 422.",
            "required": ["rules", "players"],
            "additionalProperties": False,
            "properties": {
                "rules": {"oneOf": [
                    {"type": "string", "enum": list(PRESETS)},
                    {"type": "object", "required": ["preset"], "additionalProperties": False,
                     "properties": {"preset": {"type": "string", "enum": list(PRESETS)}, **options}},
                ]},
                "players": {
                    "type": "array", "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS,
                    "description": "Every player still in the game, in seat order from the round's starter.",
                    "items": {
                        "type": "object", "additionalProperties": False,
                        "required": ["name", "cards", "invested", "stock"],
                        "properties": {
                            "name": {"type": "string", "minLength": 1, "maxLength": MAX_NAME},
                            "cards": {"type": "array", "minItems": 2, "maxItems": 2, "items": _CARD,
                                      "description": "One Sand and one Blood card, in either order."},
                            "impostors": {"type": "array", "maxItems": 2,
                                          "items": {"type": "integer", "minimum": 1, "maximum": 6},
                                          "description": "The value chosen for each Impostor, in the order "
                                          "of cards; omitted under Major Fraud."},
                            "invested": {**_CHIPS, "description": "Chips in the invested pile."},
                            "stock": {**_CHIPS, "description": "Chips in stock."},
                        },
                    },
                },
                "effects": {
                    "type": ["object", "null"], "additionalProperties": False,
                    "description": "What played shift tokens changed (not on a table without tokens).",
                    "properties": {**{k: {"type": "boolean"} for k in EFFECT_FIELDS if k != "prime_sabacc"},
                                   "prime_sabacc": {"type": ["integer", "null"], "minimum": 1, "maximum": 6}},
                },
                "credits_pot": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_AMOUNT,
                                "description": "The credits pot, paid out when the game ends."},
                "discards": {"type": "array", "items": _CARD,
                             "description": "The cards in the two discard piles (they count against the "
                             "deck's copies)."},
            },
        },
        "KesselResult": {
            "type": "object",
            "required": ["rules", "hands", "winners", "penalties", "chips_after", "eliminated", "chips_removed",
                         "game_over"],
            "additionalProperties": False,
            "properties": {
                "rules": {"type": "string"},
                "hands": {"type": "array", "items": {
                    "type": "object", "additionalProperties": False,
                    "required": ["name", "cards", "values", "kind", "value", "difference"],
                    "properties": {
                        "name": {"type": "string"},
                        "cards": {"type": "array", "items": {"type": "string"}},
                        "values": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer"},
                                   "description": "[sand, blood]"},
                        "kind": {"type": "string", "enum": [k for k, _ in KINDS]},
                        "value": {"type": ["integer", "null"], "description": "A Sabacc's value."},
                        "difference": {"type": "integer", "minimum": 0},
                    }}},
                "winners": _NAMES,
                "penalties": {"type": "array", "items": {
                    "type": "object", "additionalProperties": False,
                    "required": ["name", "reason", "amount", "shortfall"],
                    "properties": {"name": {"type": "string"},
                                   "reason": {"type": "string", "enum": ["sabacc", "difference"]},
                                   "amount": {"type": "integer", "minimum": 0},
                                   "shortfall": {"type": "integer", "minimum": 0}}}},
                "chips_after": {**_BY_NAME, "description": "Each player's stock after the reveal."},
                "eliminated": _NAMES,
                "chips_removed": {"type": "integer", "minimum": 0},
                "game_over": {"type": "boolean"},
                "game_winners": _NAMES,
                "credits_payouts": _BY_NAME,
            },
        },
    }
    description = ("Kessel Sabacc (RULES-KESSEL.md, presets " + ", ".join(PRESETS) + "): the players "
                   "still in the game with their two cards, invested chips and stock; answers the "
                   "winners, each loser's penalty and every player's chips after.")
    return CalculatorSchema("KesselRequest", "KesselResult", components, description,
                            {"kessel": {"summary": "Ana's Sabacc of 2 beats Ben", "value": EXAMPLE}}, FORM)


#: The calculator page's form (`CalculatorSchema.form`): the request's fields in words.
FORM: dict[str, Any] = {
    "legend": "The credits pot and the shift tokens played",
    "fields": [
        {"key": "credits_pot", "label": "Credits pot (optional: paid out when the game ends)", "kind": "whole",
         "optional": True},
        {"key": "effects.major_fraud", "label": "Major Fraud was played: every Impostor is 6", "kind": "flag"},
        {"key": "effects.markdown", "label": "Markdown was played: a Sylop is 0", "kind": "flag"},
        {"key": "effects.cook_the_books", "label": "Cook the Books was played: the order is reversed",
         "kind": "flag"},
        {"key": "effects.prime_sabacc", "label": "Prime Sabacc was played: the value chosen (1 to 6, optional)",
         "kind": "whole", "optional": True},
    ],
    "player": [
        {"key": "name", "label": "Name", "kind": "text"},
        {"key": "cards", "label": "Cards at the reveal: one Sand, one Blood", "kind": "cards", "max": 2},
        {"key": "impostors", "label": "Impostor values, in the order of the cards (e.g. 4)", "kind": "numbers"},
        {"key": "invested", "label": "Invested chips", "kind": "whole"},
        {"key": "stock", "label": "Chips in stock", "kind": "whole"},
    ],
    "result": {"amount": "chips_after", "amount_label": "Chips after", "signed": False, "after_label": "",
               "winners": "winners", "kinds": dict(KINDS), "facts": [["difference", "difference"]]},
}
