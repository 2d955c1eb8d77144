"""Judging a Coruscant Shift round and settling its pots (RULES-CORUSCANT.md C17–C23), pure.

A selection's total is the sum of its cards (a Sylop is 0), its distance |total − target|;
the smallest distance wins, then more cards of the target suit (a Sylop counts as one), then
the tie draw (C17–C19)::

    >>> t = Target(5, "triangle")
    >>> han = judge(["tr+4", "sylop", "ci+2"], t)
    >>> han.total, han.distance, han.suit_count
    (6, 1, 2)
    >>> judge(["sq+10", "tr-6", "sq+2"], t).rank < han.rank
    True

A round's settlement (C22): the pots come from each player's commitment, each goes to its best
eligible selection. The worked round of the rules file::

    >>> r = settle_round([Entry("Han", ("tr+4", "sylop", "ci+2"), 19),
    ...                   Entry("Lando", (), 8, folded=True),
    ...                   Entry("Bria", ("sq+10", "tr-6", "sq+2"), 19),
    ...                   Entry("Tobias", ("tr+5",), 10)], t)
    >>> [(p.amount, p.winners) for p in r.pots]
    [(38, ('Tobias',)), (18, ('Han',))]
    >>> r.payouts
    {'Han': 18, 'Lando': 0, 'Bria': 0, 'Tobias': 38}

A tie the suit cannot break asks for the tie draw (status "tie_draw"); the same round again
with the drawn cards settles it (C19, C20).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from companion.games.coruscant.cards import (CORUSCANT_DECK, GOLD, SELECTION_MAX, SELECTION_MIN, SILVER, SYLOP,
                                             suit_of)
from companion.rules.cards import TooManyCopies, UnknownCard
from companion.rules.settle import build_pots

#: A round's statuses: settled, waiting for the tie draw, or won by the last player left.
SETTLED, TIE_DRAW, CONCEDED = "settled", "tie_draw", "conceded"
#: The kinds of a player's hand in a settlement (the calculator's `kind`).
SELECTION, FOLDED, CONCEDED_KIND = "selection", "folded", "conceded"


@dataclass(frozen=True)
class Target:
    """The round's target: the gold die's number and the silver die's suit (C3)."""

    number: int
    suit: str

    def __post_init__(self) -> None:
        if not GOLD.shows(self.number):
            raise ValueError(f"the gold die cannot show {self.number}")
        if not SILVER.shows(self.suit):
            raise ValueError(f"the silver die cannot show {self.suit!r}")


@dataclass(frozen=True)
class Judged:
    """One selection judged against the target: `rank` is larger for a better selection
    (minus the distance, then the target-suit count); equal ranks go to the tie draw."""

    cards: tuple[str, ...]
    total: int
    distance: int
    suit_count: int

    @property
    def rank(self) -> tuple[int, int]:
        """How selections compare before the tie draw (C17, C18): larger wins."""
        return (-self.distance, self.suit_count)


def judge(cards: Iterable[str], target: Target) -> Judged:
    """Judge a selection (card codes, any case) against the target. Raises `UnknownCard`."""
    codes = tuple(CORUSCANT_DECK.normalize(c) for c in cards)
    total = sum(CORUSCANT_DECK.cards[c].value for c in codes)
    count = sum(1 for c in codes if c == SYLOP or suit_of(c) == target.suit)
    return Judged(codes, total, abs(total - target.number), count)


@dataclass(frozen=True)
class Selection:
    """A selection as the runtime's pages read a judged hand (`rules.hands.evaluate`): its
    kind, total and cards. It has no rank of its own: selections compare only against a
    target (`judge`), so `rank` is the same for all and nothing may be ranked by it."""

    kind: str
    total: int
    rank: tuple[int, ...]
    cards: tuple[str, ...]


def evaluate(rules: object, cards: Iterable[str], **_: object) -> Selection:
    """A selection's total, in the shape of a judged hand (see `Selection`).

    >>> evaluate(None, ["TR+4", "sylop", "ci+2"])
    Selection(kind='selection', total=6, rank=(0,), cards=('tr+4', 'sylop', 'ci+2'))
    """
    codes = tuple(CORUSCANT_DECK.normalize(c) for c in cards)
    return Selection(SELECTION, sum(CORUSCANT_DECK.cards[c].value for c in codes), (0,), codes)


