"""Kessel Sabacc's reveal and ranking (RULES-KESSEL.md K17–K21, with the judging tokens of K35).

A hand is one Sand and one Blood card. At the reveal the Impostors take a value the player
chose from two dice (6 under Major Fraud), then a single Sylop copies the other card (0 under
Markdown); `ss`+`bs` is Pure Sabacc and is resolved no further (K17). The difference is
|sand − blood|; 0 is a Sabacc (K18). Best first: Pure Sabacc, Prime Sabacc (a Sabacc of the
value the Prime Sabacc token chose), Sabaccs (lower value better; reversed under Cook the
Books), then the other hands (lower difference, then the lower card) (K18–K20)::

    >>> judge(["s2", "b2"]).kind, judge(["ss", "b3"]).value, judge(["s3", "b2"]).difference
    ('sabacc', 3, 1)
    >>> judge(["s3", "b2"]).rank > judge(["s5", "b4"]).rank, judge(["s2", "b4"]).rank == judge(["s4", "b2"]).rank
    (True, True)
    >>> judge(["si", "b6"], effects=Effects(major_fraud=True)).values
    (6, 6)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from companion.games.kessel.cards import KESSEL_DECK, family, is_impostor, is_sylop

#: A hand's kinds, best first, as the API names them (`kind`) with their words.
KINDS: tuple[tuple[str, str], ...] = (
    ("pure_sabacc", "Pure Sabacc"),
    ("prime_sabacc", "Prime Sabacc"),
    ("sabacc", "Sabacc"),
    ("non_sabacc", "no Sabacc"),
)
KIND_WORDS = dict(KINDS)
#: How strong each kind is (a larger number beats a smaller one).
_STRENGTH = {"pure_sabacc": 4, "prime_sabacc": 3, "sabacc": 2, "non_sabacc": 1}
#: The values an Impostor may take: a die's faces (K4, K17).
DIE_FACES = range(1, 7)
#: The value of an Impostor under Major Fraud (K35).
FRAUD_VALUE = 6


class InvalidHand(ValueError):
    """A hand that cannot be judged: `message` in words, `field` the part that is wrong
    ("cards", "cards[1]", "impostors", "impostors[0]"), relative to the hand."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.message, self.field = message, field


@dataclass(frozen=True)
class Effects:
    """The tokens in force at the reveal that change how hands are judged (K32, K33, K35):
    Impostors are 6 (Major Fraud), Sylops are 0 (Markdown), the order of Sabaccs is reversed
    (Cook the Books), and a Sabacc of `prime_sabacc` ranks just under Pure Sabacc."""

    major_fraud: bool = False
    markdown: bool = False
    cook_the_books: bool = False
    prime_sabacc: int | None = None

    def any(self) -> bool:
        """Whether any effect is in force."""
        return self != Effects()

    def to_json(self) -> dict[str, Any]:
        """The effects as the payout calculator writes them."""
        return {"major_fraud": self.major_fraud, "markdown": self.markdown,
                "cook_the_books": self.cook_the_books, "prime_sabacc": self.prime_sabacc}


NO_EFFECTS = Effects()


@dataclass(frozen=True)
class KesselHand:
    """One judged hand: its cards as entered, its resolved `values` (sand, blood), its kind,
    its Sabacc value (None for a non-Sabacc), its difference and its `rank` (a larger rank
    wins; equal ranks are an exact tie, K21)."""

    cards: tuple[str, str]
    values: tuple[int, int]
    kind: str
    value: int | None
    difference: int
    rank: tuple[int, ...]

    @property
    def sabacc(self) -> bool:
        """Whether the hand is a Sabacc of any kind (difference 0): a loser pays 1 (K23)."""
        return self.kind != "non_sabacc"

    @property
    def words(self) -> str:
        """The hand in words ("Sabacc of 2", "difference 3 (5/2)")."""
        if self.kind == "pure_sabacc":
            return "Pure Sabacc"
        if self.kind in ("prime_sabacc", "sabacc"):
            return f"{KIND_WORDS[self.kind]} of {self.value}"
        return f"difference {self.difference} ({self.values[0]}/{self.values[1]})"

    def to_json(self) -> dict[str, Any]:
        """The hand as the payout calculator's answer gives it (without the name)."""
        return {"cards": list(self.cards), "values": list(self.values), "kind": self.kind,
                "value": self.value, "difference": self.difference}


