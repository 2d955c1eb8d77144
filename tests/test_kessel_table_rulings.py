"""Kessel's rulings about a round at the live table (RULES-KESSEL.md K6–K14, K28–K34), one test
each, on the engine the API runs (companion.table.engine.Table)."""

from __future__ import annotations

import pytest

from companion.table.engine import HOST, Refused, Table

NAMES = ("Kay", "Lando", "Vel", "Han")


def start(rules="kessel-plain", players=3, tokens=None) -> tuple[Table, list[str]]:
    """A started game, its discard piles turned up (s1, b1); the players from the starter."""
    t = Table.create("K", {"rules": rules})
    for i in range(players):
        t.apply({"type": "join", "name": NAMES[i]}, None)
    for sid in t.seat_ids():
        t.apply({"type": "buy_in"}, sid)
    t.apply({"type": "start_hand"}, HOST)
    order = game(t)["in_game"]
    for sid, chosen in zip(order, tokens or []):
        t.apply({"type": "choose_tokens", "tokens": chosen}, sid)
    t.apply({"type": "turn_up", "sand": "s1", "blood": "b1"}, HOST)
    return t, order


def game(t: Table) -> dict:
    return t.to_json()["hand"]["game"]


def refused(t: Table, body: dict, actor) -> Refused:
    with pytest.raises(Refused) as exc:
        t.apply(body, actor)
    return exc.value


def stand_all(t: Table, order: list[str]) -> None:
    for sid in order:
        t.apply({"type": "stand"}, sid)


def test_k6_the_starter_sits_left_of_the_dealer_and_both_move_on_skipping_the_eliminated():
    t = Table.create("K", {"rules": {"preset": "kessel-plain", "chips": 4}})
    for i in range(4):
        t.apply({"type": "join", "name": NAMES[i]}, None)
    s1, s2, s3, s4 = t.seat_ids()
    for sid in (s1, s2, s3, s4):
        t.apply({"type": "buy_in"}, sid)
    t.apply({"type": "set_dealer", "seat": s2}, HOST)  # the host sets the first dealer
    t.apply({"type": "start_hand"}, HOST)
    g = game(t)
    assert (g["dealer"], g["starter"], g["in_game"]) == (s2, s3, [s3, s4, s1, s2])
    t.apply({"type": "turn_up", "sand": "s1", "blood": "b1"}, s2)  # the dealer turns them up
    stand_all(t, [s3, s4, s1, s2])
    # s4 loses everything (owes 5, has 4); the others lose 1 each.
    for sid, cards in ((s3, ["s2", "b2"]), (s4, ["s6", "b1"]), (s1, ["s3", "b3"]), (s2, ["s4", "b4"])):
        t.apply({"type": "show_hand", "cards": cards}, sid)
    g = game(t)
    assert list(g["out"]) == [s4]
    assert (g["dealer"], g["starter"], g["in_game"]) == (s3, s1, [s1, s2, s3])  # s4 skipped


def test_k8_a_round_is_three_turns_each_player_acting_once_a_turn_clockwise():
    t, (a, b, c) = start()
    seen = []
    for _ in range(3):
        for sid in (a, b, c):
            g = game(t)
            seen.append((g["turn"], g["to_act"]))
            t.apply({"type": "draw_card", "pile": "sand_discard", "keep": False}, sid)
    assert seen == [(n, sid) for n in (1, 2, 3) for sid in (a, b, c)] and game(t)["stage"] == "reveal"


def test_k9_a_draw_costs_1_and_the_card_put_on_a_discard_pile_is_entered():
    t, (a, b, c) = start()
    t.apply({"type": "draw_card", "pile": "blood_draw", "keep": True, "discard": "b5"}, a)
    assert game(t)["chips"][a] == {"stock": 5, "invested": 1}
    assert game(t)["discards"]["blood"] == ["b1", "b5"]
    t.apply({"type": "draw_card", "pile": "blood_discard", "keep": True, "discard": "b2"}, b)
    assert game(t)["discards"]["blood"] == ["b1", "b2"]  # b5 taken, b2 on top
    assert refused(t, {"type": "draw_card", "pile": "blood_draw", "keep": False}, c).field == "discard"
    assert refused(t, {"type": "draw_card", "pile": "blood_draw", "keep": False, "discard": "s2"}, c).error == \
        "Sand 2 is not a Blood card"


