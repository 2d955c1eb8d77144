"""Rolls of the scrambler and the shifts they cause: what each player does in a shift and what
the dealer deals (the rim shift's picker is the nearest player to the right still in the hand)."""

from __future__ import annotations

from typing import Any

from companion.rules.rulesets import ShiftKind, Trigger, shift_announcement
from companion.scrambler.dice import Roll, judge
from companion.table.commands import HOST, SCRAMBLER
from companion.table.play import Play, Refusal, sure
from companion.table.state import current_step, words_cards


class Shifts(Play):
    """Rolls of the scrambler and the shifts they cause (a section of the engine's Game)."""

    def check_roll(self, f: dict[str, Any], actor: str | None) -> tuple[str | None, Roll] | Refusal:
        """The refusal of a roll that `cmd_roll` would raise (read-only); else who rolls
        (None: the scrambler's timer) and the roll the dice make."""
        h, rules = self.need_hand(), self.rules
        timer = rules.scrambler_trigger is Trigger.TIMER
        step = current_step(h)
        if h["stage"] == "final_roll":
            roller = h["dealer"]
        elif h["stage"] == "play" and timer:
            roller = None
        elif h["stage"] == "play" and step is not None and step["do"] == "roll":
            roller = step["seat"]
        else:
            return Refusal(409, "no roll is due now")
        if actor not in (HOST, SCRAMBLER) and (roller is None or actor != roller):
            who = self.name(roller) if roller else "the scrambler"
            return Refusal(403, f"this roll is {who}'s")
        dice = f.get("dice")
        if dice is None:
            return Refusal(422, "the roll carries no dice", "dice")
        try:
            roll = judge(rules.scrambler_trigger, tuple(dice), rules.shift_kind, rules.trigger_face)
        except ValueError as exc:
            return Refusal(422, str(exc), "dice")
        return roller, roll

    def cmd_roll(self, f: dict[str, Any], actor: str | None) -> None:
        roller, roll = sure(self.check_roll(f, actor))
        h, timer = self.hand, self.rules.scrambler_trigger is Trigger.TIMER
        record = {"seat": roller, "round": h["round"], **roll.to_json()}
        h["rolls"].append(record)
        h["last_roll"] = record
        self.emit("rolled", seat=roller, roll=roll.to_json())
        kind = roll.kind  # set exactly when the roll is a shift
        if kind is not None:
            instructions = self.shift_instructions(kind)
            words = shift_announcement(kind)
            h["shift"] = {"kind": kind.value, "round": h["round"], "instructions": instructions,
                          "announcement": words}
            if kind is ShiftKind.WILD:
                h["out_of_play"] = 0  # the cards out of play are shuffled back in
            self.deal_job({x: (1 if kind is ShiftKind.RIM else
                               h["p"][x]["hand_size"] - len(self.kept(x)))
                           for x in instructions
                           if h["p"][x]["hand_size"] > len(self.kept(x))})
            # The dealer's job goes with the announcement: after the third round's roll the
            # reveal follows at once and takes it off the hand (issue 28: the TV lacked it).
            self.emit("shift", kind=kind.value, instructions=instructions, announcement=words,
                      deal=[job["words"] for job in h["deal"]])
        if h["stage"] == "final_roll":
            h["stage"] = "play"  # only to hand over to the next after-call step
            self.after_call_next()
        elif not timer:
            self.advance()

    def shift_instructions(self, kind: ShiftKind) -> dict[str, str]:
        """What each player still in the hand does in this shift; hand sizes stay the same (a
        game whose players keep cards through a shift says so in its own words)."""
        live = self.live()
        out = {}
        for i, sid in enumerate(live):
            n = self.hand["p"][sid]["hand_size"]
            if kind is ShiftKind.RIM:
                right = live[i - 1]
                picks = f"picks one of your {n} cards at random" if n > 1 else "takes your one card"
                out[sid] = f"{self.name(right)} (on your right) {picks}; discard it; the dealer deals you 1."
            elif kind is ShiftKind.WILD:
                out[sid] = (f"Discard your {words_cards(n)}; the dealer shuffles every card, the discard "
                            f"pile included, and deals you {n}.")
            else:
                out[sid] = f"Discard your {words_cards(n)}; the dealer deals you {n}."
        return out
