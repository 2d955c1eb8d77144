"""A building block: a discard pile played face up. Its top card is public, so whoever turns a
card up on it enters it (`discard_top`, after the deal, a fold or a shift), a move that
discards names the card it puts there, and a whole hand thrown onto it (a fold) hides the
card shown before. A game whose discard pile lies face up composes this section into its
engine; without it the pile is face down and a move names no card.
"""

from __future__ import annotations

from typing import Any

from companion.refusal import Refused
from companion.rules import cards as deck
from companion.table.commands import CARD, FOR_SEAT, HOST, obj
from companion.table.play import Play

#: The pile's move -> the JSON Schema of its fields: the card just turned up on it (after the
#: deal or a shift), entered by whoever turned it.
COMMANDS: dict[str, dict[str, Any]] = {
    "discard_top": obj({**FOR_SEAT, "card": CARD}, ("card",)),
}


class PublicDiscardPile(Play):
    """A discard pile whose top card every screen shows (a section a game composes)."""

    def names_discards(self) -> bool:
        """A move that discards names the card it puts face up (the phone asks which)."""
        return True

    def discarded_card(self, f: dict[str, Any], needed: bool) -> str | None:
        """The card a move puts face up on the discard pile: it must be entered for a move
        that discards (it is public). None when a move that needs none names none."""
        if "card" not in f:
            if needed:
                raise Refused(422, "enter the card you discard: it lies face up on the discard pile", "card")
            return None
        try:
            return self.rules.deck.normalize(f["card"])
        except deck.UnknownCard as exc:
            raise Refused(422, str(exc), "card") from None

    def put_on_discard_pile(self, code: str | None) -> None:
        """A card is now the discard pile's top card: every screen shows it (None: a card is on
        top that nobody has entered yet, see `hand_on_discard_pile`)."""
        self.hand["discard_top"] = code
        self.emit("discard_top", card=code)

    def hand_on_discard_pile(self) -> None:
        """A whole hand went face up onto the discard pile (a fold, in any phase): its top
        card is one of that hand's, which only the table sees, so the card shown before is no
        longer the top (issue 28, item 11). It stays unknown until someone enters it (a move
        that discards may name it)."""
        if self.hand["discard_top"] is not None:
            self.hand["discard_top"] = None
            self.emit("discard_top", card=None)

    def cmd_discard_top(self, f: dict[str, Any], actor: str | None) -> None:
        """Whoever turns up a card on the discard pile (after the deal, a fold or a shift, the
        last round's included) enters it, at any stage of a hand still being played."""
        h = self.need_hand()
        if h["stage"] == "settled":
            raise Refused(409, "not now: the hand is settled", None)
        if actor != HOST:
            self.in_play(self.who(f, actor))
        top = self.discarded_card(f, needed=True)
        if top is not None:
            self.put_on_discard_pile(top)
