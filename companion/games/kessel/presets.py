"""Kessel Sabacc's presets and options (RULES-KESSEL.md "Presets and table options")::

    >>> r = rules_from({"preset": "kessel", "chips": 8, "tariff_chips": "out"})
    >>> (r.name, r.chips, r.buy_in, r.tokens, r.tariff_chips, r.overrides, r.plays_tokens)
    ('kessel', 8, 100, 'select', 'out', ('chips', 'tariff_chips'), True)
    >>> PRESETS["kessel-plain"].plays_tokens, rules_from({"preset": "kessel", "tokens": "none"}).plays_tokens
    (False, False)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable, Mapping

from companion.games.api import DiceSpec, Die, InvalidRules, OptionField
from companion.games.kessel.cards import KESSEL_DECK
from companion.games.kessel.chips import TARIFF_INVESTED, TARIFF_OUT
from companion.rules import option_fields as fields
from companion.rules.decks import Deck
from companion.rules.game import Dice, GameWords
from companion.rules.rulesets import Chip, choice_option

#: The most credits a buy-in may be (as the payout calculator's credit fields).
MAX_BUY_IN = 1_000_000_000
#: How many players a game seats, and how many turns a round has (fixed in every preset).
MIN_PLAYERS, MAX_PLAYERS, TURNS = 2, 8, 3
#: The chips each player may start with (K5).
MIN_CHIPS, MAX_CHIPS = 4, 8
#: The ways to deal the shift tokens (K28).
TOKEN_DEALS = ("select", "random", "none")

#: Kessel's words: chips are invested and the last player takes the credits pot; nobody folds,
#: a tie has no tie-break (every tied best hand wins), no bomb-out; a turn's step is a draw.
#: The two six-sided dice (K4): an Impostor's two choices, and Prime Sabacc's.
KESSEL_DICE = Dice("the dice")
#: The same two dice as the scrambler throws them (`Game.dice`): two values to choose from.
KESSEL_ROLL = DiceSpec("kessel-dice", "the dice", tuple(Die(n, ("1", "2", "3", "4", "5", "6")) for n in ("first die", "second die")),
                       "two values: the player takes one for an Impostor (K17) or the Prime Sabacc token (K35)")

KESSEL_WORDS = GameWords(pot="credits pot", fold="", folds="", folded="", fold_fee="", tie="exact tie",
                         tie_card="", tie_started="", draw_step="draw", over_limit="")


@dataclass(frozen=True)
class KesselRules:
    """A Kessel table's rules: the preset's name and words and its four options (`chips` each,
    the `buy_in` into the credits pot, how `tokens` are dealt, where `tariff_chips` go)."""

    name: str
    title: str
    summary: str
    chips: int = 6
    buy_in: int = 100
    tokens: str = "select"
    tariff_chips: str = TARIFF_INVESTED
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    turns: int = TURNS
    source: str = "RULES-KESSEL.md (gamesofthegalaxy.com, Wookieepedia, Star Wars Outlaws)"
    # What the runtime's sections read of any game's rules (as any game's rules value).
    overrides: tuple[str, ...] = ()
    house_dealer: bool = False
    chip_set: tuple[Chip, ...] = field(default=(Chip("chip", 1, 6),))
    fold_fee: int = 0
    live_table: bool = True
    words: GameWords = KESSEL_WORDS
    deck: Deck = field(default=KESSEL_DECK, compare=False)  # the pages' card picker reads it by name
    dice: Dice = KESSEL_DICE

    @property
    def plays_tokens(self) -> bool:
        """Whether the table plays with shift tokens (`tokens` is not "none")."""
        return self.tokens != "none"

    def to_json(self) -> dict[str, Any]:
        """The rules as a view carries them."""
        plain = replace(self, deck=None)  # type: ignore[arg-type]  # the deck is named, not spelt out
        return {k: v for k, v in asdict(plain).items() if k not in ("chip_set", "words", "deck")} | \
            {"words": asdict(self.words), "plays_tokens": self.plays_tokens, "deck": self.deck.name}


_KESSEL = KesselRules(
    "kessel", "Kessel Sabacc",
    "The sabacc of Star Wars Outlaws: two cards, one Sand and one Blood, closest to a pair wins; "
    "6 chips each that only ever leave the table; 3 shift tokens each, chosen; the last player "
    "with chips takes the credits pot.")

#: Kessel's presets, in the start page's order.
PRESETS: dict[str, KesselRules] = {
    "kessel": _KESSEL,
    "kessel-plain": replace(
        _KESSEL, name="kessel-plain", title="Kessel Sabacc without tokens",
        summary="Kessel Sabacc without shift tokens, as in Outlaws' Wild Card tournament: two cards, one "
        "Sand and one Blood; 6 chips each that only ever leave the table; the last player with chips "
        "takes the credits pot.", tokens="none"),
}


def _whole(low: int, high: int) -> Callable[[Any], int]:
    def parse(v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise ValueError(f"must be a whole number from {low} to {high}")
        return v
    return parse


#: The options a Kessel table may change (each parsed; the message completes "<name> ...").
OPTIONS: dict[str, Callable[[Any], Any]] = {
    "chips": _whole(MIN_CHIPS, MAX_CHIPS),
    "buy_in": _whole(0, MAX_BUY_IN),
    "tokens": choice_option(*TOKEN_DEALS),
    "tariff_chips": choice_option(TARIFF_INVESTED, TARIFF_OUT),
}


def rules_from(spec: Any, field: str = "rules") -> KesselRules:
    """Kessel's rules from a preset name or ``{"preset": name, **options}`` (the registry has
    refused unknown presets and options first; a direct call is checked here too). Raises
    `InvalidRules` in words."""
    spec = {"preset": spec} if isinstance(spec, str) else spec
    if not isinstance(spec, Mapping) or spec.get("preset") not in PRESETS:
        raise InvalidRules("unknown preset; one of " + ", ".join(PRESETS), f"{field}.preset")
    changes: dict[str, Any] = {}
    for name, value in spec.items():
        if name == "preset":
            continue
        parse = OPTIONS.get(name)
        if parse is None:
            raise InvalidRules(f"unknown option {name!r}", f"{field}.{name}")
        try:
            changes[name] = parse(value)
        except ValueError as exc:
            raise InvalidRules(f"{name} {exc}", f"{field}.{name}") from None
    base = PRESETS[spec["preset"]]
    # Only what differs from the preset is an override (sending a preset's own values changes nothing).
    changed = tuple(sorted(k for k, v in changes.items() if getattr(base, k) != v))
    rules = replace(base, **changes, overrides=changed)
    return replace(rules, chip_set=(Chip("chip", 1, rules.chips),))


#: Kessel's options as the host's form fields, in the order the pages show them.
FIELDS: tuple[OptionField, ...] = (
    OptionField("chips", "Chips each at the start", "money", minimum=MIN_CHIPS, maximum=MAX_CHIPS),
    OptionField("buy_in", "Buy-in into the credits pot, credits", "money",
                hint="The last player with chips takes the whole credits pot."),
    OptionField("tokens", "Shift tokens", "variants", kind=fields.CHOICE, choices=(
        ("select", "3 each, chosen by each player"), ("random", "3 each, dealt at random"),
        ("none", "none (Kessel without tokens)"))),
    OptionField("tariff_chips", "Chips paid to tariffs and audits", "variants", kind=fields.CHOICE, choices=(
        (TARIFF_INVESTED, "go into the payer's invested pile (back if they win the round)"),
        (TARIFF_OUT, "leave the game at once")), shown=lambda r: getattr(r, "plays_tokens", True)),
)
