"""Corellian Spike (RULES-SPIKE.md): each named hand (its definition, its tie-breaks, what it
beats), each settlement rule, through the rules engine and through POST /api/v1/settle."""

from __future__ import annotations

import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from conftest import examples

from companion.rules.rulesets import RULE_SETS, InvalidRules, ruleset_from
from companion.games.spike.hands import KINDS, SPIKE_DECK, blind_draw_key, evaluate, judge

SPIKE, BOOK = RULE_SETS["spike"], RULE_SETS["spike-book"]
URL = "/api/v1/settle"


def kind(cards, rules=SPIKE):
    return evaluate(rules, cards).kind


def beats(a, b, rules=SPIKE):
    return evaluate(rules, a).rank > evaluate(rules, b).rank


# -- each named hand: its definition -------------------------------------------------------

NAMED = [
    ("pure_sabacc", ["sylop", "sylop"]),
    ("full_sabacc", ["+10", "+10", "-10", "-10", "sylop"]),
    ("fleet", ["+3", "+3", "-3", "-3", "sylop"]),
    ("prime_sabacc", ["sylop", "+10", "-10"]),
    ("yee_haa", ["sylop", "+4", "-4"]),
    ("rhylet", ["+2", "+2", "+2", "-3", "-3"]),
    ("rhylet", ["-4", "-4", "-4", "+6", "+6"]),
    ("rhylet", ["+6", "+6", "+6", "-9", "-9"]),
    ("squadron", ["+5", "+5", "-5", "-5"]),
    ("gee_whiz", ["+1", "+2", "+3", "+4", "-10"]),
    ("gee_whiz", ["-1", "-2", "-3", "-4", "+10"]),
    ("straight_khyron", ["+1", "-2", "-3", "+4"]),
    ("straight_khyron", ["+2", "-3", "-4", "+5"]),
    ("banthas_wild", ["+2", "+2", "-2", "-1", "-1"]),
    ("banthas_wild", ["+3", "+3", "+3", "-9"]),
    ("banthas_wild", ["+5", "+5", "+5", "-5", "-10"]),  # four of a value and a non-sylop fifth
    ("rule_of_two", ["+3", "-3", "+5", "-5"]),
    ("rule_of_two", ["+3", "-3", "+5", "-5", "sylop"]),  # a sylop may be the fifth card
    ("rule_of_two", ["+1", "+1", "+2", "+2", "-6"]),
    ("sabacc_pair", ["+7", "-7"]),
    ("sabacc_pair", ["+2", "+2", "-1", "-3"]),
    ("sabacc_pair", ["+3", "-3", "sylop", "sylop"]),  # sylops pair only in a Pure Sabacc
    ("sabacc", ["+1", "+2", "-3"]),
    ("sabacc", ["sylop", "+5", "-2", "-3"]),
    ("nulrhek", ["+3", "-1"]),
    ("nulrhek", ["sylop", "+1"]),
]


@pytest.mark.parametrize("expected, cards", NAMED, ids=[f"{k}-{'_'.join(c)}" for k, c in NAMED])
def test_named_hand_definition(expected, cards):
    assert kind(cards) == expected


def test_prime_sabacc_is_a_yee_haa_of_tens_in_the_printed_book():
    assert kind(["sylop", "+10", "-10"], BOOK) == "yee_haa"
    assert kind(["sylop", "+10", "-10"], ruleset_from({"preset": "spike", "prime_sabacc": False})) == "yee_haa"
    # and as a Yee-Haa of tens it loses to every lower Yee-Haa
    assert beats(["sylop", "+9", "-9"], ["sylop", "+10", "-10"], BOOK)


def test_named_hands_have_exactly_their_patterns_cards():
    assert kind(["sylop", "sylop", "+1", "-1"]) != "pure_sabacc"
    assert kind(["+10", "-10", "sylop", "+2", "-2"]) != "prime_sabacc"
    assert kind(["+4", "-4", "sylop", "+1", "-1"]) == "rule_of_two"  # a sylop and two pairs: no Yee-Haa


# -- each named hand: what it beats (the hierarchy) ----------------------------------------

