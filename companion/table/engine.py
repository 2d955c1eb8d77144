"""The live table's hand engine: one table's whole state, changed only by commands.

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
import re
from collections import Counter
from typing import Any

from companion.rules import cards as deck
from companion.rules.rulesets import (
    OPTIONS,
    AfterCall,
    AnteRule,
    InvalidRules,
    OrderOfPlay,
    Phase,
    RuleSet,
    ShiftKind,
    Side,
    StaticField,
    Trigger,
    Who,
    ruleset_from,
)
from companion.refusal import Refused
from companion.rules.settle import InvalidReveal, PlayerReveal, build_pots, settle
from companion.scrambler.dice import DICE, judge
from companion.table.chips import InvalidChips, breakdown, chip_set_from, chip_set_to_json

HOST = "host"  # actor for host commands
SCRAMBLER = "scrambler"  # actor for rolls from the GPIO button / USB box / on-screen scrambler / timer
#: A seat's name: long enough for "Lando Calrissian of Cloud City"; the engine settles by seat
#: id, so the payout calculator's 24-character limit does not apply here.
NAME_MAX = 40

#: Seat ids are "s1", "s2", ... in join order.
_SEAT_ID = re.compile(r"^s[1-9][0-9]*$")
_HEX = {"type": "string", "pattern": "^[0-9a-fA-F]{1,128}$"}


def _obj(props: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(required),
            "additionalProperties": False}


_FOR_SEAT = {"seat": {"type": "string", "description": "host only: the seat acted for"}}
_CARD = {"type": "string", "minLength": 1, "maxLength": 20}

#: Every command type -> the JSON Schema of its fields (besides "type"); see docs/table-commands.md.
COMMANDS: dict[str, dict[str, Any]] = {
    # seats and session
    "join": _obj({"name": {"type": "string", "minLength": 1, "maxLength": NAME_MAX}}, ("name",)),
    "buy_in": _obj({**_FOR_SEAT, "amount": {"type": "integer", "minimum": 1}}),
    "cash_out": _obj({**_FOR_SEAT, "amount": {"type": "integer", "minimum": 1}}),
    "leave": _obj(dict(_FOR_SEAT)),
    "sit_out": _obj(dict(_FOR_SEAT)),
    "sit_in": _obj(dict(_FOR_SEAT)),
    "declare_side": _obj({**_FOR_SEAT, "side": {"type": "string", "enum": ["light", "dark"]}},
                         ("side",)),
    "reorder": _obj({"order": {"type": "array", "items": {"type": "string"}, "maxItems": 24}},
                    ("order",)),
    "set_dealer": _obj({"seat": {"type": ["string", "null"]}}, ("seat",)),
    "set_token": _obj({"seat": {"type": "string"}}, ("seat",)),
    "adjust": _obj({"seat": {"type": "string"}, "amount": {"type": "integer"},
                    "reason": {"type": "string", "minLength": 1, "maxLength": 200}},
                   ("seat", "amount", "reason")),
    "stake": _obj({"seat": {"type": "string"},
                   "item": {"type": "string", "minLength": 1, "maxLength": 60},
                   "value": {"type": "integer", "minimum": 1}}, ("seat", "item", "value")),
    "end_session": _obj({}),
    # the hand
    "start_hand": _obj({"seed_commitment": _HEX}),
    "check": _obj(dict(_FOR_SEAT)),
    "bet": _obj({**_FOR_SEAT, "amount": {"type": "integer", "minimum": 1}}, ("amount",)),
    "call": _obj(dict(_FOR_SEAT)),
    "raise": _obj({**_FOR_SEAT, "to": {"type": "integer", "minimum": 1,
                                       "description": "raise TO: this round's bet total"}},
                  ("to",)),
    "all_in": _obj(dict(_FOR_SEAT)),
    "fold": _obj(dict(_FOR_SEAT)),
    "roll": _obj({"dice": {"type": ["array", "null"], "maxItems": 3,
                           "items": {"type": "integer", "minimum": 1, "maximum": 20}}}),
    "call_hand": _obj(dict(_FOR_SEAT)),
    "no_call": _obj(dict(_FOR_SEAT)),
    "draw": _obj({**_FOR_SEAT, "action": {"type": "string", "enum": ["gain", "trade", "stand"]}},
                 ("action",)),
    "static_add": _obj({**_FOR_SEAT, "card": _CARD}, ("card",)),
    "static_remove": _obj({**_FOR_SEAT, "card": _CARD}, ("card",)),
    "reveal": _obj({**_FOR_SEAT, "cards": {"type": "array", "items": _CARD, "maxItems": 60}},
                   ("cards",)),
    "demise_card": _obj({**_FOR_SEAT, "card": _CARD}, ("card",)),
    "reveal_seed": _obj({"seed": _HEX}, ("seed",)),
}

#: Fields the server may leave on an entry; they are not the engine's business.
_TRANSPORT_FIELDS = {"type", "version", "idempotency_key"}
_STATIC_COMMANDS = {"static_add", "static_remove"}
_HOST_ONLY = {"reorder", "set_dealer", "set_token", "adjust", "stake", "end_session", "start_hand"}
_TABLE_SETTINGS = {"rules", "chip_set", "max_seats"}


def _is_type(v: Any, t: str) -> bool:
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    return {"string": str, "array": list, "null": type(None), "object": dict,
            "boolean": bool}[t] is type(v)


def _check_value(v: Any, schema: dict[str, Any], path: str) -> None:
    types = schema.get("type")
    types = types if isinstance(types, list) else [types]
    if not any(_is_type(v, t) for t in types):
        raise Refused(422, f"{path} must be {' or '.join(types)}", path)
    if isinstance(v, str):
        if len(v) < schema.get("minLength", 0) or len(v) > schema.get("maxLength", 10**6):
            raise Refused(422, f"{path} must have {schema.get('minLength', 0)} to "
                               f"{schema.get('maxLength')} characters", path)
        if "enum" in schema and v not in schema["enum"]:
            raise Refused(422, f"{path} must be one of " + ", ".join(schema["enum"]), path)
        if "pattern" in schema and not re.match(schema["pattern"], v):
            raise Refused(422, f"{path} must be hexadecimal (1 to 128 digits)", path)
    elif isinstance(v, int) and not isinstance(v, bool):
        if v < schema.get("minimum", -(10**12)) or v > schema.get("maximum", 10**12):
            raise Refused(422, f"{path} must be between {schema.get('minimum', -(10**12))} "
                               f"and {schema.get('maximum', 10**12)}", path)
    elif isinstance(v, list):
        if len(v) > schema.get("maxItems", 10**6):
            raise Refused(422, f"{path} has too many items", path)
        for i, item in enumerate(v):
            _check_value(item, schema["items"], f"{path}[{i}]")


def _parse(entry: Any) -> tuple[str, dict[str, Any]]:
    """Check an entry's shape against `COMMANDS`; return its type and fields."""
    if not isinstance(entry, dict):
        raise Refused(400, "a command is a JSON object with a type", None)
    typ = entry.get("type")
    if typ not in COMMANDS:
        raise Refused(400, f"unknown command type {typ!r}", "type")
    schema = COMMANDS[typ]
    fields = {k: v for k, v in entry.items() if k not in _TRANSPORT_FIELDS}
    for k, v in fields.items():
        if k not in schema["properties"]:
            raise Refused(422, f"{typ} has no field {k!r}", k)
        _check_value(v, schema["properties"][k], k)
    for k in schema["required"]:
        if k not in fields:
            raise Refused(422, f"{typ} needs the field {k!r}", k)
    return typ, fields


def _copy(v: Any) -> Any:
    """A deep copy of plain JSON data (much faster than copy.deepcopy for the state)."""
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v


#: The history of settled hands: lists that only grow, by one row at the end of each hand.
_HISTORY = ("hands", "stack_history")


def _working_copy(state: dict[str, Any]) -> dict[str, Any]:
    """The copy of the state a command is tried on: deep, except that the settled rows of the
    history are shared (only the latest row can still change: `reveal_seed`). Copying the
    whole history made every command, and every legal-action check of a view, cost more the
    longer the session ran (the benchmark's growth_ratio: 70x slower views at hand 500)."""
    out = {k: v if k in _HISTORY else _copy(v) for k, v in state.items()}
    for k in _HISTORY:
        rows = state[k]
        out[k] = rows[:-1] + [_copy(rows[-1])] if rows else []
    return out


def _join(words: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1] if words else ""


