"""The engine of a hand dealt to each player and played in rounds of betting, drawing and
rolling the scrambler, ending at a reveal of every hand: the sections of the engine joined.

Games whose hands are played this way compose it (with their rule-set values); a game played
another way brings an engine of its own (docs/games.md).
"""

from __future__ import annotations

from typing import Any

from companion.refusal import Refused
from companion.games import registry
from companion.games.api import DiceSpec, InvalidRules
from companion.scrambler.dice import SHIFT_DICE
from companion.table.betting import MOVER_FIRST, Betting
from companion.table.commands import COMMANDS, HOST
from companion.table.evening import Evening
from companion.table.offers import describe, offer, seat_facts
from companion.table.play import Refusal
from companion.table.reveal import Reveal
from companion.table.seats import OUTSIDE_A_HAND, Seats
from companion.table.shifts import Shifts
from companion.table.state import Betting as BettingRound
from companion.table.state import (
    Player,
    Step,
    TableState,
    current_step,
    deck_left,
    hand_pot,
    pots_of,
    roller_of,
)
from companion.table.turns import Turns


class DealtHand(Evening, Seats, Betting, Turns, Shifts, Reveal):
    """One command applied to a private copy of the state: every section of the engine."""

    LISTS_SESSION_MOVES = True  # between the turn's moves and the seat's own (`legal`)

    #: A game's own moves -> what an undone entry of it was, in words ({who}: the seat's name;
    #: `evening.undone_words`).
    UNDONE: dict[str, str] = {}

    #: A game's own checked moves -> their words, style and whether the page asks twice
    #: (`offers.offer`): the moves `own_checked` names.
    MOVE_WORDS: dict[str, tuple[str, str, bool]] = {}

    #: A game's own checked moves the host may send for the table (its console lists them).
    HOST_CHECKED: tuple[str, ...] = ()

    def own_checked(self, sid: str, in_hand: bool, step: Step | None) -> list[str]:
        """A game's own checked moves (`Play.answer`) that `sid`'s list asks about, after the
        betting moves (`in_hand`: `sid` plays the hand at its play stage; `step`: the step
        it is at); by default none."""
        return []

    def kept_shown(self, sid: str) -> dict[str, list[str]]:
        """`sid`'s kept cards (`kept`) as the views show them, on a seat of the hand and in its
        reveal offer: under the name the game gives them (``BLOCKS["kept"]["field"]``); nothing
        for a game whose players keep no cards face up."""
        block = self.BLOCKS.get("kept")
        return {block["field"]: list(self.kept(sid))} if block else {}

    def seat_moves(self, sid: str) -> list[dict[str, Any]]:
        """A game's own moves of a seat that `sid` may make now, listed after the session's
        (each with its words: `offers.offer`); by default none."""
        return []

    def hand_moves(self, sid: str) -> list[dict[str, Any]]:
        """A game's own moves that `sid` may make now in the hand, listed after the roll (each
        with its words: `offers.offer`); by default none."""
        return []

    #: The fields of a command no one but its seat may read in the audit log until they are
    #: face up (owner.secret_fields): the cards entered at a reveal (a game adds its blocks':
    #: a tie's card, `tie_draw.hidden`).
    HIDDEN_FIELDS: dict[str, tuple[str, ...]] = {"reveal": ("cards",)}
    #: The events that put them face up: every hand is in (`revealed`).
    SHOWN_BY: dict[str, tuple[str, ...]] = {"reveal": ("revealed",)}

    #: Every command this engine applies -> the JSON Schema of its fields (`Table.apply`
    #: checks an entry against its table's engine's).
    COMMANDS = COMMANDS

    # -- what the table reads of the game: its views, legal moves and pots -----------------

    def pots_held(self) -> int:
        """The credits in the running hand's pots (`Table.credits`): none once paid out. In
        a stage after the last player took them ("show") the pots are already paid: only the
        sabacc pot is still open."""
        h = self.s["hand"]
        if h is None or h["stage"] in ("settled", "show"):
            return 0
        return hand_pot(h)

    def ante_due(self) -> int:
        """What the next hand's antes take from a stack: the phones say when one cannot pay."""
        return sum(self.antes_due())

    def roll_due(self, entry: dict) -> DiceSpec | None:
        """If `entry` is a roll without dice, the dice to roll (the owner fills entry["dice"]
        from the table's roller before `apply`). Else None."""
        if isinstance(entry, dict) and entry.get("type") == "roll" and entry.get("dice") is None:
            return self.shift_dice()
        return None

    def shift_dice(self) -> DiceSpec:
        """The dice of the rule set's trigger, in its game's words when the game declares them
        (`Game.dice`), else as plain numbered dice."""
        trigger = self.rules.scrambler_trigger
        try:
            own = registry.game_of(self.rules.name).dice
        except InvalidRules:  # rules no preset names: the plain dice
            own = ()
        return next((d for d in own if d.key == trigger.value), SHIFT_DICE[trigger])

    def hand_view(self, viewer: str | None) -> dict[str, Any] | None:
        h = self.s["hand"]
        if h is None:
            return None
        complete = h["revealed"]
        step = current_step(h)
        players = []
        keeps = "kept" in self.BLOCKS  # asked once: `kept_shown` is nothing for the others
        for sid in h["players"]:
            p = h["p"][sid]
            players.append({
                "seat": sid,
                "committed": p["committed"],
                "bet": p["bet"],
                "folded": p["folded"],
                "all_in": not p["folded"] and _stack(self.s, sid) == 0,
                "hand_size": p["hand_size"],
                **(self.kept_shown(sid) if keeps else _NOTHING),
                "entered": p["cards"] is not None,
                "cards": list(p["cards"]) if complete and p["cards"] is not None else None,
                **self.tie_player_view(sid),
            })
        betting = h["betting"]
        owed = (betting["current"] - h["p"][betting["to_act"]]["bet"]) if betting else 0
        game = self
        return {
            "no": h["no"],
            "stage": h["stage"],
            "round": h["round"],
            "phase": step["phase"] if step and h["stage"] == "play" else None,
            "turn": h["turn_of"] if h["stage"] == "play" else None,
            "do": step["do"] if step and h["stage"] == "play" else
                  ("roll" if h["stage"] == "final_roll" else None),
            "roller": roller_of(h, step) if h["stage"] in ("play", "final_roll") else None,
            "to_act": betting["to_act"] if betting else None,
            "current_bet": betting["current"] if betting else 0,
            "owed": owed,
            "call_open": bool(h["call_open"]) and h["stage"] == "play",
            "call_window": game.call_window() if h["stage"] == "play" else [],
            "deal": [dict(job) for job in h["deal"]],
            "words": game.turn_words(viewer) if h["stage"] != "settled" else None,
            "called_by": h["called_by"],
            "dealer": h["dealer"],
            "token": h["token"],
            "players": players,
            # At a stage after the last player took the pots ("show"), they are paid (credits()).
            "hand_pot": 0 if h["stage"] == "show" else hand_pot(h),
            "pots": [] if h["stage"] == "show" else
                    pots_of(h, {sid: seat["stack"] for sid, seat in self.s["seats"].items()}),
            "deck": deck_left(h, self.rules),
            "out_of_play": h["out_of_play"],
            "discard_top": h["discard_top"],
            "last_roll": h["last_roll"],
            "rolls": h["rolls"],
            "shift": h["shift"],
            **self.tie_hand_view(),
            "seed_commitment": h["seed_commitment"],
            "seed": h["seed"],
            "settlement": h["settlement"],
        }

    def private(self, sid: str, legal: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        h = self.s["hand"]
        mine = h["p"].get(sid) if h else None
        return {
            "seat": sid,
            "cards": list(mine["cards"]) if mine and mine["cards"] is not None else None,
            **self.tie_private(sid),
            "legal": self.legal(sid) if legal is None else legal,
        }

    def legal(self, sid: str) -> list[dict[str, Any]]:
        """The commands `sid` may send now, with amount ranges where they take one.

        Derived from the live state, never by trial on a copy of it (issue 19): the betting
        ranges from what `Betting.mover` (where every betting command begins) finds, the
        game's own moves from its engine (`hand_moves`), the reveal from the state; every other move by the command's own read-only
        check (`Play.answer`), so the list and the command cannot disagree. A check is not
        asked where its first step, shared with other checks and asked once, refuses."""
        s, rules = self.s, self.rules
        out: list[dict[str, Any]] = []
        h = s["hand"]
        stack = s["seats"][sid]["stack"]
        game = self  # read-only: the commands' checks
        in_hand = h is not None and h["stage"] == "play" and sid in h["p"] and not h["p"][sid]["folded"]
        # Every betting move begins with `mover` (the seat whose move it is), asked once here;
        # the ranges are derived from what it finds. In a folded turn player's call window
        # the next player's move closes the window first and opens the betting it belongs to
        # (Turns.ahead): it is asked of the game past the window, as the moves are.
        moving: tuple[str, Player, BettingRound] | None = None
        if in_hand:
            try:
                found = game.past_window().mover({}, sid)
                moving = None if isinstance(found, Refusal) else found
            except Refused:
                pass
        if moving is not None:
            _, mine, betting = moving
            cur, limit = betting["current"], rules.bet_limit
            if cur == 0 and (betting["opener"] in (None, sid)) and stack >= 1:
                out.append({"type": "bet", "min": 1, "max": min(stack, limit or stack)})
            if cur > 0:
                hi = min(cur + (limit or stack), mine["bet"] + stack)
                if hi > cur:
                    out.append({"type": "raise", "min_to": cur + 1, "max_to": hi})
            if cur > mine["bet"] and cur - mine["bet"] <= stack:
                out.append({"type": "call", "amount": cur - mine["bet"]})
        # Checks are not asked where the first step they share refuses: the betting moves'
        # `mover` (above), and `not_in_running_hand` of the session moves refused to a seat
        # playing the running hand (betting.MOVER_FIRST, seats.OUTSIDE_A_HAND).
        playing = game.not_in_running_hand(sid) is not None
        step = current_step(h) if h and h["stage"] == "play" else None
        simple = ["check", "all_in", "fold"] if in_hand else []
        simple += self.own_checked(sid, in_hand, step)
        for typ in simple:
            if typ in MOVER_FIRST and moving is None or typ in OUTSIDE_A_HAND and playing:
                continue
            if game.allows(typ, {}, sid):
                item: dict[str, Any] = {"type": typ}
                if typ == "all_in":
                    item["amount"] = stack
                if typ in self.MOVE_WORDS:
                    item = _worded(item, self.MOVE_WORDS[typ])
                out.append(item)
        out += self.session_moves(sid)
        out += self.seat_moves(sid)
        if step is not None and step["do"] == "draw" and step["seat"] == sid:
            for taken in rules.actions:
                # Where the discard pile is face up, a discarding move names its card: checked
                # with any card, offered with "card": true (the phone asks which).
                asks = self.names_discards() and taken.discards > 0
                card = {"card": next(iter(rules.deck.cards))} if asks else {}
                if game.allows("draw", {"action": taken.action, **card}, sid):
                    out.append({"type": "draw", "action": taken.action, **({"card": True} if asks else {})})
        if h and h["stage"] in ("play", "final_roll") and roller_of(h, step) == sid:
            if game.allows("roll", self.any_roll(), sid):
                out.append({"type": "roll"})
        out += self.hand_moves(sid)
        if h and h["stage"] == "reveal" and sid in h["p"] and not h["p"][sid]["folded"]:
            p = h["p"][sid]
            if not (h["revealed"] and p["cards"] is not None):  # a face-up hand stands
                out.append({"type": "reveal", "hand_size": p["hand_size"], **self.kept_shown(sid)})
        out += self.tie_moves(sid)  # a tied player's card, unless it stood face up at a clash
        # Each move's words and inputs (offers.py); a hand entered at the reveal has the kept
        # cards in already.
        kept = tuple(self.kept(sid)) if h is not None and h["stage"] == "reveal" and sid in h["p"] else ()
        return describe(out, rules, lambda: seat_facts(s, sid, kept))

    def any_roll(self) -> dict[str, Any]:
        """A roll's fields with dice of the table's trigger (which faces does not matter to
        whether a roll is due: the owner rolls the real ones)."""
        return {"dice": [1] * SHIFT_DICE[self.rules.scrambler_trigger].count}

    def host_legal(self) -> list[str]:
        """The host's commands of the hand and the session that may be sent now (checked on
        the live state, as a seat's moves are)."""
        game = self
        out = [typ for typ in ("start_hand", "end_session", *self.HOST_CHECKED) if game.allows(typ, {}, HOST)]
        if game.allows("roll", self.any_roll(), HOST):
            out.append("roll")
        return out


#: The offers of moves with no fields but their type, in a game's words (`_worded`).
_WORDED: dict[tuple[str, tuple[str, str, bool]], dict[str, Any]] = {}


def _worded(item: dict[str, Any], words: tuple[str, str, bool]) -> dict[str, Any]:
    """`offer(item, *words)`: for a move with no field but its type (a fold, a call of the
    hand), the one offer made for it in these words, shared by every seat and version (views
    are read, never changed)."""
    if len(item) != 1:
        return offer(item, *words)
    key = (item["type"], words)
    try:
        hit = _WORDED.get(key)
    except TypeError:  # words a game gave as a list: made each time
        return offer(item, *words)
    if hit is None:
        hit = _WORDED[key] = offer(item, *words)
    return hit


#: What a view adds where a game has nothing to add (read only).
_NOTHING: dict[str, Any] = {}


def _stack(s: TableState, sid: str) -> int:
    """A seat's stack; 0 for a player dealt into the hand who has left the table since."""
    seat = s["seats"].get(sid)
    return seat["stack"] if seat is not None else 0
