"""Settling a called hand, exactly as RULES.md "Settling a called hand".

Classic's settlement: its payout calculator (`calculator.answer`) and every hand of its live
table (`ClassicHand.settlement`) call `settle`. Its first steps are the runtime's showdown of a
game played with a `RuleSet` (`companion.rules.showdown.judge_reveal`: the checks, the pots, the
judged hands and who is tied); classic ends it with the sudden demise and its penalties
(`by_sudden_demise`). A player at its reveal is its own `PlayerReveal`: the showdown's, with the
card a sudden demise dealt, the Hold 'Em static field and the Force Sabacc side. It is a pure
function of the rule set, the players at the reveal (in seat order from the dealer's left, so
the dealer is last) and the sabacc pot. Credits are whole numbers everywhere, and they are
conserved: what the players receive plus the sabacc pot after equals what they committed plus
the sabacc pot before plus the penalties paid.

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
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence, cast

from companion.games.classic.hands import Side
from companion.games.classic.presets import DEMISE_PLAYERS, SUDDEN_DEMISE
from companion.rules.cards import UnknownCard
from companion.rules.decks import Deck
from companion.rules.request import MAX_CREDITS
from companion.rules.rulesets import HAND_POT, RuleSet
from companion.rules.settle import InvalidReveal, award, best
from companion.rules.showdown import SETTLED, Finish, InvalidRequest, Judged, Penalty, Settlement, read_cards
from companion.rules.showdown import PlayerReveal as Showdown
from companion.rules.showdown import settle as showdown

BOMB_OUT = "bomb_out"
#: The kind of a hand that went over the limit (it pays the penalty; the ranking marks it a bust).
BOMBED_OUT = "bomb_out"
CALLER_LOST = "caller_lost"


#: What the settlement reads of a rule set's own options (`RuleSet.game_options`), with the
#: value a rule set without such an option plays by.
VARIANTS_OFF: dict[str, Any] = {"holdem": False, "force_sabacc": False, "bomb_out_penalty": 0}


def variant(rules: RuleSet, name: str) -> Any:
    """The rule set's own option `name` (one of `VARIANTS_OFF`), or its value when off."""
    return getattr(rules.game_options, name, VARIANTS_OFF[name])