def shape(cards: Iterable[Any]) -> tuple[str, str]:
    """The cards of a hand as canonical codes, Sand first. Raises `InvalidHand` unless they are
    exactly one Sand card and one Blood card (K3)."""
    codes = list(cards)
    if len(codes) != 2:
        raise InvalidHand(f"a hand is two cards, one Sand and one Blood, not {len(codes)}", "cards")
    canon = []
    for k, code in enumerate(codes):
        try:
            canon.append(KESSEL_DECK.normalize(code))
        except ValueError as exc:  # UnknownCard
            raise InvalidHand(str(exc), f"cards[{k}]") from None
    fams = [family(c) for c in canon]
    if fams[0] == fams[1]:
        raise InvalidHand(f"a hand is one Sand card and one Blood card, not two {fams[0].capitalize()} cards",
                          "cards")
    return (canon[0], canon[1]) if fams[0] == "sand" else (canon[1], canon[0])


def judge(cards: Sequence[Any], impostors: Sequence[int] = (), effects: Effects = NO_EFFECTS) -> KesselHand:
    """Judge a revealed hand (K17–K20).

    `cards` are two codes in any order; `impostors` the value chosen for each Impostor, in the
    order of `cards` (none under Major Fraud, where every Impostor is 6). Raises `InvalidHand`
    for a wrong shape, a missing, extra or impossible Impostor value.

    >>> judge(["ss", "bs"], effects=Effects(markdown=True)).kind
    'pure_sabacc'
    >>> h = judge(["bi", "s1"], impostors=[1]); (h.cards, h.values, h.kind)
    (('s1', 'bi'), (1, 1), 'sabacc')
    """
    sand, blood = shape(cards)
    entered = [KESSEL_DECK.normalize(c) for c in cards]
    imps = [c for c in entered if is_impostor(c)]
    if not isinstance(impostors, (list, tuple)):
        raise InvalidHand("impostors must be a list of values", "impostors")
    if effects.major_fraud:
        if impostors:
            raise InvalidHand("under Major Fraud every Impostor is 6: send no Impostor values", "impostors")
        chosen = {c: FRAUD_VALUE for c in imps}
    else:
        if len(impostors) != len(imps):
            need = "no Impostor: send no Impostor value" if not imps else \
                f"{len(imps)} Impostor{'s' if len(imps) > 1 else ''}: send one value for each, in the order of the cards"
            raise InvalidHand(f"the hand holds {need}", "impostors")
        chosen = {}
        for k, (code, v) in enumerate(zip(imps, impostors)):
            if isinstance(v, bool) or not isinstance(v, int) or v not in DIE_FACES:
                raise InvalidHand("an Impostor's value is a die's face, a whole number from 1 to 6", f"impostors[{k}]")
            chosen[code] = v
    if is_sylop(sand) and is_sylop(blood):  # K17 step 1: resolved no further
        return KesselHand((sand, blood), (0, 0), "pure_sabacc", 0, 0, (_STRENGTH["pure_sabacc"],))

    def base(code: str) -> int | None:  # step 2: numbers and Impostors; None: a Sylop
        if is_sylop(code):
            return 0 if effects.markdown else None
        return chosen[code] if is_impostor(code) else KESSEL_DECK.cards[code].value

    s, b = base(sand), base(blood)
    # Step 3: a single Sylop copies the other card as resolved (a pair of Sylops is Pure Sabacc).
    sv = b if s is None else s
    bv = s if b is None else b
    assert sv is not None and bv is not None
    diff = abs(sv - bv)
    if diff == 0:
        if effects.prime_sabacc is not None and sv == effects.prime_sabacc:
            return KesselHand((sand, blood), (sv, bv), "prime_sabacc", sv, 0, (_STRENGTH["prime_sabacc"],))
        # Lower is better (1 best); Cook the Books reverses the numbered Sabaccs only (K35, K36).
        order = sv if effects.cook_the_books else -sv
        return KesselHand((sand, blood), (sv, bv), "sabacc", sv, 0, (_STRENGTH["sabacc"], order))
    return KesselHand((sand, blood), (sv, bv), "non_sabacc", None, diff,
                      (_STRENGTH["non_sabacc"], -diff, -min(sv, bv)))


def winners(hands: Sequence[KesselHand]) -> list[int]:
    """The indexes of the best hands: every hand tied for best is a winner (K21).

    >>> winners([judge(["s2", "b4"]), judge(["s4", "b2"]), judge(["s5", "b1"])])
    [0, 1]
    """
    best = max(h.rank for h in hands)
    return [i for i, h in enumerate(hands) if h.rank == best]


def penalty(hand: KesselHand) -> int:
    """What a losing hand owes (K23): 1 for a Sabacc, else its difference.

    >>> penalty(judge(["s6", "b1"])), penalty(judge(["s5", "b5"]))
    (5, 1)
    """
    return 1 if hand.sabacc else hand.difference
