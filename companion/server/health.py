"""`GET /api/v1/ping`: the cheapest request the server answers; `GET /api/v1/health`: the data.

`ping` touches no table and no database. `health` says what the host must know about the data
folder: damaged tables (which, why, what was kept), the room left on the disk and the limits
(docs/DATA-SAFETY.md).

It touches no table and no database. Installers and monitors use it to see that the server is
up; the benchmark (`sabacc-companion bench`) uses it as the bare-Flask baseline that an action
request is compared with (`overhead_ratio`) and to time the start-up (`startup_s`).
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from companion import __version__
from companion.server.openapi import describe

bp = Blueprint("health", __name__)


@bp.get("/api/v1/ping")
def ping():
    """Answer at once: the server is up."""
    return jsonify({"ok": True, "version": __version__})


@bp.get("/api/v1/health")
def health():
    """The data folder's health: damaged tables, free disk space and the limits."""
    reg = current_app.extensions.get("tables")
    if reg is None:
        return jsonify({"ok": True, "damaged": [], "tables": 0})
    mib = 1024 * 1024
    try:
        free = reg.ledger.free_bytes() // mib
    except OSError:
        free = None
    damaged = [{"code": d["code"], "problem": d["problem"], "kept": d["kept"], "words": d["words"]}
               for d in reg.damaged]
    low = free is not None and free * mib < reg.ledger.min_free_table
    return jsonify({
        "ok": not damaged and not low,
        "damaged": damaged,
        "tables": len(reg.owners()),
        "max_tables": reg.max_tables,
        "disk": {"free_mb": free, "min_free_mb_for_commands": reg.ledger.min_free_command // mib,
                 "min_free_mb_for_new_tables": reg.ledger.min_free_table // mib},
    })


_HEALTH = {
    "type": "object",
    "required": ["ok", "damaged", "tables"],
    "properties": {
        "ok": {"type": "boolean"},
        "damaged": {"type": "array", "items": {"type": "object", "properties": {
            "code": {"type": ["string", "null"]}, "problem": {"type": "string"},
            "kept": {"type": "string"}, "words": {"type": "string"}}}},
        "tables": {"type": "integer"},
        "max_tables": {"type": "integer"},
        "disk": {"type": "object"},
    },
}

describe(
    paths={
        "/api/v1/health": {
            "get": {
                "summary": "The data folder: damaged tables (which, why, what was kept), free disk, limits",
                "responses": {"200": {"description": "The data folder's health",
                                      "content": {"application/json": {"schema": _HEALTH}}}},
            }
        },
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
