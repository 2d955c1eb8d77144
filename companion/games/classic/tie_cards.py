"""Entering the tie's cards at the live table: classic's sudden demise, and Corellian Spike's
blind draw, which enters its drawn cards with the same move (`demise_card`, the hand's "demise"
stage). Each tied player enters one card; once every one is in, a card now on the table more
often than the deck holds is entered again (`demise_conflict`); then the game places the cards
(`tie_cards_in`) and the hand is settled again.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.refusal import Refused
from companion.rules import cards as deck
from companion.table.reveal import Reveal


class TieCards(Reveal):
    """The tie-card move (a section of `ClassicHand` and of `SpikeHand`)."""

    def cmd_demise_card(self, f: dict[str, Any], actor: str | None) -> None:
        """A tied player enters the card the tie dealt them (checked against the face-up
        cards only); with every card in and no clash, the game places them
        (`tie_cards_in`) and the hand is settled again."""
        sid = self.who(f, actor)
        if not self.in_hand() or self.hand["stage"] != "demise":
            raise Refused(409, "there is no sudden demise now", None)
        h = self.hand
        if sid not in h["demise_players"]:
            raise Refused(409, "you are not in the sudden demise", None)
        try:
            code = self.rules.deck.normalize(f["card"])
        except deck.UnknownCard as exc:
            raise Refused(422, str(exc), "card") from None
        self.need_in_play_deck(code, "card")
        public = h["demise_public"]
        if sid in public:
            raise Refused(409, "your demise card is already face up", None)
        # Checked against the face-up cards only: the revealed hands, and the demise cards
        # shown at a clash that stand. Another player's demise card entered since is still
        # hidden: refusing for it would tell this player that card.
        table = [c for x in self.live() for c in self.face_up(x)]
        table += [d for x in public if (d := h["p"][x]["demise"]) is not None]
        try:
            self.rules.deck.check_copies(table + [code])
        except deck.TooManyCopies as exc:
            raise Refused(422, f"{exc}: check the card", "card") from None
        h["p"][sid]["demise"] = code
        self.emit("demise_card_entered", seat=sid)
        if all(h["p"][x]["demise"] for x in h["demise_players"]) and not self.demise_conflict():
            self.tie_cards_in()
            self.settle_hand()

    def demise_conflict(self) -> bool:
        """With every demise card in: if a card is now on the table (the face-up hands and
        every demise card) more often than the deck holds, the players whose demise card it
        is enter theirs again; the other demise cards stand, face up. True if there was such a
        card. Resolved only here, once every card is in, so that no answer to one player's
        entry ever depends on another's hidden card (the demise oracle)."""
        h = self.hand
        cards = {x: h["p"][x]["demise"] for x in h["demise_players"]}
        count = Counter(c for x in self.live() for c in self.face_up(x))
        count.update(c for c in cards.values() if c is not None)
        over = sorted(c for c, n in count.items() if n > self.rules.deck.cards[c].copies)
        # A card that stood face up at an earlier clash stands: the new entries clash.
        clash = [x for x, c in cards.items() if c in over and x not in h["demise_public"]]
        if not clash:
            return False
        h["demise_public"] = [x for x in h["demise_players"] if x not in clash]
        for x in clash:
            h["p"][x]["demise"] = None
        names = " and ".join(self.name(x) for x in clash)
        self.emit("demise_conflict", cards=cards, seats=clash,
                  message=f"{', '.join(over)}: more copies on the table than the deck holds. "
                          f"{names}: check your card and enter it again.")
        return True
