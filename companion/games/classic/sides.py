"""Force Sabacc's sides at the live table (RULES.md "Force Sabacc"): each player declares the
Light side (aiming for +23) or the Dark side (−23) once, when they sit down; a player without
a side is dealt out, and the hand judge reads each player's side at the reveal.

The side lies in the seat's record (`Seat.side`, which the views show); this section owns the
move that sets it, its check, words and schema, and what the shared engine asks of it.
"""

from __future__ import annotations

from typing import Any

from companion.games.classic.hands import Side
from companion.table.commands import FOR_SEAT, HOST, obj
from companion.table.offers import offer
from companion.table.play import Refusal, sure
from companion.table.seats import Seats

#: The two sides in words.
SIDES = (("light", "Light (aims for +23)"), ("dark", "Dark (aims for −23)"))

#: The sides' move -> the JSON Schema of its fields.
COMMANDS: dict[str, dict[str, Any]] = {
    "declare_side": obj({**FOR_SEAT, "side": {"type": "string", "enum": [v for v, _ in SIDES]}}, ("side",)),
}


class Sides(Seats):
    """Force Sabacc's sides (a section of classic's engine, `ClassicHand`)."""

    def check_declare_side(self, f: dict[str, Any], actor: str | None) -> str | Refusal:
        """The refusal of a side that `cmd_declare_side` would raise (read-only); else the seat."""
        sid = self.who(f, actor)
        if not self.rules.game_options.force_sabacc:
            return Refusal(409, "sides are declared only in Force Sabacc", "side")
        refusal = self.not_in_running_hand(sid)
        if refusal is not None:
            return refusal
        side = self.s["seats"][sid]["side"]
        if side is not None:
            # Declared once, when the player sits down; only the host may correct it, and only
            # before the player's first hand of the session.
            if actor != HOST:
                return Refusal(409, f"you declared {side}: a side cannot change", "side")
            if any(sid in row["players"] for row in self.s["hands"]):
                return Refusal(409, f"{self.name(sid)} has played a hand as {side}: "
                                    f"the side cannot change now", "side")
        return sid

    def cmd_declare_side(self, f: dict[str, Any], actor: str | None) -> None:
        sid = sure(self.check_declare_side(f, actor))
        self.s["seats"][sid]["side"] = f["side"]
        self.emit("side_declared", seat=sid, side=f["side"])

    def side_moves(self, sid: str) -> list[dict[str, Any]]:
        """`sid`'s side to declare, once, when they sit down (with its words and inputs)."""
        if not self.rules.game_options.force_sabacc or self.s["seats"][sid]["side"] is not None \
                or not self.allows("declare_side", {"side": "light"}, sid):
            return []
        return [offer({"type": "declare_side"}, "Declare my side", "primary", inputs=[
            {"field": "side", "kind": "choice", "words": "Your side", "options": [list(x) for x in SIDES]}])]

    def side_missing(self, sid: str) -> bool:
        """Whether `sid` has no side to play a hand with (dealt out until they declare one)."""
        return self.rules.game_options.force_sabacc and self.s["seats"][sid]["side"] is None

    def side_of(self, sid: str) -> Side | None:
        """The side `sid` plays (None: no sides in these rules)."""
        side = self.s["seats"][sid]["side"]
        return Side(side) if self.rules.game_options.force_sabacc and side else None
