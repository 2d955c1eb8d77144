"""Corellian Spike's settlement (RULES-SPIKE.md "Settling a hand"): the reveal is judged as
every game played with a `RuleSet` judges it (the runtime's showdown, `judge_reveal`: the
checks, the pots, the hands and who is tied), then a tie is a blind draw (the runtime's
`draw_off`, by the drawn cards' `draw_rank`), and nobody pays a penalty at the reveal. A player
at Spike's reveal is its own `PlayerReveal`: the showdown's, with the cards of a blind draw::

    >>> from companion.games.spike.presets import PRESETS
    >>> tied = [PlayerReveal("Rey", ("+1", "+4", "-5"), committed=5),
    ...         PlayerReveal("Finn", ("-5", "+4", "+1"), committed=5)]
    >>> first = settle(PRESETS["spike"], tied, sabacc_pot=10)
    >>> first.status, first.tie_players
    ('blind_draw', ('Rey', 'Finn'))
    >>> from dataclasses import replace
    >>> drawn = [replace(tied[0], blind_draw=("-3",)), replace(tied[1], blind_draw=("+3",))]
    >>> s = settle(PRESETS["spike"], drawn, sabacc_pot=10)
    >>> s.pots[0].winners, s.sabacc_pot_winners, s.payouts
    (('Finn',), ('Finn',), {'Rey': 0, 'Finn': 20})
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence, cast

from companion.rules.decks import Deck
from companion.rules.rulesets import RuleSet
from companion.rules.settle import InvalidReveal, award, draw_off
from companion.rules.showdown import SETTLED, InvalidRequest, Judged, Settlement, read_cards
from companion.rules.showdown import PlayerReveal as Showdown
from companion.rules.showdown import settle as showdown

#: The answer's status while tied players must draw, and the field naming them.
BLIND_DRAW_STATUS = "blind_draw"
BLIND_DRAW_PLAYERS = "blind_draw_players"


@dataclass(frozen=True)
class PlayerReveal(Showdown):
    """One player at Spike's reveal: the showdown's fields and the cards of a blind draw."""

    blind_draw: tuple[str, ...] = ()  # a blind draw's cards, one a draw in order, once asked for

    OWN_FIELDS: ClassVar[tuple[str, ...]] = ("blind_draw",)

    def tie_cards(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The blind draw's cards."""
        return (("blind_draw", self.blind_draw),)

    def check(self, rules: RuleSet, players: Sequence[Showdown], at: str) -> None:
        """A player who junked draws no card."""
        if self.blind_draw and self.folded:
            raise InvalidReveal("a player who junked is in no blind draw", f"{at}.blind_draw")

    @classmethod
    def read_own(cls, deck: Deck, raw: Mapping[str, Any], at: str) -> dict[str, Any]:
        """A request's `blind_draw`: one card a draw, as a list."""
        blind_draw = read_cards(deck, raw.get("blind_draw", []), f"{at}.blind_draw")
        if "blind_draw" in raw and not blind_draw:
            raise InvalidRequest("a blind draw is one card a draw, as a list", f"{at}.blind_draw")
        return {"blind_draw": blind_draw}

    @classmethod
    def own_schema(cls, card: Mapping[str, Any], rule_sets: Mapping[str, RuleSet]) -> dict[str, Any]:
        """The blind draw's cards (`schema.own_fields`; imported when asked)."""
        from companion.games.spike import schema

        return schema.own_fields(card, rule_sets)

    @classmethod
    def tie_answer(cls, names: Mapping[str, Any],
                   rule_sets: Mapping[str, RuleSet]) -> tuple[str, dict[str, Any], str] | None:
        """The blind draw's answer (`schema.blind_draw`)."""
        from companion.games.spike import schema

        return schema.blind_draw(names)


def settle(rules: RuleSet, players: Sequence[PlayerReveal], sabacc_pot: int) -> Settlement:
    """Settle a Spike hand: settled, or status `blind_draw` naming (as `tie_players`) the
    players who must draw a card (another, when a draw tied again). Raises `InvalidReveal`."""
    return showdown(rules, players, sabacc_pot, by_blind_draw)


def by_blind_draw(j: Judged) -> Settlement:
    """The end of a Spike settlement: each tie broken by a blind draw (the cards drawn compare
    one draw at a time, closest to 0; a sylop beats everything; a positive card its negative),
    no penalties, and the sabacc pot to the showdown's winner when that hand may take it."""
    rules, names = j.rules, j.names
    players = cast(Sequence[PlayerReveal], j.players)
    for i, p in enumerate(players):
        if p.blind_draw and i not in j.needed:
            raise InvalidReveal(f"{p.name} is in no blind draw: no card was asked for", f"players[{i}].blind_draw")
    draws = {i: p.blind_draw for i, p in enumerate(players)}
    asked: set[int] = set()
    for tie in (*j.pot_ties, j.sabacc_tie):
        if len(tie) > 1:
            asked.update(draw_off(tie, draws, rules.hands.draw_rank)[1])
    if asked:
        return Settlement(BLIND_DRAW_STATUS, j.hands, tie_players=tuple(names[i] for i in sorted(asked)),
                          tie_field=BLIND_DRAW_PLAYERS)

    def resolve(tie: list[int], others: list[int]) -> list[int]:
        return tie if len(tie) <= 1 else draw_off(tie, draws, rules.hands.draw_rank)[0]

    received, pot_results, _, sabacc, sabacc_winners = award(
        names, j.built, j.pot_ties, j.sabacc_tie, j.standing, resolve, j.sabacc_pot)
    return Settlement(
        SETTLED,
        j.hands,
        pots=tuple(pot_results),
        sabacc_pot_winners=tuple(names[i] for i in sabacc_winners),
        sabacc_pot_after=sabacc,
        payouts={names[i]: received[i] for i in range(len(players))},
    )
