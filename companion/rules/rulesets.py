"""Rule sets as data: every option of a game dealt in hands as one frozen value.

A `RuleSet` holds what every game dealt in hands has (antes and fees, the order of play, the
scrambler, the deck, the hand ranking, the turn actions, the words); each game's own options
are a frozen value of its package in `RuleSet.game_options` (`GameOptions`). The engine, the
table and the rules page read a `RuleSet`; nothing anywhere tests a preset's name. The presets are each game's own (`companion/games/<game>/presets.py`); a table or an API
request starts from one and overrides options by name, and `companion.games.registry` finds
the game by the preset::

    >>> from companion.games import registry
    >>> name = next(iter(registry.presets()))
    >>> rs = ruleset_from({"preset": name, "bet_limit": 10, "ante": 4})
    >>> rs.name == name, rs.bet_limit, rs.ante, rs.overrides
    (True, 10, 4, ('ante', 'bet_limit'))

`RULE_SETS`, `PRESETS`, `DECKS` and `OPTIONS` are asked of the registry when read (this module
holds no game's data).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Mapping, Protocol

from companion.games import registry
from companion.games.api import InvalidRules
from companion.rules.decks import Deck
from companion.rules.game import Dice, Ending, GameWords, HandRanking, TurnAction

__all__ = ["InvalidRules", "RuleSet", "ruleset_from", "apply_options"]


class AnteRule(StrEnum):
    """Where each player's ante goes at the start of a hand."""

    BOTH_POTS = "both_pots"  # the ante into the hand pot and the same into the sabacc pot
    SABACC_POT_WHEN_EMPTY = "sabacc_pot_when_empty"  # hand pot; sabacc pot only while it is empty
    # `ante` into the pot a hand is played for and a second ante into the sabacc pot, once a game.
    GAME_AND_SABACC = "game_and_sabacc"


class OrderOfPlay(StrEnum):
    """The shape of a hand (RULES.md "Rule sets", order of play)."""

    TURNS = "turns"  # each player's turn: bet, roll, call, draw
    PHASES = "phases"  # each round: betting phase, trade phase (each player), dice phase (dealer)
    PLAY_AND_BETTING = "play_and_betting"  # each round: play round (draw then roll), betting round


class Phase(StrEnum):
    """The named steps of a turn or round, in the words of the sources."""

    BET = "bet"
    ROLL = "roll"
    CALL = "call"
    DRAW = "draw"
    BETTING = "betting"
    TRADE = "trade"
    DICE = "dice"
    PLAY = "play"
    TURN = "turn"  # one turn action each (the game's `actions`)

    @classmethod
    def _missing_(cls, value: object) -> Any:
        """A phase a game names of its own (`PhaseRule.phase` in its package, as its steps
        record it): made the first time it is named, the same member ever after. Open, so
        that the names of a game's phases live in its package::

            >>> Phase("muster") is Phase("muster"), Phase("muster").value
            (True, 'muster')
        """
        if not isinstance(value, str) or not re.fullmatch(r"[a-z][a-z0-9_-]*", value):
            return None
        member = str.__new__(cls, value)
        member._name_, member._value_ = value.upper().replace("-", "_"), value
        return cls._value2member_map_.setdefault(value, member)


class Who(StrEnum):
    """Who carries out a phase."""

    EACH_PLAYER = "each_player"  # every player still in the hand, one after the other
    DEALER = "dealer"  # the dealer alone (a dice phase)
    TABLE = "table"  # one betting round the whole table takes part in


@dataclass(frozen=True)
class PhaseRule:
    """One phase of a turn or round as data: what is done in it, who does it, and its words.

    The engine builds a round from a rule set's phases; the rules page and the turn line read
    the same words. A new order of play is new phases in a rule set, not new engine code::

        >>> PLAY.does, PLAY.by.value, PLAY.words
        (('draw', 'roll'), 'each_player', 'play')
    """

    phase: Phase  # the phase's name in the sources
    does: tuple[str, ...]  # the moves made in it, in order: "bet", "roll", "call", "draw"
    by: Who  # who makes them (in a turn-based order of play, the turn player throughout)
    words: str  # how the rules page and the turn line name it


