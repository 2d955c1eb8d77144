"""Cards as values: a card's code, value, copies and names, and the errors a card code raises.

Each game's deck is built of `Card`s (`companion.rules.decks.Deck`); the cards themselves are
the game's (each in its package, `companion/games/<game>/cards.py`)::

    >>> c = Card("x1", 1, 2, "One", "One")
    >>> c.copies, c.is_face
    (2, True)
"""

from __future__ import annotations

from dataclasses import dataclass


class UnknownCard(ValueError):
    """A card code that names no card of the deck."""


class TooManyCopies(ValueError):
    """A set of cards that holds more copies of a card than the deck has."""

    def __init__(self, code: str, count: int, copies: int):
        super().__init__(f"{count} copies of {code} but the deck has {copies}")
        self.code, self.count, self.copies = code, count, copies


@dataclass(frozen=True)
class Suit:
    """One of the four suits: its code prefix, its name, and its tarot name."""

    prefix: str
    name: str
    tarot: str


@dataclass(frozen=True)
class Card:
    """One card of the deck: its code, value, how many copies the deck holds, and names."""

    code: str
    value: int
    copies: int
    name: str
    tarot: str
    suit: Suit | None = None  # None for the face cards (and for every card of a deck without suits)
    short: str = ""  # the card picker's face: "7", "Cmdr", "+7", "0"
    tarot_short: str = ""  # the same face in tarot words ("Knight"); empty: as `short`

    @property
    def is_face(self) -> bool:
        """True for a card outside every suit (a deck's face cards, or any card of a deck without
        suits)."""
        return self.suit is None
