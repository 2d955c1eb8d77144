"""What the printed decks read from the rules: the one door between the rules and the art.

The art, the sheets and the reference cards never read the games themselves: they ask
`deck_cards` for a deck's cards (every game's decks, from `companion.games.registry`) and
`rule_sections` for a preset's rules in words (its game's `explain`), so that a change to the
rules is one edit here::

    >>> [c.code for c in deck_cards("sabacc")][:3], len(printed(deck_cards("sabacc")))
    (['sa1', 'sa2', 'sa3'], 76)
    >>> value_text(-13), value_text(7), value_text(7, signed=True), value_text(0, signed=True)
    ('−13', '7', '+7', '0')
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Any

from companion.games import registry
from companion.games.api import Printables, Section
from companion.rules.game import DROPPED_OUT
from companion.rules.rulesets import RuleSet

MINUS = "\N{MINUS SIGN}"  # printed negatives use the typographic minus, as the rules files print them


@dataclass(frozen=True)
class DeckCard:
    """One distinct card of a deck as the art needs it.

    `suit` is the suit's code prefix (a deck in suits) or None; `staves` the marks printed on
    its copies, one each (a deck that tells a value's copies apart), or empty; `set_aside`
    names the variant that sets the card aside (in the game's words) or is None. `ink` and `mark` are its group's own
    (`companion.rules.decks.Group`), empty when the group leaves them to the art; `short` is
    the picker's face ("+7", a card's name), which a card of such a group prints large.
    """

    code: str
    value: int
    copies: int
    name: str
    tarot: str
    suit: str | None
    staves: tuple[str, ...] = ()
    set_aside: str | None = None
    ink: str = ""
    mark: str = ""
    short: str = ""


@dataclass(frozen=True)
class PrintedDeck:
    """A printable deck: its name (the rule sets' deck's), its title, the preset whose rules
    summary goes with it, and whether its values are printed signed (+7)."""

    name: str
    title: str
    game_preset: str
    signed: bool


def printed_deck(name: str) -> PrintedDeck:
    """The printable deck of the games' deck `name`: titled by the game that plays it, with
    its default preset's rules summary. A deck entered by its value alone ("+7") has its
    values printed signed.
    """
    deck = registry.decks()[name]
    game = next(g for g in registry.games().values() if name in g.decks)
    return PrintedDeck(name, game.title, game.default_preset(), deck.entry == "value")


def rule_sets() -> dict[str, RuleSet]:
    """The presets whose rules are a `RuleSet` (the hands, turns and reference cards read one)."""
    return {name: rs for name, rs in registry.presets().items() if isinstance(rs, RuleSet)}


def printed_decks() -> dict[str, PrintedDeck]:
    """The printed decks: every deck of every game registered now (asked each time, not kept
    from the start: a plug-in found or taken away since is in or out, `registry.reload`)."""
    return {name: printed_deck(name) for name in registry.decks()}


def __getattr__(name: str) -> Any:
    """`DECKS`: `printed_decks()`, as it is when asked (the name older code imports)."""
    if name == "DECKS":
        return printed_decks()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache  # a deck is a value built once: its cards never change
def deck_cards(deck: str) -> tuple[DeckCard, ...]:
    """Every distinct card of `deck` (a deck's name, as `registry.decks` has it), in deck order.

    The one function the art reads cards through (KeyError for another deck name).
    """
    d = registry.decks()[deck]
    aside = {code: s.words for s in d.set_asides for code in s.codes}
    group = {code: g for g in d.groups for code in g.codes}
    out = []
    for c in d.cards.values():
        g = group.get(c.code)
        ink, mark = (g.ink, g.mark) if g else ("", "")
        out.append(DeckCard(c.code, c.value, c.copies, c.name, c.tarot, c.suit.prefix if c.suit else None,
                            d.staves if c.copies == len(d.staves) else (), aside.get(c.code),
                            ink, mark, c.short if ink else ""))
    return tuple(out)


def printed(cards: tuple[DeckCard, ...]) -> tuple[tuple[DeckCard, int], ...]:
    """One entry per physical card: (card, which copy of it, from 0), in deck order."""
    return tuple((c, i) for c in cards for i in range(c.copies))


def value_text(value: int, *, signed: bool = False) -> str:
    """A value as printed: a typographic minus for negatives, a plus sign when `signed`."""
    if value < 0:
        return f"{MINUS}{-value}"
    return f"+{value}" if signed and value > 0 else str(value)


def reference_presets() -> dict[str, str]:
    """Every preset a reference card is printed for: name -> title (the presets whose rules
    are a `RuleSet`, and those whose game names its reference card's sections)."""
    return {name: rules.title for name, rules in registry.presets().items()
            if name in rule_sets() or registry.game_of(name).reference}


def printables(deck: str) -> dict[str, Printables]:
    """What the game of `deck` prints beside it (tokens, dice nets), by key (KeyError for no
    such deck)."""
    return {p.key: p for p in registry.games()[_game_of_deck(deck)].printables}


def _game_of_deck(deck: str) -> str:
    registry.decks()[deck]
    return next(g.name for g in registry.games().values() if deck in g.decks)


@dataclass(frozen=True)
class NamedHand:
    """A kind of hand in the game's words, with the shortest example the ranking judges so."""

    kind: str
    example: tuple[str, ...]


@functools.cache
def named_hands(preset: str) -> tuple[NamedHand, ...]:
    """The kinds of hand of a preset's ranking, best first, each with an example found by
    judging the smallest hands of its deck (a kind the preset never makes is left out)."""
    rs = rule_sets()[preset]
    dropped = {kind for kind, _ in DROPPED_OUT}
    wanted = [kind for kind, _ in rs.hands.kinds if kind not in dropped]
    # Zero cards and small values first, so that the first hand found is the plainest.
    codes = sorted(rs.deck.cards, key=lambda c: (abs(rs.deck.cards[c].value), -rs.deck.cards[c].value))
    found: dict[str, tuple[str, ...]] = {}
    largest = rs.deck.hand_max or rs.deck.hand_min + 1
    for size in range(rs.deck.hand_min, largest + 1):
        for hand in itertools.combinations_with_replacement(codes, size):
            if any(hand.count(c) > rs.deck.cards[c].copies for c in set(hand)):
                continue
            found.setdefault(str(rs.hands.evaluate(rs, list(hand)).kind), hand)
        if len(found.keys() & set(wanted)) == len(wanted):
            break
    return tuple(NamedHand(rs.hands.words(k), found[k]) for k in wanted if k in found)


def rule_sections(preset: str) -> list[Section]:
    """A preset's rules in words, as the rules page says them (KeyError for no such preset)."""
    return registry.game_of(preset).explain(registry.presets()[preset])