#: Phases an order of play is built of, each once (a turn of bet, roll, call, draw; rounds of
#: betting, trade by each player, dice by the dealer; a play round, each player drawing then
#: rolling). A game may add phases of its own: a rule set names its phases in `turn_phases`.
BET = PhaseRule(Phase.BET, ("bet",), Who.TABLE, "bet")
ROLL = PhaseRule(Phase.ROLL, ("roll",), Who.EACH_PLAYER, "roll the scrambler")
CALL = PhaseRule(Phase.CALL, ("call",), Who.EACH_PLAYER, "call")
DRAW = PhaseRule(Phase.DRAW, ("draw",), Who.EACH_PLAYER, "draw")
BETTING = PhaseRule(Phase.BETTING, ("bet",), Who.TABLE, "betting")
TRADE = PhaseRule(Phase.TRADE, ("draw",), Who.EACH_PLAYER, "trade")
DICE = PhaseRule(Phase.DICE, ("roll",), Who.DEALER, "dice")
PLAY = PhaseRule(Phase.PLAY, ("draw", "roll"), Who.EACH_PLAYER, "play")
#: Every phase by its name (the rules page names the calling phase by it).
PHASES: dict[Phase, PhaseRule] = {
    pr.phase: pr for pr in (BET, ROLL, CALL, DRAW, BETTING, TRADE, DICE, PLAY)
}


class Trigger(StrEnum):
    """When a roll of the scrambler causes a shift (names used in settings, API and CLI)."""

    TWO_D6_DOUBLES = "2d6-doubles"  # two d6, any double: 1/6
    TWO_D6_ONE_FACE = "2d6-spike"  # two d6, only the double of one chosen face: 1/36
    D6_HIGH = "d6-high"  # one d6, 4-6: 1/2
    D6_LOW = "d6-low"  # one d6, 1-3: 1/2
    D10 = "d10"  # one die, one chosen face: 1/N
    D12 = "d12"
    D20 = "d20"
    TIMER = "timer"  # the random timer ("randomiser"): fires at random intervals


#: The face that shifts when a rule set chooses none: the one-face double's symbol is face 1 (seed 000),
#: and "a single number such as 1 or 20" for a d10/d12/d20 — we take the highest.
DEFAULT_FACE: dict[Trigger, int] = {
    Trigger.TWO_D6_ONE_FACE: 1,
    Trigger.D10: 10,
    Trigger.D12: 12,
    Trigger.D20: 20,
}


class ShiftKind(StrEnum):
    """What a shift does to every player's unprotected cards."""

    CORE = "core"
    RIM = "rim"
    WILD = "wild"
    BY_SYMBOL = "by-symbol"  # the doubled die face picks: 1-2 core, 3-4 rim, 5-6 wild
    # Every player still in discards all their cards and is dealt the same number again.
    SABACC = "sabacc"


def shift_announcement(kind: ShiftKind) -> str:
    """What the table is told when the scrambler fires: the one wording of it (the shift
    event carries it; the phones show it). A game words its own kinds of shift
    (`Game.shift_announcements`)::

        >>> shift_announcement(ShiftKind.CORE)
        'A core shift: the scrambler has fired.'
    """
    for game in registry.games().values():  # a shift of a game's own says it in its words
        own = game.shift_announcements.get(kind.value)
        if own:
            return str(own)
    return f"A {kind.value} shift: the scrambler has fired."


#: A whole-number penalty is a fixed amount; this value means "the hand pot".
HAND_POT = "hand_pot"


@dataclass(frozen=True)
class Chip:
    """One denomination of a table's physical chips."""

    name: str
    value: int
    per_buy_in: int  # how many of this chip make up one buy-in


class GameOptions(Protocol):
    """A game's own options, as its package declares them: a frozen dataclass whose fields are
    the options (and the values that follow from them) only that game has. The rule set holds
    one (`RuleSet.game_options`); `apply_options` sets a parsed option there when its name (or
    `HandRanking.renames`' attribute) is one of its fields. `to_json` gives the keys the
    rule set's JSON carries for them (the views' `rules`, the rules page)."""

    def to_json(self) -> dict[str, Any]:
        """The options as the rule set's JSON carries them (keys beside the rule set's own)."""
        ...