def test_k11_everyone_standing_in_a_turn_ends_the_round_at_once():
    t, order = start()
    t.apply({"type": "draw_card", "pile": "sand_discard", "keep": False}, order[0])
    stand_all(t, order[1:])
    assert game(t)["stage"] == "turns" and game(t)["turn"] == 2  # one drew in turn 1
    stand_all(t, order)
    assert game(t)["stage"] == "reveal" and game(t)["turn"] == 2


def test_k14_each_draw_pile_is_counted():
    t, (a, b, c) = start()
    assert game(t)["draw_left"] == {"sand": 18, "blood": 18}  # 22 - 3 dealt - 1 turned up
    t.apply({"type": "draw_card", "pile": "sand_draw", "keep": False, "discard": "s4"}, a)
    t.apply({"type": "draw_card", "pile": "sand_discard", "keep": False}, b)
    assert game(t)["draw_left"] == {"sand": 17, "blood": 18}


def test_k17_hands_are_shown_one_at_a_time_from_the_starter_and_face_up_at_once():
    t, (a, b, c) = start()
    stand_all(t, (a, b, c))  # everyone stands: the reveal (K11)
    assert refused(t, {"type": "show_hand", "cards": ["s2", "b2"]}, b).status == 409
    t.apply({"type": "show_hand", "cards": ["s2", "bi"]}, a)
    assert refused(t, {"type": "show_hand", "cards": ["s3", "b3"]}, b).error == \
        "first the dice for the Impostor: roll the scrambler"
    t.apply({"type": "roll", "dice": [5, 2]}, HOST)
    t.apply({"type": "choose_value", "value": 2}, a)
    shown = t.view(c)["hand"]["game"]["shown"]  # public before the others show (K17)
    assert shown[a]["values"] == [2, 2] and shown[a]["kind"] == "sabacc"
    assert refused(t, {"type": "show_hand", "cards": ["s3", "b3"]}, c).error == \
        "hands are shown clockwise from the starter: Lando shows next"


def test_k15_the_discard_piles_count_against_the_copies_at_the_reveal():
    t, (a, b, c) = start()
    for sid in (a, b):
        t.apply({"type": "draw_card", "pile": "blood_draw", "keep": False, "discard": "b1"}, sid)
    t.apply({"type": "stand"}, c)
    stand_all(t, (a, b, c))
    err = refused(t, {"type": "show_hand", "cards": ["s2", "b1"]}, a)  # b1 three times on the pile
    assert (err.status, err.field) == (422, "cards") and "the deck has 3" in err.error


def test_k28_each_players_tokens_are_theirs_alone_the_others_see_how_many():
    t, order = start("kessel", 2, tokens=[["refund", "embargo", "immunity"], ["markdown", "free_draw", "refund"]])
    a, b = order
    assert t.view(a)["you"]["tokens"] == ["refund", "embargo", "immunity"]
    assert t.view(b)["hand"]["game"]["tokens_left"] == {a: 3, b: 3} and "tokens" not in t.view(b)["hand"]["game"]


def test_k29_one_token_a_turn_at_the_start_of_ones_own_turn():
    t, (a, b) = start("kessel", 2, tokens=[["refund", "embargo", "immunity"], ["markdown", "free_draw", "refund"]])
    assert refused(t, {"type": "play_token", "token": "markdown"}, b).error == "it is Kay's turn"
    t.apply({"type": "play_token", "token": "immunity"}, a)
    assert refused(t, {"type": "play_token", "token": "refund"}, a).error == "one token a turn: you have played one"
    t.apply({"type": "draw_card", "pile": "sand_discard", "keep": False}, a)
    assert refused(t, {"type": "play_token", "token": "refund"}, a).status == 409  # not after the draw
    t.apply({"type": "play_token", "token": "markdown"}, b)  # the next player's own token
    stand_all(t, (b,))
    stand_all(t, (a, b))  # everyone stands in turn 2: the reveal (K11)
    assert refused(t, {"type": "play_token", "token": "refund"}, a).status == 409  # never at the reveal


