"""Corellian Spike (RULES-SPIKE.md): its deck.

The Galaxy's Edge deck: +1..+10 and -1..-10, three copies of each value (one in each stave:
circle, triangle, square; the staves never matter), and two sylops worth 0. 62 cards::

    >>> SPIKE_DECK.size(), SPIKE_DECK.card("+7").name, SPIKE_DECK.card("-7").name
    (62, '+7', '−7')
    >>> SPIKE_DECK.card("Sylop").value, SPIKE_DECK.card("sylop").copies
    (0, 2)
"""

from __future__ import annotations

from companion.rules.cards import Card
from companion.rules.decks import Deck, Group

#: The printed marks telling the three copies of a value apart (they never matter).
STAVES = ("circle", "triangle", "square")
#: The card codes of the zero cards.
SYLOP = "sylop"
#: The highest value on a card (7..10 are picture cards with no printed number).
TOP_VALUE = 10


def _signed(value: int) -> str:
    """A value as players read it on a Spike card: "+7", "−7" (a true minus sign)."""
    return f"+{value}" if value > 0 else f"\u2212{-value}"


def _spike_deck() -> Deck:
    cards: dict[str, Card] = {}
    for sign in (1, -1):
        for v in range(1, TOP_VALUE + 1):
            value = sign * v
            code = f"{value:+d}"
            cards[code] = Card(code, value, len(STAVES), _signed(value), _signed(value), short=_signed(value))
    cards[SYLOP] = Card(SYLOP, 0, 2, "Sylop", "Sylop", short="Sylop")
    groups = (
        Group("plus", "Positive", tuple(c for c, x in cards.items() if x.value > 0)),
        Group("minus", "Negative", tuple(c for c, x in cards.items() if x.value < 0)),
        Group("sylop", "Sylops", (SYLOP,)),
    )
    return Deck("spike", "the 62-card Corellian Spike deck", cards, groups, "value",
                hand_min=2, hand_max=5, staves=STAVES)


#: The 62-card Corellian Spike deck.
SPIKE_DECK = _spike_deck()
