"""Issue 14 and the rulings of RULES.md's "Rulings added in the third round of play-testing", one
test (or a few) per item, named after it. Each failed on the engine before it.

Seats: Lando s1 (the first dealer), Han s2, Chewie s3, Leia s4; play starts at the dealer's left.
"""

from __future__ import annotations

import pytest

from companion.table.engine import HOST, Refused, Table
from test_table_rulings import do, hand, legal, refused

NAMES = ["Lando", "Han", "Chewie", "Leia"]


def table(rules="classic", players=2, stack=30, **settings) -> Table:
    t = Table.create("THIRD", {"rules": rules, **settings})
    for i in range(players):
        t.apply({"type": "join", "name": NAMES[i]}, None)
        t.apply({"type": "buy_in", "amount": stack}, f"s{i + 1}")
    return t


def quiet_dice(t: Table) -> list[int]:
    """A roll that shifts nothing: a 6 under d6-low, a 1-2 under two d6."""
    return [6] if t.rules.scrambler_trigger.value == "d6-low" else [1, 2]


def quiet_turn(t: Table, sid):
    """A quiet weg/classic turn: check, roll without a shift, stand."""
    do(t, sid, "check")
    do(t, sid, "roll", dice=quiet_dice(t))
    do(t, sid, "draw", action="stand")


def to_round_2(rules="weg", players=4, stack=50, **settings) -> Table:
    """Every player had a quiet turn; round 2 begins with Han's bet step."""
    t = table(rules, players=players, stack=stack, **settings)
    do(t, HOST, "start_hand")
    order = [f"s{i}" for i in range(2, players + 1)] + ["s1"]
    for sid in order:
        quiet_turn(t, sid)
    assert (hand(t)["round"], hand(t)["turn"], hand(t)["do"]) == (2, "s2", "bet")
    return t


# -- 1. a folded turn player's call window --------------------------------------------------------

@pytest.mark.parametrize("rules", ["weg", "classic"])
def test_item1_folded_turn_players_call_window_closes_when_the_next_player_acts(rules):
    t = to_round_2(rules)
    do(t, "s2", "fold")  # Han folds in his own turn: he still rolls
    do(t, HOST, "roll", dice=quiet_dice(t))
    h = hand(t)
    assert (h["turn"], h["do"], h["call_open"]) == ("s2", "call", True)
    assert "check" in legal(t, "s3") and "bet" in legal(t, "s3")  # Chewie's move is offered
    assert "call_hand" in legal(t, "s4")  # the others may still call while it is open
    assert refused(t, "s4", "fold").status == 409  # Leia's fold is not the next turn's move
    events = do(t, "s3", "check")  # Chewie, the next player, acts: the window closes
    assert [e["type"] for e in events][:2] == ["no_call", "step"]
    h = hand(t)
    assert (h["turn"], h["do"], h["call_open"], h["called_by"]) == ("s3", "roll", False, None)
    assert refused(t, "s4", "call_hand").status == 409


def test_item1_the_next_players_bet_also_closes_it_and_the_host_may_still_tap_it_shut():
    t = to_round_2("weg")
    do(t, "s2", "fold")
    do(t, "s2", "roll", dice=[6])
    do(t, "s3", "bet", amount=2)
    assert (hand(t)["to_act"], hand(t)["current_bet"]) == ("s4", 2)
    t = to_round_2("weg")
    do(t, "s2", "fold")
    do(t, "s2", "roll", dice=[6])
    do(t, HOST, "no_call")
    assert (hand(t)["turn"], hand(t)["do"]) == ("s3", "bet")


# -- 2. a three-way sudden demise -------------------------------------------------------------------

def to_reveal(rules="classic", players=3, **settings) -> Table:
    """Round 2, Han's call window after his roll: Lando calls; the reveal begins."""
    t = to_round_2(rules, players=players, **settings)
    do(t, "s2", "check")
    do(t, "s2", "roll", dice=quiet_dice(t))
    do(t, "s1", "call_hand")
    assert hand(t)["stage"] == "reveal"
    return t


