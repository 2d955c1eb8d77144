"""`/api/v1/tables/...`: create, join, act, undo, read the state and the audit log of a table.

Every endpoint is described in `docs/table-api.md` and in the OpenAPI document. Each request
is checked completely before the table's owner sees it; the owner (and the engine behind it)
refuse the rest with nothing changed, so a refused request never leaves anything half-done.

Who is asking is read from the token (`Authorization: Bearer`, `X-Seat-Token`, or `?token=`
where a browser cannot set headers): the host token acts as `"host"`, a seat token as that
seat. A request cannot name another actor.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

import qrcode
import qrcode.image.svg
from flask import Blueprint, Flask, Response, current_app, jsonify, request

from companion.rules.rulesets import OPTIONS as RULE_OPTIONS
from companion.rules.rulesets import PRESETS
from companion.server.addresses import phone_base_url
from companion.refusal import Refused
from companion.server.errors import read_json
from companion.server.openapi import describe, error_response
from companion.table import registry as registry_mod
from companion.table.commands import check as check_schema  # the one validator
from companion.table.engine import NAME_MAX
from companion.table.owner import HOST, JOIN, VIEW_HISTORY, TableOwner
from companion.table.registry import registry_for

bp = Blueprint("tables_api", __name__)

KEY_MAX = 100
LOG_LIMIT_MAX = 500
#: Fields of the request body that are about the request, not the command.
REQUEST_FIELDS = ("version", "idempotency_key")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


# -- helpers ---------------------------------------------------------------------------------


def _owner(code: str) -> TableOwner:
    owner = registry_for().get(code)
    if owner is None:
        raise Refused(404, f"there is no table {code[:12]!r} on this server", "code")
    return owner


def request_token() -> str | None:
    """The token sent with the request, if any."""
    auth = request.headers.get("Authorization", "")
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip() or None
    return request.headers.get("X-Seat-Token") or request.args.get("token") or None


def viewer(owner: TableOwner, required: bool = False) -> str | None:
    """Who is asking: HOST, a seat id, or None (a spectator). A token that is not this
    table's → 403; no token where one is `required` → 401."""
    token = request_token()
    if token is None:
        if required:
            raise Refused(401, "send your seat or host token (Authorization: Bearer ...)", "token")
        return None
    who = owner.seat_for_token(token) if len(token) <= 200 else None
    if who is None:
        raise Refused(403, "this token is not valid at this table", "token")
    return who


def _view(owner: TableOwner, who: str | None) -> tuple[int, dict]:
    # The latest rows of the stack chart only: an answer must not grow with the session.
    if who == HOST:
        return owner.view(None, host=True, history=VIEW_HISTORY)
    return owner.view(who, history=VIEW_HISTORY)


def _refused(exc: Refused, owner: TableOwner, who: str | None) -> Refused:
    """The API error for a refusal; a stale version carries the fresh state for the asker."""
    extra = dict(exc.extra)
    if exc.status == 409 and exc.field == "version":
        extra["version"], extra["state"] = _view(owner, who)
    return Refused(exc.status, exc.error, exc.field, **extra)


def _body_object() -> dict[str, Any]:
    body = read_json()
    if not isinstance(body, dict):
        raise Refused(400, "the body must be a JSON object", "body")
    return body


def _only(body: dict, allowed: tuple[str, ...]) -> None:
    for k in body:
        if k not in allowed:
            raise Refused(422, f"unknown field {k!r}", str(k)[:60])


def _request_fields(body: dict) -> tuple[int | None, str | None]:
    version = body.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int) or version < 0):
        raise Refused(400, "version must be a whole number ≥ 0", "version")
    key = body.get("idempotency_key")
    if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= KEY_MAX):
        raise Refused(400, f"idempotency_key must be a string of 1 to {KEY_MAX} characters", "idempotency_key")
    return version, key


def commands() -> dict[str, dict]:
    """The engine's command schemas (`COMMANDS`) of the table class in use."""
    table_class = registry_for().table_class
    return importlib.import_module(table_class.__module__).COMMANDS


def _command_entry(body: dict) -> dict:
    """The command part of a request body, checked against its schema."""
    kind = body.get("type")
    table_commands = commands()
    if not isinstance(kind, str) or kind not in table_commands or kind == JOIN:
        known = ", ".join(sorted(k for k in table_commands if k != JOIN))
        raise Refused(400, f"type must be one of: {known}", "type")
    entry = {k: v for k, v in body.items() if k not in REQUEST_FIELDS}
    schema = dict(table_commands[kind])
    props = dict(schema.get("properties", {}))
    props.setdefault("type", {"type": "string"})
    check_schema({**schema, "properties": props, "additionalProperties": False}, entry, "")
    return entry


