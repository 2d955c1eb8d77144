"""`GET /api/v1/ping`: the cheapest request the server answers.

It touches no table and no database. Installers and monitors use it to see that the server is
up; the benchmark (`sabacc-companion bench`) uses it as the bare-Flask baseline that an action
request is compared with (`overhead_ratio`) and to time the start-up (`startup_s`).
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from companion import __version__
from companion.server.openapi import describe

bp = Blueprint("health", __name__)


@bp.get("/api/v1/ping")
def ping():
    """Answer at once: the server is up."""
    return jsonify({"ok": True, "version": __version__})


describe(
    paths={
        "/api/v1/ping": {
            "get": {
                "summary": "Is the server up? (touches no table)",
                "responses": {
                    "200": {
                        "description": "The server is up",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["ok", "version"],
                                    "properties": {"ok": {"const": True}, "version": {"type": "string"}},
                                }
                            }
                        },
                    }
                },
            }
        }
    }
)