def test_item2_three_way_sudden_demise_offers_and_takes_every_players_card():
    t = to_reveal("classic", players=3)
    do(t, "s2", "reveal", cards=["sa10", "co10"])
    do(t, "s3", "reveal", cards=["st10", "fl10"])
    do(t, "s1", "reveal", cards=["sa9", "co11"])  # three hands of 20
    assert hand(t)["demise_players"] == ["s2", "s3", "s1"]
    do(t, "s2", "demise_card", card="sa1")
    do(t, "s3", "demise_card", card="sa1")  # Han's card was hidden: taken
    do(t, "s1", "demise_card", card="co3")
    h = hand(t)
    assert h["stage"] == "demise"  # Han and Chewie clash; Lando's card stands face up
    assert "demise_card" not in legal(t, "s1")  # not offered a card that already stands
    assert "demise_card" in legal(t, "s2") and "demise_card" in legal(t, "s3")
    do(t, "s2", "demise_card", card="sa2")
    do(t, "s3", "demise_card", card="co2")  # the third player's card is not asked again
    assert hand(t)["stage"] == "settled"


def test_item2_an_old_snapshot_with_demise_shown_loads_and_offers_only_the_clashing_players():
    t = to_reveal("classic", players=3)
    do(t, "s2", "reveal", cards=["sa10", "co10"])
    do(t, "s3", "reveal", cards=["st10", "fl10"])
    do(t, "s1", "reveal", cards=["sa9", "co11"])
    for sid, card in (("s2", "sa1"), ("s3", "sa1"), ("s1", "co3")):
        do(t, sid, "demise_card", card=card)
    old = t.to_json()
    del old["hand"]["demise_public"]
    old["hand"]["demise_shown"] = True  # the key of the snapshots written before
    again = Table.from_json(old)
    assert "demise_card" not in legal(again, "s1") and "demise_card" in legal(again, "s2")
    do(again, "s2", "demise_card", card="sa2")
    do(again, "s3", "demise_card", card="co2")
    assert hand(again)["stage"] == "settled"


# -- 6. the sudden-demise oracle -------------------------------------------------------------------

def demise_tie() -> Table:
    """Alice (Lando) holds the Queen of Air and Darkness and the Commander of Coins (10), Bob
    (Han) the 10 of Flasks and the Idiot (10): a tie. One Idiot and one Queen are face up."""
    t = to_reveal("weg", players=2)
    do(t, "s2", "reveal", cards=["fl10", "idiot"])
    do(t, "s1", "reveal", cards=["queen", "co12"])
    assert hand(t)["stage"] == "demise"
    return t


@pytest.mark.parametrize("alice", ["idiot", "queen", "sa3"])
@pytest.mark.parametrize("first", ["alice", "bob"])
def test_item6_demise_entry_never_depends_on_another_players_hidden_card(alice, first):
    """Bob's Idiot is accepted whatever Alice entered and whoever entered first; a clash is
    resolved once both are in, and only the clashing cards are entered again."""
    t = demise_tie()
    order = [("s1", alice), ("s2", "idiot")]
    for sid, card in order if first == "alice" else order[::-1]:
        events = do(t, sid, "demise_card", card=card)  # never refused
    clash = next((e for e in events if e["type"] == "demise_conflict"), None)
    if alice == "idiot":  # three Idiots on the table: both enter again
        assert clash is not None and clash["seats"] == ["s2", "s1"]
        assert hand(t)["stage"] == "demise"
        do(t, "s2", "demise_card", card="idiot")
        do(t, "s1", "demise_card", card="sa3")
        assert hand(t)["stage"] == "settled"
    else:
        assert clash is None and hand(t)["stage"] == "settled"


def test_item6_a_demise_refusal_names_only_what_is_face_up():
    t = demise_tie()
    do(t, "s1", "demise_card", card="idiot")  # hidden
    exc = refused(t, "s2", "demise_card", card="co12")  # face up in Alice's hand
    assert "co12" in exc.error.lower() or "commander" in exc.error.lower()
    do(t, "s2", "demise_card", card="idiot")


# -- 3. a non-credit stake is a bet ------------------------------------------------------------------

def test_item3_stake_obeys_the_bet_limit_and_is_refused_in_words():
    t = table("weg", players=3, stack=50)
    do(t, HOST, "start_hand")  # Han, Chewie, Lando
    do(t, "s2", "bet", amount=2)
    exc = refused(t, HOST, "stake", seat="s3", item="a YT-1300 freighter", value=20)
    assert exc.status == 422 and exc.field == "value"
    assert "the bet limit is 3" in exc.error and "raise to 20" in exc.error
    do(t, HOST, "stake", seat="s3", item="a protocol droid", value=5)  # a raise to 5: limit kept
    h = hand(t)
    assert (h["current_bet"], h["to_act"]) == (5, "s1")
    assert t.view()["items"] == [{"hand": 1, "seat": "s3", "item": "a protocol droid", "value": 5}]


