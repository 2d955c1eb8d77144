"""Rule sets as data: the presets of RULES.md's table and options by name."""

from __future__ import annotations

import pytest

from companion.games.classic.options import Ranking, StaticField
from companion.games.classic.presets import PRESETS
from companion.rules.rulesets import HAND_POT, InvalidRules, ShiftKind, Trigger, ruleset_from


def test_the_five_presets_exist():
    assert set(PRESETS) == {"weg", "classic", "holodex", "pagat", "pagat-d6"}


@pytest.mark.parametrize(
    "name, ranking, negative_pure, fairy_empress",
    [
        ("weg", Ranking.HIGHEST, False, False),
        ("classic", Ranking.CLOSEST_POSITIVE, True, False),
        ("holodex", Ranking.CLOSEST_NEGATIVE, True, True),
        ("pagat", Ranking.HIGHEST, True, False),
        ("pagat-d6", Ranking.HIGHEST, True, False),
    ],
)
def test_preset_ranking_and_pure_sabacc(name, ranking, negative_pure, fairy_empress):
    rs = PRESETS[name]
    assert (rs.game_options.ranking, rs.game_options.negative_pure, rs.game_options.fairy_empress) == (ranking, negative_pure, fairy_empress)


@pytest.mark.parametrize(
    "name, trigger, shift, static",
    [
        ("weg", Trigger.D6_LOW, ShiftKind.RIM, StaticField.NONE),
        ("classic", Trigger.TWO_D6_DOUBLES, ShiftKind.CORE, StaticField.FREE),
        ("holodex", Trigger.TWO_D6_DOUBLES, ShiftKind.CORE, StaticField.ONE_CHANGE_PER_TURN),
        ("pagat", Trigger.TWO_D6_DOUBLES, ShiftKind.CORE, StaticField.ONE_IN_ONE_OUT_PLAY_ROUND),
        ("pagat-d6", Trigger.D6_HIGH, ShiftKind.CORE, StaticField.ONE_IN_ONE_OUT_PLAY_ROUND),
    ],
)
def test_preset_scrambler_shift_and_static_field(name, trigger, shift, static):
    rs = PRESETS[name]
    assert (rs.scrambler_trigger, rs.shift_kind, rs.game_options.static_field) == (trigger, shift, static)


def test_weg_bet_limit_is_3_and_the_others_have_none():
    assert PRESETS["weg"].bet_limit == 3
    assert all(PRESETS[n].bet_limit is None for n in ("classic", "holodex", "pagat", "pagat-d6"))


def test_holodex_buy_in_is_500_and_its_chips_add_up():
    rs = PRESETS["holodex"]
    assert rs.buy_in == 500
    assert sum(c.value * c.per_buy_in for c in rs.chip_set) == 500


def test_calling_rounds_holodex_two_pagat_from_the_4th_betting_round():
    assert PRESETS["holodex"].game_options.pot_building_rounds == 2
    assert PRESETS["pagat"].game_options.pot_building_rounds == 3


def test_every_preset_penalty_defaults_to_the_hand_pot_and_no_variant_is_on():
    for rs in PRESETS.values():
        assert rs.game_options.bomb_out_penalty == HAND_POT
        assert not (rs.game_options.holdem or rs.game_options.force_sabacc or rs.game_options.corellia_run)


def test_options_override_the_preset():
    rs = ruleset_from({"preset": "weg", "ranking": "closest-negative", "negative_pure": True, "bomb_out_penalty": 7})
    assert (rs.game_options.ranking, rs.game_options.negative_pure, rs.game_options.bomb_out_penalty) == (Ranking.CLOSEST_NEGATIVE, True, 7)
    assert rs.overrides == ("bomb_out_penalty", "negative_pure", "ranking")
    assert rs.bet_limit == 3  # untouched options keep the preset's value


def test_a_preset_name_alone_is_the_preset():
    assert ruleset_from("holodex") == PRESETS["holodex"]


@pytest.mark.parametrize(
    "spec, field",
    [
        ("vegas", "rules"),
        ({"preset": "vegas"}, "rules.preset"),
        ({"preset": ["classic"]}, "rules.preset"),
        ({}, "rules.preset"),
        ({"preset": "classic", "jokers": True}, "rules.jokers"),
        ({"preset": "classic", "holdem": 1}, "rules.holdem"),
        ({"preset": "classic", "ranking": "lowest"}, "rules.ranking"),
        ({"preset": "classic", "ranking": ["highest"]}, "rules.ranking"),
        ({"preset": "classic", "bomb_out_penalty": -1}, "rules.bomb_out_penalty"),
        ({"preset": "classic", "bomb_out_penalty": True}, "rules.bomb_out_penalty"),
        ({"preset": "classic", "force_sabacc": True, "corellia_run": True}, "rules.corellia_run"),
        (42, "rules"),
    ],
)
def test_an_unknown_preset_or_option_or_bad_value_names_the_field(spec, field):
    with pytest.raises(InvalidRules) as err:
        ruleset_from(spec)
    assert err.value.field == field