@dataclass(frozen=True)
class RuleSet:
    """The options of a game dealt in hands that every such game has, as one value, with the
    game's own options in `game_options` (a frozen value its package declares). Read by the
    engine, never branched on by name."""

    name: str
    title: str
    summary: str  # one line for the host's preset picker
    source: str
    # Money
    ante: int
    ante_rule: AnteRule
    fold_fee: int
    bet_limit: int | None  # the most one bet or raise may add; None: no limit
    buy_in: int  # 0: free (players bring what they like)
    chip_set: tuple[Chip, ...]
    # Order of play
    order_of_play: OrderOfPlay
    turn_phases: tuple[PhaseRule, ...]  # the phases of one turn or round, in order
    # Scrambler and shifts
    scrambler_trigger: Trigger
    shift_kind: ShiftKind
    house_dealer: bool = False
    trigger_face: int | None = None  # d10/d12/d20: the face that shifts; two d6: the doubled face
    timer_mean_s: float = 120.0
    timer_min_s: float = 20.0
    timer_max_s: float = 600.0
    overrides: tuple[str, ...] = field(default=(), compare=False)  # options changed from preset
    # The live table (appended for the hand engine; read, never branched on by preset name).
    deal_size: int = 2  # cards each player is dealt at the start of a hand (every seed: two)
    # Phases at whose end the dealer rolls the scrambler (seed 002: the betting round).
    dealer_rolls_after: tuple[Phase, ...] = ()
    # Seed 001 ("The starting player rotates clockwise each round"): round n starts
    # n-1 seats further left; otherwise every round starts at the dealer's left.
    starter_rotates_each_round: bool = False
    # What makes the game a game, as values (PokerKit's State holds its deck the same way).
    deck: Deck = field(kw_only=True)  # the cards, the picker's groups, what may be set aside
    hands: HandRanking = field(kw_only=True)  # the kinds and their words, the comparison, the tie rule
    ending: Ending = field(kw_only=True)  # how a hand ends: by a call, or after a fixed number of rounds
    actions: tuple[TurnAction, ...] = field(kw_only=True)  # what a player may do in a turn to draw
    dice: Dice = field(kw_only=True)  # how a roll is shown; what makes a shift, in words
    # Whether the live table plays this rule set's game in full (else only the payout
    # calculator settles it).
    live_table: bool = True
    # Every word the screens say that is the game's own (its pot, its fold, its tie).
    words: GameWords = field(kw_only=True)
    # The dealer's part passes left after each round, not each hand (a game's option says so).
    dealer_rotates_each_round: bool = False
    # The game's own options: a frozen dataclass its package declares (a `GameOptions`), read
    # by its engine, judge, rules page and calculator as `rules.game_options.<option>` (typed
    # there as the game's own class).
    game_options: Any = field(kw_only=True)

    def option(self, name: str, default: Any = None) -> Any:
        """The option a value names, read by that name (a turn action's `fee`, a deck's
        set-aside `option`): the rule set's own field, else the game's (`game_options`);
        `default` where neither has it. Typed code reads `rules.game_options.<option>`.

        >>> from companion.games import registry
        >>> rs = next(iter(registry.presets().values()))
        >>> own = next(iter(rs.game_options.to_json()))  # the first of its game's options
        >>> rs.option("ante") == rs.ante, rs.option(own) == getattr(rs.game_options, own)
        (True, True)
        >>> rs.option("no_such", False)
        False
        """
        if name in self.__dataclass_fields__:
            return getattr(self, name)
        return getattr(self.game_options, name, default)

    def phase_name(self, phase: Phase) -> str:
        """A phase named as this order of play names it, from its `PhaseRule` words: "draw
        step" (of a turn), "trade phase", "betting round". The rules page and the turn line
        both say it this way."""
        unit = {OrderOfPlay.TURNS: "step", OrderOfPlay.PHASES: "phase"}.get(self.order_of_play, "round")
        rule = next((pr for pr in self.turn_phases if pr.phase == phase), None) or PHASES[phase]
        return f"{rule.words} {unit}"

    @property
    def pot_words(self) -> str:
        """What the pot a hand is played for is called ("hand pot"): `words.pot`."""
        return self.words.pot

    @property
    def fold_words(self) -> str:
        """What dropping out of a hand is called ("fold"): `words.fold`."""
        return self.words.fold

    def to_json(self) -> dict[str, Any]:
        """The rule set as plain JSON values (for the API, the rules page and the ledger)."""
        # The game's values are named, not spelt out (a deck is served by GET /api/v1/cards).
        unnamed: dict[str, Any] = {n: None for n in GAME_VALUES}  # asdict copies no game value
        out = dataclasses.asdict(dataclasses.replace(self, **unnamed, game_options=None))
        out.update({n: getattr(self, n).name for n in GAME_VALUES})
        del out["game_options"]  # the game's own options are keys of the rules, as every other
        out.update(self.game_options.to_json())
        out["kind_words"] = dict(self.hands.kinds)  # the pages say a hand's kind in these words
        out["kind_marks"] = dict(self.hands.marks)  # ... and mark a special or a bust hand so
        out["tie"] = self.hands.tie  # the pages name the tie's exchange (the game's name for it)
        out["pot_words"], out["fold_words"] = self.pot_words, self.fold_words  # = words.pot, words.fold
        out["overrides"] = list(self.overrides)
        return out


