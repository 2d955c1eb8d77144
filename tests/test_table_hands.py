"""Whole hands at a live table, one per preset, from the ante to the settled stacks.

Each hand follows its rule set's order of play and has a shift, a fold, an all-in side pot, a
call and a reveal; the expected stacks and pots are worked out by hand in the comments (seat
order Lando s1 (dealer), Han s2, Chewie s3, Leia s4; play starts at the dealer's left, s2).
"""

from __future__ import annotations

import json

import pytest

from companion.table.engine import HOST, SCRAMBLER, Refused, Table


class Play:
    """A table plus short ways to send commands and read the view."""

    def __init__(self, rules, stacks: dict[str, int], **settings):
        self.t = Table.create("HANDS", {"rules": rules, **settings})
        self.log: list[tuple[dict, str | None]] = []
        names = {"s1": "Lando", "s2": "Han", "s3": "Chewie", "s4": "Leia"}
        for sid in sorted(stacks):
            self.do(None, "join", name=names[sid])
        for sid, amount in stacks.items():
            if self.t.rules.buy_in:
                self.do(sid, "buy_in")
                if amount != self.t.rules.buy_in:
                    self.do(HOST, "adjust", seat=sid, amount=amount - self.t.rules.buy_in,
                            reason="brought a smaller stack from an earlier table")
            else:
                self.do(sid, "buy_in", amount=amount)
        self.start_credits = self.t.credits()

    def do(self, actor, type_, **fields):
        entry = {"type": type_, **fields}
        events = self.t.apply(entry, actor)
        self.log.append((entry, actor))
        return events

    def refused(self, actor, type_, **fields) -> Refused:
        before = self.t.to_json()
        with pytest.raises(Refused) as info:
            self.t.apply({"type": type_, **fields}, actor)
        assert self.t.to_json() == before
        return info.value

    @property
    def hand(self):
        return self.t.view()["hand"]

    def stacks(self):
        return {s["seat"]: s["stack"] for s in self.t.view()["seats"]}

    def committed(self):
        return {p["seat"]: p["committed"] for p in self.hand["players"]}

    def sabacc_pot(self):
        return self.t.view()["sabacc_pot"]

    def check_replay_and_snapshot(self):
        """Replaying every accepted entry gives the same table; so does a JSON round trip."""
        fresh = Table.create("HANDS", json.loads(json.dumps(self.t.to_json()["settings"])))
        for entry, actor in self.log:
            fresh.apply(entry, actor)
        assert fresh.to_json() == self.t.to_json()
        assert Table.from_json(json.loads(json.dumps(self.t.to_json()))) == self.t


