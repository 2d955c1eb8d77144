"""The Spike discard pile's top card at the table (issue 28, item 11; RULES-SPIKE.md: the
discard pile lies face up, whoever turns a card up enters it). A junk puts a whole hand on the
pile, so the card shown before is no longer its top: it is unknown until entered (or named by
the junk). After the third round's Sabacc Shift the dealer turns up a new top card, which is
entered at the reveal."""

from __future__ import annotations

import pytest

from companion.table.engine import Refused, Table

NAMES = ["Lando", "Han", "Chewie"]


def spike(four: bool = False) -> Table:
    t = Table.create("SPIKE", {"rules": "spike"})
    for i, name in enumerate(NAMES + (["Leia"] if four else [])):
        t.apply({"type": "join", "name": name}, None)
        t.apply({"type": "buy_in", "amount": 30}, f"s{i + 1}")
    t.apply({"type": "start_hand"}, "host")
    t.apply({"type": "discard_top", "card": "-3"}, "host")
    return t


def do(t: Table, actor: str, type_: str, **fields):
    return t.apply({"type": type_, **fields}, actor)


def top(t: Table, viewer: str | None = None) -> str | None:
    return t.view(viewer)["hand"]["discard_top"]


def test_item11_a_junk_in_the_turn_phase_leaves_the_top_card_to_be_entered():
    t = spike(four=True)
    first, second, third, fourth = t.to_json()["hand"]["players"]
    do(t, first, "draw", action="junk")
    for viewer in (None, second, "host"):
        assert top(t, viewer) is None  # not the -3 any more: one of the junked cards is on it
    do(t, second, "discard_top", card="+8")  # a player still in enters what lies on top
    assert top(t) == "+8"
    do(t, second, "draw", action="junk", card="sylop")  # a junk that names its top card
    assert top(t) == "sylop"
    with pytest.raises(Refused):
        do(t, first, "discard_top", card="+2")  # a junked player is out of the hand


def test_item11_a_junk_in_the_betting_phase_leaves_the_top_card_to_be_entered():
    t = spike()
    order = t.to_json()["hand"]["players"]
    for sid in order:
        do(t, sid, "draw", action="stand")
    do(t, order[0], "bet", amount=2)
    do(t, order[1], "fold")  # Spike's junk in the betting phase
    assert top(t) is None
    do(t, "host", "discard_top", card="+6")
    assert top(t) == "+6"


def test_item11_after_the_third_rounds_shift_the_new_top_card_is_entered_at_the_reveal():
    t = spike()
    order = t.to_json()["hand"]["players"]
    dealer = t.to_json()["hand"]["dealer"]
    for rnd in (1, 2, 3):
        for sid in order:
            do(t, sid, "draw", action="stand")
        for sid in order:
            do(t, sid, "check")
        do(t, dealer, "roll", dice=[5, 5] if rnd == 3 else [1, 2])  # the last roll: a shift
    assert t.to_json()["hand"]["stage"] == "reveal"
    do(t, "host", "discard_top", card="+10")  # the dealer turns up the new top card
    assert top(t) == "+10"
    do(t, order[0], "discard_top", card="-10")  # or a player still in
    assert top(t) == "-10"
    for sid, cards in zip(order, (["+4", "-4"], ["+3", "+1"], ["sylop", "-2"])):
        do(t, sid, "reveal", cards=cards)
    assert t.to_json()["hand"]["stage"] == "settled"
    with pytest.raises(Refused) as exc:
        do(t, "host", "discard_top", card="+1")  # the hand is over: no top card to enter
    assert exc.value.status == 409


def test_item11_the_audit_log_says_what_lies_on_top_of_the_discard_pile(client):
    from evening_script import Host
    from test_evening import client_post

    host = Host(client_post(client), "spike")
    host.do("start_hand")
    host.do("discard_top", card="-3")
    first = host.state()["hand"]["players"][0]["seat"]
    host.do("draw", seat=first, action="junk")
    page = client.get(f"/t/{host.code}/audit").get_data(as_text=True)
    assert "the discard pile&#39;s top card is -3" in page
    assert "a junked hand lies on the discard pile: its top card is to be entered" in page
    assert "<li>discard_top</li>" not in page
