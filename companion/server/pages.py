"""The site's pages: home, the payout calculator and the rules page; and the deck as JSON.

Templates extend `base.html`. Two helpers are registered for every template, so later pages
(a live table's own rules page, the player page) can reuse them:

- `explain_rules(rules)`: the rules page's sections for a game's rules (its game's
  `explain`, found by the registry), rendered by the `rules_sections` macro of
  `partials/rules.html`;
- `presets`: every preset of every game (`companion.games.registry`), for pickers.

`GET /api/v1/cards?deck=NAME` serves a deck (the card picker's one source of truth; the
first game's deck without a name).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask.blueprints import BlueprintSetupState

from companion.decks.art import faces_url
from companion.games import registry
from companion.games.api import InvalidRules, Section
from companion.refusal import Refused
from companion.server.openapi import describe, error_response

bp = Blueprint("pages", __name__)


def first_deck() -> str:
    """The deck served when none is named: the first game's first deck."""
    return next(iter(registry.decks()))


def deck_json(name: str | None = None) -> dict:
    """A deck as the card picker reads it (`Deck.to_json`): its groups, then every distinct card,
    and where each card's face is drawn (the SVG the printed deck shows)."""
    name = name or first_deck()
    return {**registry.decks()[name].to_json(), "faces": faces_url(name)}


def explain_rules(rules) -> list[Section]:
    """The rules page's sections for `rules`, written by its game (found by its preset)."""
    return registry.game_of(rules.name).explain(rules)


# Globals rather than a context processor, so imported macros (partials/rules.html) see them.
bp.add_app_template_global(explain_rules, "explain_rules")


@bp.record_once
def _presets_global(state: BlueprintSetupState) -> None:
    """`presets` in every template: a value, which `add_app_template_global` (for functions)
    does not take."""
    state.app.jinja_env.globals["presets"] = registry.presets()


@bp.get("/")
def home():
    """What the companion is, and the ways in: a live table, the calculator and the rules."""
    return render_template("index.html")


@bp.get("/join")
def join_by_code():
    """The home page's "join a table" form: its code typed in (any case, spaces ignored)
    leads to that table's join page; no code, or letters that cannot be one, back home."""
    import re

    typed = request.args.get("code", "")
    code = re.sub(r"[^A-Za-z0-9]", "", typed).upper()
    if not code or len(code) > 12:
        # Nothing typed yet is no error (the form's own address); letters that are no code are.
        return render_template("index.html", join_error="Type the table's code: the letters on the table display."), \
            (400 if typed.strip() else 200)
    return redirect(url_for("play_pages.join", code=code))


@bp.get("/calculator")
def calculator():
    """The payout calculator: type in a reveal, get who wins what. Every game with a calculator
    that declares its form (`CalculatorSchema.form`) is offered; the page draws each game's form
    from it (on each preset's option: the game, its deck and its form)."""
    presets = calculator_presets()
    forms = {g.name: dict(g.calculator_schema().form) for g in registry.games().values()
             if g.calculator is not None and g.calculator_schema is not None}
    games: dict[str, Any] = {}
    for name in presets:
        game = registry.game_of(name)
        games[name] = {"game": game.name, "deck": next(iter(game.decks)), "form": forms[game.name]}
    default = registry.default_preset()
    return render_template("calculator.html", default_preset=default if default in presets else next(iter(presets)),
                           rule_sets=presets, games=games)


def calculator_presets() -> dict[str, Any]:
    """The presets the payout calculator page settles: those of the games that have a
    calculator and declare its form (`CalculatorSchema.form`)."""
    declares = {g.name for g in registry.games().values()
                if g.calculator is not None and g.calculator_schema is not None and g.calculator_schema().form}
    return {name: rules for name, rules in registry.presets().items() if registry.game_of(name).name in declares}


@bp.get("/rules")
def rules():
    """The rules in plain words for one preset (`?preset=NAME`, default: the registry's first
    game's default preset)."""
    name = request.args.get("preset", registry.default_preset())
    try:
        ruleset = registry.rules_from(name)
    except InvalidRules:
        abort(404)
    return render_template("rules.html", ruleset=ruleset, rule_sets=registry.presets())


@bp.get("/api/v1/cards")
def cards():
    """A deck (`?deck=NAME`, the first game's deck without one): its picker groups, and each
    distinct card with its value, copies, names and short face."""
    name = request.args.get("deck", first_deck())
    if name not in registry.decks():
        raise Refused(404, "no such deck; the decks are " + ", ".join(registry.decks()), "deck")
    return jsonify(deck_json(name))


describe(
    paths={
        "/api/v1/cards": {
            "get": {
                "summary": "A deck",
                "description": "Every distinct card of a deck (the 76-card Sabacc deck unless "
                "`deck` names another), with its code (as used by POST /api/v1/settle), value, "
                "how many copies the deck holds, its name, its tarot name and its short face; "
                "the card picker's groups; the cards a table option sets aside.",
                "parameters": [{"name": "deck", "in": "query", "required": False,
                                "schema": {"type": "string", "enum": list(registry.decks()), "default": first_deck()}}],
                "responses": {
                    "200": {
                        "description": "The deck",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Deck"}}},
                    },
                    "404": error_response("No deck of that name; `field` is `deck`."),
                },
            }
        }
    },
    schemas={
        "Deck": {
            "type": "object",
            "required": ["name", "title", "entry", "groups", "suits", "cards", "short", "tarot_short"],
            "properties": {
                "faces": {"type": "string", "description": "Where each card's face is drawn as SVG: "
                          "this address with {code} replaced by the card's code."},
                "name": {"type": "string", "description": "The deck's name (a rule set's `deck`)."},
                "title": {"type": "string"},
                "entry": {"type": "string", "enum": ["suit", "value"],
                          "description": "How a card is entered: a suit, then a rank; or the value alone."},
                "hand_min": {"type": "integer"},
                "hand_max": {"type": ["integer", "null"]},
                "in_words": {"type": "array", "items": {"type": "string"},
                             "description": "The codes a page replaces by the card's name in the server's sentences."},
                "staves": {"type": "array", "items": {"type": "string"},
                           "description": "Printed marks telling copies apart (never matter to the game)."},
                "groups": {"type": "array", "description": "The card picker's tabs, in order.",
                           "items": {"type": "object", "properties": {
                               "key": {"type": "string"}, "name": {"type": "string"}, "tarot": {"type": "string"},
                               "cards": {"type": "array", "items": {"type": "string"}}}}},
                "set_aside": {"type": "array", "description": "Cards a boolean table option sets aside.",
                              "items": {"type": "object", "properties": {
                                  "option": {"type": "string"}, "words": {"type": "string"},
                                  "cards": {"type": "array", "items": {"type": "string"}}}}},
                "short": {"type": "object", "additionalProperties": {"type": "string"},
                          "description": "The picker's short face of each card, by code."},
                "tarot_short": {"type": "object", "additionalProperties": {"type": "string"}},
                "suits": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "prefix": {"type": "string"},
                            "name": {"type": "string"},
                            "tarot": {"type": "string"},
                        },
                    },
                },
                "cards": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["code", "value", "copies", "name", "tarot", "suit"],
                        "properties": {
                            "code": {"type": "string"},
                            "value": {"type": "integer"},
                            "copies": {"type": "integer"},
                            "name": {"type": "string"},
                            "tarot": {"type": "string"},
                            "suit": {"type": ["string", "null"]},
                        },
                    },
                },
            },
        }
    },
)