def test_weg_hand_rim_shift_side_pot_and_a_capped_caller_penalty():
    p = Play("weg", {"s1": 30, "s2": 30, "s3": 4, "s4": 30})
    p.do(HOST, "start_hand")
    # weg ante: 1 to the hand pot, and 1 to the sabacc pot because it is empty.
    assert p.stacks() == {"s1": 28, "s2": 28, "s3": 2, "s4": 28}
    assert p.sabacc_pot() == 4 and p.hand["hand_pot"] == 4
    assert (p.hand["turn"], p.hand["do"]) == ("s2", "bet")
    # Round 1, Han's turn. Only the turn player opens; the limit is 3 on a bet and on a raise.
    assert p.refused("s3", "check").status == 409  # not Chewie's move
    assert p.refused("s2", "bet", amount=4).field == "amount"
    p.do("s2", "bet", amount=3)
    assert p.refused("s3", "call").status == 422  # Chewie has 2: all-in or fold
    p.do("s3", "all_in")  # a call for less: side pot
    assert p.refused("s4", "raise", to=7).field == "to"  # adds 4 > 3
    p.do("s4", "raise", to=5)
    p.do("s1", "call")
    p.do("s2", "call")
    assert p.committed() == {"s2": 6, "s3": 3, "s4": 6, "s1": 6}
    assert p.hand["pots"] == [{"amount": 12, "eligible": ["s2", "s3", "s4", "s1"]},
                              {"amount": 9, "eligible": ["s2", "s4", "s1"]}]
    assert p.hand["do"] == "roll"
    assert p.refused("s4", "roll", dice=[5]).status == 403  # Han's roll
    p.do("s2", "roll", dice=[5])  # 4-6: no shift under d6-low
    p.do("s2", "draw", action="gain")
    # Chewie's turn: all-in, so no betting; he rolls a 1: a rim shift.
    assert (p.hand["turn"], p.hand["do"]) == ("s3", "roll")
    events = p.do("s3", "roll", dice=[1])
    shift = next(e for e in events if e["type"] == "shift")
    assert shift["kind"] == "rim"
    # weg has no static field: the instruction does not speak of one (issue 10, item 11).
    assert shift["instructions"]["s3"] == ("Han (on your right) picks one of your 2 cards at random; "
                                           "discard it; the dealer deals you 1.")
    assert shift["instructions"]["s2"].startswith("Lando (on your right) picks one of your 3 cards")
    assert [q["hand_size"] for q in p.hand["players"]] == [3, 2, 2, 2]  # sizes survive the shift
    p.do("s3", "draw", action="stand")
    # Leia's turn: her check ends the betting (nobody else may open).
    p.do("s4", "check")
    assert p.hand["do"] == "roll"
    p.do(SCRAMBLER, "roll", dice=[6])
    p.do("s4", "draw", action="stand")
    # Lando's turn: he bets 2, Han folds (fee 1 to the sabacc pot), Leia calls.
    p.do("s1", "bet", amount=2)
    p.do("s2", "fold")
    p.do("s4", "call")
    assert p.sabacc_pot() == 5
    p.do("s1", "roll", dice=[4])
    assert p.refused("s2", "call_hand").status == 409  # not before every player had a turn
    p.do("s1", "draw", action="stand")
    # Round 2: Han folded, so Chewie's turn; in its call phase Leia calls the hand.
    assert p.hand["round"] == 2 and p.hand["turn"] == "s3"
    p.do("s3", "roll", dice=[6])
    assert p.hand["do"] == "draw" and p.hand["call_open"]  # open until Chewie's draw
    assert p.refused("s3", "call_hand").status == 409  # not in your own turn
    p.do("s4", "call_hand")
    assert p.hand["stage"] == "reveal"  # weg: revealed at once
    p.do("s3", "reveal", cards=["sa11", "co11"])  # 22
    p.do("s4", "reveal", cards=["fl9", "st9"])  # 18, the caller
    events = p.do("s1", "reveal", cards=["sa10", "co10"])  # 20
    assert events[-1]["type"] == "hand_ended"
    # Pots: 12 + 3 (Han's folded credits up to 3) ... main pot 4 x 3 = 12 (Chewie, Leia, Lando),
    # side pot 3 (Han) + 5 + 5 = 13 (Leia, Lando). Chewie's 22 takes 12, Lando's 20 takes 13.
    # Leia called and won nothing: she pays the hand pot 25, capped at her 21 credits.
    assert p.stacks() == {"s1": 21 + 13, "s2": 22, "s3": 12, "s4": 0}
    assert p.sabacc_pot() == 5 + 21
    settlement = p.hand["settlement"]
    assert settlement["penalties"] == [{"name": "s4", "reason": "caller_lost", "amount": 21,
                                        "shortfall": 4}]
    assert p.t.credits() == p.start_credits == 94
    # The next hand: the dealer moves left, the sabacc pot is not empty so no sabacc ante.
    assert p.t.view()["dealer"] == "s2"
    p.check_replay_and_snapshot()


