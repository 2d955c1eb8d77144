"""Undo and the verifiable dice (issue 14 item 7, the third-round ruling on undo and the dice),
and a refused undo that never depends on a hidden card (issue 15).

Once a hand's seed is revealed its play cannot be undone (refused in words; corrections are
adjustments); before that, an undone roll rolled again gives the same dice, so the n-th roll
of a hand that stands is the seed's n-th roll, and `verify` passes on every finished hand of a
session that used undo.
"""

from __future__ import annotations

import pytest

from companion.refusal import Refused
from companion.scrambler.seed import SeededRoller, verify_chain
from companion.table.engine import Table
from companion.table.ledger import Ledger
from companion.table.owner import HOST, TableOwner


@pytest.fixture()
def ledger(tmp_path):
    led = Ledger(tmp_path / "t.sqlite3")
    yield led
    led.close()


def seeded_table(ledger, rules="weg", names=("Lando", "Han")) -> TableOwner:
    owner, _ = TableOwner.create("UNDO", {"rules": rules}, ledger, Table, SeededRoller())
    for name in names:
        seat = owner.join(name).seat
        owner.submit({"type": "buy_in", "amount": 50}, seat)
    return owner


def api_log(ledger) -> list[dict]:
    return [{"type": e.type, "body": e.body, "events": e.events, "undone_by": e.undone_by}
            for e in ledger.entries("UNDO")]


def hand(owner):
    return owner.view()[1]["hand"]


def roll(owner, actor=HOST) -> list[int]:
    result = owner.submit({"type": "roll"}, actor)
    return next(e["roll"]["dice"] for e in result.events if e["type"] == "rolled")


def quiet_to_reveal(owner):
    """Both players check, roll and stand in round 1; the first checks and rolls in round 2;
    the second calls."""
    first, second = [p["seat"] for p in hand(owner)["players"]]
    for sid in (first, second):
        owner.submit({"type": "check"}, sid)
        roll(owner)
        owner.submit({"type": "draw", "action": "stand"}, sid)
    owner.submit({"type": "check"}, first)
    roll(owner)
    owner.submit({"type": "call_hand"}, second)
    assert hand(owner)["stage"] == "reveal"


def test_item7_once_the_seed_is_revealed_the_hands_play_cannot_be_undone(ledger):
    owner = seeded_table(ledger)
    owner.submit({"type": "start_hand"}, HOST)
    owner.submit({"type": "fold"}, "s2")  # Han concedes: the hand ends, its seed is revealed
    assert ledger.entries("UNDO")[-1].type == "reveal_seed"
    size = ledger.count_entries("UNDO")
    for seq in (None, ledger.last_seq("UNDO"), ledger.last_seq("UNDO") - 1):
        with pytest.raises(Refused) as info:
            owner.undo(HOST, seq=seq)
        assert info.value.status == 409 and "seed is revealed" in info.value.error
        assert "adjustment" in info.value.error
    assert ledger.count_entries("UNDO") == size and hand(owner)["seed"] is not None
    owner.submit({"type": "buy_in", "amount": 5}, "s1")  # between hands: still undoable
    owner.undo(HOST)
    assert verify_chain(api_log(ledger)).ok


def test_item7_an_undone_roll_rolled_again_gives_the_same_dice(ledger):
    owner = seeded_table(ledger)
    owner.submit({"type": "start_hand"}, HOST)
    owner.submit({"type": "check"}, "s2")
    first = roll(owner)
    owner.undo(HOST)  # the roll
    assert roll(owner) == first
    if hand(owner)["do"] == "draw":
        owner.submit({"type": "draw", "action": "stand"}, "s2")
    owner.submit({"type": "check"}, "s1")
    second = roll(owner)
    owner.undo(HOST)
    owner.undo(HOST)  # the roll, then Lando's check
    owner.submit({"type": "check"}, "s1")
    assert roll(owner) == second
    # A restart in the middle of the hand goes on with the same roll number.
    again = TableOwner("UNDO", ledger, Table, SeededRoller())
    owner.undo(HOST)
    again = TableOwner("UNDO", ledger, Table, SeededRoller())
    assert roll(again) == second


