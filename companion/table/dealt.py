"""The engine of a hand dealt to each player and played in rounds of betting, drawing and
rolling the scrambler, ending at a reveal of every hand: the sections of the engine joined.

Games whose hands are played this way compose it (with their rule-set values); a game played
another way brings an engine of its own (docs/games.md).
"""

from __future__ import annotations

from companion.table.betting import Betting
from companion.table.evening import Evening
from companion.table.reveal import Reveal
from companion.table.seats import Seats
from companion.table.shifts import Shifts
from companion.table.turns import Turns


class DealtHand(Evening, Seats, Betting, Turns, Shifts, Reveal):
    """One command applied to a private copy of the state: every section of the engine."""