def test_classic_hand_core_shift_static_field_and_pure_sabacc_takes_the_sabacc_pot():
    p = Play("classic", {"s1": 50, "s2": 50, "s3": 5, "s4": 50})
    p.do(HOST, "start_hand")
    assert p.stacks() == {"s1": 48, "s2": 48, "s3": 3, "s4": 48} and p.sabacc_pot() == 4
    p.do("s2", "bet", amount=10)  # no bet limit in classic
    p.do("s3", "all_in")
    p.do("s4", "raise", to=20)
    p.do("s1", "fold")
    p.do("s2", "call")
    assert p.committed() == {"s2": 21, "s3": 4, "s4": 21, "s1": 1}
    assert p.sabacc_pot() == 5
    # Han lays the Ace of Sabers in his static field, then rolls a double: a core shift.
    p.do("s2", "static_add", card="SA15")
    events = p.do("s2", "roll", dice=[3, 3])
    shift = next(e for e in events if e["type"] == "shift")
    assert shift["instructions"] == {
        "s2": "Discard your card outside the static field; the dealer deals you 1.",
        "s3": "Discard your 2 cards outside the static field; the dealer deals you 2.",
        "s4": "Discard your 2 cards outside the static field; the dealer deals you 2.",
    }
    assert p.hand["last_roll"]["dice"] == [3, 3]
    p.do("s2", "draw", action="gain")
    p.do("s3", "roll", dice=[1, 2])
    p.do("s3", "draw", action="stand")
    p.do("s4", "check")
    p.do("s4", "roll", dice=[2, 5])
    p.do("s4", "draw", action="trade")
    # Lando folded: his turn is skipped. Round 2, Han's turn; Chewie calls in its call phase.
    assert (p.hand["round"], p.hand["turn"], p.hand["do"]) == (2, "s2", "bet")
    p.do("s2", "check")
    p.do("s2", "roll", dice=[4, 6])
    p.do("s3", "call_hand")
    # Han types only his hidden cards: the static field's Ace is filled in (5 + 3 + 15 = 23).
    p.do("s2", "reveal", cards=["co5", "st3"])
    assert p.t.view("s3")["hand"]["players"][0]["cards"] is None  # hidden until all entered
    p.do("s3", "reveal", cards=["sa10", "co9"])  # 19
    p.do("s4", "reveal", cards=["fl10", "st10"])  # 20
    # Pure Sabacc takes the main pot (4+4+4+1 = 13), the side pot (17+17 = 34) and the sabacc
    # pot (5). Chewie called and lost but has nothing left: his penalty is capped at 0.
    assert p.stacks() == {"s1": 47, "s2": 28 + 13 + 34 + 5, "s3": 0, "s4": 28}
    assert p.sabacc_pot() == 0
    assert p.hand["settlement"]["sabacc_pot_winners"] == ["s2"]
    assert p.t.credits() == p.start_credits == 155
    p.check_replay_and_snapshot()


def test_holodex_hand_phases_call_in_trade_phase_then_the_others_finish_it():
    p = Play("holodex", {"s1": 500, "s2": 500, "s3": 20, "s4": 500})
    p.do(HOST, "start_hand")
    # Ante 5 to each pot.
    assert p.stacks() == {"s1": 490, "s2": 490, "s3": 10, "s4": 490} and p.sabacc_pot() == 20
    # Round 1, betting phase: anyone may open.
    assert (p.hand["phase"], p.hand["to_act"]) == ("betting", "s2")
    p.do("s2", "bet", amount=20)
    p.do("s3", "all_in")
    p.do("s4", "call")
    p.do("s1", "raise", to=50)
    p.do("s2", "call")
    p.do("s4", "fold")
    assert p.committed() == {"s2": 55, "s3": 15, "s4": 25, "s1": 55}
    # Trade phase: one static-field change a turn.
    assert (p.hand["phase"], p.hand["turn"]) == ("trade", "s2")
    p.do("s2", "static_add", card="fl1")
    assert p.refused("s2", "static_add", card="fl2").status == 409
    assert p.refused("s2", "call_hand").status == 409  # not before two full rounds
    p.do("s2", "draw", action="gain")
    p.do("s3", "draw", action="stand")
    p.do("s1", "draw", action="trade")  # Leia folded: skipped
    # Dice phase: the dealer rolls; a double shifts.
    assert (p.hand["phase"], p.hand["do"]) == ("dice", "roll")
    assert p.refused("s2", "roll", dice=[2, 2]).status == 403
    events = p.do("s1", "roll", dice=[2, 2])
    shift = next(e for e in events if e["type"] == "shift")
    assert shift["instructions"]["s2"] == ("Discard your 2 cards outside the static field; "
                                           "the dealer deals you 2.")
    assert set(shift["instructions"]) == {"s2", "s3", "s1"}
    # Round 2 starts one seat further left (seed 001): Chewie, all-in, so Lando bets first.
    assert p.hand["to_act"] == "s1"
    p.do("s1", "check")
    p.do("s2", "check")
    for sid in ("s3", "s1", "s2"):
        p.do(sid, "draw", action="stand")
    p.do(SCRAMBLER, "roll", dice=[1, 3])
    # Round 3 starts at Leia, who folded: Lando bets 10, Han calls; Lando gains a card, then
    # in his own trade turn Han calls the hand.
    p.do("s1", "bet", amount=10)
    p.do("s2", "call")
    p.do("s1", "draw", action="gain")
    p.do("s2", "call_hand")
    assert p.hand["stage"] == "play"  # the others finish the trade phase first
    p.do("s2", "draw", action="stand")
    p.do("s3", "draw", action="stand")
    assert p.hand["stage"] == "reveal"  # no dice phase after the call
    p.do("s2", "reveal", cards=["sa10", "co5", "fl1"])  # 16, the caller
    p.do("s3", "reveal", cards=["moderation", "endurance"])  # -22
    p.do("s1", "reveal", cards=["sa9", "co9", "fl2"])  # 20
    # Main pot 15 x 4 = 60 to Chewie's -22 (magnitude 22); side pot 50+10+50 = 110 to Lando's 20.
    # Han called and won nothing: the penalty is the hand pot, 170.
    assert p.stacks() == {"s1": 430 + 110, "s2": 430 - 170, "s3": 60, "s4": 469}
    assert p.sabacc_pot() == 21 + 170
    assert p.t.credits() == p.start_credits == 1520
    p.check_replay_and_snapshot()


