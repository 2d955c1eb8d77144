"""`POST /api/v1/settle`: the payout calculator (SETTLE-API.md).

Stateless: the body describes the reveal, the answer says who wins what and who pays (or which
players a tie needs a card from). Every invalid input is a 422 with `{"error", "field"}`; the
body is read and checked in full before anything is settled.

The game whose preset `rules` names answers (its `Game.calculator`, found by the registry); a
game without a calculator is a 422 in words. The OpenAPI document lists every game's request
and answer as the game declares them (`Game.calculator_schema`), so a plug-in game's calculator
is documented with no edit here.
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from typing import Any, Mapping

from companion.games import registry
from companion.games.api import CalculatorSchema, InvalidRequest
from companion.refusal import Refused
from companion.server.errors import read_json
from companion.server.openapi import describe_each_time, error_response

bp = Blueprint("settle_api", __name__)


@bp.post("/api/v1/settle")
def settle_hand():
    """Settle a reveal, or ask for the cards its tie needs, as the game of the preset says."""
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


def calculator_schemas() -> list[tuple[Any, CalculatorSchema]]:
    """Each game with a documented calculator, with its `CalculatorSchema`, in the registry's
    order (a plug-in game's too)."""
    return [(g, g.calculator_schema()) for g in registry.games().values()
            if g.calculator is not None and g.calculator_schema is not None]


def _describe() -> tuple[dict[str, Any], dict[str, Any]]:
    """The endpoint, every registered game's request and answer, and `CalculatorRequest` /
    `CalculatorResult` (any of them), as (paths, schemas) of the OpenAPI document."""
    components: dict[str, Any] = {}
    requests: list[str] = []
    results: list[str] = []
    examples: dict[str, Any] = {}
    words: list[str] = []
    for game, declared in calculator_schemas():
        # A game whose names clash with another game's schemas, or that names a schema it does
        # not declare, is left out of the document (the rest of it stays valid).
        if any(components.get(n, schema) != schema for n, schema in declared.components.items()) \
                or not {declared.request, declared.result} <= set(declared.components):
            continue
        components.update(declared.components)
        for name, kept in ((declared.request, requests), (declared.result, results)):
            if name not in kept:
                kept.append(name)
        examples.update(declared.examples)
        if declared.description and declared.description not in words:
            words.append(declared.description)
    components["CalculatorRequest"] = {
        "description": "The request of one game's payout calculator: the game whose preset `rules` names answers.",
        "anyOf": [{"$ref": f"#/components/schemas/{n}"} for n in requests]}
    components["CalculatorResult"] = {"anyOf": [{"$ref": f"#/components/schemas/{n}"} for n in results]}
    return (
        {
            "/api/v1/settle": {
                "post": {
                    "summary": "Settle a reveal (the payout calculator)",
                    "description": "The game whose preset `rules` names settles the reveal; each game's "
                    "request and answer are their own. " + " ".join(words),
                    "operationId": "settle",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/CalculatorRequest"},
                                "examples": examples,
                            }
                        },
                    },
                    "responses": {
                        "200": {
                            "description": "Settled, or waiting for the cards a tie needs.",
                            "content": {"application/json": {
                                "schema": {"$ref": "#/components/schemas/CalculatorResult"}}},
                        },
                        "400": error_response("The body is not valid JSON."),
                        "413": error_response("The body is too large."),
                        "415": error_response("The body is not sent as application/json."),
                        "422": error_response("The request is not a valid reveal; field names the bad field."),
                    },
                }
            }
        },
        components,
    )


describe_each_time(_describe)
