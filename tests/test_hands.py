"""Hand evaluation, table-driven, one test per rule of RULES.md "Hands" and "Variants".

Totals in comments are worked out by hand from the card values (suited cards count their
rank, face cards their printed value; the variants re-sign them as RULES.md says).
"""

from __future__ import annotations

import time

import pytest

from companion.games.classic.hands import InvalidHand, Kind, evaluate
from companion.games.classic.presets import PRESETS
from companion.rules.rulesets import ruleset_from

ALL = list(PRESETS)
ARRAY = ["idiot", "st2", "co3"]  # 0 + 2 + 3
PLUS_23 = ["co15", "sa8"]  # 15 + 8
MINUS_23 = ["star", "endurance", "sa2"]  # -17 - 8 + 2
PLUS_22 = ["co11", "sa11"]
MINUS_22 = ["star", "balance", "co6"]  # -17 - 11 + 6
PLUS_20 = ["co10", "sa10"]
MINUS_20 = ["evil-one", "endurance", "st3"]  # -15 - 8 + 3
FAIRY = ["queen", "queen"]


def kind_total(rules, cards, **kw):
    h = evaluate(rules, cards, **kw)
    return h.kind, h.total


def wins(rules, a, b, **kw):
    return evaluate(rules, a, **kw).beats(evaluate(rules, b, **kw))


def ties(rules, a, b):
    return evaluate(rules, a).rank == evaluate(rules, b).rank


@pytest.mark.parametrize("preset", ALL)
def test_idiots_array_beats_everything(preset):
    rules = PRESETS[preset]
    assert kind_total(rules, ARRAY) == (Kind.IDIOTS_ARRAY, 5)
    for other in (PLUS_23, MINUS_23, PLUS_22, FAIRY):
        assert wins(rules, ARRAY, other)


@pytest.mark.parametrize(
    "cards, kind, total",
    [
        (["idiot", "sa2", "sa3"], Kind.IDIOTS_ARRAY, 5),  # same suit is fine
        (["idiot", "st2", "co3", "co1"], Kind.ORDINARY, 6),  # four cards: not an Array
        (["idiot", "st2"], Kind.ORDINARY, 2),
        (["idiot", "idiot", "co5"], Kind.ORDINARY, 5),
        (["idiot", "st2", "co4"], Kind.ORDINARY, 6),
    ],
)
def test_idiots_array_is_exactly_idiot_suited_two_suited_three(cards, kind, total):
    assert kind_total(PRESETS["classic"], cards) == (kind, total)


@pytest.mark.parametrize("preset", ALL)
def test_plus_23_is_pure_sabacc_in_every_preset(preset):
    assert kind_total(PRESETS[preset], PLUS_23) == (Kind.PURE_SABACC, 23)


@pytest.mark.parametrize(
    "preset, kind", [("weg", Kind.ORDINARY), ("classic", Kind.PURE_SABACC), ("holodex", Kind.PURE_SABACC),
                     ("pagat", Kind.PURE_SABACC), ("pagat-d6", Kind.PURE_SABACC)]
)
def test_minus_23_is_pure_sabacc_only_where_the_rule_set_says(preset, kind):
    assert kind_total(PRESETS[preset], MINUS_23) == (kind, -23)


def test_weg_minus_23_is_the_weakest_hand_under_highest():
    assert wins(PRESETS["weg"], MINUS_22, MINUS_23)


@pytest.mark.parametrize(
    "preset, outcome", [("weg", "+"), ("classic", "+"), ("holodex", "-"), ("pagat", "tie"), ("pagat-d6", "tie")]
)
def test_the_sign_rule_orders_plus_and_minus_23(preset, outcome):
    rules = PRESETS[preset]
    if outcome == "tie":
        assert ties(rules, PLUS_23, MINUS_23)
    elif outcome == "+":
        assert wins(rules, PLUS_23, MINUS_23)
    else:
        assert wins(rules, MINUS_23, PLUS_23)


@pytest.mark.parametrize("preset", ALL)
@pytest.mark.parametrize(
    "cards, total",
    [
        (["co15", "sa9"], 24),
        (["star", "evil-one"], -32),
        (["co5", "star", "co12"], 0),  # 5 - 17 + 12
        (["idiot", "idiot"], 0),
    ],
)
def test_bomb_out_over_23_under_minus_23_or_exactly_0(preset, cards, total):
    assert kind_total(PRESETS[preset], cards) == (Kind.BOMB_OUT, total)