def _name(value: Any) -> str:
    if not isinstance(value, str):
        raise Refused(400, "name must be a string", "name")
    name = value.strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise Refused(422, f"name must be 1 to {NAME_MAX} characters", "name")
    if _CONTROL.search(name):
        raise Refused(422, "name must not contain control characters", "name")
    return name


def join_url(code: str) -> str:
    """The phone page a new player opens to join table `code` (encoded in its QR code)."""
    return f"{phone_base_url()}join/{code}"


def _result_body(owner: TableOwner, who: str | None, result) -> dict[str, Any]:
    version, state = _view(owner, who)
    out: dict[str, Any] = {"version": version, "seq": result.seq, "events": result.events, "state": state}
    if result.replayed:
        out["replayed"] = True
    if result.undone is not None:
        out["undone"] = result.undone
    return out


# -- endpoints -------------------------------------------------------------------------------


@bp.before_request
def _refuse_large_bodies():
    """Refuse an oversized body on every table endpoint, also those that never read one (Flask
    only enforces MAX_CONTENT_LENGTH when the body is read)."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit and (request.content_length or 0) > limit:
        raise Refused(413, f"the body is larger than {limit} bytes", "body")


@bp.get("/api/v1/tables")
def list_tables():
    """Every table on this server (public facts only)."""
    reg = registry_for()
    bound = reg.scrambler_code
    out = []
    for owner in reg.owners():
        row = owner.ledger.table(owner.code)
        out.append(
            {
                "code": owner.code,
                "version": owner.version,
                "seats": len(owner.seat_ids()),
                "created": row.created if row else 0,
                "scrambler": owner.code == bound,
            }
        )
    return jsonify({"tables": out})


@bp.post("/api/v1/tables")
def create_table():
    """Create a table from its settings; answers its code and the host token."""
    settings = _body_object()
    owner, host_token = registry_for().create(settings)
    version, state = owner.view(None, host=True, history=VIEW_HISTORY)
    return (
        jsonify(
            {
                "code": owner.code,
                "host_token": host_token,
                "version": version,
                "join_url": join_url(owner.code),
                "state": state,
            }
        ),
        201,
    )


@bp.get("/api/v1/tables/<code>")
def table_state(code: str):
    """The table's state as the asker may see it."""
    owner = _owner(code)
    who = viewer(owner)
    version, state = _view(owner, who)
    return jsonify(
        {
            "code": owner.code,
            "version": version,
            "viewer": {"seat": who if who not in (None, HOST) else None, "host": who == HOST},
            "state": state,
        }
    )


@bp.post("/api/v1/tables/<code>/join")
def join(code: str):
    """Take a seat: answers the seat id and its secret token."""
    owner = _owner(code)
    body = _body_object()
    _only(body, ("name", "idempotency_key"))
    if "name" not in body:
        raise Refused(422, "name is required", "name")
    name = _name(body["name"])
    _, key = _request_fields(body)
    try:
        result = owner.join(name, idempotency_key=key)
    except Refused as exc:
        raise _refused(exc, owner, None) from None
    if result.seat is None:
        raise Refused(409, "the table did not seat anyone", "name")
    version, state = owner.view(result.seat, history=VIEW_HISTORY)
    out = {"seat": result.seat, "token": result.token, "version": version, "events": result.events, "state": state}
    if result.replayed:
        out["replayed"] = True
    return jsonify(out), 200 if result.replayed else 201


@bp.post("/api/v1/tables/<code>/seats/<seat>/token")
def new_seat_token(code: str, seat: str):
    """Host only: a new token for a seat (moving it to a new phone)."""
    owner = _owner(code)
    if viewer(owner, required=True) != HOST:
        raise Refused(403, "only the host can issue a seat's token", "token")
    if request.content_length:  # no body needed; one that is sent must be an empty object
        _only(_body_object(), ())
    token = owner.issue_token(seat)
    return jsonify({"seat": seat, "token": token})


@bp.post("/api/v1/tables/<code>/commands")
def command(code: str):
    """Do something at the table as the token's seat (or as the host)."""
    owner = _owner(code)
    who = viewer(owner, required=True)
    body = _body_object()
    version, key = _request_fields(body)
    entry = _command_entry(body)
    if "dice" in entry and who != HOST:
        raise Refused(403, "only the host can enter dice; the scrambler rolls for you", "dice")
    try:
        result = owner.submit(entry, who, version=version, idempotency_key=key)
    except Refused as exc:
        raise _refused(exc, owner, who) from None
    return jsonify(_result_body(owner, who, result))


