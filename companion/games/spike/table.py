"""Corellian Spike's live-table engine: the shared dealt-hand engine (`DealtHand`: seats,
betting, rounds, rolls and shifts, the reveal and the settlement) with a discard pile played
face up (the runtime's `PublicDiscardPile` block) and Spike's own sections, whose moves,
checks, words and schemas live in this package.

`GAME.engine()` returns `SpikeHand`; the table finds it through the registry::

    >>> sorted(set(SpikeHand.COMMANDS) - set(DealtHand.COMMANDS))
    ['discard_top', 'no_show', 'show']
"""

from __future__ import annotations

from typing import Any

from companion.games.spike import facts, outcome, survivor
from companion.games.spike.blind_draw import BlindDraw
from companion.games.spike.survivor import SurvivorShows
from companion.table import discard
from companion.table.dealt import DealtHand
from companion.table.discard import PublicDiscardPile
from companion.table.outcome import Told


class SpikeHand(BlindDraw, SurvivorShows, PublicDiscardPile, DealtHand):
    """A hand of Corellian Spike at the live table (its sections first: what they answer of
    the shared engine's hooks wins)."""

    #: The runtime's commands, the face-up discard pile's and Spike's own moves.
    COMMANDS = {**DealtHand.COMMANDS, **discard.COMMANDS, **survivor.COMMANDS}

    def hand_view(self, viewer: str | None) -> dict[str, Any] | None:
        """The shared hand view, with Spike's facts (docs/games.md "Facts"): the discard pile's
        top card."""
        view, h = super().hand_view(viewer), self.s["hand"]
        if view is not None and h is not None:
            view["facts"] = {"table": facts.table_facts(h, self.rules), "seats": {}}
        return view

    def hand_moves(self, sid: str) -> list[dict[str, Any]]:
        """Spike's own moves in the hand: the survivor's show or no show."""
        return self.survivor_moves(sid)

    def stage_words(self, viewer: str | None, who: Any) -> str | None:
        """The turn line while the tied players draw, or while the survivor chooses."""
        return self.blind_draw_words(viewer) or self.survivor_words(viewer, who)

    def played_facts(self, sid: str) -> dict[str, Any]:
        """What the words of a settlement read of a hand: the cards of its blind draw."""
        return {"blind_draw": self.hand["p"][sid]["blind_draw"]}

    def why_of(self, x: dict[str, Any], told: Told) -> str:
        """Why a hand won or lost, with its blind draw (outcome.why)."""
        return outcome.why(x, told)

    def antes_due(self) -> tuple[int, int]:
        """Each player antes into the game pot and, with an ante of its own, into the sabacc
        pot (the option `ante_sabacc`), whatever the sabacc pot holds."""
        return self.rules.ante, self.rules.ante_sabacc

    def fold_fee_into_pot(self) -> bool:
        """The junk penalty (the fold fee) goes into the game pot, where the rule set says so."""
        return self.rules.fold_fee_into_pot
