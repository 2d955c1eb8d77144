"""`create_app` builds the whole site: API blueprints, pages, error handling, headers."""

from __future__ import annotations

import importlib
from functools import partial
from pathlib import Path
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider
from werkzeug.wsgi import ClosingIterator

from companion.paths import STATIC_DIR, TEMPLATES_DIR
from companion.server import errors, front, limits
from companion.server.front import MAX_BODY_BYTES
from companion.table.owner import deferred_deliveries, defer_delivery

# Each module defines one `bp`; the order does not matter.
BLUEPRINTS = (
    "companion.server.openapi",
    "companion.server.settle_api",
    "companion.server.pages",
    "companion.server.tables_api",
    "companion.server.events",
    "companion.server.host_pages",
    "companion.server.play_pages",
    "companion.server.evening_pages",
    "companion.server.health",
    "companion.server.decks_pages",
)

# Every asset is served by the companion itself: nothing is fetched from anywhere else, and
# no inline script runs, so a name that slips past escaping still cannot execute.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)


class OrderedJSON(DefaultJSONProvider):
    """Flask's JSON with each object's keys in the order the code builds them (a view reads
    top-down: the table, then its seats), not sorted."""

    sort_keys = False


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the companion's Flask application.

    `config` overrides settings such as `DATA_DIR` (where table state lives), `TESTING`,
    `LIMITS` (a `companion.server.limits.Limits`; `serve` passes the production limits) and the
    stream pools (`MAX_STREAMS`, `MAX_SPECTATOR_STREAMS`, see `companion.server.events`).
    Bodies larger than `MAX_BODY_BYTES` are refused with a 413 before they are read.
    """
    app = Flask(
        "companion",
        template_folder=str(TEMPLATES_DIR),
        static_folder=str(STATIC_DIR),
        static_url_path="/static",
    )
    app.config.update(
        DATA_DIR=str(Path.cwd() / "data"),
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        JSON_SORT_KEYS=False,
    )
    app.config.update(config or {})
    app.json = OrderedJSON(app)
    errors.init_app(app)
    # Before the blueprints' own hooks: a request over a limit is refused before anything else.
    limits.init_app(app)
    for name in BLUEPRINTS:
        module = importlib.import_module(name)
        app.register_blueprint(module.bp)
        if hasattr(module, "init_app"):
            module.init_app(app)

    app.wsgi_app = served(app.wsgi_app)  # type: ignore[method-assign]
    return app


#: The headers every answer carries unless it sets its own (`served`).
DEFAULT_HEADERS = (("Content-Security-Policy", CONTENT_SECURITY_POLICY),
                   ("X-Content-Type-Options", "nosniff"),
                   ("Referrer-Policy", "no-referrer"))
_DEFAULT_NAMES = tuple(name.lower() for name, _ in DEFAULT_HEADERS)


def served(wsgi_app: Any) -> Any:
    """`wsgi_app` as the server runs it: each answer given the `DEFAULT_HEADERS` it does not
    set itself, no `wsgi.file_wrapper` offered, and the other viewers' updates written once
    the answer is out.

    Under waitress a command's answer is sent before the other viewers' streams are written
    (their updates wait in the table's outbox until the answer is closed:
    `TableOwner.deliver`; waitress closes every response once it is written; a request that
    ends without an answer delivers them at once). Elsewhere (a test client, which may never
    close a response) they are written before the answer. Done here rather than in Flask's
    request hooks: each hook is a call through Flask's coroutine check on every request.

    The headers are added to the list the answer starts with: the same on werkzeug's
    `Headers` (`setdefault`) raised and caught a `KeyError` for each missing name, a tenth of
    what the cheapest request cost. Without the file wrapper a file of web/ (an icon) is an
    iterable the server reads and always closes: waitress takes a wrapped file over and closes
    it once written, but a phone that hangs up just as that happens (a page closed while its
    icons load) could leave the file open until it was collected.

    >>> seen, started = [], []
    >>> def app(environ, start_response):
    ...     seen.append("wsgi.file_wrapper" in environ)
    ...     start_response("200 OK", [("Referrer-Policy", "same-origin")])
    ...     return [b""]
    >>> served(app)({"wsgi.file_wrapper": object()}, lambda *a: started.append(a)), seen
    ([b''], [False])
    >>> [name for name, value in started[0][1]], started[0][1][0]
    (['Referrer-Policy', 'Content-Security-Policy', 'X-Content-Type-Options'], ('Referrer-Policy', 'same-origin'))
    """
    def serve(environ: dict[str, Any], start_response: Any) -> Any:
        environ.pop("wsgi.file_wrapper", None)
        deferred = front.served_by_waitress(environ)
        if deferred:
            defer_delivery()

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            have = {name.lower() for name, _ in headers}
            for lower, header in zip(_DEFAULT_NAMES, DEFAULT_HEADERS):
                if lower not in have:
                    headers.append(header)
            return start_response(status, headers, exc_info)

        try:
            body = wsgi_app(environ, start)
        except BaseException:
            if deferred:
                _deliver(deferred_deliveries())  # a request that ended without an answer
            raise
        owners = deferred_deliveries() if deferred else None
        return ClosingIterator(body, partial(_deliver, owners)) if owners else body

    return serve


def _deliver(owners: list) -> None:
    for owner in owners:
        owner.deliver()
