"""Seats and the session: joining, buying in and cashing out, sitting out, the dealer,
the host's adjustments and stakes (the end of the session is evening.py's)."""

from __future__ import annotations

from typing import Any

from companion.refusal import Refused
from companion.table.chips import breakdown
from companion.table.commands import HOST, NAME_MAX
from companion.table.offers import describe, seat_facts
from companion.table.play import PLAYING, Play, Refusal, need, sure
from companion.table.state import new_seat


#: The commands whose check refuses whatever `Seats.not_in_running_hand` refuses (a seat's
#: legal moves ask it once for them all: `DealtHand.legal`).
OUTSIDE_A_HAND = frozenset({"leave", "cash_out", "buy_in"})


#: A seat's own moves of the session, in the order its phone lists them.
SESSION_MOVES = ("sit_out", "sit_in", "leave", "cash_out", "buy_in")
_CHECKS = {typ: "check_" + typ for typ in SESSION_MOVES}  # each move's read-only check


class Seats(Play):
    """Seats and the session (a section of the engine's Game)."""

    #: Whether the game lets a player leave the table in the middle of the running hand
    #: (`leave_mid_hand` says when and `left_mid_hand` what it does); by default a player
    #: finishes or folds their hand first.
    LEAVES_MID_HAND = False

    #: Whether the game's own `legal` lists the session moves among its moves (where it wants
    #: them); otherwise the table adds `session_offers` after the game's moves, so that every
    #: game's players can sit out, cash out and leave from their phones.
    LISTS_SESSION_MOVES = False

    def session_moves(self, sid: str) -> list[dict[str, Any]]:
        """The session moves `sid` may make now (sit out or in, leave, cash out, buy in), as
        legal items, each asked of its command's own read-only check. Any game's engine lists
        them among a seat's legal moves (`session_offers`: with their words)."""
        playing = self.not_in_running_hand(sid) is not None  # asked once for the three
        rules = self.rules
        mid_hand = playing and self.LEAVES_MID_HAND
        out: list[dict[str, Any]] = []
        for typ in SESSION_MOVES:
            if playing and typ in OUTSIDE_A_HAND:
                if typ == "leave" and mid_hand:  # dealt in, where the game lets them go
                    offered = self.leave_offer(sid)
                    if offered is not None:
                        out.append(offered)
                continue
            # The seat's own check, asked directly: `allows` would first ask whether the actor
            # is seated (it is) and which game past a call window checks it (none of these is
            # a next turn's move: this one), for five moves of every seat in every version.
            free = typ == "buy_in" and not rules.buy_in  # checked with any amount
            try:
                ok = not isinstance(getattr(self, _CHECKS[typ])({"amount": 1} if free else {}, sid), Refusal)
            except Refused:
                ok = False
            if ok:  # a plain move is described as the rules' one offer (`offers.PLAIN`)
                out.append({"type": typ, "amount": rules.buy_in or None} if typ == "buy_in" else {"type": typ})
        return out

    def session_offers(self, sid: str) -> list[dict[str, Any]]:
        """`session_moves` with their words, styles and inputs (offers.describe)."""
        return describe(self.session_moves(sid), self.rules, lambda: seat_facts(self.s, sid))

    def cmd_join(self, f: dict[str, Any], actor: str | None) -> None:
        need(self.not_ended())
        name = f["name"].strip()
        if not 1 <= len(name) <= NAME_MAX or not name.isprintable():
            raise Refused(422, f"a name has 1 to {NAME_MAX} printable characters", "name")
        if any(seat["name"].casefold() == name.casefold() for seat in self.s["seats"].values()):
            raise Refused(422, f"{name!r} is already taken at this table", "name")
        if len(self.s["order"]) >= self.s["settings"]["max_seats"]:
            raise Refused(409, "the table is full", None)
        sid = f"s{self.s['next_seat']}"
        self.s["next_seat"] += 1
        self.s["seats"][sid] = new_seat(name)
        self.s["order"].append(sid)
        self.emit("joined", seat=sid, name=name)

    def not_in_running_hand(self, sid: str) -> Refusal | None:
        """Refuse what a seat does only outside a running hand while it plays one."""
        return PLAYING if self.plays(sid) else None

    def check_buy_in(self, f: dict[str, Any], actor: str | None) -> tuple[str, int] | Refusal:
        """The refusal of a buy-in that `cmd_buy_in` would raise (read-only); else the seat
        and amount."""
        sid = self.who(f, actor)
        refusal = self.not_ended() or self.not_in_running_hand(sid)
        if refusal is not None:
            return refusal
        fixed = self.rules.buy_in
        amount = f.get("amount")
        if fixed:
            if amount not in (None, fixed):
                return Refusal(422, f"the buy-in at this table is {fixed} credits", "amount")
            amount = fixed
        elif amount is None:
            return Refusal(422, "say how many credits you buy in for", "amount")
        return sid, amount

    def cmd_buy_in(self, f: dict[str, Any], actor: str | None) -> None:
        sid, amount = sure(self.check_buy_in(f, actor))
        seat = self.s["seats"][sid]
        seat["stack"] += amount
        seat["bought_in"] += amount
        self.emit("bought_in", seat=sid, amount=amount, stack=seat["stack"])

    def cash_out(self, sid: str, amount: int) -> None:
        """Hand `amount` of the seat's stack back in chips. After the session's end, a whole
        stack the final standings hand back is paid as they say (its odd credits rounded by
        the table's rule, chips.hand_back); otherwise in the fewest chips."""
        seat = self.s["seats"][sid]
        chips = breakdown(amount, self.chips).to_json()
        final = next((r for r in self.s["standings"] or [] if r["seat"] == sid), None) if self.s["ended"] else None
        if final is not None and final["stack"] == amount == seat["stack"]:
            chips = final["chips"]
        seat["stack"] -= amount
        seat["cashed_out"] += amount
        self.emit("cashed_out", seat=sid, amount=amount, stack=seat["stack"],
                  **{k: v for k, v in chips.items() if k != "amount"},
                  items=list(self.s["items"]))

    def check_cash_out(self, f: dict[str, Any], actor: str | None) -> tuple[str, int] | Refusal:
        """The refusal of a cash-out that `cmd_cash_out` would raise (read-only); else the
        seat and amount."""
        sid = self.who(f, actor)
        refusal = self.not_in_running_hand(sid)
        if refusal is not None:
            return refusal
        stack = self.stack(sid)
        amount = f.get("amount", stack)
        if amount < 1 or amount > stack:
            return Refusal(422, f"you can cash out 1 to {stack} credits", "amount")
        return sid, amount

    def cmd_cash_out(self, f: dict[str, Any], actor: str | None) -> None:
        self.cash_out(*sure(self.check_cash_out(f, actor)))

    def check_leave(self, f: dict[str, Any], actor: str | None) -> str | Refusal:
        """The refusal of leaving the table that `cmd_leave` would raise (read-only); else
        the seat."""
        sid = self.who(f, actor)
        if self.LEAVES_MID_HAND and self.plays(sid):
            return self.leave_mid_hand(sid, f) or sid
        return self.not_in_running_hand(sid) or sid

    def leave_mid_hand(self, sid: str, f: dict[str, Any]) -> Refusal | None:
        """The refusal of `sid` leaving the table while dealt into the running hand, or None
        when the game's ruling lets them go now (read-only; asked only where
        `LEAVES_MID_HAND`). By default: they finish or fold their hand first."""
        return PLAYING

    def leave_offer(self, sid: str) -> dict[str, Any] | None:
        """The leave move offered to `sid` while dealt into the running hand (asked only where
        `LEAVES_MID_HAND`), or None where they may not go now. By default: offered where
        leaving asks nothing more; a game whose ruling asks for something as they go (cards
        entered) overrides this to offer the move with its `inputs`."""
        try:
            return None if isinstance(self.check_leave({}, sid), Refusal) else {"type": "leave"}
        except Refused:
            return None

    def left_mid_hand(self, sid: str, f: dict[str, Any]) -> None:
        """Take `sid` out of the running hand as the game's ruling says, as they leave the
        table: their stack is handed back already (a settlement this brings counts them with
        nothing), their seat not yet removed (their name is still read). Called only where
        `leave_mid_hand` let them go; by default there is nothing to do."""

    def cmd_leave(self, f: dict[str, Any], actor: str | None) -> None:
        sid = sure(self.check_leave(f, actor))
        if self.stack(sid):
            self.cash_out(sid, self.stack(sid))
        if self.LEAVES_MID_HAND and self.plays(sid):
            self.left_mid_hand(sid, f)
        order = self.s["order"]
        i = order.index(sid)
        nxt = order[(i + 1) % len(order)] if len(order) > 1 else None
        for role in ("dealer", "token"):
            if self.s[role] == sid:
                self.s[role] = nxt
        order.remove(sid)
        self.s["departed"][sid] = self.s["seats"].pop(sid)
        self.emit("left", seat=sid, name=self.s["departed"][sid]["name"])

    def check_sit_out(self, f: dict[str, Any], actor: str | None) -> str:
        """Refuse sitting out when `cmd_sit_out` would (read-only): only someone not seated
        (sitting out again, or in a hand, changes nothing worth refusing); the seat."""
        return self.who(f, actor)

    def cmd_sit_out(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.check_sit_out(f, actor)
        self.s["seats"][sid]["sitting_out"] = True
        self.emit("sat_out", seat=sid)

    def check_sit_in(self, f: dict[str, Any], actor: str | None) -> str | Refusal:
        """The refusal of sitting in that `cmd_sit_in` would raise (read-only); else the seat."""
        sid = self.who(f, actor)
        if not self.s["seats"][sid]["sitting_out"]:
            return Refusal(409, "you are not sitting out")
        return sid

    def cmd_sit_in(self, f: dict[str, Any], actor: str | None) -> None:
        sid = sure(self.check_sit_in(f, actor))
        self.s["seats"][sid]["sitting_out"] = False
        self.emit("sat_in", seat=sid)

    def cmd_reorder(self, f: dict[str, Any], actor: str | None) -> None:
        need(self.between_hands())
        order = f["order"]
        if sorted(order) != sorted(self.s["order"]) or len(set(order)) != len(order):
            raise Refused(422, "list every seat exactly once", "order")
        self.s["order"] = list(order)
        self.emit("seats_reordered", order=list(order))

    def cmd_set_dealer(self, f: dict[str, Any], actor: str | None) -> None:
        need(self.between_hands())
        seat = f["seat"]
        if seat is None and not self.rules.house_dealer:
            raise Refused(422, "name the seat that deals next", "seat")
        if seat is not None:
            self.seat_ref(seat)
        self.s["dealer"] = seat
        self.emit("dealer_set", seat=seat)

    def cmd_set_token(self, f: dict[str, Any], actor: str | None) -> None:
        need(self.between_hands())
        if not self.rules.house_dealer:
            raise Refused(409, "the dealer's token is for house-dealer tables", None)
        self.s["token"] = self.seat_ref(f["seat"])
        self.emit("token_set", seat=f["seat"])

    def cmd_adjust(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.seat_ref(f["seat"])
        reason = f["reason"].strip()
        if not reason:
            raise Refused(422, "say why the stack is adjusted", "reason")
        amount = f["amount"]
        if amount == 0:
            raise Refused(422, "an adjustment is not zero", "amount")
        seat = self.s["seats"][sid]
        if seat["stack"] + amount < 0:
            raise Refused(422, f"the stack is {seat['stack']}: it cannot go below 0", "amount")
        seat["stack"] += amount
        seat["adjusted"] += amount
        self.emit("adjusted", seat=sid, amount=amount, reason=reason, stack=seat["stack"])

    def cmd_stake(self, f: dict[str, Any], actor: str | None) -> None:
        h = self.need_play()
        sid = self.seat_ref(f["seat"])
        p = self.in_play(sid)
        item = f["item"].strip()
        if not item:
            raise Refused(422, "name the item", "item")
        value = f["value"]
        # The Plutt ruling: a non-credit stake is a bet, call or raise of its value, made in
        # the player's turn to bet; the bet limit and the order of betting apply exactly as to
        # credits (a stake out of turn would open or raise the betting out of turn).
        b = h["betting"]
        if b is None:
            raise Refused(409, "a stake is a bet: make it in the player's turn to bet", None)
        if b["to_act"] != sid:
            raise Refused(409, f"it is {self.name(b['to_act'])}'s move: a stake is a bet made in "
                               f"{self.name(sid)}'s own turn to bet", None)
        cur, limit, to = b["current"], self.rules.bet_limit, p["bet"] + value
        owed = cur - p["bet"]
        if to < cur:
            raise Refused(422, f"a stake of {value} does not cover the {owed} {self.name(sid)} owes: "
                               f"stake {owed} or more, or call with credits", "value")
        if limit is not None and to - cur > limit:
            what = (f"a bet of {value}" if cur == 0 else f"a raise to {to}")
            raise Refused(422, f"the bet limit is {limit}: a stake of {value} would be {what}",
                          "value")
        self.s["seats"][sid]["items"] += value
        p["committed"] += value
        p["bet"] = to
        if to > cur:
            b["current"] = to
            self.reopen(sid)  # a bet or raise: the others answer it
        else:
            p["acted"] = True  # a call
        self.s["items"].append({"hand": h["no"], "seat": sid, "item": item, "value": value})
        self.emit("staked", seat=sid, item=item, value=value, committed=p["committed"])
        self.after_bet_action(sid)
