"""Issue 10's small engine contract, which the phones and the display read:

- `hand.deal`: what the dealer deals now, as `[{"seat", "cards", "words"}]` ("Deal Han 1
  card"): set when the hand starts, at a gain or a trade, at a shift and at a sudden demise;
  the latest job stays until the next one or the hand's end;
- each entry of `view()["hands"]` keeps the hand's `settlement` and the revealed `cards`
  ({seat: [codes] | null});
- the host reads one seat's legal moves (`Table.legal`, `GET .../seats/<seat>/legal`), so the
  console can play a seat that has no phone.
"""

from __future__ import annotations

from companion.table.engine import Table
from companion.table.offers import bare

HOST = "host"


def table(preset="classic"):
    t = Table.create("ABCDE", {"rules": preset})
    for name in ("Lando", "Han"):
        t.apply({"type": "join", "name": name}, None)
    for seat in ("s1", "s2"):
        t.apply({"type": "buy_in", "seat": seat, "amount": 20}, HOST)
    t.apply({"type": "start_hand"}, HOST)
    return t


def deal(t):
    return [(d["seat"], d["cards"], d["words"]) for d in t.view()["hand"]["deal"]]


def test_deal_says_what_the_dealer_deals_at_the_start_a_gain_a_shift_and_a_sudden_demise():
    t = table()
    assert deal(t) == [("s2", 2, "Deal Han 2 cards"), ("s1", 2, "Deal Lando 2 cards")]
    t.apply({"type": "check"}, "s2")
    t.apply({"type": "roll", "dice": [1, 2]}, HOST)
    t.apply({"type": "draw", "action": "gain"}, "s2")
    assert deal(t) == [("s2", 1, "Deal Han 1 card")]
    t.apply({"type": "check"}, "s1")
    assert deal(t) == [("s2", 1, "Deal Han 1 card")]  # the latest job stays
    t.apply({"type": "roll", "dice": [4, 4]}, HOST)  # a double: a core shift
    assert deal(t) == [("s2", 3, "Deal Han 3 cards"), ("s1", 2, "Deal Lando 2 cards")]
    t.apply({"type": "draw", "action": "stand"}, "s1")
    t.apply({"type": "check"}, "s2")
    t.apply({"type": "roll", "dice": [1, 2]}, HOST)
    t.apply({"type": "call_hand"}, "s1")
    t.apply({"type": "reveal", "cards": ["sa10", "co5", "st5"]}, "s2")
    t.apply({"type": "reveal", "cards": ["fl10", "st10"]}, "s1")  # 20 each: sudden demise
    assert t.view()["hand"]["stage"] == "demise"
    assert deal(t) == [("s2", 1, "Deal Han 1 card"), ("s1", 1, "Deal Lando 1 card")]
    t.apply({"type": "demise_card", "card": "sa2"}, "s2")
    t.apply({"type": "demise_card", "card": "co1"}, "s1")
    view = t.view()
    assert view["hand"]["stage"] == "settled" and deal(t) == []  # the hand's end
    # The history keeps the settlement and every revealed hand.
    entry = view["hands"][-1]
    assert entry["cards"] == {"s2": ["sa10", "co5", "st5"], "s1": ["fl10", "st10"]}
    assert entry["settlement"] == view["hand"]["settlement"]
    assert [(h["name"], h["total"]) for h in entry["settlement"]["hands"]] == [("s2", 20), ("s1", 20)]
    assert entry["settlement"]["payouts"]["s2"] > 0


def test_a_folded_hand_shows_no_cards_in_the_history_and_a_rim_shift_deals_one_each():
    t = table("weg")
    t.apply({"type": "check"}, "s2")
    t.apply({"type": "roll", "dice": [1]}, HOST)  # weg: 1-3 is a rim shift
    assert deal(t) == [("s2", 1, "Deal Han 1 card"), ("s1", 1, "Deal Lando 1 card")]
    t.apply({"type": "draw", "action": "stand"}, "s2")
    t.apply({"type": "fold"}, "s1")  # in Lando's betting step
    entry = t.view()["hands"][-1]
    assert entry["cards"] == {"s2": None, "s1": None}
    assert entry["settlement"]["status"] == "conceded"


def test_the_console_reads_one_seats_legal_moves():
    t = table()
    assert {"type": "check"} in bare(t.legal("s2")) and {"type": "check"} not in bare(t.legal("s1"))
    assert t.legal("s2") == t.view("s2")["you"]["legal"]  # what that seat's phone offers
    # Not in every host view: each seat's moves cost their checks on every update.
    assert "seat_legal" not in t.view(None, host=True)


def test_only_the_host_reads_a_seats_legal_moves(client):
    from test_tables_api import Api, flask_call

    a = Api(flask_call(client))
    a.create({"rules": "weg"})
    for name in ("Lando", "Han"):
        a.join(name)
    status, body = a.call("GET", f"/api/v1/tables/{a.code}/seats/s2/legal", None, a.host)
    assert status == 200 and body["seat"] == "s2" and {"type": "sit_out"} in bare(body["legal"])
    assert a.call("GET", f"/api/v1/tables/{a.code}/seats/s2/legal", None, a.tokens["s1"])[0] == 403
    assert a.call("GET", f"/api/v1/tables/{a.code}/seats/s2/legal", None, None)[0] == 401
    assert a.call("GET", f"/api/v1/tables/{a.code}/seats/s9/legal", None, a.host)[0] == 404
