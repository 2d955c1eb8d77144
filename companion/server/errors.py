"""API errors: every bad input becomes a 4xx JSON body `{"error": ..., "field": ...}`.

Blueprints raise `ApiError`; `read_json` is the one way an endpoint reads its body, so that
wrong content types, broken or deeply nested JSON and oversized bodies are refused the same
way everywhere, before anything is changed.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask, Request, jsonify, request
from werkzeug.exceptions import HTTPException


class ApiError(Exception):
    """A refused request: HTTP status, what is wrong in words, and the path of the bad field."""

    def __init__(self, status: int, error: str, field: str | None = None, **extra: Any):
        super().__init__(error)
        self.status, self.error, self.field, self.extra = status, error, field, extra

    def body(self) -> dict[str, Any]:
        """The JSON body sent to the client."""
        out: dict[str, Any] = {"error": self.error, "field": self.field}
        out.update(self.extra)
        return out


def read_json(req: Request | None = None) -> Any:
    """The request's JSON body, or an `ApiError` saying why it cannot be read."""
    req = req or request
    if not req.is_json:
        raise ApiError(415, "send the body as JSON (Content-Type: application/json)", "body")
    raw = req.get_data(cache=True)
    try:
        return json.loads(raw)
    except RecursionError:
        raise ApiError(400, "the JSON body is nested too deeply", "body") from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # Python's guard against huge numbers
            raise ApiError(400, "the JSON body holds a number with too many digits", "body") from None
        raise ApiError(400, f"the body is not valid JSON: {exc}", "body") from None
    except UnicodeDecodeError as exc:
        raise ApiError(400, f"the body is not valid JSON: {exc}", "body") from None


def init_app(app: Flask) -> None:
    """Answer API errors, and every HTTP error under /api/, with a JSON body."""

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError):
        return jsonify(exc.body()), exc.status

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