def test_pagat_hand_play_and_betting_rounds_final_roll_and_a_bomb_out():
    p = Play("pagat", {"s1": 40, "s2": 40, "s3": 6, "s4": 40})
    p.do(HOST, "start_hand")
    assert p.stacks() == {"s1": 38, "s2": 38, "s3": 4, "s4": 38} and p.sabacc_pot() == 4
    # Round 1, play round: each player draws (static changes allowed), then rolls.
    assert (p.hand["phase"], p.hand["turn"], p.hand["do"]) == ("play", "s2", "draw")
    assert p.refused("s2", "fold").status == 409  # folding only in the betting round
    p.do("s2", "draw", action="gain")
    p.do("s2", "static_add", card="sa8")
    p.do("s2", "roll", dice=[1, 2])
    for sid, dice in (("s3", [3, 4]), ("s4", [5, 6]), ("s1", [2, 3])):
        p.do(sid, "draw", action="stand")
        p.do(sid, "roll", dice=dice)
    # Betting round.
    assert (p.hand["phase"], p.hand["to_act"]) == ("betting", "s2")
    p.do("s2", "bet", amount=5)
    p.do("s3", "all_in")
    p.do("s4", "call")
    p.do("s1", "fold")
    # The dealer rolls at the end of the betting round: a double, a core shift.
    assert (p.hand["do"], p.hand["roller"]) == ("roll", "s1")
    events = p.do("s1", "roll", dice=[4, 4])
    shift = next(e for e in events if e["type"] == "shift")
    assert shift["instructions"] == {
        "s2": "Discard your 2 cards outside the static field; the dealer deals you 2.",
        "s3": "Discard your 2 cards outside the static field; the dealer deals you 2.",
        "s4": "Discard your 2 cards outside the static field; the dealer deals you 2.",
    }
    # Rounds 2 and 3: no call allowed yet.
    for _ in range(2):
        for sid in ("s2", "s3", "s4"):
            p.do(sid, "draw", action="stand")
            p.do(sid, "roll", dice=[1, 2])
        assert p.refused("s2", "call_hand").status == 409
        p.do("s2", "check")
        p.do("s4", "check")
        p.do(SCRAMBLER, "roll", dice=[1, 2])
    # Round 4: Han calls in the betting round, then bets; the round finishes, one more roll.
    for sid in ("s2", "s3", "s4"):
        p.do(sid, "draw", action="stand")
        p.do(sid, "roll", dice=[1, 2])
    p.do("s2", "call_hand")
    p.do("s2", "bet", amount=3)
    p.do("s4", "call")
    assert p.hand["stage"] == "final_roll"
    p.do("s1", "roll", dice=[6, 1])
    assert p.hand["stage"] == "reveal"
    p.do("s2", "reveal", cards=["co7", "fl8"])  # + sa8 from the static field: 23
    p.do("s3", "reveal", cards=["st10", "fl10"])  # 20
    p.do("s4", "reveal", cards=["sa15", "co15"])  # 30: bombs out
    # Pots 16 (5+5+5+1) and 8 (4+4) to Han's Pure Sabacc, with the sabacc pot (5); Leia pays
    # the hand pot (24) as her bomb-out penalty.
    assert p.stacks() == {"s1": 37, "s2": 30 + 24 + 5, "s3": 0, "s4": 30 - 24}
    assert p.sabacc_pot() == 24
    assert p.t.credits() == p.start_credits == 126
    p.check_replay_and_snapshot()


