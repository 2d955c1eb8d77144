"""Corellian Spike on the table engine (RULES-SPIKE.md "A game"): antes per game, three rounds
of turn, betting and spike dice, no calls, the turn actions with their fees and the hand-size
limits, the face-up discard pile, junk, the Sabacc Shift, the reveal settled by Spike's
ranking, the blind draw, the survivor's shown hand, the table options and the session's end."""

from __future__ import annotations

import pytest

from companion.table.engine import Refused, Table
from companion.table.offers import bare

NAMES = ["Lando", "Han", "Chewie"]


@pytest.fixture
def spike():
    """A maker of Spike tables with three seats (Lando, Han, Chewie), each bought in."""

    def make(stack=30) -> Table:
        t = Table.create("SPIKE", {"rules": "spike"})
        for i, name in enumerate(NAMES):
            t.apply({"type": "join", "name": name}, None)
            t.apply({"type": "buy_in", "amount": stack}, f"s{i + 1}")
        return t

    return make


def step(t: Table):
    h = t.view(None)["hand"]
    return h["stage"], h["step"]


def do(t, actor, type_, **fields):
    return t.apply({"type": type_, **fields}, actor)


def test_a_rule_set_the_table_does_not_play_is_refused_to_hosts(monkeypatch):
    import dataclasses

    from companion.games.spike import presets

    closed = dataclasses.replace(presets.PRESETS["spike-book"], live_table=False)
    monkeypatch.setitem(presets.PRESETS, "spike-book", closed)
    with pytest.raises(Refused) as exc:
        Table.create("SPIKE", {"rules": "spike-book"})
    assert exc.value.field == "rules"
    assert Table.create("SPIKE", {"rules": "spike"}).rules.name == "spike"


def test_spike_antes_once_a_game_into_the_game_pot_and_the_sabacc_pot(spike):
    t = spike()
    do(t, "host", "start_hand")
    s = t.to_json()
    assert s["sabacc_pot"] == 3 * 2  # ante_sabacc 2 each
    assert {sid: p["committed"] for sid, p in s["hand"]["p"].items()} == {"s2": 1, "s3": 1, "s1": 1}
    assert {sid: seat["stack"] for sid, seat in s["seats"].items()} == {"s1": 27, "s2": 27, "s3": 27}


def at_the_reveal(spike):
    """A table of three played quietly through its three rounds to the reveal, and its
    players from the dealer's left."""
    t = spike()
    do(t, "host", "start_hand")
    for _ in range(3):
        play_round(t, {})
    return t, t.to_json()["hand"]["players"]


def play_round(t, actions, bets=None):
    """The turn phase (each player's action, from the dealer's left), a betting phase of
    checks, and the dealer's spike dice (no match)."""
    h = t.to_json()["hand"]
    order = h["players"]
    for sid in order:
        do(t, sid, "draw", action=actions.get(sid, "stand"))
    for sid in order:
        if not t.to_json()["hand"]["p"][sid]["folded"]:
            do(t, sid, "check")
    do(t, t.to_json()["hand"]["dealer"], "roll", dice=[1, 2])


def test_spike_three_rounds_then_the_reveal_and_nobody_calls(spike):
    t = spike()
    do(t, "host", "start_hand")
    for rnd in (1, 2, 3):
        assert t.to_json()["hand"]["round"] == rnd and t.to_json()["hand"]["stage"] == "play"
        with pytest.raises(Refused):
            do(t, "s2", "call_hand")
        play_round(t, {})
    assert t.to_json()["hand"]["stage"] == "reveal"


def test_spike_turn_actions_fees_into_the_game_pot_and_hand_limits(spike):
    t = spike()
    do(t, "host", "start_hand")
    h = t.to_json()["hand"]
    first, second, third = h["players"]
    do(t, first, "draw", action="gain_keep")  # 3 cards, free
    do(t, second, "draw", action="swap", card="+2")  # fee_swap 2
    do(t, third, "draw", action="gain_keep_discard", card="-6")  # fee_gain_discard 1
    s = t.to_json()
    p = s["hand"]["p"]
    assert (p[first]["hand_size"], p[second]["hand_size"], p[third]["hand_size"]) == (3, 2, 2)
    assert (p[first]["committed"], p[second]["committed"], p[third]["committed"]) == (1, 1, 1)
    assert (p[second]["fees"], p[third]["fees"]) == (2, 1)  # into the game pot: no bet
    assert t.view(None)["hand"]["hand_pot"] == 3 + 3 and t.view(None)["hand"]["pots"][0]["amount"] == 6
    assert s["seats"][second]["stack"] == 27 - 2