@pytest.mark.parametrize(
    "better, worse",
    [(PLUS_22, ["co5", "idiot"]), (["co5", "idiot"], ["co1", "evil-one", "co11"]), (PLUS_20, MINUS_22)],
)
def test_highest_the_higher_total_wins(better, worse):
    # weg and pagat: 22 > 5 > -3, and 20 > -22
    for preset in ("weg", "pagat"):
        assert wins(PRESETS[preset], better, worse)


def test_closest_positive_larger_magnitude_wins_then_positive():
    classic = PRESETS["classic"]
    assert wins(classic, MINUS_22, ["co11", "sa10"])  # |-22| > 21
    assert wins(classic, PLUS_20, MINUS_20)  # +20 > -20
    assert not wins(classic, MINUS_20, PLUS_20)


def test_closest_negative_larger_magnitude_wins_then_negative():
    holodex = PRESETS["holodex"]
    assert wins(holodex, MINUS_20, PLUS_20)  # -20 > +20
    assert wins(holodex, ["balance", "co1"], ["co9", "idiot"])  # -10 > 9
    assert wins(holodex, PLUS_22, MINUS_20)  # magnitude first


def test_fairy_empress_is_two_queens_where_the_rule_set_has_it():
    assert kind_total(PRESETS["holodex"], FAIRY) == (Kind.FAIRY_EMPRESS, -4)
    assert kind_total(PRESETS["classic"], FAIRY) == (Kind.ORDINARY, -4)
    assert kind_total(PRESETS["holodex"], ["queen", "queen", "co1"]) == (Kind.ORDINARY, -3)


def test_fairy_empress_beats_ordinary_hands_of_magnitude_22_or_less():
    holodex = PRESETS["holodex"]
    for ordinary in (PLUS_22, MINUS_22, PLUS_20, ["co1", "co2"]):
        assert wins(holodex, FAIRY, ordinary)


def test_fairy_empress_loses_to_pure_sabacc_and_idiots_array():
    holodex = PRESETS["holodex"]
    for better in (PLUS_23, MINUS_23, ARRAY):
        assert wins(holodex, better, FAIRY)


def test_ruling_fairy_empress_loses_to_an_ordinary_minus_23_when_magnitude_ranks():
    rules = ruleset_from({"preset": "holodex", "negative_pure": False})
    assert kind_total(rules, MINUS_23) == (Kind.ORDINARY, -23)
    assert wins(rules, MINUS_23, FAIRY)


def test_ruling_fairy_empress_beats_minus_23_under_highest():
    rules = ruleset_from({"preset": "weg", "fairy_empress": True})
    assert wins(rules, FAIRY, MINUS_23)
    assert wins(rules, FAIRY, PLUS_22)


# Hold 'Em ------------------------------------------------------------------------------------

HOLDEM = ruleset_from({"preset": "classic", "holdem": True})


def test_holdem_best_hand_from_own_cards_plus_any_community_subset():
    # own 10 + 8 = 18; + fl5 = 23 (Pure); the star and st9 are left out
    h = evaluate(HOLDEM, ["co10", "sa8"], community=["star", "fl5", "st9"])
    assert (h.kind, h.total) == (Kind.PURE_SABACC, 23)
    assert sorted(h.cards) == ["co10", "fl5", "sa8"]


def test_holdem_every_own_card_counts():
    # own 15 + 10 = 25 bombs out alone; the community star rescues it: 25 - 17 = 8
    assert kind_total(HOLDEM, ["co15", "sa10"], community=["star"]) == (Kind.ORDINARY, 8)


def test_holdem_community_can_complete_an_idiots_array():
    assert kind_total(HOLDEM, ["idiot", "sa2"], community=["co3", "co9"]) == (Kind.IDIOTS_ARRAY, 5)


def test_holdem_bombs_out_with_own_total_when_every_choice_bombs():
    # 15 + 10 = 25; adding 5 or 9 only makes it worse
    assert kind_total(HOLDEM, ["co15", "sa10"], community=["fl5", "fl9"]) == (Kind.BOMB_OUT, 25)


def test_holdem_prefers_the_best_ranked_choice_not_the_most_cards():
    holodex = ruleset_from({"preset": "holodex", "holdem": True})
    # own star + queen = -19; with fl1 -18, with co2 -17, with both -16: magnitude 19 is best
    assert kind_total(holodex, ["star", "queen"], community=["fl1", "co2"]) == (Kind.ORDINARY, -19)


