"""Targeted rules of the table engine: settings, seats, limits, turn order, calling rules per
preset, static-field limits, shift instructions, reveal validation and hidden information."""

from __future__ import annotations

import pytest

from companion.rules.rulesets import Trigger
from companion.table.engine import COMMANDS, HOST, SCRAMBLER, Refused, Table
from companion.table.offers import bare

NAMES = ["Lando", "Han", "Chewie", "Leia"]


def table(rules="classic", players=3, stack=30, **settings) -> Table:
    """A table with `players` seats (s1.. in order), each bought in for `stack`."""
    t = Table.create("TEST", {"rules": rules, **settings})
    for i in range(players):
        t.apply({"type": "join", "name": NAMES[i]}, None)
        sid = f"s{i + 1}"
        if t.rules.buy_in:
            t.apply({"type": "buy_in"}, sid)
        else:
            t.apply({"type": "buy_in", "amount": stack}, sid)
    return t


def refused(t: Table, entry: dict, actor) -> Refused:
    before = t.to_json()
    with pytest.raises(Refused) as info:
        t.apply(entry, actor)
    assert t.to_json() == before, "a refused command changed the table"
    return info.value


def do(t: Table, actor, type_, **fields):
    return t.apply({"type": type_, **fields}, actor)


def hand(t: Table, seat=None):
    return t.view(seat)["hand"]


# -- settings ---------------------------------------------------------------------------------

def test_settings_merge_top_level_rule_options_and_refuse_unknown_ones():
    t = Table.create("X", {"rules": "weg", "ante": 2, "bet_limit": 5, "house_dealer": True})
    assert (t.rules.ante, t.rules.bet_limit, t.rules.house_dealer) == (2, 5, True)
    with pytest.raises(Refused) as info:
        Table.create("X", {"rules": "weg", "colour": "red"})
    assert (info.value.status, info.value.field) == (422, "colour")
    with pytest.raises(Refused) as info:
        Table.create("X", {"rules": {"preset": "weg", "ante": 1}, "ante": 2})
    assert info.value.field == "ante"
    with pytest.raises(Refused) as info:
        Table.create("X", {"rules": {"preset": "nope"}})
    assert info.value.field == "rules.preset"
    with pytest.raises(Refused) as info:
        Table.create("X", {"rules": "weg", "chip_set": [{"name": "gold", "value": 0}]})
    assert info.value.field == "chip_set[0].value"


def test_malformed_commands_are_refused_with_the_field():
    t = table()
    assert refused(t, {"type": "teleport"}, "s1").field == "type"
    assert refused(t, {"type": "buy_in", "amount": "ten"}, "s1").field == "amount"
    assert refused(t, {"type": "buy_in", "amount": 5, "colour": 1}, "s1").field == "colour"
    assert refused(t, {"type": "bet"}, "s1").field == "amount"
    assert refused(t, ["bet"], "s1").status == 400


# -- seats ------------------------------------------------------------------------------------

def test_names_are_1_to_40_characters_and_unique_at_the_table():
    t = table(players=2)
    assert refused(t, {"type": "join", "name": "   "}, None).field == "name"
    assert refused(t, {"type": "join", "name": "x" * 41}, None).field == "name"
    assert refused(t, {"type": "join", "name": "lando"}, None).field == "name"
    assert do(t, None, "join", name="<b>Chewie</b>")[0] == {"type": "joined", "seat": "s3",
                                                          "name": "<b>Chewie</b>"}
    # 25 characters of markup: a name like any other (the pages escape it).
    assert do(t, None, "join", name="<script>alert(1)</script>")[0]["seat"] == "s4"
    assert do(t, None, "join", name="y" * 40)[0]["seat"] == "s5"


def test_a_full_table_refuses_another_seat():
    t = table(players=2, max_seats=2)
    assert refused(t, {"type": "join", "name": "Leia"}, None).status == 409


def test_fixed_buy_in_takes_exactly_the_rule_sets_amount():
    t = table("holodex", players=2)
    assert [s["stack"] for s in t.view()["seats"]] == [500, 500]
    assert refused(t, {"type": "buy_in", "amount": 300}, "s1").field == "amount"
    do(t, "s1", "buy_in")  # a rebuy
    assert t.view()["seats"][0]["stack"] == 1000
    free = table("classic", players=1)
    assert refused(free, {"type": "buy_in"}, "s1").field == "amount"


def test_cash_out_breaks_the_amount_into_the_tables_chips():
    t = table("holodex", players=2)
    events = do(t, "s1", "cash_out", amount=455)
    assert events[0]["words"] == "4 aurodium, 1 argentium, 1 bronzium"
    assert events[0]["stack"] == 45
    assert refused(t, {"type": "cash_out", "amount": 46}, "s1").field == "amount"


def test_a_seat_acts_only_for_itself_and_the_host_names_the_seat():
    t = table()
    assert refused(t, {"type": "sit_out", "seat": "s2"}, "s1").status == 403
    assert refused(t, {"type": "sit_out"}, HOST).field == "seat"
    assert refused(t, {"type": "start_hand"}, "s1").status == 403
    assert refused(t, {"type": "sit_out"}, "s9").status == 403
    do(t, HOST, "sit_out", seat="s2")
    assert t.view()["seats"][1]["sitting_out"] is True


