"""Corellian Spike's live-table engine: the shared dealt-hand engine (`DealtHand`: seats,
betting, rounds, rolls and shifts, the reveal and the settlement) with a discard pile played
face up (the runtime's `PublicDiscardPile` block) and Spike's own sections, whose moves,
checks, words and schemas live in this package.

`GAME.engine()` returns `SpikeHand`; the table finds it through the registry::

    >>> sorted(set(SpikeHand.COMMANDS) - set(DealtHand.COMMANDS))
    ['demise_card', 'discard_top', 'no_show', 'show']
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.games.spike import facts, outcome, survivor
from companion.games.spike.blind_draw import TIE, BlindDraw
from companion.games.spike.settle import PlayerReveal, Settlement, settle
from companion.games.spike.survivor import SurvivorShows
from companion.table import discard, tie_draw
from companion.table.dealt import DealtHand
from companion.table.discard import PublicDiscardPile
from companion.table.outcome import Told
from companion.table.tie_draw import TieDraw


class SpikeHand(BlindDraw, SurvivorShows, PublicDiscardPile, TieDraw, DealtHand):
    """A hand of Corellian Spike at the live table (its sections first: what they answer of
    the shared engine's hooks wins)."""

    #: The runtime's commands, the face-up discard pile's and the tie draw's, and Spike's own moves.
    COMMANDS = {**DealtHand.COMMANDS, **discard.COMMANDS, **survivor.COMMANDS, **tie_draw.commands(TIE)}

    #: The runtime's building blocks Spike composes, in its names (Evening.BLOCKS).
    BLOCKS: Mapping[str, Mapping[str, str]] = {"tie": TIE}
    #: The tie's fields: the tied players, each player's card and draws so far.
    OWN_STATE = tie_draw.own_state(TIE, shown_before="demise_shown")
    HIDDEN_FIELDS = {**DealtHand.HIDDEN_FIELDS, **tie_draw.hidden(TIE)[0]}
    SHOWN_BY = {**DealtHand.SHOWN_BY, **tie_draw.hidden(TIE)[1]}
    cmd_demise_card = TieDraw.enter_tie_card
    #: An undone tie card says the game's word for it ({tie_card}: the blind-draw card).
    UNDONE = {"demise_card": "{who}'s {tie_card}"}

    def hand_view(self, viewer: str | None) -> dict[str, Any] | None:
        """The shared hand view, with Spike's facts (docs/games.md "Facts"): the discard pile's
        top card."""
        view, h = super().hand_view(viewer), self.s["hand"]
        if view is not None and h is not None:
            view["facts"] = {"table": facts.table_facts(h, self.rules), "seats": {}}
        return view

    def names_discards(self) -> bool:
        """The discard pile lies face up where the rules say so (every preset): a move that
        discards then names its card, and the console enters the top card."""
        return bool(self.rules.game_options.discard_pile_public)

    def hand_moves(self, sid: str) -> list[dict[str, Any]]:
        """Spike's own moves in the hand: the survivor's show or no show."""
        return self.survivor_moves(sid)

    def stage_words(self, viewer: str | None, who: Any) -> str | None:
        """The turn line while the tied players draw, or while the survivor chooses."""
        return self.blind_draw_words(viewer) or self.survivor_words(viewer, who)

    def judged_with(self, sid: str) -> dict[str, Any]:
        """The settlement reads the cards of each player's blind draw, one a draw."""
        return {"blind_draw": tuple(self.drawn(sid))}

    def settlement(self, reveals: list[dict[str, Any]], sabacc_pot: int) -> Settlement:
        """Spike's settlement of the reveal (`settle.settle`, RULES-SPIKE.md)."""
        return settle(self.rules, [PlayerReveal(**r) for r in reveals], sabacc_pot)

    def played_facts(self, sid: str) -> dict[str, Any]:
        """What the words of a settlement read of a hand: the cards of its blind draw."""
        return {"blind_draw": self.drawn(sid)}

    def why_of(self, x: dict[str, Any], told: Told) -> str:
        """Why a hand won or lost, with its blind draw (outcome.why)."""
        return outcome.why(x, told)

    def antes_due(self) -> tuple[int, int]:
        """Each player antes into the game pot and, with an ante of its own, into the sabacc
        pot (the option `ante_sabacc`), whatever the sabacc pot holds."""
        return self.rules.ante, self.rules.game_options.ante_sabacc

    def fold_fee_into_pot(self) -> bool:
        """The junk penalty (the fold fee) goes into the game pot, where the rule set says so."""
        return self.rules.game_options.fold_fee_into_pot