def test_item3_stake_obeys_the_order_of_betting():
    t = table("weg", players=3, stack=50)
    do(t, HOST, "start_hand")
    exc = refused(t, HOST, "stake", seat="s3", item="a freighter", value=2)  # before Han opens
    assert exc.status == 409 and "Han's move" in exc.error
    do(t, "s2", "check")  # Han's check ends the betting (weg: only he opens)
    assert refused(t, HOST, "stake", seat="s3", item="a freighter", value=2).status == 409
    t = table("weg", players=3, stack=50)
    do(t, HOST, "start_hand")
    do(t, HOST, "stake", seat="s2", item="a freighter", value=3)  # Han opens with it: a bet of 3
    assert (hand(t)["current_bet"], hand(t)["to_act"]) == (3, "s3")
    do(t, HOST, "stake", seat="s3", item="a blaster", value=3)  # Chewie calls with his
    assert hand(t)["to_act"] == "s1"
    assert refused(t, HOST, "stake", seat="s1", item="a hat", value=1).field == "value"  # short
    assert t.credits() == 150 + 6


# -- 4. an all-in player cannot fold ----------------------------------------------------------------

def test_item4_all_in_players_fold_is_refused_when_sent_by_hand():
    t = table("classic", players=3, stack=10)
    do(t, HOST, "start_hand")  # Han, Chewie, Lando
    do(t, "s2", "all_in")
    assert "fold" not in legal(t, "s2")
    exc = refused(t, "s2", "fold")
    assert exc.status == 409 and "all-in" in exc.error
    assert refused(t, HOST, "fold", seat="s2").status == 409  # nor by the host for him
    do(t, "s3", "fold")  # a player with credits may


# -- 8. transport fields: one check, one status ------------------------------------------------------

BAD_TRANSPORT = [({"version": "1"}, "version"), ({"version": True}, "version"),
                 ({"version": -1}, "version"), ({"idempotency_key": ""}, "idempotency_key"),
                 ({"idempotency_key": 7}, "idempotency_key"),
                 ({"idempotency_key": "k" * 101}, "idempotency_key"),
                 ({"idempotency_key": "\ud800"}, "idempotency_key")]


@pytest.mark.parametrize(("fields", "field"), BAD_TRANSPORT)
def test_item8_transport_fields_validated_in_one_place_with_one_status(tmp_path, fields, field):
    """The same faulty `version` or `idempotency_key` gets the same status and field from the
    owner (what the GPIO button, the box or a test calls) as from the web layer."""
    from companion.table.ledger import Ledger
    from companion.table.owner import TableOwner, check_transport

    with pytest.raises(Refused) as web:
        check_transport(fields.get("version"), fields.get("idempotency_key"))
    ledger = Ledger(tmp_path / "t.sqlite3")
    try:
        owner, _ = TableOwner.create("TRANS", {"rules": "weg"}, ledger, Table)
        owner.join("Lando")
        for call in (lambda: owner.submit({"type": "buy_in", "amount": 5}, "s1", **_kw(fields)),
                     lambda: owner.undo(HOST, **_kw(fields))):
            with pytest.raises(Refused) as info:
                call()
            assert (info.value.status, info.value.field) == (web.value.status, field) == (400, field)
    finally:
        ledger.close()


def _kw(fields):
    return {"version": fields.get("version"), "idempotency_key": fields.get("idempotency_key")}


@pytest.mark.parametrize(("fields", "field"), BAD_TRANSPORT[:-1])
def test_item8_the_web_layer_answers_the_same(client, fields, field):
    made = client.post("/api/v1/tables", json={"rules": "weg"}).get_json()
    host = {"Authorization": "Bearer " + made["host_token"]}
    for path, body in (("commands", {"type": "start_hand", **fields}), ("undo", dict(fields))):
        got = client.post(f"/api/v1/tables/{made['code']}/{path}", json=body, headers=host)
        assert (got.status_code, got.get_json()["field"]) == (400, field)
