"""Settling a called hand, exactly as RULES.md "Settling a called hand".

Classic's settlement: its payout calculator (`calculator.answer`) and every hand of its live
table (`ClassicHand.settlement`) call `settle`. Corellian Spike, whose rules are a `RuleSet`
too, shares the first steps (`judge_reveal`: the checks, the pots, the judged hands and
who is tied) and ends with its own `Finish`. It is a pure function of the rule set, the players at the reveal
(in seat order from the dealer's left, so the dealer is last) and the sabacc pot. Credits are
whole numbers everywhere, and they are conserved: what the players receive plus the sabacc pot
after equals what they committed plus the sabacc pot before plus the penalties paid.

Sudden demise is a two-step exchange: when tied players must be dealt one more card, `settle`
returns a `Settlement` with `status == "sudden_demise"` and `tie_players`; the caller
supplies each of them a `demise` card and calls again. A real hand, walked through::

    >>> from companion.rules.rulesets import PRESETS
    >>> classic = PRESETS["classic"]
    >>> players = [
    ...     PlayerReveal("Lando", ("co7", "sa11", "fl9"), committed=30, stack=120),
    ...     PlayerReveal("Han", ("idiot", "st2", "co3"), committed=30, stack=45, called=True),
    ...     PlayerReveal("Chewie", (), committed=10, stack=80, folded=True),
    ... ]
    >>> s = settle(classic, players, sabacc_pot=40)
    >>> [(h.name, h.total, h.kind) for h in s.hands]
    [('Lando', 27, 'bomb_out'), ('Han', 5, 'idiots_array'), ('Chewie', None, 'folded')]
    >>> s.pots
    (PotResult(amount=70, eligible=('Lando', 'Han'), winners=('Han',), to_sabacc_pot=False),)
    >>> s.sabacc_pot_winners, s.penalties
    (('Han',), (Penalty(name='Lando', reason='bomb_out', amount=70, shortfall=0),))
    >>> s.sabacc_pot_after, s.payouts
    (70, {'Lando': -70, 'Han': 110, 'Chewie': 0})

Two equal hands go to a sudden demise::

    >>> tied = [
    ...     PlayerReveal("Leia", ("co10", "sa9"), committed=20),
    ...     PlayerReveal("Luke", ("fl10", "st9"), committed=20, called=True),
    ... ]
    >>> first = settle(classic, tied, sabacc_pot=0)
    >>> first.status, first.tie_players
    ('sudden_demise', ('Leia', 'Luke'))
    >>> from dataclasses import replace
    >>> dealt = [replace(tied[0], demise=("sa2",)), replace(tied[1], demise=("co8",))]
    >>> second = settle(classic, dealt, sabacc_pot=0)
    >>> second.status, second.pots[0].winners, second.payouts
    ('settled', ('Leia',), {'Leia': 40, 'Luke': -40})

Luke's 27 bombed out in the demise (no bomb-out penalty for that), so Leia's 21 wins; Luke
called and won no share of a contested pot, so he pays the hand pot (40) as the caller.

Rulings where RULES.md leaves a corner open (the rules page states them):

- Pots are built as in poker (and as PokerKit builds them): one level per distinct
  commitment, and neighbouring levels that the same players can win are one pot. A level that
  only folded players reached (nobody still in the hand committed that much) is a pot nobody
  can win: it moves to the sabacc pot (listed with no eligible players).
- A conceded hand: the last player standing takes every pot, including any such pot.
- The hand pot used for penalties is the sum of the contested pots (two or more eligible
  players). An uncontested pot is returned to its player even when that player bombed out,
  and even when every player bombs out (step 6 moves only the hand pot).
- The sabacc pot is won "in full" in step 4, after step 3: a pot that moved to the sabacc pot
  in this settlement is part of what the sabacc pot's winner takes.
- The sabacc pot goes to the best hand on the table (every player who did not fold or bomb
  out, whatever pots they can win) when that hand is an Idiot's Array or Pure Sabacc.
- Sudden demise: each pot's tie is resolved among the tied players of that pot, and the tie
  for the sabacc pot among the tied special hands. A player tied in several of them is dealt
  one card, used in each. The demise card counts fully: a modified hand can become an Idiot's
  Array or a Pure Sabacc, or bomb out. A response asks for every demise card at once; a
  request that sends only some of them is answered with the same question.
- A penalty of 0 credits (hand pot of 0) is not listed. A penalty the cap reduces to 0 is
  listed, with its shortfall.
- The caller pays `caller_lost` when they win no share of any contested pot, including a hand
  with no contested pot at all (with a fixed penalty that costs them the fixed amount).
- Players who folded pay no penalty here (the fold fee is paid during the hand).
- A player who folded can be neither the caller nor in a sudden demise; at least one player
  must still be in the hand. A revealed hand has at least two cards.
- Hold 'Em: the community cards are the static fields of the players still in the hand; a
  folded player's static field went to the junk pile with the rest of their cards.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from companion.rules.cards import UnknownCard
from companion.rules.game import CONCEDED, FOLDED, InvalidHand
from companion.games.classic.hands import Side
from companion.rules.request import MAX_NAME
from companion.rules.rulesets import HAND_POT, RuleSet
from companion.rules.settle import InvalidReveal, Pot, PotResult, award, best, build_pots

#: Limits that keep one settlement small (the API refuses larger requests with a 422).
MAX_PLAYERS = 12
MIN_PLAYERS = 2
#: Revealed hands need at least this many cards.
MIN_HAND = 2

SETTLED = "settled"
SUDDEN_DEMISE = "sudden_demise"
BOMB_OUT = "bomb_out"
#: The kind of a hand that went over the limit (a game whose judge gives it pays the penalty).
BOMBED_OUT = "bomb_out"
CALLER_LOST = "caller_lost"


@dataclass(frozen=True)
class PlayerReveal:
    """One player at the reveal, as SETTLE-API.md describes a request's `players[i]`."""

    name: str
    cards: tuple[str, ...]  # canonical card codes, static-field cards included
    committed: int  # credits put into the hand pot this hand (ante and bets)
    stack: int | None = None  # credits behind; None: penalties are not capped
    folded: bool = False
    called: bool = False
    demise: tuple[str, ...] = ()  # the one card dealt in a sudden demise, once asked for
    static: tuple[str, ...] = ()  # Hold 'Em: which of `cards` are community cards
    side: Side | None = None  # Force Sabacc
    blind_draw: tuple[str, ...] = ()  # a blind draw's cards, one a draw in order, once asked for
    # Fees and penalties paid into the pot during the hand (Spike): no commitment level of
    # their own, they belong to the main pot whoever wins it.
    fees: int = 0


