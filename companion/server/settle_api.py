"""`POST /api/v1/settle`: the payout calculator (SETTLE-API.md).

Stateless: the body describes the reveal, the answer says who wins what and who pays which
penalty (or which players a sudden demise needs a card for). Every invalid input is a 422
with `{"error", "field"}`; the body is read and checked in full before anything is settled.

The game whose preset `rules` names answers (its `Game.calculator`, found by the registry); a
game without a calculator is a 422 in words. The request schema below describes the request of
the games played with a rule set (`RuleSet`), built from their presets.
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from typing import Any, Mapping

from companion.games import registry
from companion.games.api import InvalidRequest
from companion.rules.request import MAX_CARDS, MAX_CREDITS
from companion.rules.rulesets import Ranking, RuleSet
from companion.rules.settle import MAX_NAME, MAX_PLAYERS, MIN_PLAYERS
from companion.refusal import Refused
from companion.server.errors import read_json
from companion.server.openapi import describe, error_response

bp = Blueprint("settle_api", __name__)


@bp.post("/api/v1/settle")
def settle_hand():
    """Settle a called hand, or ask for the sudden-demise cards it needs."""
    body = read_json()
    try:
        answer = _calculator(body)(body)
    except InvalidRequest as exc:
        raise Refused(422, exc.message, exc.field) from None
    return jsonify(answer)


def _calculator(body: Any):
    """The calculator that answers `body`: its preset's game's. A body that names no known
    preset goes to the first game's calculator, which says what is wrong with it (the body's
    shape first, then the preset) in the words it always has."""
    spec = body.get("rules") if isinstance(body, Mapping) else None
    preset = spec.get("preset") if isinstance(spec, Mapping) else spec
    presets = registry.presets()
    if isinstance(preset, str) and preset in presets:
        game = registry.game_of(preset)
        if game.calculator is None:
            field = "rules" if isinstance(spec, str) else "rules.preset"
            raise Refused(422, f"{game.title} has no payout calculator: its presets ({', '.join(game.presets)}) "
                          "are played at a live table only", field)
        return game.calculator
    found = next((g.calculator for g in registry.games().values() if g.calculator is not None), None)
    if found is None:
        raise Refused(422, "no game here has a payout calculator", "rules")
    return found


#: The presets of the games whose calculator reads a rule set's request (this schema's).
RULE_SETS: dict[str, RuleSet] = {n: rs for n, rs in registry.presets().items()
                                 if isinstance(rs, RuleSet) and registry.game_of(n).calculator is not None}
DECKS = {rs.deck.name: rs.deck for rs in RULE_SETS.values()}


_CREDITS = {"type": "integer", "minimum": 0, "maximum": MAX_CREDITS}
_CARD = {
    "type": "string",
    "description": "A card code of the rule set's deck, case-insensitive. "
    + " ".join(f"{d.title[0].upper()}{d.title[1:]} ({d.name}): {', '.join(d.cards)}." for d in DECKS.values()),
    "examples": ["co7", "sa11", "idiot", "evil-one"],
}
_NAMES = {"type": "array", "items": {"type": "string"}}
#: Every kind of hand any rule set judges, in its rankings' order (each game names its own).
_KINDS = list(dict.fromkeys(k for rs in RULE_SETS.values() for k, _ in rs.hands.kinds))
#: The rule sets whose ties are a blind draw, and those whose ties are a sudden demise.
_TIE_PRESETS = {tie: [n for n, rs in RULE_SETS.items() if rs.hands.tie == tie]
                for tie in dict.fromkeys(rs.hands.tie for rs in RULE_SETS.values())}

# The seven option names SETTLE-API.md fixes, with their types; the project's other options
# (see companion.rules.rulesets.OPTIONS) are listed without a type of their own here and
# checked by the server (a bad value is a 422).
_FIXED_OPTIONS = {
    "bomb_out_penalty": {
        "description": '"hand_pot" (the default) or a fixed whole number of credits.',
        "oneOf": [{"type": "string", "enum": ["hand_pot"]}, _CREDITS],
    },
    "ranking": {"type": "string", "enum": [r.value for r in Ranking]},
    "negative_pure": {"type": "boolean", "description": "-23 is also Pure Sabacc."},
    "fairy_empress": {"type": "boolean"},
    "holdem": {"type": "boolean"},
    "force_sabacc": {"type": "boolean"},
    "corellia_run": {"type": "boolean"},
}
_OPTIONS = {
    name: _FIXED_OPTIONS.get(name, {"description": f"The project's option {name!r} (see the rules page)."})
    for name in registry.options()
}

SCHEMAS = {
    "RuleSetChoice": {
        "description": "A preset name, or a preset with options that override it. "
        "An unknown preset or option is a 422.",
        "oneOf": [
            {"type": "string", "enum": list(RULE_SETS)},
            {
                "type": "object",
                "required": ["preset"],
                "additionalProperties": False,
                "properties": {"preset": {"type": "string", "enum": list(RULE_SETS)}, **_OPTIONS},
            },
        ],
    },
    "PlayerReveal": {
        "type": "object",
        "description": "One player at the reveal. Unknown fields are a 422.",
        "required": ["name", "cards", "committed"],
        "additionalProperties": False,
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "description": "Unique at the table."},
            "cards": {
                "type": "array",
                "maxItems": MAX_CARDS,
                "items": _CARD,
                "description": "The hand at the reveal, static field included; at least 2 cards "
                "unless folded (a rule set's deck may also set a most: "
                + "; ".join(f"{d.name}: {d.hand_min} to {d.hand_max}" for d in DECKS.values() if d.hand_max)
                + "). No card may appear more often across the table than the deck has it. The "
                "last player left after everyone else folded (junked) shows nothing, or, where "
                "the rules let the survivor show a hand ("
                + ", ".join(n for n, rs in RULE_SETS.items() if rs.hands.survivor_shows)
                + "), may show one: a hand that takes the sabacc pot takes it too.",
            },
            "committed": {**_CREDITS, "description": "Credits put into the hand pot this hand."},
            "fees": {**_CREDITS, "default": 0, "description": "Fees and penalties the player paid "
                     "into the pot this hand (Corellian Spike's swap and keep-and-discard fees, "
                     "the junk penalty): they belong to the main pot, whoever wins it."},
            "stack": {
                "type": ["integer", "null"],
                "minimum": 0,
                "maximum": MAX_CREDITS,
                "description": "Credits behind; penalties are capped at it plus what the player "
                "receives. Omitted or null: no cap.",
            },
            "folded": {"type": "boolean", "default": False},
            "called": {"type": "boolean", "default": False, "description": "At most one player. "
                       "Not used where a hand ends after a fixed number of rounds ("
                       + ", ".join(n for n, rs in RULE_SETS.items() if not rs.ending.by_call) + ")."},
            "demise": {
                "type": "array",
                "minItems": 1,
                "maxItems": 1,
                "items": _CARD,
                "description": "The sudden-demise card, only for a player a response named in "
                "demise_players.",
            },
            "blind_draw": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_CARDS,
                "items": _CARD,
                "description": "The cards drawn in a blind draw, one a draw in order, only for a "
                "player a response named in blind_draw_players (rules whose ties are a blind "
                "draw: " + ", ".join(_TIE_PRESETS.get("blind_draw", [])) + ").",
            },
            "static": {
                "type": "array",
                "maxItems": MAX_CARDS,
                "items": _CARD,
                "description": "Hold 'Em only (empty otherwise): which of cards lie in the static "
                "field; community cards for every other player still in the hand.",
            },
            "side": {
                "type": ["string", "null"],
                "enum": ["light", "dark", None],
                "description": "Force Sabacc only, required there for every player still in the hand.",
            },
        },
    },
    "SettleRequest": {
        "type": "object",
        "required": ["rules", "players", "sabacc_pot"],
        "additionalProperties": False,
        "properties": {
            "rules": {"$ref": "#/components/schemas/RuleSetChoice"},
            "players": {
                "type": "array",
                "minItems": MIN_PLAYERS,
                "maxItems": MAX_PLAYERS,
                "items": {"$ref": "#/components/schemas/PlayerReveal"},
                "description": "In seat order from the dealer's left (the dealer is last).",
            },
            "sabacc_pot": {**_CREDITS, "description": "The sabacc pot before this settlement."},
        },
    },
    "HandResult": {
        "type": "object",
        "required": ["name", "total", "kind"],
        "additionalProperties": False,
        "properties": {
            "name": {"type": "string"},
            "total": {"type": ["integer", "null"], "description": "null for folded and conceded."},
            "kind": {"type": "string", "enum": _KINDS},
        },
    },
    "PotResult": {
        "type": "object",
        "required": ["amount", "eligible", "winners", "to_sabacc_pot"],
        "additionalProperties": False,
        "properties": {
            "amount": {"type": "integer", "minimum": 0},
            "eligible": _NAMES,
            "winners": {**_NAMES, "description": "Two or more names for a split."},
            "to_sabacc_pot": {"type": "boolean", "description": "Nobody could win this pot."},
        },
    },
    "Penalty": {
        "type": "object",
        "required": ["name", "reason", "amount", "shortfall"],
        "additionalProperties": False,
        "properties": {
            "name": {"type": "string"},
            "reason": {"type": "string", "enum": ["bomb_out", "caller_lost"]},
            "amount": {"type": "integer", "minimum": 0},
            "shortfall": {"type": "integer", "minimum": 0, "description": "What the cap kept the player from paying."},
        },
    },
    "Settled": {
        "type": "object",
        "required": ["status", "hands", "pots", "sabacc_pot_winners", "penalties", "sabacc_pot_after", "payouts"],
        "additionalProperties": False,
        "properties": {
            "status": {"type": "string", "const": "settled"},
            "hands": {"type": "array", "items": {"$ref": "#/components/schemas/HandResult"}},
            "pots": {"type": "array", "items": {"$ref": "#/components/schemas/PotResult"}},
            "sabacc_pot_winners": _NAMES,
            "penalties": {"type": "array", "items": {"$ref": "#/components/schemas/Penalty"}},
            "sabacc_pot_after": {"type": "integer", "minimum": 0},
            "payouts": {
                "type": "object",
                "additionalProperties": {"type": "integer"},
                "description": "Per player: credits received minus penalties paid.",
            },
        },
    },
    "SuddenDemise": {
        "type": "object",
        "required": ["status", "demise_players", "hands"],
        "additionalProperties": False,
        "properties": {
            "status": {"type": "string", "const": "sudden_demise"},
            "demise_players": {**_NAMES, "minItems": 2, "description": "Send each of them one demise card."},
            "hands": {"type": "array", "items": {"$ref": "#/components/schemas/HandResult"}},
        },
    },
    "BlindDraw": {
        "type": "object",
        "required": ["status", "blind_draw_players", "hands"],
        "additionalProperties": False,
        "properties": {
            "status": {"type": "string", "const": "blind_draw"},
            "blind_draw_players": {**_NAMES, "minItems": 1, "description": "Send each of them "
                                   "one more blind-draw card (after the ones already sent)."},
            "hands": {"type": "array", "items": {"$ref": "#/components/schemas/HandResult"}},
        },
    },
    "SettleResult": {
        "oneOf": [{"$ref": "#/components/schemas/Settled"}, {"$ref": "#/components/schemas/SuddenDemise"},
                  {"$ref": "#/components/schemas/BlindDraw"}]
    },
}

#: The request of SETTLE-API.md: Lando bombs out with 27, Han wins with an Idiot's Array.
EXAMPLE_REQUEST = {
    "rules": "classic",
    "players": [
        {"name": "Lando", "cards": ["co7", "sa11", "fl9"], "committed": 30, "stack": 120},
        {"name": "Han", "cards": ["idiot", "st2", "co3"], "committed": 30, "stack": 45, "called": True},
        {"name": "Chewie", "cards": [], "committed": 10, "stack": 80, "folded": True},
    ],
    "sabacc_pot": 40,
}

describe(
    paths={
        "/api/v1/settle": {
            "post": {
                "summary": "Settle a called hand (the payout calculator)",
                "description": "Judges every hand, awards the hand pot and side pots, the sabacc "
                "pot and the penalties as the rule set's game says (RULES.md; RULES-SPIKE.md). "
                "The games and their presets: "
                + "; ".join(f"{game}: " + ", ".join(n for n, rs in RULE_SETS.items() if rs.hands.name == game)
                            for game in dict.fromkeys(rs.hands.name for rs in RULE_SETS.values()))
                + ". When tied hands go to a sudden demise, answers status sudden_demise with "
                "the players who need one more card; send the same request again with their "
                "demise cards. Where a tie is a blind draw, answers status blind_draw with the "
                "players who must draw; send the request again with each one's blind_draw cards "
                "(one card a draw, in order; still tied, they are asked for one more).",
                "operationId": "settle",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/SettleRequest"},
                            "examples": {"reveal": {"summary": "Han's Idiot's Array", "value": EXAMPLE_REQUEST}},
                        }
                    },
                },
                "responses": {
                    "200": {
                        "description": "Settled, or waiting for sudden-demise or blind-draw cards.",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SettleResult"}}},
                    },
                    "400": error_response("The body is not valid JSON."),
                    "413": error_response("The body is too large."),
                    "415": error_response("The body is not sent as application/json."),
                    "422": error_response("The request is not a valid reveal; field names the bad field."),
                },
            }
        }
    },
    schemas=SCHEMAS,
)
