"""The site's pages: home, the payout calculator and the rules page; and the deck as JSON.

Templates extend `base.html`. Two helpers are registered for every template, so later pages
(a live table's own rules page, the player page) can reuse them:

- `explain_rules(ruleset)`: the rules page's sections for a `RuleSet` (see
  `companion.rules.explain`), rendered by the `rules_sections` macro of
  `partials/rules.html`;
- `presets`: every preset rule set, for pickers.

`GET /api/v1/cards` serves the deck (the card picker's one source of truth).
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask.blueprints import BlueprintSetupState

from companion.rules.cards import CARDS, SUITS
from companion.rules.explain import explain
from companion.rules.rulesets import PRESETS, InvalidRules, ruleset_from
from companion.server.openapi import describe

bp = Blueprint("pages", __name__)


def deck_json() -> dict:
    """The deck as the card picker reads it: suits in order, then every distinct card."""
    return {
        "suits": [{"prefix": s.prefix, "name": s.name, "tarot": s.tarot} for s in SUITS],
        "cards": [
            {
                "code": c.code,
                "value": c.value,
                "copies": c.copies,
                "name": c.name,
                "tarot": c.tarot,
                "suit": c.suit.prefix if c.suit else None,
            }
            for c in CARDS.values()
        ],
    }


# Globals rather than a context processor, so imported macros (partials/rules.html) see them.
bp.add_app_template_global(explain, "explain_rules")


@bp.record_once
def _presets_global(state: BlueprintSetupState) -> None:
    """`presets` in every template: a value, which `add_app_template_global` (for functions)
    does not take."""
    state.app.jinja_env.globals["presets"] = PRESETS


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
    """The payout calculator: type in a reveal, get who wins what."""
    return render_template("calculator.html", default_preset="classic")


@bp.get("/rules")
def rules():
    """The rules in plain words for one preset (`?preset=NAME`, default classic)."""
    name = request.args.get("preset", "classic")
    try:
        ruleset = ruleset_from(name)
    except InvalidRules:
        abort(404)
    return render_template("rules.html", ruleset=ruleset)


@bp.get("/api/v1/cards")
def cards():
    """The 76-card deck: suits, and each distinct card with its value, copies and names."""
    return jsonify(deck_json())


describe(
    paths={
        "/api/v1/cards": {
            "get": {
                "summary": "The deck",
                "description": "Every distinct card of the 76-card deck, with its code (as used "
                "by POST /api/v1/settle), value, how many copies the deck holds, its name and "
                "its tarot name.",
                "responses": {
                    "200": {
                        "description": "The deck",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Deck"}}},
                    }
                },
            }
        }
    },
    schemas={
        "Deck": {
            "type": "object",
            "required": ["suits", "cards"],
            "properties": {
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
