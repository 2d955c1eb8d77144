"""The turn and its draws: starting a hand, the round built from the rule set's phases
(`RuleSet.turn_phases`: what each phase does and who does it), moving from step to step, the
call and its windows, the draw, and the turn line in words."""

from __future__ import annotations

from typing import Any, Literal, Self

from companion.refusal import Refused
from companion.rules.game import BLIND_DRAW, TurnAction
from companion.rules.rulesets import (
    AfterCall,
    AnteRule,
    OrderOfPlay,
    Phase,
    RuleSet,
    Trigger,
    Who,
)
from companion.table.commands import HOST
from companion.table.play import Play, Refusal, sure
from companion.table.state import (
    Hand,
    Step,
    copy_hand,
    current_step,
    deck_left,
    join_words,
    new_hand,
    next_in,
    roller_of,
    rotate,
)


#: The moves of a turn: made by the next turn's player, they close a folded turn player's
#: call window first (`Turns.next_player_acts`).
NEXT_TURN_MOVES = frozenset({"check", "bet", "call", "raise", "all_in", "fold", "draw", "roll"})


def antes(rules: RuleSet, sabacc_pot: int) -> tuple[int, int]:
    """What the next hand's antes take from each player's stack, with the sabacc pot at
    `sabacc_pot`: (into the hand pot, into the sabacc pot). A stack that cannot pay both (or
    is empty) is dealt out; the phones say so from the sum, which the views carry."""
    if rules.ante_rule is AnteRule.GAME_AND_SABACC:
        return rules.ante, rules.ante_sabacc  # an ante of its own into the sabacc pot
    both = rules.ante_rule is AnteRule.BOTH_POTS or sabacc_pot == 0
    return rules.ante, rules.ante if both else 0