def test_holdem_with_twenty_community_cards_is_fast():
    community = [f"fl{r}" for r in range(1, 11)] + ["star", "star", "evil-one", "evil-one",
                                                      "demise", "demise", "balance", "balance",
                                                      "moderation", "moderation"]
    start = time.perf_counter()
    h = evaluate(HOLDEM, ["co1", "sa1"], community=community)
    assert h.kind == Kind.PURE_SABACC and h.total == 23
    assert time.perf_counter() - start < 0.5


# Force Sabacc --------------------------------------------------------------------------------

FORCE = ruleset_from({"preset": "holodex", "force_sabacc": True})


@pytest.mark.parametrize(
    "cards, side, kind, total",
    [
        (["sa10", "co13"], "light", Kind.PURE_SABACC, 23),  # Sabers, Coins positive
        (["fl10", "st13"], "dark", Kind.PURE_SABACC, -23),  # Flasks, Staves negative: Dark's 23
        (["fl10", "st13"], "light", Kind.ORDINARY, -23),  # Light on the wrong side: weak, not Pure
        (["sa10", "star"], "light", Kind.ORDINARY, -7),  # faces negative for Light: 10 - 17
        (["sa10", "star"], "dark", Kind.BOMB_OUT, 27),  # faces positive for Dark: 10 + 17
        (["st10", "fl14"], "dark", Kind.BOMB_OUT, -24),  # judged 24
    ],
)
def test_force_sabacc_suit_signs_and_faces_by_side(cards, side, kind, total):
    assert kind_total(FORCE, cards, side=side) == (kind, total)


def test_force_sabacc_dark_is_judged_negated_and_ranked_highest():
    dark_minus_9 = evaluate(FORCE, ["fl5", "st4"], side="dark")  # judged +9
    light_plus_8 = evaluate(FORCE, ["sa5", "co3"], side="light")
    light_minus_21 = evaluate(FORCE, ["fl10", "st11"], side="light")  # judged -21: weak
    assert dark_minus_9.judged == 9
    assert dark_minus_9.beats(light_plus_8)
    # highest on judged totals, whatever the preset's ranking (Holodex: closest-negative)
    assert light_plus_8.beats(light_minus_21)


def test_force_sabacc_light_and_dark_pure_sabacc_tie():
    light = evaluate(FORCE, ["sa10", "co13"], side="light")
    dark = evaluate(FORCE, ["fl10", "st13"], side="dark")
    assert light.rank == dark.rank


def test_force_sabacc_needs_a_side():
    with pytest.raises(InvalidHand):
        evaluate(FORCE, ["sa10", "co13"])


# Corellia Run --------------------------------------------------------------------------------

CORELLIA = ruleset_from({"preset": "classic", "corellia_run": True})


@pytest.mark.parametrize(
    "cards, kind, total",
    [
        (["co5", "sa5"], Kind.PURE_SABACC, 0),  # 0 is Sabacc
        (["co5", "st5", "idiot"], Kind.PURE_SABACC, 0),
        (["co3", "sa2"], Kind.ORDINARY, 1),  # Coins +, Sabers -
        (["fl3", "st5"], Kind.ORDINARY, -2),  # Flasks +, Staves -
        (["co15", "fl8"], Kind.ORDINARY, 23),
        (["co15", "fl9"], Kind.BOMB_OUT, 24),
        (["sa15", "st9"], Kind.BOMB_OUT, -24),
        (["idiot", "sa2", "co3"], Kind.IDIOTS_ARRAY, 1),
    ],
)
def test_corellia_run_signs_target_zero_and_bomb_out(cards, kind, total):
    assert kind_total(CORELLIA, cards) == (kind, total)


def test_corellia_run_closest_to_zero_and_positive_beats_negative():
    assert wins(CORELLIA, ["co3", "sa2"], ["co4", "sa2"])  # 1 beats 2
    assert wins(CORELLIA, ["co3", "sa2"], ["sa3", "co2"])  # +1 beats -1
    assert wins(CORELLIA, ["co5", "sa5"], ["co3", "sa2"])  # 0 beats 1
    assert wins(CORELLIA, ["idiot", "sa2", "co3"], ["co5", "sa5"])  # the Array beats Sabacc


def test_corellia_run_refuses_set_aside_face_cards():
    with pytest.raises(InvalidHand):
        evaluate(CORELLIA, ["co5", "star"])