@dataclass(frozen=True)
class HandResult:
    """How one player's hand was judged."""

    name: str
    total: int | None
    kind: str  # idiots_array, pure_sabacc, fairy_empress, ordinary, bomb_out, folded, conceded


@dataclass(frozen=True)
class Penalty:
    """A penalty paid to the sabacc pot after the pots are awarded."""

    name: str
    reason: str  # bomb_out or caller_lost
    amount: int
    shortfall: int


@dataclass(frozen=True)
class Settlement:
    """The outcome of `settle`: either settled, or waiting for the tied players' cards
    (`tie_players`, named in the answer under `tie_field`)."""

    status: str  # "settled", "sudden_demise" (or a tie of another game using this reveal)
    hands: tuple[HandResult, ...]
    tie_players: tuple[str, ...] = ()
    pots: tuple[PotResult, ...] = ()
    sabacc_pot_winners: tuple[str, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    sabacc_pot_after: int | None = None
    payouts: dict[str, int] = field(default_factory=dict)
    tie_field: str = "demise_players"

    def to_json(self) -> dict[str, Any]:
        """The response body of SETTLE-API.md."""
        hands = [{"name": h.name, "total": h.total, "kind": str(h.kind)} for h in self.hands]
        if self.status != SETTLED:
            return {"status": self.status, self.tie_field: list(self.tie_players), "hands": hands}
        return {
            "status": self.status,
            "hands": hands,
            "pots": [
                {
                    "amount": p.amount,
                    "eligible": list(p.eligible),
                    "winners": list(p.winners),
                    "to_sabacc_pot": p.to_sabacc_pot,
                }
                for p in self.pots
            ],
            "sabacc_pot_winners": list(self.sabacc_pot_winners),
            "penalties": [
                {"name": p.name, "reason": p.reason, "amount": p.amount, "shortfall": p.shortfall}
                for p in self.penalties
            ],
            "sabacc_pot_after": self.sabacc_pot_after,
            "payouts": dict(self.payouts),
        }



#: What the settlement reads of a rule set's own options (`RuleSet.game_options`), with the
#: value a game dealt in hands that has no such option plays by: Spike's hands are settled here
#: too (its own options have no Hold 'Em, no Force Sabacc and no penalty for going over).
VARIANTS_OFF: dict[str, Any] = {"holdem": False, "force_sabacc": False, "bomb_out_penalty": 0}


def variant(rules: RuleSet, name: str) -> Any:
    """The rule set's own option `name` (one of `VARIANTS_OFF`), or its value when off."""
    return getattr(rules.game_options, name, VARIANTS_OFF[name])

def check_reveal(rules: RuleSet, players: Sequence[PlayerReveal], sabacc_pot: int = 0) -> None:
    """Raise `InvalidReveal` (with the bad field's path) if the reveal cannot be settled.

    Checks what no type check can: player count, names, callers, hand sizes, the copies of
    each card across the table (demise cards included), Hold 'Em static cards, Force Sabacc
    sides and Corellia Run's set-aside cards. `settle` runs it first.
    """
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidReveal(
            f"a hand needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}", "players"
        )
    if isinstance(sabacc_pot, bool) or not isinstance(sabacc_pot, int) or sabacc_pot < 0:
        raise InvalidReveal("the sabacc pot must be a whole number of credits, at least 0", "sabacc_pot")
    seen: dict[str, int] = {}
    copies: Counter[str] = Counter()
    callers = []
    for i, p in enumerate(players):
        at = f"players[{i}]"
        if not isinstance(p.name, str) or not 1 <= len(p.name) <= MAX_NAME or not p.name.strip():
            raise InvalidReveal(f"a name must be 1 to {MAX_NAME} characters", f"{at}.name")
        if p.name in seen:
            raise InvalidReveal(f"two players are called {p.name!r}", f"{at}.name")
        seen[p.name] = i
        for what, value in (("committed", p.committed), ("stack", p.stack)):
            if value is None and what == "stack":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidReveal(f"{what} must be a whole number of credits, at least 0", f"{at}.{what}")
        if p.called:
            callers.append(i)
            if len(callers) > 1:
                raise InvalidReveal(
                    f"only one player can call; {players[callers[0]].name!r} already did", f"{at}.called"
                )
            if not rules.ending.by_call:
                raise InvalidReveal(f"nobody calls in {rules.title}: a hand ends after "
                                    f"{rules.ending.rounds} rounds", f"{at}.called")
            if p.folded:
                raise InvalidReveal("a player who folded cannot be the caller", f"{at}.called")
        # The last player standing shows nothing (RULES.md step 2), so any count is fine.
        # Where the survivor may show a hand (Spike), a shown hand is checked as any other.
        conceded = sum(not q.folded for q in players) == 1
        shown = not p.folded and (not conceded or (rules.hands.last_player_shows and bool(p.cards)))
        least = max(MIN_HAND, rules.deck.hand_min)
        if shown and len(p.cards) < least:
            raise InvalidReveal(f"a revealed hand has at least {least} cards", f"{at}.cards")
        if shown and rules.deck.hand_max is not None and len(p.cards) > rules.deck.hand_max:
            raise InvalidReveal(f"a hand holds {least} to {rules.deck.hand_max} cards, not "
                                f"{len(p.cards)}", f"{at}.cards")
        if len(p.demise) > 1:
            raise InvalidReveal("a sudden demise deals one card", f"{at}.demise")
        # A ranking with a drawn card's key settles a tie by drawn cards alone (a blind draw).
        drawn = bool(rules.hands.draw_key)
        if p.demise and drawn:
            raise InvalidReveal(f"a tie in {rules.title} is a blind draw, not a sudden demise: "
                                "send blind_draw", f"{at}.demise")
        if p.blind_draw and not drawn:
            raise InvalidReveal(f"a tie in {rules.title} is a sudden demise, not a blind draw: "
                                "send demise", f"{at}.blind_draw")
        if p.blind_draw and p.folded:
            raise InvalidReveal("a player who junked is in no blind draw", f"{at}.blind_draw")
        for kind, codes in (("cards", p.cards), ("demise", p.demise), ("blind_draw", p.blind_draw)):
            for k, code in enumerate(codes):
                try:
                    c = rules.deck.card(code)
                except UnknownCard as exc:
                    raise InvalidReveal(str(exc), f"{at}.{kind}[{k}]") from None
                copies[c.code] += 1
                if copies[c.code] > c.copies:
                    raise InvalidReveal(
                        f"more copies of {c.code} on the table than the deck has ({c.copies})",
                        f"{at}.{kind}[{k}]",
                    )
                aside = rules.deck.set_aside_reason(c.code, rules)
                if aside is not None:
                    raise InvalidReveal(f"{aside}: it cannot be in a hand", f"{at}.{kind}[{k}]")
        if p.static and not variant(rules, "holdem"):
            raise InvalidReveal("static is only used in Hold 'Em", f"{at}.static")
        held = Counter(rules.deck.card(c).code for c in p.cards)
        for k, code in enumerate(p.static):
            try:
                fixed = rules.deck.card(code).code
            except UnknownCard as exc:
                raise InvalidReveal(str(exc), f"{at}.static[{k}]") from None
            if held[fixed] <= 0:
                raise InvalidReveal(f"{fixed} is in the static field but not in the hand", f"{at}.static[{k}]")
            held[fixed] -= 1
        if variant(rules, "force_sabacc"):
            if p.side is None and not p.folded:
                raise InvalidReveal("Force Sabacc needs each player's side (light or dark)", f"{at}.side")
            if p.side is not None and p.side not in tuple(Side):
                raise InvalidReveal('side must be "light" or "dark"', f"{at}.side")
        elif p.side is not None:
            raise InvalidReveal("side is only used in Force Sabacc", f"{at}.side")
    if all(p.folded for p in players):
        raise InvalidReveal("at least one player must still be in the hand", "players")


def _community(rules: RuleSet, players: Sequence[PlayerReveal], i: int) -> tuple[str, ...]:
    """Hold 'Em: the static-field cards of every *other* player still in the hand.

    Ruling: a folded player's static field went to the junk pile with the rest of their cards,
    so it is no longer community.
    """
    if not variant(rules, "holdem"):
        return ()
    return tuple(c for j, p in enumerate(players) if j != i and not p.folded for c in p.static)


@dataclass(frozen=True)
class Judged:
    """A reveal judged, before its ties are broken: what a game's `Finish` reads.

    `judged` holds each player's hand (seat index -> the judge's hand, with `rank`, `total`
    and `kind`) of the players still in; `standing` those who did not bomb out; `pot_ties`
    per pot of `built` its best hands among them (empty when uncontested), `sabacc_tie` the
    best hands of the table that may take the sabacc pot, and `needed` every player tied for
    something."""

    rules: RuleSet
    players: Sequence[PlayerReveal]
    sabacc_pot: int
    built: tuple[Pot, ...]
    hands: tuple[HandResult, ...]
    judged: Mapping[int, Any]
    standing: list[int]
    pot_ties: list[list[int]]
    sabacc_tie: list[int]
    needed: set[int]

    @property
    def names(self) -> list[str]:
        """The players' names, in seat order."""
        return [p.name for p in self.players]


#: The end of a settlement, as the game breaks its ties and charges its penalties.
Finish = Callable[[Judged], Settlement]


def judge_reveal(rules: RuleSet, players: Sequence[PlayerReveal], sabacc_pot: int) -> Settlement | Judged:
    """The first steps of a settlement for any game played with a `RuleSet`: the checks, the
    pots, a conceded hand (settled here), and the judged hands with who is tied for what."""
    check_reveal(rules, players, sabacc_pot)
    names = [p.name for p in players]
    index = {n: i for i, n in enumerate(names)}
    in_hand = [i for i, p in enumerate(players) if not p.folded]
    built = build_pots({p.name: p.committed for p in players}, {p.name for p in players if p.folded},
                       sum(p.fees for p in players))

    # 2. Conceded hand: the last player standing takes every pot, shows nothing, pays nothing.
    # Where the survivor may show a hand (Spike), one that takes the sabacc pot takes it too.
    if len(in_hand) == 1:
        last = in_hand[0]
        for i, p in enumerate(players):
            if p.demise:
                raise InvalidReveal("nobody is in a sudden demise in a conceded hand", f"players[{i}].demise")
            if p.blind_draw:
                raise InvalidReveal("nobody is in a blind draw when everyone else junked",
                                    f"players[{i}].blind_draw")
        shown = rules.hands.evaluate(rules, players[last].cards) \
            if rules.hands.last_player_shows and players[last].cards else None
        conceded = tuple(
            HandResult(p.name, None, FOLDED) if i != last else
            HandResult(p.name, None, CONCEDED) if shown is None else
            HandResult(p.name, shown.total, shown.kind)
            for i, p in enumerate(players)
        )
        pots = tuple(PotResult(pot.amount, pot.eligible, (names[last],)) for pot in built)
        payouts = {n: 0 for n in names}
        payouts[names[last]] = sum(pot.amount for pot in built)
        takes_sabacc = shown is not None and shown.kind in rules.hands.sabacc_pot_kinds
        if takes_sabacc:
            payouts[names[last]] += sabacc_pot
        return Settlement(SETTLED, conceded, pots=pots, payouts=payouts,
                          sabacc_pot_winners=(names[last],) if takes_sabacc else (),
                          sabacc_pot_after=0 if takes_sabacc else sabacc_pot)

    evaluate = rules.hands.evaluate
    try:
        judged = {
            i: evaluate(rules, players[i].cards, side=players[i].side, community=_community(rules, players, i))
            for i in in_hand
        }
    except InvalidHand as exc:  # check_reveal catches these first; kept for safety
        raise InvalidReveal(exc.message, "players") from None
    hands = tuple(
        HandResult(p.name, judged[i].total, judged[i].kind) if i in judged else HandResult(p.name, None, FOLDED)
        for i, p in enumerate(players)
    )
    standing = [i for i in in_hand if judged[i].kind != BOMBED_OUT]

    # 3./4. Who is tied for what: each contested pot, and the sabacc pot's special hands.
    pot_ties: list[list[int]] = []
    for pot in built:
        contenders = [index[n] for n in pot.eligible if index[n] in standing]
        pot_ties.append(best(contenders, judged) if pot.contested else [])
    table_best = best(standing, judged)
    sabacc_tie = table_best if table_best and judged[table_best[0]].kind in rules.hands.sabacc_pot_kinds else []
    needed = {i for tie in (*pot_ties, sabacc_tie) if len(tie) > 1 for i in tie}
    return Judged(rules, players, sabacc_pot, built, hands, judged, standing, pot_ties, sabacc_tie, needed)


def settle(rules: RuleSet, players: Sequence[PlayerReveal], sabacc_pot: int, finish: Finish | None = None) -> Settlement:
    """Settle a called hand (see the module docstring for the walk-through and rulings).

    `players` are in seat order from the dealer's left. Returns a settled `Settlement`, or one
    with status `sudden_demise` naming the players who must be dealt a demise card. Raises
    `InvalidReveal` for input that cannot be settled, including a demise card nobody asked for.
    `finish`: how another game played with a `RuleSet` breaks its ties (by default the
    sudden demise and the penalties of RULES.md).
    """
    judged = judge_reveal(rules, players, sabacc_pot)
    if isinstance(judged, Settlement):
        return judged
    if finish is None:
        if rules.hands.draw_key:
            raise InvalidReveal(f"{rules.title} breaks its ties in a way classic's settlement does not", "rules")
        finish = by_sudden_demise
    return finish(judged)


def by_sudden_demise(j: Judged) -> Settlement:
    """The end of classic's settlement: the sudden demise (RULES.md steps 3 and 4), then the
    bomb-out and caller penalties (steps 5 and 6)."""
    rules, players, names, judged = j.rules, j.players, j.names, j.judged
    for i, p in enumerate(players):
        if p.demise and i not in j.needed:
            raise InvalidReveal(f"{p.name} is not in a sudden demise: no demise card was asked for", f"players[{i}].demise")
    if any(not players[i].demise for i in j.needed):
        return Settlement(SUDDEN_DEMISE, j.hands, tie_players=tuple(names[i] for i in sorted(j.needed)))
    demised = {
        i: rules.hands.evaluate(
            rules, players[i].cards + players[i].demise, side=players[i].side, community=_community(rules, players, i)
        )
        for i in j.needed
    }

    def resolve(tie: list[int], others: list[int]) -> list[int]:
        """Winners of a tie: the best modified hand that survived the demise (split if still
        tied); if none survived, the best hand among `others` (no second demise)."""
        if len(tie) <= 1:
            return tie
        survivors = [i for i in tie if demised[i].kind != BOMBED_OUT]
        if survivors:
            return best(survivors, demised)
        return best(others, judged)

    received, pot_results, won_contested, sabacc, sabacc_winners = award(
        names, j.built, j.pot_ties, j.sabacc_tie, j.standing, resolve, j.sabacc_pot)

    # 5./6. Penalties, after the award, capped at what the player still has.
    hand_pot = sum(pot.amount for pot in j.built if pot.contested)
    due = hand_pot if variant(rules, "bomb_out_penalty") == HAND_POT else int(variant(rules, "bomb_out_penalty"))
    penalties = []
    paid = {i: 0 for i in range(len(players))}
    for i in judged:
        p = players[i]
        if judged[i].kind == BOMBED_OUT:
            reason = BOMB_OUT
        elif p.called and i not in won_contested:
            reason = CALLER_LOST
        else:
            continue
        if due == 0:
            continue
        can_pay = due if p.stack is None else min(due, p.stack + received[i])
        paid[i] = can_pay
        penalties.append(Penalty(p.name, reason, can_pay, due - can_pay))
        sabacc += can_pay

    return Settlement(
        SETTLED,
        j.hands,
        pots=tuple(pot_results),
        sabacc_pot_winners=tuple(names[i] for i in sabacc_winners),
        penalties=tuple(penalties),
        sabacc_pot_after=sabacc,
        payouts={names[i]: received[i] - paid[i] for i in range(len(players))},
    )
