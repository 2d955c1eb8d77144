"""Hypothesis properties of settlement, over random reveals under every preset and variant.

- Credits are conserved: what the players receive plus the sabacc pot after equals what they
  committed plus the sabacc pot before plus the penalties paid.
- The result does not depend on the order in which the same cards are listed.
- Feeding the demise cards a response asks for always ends `settled` (there is no second
  demise), and a settled result never asked for one.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from conftest import examples

from companion.games.classic.cards import CARDS, DECK
from companion.games.classic.presets import PRESETS
from companion.games.classic.hands import Side
from companion.rules.rulesets import ruleset_from
from companion.games.classic.settle import PlayerReveal, settle
from companion.rules.settle import InvalidReveal

VARIANTS = [
    {},
    {"holdem": True},
    {"force_sabacc": True},
    {"corellia_run": True},
    {"fairy_empress": True},
    {"bomb_out_penalty": 7},
    {"negative_pure": False, "ranking": "closest-positive"},
    {"holdem": True, "force_sabacc": True},
]


@st.composite
def reveals(draw):
    """(rules, players, sabacc_pot, spare cards) for a random reveal that can be settled."""
    spec = {"preset": draw(st.sampled_from(list(PRESETS))), **draw(st.sampled_from(VARIANTS))}
    rules = ruleset_from(spec)
    deck = [c for c in DECK if not (rules.game_options.corellia_run and CARDS[c].is_face and CARDS[c].value)]
    deck = draw(st.permutations(deck))
    n = draw(st.integers(2, 7))
    folded = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if all(folded):
        folded[draw(st.integers(0, n - 1))] = False
    # small commitments so that several players share commitment levels (and side pots)
    committed = draw(st.lists(st.sampled_from([0, 1, 5, 10, 10, 20, 20, 35]), min_size=n, max_size=n))
    in_hand = [i for i in range(n) if not folded[i]]
    caller = draw(st.sampled_from([None, *in_hand]))
    players, at, used = [], 0, Counter()
    for i in range(n):
        size = 0 if folded[i] else draw(st.integers(2, 4))
        cards = ()
        if size and players and draw(st.booleans()):
            # a twin of an earlier hand (same ranks, other suits): ties, so sudden demises
            model = draw(st.sampled_from([p.cards for p in players if p.cards] or [()]))
            cards = twin(model, draw(st.integers(1, 3)), used)
        if size and not cards:
            cards = tuple(free(deck, used)[:size])
        used.update(cards)
        static = tuple(draw(st.lists(st.sampled_from(cards), unique=True, max_size=2))) if rules.game_options.holdem and cards else ()
        players.append(
            PlayerReveal(
                name=f"P{i}",
                cards=cards,
                committed=committed[i],
                stack=draw(st.none() | st.integers(0, 60)),
                folded=folded[i],
                called=caller == i,
                static=static,
                side=draw(st.sampled_from([Side.LIGHT, Side.DARK])) if rules.game_options.force_sabacc else None,
            )
        )
    return rules, players, draw(st.integers(0, 50)), free(deck, used)


def free(deck, used):
    """The cards of `deck` (in its order) not yet used, one entry per free copy."""
    left = Counter({c: CARDS[c].copies for c in deck}) - used
    out = []
    for c in deck:
        if left[c] > 0:
            out.append(c)
            left[c] -= 1
    return out


SUIT_ORDER = ("sa", "st", "fl", "co")


def twin(model, shift, used):
    """The same ranks as `model` in suits moved `shift` places; () if a card is not free."""
    out = []
    for code in model:
        c = CARDS[code]
        if c.suit is not None:
            code = SUIT_ORDER[(SUIT_ORDER.index(c.suit.prefix) + shift) % 4] + str(c.value)
        if used[code] + out.count(code) >= CARDS[code].copies:
            return ()
        out.append(code)
    return tuple(out)


def settle_fully(rules, players, sabacc_pot, spare):
    """Settle, dealing the demise cards from `spare` when asked. Returns (first, final, players)."""
    first = settle(rules, players, sabacc_pot)
    if first.status == "settled":
        return first, first, players
    dealt = dict(zip(first.tie_players, spare))
    players = [replace(p, demise=(dealt[p.name],)) if p.name in dealt else p for p in players]
    return first, settle(rules, players, sabacc_pot), players


PROPERTY = settings(max_examples=examples(200), deadline=None)


@PROPERTY
@given(reveals())
def test_credits_are_conserved(reveal):
    rules, players, sabacc_pot, spare = reveal
    _, s, _ = settle_fully(rules, players, sabacc_pot, spare)
    paid = {p.name: p.amount for p in s.penalties}
    received = {name: payout + paid.get(name, 0) for name, payout in s.payouts.items()}
    assert sum(received.values()) + s.sabacc_pot_after == (
        sum(p.committed for p in players) + sabacc_pot + sum(paid.values())
    )
    assert sum(s.payouts.values()) + s.sabacc_pot_after == sum(p.committed for p in players) + sabacc_pot
    # everything the pots held was either won or moved to the sabacc pot
    assert sum(pot.amount for pot in s.pots) == sum(p.committed for p in players)
    for p in players:
        assert received[p.name] >= 0
        if p.stack is not None:
            assert p.stack + s.payouts[p.name] >= 0  # nobody pays more than they have
    assert len(paid) == len(s.penalties)  # one penalty per player at most
    assert all(pen.amount >= 0 and pen.shortfall >= 0 for pen in s.penalties)


@PROPERTY
@given(reveals(), st.randoms(use_true_random=False))
def test_result_does_not_depend_on_the_order_cards_are_listed(reveal, rnd):
    rules, players, sabacc_pot, spare = reveal
    shuffled = []
    for p in players:
        cards, static = list(p.cards), list(p.static)
        rnd.shuffle(cards)
        rnd.shuffle(static)
        shuffled.append(replace(p, cards=tuple(cards), static=tuple(static)))
    first_a, final_a, _ = settle_fully(rules, players, sabacc_pot, spare)
    first_b, final_b, _ = settle_fully(rules, shuffled, sabacc_pot, spare)
    assert first_a.to_json() == first_b.to_json()
    assert final_a.to_json() == final_b.to_json()


@PROPERTY
@given(reveals())
def test_feeding_demise_cards_when_asked_always_ends_settled(reveal):
    rules, players, sabacc_pot, spare = reveal
    first, final, dealt = settle_fully(rules, players, sabacc_pot, spare)
    event(first.status)
    assert final.status == "settled"
    if first.status == "sudden_demise":
        assert len(first.tie_players) >= 2
        assert not first.pots and not first.payouts
    # the settled answer is the same when asked again with the same cards: nothing more needed
    assert settle(rules, dealt, sabacc_pot) == final
    if first.status == "settled" and spare:
        # a hand that settled without a demise refuses any demise card
        extra = [replace(p, demise=(spare[0],)) if k == 0 else p for k, p in enumerate(players)]
        with pytest.raises(InvalidReveal):
            settle(rules, extra, sabacc_pot)
