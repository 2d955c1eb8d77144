"""Hand evaluation: what a hand is worth under a rule set, as RULES.md "Hands" and "Variants".

`evaluate(rules, cards)` judges one hand and returns a `Hand` whose `rank` is a tuple that
compares the way the rule set ranks hands (a larger rank wins; equal ranks tie)::

    >>> from companion.rules.rulesets import PRESETS
    >>> classic = PRESETS["classic"]
    >>> evaluate(classic, ["idiot", "st2", "co3"]).kind
    'idiots_array'
    >>> han, lando = evaluate(classic, ["co7", "sa11", "fl5"]), evaluate(classic, ["star", "balance"])
    >>> (han.total, han.kind), (lando.total, lando.kind)
    ((23, 'pure_sabacc'), (-28, 'bomb_out'))

Under `closest-positive` the larger magnitude wins and, at equal magnitude, the positive
total; under `closest-negative` (Holodex) the negative one::

    >>> plus_20, minus_20 = ["co10", "sa10"], ["evil-one", "endurance", "st3"]
    >>> evaluate(classic, ["star", "idiot", "queen"]).beats(evaluate(classic, plus_20))
    False
    >>> evaluate(classic, plus_20).beats(evaluate(classic, minus_20))
    True
    >>> holodex = PRESETS["holodex"]
    >>> evaluate(holodex, minus_20).beats(evaluate(holodex, plus_20))
    True

Rulings this module makes where RULES.md is silent (the rules page states them):

- A Fairy Empress ranks just above every ordinary hand of magnitude 22 or less. Where -23 is
  *not* Pure Sabacc and the ranking counts magnitude (`closest-positive`/`closest-negative`),
  an ordinary -23 (magnitude 23) beats the Fairy Empress; under `highest` -23 is the weakest
  hand of all and the Fairy Empress beats it.
- Idiot's Array is recognised in every variant (the Idiot is the one face card Corellia Run
  keeps, so the Array still exists there; in Force Sabacc it is still one Idiot, one suited 2
  and one suited 3, whatever the signs).
- Corellia Run: a face card other than the Idiot in a hand is refused (`InvalidHand`): those
  cards were set aside before the deal, so a hand holding one was entered wrongly.
- Force Sabacc: `total` is the signed sum the player sees (a Dark player's Pure Sabacc shows
  -23); the hand is ranked on `judged` (the total negated for Dark). The ranking and the
  `negative_pure` option of the preset do not apply: each side's Pure Sabacc is its own 23.
- Hold 'Em: the best hand from the player's own cards (all of them) plus any subset of the
  community cards. When every choice bombs out, the hand bombs out with the total of the
  player's own cards. Among equally ranked choices the higher total is reported (so the
  answer never depends on the order the cards were listed).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from typing import Iterable, Sequence

from companion.games.classic.cards import card
from companion.rules.game import InvalidHand
from companion.games.classic.options import Ranking
from companion.rules.rulesets import RuleSet

class Side(StrEnum):
    """Force Sabacc: the side a player declared at the start of the game."""

    LIGHT = "light"
    DARK = "dark"


#: The magnitude of Pure Sabacc; totals beyond it bomb out.
SABACC = 23


class Kind(StrEnum):
    """How a hand was judged (the `kind` of SETTLE-API.md)."""

    IDIOTS_ARRAY = "idiots_array"
    PURE_SABACC = "pure_sabacc"
    FAIRY_EMPRESS = "fairy_empress"
    ORDINARY = "ordinary"
    BOMB_OUT = "bomb_out"
    FOLDED = "folded"  # used by settlement for players who folded
    CONCEDED = "conceded"  # used by settlement for the last player standing

    def __repr__(self) -> str:
        return repr(self.value)


#: The hands that win the sabacc pot (RULES.md "Settling", step 4).
SPECIAL = frozenset({Kind.IDIOTS_ARRAY, Kind.PURE_SABACC})

# Categories, the first element of every rank: a larger rank wins.
_BOMB, _ORDINARY, _PURE, _ARRAY = 0, 1, 2, 3
#: The rank of every bombed-out hand (below every hand that can win).
BOMB_RANK = (_BOMB, 0, 0)


@dataclass(frozen=True)
class Hand:
    """One judged hand.

    `rank` orders hands under the rule set they were judged by (compare ranks only between
    hands of the same rule set). `total` is the sum the player sees; `judged` the value it is
    ranked on (differs only for a Dark player in Force Sabacc). `cards` are the cards that
    make the hand (in Hold 'Em: the player's own cards plus the community cards chosen).
    """

    kind: Kind
    total: int
    judged: int
    rank: tuple[int, int, int]
    cards: tuple[str, ...]

    @property
    def bombed_out(self) -> bool:
        """True when the hand bombed out (it can win nothing and its owner pays a penalty)."""
        return self.kind is Kind.BOMB_OUT

    @property
    def special(self) -> bool:
        """True for an Idiot's Array or a Pure Sabacc: the hands that can win the sabacc pot."""
        return self.kind in SPECIAL

    def beats(self, other: Hand) -> bool:
        """True if this hand wins against `other` (judged under the same rule set)."""
        return self.rank > other.rank


