"""Kessel Sabacc's deck (RULES-KESSEL.md K1–K3): 44 cards in two families of 22.

Each family, **Sand** and **Blood**, has the numbers 1 to 6 three times each, three
**Impostors** (valued at the reveal by the dice) and one **Sylop** (takes the other card's
value). Codes are lower case: ``s1``…``s6``, ``si``, ``ss``, ``b1``…``b6``, ``bi``, ``bs``
(K2); a hand is always one Sand and one Blood card (K3)::

    >>> KESSEL_DECK.size(), KESSEL_DECK.card("S4").name, KESSEL_DECK.card("bi").name
    (44, 'Sand 4', 'Blood Impostor')
    >>> KESSEL_DECK.card("ss").copies, KESSEL_DECK.card("bi").copies, family("B6")
    (1, 3, 'blood')
"""

from __future__ import annotations

from companion.rules.cards import Card, Suit, UnknownCard
from companion.rules.decks import Deck, Group

#: The two families, in the order a hand's values are given ([sand, blood]).
FAMILIES = ("sand", "blood")
SAND = Suit("s", "Sand", "Sand")
BLOOD = Suit("b", "Blood", "Blood")
_SUITS = {"sand": SAND, "blood": BLOOD}
#: The numbered cards' values, and how many copies of each number and of each Impostor (K1).
NUMBERS = range(1, 7)
NUMBER_COPIES = 3
IMPOSTOR_COPIES = 3
SYLOP_COPIES = 1
#: The code suffixes of the two special cards of each family.
IMPOSTOR, SYLOP = "i", "s"


def _cards() -> dict[str, Card]:
    # The family is in the code (its first letter) and in the picker's groups, which also give
    # the printed cards their ink and mark (`_LOOKS`); the cards carry no `Suit` (the classic
    # deck's four).
    cards: dict[str, Card] = {}
    for fam in FAMILIES:
        suit = _SUITS[fam]
        for n in NUMBERS:
            code = f"{suit.prefix}{n}"
            cards[code] = Card(code, n, NUMBER_COPIES, f"{suit.name} {n}", f"{suit.name} {n}", short=str(n))
        # An Impostor's and a Sylop's value is only known at the reveal (K17): 0 on the card.
        cards[suit.prefix + IMPOSTOR] = Card(suit.prefix + IMPOSTOR, 0, IMPOSTOR_COPIES, f"{suit.name} Impostor",
                                             f"{suit.name} Impostor", short="Impostor")
        cards[suit.prefix + SYLOP] = Card(suit.prefix + SYLOP, 0, SYLOP_COPIES, f"{suit.name} Sylop",
                                          f"{suit.name} Sylop", short="Sylop")
    return cards


_CARDS = _cards()
#: How each family's cards are printed: (ink, mark): Sand in sand gold with a diamond, Blood
#: in red with a drop.
_LOOKS = {"sand": ("#9a6a00", "diamond"), "blood": ("#b3261e", "drop")}

#: The 44-card Kessel deck (the card picker shows a tab per family).
KESSEL_DECK = Deck(
    "kessel", "the 44-card Kessel Sabacc deck", _CARDS,
    tuple(Group(fam, _SUITS[fam].name, tuple(c for c in _CARDS if c.startswith(_SUITS[fam].prefix)),
                ink=_LOOKS[fam][0], mark=_LOOKS[fam][1])
          for fam in FAMILIES),
    "suit", hand_min=2, hand_max=2, preview=("s4", "bi", "ss", "b6"),
)


def family(code: str) -> str:
    """"sand" or "blood": the family of a card code (any case). Raises `UnknownCard`."""
    return "sand" if KESSEL_DECK.normalize(code).startswith(SAND.prefix) else "blood"


def is_impostor(code: str) -> bool:
    """Whether a (canonical) code is an Impostor."""
    return code.endswith(IMPOSTOR) and code in _CARDS


def is_sylop(code: str) -> bool:
    """Whether a (canonical) code is a Sylop."""
    return code in ("ss", "bs")


def name(code: str) -> str:
    """A card's name in words ("Sand 4", "Blood Impostor")."""
    return KESSEL_DECK.card(code).name


__all__ = ["BLOOD", "FAMILIES", "KESSEL_DECK", "SAND", "UnknownCard", "family", "is_impostor", "is_sylop", "name"]
