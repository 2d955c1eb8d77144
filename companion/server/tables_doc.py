"""The OpenAPI description of the table API and its event stream (kept out of the handlers).

`describe_endpoints(commands)` adds every table endpoint and the command schemas (from the
engine's `COMMANDS`) to the document; `companion.server.tables_api.init_app` calls it.
"""

from __future__ import annotations

import re
from typing import Any

from companion.games import registry
from companion.server.limits import KEY_MAX, LOG_LIMIT_MAX
from companion.server.openapi import describe, error_response
from companion.table.engine import NAME_MAX
from companion.table.owner import JOIN


_STATE = {"type": "object", "description": "Table.view() for the asker (docs/table-commands.md)."}
_EVENTS = {"type": "array", "items": {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}}}}
_CODE_PARAM = {"name": "code", "in": "path", "required": True, "schema": {"type": "string"}, "description": "The table's join code."}
_AUTH: list[dict[str, list[str]]] = [{"token": []}, {}]


def _json(schema: dict, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _errors(*statuses: int) -> dict:
    words = {
        400: "Malformed request",
        401: "No token",
        403: "Not yours (unknown token, wrong seat, not the host)",
        404: "No such table (or seat / entry)",
        409: "Not now (wrong turn or phase, stale version, undo no longer applies)",
        413: "Body too large",
        415: "Not JSON",
        422: "Invalid value",
        503: "Could not be saved (nothing changed), or the table is damaged; try again",
        507: "Over a limit of the server's disk or table count (nothing changed)",
    }
    out = {str(s): error_response(words[s]) for s in statuses}
    if 409 in statuses:
        out["409"] = _json(_ref("Conflict"), words[409])
    return out


def describe_endpoints(table_commands: dict[str, dict]) -> None:
    """Add the table endpoints and the command schemas to the OpenAPI document."""
    command_variants = []
    schemas: dict[str, Any] = {}
    presets = sorted(registry.presets())  # every game's, a plug-in's included
    for kind, schema in table_commands.items():
        if kind == JOIN:
            continue
        props = {"type": {"const": kind}, **dict(schema.get("properties", {}))}
        props.update(
            version={"type": ["integer", "null"], "minimum": 0, "description": "The version the client saw (null: do not check)."},
            idempotency_key={"type": ["string", "null"], "minLength": 1, "maxLength": KEY_MAX},
        )
        name = "Command_" + re.sub(r"\W", "_", kind)
        schemas[name] = {
            "type": "object",
            "required": sorted({"type", *schema.get("required", [])}),
            "properties": props,
            "additionalProperties": False,
        }
        command_variants.append(_ref(name))
    schemas.update(
        {
            "Command": {"oneOf": command_variants},
            "Conflict": {
                "type": "object",
                "required": ["error", "field"],
                "properties": {
                    "error": {"type": "string"},
                    "field": {"type": ["string", "null"]},
                    "version": {"type": "integer"},
                    "state": _STATE,
                },
            },
            "TableSummary": {
                "type": "object",
                "required": ["code", "version", "seats", "created", "scrambler"],
                "properties": {
                    "code": {"type": "string"},
                    "version": {"type": "integer"},
                    "seats": {"type": "integer"},
                    "created": {"type": "number"},
                    "scrambler": {"type": "boolean"},
                },
            },
            "TableSettings": {
                "type": "object",
                "description": (
                    "Table.create settings (docs/table-commands.md): a preset name, or an object "
                    "with the preset and any rule-set options; rule-set options (ante, buy_in, "
                    "bet_limit, ...) and chip_set may also be given at the top level."
                ),
                "required": ["rules"],
                "properties": {
                    "rules": {
                        "oneOf": [
                            {"type": "string", "enum": presets},
                            {
                                "type": "object",
                                "required": ["preset"],
                                "properties": {"preset": {"type": "string", "enum": presets}},
                            },
                        ]
                    },
                    "max_seats": {"type": "integer", "minimum": 2, "maximum": 12},
                    "chip_set": {"type": "array", "items": {"type": "object"}},
                    **{name: {"description": "a rule-set option (RULES.md)"} for name in sorted(registry.options())},
                },
                "additionalProperties": False,
            },
            "Created": {
                "type": "object",
                "required": ["code", "host_token", "version", "join_url", "state"],
                "properties": {
                    "code": {"type": "string"},
                    "host_token": {"type": "string"},
                    "version": {"type": "integer"},
                    "join_url": {"type": "string"},
                    "display_key": {"type": "string", "description": "Opens the table display's event stream (?display=) with a guaranteed place; public view only."},
                    "state": _STATE,
                },
            },
            "TableState": {
                "type": "object",
                "required": ["code", "version", "viewer", "state"],
                "properties": {
                    "code": {"type": "string"},
                    "version": {"type": "integer"},
                    "display_key": {"type": "string", "description": "For the host only: the table display's key."},
                    "viewer": {
                        "type": "object",
                        "required": ["seat", "host"],
                        "properties": {"seat": {"type": ["string", "null"]}, "host": {"type": "boolean"}},
                    },
                    "state": _STATE,
                },
            },
            "Joined": {
                "type": "object",
                "required": ["seat", "token", "version", "events", "state"],
                "properties": {
                    "seat": {"type": "string"},
                    "token": {"type": "string"},
                    "version": {"type": "integer"},
                    "events": _EVENTS,
                    "state": _STATE,
                    "replayed": {"type": "boolean"},
                },
            },
            "Applied": {
                "type": "object",
                "required": ["version", "seq", "events", "state"],
                "properties": {
                    "version": {"type": "integer"},
                    "seq": {"type": "integer"},
                    "events": _EVENTS,
                    "state": _STATE,
                    "replayed": {"type": "boolean"},
                    "undone": {"type": "integer"},
                },
            },
            "LogEntry": {
                "type": "object",
                "required": ["seq", "ts", "type", "actor", "undone_by", "undoes", "body", "events"],
                "properties": {
                    "seq": {"type": "integer"},
                    "ts": {"type": "number"},
                    "type": {"type": "string"},
                    "actor": {"type": ["string", "null"]},
                    "undone_by": {"type": ["integer", "null"]},
                    "undoes": {"type": ["integer", "null"]},
                    "body": {"type": "object"},
                    "events": _EVENTS,
                },
            },
        }
    )
    token_desc = "Seat or host token: Authorization: Bearer <token> (or X-Seat-Token)."
    seq_body = {
        "type": "object",
        "properties": {
            "seq": {"type": ["integer", "null"], "minimum": 1},
            "version": {"type": ["integer", "null"], "minimum": 0},
            "idempotency_key": {"type": ["string", "null"], "minLength": 1, "maxLength": KEY_MAX},
        },
        "additionalProperties": False,
    }
    describe(
        schemas=schemas,
        paths={
            "/api/v1/tables": {
                "get": {
                    "summary": "List the tables on this server",
                    "responses": {
                        "200": _json(
                            {"type": "object", "required": ["tables"], "properties": {"tables": {"type": "array", "items": _ref("TableSummary")}}},
                            "The tables",
                        )
                    },
                },
                "post": {
                    "summary": "Create a table (the creator gets the host token)",
                    "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("TableSettings")}}},
                    "responses": {"201": _json(_ref("Created"), "The new table"), **_errors(400, 413, 415, 422, 503, 507)},
                },
            },
            "/api/v1/tables/{code}": {
                "get": {
                    "summary": "The table's state for the asker (public, seat or host view)",
                    "description": token_desc + " Optional.",
                    "parameters": [_CODE_PARAM],
                    "responses": {"200": _json(_ref("TableState"), "The state"), **_errors(403, 404)},
                }
            },
            "/api/v1/tables/{code}/join": {
                "post": {
                    "summary": "Take a seat: answers the seat id and its secret token",
                    "parameters": [_CODE_PARAM],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["name"],
                                    "properties": {
                                        "name": {"type": "string", "minLength": 1, "maxLength": NAME_MAX},
                                        "idempotency_key": {"type": ["string", "null"], "minLength": 1, "maxLength": KEY_MAX},
                                    },
                                    "additionalProperties": False,
                                }
                            }
                        },
                    },
                    "responses": {
                        "201": _json(_ref("Joined"), "Seated"),
                        "200": _json(_ref("Joined"), "A retried join (same idempotency key): the same seat, a new token"),
                        **_errors(400, 404, 409, 413, 415, 422, 503, 507),
                    },
                }
            },
            "/api/v1/tables/{code}/seats/{seat}/legal": {
                "get": {
                    "summary": "Host only: one seat's legal moves (the console plays a seat without a phone)",
                    "description": token_desc,
                    "parameters": [_CODE_PARAM, {"name": "seat", "in": "path", "required": True, "schema": {"type": "string"}}],
                    "responses": {
                        "200": _json(
                            {"type": "object", "required": ["seat", "version", "legal"], "properties": {
                                "seat": {"type": "string"}, "version": {"type": "integer"},
                                "legal": {"type": "array", "items": {"type": "object"}}}},
                            "The seat's legal moves",
                        ),
                        **_errors(401, 403, 404, 503),
                    },
                }
            },
            "/api/v1/tables/{code}/seats/{seat}/token": {
                "post": {
                    "summary": "Host only: a new token for a seat (the old one stops working)",
                    "description": token_desc,
                    "parameters": [_CODE_PARAM, {"name": "seat", "in": "path", "required": True, "schema": {"type": "string"}}],
                    "responses": {
                        "200": _json(
                            {"type": "object", "required": ["seat", "token"], "properties": {"seat": {"type": "string"}, "token": {"type": "string"}}},
                            "The new token",
                        ),
                        **_errors(401, 403, 404, 503),
                    },
                }
            },
            "/api/v1/tables/{code}/commands": {
                "post": {
                    "summary": "Do something at the table (as the token's seat, or the host)",
                    "description": token_desc + " Commands: docs/table-commands.md.",
                    "parameters": [_CODE_PARAM],
                    "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("Command")}}},
                    "responses": {
                        "200": _json(_ref("Applied"), "Applied (committed to disk)"),
                        **_errors(400, 401, 403, 404, 409, 413, 415, 422, 503, 507),
                    },
                }
            },
            "/api/v1/tables/{code}/undo": {
                "post": {
                    "summary": "Host only: undo an entry of the current hand (a counter-entry)",
                    "description": token_desc,
                    "parameters": [_CODE_PARAM],
                    "requestBody": {"required": True, "content": {"application/json": {"schema": seq_body}}},
                    "responses": {
                        "200": _json(_ref("Applied"), "Undone"),
                        **_errors(400, 401, 403, 404, 409, 413, 415, 422, 503),
                    },
                }
            },
            "/api/v1/tables/{code}/log": {
                "get": {
                    "summary": "The audit log (every entry, undone ones and undos too)",
                    "parameters": [
                        _CODE_PARAM,
                        {"name": "after", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                        {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": LOG_LIMIT_MAX}},
                    ],
                    "responses": {
                        "200": _json(
                            {
                                "type": "object",
                                "required": ["version", "entries"],
                                "properties": {"version": {"type": "integer"}, "entries": {"type": "array", "items": _ref("LogEntry")}},
                            },
                            "The entries",
                        ),
                        **_errors(400, 403, 404),
                    },
                }
            },
            "/api/v1/tables/{code}/qr.svg": {
                "get": {
                    "summary": "The QR code of the table's join URL",
                    "parameters": [_CODE_PARAM],
                    "responses": {
                        "200": {"description": "SVG", "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
                        **_errors(404),
                    },
                }
            },
            "/api/v1/scrambler": {
                "get": {
                    "summary": "Which table the scrambler rolls for",
                    "responses": {
                        "200": _json({"type": "object", "required": ["code"], "properties": {"code": {"type": ["string", "null"]}}}, "The table")
                    },
                },
                "put": {
                    "summary": "Bind the scrambler to a table (the server's owner token, or the host token of the table it serves now)",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {"type": "object", "required": ["code"], "properties": {"code": {"type": "string"}, "owner_token": {"type": "string"}}, "additionalProperties": False}
                            }
                        },
                    },
                    "responses": {
                        "200": _json({"type": "object", "required": ["code"], "properties": {"code": {"type": "string"}}}, "Bound"),
                        **_errors(400, 401, 403, 404, 413, 415, 422),
                    },
                },
            },
        },
    )


