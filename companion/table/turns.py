"""The turn and its draws: starting a hand, the round built from the rule set's phases
(`RuleSet.turn_phases`: what each phase does and who does it), moving from step to step (with
what a game's own kinds of step need asked of its engine), the draw, and the turn line in
words."""

from __future__ import annotations

from typing import Any, Self

from companion.refusal import Refused
from companion.rules.game import TurnAction
from companion.rules.rulesets import (
    AnteRule,
    OrderOfPlay,
    Phase,
    RuleSet,
    Trigger,
    Who,
)
from companion.table.play import Play, Refusal, sure
from companion.table.state import (
    Step,
    current_step,
    deck_left,
    join_words,
    new_hand,
    next_in,
    roller_of,
    rotate,
)


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
        _, sabacc_ante = self.antes_due()
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

    def antes_due(self) -> tuple[int, int]:
        """What the next hand's antes take from each player's stack: (into the hand pot, into
        the sabacc pot). A stack that cannot pay both (or is empty) is dealt out; the phones
        say so from the sum, which the views carry. By default the rule set's ante into the
        hand pot, and as much into the sabacc pot where the rule set antes to both pots or the
        sabacc pot is empty (a game with an ante of its own into the sabacc pot says so)."""
        rules = self.rules
        both = rules.ante_rule is AnteRule.BOTH_POTS or self.s["sabacc_pot"] == 0
        return rules.ante, rules.ante if both else 0

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
                     {sid: s["seats"][sid]["stack"] for sid in players}, self.OWN_STATE)
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
            # Order of play by turns: each player in turn goes through every phase of a turn.
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
        """Move to the next step that needs someone, skipping what does not apply. A game's
        engine says what its own steps need (`step_ends`, `rounds_end`, `phase_begins`,
        `instead_of_betting`, `step_needed`, `step_begins`)."""
        h, rules = self.hand, self.rules
        self.step_ends()
        was = current_step(h)
        while h["stage"] == "play":
            h["step"] += 1
            if h["step"] >= len(h["steps"]):
                if self.rounds_end():
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
                # stay up into the betting (issue 28: the deal note lingered through the turn
                # phase). In one player's turn (order of play by turns) the job stays until the next.
                h["deal"] = []
            if self.phase_begins(st):
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
            if st["do"] == "roll" and rules.scrambler_trigger is Trigger.TIMER:
                continue  # the timer rolls by itself
            if st["do"] == "bet" and not self.open_betting(st):
                instead = self.instead_of_betting(st)
                if instead is None:
                    continue
                st = h["steps"][h["step"]] = instead
            if not self.step_needed(st):
                continue
            if drew := h["drew_last"]:
                if st["phase"] != drew["phase"]:
                    h["drew_last"] = None  # the next phase begins: the drawer's window closes
            said = self.step_begins(st)
            self.emit("step", round=h["round"], phase=st["phase"], seat=st["seat"], do=st["do"], **said)
            return

    # -- what the rounds ask of a game's own steps (by default: nothing of its own) ----------

    def step_ends(self) -> None:
        """The step the hand was at is over (`advance` moves on): a game forgets what was
        open only during it."""

    def rounds_end(self) -> bool:
        """The round's steps ran out: True if the game goes on its own way from here (it has
        moved on itself); by default False (the next round, or the reveal after the last)."""
        return False

    def phase_begins(self, st: Step) -> bool:
        """Step `st` is next: True if the game goes its own way instead (it has moved on
        itself); by default False."""
        return False

    def instead_of_betting(self, st: Step) -> Step | None:
        """What a betting step nobody can bet in becomes (None: it is skipped, the default)."""
        return None

    def step_needed(self, st: Step) -> bool:
        """Whether a step of the round needs someone now (a game's own kinds of step say
        when they are skipped); by default every step that got this far does."""
        return True

    def step_begins(self, st: Step) -> dict[str, Any]:
        """Step `st` begins: the fields a game adds to its `step` event (by default none)."""
        return {}

    def folded_caller(self) -> str | None:
        """A turn player who folded in their own turn and whose window is still open (a
        game's own; by default None)."""
        return None

    def past_window(self) -> Self:
        """This game past a window that the next move closes first (a game's own; by
        default this game itself)."""
        return self

    def call_window(self) -> list[str]:
        """The players who may still act in a window open to several (a game's own; by
        default none)."""
        return []

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
        fee = self.rules.option(taken.fee) if taken.fee else 0
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
        if taken.discards and p["hand_size"] - len(self.kept(sid)) < taken.discards:
            return Refusal(409, f"every card is in your {self.kept_words()}: nothing to {action}", "action")
        return sid, taken, top, fee

    def cmd_draw(self, f: dict[str, Any], actor: str | None) -> None:
        sid, taken, top, fee = sure(self.check_draw(f, actor))
        if taken.leaves:
            self.leave_hand(sid)  # the whole hand onto the discard pile
            if top is not None:
                self.put_on_discard_pile(top)
            return
        h = self.hand
        st = h["steps"][h["step"]]  # the draw step (check_draw)
        p = h["p"][sid]
        p["hand_size"] += taken.cards
        h["out_of_play"] += taken.discards - (1 if taken.takes_discard else 0)
        if fee:
            self.pay_fee(sid, fee)  # into the hand's pot, no bet
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
        """A turn action that leaves the hand: the whole hand goes onto the discard pile, as a
        fold does, with its fee; the last player left takes the pots."""
        self.drop_out(sid)
        live = self.live()
        if len(live) == 1:
            self.concede(live[0])
            return
        self.advance()

    def stage_words(self, viewer: str | None, who: Any) -> str | None:
        """The turn line at a stage of a game's own, or where a game says more at a shared
        one (`who(seat)`: "You" or the seat's name, `whom` mid-sentence); None where the
        shared words apply (by default always)."""
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

        said = self.stage_words(viewer, who)
        if said is not None:
            return said
        if h["stage"] == "reveal":
            waiting = [whom(x) for x in self.live() if h["p"][x]["cards"] is None]
            return f"The reveal: waiting for {join_words(waiting)} to enter their cards."
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
        if st["do"] == "draw":
            offers = list(dict.fromkeys(a.offered for a in self.rules.actions))
            return f"{who(st['seat'])}: {', '.join(offers[:-1])} or {offers[-1]}."
        return f"{who(st['seat'])}: {st['do']}."
