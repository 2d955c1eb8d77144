"""The live table's hand engine: one table's whole state, changed only by commands.

This module is the engine's face: `Table` and the names the owner, the registry, the server
and the tests import (`HOST`, `SCRAMBLER`, `COMMANDS`, `NAME_MAX`). The engine itself is the
package's sections: state (the typed state), commands (the schemas and their one validator),
seats, turns (turns, draws, cards set aside face up), betting, shifts, reveal (reveal and settlement),
joined here into `Game`.

A `Table` is plain JSON-able data and a pure, deterministic state machine: `apply(entry,
actor)` validates a command completely (on a copy of the state) and either raises `Refused`
with nothing changed or returns the events that describe what happened, in the game's own
words. Rolls arrive with their dice already filled in (`roll_needed` tells the owner which
of its game's dice to roll), so replaying the same entries always gives the same table.

Every rule is read from the table's `RuleSet` (order of play, who opens the betting, the calling
rule, limits on cards set aside, the scrambler trigger and shift kind); nothing tests a preset's
name. The commands and events are listed in docs/table-commands.md::

    >>> t = Table.create("KMXTR", {"rules": registry.default_preset()})
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
from typing import Any, Callable

from companion.games import registry
from companion.games.api import DiceSpec
from companion.refusal import Refused
from companion.rules.rulesets import OPTIONS, RuleSet, ruleset_from
from companion.table.chips import chip_set_from
from companion.table.commands import (
    COMMANDS as RUNTIME_COMMANDS,
    HOST,
    NAME_MAX,
    SCRAMBLER,
    TABLE_SETTINGS,
    parse,
)
from companion.table.dealt import DealtHand as Game
from companion.table.evening import checked_rules, game_words, rules_spec
from companion.table.state import (
    HISTORY,
    TableState,
    copy_json,
    dumps,
    migrate,
    plain,
    working_copy,
)



def engine_of(rules: Any) -> type[Game]:
    """The engine class that plays a table with `rules`: its game's, found by the preset's
    name in the registry (`Game.engine`)."""
    engine: type[Game] = registry.game_of(rules.name).engine()
    return engine


__all__ = ["COMMANDS", "HOST", "NAME_MAX", "SCRAMBLER", "Game", "Refused", "Table"]


def __getattr__(name: str) -> Any:
    """`COMMANDS`: every command some table accepts, the runtime's and every registered
    game's (`Table.every_command_schema`), worked out when first asked (the games' engines
    import this package)."""
    if name == "COMMANDS":
        return Table.every_command_schema()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The most parts a table's `_shown_parts` keeps before it starts again.
SHOWN_MOST = 64


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
        self._engine: type[Game] = engine_of(self._rules)
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
        twin._engine = self._engine
        if "_rules_json" in self.__dict__:
            twin._rules_json = self._rules_json
        twin._shown = self._shown_parts()
        return twin

    def frozen(self) -> "Table":
        """This version of the table, unchanged whatever the table does next: a twin that
        shares the state itself, made in no time. Safe because no command changes a state in
        place: `apply` works on a copy and then replaces the state with it. Read it (views,
        legal moves); `apply` to it works too, on a copy of its own, leaving this one be."""
        twin = object.__new__(type(self))
        twin._s, twin._rules, twin._chips = self._s, self._rules, self._chips
        twin._engine = self._engine
        # The twins of every version share the table's one rule-set JSON (each working it out
        # again was a quarter of a version's views, issue 19).
        twin._rules_json = self._rules_plain()
        twin._shown = self._shown_parts()
        return twin

    def _shown_parts(self) -> dict[Any, tuple[Any, ...]]:
        """The public view's parts that a version rarely changes (the settings, each seat's
        part, the departed seats), each with what it was made from (`_shown_part`): one dict
        for the table and the twins of all its versions (`frozen`), so that a version whose
        seat or settings are unchanged shows the very same part as the last one (its text is
        then carried, and a stream's update leaves it out: companion.table.views)."""
        shown: dict[Any, tuple[Any, ...]] | None = self.__dict__.get("_shown")
        if shown is None:
            shown = {}
            self._shown = shown
        return shown

    def _shown_part(self, key: Any, made_from: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        """The part under `key` made by `make` from `made_from` (values of the state, compared
        by identity and then by value), or the very same part as last time if they are the same.
        Views are read, never changed: a part is shared by every version that shows it."""
        shown = self._shown_parts()
        hit = shown.get(key)
        if hit is not None and (hit[0] is made_from or hit[0] == made_from):
            return hit[1]
        part = make()
        if len(shown) >= SHOWN_MOST:  # seats come and go over an evening: forgotten now and then
            shown.clear()
        shown[key] = (made_from, part)
        return part

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
        """The table a `to_json` snapshot describes (an older snapshot is migrated: the
        runtime's fields added since, then the game's own, `Play.OWN_STATE`)."""
        return cls.from_owned_json(copy_json(data))

    @classmethod
    def from_owned_json(cls, data: dict) -> "Table":
        """`from_json(data)` for a snapshot that nobody else holds (just read from the ledger):
        taken as it is, migrated in place, not copied first."""
        table = cls(migrate(data))
        if table._s["hand"] is not None:
            table._engine.OWN_STATE.complete(table._s["hand"])
        return table

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

    def command_schemas(self) -> dict[str, dict[str, Any]]:
        """The commands this table accepts now (its game's engine's) -> their JSON Schemas."""
        return self._engine.COMMANDS

    @classmethod
    def every_command_schema(cls) -> dict[str, dict[str, Any]]:
        """The commands some table may accept: every registered game's, the runtime's first
        (the API's document lists them)."""
        out = dict(RUNTIME_COMMANDS)
        for game in registry.games().values():
            for typ, schema in getattr(game.engine(), "COMMANDS", {}).items():
                out.setdefault(typ, schema)
        return out

    def seat_ids(self) -> list[str]:
        """The seated players' ids in seat order (clockwise)."""
        return list(self._s["order"])

    def credits(self) -> int:
        """stacks + hand pot (all pots) + sabacc pot: constant except buy-ins, rebuys,
        cash-outs, stakes and host adjustments."""
        s = self._s
        return sum(seat["stack"] for seat in s["seats"].values()) + s["sabacc_pot"] \
            + self._reader().pots_held()

    def roll_needed(self, entry: dict) -> DiceSpec | None:
        """If `entry` is a roll without dice, the dice to roll (its game's `DiceSpec`; the owner
        fills entry["dice"] from the table's roller before `apply`). Else None.

        Only a roll without dice is asked of the game (`roll_due`'s contract): every other
        command is decided here, without making the version's reader for it."""
        if type(entry) is not dict or entry.get("type") != "roll" or entry.get("dice") is not None:
            return None
        return self._reader().roll_due(entry)

    # -- applying commands ------------------------------------------------------------------

    def apply(self, entry: dict, actor: str | None) -> list[dict]:
        """Validate `entry` from `actor` (a seat id, HOST, SCRAMBLER, or None for a join) and
        apply it. Raises Refused with the state unchanged. Returns the events. Increments
        `version` by one on success."""
        engine = self._engine
        typ, fields = parse(entry, engine.COMMANDS)
        game = engine(working_copy(self._s), self._rules, self._chips)
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
            # The names the game gives the building blocks the pages draw (Evening.BLOCKS).
            "blocks": self._reader().BLOCKS,
            "settings": self._shown_part("settings", (s["settings"],), lambda: {
                "chip_set": s["settings"]["chip_set"], "max_seats": s["settings"]["max_seats"]}),
            "seats": [self._shown_seat(sid) for sid in s["order"]],
            "departed": self._shown_part("departed", tuple(s["departed"].items()), lambda: [
                {"seat": sid, **d} for sid, d in s["departed"].items()]),
            "dealer": s["dealer"],
            "token": s["token"],
            "sabacc_pot": s["sabacc_pot"],
            # What the next hand's antes take from a stack: the phones say when one cannot pay.
            "ante_due": self._reader().ante_due(),
            "hand_no": s["hand_no"],
            "ended": s["ended"],
            # A game played to a winner, once won: its places and its end in words (every
            # screen's turn line says it instead of "between hands").
            "game_over": self._reader().game_over(),
            "standings": s["standings"],
            "carried_sabacc_pot": s["carried_sabacc_pot"],
            "stack_history": s["stack_history"][-history:] if history else
                             [] if history == 0 else s["stack_history"],
            "hands": s["hands"][-20:],
            "items": s["items"],
            "hand": self._reader().hand_view(None),
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
            words = self._reader().turn_words(seat)
            if words != public["hand"]["words"]:
                out["hand"] = {**public["hand"], "words": words}
        if seat is not None and seat in self._s["seats"]:
            out["you"] = self._reader().private(seat, legal)
        if host:
            out["host_legal"] = self._reader().host_legal()
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
        game = self._reader()
        moves = game.legal(seat)
        return moves if game.LISTS_SESSION_MOVES else [*moves, *game.session_offers(seat)]

    def host_offers(self, seat: str) -> list[dict[str, Any]]:
        """The host's corrections for `seat` now, as offers (the engine's `host_offers`): the
        console draws them with the seat's own moves."""
        if seat not in self._s["seats"]:
            raise Refused(404, f"there is no seat {seat!r} at this table", "seat")
        return self._reader().host_offers(seat)

    def names_discards(self) -> bool:
        """Whether the table's game lays its discard pile face up (its top card entered by
        whoever turns it up, each discard named): the console offers the pile's entry."""
        return self._reader().names_discards()

    def _shown_seat(self, sid: str) -> dict[str, Any]:
        """`_seat_view(sid)`, the very same part as at the last version if the seat and whether
        it plays are the same (`_shown_part`)."""
        hand = self._s["hand"]
        playing = hand is not None and hand["stage"] != "settled" and sid in hand["p"]
        return self._shown_part(("seat", sid), (self._s["seats"][sid], playing), lambda: self._seat_view(sid))

    def _seat_view(self, sid: str) -> dict[str, Any]:
        seat = self._s["seats"][sid]
        hand = self._s["hand"]
        playing = hand is not None and hand["stage"] != "settled" and sid in hand["p"]
        return {"seat": sid, **{k: seat[k] for k in ("name", "stack", "sitting_out", "side",
                                                     "bought_in", "cashed_out", "adjusted", "items")},
                "playing": playing}

    def _reader(self) -> Game:
        """A game that only reads this version of the state (the legal moves' checks): made
        once per version and shared by every seat's list and the host's, with what it found
        out about the version (`Turns.past_window`). A new state (`apply`) gets a new one."""
        game = self.__dict__.get("_game")
        if game is None or game.s is not self._s:
            game = self._game = self._engine(self._s, self._rules, self._chips)
        return game
