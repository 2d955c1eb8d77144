"""API errors: every bad input becomes a 4xx JSON body `{"error": ..., "field": ...}`.

Every layer raises `companion.refusal.Refused`, and `init_app` here alone turns it into the
answer. `read_json` is the one way an endpoint reads its body, so that wrong content types,
broken or deeply nested JSON and oversized bodies are refused the same way everywhere, before
anything is changed.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask, Request, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.refusal import Refused


def read_json(req: Request | None = None) -> Any:
    """The request's JSON body, or an `Refused` saying why it cannot be read."""
    req = req or request
    if not req.is_json:
        raise Refused(415, "send the body as JSON (Content-Type: application/json)", "body")
    raw = req.get_data(cache=True)
    try:
        return json.loads(raw)
    except RecursionError:
        raise Refused(400, "the JSON body is nested too deeply", "body") from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # Python's guard against huge numbers
            raise Refused(400, "the JSON body holds a number with too many digits", "body") from None
        raise Refused(400, f"the body is not valid JSON: {exc}", "body") from None
    except UnicodeDecodeError as exc:
        raise Refused(400, f"the body is not valid JSON: {exc}", "body") from None


def init_app(app: Flask) -> None:
    """Answer API errors, and every HTTP error under /api/, with a JSON body."""

    @app.errorhandler(Refused)
    def _api_error(exc: Refused):
        response = jsonify(exc.body())
        # A refusal over a limit says when to come back (429, 503): in the body and, for
        # browsers and HTTP clients, as Retry-After.
        if "retry_after" in exc.extra:
            response.headers["Retry-After"] = str(int(exc.extra["retry_after"]))
        return response, exc.status

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        if request.path.startswith("/api/"):
            response = jsonify({"error": exc.description or exc.name, "field": None})
            # Keep the exception's own headers (a 405's Allow) but not its HTML content type.
            for name, value in exc.get_headers():
                if name.lower() != "content-type":
                    response.headers[name] = value
            return response, exc.code
        return exc