def test_spike_a_hand_of_five_cannot_keep_a_gained_card(spike):
    t = spike()
    do(t, "host", "start_hand")
    first = t.to_json()["hand"]["players"][0]
    for _ in range(3):
        play_round(t, {first: "gain_keep"})
    # three rounds of gain-and-keep: 2 + 3 = 5 cards, and the reveal
    assert t.to_json()["hand"]["p"][first]["hand_size"] == 5


def test_spike_keeping_a_sixth_card_is_refused_in_words(spike):
    t = spike()
    do(t, "host", "start_hand")
    first = t.to_json()["hand"]["players"][0]
    t._s["hand"]["p"][first]["hand_size"] = 5  # as after three gains
    with pytest.raises(Refused) as exc:
        do(t, first, "draw", action="gain_keep")
    assert "at most 5" in str(exc.value)


def test_spike_a_fee_the_player_cannot_pay_leaves_the_free_actions(spike):
    t = spike(stack=3)  # 3 - antes 3 = 0 left
    do(t, "host", "start_hand")
    first = t.to_json()["hand"]["players"][0]
    with pytest.raises(Refused):
        do(t, first, "draw", action="swap")
    legal = [x["action"] for x in t.legal(first) if x["type"] == "draw"]
    assert legal == ["stand", "gain_keep", "gain_discard", "junk"]


def test_spike_junk_in_the_turn_phase_and_the_last_player_takes_the_game_pot(spike):
    t = spike()
    do(t, "host", "start_hand")
    first, second, third = t.to_json()["hand"]["players"]
    do(t, first, "draw", action="junk")
    do(t, second, "draw", action="junk")
    s = t.to_json()
    assert s["hand"] is None or s["hand"]["settlement"]["status"] == "conceded"
    assert s["seats"][third]["stack"] == 27 + 3
    assert s["sabacc_pot"] == 6  # the sabacc pot carries


def test_spike_matching_symbols_are_a_sabacc_shift_redealing_the_same_count(spike):
    t = spike()
    do(t, "host", "start_hand")
    h = t.to_json()["hand"]
    for sid in h["players"]:
        do(t, sid, "draw", action="gain_keep" if sid == h["players"][0] else "stand")
    for sid in h["players"]:
        do(t, sid, "check")
    events = do(t, h["dealer"], "roll", dice=[4, 4])
    shift = next(e for e in events if e["type"] == "shift")
    assert shift["kind"] == "sabacc"
    assert "Discard your 3 cards; the dealer deals you 3." in shift["instructions"][h["players"][0]]


def test_spike_reveal_is_settled_by_spikes_ranking(spike):
    t, (first, second, third) = at_the_reveal(spike)
    do(t, first, "reveal", cards=["+4", "-4"])
    do(t, second, "reveal", cards=["+3", "+1"])
    do(t, third, "reveal", cards=["sylop", "-2"])
    s = t.to_json()
    row = s["hands"][-1]
    kinds = {x["name"]: x["kind"] for x in row["settlement"]["hands"]}
    assert kinds == {first: "sabacc_pair", second: "nulrhek", third: "nulrhek"}
    assert row["settlement"]["sabacc_pot_winners"] == [first]
    assert s["seats"][first]["stack"] == 27 + 3 + 6 and s["sabacc_pot"] == 0


def test_spike_the_discard_pile_top_card_is_public_and_every_discard_is_entered(spike):
    t = spike()
    do(t, "host", "start_hand")
    first, second, third = t.to_json()["hand"]["players"]
    do(t, "host", "discard_top", card="-3")  # the dealer turns up the first card
    assert t.view(second)["hand"]["discard_top"] == "-3"
    with pytest.raises(Refused) as exc:
        do(t, first, "draw", action="gain_discard")
    assert exc.value.field == "card"
    legal = {x["action"]: x for x in t.legal(first) if x["type"] == "draw"}
    assert legal["gain_discard"]["card"] is True and "card" not in legal["stand"]
    do(t, first, "draw", action="gain_discard", card="+9")
    do(t, second, "draw", action="swap", card="sylop")  # takes the -3, discards a sylop
    for viewer in (None, first, second, third):
        assert t.view(viewer)["hand"]["discard_top"] == "sylop"