def card_value(rules: RuleSet, code: str, side: Side | None = None) -> int:
    """The value a card counts for under the rule set (and, in Force Sabacc, the player's side).

    >>> from companion.rules.rulesets import PRESETS, ruleset_from
    >>> card_value(PRESETS["weg"], "fl7"), card_value(PRESETS["weg"], "star")
    (7, -17)
    >>> force = ruleset_from({"preset": "pagat", "force_sabacc": True})
    >>> card_value(force, "fl7", Side.LIGHT), card_value(force, "star", Side.DARK)
    (-7, 17)
    >>> card_value(ruleset_from({"preset": "pagat", "corellia_run": True}), "sa4")
    -4
    """
    c = card(code)
    if rules.game_options.force_sabacc:
        if side is None:
            raise InvalidHand("Force Sabacc needs the player's side (light or dark)")
        side = Side(side)  # "light" as a plain string is fine too
        if c.is_face:
            # Face cards pull towards the Dark side: negative for Light, positive for Dark.
            return -abs(c.value) if side is Side.LIGHT else abs(c.value)
        return c.value if c.suit is not None and c.suit.prefix in ("sa", "co") else -c.value
    if rules.game_options.corellia_run:
        if c.is_face:
            if c.value != 0:
                raise InvalidHand(f"{c.name} is set aside in Corellia Run", c.code)
            return 0
        return -c.value if c.suit is not None and c.suit.prefix in ("sa", "st") else c.value
    return c.value


def is_idiots_array(codes: Sequence[str]) -> bool:
    """Exactly three cards: one Idiot, one suited 2 and one suited 3."""
    if len(codes) != 3:
        return False
    cards = [card(c) for c in codes]
    idiots = sum(1 for c in cards if c.code == "idiot")
    twos = sum(1 for c in cards if not c.is_face and c.value == 2)
    threes = sum(1 for c in cards if not c.is_face and c.value == 3)
    return idiots == 1 and twos == 1 and threes == 1


def is_fairy_empress(codes: Sequence[str]) -> bool:
    """Exactly two cards, both Queens of Air and Darkness."""
    return len(codes) == 2 and all(card(c).code == "queen" for c in codes)


def _judge_total(rules: RuleSet, total: int, side: Side | None) -> tuple[Kind, int, tuple[int, int, int]]:
    """Kind, judged total and rank of a hand that is neither an Array nor a Fairy Empress."""
    judged = -total if (rules.game_options.force_sabacc and side is Side.DARK) else total
    if rules.game_options.corellia_run:
        # Target 0: exactly 0 is Sabacc; closer to 0 wins; + beats - at equal distance.
        if judged == 0:
            return Kind.PURE_SABACC, judged, (_PURE, 0, 0)
        if abs(judged) > SABACC:
            return Kind.BOMB_OUT, judged, BOMB_RANK
        return Kind.ORDINARY, judged, (_ORDINARY, -abs(judged), int(judged > 0))
    if judged == 0 or abs(judged) > SABACC:
        return Kind.BOMB_OUT, judged, BOMB_RANK
    ranking = Ranking.HIGHEST if rules.game_options.force_sabacc else rules.game_options.ranking
    negative_pure = rules.game_options.negative_pure and not rules.game_options.force_sabacc
    if judged == SABACC or (judged == -SABACC and negative_pure):
        if ranking is Ranking.CLOSEST_POSITIVE:
            order = int(judged > 0)
        elif ranking is Ranking.CLOSEST_NEGATIVE:
            order = int(judged < 0)
        else:
            order = 0  # under `highest` +23 and -23 tie (a sudden demise decides)
        return Kind.PURE_SABACC, judged, (_PURE, order, 0)
    if ranking is Ranking.HIGHEST:
        return Kind.ORDINARY, judged, (_ORDINARY, judged, 0)
    favoured = judged > 0 if ranking is Ranking.CLOSEST_POSITIVE else judged < 0
    return Kind.ORDINARY, judged, (_ORDINARY, abs(judged), int(favoured))


