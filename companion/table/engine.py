"""The live table's hand engine: one table's whole state, changed only by commands.

This module is the engine's face: `Table` and the names the owner, the registry, the server
and the tests import (`HOST`, `SCRAMBLER`, `COMMANDS`, `NAME_MAX`). The engine itself is the
package's sections: state (the typed state), commands (the schemas and their one validator),
seats, turns (turns, draws, static field), betting, shifts, reveal (reveal and settlement),
joined here into `Game`.

A `Table` is plain JSON-able data and a pure, deterministic state machine: `apply(entry,
actor)` validates a command completely (on a copy of the state) and either raises `Refused`
with nothing changed or returns the events that describe what happened, in the game's own
words. Rolls arrive with their dice already filled in (`roll_needed` tells the owner which
trigger to roll for), so replaying the same entries always gives the same table.

Every rule is read from the table's `RuleSet` (order of play, who opens the betting, the calling
rule, static-field limits, the scrambler trigger and shift kind); nothing tests a preset's
name. The commands and events are listed in docs/table-commands.md::

    >>> t = Table.create("KMXTR", {"rules": "weg"})
    >>> [t.apply({"type": "join", "name": n}, None)[0]["seat"] for n in ("Lando", "Han")]
    ['s1', 's2']
    >>> for s in ("s1", "s2"):
    ...     _ = t.apply({"type": "buy_in", "amount": 20}, s)
    >>> _ = t.apply({"type": "start_hand"}, HOST)
    >>> v = t.view("s1")
    >>> v["hand"]["hand_pot"], v["sabacc_pot"], v["hand"]["turn"], v["hand"]["do"]
    (2, 2, 's2', 'bet')
    >>> t.apply({"type": "bet", "amount": 3}, "s2")[0]
    {'type': 'bet', 'seat': 's2', 'amount': 3, 'stack': 15}
    >>> t.credits()
    40
"""

from __future__ import annotations

import dataclasses
from typing import Any

from companion.refusal import Refused
from companion.rules.game import BLIND_DRAW
from companion.rules.rulesets import OPTIONS, RuleSet, Trigger, ruleset_from
from companion.scrambler.dice import DICE
from companion.table.betting import MOVER_FIRST
from companion.table.chips import chip_set_from
from companion.table.offers import describe, seat_facts
from companion.table.commands import (
    COMMANDS,
    HOST,
    NAME_MAX,
    SCRAMBLER,
    TABLE_SETTINGS,
    parse,
)
from companion.table.dealt import DealtHand as Game
from companion.table.evening import checked_rules, game_words, rules_spec
from companion.table.play import Refusal
from companion.table.seats import OUTSIDE_A_HAND
from companion.table.state import Betting as BettingRound
from companion.table.state import (
    HISTORY,
    Player,
    TableState,
    copy_json,
    current_step,
    dumps,
    deck_left,
    hand_pot,
    migrate,
    plain,
    pots_of,
    roller_of,
    static_allowance,
    working_copy,
)
from companion.table.turns import antes

__all__ = ["COMMANDS", "HOST", "NAME_MAX", "SCRAMBLER", "Game", "Refused", "Table"]