def test_spike_a_true_tie_at_the_table_is_a_blind_draw(spike):
    t, (first, second, third) = at_the_reveal(spike)
    do(t, first, "reveal", cards=["+1", "+4"])
    do(t, second, "reveal", cards=["+4", "+1"])
    events = do(t, third, "reveal", cards=["+9", "+1"])
    assert any(e["type"] == "blind_draw" for e in events)
    assert t.to_json()["hand"]["demise_players"] == [first, second]
    do(t, first, "demise_card", card="-2")
    do(t, second, "demise_card", card="+2")  # a positive card beats its negative
    s = t.to_json()
    row = s["hands"][-1]
    assert row["settlement"]["pots"][0]["winners"] == [second]
    assert row["settlement"]["sabacc_pot_winners"] == []  # a Nulrhek: the sabacc pot carries
    assert s["sabacc_pot"] == 6


def test_spike_a_blind_draw_still_tied_draws_again(spike):
    t, (first, second, third) = at_the_reveal(spike)
    do(t, first, "reveal", cards=["+3", "-3"])
    do(t, second, "reveal", cards=["-3", "+3"])
    do(t, third, "reveal", cards=["+9", "+1"])
    do(t, first, "demise_card", card="+5")
    events = do(t, second, "demise_card", card="+5")
    assert any(e["type"] == "blind_draw" for e in events)
    do(t, first, "demise_card", card="sylop")
    do(t, second, "demise_card", card="+1")
    s = t.to_json()
    assert s["hands"][-1]["settlement"]["sabacc_pot_winners"] == [first]  # a Sabacc with a pair
    assert s["sabacc_pot"] == 0


def test_spike_the_sole_survivor_may_show_a_sabacc_for_the_sabacc_pot(spike):
    t = spike()
    do(t, "host", "start_hand")
    first, second, third = t.to_json()["hand"]["players"]
    do(t, first, "draw", action="junk")
    do(t, second, "draw", action="junk")
    assert t.to_json()["hand"]["stage"] == "show"
    assert [x["type"] for x in t.legal(third)][-2:] == ["show", "no_show"]
    with pytest.raises(Refused):
        do(t, first, "show", cards=["+1", "-1"])
    do(t, third, "show", cards=["+7", "-7"])
    s = t.to_json()
    assert s["seats"][third]["stack"] == 27 + 3 + 6 and s["sabacc_pot"] == 0
    assert s["hands"][-1]["settlement"]["shown"]["kind"] == "sabacc_pair"


def test_spike_the_sole_survivor_who_does_not_show_leaves_the_sabacc_pot_to_carry(spike):
    t = spike()
    do(t, "host", "start_hand")
    first, second, third = t.to_json()["hand"]["players"]
    do(t, first, "draw", action="junk")
    do(t, second, "draw", action="junk")
    do(t, third, "no_show")
    s = t.to_json()
    assert s["seats"][third]["stack"] == 30 and s["sabacc_pot"] == 6
    # a shown Nulrhek leaves it too
    do(t, "host", "start_hand")
    first, second, third = t.to_json()["hand"]["players"]
    do(t, first, "draw", action="junk")
    do(t, second, "draw", action="junk")
    do(t, third, "show", cards=["+7", "-6"])
    assert t.to_json()["sabacc_pot"] == 12


def test_spike_junk_penalty_goes_into_the_game_pot(spike, monkeypatch):
    t = Table.create("SPIKE", {"rules": {"preset": "spike", "junk_penalty": 2}})
    for i, name in enumerate(NAMES):
        t.apply({"type": "join", "name": name}, None)
        t.apply({"type": "buy_in", "amount": 30}, f"s{i + 1}")
    do(t, "host", "start_hand")
    first, second, third = t.to_json()["hand"]["players"]
    for sid in (first, second, third):
        do(t, sid, "draw", action="stand")
    do(t, first, "bet", amount=2)
    do(t, second, "fold")  # junk in the betting phase
    s = t.to_json()
    assert s["hand"]["p"][second]["fees"] == 2 and s["sabacc_pot"] == 6


def test_spike_bso_raise_rule_a_player_never_raises_their_own_raise(spike):
    t = spike()
    do(t, "host", "start_hand")
    first, second, third = t.to_json()["hand"]["players"]
    for sid in (first, second, third):
        do(t, sid, "draw", action="stand")
    do(t, first, "bet", amount=2)  # the opener
    do(t, second, "call")
    do(t, third, "call")  # everyone matched: the opener is not asked again
    assert t.to_json()["hand"]["betting"] is None


def test_spike_phase_order_option_bets_after_the_spike_dice(spike):
    from companion.rules.rulesets import ruleset_from

    rs = ruleset_from({"preset": "spike", "phase_order": "turn-spike-bet"})
    assert [p.phase.value for p in rs.turn_phases] == ["turn", "spike", "betting"]
    t = Table.create("SPIKE", {"rules": {"preset": "spike", "phase_order": "turn-spike-bet"}})
    for i, name in enumerate(NAMES):
        t.apply({"type": "join", "name": name}, None)
        t.apply({"type": "buy_in", "amount": 30}, f"s{i + 1}")
    do(t, "host", "start_hand")
    h = t.to_json()["hand"]
    for sid in h["players"]:
        do(t, sid, "draw", action="stand")
    assert t.view(None)["hand"]["do"] == "roll"