def test_leaving_and_buying_in_wait_for_the_hand_to_end_sitting_out_counts_next_hand():
    t = table()
    do(t, HOST, "start_hand")
    assert refused(t, {"type": "leave"}, "s2").status == 409
    assert refused(t, {"type": "buy_in", "amount": 5}, "s2").status == 409
    do(t, "s2", "sit_out")
    assert [p["seat"] for p in hand(t)["players"]] == ["s2", "s3", "s1"]  # still in this hand


def test_host_adjusts_a_stack_only_with_a_reason_and_never_below_zero():
    t = table(stack=10)
    assert refused(t, {"type": "adjust", "seat": "s1", "amount": 5, "reason": "  "}, HOST).field == "reason"
    assert refused(t, {"type": "adjust", "seat": "s1", "amount": -11, "reason": "x"}, HOST).field == "amount"
    assert refused(t, {"type": "adjust", "seat": "s1", "amount": 5, "reason": "x"}, "s1").status == 403
    ev = do(t, HOST, "adjust", seat="s1", amount=-4, reason="spilled drink")
    assert ev[0]["stack"] == 6 and ev[0]["reason"] == "spilled drink"


def test_reorder_lists_every_seat_once_between_hands():
    t = table()
    assert refused(t, {"type": "reorder", "order": ["s1", "s2"]}, HOST).field == "order"
    do(t, HOST, "reorder", order=["s3", "s1", "s2"])
    do(t, HOST, "set_dealer", seat="s3")
    do(t, HOST, "start_hand")
    assert [p["seat"] for p in hand(t)["players"]] == ["s1", "s2", "s3"]
    assert refused(t, {"type": "reorder", "order": ["s1", "s2", "s3"]}, HOST).status == 409


def concede_hand(t: Table):
    """Everyone folds to the first player to act."""
    h = hand(t)
    live = [p["seat"] for p in h["players"]]
    opener = h["to_act"]
    do(t, opener, "bet", amount=1)
    for sid in live:
        if sid != opener:
            try:
                do(t, sid, "fold")
            except Refused:
                pass


def test_the_dealer_moves_left_each_hand():
    t = table("holodex", players=3)
    dealers = []
    for _ in range(4):
        do(t, HOST, "start_hand")
        dealers.append(hand(t)["dealer"])
        concede_hand(t)
    assert dealers == ["s1", "s2", "s3", "s1"]
    assert [row["hand"] for row in t.view()["stack_history"]] == [1, 2, 3, 4]


def test_a_history_row_added_or_changed_leaves_every_earlier_version_as_it_was():
    """A table's versions share its history lists (a working copy does not copy them): a
    hand's end and a revealed seed give new lists and rows, and every earlier version of the
    table (a stream may still be rendering one) reads exactly as it did."""
    from companion.scrambler.seed import commitment
    from companion.table.state import dumps

    t = table("holodex", players=3)
    seed = bytes(range(32))
    versions = [(t.frozen(), t.snapshot_text())]

    def step(actor, type_, **fields):
        do(t, actor, type_, **fields)
        versions.append((t.frozen(), t.snapshot_text()))

    for _ in range(3):
        step(HOST, "start_hand", seed_commitment=commitment(seed))
        h = hand(t)
        opener = h["to_act"]
        step(opener, "bet", amount=1)
        for p in h["players"]:
            if p["seat"] != opener and hand(t)["stage"] == "play":
                step(p["seat"], "fold")
        step(HOST, "reveal_seed", seed=seed.hex())
    assert [row["seed"] for row in t.view()["hands"]] == [seed.hex()] * 3
    for twin, text in versions:
        assert dumps(twin.to_json()) == text


def test_house_dealer_stays_and_the_token_moves_left():
    t = table("holodex", players=3, house_dealer=True)
    do(t, HOST, "set_dealer", seat=None)
    firsts = []
    for _ in range(3):
        do(t, HOST, "start_hand")
        h = hand(t)
        assert h["dealer"] is None
        firsts.append(h["players"][0]["seat"])
        concede_hand(t)
    assert firsts == ["s1", "s2", "s3"]


def test_end_of_session_standings_sorted_by_net_result():
    t = table(players=2, stack=20)
    do(t, HOST, "start_hand")
    do(t, "s2", "bet", amount=5)
    do(t, "s1", "fold")
    events = do(t, HOST, "end_session")
    rows = events[0]["standings"]
    # Antes 1 + 1 each; Han takes the hand pot (1 + 1 + 5) back; Lando's ante and fold fee
    # (3) are in the sabacc pot, which the end of the session splits: 1 each, and the odd
    # credit to the dealer's left (Han deals next, so Lando).
    assert [(r["name"], r["net"], r["sabacc_share"]) for r in rows] == [("Han", 1, 1), ("Lando", -1, 2)]
    assert t.view()["sabacc_pot"] == 0 and t.credits() == 40
    assert refused(t, {"type": "start_hand"}, HOST).status == 409