#: The fields of a rule set that are values of their own, named in its JSON by their `name`.
GAME_VALUES = ("deck", "hands")


# -- options: each a parser (a value as sent -> the rule set's value; ValueError in words) ------


def bool_option(v: Any) -> bool:
    """An on/off option."""
    if not isinstance(v, bool):
        raise ValueError("must be true or false")
    return v


def whole_option(minimum: int, allow_none: bool = False) -> Callable[[Any], int | None]:
    """A whole-number option of at least `minimum` (None allowed: "no limit")."""
    def parse(v: Any) -> int | None:
        if v is None and allow_none:
            return None
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError("must be a whole number" + (" or null" if allow_none else ""))
        if v < minimum:
            raise ValueError(f"must be at least {minimum}")
        return v

    return parse


def enum_option(kind: type[StrEnum]) -> Callable[[Any], Any]:
    """An option whose value is one of an enum's values."""
    def parse(v: Any) -> Any:
        try:
            return kind(v)
        except ValueError:
            raise ValueError("must be one of " + ", ".join(repr(k.value) for k in kind)) from None

    return parse


def choice_option(*allowed: str) -> Callable[[Any], str]:
    """An option whose value is one of a few words."""
    def parse(v: Any) -> str:
        if v not in allowed:
            raise ValueError("must be one of " + ", ".join(repr(a) for a in allowed))
        return v

    return parse


def penalty_option(v: Any) -> int | str:
    """A penalty: "hand_pot" or a whole number of credits."""
    if v == HAND_POT:
        return HAND_POT
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise ValueError('must be "hand_pot" or a whole number of credits')
    return v


def seconds_option(v: Any) -> float:
    """A number of seconds (the random timer)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 1 <= v <= 86400:
        raise ValueError("must be a number of seconds between 1 and 86400")
    return float(v)


#: The options every game played with a `RuleSet` takes (the project's own names, documented in
#: the OpenAPI document and the rules page); each game adds its own (`HandRanking.options`).
COMMON_OPTIONS: dict[str, Callable[[Any], Any]] = {
    "ante": whole_option(0),
    "ante_rule": enum_option(AnteRule),
    "fold_fee": whole_option(0),
    "bet_limit": whole_option(1, allow_none=True),
    "scrambler_trigger": enum_option(Trigger),
    "trigger_face": whole_option(1, allow_none=True),
    "shift_kind": enum_option(ShiftKind),
    "house_dealer": bool_option,
    "buy_in": whole_option(0),
    "timer_mean_s": seconds_option,
    "timer_min_s": seconds_option,
    "timer_max_s": seconds_option,
}


def worth(chips: tuple[Chip, ...]) -> int:
    """What one buy-in's chips add up to."""
    return sum(c.value * c.per_buy_in for c in chips)


#: The chip sets a table is given (RULES.md's ruling on chips): 100 credits a buy-in, with
#: small chips for small antes; 500 (a lay game of 500); 1000 (a tournament).
CHIPS_100 = (Chip("aurodium", 25, 2), Chip("argentium", 5, 6), Chip("bronzium", 1, 20))
CHIPS_500 = (Chip("aurodium", 100, 2), Chip("argentium", 50, 4), Chip("bronzium", 5, 20))
CHIPS_1000 = (Chip("aurodium", 100, 4), Chip("argentium", 50, 8), Chip("bronzium", 10, 20))
#: The chip set a buy-in other than the preset's plays with, by the buy-in it makes up.
CHIPS_FOR_BUY_IN = {worth(c): c for c in (CHIPS_500, CHIPS_1000)}


