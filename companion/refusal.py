"""The one refusal of the companion: a request or command that cannot be carried out.

Every layer raises `Refused` — the hand engine for a move the rules forbid, the table owner for
a stale version or a ledger that could not be written, the web layer for a body it cannot read —
and `companion.server.errors` turns it into the HTTP answer in one place: the status, and a JSON
body `{"error": ..., "field": ..., **extra}`. Nothing has changed when it is raised.

    >>> exc = Refused(409, "it is Han's move")
    >>> exc.status, exc.body()
    (409, {'error': "it is Han's move", 'field': None})
"""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """A refusal: nothing changed.

    `status`: 400 malformed, 403 not yours (wrong seat, not the host), 404 no such thing,
    409 not now (wrong turn, wrong phase, stale version), 413/429 over a limit, 415 not JSON,
    422 invalid value (illegal amount, unknown card, over the bet limit), 503 try again.
    `field`: the path of the bad input (``"amount"``, ``"cards[2]"``) or None.
    `extra`: more for the answer's body (a stale command's fresh ``version``)."""

    def __init__(self, status: int, error: str, field: str | None = None, **extra: Any):
        super().__init__(error)
        self.status, self.error, self.field, self.extra = status, error, field, extra

    def body(self) -> dict[str, Any]:
        """The JSON body sent to the client."""
        out: dict[str, Any] = {"error": self.error, "field": self.field}
        out.update(self.extra)
        return out