def test_end_of_session_can_carry_the_sabacc_pot_to_the_next_session():
    t = table(players=2, stack=20)
    do(t, HOST, "start_hand")
    do(t, "s2", "bet", amount=5)
    do(t, "s1", "fold")
    events = do(t, HOST, "end_session", sabacc_pot="carry")
    assert events[0]["carried_sabacc_pot"] == 3
    assert [(r["name"], r["net"]) for r in events[0]["standings"]] == [("Han", 0), ("Lando", -3)]
    v = t.view()
    assert v["sabacc_pot"] == 0 and v["carried_sabacc_pot"] == 3
    nxt = Table.create("NEXT1", {"rules": "weg", "sabacc_pot": 3})
    assert nxt.view()["sabacc_pot"] == 3 and nxt.credits() == 3


def test_dealers_choice_changes_the_rules_between_hands_and_keeps_the_seats():
    t = table("weg", players=2, stack=20)
    do(t, HOST, "start_hand")
    assert refused(t, {"type": "change_rules", "rules": "classic"}, HOST).status == 409
    do(t, "s2", "bet", amount=2)
    do(t, "s1", "fold")
    stacks = {s["seat"]: s["stack"] for s in t.view()["seats"]}
    assert refused(t, {"type": "change_rules", "rules": "classic"}, "s1").status == 403
    assert refused(t, {"type": "change_rules", "rules": "nope"}, HOST).field == "rules.preset"
    assert refused(t, {"type": "change_rules", "rules": "classic", "bogus": 1}, HOST).field == "bogus"
    events = do(t, HOST, "change_rules", rules={"preset": "classic", "bet_limit": 5})
    assert events[0]["type"] == "rules_changed" and events[0]["preset"] == "classic"
    v = t.view()
    assert v["rules"]["name"] == "classic" and v["rules"]["bet_limit"] == 5
    assert v["game"] == "Classic Sabacc v1.01 (bet limit 5)"
    assert {s["seat"]: s["stack"] for s in v["seats"]} == stacks
    do(t, HOST, "start_hand")
    assert t.view()["hand"]["no"] == 2
    # the table made again from its snapshot plays the same rules
    again = Table.from_json(t.to_json())
    assert again.rules.name == "classic" and again.view() == t.view()
    assert t.view()["hands"][0]["game"] == "West End Games (1989)"


# -- ante and betting -------------------------------------------------------------------------

def test_weg_antes_to_the_sabacc_pot_only_while_it_is_empty():
    t = table("weg", players=2, stack=20)
    do(t, HOST, "start_hand")
    assert t.view()["sabacc_pot"] == 2
    concede_hand(t)
    sabacc = t.view()["sabacc_pot"]
    do(t, HOST, "start_hand")
    assert t.view()["sabacc_pot"] == sabacc  # not empty: the ante goes to the hand pot only
    assert hand(t)["hand_pot"] == 2


def test_bet_limit_applies_to_the_bet_and_to_the_increase_of_a_raise_to():
    t = table("weg", players=3)
    do(t, HOST, "start_hand")
    assert refused(t, {"type": "bet", "amount": 4}, "s2").field == "amount"
    do(t, "s2", "bet", amount=3)
    assert refused(t, {"type": "raise", "to": 3}, "s3").field == "to"  # not above the bet
    assert refused(t, {"type": "raise", "to": 7}, "s3").field == "to"  # adds 4
    ev = do(t, "s3", "raise", to=6)  # raise TO 6: pays 6, adds 3
    assert ev[0] == {"type": "raised", "seat": "s3", "to": 6, "amount": 6, "stack": 30 - 2 - 6}
    assert refused(t, {"type": "all_in"}, "s1").status == 422  # all-in would add far over 3
    legal = {m["type"]: m for m in bare(t.view("s1")["you"]["legal"])}
    assert legal["raise"] == {"type": "raise", "min_to": 7, "max_to": 9}
    assert legal["call"] == {"type": "call", "amount": 6}


def test_amounts_above_the_stack_are_refused_unless_all_in():
    t = table("classic", players=3, stack=10)
    do(t, HOST, "start_hand")  # stacks 8
    assert refused(t, {"type": "bet", "amount": 9}, "s2").field == "amount"
    do(t, "s2", "all_in")
    assert hand(t)["current_bet"] == 8
    do(t, "s3", "call")
    assert refused(t, {"type": "raise", "to": 9}, "s1").status == 422


def test_wrong_turn_and_folding_out_of_turn():
    t = table("classic", players=3)
    do(t, HOST, "start_hand")
    assert refused(t, {"type": "check"}, "s3").status == 409
    do(t, "s3", "fold")  # anyone may fold during betting
    do(t, "s2", "bet", amount=2)
    assert hand(t)["to_act"] == "s1"  # Chewie has folded
    assert refused(t, {"type": "check"}, "s1").status == 409  # there is a bet


def test_turn_player_check_ends_the_betting_phase_when_only_they_may_open():
    t = table("classic", players=3)
    do(t, HOST, "start_hand")
    do(t, "s2", "check")
    assert (hand(t)["turn"], hand(t)["do"]) == ("s2", "roll")