def apply_options(base: RuleSet, spec: Mapping[str, Any], field: str, options: Mapping[str, Callable[[Any], Any]],
                  chips_for_buy_in: Mapping[int, tuple[Chip, ...]] = CHIPS_FOR_BUY_IN,
                  adjust: Callable[[dict[str, Any]], None] | None = None) -> RuleSet:
    """The rule set `spec`'s options make of the preset `base` (what a game's `rules_from` does).

    Each option is parsed by `options` (an unknown one, or a bad value, raises `InvalidRules`
    with its path under `field`), stored under its attribute (`HandRanking.renames`), and the
    values that follow from others are set: what `adjust` (the game's own consequences) sets in
    the changes, and a chip set that makes up a new buy-in (`chips_for_buy_in`). A change named
    as a field of the game's own options (`RuleSet.game_options`) is set there; any other is
    the rule set's. The overrides are named and the summary says them.
    """
    renames = dict(base.hands.renames)
    changes: dict[str, Any] = {}
    for name, value in spec.items():
        if name == "preset":
            continue
        parse = options.get(name)
        if parse is None:
            raise InvalidRules(f"unknown option {name!r}", f"{field}.{name}")
        try:
            changes[renames.get(name) or name] = parse(value)
        except ValueError as exc:
            raise InvalidRules(f"{name} {exc}", f"{field}.{name}") from None
    if adjust is not None:
        adjust(changes)
    # A buy-in another chip set makes up plays with that set (a buy-in of 1000 is a tournament:
    # its chips add up to 1000, not the lay set's 500).
    if "buy_in" in changes and worth(base.chip_set) != changes["buy_in"]:
        changes["chip_set"] = chips_for_buy_in.get(changes["buy_in"], base.chip_set)
    own_names = {f.name for f in dataclasses.fields(base.game_options)} \
        if dataclasses.is_dataclass(base.game_options) else set()
    own = {name: changes.pop(name) for name in list(changes) if name in own_names}
    if own:
        changes["game_options"] = dataclasses.replace(base.game_options, **own)
    overrides = tuple(sorted(spec.keys() - {"preset"}))
    rs = dataclasses.replace(base, **changes, overrides=overrides)
    if overrides:
        # The preset's one line names its values ("3-credit bet limit"): a changed table's says
        # what it plays instead.
        rs = dataclasses.replace(rs, summary=f"{base.title}, changed at this table: "
                                 + "; ".join(f"{k.replace('_', ' ')} {_value_words(spec[k])}"
                                             for k in overrides) + ".")
    _check_consistent(rs, field)
    return rs


def ruleset_from(spec: Any, field: str = "rules") -> Any:
    """Build the rules from a preset name or `{"preset": name, **options}`: asks the registry
    (`companion.games.registry.rules_from`), which finds the preset's game.

    Raises `InvalidRules` (with the path of the bad field) for an unknown preset or option,
    or an option value of the wrong type or range.
    """
    return registry.rules_from(spec, field)


def _value_words(v: Any) -> str:
    """An option's value in a summary line."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "on" if v else "off"
    return str(v).replace("_", " ")


def _check_consistent(rs: RuleSet, field: str) -> None:
    """Refuse combinations that cannot be played."""
    faces = {Trigger.D10: 10, Trigger.D12: 12, Trigger.D20: 20, Trigger.TWO_D6_ONE_FACE: 6}
    sides = faces.get(rs.scrambler_trigger)
    if rs.trigger_face is not None and (sides is None or rs.trigger_face > sides):
        raise InvalidRules(
            f"trigger_face {rs.trigger_face} does not fit the {rs.scrambler_trigger} trigger",
            f"{field}.trigger_face",
        )
    if not rs.timer_min_s <= rs.timer_mean_s <= rs.timer_max_s:
        raise InvalidRules("the timer needs min <= mean <= max", f"{field}.timer_mean_s")


def __getattr__(name: str) -> Any:
    """`RULE_SETS` and `PRESETS` (every preset by name), `DECKS` (every deck by name) and
    `OPTIONS` (every option name -> its parser), asked of the registry when read, so that a
    plug-in game's appear with no edit here."""
    if name in ("RULE_SETS", "PRESETS"):
        return dict(registry.presets())
    if name == "DECKS":
        return dict(registry.decks())
    if name == "OPTIONS":
        return dict(registry.options())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