def _words_cards(n: int) -> str:
    return "card" if n == 1 else f"{n} cards"


class Table:
    """One table's whole state: plain data, changed only by `apply`. Deterministic."""

    #: Commands whose fields are hidden from the other players (the cards a player enters):
    #: nothing said to anyone else (the host's refused undo included) may quote their refusal.
    PRIVATE_COMMANDS = frozenset({"reveal", "demise_card"})

    def __init__(self, state: dict[str, Any]):
        self._s = state
        self._chips = chip_set_from(state["settings"]["chip_set"])
        # The table's own chip set is part of the rules it plays (its rules page shows it).
        self._rules = dataclasses.replace(ruleset_from(state["settings"]["rules"]), chip_set=self._chips)

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
            if k not in _TABLE_SETTINGS and k not in OPTIONS:
                raise Refused(422, f"unknown table setting {k!r}", k)
        if "rules" not in settings:
            raise Refused(422, "choose the rules: a preset name or {\"preset\": ...}", "rules")
        spec = settings["rules"]
        spec = {"preset": spec} if isinstance(spec, str) else spec
        if not isinstance(spec, dict):
            raise Refused(422, "rules must be a preset name or an object with a preset", "rules")
        spec = dict(spec)
        for k, v in settings.items():
            if k in OPTIONS:
                if k in spec:
                    raise Refused(422, f"{k} is given twice (top level and in rules)", k)
                spec[k] = v
        try:
            rules = ruleset_from(spec)
        except InvalidRules as exc:
            raise Refused(422, exc.message, exc.field) from None
        try:
            chips = chip_set_from(settings["chip_set"]) if "chip_set" in settings else rules.chip_set
        except InvalidChips as exc:
            raise Refused(422, exc.message, exc.field) from None
        max_seats = settings.get("max_seats", 8)
        if isinstance(max_seats, bool) or not isinstance(max_seats, int) or not 2 <= max_seats <= 12:
            raise Refused(422, "max_seats must be a whole number from 2 to 12", "max_seats")
        state = {
            "code": code,
            "version": 0,
            "settings": {"rules": spec, "chip_set": chip_set_to_json(chips), "max_seats": max_seats},
            "seats": {},
            "order": [],
            "departed": {},
            "next_seat": 1,
            "dealer": None,
            "token": None,
            "sabacc_pot": 0,
            "hand_no": 0,
            "hand": None,
            "hands": [],
            "stack_history": [],
            "items": [],
            "ended": False,
            "standings": None,
        }
        del rules
        return cls(state)

    def copy(self) -> "Table":
        """An independent copy, cheaper than `from_json(to_json())`: the settled rows of the
        history are shared (they never change once the next hand has started)."""
        twin = object.__new__(type(self))
        twin._s, twin._rules, twin._chips = _working_copy(self._s), self._rules, self._chips
        if "_rules_json" in self.__dict__:
            twin._rules_json = self._rules_json
        return twin

    def _rules_view(self) -> dict[str, Any]:
        """The rule set as plain JSON for a view. Worked out once per table: the rule set never
        changes, and `dataclasses.asdict` of it was a third of an action's time in the
        engine (the benchmark's overhead_ratio)."""
        cached = self.__dict__.get("_rules_json")
        if cached is None:
            cached = self._rules_json = _plain(self._rules.to_json())
        return _copy(cached)

    def to_json(self) -> dict[str, Any]:
        """The full snapshot (private parts included): `from_json` of it is this table."""
        return _copy(self._s)

    @classmethod
    def from_json(cls, data: dict) -> "Table":
        """The table a `to_json` snapshot describes (an older snapshot is migrated)."""
        return cls(_migrate(_copy(data)))

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
        if hand is not None and hand["stage"] != "settled":
            total += sum(p["committed"] for p in hand["p"].values())
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
        typ, fields = _parse(entry)
        game = _Game(_working_copy(self._s), self._rules, self._chips)
        game.run(typ, fields, actor)
        game.s["version"] += 1
        self._s = game.s
        return game.events

    def _try(self, entry: dict, actor: str | None) -> bool:
        """Whether `entry` would be accepted now (used for the legal actions of a view)."""
        try:
            typ, fields = _parse(entry)
            _Game(_working_copy(self._s), self._rules, self._chips).run(typ, fields, actor)
        except Refused:
            return False
        return True

    # -- views ------------------------------------------------------------------------------

    def view(self, seat: str | None = None, *, host: bool = False, history: int | None = None) -> dict:
        """The state as JSON for one viewer: everything public plus that seat's own private
        parts (its entered reveal cards, its legal actions). Never another seat's hidden
        information (cards entered before the reveal completes) — not even for the host.

        `history`: how many of the latest settled hands `stack_history` holds (None: the
        whole session). The API sends phones the latest few, so that what each action
        answers and streams does not grow with the length of the evening."""
        s = self._s
        out: dict[str, Any] = {
            "code": s["code"],
            "version": s["version"],
            "rules": self._rules_view(),
            "settings": {"chip_set": s["settings"]["chip_set"], "max_seats": s["settings"]["max_seats"]},
            "seats": [self._seat_view(sid) for sid in s["order"]],
            "departed": [{"seat": sid, **d} for sid, d in s["departed"].items()],
            "dealer": s["dealer"],
            "token": s["token"],
            "sabacc_pot": s["sabacc_pot"],
            "hand_no": s["hand_no"],
            "ended": s["ended"],
            "standings": s["standings"],
            "stack_history": s["stack_history"][-history:] if history else
                             [] if history == 0 else s["stack_history"],
            "hands": s["hands"][-20:],
            "items": s["items"],
            "hand": self._hand_view(seat),
        }
        if seat is not None and seat in s["seats"]:
            out["you"] = self._private(seat)
        if host:
            out["host_legal"] = self._host_legal()
        return out

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
        step = _current_step(h)
        players = []
        for sid in h["players"]:
            p = h["p"][sid]
            players.append({
                "seat": sid,
                "committed": p["committed"],
                "bet": p["bet"],
                "folded": p["folded"],
                "all_in": not p["folded"] and self._s["seats"].get(sid, {}).get("stack", 0) == 0,
                "hand_size": p["hand_size"],
                "static": list(p["static"]),
                "entered": p["cards"] is not None,
                "cards": list(p["cards"]) if complete and p["cards"] is not None else None,
                "demise": p["demise"] if h["stage"] == "settled" else None,
            })
        betting = h["betting"]
        owed = (betting["current"] - h["p"][betting["to_act"]]["bet"]) if betting else 0
        game = _Game(self._s, self._rules, self._chips)  # read-only here: for the words
        return {
            "no": h["no"],
            "stage": h["stage"],
            "round": h["round"],
            "phase": step["phase"] if step and h["stage"] == "play" else None,
            "turn": h["turn_of"] if h["stage"] == "play" else None,
            "do": step["do"] if step and h["stage"] == "play" else
                  ("roll" if h["stage"] == "final_roll" else None),
            "roller": _roller(h, step) if h["stage"] in ("play", "final_roll") else None,
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
            "hand_pot": sum(p["committed"] for p in h["p"].values()),
            "pots": _pots(h),
            "deck": _deck_left(h, self.rules),
            "junk": h["junk"],
            "last_roll": h["last_roll"],
            "rolls": h["rolls"],
            "shift": h["shift"],
            "demise_players": h["demise_players"],
            "seed_commitment": h["seed_commitment"],
            "seed": h["seed"],
            "settlement": h["settlement"],
        }

    def _private(self, sid: str) -> dict[str, Any]:
        h = self._s["hand"]
        mine = h["p"].get(sid) if h else None
        return {
            "seat": sid,
            "cards": list(mine["cards"]) if mine and mine["cards"] is not None else None,
            "demise": mine["demise"] if mine else None,
            "legal": self._legal(sid),
        }

    def _legal(self, sid: str) -> list[dict[str, Any]]:
        """The commands `sid` may send now, with amount ranges where they take one."""
        s, rules = self._s, self._rules
        out: list[dict[str, Any]] = []
        h = s["hand"]
        stack = s["seats"][sid]["stack"]
        betting = h["betting"] if h and h["stage"] == "play" else None
        if betting and betting["to_act"] == sid:
            mine = h["p"][sid]
            cur, limit = betting["current"], rules.bet_limit
            if cur == 0 and (betting["opener"] in (None, sid)) and stack >= 1:
                out.append({"type": "bet", "min": 1, "max": min(stack, limit or stack)})
            if cur > 0:
                hi = min(cur + (limit or stack), mine["bet"] + stack)
                if hi > cur:
                    out.append({"type": "raise", "min_to": cur + 1, "max_to": hi})
            if cur > mine["bet"] and cur - mine["bet"] <= stack:
                out.append({"type": "call", "amount": cur - mine["bet"]})
        in_hand = h is not None and h["stage"] == "play" and sid in h["p"] and not h["p"][sid]["folded"]
        simple = ["check", "all_in", "fold", "call_hand", "no_call"] if in_hand else []
        if in_hand and stack == 0:
            simple.remove("fold")  # all-in: nothing to fold for, so it is not offered
        step = _current_step(h) if h and h["stage"] == "play" else None
        if not in_hand and step is not None and step["do"] == "call" and step["seat"] == sid:
            simple.append("no_call")  # a turn player who folded in their own turn closes it
        simple += ["sit_out", "sit_in", "leave", "cash_out", "buy_in"]
        if rules.force_sabacc and s["seats"][sid]["side"] is None:
            simple.append("declare_side")  # once, when the player sits down
        for typ in simple:
            entry: dict[str, Any] = {"type": typ}
            if typ == "buy_in" and rules.buy_in == 0:
                entry["amount"] = 1
            if typ == "declare_side":
                entry["side"] = "light"
            if self._try(entry, sid):
                item: dict[str, Any] = {"type": typ}
                if typ == "all_in":
                    item["amount"] = stack
                if typ == "buy_in":
                    item["amount"] = rules.buy_in or None
                out.append(item)
        if step is not None and step["do"] == "draw" and step["seat"] == sid:
            for action in ("gain", "trade", "stand"):
                if self._try({"type": "draw", "action": action}, sid):
                    out.append({"type": "draw", "action": action})
        if h and h["stage"] in ("play", "final_roll") and _roller(h, step) == sid:
            count = DICE.get(rules.scrambler_trigger, (0, 0))[0]
            if self._try({"type": "roll", "dice": [1] * count}, sid):
                out.append({"type": "roll"})
        static = _static_allowance(s, rules, sid)
        if static["add"]:
            out.append({"type": "static_add"})
        if static["remove"]:
            out.append({"type": "static_remove"})
        if h and h["stage"] == "reveal" and sid in h["p"] and not h["p"][sid]["folded"]:
            p = h["p"][sid]
            if not (h["revealed"] and p["cards"] is not None):  # a face-up hand stands
                out.append({"type": "reveal", "hand_size": p["hand_size"], "static": list(p["static"])})
        if h and h["stage"] == "demise" and sid in h["demise_players"]:
            if not (h.get("demise_shown") and h["p"][sid]["demise"]):
                out.append({"type": "demise_card"})
        return out

    def _host_legal(self) -> list[str]:
        out = []
        for typ in ("start_hand", "end_session", "no_call"):
            if self._try({"type": typ}, HOST):
                out.append(typ)
        count = DICE.get(self._rules.scrambler_trigger, (0, 0))[0]
        if self._try({"type": "roll", "dice": [1] * count}, HOST):
            out.append("roll")
        return out