def test_a_betting_round_ends_when_everyone_has_acted_and_matched():
    t = table("holodex", players=3)
    do(t, HOST, "start_hand")
    do(t, "s2", "check")
    do(t, "s3", "bet", amount=10)  # anyone may open in a betting phase
    do(t, "s1", "call")
    assert hand(t)["to_act"] == "s2" and hand(t)["phase"] == "betting"
    do(t, "s2", "raise", to=30)
    do(t, "s3", "call")
    do(t, "s1", "call")
    assert (hand(t)["phase"], hand(t)["turn"]) == ("trade", "s2")


def test_the_fold_fee_goes_to_the_sabacc_pot_and_is_capped_at_the_stack():
    t = table("classic", players=3, stack=10, fold_fee=3)
    do(t, HOST, "adjust", seat="s1", amount=-7, reason="lent chips to the bank")
    do(t, HOST, "start_hand")  # antes 1 + 1: Lando keeps 1
    ev = do(t, "s1", "fold")  # out of turn, during Han's betting
    assert (ev[0]["fee"], ev[0]["stack"], t.view()["sabacc_pot"]) == (1, 0, 3 + 1)
    ev = do(t, "s2", "fold")
    assert ev[0]["fee"] == 3 and t.view()["sabacc_pot"] == 3 + 1 + 3
    assert {"type": "conceded", "seat": "s3", "amount": 3} in ev


def test_the_turn_players_fold_without_a_bet_ends_the_betting_but_they_still_roll():
    t = table("classic", players=3)
    do(t, HOST, "start_hand")
    do(t, "s2", "fold")
    assert (hand(t)["turn"], hand(t)["do"]) == ("s2", "roll")
    do(t, "s2", "roll", dice=[1, 2])
    assert (hand(t)["turn"], hand(t)["do"]) == ("s3", "bet")  # no draw for a folded player


# -- calling ----------------------------------------------------------------------------------

def play_turn(t, sid, dice=(1, 2)):
    """A quiet turn in a turn-based rule set: check, roll, (no call), stand."""
    do(t, sid, "check")
    do(t, sid, "roll", dice=list(dice))
    if hand(t)["do"] == "call":
        do(t, sid, "no_call")
    do(t, sid, "draw", action="stand")


def test_classic_calls_only_after_every_player_had_a_turn_and_never_in_your_own_turn():
    t = table("classic", players=3)
    do(t, HOST, "start_hand")
    for sid in ("s2", "s3", "s1"):
        play_turn(t, sid)
    # Round 2: the call phase of Han's turn, open until his draw.
    do(t, "s2", "check")
    do(t, "s2", "roll", dice=[1, 2])
    assert hand(t)["do"] == "draw" and hand(t)["call_open"]
    assert refused(t, {"type": "call_hand"}, "s2").status == 409
    assert refused(t, {"type": "no_call"}, "s3").status == 409  # Han closes his own call phase
    do(t, "s1", "call_hand")
    assert hand(t)["stage"] == "reveal" and hand(t)["called_by"] == "s1"


def test_pot_building_rounds_option_delays_the_call():
    t = table("classic", players=2, pot_building_rounds=2)
    do(t, HOST, "start_hand")
    for sid in ("s2", "s1", "s2", "s1"):
        play_turn(t, sid)
    do(t, "s2", "check")
    do(t, "s2", "roll", dice=[1, 2])
    assert hand(t)["round"] == 3 and hand(t)["do"] == "draw" and hand(t)["call_open"]


def test_holodex_calls_in_your_own_trade_turn_after_two_rounds():
    t = table("holodex", players=2)
    do(t, HOST, "start_hand")
    # The starting player rotates each round (seed 001): Han, then Lando, then Han.
    for order in (("s2", "s1"), ("s1", "s2")):
        assert hand(t)["to_act"] == order[0]
        for sid in order:
            do(t, sid, "check")
        assert refused(t, {"type": "call_hand"}, order[0]).status == 409
        for sid in order:
            do(t, sid, "draw", action="stand")
        do(t, "s1", "roll", dice=[1, 2])  # the dealer's dice phase
    assert refused(t, {"type": "call_hand"}, "s2").status == 409  # betting phase
    do(t, "s2", "check")
    do(t, "s1", "check")
    assert refused(t, {"type": "call_hand"}, "s1").status == 409  # Han's trade turn
    do(t, "s2", "call_hand")
    do(t, "s2", "draw", action="stand")
    assert hand(t)["stage"] == "play"
    do(t, "s1", "draw", action="stand")
    assert hand(t)["stage"] == "reveal"


# -- static field -----------------------------------------------------------------------------

def test_weg_has_no_static_field():
    t = table("weg", players=2)
    do(t, HOST, "start_hand")
    assert refused(t, {"type": "static_add", "card": "sa1"}, "s2").status == 409


