"""A deck is a value of the rule set (issue 16): the classic deck and the Corellian Spike deck."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.classic import cards
from companion.games.classic.cards import SABACC, TooManyCopies, UnknownCard
from companion.games.classic.presets import PRESETS
from companion.rules.rulesets import DECKS
from companion.games.spike.hands import SPIKE_DECK, STAVES


def test_every_classic_preset_plays_the_76_card_deck_with_the_same_cards_as_before():
    for rs in PRESETS.values():
        if rs.deck is SABACC:
            assert rs.to_json()["deck"] == "sabacc"
    assert list(SABACC.cards) == list(cards.CARDS)
    assert SABACC.physical == cards.DECK
    assert SABACC.size() == cards.deck_count(corellia_run=False) == 76
    assert SABACC.size({"corellia_run"}) == cards.deck_count(corellia_run=True) == 62
    assert SABACC.set_aside({"corellia_run"}) == cards.CORELLIA_SET_ASIDE


def test_spike_deck_holds_62_cards_three_of_each_value_and_two_sylops():
    assert SPIKE_DECK.size() == 62
    values = Counter(SPIKE_DECK.card(c).value for c in SPIKE_DECK.physical)
    assert values[0] == 2
    assert all(values[v] == 3 and values[-v] == 3 for v in range(1, 11))
    assert set(values) == set(range(-10, 11))
    assert len(STAVES) == 3 and SPIKE_DECK.staves == STAVES


def test_spike_card_codes_and_names_follow_rules_spike():
    assert [c for c in SPIKE_DECK.cards][:2] == ["+1", "+2"]
    assert SPIKE_DECK.card("+10").name == "+10"
    assert SPIKE_DECK.card("-7").name == "\u22127"
    assert SPIKE_DECK.card(" SYLOP ").name == "Sylop"
    with pytest.raises(UnknownCard):
        SPIKE_DECK.card("+11")
    with pytest.raises(UnknownCard):
        SPIKE_DECK.card("co7")  # a classic card is no Spike card
    with pytest.raises(TooManyCopies):
        SPIKE_DECK.check_copies(["+5"] * 4)
    SPIKE_DECK.check_copies(["+5"] * 3 + ["sylop"] * 2)


def test_spike_deck_is_entered_by_value_and_holds_2_to_5_cards_a_hand():
    assert SPIKE_DECK.entry == "value" and SABACC.entry == "suit"
    assert (SPIKE_DECK.hand_min, SPIKE_DECK.hand_max) == (2, 5)
    assert [g.key for g in SPIKE_DECK.groups] == ["plus", "minus", "sylop"]
    grouped = [c for g in SPIKE_DECK.groups for c in g.codes]
    assert sorted(grouped) == sorted(SPIKE_DECK.cards)


def test_the_card_endpoint_serves_the_deck_a_table_names(client):
    spike = client.get("/api/v1/cards?deck=spike").get_json()
    assert spike["name"] == "spike" and spike["entry"] == "value"
    assert sum(c["copies"] for c in spike["cards"]) == 62
    assert spike["short"]["-7"] == "\u22127" and spike["short"]["sylop"] == "Sylop"
    assert spike["suits"] == []
    classic = client.get("/api/v1/cards").get_json()
    assert classic["name"] == "sabacc" and classic["short"]["sa12"] == "Cmdr"
    assert classic["tarot_short"]["sa12"] == "Knight"
    assert "demise" not in classic["in_words"] and "evil-one" in classic["in_words"]
    bad = client.get("/api/v1/cards?deck=<b>")
    assert bad.status_code == 404 and bad.get_json()["field"] == "deck"


def test_every_deck_a_preset_plays_is_served():
    assert set(DECKS) >= {rs.deck.name for rs in PRESETS.values()}
