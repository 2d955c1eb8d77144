"""Classic Sabacc's live-table engine: the shared dealt-hand engine (`DealtHand`: seats,
betting, rounds, rolls and shifts, the reveal and the settlement) with classic's own
sections, whose moves, checks, words and schemas live in this package.

`GAME.engine()` returns `ClassicHand`; the table finds it through the registry::

    >>> sorted(set(ClassicHand.COMMANDS) - set(DealtHand.COMMANDS))
    ['static_add', 'static_remove']
"""

from __future__ import annotations

from typing import Any

from companion.games.classic import static_field
from companion.games.classic.static_field import StaticFieldMoves
from companion.table.dealt import DealtHand


class ClassicHand(StaticFieldMoves, DealtHand):
    """A hand of classic Sabacc at the live table (its sections first: what they answer of
    the shared engine's hooks wins)."""

    #: The runtime's commands and classic's own moves.
    COMMANDS = {**DealtHand.COMMANDS, **static_field.COMMANDS}

    def hand_moves(self, sid: str) -> list[dict[str, Any]]:
        """Classic's own moves in the hand: the static field's."""
        return self.static_moves(sid)