def test_classic_static_field_is_free_in_or_out_of_turn_within_the_hand_size():
    t = table("classic", players=2)
    do(t, HOST, "start_hand")
    # The static-field timing ruling: classic's is free at any time during play, out of turn too.
    do(t, "s1", "static_add", card="sa1")
    do(t, "s2", "static_add", card="idiot")
    do(t, "s2", "static_add", card="idiot")  # two copies in the deck
    assert refused(t, {"type": "static_add", "card": "sa1"}, "s2").status == 409  # hand is 2
    assert refused(t, {"type": "static_remove", "card": "sa1"}, "s2").field == "card"
    assert refused(t, {"type": "static_add", "card": "zz9"}, "s2").field == "card"
    do(t, "s2", "static_remove", card="idiot")
    assert hand(t)["players"][0]["static"] == ["idiot"]


def test_no_card_more_often_across_static_fields_than_the_deck_has():
    t = table("classic", players=2)
    do(t, HOST, "start_hand")
    do(t, "s2", "static_add", card="sa7")
    do(t, "s2", "check")
    do(t, "s2", "roll", dice=[1, 2])
    do(t, "s2", "draw", action="stand")
    assert refused(t, {"type": "static_add", "card": "SA7"}, "s1").field == "card"


def test_holodex_one_static_change_per_turn():
    t = table("holodex", players=2)
    do(t, HOST, "start_hand")
    do(t, "s2", "check")
    do(t, "s1", "check")
    do(t, "s2", "static_add", card="co3")
    assert refused(t, {"type": "static_remove", "card": "co3"}, "s2").status == 409
    do(t, "s2", "draw", action="stand")
    do(t, "s1", "static_add", card="co4")
    do(t, "s1", "draw", action="stand")
    do(t, "s1", "roll", dice=[1, 2])
    do(t, "s1", "check")  # round 2 starts one seat further left
    do(t, "s2", "check")
    do(t, "s1", "draw", action="stand")
    do(t, "s2", "static_remove", card="co3")  # a new turn, a new change


def test_pagat_one_in_and_one_out_in_the_play_round_only():
    t = table("pagat", players=2)
    do(t, HOST, "start_hand")
    do(t, "s2", "static_add", card="co3")
    do(t, "s2", "static_remove", card="co3")
    assert refused(t, {"type": "static_add", "card": "co4"}, "s2").status == 409
    do(t, "s2", "draw", action="stand")
    do(t, "s2", "roll", dice=[1, 2])
    do(t, "s1", "draw", action="stand")
    do(t, "s1", "roll", dice=[1, 2])
    assert hand(t)["phase"] == "betting"
    assert refused(t, {"type": "static_add", "card": "co4"}, "s2").status == 409


# -- shifts -----------------------------------------------------------------------------------

def test_a_fully_protected_hand_keeps_its_cards_in_a_shift():
    t = table("classic", players=2)
    do(t, HOST, "start_hand")
    do(t, "s2", "static_add", card="co3")
    do(t, "s2", "static_add", card="co4")
    do(t, "s2", "check")
    ev = do(t, "s2", "roll", dice=[6, 6])
    shift = next(e for e in ev if e["type"] == "shift")
    assert shift["instructions"]["s2"] == "All your cards are in the static field: keep them."


@pytest.mark.parametrize("dice, kind", [((1, 1), "core"), ((4, 4), "rim"), ((6, 6), "wild")])
def test_by_symbol_shift_picks_the_kind_from_the_doubled_face(dice, kind):
    t = table({"preset": "classic", "shift_kind": "by-symbol"}, players=2)
    do(t, HOST, "start_hand")
    do(t, "s2", "check")
    ev = do(t, "s2", "roll", dice=list(dice))
    shift = next(e for e in ev if e["type"] == "shift")
    assert shift["kind"] == kind
    text = shift["instructions"]["s1"]
    expected = {
        "core": "Discard your 2 cards outside the static field; the dealer deals you 2.",
        "rim": "Han (on your right) picks one of your 2 cards outside the static field at random; "
               "discard it; the dealer deals you 1.",
        "wild": "Discard your 2 cards outside the static field; the dealer shuffles every card not "
                "in a static field, the junk pile included, and deals you 2.",
    }[kind]
    assert text == expected


def test_rolls_take_exactly_the_dice_of_the_trigger():
    t = table("weg", players=2)
    do(t, HOST, "start_hand")
    do(t, "s2", "check")
    assert refused(t, {"type": "roll", "dice": [1, 2]}, "s2").field == "dice"
    assert refused(t, {"type": "roll", "dice": [7]}, "s2").field == "dice"
    assert t.roll_needed({"type": "roll"}).key == Trigger.D6_LOW.value
    assert t.roll_needed({"type": "roll", "dice": [3]}) is None
    assert t.roll_needed({"type": "check"}) is None


def test_timer_trigger_skips_roll_steps_and_shifts_whenever_it_fires():
    t = table({"preset": "classic", "scrambler_trigger": "timer"}, players=2)
    do(t, HOST, "start_hand")
    do(t, "s2", "check")
    assert hand(t)["do"] == "draw"  # no roll step
    ev = do(t, SCRAMBLER, "roll", dice=[])
    assert any(e["type"] == "shift" for e in ev)
    assert refused(t, {"type": "roll", "dice": []}, "s2").status == 403