def draw_key(code: str) -> tuple[int, int]:
    """How a tie-draw card compares (C19), larger wins: the higher absolute value, then a
    positive card over a negative one; a Sylop is the lowest. Equal keys stay tied.

    >>> sorted(["tr-7", "sq+7", "sylop", "ci+1"], key=draw_key, reverse=True)
    ['sq+7', 'tr-7', 'ci+1', 'sylop']
    >>> draw_key("ci+9") == draw_key("tr+9")
    True
    """
    v = CORUSCANT_DECK.card(code).value
    return (abs(v), int(v > 0))


@dataclass(frozen=True)
class Entry:
    """One player at the settlement, in seat order from the starting player: the selection
    (ignored when folded), the credits committed this round (ante and bets), and the
    tie-draw card once one was drawn."""

    name: str
    cards: tuple[str, ...]
    committed: int
    folded: bool = False
    tie_draw: str | None = None


@dataclass(frozen=True)
class PotWon:
    """One pot: its credits, who may win it, and who won it (several: a split)."""

    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...] = ()


@dataclass(frozen=True)
class RoundResult:
    """A round's settlement. `status` is SETTLED, CONCEDED or TIE_DRAW (then `tie_draw_players`
    must each draw a card and the round is settled again; `pots` and `payouts` are empty)."""

    status: str
    hands: dict[str, Judged | None]  # None: folded (or the last player, who shows nothing)
    pots: tuple[PotWon, ...] = ()
    payouts: dict[str, int] = field(default_factory=dict)  # credits each player receives
    tie_draw_players: tuple[str, ...] = ()

    def nets(self, entries: Sequence[Entry]) -> dict[str, int]:
        """Each player's net for the round: received − committed (C23: they sum to 0)."""
        return {e.name: self.payouts.get(e.name, 0) - e.committed for e in entries}


def _split(amount: int, winners: Sequence[str]) -> dict[str, int]:
    """Equal shares; odd credits one each to the first winners in seat order (C21)."""
    share, odd = divmod(amount, len(winners))
    return {w: share + (1 if i < odd else 0) for i, w in enumerate(winners)}


def settle_round(entries: Sequence[Entry], target: Target) -> RoundResult:
    """Settle a round (C16, C17–C23). `entries` are in seat order from the starting player.

    Raises `ValueError` for what play cannot produce: nobody still in, or a folded player who
    committed more than every player still in (C15: a pot nobody could win).
    """
    live = [e for e in entries if not e.folded]
    if not live:
        raise ValueError("at least one player must still be in the round")
    committed = {e.name: e.committed for e in entries}
    top_live = max(e.committed for e in live)
    if any(e.folded and e.committed > top_live for e in entries):
        raise ValueError("a folded player committed more than every player still in")
    pots = build_pots(committed, {e.name for e in entries if e.folded})
    payouts = {e.name: 0 for e in entries}
    if len(live) == 1:  # C16: everyone else folded; the last player takes it all, unseen
        winner = live[0].name
        payouts[winner] = sum(committed.values())
        return RoundResult(CONCEDED, {e.name: None for e in entries},
                           tuple(PotWon(p.amount, p.eligible, (winner,)) for p in pots), payouts)
    hands: dict[str, Judged | None] = {e.name: None if e.folded else judge(e.cards, target) for e in entries}
    by_name = {e.name: e for e in entries}

    def best(names: Sequence[str]) -> list[str]:
        top = max(hands[n].rank for n in names)  # type: ignore[union-attr]
        return [n for n in names if hands[n].rank == top]  # type: ignore[union-attr]

    # C20: every player tied for the best hand of any pot draws once, before any pot is paid.
    tied = [e.name for e in entries if any(e.name in ts for ts in (best(p.eligible) for p in pots) if len(ts) > 1)]
    if any(by_name[n].tie_draw is None for n in tied):
        return RoundResult(TIE_DRAW, hands, tie_draw_players=tuple(tied))
    won = []
    for p in pots:
        winners = best(p.eligible)
        if len(winners) > 1:  # C19: the drawn cards decide; equal draws split
            top = max(draw_key(by_name[n].tie_draw or SYLOP) for n in winners)
            winners = [n for n in winners if draw_key(by_name[n].tie_draw or SYLOP) == top]
        for name, share in _split(p.amount, winners).items():
            payouts[name] += share
        won.append(PotWon(p.amount, p.eligible, tuple(winners)))
    return RoundResult(SETTLED, hands, tuple(won), payouts)


