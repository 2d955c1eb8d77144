"""Coruscant Shift: a player leaving the table in the middle of a round (RULES-CORUSCANT.md C31),
through the HTTP API: their hand is folded at once, they take their credits, the round goes on
without them, and they are placed as out in the round they left."""

from __future__ import annotations

import pytest

from companion.server.app import create_app
from test_coruscant_table import Table


@pytest.fixture
def client(tmp_path):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")}).test_client()


def test_C31_a_player_who_leaves_mid_round_folds_takes_their_credits_and_is_out_that_round(client):
    t = Table(client, {"preset": "coruscant", "stock": 30, "ante": 4}, ["Han", "Lando", "Bria"])
    t.act("host", {"type": "set_dealer", "seat": t.seat["Han"]})
    t.act("host", {"type": "start_hand"})
    t.act("host", {"type": "roll", "dice": [3, 2]})
    assert t.stacks() == {"Han": 26, "Lando": 26, "Bria": 26} and t.view()["hand"]["hand_pot"] == 12
    t.act("Han", {"type": "select", "count": 2})
    t.act("Lando", {"type": "select", "count": 3})
    # Bria leaves while the round waits for her selection (her phone offers it, as every game's
    # phone offers the session's moves): her hand is folded, she takes her 26 credits, and the
    # selection step ends as at its last move (the first betting round opens).
    assert {o["type"]: o["inputs"] for o in t.view("Bria")["you"]["legal"]}["leave"] == []
    said = t.act("Bria", {"type": "leave"})["events"]
    assert "folded" in [e["type"] for e in said] and any(e["type"] == "cashed_out" and e["amount"] == 26
                                                              for e in said)
    v = t.view()
    assert {d["name"]: d["cashed_out"] for d in v["departed"]} == {"Bria": 26}
    assert v["hand"]["phase"] == "bet1" and v["hand"]["to_act"] is not None
    assert next(p for p in v["hand"]["players"] if p["seat"] == t.seat["Bria"])["folded"] is True
    # Her ante stays in the pot: every credit bought in is in a stack, the pot or her pocket.
    assert sum(s["stack"] for s in v["seats"]) + v["hand"]["hand_pot"] + 26 == 90 and v["hand"]["hand_pot"] == 12
    # In the betting, the player to act leaves: the other takes the pot (C16) without showing.
    mover = t.name[v["hand"]["to_act"]]
    other = next(n for n in ("Han", "Lando") if n != mover)
    t.act(mover, {"type": "leave"})
    v = t.view()
    assert v["hand"]["stage"] == "settled" and v["hand"]["settlement"]["status"] == "conceded"
    assert t.stacks() == {other: 26 + 12}
    assert sum(d["cashed_out"] for d in v["departed"]) == 26 + 26
    # Both are out in round 1 (placed as out that round); the game is over with one left.
    game = t.view()["hand"]["game"]
    assert game["out"] == {t.seat["Bria"]: 1, t.seat[mover]: 1} and game["over"] is True
    assert game["places"] == {t.seat[other]: 1, t.seat["Bria"]: 2, t.seat[mover]: 2}
    assert v["hands"][-1]["payouts"][t.seat[other]] == 12


def test_C31_a_player_who_leaves_at_the_reveal_is_folded_and_the_others_are_settled_undo_brings_them_back(client):
    t = Table(client, {"preset": "coruscant", "stock": 30, "ante": 4}, ["Han", "Lando", "Bria", "Tobias"])
    t.act("host", {"type": "set_dealer", "seat": t.seat["Han"]})
    t.act("host", {"type": "start_hand"})
    t.act("host", {"type": "roll", "dice": [1, 1]})  # 0 Circle

    def checks():
        while (v := t.view())["hand"]["to_act"] is not None and v["hand"]["stage"] == "play":
            t.act(t.name[v["hand"]["to_act"]], {"type": "check"})

    t.all_do("select", {"Han": 1, "Lando": 1, "Bria": 1, "Tobias": 1})
    checks()
    t.all_do("shift")
    checks()
    t.all_do("improve", {"Han": 1, "Lando": 1, "Bria": 1, "Tobias": 1})
    for who, card in (("Han", "ci+1"), ("Lando", "tr+5"), ("Bria", "sq-7")):
        t.act(who, {"type": "reveal_selection", "cards": [card]})
    before = t.view()
    assert before["hand"]["stage"] == "reveal" and before["hand"]["words"] == "Waiting for Tobias."
    # The reveal waited only for Tobias: he leaves with his 26, and the round is settled at once.
    t.act("Tobias", {"type": "leave"})
    v = t.view()
    assert v["hand"]["stage"] == "settled" and v["hand"]["settlement"]["words"] == "The pot of 16 goes to Han."
    assert t.stacks() == {"Han": 26 + 16, "Lando": 26, "Bria": 26}
    assert {d["name"]: d["cashed_out"] for d in v["departed"]} == {"Tobias": 26}
    assert v["hand"]["game"]["out"] == {t.seat["Tobias"]: 1} and v["hand"]["game"]["over"] is False
    # Undo: Tobias is back at the reveal with his credits, and the round waits for him again.
    t.post(f"/api/v1/tables/{t.code}/undo", {"version": v["version"]}, t.host)
    again = t.view()
    assert again["hand"]["stage"] == "reveal" and t.stacks() == {"Han": 26, "Lando": 26, "Bria": 26, "Tobias": 26}
    assert again["hand"]["words"] == "Waiting for Tobias."
