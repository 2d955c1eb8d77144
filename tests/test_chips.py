"""Cash-out breakdowns into a table's physical chips, and chip-set validation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from conftest import examples

from companion.games.classic.presets import DEFAULT_CHIPS, HOLODEX_LAY_CHIPS, HOLODEX_TOURNAMENT_CHIPS
from companion.rules.rulesets import Chip
from companion.table.chips import InvalidChips, breakdown, chip_set_from, chip_set_to_json


def test_breakdown_names_the_largest_chips_first():
    assert breakdown(142, DEFAULT_CHIPS).words == "5 aurodium, 3 argentium, 2 bronzium"
    assert breakdown(0, DEFAULT_CHIPS).words == "nothing"


def test_holodex_buy_ins_are_the_ruled_chip_stocks():
    # RULES.md: 20 x 5 + 4 x 50 + 2 x 100 = 500 (lay), 20 x 10 + 8 x 50 + 4 x 100 = 1000.
    for chips, total in ((HOLODEX_LAY_CHIPS, 500), (HOLODEX_TOURNAMENT_CHIPS, 1000)):
        assert sum(c.value * c.per_buy_in for c in chips) == total


def test_an_amount_no_chip_covers_is_reported_with_how_the_table_settles_it():
    b = breakdown(518, HOLODEX_LAY_CHIPS)
    assert b.remainder == 3
    assert b.words == ("5 aurodium, 3 bronzium; 3 credits below the smallest chip (5): "
                       "the banker pays them in cash or writes an IOU")
    assert "without a chip" not in b.words and b.to_json()["small"] in b.words
    assert b.to_json()["chips"] == [{"name": "aurodium", "value": 100, "count": 5},
                                    {"name": "bronzium", "value": 5, "count": 3}]


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 100_000))
def test_a_breakdown_adds_up_to_the_amount(amount):
    for chips in (DEFAULT_CHIPS, HOLODEX_LAY_CHIPS):
        b = breakdown(amount, chips)
        assert sum(c.value * n for c, n in b.counts) + b.remainder == amount
        assert 0 <= b.remainder < min(c.value for c in chips)


def test_chip_sets_round_trip_and_bad_ones_name_the_field():
    spec = [{"name": "gold", "value": 20, "per_buy_in": 1}, {"name": "tin", "value": 1}]
    chips = chip_set_from(spec)
    assert chips == (Chip("gold", 20, 1), Chip("tin", 1, 0))
    assert chip_set_from(chip_set_to_json(chips)) == chips
    for bad, field in (([], "chip_set"), ([{"name": "", "value": 1}], "chip_set[0].name"),
                       ([{"name": "a", "value": 1}, {"name": "b", "value": 1}], "chip_set[1].value"),
                       ([{"name": "a", "value": 1, "colour": "red"}], "chip_set[0].colour")):
        with pytest.raises(InvalidChips) as info:
            chip_set_from(bad)
        assert info.value.field == field
