"""What makes a game a game, as values a rule set holds (with its `Deck`, see `decks.py`).

PokerKit's `State` holds its deck and hand types as values; a rule set here holds:

- `HandRanking`: the kinds of hand with their words, the function that judges a hand, which
  kinds take the sabacc pot, and how a tie is resolved (one more card into each tied hand,
  or drawn cards compared on their own);
- `TurnAction`: each action a player may take when it is their turn to draw: its card count
  change, the cards dealt and discarded, its fee, its words;
- `Ending`: how a hand ends (by a call, or after a fixed number of rounds);
- `Dice`: how a roll of the scrambler is shown (each face's symbol) and what makes a shift
  in words (which faces shift is the rule set's `scrambler_trigger`, judged by the scrambler);
- `GameWords`: every other word a screen says that is the game's own (the pot a hand is
  played for, dropping out of a hand, its fee, the tie's exchange).

The settlement, the table and the pages read these values; none of them names a game. Each
game's own values are in its package (`companion/games/<game>/`)::

    >>> Ending(by_call=False, rounds=3).rounds
    3
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

class InvalidHand(ValueError):
    """A hand a game's judge cannot judge (a card the rule set set aside, a hand missing what
    its kind needs): `message` in words, `code` the card at fault if one is."""

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.message, self.code = message, code


#: The kinds every game's settlement gives the players who did not show a hand.
FOLDED = "folded"  # dropped out of the hand
CONCEDED = "conceded"  # the last player left, everyone else dropped out


@dataclass(frozen=True, eq=False)
class HandRanking:
    """A game's hand ranking as a value.

    `evaluator` names the judging function as ``"module:function"``: called as
    ``f(rules, cards, side=..., community=...)`` it returns a hand with `kind`, `total`,
    `rank` (a larger rank wins; equal ranks tie) and `cards`. `draw_key` names the function
    giving a drawn card's key (a larger key wins) where a tie is settled by drawn cards compared
    on their own; empty where each tied player's hand grows by a card and is judged again.

    `tie` is the game's own name for how its ties are settled; the pages and the API carry it
    as it is (each game's package declares its value).
    """

    name: str  # how the rule set's JSON names the ranking
    kinds: tuple[tuple[str, str], ...]  # (kind, words) best first, then folded, conceded
    evaluator: str
    sabacc_pot_kinds: frozenset[str]  # a winning hand of these kinds takes the sabacc pot
    tie: str  # how a tie is settled, in the game's own word (see above)
    # The last player left after everyone else dropped out may show a hand to take the sabacc
    # pot too; otherwise they show nothing.
    last_player_shows: bool = False
    # The option names this game reads beyond those every game has (a rule set of another
    # game refuses them).
    options: frozenset[str] = frozenset()
    draw_key: str = ""
    # Option names this game gives an attribute every rule set has (a game may call the rule
    # set's `ante` or `fold_fee` by a name of its own): (option, attribute).
    renames: tuple[tuple[str, str], ...] = ()
    # How the result tables mark a hand of a kind, (kind, mark): "special" (a hand the game
    # rewards beyond the pot, drawn in the accent colour) or "bust" (a hand that loses by itself,
    # drawn in the warning colour); a kind not listed is drawn plainly.
    marks: tuple[tuple[str, str], ...] = ()
    # The game's own record of a player at the reveal, as ``"module:Class"``: a subclass of
    # `companion.rules.showdown.PlayerReveal` with the game's own fields (a calculator request
    # is read into it); by default the showdown's own, with none.
    reveal: str = "companion.rules.showdown:PlayerReveal"
    _loaded: dict[str, Callable[..., Any]] = field(default_factory=dict, repr=False)

    def _load(self, ref: str) -> Callable[..., Any]:
        # Resolved on first use: the judging modules import the rule sets, which hold this value.
        found = self._loaded.get(ref)
        if found is None:
            module, _, name = ref.partition(":")
            found = self._loaded[ref] = getattr(importlib.import_module(module), name)
        return found

    def evaluate(self, rules: Any, cards: Any, **kwargs: Any) -> Any:
        """Judge a hand under `rules` (see the class docstring)."""
        return self._load(self.evaluator)(rules, cards, **kwargs)

    def draw_rank(self, code: str) -> Any:
        """A drawn tie card's key (a larger key wins)."""
        return self._load(self.draw_key)(code)

    def reveal_class(self) -> Any:
        """The game's record of a player at the reveal (`reveal`), loaded on first use."""
        return self._load(self.reveal)

    @functools.cached_property
    def busts(self) -> frozenset[str]:
        """The kinds of hand that lose by themselves (marked "bust"): such a hand wins no pot."""
        return frozenset(kind for kind, mark in self.marks if mark == "bust")

    def words(self, kind: str) -> str:
        """A kind in the game's words ("Pure Sabacc", "ordinary")."""
        return dict(self.kinds).get(str(kind), str(kind).replace("_", " "))

    def to_json(self) -> dict[str, Any]:
        """The ranking as the pages read it: each kind's words, best first."""
        return {"name": self.name, "tie": self.tie,
                "kinds": [{"kind": k, "words": w} for k, w in self.kinds],
                "sabacc_pot_kinds": sorted(self.sabacc_pot_kinds)}


#: Words every game shares for the players who did not show a hand.
DROPPED_OUT = (("folded", "folded"), ("conceded", "won, everyone else folded"))

@dataclass(frozen=True)
class TurnAction:
    """One action a player may take in their turn to draw, as data the table engine reads.

    The hand grows by `cards`; the dealer deals `dealt` cards from the draw pile and the player
    discards `discards` cards (never a card the game keeps from trading). `fee` names the rule-set option
    holding the credits it costs, into the pot (empty: free).
    """

    action: str  # the draw command's "action"
    button: str  # the phone's button for it ("Gain a card")
    done: str  # the last-actions line after the player's name ("gains a card")
    cards: int = 0
    dealt: int = 0
    discards: int = 0
    fee: str = ""
    takes_discard: bool = False  # takes the discard pile's top card instead of a dealt one
    leaves: bool = False  # the player leaves the hand (puts the whole hand on the discard pile)
    primary: bool = False  # the phone shows it as the main button
    offer: str = ""  # how the turn line offers it ("trade one"); empty: its button, in lower case

    @property
    def offered(self) -> str:
        """How the turn line offers the action: "gain a card", "trade one"."""
        return self.offer or self.button.lower()


@dataclass(frozen=True)
class Ending:
    """How a hand ends: by a player's call, or after a fixed number of rounds."""

    by_call: bool
    rounds: int | None = None  # the rounds a hand lasts when it is not ended by a call


@dataclass(frozen=True)
class Dice:
    """The dice as the table sees them: what they are called, each face's symbol (none: the
    number is shown), and what makes a shift, in words.

    >>> Dice("the scrambler").show([4, 4]), Dice("dice", ("Sun", "Moon")).show([2, 1])
    ('4 and 4', 'Moon and Sun')
    """

    name: str  # "the scrambler", "the dice"
    faces: tuple[str, ...] = ()  # face n's symbol is faces[n - 1]
    shift_words: str = ""  # "matching symbols" (the rules page and the phones say it)

    def show(self, dice: list[int] | tuple[int, ...]) -> str:
        """A roll in the table's words: "4 and 2", "Moon and Sun"."""
        faces = [self.faces[d - 1] if 0 < d <= len(self.faces) else str(d) for d in dice]
        return " and ".join(faces)


@dataclass(frozen=True)
class GameWords:
    """The words a screen says that are the game's own, in one place: every page (phones,
    console, display, history, audit, summary) says these, never a word of its own (one game's
    players fold and play for the hand pot, another's drop out by a word of its own).
    Lower case, mid-sentence; a page capitalises where a sentence starts. An empty string: the
    game has no such thing (a game without a penalty for going over), and the pages leave it out.

    >>> GameWords().pot, GameWords().fold, GameWords().tie
    ('hand pot', 'fold', 'tie')
    """

    pot: str = "hand pot"  # the pot a hand is played for
    fold: str = "fold"  # dropping out of a hand: the move ("Fold", "Tap again: fold")
    folds: str = "folds"  # ... what a player does ("Han folds")
    folded: str = "folded"  # ... what a player has done ("You folded this hand")
    fold_fee: str = "fold fee"  # what dropping out costs (the option fold_fee)
    tie: str = "tie"  # how a tie is settled (the hand's stage, the result's column)
    tie_card: str = "tie card"  # the card a tied player enters
    tie_started: str = "one more card each for the tied players"  # the log, when one starts
    draw_step: str = "draw"  # the step of a turn in which a player takes a turn action
    over_limit: str = ""  # what a hand over the limit pays ("": no such penalty)


def option_of(rules: Any, name: str, default: Any = None) -> Any:
    """The option `name` of any game's rules: a `RuleSet`'s `option` (its game's own options
    too), else the attribute of that name (a game whose rules are a value of its own).

    >>> from types import SimpleNamespace
    >>> option_of(SimpleNamespace(ante=2), "ante"), option_of(SimpleNamespace(), "ante", 0)
    (2, 0)
    """
    read = getattr(rules, "option", None)
    return read(name, default) if read is not None else getattr(rules, name, default)
