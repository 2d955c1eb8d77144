"""The 76-card Sabacc deck, its card codes and the tarot aliases used for display.

Four suits of fifteen ranks (one copy each) and sixteen face cards (two copies each)::

    >>> len(DECK)
    76
    >>> card("CO7").value, card("evil-one").value
    (7, -15)
    >>> card("idiot").copies
    2
    >>> display_name("sa12"), display_name("sa12", tarot=True)
    ('Commander of Sabers', 'Knight of Swords')

Corellia Run sets the face cards other than the Idiot aside (RULES.md, last section): one
place says which, and the deck count leaves them out::

    >>> deck_count(corellia_run=True), deck_count(corellia_run=False)
    (62, 76)
    >>> set_aside_name("STAR", corellia_run=True), set_aside_name("idiot", corellia_run=True)
    ('The Star', None)

The deck as a value (`SABACC`), for the table, the picker and the printed cards::

    >>> SABACC.size(), SABACC.card("CO7").value, [g.name for g in SABACC.groups]
    (76, 7, ['Sabers', 'Staves', 'Flasks', 'Coins', 'Faces'])
    >>> SABACC.size({"corellia_run"}), SABACC.set_aside_name("star", {"corellia_run"})
    (62, 'The Star')
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from companion.rules.cards import Card, Suit, TooManyCopies, UnknownCard
from companion.rules.decks import Deck, Group, SetAside

__all__ = ["CARDS", "CORELLIA_SET_ASIDE", "DECK", "SABACC", "SUITS", "Card", "TooManyCopies", "UnknownCard",
           "card", "check_copies", "deck_count", "display_name", "normalize", "set_aside_name", "total"]


SUITS: tuple[Suit, ...] = (
    Suit("sa", "Sabers", "Swords"),
    Suit("st", "Staves", "Wands"),
    Suit("fl", "Flasks", "Cups"),
    Suit("co", "Coins", "Pentacles"),
)

# Ranks 12..15 have names; 1..10 are numbers. Tarot: 11 Page, 12 Knight, 13 Queen, 14 King, 15 Ace.
_RANK_NAMES = {12: "Commander", 13: "Mistress", 14: "Master", 15: "Ace"}
_TAROT_RANKS = {1: "One", 11: "Page", 12: "Knight", 13: "Queen", 14: "King", 15: "Ace"}

# (code, value, name, tarot major arcana)
_FACE_CARDS = (
    ("idiot", 0, "The Idiot", "The Fool"),
    ("queen", -2, "Queen of Air and Darkness", "The High Priestess"),
    ("endurance", -8, "Endurance", "Strength"),
    ("balance", -11, "Balance", "Justice"),
    ("demise", -13, "Demise", "Death"),
    ("moderation", -14, "Moderation", "Temperance"),
    ("evil-one", -15, "The Evil One", "The Devil"),
    ("star", -17, "The Star", "The Star"),
)


# The picker's short faces (a button is a few letters wide).
_SHORT_RANKS = {12: "Cmdr", 13: "Mistr", 14: "Mastr", 15: "Ace"}
_TAROT_SHORT_RANKS = {11: "Page", 12: "Knight", 13: "Queen", 14: "King", 15: "Ace"}


def _short_face(name: str) -> str:
    """A face card's short face: its name without "The" and "of Air and Darkness"."""
    return name.removeprefix("The ").removesuffix(" of Air and Darkness")


def _build_deck() -> dict[str, Card]:
    deck: dict[str, Card] = {}
    for suit in SUITS:
        for rank in range(1, 16):
            name = f"{_RANK_NAMES.get(rank, rank)} of {suit.name}"
            tarot = f"{_TAROT_RANKS.get(rank, rank)} of {suit.tarot}"
            deck[f"{suit.prefix}{rank}"] = Card(
                f"{suit.prefix}{rank}", rank, 1, name, tarot, suit,
                short=_SHORT_RANKS.get(rank, str(rank)), tarot_short=_TAROT_SHORT_RANKS.get(rank, str(rank)),
            )
    for code, value, name, tarot in _FACE_CARDS:
        deck[code] = Card(code, value, 2, name, tarot, short=_short_face(name), tarot_short=_short_face(tarot))
    return deck


#: Every distinct card by code, suits first in deck order, then the face cards.
CARDS: dict[str, Card] = _build_deck()

#: The full deck as a tuple of codes, one entry per physical card (76).
DECK: tuple[str, ...] = tuple(code for code, c in CARDS.items() for _ in range(c.copies))


#: Corellia Run's set-aside cards: every face card but the Idiot (RULES.md, "Variants"). The one
#: place that says so: the static field, the reveal, the sudden demise and the deck count read it.
CORELLIA_SET_ASIDE: frozenset[str] = frozenset(
    code for code, c in CARDS.items() if c.is_face and c.value != 0
)


def deck_count(*, corellia_run: bool) -> int:
    """How many cards the deck in play holds: 76, or 62 with Corellia's cards set aside."""
    if not corellia_run:
        return len(DECK)
    return len(DECK) - sum(CARDS[c].copies for c in CORELLIA_SET_ASIDE)


def set_aside_name(code: str, *, corellia_run: bool) -> str | None:
    """The name of `code` if the variant in play sets that card aside, else None."""
    c = card(code)
    return c.name if corellia_run and c.code in CORELLIA_SET_ASIDE else None


def card(code: str) -> Card:
    """The card a code names (case-insensitive, surrounding spaces ignored).

    Raises `UnknownCard` for anything else.
    """
    if not isinstance(code, str):
        raise UnknownCard(f"a card code must be a string, not {type(code).__name__}")
    found = CARDS.get(code.strip().lower())
    if found is None:
        raise UnknownCard(f"unknown card {code!r}")
    return found


def normalize(code: str) -> str:
    """The canonical lower-case code of a card code given in any case."""
    return card(code).code


def check_copies(codes: Iterable[str]) -> None:
    """Raise `TooManyCopies` if `codes` (canonical) hold more of a card than the deck has."""
    for code, count in Counter(codes).items():
        copies = CARDS[code].copies
        if count > copies:
            raise TooManyCopies(code, count, copies)


def display_name(code: str, *, tarot: bool = False) -> str:
    """The name players read for a card, in Sabacc words or, as an option, tarot words."""
    c = card(code)
    return c.tarot if tarot else c.name


def total(codes: Iterable[str]) -> int:
    """The plain sum of the card values (before any variant's re-valuation)."""
    return sum(card(c).value for c in codes)


def _sabacc() -> Deck:
    faces = tuple(code for code, c in CARDS.items() if c.is_face)
    groups = tuple(
        Group(s.prefix, s.name, tuple(code for code, c in CARDS.items() if c.suit is s), s.tarot) for s in SUITS
    ) + (Group("face", "Faces", faces),)
    corellia = SetAside(
        "corellia_run", frozenset(code for code in faces if CARDS[code].value != 0), "Corellia Run"
    )
    # The face cards named by a word of their own ("The Star") are not read out of sentences.
    plain = frozenset({"star", "balance", "demise", "endurance", "moderation"})
    return Deck("sabacc", "the 76-card Sabacc deck", CARDS, groups, "suit", (corellia,), plain_words=plain,
                preview=("co7", "sa12", "idiot", "star"), back=("SABACC", "#14213d", "#c9a227", "face"))


#: The classic 76-card deck (RULES.md): four suits of fifteen, sixteen face cards.
SABACC = _sabacc()
