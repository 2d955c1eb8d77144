"""The rulings of RULES.md's last section ("Rulings added after the first full build"), one test
each, named after the item of issue 9 it settles; and the engine's side of issue 11 (what a
refusal may tell, the dealer's jobs, the hand history). Each failed on the engine before them.

Seats: Lando s1 (the first dealer), Han s2, Chewie s3, Leia s4; play starts at the dealer's left.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.classic.cards import deck_count
from companion.games.classic.explain import explain, section
from companion.games.classic.presets import PRESETS
from companion.rules.rulesets import ruleset_from
from companion.table.engine import HOST, Refused, Table

NAMES = ["Lando", "Han", "Chewie", "Leia"]
FIXTURE = Path(__file__).parent / "fixtures" / "table-snapshot-v0.json"


def table(rules="classic", players=2, stack=30, **settings) -> Table:
    t = Table.create("RULING", {"rules": rules, **settings})
    for i in range(players):
        t.apply({"type": "join", "name": NAMES[i]}, None)
        if t.rules.buy_in:
            t.apply({"type": "buy_in"}, f"s{i + 1}")
        else:
            t.apply({"type": "buy_in", "amount": stack}, f"s{i + 1}")
    return t


def do(t: Table, actor, type_, **fields):
    return t.apply({"type": type_, **fields}, actor)


def refused(t: Table, actor, type_, **fields) -> Refused:
    before = t.to_json()
    with pytest.raises(Refused) as info:
        t.apply({"type": type_, **fields}, actor)
    assert t.to_json() == before, "a refused command changed the table"
    return info.value


def hand(t: Table, seat=None):
    return t.view(seat)["hand"]


def legal(t: Table, seat) -> list[str]:
    return [m["type"] for m in t.view(seat)["you"]["legal"]]


def pagat_round(t: Table, order=("s2", "s1"), dealer="s1"):
    """One quiet pagat round: each draws (stands) and rolls, all check, the dealer rolls."""
    for sid in order:
        do(t, sid, "draw", action="stand")
        do(t, sid, "roll", dice=[1, 2])
    for sid in order:
        do(t, sid, "check")
    do(t, dealer, "roll", dice=[1, 2])


def to_round_2_call_window(rules: str, players: int = 3, **settings) -> Table:
    """A turn-based hand at round 2: every player had a quiet turn, then Han checked and
    rolled (no shift): his call window is open."""
    t = table(rules, players=players, **settings)
    do(t, HOST, "start_hand")
    for sid in ("s2", "s3", "s1") if players == 3 else ("s2", "s1"):
        weg_turn(t, sid)
    do(t, "s2", "check")
    do(t, "s2", "roll", dice=[6] if t.rules.scrambler_trigger.value == "d6-low" else [1, 2])
    return t


def weg_turn(t: Table, sid):
    """A quiet weg/classic turn: check, roll (no shift under d6-low on a 6), stand."""
    do(t, sid, "check")
    do(t, sid, "roll", dice=[6] if t.rules.scrambler_trigger.value == "d6-low" else [1, 2])
    do(t, sid, "draw", action="stand")


# -- 1. the caller cannot fold ------------------------------------------------------------------

def test_ruling_1_the_caller_cannot_fold_and_the_hand_reaches_its_reveal():
    t = table("pagat", players=2)
    do(t, HOST, "start_hand")
    for _ in range(3):
        pagat_round(t)
    for sid in ("s2", "s1"):
        do(t, sid, "draw", action="stand")
        do(t, sid, "roll", dice=[1, 2])
    do(t, "s2", "call_hand")  # Han's move in the 4th betting round
    do(t, "s2", "check")
    do(t, "s1", "bet", amount=3)
    assert "fold" not in legal(t, "s2")
    assert refused(t, "s2", "fold").status == 409
    do(t, "s2", "call")
    assert hand(t)["stage"] == "final_roll"  # the round is finished: the scrambler fires once more
    do(t, "s1", "roll", dice=[1, 2])
    do(t, "s2", "reveal", cards=["sa10", "co10"])
    do(t, "s1", "reveal", cards=["sa5", "co5"])  # the last reveal is not refused
    assert hand(t)["stage"] == "settled"


# -- 2. the draw closes the call window ---------------------------------------------------------

def test_ruling_2_the_draw_itself_closes_the_call_window_without_a_nobody_calls_tap():
    t = to_round_2_call_window("weg")
    h = hand(t)
    assert (h["turn"], h["do"], h["call_open"]) == ("s2", "draw", True)
    assert "call_hand" in legal(t, "s3") and "call_hand" not in legal(t, "s2")
    do(t, "s2", "draw", action="stand")  # no "nobody calls" first
    assert (hand(t)["turn"], hand(t)["do"], hand(t)["call_open"]) == ("s3", "bet", False)


def test_ruling_2_a_turn_player_who_folded_in_their_own_turn_rolls_and_closes_their_call_window():
    t = table("classic", players=3)
    do(t, HOST, "start_hand")
    for sid in ("s2", "s3", "s1"):
        weg_turn(t, sid)
    do(t, "s2", "fold")  # in his own turn
    do(t, "s2", "roll", dice=[1, 2])
    assert (hand(t)["turn"], hand(t)["do"]) == ("s2", "call")
    assert "no_call" in legal(t, "s2")  # the folded turn player is offered it
    do(t, "s2", "no_call")
    assert (hand(t)["turn"], hand(t)["do"]) == ("s3", "bet")


# -- 3. pagat's call window is open to everyone -------------------------------------------------

def pagat_all_in_to_round_4():
    t = table("pagat", players=3, stack=10)
    do(t, HOST, "start_hand")  # Lando deals; Han, Chewie, Lando play
    order = ("s2", "s3", "s1")
    for sid in order:
        do(t, sid, "draw", action="stand")
        do(t, sid, "roll", dice=[1, 2])
    do(t, "s2", "all_in")
    do(t, "s3", "all_in")
    do(t, "s1", "call")  # Lando can still bet, nobody else can
    for _ in range(3):
        do(t, "s1", "roll", dice=[1, 2])
        for sid in order:
            do(t, sid, "draw", action="stand")
            do(t, sid, "roll", dice=[1, 2])
    return t


def test_ruling_3_pagat_call_window_is_open_to_every_player_still_in_the_hand():
    t = pagat_all_in_to_round_4()
    h = hand(t)
    assert (h["round"], h["phase"], h["do"]) == (4, "betting", "call")
    assert h["call_window"] == ["s2", "s3", "s1"]
    assert "the others may call" not in h["words"]
    for sid in ("s2", "s3", "s1"):
        assert "call_hand" in legal(t, sid) and "no_call" in legal(t, sid)
    do(t, "s3", "call_hand")  # Chewie, all-in, not the seat the old engine fixed
    assert hand(t)["called_by"] == "s3"


def test_ruling_3_pagat_call_window_closes_when_each_has_passed():
    t = pagat_all_in_to_round_4()
    do(t, "s2", "no_call")
    assert hand(t)["call_window"] == ["s3", "s1"]
    assert refused(t, "s2", "call_hand").status == 409  # Han passed
    do(t, "s3", "no_call")
    do(t, "s1", "no_call")
    assert (hand(t)["do"], hand(t)["roller"]) == ("roll", "s1")  # the dealer's roll


# -- 4. Corellia Run's set-aside cards --------------------------------------------------------------

def test_ruling_4_corellia_set_aside_cards_are_refused_everywhere_and_the_deck_holds_62():
    assert deck_count(corellia_run=True) == 62
    t = table("classic", players=2, corellia_run=True)
    do(t, HOST, "start_hand")
    assert hand(t)["deck"] == 62 - 4
    assert refused(t, "s2", "static_add", card="star").field == "card"
    do(t, "s2", "static_add", card="idiot")  # the Idiot is not set aside
    assert "set aside" in refused(t, "s1", "static_add", card="evil-one").error


def test_ruling_4_corellia_demise_card_is_refused_without_naming_anyone_elses_card():
    t = to_round_2_call_window("classic", players=2, corellia_run=True)
    do(t, "s1", "call_hand")
    do(t, "s2", "reveal", cards=["co10", "fl5"])  # 15
    do(t, "s1", "reveal", cards=["fl10", "co5"])  # 15: a tie
    assert hand(t)["stage"] == "demise"
    exc = refused(t, "s2", "demise_card", card="balance")
    assert exc.field == "card" and "Balance" in exc.error and "s1" not in exc.error


# -- 5. the static-field timing ruling --------------------------------------------------------------

def test_ruling_5_classic_locks_the_card_just_drawn():
    t = table("classic", players=2)
    do(t, HOST, "start_hand")
    do(t, "s2", "check")
    do(t, "s2", "roll", dice=[1, 2])
    do(t, "s2", "draw", action="gain")
    do(t, "s2", "static_add", card="sa9")  # after the draw, in Lando's turn
    assert hand(t)["players"][0]["static"] == ["sa9"]


def test_ruling_5_holodex_locks_the_card_just_drawn_until_the_next_player_acts():
    t = table("holodex", players=2)
    do(t, HOST, "start_hand")
    do(t, "s2", "check")
    do(t, "s1", "check")
    do(t, "s2", "draw", action="trade")
    assert "static_add" in legal(t, "s2")
    do(t, "s2", "static_add", card="sa9")
    assert refused(t, "s2", "static_add", card="sa8").status == 409  # one change a turn
    do(t, "s1", "draw", action="stand")
    assert refused(t, "s2", "static_remove", card="sa9").status == 409  # Lando acted


def test_ruling_5_holodex_window_after_the_last_draw_closes_when_the_dice_phase_begins():
    t = table("holodex", players=2)
    do(t, HOST, "start_hand")
    do(t, "s2", "check")
    do(t, "s1", "check")
    do(t, "s2", "draw", action="stand")
    do(t, "s1", "draw", action="gain")
    assert hand(t)["phase"] == "dice"
    assert refused(t, "s1", "static_add", card="sa9").status == 409


def test_ruling_5_pagat_locks_the_card_just_drawn_until_the_roll():
    t = table("pagat", players=2, scrambler_trigger="timer")
    do(t, HOST, "start_hand")
    do(t, "s2", "draw", action="gain")  # the timer rolls by itself: the draw ends the turn
    do(t, "s2", "static_add", card="sa9")
    assert hand(t)["players"][0]["static"] == ["sa9"]


# -- 6. folding until the roll --------------------------------------------------------------------

def test_ruling_6_after_the_turn_players_check_anyone_may_fold_until_the_roll():
    t = table("weg", players=3)
    do(t, HOST, "start_hand")
    do(t, "s2", "check")  # Han's check ends the betting
    assert hand(t)["do"] == "roll"
    assert "fold" in legal(t, "s3")
    do(t, "s3", "fold")
    do(t, "s2", "roll", dice=[6])
    assert refused(t, "s1", "fold").status == 409  # the roll closed it


# -- 7. Force Sabacc sides are declared once ----------------------------------------------------------

def test_ruling_7_force_sabacc_side_is_declared_once_and_the_host_corrects_it_only_before_the_first_hand():
    t = table("classic", players=2, force_sabacc=True)
    do(t, "s1", "declare_side", side="light")
    do(t, "s2", "declare_side", side="dark")
    assert refused(t, "s1", "declare_side", side="dark").status == 409
    do(t, HOST, "declare_side", seat="s1", side="dark")  # a correction before the first hand
    do(t, HOST, "start_hand")
    do(t, "s2", "fold")
    assert refused(t, HOST, "declare_side", seat="s1", side="light").status == 409
    assert refused(t, "s2", "declare_side", side="light").status == 409
    assert [s["side"] for s in t.view()["seats"]] == ["dark", "dark"]


def test_ruling_7_every_screen_shows_each_players_declared_side_during_the_hand():
    t = table("classic", players=3, force_sabacc=True)
    for seat, side in (("s1", "light"), ("s2", "dark"), ("s3", "light")):
        do(t, seat, "declare_side", side=side)
    do(t, HOST, "start_hand")
    for viewer in ("s1", "s2", "s3", None):  # each phone and the display: a side is public
        facts = t.view(viewer)["hand"]["facts"]["seats"]
        shown = {sid: [f["value"] for f in found if f["key"] == "side"] for sid, found in facts.items()}
        assert shown == {"s1": ["Light (aims for +23)"], "s2": ["Dark (aims for −23)"],
                         "s3": ["Light (aims for +23)"]}
    # Without Force Sabacc there is no side to show.
    plain = table("classic", players=2)
    do(plain, HOST, "start_hand")
    assert plain.view()["hand"]["facts"]["seats"] == {}


# -- 8. the Plutt's stake matches a bet ---------------------------------------------------------------

def test_ruling_8_a_staked_item_counts_toward_matching_a_bet():
    t = table("classic", players=2, stack=10)
    do(t, HOST, "start_hand")
    do(t, "s2", "bet", amount=8)
    assert hand(t)["owed"] == 8
    do(t, HOST, "stake", seat="s1", item="a YT-1300 freighter", value=8)  # his call
    assert hand(t)["do"] == "roll"
    assert t.view()["seats"][0]["stack"] == 8


# -- 9. the rules page ----------------------------------------------------------------------------------

def text(rs) -> str:
    return " ".join(s.text() for s in explain(rs))


def test_ruling_9_rules_page_says_who_calls_as_the_engine_allows():
    for name in ("holodex", "pagat"):
        calling = section(explain(PRESETS[name]), "calling").text()
        assert "any player" not in calling
    assert "whose move it is" in section(explain(PRESETS["holodex"]), "calling").text()
    assert "every player still in the hand" in section(explain(PRESETS["pagat"]), "calling").text()


def test_ruling_9_rules_page_states_the_rulings_players_argue_about():
    weg, holodex = text(PRESETS["weg"]), text(PRESETS["holodex"])
    assert "dealer's left" in weg
    assert "starting player moves one seat to the left each round" in holodex
    for words in ("gain", "trade", "stand", "at least two cards"):
        assert words in weg
    assert "until that turn's roll" in weg and "cannot fold" in weg
    assert "still rolls" in weg
    spike = text(ruleset_from({"preset": "classic", "scrambler_trigger": "2d6-spike"}))
    assert "double 1" in spike
    d20 = text(ruleset_from({"preset": "classic", "scrambler_trigger": "d20"}))
    assert "the 20" in d20
    assert "the 7" in text(ruleset_from({"preset": "classic", "scrambler_trigger": "d20",
                                         "trigger_face": 7}))


def test_ruling_9_a_tables_own_chip_set_bet_limit_and_options_are_on_its_rules_page():
    chips = [{"name": "crystal", "value": 10, "per_buy_in": 5}, {"name": "bronzium", "value": 1, "per_buy_in": 10}]
    t = Table.create("OWN", {"rules": "weg", "bet_limit": 10, "chip_set": chips})
    money = section(explain(t.rules), "money").text()
    assert "crystal 10" in money and "aurodium" not in money
    assert "at most 10 credits" in money
    assert "3-credit" not in t.rules.summary and "bet limit 10" in t.rules.summary
    assert "Options changed from the preset: bet limit" in section(explain(t.rules), "variants").text()
    assert PRESETS["weg"].summary.count("3-credit bet limit") == 1  # the preset itself keeps it


def test_ruling_9_holodex_chip_sets_add_up_to_the_buy_in():
    for buy_in in (500, 1000):
        rs = ruleset_from({"preset": "holodex", "buy_in": buy_in})
        assert sum(c.value * c.per_buy_in for c in rs.chip_set) == buy_in
        assert f"= {buy_in}" in section(explain(rs), "money").text()
        t = Table.create("CHIPS", {"rules": "holodex", "buy_in": buy_in})
        assert sum(c["value"] * c["per_buy_in"] for c in t.view()["settings"]["chip_set"]) == buy_in


# -- 10. the rim shift's picker ---------------------------------------------------------------------------

def test_ruling_10_rim_shift_picker_is_the_nearest_player_to_the_right_still_in_the_hand():
    assert "nearest player to their right who is still in the hand" in text(PRESETS["weg"])
    t = table("weg", players=3)
    do(t, HOST, "start_hand")  # Han, Chewie, Lando
    do(t, "s2", "bet", amount=1)
    do(t, "s3", "fold")
    do(t, "s1", "call")
    shift = next(e for e in do(t, "s2", "roll", dice=[1]) if e["type"] == "shift")
    assert shift["instructions"]["s1"].startswith("Han (on your right)")  # Chewie folded
    assert shift["announcement"] == "A rim shift: the scrambler has fired." == hand(t)["shift"]["announcement"]


# -- 11. the turn line says what the player owes ------------------------------------------------------------

def test_ruling_11_turn_line_says_the_amount_the_player_owes():
    t = table("holodex", players=3)
    do(t, HOST, "start_hand")  # Han, Chewie, Lando
    do(t, "s2", "bet", amount=5)
    do(t, "s3", "raise", to=10)
    do(t, "s1", "call")
    h = hand(t, "s2")
    assert (h["to_act"], h["current_bet"], h["owed"]) == ("s2", 10, 5)
    assert "call 5" in h["words"] and "call 10" not in h["words"]
    assert h["words"].startswith("You:")
    assert hand(t, "s1")["words"].startswith("Han: call 5")


# -- issue 11: what refusals may tell; the dealer's jobs; the history ------------------------------------

def test_issue11_demise_card_is_checked_only_against_public_cards():
    t = to_round_2_call_window("classic")
    do(t, "s3", "call_hand")
    do(t, "s2", "reveal", cards=["sa10", "co10"])
    do(t, "s3", "reveal", cards=["st9", "st5"])
    do(t, "s1", "reveal", cards=["fl10", "st10"])  # Han and Lando tie on 20
    assert hand(t)["demise_players"] == ["s2", "s1"]
    assert refused(t, "s2", "demise_card", card="sa10").field == "card"  # face up: his own
    do(t, "s2", "demise_card", card="sa1")
    ev = do(t, "s1", "demise_card", card="sa1")  # not refused: Han's card is still hidden
    clash = next(e for e in ev if e["type"] == "demise_conflict")
    assert clash["seats"] == ["s2", "s1"]
    do(t, "s2", "demise_card", card="sa2")
    do(t, "s1", "demise_card", card="sa2")  # Han's new card is hidden again: taken
    assert hand(t)["stage"] == "demise"
    do(t, "s2", "demise_card", card="sa2")
    do(t, "s1", "demise_card", card="co1")
    assert hand(t)["stage"] == "settled"


def test_issue11_a_refused_undo_never_names_a_hidden_card(tmp_path):
    from companion.table.ledger import Ledger
    from companion.table.owner import TableOwner

    ledger = Ledger(tmp_path / "tables.sqlite3")
    try:
        owner, _ = TableOwner.create("UNDO", {"rules": "classic"}, ledger, Table)
        for name in ("Lando", "Han"):
            owner.join(name)
        for sid in ("s1", "s2"):
            owner.submit({"type": "buy_in", "amount": 30}, sid)
        owner.submit({"type": "start_hand"}, HOST)
        owner.submit({"type": "static_add", "card": "sa5"}, "s2")
        owner.submit({"type": "static_remove", "card": "sa5"}, "s2")  # sa5 hidden again
        removal = owner.version
        for sid in ("s2", "s1"):
            for entry in ({"type": "check"}, {"type": "roll", "dice": [1, 2]},
                          {"type": "draw", "action": "stand"}):
                owner.submit(entry, sid)
        owner.submit({"type": "check"}, "s2")
        owner.submit({"type": "roll", "dice": [1, 2]}, "s2")
        owner.submit({"type": "call_hand"}, "s1")
        owner.submit({"type": "reveal", "cards": ["sa5", "co9"]}, "s1")  # Lando's hidden sa5
        with pytest.raises(Refused) as info:
            owner.undo(HOST, seq=removal)
        assert info.value.status == 409
        assert "sa5" not in info.value.error and "co9" not in info.value.error
    finally:
        ledger.close()


def test_issue11_view_says_the_dealers_current_job():
    t = table("classic", players=2)
    do(t, HOST, "start_hand")
    assert hand(t)["deal"] == [{"seat": "s2", "cards": 2, "words": "Deal Han 2 cards"},
                               {"seat": "s1", "cards": 2, "words": "Deal Lando 2 cards"}]
    do(t, "s2", "check")
    do(t, "s2", "roll", dice=[1, 2])
    do(t, "s2", "draw", action="gain")
    assert hand(t)["deal"] == [{"seat": "s2", "cards": 1, "words": "Deal Han 1 card"}]
    do(t, "s1", "static_add", card="sa3")
    do(t, "s1", "check")
    do(t, "s1", "roll", dice=[4, 4])  # a core shift
    assert hand(t)["deal"] == [{"seat": "s2", "cards": 3, "words": "Deal Han 3 cards"},
                               {"seat": "s1", "cards": 1, "words": "Deal Lando 1 card"}]
    do(t, "s1", "draw", action="stand")  # standing deals nothing: the job stays
    assert hand(t)["deal"][0]["cards"] == 3


def test_issue11_rim_shift_and_sudden_demise_jobs():
    t = table("weg", players=2)
    do(t, HOST, "start_hand")
    do(t, "s2", "check")
    do(t, "s2", "roll", dice=[1])
    assert hand(t)["deal"] == [{"seat": "s2", "cards": 1, "words": "Deal Han 1 card"},
                               {"seat": "s1", "cards": 1, "words": "Deal Lando 1 card"}]
    do(t, "s2", "draw", action="stand")
    weg_turn(t, "s1")
    do(t, "s2", "check")
    do(t, "s2", "roll", dice=[6])
    do(t, "s1", "call_hand")
    do(t, "s2", "reveal", cards=["sa10", "co10"])
    do(t, "s1", "reveal", cards=["fl10", "st10"])
    assert hand(t)["deal"] == [{"seat": "s2", "cards": 1, "words": "Deal Han 1 card"},
                               {"seat": "s1", "cards": 1, "words": "Deal Lando 1 card"}]
    do(t, "s2", "demise_card", card="sa2")
    do(t, "s1", "demise_card", card="co1")
    assert hand(t)["deal"] == []  # the hand is over


def test_issue11_history_carries_the_settlement_and_the_shown_cards():
    t = table("classic", players=3)
    do(t, HOST, "start_hand")
    do(t, "s2", "bet", amount=2)
    do(t, "s3", "fold")
    do(t, "s1", "call")
    do(t, "s2", "roll", dice=[1, 2])
    do(t, "s2", "draw", action="stand")
    weg_turn(t, "s1")
    do(t, "s2", "check")
    do(t, "s2", "roll", dice=[1, 2])
    do(t, "s1", "call_hand")
    do(t, "s2", "reveal", cards=["sa10", "co10"])
    do(t, "s1", "reveal", cards=["fl5", "st5"])
    row = t.view()["hands"][-1]
    assert row["settlement"] == hand(t)["settlement"] and row["settlement"]["status"] == "settled"
    assert row["cards"] == {"s2": ["sa10", "co10"], "s3": None, "s1": ["fl5", "st5"]}
    # A conceded hand shows nothing.
    do(t, HOST, "start_hand")  # Han deals: Chewie, Lando, Han
    do(t, "s3", "fold")
    do(t, "s1", "fold")  # before Chewie's roll
    row = t.view()["hands"][-1]
    assert row["settlement"]["status"] == "conceded"
    assert set(row["cards"].values()) == {None}


def test_issue11_a_second_call_names_who_called_first():
    t = table("holodex", players=3)
    do(t, HOST, "start_hand")
    # Two full rounds (the starter rotates): bets checked round, trades stood, dice rolled.
    for order in (("s2", "s3", "s1"), ("s3", "s1", "s2")):
        for sid in order:
            do(t, sid, "check")
        for sid in order:
            do(t, sid, "draw", action="stand")
        do(t, "s1", "roll", dice=[1, 2])
    for sid in ("s1", "s2", "s3"):
        do(t, sid, "check")
    do(t, "s1", "call_hand")  # in his own trade turn
    do(t, "s1", "draw", action="stand")
    assert refused(t, "s2", "call_hand").error == "Lando called the hand first"


# -- snapshots on disk -------------------------------------------------------------------------------------

def test_an_old_snapshot_loads_and_plays_on():
    """tests/fixtures/table-snapshot-v0.json was written by the engine before this rebuild:
    a holodex table, one conceded hand, the second hand in its betting phase."""
    old = json.loads(FIXTURE.read_text())
    t = Table.from_json(old)
    assert (t.version, t.credits(), t.seat_ids()) == (11, 1500, ["s1", "s2", "s3"])
    h = hand(t)
    assert (h["stage"], h["to_act"], h["current_bet"], h["deal"]) == ("play", "s1", 10, [])
    assert t.view()["hands"][0]["settlement"] is None
    do(t, "s1", "call")
    do(t, "s2", "fold")
    assert hand(t)["phase"] == "trade"
    assert Table.from_json(json.loads(json.dumps(t.to_json()))) == t


def test_issue9_the_turn_line_and_the_rules_page_name_a_phase_from_the_same_value():
    from companion.rules.rulesets import Phase

    t = table("holodex", players=2)
    do(t, HOST, "start_hand")
    do(t, "s2", "check")
    do(t, "s1", "check")
    name = t.rules.phase_name(Phase.TRADE)
    assert name == "trade phase"
    assert hand(t)["words"].startswith("Trade phase — Han: gain a card")
    assert f"in the {name}" in section(explain(t.rules), "calling").text()