def _plain(v: Any) -> Any:
    """Enums and tuples inside `RuleSet.to_json` as plain JSON values."""
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if hasattr(v, "value") and not isinstance(v, (int, str)):
        return v.value
    if isinstance(v, str):
        return str(v)
    return v


def _current_step(h: dict[str, Any]) -> dict[str, Any] | None:
    if 0 <= h["step"] < len(h["steps"]):
        return h["steps"][h["step"]]
    return None


def _roller(h: dict[str, Any], step: dict[str, Any] | None) -> str | None:
    """Who rolls now: the final roll and the dice phase are the dealer's; else the turn player."""
    if h["stage"] == "final_roll":
        return h["dealer"]
    if step and step["do"] == "roll":
        return step["seat"]
    return None


def _deck_left(h: dict[str, Any], rules: RuleSet) -> int:
    """Cards left in the draw pile: the deck minus every live hand and the junk pile."""
    held = sum(p["hand_size"] for p in h["p"].values() if not p["folded"])
    return deck.deck_count(corellia_run=rules.corellia_run) - held - h["junk"]


def _pots(h: dict[str, Any]) -> list[dict[str, Any]]:
    """The hand pot and side pots, derived from the commitments by the rules engine's
    `build_pots` (the same derivation that settles the hand)."""
    committed = {sid: h["p"][sid]["committed"] for sid in h["players"]}
    folded = [sid for sid in h["players"] if h["p"][sid]["folded"]]
    return [{"amount": pot.amount, "eligible": list(pot.eligible)}
            for pot in build_pots(committed, folded)]


def _static_turn(h: dict[str, Any], sid: str) -> int | None:
    """The turn in which `sid` may change their static field now: their own turn, or the turn
    they just drew in, until the next player acts or the next phase begins (the static-field
    timing ruling: a player can lock the card they just drew). None: not now."""
    if h["turn_of"] == sid:
        return h["turn_no"]
    drew = h.get("drew_last")
    return drew["turn"] if drew and drew["seat"] == sid else None


def _static_allowance(s: dict[str, Any], rules: RuleSet, sid: str) -> dict[str, bool]:
    """Whether `sid` may add / remove a static-field card now (RuleSet.static_field)."""
    no = {"add": False, "remove": False}
    h = s["hand"]
    if rules.static_field is StaticField.NONE or h is None or h["stage"] != "play":
        return no
    p = h["p"].get(sid)
    step = _current_step(h)
    if p is None or p["folded"] or step is None or h["called_by"] is not None:
        return no
    room = len(p["static"]) < p["hand_size"]
    if rules.static_field is StaticField.FREE:
        # classic: any time during play, in or out of turn, until the hand is called.
        return {"add": room, "remove": bool(p["static"])}
    turn = _static_turn(h, sid)
    if turn is None:
        return no
    if rules.static_field is StaticField.ONE_IN_ONE_OUT_PLAY_ROUND and step["phase"] != Phase.PLAY.value:
        return no
    added, removed = (p["added"], p["removed"]) if p["static_turn"] == turn else (0, 0)
    if rules.static_field is StaticField.ONE_CHANGE_PER_TURN:
        free = added + removed == 0
        return {"add": free and room, "remove": free and bool(p["static"])}
    return {"add": added == 0 and room, "remove": removed == 0 and bool(p["static"])}


