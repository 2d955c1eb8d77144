"""The game interface: the one value a game package exports as `GAME`.

A game is one object (boardgame.io's `Game`; OpenSpiel's `register_game` with its `GameType`):
its name and words, its presets as frozen rules values (PokerKit's variants), the options a
table may change, how a description becomes rules, its decks, its rules page, the engine its
live table runs and how the payout calculator answers for it. The runtime, the server and the
pages read these fields through `companion.games.registry` and never name a game.

A game package (built in under `companion/games/<name>/`, or a pip package of its own that
declares the entry point ``[project.entry-points."sabacc_companion.games"]``
``<name> = "<module>:GAME"``) writes, for example::

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class CoinTossRules:
    ...     name: str
    ...     title: str
    ...     summary: str = "Everyone antes, one betting round, the coin decides."
    ...     ante: int = 1
    >>> BASIC = CoinTossRules("cointoss", "Coin toss")
    >>> def rules_from(spec, field="rules"):
    ...     spec = {"preset": spec} if isinstance(spec, str) else dict(spec)
    ...     base = {"cointoss": BASIC}[spec.pop("preset")]
    ...     return CoinTossRules(base.name, base.title, ante=spec.get("ante", base.ante))
    >>> GAME = Game(name="cointoss", title="Coin toss", summary="Heads or tails.",
    ...             presets={"cointoss": BASIC}, options={"ante": int}, rules_from=rules_from,
    ...             engine=lambda: object, decks={}, explain=lambda rules: [])
    >>> GAME.rules_from({"preset": "cointoss", "ante": 3}).ante, GAME.preset_order()
    (3, ['cointoss'])

This module imports no game and nothing of the table or the server: anything may import it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

if TYPE_CHECKING:  # the deck type only; `companion.rules.decks` holds no game
    from companion.rules.decks import Deck


class InvalidRules(ValueError):
    """A rule-set description that names an unknown preset or option, or a bad value:
    `message` says what in words, `field` is the path of the bad field ("rules.bet_limit")."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.message, self.field = message, field