def decided_by(result: RoundResult, entries: Sequence[Entry], target: Target,
               name: Mapping[str, str], pot_words: Sequence[str]) -> dict[str, str]:
    """Why each player won or lost a settled round, in words for the result table: the pots
    won (`pot_words`: each pot's name, as `result.pots`), and what decided where selections
    equally close to the target met: the target-suit count (C18) or the tie draw (C19–C20).
    `name`: seat -> name. A folded player has no words here.

    >>> e = [Entry("A", ("ci+3", "ci+2"), 5, False), Entry("B", ("tr+5",), 5, False)]
    >>> t = Target(5, "circle")
    >>> decided_by(settle_round(e, t), e, t, {"A": "Ana", "B": "Ben"}, ["the pot"])
    {'A': 'wins the pot: as close to the target, more Circle cards (2 to 0)', 'B': 'lost to Ana on the target suit (0 Circle cards to 2)'}
    """
    why: dict[str, list[str]] = {e.name: [] for e in entries}
    by_name = {e.name: e for e in entries}
    suit = target.suit.capitalize()
    for label, pot in zip(pot_words, result.pots):
        live = [n for n in pot.eligible if result.hands.get(n) is not None]
        if not live:
            continue
        judged = {n: result.hands[n] for n in live}
        near = min(j.distance for j in judged.values() if j is not None)
        close = [n for n in live if judged[n].distance == near]  # type: ignore[union-attr]
        most = max(judged[n].suit_count for n in close)  # type: ignore[union-attr]
        suited = [n for n in close if judged[n].suit_count == most]  # type: ignore[union-attr]
        first = name.get(pot.winners[0], pot.winners[0])
        for n in pot.winners:
            if len(live) == 1:
                reason = ""  # nobody else was left in it
            elif len(suited) > 1:
                card = by_name[n].tie_draw
                reason = "the tie draw" + (f": {CORUSCANT_DECK.cards[card].name}" if card else "")
                if len(pot.winners) > 1:
                    reason += ", drawn as high as another's"
            elif len(close) > 1:
                others = max(judged[x].suit_count for x in close if x != n)  # type: ignore[union-attr]
                count = judged[n].suit_count  # type: ignore[union-attr]
                reason = f"as close to the target, more {suit} cards ({count} to {others})"
            else:
                reason = "the closest to the target"
            why[n].append(f"wins {label}" + (f": {reason}" if reason else ""))
        for n in live:
            if n in pot.winners:
                continue
            if n in suited and len(suited) > 1:
                why[n].append(f"lost to {first} on the tie draw")
            elif n in close:
                count = judged[n].suit_count  # type: ignore[union-attr]
                why[n].append(f"lost to {first} on the target suit ({count} {suit} card{'' if count == 1 else 's'} "
                              f"to {most})")
            else:
                why[n].append(f"lost to {first}")
    return {n: "; ".join(dict.fromkeys(parts)) for n, parts in why.items() if parts}


# -- the ante, elimination and the end of the game (C7, C8, C24–C26) -------------------------

#: C8: the ante's rise before a round, by the number of players left (5 or more: +1).
RISE = {2: 5, 3: 3, 4: 2}


def rise(players_left: int) -> int:
    """The ante's step before a round with `players_left` players in the game (C8).

    >>> [rise(n) for n in (2, 3, 4, 5, 8)]
    [5, 3, 2, 1, 1]
    """
    return RISE.get(players_left, 1)


def next_ante(ante: int, players_left: int, ante_rise: str) -> int:
    """The ante of the next round: risen by C8's step (`ante_rise` "round"), or the same
    ("none")."""
    return ante + rise(players_left) if ante_rise == "round" else ante


def ante_schedule(first: int, players_left: Sequence[int], ante_rise: str) -> list[int]:
    """The ante of each round, given how many players were in the game before each round.

    C8's example: 5 players pay 2, 3 and 4; one goes out in round 3; with 4 left, 6 and 8::

        >>> ante_schedule(2, [5, 5, 5, 4, 4], "round")
        [2, 3, 4, 6, 8]
    """
    antes: list[int] = []
    for i, n in enumerate(players_left):
        antes.append(first if i == 0 else next_ante(antes[-1], n, ante_rise))
    return antes