describe(
    paths={
        "/api/v1/tables/{code}/events": {
            "get": {
                "summary": "The table's live event stream (Server-Sent Events)",
                "description": (
                    "A `snapshot` message on connect, then an `update` per ledger entry (id = "
                    "the entry's version), `: ping` every few seconds. `Last-Event-ID` resumes. "
                    "Optional token as `?token=` (EventSource cannot send headers). With "
                    "`?changed=1` an update's `state` holds only the top-level parts that changed "
                    "since the last state the stream sent (keep the others)."
                ),
                "parameters": [
                    {"name": "code", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "token", "in": "query", "required": False, "schema": {"type": "string"}},
                    {"name": "changed", "in": "query", "required": False, "schema": {"type": "string", "enum": ["1"]},
                     "description": "1: each update's state holds only the top-level parts that changed."},
                    {"name": "display", "in": "query", "required": False, "schema": {"type": "string"},
                     "description": "The table display's key (from the host): a guaranteed place, the public view."},
                ],
                "responses": {
                    "200": {
                        "description": "The stream: one schema per message (`data` is one line of JSON)",
                        "content": {
                            "text/event-stream": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "event": {"enum": ["snapshot", "update", "bye"]},
                                        "id": {"type": "string", "pattern": "^[0-9]+$"},
                                        "data": {"type": "string"},
                                        "retry": {"type": "integer"},
                                    },
                                }
                            }
                        },
                    },
                    "400": error_response("`changed` is not 1"),
                    "403": error_response("Unknown token"),
                    "404": error_response("No such table"),
                    "503": error_response("Too many open streams (Retry-After)"),
                },
            }
        }
    }
)
