"""`/api/v1/tables/...`: create, join, act, undo, read the state and the audit log of a table.

Every endpoint is described in `docs/table-api.md` and in the OpenAPI document. Each request
is checked completely before the table's owner sees it; the owner (and the engine behind it)
refuse the rest with nothing changed, so a refused request never leaves anything half-done.

Who is asking is read from the token (`companion.server.access`): the host token acts as
`"host"`, a seat token as that seat. A request cannot name another actor. The OpenAPI
description of these endpoints is in `companion.server.tables_doc`; the event stream is its own
blueprint (`companion.server.events`).
"""

from __future__ import annotations

import importlib
import json
import re
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request

from companion.server import qr
from companion.server.addresses import phone_base_url
from companion.refusal import Refused
from companion.server.errors import read_json
from companion.server import front
from companion.server.access import client_address, request_token, table_owner, viewer
from companion.server.limits import COMMAND_BODY_MAX, COMMAND_ENDPOINTS, LOG_LIMIT_MAX
from companion.server.openapi import describe_later
from companion.server.tables_doc import describe_endpoints
from companion.table import registry as registry_mod
from companion.table.commands import check as check_schema  # the one validator
from companion.table.commands import per_schema  # a schema's closed form, made once
from companion.table.engine import NAME_MAX
from companion.table.owner import HOST, JOIN, VIEW_HISTORY, TableOwner, check_transport
from companion.table.registry import registry_for
from companion.table.views import dumps

bp = Blueprint("tables_api", __name__)

#: Fields of the request body that are about the request, not the command.
REQUEST_FIELDS = ("version", "idempotency_key")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


# -- helpers ---------------------------------------------------------------------------------



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


def _lone_surrogate(value: Any) -> str | None:
    """The path of the first string in `value` (keys included) holding a lone surrogate such
    as "\\ud800" (valid JSON, but not text: it cannot be stored), or None. Iterative: a body
    nested thousands deep (which Python 3.13's JSON reader accepts) cannot overflow it."""
    todo: list[tuple[Any, str]] = [(value, "")]
    while todo:
        item, path = todo.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return (path or "body").encode("utf-8", "replace").decode()[:60]
        elif isinstance(item, list):
            todo.extend((v, f"{path}[{i}]") for i, v in reversed(list(enumerate(item))))
        elif isinstance(item, dict):
            for k, v in reversed(list(item.items())):
                sub = f"{path}.{k}" if path else str(k)
                todo.extend(((v, sub), (k, sub)))
    return None


def _body_object() -> dict[str, Any]:
    body = read_json()
    if not isinstance(body, dict):
        raise Refused(400, "the body must be a JSON object", "body")
    # In a body sent as UTF-8 (which cannot hold one) a lone surrogate only comes from a \u
    # escape: such a body without one is not walked.
    raw = request.get_data(cache=True)
    where = _lone_surrogate(body) if b"\\u" in raw or json.detect_encoding(raw) != "utf-8" else None
    if where is not None:
        raise Refused(400, f"{where} holds a lone surrogate (such as \\ud800), which is not text", where)
    return body


def _only(body: dict, allowed: tuple[str, ...]) -> None:
    for k in body:
        if k not in allowed:
            raise Refused(422, f"unknown field {k!r}", str(k)[:60])


def _request_fields(body: dict) -> tuple[int | None, str | None]:
    """The body's transport fields, checked by the owner's one check (`check_transport`)."""
    version, key = body.get("version"), body.get("idempotency_key")
    check_transport(version, key)
    return version, key


def commands() -> dict[str, dict]:
    """Every command schema some table accepts (the table class's, each game's engine's)."""
    table_class = registry_for().table_class
    every = getattr(table_class, "every_command_schema", None)
    return every() if every is not None else importlib.import_module(table_class.__module__).COMMANDS


