"""Differential test: our pots and side pots against PokerKit's, on random all-in hands.

PokerKit (a test-only dependency) plays random no-limit hands with uneven stacks, so players
go all-in for different amounts and some fold. When the betting is over and at least two
players reach the showdown, every bet has been collected, and each player's commitment is what
left their stack. `build_pots` must then build the same pots as PokerKit: the same amounts, in
the same order, each winnable by the same players.
"""

from __future__ import annotations

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from conftest import examples
from pokerkit import Automation, NoLimitTexasHoldem

from companion.rules.settle import build_pots

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.RUNOUT_COUNT_SELECTION,
)  # no showdown automation: the state stops at the showdown with the pots still on the table
# and every player's status (folded or not) as the betting left it


def play(stacks: list[int], data) -> object:
    """A PokerKit hand played to the end of its betting with actions Hypothesis picks."""
    state = NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (1, 2), 2, stacks, len(stacks))
    while state.actor_index is not None:
        action = data.draw(st.sampled_from(["fold", "call", "call", "all-in", "raise"]))
        if action == "fold" and state.can_fold():
            state.fold()
        elif action in ("all-in", "raise") and state.can_complete_bet_or_raise_to():
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            state.complete_bet_or_raise_to(high if action == "all-in" else data.draw(st.integers(low, high)))
        else:
            state.check_or_call()
    return state


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(stacks=st.lists(st.integers(3, 120), min_size=2, max_size=9), data=st.data())
def test_side_pots_match_pokerkit_on_random_all_in_hands(stacks, data):
    state = play(stacks, data)
    assume(sum(state.statuses) >= 2)  # a showdown: every bet collected into the pots
    assert not any(state.bets)
    names = [f"p{i}" for i in range(len(stacks))]
    committed = {names[i]: stacks[i] - state.stacks[i] for i in range(len(stacks))}
    folded = {names[i] for i in range(len(stacks)) if not state.statuses[i]}

    ours = [(pot.amount, pot.eligible) for pot in build_pots(committed, folded)]
    theirs = [(pot.amount, tuple(names[i] for i in pot.player_indices)) for pot in state.pots]
    event(f"{len(ours)} pot(s)")
    event("someone folded" if folded else "nobody folded")
    assert ours == theirs
    assert sum(amount for amount, _ in ours) == sum(committed.values())


def test_pokerkit_three_way_all_in_example():
    """A hand worked by hand: stacks 20, 50, 100 all-in pre-flop -> pots 60, 60, 0 excess back."""
    state = NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (1, 2), 2, (20, 50, 100), 3)
    # seat 2 (the button, first to act pre-flop with three players) shoves; both call
    state.complete_bet_or_raise_to(100)
    state.check_or_call()
    state.check_or_call()
    committed = {f"p{i}": s - t for i, (s, t) in enumerate(zip((20, 50, 100), state.stacks))}
    # 20 x 3 = 60 for everyone; 30 x 2 = 60 for p1 and p2; p2's other 50 was never matched
    assert committed == {"p0": 20, "p1": 50, "p2": 50}
    assert [(p.amount, p.eligible) for p in build_pots(committed)] == [
        (60, ("p0", "p1", "p2")),
        (60, ("p1", "p2")),
    ]
    assert [(p.amount, p.player_indices) for p in state.pots] == [(60, (0, 1, 2)), (60, (1, 2))]
