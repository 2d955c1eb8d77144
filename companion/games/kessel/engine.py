"""Kessel Sabacc's live-table engine: not built yet (RULES-KESSEL.md K5–K16, K28–K39).

Until it is, a Kessel preset's `live_table` is False: the runtime refuses a Kessel table in
words ("not played at a live table yet: the payout calculator settles its hands") and this
class only tells the runtime that Kessel has no table commands of its own.
"""

from __future__ import annotations

from typing import Any


class KesselTable:
    """The engine class the registry hands out for Kessel (`Game.engine`): no commands yet."""

    COMMANDS: dict[str, dict[str, Any]] = {}