def _command_entry(body: dict, owner: Any) -> dict:
    """The command part of a request body, checked against its schema: the one its table
    accepts (its game's)."""
    kind = body.get("type")
    schemas = getattr(owner.table, "command_schemas", None)
    table_commands = schemas() if schemas is not None else commands()
    if not isinstance(kind, str) or kind not in table_commands or kind == JOIN:
        known = ", ".join(sorted(k for k in table_commands if k != JOIN))
        raise Refused(400, f"type must be one of: {known}", "type")
    entry = {k: v for k, v in body.items() if k not in REQUEST_FIELDS}
    check_schema(_closed_schema(table_commands[kind]), entry, "")
    return entry


#: `_closed_schema`'s answers: the id of a command's schema -> (that schema, its closed form).
_CLOSED: dict[int, tuple[dict, dict]] = {}


def _closed_schema(schema: dict) -> dict:
    """A command's schema as a request body is checked against it: its `type` field named and
    no other field than its own. Worked out once per schema (`per_schema`)."""
    return per_schema(_CLOSED, schema, _close)


def _close(schema: dict) -> dict:
    """`schema` with a `type` field and no other field than its own."""
    props = dict(schema.get("properties", {}))
    props.setdefault("type", {"type": "string"})
    return {**schema, "properties": props, "additionalProperties": False}


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


def _result_response(owner: TableOwner, who: str | None, result) -> Response:
    """The answer to a command or an undo: `{"version", "seq", "events", "state",
    "replayed"?, "undone"?}`. The asker's state is the text its own event stream sends
    (`TableOwner.view_text`), made once per version for both."""
    version, state = owner.view_text(None, host=True) if who == HOST else owner.view_text(who)
    body = f'{{"version":{version},"seq":{result.seq},"events":{dumps(result.events)},"state":{state}'
    if result.replayed:
        body += ',"replayed":true'
    if result.undone is not None:
        body += f',"undone":{result.undone}'
    return Response(body + "}\n", mimetype="application/json")


# -- endpoints -------------------------------------------------------------------------------


@bp.before_request
def _refuse_large_bodies():
    """Refuse an oversized body on every table endpoint, also those that never read one (Flask
    only enforces MAX_CONTENT_LENGTH when the body is read)."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if request.endpoint in COMMAND_ENDPOINTS:
        # One entry's bytes on the disk are bounded by its command's (docs/SECURITY.md).
        limit = min(limit or COMMAND_BODY_MAX, COMMAND_BODY_MAX)
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
    """Create a table from its settings; answers its code and the host token. Made with the
    server's owner token (`Authorization: Bearer`, the link `serve` prints for the host holds
    it), the table is one of the owner's: it takes the scrambler when that is bound to no
    table, and its seats, host and display come first (docs/SECURITY.md)."""
    reg = registry_for()
    token = request_token()
    by_owner = reg.is_owner_token(token)
    if token is not None and not by_owner:
        raise Refused(403, "this is not the server's owner token; make the table without a "
                      "token, or with the one serve printed", "token")
    if by_owner:
        front.mark(request.environ, front.OWN_TABLE, token)
    settings = _body_object()
    owner, host_token = reg.create(settings, by=client_address(), owner_token=by_owner)
    if by_owner:
        front.mark(request.environ, front.OWN_TABLE, host_token)
    version, state = owner.view(None, host=True, history=VIEW_HISTORY)
    return (
        jsonify(
            {
                "code": owner.code,
                "host_token": host_token,
                "version": version,
                "join_url": join_url(owner.code),
                "display_key": owner.display_key(),
                "state": state,
            }
        ),
        201,
    )


@bp.get("/api/v1/tables/<code>")
def table_state(code: str):
    """The table's state as the asker may see it."""
    owner = table_owner(code)
    who = viewer(owner)
    version, state = _view(owner, who)
    out = {
        "code": owner.code,
        "version": version,
        "viewer": {"seat": who if who not in (None, HOST) else None, "host": who == HOST},
        "state": state,
    }
    if who == HOST:
        out["display_key"] = owner.display_key()  # the host console links the display with it
    return jsonify(out)