class Turns(Play):
    """The turn and its draws (a section of the engine's Game)."""

    def check_start_hand(self, f: dict[str, Any], actor: str | None) \
            -> tuple[list[str], list[tuple[str, str]], int] | Refusal:
        """The refusal of a hand that `cmd_start_hand` would raise (read-only); else the
        players who can pay the ante (seat order), the seats dealt out and why, and the sabacc
        pot's ante."""
        refusal = self.not_ended() or self.between_hands()
        if refusal is not None:
            return refusal
        rules, s = self.rules, self.s
        order = s["order"]
        _, sabacc_ante = antes(rules, s["sabacc_pot"])
        players_set: list[str] = []
        dealt_out: list[tuple[str, str]] = []
        for sid in order:
            seat = s["seats"][sid]
            if seat["sitting_out"]:
                continue
            if seat["stack"] < rules.ante + sabacc_ante or (seat["stack"] == 0):
                dealt_out.append((sid, "stack"))
            elif (why := self.not_ready(sid)) is not None:
                dealt_out.append((sid, why))
            else:
                players_set.append(sid)
        if len(players_set) < 2:
            return Refusal(409, "a hand needs at least two players who can pay the ante")
        if len(players_set) * rules.deal_size > rules.deck.in_play(rules):
            return Refusal(409, "too many players for one deck")
        return players_set, dealt_out, sabacc_ante

    def not_ready(self, sid: str) -> str | None:
        """Why a seated player who can pay the ante is dealt out all the same (a game's own
        condition, in the words the `dealt_out` event carries); by default None."""
        return None

    def cmd_start_hand(self, f: dict[str, Any], actor: str | None) -> None:
        players_set, dealt_out, sabacc_ante = sure(self.check_start_hand(f, actor))
        rules, s = self.rules, self.s
        order = s["order"]
        dealer, token = s["dealer"], s["token"]
        if rules.house_dealer:
            # The dealer stays (and may not play); the token shows who is dealt first.
            if token in players_set:
                start = token
            elif token is not None:
                start = next_in(order, token, players_set)
            else:
                start = next_in(order, dealer, players_set)
            players = rotate(order, start, players_set)
            token = start
        else:
            if dealer not in players_set:
                dealer = next_in(order, dealer, players_set, inclusive=dealer is None)
            first = next_in(order, dealer, players_set)
            players = rotate(order, first, players_set)
        s["dealer"], s["token"] = dealer, token
        s["hand_no"] += 1
        h = new_hand(s["hand_no"], dealer, token, players, rules.deal_size,
                     f.get("seed_commitment"), s["sabacc_pot"],
                     {sid: s["seats"][sid]["stack"] for sid in players})
        s["hand"] = h
        self.deal_job({sid: rules.deal_size for sid in players})
        self.emit("hand_started", hand=h["no"], dealer=dealer, token=token, first=players[0],
                  players=list(players), deal_size=rules.deal_size,
                  seed_commitment=h["seed_commitment"])
        for sid, why in dealt_out:
            self.emit("dealt_out", seat=sid, reason=why)
        for sid in players:
            s["seats"][sid]["stack"] -= rules.ante + sabacc_ante
            h["p"][sid]["committed"] = rules.ante
            s["sabacc_pot"] += sabacc_ante
            self.emit("ante", seat=sid, hand_pot=rules.ante, sabacc_pot=sabacc_ante)
        h["steps"] = self.build_round()
        self.advance()

    def build_round(self) -> list[Step]:
        """The steps of one round, read from the rule set's order of play and phases."""
        rules, h = self.rules, self.hand
        steps: list[Step] = []

        def add(phase: Phase, seat: str | None, do: str, turn_of: str | None) -> None:
            steps.append({"phase": phase.value, "seat": seat, "do": do, "turn_of": turn_of})

        order = self.round_order()
        if rules.order_of_play is OrderOfPlay.TURNS:
            # weg/classic: each player in turn goes through every phase of a turn.
            for sid in order:
                for pr in rules.turn_phases:
                    for do in pr.does:
                        add(pr.phase, sid, do, sid)
            return steps
        for pr in rules.turn_phases:
            if pr.by is Who.EACH_PLAYER:
                for sid in order:
                    for do in pr.does:
                        add(pr.phase, sid, do, sid)
            else:
                for do in pr.does:
                    add(pr.phase, self.round_dealer() if pr.by is Who.DEALER else None, do, None)
            if pr.phase in rules.dealer_rolls_after:
                add(pr.phase, h["dealer"], "roll", None)
        return steps

    def round_dealer(self) -> str | None:
        """Who deals (and rolls) this round: the hand's dealer (None: a house dealer who is
        not a seat), or, where the dealer's part passes left each round, the player before
        this round's first."""
        h = self.hand
        if not self.rules.dealer_rotates_each_round:
            return h["dealer"]
        return self.round_order()[-1]

    def round_order(self) -> list[str]:
        """The hand's players in the order they play this round (who starts rotates if the
        rule set says so)."""
        h = self.hand
        shift = (h["round"] - 1) % len(h["players"]) if self.rules.starter_rotates_each_round else 0
        return h["players"][shift:] + h["players"][:shift]

    def advance(self) -> None:
        """Move to the next step that needs someone, skipping what does not apply."""
        h, rules = self.hand, self.rules
        h["call_open"], h["passed"] = False, []
        merge_call = False  # a call step folded into the draw that follows it (weg/classic)
        was = current_step(h)
        while h["stage"] == "play":
            h["step"] += 1
            if h["step"] >= len(h["steps"]):
                if h["finishing"] is not None:
                    h["finishing"] = None
                    self.after_call_next()
                    return
                if not rules.ending.by_call and h["round"] >= (rules.ending.rounds or 0):
                    self.start_reveal()  # a hand of fixed rounds: the last round ends it
                    return
                h["round"] += 1
                h["steps"] = self.build_round()
                h["step"] = -1
                self.emit("round", round=h["round"])
                continue
            st = h["steps"][h["step"]]
            if (st["do"] == "bet" and was is not None and was["phase"] != st["phase"] and not self.dealt_now
                    and rules.order_of_play is not OrderOfPlay.TURNS):
                # A betting phase begins after a phase every player has played, and this move
                # gave the dealer no job: the last one was done meanwhile, and its words must not
                # stay up into the betting (issue 28: Spike's deal note lingered through the
                # turn phase). In one player's turn (weg, classic) the job stays until the next.
                h["deal"] = []
            if h["finishing"] is not None and st["phase"] != h["finishing"]:
                h["finishing"] = None
                self.after_call_next()
                return
            if st["turn_of"] != h["turn_of"]:
                h["turn_of"] = st["turn_of"]
                if st["turn_of"] is not None:
                    h["turn_no"] += 1
            if st["turn_of"] is not None:
                p = h["p"][st["turn_of"]]
                # A player who folded before their turn sits it out; one who folded in their
                # own turn still rolls (seed 003) but draws no more.
                if p["folded"] and (p["folded_turn"] != h["turn_no"] or st["do"] == "draw"):
                    continue
            if st["do"] == "roll" and (rules.scrambler_trigger is Trigger.TIMER or h["finishing"]):
                continue  # the timer rolls by itself; after a call the rule set's own roll follows
            if st["do"] == "bet" and not self.open_betting(st):
                if not self.call_window_instead(st):
                    continue
                # pagat: a betting round nobody can bet in (fewer than two can still bet) is
                # a call window open to every player still in the hand, all-in included.
                st = h["steps"][h["step"]] = {**st, "seat": None, "do": "call"}
            if st["do"] == "call" and not self.call_possible(st):
                continue
            if st["do"] == "call" and self.call_merges_into_draw(st):
                merge_call = True  # the window stays open until the turn player draws
                continue
            if drew := h["drew_last"]:
                if st["phase"] != drew["phase"]:
                    h["drew_last"] = None  # holodex: the dice phase begins
            h["call_open"] = st["do"] == "call" or (merge_call and st["do"] == "draw")
            self.emit("step", round=h["round"], phase=st["phase"], seat=st["seat"], do=st["do"],
                      **({"call_open": True} if h["call_open"] and st["do"] != "call" else {}))
            return

    def call_window_instead(self, st: Step) -> bool:
        """Whether a betting step that cannot open is a call window instead: the rule set
        calls in this phase, a call is allowed now, and two players are still in the hand."""
        h, calling = self.hand, self.rules.calling
        return (self.rules.ending.by_call and st["phase"] == calling.phase.value and not calling.not_by_turn_player
                and h["called_by"] is None and h["round"] > calling.rounds_before_call
                and len(self.live()) >= 2)

    def call_possible(self, st: Step) -> bool:
        h, calling = self.hand, self.rules.calling
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
        calling = self.rules.calling
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
        calling = self.rules.calling
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

    def check_draw(self, f: dict[str, Any], actor: str | None) -> tuple[str, TurnAction, str | None, int] | Refusal:
        """The refusal of a move of the turn that `cmd_draw` would raise (read-only); else
        the drawer, the move, the card it puts face up on the discard pile, and its fee."""
        sid = self.who(f, actor)
        h = self.need_play()
        st = current_step(h)
        if st is None or st["do"] != "draw":
            return Refusal(409, "it is not a time to draw")
        drawer = st["seat"]
        if drawer != sid:
            return Refusal(409, f"it is {self.name(drawer)}'s turn to draw" if drawer is not None
                           else "it is not your turn to draw")
        p = self.in_play(sid)
        action = f["action"]
        taken = next((a for a in self.rules.actions if a.action == action), None)
        if taken is None:
            return Refusal(422, f"{action!r} is no move of these rules; the moves are "
                                + ", ".join(a.action for a in self.rules.actions), "action")
        top = self.discarded_card(f, needed=bool(taken.discards))
        if taken.leaves:
            return sid, taken, top, 0
        fee = getattr(self.rules, taken.fee) if taken.fee else 0
        if fee > self.stack(sid):
            return Refusal(409, f"{taken.button} costs {fee} and you have {self.stack(sid)}: "
                                "choose a free move", "action")
        most, least = self.rules.deck.hand_max, self.rules.deck.hand_min
        if most is not None and p["hand_size"] + taken.cards > most:
            return Refusal(409, f"a hand holds at most {most} cards: you cannot keep another", "action")
        if p["hand_size"] + taken.cards < least:
            return Refusal(409, f"a hand holds at least {least} cards", "action")
        if taken.dealt and deck_left(h, self.rules) < taken.dealt:
            return Refusal(409, "the draw pile is empty: stand", "action")
        if taken.discards and p["hand_size"] - len(p["static"]) < taken.discards:
            return Refusal(409, f"every card is in your static field: nothing to {action}", "action")
        return sid, taken, top, fee

    def cmd_draw(self, f: dict[str, Any], actor: str | None) -> None:
        sid, taken, top, fee = sure(self.check_draw(f, actor))
        if taken.leaves:
            self.leave_hand(sid)  # junk: the whole hand onto the discard pile
            if top is not None:
                self.put_on_discard_pile(top)
            return
        h = self.hand
        st = h["steps"][h["step"]]  # the draw step (check_draw)
        p = h["p"][sid]
        p["hand_size"] += taken.cards
        h["junk"] += taken.discards - (1 if taken.takes_discard else 0)
        if fee:
            self.pay_fee(sid, fee)  # into the game pot, no bet
        if taken.dealt:
            self.deal_job({sid: taken.dealt})
        self.emit("drew", seat=sid, action=taken.action, hand_size=p["hand_size"], **({"fee": fee} if fee else {}))
        if top is not None:
            self.put_on_discard_pile(top)
        h["drew_last"] = {"seat": sid, "turn": h["turn_no"], "phase": st["phase"]}
        self.advance()

    def discarded_card(self, f: dict[str, Any], needed: bool) -> str | None:
        """The card a move puts face up on the discard pile: none where the pile lies face
        down (a game whose pile is face up composes `discard.PublicDiscardPile`)."""
        if "card" in f:
            raise Refused(422, "the discard pile is face down in these rules: enter no card", "card")
        return None

    def leave_hand(self, sid: str) -> None:
        """A turn action that leaves the hand (Spike's junk): the whole hand goes onto the
        discard pile, as a fold does, with its fee (the junk penalty); the last player left
        takes the pots."""
        self.drop_out(sid)
        live = self.live()
        if len(live) == 1:
            self.concede(live[0])
            return
        self.advance()

    def stage_words(self, viewer: str | None, who: Any) -> str | None:
        """The turn line at a stage of a game's own (`who(seat)`: "You" or the seat's name);
        None where the shared words apply (by default always)."""
        return None

    def turn_words(self, viewer: str | None) -> str:
        """Whose move it is and what they do, in words, for `viewer` ("You" for their own seat).
        What a player owes is their own amount, not the round's bet (a "call 10" to a player who
        already put in 5 was wrong: they call 5)."""
        h = self.hand

        def who(sid: str | None) -> str:
            return "You" if sid is not None and sid == viewer else \
                self.name(sid) if sid else "The dealer"

        def whom(sid: str) -> str:  # mid-sentence: "waiting for you and Lando"
            return "you" if sid == viewer else self.name(sid)

        if h["stage"] == "reveal":
            waiting = [whom(x) for x in self.live() if h["p"][x]["cards"] is None]
            return f"The reveal: waiting for {join_words(waiting)} to enter their cards."
        if h["stage"] == "demise":
            waiting = [whom(x) for x in h["demise_players"] if not h["p"][x]["demise"]]
            if self.rules.hands.tie == BLIND_DRAW:
                # Drawn cards stay with their drawers: a drawer who has some is tied again.
                again = any(h["p"][x]["blind_draw"] for x in h["demise_players"])
                return (f"{self.rules.words.tie.capitalize()}{', tied again' if again else ''}: waiting for {join_words(waiting)} "
                        f"to draw {'another' if again else 'a'} card and enter it.")
            return f"{self.rules.words.tie.capitalize()}: waiting for {join_words(waiting)} to enter one more card."
        said = self.stage_words(viewer, who)
        if said is not None:
            return said
        if h["stage"] == "final_roll":
            return f"{who(h['dealer'])}: roll {self.rules.dice.name} one last time."
        b, st = h["betting"], current_step(h)
        if b is not None:
            owed = b["current"] - h["p"][b["to_act"]]["bet"]
            fold = self.rules.words.fold
            what = (f"call {owed}, raise, go all-in or {fold}" if owed > 0 else
                    f"check, raise or {fold}" if b["current"] else "bet or check")
            return f"{who(b['to_act'])}: {what}."
        if st is None:
            return ""
        return f"{self.rules.phase_name(Phase(st['phase'])).capitalize()} — {self.step_words(st, who)}"

    def step_words(self, st: Step, who: Any) -> str:
        """What the step asks of whom (the turn line after its phase's name)."""
        h = self.hand
        if st["do"] == "roll":
            return f"{who(roller_of(h, st))}: roll {self.rules.dice.name}."
        if st["do"] == "call" and st["seat"] is None:
            return f"Call window: {join_words([who(x) for x in self.call_window()])} may call the hand or pass."
        if st["do"] == "call":
            return f"{who(st['seat'])}'s turn is done: the others may call the hand now."
        if st["do"] == "draw":
            then = " The others may call the hand until then." if h["call_open"] else ""
            offers = list(dict.fromkeys(a.offered for a in self.rules.actions))
            return f"{who(st['seat'])}: {', '.join(offers[:-1])} or {offers[-1]}.{then}"
        return f"{who(st['seat'])}: {st['do']}."