def test_spike_dealer_rotates_each_round_option(spike):
    t = Table.create("SPIKE", {"rules": {"preset": "spike", "dealer_rotates": "round"}})
    for i, name in enumerate(NAMES):
        t.apply({"type": "join", "name": name}, None)
        t.apply({"type": "buy_in", "amount": 30}, f"s{i + 1}")
    do(t, "host", "start_hand")
    rollers = []
    for _ in range(2):
        h = t.to_json()["hand"]
        order = [s["seat"] for s in h["steps"] if s["do"] == "draw"]
        for sid in order:
            do(t, sid, "draw", action="stand")
        for sid in order:
            do(t, sid, "check")
        roller = t.view(None)["hand"]["roller"]
        rollers.append((order[0], roller))
        do(t, roller, "roll", dice=[1, 2])
    (first1, roll1), (first2, roll2) = rollers
    assert roll1 != roll2 and first1 != first2
    assert t.to_json()["order"].index(first2) == (t.to_json()["order"].index(first1) + 1) % 3


def test_spike_session_end_shares_the_sabacc_pot_odd_credits_from_the_dealers_left(spike):
    t = spike()
    do(t, "host", "start_hand")
    first, second, third = t.to_json()["hand"]["players"]
    do(t, first, "draw", action="junk")
    do(t, second, "draw", action="junk")
    do(t, third, "no_show")
    t._s["sabacc_pot"] = 7  # 6 carried, and one more for an odd credit
    dealer = t.to_json()["dealer"]
    order = t.to_json()["order"]
    left = order[(order.index(dealer) + 1) % 3]
    before = {sid: seat["stack"] for sid, seat in t.to_json()["seats"].items()}
    do(t, "host", "end_session")
    after = {sid: seat["stack"] for sid, seat in t.to_json()["seats"].items()}
    gained = {sid: after[sid] - before[sid] for sid in after}
    assert gained[left] == 3 and sorted(gained.values()) == [2, 2, 3] and t.to_json()["sabacc_pot"] == 0


def test_spike_the_host_may_keep_the_sabacc_pot_for_the_next_session(spike):
    t = spike()
    do(t, "host", "start_hand")
    first, second, third = t.to_json()["hand"]["players"]
    do(t, first, "draw", action="junk")
    do(t, second, "draw", action="junk")
    do(t, third, "no_show")
    do(t, "host", "end_session", sabacc_pot="carry")
    assert t.to_json()["carried_sabacc_pot"] == 6


def test_spike_a_reveal_counts_the_discard_pile_top_card_among_the_public_cards(spike):
    t = spike()
    do(t, "host", "start_hand")
    for _ in range(3):
        play_round(t, {})
    first = t.to_json()["hand"]["players"][0]
    t._s["hand"]["discard_top"] = "sylop"
    t._s["hand"]["p"][first]["hand_size"] = 2
    with pytest.raises(Refused) as exc:
        do(t, first, "reveal", cards=["sylop", "sylop"])  # a third sylop: the deck has two
    assert "sylop" in str(exc.value)


def test_spike_a_sabacc_shift_is_announced_in_the_games_words(spike):
    t = spike()
    do(t, "host", "start_hand")
    h = t.to_json()["hand"]
    for sid in h["players"]:
        do(t, sid, "draw", action="stand")
    for sid in h["players"]:
        do(t, sid, "check")
    events = do(t, h["dealer"], "roll", dice=[6, 6])
    assert next(e for e in events if e["type"] == "shift")["announcement"] == "A Sabacc Shift: the spike dice match."


def test_spike_while_the_sole_survivor_chooses_the_turn_line_says_so(spike):
    """Issue 28 item 6: the table waits for the survivor to show or keep the hand hidden, and
    every viewer's turn line says that (not the betting phase's "The dealer: bet.")."""
    t = spike()
    do(t, "host", "start_hand")
    first, second, third = t.to_json()["hand"]["players"]
    for sid in (first, second, third):
        do(t, sid, "draw", action="stand")
    do(t, first, "fold")  # junk in the betting phase
    do(t, second, "fold")
    assert t.to_json()["hand"]["stage"] == "show"
    name = NAMES[int(third[1:]) - 1]
    assert t.view(third)["hand"]["words"] == ("You: everyone else junked. Show your hand for the "
                                              "sabacc pot, or keep it hidden.")
    for viewer in (None, first):
        words = t.view(viewer)["hand"]["words"]
        assert words == f"{name}: everyone else junked. Show their hand for the sabacc pot, or keep it hidden."