class Table:
    """One table's whole state: plain data, changed only by `apply`. Deterministic."""

    def __init__(self, state: TableState):
        self._s = state
        self._read_settings()

    def _read_settings(self) -> None:
        """The rule set and chips the settings name (again after a dealer's-choice change)."""
        settings = self._s["settings"]
        self._chips = chip_set_from(settings["chip_set"])
        # The table's own chip set is part of the rules it plays (its rules page shows it).
        self._rules = dataclasses.replace(ruleset_from(settings["rules"]), chip_set=self._chips)
        self.__dict__.pop("_rules_json", None)

    # -- construction and snapshots ---------------------------------------------------------

    @classmethod
    def create(cls, code: str, settings: dict) -> "Table":
        """Validate table settings and return a new, empty table. Raises Refused(422).

        `settings`: `{"rules": preset | {"preset": ..., **options}, **rule-set options at the top
        level, "chip_set"?: [...], "max_seats"?: 2..12}` (docs/table-commands.md).
        """
        if not isinstance(settings, dict):
            raise Refused(422, "the table settings are a JSON object", "settings")
        if not isinstance(code, str) or not code:
            raise Refused(422, "a table needs a code", "code")
        for k in settings:
            if k not in TABLE_SETTINGS and k not in OPTIONS:
                raise Refused(422, f"unknown table setting {k!r}", k)
        if "rules" not in settings:
            raise Refused(422, "choose the rules: a preset name or {\"preset\": ...}", "rules")
        spec = rules_spec(settings["rules"], {k: v for k, v in settings.items() if k in OPTIONS})
        rules, chips = checked_rules(spec, settings.get("chip_set"))
        opening = settings.get("sabacc_pot", 0)
        if isinstance(opening, bool) or not isinstance(opening, int) or not 0 <= opening <= 10**9:
            raise Refused(422, "sabacc_pot (carried from the last session) is a whole number of "
                               "credits, at least 0", "sabacc_pot")
        max_seats = settings.get("max_seats", 8)
        if isinstance(max_seats, bool) or not isinstance(max_seats, int) or not 2 <= max_seats <= 12:
            raise Refused(422, "max_seats must be a whole number from 2 to 12", "max_seats")
        state: TableState = {
            "code": code,
            "version": 0,
            "settings": {"rules": spec, "chip_set": chips, "max_seats": max_seats},
            "seats": {},
            "order": [],
            "departed": {},
            "next_seat": 1,
            "dealer": None,
            "token": None,
            "sabacc_pot": opening,
            "hand_no": 0,
            "hand": None,
            "hands": [],
            "stack_history": [],
            "items": [],
            "ended": False,
            "standings": None,
            "carried_sabacc_pot": 0,
        }
        del rules
        return cls(state)

    def copy(self) -> "Table":
        """An independent copy, cheaper than `from_json(to_json())`: the settled rows of the
        history are shared (they never change once the next hand has started)."""
        twin = object.__new__(type(self))
        twin._s, twin._rules, twin._chips = working_copy(self._s), self._rules, self._chips
        if "_rules_json" in self.__dict__:
            twin._rules_json = self._rules_json
        return twin

    def frozen(self) -> "Table":
        """This version of the table, unchanged whatever the table does next: a twin that
        shares the state itself, made in no time. Safe because no command changes a state in
        place: `apply` works on a copy and then replaces the state with it. Read it (views,
        legal moves); `apply` to it works too, on a copy of its own, leaving this one be."""
        twin = object.__new__(type(self))
        twin._s, twin._rules, twin._chips = self._s, self._rules, self._chips
        # The twins of every version share the table's one rule-set JSON (each working it out
        # again was a quarter of a version's views, issue 19).
        twin._rules_json = self._rules_plain()
        return twin

    def _rules_plain(self) -> dict[str, Any]:
        """The rule set as plain JSON (read only). Worked out once per table and rule set: the
        rule set changes only by dealer's choice (`_read_settings` forgets it), and
        `dataclasses.asdict` of it was a third of an action's time in the engine."""
        cached = self.__dict__.get("_rules_json")
        if cached is None:
            cached = self._rules_json = plain(self._rules.to_json())
        return cached

    def _rules_view(self) -> dict[str, Any]:
        """The rule set as plain JSON for a view: the one shared by every view of the table
        (views are read, never changed; copying it for each version cost more than the rest of
        the public view)."""
        return self._rules_plain()

    def to_json(self) -> dict[str, Any]:
        """The full snapshot (private parts included): `from_json` of it is this table."""
        return copy_json(self._s)

    def snapshot_text(self) -> str:
        """`to_json()` as the ledger stores it (`json.dumps` with compact separators, not
        escaping non-ASCII), made without copying the state. The settled rows of the session's
        history never change (a command copies only the latest, `working_copy`), so each is
        encoded once and its text remembered: at hand 500 a snapshot had cost 21 ms of copying
        and encoding a 477 KB state, at every hand's start (issue 19)."""
        cache: dict[int, tuple[Any, str]] = self.__dict__.setdefault("_row_texts", {})
        parts = []
        rows = 0
        state: dict[str, Any] = dict(self._s)  # its keys and values, read as plain JSON
        for key, value in state.items():
            if key in HISTORY:
                texts = []
                for row in value:
                    hit = cache.get(id(row))
                    if hit is None or hit[0] is not row:
                        hit = cache[id(row)] = (row, dumps(row))
                    texts.append(hit[1])
                rows += len(value)
                parts.append(f"{dumps(key)}:[{','.join(texts)}]")
            else:
                parts.append(f"{dumps(key)}:{dumps(value)}")
        if len(cache) > 2 * rows + 64:  # rows an undo or a new hand replaced: forget them
            keep = {id(row) for key in HISTORY for row in state[key]}
            for gone in [k for k in cache if k not in keep]:
                del cache[gone]
        return "{" + ",".join(parts) + "}"

    @classmethod
    def from_json(cls, data: dict) -> "Table":
        """The table a `to_json` snapshot describes (an older snapshot is migrated)."""
        return cls(migrate(copy_json(data)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Table) and self._s == other._s

    # -- public read-only facts -------------------------------------------------------------

    @property
    def code(self) -> str:
        """The table's code."""
        return self._s["code"]

    @property
    def version(self) -> int:
        """How many entries have been applied since `create`."""
        return self._s["version"]

    @property
    def rules(self) -> RuleSet:
        """The table's rule set."""
        return self._rules

    def seat_ids(self) -> list[str]:
        """The seated players' ids in seat order (clockwise)."""
        return list(self._s["order"])

    def credits(self) -> int:
        """stacks + hand pot (all pots) + sabacc pot: constant except buy-ins, rebuys,
        cash-outs, stakes and host adjustments."""
        s = self._s
        total = sum(seat["stack"] for seat in s["seats"].values()) + s["sabacc_pot"]
        hand = s["hand"]
        # In the survivor's "show" the pots are already paid: only the sabacc pot is still open.
        if hand is not None and hand["stage"] not in ("settled", "show"):
            total += hand_pot(hand)
        return total

    def roll_needed(self, entry: dict) -> Trigger | None:
        """If `entry` is a roll without dice, the Trigger to roll for (the owner fills
        entry["dice"] from the table's roller before `apply`). Else None."""
        if isinstance(entry, dict) and entry.get("type") == "roll" and entry.get("dice") is None:
            return self._rules.scrambler_trigger
        return None

    # -- applying commands ------------------------------------------------------------------

    def apply(self, entry: dict, actor: str | None) -> list[dict]:
        """Validate `entry` from `actor` (a seat id, HOST, SCRAMBLER, or None for a join) and
        apply it. Raises Refused with the state unchanged. Returns the events. Increments
        `version` by one on success."""
        typ, fields = parse(entry)
        game = Game(working_copy(self._s), self._rules, self._chips)
        game.run(typ, fields, actor)
        game.s["version"] += 1
        changed = game.s["settings"] is not self._s["settings"]
        self._s = game.s
        if changed:  # dealer's choice (evening.Evening.cmd_change_rules)
            self._read_settings()
        return game.events

    # -- views ------------------------------------------------------------------------------

    def view(self, seat: str | None = None, *, host: bool = False, history: int | None = None) -> dict:
        """The state as JSON for one viewer: everything public plus that seat's own private
        parts (its entered reveal cards, its legal actions). Never another seat's hidden
        information (cards entered before the reveal completes) — not even for the host.

        `history`: how many of the latest settled hands `stack_history` holds (None: the
        whole session). The API sends phones the latest few, so that what each action
        answers and streams does not grow with the length of the evening."""
        return self.viewer_view(self.public_view(history), seat, host=host)

    def public_view(self, history: int | None = None) -> dict:
        """What every viewer sees alike: `view()` of a spectator. `viewer_view` makes any
        other viewer's from it, so a table with many viewers works this out once."""
        s = self._s
        return {
            "code": s["code"],
            "version": s["version"],
            "rules": self._rules_view(),
            "game": game_words(self._rules),
            "settings": {"chip_set": s["settings"]["chip_set"], "max_seats": s["settings"]["max_seats"]},
            "seats": [self._seat_view(sid) for sid in s["order"]],
            "departed": [{"seat": sid, **d} for sid, d in s["departed"].items()],
            "dealer": s["dealer"],
            "token": s["token"],
            "sabacc_pot": s["sabacc_pot"],
            # What the next hand's antes take from a stack: the phones say when one cannot pay.
            "ante_due": sum(antes(self._rules, s["sabacc_pot"])),
            "hand_no": s["hand_no"],
            "ended": s["ended"],
            "standings": s["standings"],
            "carried_sabacc_pot": s["carried_sabacc_pot"],
            "stack_history": s["stack_history"][-history:] if history else
                             [] if history == 0 else s["stack_history"],
            "hands": s["hands"][-20:],
            "items": s["items"],
            "hand": self._hand_view(None),
        }

    def viewer_view(self, public: dict, seat: str | None = None, *, host: bool = False,
                    legal: list[dict[str, Any]] | None = None) -> dict:
        """`view(seat, host=host)` made from `public` (this table's `public_view`): what
        differs for this viewer — the turn's words ("You"), its private part, the host's
        commands — is its own; every other part is `public`'s own object, shared (read-only,
        for both). `legal`: the seat's legal commands, when already worked out."""
        out = dict(public)
        h = self._s["hand"]
        if seat is not None and h is not None and h["stage"] != "settled":
            words = Game(self._s, self._rules, self._chips).turn_words(seat)
            if words != public["hand"]["words"]:
                out["hand"] = {**public["hand"], "words": words}
        if seat is not None and seat in self._s["seats"]:
            out["you"] = self._private(seat, legal)
        if host:
            out["host_legal"] = self._host_legal()
        return out

    def session(self) -> dict[str, Any]:
        """The whole evening, public parts only (the export): every settled hand's history row
        and the stacks after it, the seats (departed ones too), the final standings."""
        s = self._s
        return {"code": s["code"], "game": game_words(self._rules), "hands": list(s["hands"]),
                "settings": {"chip_set": s["settings"]["chip_set"]},
                "stack_history": list(s["stack_history"]),
                "seats": [self._seat_view(sid) for sid in s["order"]],
                "departed": [{"seat": sid, **d} for sid, d in s["departed"].items()],
                "sabacc_pot": s["sabacc_pot"], "ended": s["ended"], "standings": s["standings"],
                "carried_sabacc_pot": s["carried_sabacc_pot"],
                # Who the odd credits are paid after (the standings' chips: chips.hand_back).
                "dealer": s["dealer"], "token": s["token"], "house_dealer": self._rules.house_dealer}

    def legal(self, seat: str) -> list[dict[str, Any]]:
        """The commands `seat` may send now (what its phone offers; the host console asks for
        the one seat it plays, not every seat on every update)."""
        if seat not in self._s["seats"]:
            raise Refused(404, f"there is no seat {seat!r} at this table", "seat")
        return self._legal(seat)

    def _seat_view(self, sid: str) -> dict[str, Any]:
        seat = self._s["seats"][sid]
        hand = self._s["hand"]
        playing = hand is not None and hand["stage"] != "settled" and sid in hand["p"]
        return {"seat": sid, **{k: seat[k] for k in ("name", "stack", "sitting_out", "side",
                                                     "bought_in", "cashed_out", "adjusted", "items")},
                "playing": playing}

    def _hand_view(self, viewer: str | None) -> dict[str, Any] | None:
        h = self._s["hand"]
        if h is None:
            return None
        complete = h["revealed"]
        step = current_step(h)
        players = []
        for sid in h["players"]:
            p = h["p"][sid]
            players.append({
                "seat": sid,
                "committed": p["committed"],
                "bet": p["bet"],
                "folded": p["folded"],
                "all_in": not p["folded"] and _stack(self._s, sid) == 0,
                "hand_size": p["hand_size"],
                "static": list(p["static"]),
                "entered": p["cards"] is not None,
                "cards": list(p["cards"]) if complete and p["cards"] is not None else None,
                "demise": p["demise"] if h["stage"] == "settled" else None,
            })
        betting = h["betting"]
        owed = (betting["current"] - h["p"][betting["to_act"]]["bet"]) if betting else 0
        game = Game(self._s, self._rules, self._chips)  # read-only here: for the words
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
            # While the survivor chooses to show, the game pot is theirs already (credits()).
            "hand_pot": 0 if h["stage"] == "show" else hand_pot(h),
            "pots": pots_of(h, {sid: seat["stack"] for sid, seat in self._s["seats"].items()}),
            "deck": deck_left(h, self.rules),
            "junk": h["junk"],
            "discard_top": h["discard_top"],
            "last_roll": h["last_roll"],
            "rolls": h["rolls"],
            "shift": h["shift"],
            "demise_players": h["demise_players"],
            "seed_commitment": h["seed_commitment"],
            "seed": h["seed"],
            "settlement": h["settlement"],
        }

    def _private(self, sid: str, legal: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        h = self._s["hand"]
        mine = h["p"].get(sid) if h else None
        return {
            "seat": sid,
            "cards": list(mine["cards"]) if mine and mine["cards"] is not None else None,
            "demise": mine["demise"] if mine else None,
            "legal": self._legal(sid) if legal is None else legal,
        }

    def _legal(self, sid: str) -> list[dict[str, Any]]:
        """The commands `sid` may send now, with amount ranges where they take one.

        Derived from the live state, never by trial on a copy of it (issue 19): the betting
        ranges from what `Betting.mover` (where every betting command begins) finds, the static
        field, the reveal from the state; every other move by the command's own read-only
        check (`Play.answer`), so the list and the command cannot disagree. A check is not
        asked where its first step, shared with other checks and asked once, refuses."""
        s, rules = self._s, self._rules
        out: list[dict[str, Any]] = []
        h = s["hand"]
        stack = s["seats"][sid]["stack"]
        game = self._reader()  # read-only: the commands' checks
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
        simple = ["check", "all_in", "fold", "call_hand", "no_call"] if in_hand else []
        step = current_step(h) if h and h["stage"] == "play" else None
        if not in_hand and step is not None and step["do"] == "call" and step["seat"] == sid:
            simple.append("no_call")  # a turn player who folded in their own turn closes it
        simple += ["sit_out", "sit_in", "leave", "cash_out", "buy_in"]
        if rules.force_sabacc and s["seats"][sid]["side"] is None:
            simple.append("declare_side")  # once, when the player sits down
        for typ in simple:
            if typ in MOVER_FIRST and moving is None or typ in OUTSIDE_A_HAND and playing:
                continue
            fields: dict[str, Any] = {}
            if typ == "buy_in" and rules.buy_in == 0:
                fields["amount"] = 1
            if typ == "declare_side":
                fields["side"] = "light"
            if game.allows(typ, fields, sid):
                item: dict[str, Any] = {"type": typ}
                if typ == "all_in":
                    item["amount"] = stack
                if typ == "buy_in":
                    item["amount"] = rules.buy_in or None
                out.append(item)
        if step is not None and step["do"] == "draw" and step["seat"] == sid:
            for taken in rules.actions:
                # Where the discard pile is face up, a discarding move names its card: checked
                # with any card, offered with "card": true (the phone asks which).
                asks = rules.discard_pile_public and taken.discards > 0
                card = {"card": next(iter(rules.deck.cards))} if asks else {}
                if game.allows("draw", {"action": taken.action, **card}, sid):
                    out.append({"type": "draw", "action": taken.action, **({"card": True} if asks else {})})
        if h and h["stage"] in ("play", "final_roll") and roller_of(h, step) == sid:
            if game.allows("roll", self._any_roll(), sid):
                out.append({"type": "roll"})
        static = static_allowance(s, rules, sid)
        if static["add"]:
            out.append({"type": "static_add"})
        if static["remove"]:
            out.append({"type": "static_remove"})
        if h and h["stage"] == "reveal" and sid in h["p"] and not h["p"][sid]["folded"]:
            p = h["p"][sid]
            if not (h["revealed"] and p["cards"] is not None):  # a face-up hand stands
                out.append({"type": "reveal", "hand_size": p["hand_size"], "static": list(p["static"])})
        if h and h["stage"] == "demise" and sid in h["demise_players"]:
            if sid not in h["demise_public"]:  # a face-up demise card stands
                drawn = h["p"][sid]["blind_draw"]
                # A blind draw that tied again asks for the next card (its number, and the
                # cards drawn before it): the phone starts a new, empty entry.
                out.append({"type": "demise_card", "draw": len(drawn) + 1, "drawn": list(drawn)}
                           if rules.hands.tie == BLIND_DRAW else {"type": "demise_card"})
        if h and h["stage"] == "show" and h["settlement"] is not None and h["settlement"]["winner"] == sid:
            out.append({"type": "show", "hand_size": h["p"][sid]["hand_size"]})
            out.append({"type": "no_show"})
        return describe(out, rules, seat_facts(s, sid))  # each move's words and inputs (offers.py)

    def _reader(self) -> Game:
        """A game that only reads this version of the state (the legal moves' checks): made
        once per version and shared by every seat's list and the host's, with what it found
        out about the version (`Turns.past_window`). A new state (`apply`) gets a new one."""
        game = self.__dict__.get("_game")
        if game is None or game.s is not self._s:
            game = self._game = Game(self._s, self._rules, self._chips)
        return game

    def _any_roll(self) -> dict[str, Any]:
        """A roll's fields with dice of the table's trigger (which faces does not matter to
        whether a roll is due: the owner rolls the real ones)."""
        return {"dice": [1] * DICE.get(self._rules.scrambler_trigger, (0, 0))[0]}

    def _host_legal(self) -> list[str]:
        """The host's commands of the hand and the session that may be sent now (checked on
        the live state, as a seat's moves are)."""
        game = self._reader()
        out = [typ for typ in ("start_hand", "end_session", "no_call") if game.allows(typ, {}, HOST)]
        if game.allows("roll", self._any_roll(), HOST):
            out.append("roll")
        return out


def _stack(s: TableState, sid: str) -> int:
    """A seat's stack; 0 for a player dealt into the hand who has left the table since."""
    seat = s["seats"].get(sid)
    return seat["stack"] if seat is not None else 0
