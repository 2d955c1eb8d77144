"""Classic's part of the showdown's calculator request as JSON Schema (the runtime's
`companion.rules.showdown_schema` builds the request every game played with a `RuleSet` reads):
its own fields of a player (the sudden demise's card, the Hold 'Em static field, the Force
Sabacc side), its options, its penalties and its sudden demise's answer; and its calculator
page's form::

    >>> s = schema()
    >>> s.request, s.result, "SuddenDemise" in s.components
    ('SettleRequest', 'SettleResult', True)
    >>> sorted(own_fields({"type": "string"}, {}))
    ['demise', 'side', 'static']
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.games.api import CalculatorSchema
from companion.games.classic.options import Ranking
from companion.games.classic.presets import DEMISE_PLAYERS, PRESETS, SUDDEN_DEMISE
from companion.rules import showdown_schema
from companion.rules.request import MAX_CARDS
from companion.rules.rulesets import RuleSet

def schema() -> CalculatorSchema:
    """The showdown's request and answer (`showdown_schema.schema`), with SETTLE-API.md's
    example and classic's form (`GAME.calculator_schema`)."""
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
    return showdown_schema.schema({"reveal": {"summary": "Han's Idiot's Array", "value": example}},
                                  form(PRESETS["classic"]))


def own_fields(card: Mapping[str, Any], rule_sets: Mapping[str, RuleSet]) -> dict[str, Any]:
    """Classic's own fields of a request's player (`PlayerReveal.own_schema`)."""
    return {
        "demise": {
            "type": "array",
            "minItems": 1,
            "maxItems": 1,
            "items": card,
            "description": "The sudden-demise card, only for a player a response named in demise_players.",
        },
        "static": {
            "type": "array",
            "maxItems": MAX_CARDS,
            "items": card,
            "description": "Hold 'Em only (empty otherwise): which of cards lie in the static "
            "field (they are in cards too); community cards for every other player still in the hand.",
        },
        "side": {
            "type": ["string", "null"],
            "enum": ["light", "dark", None],
            "description": "Force Sabacc only, required there for every player still in the hand.",
        },
    }


def option_types(whole: Mapping[str, Any]) -> dict[str, Any]:
    """The seven option names SETTLE-API.md fixes, with their types (`PlayerReveal.option_schema`);
    the project's other options are listed without a type of their own and checked by the
    server (a bad value is a 422)."""
    return {
        "bomb_out_penalty": {
            "description": '"hand_pot" (the default) or a fixed whole number of credits.',
            "oneOf": [{"type": "string", "enum": ["hand_pot"]}, dict(whole)],
        },
        "ranking": {"type": "string", "enum": [r.value for r in Ranking]},
        "negative_pure": {"type": "boolean", "description": "-23 is also Pure Sabacc."},
        "fairy_empress": {"type": "boolean"},
        "holdem": {"type": "boolean"},
        "force_sabacc": {"type": "boolean"},
        "corellia_run": {"type": "boolean"},
    }


def sudden_demise(names: Mapping[str, Any]) -> tuple[str, dict[str, Any], str]:
    """The answer while a sudden demise is dealt (`PlayerReveal.tie_answer`)."""
    return ("SuddenDemise",
            showdown_schema.tie_players(SUDDEN_DEMISE, DEMISE_PLAYERS, names, "Send each of them one demise card.", 2),
            "When tied hands go to a sudden demise, answers status sudden_demise with the players who need one "
            "more card; send the same request again with their demise cards.")


def form(rules: RuleSet) -> dict[str, Any]:
    """The calculator page's form in classic's words: its options and variants, the caller, a
    side (Force Sabacc) and a static field (Hold 'Em) for each player, and the sudden demise."""
    return showdown_schema.form(
        rules,
        {"status": SUDDEN_DEMISE, "players": DEMISE_PLAYERS, "field": "demise", "title": "Sudden demise",
         "text": "{names} tie. The dealer deals each of them one more card: pick the card each one was dealt, "
                 "then settle.",
         "label": "Card dealt to {name}"},
        cards={"label": "Cards at the reveal (static field included)",
               "label_when": {"holdem": "Cards in hand (not the static field)"}},
        player_before=[{"key": "side", "label": "Side (Force Sabacc)", "kind": "choice", "when": "force_sabacc",
                        "skip_folded": True, "choices": [["", "Choose a side"], ["light", "Light: aims for +23"],
                                                         ["dark", "Dark: aims for -23"]]}],
        # Hold 'Em's static field is entered apart; the request wants it in `cards` too.
        player_after_cards=[{"key": "static", "label": "Static field: community cards for everyone else",
                             "kind": "cards", "when": "holdem", "joins": "cards", "skip_folded": True}],
        options=[
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
        ])
