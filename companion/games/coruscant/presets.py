"""Coruscant Shift's presets and options (RULES-CORUSCANT.md "Presets and table options").

A rules value is a frozen `CoruscantRules`; options change a preset (`rules_from`)::

    >>> r = rules_from({"preset": "coruscant", "ante": 3, "bet_limit": 20})
    >>> r.ante, r.ante_rise, r.end, r.bet_limit, r.overrides
    (3, 'round', 'last', 20, ('ante', 'bet_limit'))
    >>> s = PRESETS["coruscant-starcruiser"]
    >>> s.stock, s.ante, s.ante_rise, s.end
    (100, 5, 'none', 'deal-once')
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Mapping

from companion.games.api import InvalidRules, OptionField
from companion.games.coruscant.cards import CORUSCANT_DECK, SELECTION_MAX, TARGET_DICE, TargetDice
from companion.rules.decks import Deck
from companion.rules.game import DROPPED_OUT, GameWords, HandRanking
from companion.rules.rulesets import Chip, choice_option, whole_option

#: A game has 2 to 8 players (the rules file's presets).
MIN_PLAYERS, MAX_PLAYERS = 2, 8
#: The ways the ante moves (C8) and the ways the game ends (C25, C26).
ANTE_RISES = ("round", "none")
ENDS = ("last", "deal-once")

#: Coruscant Shift's own words (the pages say these): a tie the suit cannot break is a tie
#: draw; no bomb-out; the step in which cards are drawn is the shift.
CORUSCANT_WORDS = GameWords(
    pot="pot", tie="tie draw", tie_card="tie-draw card",
    tie_started="each tied player draws the top card of the draw pile face up",
    draw_step="shift", over_limit="",
)

#: The option names Coruscant Shift reads (the rules value's `hands.options`, as other games').
OWN_OPTIONS = frozenset({"stock", "ante", "ante_rise", "min_bet", "bet_limit", "end"})

#: What the runtime's pages read of a game's hands (`rules.hands`): the kinds' words, and a
#: tie settled by a draw whose cards alone compare (C19). A selection is judged only against
#: the round's target (`judge.judge`); `evaluate` gives its total for the pages.
CORUSCANT_HANDS = HandRanking(
    name="coruscant",
    kinds=(("selection", "selection"), *DROPPED_OUT),
    evaluator="companion.games.coruscant.judge:evaluate",
    sabacc_pot_kinds=frozenset(),
    tie="blind_draw",  # the pages' name for a tie of drawn cards compared alone
    options=OWN_OPTIONS,
    draw_key="companion.games.coruscant.judge:draw_key",
)

#: Chips for a stock of 100 (the Starcruiser's): 2 × 25, 8 × 5, 10 × 1.
CHIPS = (Chip("aurodium", 25, 2), Chip("argentium", 5, 8), Chip("bronzium", 1, 10))


@dataclass(frozen=True)
class CoruscantRules:
    """A Coruscant Shift table's rules: the preset's name and words, and its options.

    `stock` is each player's buy-in (C5), `ante` the first round's ante (C7), `ante_rise`
    "round" (C8's rising ante) or "none", `min_bet` and `bet_limit` (None: no cap) the betting's
    limits (C9, C14), `end` "last" (C25) or "deal-once" (C26).
    """

    name: str
    title: str
    summary: str
    stock: int = 100
    ante: int = 2
    ante_rise: str = "round"
    min_bet: int = 1
    bet_limit: int | None = None
    end: str = "last"
    source: str = "RULES-CORUSCANT.md (the Sabacc Cantina App, the Galactic Starcruiser record)"
    # What the runtime's sections read of any game's rules (docs/games.md).
    overrides: tuple[str, ...] = field(default=(), compare=False)  # options sent, as RuleSet's
    house_dealer: bool = False
    chip_set: tuple[Chip, ...] = CHIPS
    fold_fee: int = 0
    live_table: bool = True
    words: GameWords = CORUSCANT_WORDS
    hands: HandRanking = field(default=CORUSCANT_HANDS, repr=False)
    dice: TargetDice = TARGET_DICE
    deck: Deck = field(default=CORUSCANT_DECK, repr=False)
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    selection_max: int = SELECTION_MAX

    @property
    def buy_in(self) -> int:
        """The buy-in the table asks of each player: the stock (C5)."""
        return self.stock

    def to_json(self) -> dict[str, Any]:
        """The rules as a view and the API carry them."""
        skip = ("chip_set", "words", "deck", "hands", "dice")
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in skip} | {
            "words": asdict(self.words), "deck": self.deck.name, "buy_in": self.buy_in,
            "hands": self.hands.to_json(), "dice": {"name": self.dice.name},
            "chip_set": [asdict(c) for c in self.chip_set],
            "overrides": list(self.overrides)}


#: The two presets (RULES-CORUSCANT.md's table), in the start page's order.
PRESETS: dict[str, CoruscantRules] = {
    "coruscant": CoruscantRules(
        "coruscant", "Coruscant Shift",
        "Galaxy's Edge's dice sabacc: a gold die sets the target number, a silver die the suit; "
        "select, bet, shift, bet, improve, reveal. Stock 100, ante 2 rising every round; play "
        "until one player holds every credit."),
    "coruscant-starcruiser": CoruscantRules(
        "coruscant-starcruiser", "Coruscant Shift (Galactic Starcruiser)",
        "As aboard the Halcyon: stock 100, ante 5 fixed; the game ends when the deal would pass "
        "to someone who has dealt, and the most credits wins.",
        ante=5, ante_rise="none", end="deal-once"),
}

#: The options a table may set (the rules file's list) -> their parsers.
OPTIONS: dict[str, Callable[[Any], Any]] = {
    "stock": whole_option(1),
    "ante": whole_option(1),
    "ante_rise": choice_option(*ANTE_RISES),
    "min_bet": whole_option(1),
    "bet_limit": whole_option(1, allow_none=True),
    "end": choice_option(*ENDS),
}


def rules_from(spec: Any, field: str = "rules") -> CoruscantRules:
    """The rules a preset name or ``{"preset": name, **options}`` gives (the registry has
    refused unknown presets, unknown options and values the parsers refuse). Raises
    `InvalidRules` for a combination that cannot be played."""
    spec = {"preset": spec} if isinstance(spec, str) else spec
    if not isinstance(spec, Mapping) or spec.get("preset") not in PRESETS:
        raise InvalidRules("unknown preset; one of " + ", ".join(PRESETS), f"{field}.preset")
    changes: dict[str, Any] = {}
    for name, value in spec.items():
        if name == "preset":
            continue
        if name not in OPTIONS:
            raise InvalidRules(f"{name} is not an option of Coruscant Shift", f"{field}.{name}")
        try:
            changes[name] = OPTIONS[name](value)
        except ValueError as exc:
            raise InvalidRules(f"{name} {exc}", f"{field}.{name}") from None
    rules = dataclasses.replace(PRESETS[spec["preset"]], **changes, overrides=tuple(sorted(changes)))
    if rules.bet_limit is not None and rules.bet_limit < rules.min_bet:
        raise InvalidRules("the bet limit must be at least the minimum bet", f"{field}.bet_limit")
    if rules.ante > rules.stock:
        raise InvalidRules("the ante must not be more than the stock", f"{field}.ante")
    return rules


#: The options as the host's form fields, in the order the pages show them.
FIELDS: tuple[OptionField, ...] = (
    OptionField("stock", "Starting stock, credits", "money", minimum=1),
    OptionField("ante", "Ante of the first round, credits", "money", minimum=1),
    OptionField("ante_rise", "The ante", "money", kind="choice", choices=(
        ("round", "rises before every round, by 5, 3, 2 or 1 as 2, 3, 4 or more players are left"),
        ("none", "stays the same"))),
    OptionField("min_bet", "Minimum bet and raise, credits", "money", minimum=1),
    OptionField("bet_limit", "Bet and raise limit, credits", "money", minimum=1, empty="Empty: no limit."),
    OptionField("end", "The game ends", "play", kind="choice", choices=(
        ("last", "when one player holds every credit"),
        ("deal-once", "when the deal would pass to someone who has dealt; the most credits wins"))),
)
assert set(OPTIONS) == OWN_OPTIONS, "the options are the ones the hands value names"
