"""Limits per client: how fast tables are created and commands sent, and how many tables a
server holds (issue 11, item 7). `docs/SECURITY.md` lists every limit with its number.

Each rate is a token bucket: a client may send `burst` requests at once, then `per_second`
on average; one more is answered `429` with `Retry-After` and a JSON body in words, and
nothing changes. The numbers are far above what a real table does (a phone sends a command
every few seconds, a host creates a table or two an evening) and far below what a script
does (one seat toggling sit-out 79 times a second, 10,000 tables in 40 s).

Limits are on when the app's config has `LIMITS` (a `Limits`); `sabacc-companion serve`
passes `PRODUCTION`. Without it (the unit tests' Flask client, which plays hands far faster
than any person) nothing is limited.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

from flask import Flask, current_app, request

from companion.refusal import Refused
from companion.server.access import client_address, request_token
from companion.table.owner import KEY_MAX as OWNER_KEY_MAX


@dataclass(frozen=True)
class Rate:
    """`burst` requests at once, then `per_second` on average."""

    burst: int
    per_second: float


@dataclass(frozen=True)
class Limits:
    """Every limit of one server."""

    #: Tables created per client address.
    table_creation: Rate = Rate(burst=10, per_second=1 / 30)
    #: Commands (commands, undo, join, new seat tokens) per token: one seat, or the host.
    commands_per_token: Rate = Rate(burst=40, per_second=20)
    #: The same, per client address over all its tokens (a guest seating a dozen seats of a
    #: table of their own cannot send twelve times as much).
    commands_per_address: Rate = Rate(burst=120, per_second=60)
    #: Entries per guest table (one not of the owner's), over all its seats and its host:
    #: a busy real table of eight writes about 100 a minute. Bounds how fast a guest's table
    #: grows on the disk (with `COMMAND_BODY_MAX`, the bytes per entry).
    entries_per_guest_table: Rate = Rate(burst=60, per_second=5)


PRODUCTION = Limits()

#: Longest idempotency key a request may carry (the owner's one check of it).
KEY_MAX = OWNER_KEY_MAX
#: Largest body of a command, undo, join or new seat token (`413` beyond): the largest real
#: command (a reveal of a full hand, a 200-character adjustment reason) is well under 1 KiB,
#: 2 KiB with every character escaped.
COMMAND_BODY_MAX = 8 * 1024
#: Most entries one `GET .../log` answers.
LOG_LIMIT_MAX = 500

#: The endpoints whose requests count as commands.
COMMAND_ENDPOINTS = frozenset({
    "tables_api.command", "tables_api.undo", "tables_api.join", "tables_api.new_seat_token",
})
CREATE_ENDPOINT = "tables_api.create_table"
#: Buckets kept per limiter before full (idle) ones are forgotten.
MAX_KEYS = 10_000


class Bucket:
    """A token bucket per key (thread-safe)."""

    def __init__(self, rate: Rate, what: str):
        self.rate, self.what = rate, what
        self._levels: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def check(self, key: str, now: float | None = None) -> None:
        """Refuse with 429 if `key` has nothing left, without taking anything."""
        now = time.monotonic() if now is None else now
        with self._lock:
            level, then = self._levels.get(key, (float(self.rate.burst), now))
        level = min(float(self.rate.burst), level + (now - then) * self.rate.per_second)
        if level < 1.0:
            self._refuse(level)

    def _refuse(self, level: float) -> None:
        burst, rate = self.rate.burst, self.rate.per_second
        wait = max(1, math.ceil((1.0 - level) / rate))
        raise Refused(429, f"too many {self.what}; wait {wait} s and try again "
                      f"(at most {burst} at once, then {_per(rate)})", None, retry_after=wait)

    def take(self, key: str, now: float | None = None) -> None:
        """Take one for `key`, or refuse with 429 saying when to try again."""
        now = time.monotonic() if now is None else now
        burst, rate = self.rate.burst, self.rate.per_second
        with self._lock:
            level, then = self._levels.get(key, (float(burst), now))
            level = min(float(burst), level + (now - then) * rate)
            if level < 1.0:
                self._levels[key] = (level, now)
                self._refuse(level)
            self._levels[key] = (level - 1.0, now)
            if len(self._levels) > MAX_KEYS:
                self._forget(now)

    def _forget(self, now: float) -> None:
        """Drop the buckets that have filled up again (their clients are idle)."""
        burst, rate = self.rate.burst, self.rate.per_second
        for key, (level, then) in list(self._levels.items()):
            if level + (now - then) * rate >= burst:
                del self._levels[key]


def _per(rate: float) -> str:
    if rate >= 1:
        return f"{rate:g} a second"
    return f"one every {1 / rate:g} s"


class Limiter:
    """The buckets of one app."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.creation = Bucket(limits.table_creation, "tables created from this device")
        self.per_token = Bucket(limits.commands_per_token, "commands from this seat")
        self.per_address = Bucket(limits.commands_per_address, "commands from this device")
        self.per_guest_table = Bucket(limits.entries_per_guest_table, "commands at this table")

    def check(self) -> None:
        """Refuse the current request if it is over a limit (before anything is read)."""
        endpoint = request.endpoint
        if endpoint == CREATE_ENDPOINT:
            # The cap on the tables a server holds is the registry's (MAX_TABLES, a 507), under
            # its own lock; here only the pace per device.
            # Only a table that is made counts (after the answer); a refused request is cheap.
            self.creation.check(client_address())
        elif endpoint in COMMAND_ENDPOINTS:
            address = client_address()
            self.per_address.take(address)
            token = request_token()
            if token is not None:
                # Per token *and* address: a token shared with a stranger does not let the
                # stranger use up the seat's own allowance from elsewhere.
                self.per_token.take(f"{address} {token[:200]}")
            code = str((request.view_args or {}).get("code", ""))[:12].upper()
            reg = current_app.extensions.get("tables")
            if code and reg is not None and not reg.is_priority(code):
                self.per_guest_table.take(code)


def init_app(app: Flask) -> None:
    """Check every request against the app's `LIMITS` (none when it is not set)."""
    limits = app.config.get("LIMITS")
    if not limits:
        return
    app.extensions["limiter"] = Limiter(limits)

    @app.before_request
    def _limits():
        limiter = current_app.extensions.get("limiter")
        if limiter is not None:
            limiter.check()

    @app.after_request
    def _count_tables(response):
        limiter = current_app.extensions.get("limiter")
        if limiter is not None and request.endpoint == CREATE_ENDPOINT and response.status_code == 201:
            try:
                limiter.creation.take(client_address())
            except Refused:
                pass  # made together with another one at the same moment: the next one waits
        return response