@bp.post("/api/v1/tables/<code>/undo")
def undo(code: str):
    """Host only: cancel an entry with a counter-entry."""
    owner = _owner(code)
    who = viewer(owner, required=True)
    body = _body_object()
    _only(body, ("seq", "version", "idempotency_key"))
    version, key = _request_fields(body)
    seq = body.get("seq")
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int) or seq < 1):
        raise Refused(400, "seq must be a whole number ≥ 1", "seq")
    if who != HOST:
        raise Refused(403, "only the host can undo", "token")
    try:
        result = owner.undo(who, seq=seq, version=version, idempotency_key=key)
    except Refused as exc:
        raise _refused(exc, owner, who) from None
    return jsonify(_result_body(owner, who, result))


def _int_arg(name: str, default: int, low: int, high: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise Refused(400, f"{name} must be a whole number from {low} to {high}", name)
    return int(raw)


@bp.get("/api/v1/tables/<code>/log")
def audit_log(code: str):
    """The audit log: every entry (undone ones too) with its events, for every seat."""
    owner = _owner(code)
    who = viewer(owner)
    after = _int_arg("after", 0, 0, 2**53)
    limit = _int_arg("limit", 200, 1, LOG_LIMIT_MAX)
    version = owner.version
    entries = owner.ledger.entries(owner.code, after=after, limit=limit)
    return jsonify(
        {
            "version": version,
            "entries": [owner.log_entry(e, who) for e in entries if e.seq <= version],
        }
    )


@bp.get("/api/v1/tables/<code>/qr.svg")
def join_qr(code: str):
    """The QR code of the table's join URL, as SVG."""
    owner = _owner(code)
    img = qrcode.make(join_url(owner.code), image_factory=qrcode.image.svg.SvgPathImage, border=2)
    return Response(img.to_string(encoding="unicode"), mimetype="image/svg+xml")


@bp.get("/api/v1/scrambler")
def scrambler_get():
    """Which table the scrambler (GPIO button, USB box) rolls for."""
    return jsonify({"code": registry_for().scrambler_code})


@bp.put("/api/v1/scrambler")
def scrambler_put():
    """Bind the scrambler to a table (that table's host token)."""
    body = _body_object()
    _only(body, ("code",))
    code = body.get("code")
    if not isinstance(code, str):
        raise Refused(422, "code must be a table code", "code")
    owner = _owner(code)
    if viewer(owner, required=True) != HOST:
        raise Refused(403, "only the table's host can bind the scrambler", "token")
    registry_for().bind_scrambler(owner.code)
    return jsonify({"code": owner.code})


def init_app(app: Flask) -> None:
    """Open the table registry (unless already open) and describe the endpoints."""
    if "tables" not in app.extensions:
        registry_mod.init_app(app)
    events.init_streams(app)
    with app.app_context():
        describe_endpoints(commands())


# -- OpenAPI ---------------------------------------------------------------------------------

_STATE = {"type": "object", "description": "Table.view() for the asker (docs/table-commands.md)."}
_EVENTS = {"type": "array", "items": {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}}}}
_CODE_PARAM = {"name": "code", "in": "path", "required": True, "schema": {"type": "string"}, "description": "The table's join code."}
_AUTH = [{"token": []}, {}]


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
        503: "Could not be saved; try again",
    }
    out = {str(s): error_response(words[s]) for s in statuses}
    if 409 in statuses:
        out["409"] = _json(_ref("Conflict"), words[409])
    return out


def describe_endpoints(table_commands: dict[str, dict]) -> None:
    """Add the table endpoints and the command schemas to the OpenAPI document."""
    command_variants = []
    schemas: dict[str, Any] = {}
    presets = sorted(PRESETS)
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
                    **{name: {"description": "a rule-set option (RULES.md)"} for name in sorted(RULE_OPTIONS)},
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
                    "state": _STATE,
                },
            },
            "TableState": {
                "type": "object",
                "required": ["code", "version", "viewer", "state"],
                "properties": {
                    "code": {"type": "string"},
                    "version": {"type": "integer"},
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
                    "responses": {"201": _json(_ref("Created"), "The new table"), **_errors(400, 413, 415, 422)},
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
                        **_errors(400, 404, 409, 413, 415, 422),
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
                        **_errors(401, 403, 404),
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
                        **_errors(400, 401, 403, 404, 409, 413, 415, 422, 503),
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
                    "summary": "Bind the scrambler to a table (that table's host token)",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {"type": "object", "required": ["code"], "properties": {"code": {"type": "string"}}, "additionalProperties": False}
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


# The event stream's route lives in its own module, on this blueprint.
from companion.server import events  # noqa: E402  (needs `bp`, defined above)
