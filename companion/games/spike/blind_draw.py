"""Corellian Spike's blind draw at the live table (RULES-SPIKE.md "Ties"): players still tied
after the judge each draw a card from the draw pile and enter it; the drawn cards alone
decide, and a draw that ties again asks for another card, the cards drawn adding up.

The tie cards are entered with the shared tie-card move (`demise_card`, the "demise" stage);
this section says how the tie begins, where each drawn card goes, what the move asks and the
turn line while it waits.
"""

from __future__ import annotations

from typing import Any

from companion.table.play import Play
from companion.table.state import join_words


class BlindDraw(Play):
    """The blind draw (a section of `SpikeHand`)."""

    def tie_cards_in(self) -> None:
        """A blind draw's cards add up, one a draw: each drawn card joins the player's draws
        (face up on the discard pile) and the tied players may be asked to draw again."""
        h = self.hand
        for x in h["demise_players"]:
            drawer = h["p"][x]
            if drawer["demise"] is not None:
                drawer["blind_draw"] = [*drawer["blind_draw"], drawer["demise"]]
            drawer["demise"] = None

    def tie_begins(self, players: list[str]) -> None:
        """The tied players each draw a card from the draw pile and enter it."""
        h, rules = self.hand, self.rules
        h["stage"] = "demise"  # the same stage: each asked player enters one card
        h["demise_players"], h["demise_public"] = list(players), []
        names = ", ".join(self.name(x) for x in players)
        # The cards drawn so far lie face up on the discard pile: a draw that ties again
        # says so, with the cards that tied.
        drawn = {x: list(h["p"][x]["blind_draw"]) for x in h["players"] if h["p"][x]["blind_draw"]}
        if drawn:
            cards = ", ".join(f"{self.name(x)} {', then '.join(map(rules.deck.display_name, c))}"
                              for x, c in drawn.items())
            message = (f"Blind draw, tied again ({cards}): {names} each draw another card "
                       f"from the draw pile and enter it.")
        else:
            message = f"Blind draw: {names} each draw a card from the draw pile and enter it."
        self.emit("blind_draw", players=list(players), drawn=drawn, message=message)

    def tie_card_asks(self, sid: str) -> dict[str, Any]:
        """A blind draw that tied again asks for the next card (its number, and the cards
        drawn before it): the phone starts a new, empty entry."""
        drawn = self.hand["p"][sid]["blind_draw"]
        return {"draw": len(drawn) + 1, "drawn": list(drawn)}

    def blind_draw_words(self, viewer: str | None) -> str | None:
        """The turn line while the tied players draw; None at any other stage."""
        h = self.hand
        if h["stage"] != "demise":
            return None
        waiting = [("you" if x == viewer else self.name(x)) for x in h["demise_players"] if not h["p"][x]["demise"]]
        # Drawn cards stay with their drawers: a drawer who has some is tied again.
        again = any(h["p"][x]["blind_draw"] for x in h["demise_players"])
        return (f"{self.rules.words.tie.capitalize()}{', tied again' if again else ''}: waiting for "
                f"{join_words(waiting)} to draw {'another' if again else 'a'} card and enter it.")
