"""Corellian Spike's blind draw at the live table (RULES-SPIKE.md "Ties"): players still tied
after the judge each draw a card from the draw pile and enter it; the drawn cards alone
decide, and a draw that ties again asks for another card, the cards drawn adding up.

The tie cards are entered with the runtime's tie broken by drawn cards (`tie_draw.TieDraw`), in
the names Spike's ledgers, API and views have always used (`TIE`); this section says how the
tie begins and the turn line while it waits.
"""

from __future__ import annotations

from typing import Any

from companion.table.state import join_words
from companion.table.tie_draw import TieDraw

#: The blind draw, the runtime's tie broken by drawn cards (`tie_draw`), in Spike's names: the
#: "demise" stage and `demise_card` move it shares with classic's sudden demise, each player's
#: `blind_draw` (the cards drawn so far, one a draw), which the settlement's hands carry too.
TIE = {"stage": "demise", "move": "demise_card", "card": "demise", "players": "demise_players",
       "public": "demise_public", "entered": "demise_card_entered", "conflict": "demise_conflict",
       "started": "blind_draw", "draws": "blind_draw", "drawn": "blind_draw"}


class BlindDraw(TieDraw):
    """The blind draw (a section of `SpikeHand`)."""

    def tie_begins(self, players: list[str]) -> None:
        """The tied players each draw a card from the draw pile and enter it."""
        h: Any = self.hand
        self.open_tie(players)  # the same stage: each asked player enters one card
        names = ", ".join(self.name(x) for x in players)
        # The cards drawn so far lie face up on the discard pile: a draw that ties again
        # says so, with the cards that tied.
        drawn = {x: self.drawn(x) for x in h["players"] if self.drawn(x)}
        if drawn:
            cards = ", ".join(f"{self.name(x)} {', then '.join(map(self.rules.deck.display_name, c))}"
                              for x, c in drawn.items())
            message = (f"Blind draw, tied again ({cards}): {names} each draw another card "
                       f"from the draw pile and enter it.")
        else:
            message = f"Blind draw: {names} each draw a card from the draw pile and enter it."
        self.emit("blind_draw", players=list(players), drawn=drawn, message=message)

    def blind_draw_words(self, viewer: str | None) -> str | None:
        """The turn line while the tied players draw; None at any other stage."""
        h: Any = self.hand
        tied = self.in_tie()
        if not tied:
            return None
        waiting = [("you" if x == viewer else self.name(x)) for x in tied if not h["p"][x]["demise"]]
        # Drawn cards stay with their drawers: a drawer who has some is tied again.
        again = any(self.drawn(x) for x in tied)
        return (f"{self.rules.words.tie.capitalize()}{', tied again' if again else ''}: waiting for "
                f"{join_words(waiting)} to draw {'another' if again else 'a'} card and enter it.")