# -- the reveal -------------------------------------------------------------------------------

def to_reveal(t: Table):
    """Classic, two players, called in round 2 by Lando."""
    do(t, HOST, "start_hand")
    play_turn(t, "s2")
    play_turn(t, "s1")
    do(t, "s2", "check")
    do(t, "s2", "roll", dice=[1, 2])
    do(t, "s1", "call_hand")


def test_reveal_checks_hand_size_cards_and_copies_and_hides_entries_until_all_are_in():
    t = table("classic", players=2)
    to_reveal(t)
    assert refused(t, {"type": "reveal", "cards": ["sa1"]}, "s2").field == "cards"
    assert refused(t, {"type": "reveal", "cards": ["sa1", "sa99"]}, "s2").field == "cards[1]"
    assert refused(t, {"type": "reveal", "cards": ["sa1", "sa1"]}, "s2").field == "cards"
    ev = do(t, "s2", "reveal", cards=["sa10", "co10"])
    assert ev == [{"type": "cards_entered", "seat": "s2"}]
    assert t.view("s2")["you"]["cards"] == ["sa10", "co10"]
    for viewer in ({"seat": "s1"}, {"seat": None}, {"seat": None, "host": True}):
        v = t.view(viewer["seat"], host=viewer.get("host", False))
        assert "sa10" not in repr(v)
    do(t, "s1", "reveal", cards=["sa9", "co9"])
    assert hand(t, "s1")["players"][0]["cards"] == ["sa10", "co10"]  # public after the reveal
    assert hand(t)["stage"] == "settled"


def test_a_reveal_entry_is_never_refused_for_a_card_another_seat_entered():
    # A refusal naming the card would tell Han what Lando entered: by entering card after
    # card, he could read Lando's hand before the reveal.
    t = table("classic", players=3)
    do(t, HOST, "start_hand")
    for sid in ("s2", "s3", "s1"):
        play_turn(t, sid)
    do(t, "s2", "check")
    do(t, "s2", "roll", dice=[1, 2])
    do(t, "s3", "call_hand")
    do(t, "s2", "reveal", cards=["sa10", "co10"])
    ev = do(t, "s3", "reveal", cards=["sa10", "st5"])
    assert ev == [{"type": "cards_entered", "seat": "s3"}]
    assert "sa10" not in repr(t.view("s3")["hand"])
    # Once every hand is in, the hands are turned up and the clash is shown to everyone;
    # the two players who both hold the Ten of Sabers enter their hands again.
    ev = do(t, "s1", "reveal", cards=["co1", "co2"])
    assert [e["type"] for e in ev] == ["cards_entered", "revealed", "reveal_conflict"]
    assert ev[2]["cards"] == ["sa10"] and ev[2]["seats"] == ["s2", "s3"]
    h = hand(t)
    assert h["stage"] == "reveal"
    assert [p["entered"] for p in h["players"]] == [False, False, True]
    assert h["players"][2]["cards"] == ["co1", "co2"]
    # A hand that stood cannot be changed after seeing the others.
    assert refused(t, {"type": "reveal", "cards": ["co4", "co5"]}, "s1").status == 409
    assert "reveal" not in [m["type"] for m in t.view("s1")["you"]["legal"]]
    assert "reveal" in [m["type"] for m in t.view("s2")["you"]["legal"]]
    # Now the hands are face up, so a clash with a shown hand is refused at once.
    assert refused(t, {"type": "reveal", "cards": ["co1", "st9"]}, "s2").field == "cards"
    do(t, "s2", "reveal", cards=["sa10", "co10"])
    # Han's new entry is not face up until every hand is in again: Leia's entry of the same
    # card is taken (a refusal would tell her Han's card), and the clash is shown once all are in.
    ev = do(t, "s3", "reveal", cards=["sa10", "st5"])
    assert [e["type"] for e in ev] == ["cards_entered", "revealed", "reveal_conflict"]
    assert ev[2]["seats"] == ["s2", "s3"]
    do(t, "s2", "reveal", cards=["sa10", "co10"])
    ev = do(t, "s3", "reveal", cards=["sa9", "st5"])
    assert [e["type"] for e in ev][:2] == ["cards_entered", "revealed"]
    h = hand(t)
    assert h["stage"] == "settled"
    # Lando's 20 beats Han's 14 and Leia's 3: he takes the hand pot (three antes of 1);
    # Han called and lost, so he pays the hand pot (3) to the sabacc pot.
    assert h["settlement"]["payouts"] == {"s1": 0, "s2": 3, "s3": -3}


def at_reveal_with_a_static_card(card):
    """A classic hand at its reveal: Han (s2) holds 3 cards, `card` in his static field."""
    t = table("classic", players=2)
    do(t, HOST, "start_hand")
    do(t, "s2", "static_add", card=card)
    do(t, "s2", "check")
    do(t, "s2", "roll", dice=[1, 2])
    do(t, "s2", "draw", action="gain")
    play_turn(t, "s1")
    do(t, "s2", "check")
    do(t, "s2", "roll", dice=[1, 2])
    do(t, "s1", "call_hand")
    return t