def pay_ante(stack: int, ante: int) -> tuple[int, bool]:
    """What a player pays of the ante and whether that leaves them all-in (C7): a player who
    cannot pay in full puts in all they have.

    >>> pay_ante(10, 4), pay_ante(3, 4), pay_ante(4, 4)
    ((4, False), (3, True), (4, True))
    """
    paid = min(stack, ante)
    return paid, paid == stack


def out_after(stacks: Mapping[str, int]) -> list[str]:
    """The players who go out after a settlement: 0 credits (C24)."""
    return [n for n, credits in stacks.items() if credits == 0]


def next_dealer(order: Sequence[str], dealer: str, out: Iterable[str]) -> str:
    """The next dealer: one seat clockwise (the order's next), skipping players who are out
    (C6, C26). The starting player is the next dealer's next in the same way.

    >>> next_dealer(["Han", "Lando", "Bria"], "Han", {"Lando"})
    'Bria'
    """
    gone = set(out)
    i = order.index(dealer)
    for step in range(1, len(order) + 1):
        candidate = order[(i + step) % len(order)]
        if candidate not in gone:
            return candidate
    raise ValueError("nobody is left to deal")


def game_over(end: str, stacks: Mapping[str, int], dealt: Iterable[str], dealer_next: str | None) -> bool:
    """Whether the game ends after a round (C25, C26): one player holds every credit; or, with
    `end` "deal-once", the deal would pass to a player who has already dealt.

    >>> game_over("deal-once", {"A": 5, "B": 5}, ["A", "B"], "A"), game_over("last", {"A": 5, "B": 5}, ["A", "B"], "A")
    (True, False)
    """
    if sum(1 for c in stacks.values() if c > 0) <= 1:
        return True
    return end == "deal-once" and dealer_next in set(dealt)


def places(stacks: Mapping[str, int], went_out: Mapping[str, int]) -> dict[str, int]:
    """The final standings (C24–C26): players still in by credits, most first, equal credits
    sharing a place; then players who went out, later rounds first, those who went out in the
    same round sharing a place. `went_out` maps a player to the round they went out in.

    >>> places({"Han": 130, "Lando": 130, "Bria": 90, "Tobias": 0, "Qi": 0, "L3": 0},
    ...        {"Tobias": 4, "Qi": 4, "L3": 2})
    {'Han': 1, 'Lando': 1, 'Bria': 3, 'Tobias': 4, 'Qi': 4, 'L3': 6}
    """
    keys = {n: (0, c) if n not in went_out else (-1, went_out[n]) for n, c in stacks.items()}
    ordered = sorted(keys, key=lambda n: keys[n], reverse=True)
    return {n: 1 + sum(1 for m in ordered if keys[m] > keys[n]) for n in ordered}


def reveal_refusal(cards: Sequence[str], recorded: int | None, shown: Iterable[str] = ()) -> str | None:
    """Why a reveal is refused, in words (C4, C11, C30), or None when it may stand: it must
    hold 1 to 5 cards of the deck, as many as the phone `recorded` (None: no count to match),
    and, with the cards already `shown` this round (other reveals, tie-draw cards), no more
    copies of a card than the deck has.

    >>> reveal_refusal(["tr+5"], 2), reveal_refusal(["tr+5", "tr+4"], 1)
    ('the selection holds 1 card but 2 were recorded', 'the selection holds 2 cards but 1 was recorded')
    >>> reveal_refusal(["sylop"], 1, ["sylop", "sylop"])
    'the deck has only 2 of Sylop'
    >>> reveal_refusal([], None)
    'a selection holds 1 to 5 cards'
    """
    if not SELECTION_MIN <= len(cards) <= SELECTION_MAX:
        return f"a selection holds {SELECTION_MIN} to {SELECTION_MAX} cards"
    try:
        codes = [CORUSCANT_DECK.normalize(c) for c in cards]
        seen = [CORUSCANT_DECK.normalize(c) for c in shown]
    except UnknownCard as exc:
        return str(exc)
    if recorded is not None and len(codes) != recorded:
        return (f"the selection holds {len(codes)} card{'s' if len(codes) != 1 else ''} but {recorded} "
                f"{'was' if recorded == 1 else 'were'} recorded")
    try:
        CORUSCANT_DECK.check_copies([*seen, *codes])
    except TooManyCopies as exc:
        card = CORUSCANT_DECK.cards[exc.code]
        return f"the deck has only {card.copies} of {card.name}"
    return None