def test_item7_a_roll_is_undone_only_from_the_latest_back(ledger):
    owner = seeded_table(ledger)
    owner.submit({"type": "start_hand"}, HOST)
    owner.submit({"type": "check"}, "s2")
    roll(owner)
    early = ledger.last_seq("UNDO")
    owner.submit({"type": "draw", "action": "stand"}, "s2")
    owner.submit({"type": "check"}, "s1")
    roll(owner)
    with pytest.raises(Refused) as info:
        owner.undo(HOST, seq=early)
    assert info.value.status == 409 and "from the latest back" in info.value.error


def test_item7_verify_passes_on_every_finished_hand_of_a_session_that_used_undo(ledger):
    owner = seeded_table(ledger)
    for _ in range(3):
        owner.submit({"type": "start_hand"}, HOST)
        owner.submit({"type": "check"}, hand(owner)["players"][0]["seat"])
        roll(owner)
        owner.undo(HOST)
        roll(owner)
        owner.undo(HOST)
        owner.undo(HOST)  # the check too
        quiet_to_reveal(owner)
        owner.submit({"type": "reveal", "cards": ["sa10", "co10"]}, "s2")
        owner.submit({"type": "reveal", "cards": ["fl5", "st9"]}, "s1")
        assert hand(owner)["stage"] == "settled"
    chain = verify_chain(api_log(ledger))
    assert chain.ok, chain.problems
    assert [e.type for e in ledger.entries("UNDO")].count("reveal_seed") == 3


# -- issue 15: the host's undo never reads a hidden card ------------------------------------------

@pytest.mark.parametrize("lando", [["sa5", "co9"], ["sa6", "co9"]])
def test_undo_refusal_never_depends_on_a_hidden_card(ledger, lando):
    """The host (also a player) undoes Han's static-field entry at the reveal, while Lando's
    entered hand is hidden: the answer is the same whether Lando holds the sa5 or not."""
    owner = seeded_table(ledger, rules="classic")
    owner.submit({"type": "start_hand"}, HOST)
    owner.submit({"type": "static_add", "card": "sa5"}, "s2")
    owner.submit({"type": "static_remove", "card": "sa5"}, "s2")  # sa5 hidden again
    removal = owner.version
    quiet_to_reveal(owner)
    owner.submit({"type": "reveal", "cards": lando}, "s1")  # hidden until Han's is in
    size = ledger.count_entries("UNDO")
    with pytest.raises(Refused) as info:
        owner.undo(HOST, seq=removal)
    assert info.value.status == 409 and "not face up yet" in info.value.error
    assert ledger.count_entries("UNDO") == size
    owner.undo(HOST)  # Lando's hidden entry itself may be undone (it tells nothing)
    owner.undo(HOST, seq=removal)  # then the static field
    assert hand(owner)["players"][0]["static"] == ["sa5"]


def test_undo_over_face_up_hands_is_judged_on_public_cards(ledger):
    owner = seeded_table(ledger, rules="classic")
    owner.submit({"type": "start_hand"}, HOST)
    owner.submit({"type": "static_add", "card": "sa5"}, "s2")
    owner.submit({"type": "static_remove", "card": "sa5"}, "s2")
    removal = owner.version
    quiet_to_reveal(owner)
    owner.submit({"type": "reveal", "cards": ["sa5", "co9"]}, "s1")
    owner.submit({"type": "reveal", "cards": ["fl5", "st9"]}, "s2")  # a tie: both face up
    assert hand(owner)["stage"] == "demise"
    with pytest.raises(Refused) as info:  # Lando's sa5 is public now: the answer may use it
        owner.undo(HOST, seq=removal)
    assert info.value.status == 409 and "would no longer apply" in info.value.error
    owner.submit({"type": "demise_card", "card": "co1"}, "s2")
    owner.submit({"type": "demise_card", "card": "sa2"}, "s1")
    assert hand(owner)["stage"] == "settled"
    with pytest.raises(Refused) as info:
        owner.undo(HOST, seq=removal)
    assert "seed is revealed" in info.value.error