def test_reveal_fills_in_static_field_cards():
    t = at_reveal_with_a_static_card("sa10")
    assert refused(t, {"type": "reveal", "cards": ["co10"]}, "s2").field == "cards"
    do(t, "s2", "reveal", cards=["co10", "fl3"])
    assert t.view("s2")["you"]["cards"] == ["co10", "fl3", "sa10"]


def test_reveal_with_the_second_copy_of_a_static_face_card_counts_both():
    # The static field holds one Balance; the hand holds the deck's other Balance too.
    t = at_reveal_with_a_static_card("balance")
    # Without the static field: two cards entered, the static Balance filled in.
    do(t, "s2", "reveal", cards=["balance", "co10"])
    assert sorted(t.view("s2")["you"]["cards"]) == ["balance", "balance", "co10"]


def test_reveal_of_the_whole_hand_must_hold_the_static_field():
    t = at_reveal_with_a_static_card("sa10")
    refusal = refused(t, {"type": "reveal", "cards": ["co10", "fl3", "fl4"]}, "s2")
    assert refusal.field == "cards" and "sa10" in refusal.error
    do(t, "s2", "reveal", cards=["sa10", "co10", "fl3"])
    assert sorted(t.view("s2")["you"]["cards"]) == ["co10", "fl3", "sa10"]


def test_non_credit_stake_is_committed_and_counted_like_a_buy_in():
    t = table("classic", players=2, stack=20)
    do(t, HOST, "start_hand")
    before = t.credits()
    ev = do(t, HOST, "stake", seat="s2", item="a YT-1300 freighter", value=15)
    assert ev[0]["committed"] == 16
    assert t.credits() == before + 15
    assert hand(t)["hand_pot"] == 17
    # The Plutt ruling: the stake counts toward Han's bet in this betting round (a bet of 15).
    assert hand(t)["current_bet"] == 15
    assert hand(t)["to_act"] == "s1"  # the stake was Han's move (the third-round ruling)
    do(t, "s1", "fold")
    assert t.view()["seats"][1]["stack"] == 18 - 1 + 18  # Han takes back every pot
    assert t.view()["items"][0]["item"] == "a YT-1300 freighter"


def test_seed_commitment_is_shown_and_the_seed_revealed_after_the_hand():
    t = table("classic", players=2)
    do(t, HOST, "start_hand", seed_commitment="ab12")
    assert hand(t)["seed_commitment"] == "ab12"
    assert refused(t, {"type": "reveal_seed", "seed": "ff"}, SCRAMBLER).status == 409
    concede_hand(t)
    assert refused(t, {"type": "reveal_seed", "seed": "ff"}, "s1").status == 403
    do(t, SCRAMBLER, "reveal_seed", seed="FF00")
    assert t.view()["hands"][-1]["seed"] == "ff00"


def test_legal_actions_in_the_view_are_the_players_own():
    t = table("classic", players=2)
    do(t, HOST, "start_hand")
    mine = [m["type"] for m in t.view("s2")["you"]["legal"]]
    assert "bet" in mine and "check" in mine
    theirs = [m["type"] for m in t.view("s1")["you"]["legal"]]
    assert "bet" not in theirs and "check" not in theirs and "fold" in theirs
    assert "you" not in t.view(None)
    assert "start_hand" not in t.view(None, host=True)["host_legal"]


def test_force_sabacc_needs_a_declared_side_and_settles_with_it():
    t = table({"preset": "classic", "force_sabacc": True}, players=3)
    assert refused(t, {"type": "declare_side", "side": "grey"}, "s1").field == "side"
    do(t, "s1", "declare_side", side="light")
    do(t, "s2", "declare_side", side="dark")
    # Chewie declared nothing: he is dealt out; Lando deals, Han starts.
    events = do(t, HOST, "start_hand")
    assert {"type": "dealt_out", "seat": "s3", "reason": "no side declared"} in events
    play_turn(t, "s2")
    play_turn(t, "s1")
    do(t, "s2", "check")
    do(t, "s2", "roll", dice=[1, 2])
    do(t, "s1", "call_hand")
    do(t, "s2", "reveal", cards=["fl10", "st10"])  # Flasks and Staves count -20: Dark's 20
    do(t, "s1", "reveal", cards=["sa9", "co9"])  # Light's 18, and Lando called
    stacks = {s["seat"]: s["stack"] for s in t.view()["seats"]}
    assert stacks == {"s1": 28 - 2, "s2": 28 + 2, "s3": 30}
    assert t.view()["sabacc_pot"] == 2 + 2


def test_a_leaving_dealer_passes_the_deal_to_the_left():
    t = table("classic", players=3)
    do(t, HOST, "set_dealer", seat="s2")
    do(t, "s2", "leave")
    assert t.view()["dealer"] == "s3"
    assert [d["seat"] for d in t.view()["departed"]] == ["s2"]
    assert t.credits() == 60


def test_corellia_run_refuses_set_aside_face_cards_at_the_reveal():
    t = table({"preset": "classic", "corellia_run": True}, players=2)
    to_reveal(t)
    assert refused(t, {"type": "reveal", "cards": ["sa3", "star"]}, "s2").field == "cards[1]"
    do(t, "s2", "reveal", cards=["sa3", "idiot"])


