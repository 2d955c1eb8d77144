"""Kessel Sabacc's data and judge (companion/games/kessel/), one test per ruling of
RULES-KESSEL.md about the deck, the reveal, the ranking, the tokens' effects on judging and on
the chips, settlement, elimination and conservation; the eleven settlement examples and the
worked round of the rules file; and a Hypothesis test of random rounds with tokens.

Expectations are the rules file's own numbers (its examples), or follow from a ruling's words.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from conftest import examples

from companion.games import registry
from companion.games.api import InvalidRules
from companion.games.kessel import GAME
from companion.games.kessel.cards import KESSEL_DECK, family
from companion.games.kessel.chips import NoChips, Pile, draw, embezzle, in_play, pay, refund
from companion.games.kessel.hands import Effects, InvalidHand, judge, penalty, winners
from companion.games.kessel.presets import PRESETS
from companion.games.kessel.settle import Seat, settle
from companion.games.kessel.tokens import TOKEN_BY_CODE, TOKENS
from companion.rules.cards import UnknownCard

FRAUD, MARKDOWN, COOK = Effects(major_fraud=True), Effects(markdown=True), Effects(cook_the_books=True)


def _settle(rows, effects=Effects(), credits_pot=None):
    """rows: (name, cards, impostors, stock, invested), in seat order from the starter."""
    return settle([Seat(n, judge(c, i, effects), stock, inv) for n, c, i, stock, inv in rows], credits_pot)


def _penalties(s):
    return {p.name: (p.reason, p.amount, p.shortfall) for p in s.penalties}


# -- the game, its presets and options ------------------------------------------------------


def test_the_game_is_found_with_its_two_presets_and_is_played_to_a_winner():
    assert registry.game_of("kessel") is GAME and registry.game_of("kessel-plain") is GAME
    assert not GAME.by_hand and GAME.default_preset() == "kessel"
    k, plain = PRESETS["kessel"], PRESETS["kessel-plain"]
    assert (k.chips, k.buy_in, k.tokens, k.tariff_chips) == (6, 100, "select", "invested")
    assert (plain.chips, plain.buy_in, plain.tokens) == (6, 100, "none") and not plain.plays_tokens
    assert (k.min_players, k.max_players, k.turns) == (2, 8, 3)


def test_the_options_are_read_and_bad_values_refused_in_words_with_their_field():
    r = registry.rules_from({"preset": "kessel", "chips": 4, "buy_in": 0, "tokens": "random",
                             "tariff_chips": "out"})
    assert (r.name, r.chips, r.buy_in, r.tokens, r.tariff_chips) == ("kessel", 4, 0, "random", "out")
    assert r.overrides == ("buy_in", "chips", "tariff_chips", "tokens")
    assert not registry.rules_from({"preset": "kessel", "tokens": "none"}).plays_tokens
    for option, bad, words in (("chips", 9, "chips must be a whole number from 4 to 8"),
                               ("chips", 3, "chips must be a whole number from 4 to 8"),
                               ("buy_in", -1, "buy_in must be a whole number from 0"),
                               ("tokens", "some", "tokens must be one of 'select', 'random', 'none'"),
                               ("tariff_chips", "pot", "tariff_chips must be one of 'invested', 'out'")):
        with pytest.raises(InvalidRules) as exc:
            registry.rules_from({"preset": "kessel", option: bad})
        assert exc.value.field == f"rules.{option}" and exc.value.message.startswith(words)
    with pytest.raises(InvalidRules) as exc:  # another game's option
        registry.rules_from({"preset": "kessel", "ante": 1})
    assert exc.value.field == "rules.ante" and "not an option of Kessel Sabacc" in exc.value.message


def test_the_rules_page_follows_the_options():
    from companion.games.api import section

    page = GAME.explain(registry.rules_from({"preset": "kessel", "chips": 5, "buy_in": 40, "tariff_chips": "out"}))
    assert "5 chips" in section(page, "setup").text() and "40 credits" in section(page, "setup").text()
    assert "out of the game at once" in section(page, "tokens").text()
    assert [p.split(":")[0] for p in section(page, "tokens").points] == [t.name for t in TOKENS]
    plain = GAME.explain(PRESETS["kessel-plain"])
    assert "tokens" not in [s.key for s in plain]
    assert "Prime Sabacc" not in section(plain, "hands").text()


# -- the deck (K1–K3) -----------------------------------------------------------------------


def test_k1_the_deck_is_44_cards_in_two_families_of_22():
    by_family = Counter(family(c) for c in KESSEL_DECK.physical)
    assert KESSEL_DECK.size() == 44 and by_family == {"sand": 22, "blood": 22}
    for f in "sb":
        assert [KESSEL_DECK.physical.count(f"{f}{n}") for n in range(1, 7)] == [3] * 6
        assert KESSEL_DECK.physical.count(f"{f}i") == 3 and KESSEL_DECK.physical.count(f"{f}s") == 1


def test_k2_codes_are_case_insensitive_on_input_lower_case_out_and_named_in_words():
    assert list(KESSEL_DECK.cards) == ["s1", "s2", "s3", "s4", "s5", "s6", "si", "ss",
                                       "b1", "b2", "b3", "b4", "b5", "b6", "bi", "bs"]
    assert KESSEL_DECK.normalize(" SI ") == "si" and judge(["S4", "Bs"]).cards == ("s4", "bs")
    assert [KESSEL_DECK.card(c).name for c in ("s4", "bi", "ss")] == ["Sand 4", "Blood Impostor", "Sand Sylop"]
    with pytest.raises(UnknownCard):
        KESSEL_DECK.card("s7")


def test_k3_a_hand_is_one_sand_and_one_blood_card():
    for cards, field in ((["s1", "s2"], "cards"), (["b1", "bi"], "cards"), (["s1"], "cards"),
                         (["s1", "b1", "b2"], "cards"), (["s1", "x9"], "cards[1]")):
        with pytest.raises(InvalidHand) as exc:
            judge(cards)
        assert exc.value.field == field
    with pytest.raises(InvalidHand) as exc:
        judge(["s3", "s4"])
    assert exc.value.message == "a hand is one Sand card and one Blood card, not two Sand cards"
    assert judge(["b5", "s2"]).values == (2, 5)  # either order; values are [sand, blood]


# -- the reveal (K17–K18) -------------------------------------------------------------------


def test_k17_pure_sabacc_is_resolved_no_further_and_impostor_values_are_chosen_per_card():
    pure = judge(["ss", "bs"])
    assert (pure.kind, pure.values, pure.value, pure.difference) == ("pure_sabacc", (0, 0), 0, 0)
    assert judge(["ss", "bs"], effects=MARKDOWN).kind == "pure_sabacc"
    assert judge(["si", "bi"], [5, 2]).values == (5, 2)  # two Impostors: two separate values
    assert judge(["bi", "si"], [5, 2]).values == (2, 5)  # in the order of the cards as entered
    # A single Sylop copies the other card as resolved: the Impostor's chosen value.
    assert judge(["si", "bs"], [4]).values == (4, 4) and judge(["ss", "bi"], [2]).value == 2
    # Under Major Fraud an Impostor is 6 and nothing is rolled (no value may be sent).
    assert judge(["si", "b6"], effects=FRAUD).kind == "sabacc" and judge(["si", "bs"], effects=FRAUD).value == 6
    with pytest.raises(InvalidHand) as exc:
        judge(["si", "b6"], [3], FRAUD)
    assert exc.value.field == "impostors"
    # Under Markdown a Sylop is 0.
    assert judge(["ss", "b2"], effects=MARKDOWN).values == (0, 2)


def test_k17_an_impostor_value_is_a_dies_face_and_one_is_needed_for_each_impostor():
    for impostors, field in (([], "impostors"), ([3, 4], "impostors"), ([0], "impostors[0]"),
                             ([7], "impostors[0]"), ([True], "impostors[0]"), (["3"], "impostors[0]")):
        with pytest.raises(InvalidHand) as exc:
            judge(["si", "b2"], impostors)
        assert exc.value.field == field
    with pytest.raises(InvalidHand):
        judge(["s1", "b2"], [3])  # no Impostor: no value


def test_k18_the_difference_and_a_sabaccs_value():
    h = judge(["s6", "b1"])
    assert (h.kind, h.difference, h.value) == ("non_sabacc", 5, None)
    h = judge(["s4", "b4"])
    assert (h.kind, h.difference, h.value) == ("sabacc", 0, 4)


# -- the ranking (K18–K21, K35's judging tokens) --------------------------------------------


def test_k18_the_kinds_rank_pure_then_prime_then_sabacc_then_the_rest():
    prime = Effects(prime_sabacc=5)
    order = [judge(["ss", "bs"], effects=prime), judge(["s5", "b5"], effects=prime),
             judge(["s1", "b1"], effects=prime), judge(["s6", "b6"], effects=prime),
             judge(["s2", "b1"], effects=prime), judge(["s6", "b1"], effects=prime)]
    assert [h.kind for h in order] == ["pure_sabacc", "prime_sabacc", "sabacc", "sabacc", "non_sabacc",
                                       "non_sabacc"]
    assert [h.rank for h in order] == sorted((h.rank for h in order), reverse=True)
    assert len({h.rank for h in order}) == len(order)


def test_k19_a_sylop_or_impostor_sabacc_equals_the_natural_pair():
    natural = judge(["s3", "b3"])
    assert judge(["ss", "b3"]).rank == natural.rank == judge(["s3", "bs"]).rank
    assert judge(["si", "b3"], [3]).rank == natural.rank == judge(["si", "bi"], [3, 3]).rank
    assert winners([judge(["ss", "b3"]), natural]) == [0, 1]


def test_k20_equal_differences_rank_by_the_lower_card_and_a_markdown_sylop_counts_as_0():
    assert winners([judge(["s5", "b4"]), judge(["s3", "b2"])]) == [1]  # Sportskeeda's 3/2 beats 5/4
    assert winners([judge(["s1", "b3"]), judge(["s3", "b5"])]) == [0]
    assert winners([judge(["s1", "b2"]), judge(["s6", "b4"])]) == [0]  # the lower difference first
    # Markdown: Sylop+2 is 0/2, difference 2, lower card 0: it beats 3/5.
    assert winners([judge(["ss", "b2"], effects=MARKDOWN), judge(["s3", "b5"], effects=MARKDOWN)]) == [0]


def test_k21_equal_hands_are_an_exact_tie_and_every_tied_best_hand_wins():
    assert winners([judge(["s2", "b4"]), judge(["s4", "b2"]), judge(["s5", "b1"])]) == [0, 1]
    assert winners([judge(["s6", "b1"])]) == [0]  # a round always has a winner


def test_k35_cook_the_books_reverses_only_the_numbered_sabaccs():
    ones, sixes = judge(["s1", "b1"], effects=COOK), judge(["s6", "b6"], effects=COOK)
    assert sixes.rank > ones.rank
    assert judge(["ss", "bs"], effects=COOK).rank > sixes.rank  # Pure Sabacc stays first
    assert ones.rank > judge(["s2", "b1"], effects=COOK).rank  # every Sabacc still beats the rest
    assert judge(["s2", "b1"], effects=COOK).rank > judge(["s5", "b4"], effects=COOK).rank  # unchanged
    # K33: a second play restores the order (the effect is a switch, flipped by each play).
    assert winners([judge(["s1", "b1"], effects=Effects(cook_the_books=not COOK.cook_the_books)),
                    judge(["s6", "b6"])]) == [0]


def test_k35_prime_sabacc_ranks_any_sabacc_of_its_value_just_under_pure():
    prime = Effects(prime_sabacc=4)
    assert judge(["ss", "b4"], effects=prime).kind == "prime_sabacc"
    assert judge(["si", "b4"], [4], prime).kind == "prime_sabacc"
    assert judge(["s4", "b4"], effects=prime).rank > judge(["s1", "b1"], effects=prime).rank
    assert judge(["ss", "bs"], effects=prime).rank > judge(["s4", "b4"], effects=prime).rank
    # Under Cook the Books too, Prime stays second: above the reversed order's best (6/6).
    both = Effects(prime_sabacc=2, cook_the_books=True)
    assert judge(["s2", "b2"], effects=both).rank > judge(["s6", "b6"], effects=both).rank
    assert judge(["s2", "b3"], effects=prime).kind == "non_sabacc"


def test_k35_major_fraud_and_markdown_change_the_values_not_the_order():
    assert judge(["si", "bi"], effects=FRAUD).values == (6, 6)
    assert judge(["ss", "bi"], effects=Effects(major_fraud=True, markdown=True)).values == (0, 6)
    assert judge(["ss", "b5"], effects=MARKDOWN).difference == 5


def test_k32_immunity_never_exempts_a_hand_from_the_judging_tokens():
    judging = [t.code for t in TOKENS if t.judging]
    assert judging == ["major_fraud", "cook_the_books", "markdown", "prime_sabacc"]
    assert not any(TOKEN_BY_CODE[c].protected for c in judging)  # one ranking for the whole table
    assert {t.code for t in TOKENS if t.protected} == {
        "embezzlement", "general_tariff", "target_tariff", "general_audit", "target_audit", "embargo",
        "exhaustion", "direct_transaction"}


# -- the tokens' chips (K31, K35, K36) ------------------------------------------------------


def test_k35_the_sixteen_tokens_and_what_each_one_enters():
    assert len(TOKENS) == 16 and len(TOKEN_BY_CODE) == 16
    assert {t.code for t in TOKENS if t.target} == {"target_tariff", "target_audit", "exhaustion",
                                                    "direct_transaction"}  # K30
    assert [t.code for t in TOKENS if t.target_in_stand] == ["target_audit"]
    assert [(t.code, t.amount) for t in TOKENS if t.who_pays] == [
        ("general_tariff", 1), ("target_tariff", 2), ("general_audit", 2), ("target_audit", 3)]
    assert TOKEN_BY_CODE["prime_sabacc"].entered == "value"


def test_k31_pays_n_takes_what_stock_has_and_reports_the_shortfall():
    p = Pile(2, 1)
    assert pay(p, 3, "invested") == (2, 1) and p == Pile(0, 3)
    p = Pile(2, 1)
    assert pay(p, 3, "out") == (2, 1) and p == Pile(0, 1)  # K36 "out": gone at once


def test_k36_tariff_chips_go_into_the_payers_invested_pile_and_return_if_they_win():
    piles = {"Ana": Pile(5), "Ben": Pile(5)}
    pay(piles["Ben"], 2, "invested")  # a Target Tariff on Ben
    s = settle([Seat("Ana", judge(["s3", "b1"]), piles["Ana"].stock, 0),
                Seat("Ben", judge(["s2", "b2"]), piles["Ben"].stock, piles["Ben"].invested)])
    assert s.chips_after == {"Ana": 3, "Ben": 5}  # Ben won: his tariff came back; Ana paid 2


def test_k35_refund_returns_at_most_what_is_invested():
    p = Pile(3, 1)
    assert refund(p, 2) == 1 and p == Pile(4, 0)
    p = Pile(0, 5)
    assert refund(p, 3) == 3 and p == Pile(3, 2)


def test_k36_embezzlement_moves_one_chip_between_invested_piles_from_those_who_have_one():
    piles = {"Ana": Pile(2, 0), "Ben": Pile(1, 2), "Cas": Pile(4, 0), "Dax": Pile(0, 1)}
    before = in_play(piles)
    assert embezzle(piles, "Ana", ["Ben", "Cas"]) == ["Ben"]  # Dax immune: not among the reached
    assert piles["Ana"] == Pile(2, 1) and piles["Ben"] == Pile(1, 1) and in_play(piles) == before


def test_k10_a_paid_draw_needs_stock_and_free_draw_costs_nothing():
    p = Pile(0, 2)
    with pytest.raises(NoChips):
        draw(p)
    draw(p, free=True)
    assert p == Pile(0, 2)
    p = Pile(1)
    draw(p)
    assert p == Pile(0, 1)


# -- settlement (K22–K27, K37, K40) ---------------------------------------------------------


def test_k22_winners_take_back_their_invested_pile_and_nothing_from_anyone():
    s = _settle([("Ana", ["s1", "b1"], [], 2, 3), ("Ben", ["s5", "b4"], [], 4, 2)])
    assert s.winners == ["Ana"] and s.chips_after["Ana"] == 5


def test_k23_a_loser_loses_the_invested_pile_and_pays_1_for_a_sabacc_else_the_difference():
    s = _settle([("Ana", ["ss", "bs"], [], 1, 0), ("Ben", ["s4", "b4"], [], 5, 2),
                 ("Cas", ["s6", "b2"], [], 5, 2), ("Dax", ["s6", "b1"], [], 2, 1)])
    assert _penalties(s) == {"Ben": ("sabacc", 1, 0), "Cas": ("difference", 4, 0), "Dax": ("difference", 2, 3)}
    assert s.chips_after == {"Ana": 1, "Ben": 4, "Cas": 1, "Dax": 0}
    assert penalty(judge(["si", "b2"], [2])) == 1  # an Impostor Sabacc is a Sabacc


def test_k23_a_loser_with_no_stock_pays_nothing_and_owes_the_whole_penalty():
    s = _settle([("Ana", ["s2", "b2"], [], 1, 1), ("Ben", ["s5", "b3"], [], 0, 3)])
    assert _penalties(s) == {"Ben": ("difference", 0, 2)} and s.chips_removed == 3


def test_k24_chips_only_leave_the_table():
    s = _settle([("Ana", ["s3", "b2"], [], 3, 1), ("Ben", ["s5", "b4"], [], 4, 2), ("Cas", ["s6", "b1"], [], 3, 0)])
    before = 3 + 1 + 4 + 2 + 3 + 0
    assert s.conserved() and sum(s.chips_after.values()) == before - s.chips_removed == 7
    assert s.chips_removed == 2 + 1 + 3  # Ben's invested 2 and penalty 1, Cas's penalty 3 (capped)


def test_k25_a_player_at_0_is_eliminated_even_a_winner_with_nothing_invested():
    s = _settle([("Ana", ["s2", "b2"], [], 0, 0), ("Ben", ["s5", "b3"], [], 3, 0), ("Cas", ["s6", "b1"], [], 6, 0)])
    assert s.winners == ["Ana"] and s.eliminated == ["Ana"] and not s.game_over
    assert s.chips_after == {"Ana": 0, "Ben": 1, "Cas": 1}


def test_k25_players_out_at_the_same_reveal_share_the_place():
    s = _settle([("Ana", ["s1", "b1"], [], 4, 0), ("Ben", ["s5", "b3"], [], 1, 2), ("Cas", ["s6", "b1"], [], 2, 0),
                 ("Dax", ["s4", "b3"], [], 3, 0)])
    assert s.eliminated == ["Ben", "Cas"] and not s.game_over and s.game_winners == []


def test_k26_the_last_player_with_chips_takes_the_whole_credits_pot():
    s = _settle([("Ana", ["s1", "b1"], [], 1, 0), ("Ben", ["s5", "b3"], [], 1, 0), ("Cas", ["s6", "b1"], [], 2, 0)],
                credits_pot=300)
    assert s.game_over and s.game_winners == ["Ana"] and s.credits_payouts == {"Ana": 300, "Ben": 0, "Cas": 0}


def test_k27_everyone_out_at_once_the_rounds_winners_split_the_pot_odd_credits_from_the_starter():
    s = _settle([("Ana", ["s2", "b4"], [], 0, 0), ("Ben", ["s6", "b1"], [], 1, 0), ("Cas", ["s4", "b2"], [], 0, 0)],
                credits_pot=301)
    assert s.winners == ["Ana", "Cas"] and s.game_winners == ["Ana", "Cas"]
    assert s.credits_payouts == {"Ana": 151, "Ben": 0, "Cas": 150}


def test_k37_a_player_at_0_stock_who_wins_gets_the_invested_pile_back_and_stays():
    s = _settle([("Ana", ["s1", "b1"], [], 0, 3), ("Ben", ["s5", "b4"], [], 4, 1)])
    assert s.chips_after == {"Ana": 3, "Ben": 3} and s.eliminated == []


def test_k40_everyone_ties_nobody_pays_and_no_chip_leaves():
    s = _settle([("Ana", ["s2", "b4"], [], 2, 2), ("Ben", ["s4", "b2"], [], 3, 1)])
    assert s.winners == ["Ana", "Ben"] and s.penalties == [] and s.chips_removed == 0
    assert s.chips_after == {"Ana": 4, "Ben": 4}


def test_k38_two_players_left_nothing_changes():
    s = _settle([("Ana", ["s3", "b3"], [], 2, 1), ("Ben", ["s3", "b1"], [], 4, 1)])
    assert s.winners == ["Ana"] and _penalties(s) == {"Ben": ("difference", 2, 0)}


# -- the rules file's examples --------------------------------------------------------------

#: The eleven settlement examples: rows (name, cards, impostors, stock, invested), effects, and
#: the table's result: winners, penalties {name: (reason, amount, shortfall)}, stock after,
#: eliminated, game winners.
EXAMPLES = {
    1: ([("Ana", ["s2", "b2"], [], 3, 2), ("Ben", ["s4", "b1"], [], 4, 1)], Effects(),
        ["Ana"], {"Ben": ("difference", 3, 0)}, {"Ana": 5, "Ben": 1}, [], []),
    2: ([("Ana", ["ss", "bs"], [], 6, 0), ("Ben", ["s1", "b1"], [], 3, 3), ("Cas", ["s6", "b6"], [], 2, 1)], Effects(),
        ["Ana"], {"Ben": ("sabacc", 1, 0), "Cas": ("sabacc", 1, 0)}, {"Ana": 6, "Ben": 2, "Cas": 1}, [], []),
    3: ([("Ana", ["ss", "b3"], [], 2, 2), ("Ben", ["s3", "b3"], [], 4, 1), ("Cas", ["s1", "b2"], [], 5, 0)], Effects(),
        ["Ana", "Ben"], {"Cas": ("difference", 1, 0)}, {"Ana": 4, "Ben": 5, "Cas": 4}, [], []),
    4: ([("Ana", ["s3", "b2"], [], 3, 1), ("Ben", ["s5", "b4"], [], 4, 2), ("Cas", ["s6", "b1"], [], 3, 0)], Effects(),
        ["Ana"], {"Ben": ("difference", 1, 0), "Cas": ("difference", 3, 2)}, {"Ana": 4, "Ben": 3, "Cas": 0},
        ["Cas"], []),
    5: ([("Ana", ["si", "bs"], [2], 1, 3), ("Ben", ["s1", "bi"], [1], 2, 2)], Effects(),
        ["Ben"], {"Ana": ("sabacc", 1, 0)}, {"Ana": 0, "Ben": 4}, ["Ana"], ["Ben"]),
    6: ([("Ana", ["s1", "b1"], [], 5, 0), ("Ben", ["s6", "b6"], [], 1, 2), ("Cas", ["s2", "b5"], [], 4, 1)], COOK,
        ["Ben"], {"Ana": ("sabacc", 1, 0), "Cas": ("difference", 3, 0)}, {"Ana": 4, "Ben": 3, "Cas": 1}, [], []),
    7: ([("Ana", ["s4", "b4"], [], 3, 1), ("Ben", ["ss", "bs"], [], 2, 0), ("Cas", ["s1", "b1"], [], 2, 2)],
        Effects(prime_sabacc=4),
        ["Ben"], {"Ana": ("sabacc", 1, 0), "Cas": ("sabacc", 1, 0)}, {"Ana": 2, "Ben": 2, "Cas": 1}, [], []),
    8: ([("Ana", ["ss", "b2"], [], 4, 1), ("Ben", ["s3", "b5"], [], 4, 1)], MARKDOWN,
        ["Ana"], {"Ben": ("difference", 2, 0)}, {"Ana": 5, "Ben": 2}, [], []),
    9: ([("Ana", ["si", "b6"], [], 2, 2), ("Ben", ["s2", "b3"], [], 4, 0)], FRAUD,
        ["Ana"], {"Ben": ("difference", 1, 0)}, {"Ana": 4, "Ben": 3}, [], []),
    10: ([("Ana", ["s2", "b4"], [], 2, 1), ("Ben", ["s4", "b2"], [], 1, 2), ("Cas", ["s5", "b1"], [], 3, 0)],
         Effects(), ["Ana", "Ben"], {"Cas": ("difference", 3, 1)}, {"Ana": 3, "Ben": 3, "Cas": 0}, ["Cas"], []),
    11: ([("Ana", ["s2", "b2"], [], 0, 0), ("Ben", ["s5", "b3"], [], 0, 3)], Effects(),
         ["Ana"], {"Ben": ("difference", 0, 2)}, {"Ana": 0, "Ben": 0}, ["Ana", "Ben"], ["Ana"]),
}


@pytest.mark.parametrize("number", list(EXAMPLES))
def test_the_settlement_examples_of_the_rules_file(number):
    rows, effects, won, penalties, after, out, game = EXAMPLES[number]
    s = _settle(rows, effects, credits_pot=200)
    assert s.winners == won and _penalties(s) == penalties and s.chips_after == after
    assert s.eliminated == out and s.game_winners == game and s.game_over == bool(game)
    assert s.conserved()  # "Check each row with K24"
    if game:  # K26, K27: the whole credits pot to the game's winners
        assert sum(s.credits_payouts.values()) == 200 and s.credits_payouts[game[0]] == 200 // len(game)
    else:
        assert s.credits_payouts is None


def test_the_examples_k24_check_of_row_4():
    rows = EXAMPLES[4][0]
    s = _settle(rows)
    assert sum(stock for *_, stock, _ in rows) == 10 and s.chips_removed == 6 and sum(s.chips_after.values()) == 7


@pytest.mark.parametrize("tariff_chips, after", [("invested", {"Kay": 1, "Lando": 6, "Vel": 3}),
                                                 ("out", {"Kay": 1, "Lando": 5, "Vel": 3})])
def test_the_worked_round_of_the_rules_file(tariff_chips, after):
    piles = {n: Pile(6) for n in ("Kay", "Lando", "Vel")}
    # Turn 1: Kay draws; Lando draws from the discard pile; Vel stands.
    draw(piles["Kay"])
    draw(piles["Lando"])
    # Turn 2: Kay plays General Tariff (Lando and Vel pay 1) and stands; Lando stands; Vel plays
    # Target Audit on Kay (in stand: pays 3), then draws.
    for n in ("Lando", "Vel"):
        pay(piles[n], 1, tariff_chips)
    assert pay(piles["Kay"], 3, tariff_chips) == (3, 0)
    draw(piles["Vel"])
    if tariff_chips == "invested":
        assert (piles["Kay"], piles["Lando"], piles["Vel"]) == (Pile(2, 4), Pile(4, 2), Pile(4, 2))
    # Turn 3: Lando plays Refund (2 back; 1 under "out", where only 1 is invested).
    assert refund(piles["Lando"], 2) == (2 if tariff_chips == "invested" else 1)
    before = in_play(piles)
    s = settle([Seat("Kay", judge(["s5", "b5"]), piles["Kay"].stock, piles["Kay"].invested),
                Seat("Lando", judge(["s2", "b2"]), piles["Lando"].stock, piles["Lando"].invested),
                Seat("Vel", judge(["s3", "bi"], [4]), piles["Vel"].stock, piles["Vel"].invested)])
    assert s.winners == ["Lando"] and s.chips_after == after and s.conserved()
    if tariff_chips == "invested":  # "The chips in play fall from 18 to 10."
        assert before == 18 and sum(s.chips_after.values()) == 10


# -- random rounds with tokens (K24, K31, K35, K36) -----------------------------------------

#: The tokens that move chips, and those that change the judging (the others touch cards or
#: the order of play, not the chips).
CHIP_TOKENS = ("free_draw", "refund", "extra_refund", "embezzlement", "general_tariff", "target_tariff",
               "general_audit", "target_audit", "immunity")


@st.composite
def games(draw_):
    n = draw_(st.integers(2, 8))
    chips = draw_(st.integers(4, 8))
    tariff = draw_(st.sampled_from(["invested", "out"]))
    seed = draw_(st.randoms(use_true_random=False))
    return n, chips, tariff, seed


@settings(max_examples=examples(150), deadline=None)
@given(games())
def test_random_games_with_tokens_keep_k24_and_end_with_one_winner_taking_the_credits_pot(game):
    n, chips, tariff, rnd = game
    names = [f"P{i}" for i in range(n)]
    piles = {p: Pile(chips) for p in names}
    tokens = {p: rnd.sample([t.code for t in TOKENS], 3) for p in names}
    credits_pot, paid_out, starter = 100 * n, None, 0
    for _ in range(200):  # rounds, until the game is over
        round_start = in_play(piles)
        playing = [p for p in names if piles[p].stock > 0]
        order = playing[starter % len(playing):] + playing[:starter % len(playing)]
        immune: set[str] = set()
        effects = Effects()
        last: dict[str, str] = {}
        out_by_tariff = 0
        for _turn in range(3):
            for p in order:
                free = False
                if tokens[p] and rnd.random() < 0.3:
                    code = tokens[p].pop(rnd.randrange(len(tokens[p])))
                    others = [o for o in order if o != p and o not in immune]
                    t = TOKEN_BY_CODE[code]
                    if code == "free_draw":
                        free = True
                    elif code in ("refund", "extra_refund"):
                        refund(piles[p], t.amount)
                    elif code == "embezzlement":
                        embezzle(piles, p, others)
                    elif code == "immunity":
                        immune.add(p)
                    elif t.who_pays:
                        hit = {"others": others, "others_in_stand": [o for o in others if last.get(o) == "stand"],
                               "target": [rnd.choice(others)] if others and code == "target_tariff" else
                               [rnd.choice(s)] if (s := [o for o in others if last.get(o) == "stand"]) else []}
                        for o in hit[t.who_pays]:
                            stock = piles[o].stock
                            paid, short = pay(piles[o], t.amount, tariff)
                            assert paid + short == t.amount and paid == min(stock, t.amount)
                            out_by_tariff += paid if tariff == "out" else 0
                    elif code == "cook_the_books":
                        effects = Effects(effects.major_fraud, effects.markdown, not effects.cook_the_books,
                                          effects.prime_sabacc)
                    elif code == "major_fraud":
                        effects = Effects(True, effects.markdown, effects.cook_the_books, effects.prime_sabacc)
                    elif code == "markdown":
                        effects = Effects(effects.major_fraud, True, effects.cook_the_books, effects.prime_sabacc)
                    elif code == "prime_sabacc":
                        effects = Effects(effects.major_fraud, effects.markdown, effects.cook_the_books,
                                          rnd.randint(1, 6))
                if (piles[p].stock or free) and rnd.random() < 0.6:
                    draw(piles[p], free)
                    last[p] = "draw"
                else:
                    last[p] = "stand"
                assert all(x.stock >= 0 and x.invested >= 0 for x in piles.values())
        # Tokens only move chips between the piles; under "out" tariffs and audits remove theirs.
        assert in_play(piles) == round_start - out_by_tariff
        # The reveal: one Sand and one Blood card each from shuffled families; Impostors rolled.
        sand = [c for c in KESSEL_DECK.physical if c[0] == "s"]
        blood = [c for c in KESSEL_DECK.physical if c[0] == "b"]
        rnd.shuffle(sand)
        rnd.shuffle(blood)
        seats = []
        for p in order:
            cards = [sand.pop(), blood.pop()]
            imps = [] if effects.major_fraud else [rnd.choice(rnd.sample(range(1, 7), 2))
                                                   for c in cards if c[1] == "i"]
            seats.append(Seat(p, judge(cards, imps, effects), piles[p].stock, piles[p].invested))
        before = in_play(piles)
        s = settle(seats, credits_pot)
        # K24, and every round has a winner, and stock never goes negative.
        assert s.conserved() and s.winners
        assert sum(s.chips_after.values()) == before - s.chips_removed <= before
        assert all(v >= 0 for v in s.chips_after.values())
        assert s.chips_removed >= sum(x.invested for x in seats if x.name not in s.winners)
        for p, v in s.chips_after.items():
            piles[p] = Pile(v)
        holders = [p for p in order if s.chips_after[p] > 0]
        assert s.game_over == (len(holders) <= 1)
        if s.game_over:  # K26: the one player with chips; K27: nobody has, the round's winners
            assert s.game_winners == (holders or s.winners)
            paid_out = s.credits_payouts
            break
        starter += 1
    assert paid_out is not None, "the game ends: chips only leave the table"
    assert sum(paid_out.values()) == credits_pot
    holders = [p for p in names if piles[p].stock > 0]
    assert len(holders) <= 1 and (not holders or paid_out[holders[0]] == credits_pot)