@pytest.mark.parametrize(
    "name", ["2d6-doubles", "2d6-spike", "d6-high", "d6-low", "d10", "d12", "d20", "timer"]
)
def test_variant_scrambler_trigger_by_the_name_rules_md_gives_it(name):
    # RULES.md "Variants": these names are used in settings, the API and the command line.
    assert ruleset_from({"preset": "classic", "scrambler_trigger": name}).scrambler_trigger.value == name


@pytest.mark.parametrize("kind", ["core", "rim", "wild", "by-symbol"])
def test_variant_shift_kind_core_rim_wild_or_by_symbol(kind):
    assert ruleset_from({"preset": "weg", "shift_kind": kind}).shift_kind.value == kind


def test_variant_bet_limit_pot_building_rounds_fold_fee_house_dealer_and_fixed_penalty():
    rs = ruleset_from({"preset": "classic", "bet_limit": 5, "pot_building_rounds": 4, "fold_fee": 2,
                       "house_dealer": True, "bomb_out_penalty": 12})
    assert (rs.bet_limit, rs.game_options.pot_building_rounds, rs.fold_fee, rs.house_dealer, rs.game_options.bomb_out_penalty) == (
        5, 4, 2, True, 12
    )
    # "no limit" is an explicit choice too, and the preset's other calling rules stay
    assert ruleset_from({"preset": "weg", "bet_limit": None}).bet_limit is None
    assert rs.game_options.calling.phase == PRESETS["classic"].game_options.calling.phase


def test_variant_timer_with_a_chosen_mean():
    rs = ruleset_from({"preset": "classic", "scrambler_trigger": "timer", "timer_mean_s": 90})
    assert (rs.scrambler_trigger, rs.timer_mean_s) == (Trigger.TIMER, 90.0)
    with pytest.raises(InvalidRules) as err:
        ruleset_from({"preset": "classic", "timer_mean_s": 5})  # below the 20 s minimum
    assert err.value.field == "rules.timer_mean_s"


def test_the_doctests_of_cards_and_rulesets_run():
    import doctest

    from companion.games.classic import cards
    from companion.rules import rulesets

    for module in (cards, rulesets):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


#: Each game's own options (issue 29 step 7): a rule set's JSON, the views' `rules`, carries its
#: own game's and none of the other's.
CLASSIC_OWN = {"ranking", "negative_pure", "fairy_empress", "bomb_out_penalty", "calling", "static_field",
               "holdem", "force_sabacc", "corellia_run", "pot_building_rounds"}
SPIKE_OWN = {"ante_sabacc", "fee_gain_discard", "fee_swap", "prime_sabacc", "phase_order", "dealer_rotates",
             "discard_pile_public", "fold_fee_into_pot"}


def test_a_rule_sets_json_carries_its_own_games_options_and_no_other_games():
    classic, spike = ruleset_from("holodex").to_json(), ruleset_from("spike").to_json()
    assert CLASSIC_OWN <= set(classic) and not SPIKE_OWN & set(classic)
    assert SPIKE_OWN <= set(spike) and not CLASSIC_OWN & set(spike)
    assert (classic["pot_building_rounds"], classic["ranking"], spike["fee_swap"], spike["ante_sabacc"]) == (
        2, "closest-negative", 2, 2)


@pytest.mark.parametrize("option, value", [("static_field", "free"), ("pot_building_rounds", 2), ("holdem", True)])
def test_spike_refuses_classics_own_options_naming_the_field(option, value):
    with pytest.raises(InvalidRules) as exc:
        ruleset_from({"preset": "spike", option: value})
    assert exc.value.field == f"rules.{option}"
    assert exc.value.message == f"{option} is not an option of Corellian Spike (Black Spire Outpost)"


def test_an_option_sets_its_games_own_value_and_the_preset_keeps_its_own():
    rs = ruleset_from({"preset": "pagat", "pot_building_rounds": 5, "holdem": True})
    assert (rs.game_options.pot_building_rounds, rs.game_options.holdem, rs.game_options.calling.phase) == (
        5, True, PRESETS["pagat"].game_options.calling.phase)
    assert (PRESETS["pagat"].game_options.pot_building_rounds, PRESETS["pagat"].game_options.holdem) == (3, False)
    spike = ruleset_from({"preset": "spike", "phase_order": "turn-spike-bet", "fee_swap": 0})
    assert (spike.game_options.phase_order, spike.game_options.fee_swap, spike.option("fee_swap")) == ("turn-spike-bet", 0, 0)
    assert [p.words for p in spike.turn_phases] == ["turn", "spike dice", "betting"]