class InvalidRequest(ValueError):
    """A payout-calculator request that cannot be answered: `message` in words, `field` the
    path of the first bad field ("players[0].cards[1]"). `POST /api/v1/settle` answers 422."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.message, self.field = message, field


class Rules(Protocol):
    """What every game's rules value has (a game's own frozen dataclass satisfies it).

    `name` is the preset's name, kept when options override it (views and the ledger say
    "name"); `title` and `summary` are the preset picker's words.
    """

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def summary(self) -> str: ...


@dataclass(frozen=True)
class Section:
    """One heading of a rules page (`Game.explain` returns them in reading order).

    `key` is a stable id (used as the HTML anchor and by tests), `paragraphs` are plain
    sentences, `points` a list after them (numbered steps when `ordered`). `varies` is True
    when the text depends on the rules (the page marks those sections so players know where
    tables differ). `in_summary` is False for a long ruling or a corner case the printed
    one-page summary leaves to the rules page.
    """

    key: str
    title: str
    paragraphs: tuple[str, ...]
    points: tuple[str, ...] = ()
    varies: bool = False
    ordered: bool = False
    in_summary: bool = True

    def text(self) -> str:
        """All the words of the section as one string (for search and tests)."""
        return " ".join((self.title, *self.paragraphs, *self.points))


def section(sections: list[Section], key: str) -> Section:
    """The section with `key` (KeyError if there is none)."""
    for s in sections:
        if s.key == key:
            return s
    raise KeyError(key)


def credits(n: int) -> str:
    """'1 credit', '3 credits'."""
    return f"{n} credit" if n == 1 else f"{n} credits"


#: How a page shows a fact (`fact`): "" in the panel's own type, "large" read across the table
#: (a target every player plays to), "quiet" small and grey (a count nobody acts on).
FACT_HINTS = ("", "large", "quiet")


def fact(key: str, words: str, value: str | int, hint: str = "") -> dict[str, Any]:
    """One fact a game's view gives the pages to show, without the pages knowing the game:
    `key` names it for tests and styles (``data-fact``), `words` says what it is ("Stock",
    "Target"), `value` is what it is now (text or a number, shown as text), `hint` how it is
    shown (`FACT_HINTS`). The views carry them in three places (docs/games.md, "Facts"):
    ``hand["facts"]["table"]`` (the table's), ``hand["facts"]["seats"][seat]`` (each seat's,
    on the seat lists) and ``you["facts"]`` (the viewing seat's own: its secrets may go there,
    and only there).

    >>> fact("target", "Target", "+7 Circle", "large")
    {'key': 'target', 'words': 'Target', 'value': '+7 Circle', 'hint': 'large'}
    """
    if hint not in FACT_HINTS:
        raise ValueError(f"a fact's hint is one of {FACT_HINTS}, not {hint!r}")
    return {"key": key, "words": words, "value": value, "hint": hint}


def _always(rules: Any) -> bool:
    return True


@dataclass(frozen=True)
class OptionField:
    """One option as a form field of the host's pages (the start page, dealer's choice): its
    words, its kind and limits, its group (`companion.rules.option_fields.GROUPS`), and when
    the rules have use for it (`shown`). Kinds: "whole" (a whole number), "choice" (one of
    `choices`, (value, words) pairs), "switch" (on/off), "penalty" (a choice of `choices` or a
    fixed amount, `amount` its words)."""

    name: str  # the option's name in a rule-set description
    label: str
    group: str
    kind: str = "whole"
    minimum: int = 0
    maximum: int | None = None
    empty: str = ""  # a whole number that may be left empty: what empty means (its hint)
    hint: str = ""
    choices: tuple[tuple[str, str], ...] = ()  # (value, words) of a choice or a penalty
    amount: str = ""  # a penalty's fixed amount, in words
    shown: Callable[[Any], bool] = _always


#: An option's parser: the value as sent (JSON) -> the value the rules hold; raises
#: `ValueError` whose message completes "<option name> ..." ("must be a whole number").
Parser = Callable[[Any], Any]

#: The payout calculator of a game: the whole `POST /api/v1/settle` body -> the answer's JSON.
#: It reads the rules through `registry.rules_from(body["rules"])` and raises
#: `InvalidRequest(message, field)` for the first bad field (the server answers 422).
Calculator = Callable[[Any], dict[str, Any]]

#: How the audit log says one of a game's own events: (the event, its seat's player's name,
#: the rules of the hand it belongs to) -> the line (`Game.log_words`).
LogWords = Callable[[Mapping[str, Any], str, Any], str]


@dataclass(frozen=True)
class CalculatorSchema:
    """A game's payout-calculator request and answer as JSON Schema, declared as data in its
    package (`Game.calculator_schema`). The OpenAPI document of `POST /api/v1/settle` lists
    every game's: the request body is any of the games' `request`s, the answer any of their
    `result`s.

    - `request`, `result`: the names of the component schemas of the request body and of the
      answer (``#/components/schemas/<name>``), both in `components`.
    - `components`: every schema the game's request and answer use, by name. Two games may
      declare the same name only with the same schema (games that share a request do).
    - `description`: how the calculator answers this game's request, in words.
    - `examples`: request examples, name -> ``{"summary": ..., "value": ...}``.
    - `form`: the calculator page's form for this request, as data (empty: the page offers
      the game's presets in the form of the rule-set request). Its keys: `fields` (the
      request's own fields) and `player` (each player's), lists of ``{"key", "label", "kind"}``
      with kind "text", "whole" (optional when ``"optional"``), "flag", "choice" (with
      ``"choices"``: [value, words] pairs), "cards" (with ``"max"``) or "numbers" (a list of
      whole numbers typed apart by commas); a dotted key ("target.suit") fills an object.
      `tie` (optional): the answer's `status` when tied players need a card, the answer's
      list of them (`players`), the player field their card goes in (`field`) and the words
      (`title`, `text` with {names}, `label` with {name}). `result`: the answer's per-player
      amount (`amount`, an object by name, with its column `amount_label` and `signed`), the
      column after it (`after_label`: the sent `after` field plus the amount; empty: none),
      who won (`winners`: an answer key; else the pots' winners), the kinds' words
      (`kinds`) and the hand facts shown beside a kind (`facts`: [key, words] pairs).
    """

    request: str
    result: str
    components: Mapping[str, Any]
    description: str = ""
    examples: Mapping[str, Any] = field(default_factory=dict)
    form: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PrintCard:
    """A card a game prints beside its deck that is no card of the deck (a token): its name,
    what it does in words, and how many copies are printed."""

    name: str
    words: str
    copies: int = 1


@dataclass(frozen=True)
class Die:
    """One die of a game's dice: its name and the words of each face (face n is `faces[n - 1]`)."""

    name: str
    faces: tuple[str, ...]

    @property
    def sides(self) -> int:
        """How many faces the die has."""
        return len(self.faces)


@dataclass(frozen=True)
class DiceSpec:
    """What a game's scrambler throws and what a roll of it means, as the game declares it.

    - `key`: recorded as the roll's ``trigger`` (the ledger, the audit page, `verify`), and
      the name the scrambler's announcements and `scrambler simulate --dice` look it up by;
      unique across the games (two games may share a key only for the same dice).
    - `name`: the dice in the game's words ("the gold and silver dice").
    - `dice`: each die in the order a roll lists its faces; all with the same number of
      sides (the committed seed derives a roll's faces for one die size, `seed.py` step 5).
      None at all: a roll that throws nothing (the random timer firing).
    - `means`: what a roll means, in words (the simulate command and the docs say it).
    - `shifts`: True for a shift roll (judged against the rule set's trigger, `judge`);
      False for dice whose faces are read (an Impostor's values, a target).
    - `led`, `beep`: the patterns that announce a read roll (a shift roll is announced as a
      shift or no shift).
    """

    key: str
    name: str
    dice: tuple[Die, ...]
    means: str
    shifts: bool = False
    led: str = "rolled"
    beep: str = "rolled"

    def __post_init__(self) -> None:
        if self.dice and (len({d.sides for d in self.dice}) != 1 or self.dice[0].sides < 2):
            raise ValueError(f"the dice {self.key!r} must all have the same number of faces (two or more)")

    @property
    def count(self) -> int:
        """How many dice one roll throws."""
        return len(self.dice)

    @property
    def sides(self) -> int:
        """How many faces each die has (0: no dice)."""
        return self.dice[0].sides if self.dice else 0

    def read(self, dice: tuple[int, ...] | list[int]) -> tuple[str, ...]:
        """Each die's face in words; raises ValueError for faces these dice cannot show."""
        if len(dice) != self.count or not all(isinstance(d, int) and 1 <= d <= self.sides for d in dice):
            raise ValueError(f"{list(dice)} is not a roll of {self.name} ({self.count} d{self.sides})")
        return tuple(die.faces[d - 1] for die, d in zip(self.dice, dice))

    def announce(self, shift: bool) -> tuple[str, str]:
        """The (LED, beep) pattern names that announce a roll of these dice."""
        if self.shifts:
            return ("shift", "shift") if shift else ("noshift", "noshift")
        return self.led, self.beep


@dataclass(frozen=True)
class DieNet:
    """A die printed as a cube net to cut and fold: its name, its six faces as printed (face n
    is `faces[n - 1]`), its ink, and per face the shape printed above the words (a name of
    the shapes companion/decks/art.py draws; empty: words only)."""

    name: str
    faces: tuple[str, ...]
    ink: str = "#1f2a36"
    marks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Printables:
    """Things a game prints beside its deck (`Game.printables`): its tokens as cards, with a
    back that says `back`, and its dice as nets. `key` names the page (``/decks/<deck>/<key>``;
    not "summary", which is the deck's rules summary)."""

    key: str
    title: str
    cards: tuple[PrintCard, ...] = ()
    dice: tuple[DieNet, ...] = ()
    back: str = ""


@dataclass(frozen=True)
class Game:
    """One game, as its package exports it (`GAME`). The registry refuses, in words, a game
    whose name, preset names or deck names another game already has.

    - `name`: the package's name ("cointoss" for `companion/games/cointoss/`); stable, lower case.
    - `title`, `summary`: the game in words (the start page, the rules page, the API).
    - `presets`: preset name -> rules value; each value's `.name` is its key. The names are
      unique across every game: a preset names its game.
    - `options`: every option name a table may set for this game -> its parser. An option
      another game accepts and this one does not is refused for this game's presets, in words.
    - `rules_from(spec, field)`: the rules a description gives. `spec` is a preset name of
      this game or ``{"preset": name, **options}``; raises `InvalidRules(message, field)` (its
      field a path under `field`) for a bad value or combination. The registry has already
      refused unknown presets, unknown option names and values the parsers refuse.
    - `engine()`: the live table's engine class for this game. Imported inside the function,
      so that loading the games never imports the table (no import circle).
    - `decks`: deck name -> `Deck` (the card picker, the decks page and the printed cards).
    - `explain(rules)`: the rules page, as `Section`s in reading order.
    - `by_hand`: True when the game is played in hands within a session; dealer's choice may
      switch only between such games. False: one game played to a winner.
    - `own_words`: words only this game uses (the tree check refuses them outside its package).
    - `default`: the preset the pages select first (empty: the first preset).
    - `fields`: its options as the host's form fields, in the order the pages show them (an
      option without a field is accepted but not offered on the pages).
    - `calculator`: how `POST /api/v1/settle` answers a request for its presets (None: the
      game has no payout calculator; a request naming its preset is a 422 in words).
    - `calculator_schema()`: its calculator's request and answer as JSON Schema
      (`CalculatorSchema`), for the OpenAPI document and the calculator page; called when
      they are first asked for. None: not documented (a game without a calculator).
    - `printables`: what the decks page prints for this game beside its decks (tokens as
      cards, dice as cube nets); empty: its decks alone.
    - `reference`: the keys of `explain`'s sections a player's reference card prints, in
      order, for a game whose rules are no `RuleSet` (empty: no reference card of its own).
    - `dice`: every dice the game's scrambler throws (`DiceSpec`); its engine's `roll_due`
      names the one a roll throws now.
    - `log_words`: event type -> how the audit log says that event of this game's own
      (`LogWords`); an event without any says its own `words`, else its type.
    - `tie_column(hand, card_name, kind_words)`: what a hand's history says in its tie column
      for one player's line of a settlement (`hand`), with the deck's card names and the
      ranking's kinds in words; "" where the player had no tie card of this game's own. None:
      the cards the player drew in a tie (the settlement's `blind_draw`), if any.
    - `shift_announcements`: a shift kind's value -> what the table is told when a shift of
      that kind, one of this game's own, fires (other kinds: "A core shift: the scrambler has
      fired.").
    """

    name: str
    title: str
    summary: str
    presets: Mapping[str, Any]
    options: Mapping[str, Parser]
    rules_from: Callable[..., Any]
    engine: Callable[[], type]
    decks: Mapping[str, "Deck"]
    explain: Callable[[Any], list[Section]]
    by_hand: bool = True
    own_words: frozenset[str] = frozenset()
    default: str = ""
    fields: tuple[OptionField, ...] = ()
    calculator: Calculator | None = field(default=None, compare=False)
    calculator_schema: Callable[[], CalculatorSchema] | None = field(default=None, compare=False)
    printables: tuple[Printables, ...] = ()
    reference: tuple[str, ...] = ()
    dice: tuple[DiceSpec, ...] = ()
    log_words: Mapping[str, LogWords] = field(default_factory=dict, compare=False)
    shift_announcements: Mapping[str, str] = field(default_factory=dict, compare=False)
    tie_column: Callable[[Mapping[str, Any], Callable[[str], str], Callable[[str], str]], str] | None = field(
        default=None, compare=False)

    def preset_order(self) -> list[str]:
        """The preset names in the game's order (the start page lists them so)."""
        return list(self.presets)

    def default_preset(self) -> str:
        """The preset the pages select first."""
        return self.default or next(iter(self.presets))


def imported_when_called(target: str) -> Callable[..., Any]:
    """A function that imports `target` ("module:name") the first time it is called and then
    calls it: a game's rules page and payout calculator are loaded when someone asks for
    them, not by every server that starts (a Pi Zero's memory)."""
    module, _, name = target.partition(":")

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"{target}, imported when first called."
    return call
