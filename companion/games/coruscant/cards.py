"""Coruscant Shift's cards and dice (RULES-CORUSCANT.md C1–C3), as data.

The 62-card deck: three suits, Circle, Triangle and Square, each with one card of every value
from +1 to +10 and −1 to −10, and two Sylops worth 0 and wild for suit. A card's code is its
suit's prefix and its signed value (C2), lower case on output, any case on input::

    >>> CORUSCANT_DECK.size(), CORUSCANT_DECK.card("CI+7").name, CORUSCANT_DECK.card("tr-3").name
    (62, 'Circle +7', 'Triangle −3')
    >>> CORUSCANT_DECK.card("Sylop").copies, suit_of("sq+2"), suit_of("sylop")
    (2, 'square', None)

The gold die sets the round's target number, the silver die its target suit (C3)::

    >>> GOLD.faces, sorted(set(SILVER.faces))
    ((0, 0, 5, -5, 10, -10), ['circle', 'square', 'triangle'])
    >>> GOLD.face(3), SILVER.face(2)
    (5, 'triangle')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from companion.games.api import DiceSpec
from companion.games.api import Die as DieFaces
from companion.rules.cards import Card
from companion.rules.decks import Deck, Group

#: The three suits in the rules file's order (C1): name -> code prefix.
SUITS: dict[str, str] = {"circle": "ci", "triangle": "tr", "square": "sq"}
#: The ink each suit (and the Sylops) is printed in; a suit's mark is its own shape.
INKS: dict[str, str] = {"circle": "#1f4fa0", "triangle": "#1e6b35", "square": "#b3261e", "sylop": "#7a5a00"}
#: A suit's name by its code prefix.
SUIT_OF_PREFIX: dict[str, str] = {prefix: name for name, prefix in SUITS.items()}
#: The code of either Sylop (the deck holds two).
SYLOP = "sylop"
#: The highest value on a card (7 to 10 are picture cards with no printed number).
TOP_VALUE = 10
#: The fewest and the most cards a selection holds (C4, C11).
SELECTION_MIN, SELECTION_MAX = 1, 5


def signed(value: int) -> str:
    """A value as players read it: "+7", "−7" (a true minus sign), "0"."""
    return f"+{value}" if value > 0 else (f"\u2212{-value}" if value < 0 else "0")


def _deck() -> Deck:
    cards: dict[str, Card] = {}
    groups = []
    for name, prefix in SUITS.items():
        codes = []
        for value in [*range(1, TOP_VALUE + 1), *range(-1, -TOP_VALUE - 1, -1)]:
            code = f"{prefix}{value:+d}"
            words = f"{name.capitalize()} {signed(value)}"
            # No `Card.suit`: that field is the classic deck's four suits; this deck's suit is
            # read from the code (`suit_of`), and its group gives the printed ink and mark.
            cards[code] = Card(code, value, 1, words, words, short=signed(value))
            codes.append(code)
        groups.append(Group(prefix, name.capitalize(), tuple(codes), ink=INKS[name], mark=name))
    cards[SYLOP] = Card(SYLOP, 0, 2, "Sylop", "Sylop", short="Sylop")
    groups.append(Group(SYLOP, "Sylops", (SYLOP,), ink=INKS[SYLOP], mark="ring"))
    # entry "suit": the picker asks for the suit, then shows the value large (C2).
    return Deck("coruscant", "the 62-card Coruscant Shift deck", cards, tuple(groups), "suit",
                hand_min=SELECTION_MIN, hand_max=SELECTION_MAX, preview=("ci+7", "tr-3", "sq+10", SYLOP))


#: The 62-card deck of C1 (the Corellian Spike deck with its staves read as suits).
CORUSCANT_DECK = _deck()


def suit_of(code: str) -> str | None:
    """The suit of a card ("circle"), None for a Sylop (wild for suit, C18)."""
    card = CORUSCANT_DECK.card(code)
    return None if card.code == SYLOP else SUIT_OF_PREFIX[card.code[:2]]


T = TypeVar("T")


@dataclass(frozen=True)
class Die(Generic[T]):
    """One of the two dice: its name and its six faces (face n is `faces[n - 1]`)."""

    name: str
    faces: tuple[T, ...]

    def face(self, n: int) -> T:
        """What face `n` (1 to 6, as the scrambler rolls it) shows."""
        if not 1 <= n <= len(self.faces):
            raise ValueError(f"the {self.name} has faces 1 to {len(self.faces)}, not {n}")
        return self.faces[n - 1]

    def shows(self, value: T) -> bool:
        """Whether some face of this die shows `value`."""
        return value in self.faces


#: The gold die (C3): the target number. Two blanks (0), and ±5 and ±10 once each.
GOLD: Die[int] = Die("gold die", (0, 0, 5, -5, 10, -10))
#: The silver die (C3): the target suit, two faces each (the only fair six-faced layout).
#: The face order is this package's choice; a printed net follows it.
SILVER: Die[str] = Die("silver die", ("circle", "triangle", "square", "circle", "triangle", "square"))
#: The target numbers the gold die can show, in the order the pages list them.
TARGET_NUMBERS: tuple[int, ...] = (-10, -5, 0, 5, 10)


def target_words(number: int, suit: str) -> str:
    """The target as every screen shows it: "+5 Triangle", "0 Circle"."""
    return f"{signed(number)} {suit.capitalize()}"


@dataclass(frozen=True)
class TargetDice:
    """The two dice as the table's pages name a roll (`rules.dice`): the gold die's face, then
    the silver die's.

    >>> TARGET_DICE.show([3, 2])
    '+5 and Triangle'
    """

    name: str = "the gold and silver dice"
    shift_words: str = ""  # the dice set the target; they never shift anything

    def show(self, dice: list[int] | tuple[int, ...]) -> str:
        """A roll in the table's words: "+5 and Triangle" (faces 1 to 6 each)."""
        if len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
            return " and ".join(str(d) for d in dice)
        return f"{signed(GOLD.face(dice[0]))} and {SILVER.face(dice[1]).capitalize()}"


#: The gold and silver dice, as `rules.dice`.
TARGET_DICE = TargetDice()
#: The same two dice as the scrambler throws them (`Game.dice`): the gold die's face, then the
#: silver die's, read as the round's target (C3).
TARGET_ROLL = DiceSpec("coruscant-target", "the gold and silver dice",
                       (DieFaces("gold die", tuple(signed(f) for f in GOLD.faces)),
                        DieFaces("silver die", tuple(f.capitalize() for f in SILVER.faces))),
                       "the round's target: the gold die's number and the silver die's suit (C3)")