def test_a_house_dealer_who_does_not_play_still_rolls_the_dice_phase():
    t = table("holodex", players=3, house_dealer=True)
    do(t, HOST, "set_dealer", seat="s3")
    do(t, "s3", "sit_out")
    do(t, HOST, "start_hand")
    assert [p["seat"] for p in hand(t)["players"]] == ["s1", "s2"]
    do(t, "s1", "check")
    do(t, "s2", "check")
    do(t, "s1", "draw", action="stand")
    do(t, "s2", "draw", action="stand")
    assert hand(t)["roller"] == "s3"
    assert {"type": "roll"} in bare(t.view("s3")["you"]["legal"])
    assert refused(t, {"type": "roll", "dice": [1, 2]}, "s1").status == 403
    do(t, "s3", "roll", dice=[1, 2])
    assert hand(t)["round"] == 2


def test_pagat_hand_with_everyone_all_in_can_still_be_called_from_the_4th_round():
    # No betting round can open once nobody has credits left to bet, but the hand is still
    # called in the 4th round's betting round: the player who would open it may call.
    t = table("pagat", players=2, stack=10)
    do(t, HOST, "start_hand")  # Lando deals; Han plays first; 1 to each pot: 8 left each
    for sid in ("s2", "s1"):
        do(t, sid, "draw", action="stand")
        do(t, sid, "roll", dice=[1, 2])
    do(t, "s2", "all_in")
    do(t, "s1", "call")
    for round_ in (1, 2, 3):
        assert hand(t)["do"] == "roll" and hand(t)["roller"] == "s1"  # the dealer, after betting
        do(t, "s1", "roll", dice=[1, 2])
        for sid in ("s2", "s1"):
            do(t, sid, "draw", action="stand")
            do(t, sid, "roll", dice=[1, 2])
    h = hand(t)
    assert (h["round"], h["phase"], h["do"]) == (4, "betting", "call")
    assert {"type": "call_hand"} in bare(t.view("s2")["you"]["legal"])
    # A call window open to every player still in the hand, all-in players included.
    assert hand(t)["call_window"] == ["s2", "s1"]
    assert {"type": "call_hand"} in bare(t.view("s1")["you"]["legal"])
    do(t, "s2", "call_hand")
    assert (hand(t)["stage"], hand(t)["roller"]) == ("final_roll", "s1")  # one more roll
    do(t, "s1", "roll", dice=[1, 2])
    do(t, "s2", "reveal", cards=["sa10", "co10"])  # 20
    do(t, "s1", "reveal", cards=["sa5", "co5"])  # 10
    v = t.view()
    assert {s["seat"]: s["stack"] for s in v["seats"]} == {"s1": 0, "s2": 18}
    assert v["sabacc_pot"] == 2


def test_pagat_a_betting_round_nobody_can_bet_in_before_the_4th_is_skipped():
    t = table("pagat", players=2, stack=10)
    do(t, HOST, "start_hand")
    for sid in ("s2", "s1"):
        do(t, sid, "draw", action="stand")
        do(t, sid, "roll", dice=[1, 2])
    do(t, "s2", "all_in")
    do(t, "s1", "call")
    do(t, "s1", "roll", dice=[1, 2])
    for sid in ("s2", "s1"):
        do(t, sid, "draw", action="stand")
        do(t, sid, "roll", dice=[1, 2])
    h = hand(t)
    assert (h["round"], h["do"], h["roller"]) == (2, "roll", "s1")  # straight to the dealer's roll


def test_rim_shift_tells_a_player_with_one_unprotected_card_that_it_is_the_one_to_go():
    t = table({"preset": "classic", "shift_kind": "rim"}, players=2)
    do(t, HOST, "start_hand")
    do(t, "s2", "static_add", card="sa1")
    do(t, "s2", "check")
    shift = next(e for e in do(t, "s2", "roll", dice=[2, 2]) if e["type"] == "shift")
    assert shift["instructions"] == {
        "s2": "Lando (on your right) takes your one card outside the static field; discard it; "
              "the dealer deals you 1.",
        "s1": "Han (on your right) picks one of your 2 cards outside the static field at random; "
              "discard it; the dealer deals you 1.",
    }


def test_the_doctests_of_the_engine_run():
    import doctest

    from companion.games.classic import explain
    from companion.table import commands, engine

    for module in (engine, commands, explain):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_a_command_body_has_one_validator_with_one_answer():
    # Issue 9: the engine and the web layer checked a body with two validators that answered
    # differently; both now call companion.table.commands.check.
    from companion.server import tables_api
    from companion.table import commands

    assert tables_api.check_schema is commands.check
    t = table()
    exc = refused(t, {"type": "bet", "amount": "three"}, "s1")
    with pytest.raises(Refused) as api:
        tables_api.check_schema(COMMANDS["bet"], {"amount": "three"}, "")
    assert (exc.status, exc.error, exc.field) == (api.value.status, api.value.error, api.value.field)