@dataclass(frozen=True)
class PlayerReveal(Showdown):
    """One player at classic's reveal, as SETTLE-API.md describes a request's `players[i]`:
    the showdown's fields and classic's own."""

    demise: tuple[str, ...] = ()  # the one card dealt in a sudden demise, once asked for
    static: tuple[str, ...] = ()  # Hold 'Em: which of `cards` are community cards
    side: Side | None = None  # Force Sabacc

    OWN_FIELDS: ClassVar[tuple[str, ...]] = ("demise", "static", "side")

    def tie_cards(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The sudden demise's card."""
        return (("demise", self.demise),)

    def check(self, rules: RuleSet, players: Sequence[Showdown], at: str) -> None:
        """One demise card at most; Hold 'Em's static cards are in the hand; Force Sabacc's side."""
        if len(self.demise) > 1:
            raise InvalidReveal("a sudden demise deals one card", f"{at}.demise")
        if self.static and not variant(rules, "holdem"):
            raise InvalidReveal("static is only used in Hold 'Em", f"{at}.static")
        held = Counter(rules.deck.card(c).code for c in self.cards)
        for k, code in enumerate(self.static):
            try:
                fixed = rules.deck.card(code).code
            except UnknownCard as exc:
                raise InvalidReveal(str(exc), f"{at}.static[{k}]") from None
            if held[fixed] <= 0:
                raise InvalidReveal(f"{fixed} is in the static field but not in the hand", f"{at}.static[{k}]")
            held[fixed] -= 1
        if variant(rules, "force_sabacc"):
            if self.side is None and not self.folded:
                raise InvalidReveal("Force Sabacc needs each player's side (light or dark)", f"{at}.side")
            if self.side is not None and self.side not in tuple(Side):
                raise InvalidReveal('side must be "light" or "dark"', f"{at}.side")
        elif self.side is not None:
            raise InvalidReveal("side is only used in Force Sabacc", f"{at}.side")

    def judged_with(self, rules: RuleSet, players: Sequence[Showdown]) -> dict[str, Any]:
        """The side the player plays, and in Hold 'Em the community cards (`_community`)."""
        return {"side": self.side, "community": _community(rules, players, self)}

    @classmethod
    def read_own(cls, deck: Deck, raw: Mapping[str, Any], at: str) -> dict[str, Any]:
        """A request's `demise` (one card, as a one-card list), `static` and `side`."""
        side = raw.get("side")
        if side is not None:
            try:
                side = Side(side) if isinstance(side, str) else None
            except ValueError:
                side = None
            if side is None:
                raise InvalidRequest('side must be "light" or "dark"', f"{at}.side")
        demise = read_cards(deck, raw.get("demise", []), f"{at}.demise", most=1)
        if "demise" in raw and not demise:
            raise InvalidRequest("a demise is one card, as a one-card list", f"{at}.demise")
        return {"demise": demise, "static": read_cards(deck, raw.get("static", []), f"{at}.static"), "side": side}

    @classmethod
    def check_rules(cls, rules: RuleSet) -> None:
        """A fixed bomb-out penalty is a whole number of credits a request may hold."""
        penalty = variant(rules, "bomb_out_penalty")
        if isinstance(penalty, int) and penalty > MAX_CREDITS:
            raise InvalidRequest(f"bomb_out_penalty may be at most {MAX_CREDITS} credits", "rules.bomb_out_penalty")

    # What the request's JSON Schema says of classic (its `schema` module; imported when asked,
    # since the schema reads the registry, which loads this module's game).

    @classmethod
    def own_schema(cls, card: Mapping[str, Any], rule_sets: Mapping[str, RuleSet]) -> dict[str, Any]:
        """The demise card, the static field and the side (`schema.own_fields`)."""
        from companion.games.classic import schema

        return schema.own_fields(card, rule_sets)

    @classmethod
    def option_schema(cls, whole: Mapping[str, Any]) -> dict[str, Any]:
        """The options SETTLE-API.md types (`schema.option_types`)."""
        from companion.games.classic import schema

        return schema.option_types(whole)

    @classmethod
    def penalty_reasons(cls) -> tuple[str, ...]:
        """Going over the limit, and calling without winning a contested pot."""
        return (BOMB_OUT, CALLER_LOST)

    @classmethod
    def tie_answer(cls, names: Mapping[str, Any],
                   rule_sets: Mapping[str, RuleSet]) -> tuple[str, dict[str, Any], str] | None:
        """The sudden demise's answer (`schema.sudden_demise`)."""
        from companion.games.classic import schema

        return schema.sudden_demise(names)


def _community(rules: RuleSet, players: Sequence[Showdown], player: Showdown) -> tuple[str, ...]:
    """Hold 'Em: the static-field cards of every *other* player still in the hand.

    Ruling: a folded player's static field went to the junk pile with the rest of their cards,
    so it is no longer community.
    """
    if not variant(rules, "holdem"):
        return ()
    return tuple(c for p in players if p is not player and not p.folded for c in getattr(p, "static", ()))


def settle(rules: RuleSet, players: Sequence[PlayerReveal], sabacc_pot: int, finish: Finish | None = None) -> Settlement:
    """Settle a called hand (see the module docstring for the walk-through and rulings).

    `players` are in seat order from the dealer's left. Returns a settled `Settlement`, or one
    with status `sudden_demise` naming the players who must be dealt a demise card. Raises
    `InvalidReveal` for input that cannot be settled, including a demise card nobody asked for.
    `finish`: another way to break the ties (by default the sudden demise and the penalties of
    RULES.md).
    """
    if finish is None and rules.hands.draw_key:
        raise InvalidReveal(f"{rules.title} breaks its ties in a way classic's settlement does not", "rules")
    return showdown(rules, players, sabacc_pot, finish or by_sudden_demise)


def by_sudden_demise(j: Judged) -> Settlement:
    """The end of classic's settlement: the sudden demise (RULES.md steps 3 and 4), then the
    bomb-out and caller penalties (steps 5 and 6)."""
    rules, names, judged = j.rules, j.names, j.judged
    players = cast(Sequence[PlayerReveal], j.players)
    for i, p in enumerate(players):
        if p.demise and i not in j.needed:
            raise InvalidReveal(f"{p.name} is not in a sudden demise: no demise card was asked for", f"players[{i}].demise")
    if any(not players[i].demise for i in j.needed):
        return Settlement(SUDDEN_DEMISE, j.hands, tie_players=tuple(names[i] for i in sorted(j.needed)),
                          tie_field=DEMISE_PLAYERS)
    demised = {
        i: rules.hands.evaluate(rules, players[i].cards + players[i].demise, **players[i].judged_with(rules, players))
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