def test_spike_a_blind_draw_is_kept_in_the_result_with_its_cards(spike):
    """Issue 28 item 7: the drawn cards are in the hand's result rows and its why, the loser's
    row names the blind draw (not "lost to Han's 5", the total both held), and the history
    keeps them."""
    t, (first, second, third) = at_the_reveal(spike)
    do(t, first, "reveal", cards=["+1", "+4"])
    do(t, second, "reveal", cards=["+4", "+1"])
    do(t, third, "reveal", cards=["+9", "+1"])
    do(t, first, "demise_card", card="-2")
    do(t, second, "demise_card", card="+2")
    s = t.to_json()
    names = {sid: NAMES[int(sid[1:]) - 1] for sid in (first, second, third)}
    for record in (s["hand"]["settlement"], s["hands"][-1]["settlement"]):
        rows = {x["name"]: x for x in record["hands"]}
        assert rows[first]["blind_draw"] == ["-2"] and rows[second]["blind_draw"] == ["+2"]
        assert "blind_draw" not in rows[third]
        assert rows[first]["why"] == f"tied with {names[second]}; lost the blind draw: −2 against {names[second]}'s +2"
        assert rows[second]["why"].startswith(f"tied with {names[first]}; won the blind draw: +2 against "
                                              f"{names[first]}'s −2; wins the ")
        assert rows[third]["why"] == f"lost to {names[second]}'s 5"


def test_spike_a_blind_draw_tied_again_says_so_and_asks_for_a_new_card(spike):
    """Issue 28 item 7: the second draw is announced as a tie again, with the first cards; each
    drawer is asked for draw 2 (the phone's entry starts empty); both draws are kept."""
    t, (first, second, third) = at_the_reveal(spike)
    do(t, first, "reveal", cards=["+3", "-3"])
    do(t, second, "reveal", cards=["-3", "+3"])
    do(t, third, "reveal", cards=["+9", "+1"])
    assert t.view(None)["hand"]["words"].startswith("Blind draw: waiting for ")
    assert {"type": "demise_card", "draw": 1, "drawn": []} in bare(t.legal(first))
    do(t, first, "demise_card", card="+5")
    events = do(t, second, "demise_card", card="+5")
    again = next(e for e in events if e["type"] == "blind_draw")
    n1, n2 = NAMES[int(first[1:]) - 1], NAMES[int(second[1:]) - 1]
    assert again["message"] == (f"Blind draw, tied again ({n1} +5, {n2} +5): {n1}, {n2} each draw "
                                f"another card from the draw pile and enter it.")
    assert t.view(None)["hand"]["words"] == f"Blind draw, tied again: waiting for {n1} and {n2} to draw another card and enter it."
    assert {"type": "demise_card", "draw": 2, "drawn": ["+5"]} in bare(t.legal(first))
    do(t, first, "demise_card", card="sylop")
    do(t, second, "demise_card", card="+1")
    rows = {x["name"]: x for x in t.to_json()["hands"][-1]["settlement"]["hands"]}
    assert rows[first]["blind_draw"] == ["+5", "sylop"] and rows[second]["blind_draw"] == ["+5", "+1"]
    assert rows[second]["why"] == f"tied with {n1}; lost the blind draw: +5, then +1 against {n1}'s +5, then Sylop"


def test_spike_the_sole_survivors_shown_hand_is_face_up_in_the_result_and_history(spike):
    """Issue 28 item 8: the shown cards are the hand's (the view and the history), and the
    survivor's net counts the sabacc pot taken."""
    t = spike()
    do(t, "host", "start_hand")
    first, second, third = t.to_json()["hand"]["players"]
    do(t, first, "draw", action="junk")
    do(t, second, "draw", action="junk")
    do(t, third, "show", cards=["+7", "-7"])
    s = t.to_json()
    assert s["hands"][-1]["cards"] == {first: None, second: None, third: ["+7", "-7"]}
    view = t.view(first)["hand"]
    assert {p["seat"]: p["cards"] for p in view["players"]} == {first: None, second: None, third: ["+7", "-7"]}
    record = s["hands"][-1]["settlement"]
    assert record["payouts"][third] == 3 + 6 and record["net"][third] == 3 + 6 - 3  # antes back
    assert record["shown"] == {"cards": ["+7", "-7"], "kind": "sabacc_pair", "total": 0, "sabacc_pot": 6}