class _Game:
    """One command being applied to a private copy of the state (discarded if refused)."""

    def __init__(self, s: dict[str, Any], rules: RuleSet, chips):
        self.s, self.rules, self.chips = s, rules, chips
        self.events: list[dict[str, Any]] = []

    def emit(self, type_: str, **fields: Any) -> None:
        self.events.append({"type": type_, **fields})

    # -- helpers ----------------------------------------------------------------------------

    @property
    def hand(self) -> dict[str, Any] | None:
        return self.s["hand"]

    def in_hand(self) -> bool:
        h = self.hand
        return h is not None and h["stage"] != "settled"

    def plays(self, sid: str) -> bool:
        """Whether `sid` is dealt into the running hand (folded or not)."""
        return self.in_hand() and sid in self.hand["p"]

    def name(self, sid: str) -> str:
        return self.s["seats"][sid]["name"] if sid in self.s["seats"] else sid

    def stack(self, sid: str) -> int:
        return self.s["seats"][sid]["stack"]

    def pay(self, sid: str, amount: int) -> None:
        """Move `amount` from the seat's stack into its commitment (the hand pot)."""
        self.s["seats"][sid]["stack"] -= amount
        p = self.hand["p"][sid]
        p["committed"] += amount
        p["bet"] += amount

    def who(self, fields: dict[str, Any], actor: str | None) -> str:
        """The seat a seat command is for: the actor's own, or the one the host names."""
        seat = fields.get("seat")
        if actor == HOST:
            if seat is None:
                raise Refused(400, "the host must name the seat it acts for", "seat")
            if seat not in self.s["seats"]:
                raise Refused(422, f"no seat {seat!r} at this table", "seat")
            return seat
        if actor in self.s["seats"]:
            if seat is not None and seat != actor:
                raise Refused(403, "you can only act for your own seat", "seat")
            return actor
        raise Refused(403, "only a seated player (or the host for them) can do this", None)

    def need_host(self, actor: str | None) -> None:
        if actor != HOST:
            raise Refused(403, "only the host can do this", None)

    def need_between_hands(self) -> None:
        if self.in_hand():
            raise Refused(409, "not while a hand is being played", None)

    def need_not_ended(self) -> None:
        if self.s["ended"]:
            raise Refused(409, "the session has ended", None)

    def need_play(self) -> dict[str, Any]:
        h = self.hand
        if not self.in_hand():
            raise Refused(409, "no hand is being played", None)
        if h["stage"] != "play":
            raise Refused(409, f"not now: the hand is at the {h['stage'].replace('_', ' ')}", None)
        return h

    def in_play(self, sid: str) -> dict[str, Any]:
        """The hand record of a seat that is still in the hand (dealt in, not folded)."""
        h = self.hand
        if sid not in h["p"]:
            raise Refused(409, "you are not dealt into this hand", None)
        p = h["p"][sid]
        if p["folded"]:
            raise Refused(409, "you have folded this hand", None)
        return p

    def turn_words(self, viewer: str | None) -> str:
        """Whose move it is and what they do, in words, for `viewer` ("You" for their own seat).
        What a player owes is their own amount, not the round's bet (a "call 10" to a player who
        already put in 5 was wrong: they call 5)."""
        h = self.hand

        def who(sid: str | None) -> str:
            return "You" if sid is not None and sid == viewer else \
                self.name(sid) if sid else "The dealer"

        if h["stage"] == "reveal":
            waiting = [who(x) for x in self.live() if h["p"][x]["cards"] is None]
            return f"The reveal: waiting for {_join(waiting)} to enter their cards."
        if h["stage"] == "demise":
            waiting = [who(x) for x in h["demise_players"] if not h["p"][x]["demise"]]
            return f"Sudden demise: waiting for {_join(waiting)} to enter one more card."
        if h["stage"] == "final_roll":
            return f"{who(h['dealer'])}: roll the scrambler one last time."
        b, st = h["betting"], _current_step(h)
        if b is not None:
            owed = b["current"] - h["p"][b["to_act"]]["bet"]
            what = (f"call {owed}, raise, go all-in or fold" if owed > 0 else
                    "check, raise or fold" if b["current"] else "bet or check")
            return f"{who(b['to_act'])}: {what}."
        if st is None:
            return ""
        if st["do"] == "roll":
            return f"{who(_roller(h, st))}: roll the scrambler."
        if st["do"] == "call" and st["seat"] is None:
            return f"Call window: {_join([who(x) for x in self.call_window()])} may call the hand or pass."
        if st["do"] == "call":
            return f"{who(st['seat'])}'s turn is done: the others may call the hand now."
        if st["do"] == "draw":
            then = " The others may call the hand until then." if h["call_open"] else ""
            return f"{who(st['seat'])}: gain a card, trade one or stand.{then}"
        return f"{who(st['seat'])}: {st['do']}."

    def need_in_play_deck(self, code: str, field: str) -> None:
        """Refuse a card the variant in play sets aside (Corellia Run), wherever it is entered."""
        name = deck.set_aside_name(code, corellia_run=self.rules.corellia_run)
        if name is not None:
            raise Refused(422, f"{name} is set aside in Corellia Run", field)

    def deal_job(self, counts: dict[str, int]) -> None:
        """The dealer's latest job (view()["hand"]["deal"]): cards to deal to each seat."""
        self.hand["deal"] = [{"seat": sid, "cards": n,
                              "words": f"Deal {self.name(sid)} {n} card{'' if n == 1 else 's'}"}
                             for sid, n in counts.items() if n > 0]

    def seat_ref(self, seat: Any, field: str = "seat") -> str:
        if seat not in self.s["seats"]:
            raise Refused(422, f"no seat {seat!r} at this table", field)
        return seat

    def run(self, typ: str, f: dict[str, Any], actor: str | None) -> None:
        if actor not in (None, HOST, SCRAMBLER, "guest") and actor not in self.s["seats"]:
            raise Refused(403, f"unknown actor {actor!r}", None)
        if typ in _HOST_ONLY:
            self.need_host(actor)
        h = self.hand
        if h is not None and h.get("drew_last") and typ not in _STATIC_COMMANDS:
            h["drew_last"] = None  # the next player acts: the drawer's static window closes
        getattr(self, "cmd_" + typ)(f, actor)

    # -- seats and session ------------------------------------------------------------------

    def cmd_join(self, f: dict[str, Any], actor: str | None) -> None:
        self.need_not_ended()
        name = f["name"].strip()
        if not 1 <= len(name) <= NAME_MAX or not name.isprintable():
            raise Refused(422, f"a name has 1 to {NAME_MAX} printable characters", "name")
        if any(seat["name"].casefold() == name.casefold() for seat in self.s["seats"].values()):
            raise Refused(422, f"{name!r} is already taken at this table", "name")
        if len(self.s["order"]) >= self.s["settings"]["max_seats"]:
            raise Refused(409, "the table is full", None)
        sid = f"s{self.s['next_seat']}"
        self.s["next_seat"] += 1
        self.s["seats"][sid] = {"name": name, "stack": 0, "sitting_out": False, "side": None,
                                "bought_in": 0, "cashed_out": 0, "adjusted": 0, "items": 0}
        self.s["order"].append(sid)
        self.emit("joined", seat=sid, name=name)

    def not_in_running_hand(self, sid: str) -> None:
        if self.plays(sid):
            raise Refused(409, "not while you are playing a hand", None)

    def cmd_buy_in(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.who(f, actor)
        self.need_not_ended()
        self.not_in_running_hand(sid)
        fixed = self.rules.buy_in
        amount = f.get("amount")
        if fixed:
            if amount not in (None, fixed):
                raise Refused(422, f"the buy-in at this table is {fixed} credits", "amount")
            amount = fixed
        elif amount is None:
            raise Refused(422, "say how many credits you buy in for", "amount")
        seat = self.s["seats"][sid]
        seat["stack"] += amount
        seat["bought_in"] += amount
        self.emit("bought_in", seat=sid, amount=amount, stack=seat["stack"])

    def cash_out(self, sid: str, amount: int) -> None:
        seat = self.s["seats"][sid]
        seat["stack"] -= amount
        seat["cashed_out"] += amount
        self.emit("cashed_out", seat=sid, amount=amount, stack=seat["stack"],
                  **{k: v for k, v in breakdown(amount, self.chips).to_json().items() if k != "amount"},
                  items=list(self.s["items"]))

    def cmd_cash_out(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.who(f, actor)
        self.not_in_running_hand(sid)
        stack = self.stack(sid)
        amount = f.get("amount", stack)
        if amount < 1 or amount > stack:
            raise Refused(422, f"you can cash out 1 to {stack} credits", "amount")
        self.cash_out(sid, amount)

    def cmd_leave(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.who(f, actor)
        self.not_in_running_hand(sid)
        if self.stack(sid):
            self.cash_out(sid, self.stack(sid))
        order = self.s["order"]
        i = order.index(sid)
        nxt = order[(i + 1) % len(order)] if len(order) > 1 else None
        for role in ("dealer", "token"):
            if self.s[role] == sid:
                self.s[role] = nxt
        order.remove(sid)
        self.s["departed"][sid] = self.s["seats"].pop(sid)
        self.emit("left", seat=sid, name=self.s["departed"][sid]["name"])

    def cmd_sit_out(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.who(f, actor)
        self.s["seats"][sid]["sitting_out"] = True
        self.emit("sat_out", seat=sid)

    def cmd_sit_in(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.who(f, actor)
        if not self.s["seats"][sid]["sitting_out"]:
            raise Refused(409, "you are not sitting out", None)
        self.s["seats"][sid]["sitting_out"] = False
        self.emit("sat_in", seat=sid)

    def cmd_declare_side(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.who(f, actor)
        if not self.rules.force_sabacc:
            raise Refused(409, "sides are declared only in Force Sabacc", "side")
        self.not_in_running_hand(sid)
        side = self.s["seats"][sid]["side"]
        if side is not None:
            # Declared once, when the player sits down; only the host may correct it, and only
            # before the player's first hand of the session.
            if actor != HOST:
                raise Refused(409, f"you declared {side}: a side cannot change", "side")
            if any(sid in row["players"] for row in self.s["hands"]):
                raise Refused(409, f"{self.name(sid)} has played a hand as {side}: "
                                   f"the side cannot change now", "side")
        self.s["seats"][sid]["side"] = f["side"]
        self.emit("side_declared", seat=sid, side=f["side"])

    def cmd_reorder(self, f: dict[str, Any], actor: str | None) -> None:
        self.need_between_hands()
        order = f["order"]
        if sorted(order) != sorted(self.s["order"]) or len(set(order)) != len(order):
            raise Refused(422, "list every seat exactly once", "order")
        self.s["order"] = list(order)
        self.emit("seats_reordered", order=list(order))

    def cmd_set_dealer(self, f: dict[str, Any], actor: str | None) -> None:
        self.need_between_hands()
        seat = f["seat"]
        if seat is None and not self.rules.house_dealer:
            raise Refused(422, "name the seat that deals next", "seat")
        if seat is not None:
            self.seat_ref(seat)
        self.s["dealer"] = seat
        self.emit("dealer_set", seat=seat)

    def cmd_set_token(self, f: dict[str, Any], actor: str | None) -> None:
        self.need_between_hands()
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
        # A buy-in in kind: the item buys `value` credits, committed to the hand pot at once.
        # In a betting round it counts toward the seat's bet like credits (the Plutt ruling):
        # it can match a bet, and over the current bet it is a bet or raise the others answer.
        self.s["seats"][sid]["items"] += value
        p["committed"] += value
        b = h["betting"]
        if b is not None:
            p["bet"] += value
            if p["bet"] > b["current"]:
                b["current"] = p["bet"]
                self.reopen(sid)
        self.s["items"].append({"hand": h["no"], "seat": sid, "item": item, "value": value})
        self.emit("staked", seat=sid, item=item, value=value, committed=p["committed"])

    def cmd_end_session(self, f: dict[str, Any], actor: str | None) -> None:
        self.need_between_hands()
        self.need_not_ended()
        rows = []
        every = [(sid, self.s["seats"][sid]) for sid in self.s["order"]]
        every += list(self.s["departed"].items())
        for sid, seat in every:
            net = seat["stack"] + seat["cashed_out"] - seat["bought_in"] - seat["items"] - seat["adjusted"]
            rows.append({"seat": sid, "name": seat["name"], "stack": seat["stack"],
                         "bought_in": seat["bought_in"], "cashed_out": seat["cashed_out"],
                         "items": seat["items"], "adjusted": seat["adjusted"], "net": net})
        rows.sort(key=lambda r: -r["net"])  # stable: seat order among equals
        self.s["ended"] = True
        self.s["standings"] = rows
        self.emit("session_ended", standings=rows)

    # -- starting a hand --------------------------------------------------------------------

    def cmd_start_hand(self, f: dict[str, Any], actor: str | None) -> None:
        self.need_not_ended()
        self.need_between_hands()
        rules, s = self.rules, self.s
        order = s["order"]
        sabacc_ante = rules.ante if (rules.ante_rule is AnteRule.BOTH_POTS or s["sabacc_pot"] == 0) else 0
        players_set, dealt_out = [], []
        for sid in order:
            seat = s["seats"][sid]
            if seat["sitting_out"]:
                continue
            if seat["stack"] < rules.ante + sabacc_ante or (seat["stack"] == 0):
                dealt_out.append((sid, "stack"))
            elif rules.force_sabacc and seat["side"] is None:
                dealt_out.append((sid, "no side declared"))
            else:
                players_set.append(sid)
        if len(players_set) < 2:
            raise Refused(409, "a hand needs at least two players who can pay the ante", None)
        if len(players_set) * rules.deal_size > deck.deck_count(corellia_run=rules.corellia_run):
            raise Refused(409, "too many players for one deck", None)
        dealer, token = s["dealer"], s["token"]
        if rules.house_dealer:
            # The dealer stays (and may not play); the token shows who is dealt first.
            if token in players_set:
                start = token
            elif token is not None:
                start = _next_in(order, token, players_set)
            else:
                start = _next_in(order, dealer, players_set)
            players = _rotate(order, start, players_set)
            token = start
        else:
            if dealer not in players_set:
                dealer = _next_in(order, dealer, players_set, inclusive=dealer is None)
            first = _next_in(order, dealer, players_set)
            players = _rotate(order, first, players_set)
        s["dealer"], s["token"] = dealer, token
        s["hand_no"] += 1
        h = {
            "no": s["hand_no"], "stage": "play", "dealer": dealer, "token": token,
            "players": players,
            "p": {sid: {"committed": 0, "bet": 0, "folded": False, "folded_turn": None,
                        "acted": False, "hand_size": rules.deal_size, "static": [],
                        "static_turn": None, "added": 0, "removed": 0,
                        "cards": None, "demise": None} for sid in players},
            "round": 1, "steps": [], "step": -1, "turn_no": 0, "turn_of": None,
            "betting": None, "called_by": None, "after": [], "finishing": None,
            "junk": 0, "last_roll": None, "shift": None, "rolls": [],
            "revealed": False, "demise_players": [], "settlement": None,
            "seed_commitment": f.get("seed_commitment"), "seed": None,
            "sabacc_pot_start": s["sabacc_pot"],
            **_HAND_ADDED,
        }
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

    def build_round(self) -> list[dict[str, Any]]:
        """The steps of one round, read from the rule set's order of play and phases."""
        rules, h = self.rules, self.hand
        steps: list[dict[str, Any]] = []

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
                    add(pr.phase, h["dealer"] if pr.by is Who.DEALER else None, do, None)
            if pr.phase in rules.dealer_rolls_after:
                add(pr.phase, h["dealer"], "roll", None)
        return steps

    def round_order(self) -> list[str]:
        """The hand's players in the order they play this round (who starts rotates if the
        rule set says so)."""
        h = self.hand
        shift = (h["round"] - 1) % len(h["players"]) if self.rules.starter_rotates_each_round else 0
        return h["players"][shift:] + h["players"][:shift]

    # -- moving through a hand --------------------------------------------------------------

    def live(self) -> list[str]:
        h = self.hand
        return [sid for sid in h["players"] if not h["p"][sid]["folded"]]

    def advance(self) -> None:
        """Move to the next step that needs someone, skipping what does not apply."""
        h, rules = self.hand, self.rules
        h["call_open"], h["passed"] = False, []
        merge_call = False  # a call step folded into the draw that follows it (weg/classic)
        while h["stage"] == "play":
            h["step"] += 1
            if h["step"] >= len(h["steps"]):
                if h["finishing"] is not None:
                    h["finishing"] = None
                    self.after_call_next()
                    return
                h["round"] += 1
                h["steps"] = self.build_round()
                h["step"] = -1
                self.emit("round", round=h["round"])
                continue
            st = h["steps"][h["step"]]
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
            if drew := h.get("drew_last"):
                if st["phase"] != drew["phase"]:
                    h["drew_last"] = None  # holodex: the dice phase begins
            h["call_open"] = st["do"] == "call" or (merge_call and st["do"] == "draw")
            self.emit("step", round=h["round"], phase=st["phase"], seat=st["seat"], do=st["do"],
                      **({"call_open": True} if h["call_open"] and st["do"] != "call" else {}))
            return

    def open_betting(self, st: dict[str, Any]) -> bool:
        """Start a betting step; False when fewer than two players can still bet."""
        h, rules = self.hand, self.rules
        able = [sid for sid in self.live() if self.stack(sid) > 0]
        opener = st["seat"] if rules.only_turn_player_opens else None
        if len(able) < 2 or (opener is not None and opener not in able):
            return False
        for p in h["p"].values():
            p["bet"], p["acted"] = 0, False
        start = st["seat"] if st["seat"] in able else next(x for x in self.round_order() if x in able)
        h["betting"] = {"opener": opener, "current": 0, "to_act": start}
        return True

    def next_to_act(self, after: str) -> str | None:
        """The next player (to the left of `after`) who must still act in this betting step."""
        h = self.hand
        b = h["betting"]
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
            h["betting"]["to_act"] = nxt

    def call_window_instead(self, st: dict[str, Any]) -> bool:
        """Whether a betting step that cannot open is a call window instead: the rule set
        calls in this phase, a call is allowed now, and two players are still in the hand."""
        h, calling = self.hand, self.rules.calling
        return (st["phase"] == calling.phase.value and not calling.not_by_turn_player
                and h["called_by"] is None and h["round"] > calling.rounds_before_call
                and len(self.live()) >= 2)

    def call_possible(self, st: dict[str, Any]) -> bool:
        h, calling = self.hand, self.rules.calling
        if h["called_by"] is not None or h["round"] <= calling.rounds_before_call:
            return False
        return any(sid != st["seat"] for sid in self.live()) if calling.not_by_turn_player else True

    def call_merges_into_draw(self, st: dict[str, Any]) -> bool:
        """weg/classic: the call window stays open until the turn player draws (or stands); the
        draw closes it, so no separate "nobody calls" is needed. Not for a turn player who
        folded in their own turn: they draw no more, so their call step stays."""
        h = self.hand
        i = h["step"] + 1
        nxt = h["steps"][i] if i < len(h["steps"]) else None
        return (nxt is not None and nxt["do"] == "draw" and nxt["seat"] == st["seat"]
                and st["seat"] is not None and not h["p"][st["seat"]]["folded"])

    def call_window(self) -> list[str]:
        """The players who may still call (or pass) in an open pagat call window."""
        h = self.hand
        st = _current_step(h)
        if st is None or st["do"] != "call" or st["seat"] is not None:
            return []
        return [x for x in self.live() if x not in h["passed"]]

    def after_call_next(self) -> None:
        """Carry out the next of the rule set's steps between the call and the reveal."""
        h = self.hand
        while h["after"]:
            step = h["after"].pop(0)
            if step == AfterCall.FINISH_PHASE.value:
                current = _current_step(h)
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

    # -- betting ----------------------------------------------------------------------------

    def mover(self, f: dict[str, Any], actor: str | None) -> tuple[str, dict[str, Any], dict[str, Any]]:
        """The seat acting in the betting step, checked to be the one whose move it is."""
        sid = self.who(f, actor)
        h = self.need_play()
        b = h["betting"]
        if b is None:
            raise Refused(409, "there is no betting now", None)
        self.in_play(sid)
        if b["to_act"] != sid:
            raise Refused(409, f"it is {self.name(b['to_act'])}'s move", None)
        return sid, h["p"][sid], b

    def cmd_check(self, f: dict[str, Any], actor: str | None) -> None:
        sid, p, b = self.mover(f, actor)
        if p["bet"] < b["current"]:
            raise Refused(409, f"you must call {b['current'] - p['bet']}, raise, go all-in or fold", None)
        p["acted"] = True
        self.emit("checked", seat=sid)
        self.after_bet_action(sid)

    def cmd_bet(self, f: dict[str, Any], actor: str | None) -> None:
        sid, p, b = self.mover(f, actor)
        if b["current"] > 0:
            raise Refused(409, f"there is a bet of {b['current']}: call, raise or fold", None)
        if b["opener"] is not None and b["opener"] != sid:
            raise Refused(409, "only the player whose turn it is may open the betting", None)
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
        sid, p, b = self.mover(f, actor)
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
        sid, p, b = self.mover(f, actor)
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

    def cmd_all_in(self, f: dict[str, Any], actor: str | None) -> None:
        sid, p, b = self.mover(f, actor)
        stack, cur, limit = self.stack(sid), b["current"], self.rules.bet_limit
        to = p["bet"] + stack
        if to > cur:
            if cur == 0 and b["opener"] is not None and b["opener"] != sid:
                raise Refused(409, "only the player whose turn it is may open the betting", None)
            if limit is not None and to - cur > limit:
                raise Refused(422, f"all-in would add {to - cur} over the bet; the limit is {limit}: "
                                   f"raise to {cur + limit} instead", None)
        self.pay(sid, stack)
        if to > cur:
            b["current"] = to
            self.reopen(sid)
        else:
            p["acted"] = True
        self.emit("all_in", seat=sid, amount=stack, to=to, stack=0)
        self.after_bet_action(sid)

    def cmd_fold(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.who(f, actor)
        h = self.need_play()
        p = self.in_play(sid)
        if h["called_by"] == sid:
            raise Refused(409, "the caller cannot fold: check, call, raise or go all-in", None)
        b = h["betting"]
        if b is None and not self.fold_window_open():
            raise Refused(409, "a player may only fold during betting", None)
        fee = min(self.rules.fold_fee, self.stack(sid))
        self.s["seats"][sid]["stack"] -= fee
        self.s["sabacc_pot"] += fee
        p["folded"], p["folded_turn"] = True, h["turn_no"]
        h["junk"] += p["hand_size"]
        self.emit("folded", seat=sid, fee=fee, stack=self.stack(sid), sabacc_pot=self.s["sabacc_pot"])
        live = self.live()
        if len(live) == 1:
            self.concede(live[0])
        elif b is not None and b["to_act"] == sid:
            self.after_bet_action(sid)
        # An out-of-turn fold leaves the player to act still owing their move.

    def fold_window_open(self) -> bool:
        """weg/classic: after the turn's betting ended (the turn player's check), folding stays
        open until that turn's roll (RuleSet.fold_until_roll)."""
        st = _current_step(self.hand)
        return self.rules.fold_until_roll and st is not None and st["do"] == "roll" \
            and st["turn_of"] is not None

    def concede(self, winner: str) -> None:
        """Everyone else folded: the last player takes every pot, shows nothing, pays nothing."""
        h = self.hand
        amount = sum(p["committed"] for p in h["p"].values())
        self.s["seats"][winner]["stack"] += amount
        h["betting"] = None
        h["settlement"] = {"status": "conceded", "winner": winner, "amount": amount,
                           "payouts": {sid: (amount if sid == winner else 0) for sid in h["players"]}}
        self.emit("conceded", seat=winner, amount=amount)
        self.end_hand()

    # -- rolls, calls, draws, the static field ----------------------------------------------

    def cmd_roll(self, f: dict[str, Any], actor: str | None) -> None:
        h, rules = self.hand, self.rules
        if not self.in_hand():
            raise Refused(409, "no hand is being played", None)
        timer = rules.scrambler_trigger is Trigger.TIMER
        step = _current_step(h)
        if h["stage"] == "final_roll":
            roller = h["dealer"]
        elif h["stage"] == "play" and timer:
            roller = None
        elif h["stage"] == "play" and step is not None and step["do"] == "roll":
            roller = step["seat"]
        else:
            raise Refused(409, "no roll is due now", None)
        if actor not in (HOST, SCRAMBLER) and (roller is None or actor != roller):
            who = self.name(roller) if roller else "the scrambler"
            raise Refused(403, f"this roll is {who}'s", None)
        dice = f.get("dice")
        if dice is None:
            raise Refused(422, "the roll carries no dice", "dice")
        try:
            roll = judge(rules.scrambler_trigger, tuple(dice), rules.shift_kind, rules.trigger_face)
        except ValueError as exc:
            raise Refused(422, str(exc), "dice") from None
        record = {"seat": roller, "round": h["round"], **roll.to_json()}
        h["rolls"].append(record)
        h["last_roll"] = record
        self.emit("rolled", seat=roller, roll=roll.to_json())
        if roll.shift:
            instructions = self.shift_instructions(roll.kind)
            h["shift"] = {"kind": roll.kind.value, "round": h["round"], "instructions": instructions}
            if roll.kind is ShiftKind.WILD:
                h["junk"] = 0  # the junk pile is shuffled back in
            self.emit("shift", kind=roll.kind.value, instructions=instructions)
            self.deal_job({x: (1 if roll.kind is ShiftKind.RIM else
                               h["p"][x]["hand_size"] - len(h["p"][x]["static"]))
                           for x in instructions
                           if h["p"][x]["hand_size"] > len(h["p"][x]["static"])})
        if h["stage"] == "final_roll":
            h["stage"] = "play"  # only to hand over to the next after-call step
            self.after_call_next()
        elif not timer:
            self.advance()

    def shift_instructions(self, kind: ShiftKind) -> dict[str, str]:
        """What each player still in the hand does in this shift; hand sizes stay the same."""
        h = self.hand
        live = self.live()
        out = {}
        for i, sid in enumerate(live):
            p = h["p"][sid]
            n = p["hand_size"] - len(p["static"])
            if n == 0:
                out[sid] = "All your cards are in the static field: keep them."
            elif kind is ShiftKind.RIM:
                right = live[i - 1]
                picks = (f"picks one of your {n} cards outside the static field at random" if n > 1
                         else "takes your one card outside the static field")
                out[sid] = (f"{self.name(right)} (on your right) {picks}; discard it; "
                            f"the dealer deals you 1.")
            elif kind is ShiftKind.WILD:
                out[sid] = (f"Discard your {_words_cards(n)} outside the static field; the dealer "
                            f"shuffles every card not in a static field, the junk pile included, "
                            f"and deals you {n}.")
            else:
                out[sid] = (f"Discard your {_words_cards(n)} outside the static field; "
                            f"the dealer deals you {n}.")
        return out

    def cmd_call_hand(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.who(f, actor)
        h = self.need_play()
        self.in_play(sid)
        calling = self.rules.calling
        st = _current_step(h)
        if h["called_by"] is not None:
            raise Refused(409, f"{self.name(h['called_by'])} called the hand first", None)
        window = h.get("call_open") and st is not None
        if not window and (st is None or st["phase"] != calling.phase.value or st["do"] == "roll"):
            raise Refused(409, f"the hand can only be called in the {calling.phase.value} phase", None)
        if h["round"] <= calling.rounds_before_call:
            raise Refused(409, f"no call before round {calling.rounds_before_call + 1}", None)
        if window and st["seat"] is None:
            if sid not in self.call_window():
                raise Refused(409, "you have passed: the others may still call", None)
        else:
            mover = h["betting"]["to_act"] if st["do"] == "bet" and h["betting"] else st["seat"]
            if calling.not_by_turn_player and sid == mover:
                raise Refused(409, "you cannot call the hand in your own turn", None)
            if not calling.not_by_turn_player and sid != mover:
                raise Refused(409, "call the hand in your own turn", None)
        h["called_by"] = sid
        h["after"] = [a.value for a in calling.after_call]
        self.emit("hand_called", seat=sid)
        self.after_call_next()
        if h["stage"] == "play" and h["finishing"] is not None and st["do"] == "call" \
                and not calling.not_by_turn_player:
            self.advance()  # a call step standing in for a betting round: nothing else to do in it

    def cmd_no_call(self, f: dict[str, Any], actor: str | None) -> None:
        h = self.need_play()
        st = _current_step(h)
        if st is None or st["do"] != "call":
            raise Refused(409, "there is no call to decline now", None)
        if actor != HOST:
            sid = self.who(f, actor)
            if st["seat"] is None:
                # pagat's call window: each player still in the hand passes; the last pass
                # closes it.
                if sid not in self.call_window():
                    raise Refused(409, "you have already passed", None)
                h["passed"].append(sid)
                if self.call_window():
                    self.emit("passed", seat=sid)
                    return
            elif sid != st["seat"]:
                raise Refused(409, f"{self.name(st['seat'])} closes the call", None)
        self.emit("no_call", seat=st["seat"])
        self.advance()

    def cmd_draw(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.who(f, actor)
        h = self.need_play()
        st = _current_step(h)
        if st is None or st["do"] != "draw":
            raise Refused(409, "it is not a time to draw", None)
        if st["seat"] != sid:
            raise Refused(409, f"it is {self.name(st['seat'])}'s turn to draw", None)
        p = self.in_play(sid)
        action = f["action"]
        if action in ("gain", "trade") and _deck_left(h, self.rules) < 1:
            raise Refused(409, "the draw pile is empty: stand", "action")
        if action == "trade" and p["hand_size"] - len(p["static"]) < 1:
            raise Refused(409, "every card is in your static field: nothing to trade", "action")
        if action == "gain":
            p["hand_size"] += 1
        elif action == "trade":
            h["junk"] += 1
        if action != "stand":
            self.deal_job({sid: 1})
        self.emit("drew", seat=sid, action=action, hand_size=p["hand_size"])
        h["drew_last"] = {"seat": sid, "turn": h["turn_no"], "phase": st["phase"]}
        self.advance()

    def static_change(self, f: dict[str, Any], actor: str | None, add: bool) -> None:
        sid = self.who(f, actor)
        h = self.need_play()
        if self.rules.static_field is StaticField.NONE:
            raise Refused(409, "this rule set has no static field", None)
        p = self.in_play(sid)
        try:
            code = deck.normalize(f["card"])
        except deck.UnknownCard as exc:
            raise Refused(422, str(exc), "card") from None
        self.need_in_play_deck(code, "card")
        allowed = _static_allowance(self.s, self.rules, sid)
        turn = _static_turn(h, sid)
        if self.rules.static_field is not StaticField.FREE and turn is None:
            raise Refused(409, "change your static field in your own turn", None)
        if not allowed["add" if add else "remove"]:
            if add and len(p["static"]) >= p["hand_size"]:
                raise Refused(409, "every card of your hand is already in the static field", "card")
            raise Refused(409, f"the static-field limit this turn is reached "
                               f"({self.rules.static_field.value})", None)
        if p["static_turn"] != turn:
            p["static_turn"], p["added"], p["removed"] = turn, 0, 0
        if add:
            everywhere = [c for q in h["p"].values() if not q["folded"] for c in q["static"]] + [code]
            try:
                deck.check_copies(everywhere)
            except deck.TooManyCopies as exc:
                raise Refused(422, f"{exc} across the static fields", "card") from None
            p["static"].append(code)
            p["added"] += 1
            self.emit("static_added", seat=sid, card=code, static=list(p["static"]))
        else:
            if code not in p["static"]:
                raise Refused(422, f"{code} is not in your static field", "card")
            p["static"].remove(code)
            p["removed"] += 1
            self.emit("static_removed", seat=sid, card=code, static=list(p["static"]))

    def cmd_static_add(self, f: dict[str, Any], actor: str | None) -> None:
        self.static_change(f, actor, add=True)

    def cmd_static_remove(self, f: dict[str, Any], actor: str | None) -> None:
        self.static_change(f, actor, add=False)

    # -- the reveal and the settlement ------------------------------------------------------

    def start_reveal(self) -> None:
        h = self.hand
        h["stage"] = "reveal"
        h["betting"] = None
        h["finishing"] = None
        self.emit("reveal_started", players=self.live())

    def cmd_reveal(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.who(f, actor)
        h = self.hand
        if not self.in_hand() or h["stage"] != "reveal":
            raise Refused(409, "it is not the reveal", None)
        p = self.in_play(sid)
        if h["revealed"] and p["cards"] is not None:
            raise Refused(409, "your hand is already face up: it cannot change now", None)
        public = [x for x in self.live() if h["revealed"] and x not in h["reentry"]]
        entered = []
        for i, c in enumerate(f["cards"]):
            try:
                entered.append(deck.normalize(c))
            except deck.UnknownCard as exc:
                raise Refused(422, str(exc), f"cards[{i}]") from None
        for i, c in enumerate(entered):
            self.need_in_play_deck(c, f"cards[{i}]")
        # The entry is the whole hand, or the hand without its static field (filled in here).
        # Decided by the count, not by matching codes: with two copies of a face card, the
        # second copy in the hand is not the one lying in the static field.
        n, static = p["hand_size"], p["static"]
        if len(entered) == n:
            full = entered
            missing = Counter(static) - Counter(entered)
            if missing:
                raise Refused(422, f"your static field's {', '.join(sorted(missing))} is part of "
                                   f"your hand: enter it too", "cards")
        elif static and len(entered) + len(static) == n:
            full = entered + list(static)
        else:
            extra = f" (your static field {', '.join(static)} included)" if static else ""
            raise Refused(422, f"the table counts {n} cards in your hand{extra}; you entered "
                               f"{len(entered)}", "cards")
        try:
            deck.check_copies(full)
        except deck.TooManyCopies as exc:
            raise Refused(422, str(exc), "cards") from None
        # Checked against what this seat may already see: every static field, and the other
        # hands only once they are face up. A refusal naming a card another seat entered
        # would let a player read that hand by entering card after card.
        others = []
        for other, q in h["p"].items():
            if other == sid or q["folded"]:
                continue
            others += q["cards"] if other in public else q["static"]
        try:
            deck.check_copies(full + others)
        except deck.TooManyCopies as exc:
            raise Refused(422, f"{exc.code} would be on the table {exc.count} times but the deck "
                               f"has {exc.copies}: check your cards", "cards") from None
        p["cards"] = full
        self.emit("cards_entered", seat=sid)
        if all(h["p"][x]["cards"] is not None for x in self.live()):
            h["revealed"] = True
            h["reentry"] = []
            self.emit("revealed", hands={x: list(h["p"][x]["cards"]) for x in self.live()})
            if not self.reveal_conflict():
                self.settle_hand()

    def reveal_conflict(self) -> bool:
        """With every hand face up: if a card is on the table more often than the deck holds,
        the players who hold it outside their static field enter their hands again (the
        others' hands stand). True if there was such a card."""
        h = self.hand
        count = Counter(c for x in self.live() for c in h["p"][x]["cards"])
        over = sorted(c for c, n in count.items() if n > deck.CARDS[c].copies)
        if not over:
            return False
        seats = [x for x in self.live()
                 if any(c in over for c in (Counter(h["p"][x]["cards"]) - Counter(h["p"][x]["static"])))]
        for x in seats:
            h["p"][x]["cards"] = None
        h["reentry"] = list(seats)
        names = " and ".join(self.name(x) for x in seats)
        self.emit("reveal_conflict", cards=over, seats=seats,
                  message=f"{', '.join(over)}: more copies on the table than the deck holds. "
                          f"{names}: check your cards and enter them again.")
        return True

    def cmd_demise_card(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.who(f, actor)
        h = self.hand
        if not self.in_hand() or h["stage"] != "demise":
            raise Refused(409, "there is no sudden demise now", None)
        if sid not in h["demise_players"]:
            raise Refused(409, "you are not in the sudden demise", None)
        try:
            code = deck.normalize(f["card"])
        except deck.UnknownCard as exc:
            raise Refused(422, str(exc), "card") from None
        self.need_in_play_deck(code, "card")
        public = h["demise_public"]
        if sid in public:
            raise Refused(409, "your demise card is already face up", None)
        # Checked against the face-up cards only: the revealed hands, and the demise cards
        # shown at a clash that stand. Another player's demise card entered since is still
        # hidden: refusing for it would tell this player that card.
        table = [c for x in self.live() for c in h["p"][x]["cards"]]
        table += [h["p"][x]["demise"] for x in public]
        try:
            deck.check_copies(table + [code])
        except deck.TooManyCopies as exc:
            raise Refused(422, f"{exc}: check the card", "card") from None
        h["p"][sid]["demise"] = code
        self.emit("demise_card_entered", seat=sid)
        if all(h["p"][x]["demise"] for x in h["demise_players"]):
            cards = {x: h["p"][x]["demise"] for x in h["demise_players"]}
            try:
                deck.check_copies(list(cards.values()))
            except deck.TooManyCopies as exc:
                # Every demise card is now face up: the players who entered the same card
                # enter it again; the others' cards stand, face up.
                clash = [x for x, c in cards.items() if c == exc.code]
                h["demise_public"] = [x for x in h["demise_players"] if x not in clash]
                for x in clash:
                    h["p"][x]["demise"] = None
                names = " and ".join(self.name(x) for x in clash)
                self.emit("demise_conflict", cards=cards, seats=clash,
                          message=f"{exc.code}: more copies than the deck holds. {names}: "
                                  f"check your card and enter it again.")
                return
            self.settle_hand()

    def settle_hand(self) -> None:
        """Settle with the rules engine and move the stacks and the sabacc pot."""
        h, s, rules = self.hand, self.s, self.rules
        reveals = []
        for sid in h["players"]:
            p = h["p"][sid]
            side = s["seats"][sid]["side"]
            reveals.append(PlayerReveal(
                name=sid,
                cards=tuple(p["cards"] or ()) if not p["folded"] else (),
                committed=p["committed"],
                stack=s["seats"][sid]["stack"],
                folded=p["folded"],
                called=sid == h["called_by"],
                demise=(p["demise"],) if p["demise"] else (),
                static=tuple(p["static"]) if rules.holdem and not p["folded"] else (),
                side=Side(side) if rules.force_sabacc and side else None,
            ))
        try:
            result = settle(rules, reveals, s["sabacc_pot"])
        except InvalidReveal as exc:
            raise Refused(422, exc.message, "cards") from None
        if result.status == "sudden_demise":
            if h["stage"] == "demise":
                raise Refused(409, "the settlement asked for a second sudden demise", None)
            h["stage"] = "demise"
            h["demise_players"] = list(result.demise_players)
            self.deal_job({x: 1 for x in result.demise_players})
            names = ", ".join(self.name(x) for x in result.demise_players)
            self.emit("sudden_demise", players=list(result.demise_players),
                      message=f"Sudden demise: the dealer deals one more card each to {names}; "
                              f"each enters it.")
            return
        committed = sum(p["committed"] for p in h["p"].values())
        paid = sum(result.payouts.get(sid, 0) for sid in h["players"])
        if paid + result.sabacc_pot_after != committed + s["sabacc_pot"]:
            raise Refused(409, "the settlement does not add up; nothing was changed", None)
        for sid in h["players"]:
            s["seats"][sid]["stack"] += result.payouts.get(sid, 0)
            if s["seats"][sid]["stack"] < 0:
                raise Refused(409, "the settlement would leave a negative stack", None)
        s["sabacc_pot"] = result.sabacc_pot_after
        record = _plain(result.to_json())
        h["settlement"] = record
        self.emit("settled", settlement=record,
                  stacks={sid: s["seats"][sid]["stack"] for sid in h["players"]},
                  sabacc_pot=s["sabacc_pot"])
        self.end_hand()

    def end_hand(self) -> None:
        """Close the hand: history, the stack chart, and the dealer (or token) moves left."""
        h, s = self.hand, self.s
        h["stage"] = "settled"
        h["betting"] = None
        h["deal"] = []
        stacks = {sid: s["seats"][sid]["stack"] for sid in s["order"]}
        s["stack_history"].append({"hand": h["no"], "stacks": stacks, "sabacc_pot": s["sabacc_pot"]})
        s["hands"].append({"hand": h["no"], "dealer": h["dealer"], "players": list(h["players"]),
                           "called_by": h["called_by"],
                           "status": h["settlement"]["status"] if h["settlement"] else None,
                           "payouts": (h["settlement"] or {}).get("payouts"),
                           "seed_commitment": h["seed_commitment"], "seed": None,
                           "settlement": h["settlement"],
                           # face-up hands only: a folded or conceding hand was never shown
                           "cards": {sid: (list(h["p"][sid]["cards"])
                                           if h["revealed"] and h["p"][sid]["cards"] is not None
                                           and not h["p"][sid]["folded"] else None)
                                     for sid in h["players"]}})
        role = "token" if self.rules.house_dealer else "dealer"
        current = h["token"] if self.rules.house_dealer else h["dealer"]
        if current in s["order"] and len(s["order"]) > 1:
            s[role] = s["order"][(s["order"].index(current) + 1) % len(s["order"])]
        self.emit("hand_ended", hand=h["no"], stacks=stacks, sabacc_pot=s["sabacc_pot"])

    def cmd_reveal_seed(self, f: dict[str, Any], actor: str | None) -> None:
        if actor not in (HOST, SCRAMBLER):
            raise Refused(403, "only the scrambler or the host reveals the seed", None)
        h = self.hand
        if h is None or h["stage"] != "settled":
            raise Refused(409, "the seed is revealed after the hand is settled", None)
        if h["seed_commitment"] is None:
            raise Refused(409, "this hand carried no seed commitment", None)
        if h["seed"] is not None:
            raise Refused(409, "the seed is already revealed", None)
        h["seed"] = f["seed"].lower()
        self.s["hands"][-1]["seed"] = h["seed"]
        self.emit("seed_revealed", hand=h["no"], seed=h["seed"])


#: Hand fields added after the first snapshots were written, with the value an old snapshot's
#: hand gets (`_migrate`): the call window, the static window after a draw, the dealer's job,
#: the face-up demise cards and the hands being entered again after a reveal conflict.
_HAND_ADDED: dict[str, Any] = {"call_open": False, "passed": [], "drew_last": None, "deal": [],
                               "demise_public": [], "reentry": []}


def _migrate(state: dict[str, Any]) -> dict[str, Any]:
    """An older snapshot in today's form (in place): fields added since get their defaults."""
    h = state.get("hand")
    if h is not None:
        shown = h.pop("demise_shown", False)
        for k, v in _HAND_ADDED.items():
            h.setdefault(k, _copy(v))
        if shown and not h["demise_public"]:
            h["demise_public"] = [x for x in h["demise_players"] if h["p"][x]["demise"]]
        if h["stage"] == "play":
            st = _current_step(h)
            h["call_open"] = h["call_open"] or bool(st and st["do"] == "call")
    for row in state.get("hands", []):
        row.setdefault("settlement", None)
        row.setdefault("cards", None)
    return state


def _rotate(order: list[str], start: str, members: list[str]) -> list[str]:
    """`members` in seat order beginning at `start`."""
    i = order.index(start)
    ring = order[i:] + order[:i]
    return [sid for sid in ring if sid in members]


def _next_in(order: list[str], after: str | None, members: list[str], inclusive: bool = False) -> str:
    """The first of `members` to the left of `after` (or `after` itself when `inclusive`)."""
    if after is None or after not in order:
        return next(sid for sid in order if sid in members)
    i = order.index(after)
    for k in range(0 if inclusive else 1, len(order) + 1):
        sid = order[(i + k) % len(order)]
        if sid in members:
            return sid
    raise AssertionError("no member")  # members is never empty here