# Each kind, best first: its worst hand, and its best hand (a kind's worst beats the next
# kind's best).
WORST_AND_BEST = [
    ("pure_sabacc", ["sylop", "sylop"], ["sylop", "sylop"]),
    ("full_sabacc", ["+10", "+10", "-10", "-10", "sylop"], ["+10", "+10", "-10", "-10", "sylop"]),
    ("fleet", ["+9", "+9", "-9", "-9", "sylop"], ["+1", "+1", "-1", "-1", "sylop"]),
    ("prime_sabacc", ["sylop", "+10", "-10"], ["sylop", "+10", "-10"]),
    ("yee_haa", ["sylop", "+9", "-9"], ["sylop", "+1", "-1"]),
    ("rhylet", ["+6", "+6", "+6", "-9", "-9"], ["-2", "-2", "-2", "+3", "+3"]),
    ("squadron", ["+10", "+10", "-10", "-10"], ["+1", "+1", "-1", "-1"]),
    ("gee_whiz", ["+1", "+2", "+3", "+4", "-10"], ["-1", "-2", "-3", "-4", "+10"]),
    ("straight_khyron", ["-7", "+8", "+9", "-10"], ["+1", "-2", "-3", "+4"]),
    ("banthas_wild", ["+10", "+10", "-10", "-7", "-3"], ["+1", "+1", "-1", "+2", "-3"]),
    ("rule_of_two", ["+9", "-9", "+10", "-10"], ["+1", "-1", "+2", "-2", "sylop"]),
    ("sabacc_pair", ["+10", "-10"], ["+1", "+1", "+10", "-5", "-7"]),
    ("sabacc", ["+1", "+2", "-3"], ["+10", "+9", "-8", "-7", "-4"]),
    ("nulrhek", ["+10", "+10"], ["+10", "+10", "-10", "-9", "sylop"]),
]


@pytest.mark.parametrize("i", range(len(WORST_AND_BEST) - 1), ids=[k for k, _, _ in WORST_AND_BEST[:-1]])
def test_each_kind_at_its_worst_beats_the_next_kind_at_its_best(i):
    upper, worst, _ = WORST_AND_BEST[i]
    lower, _, best = WORST_AND_BEST[i + 1]
    assert kind(worst) == upper and kind(best) == lower
    assert beats(worst, best)


def test_every_sabacc_beats_every_nulrhek():
    worst_sabacc = ["+1", "-1"]  # fewest cards, least positive: a Sabacc with a pair of ones
    plain_sabacc = ["+1", "+2", "-3"]
    best_nulrhek = ["+1", "+2", "+3", "+4", "-9"]  # +1, five cards
    assert beats(worst_sabacc, best_nulrhek) and beats(plain_sabacc, best_nulrhek)


# -- each named hand: its tie-breaks -------------------------------------------------------

TIE_BREAKS = [
    ("fleet: lower X", ["+2", "+2", "-2", "-2", "sylop"], ["+3", "+3", "-3", "-3", "sylop"]),
    ("yee_haa: lower X", ["sylop", "+1", "-1"], ["sylop", "+9", "-9"]),
    ("rhylet: lower X (the three)", ["+2", "+2", "+2", "-3", "-3"], ["-4", "-4", "-4", "+6", "+6"]),
    ("squadron: lower X", ["+4", "+4", "-4", "-4"], ["+6", "+6", "-6", "-6"]),
    ("gee_whiz: the general chain", ["-1", "-2", "-3", "-4", "+10"], ["+1", "+2", "+3", "+4", "-10"]),
    ("straight_khyron: lower first value", ["+1", "-2", "-3", "+4"], ["+2", "-3", "-4", "+5"]),
    ("banthas_wild: lower X", ["+2", "+2", "-2", "-1", "-1"], ["+3", "+3", "+3", "-9"]),
    ("rule_of_two: lower of the two pairs", ["+1", "-1", "+5", "-5"], ["+2", "-2", "+3", "-3"]),
    ("rule_of_two: then the other pair", ["+2", "-2", "+3", "-3"], ["+2", "-2", "+4", "-4"]),
    ("sabacc_pair: lower pair", ["+1", "-1"], ["+2", "-2"]),
    ("sabacc: more cards", ["+1", "+2", "+3", "-6"], ["+1", "+4", "-5"]),
    ("sabacc: higher positive total", ["+2", "+5", "-7"], ["+1", "+4", "-5"]),
    ("sabacc: higher single positive card", ["+1", "+6", "-7"], ["+3", "+4", "-7"]),
    ("nulrhek: closer to 0", ["+1", "+3", "-3"], ["+2", "+5"]),
    ("nulrhek: positive over negative", ["+2", "+5", "-5"], ["-2", "+5", "-5"]),
    ("nulrhek: then more cards", ["+1", "+2", "-1"], ["+4", "-2"]),
]


