"""Betting: a betting round's moves (check, bet, call, raise, all-in, fold), who moves next,
and the conceded hand when everyone else folds. Folding follows the folding ruling: where
the game says so (`fold_window_open`) until the turn's roll; never the caller."""

from __future__ import annotations

from typing import Any

from companion.refusal import Refused
from companion.table.play import NO_BETTING, Play, Refusal, need, sure
from companion.table.state import Betting as BettingRound
from companion.table.state import Hand, Player, Step, hand_pot


#: The commands whose check begins with `Betting.mover`: refused whenever it refuses (a
#: seat's legal moves ask mover once for them all: `DealtHand.legal`).
MOVER_FIRST = frozenset({"check", "all_in"})


class Betting(Play):
    """Betting (a section of the engine's Game)."""

    def open_betting(self, st: Step) -> bool:
        """Start a betting step; False when fewer than two players can still bet."""
        h = self.hand
        able = [sid for sid in self.live() if self.stack(sid) > 0]
        opener = st["seat"] if self.turn_player_opens() else None
        if len(able) < 2 or (opener is not None and opener not in able):
            return False
        for p in h["p"].values():
            p["bet"], p["acted"] = 0, False
        seat = st["seat"]
        start = seat if seat is not None and seat in able else next(x for x in self.round_order() if x in able)
        h["betting"] = {"opener": opener, "current": 0, "to_act": start}
        return True

    def betting_round(self) -> BettingRound:
        """The betting round in progress; refused (409) when none is open."""
        b = self.hand["betting"]
        if b is None:
            raise NO_BETTING.refused()
        return b

    def next_to_act(self, after: str) -> str | None:
        """The next player (to the left of `after`) who must still act in this betting step."""
        h, b = self.hand, self.betting_round()
        opener = h["p"][b["opener"]] if b["opener"] is not None else None
        if opener is not None and b["current"] == 0 and (opener["acted"] or opener["folded"]):
            return None  # only the turn player may open: their check (or fold) ends the step
        players = h["players"]
        i = players.index(after)
        for k in range(1, len(players) + 1):
            sid = players[(i + k) % len(players)]
            p = h["p"][sid]
            if p["folded"] or self.stack(sid) == 0:
                continue
            if not p["acted"] or p["bet"] < b["current"]:
                return sid
        return None

    def after_bet_action(self, sid: str) -> None:
        h = self.hand
        nxt = self.next_to_act(sid)
        if nxt is None:
            h["betting"] = None
            self.emit("betting_done")
            self.advance()
        else:
            self.betting_round()["to_act"] = nxt

    def mover(self, f: dict[str, Any], actor: str | None) -> tuple[str, Player, BettingRound] | Refusal:
        """The seat acting in the betting step, its hand record and the betting round; the
        refusal if it is not that seat's move (read-only)."""
        sid = self.who(f, actor)
        h = self.need_play()
        b = h["betting"]
        if b is None:
            return NO_BETTING
        self.in_play(sid)
        if b["to_act"] != sid:
            return Refusal(409, f"it is {self.name(b['to_act'])}'s move")
        return sid, h["p"][sid], b

    @staticmethod
    def not_opener(b: BettingRound, sid: str) -> Refusal | None:
        """Where the game says so (`turn_player_opens`), only the turn player opens the betting."""
        if b["opener"] is not None and b["opener"] != sid:
            return Refusal(409, "only the player whose turn it is may open the betting")
        return None

    def check_check(self, f: dict[str, Any], actor: str | None) -> tuple[str, Player, BettingRound] | Refusal:
        """The refusal of a check that `cmd_check` would raise (read-only); else the mover."""
        moving = self.mover(f, actor)
        if isinstance(moving, Refusal):
            return moving
        sid, p, b = moving
        if p["bet"] < b["current"]:
            return Refusal(409, f"you must call {b['current'] - p['bet']}, raise, go all-in or fold")
        return moving

    def cmd_check(self, f: dict[str, Any], actor: str | None) -> None:
        sid, p, b = sure(self.check_check(f, actor))
        p["acted"] = True
        self.emit("checked", seat=sid)
        self.after_bet_action(sid)

    def cmd_bet(self, f: dict[str, Any], actor: str | None) -> None:
        sid, p, b = sure(self.mover(f, actor))
        if b["current"] > 0:
            raise Refused(409, f"there is a bet of {b['current']}: call, raise or fold", None)
        need(self.not_opener(b, sid))
        amount, limit, stack = f["amount"], self.rules.bet_limit, self.stack(sid)
        if limit is not None and amount > limit:
            raise Refused(422, f"the bet limit is {limit}", "amount")
        if amount > stack:
            raise Refused(422, f"you have {stack} credits", "amount")
        self.pay(sid, amount)
        b["current"] = p["bet"]
        self.reopen(sid)
        self.emit("bet", seat=sid, amount=amount, stack=self.stack(sid))
        self.after_bet_action(sid)

    def reopen(self, raiser: str) -> None:
        """A bet or raise: everyone else must act again."""
        for sid, p in self.hand["p"].items():
            p["acted"] = sid == raiser

    def cmd_call(self, f: dict[str, Any], actor: str | None) -> None:
        sid, p, b = sure(self.mover(f, actor))
        owed = b["current"] - p["bet"]
        if owed <= 0:
            raise Refused(409, "there is nothing to call: check or bet", None)
        if owed > self.stack(sid):
            raise Refused(422, f"calling needs {owed} but you have {self.stack(sid)}: go all-in or fold", None)
        self.pay(sid, owed)
        p["acted"] = True
        self.emit("called_bet", seat=sid, amount=owed, stack=self.stack(sid))
        self.after_bet_action(sid)

    def cmd_raise(self, f: dict[str, Any], actor: str | None) -> None:
        sid, p, b = sure(self.mover(f, actor))
        to, cur, limit, stack = f["to"], b["current"], self.rules.bet_limit, self.stack(sid)
        if cur == 0:
            raise Refused(409, "there is no bet to raise: bet instead", None)
        if to <= cur:
            raise Refused(422, f"raise to more than the current bet of {cur}", "to")
        if limit is not None and to - cur > limit:
            raise Refused(422, f"a raise adds at most {limit}: raise to {cur + limit} at most", "to")
        if to - p["bet"] > stack:
            raise Refused(422, f"raising to {to} needs {to - p['bet']} but you have {stack}", "to")
        amount = to - p["bet"]
        self.pay(sid, amount)
        b["current"] = to
        self.reopen(sid)
        self.emit("raised", seat=sid, to=to, amount=amount, stack=self.stack(sid))
        self.after_bet_action(sid)

    def check_all_in(self, f: dict[str, Any], actor: str | None) -> tuple[str, Player, BettingRound] | Refusal:
        """The refusal of an all-in that `cmd_all_in` would raise (read-only); else the mover."""
        moving = self.mover(f, actor)
        if isinstance(moving, Refusal):
            return moving
        sid, p, b = moving
        cur, limit = b["current"], self.rules.bet_limit
        to = p["bet"] + self.stack(sid)
        if to > cur:
            if cur == 0 and (refusal := self.not_opener(b, sid)) is not None:
                return refusal
            if limit is not None and to - cur > limit:
                return Refusal(422, f"all-in would add {to - cur} over the bet; the limit is {limit}: "
                                    f"raise to {cur + limit} instead")
        return moving

    def cmd_all_in(self, f: dict[str, Any], actor: str | None) -> None:
        sid, p, b = sure(self.check_all_in(f, actor))
        stack, cur = self.stack(sid), b["current"]
        to = p["bet"] + stack
        self.pay(sid, stack)
        if to > cur:
            b["current"] = to
            self.reopen(sid)
        else:
            p["acted"] = True
        self.emit("all_in", seat=sid, amount=stack, to=to, stack=0)
        self.after_bet_action(sid)

    def check_fold(self, f: dict[str, Any], actor: str | None) -> tuple[str, Hand, Player] | Refusal:
        """The refusal of a fold that `cmd_fold` would raise (read-only); else the folder,
        the hand and their hand record."""
        sid = self.who(f, actor)
        h = self.need_play()
        p = self.in_play(sid)
        if h["called_by"] == sid:
            return Refusal(409, "the caller cannot fold: check, call, raise or go all-in")
        if self.stack(sid) == 0:
            return Refusal(409, "you are all-in: there is nothing to fold for")
        if h["betting"] is None and not self.fold_window_open():
            return Refusal(409, "a player may only fold during betting")
        return sid, h, p

    def cmd_fold(self, f: dict[str, Any], actor: str | None) -> None:
        sid, h, _ = sure(self.check_fold(f, actor))
        b = h["betting"]
        self.drop_out(sid)
        live = self.live()
        if len(live) == 1:
            self.concede(live[0])
        elif b is not None and b["to_act"] == sid:
            self.after_bet_action(sid)

    def turn_player_opens(self) -> bool:
        """Whether only the player whose step it is may open the betting (a game's engine
        says so; by default anyone may)."""
        return False

    def fold_window_open(self) -> bool:
        """Whether a player may fold outside a betting round now (a game's engine says when;
        by default never)."""
        return False

    def concede(self, winner: str) -> None:
        """Everyone else folded: the last player takes every pot, shows nothing, pays nothing."""
        h = self.hand
        amount = hand_pot(h)
        self.s["seats"][winner]["stack"] += amount
        h["betting"] = None
        h["settlement"] = self.told({"status": "conceded", "winner": winner, "amount": amount,
                                     "payouts": {sid: (amount if sid == winner else 0)
                                                 for sid in h["players"]}})
        self.emit("conceded", seat=winner, amount=amount)
        if not self.after_concede(winner):
            self.end_hand()

    def after_concede(self, winner: str) -> bool:
        """What a game does once the last player took the pots, before the hand ends: True
        if the hand goes on to a stage of the game's own (it ends it later); by default
        False, and the hand ends."""
        return False