@bp.get("/api/v1/tables/<code>/seats/<seat>/legal")
def seat_legal(code: str, seat: str):
    """Host only: one seat's legal moves, for the console playing a seat without a phone."""
    owner = table_owner(code)
    if viewer(owner, required=True) != HOST:
        raise Refused(403, "only the host can play for a seat", "token")
    version, legal = owner.legal(seat[:12])
    return jsonify({"seat": seat, "version": version, "legal": legal})


@bp.post("/api/v1/tables/<code>/join")
def join(code: str):
    """Take a seat: answers the seat id and its secret token."""
    owner = table_owner(code)
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
    owner = table_owner(code)
    if viewer(owner, required=True) != HOST:
        raise Refused(403, "only the host can issue a seat's token", "token")
    if request.content_length:  # no body needed; one that is sent must be an empty object
        _only(_body_object(), ())
    token = owner.issue_token(seat)
    return jsonify({"seat": seat, "token": token})


@bp.post("/api/v1/tables/<code>/commands")
def command(code: str):
    """Do something at the table as the token's seat (or as the host)."""
    owner = table_owner(code)
    who = viewer(owner, required=True)
    body = _body_object()
    version, key = _request_fields(body)
    entry = _command_entry(body, owner)
    if "dice" in entry and who != HOST:
        raise Refused(403, "only the host can enter dice; the scrambler rolls for you", "dice")
    try:
        result = owner.submit(entry, who, version=version, idempotency_key=key)
    except Refused as exc:
        raise _refused(exc, owner, who) from None
    return _result_response(owner, who, result)


@bp.post("/api/v1/tables/<code>/undo")
def undo(code: str):
    """Host only: cancel an entry with a counter-entry."""
    owner = table_owner(code)
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
    return _result_response(owner, who, result)


def _int_arg(name: str, default: int, low: int, high: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    # ASCII digits only ("²".isdigit() is True), and no more than int() takes in one go.
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 20 or not low <= int(raw) <= high:
        raise Refused(400, f"{name} must be a whole number from {low} to {high}", name)
    return int(raw)


@bp.get("/api/v1/tables/<code>/log")
def audit_log(code: str):
    """The audit log: every entry (undone ones too) with its events, for every seat."""
    owner = table_owner(code)
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
    owner = table_owner(code)
    return Response(qr.qr_svg(join_url(owner.code)), mimetype="image/svg+xml")


@bp.get("/api/v1/scrambler")
def scrambler_get():
    """Which table the scrambler (GPIO button, USB box) rolls for."""
    return jsonify({"code": registry_for().scrambler_code})


@bp.put("/api/v1/scrambler")
def scrambler_put():
    """Bind the scrambler to a table: with the server's owner token (printed by `serve`, sent
    as the request's token or as `owner_token` in the body), or the host token of the table the
    scrambler serves now. A table's own host token is not enough (anyone can create a table)."""
    body = _body_object()
    _only(body, ("code", "owner_token"))
    code = body.get("code")
    if not isinstance(code, str):
        raise Refused(422, "code must be a table code", "code")
    given = body.get("owner_token")
    if given is not None and not isinstance(given, str):
        raise Refused(400, "owner_token must be a string", "owner_token")
    owner = table_owner(code)
    reg = registry_for()
    token = request_token()
    if token is None and given is None:
        raise Refused(401, "send the server's owner token (printed by serve) or the host token "
                      "of the table the scrambler serves now", "token")
    if not (reg.is_owner_token(given) or reg.may_bind_scrambler(token)):
        raise Refused(403, "moving the scrambler needs the server's owner token (printed by "
                      "serve in its terminal) or the host token of the table it serves now",
                      "owner_token" if given is not None else "token")
    reg.bind_scrambler(owner.code)
    return jsonify({"code": owner.code})


def init_app(app: Flask) -> None:
    """Open the table registry (unless already open) and describe the endpoints."""
    if "tables" not in app.extensions:
        registry_mod.init_app(app)
    table_class = app.extensions["tables"].table_class

    def write() -> None:  # when the document is first asked for (openapi.describe_later)
        every = getattr(table_class, "every_command_schema", None)
        describe_endpoints(every() if every is not None else importlib.import_module(table_class.__module__).COMMANDS)

    describe_later(write)
