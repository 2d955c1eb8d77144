"""Corellian Spike (RULES-SPIKE.md): its deck and its hand ranking.

The Galaxy's Edge deck: +1..+10 and -1..-10, three copies of each value (one in each stave:
circle, triangle, square; the staves never matter), and two sylops worth 0. 62 cards::

    >>> SPIKE_DECK.size(), SPIKE_DECK.card("+7").name, SPIKE_DECK.card("-7").name
    (62, '+7', '−7')
    >>> SPIKE_DECK.card("Sylop").value, SPIKE_DECK.card("sylop").copies
    (0, 2)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable

from companion.rules.cards import Card
from companion.rules.decks import Deck, Group
from companion.rules.game import Dice, Ending, GameWords, HandRanking, TurnAction

#: The printed marks telling the three copies of a value apart (they never matter).
STAVES = ("circle", "triangle", "square")
#: The card codes of the zero cards.
SYLOP = "sylop"
#: The highest value on a card (7..10 are picture cards with no printed number).
TOP_VALUE = 10


def _signed(value: int) -> str:
    """A value as players read it on a Spike card: "+7", "−7" (a true minus sign)."""
    return f"+{value}" if value > 0 else f"\u2212{-value}"


def _spike_deck() -> Deck:
    cards: dict[str, Card] = {}
    for sign in (1, -1):
        for v in range(1, TOP_VALUE + 1):
            value = sign * v
            code = f"{value:+d}"
            cards[code] = Card(code, value, len(STAVES), _signed(value), _signed(value), short=_signed(value))
    cards[SYLOP] = Card(SYLOP, 0, 2, "Sylop", "Sylop", short="Sylop")
    groups = (
        Group("plus", "Positive", tuple(c for c, x in cards.items() if x.value > 0)),
        Group("minus", "Negative", tuple(c for c, x in cards.items() if x.value < 0)),
        Group("sylop", "Sylops", (SYLOP,)),
    )
    return Deck("spike", "the 62-card Corellian Spike deck", cards, groups, "value",
                hand_min=2, hand_max=5, staves=STAVES, preview=("+7", "-3", "+10", SYLOP),
                back=("SPIKE", "#1b1b1b", "#d4452b", "triangle"))


#: The 62-card Corellian Spike deck.
SPIKE_DECK = _spike_deck()


# -- the hand ranking (RULES-SPIKE.md "Hand ranking") ------------------------------------------


@dataclass(frozen=True)
class SpikeKind:
    """One named hand of Corellian Spike: its `kind` in the API, its words, its pattern."""

    kind: str
    words: str
    strength: int  # a larger strength beats a smaller one (the hierarchy)
    pattern: str  # the cards, in words (the rules page)
    better: str  # how two hands of the kind compare, in words
    sabacc: bool = True  # totals 0 (every kind but Nulrhek)


#: The hierarchy, best first (RULES-SPIKE.md's table); Prime Sabacc only where `prime_sabacc`.
KINDS: tuple[SpikeKind, ...] = (
    SpikeKind("pure_sabacc", "Pure Sabacc", 14, "sylop, sylop", "—"),
    SpikeKind("full_sabacc", "Full Sabacc", 13, "+10, +10, −10, −10, sylop", "—"),
    SpikeKind("fleet", "Fleet", 12, "two +X, two −X (X not 10) and a sylop", "lower X"),
    SpikeKind("prime_sabacc", "Prime Sabacc", 11, "sylop, +10, −10", "—"),
    SpikeKind("yee_haa", "Yee-Haa", 10, "a sylop and a pair: sylop, +X, −X", "lower X"),
    SpikeKind("rhylet", "Rhylet", 9, "three +X and two −Y, or three −X and two +Y", "lower X (the three)"),
    SpikeKind("squadron", "Squadron", 8, "four of one value: +X, +X, −X, −X", "lower X"),
    SpikeKind("gee_whiz", "Gee Whiz", 7, "+1, +2, +3, +4, −10, or −1, −2, −3, −4, +10", "the general chain"),
    SpikeKind("straight_khyron", "Straight Khyron", 6, "four in a row by absolute value, no sylop",
              "lower first value"),
    SpikeKind("banthas_wild", "Banthas Wild", 5, "three of one value, plus one or two other cards", "lower X"),
    SpikeKind("rule_of_two", "Rule of Two", 4, "two pairs, plus an optional fifth card",
              "lower of the two pairs, then the other pair"),
    SpikeKind("sabacc_pair", "Sabacc with a pair", 3, "exactly one pair, plus any other cards", "lower pair"),
    SpikeKind("sabacc", "Sabacc", 2, "any other hand totalling 0", "the general chain"),
    SpikeKind("nulrhek", "Nulrhek", 1, "any hand not totalling 0",
              "total closer to 0; then a positive total over a negative one", sabacc=False),
)
KIND_BY_NAME: dict[str, SpikeKind] = {k.kind: k for k in KINDS}


@dataclass(frozen=True)
class SpikeHand:
    """One judged Spike hand: its kind, total and a rank (a larger rank wins; equal ranks are a
    true tie, settled by a blind draw)."""

    kind: str
    total: int
    rank: tuple[int, ...]
    cards: tuple[str, ...]

    @property
    def sabacc(self) -> bool:
        """True when the hand totals 0 (only such a winning hand takes the sabacc pot)."""
        return self.total == 0


def _chain(values: list[int]) -> tuple[int, int, int]:
    """The general chain: more cards; then the higher total of the positive cards; then the
    higher single positive card."""
    positive = [v for v in values if v > 0]
    return (len(values), sum(positive), max(positive, default=0))


def _pattern(values: list[int], prime: bool) -> tuple[str, tuple[int, int]]:
    """The named hand of cards totalling 0, and its own comparison key (larger is better)."""
    n = len(values)
    sylops = values.count(0)
    plain = [v for v in values if v != 0]
    by_abs = Counter(abs(v) for v in plain)
    counts = sorted(by_abs.values(), reverse=True)
    if n == 2 and sylops == 2:
        return "pure_sabacc", (0, 0)
    if n == 5 and sylops == 1 and by_abs == Counter({TOP_VALUE: 4}):
        return "full_sabacc", (0, 0)
    if n == 5 and sylops == 1 and len(by_abs) == 1 and counts == [4]:
        (x,) = by_abs
        return "fleet", (-x, 0)
    if prime and n == 3 and sylops == 1 and by_abs == Counter({TOP_VALUE: 2}):
        return "prime_sabacc", (0, 0)
    if n == 3 and sylops == 1 and counts == [2]:
        (x,) = by_abs
        return "yee_haa", (-x, 0)
    if n == 5 and sylops == 0 and counts == [3, 2]:
        three = next(v for v in plain if by_abs[abs(v)] == 3)
        if all((v > 0) == (three > 0) for v in plain if abs(v) == abs(three)) and all(
            (v > 0) != (three > 0) for v in plain if abs(v) != abs(three)
        ):
            return "rhylet", (-abs(three), 0)
    if n == 4 and sylops == 0 and counts == [4]:
        (x,) = by_abs
        return "squadron", (-x, 0)
    if sorted(values) in ([-10, 1, 2, 3, 4], [-4, -3, -2, -1, 10]):
        return "gee_whiz", (0, 0)
    if n == 4 and sylops == 0 and counts == [1, 1, 1, 1]:
        low = min(by_abs)
        if sorted(by_abs) == list(range(low, low + 4)):
            return "straight_khyron", (-low, 0)
    if n in (4, 5) and counts and counts[0] >= 3:
        x = next(a for a, c in by_abs.items() if c >= 3)
        return "banthas_wild", (-x, 0)
    pairs = sorted(a for a, c in by_abs.items() if c == 2)
    if n in (4, 5) and len(pairs) == 2:
        return "rule_of_two", (-pairs[0], -pairs[1])
    if len(pairs) == 1 and (not counts or counts[0] == 2):
        return "sabacc_pair", (-pairs[0], 0)
    return "sabacc", (0, 0)


def judge(values: list[int], *, prime: bool) -> tuple[str, tuple[int, ...]]:
    """The kind and rank of a hand given as card values (a sylop is 0).

    >>> judge([0, 0], prime=True)[0], judge([0, 10, -10], prime=True)[0], judge([0, 10, -10], prime=False)[0]
    ('pure_sabacc', 'prime_sabacc', 'yee_haa')
    >>> judge([3, -1], prime=True)[0]
    'nulrhek'
    """
    total = sum(values)
    if total != 0:
        kind, key = "nulrhek", (-abs(total), int(total > 0))
    else:
        kind, key = _pattern(values, prime)
    return kind, (KIND_BY_NAME[kind].strength, *key, *_chain(values))


def evaluate(rules: Any, cards: Iterable[str], **_: Any) -> SpikeHand:
    """Judge a Spike hand under a rule set (`rules.game_options.prime_sabacc` says whether Prime Sabacc is
    a hand). Raises `UnknownCard` for a code that is no Spike card.

    >>> from companion.games.spike.presets import PRESETS
    >>> h = evaluate(PRESETS["spike"], ["+4", "-4", "sylop"])
    >>> h.kind, h.total
    ('yee_haa', 0)
    """
    codes = tuple(SPIKE_DECK.normalize(c) for c in cards)
    values = [SPIKE_DECK.cards[c].value for c in codes]
    kind, rank = judge(values, prime=bool(rules.option("prime_sabacc", False)))
    return SpikeHand(kind, sum(values), rank, codes)


def blind_draw_key(code: str) -> tuple[int, int]:
    """How a blind-draw card compares (larger wins): closest to 0, a sylop beats everything,
    a positive card beats its negative.

    >>> sorted(["-3", "+3", "sylop", "+1"], key=blind_draw_key, reverse=True)
    ['sylop', '+1', '+3', '-3']
    """
    v = SPIKE_DECK.card(code).value
    return (-abs(v), int(v > 0))


#: The option names only Corellian Spike reads (RULES-SPIKE.md "Presets").
OPTIONS = frozenset({"ante_game", "ante_sabacc", "fee_gain_discard", "fee_swap", "prime_sabacc",
                     "phase_order", "junk_penalty", "dealer_rotates"})

#: Corellian Spike's words (RULES-SPIKE.md): a player junks, a hand is played for the game
#: pot, a junk penalty (the option junk_penalty), a tie is a blind draw, no bomb-out.
SPIKE_WORDS = GameWords(
    pot="game pot", fold="junk", folds="junks", folded="junked", fold_fee="junk penalty",
    tie="blind draw", tie_card="blind-draw card",
    tie_started="each tied player draws one card from the draw pile", draw_step="turn", over_limit="",
)

#: How a Spike tie is settled (RULES-SPIKE.md "Ties"): each tied player draws a card and the
#: drawn cards alone compare. The pages and the API carry this name.
BLIND_DRAW = "blind_draw"

#: Corellian Spike's hand ranking as a value: a tie is a blind draw; the sabacc pot goes only
#: to a winning hand totalling 0; the sole survivor may show a hand to take it.
SPIKE_HANDS = HandRanking(
    name="spike",
    kinds=(*((k.kind, k.words) for k in KINDS), ("folded", SPIKE_WORDS.folded),
           ("conceded", f"won, everyone else {SPIKE_WORDS.folded}")),
    evaluator="companion.games.spike.hands:evaluate",
    sabacc_pot_kinds=frozenset(k.kind for k in KINDS if k.sabacc),
    tie=BLIND_DRAW,
    marks=(("pure_sabacc", "special"),),  # as the result tables have always marked it
    last_player_shows=True,
    options=OPTIONS,
    draw_key="companion.games.spike.hands:blind_draw_key",
    reveal="companion.games.spike.settle:PlayerReveal",
    renames=(("ante_game", "ante"), ("junk_penalty", "fold_fee")),
)

#: A Spike hand ends after three rounds (RULES-SPIKE.md "A game"): nobody calls.
THREE_ROUNDS = Ending(by_call=False, rounds=3)


#: The turn phase's actions (RULES-SPIKE.md "Turn phase"), as the engine and the pages read them.
SPIKE_ACTIONS: tuple[TurnAction, ...] = (
    TurnAction("stand", "Stand", "stands", primary=True),
    TurnAction("gain_keep", "Gain and keep", "gains a card and keeps it", cards=1, dealt=1, offer="gain a card"),
    TurnAction("gain_discard", "Gain and discard it", "gains a card and discards it", dealt=1, discards=1,
               offer="gain a card"),
    TurnAction("gain_keep_discard", "Gain, keep and discard another", "gains a card and discards another",
               dealt=1, discards=1, fee="fee_gain_discard", offer="gain a card"),
    TurnAction("swap", "Swap with the discard pile", "swaps with the discard pile", discards=1,
               fee="fee_swap", takes_discard=True),
    TurnAction("junk", "Junk", "junks", leaves=True),
)


#: The two spike dice: six symbols each, the spike on face 1 (the scrambler's trigger is any
#: double: matching symbols, 1 roll in 6). The printed rule book names no symbol; players use
#: the names of the gamesofthegalaxy.com page, faces 1 to 6 (RULES-SPIKE.md "The deck and the
#: dice"): every screen, the audit page and the log name a roll with these words.
SPIKE_DICE = Dice("the spike dice", ("Spike", "Flask", "Crown", "Compass", "Eye", "Sun"),
                  "matching symbols")
