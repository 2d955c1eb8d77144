"""Classic's calling of the hand at the live table (RULES.md "Calling the hand"): when a call
is open (the rule set's `calling`: in which phase, after how many rounds, by the turn player
or by the others), a player calls the hand and the others finish what the rule set says
(`AfterCall`: finish the phase, a last roll) before the reveal; a betting round nobody can
bet in is a call window open to all (pagat), and a turn player who folded in their own turn
keeps their call window open only until the next player acts (the third-round ruling).

This section owns the moves (`call_hand`, `no_call`) with their checks, words and schemas,
the call windows, and what the shared rounds (`Turns.advance`) ask of a game's own steps.
"""

from __future__ import annotations

from typing import Any, Literal, Self

from companion.games.classic.options import AfterCall
from companion.refusal import Refused
from companion.rules.rulesets import Trigger
from companion.table.commands import FOR_SEAT, HOST, obj
from companion.table.play import Play, Refusal, sure
from companion.table.state import Hand, Step, copy_hand, current_step, join_words
from companion.table.turns import Turns

#: The calling moves -> the JSON Schema of their fields.
COMMANDS: dict[str, dict[str, Any]] = {
    "call_hand": obj(dict(FOR_SEAT)),
    "no_call": obj(dict(FOR_SEAT)),
}

#: The calling moves' words, style and whether the page asks twice (calling the hand ends the
#: betting for everyone: it cannot be taken back).
WORDS: dict[str, tuple[str, str, bool]] = {
    "call_hand": ("Call the hand", "primary", True),
    "no_call": ("No call: play on", "", False),
}

#: Calling the hand as the runtime's "call" building block (`Evening.BLOCKS`; the runtime
#: keeps the call step, its windows and who called): the move that calls and the move that
#: passes in a call step, by the names ledgers and views have always used.
BLOCK = {"move": "call_hand", "pass": "no_call"}

#: What an undone calling move was, in words (`evening.undone_words`).
UNDONE = {"call_hand": "{who}'s call of the hand", "no_call": "{who}'s “no call”"}

#: The moves of a turn: made by the next turn's player, they close a folded turn player's
#: call window first (`Calling.next_player_acts`).
NEXT_TURN_MOVES = frozenset({"check", "bet", "call", "raise", "all_in", "fold", "draw", "roll"})


