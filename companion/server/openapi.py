"""The OpenAPI document at /api/v1/openapi.json, assembled from each API module's part.

Each blueprint module calls `describe(paths=..., schemas=...)` when it is imported, so the
document always lists exactly the endpoints that are registered.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

from flask import Blueprint, jsonify

from companion import __version__

bp = Blueprint("openapi", __name__)

_PATHS: dict[str, Any] = {}
_SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error", "field"],
        "properties": {
            "error": {"type": "string", "description": "What is wrong, in words."},
            "field": {
                "type": ["string", "null"],
                "description": "Path of the bad field, e.g. players[2].cards[1].",
            },
        },
    }
}


def describe(paths: dict[str, Any] | None = None, schemas: dict[str, Any] | None = None) -> None:
    """Add path items and component schemas to the document."""
    for path, item in (paths or {}).items():
        _PATHS.setdefault(path, {}).update(item)
    _SCHEMAS.update(schemas or {})


def error_response(description: str) -> dict[str, Any]:
    """A response object whose body is the common `Error` schema."""
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


#: Parts of the document written when it is first asked for (`describe_later`).
_LATER: list[Callable[[], None]] = []


def describe_later(write: Callable[[], None]) -> None:
    """Have `write` add its part (with `describe`) when the document is first asked for: the
    table commands of every game would otherwise load every game's engine when the server
    starts, a megabyte a Pi Zero's phones can use."""
    _LATER.append(write)


#: Parts of the document written each time it is asked for (`describe_each_time`).
_EACH_TIME: list[Callable[[], tuple[dict[str, Any], dict[str, Any]]]] = []


def describe_each_time(write: Callable[[], tuple[dict[str, Any], dict[str, Any]]]) -> None:
    """Have `write()` give (paths, schemas) each time the document is asked for: a part that
    follows the registered games (a plug-in game found after the server started shows too)."""
    _EACH_TIME.append(write)


def document() -> dict[str, Any]:
    """The whole OpenAPI 3.1 document."""
    while _LATER:
        _LATER.pop(0)()
    paths, schemas = copy.deepcopy(_PATHS), copy.deepcopy(_SCHEMAS)
    for write in _EACH_TIME:
        more_paths, more_schemas = write()
        for path, item in more_paths.items():
            paths.setdefault(path, {}).update(item)
        schemas.update(more_schemas)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Sabacc table companion",
            "version": __version__,
            "description": "The payout calculator and the live table of the Sabacc companion.",
        },
        "paths": paths,
        "components": {"schemas": schemas},
    }


@bp.get("/api/v1/openapi.json")
def openapi_json():
    """Serve the OpenAPI document."""
    return jsonify(document())


describe(
    paths={
        "/api/v1/openapi.json": {
            "get": {
                "summary": "This document",
                "responses": {"200": {"description": "The OpenAPI document", "content": {"application/json": {"schema": {"type": "object"}}}}},
            }
        }
    }
)
