"""A deck as a value: its cards, how the card picker groups them, what a table may set aside.

A rule set holds its deck (`RuleSet.deck`); the table, the reveal, the settlement, the pages
and the card picker read it, and none of them knows a game's cards. Each game builds its own
(`Game.decks`)::

    >>> one = Card("one", 1, 2, "One", "One")
    >>> d = Deck("tiny", "a tiny deck", {"one": one}, (Group("all", "All", ("one",)),), "value")
    >>> d.size(), d.card("ONE").value
    (2, 1)

What a table may set aside is named by the rule-set option that sets it aside (a variant
that plays without some of the deck's cards: `SetAside`).

How a card is entered (`entry`): ``"suit"`` — a suit tab, then a rank; ``"value"`` — the
value, large and signed, never a suit or mark (for a deck whose suits never matter).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from companion.rules.cards import Card, TooManyCopies, UnknownCard
from companion.rules.game import option_of

__all__ = ["Deck", "Group", "SetAside", "UnknownCard", "TooManyCopies"]


@dataclass(frozen=True)
class Group:
    """A group of cards the card picker shows under one tab ("Faces", "Positive", a suit)."""

    key: str  # the tab's key, stable (a suit's prefix, "face", "plus")
    name: str  # the tab's name
    codes: tuple[str, ...]  # the cards under it, in order
    tarot: str = ""  # the tab's name in tarot words (empty: as `name`)
    # How the printed cards of the group look: their ink ("#b3261e") and the shape each shows
    # (a name of the shapes companion/decks/art.py draws). Empty: the printed decks' own choice.
    ink: str = ""
    mark: str = ""


@dataclass(frozen=True)
class SetAside:
    """Cards a table sets aside before the deal when a rule-set option is on."""

    option: str  # the boolean rule-set option that sets them aside (the variant's option)
    codes: frozenset[str]
    words: str  # the variant's name, for refusals


@dataclass(frozen=True, eq=False)
class Deck:
    """A game's deck: every distinct card by code, the picker's groups, what may be set aside.

    Two decks are the same deck only when they are the same value (decks are built once).
    """

    name: str  # how views and the API name it ("sabacc")
    title: str  # in words: "the 76-card Sabacc deck"
    cards: Mapping[str, Card]  # every distinct card by code, in deck order
    groups: tuple[Group, ...]  # the card picker's tabs
    entry: str  # how a card is entered: "suit" (a suit, then a rank) or "value" (the value alone)
    set_asides: tuple[SetAside, ...] = ()
    hand_min: int = 2  # the fewest cards a revealed hand holds
    hand_max: int | None = None  # the most (None: no limit of the game's own)
    # Marks printed on the copies of a card that never matter to the game (circle, triangle,
    # square: one copy of each numbered card in each); for printed decks.
    staves: tuple[str, ...] = ()
    # Codes that are also ordinary words ("star"): a sentence holding one is not
    # naming that card, so the pages leave them alone when they put names for codes.
    plain_words: frozenset[str] = frozenset()
    # The cards the decks page shows of it, as a taste of its art (none: no preview).
    preview: tuple[str, ...] = ()
    # The printed back: (its word, the ground's ink, the lines' ink, the emblem: one of the
    # shapes companion/decks/art.py draws); empty: a plain back drawn from the deck's name.
    back: tuple[str, str, str, str] | tuple[()] = ()
    _physical: tuple[str, ...] = field(default=(), repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", MappingProxyType(dict(self.cards)))
        object.__setattr__(
            self, "_physical", tuple(code for code, c in self.cards.items() for _ in range(c.copies))
        )

    @property
    def physical(self) -> tuple[str, ...]:
        """The deck as codes, one entry per physical card."""
        return self._physical

    def card(self, code: str) -> Card:
        """The card a code names (case-insensitive, surrounding spaces ignored); raises
        `UnknownCard` for anything else."""
        if not isinstance(code, str):
            raise UnknownCard(f"a card code must be a string, not {type(code).__name__}")
        found = self.cards.get(code.strip().lower())
        if found is None:
            raise UnknownCard(f"unknown card {code!r}")
        return found

    def normalize(self, code: str) -> str:
        """The canonical code of a card code given in any case."""
        return self.card(code).code

    def check_copies(self, codes: Iterable[str]) -> None:
        """Raise `TooManyCopies` if `codes` (canonical) hold more of a card than the deck has."""
        for code, count in Counter(codes).items():
            copies = self.cards[code].copies
            if count > copies:
                raise TooManyCopies(code, count, copies)

    def set_aside(self, options: Iterable[str] = ()) -> frozenset[str]:
        """The cards set aside when the named options are on."""
        on = set(options)
        return frozenset(c for s in self.set_asides if s.option in on for c in s.codes)

    def set_aside_by(self, rules: Any) -> frozenset[str]:
        """The cards a rule set sets aside (reads each set-aside's option from it by name)."""
        return self.set_aside(self.options_on(rules))

    def options_on(self, rules: Any) -> tuple[str, ...]:
        """Which of this deck's set-aside options a rule set has on."""
        return tuple(s.option for s in self.set_asides if option_of(rules, s.option, False))

    def in_play(self, rules: Any) -> int:
        """How many cards the deck holds under a rule set (its set-aside cards left out)."""
        return self.size(self.options_on(rules))

    def set_aside_reason(self, code: str, rules: Any) -> str | None:
        """Why a rule set has no such card in play ("The Star is set aside in Corellia
        Run"), or None when the card is in play."""
        c = self.card(code)
        for s in self.set_asides:
            if c.code in s.codes and option_of(rules, s.option, False):
                return f"{c.name} is set aside in {s.words}"
        return None

    def set_aside_name(self, code: str, options: Iterable[str] = ()) -> str | None:
        """The name of `code` if the options in play set that card aside, else None."""
        c = self.card(code)
        return c.name if c.code in self.set_aside(options) else None

    def size(self, options: Iterable[str] = ()) -> int:
        """How many cards the deck in play holds, with the options' cards set aside."""
        aside = self.set_aside(options)
        return len(self._physical) - sum(self.cards[c].copies for c in aside)

    def display_name(self, code: str, *, tarot: bool = False) -> str:
        """The name players read for a card (tarot words where the deck has them)."""
        c = self.card(code)
        return c.tarot if tarot else c.name

    def total(self, codes: Iterable[str]) -> int:
        """The plain sum of the card values."""
        return sum(self.card(c).value for c in codes)

    def to_json(self) -> dict[str, Any]:
        """The deck as the card picker reads it (`GET /api/v1/cards?deck=NAME`)."""
        return {
            "name": self.name,
            "title": self.title,
            "entry": self.entry,
            "hand_min": self.hand_min,
            "hand_max": self.hand_max,
            "staves": list(self.staves),
            "in_words": [c for c in self.cards if c not in self.plain_words],
            # The suits, for older clients (the groups say everything the picker needs).
            "suits": [{"prefix": s.prefix, "name": s.name, "tarot": s.tarot}
                      for s in dict.fromkeys(c.suit for c in self.cards.values() if c.suit)],
            "groups": [{"key": g.key, "name": g.name, "tarot": g.tarot or g.name, "cards": list(g.codes)}
                       for g in self.groups],
            "set_aside": [{"option": s.option, "words": s.words, "cards": sorted(s.codes)}
                          for s in self.set_asides],
            "cards": [
                {
                    "code": c.code,
                    "value": c.value,
                    "copies": c.copies,
                    "name": c.name,
                    "tarot": c.tarot,
                    "suit": c.suit.prefix if c.suit else None,
                }
                for c in self.cards.values()
            ],
            # The picker's face of each card, by code ("Cmdr", "+7"), and in tarot words.
            "short": {c.code: c.short or c.name for c in self.cards.values()},
            "tarot_short": {c.code: c.tarot_short or c.short or c.name for c in self.cards.values()},
        }
