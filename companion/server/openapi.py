"""The OpenAPI document at /api/v1/openapi.json, assembled from each API module's part.

Each blueprint module calls `describe(paths=..., schemas=...)` when it is imported, so the
document always lists exactly the endpoints that are registered.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

from flask import Blueprint, Response, current_app, jsonify

from companion import __version__
from companion.games import registry

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


#: How many times the document's parts changed (`describe`, `describe_later`,
#: `describe_each_time`): the served text is made again after a change (`openapi_json`).
_CHANGES = [0]


def describe(paths: dict[str, Any] | None = None, schemas: dict[str, Any] | None = None) -> None:
    """Add path items and component schemas to the document."""
    for path, item in (paths or {}).items():
        _PATHS.setdefault(path, {}).update(item)
    _SCHEMAS.update(schemas or {})
    _CHANGES[0] += 1


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
    _CHANGES[0] += 1


#: Parts of the document written again each time it is made (`describe_each_time`).
_EACH_TIME: list[Callable[[], tuple[dict[str, Any], dict[str, Any]]]] = []


def describe_each_time(write: Callable[[], tuple[dict[str, Any], dict[str, Any]]]) -> None:
    """Have `write()` give (paths, schemas) each time the document is made: a part that
    follows the registered games (a plug-in game found after the server started shows too).
    The document is made again only when the games or its parts change (`openapi_json`), so
    `write()` may read the games and nothing else that changes."""
    _EACH_TIME.append(write)
    _CHANGES[0] += 1


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


#: The document's JSON as last served: (what it was made from, its bytes, its media type).
_SERVED: list[tuple[tuple[Any, ...], bytes, str]] = []


@bp.get("/api/v1/openapi.json")
def openapi_json():
    """Serve the OpenAPI document: written once for the parts and games it is made of (it
    was 3 ms of the server's time per request, and anyone on the Wi-Fi may ask for it)."""
    made_from = (_CHANGES[0], current_app.json, *registry.games().values())
    if not _SERVED or not _same(_SERVED[0][0], made_from):
        answer = jsonify(document())
        _SERVED[:] = [(made_from, answer.get_data(), answer.mimetype or "application/json")]
    _, body, mimetype = _SERVED[0]
    return Response(body, mimetype=mimetype)


def _same(made_from: tuple[Any, ...], now: tuple[Any, ...]) -> bool:
    """Whether the document was made from `now`: the same count of changes, then the very
    same JSON writer and games (compared by identity)."""
    return len(made_from) == len(now) and made_from[0] == now[0] and \
        all(a is b for a, b in zip(made_from[1:], now[1:]))


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
