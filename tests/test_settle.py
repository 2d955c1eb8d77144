"""Settling a called hand: one test per step and ruling of RULES.md "Settling a called hand".

Every expectation is worked out by hand in the comment beside it.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.classic.presets import PRESETS
from companion.rules.rulesets import ruleset_from
from companion.games.classic.settle import Penalty, PlayerReveal, settle
from companion.rules.settle import InvalidReveal, PotResult, build_pots

CLASSIC = PRESETS["classic"]
PAGAT = PRESETS["pagat"]
HOLODEX = PRESETS["holodex"]

BUST = ("co15", "sa10")  # 25: bombs out
BUST2 = ("fl15", "st10")  # 25
NINETEEN = ("co10", "sa9")
NINETEEN2 = ("fl10", "st9")
TWENTY_ONE = ("co11", "sa10")
PURE = ("co15", "sa8")  # +23
PURE2 = ("fl15", "st8")  # +23
MINUS_PURE = ("star", "endurance", "sa2")  # -23


def P(name, cards, committed, **kw):
    return PlayerReveal(name, tuple(cards), committed, **kw)


def with_demise(players, **cards):
    return [replace(p, demise=(cards[p.name],)) if p.name in cards else p for p in players]


def conserved(s, players, sabacc_pot):
    return sum(s.payouts.values()) + s.sabacc_pot_after == sum(p.committed for p in players) + sabacc_pot


# 1. Pots from commitment levels ----------------------------------------------------------------

def test_pots_are_built_from_commitment_levels_like_poker():
    # levels 10 and 30: 10 x 3 = 30 for everyone; 20 x 2 = 40 for Han and Leia
    pots = build_pots({"Lando": 10, "Han": 30, "Leia": 30})
    assert [(p.amount, p.eligible) for p in pots] == [(30, ("Lando", "Han", "Leia")), (40, ("Han", "Leia"))]


def test_a_folded_players_credits_stay_in_the_pots_they_reached():
    # Chewie folded at 10: levels 10 and 30 have the same eligible players -> one pot of 70
    pots = build_pots({"Lando": 30, "Han": 30, "Chewie": 10}, folded={"Chewie"})
    assert [(p.amount, p.eligible) for p in pots] == [(70, ("Lando", "Han"))]


def test_side_pot_goes_to_the_best_hand_among_those_who_reached_it():
    players = [P("Lando", PURE, 10), P("Han", TWENTY_ONE, 30), P("Leia", NINETEEN, 30, called=True)]
    s = settle(CLASSIC, players, 0)
    # main pot 30 -> Lando (Pure); side pot 40 -> Han (21 beats 19); Leia called and won nothing
    assert s.pots == (
        PotResult(30, ("Lando", "Han", "Leia"), ("Lando",)),
        PotResult(40, ("Han", "Leia"), ("Han",)),
    )
    assert s.sabacc_pot_winners == ("Lando",)
    assert s.penalties == (Penalty("Leia", "caller_lost", 70, 0),)  # hand pot 30 + 40


def test_uncontested_pot_is_returned_even_to_a_player_who_bombed_out():
    # Lando 50, Han 30: pot 60 (both) and 20 (Lando only). Lando bombs out, stack 0:
    # he gets his 20 back, then pays the hand pot 60 capped at 0 + 20 -> 20, shortfall 40
    players = [P("Lando", BUST, 50, stack=0), P("Han", NINETEEN, 30, called=True)]
    s = settle(CLASSIC, players, 0)
    assert s.pots == (PotResult(60, ("Lando", "Han"), ("Han",)), PotResult(20, ("Lando",), ("Lando",)))
    assert s.penalties == (Penalty("Lando", "bomb_out", 20, 40),)
    assert s.payouts == {"Lando": 0, "Han": 60}
    assert s.sabacc_pot_after == 20


# 2. Conceded hand ---------------------------------------------------------------------------------

def test_conceded_hand_last_player_takes_every_pot_shows_nothing_pays_nothing():
    players = [P("Lando", (), 10, folded=True), P("Han", (), 20, folded=True), P("Leia", PURE, 20)]
    s = settle(CLASSIC, players, 40)
    assert [(h.name, h.total, h.kind) for h in s.hands] == [
        ("Lando", None, "folded"), ("Han", None, "folded"), ("Leia", None, "conceded")
    ]
    # 10 + 20 + 20; the sabacc pot stays: a conceded hand cannot win it
    assert s.payouts == {"Lando": 0, "Han": 0, "Leia": 50}
    assert s.sabacc_pot_winners == () and s.penalties == () and s.sabacc_pot_after == 40


def test_conceded_hand_with_bust_cards_still_pays_nothing():
    s = settle(CLASSIC, [P("Lando", (), 5, folded=True), P("Han", BUST, 5, called=True)], 0)
    assert s.payouts == {"Lando": 0, "Han": 10} and s.penalties == ()


# 3. Best hand, sudden demise, splits ----------------------------------------------------------------

def test_sudden_demise_asks_for_a_card_for_each_tied_player():
    players = [P("Lando", NINETEEN, 10), P("Han", NINETEEN2, 10), P("Leia", ("co2", "sa3"), 10)]
    s = settle(CLASSIC, players, 0)
    assert s.status == "sudden_demise" and s.tie_players == ("Lando", "Han")
    assert s.to_json() == {
        "status": "sudden_demise",
        "demise_players": ["Lando", "Han"],
        "hands": [
            {"name": "Lando", "total": 19, "kind": "ordinary"},
            {"name": "Han", "total": 19, "kind": "ordinary"},
            {"name": "Leia", "total": 5, "kind": "ordinary"},
        ],
    }


def test_sudden_demise_best_modified_hand_wins():
    players = [P("Lando", NINETEEN, 10), P("Han", NINETEEN2, 10), P("Leia", ("co2", "sa3"), 10)]
    s = settle(CLASSIC, with_demise(players, Lando="co1", Han="fl3"), 0)  # 20 vs 22
    assert s.status == "settled" and s.pots[0].winners == ("Han",)
    assert s.payouts == {"Lando": 0, "Han": 30, "Leia": 0}


def test_a_player_who_bombs_out_in_a_demise_pays_no_bomb_out_penalty():
    players = [P("Lando", NINETEEN, 10), P("Han", NINETEEN2, 10)]
    s = settle(CLASSIC, with_demise(players, Lando="co5", Han="fl1"), 0)  # 24 bombs; 20
    assert s.pots[0].winners == ("Han",) and s.penalties == ()
    assert [h.kind for h in s.hands] == ["ordinary", "ordinary"]  # judged at the reveal


@pytest.mark.parametrize("order", ["Lando first", "Han first"])
def test_split_odd_credits_one_at_a_time_in_seat_order_from_the_dealers_left(order):
    players = [P("Lando", NINETEEN, 10), P("Han", NINETEEN2, 10), P("Chewie", (), 5, folded=True)]
    if order == "Han first":
        players = [players[1], players[0], players[2]]
    s = settle(CLASSIC, with_demise(players, Lando="co1", Han="fl1"), 0)  # 20 and 20: still tied
    first, second = (players[0].name, players[1].name)
    # 25 split two ways: 12 each, the odd credit to the first of them from the dealer's left
    assert s.payouts[first] == 13 and s.payouts[second] == 12
    assert s.pots[0].winners == (first, second)


def test_odd_credits_three_ways():
    players = [P("A", ("co10", "sa9"), 10), P("B", ("fl10", "st9"), 10), P("C", ("co9", "st10"), 10),
               P("D", (), 2, folded=True)]
    s = settle(CLASSIC, with_demise(players, A="co1", B="fl1", C="st1"), 0)
    # 32 three ways: 10 each and 2 odd credits to A then B
    assert s.payouts == {"A": 11, "B": 11, "C": 10, "D": 0}


def test_every_demise_player_bombs_out_pot_goes_to_the_best_other_hand():
    players = [P("Lando", NINETEEN, 10), P("Han", NINETEEN2, 10), P("Leia", ("co12", "sa3"), 10)]
    s = settle(CLASSIC, with_demise(players, Lando="co15", Han="fl15"), 0)  # 34 and 34
    assert s.pots[0].winners == ("Leia",)  # 15, no second demise
    assert s.payouts == {"Lando": 0, "Han": 0, "Leia": 30}


def test_every_demise_player_bombs_out_and_nobody_else_can_win_pot_to_sabacc_pot():
    players = [P("Lando", NINETEEN, 10), P("Han", NINETEEN2, 10), P("Leia", ("co14", "sa11"), 10)]
    s = settle(CLASSIC, with_demise(players, Lando="co15", Han="fl15"), 5)
    assert s.pots == (PotResult(30, ("Lando", "Han", "Leia"), (), True),)
    # Leia bombed out at the reveal: pays the hand pot, 30; sabacc pot 5 + 30 + 30
    assert s.penalties == (Penalty("Leia", "bomb_out", 30, 0),)
    assert s.sabacc_pot_after == 65


def test_a_side_pot_that_nobody_eligible_can_win_moves_to_the_sabacc_pot():
    players = [P("Lando", NINETEEN, 10), P("Han", BUST, 30), P("Leia", BUST2, 30, called=True)]
    s = settle(CLASSIC, players, 0)
    assert s.pots == (
        PotResult(30, ("Lando", "Han", "Leia"), ("Lando",)),
        PotResult(40, ("Han", "Leia"), (), True),
    )
    # hand pot 70; Han and Leia pay 70 each (Leia once, as a bomb-out, though she called)
    assert s.penalties == (Penalty("Han", "bomb_out", 70, 0), Penalty("Leia", "bomb_out", 70, 0))
    assert s.sabacc_pot_after == 40 + 140
    assert s.payouts == {"Lando": 30, "Han": -70, "Leia": -70}


def test_ruling_a_pot_moved_to_the_sabacc_pot_is_won_with_it_in_full():
    players = [P("Lando", PURE, 10), P("Han", ("co14", "sa11"), 30), P("Leia", BUST2, 30)]
    s = settle(CLASSIC, players, 20)
    # Lando: main pot 30, sabacc pot 20 + the side pot 40 that moved there in step 3
    assert s.sabacc_pot_winners == ("Lando",)
    assert s.payouts == {"Lando": 90, "Han": -70, "Leia": -70}
    assert s.sabacc_pot_after == 140


def test_ruling_a_level_only_folded_players_reached_moves_to_the_sabacc_pot():
    players = [P("Chewie", (), 50, folded=True), P("Han", TWENTY_ONE, 30), P("Leia", NINETEEN, 30)]
    s = settle(CLASSIC, players, 0)
    assert s.pots == (PotResult(90, ("Han", "Leia"), ("Han",)), PotResult(20, (), (), True))
    assert s.sabacc_pot_after == 20 and s.payouts["Han"] == 90


# 4. The sabacc pot ----------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "cards, wins_sabacc_pot",
    [(PURE, True), (("idiot", "st2", "co3"), True), (TWENTY_ONE, False), (MINUS_PURE, True)],
)
def test_sabacc_pot_goes_only_to_idiots_array_or_pure_sabacc(cards, wins_sabacc_pot):
    players = [P("Lando", cards, 10), P("Han", ("co2", "sa3"), 10)]
    s = settle(CLASSIC, players, 40)
    assert s.pots[0].winners == ("Lando",)
    assert s.sabacc_pot_winners == (("Lando",) if wins_sabacc_pot else ())
    assert s.sabacc_pot_after == (0 if wins_sabacc_pot else 40)


def test_fairy_empress_wins_the_hand_but_never_the_sabacc_pot():
    players = [P("Lando", ("queen", "queen"), 10), P("Han", ("co11", "sa11"), 10)]
    s = settle(HOLODEX, players, 40)
    assert s.pots[0].winners == ("Lando",) and s.sabacc_pot_winners == ()
    assert s.payouts == {"Lando": 20, "Han": 0} and s.sabacc_pot_after == 40


def test_tied_pure_sabacc_demise_decides_both_pots():
    # pagat (highest): +23 and -23 tie; Lando +co1 = 24 bombs, Han +co9 = -14 wins both pots
    players = [P("Lando", PURE, 10), P("Han", MINUS_PURE, 10), P("Leia", NINETEEN, 10)]
    asked = settle(PAGAT, players, 30)
    assert asked.tie_players == ("Lando", "Han")
    s = settle(PAGAT, with_demise(players, Lando="co1", Han="co9"), 30)
    assert s.pots[0].winners == ("Han",) and s.sabacc_pot_winners == ("Han",)
    assert s.payouts == {"Lando": 0, "Han": 60, "Leia": 0} and s.sabacc_pot_after == 0


def test_tied_pure_sabacc_still_tied_after_demise_split_the_sabacc_pot():
    players = [P("Lando", PURE, 10), P("Han", PURE2, 10), P("Leia", NINETEEN, 10)]
    s = settle(CLASSIC, with_demise(players, Lando="star", Han="star"), 31)  # 6 and 6
    # pot 30: 15 each; sabacc pot 31: 16 to Lando (first from the dealer's left), 15 to Han
    assert s.sabacc_pot_winners == ("Lando", "Han")
    assert s.payouts == {"Lando": 31, "Han": 30, "Leia": 0} and s.sabacc_pot_after == 0


def test_tied_pure_sabacc_nobody_survives_demise_nobody_wins_the_sabacc_pot():
    players = [P("Lando", PURE, 10), P("Han", PURE2, 10), P("Leia", NINETEEN, 10, called=True)]
    s = settle(CLASSIC, with_demise(players, Lando="co1", Han="fl1"), 30)  # 24 and 24
    assert s.pots[0].winners == ("Leia",) and s.sabacc_pot_winners == ()
    assert s.penalties == ()  # Leia called and won; demise bomb-outs pay nothing
    assert s.sabacc_pot_after == 30


def test_sabacc_pot_is_not_split_between_side_pots():
    # Lando all-in short with Pure: wins the main pot and the whole sabacc pot; Han the side pot
    players = [P("Lando", PURE, 5), P("Han", TWENTY_ONE, 20), P("Leia", NINETEEN, 20)]
    s = settle(CLASSIC, players, 100)
    assert s.payouts == {"Lando": 15 + 100, "Han": 30, "Leia": 0}


# 5. Penalties --------------------------------------------------------------------------------------

def test_bomb_out_penalty_is_the_hand_pot_paid_to_the_sabacc_pot():
    players = [P("Lando", BUST, 30, stack=120), P("Han", NINETEEN, 30, called=True)]
    s = settle(CLASSIC, players, 10)
    assert s.penalties == (Penalty("Lando", "bomb_out", 60, 0),)
    assert s.sabacc_pot_after == 70 and s.payouts == {"Lando": -60, "Han": 60}


def test_bomb_out_penalty_fixed_amount_option():
    rules = ruleset_from({"preset": "classic", "bomb_out_penalty": 5})
    s = settle(rules, [P("Lando", BUST, 30), P("Han", NINETEEN, 30)], 0)
    assert s.penalties == (Penalty("Lando", "bomb_out", 5, 0),) and s.sabacc_pot_after == 5


def test_penalty_capped_at_stack_plus_received_with_shortfall_reported():
    s = settle(CLASSIC, [P("Lando", BUST, 30, stack=20), P("Han", NINETEEN, 30)], 0)
    assert s.penalties == (Penalty("Lando", "bomb_out", 20, 40),)
    assert s.payouts["Lando"] == -20 and s.sabacc_pot_after == 20


def test_penalty_cap_counts_what_the_player_receives_in_this_settlement():
    # the caller loses the main pot but gets an uncontested excess back: Lando 40 (stack 0), Han 30
    players = [P("Lando", NINETEEN, 40, stack=0, called=True), P("Han", TWENTY_ONE, 30)]
    s = settle(CLASSIC, players, 0)
    # pots 60 (both) -> Han; 10 (Lando) -> Lando; caller lost: hand pot 60 capped at 0 + 10
    assert s.penalties == (Penalty("Lando", "caller_lost", 10, 50),)
    assert s.payouts == {"Lando": 0, "Han": 60}


def test_caller_who_wins_no_share_of_a_contested_pot_pays():
    s = settle(CLASSIC, [P("Lando", NINETEEN, 20, called=True), P("Han", TWENTY_ONE, 20)], 0)
    assert s.penalties == (Penalty("Lando", "caller_lost", 40, 0),)


def test_caller_who_wins_a_share_pays_nothing():
    players = [P("Lando", NINETEEN, 20, called=True), P("Han", NINETEEN2, 20)]
    s = settle(CLASSIC, with_demise(players, Lando="co2", Han="fl2"), 0)  # 21 and 21: split
    assert s.penalties == () and s.payouts == {"Lando": 20, "Han": 20}


def test_a_player_pays_one_penalty_at_most():
    s = settle(CLASSIC, [P("Lando", BUST, 20, called=True), P("Han", NINETEEN, 20)], 0)
    assert s.penalties == (Penalty("Lando", "bomb_out", 40, 0),)


# 6. Everyone bombs out -----------------------------------------------------------------------------

def test_everyone_bombs_out_hand_pot_to_sabacc_pot_and_everyone_pays():
    players = [P("Lando", BUST, 10), P("Han", BUST2, 10, called=True)]
    s = settle(CLASSIC, players, 5)
    assert s.pots == (PotResult(20, ("Lando", "Han"), (), True),)
    assert s.penalties == (Penalty("Lando", "bomb_out", 20, 0), Penalty("Han", "bomb_out", 20, 0))
    assert s.sabacc_pot_after == 5 + 20 + 40 and s.payouts == {"Lando": -20, "Han": -20}


# Demise exchange rules -------------------------------------------------------------------------------

def test_an_unneeded_demise_card_is_refused():
    with pytest.raises(InvalidReveal) as err:
        settle(CLASSIC, [P("Lando", NINETEEN, 10), P("Han", TWENTY_ONE, 10, demise=("co1",))], 0)
    assert err.value.field == "players[1].demise"


def test_a_demise_card_for_a_player_outside_the_demise_is_refused():
    players = [P("Lando", NINETEEN, 10), P("Han", NINETEEN2, 10), P("Leia", ("co2", "sa3"), 10)]
    with pytest.raises(InvalidReveal) as err:
        settle(CLASSIC, with_demise(players, Lando="co1", Han="fl1", Leia="st1"), 0)
    assert err.value.field == "players[2].demise"


def test_a_partial_set_of_demise_cards_is_asked_for_again():
    players = [P("Lando", NINETEEN, 10), P("Han", NINETEEN2, 10)]
    s = settle(CLASSIC, with_demise(players, Lando="co1"), 0)
    assert s.status == "sudden_demise" and s.tie_players == ("Lando", "Han")


def test_demise_cards_count_in_the_copies_across_the_table():
    players = [P("Lando", NINETEEN, 10), P("Han", NINETEEN2, 10)]
    with pytest.raises(InvalidReveal) as err:
        settle(CLASSIC, with_demise(players, Lando="co1", Han="co10"), 0)
    assert err.value.field == "players[1].demise[0]"


# Variants in settlement ------------------------------------------------------------------------------

HOLDEM = ruleset_from({"preset": "classic", "holdem": True})


def test_holdem_static_cards_are_community_for_everyone_else():
    # Lando 10 + 8 = 18, + Han's static fl5 = 23; Han 5 + 2 = 7 with nothing to borrow
    players = [P("Lando", ("co10", "sa8"), 10), P("Han", ("fl5", "st2"), 10, static=("fl5",))]
    s = settle(HOLDEM, players, 40)
    assert [(h.total, h.kind) for h in s.hands] == [(23, "pure_sabacc"), (7, "ordinary")]
    assert s.sabacc_pot_winners == ("Lando",)


def test_ruling_holdem_a_folded_players_static_field_is_not_community():
    players = [P("Lando", ("co10", "sa8"), 10), P("Han", ("fl4", "st2"), 10),
               P("Chewie", ("fl5",), 5, folded=True, static=("fl5",))]
    s = settle(HOLDEM, players, 0)
    assert s.hands[0].total == 18


FORCE = ruleset_from({"preset": "classic", "force_sabacc": True})


def test_force_sabacc_light_and_dark_pure_sabacc_tie_to_a_demise():
    players = [P("Luke", ("sa10", "co13"), 10, side="light"), P("Vader", ("fl10", "st13"), 10, side="dark")]
    s = settle(FORCE, players, 20)
    assert s.status == "sudden_demise" and [h.total for h in s.hands] == [23, -23]
    # Luke +co1 = 24 bombs; Vader +fl1 = -24: judged 24, bombs too -> nobody wins the sabacc pot,
    # and there is no other hand: the pot moves to the sabacc pot
    s = settle(FORCE, with_demise(players, Luke="co1", Vader="fl1"), 20)
    assert s.sabacc_pot_winners == () and s.pots[0].to_sabacc_pot and s.sabacc_pot_after == 40


def test_force_sabacc_missing_side_is_refused():
    with pytest.raises(InvalidReveal) as err:
        settle(FORCE, [P("Luke", PURE, 10, side="light"), P("Vader", NINETEEN, 10)], 0)
    assert err.value.field == "players[1].side"


CORELLIA = ruleset_from({"preset": "pagat", "corellia_run": True})


def test_corellia_run_zero_is_sabacc_and_wins_both_pots():
    players = [P("Lando", ("co3", "sa2"), 10), P("Han", ("co5", "sa5"), 10)]  # 1 and 0
    s = settle(CORELLIA, players, 40)
    assert s.pots[0].winners == ("Han",) and s.sabacc_pot_winners == ("Han",)
    assert s.payouts == {"Lando": 0, "Han": 60}


def test_corellia_run_set_aside_face_card_is_refused():
    with pytest.raises(InvalidReveal) as err:
        settle(CORELLIA, [P("Lando", ("co3", "star"), 10), P("Han", ("co5", "sa5"), 10)], 0)
    assert err.value.field == "players[0].cards[1]"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_settles_the_api_example(preset):
    players = [P("Lando", ("co7", "sa11", "fl9"), 30, stack=120), P("Han", ("idiot", "st2", "co3"), 30, stack=45, called=True),
               P("Chewie", (), 10, stack=80, folded=True)]
    s = settle(PRESETS[preset], players, 40)
    assert s.payouts == {"Lando": -70, "Han": 110, "Chewie": 0} and s.sabacc_pot_after == 70
    assert conserved(s, players, 40)


def test_the_doctests_walk_real_hands():
    import doctest

    from companion.games.classic import hands
    from companion.rules import request, settle as settle_module

    for module in (hands, settle_module, request):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_conceded_hand_the_last_player_may_show_no_cards():
    s = settle(CLASSIC, [P("Lando", (), 5, folded=True), P("Han", (), 5)], 10)
    assert s.status == "settled"
    assert [(h.name, h.kind) for h in s.hands] == [("Lando", "folded"), ("Han", "conceded")]
    assert s.payouts == {"Lando": 0, "Han": 10} and s.sabacc_pot_after == 10


# Worked by hand: several steps at once -------------------------------------------------------------

def test_side_pots_with_a_demise_in_the_main_pot_and_a_bomb_out_paying_the_whole_hand_pot():
    # Classic. A all-in for 10 (stack 0), B 30 (caller, stack 5), C 30 (bombs: 15 + 9 = 24),
    # D folded after 5. Levels 5 and 10 are one pot, 5 x 4 + 5 x 3 = 35, for A, B, C; level 30
    # is 20 x 2 = 40 for B and C. Hand pot 75. A and B tie at 20 for the main pot.
    players = [P("A", ("co10", "sa10"), 10, stack=0), P("B", ("fl10", "st10"), 30, stack=5, called=True),
               P("C", ("co15", "fl9"), 30, stack=100), P("D", (), 5, folded=True)]
    assert settle(CLASSIC, players, 10).tie_players == ("A", "B")
    # A is dealt a 5 (25, out of the demise), B a 1 (21): B takes 35 and, alone against the
    # bombed-out C, the side pot 40. C pays 75. B won a contested pot: no caller penalty.
    s = settle(CLASSIC, with_demise(players, A="co5", B="sa1"), 10)
    assert [pot.winners for pot in s.pots] == [("B",), ("B",)]
    assert s.penalties == (Penalty("C", "bomb_out", 75, 0),)
    assert s.payouts == {"A": 0, "B": 75, "C": -75, "D": 0} and s.sabacc_pot_after == 10 + 75
    # Both bomb out in the demise (25 and 25): the main pot has nobody left who did not bomb
    # out (C bombed at the reveal): it moves to the sabacc pot; B still takes the side pot.
    s = settle(CLASSIC, with_demise(players, A="co5", B="sa5"), 10)
    assert s.pots[0] == PotResult(35, ("A", "B", "C"), (), True)
    assert s.payouts == {"A": 0, "B": 40, "C": -75, "D": 0} and s.sabacc_pot_after == 10 + 35 + 75


def test_everyone_bombs_out_each_pays_the_hand_pot_capped_at_what_they_have():
    # Same seats, all bombed out at the reveal (24, 25, and 2 - 2 = 0). Both pots (35, 40) go to
    # the sabacc pot. Penalty 75 each: A has 0 (pays 0, 75 short), B has 5 (pays 5, 70 short;
    # one penalty although he also called), C pays 75. Sabacc pot 10 + 75 + 0 + 5 + 75 = 165.
    players = [P("A", ("co15", "sa9"), 10, stack=0), P("B", ("fl15", "st10"), 30, stack=5, called=True),
               P("C", ("co2", "queen"), 30, stack=100), P("D", (), 5, folded=True)]
    s = settle(CLASSIC, players, 10)
    assert all(pot.to_sabacc_pot for pot in s.pots)
    assert s.penalties == (Penalty("A", "bomb_out", 0, 75), Penalty("B", "bomb_out", 5, 70),
                           Penalty("C", "bomb_out", 75, 0))
    assert s.payouts == {"A": 0, "B": -5, "C": -75, "D": 0} and s.sabacc_pot_after == 165


def test_losing_caller_penalty_capped_when_the_whole_demise_bombs_out():
    # A (caller, stack 3) and B tie at 19; C bombs out (27). A and B both reach 24 in the
    # demise: the pot of 60 has nobody left and moves to the sabacc pot. A called and won
    # nothing: 60 capped at 3; C pays 60; B's demise bomb-out costs nothing. 5 + 60 + 3 + 60.
    players = [P("A", NINETEEN, 20, stack=3, called=True), P("B", NINETEEN2, 20), P("C", ("co15", "fl12"), 20, stack=100)]
    s = settle(CLASSIC, with_demise(players, A="co5", B="fl5"), 5)
    assert s.penalties == (Penalty("A", "caller_lost", 3, 57), Penalty("C", "bomb_out", 60, 0))
    assert s.payouts == {"A": -3, "B": 0, "C": -60} and s.sabacc_pot_after == 128


def test_fairy_empress_loses_to_minus_23_pure_sabacc_which_takes_both_pots():
    # Holodex: -23 is Pure Sabacc (Star -17, Endurance -8, 2 of Sabers). It beats the Fairy
    # Empress (-4) and takes the hand pot, 20, and the sabacc pot, 5.
    s = settle(HOLODEX, [P("Lando", ("queen", "queen"), 10), P("Han", MINUS_PURE, 10, called=True)], 5)
    assert [(h.total, h.kind) for h in s.hands] == [(-4, "fairy_empress"), (-23, "pure_sabacc")]
    assert s.sabacc_pot_winners == ("Han",) and s.payouts == {"Lando": 0, "Han": 25}