def test_pagat_d6_hand_with_a_sudden_demise():
    p = Play("pagat-d6", {"s1": 40, "s2": 40, "s3": 6, "s4": 40})
    p.do(HOST, "start_hand")
    for sid in ("s2", "s3", "s4", "s1"):
        p.do(sid, "draw", action="stand")
        p.do(sid, "roll", dice=[1])  # 1-3: no shift with one die
    p.do("s2", "bet", amount=5)
    p.do("s3", "all_in")
    p.do("s4", "call")
    p.do("s1", "fold")
    events = p.do(SCRAMBLER, "roll", dice=[5])  # 4-6 shifts
    assert next(e for e in events if e["type"] == "shift")["kind"] == "core"
    for _ in range(2):
        for sid in ("s2", "s3", "s4"):
            p.do(sid, "draw", action="stand")
            p.do(sid, "roll", dice=[1])
        p.do("s2", "check")
        p.do("s4", "check")
        p.do(SCRAMBLER, "roll", dice=[2])
    for sid in ("s2", "s3", "s4"):
        p.do(sid, "draw", action="stand")
        p.do(sid, "roll", dice=[1])
    p.do("s2", "check")
    p.do("s4", "call_hand")
    p.do("s4", "check")
    p.do(SCRAMBLER, "roll", dice=[3])
    p.do("s2", "reveal", cards=["sa10", "co10"])  # 20
    p.do("s3", "reveal", cards=["sa5", "co5"])  # 10
    events = p.do("s4", "reveal", cards=["fl10", "st10"])  # 20, the caller: a tie
    demise = next(e for e in events if e["type"] == "sudden_demise")
    assert demise["players"] == ["s2", "s4"]
    assert p.hand["stage"] == "demise"
    assert p.refused("s3", "demise_card", card="sa1").status == 409
    assert p.refused("s2", "demise_card", card="sa10").field == "card"  # already on the table
    p.do("s2", "demise_card", card="sa2")
    # Leia's entry is not refused for the card Han entered: that would tell her his card.
    events = p.do("s4", "demise_card", card="sa2")
    clash = next(e for e in events if e["type"] == "demise_conflict")
    assert clash["cards"] == {"s2": "sa2", "s4": "sa2"} and p.hand["stage"] == "demise"
    p.do("s2", "demise_card", card="sa2")  # 22
    # Han's new card is hidden until both are in again: Leia's sa2 is taken (a refusal would
    # tell her Han's card) and the clash is shown once both cards are in.
    events = p.do("s4", "demise_card", card="sa2")
    assert next(e for e in events if e["type"] == "demise_conflict")["seats"] == ["s2", "s4"]
    p.do("s2", "demise_card", card="sa2")  # 22
    p.do("s4", "demise_card", card="co1")  # 21
    # Han takes both pots (16 + 2); Leia called and lost: she pays the hand pot, 18.
    assert p.stacks() == {"s1": 37, "s2": 33 + 18, "s3": 0, "s4": 33 - 18}
    assert p.sabacc_pot() == 5 + 18
    assert p.t.credits() == p.start_credits == 126
    p.check_replay_and_snapshot()


def test_everyone_else_folds_the_last_player_takes_every_pot_without_showing():
    p = Play("classic", {"s1": 20, "s2": 20, "s3": 20})
    p.do(HOST, "start_hand")
    p.do("s2", "bet", amount=4)
    p.do("s3", "fold")
    events = p.do("s1", "fold")
    assert {"type": "conceded", "seat": "s2", "amount": 3 + 4} in events
    assert p.stacks() == {"s1": 18 - 1, "s2": 18 - 4 + 7, "s3": 18 - 1}
    assert p.sabacc_pot() == 3 + 2
    assert p.t.credits() == p.start_credits