class Calling(Turns):
    """Calling the hand (a section of classic's engine, `ClassicHand`)."""

    #: Whether a call step was folded into the draw that follows it in this move (`advance`).
    _merge_call = False

    # -- what the shared rounds ask ---------------------------------------------------------

    def step_ends(self) -> None:
        """A call window is open only during its step."""
        h = self.hand
        h["call_open"], h["passed"] = False, []
        self._merge_call = False

    def rounds_end(self) -> bool:
        """After a call, the others finish the round's phase: then the next after-call step."""
        h = self.hand
        if h["finishing"] is None:
            return False
        h["finishing"] = None
        self.after_call_next()
        return True

    def phase_begins(self, st: Step) -> bool:
        """After a call, the phase being finished ends where the next begins."""
        h = self.hand
        if h["finishing"] is None or st["phase"] == h["finishing"]:
            return False
        h["finishing"] = None
        self.after_call_next()
        return True

    def instead_of_betting(self, st: Step) -> Step | None:
        """pagat: a betting round nobody can bet in (fewer than two can still bet) is a call
        window open to every player still in the hand, all-in included."""
        return {**st, "seat": None, "do": "call"} if self.call_window_instead(st) else None

    def step_needed(self, st: Step) -> bool:
        """A call step where nobody may call is skipped, and so is one folded into the draw
        that follows it (the window stays open until the turn player draws); after a call,
        the round's rolls are skipped (the rule set's own roll follows)."""
        if st["do"] == "roll" and self.hand["finishing"]:
            return False
        if st["do"] == "call" and not self.call_possible(st):
            return False
        if st["do"] == "call" and self.call_merges_into_draw(st):
            self._merge_call = True
            return False
        return True

    def step_begins(self, st: Step) -> dict[str, Any]:
        """A call step opens a call window, and so does the draw a call step was folded into
        (its `step` event says so)."""
        h = self.hand
        h["call_open"] = st["do"] == "call" or (self._merge_call and st["do"] == "draw")
        return {"call_open": True} if h["call_open"] and st["do"] != "call" else {}

    def step_words(self, st: Step, who: Any) -> str:
        """The turn line of a call step, and of a draw while the others may still call."""
        h = self.hand
        if st["do"] == "call" and st["seat"] is None:
            return f"Call window: {join_words([who(x) for x in self.call_window()])} may call the hand or pass."
        if st["do"] == "call":
            return f"{who(st['seat'])}'s turn is done: the others may call the hand now."
        said = super().step_words(st, who)
        if st["do"] == "draw" and h["call_open"]:
            said += " The others may call the hand until then."
        return said

    def calling_moves(self, sid: str, in_hand: bool, step: Step | None) -> list[str]:
        """The calling moves `sid`'s list asks about (`DealtHand.own_checked`)."""
        if in_hand:
            # "No call" is refused but at a call step (`check_no_call`'s first test): every
            # seat's list asks at every version, and a call step is rare.
            return ["call_hand", "no_call"] if step is not None and step["do"] == "call" else ["call_hand"]
        if step is not None and step["do"] == "call" and step["seat"] == sid:
            return ["no_call"]  # a turn player who folded in their own turn closes it
        return []

    # -- the call windows and the moves -----------------------------------------------------

    def call_window_instead(self, st: Step) -> bool:
        """Whether a betting step that cannot open is a call window instead: the rule set
        calls in this phase, a call is allowed now, and two players are still in the hand."""
        h, calling = self.hand, self.rules.game_options.calling
        return (self.rules.ending.by_call and st["phase"] == calling.phase.value and not calling.not_by_turn_player
                and h["called_by"] is None and h["round"] > calling.rounds_before_call
                and len(self.live()) >= 2)

    def call_possible(self, st: Step) -> bool:
        h, calling = self.hand, self.rules.game_options.calling
        if not self.rules.ending.by_call:
            return False  # a hand of fixed rounds: nobody calls
        if h["called_by"] is not None or h["round"] <= calling.rounds_before_call:
            return False
        return any(sid != st["seat"] for sid in self.live()) if calling.not_by_turn_player else True

    def call_merges_into_draw(self, st: Step) -> bool:
        """weg/classic: the call window stays open until the turn player draws (or stands); the
        draw closes it, so no separate "nobody calls" is needed. Not for a turn player who
        folded in their own turn: they draw no more, so their call step stays."""
        h = self.hand
        i = h["step"] + 1
        nxt = h["steps"][i] if i < len(h["steps"]) else None
        return (nxt is not None and nxt["do"] == "draw" and nxt["seat"] == st["seat"]
                and st["seat"] is not None and not h["p"][st["seat"]]["folded"])

    def folded_caller(self) -> str | None:
        """The turn player who folded in their own turn and whose call window is open, or None."""
        h = self.s["hand"]  # also asked of a table between hands (a view)
        st = current_step(h) if h is not None and h["stage"] == "play" else None
        if h is None or st is None or st["do"] != "call" or st["seat"] is None:
            return None
        return st["seat"] if h["p"][st["seat"]]["folded"] else None

    def next_player_acts(self, typ: str, f: dict[str, Any], actor: str | None) -> None:
        """A folded turn player's call window closes as soon as the next player acts (the
        third-round ruling): a move of the next turn closes it first, as their "no call" would,
        so it never holds up the next turn. Only the next turn's player may fold to close it
        (the others' folds belong to that turn's betting, which has not begun)."""
        folded = self.folded_caller() if typ in NEXT_TURN_MOVES else None
        if folded is None:
            return
        self.emit("no_call", seat=folded)
        self.advance()
        self.need_next_turn_fold(typ, f, actor, folded)

    def need_next_turn_fold(self, typ: str, f: dict[str, Any], actor: str | None, folded: str) -> None:
        """Once `folded`'s call window has closed (`advance`): refuse a fold that is not the
        next turn's player's own."""
        h = self.hand
        turn = h["turn_of"]
        if typ == "fold" and h["stage"] == "play" and self.who(f, actor) != turn:
            opens = f"{self.name(turn)}'s move" if turn is not None else "the next move"
            raise Refused(409, f"the call window of {self.name(folded)}'s turn is still open: "
                               f"folding opens with {opens}", None)

    def ahead(self, typ: str, f: dict[str, Any], actor: str | None) -> Play:
        """The game in which `typ` is checked (`Play.check`): this one, or, for a move of the
        next turn in a folded turn player's call window, the game past that window, where the
        command itself acts after `next_player_acts` closed it (refusing a fold out of turn
        there, as `next_player_acts` does)."""
        if typ not in NEXT_TURN_MOVES:
            return self
        past = self.past_window()
        folded = self.folded_caller() if past is not self else None
        if folded is not None:
            past.need_next_turn_fold(typ, f, actor, folded)
        return past

    def past_window(self) -> Self:
        """This game with a folded turn player's call window closed, as the next turn's move
        closes it (`next_player_acts`); this game itself when no such window is open.

        Where the game goes next (the next turn's betting opened, its roll, a new round) is
        what `advance` does half-way through the move: it is found by `advance` itself, so
        that the rule of what comes next has one definition, run on a copy of the hand alone
        (advance changes nothing but the hand; the seats, stacks and history are shared,
        read-only). Made once per game (a view asks for several moves, each past the window
        or not: that answer too is found once), and only in this rare window (weg/classic: a
        turn player folded in their own turn)."""
        past: Self | None | Literal[False] = self.__dict__.get("_past_window")
        if past is None:
            past = False  # no such window (remembered without a reference to this game)
            if self.folded_caller() is not None:
                state = self.s.copy()
                state["hand"] = copy_hand(self.hand)
                past = type(self)(state, self.rules, self.chips)
                past.advance()
            self._past_window = past
        return past or self

    def call_window(self) -> list[str]:
        """The players who may still call (or pass) in an open pagat call window."""
        h = self.hand
        st = current_step(h)
        if st is None or st["do"] != "call" or st["seat"] is not None:
            return []
        return [x for x in self.live() if x not in h["passed"]]

    def after_call_next(self) -> None:
        """Carry out the next of the rule set's steps between the call and the reveal."""
        h = self.hand
        while h["after"]:
            step = h["after"].pop(0)
            if step == AfterCall.FINISH_PHASE.value:
                current = current_step(h)
                h["finishing"] = current["phase"] if current else None
                if h["finishing"] is not None:
                    return
            elif step == AfterCall.ROLL.value:
                if self.rules.scrambler_trigger is Trigger.TIMER:
                    continue
                h["stage"] = "final_roll"
                h["betting"] = None
                self.emit("step", round=h["round"], phase="final_roll", seat=h["dealer"], do="roll")
                return
            else:
                break
        self.start_reveal()

    def check_call_hand(self, f: dict[str, Any], actor: str | None) -> tuple[str, Hand, Step] | Refusal:
        """The refusal of a call of the hand that `cmd_call_hand` would raise (read-only);
        else the caller, the hand and its step."""
        sid = self.who(f, actor)
        h = self.need_play()
        self.in_play(sid)
        calling = self.rules.game_options.calling
        st = current_step(h)
        if not self.rules.ending.by_call:
            return Refusal(409, f"nobody calls: the hand ends after {self.rules.ending.rounds} rounds")
        if h["called_by"] is not None:
            return Refusal(409, f"{self.name(h['called_by'])} called the hand first")
        window = h["call_open"]
        if st is None or not window and (st["phase"] != calling.phase.value or st["do"] == "roll"):
            return Refusal(409, f"the hand can only be called in the {calling.phase.value} phase")
        if h["round"] <= calling.rounds_before_call:
            return Refusal(409, f"no call before round {calling.rounds_before_call + 1}")
        if window and st["seat"] is None:
            if sid not in self.call_window():
                return Refusal(409, "you have passed: the others may still call")
        else:
            mover = h["betting"]["to_act"] if st["do"] == "bet" and h["betting"] else st["seat"]
            if calling.not_by_turn_player and sid == mover:
                return Refusal(409, "you cannot call the hand in your own turn")
            if not calling.not_by_turn_player and sid != mover:
                return Refusal(409, "call the hand in your own turn")
        return sid, h, st

    def cmd_call_hand(self, f: dict[str, Any], actor: str | None) -> None:
        sid, h, st = sure(self.check_call_hand(f, actor))
        calling = self.rules.game_options.calling
        h["called_by"] = sid
        h["after"] = [a.value for a in calling.after_call]
        self.emit("hand_called", seat=sid)
        self.after_call_next()
        if h["stage"] == "play" and h["finishing"] is not None and st["do"] == "call" \
                and not calling.not_by_turn_player:
            self.advance()  # a call step standing in for a betting round: nothing else to do in it

    def check_no_call(self, f: dict[str, Any], actor: str | None) -> tuple[Hand, Step, str | None] | Refusal:
        """The refusal of a "no call" that `cmd_no_call` would raise (read-only); else the
        hand, its call step, and the seat passing in a call window open to all (None: the
        window closes)."""
        h = self.need_play()
        st = current_step(h)
        if st is None or st["do"] != "call":
            return Refusal(409, "there is no call to decline now")
        if actor == HOST:
            return h, st, None
        sid = self.who(f, actor)
        if st["seat"] is None:
            if sid not in self.call_window():
                return Refusal(409, "you have already passed")
            return h, st, sid
        if sid != st["seat"]:
            return Refusal(409, f"{self.name(st['seat'])} closes the call")
        return h, st, None

    def cmd_no_call(self, f: dict[str, Any], actor: str | None) -> None:
        h, st, passing = sure(self.check_no_call(f, actor))
        if passing is not None:
            # pagat's call window: each player still in the hand passes; the last pass closes it.
            h["passed"].append(passing)
            if self.call_window():
                self.emit("passed", seat=passing)
                return
        self.emit("no_call", seat=st["seat"])
        self.advance()