@pytest.mark.parametrize("rule, better, worse", TIE_BREAKS, ids=[t[0] for t in TIE_BREAKS])
def test_named_hand_tie_break(rule, better, worse):
    assert kind(better) == kind(worse) == rule.split(":")[0]
    assert beats(better, worse) and not beats(worse, better)


def test_the_same_cards_in_another_order_are_a_true_tie():
    a, b = evaluate(SPIKE, ["+1", "+4", "-5"]), evaluate(SPIKE, ["-5", "+4", "+1"])
    assert a.rank == b.rank


def test_blind_draw_card_order_closest_to_zero_then_positive():
    assert blind_draw_key("sylop") > blind_draw_key("+1") > blind_draw_key("-1") > blind_draw_key("+2")
    assert blind_draw_key("+10") > blind_draw_key("-10")


# -- the ranking is a total order that respects the hierarchy (Hypothesis) ------------------

VALUES = [SPIKE_DECK.cards[c].value for c in SPIKE_DECK.physical]
STRENGTH = {k.kind: k.strength for k in KINDS}


@st.composite
def hands(draw):
    picks = draw(st.lists(st.integers(0, len(VALUES) - 1), min_size=2, max_size=5, unique=True))
    return [VALUES[i] for i in picks]


@settings(max_examples=examples(400), deadline=None)
@given(hands(), hands(), hands(), st.booleans())
def test_spike_ranking_is_a_total_order_respecting_the_hierarchy(a, b, c, prime):
    (ka, ra), (kb, rb), (kc, rc) = (judge(h, prime=prime) for h in (a, b, c))
    # exactly one of a > b, b > a, a == b; and transitive
    assert (ra > rb) + (rb > ra) + (ra == rb) == 1
    if ra >= rb and rb >= rc:
        assert ra >= rc
    # the kind decides first: a better kind always wins
    if STRENGTH[ka] != STRENGTH[kb]:
        assert (ra > rb) == (STRENGTH[ka] > STRENGTH[kb])
    # a Sabacc totals 0, a Nulrhek does not; Prime Sabacc only where it is played
    assert (ka == "nulrhek") == (sum(a) != 0)
    assert prime or ka != "prime_sabacc"
    # a hand's rank depends on its cards, not their order
    assert judge(list(reversed(a)), prime=prime)[1] == ra


# -- the rule sets --------------------------------------------------------------------------


def test_spike_presets_and_their_options():
    assert (SPIKE.game_options.fee_gain_discard, SPIKE.game_options.fee_swap, SPIKE.game_options.prime_sabacc) == (1, 2, True)
    assert (BOOK.game_options.fee_gain_discard, BOOK.game_options.fee_swap, BOOK.game_options.prime_sabacc) == (0, 0, False)
    assert (SPIKE.ante, SPIKE.game_options.ante_sabacc) == (1, 2)
    assert SPIKE.ending.rounds == 3 and not SPIKE.ending.by_call
    rs = ruleset_from({"preset": "spike", "ante_game": 2, "ante_sabacc": 4, "junk_penalty": 1,
                       "phase_order": "turn-spike-bet", "bet_limit": 10, "dealer_rotates": "round"})
    assert (rs.ante, rs.game_options.ante_sabacc, rs.fold_fee, rs.game_options.phase_order, rs.bet_limit, rs.game_options.dealer_rotates) == (
        2, 4, 1, "turn-spike-bet", 10, "round")
    with pytest.raises(InvalidRules) as exc:
        ruleset_from({"preset": "spike", "phase_order": "bet-first"})
    assert exc.value.field == "rules.phase_order"
    with pytest.raises(InvalidRules):
        ruleset_from({"preset": "spike", "corellia_run": True})  # a classic option
    with pytest.raises(InvalidRules):
        ruleset_from({"preset": "classic", "fee_swap": 1})  # a Spike option


