"""The request and answer of the payout calculator of the games played with a `RuleSet`
(classic and Corellian Spike read the same request, `calculator.parse_settle_request`) as JSON
Schema, for the OpenAPI document (`GAME.calculator_schema`). Built from the registry's rule
sets, so every preset, option and kind of hand of those games is listed::

    >>> s = schema()
    >>> s.request, s.result, "SuddenDemise" in s.components
    ('SettleRequest', 'SettleResult', True)
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.games import registry
from companion.games.api import CalculatorSchema
from companion.games.classic.options import Ranking
from companion.games.classic.presets import PRESETS
from companion.games.classic.settle import MAX_PLAYERS, MIN_PLAYERS
from companion.rules.request import MAX_NAME
from companion.rules.request import MAX_CARDS, MAX_CREDITS
from companion.rules.rulesets import RuleSet


def schema() -> CalculatorSchema:
    """The request and answer of SETTLE-API.md, for every preset played with a `RuleSet` whose
    game has a calculator (`Game.calculator_schema`)."""
    # The presets of the games whose calculator reads a rule set's request (this schema's).
    rule_sets: dict[str, RuleSet] = {n: rs for n, rs in registry.presets().items()
                                     if isinstance(rs, RuleSet) and registry.game_of(n).calculator is not None}
    decks = {rs.deck.name: rs.deck for rs in rule_sets.values()}

    whole = {"type": "integer", "minimum": 0, "maximum": MAX_CREDITS}
    card = {
        "type": "string",
        "description": "A card code of the rule set's deck, case-insensitive. "
        + " ".join(f"{d.title[0].upper()}{d.title[1:]} ({d.name}): {', '.join(d.cards)}." for d in decks.values()),
        "examples": ["co7", "sa11", "idiot", "evil-one"],
    }
    names = {"type": "array", "items": {"type": "string"}}
    # Every kind of hand any rule set judges, in its rankings' order (each game names its own).
    kinds = list(dict.fromkeys(k for rs in rule_sets.values() for k, _ in rs.hands.kinds))
    # The rule sets whose ties are a blind draw, and those whose ties are a sudden demise.
    tie_presets = {tie: [n for n, rs in rule_sets.items() if rs.hands.tie == tie]
                    for tie in dict.fromkeys(rs.hands.tie for rs in rule_sets.values())}

    # The seven option names SETTLE-API.md fixes, with their types; the project's other options
    # (see companion.rules.rulesets.OPTIONS) are listed without a type of their own here and
    # checked by the server (a bad value is a 422).
    fixed_options = {
        "bomb_out_penalty": {
            "description": '"hand_pot" (the default) or a fixed whole number of credits.',
            "oneOf": [{"type": "string", "enum": ["hand_pot"]}, whole],
        },
        "ranking": {"type": "string", "enum": [r.value for r in Ranking]},
        "negative_pure": {"type": "boolean", "description": "-23 is also Pure Sabacc."},
        "fairy_empress": {"type": "boolean"},
        "holdem": {"type": "boolean"},
        "force_sabacc": {"type": "boolean"},
        "corellia_run": {"type": "boolean"},
    }
    options = {
        name: fixed_options.get(name, {"description": f"The project's option {name!r} (see the rules page)."})
        for name in registry.options()
    }

    components = {
        "RuleSetChoice": {
            "description": "A preset name, or a preset with options that override it. "
            "An unknown preset or option is a 422.",
            "oneOf": [
                {"type": "string", "enum": list(rule_sets)},
                {
                    "type": "object",
                    "required": ["preset"],
                    "additionalProperties": False,
                    "properties": {"preset": {"type": "string", "enum": list(rule_sets)}, **options},
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
                    "items": card,
                    "description": "The hand at the reveal, static field included; at least 2 cards "
                    "unless folded (a rule set's deck may also set a most: "
                    + "; ".join(f"{d.name}: {d.hand_min} to {d.hand_max}" for d in decks.values() if d.hand_max)
                    + "). No card may appear more often across the table than the deck has it. The "
                    "last player left after everyone else folded (junked) shows nothing, or, where "
                    "the rules let the survivor show a hand ("
                    + ", ".join(n for n, rs in rule_sets.items() if rs.hands.last_player_shows)
                    + "), may show one: a hand that takes the sabacc pot takes it too.",
                },
                "committed": {**whole, "description": "Credits put into the hand pot this hand."},
                "fees": {**whole, "default": 0, "description": "Fees and penalties the player paid "
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
                           + ", ".join(n for n, rs in rule_sets.items() if not rs.ending.by_call) + ")."},
                "demise": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 1,
                    "items": card,
                    "description": "The sudden-demise card, only for a player a response named in "
                    "demise_players.",
                },
                "blind_draw": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": MAX_CARDS,
                    "items": card,
                    "description": "The cards drawn in a blind draw, one a draw in order, only for a "
                    "player a response named in blind_draw_players (rules whose ties are a blind "
                    "draw: " + ", ".join(tie_presets.get("blind_draw", [])) + ").",
                },
                "static": {
                    "type": "array",
                    "maxItems": MAX_CARDS,
                    "items": card,
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
                "sabacc_pot": {**whole, "description": "The sabacc pot before this settlement."},
            },
        },
        "HandResult": {
            "type": "object",
            "required": ["name", "total", "kind"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string"},
                "total": {"type": ["integer", "null"], "description": "null for folded and conceded."},
                "kind": {"type": "string", "enum": kinds},
            },
        },
        "PotResult": {
            "type": "object",
            "required": ["amount", "eligible", "winners", "to_sabacc_pot"],
            "additionalProperties": False,
            "properties": {
                "amount": {"type": "integer", "minimum": 0},
                "eligible": names,
                "winners": {**names, "description": "Two or more names for a split."},
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
                "sabacc_pot_winners": names,
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
                "demise_players": {**names, "minItems": 2, "description": "Send each of them one demise card."},
                "hands": {"type": "array", "items": {"$ref": "#/components/schemas/HandResult"}},
            },
        },
        "BlindDraw": {
            "type": "object",
            "required": ["status", "blind_draw_players", "hands"],
            "additionalProperties": False,
            "properties": {
                "status": {"type": "string", "const": "blind_draw"},
                "blind_draw_players": {**names, "minItems": 1, "description": "Send each of them "
                                       "one more blind-draw card (after the ones already sent)."},
                "hands": {"type": "array", "items": {"$ref": "#/components/schemas/HandResult"}},
            },
        },
        "SettleResult": {
            "oneOf": [{"$ref": "#/components/schemas/Settled"}, {"$ref": "#/components/schemas/SuddenDemise"},
                      {"$ref": "#/components/schemas/BlindDraw"}]
        },
    }

    # The request of SETTLE-API.md: Lando bombs out with 27, Han wins with an Idiot's Array.
    example = {
        "rules": "classic",
        "players": [
            {"name": "Lando", "cards": ["co7", "sa11", "fl9"], "committed": 30, "stack": 120},
            {"name": "Han", "cards": ["idiot", "st2", "co3"], "committed": 30, "stack": 45, "called": True},
            {"name": "Chewie", "cards": [], "committed": 10, "stack": 80, "folded": True},
        ],
        "sabacc_pot": 40,
    }

    description = ("Judges every hand, awards the hand pot and side pots, the sabacc "
                "pot and the penalties as the rule set's game says (RULES.md; RULES-SPIKE.md). "
                "The games and their presets: "
                + "; ".join(f"{game}: " + ", ".join(n for n, rs in rule_sets.items() if rs.hands.name == game)
                            for game in dict.fromkeys(rs.hands.name for rs in rule_sets.values()))
                + ". When tied hands go to a sudden demise, answers status sudden_demise with "
                "the players who need one more card; send the same request again with their "
                "demise cards. Where a tie is a blind draw, answers status blind_draw with the "
                "players who must draw; send the request again with each one's blind_draw cards "
                "(one card a draw, in order; still tied, they are asked for one more).")
    return CalculatorSchema("SettleRequest", "SettleResult", components, description,
                            {"reveal": {"summary": "Han's Idiot's Array", "value": example}}, form(PRESETS["classic"]))


def form(rules: RuleSet, *, options: bool = True, calls: bool = True,
         tie: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The calculator page's form of the rule-set request (`CalculatorSchema.form`) in the words
    of `rules`' game: classic's options and variants (`options`), the caller (`calls`), and
    its tie's exchange (`tie`; by default the sudden demise). Corellian Spike's form is this
    one without options or caller, with its blind draw."""
    folded = rules.hands.words("folded")
    player: list[dict[str, Any]] = [{"key": "name", "label": "Name", "kind": "text"}]
    if options:
        player.append({"key": "side", "label": "Side (Force Sabacc)", "kind": "choice", "when": "force_sabacc",
                       "skip_folded": True, "choices": [["", "Choose a side"], ["light", "Light: aims for +23"],
                                                        ["dark", "Dark: aims for -23"]]})
    player.append({"key": "cards", "label": "Cards at the reveal (static field included)", "kind": "cards",
                   "cleared_folded": True,
                   **({"label_when": {"holdem": "Cards in hand (not the static field)"}} if options else {})})
    if options:
        # Hold 'Em's static field is entered apart; the request wants it in `cards` too.
        player.append({"key": "static", "label": "Static field: community cards for everyone else", "kind": "cards",
                       "when": "holdem", "joins": "cards", "skip_folded": True})
    player += [{"key": "committed", "label": "Committed", "kind": "whole", "half": True},
               {"key": "stack", "label": "Stack behind (optional)", "kind": "whole", "optional": True, "half": True},
               {"key": "folded", "label": folded[0].upper() + folded[1:], "kind": "flag", "folds": True}]
    if calls:
        player.append({"key": "called", "label": "Called the hand", "kind": "one",
                       "nobody": "Nobody called (everyone else folded)"})
    option_fields: list[dict[str, Any]] = []
    if options:
        option_fields = [
            {"key": "bomb_out_penalty", "label": "Bomb-out penalty", "kind": "penalty",
             "choices": [["hand_pot", "The hand pot"]], "fixed": "A fixed amount",
             "amount": "Fixed penalty, credits", "value": 10},
            {"key": "ranking", "label": "Ranking of ordinary hands", "kind": "choice",
             "choices": [["", "As the rule set says"], ["highest", "Highest total wins"],
                         ["closest-positive", "Closest to ±23, positive wins ties"],
                         ["closest-negative", "Closest to ±23, negative wins ties"]]},
            {"key": "holdem", "label": "Hold 'Em: every static field is community cards", "kind": "flag",
             "group": "Variants"},
            {"key": "force_sabacc", "label": "Force Sabacc: each player plays Light or Dark", "kind": "flag",
             "group": "Variants"},
            {"key": "corellia_run", "label": "Corellia Run: aim for 0; face cards other than the Idiot set aside",
             "kind": "flag", "group": "Variants"},
        ]
    return {
        "options": option_fields,
        "legend": "Sabacc pot",
        "fields": [{"key": "sabacc_pot", "label": "Credits in the sabacc pot before this hand is settled",
                    "kind": "whole"}],
        "player": player,
        "players": 3,
        "seats": {"hint": "Add players in seat order, clockwise, starting with the player on the dealer's left. "
                          "The dealer is last.", "first": "on the dealer's left", "last": "the dealer"},
        "tie": dict(tie) if tie is not None else {
            "status": "sudden_demise", "players": "demise_players", "field": "demise", "title": "Sudden demise",
            "text": "{names} tie. The dealer deals each of them one more card: pick the card each one was dealt, "
                    "then settle.",
            "label": "Card dealt to {name}"},
        "result": {"sentence": "pots", "amount": "payouts", "amount_label": "Payout", "signed": True,
                   "after": "stack", "after_label": "Stack after", "kinds": dict(rules.hands.kinds),
                   "pot_words": rules.pot_words, "pot_after": "sabacc_pot_after",
                   "pot_after_label": "Sabacc pot after"},
    }