def test_k30_a_targeted_token_needs_a_valid_target_and_a_token_with_none_is_not_offered():
    t, (a, b) = start("kessel", 2, tokens=[["target_audit", "target_tariff", "exhaustion"], ["immunity", "refund",
                                                                                             "embargo"]])
    assert refused(t, {"type": "play_token", "token": "target_tariff"}, a).field == "target"
    err = refused(t, {"type": "play_token", "token": "target_audit", "target": b}, a)
    assert err.error == "Lando cannot be the target of Target Audit (not in stand)"
    assert "target_audit" not in [o.get("token") for o in t.legal(a)]  # nobody in stand yet
    t.apply({"type": "stand"}, a)
    t.apply({"type": "play_token", "token": "immunity"}, b)
    t.apply({"type": "draw_card", "pile": "sand_discard", "keep": False}, b)
    assert [o.get("token") for o in t.legal(a) if o["type"] == "play_token"] == []  # b immune: no target
    assert refused(t, {"type": "play_token", "token": "target_tariff", "target": b}, a).error == \
        "Lando cannot be the target of Target Tariff (immune)"


def test_k33_prime_sabacc_again_replaces_the_value_and_cook_the_books_again_restores_the_order():
    t, (a, b) = start("kessel", 2, tokens=[["prime_sabacc", "cook_the_books", "refund"],
                                          ["prime_sabacc", "cook_the_books", "markdown"]])
    t.apply({"type": "play_token", "token": "prime_sabacc"}, a)
    assert refused(t, {"type": "stand"}, a).error == "first the dice for the Prime Sabacc token: roll the scrambler"
    t.apply({"type": "roll", "dice": [3, 1]}, a)
    t.apply({"type": "choose_value", "value": 3}, a)
    assert game(t)["effects"]["prime_sabacc"] == 3
    t.apply({"type": "draw_card", "pile": "sand_discard", "keep": False}, a)
    t.apply({"type": "play_token", "token": "prime_sabacc"}, b)
    t.apply({"type": "roll", "dice": [5, 5]}, HOST)
    t.apply({"type": "choose_value", "value": 5}, b)
    t.apply({"type": "stand"}, b)
    t.apply({"type": "play_token", "token": "cook_the_books"}, a)
    t.apply({"type": "draw_card", "pile": "sand_discard", "keep": False}, a)
    t.apply({"type": "play_token", "token": "cook_the_books"}, b)
    t.apply({"type": "stand"}, b)
    assert game(t)["effects"] == {"major_fraud": False, "markdown": False, "cook_the_books": False,
                                  "prime_sabacc": 5}
    stand_all(t, (a, b))
    t.apply({"type": "show_hand", "cards": ["s3", "b3"]}, a)
    t.apply({"type": "show_hand", "cards": ["s5", "b5"]}, b)  # Prime Sabacc of 5 beats 3/3
    assert game(t)["rounds"][0]["winners"] == [b]


def test_k34_every_effect_ends_with_the_settlement():
    t, (a, b) = start("kessel", 2, tokens=[["markdown", "immunity", "refund"], ["major_fraud", "embargo", "refund"]])
    t.apply({"type": "play_token", "token": "markdown"}, a)
    t.apply({"type": "draw_card", "pile": "sand_discard", "keep": False}, a)
    t.apply({"type": "play_token", "token": "major_fraud"}, b)
    t.apply({"type": "stand"}, b)
    t.apply({"type": "play_token", "token": "immunity"}, a)
    t.apply({"type": "stand"}, a)
    t.apply({"type": "play_token", "token": "embargo"}, b)  # a acts next, but is immune
    assert game(t)["embargo"] is None  # Embargo skips an immune player (K32)
    t.apply({"type": "draw_card", "pile": "sand_discard", "keep": False}, b)
    stand_all(t, (a, b))
    t.apply({"type": "show_hand", "cards": ["ss", "b2"]}, a)  # Markdown: 0/2
    t.apply({"type": "show_hand", "cards": ["si", "b6"]}, b)  # Major Fraud: 6/6
    assert game(t)["rounds"][0]["winners"] == [b]
    g = game(t)
    assert g["effects"] == {"major_fraud": False, "markdown": False, "cook_the_books": False, "prime_sabacc": None}
    assert g["immune"] == [] and g["embargo"] is None and g["round"] == 2


