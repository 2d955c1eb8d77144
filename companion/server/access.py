"""Who is asking, and about which table: shared by the table API and the event stream.

Who is asking is read from the token (`Authorization: Bearer`, `X-Seat-Token`, or `?token=`
where a browser cannot set headers): the host token acts as `"host"`, a seat token as that
seat. A request cannot name another actor. `client_address()` is the address limits are
counted by.
"""

from __future__ import annotations

from flask import request

from companion.refusal import Refused
from companion.server import front
from companion.table.owner import TableOwner
from companion.table.registry import registry_for

#: A token longer than this is not looked up (every real token is far shorter).
TOKEN_MAX = 200


def table_owner(code: str) -> TableOwner:
    """The owner of table `code`; a 503 naming a damaged table and what was kept (not a silent
    404); else a 404 saying there is no such table."""
    reg = registry_for()
    owner = reg.get(code)
    if owner is None:
        damaged = reg.damage(code)
        if damaged is not None:
            raise Refused(503, damaged["words"], "code")
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
    who = owner.seat_for_token(token) if len(token) <= TOKEN_MAX else None
    if who is None:
        raise Refused(403, "this token is not valid at this table", "token")
    # The server now knows this connection's client: the owner's tables' come first for its
    # connections, threads and streams (companion.server.front).
    own = registry_for().is_priority(owner.code)
    front.mark(request.environ, front.OWN_TABLE if own else front.OTHER_TABLE, token)
    return who


def client_address() -> str:
    """The address of the device asking (the TCP peer: the companion trusts no proxy header,
    so a guest cannot claim another device's address)."""
    return request.remote_addr or "?"
