"""The host's option fields (companion/rules/option_fields.py) against the rule sets they
describe: every field a preset offers is an option its game accepts, its default is the
preset's own value, and a game's own options are offered only to that game."""

from __future__ import annotations

import dataclasses

import pytest

from companion.games import registry
from companion.rules.option_fields import option_fields
from companion.rules.rulesets import RULE_SETS, ruleset_from


@pytest.mark.parametrize("preset", list(RULE_SETS))
def test_every_offered_field_is_accepted_and_its_default_is_the_presets_value(preset):
    fields = option_fields(RULE_SETS[preset])
    spec = {"preset": preset, **{f["name"]: f["default"] for f in fields}}
    rs = ruleset_from(spec)  # every field is an option this game takes (else InvalidRules)
    # Sending every default changes nothing but the one line saying what was sent.
    assert dataclasses.replace(rs, summary=RULE_SETS[preset].summary) == RULE_SETS[preset]
    names = {f["name"] for f in fields}
    # A hand ranking's own options (a dealt-hand game's) are all offered.
    assert getattr(getattr(RULE_SETS[preset], "hands", None), "options", frozenset()) <= names


def test_each_game_is_offered_its_own_words_and_not_the_other_games():
    spike = {f["name"] for f in option_fields(RULE_SETS["spike"])}
    weg = {f["name"] for f in option_fields(RULE_SETS["weg"])}
    assert spike == {"ante_game", "ante_sabacc", "buy_in", "bet_limit", "junk_penalty", "fee_gain_discard",
                     "fee_swap", "phase_order", "dealer_rotates", "prime_sabacc"}
    assert not spike & {"ante", "fold_fee", "pot_building_rounds", "bomb_out_penalty", "scrambler_trigger"}
    assert not weg & RULE_SETS["spike"].hands.options
    for game in registry.games().values():  # a game offers each field once, every one an option it takes
        names = [f.name for f in game.fields]
        assert len(set(names)) == len(names) and set(names) <= set(game.options), game.name