def test_the_host_plays_a_seat_without_a_phone_and_a_seat_plays_only_its_own_moves():
    t, (a, b, c) = start("kessel", 3, tokens=[["refund", "embargo", "immunity"], ["markdown", "free_draw", "refund"],
                                            ["general_tariff", "refund", "immunity"]])
    assert refused(t, {"type": "stand", "seat": a}, b).status == 403  # not for another seat
    assert refused(t, {"type": "stand"}, HOST).field == "seat"  # the host names the seat
    t.apply({"type": "play_token", "token": "embargo", "seat": a}, HOST)
    t.apply({"type": "draw_card", "pile": "blood_discard", "keep": False, "seat": a}, HOST)
    g = game(t)
    assert g["chips"][a] == {"stock": 5, "invested": 1} and g["embargo"] == b and g["to_act"] == b
    assert [p["token"] for p in g["played"]] == ["embargo"] and g["tokens"][a] == ["refund", "immunity"]


def test_k39_a_player_leaving_while_tokens_are_chosen_the_dealer_leaving_and_a_leaver_awaiting_dice():
    """K39 at each moment of a round: the game waits for no leaver's token choice; a dealer who
    leaves before turning up the piles hands that to the next player in the game; a player
    whose Impostor dice are awaited at the reveal takes their shown cards off the table
    (onto the discard piles) and the round is settled among the others."""
    t = Table.create("K", {"rules": {"preset": "kessel", "chips": 4}})
    for i in range(4):
        t.apply({"type": "join", "name": NAMES[i]}, None)
    s1, s2, s3, s4 = t.seat_ids()
    for sid in (s1, s2, s3, s4):
        t.apply({"type": "buy_in"}, sid)
    t.apply({"type": "set_dealer", "seat": s4}, HOST)
    t.apply({"type": "start_hand"}, HOST)
    for sid in (s1, s2):
        t.apply({"type": "choose_tokens", "tokens": ["refund", "embargo", "immunity"]}, sid)
    t.apply({"type": "leave"}, s3)  # s3 has not chosen; s4 still has to
    assert game(t)["stage"] == "tokens" and game(t)["in_game"] == [s1, s2, s4]
    t.apply({"type": "choose_tokens", "tokens": ["refund", "embargo", "immunity"]}, s4)
    assert game(t)["stage"] == "deal" and game(t)["dealer"] == s4
    assert refused(t, {"type": "leave", "cards": ["s1", "b1"]}, s4).field == "cards"  # no cards in play yet
    t.apply({"type": "leave"}, s4)  # the dealer leaves: s1, next in the game, turns up
    assert game(t)["dealer"] == s1 and t.to_json()["dealer"] == s1
    t.apply({"type": "turn_up", "sand": "s4", "blood": "b6"}, s1)
    stand_all(t, [s1, s2])
    t.apply({"type": "show_hand", "cards": ["s2", "b3"]}, s1)
    t.apply({"type": "show_hand", "cards": ["si", "b5"]}, s2)
    assert game(t)["pending"]["seat"] == s2
    t.apply({"type": "leave"}, s2)  # the cards are known: none entered; s1 is the last and wins
    g = game(t)
    assert g["pending"] is None and g["winners"] == [s1] and g["stage"] == "over"
    assert (g["discards"]["sand"][-1], g["discards"]["blood"][-1]) == ("si", "b5")
    assert t.to_json()["seats"][s1]["stack"] == 400