# -- settlement through POST /api/v1/settle -------------------------------------------------


def settle(client, players, rules="spike", sabacc_pot=10):
    resp = client.post(URL, json={"rules": rules, "players": players, "sabacc_pot": sabacc_pot})
    return resp.status_code, resp.get_json()


@pytest.fixture
def result_schema(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    return jsonschema_rs.Draft202012Validator({"$ref": "#/components/schemas/SettleResult", "components": doc["components"]})


def test_settle_a_winning_sabacc_takes_the_game_pot_and_the_sabacc_pot(client, result_schema):
    code, body = settle(client, [
        {"name": "Lando", "cards": ["sylop", "+4", "-4"], "committed": 6},
        {"name": "Han", "cards": ["+3", "-1"], "committed": 6},
    ])
    assert code == 200, body
    result_schema.validate(body)
    assert [h["kind"] for h in body["hands"]] == ["yee_haa", "nulrhek"]
    assert body["sabacc_pot_winners"] == ["Lando"] and body["sabacc_pot_after"] == 0
    assert body["payouts"] == {"Lando": 22, "Han": 0} and body["penalties"] == []


def test_settle_a_winning_nulrhek_takes_the_game_pot_and_the_sabacc_pot_carries(client):
    code, body = settle(client, [
        {"name": "Lando", "cards": ["+1", "+2"], "committed": 5},
        {"name": "Han", "cards": ["+6", "-1"], "committed": 5},
    ])
    assert code == 200
    assert body["pots"][0]["winners"] == ["Lando"] and body["sabacc_pot_winners"] == []
    assert body["sabacc_pot_after"] == 10 and body["payouts"] == {"Lando": 10, "Han": 0}


def test_settle_a_true_tie_is_a_blind_draw_exchange(client, result_schema):
    players = [
        {"name": "Lando", "cards": ["+1", "+4", "-5"], "committed": 5},
        {"name": "Han", "cards": ["-5", "+4", "+1"], "committed": 5},
        {"name": "Chewie", "cards": ["+9", "+1"], "committed": 5},
    ]
    code, body = settle(client, players)
    assert code == 200 and body["status"] == "blind_draw"
    assert body["blind_draw_players"] == ["Lando", "Han"]
    result_schema.validate(body)
    # both draw a -2: still tied, each draws again
    players[0]["blind_draw"], players[1]["blind_draw"] = ["-2"], ["-2"]
    code, body = settle(client, players)
    assert body["status"] == "blind_draw" and body["blind_draw_players"] == ["Lando", "Han"]
    # a positive card beats its negative
    players[0]["blind_draw"], players[1]["blind_draw"] = ["-2", "-3"], ["-2", "+3"]
    code, body = settle(client, players)
    assert code == 200 and body["status"] == "settled", body
    result_schema.validate(body)
    # a blind draw decided it, and the winning hand totals 0: the sabacc pot too
    assert body["pots"][0]["winners"] == ["Han"] and body["sabacc_pot_winners"] == ["Han"]
    assert body["payouts"]["Han"] == 25 and body["sabacc_pot_after"] == 0


def test_settle_blind_draw_sylop_beats_everything_and_unasked_draws_are_refused(client):
    players = [
        {"name": "Lando", "cards": ["+2", "+3"], "committed": 5, "blind_draw": ["sylop"]},
        {"name": "Han", "cards": ["+3", "+2"], "committed": 5, "blind_draw": ["+1"]},
        {"name": "Chewie", "cards": ["+9", "+1"], "committed": 5, "blind_draw": ["+1"]},
    ]
    code, body = settle(client, players)
    assert code == 422 and body["field"] == "players[2].blind_draw"
    del players[2]["blind_draw"]
    code, body = settle(client, players)
    assert body["pots"][0]["winners"] == ["Lando"] and body["sabacc_pot_winners"] == []


def test_settle_sole_survivor_conceded_takes_the_game_pot_only(client):
    code, body = settle(client, [
        {"name": "Lando", "cards": [], "committed": 7},
        {"name": "Han", "cards": [], "committed": 3, "folded": True},
    ])
    assert code == 200
    assert [h["kind"] for h in body["hands"]] == ["conceded", "folded"]
    assert body["payouts"] == {"Lando": 10, "Han": 0} and body["sabacc_pot_after"] == 10


def test_settle_sole_survivor_showing_a_sabacc_takes_the_sabacc_pot_too(client):
    players = [
        {"name": "Lando", "cards": ["+6", "-6"], "committed": 7},
        {"name": "Han", "cards": [], "committed": 3, "folded": True},
    ]
    code, body = settle(client, players)
    assert body["hands"][0] == {"name": "Lando", "total": 0, "kind": "sabacc_pair"}
    assert body["payouts"]["Lando"] == 20 and body["sabacc_pot_after"] == 0
    players[0]["cards"] = ["+6", "-5"]  # shown but not 0: the sabacc pot carries
    code, body = settle(client, players)
    assert body["payouts"]["Lando"] == 10 and body["sabacc_pot_after"] == 10


def test_settle_all_in_side_pot_and_the_sabacc_pot_to_the_showdown_winner(client):
    code, body = settle(client, [
        {"name": "Lando", "cards": ["sylop", "sylop"], "committed": 4},  # all-in
        {"name": "Han", "cards": ["+1", "-1"], "committed": 10},
        {"name": "Chewie", "cards": ["+5", "+5"], "committed": 10},
    ])
    assert [p["amount"] for p in body["pots"]] == [12, 12]
    assert body["pots"][0]["winners"] == ["Lando"] and body["pots"][1]["winners"] == ["Han"]
    assert body["sabacc_pot_winners"] == ["Lando"]
    assert body["payouts"] == {"Lando": 22, "Han": 12, "Chewie": 0}


def test_settle_a_level_only_junked_players_reached_goes_to_the_sabacc_pot(client):
    code, body = settle(client, [
        {"name": "Lando", "cards": ["+2", "+1"], "committed": 4},
        {"name": "Han", "cards": ["+3", "+3"], "committed": 4},
        {"name": "Chewie", "cards": [], "committed": 9, "folded": True},
    ])
    assert body["pots"][-1] == {"amount": 5, "eligible": [], "winners": [], "to_sabacc_pot": True}
    assert body["sabacc_pot_after"] == 15


@pytest.mark.parametrize("player, field", [
    ({"name": "Han", "cards": ["+3", "-1"], "committed": 5, "called": True}, "players[1].called"),
    ({"name": "Han", "cards": ["+3"], "committed": 5}, "players[1].cards"),
    ({"name": "Han", "cards": ["+1", "+2", "+3", "+4", "+5", "+6"], "committed": 5}, "players[1].cards"),
    ({"name": "Han", "cards": ["co7", "+2"], "committed": 5}, "players[1].cards[0]"),
    ({"name": "Han", "cards": ["+4", "-4"], "committed": 5, "demise": ["+1"]}, "players[1].demise"),
    ({"name": "Han", "cards": ["+4", "+4", "+4", "+4"], "committed": 5}, "players[1].cards[3]"),
    ({"name": "Han", "cards": ["sylop", "+1"], "committed": 5}, "players[1].cards[0]"),
], ids=["no-calls", "one-card", "six-cards", "classic-code", "no-demise", "four-copies", "three-sylops"])
def test_settle_refuses_in_words_what_spike_does_not_allow(client, player, field):
    code, body = settle(client, [{"name": "Lando", "cards": ["sylop", "sylop"], "committed": 5}, player])
    assert code == 422 and body["field"] == field, body
    assert body["error"]


def test_settle_refuses_a_blind_draw_where_ties_are_a_sudden_demise(client):
    code, body = settle(client, [
        {"name": "Leia", "cards": ["co10", "sa9"], "committed": 20, "blind_draw": ["co1"]},
        {"name": "Luke", "cards": ["fl10", "st9"], "committed": 20, "called": True},
    ], rules="classic")
    assert code == 422 and body["field"] == "players[0].blind_draw"


def test_settle_spike_book_and_options_as_an_object(client):
    code, body = settle(client, [
        {"name": "Lando", "cards": ["sylop", "+10", "-10"], "committed": 1},
        {"name": "Han", "cards": ["sylop", "+9", "-9"], "committed": 1},
    ], rules="spike-book")
    assert body["hands"][0]["kind"] == "yee_haa" and body["pots"][0]["winners"] == ["Han"]
    code, body = settle(client, [
        {"name": "Lando", "cards": ["sylop", "+10", "-10"], "committed": 1},
        {"name": "Han", "cards": ["sylop", "+9", "-9"], "committed": 1},
    ], rules={"preset": "spike"})
    assert body["hands"][0]["kind"] == "prime_sabacc" and body["pots"][0]["winners"] == ["Lando"]


def test_openapi_says_the_settle_endpoint_takes_spike(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    assert {"spike", "spike-book"} <= set(schemas["RuleSetChoice"]["oneOf"][0]["enum"])
    assert {"yee_haa", "prime_sabacc", "nulrhek"} <= set(schemas["HandResult"]["properties"]["kind"]["enum"])
    assert "blind_draw" in schemas["PlayerReveal"]["properties"]
    assert "fee_swap" in schemas["RuleSetChoice"]["oneOf"][1]["properties"]
    assert "spike" in doc["paths"]["/api/v1/settle"]["post"]["description"]


# -- the rules page, generated from the rule set -------------------------------------------


@pytest.mark.parametrize("name", ["spike", "spike-book"])
def test_spike_rules_page_is_written_from_the_rule_set(client, name):
    page = client.get(f"/rules?preset={name}").get_data(as_text=True)
    assert "Yee-Haa" in page and "blind draw" in page and "Sabacc Shift" in page
    assert ("Prime Sabacc: sylop" in page) == (name == "spike")
    assert "Swap with the discard pile. Fee: 2 credits" in page if name == "spike" else "Fee:" not in page
    assert "bomb" not in page.lower()  # no classic words on a Spike page
    assert f'<option value="{name}" selected' in page


def test_spike_turn_actions_are_values_with_their_fees():
    actions = {a.action: a for a in SPIKE.actions}
    assert list(actions) == ["stand", "gain_keep", "gain_discard", "gain_keep_discard", "swap", "junk"]
    assert (actions["gain_keep"].cards, actions["gain_keep"].dealt) == (1, 1)
    assert (actions["gain_discard"].cards, actions["gain_discard"].discards) == (0, 1)
    assert SPIKE.option(actions["gain_keep_discard"].fee) == 1 and BOOK.option(actions["swap"].fee) == 0
    assert actions["swap"].takes_discard and actions["junk"].leaves


def test_scrambler_simulate_rolls_the_spike_dice_matching_symbols_one_in_six(capsys):
    import json

    from companion.cli import main

    seed = "ab" * 32
    assert main(["scrambler", "simulate", "--preset", "spike", "--rolls", "60000", "--seed", seed, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["trigger"] == "2d6-doubles" and out["expected_rate_fraction"] == "1/6"
    assert abs(out["observed_rate"] - 1 / 6) < 0.01  # 60000 rolls: sd 0.0015
    assert set(out["kinds"]) == {"sabacc"}  # every shift a Sabacc Shift


def test_spike_dice_show_their_symbols():
    assert SPIKE.dice.show([1, 1]) == "Spike and Spike"
    # RULES-SPIKE.md names the faces 1-6: Spike, Flask, Crown, Compass, Eye, Sun.
    assert SPIKE.dice.show([3, 5]) == "Crown and Eye"
    assert SPIKE.dice.show([2, 4]) == "Flask and Compass"
    assert SPIKE.dice.show([6, 6]) == "Sun and Sun"
    assert RULE_SETS["classic"].dice.show([3, 5]) == "3 and 5"
    assert SPIKE.to_json()["dice"]["shift_words"] == "matching symbols"


def test_settle_fees_belong_to_the_main_pot_whoever_wins_it(client):
    # Han paid 3 in fees (a swap and a keep-and-discard) and loses: they are no bet to be
    # returned, they go with the game pot to Lando.
    code, body = settle(client, [
        {"name": "Lando", "cards": ["+2", "-2"], "committed": 1},
        {"name": "Han", "cards": ["+5", "+1"], "committed": 1, "fees": 3},
    ])
    assert code == 200, body
    assert body["pots"] == [{"amount": 5, "eligible": ["Lando", "Han"], "winners": ["Lando"], "to_sabacc_pot": False}]
    assert body["payouts"] == {"Lando": 15, "Han": 0}