def _fairy_empress_rank(rules: RuleSet) -> tuple[int, int, int]:
    """Just above every ordinary hand of magnitude 22 (see the module docstring)."""
    if rules.game_options.force_sabacc or rules.game_options.ranking is Ranking.HIGHEST:
        return (_ORDINARY, SABACC - 1, 1)  # ordinary ranks are (1, total, 0) with total <= 22
    return (_ORDINARY, SABACC - 1, 2)  # ordinary ranks are (1, |total|, 0 or 1)


def _judge(rules: RuleSet, codes: tuple[str, ...], values: Sequence[int], side: Side | None) -> Hand:
    total = sum(values)
    if is_idiots_array(codes):
        judged = -total if (rules.game_options.force_sabacc and side is Side.DARK) else total
        return Hand(Kind.IDIOTS_ARRAY, total, judged, (_ARRAY, 0, 0), codes)
    if rules.game_options.fairy_empress and is_fairy_empress(codes):
        judged = -total if (rules.game_options.force_sabacc and side is Side.DARK) else total
        return Hand(Kind.FAIRY_EMPRESS, total, judged, _fairy_empress_rank(rules), codes)
    kind, judged, rank = _judge_total(rules, total, side)
    return Hand(kind, total, judged, rank, codes)


def evaluate(
    rules: RuleSet,
    cards: Iterable[str],
    *,
    side: Side | str | None = None,
    community: Iterable[str] = (),
) -> Hand:
    """Judge a hand under `rules`.

    `cards` are the player's own cards (static field included), as card codes in any case.
    `side` is the player's Force Sabacc side (required where `rules.game_options.force_sabacc`).
    `community` (Hold 'Em) are the cards in the other players' static fields: the hand is the
    best one made of all of `cards` plus any subset of them.

    Raises `UnknownCard` for an unknown code and `InvalidHand` for a card the rule set set
    aside or a missing side.

    >>> from companion.rules.rulesets import ruleset_from
    >>> holdem = ruleset_from({"preset": "classic", "holdem": True})
    >>> h = evaluate(holdem, ["co10", "sa8"], community=["fl5", "star", "st9"])
    >>> h.total, h.kind, sorted(h.cards)
    (23, 'pure_sabacc', ['co10', 'fl5', 'sa8'])
    """
    own = tuple(card(c).code for c in cards)
    common = tuple(card(c).code for c in community)
    if side is not None and not isinstance(side, Side):
        side = Side(side)
    own_values = [card_value(rules, c, side) for c in own]
    common_values = [card_value(rules, c, side) for c in common]
    if not common:
        return _judge(rules, own, own_values, side)
    return _best_with_community(rules, own, own_values, common, common_values, side)


def _best_with_community(
    rules: RuleSet,
    own: tuple[str, ...],
    own_values: list[int],
    common: tuple[str, ...],
    common_values: list[int],
    side: Side | None,
) -> Hand:
    """Hold 'Em: the best hand from all own cards plus any subset of the community cards.

    Enumerating every subset is exponential; instead the Array and the Fairy Empress (which
    need exactly three and two cards) are tried with the few small subsets that can complete
    them, and every other hand depends only on its total, so one subset per reachable sum
    (a subset-sum table) covers them all.
    """
    candidates: list[Hand] = [_judge(rules, own, own_values, side)]
    # Special hands of a fixed size: only subsets that bring the hand to that size.
    for size in (2, 3):
        need = size - len(own)
        if 0 < need <= len(common):
            for picked in combinations(range(len(common)), need):
                codes = own + tuple(common[i] for i in picked)
                if is_idiots_array(codes) or (rules.game_options.fairy_empress and is_fairy_empress(codes)):
                    values = own_values + [common_values[i] for i in picked]
                    candidates.append(_judge(rules, codes, values, side))
    # Every reachable community sum, with one subset that reaches it.
    reach: dict[int, tuple[int, ...]] = {0: ()}
    for i, v in enumerate(common_values):
        for s, subset in list(reach.items()):
            reach.setdefault(s + v, subset + (i,))
    own_total = sum(own_values)
    for s, subset in reach.items():
        if not subset:
            continue  # the own cards alone are already a candidate
        kind, judged, rank = _judge_total(rules, own_total + s, side)
        if kind is Kind.BOMB_OUT:
            continue
        codes = own + tuple(common[i] for i in subset)
        if is_idiots_array(codes) or (rules.game_options.fairy_empress and is_fairy_empress(codes)):
            continue  # judged above with its real rank
        candidates.append(Hand(kind, own_total + s, judged, rank, codes))
    return max(candidates, key=lambda h: (h.rank, h.total))
