"""The ledger and the table owner: durable, replayable, snapshots, undo, idempotency.

These tests use `PassTable`, a tiny table that follows the engine's interface (apply /
roll_needed / view / to_json / from_json / credits), so that each ledger rule is checked on
its own; the real engine runs through the same owner in the API, crash and concurrency tests.
"""

from __future__ import annotations

import copy
import json
import sqlite3
import time

import pytest

from companion.rules.rulesets import Trigger
from companion.scrambler.dice import shape
from companion.refusal import Refused
from companion.table.ledger import Ledger
from companion.table.owner import HOST, SCRAMBLER, SNAPSHOT_EVERY, TableOwner


COMMANDS = {
    "join": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
    "buy_in": {"type": "object", "properties": {"amount": {"type": "integer", "minimum": 1}}, "required": ["amount"]},
    "pass": {"type": "object", "properties": {"to": {"type": "string"}, "amount": {"type": "integer", "minimum": 1}}, "required": ["to", "amount"]},
    "start_hand": {"type": "object", "properties": {}},
    "roll": {"type": "object", "properties": {"dice": {"type": "array", "items": {"type": "integer"}}}},
}


class PassTable:
    """Seats pass credits to each other; the host starts hands; the scrambler rolls a d6."""

    applied_count = 0  # how many `apply` calls all PassTables made (to measure replay cost)

    def __init__(self, code: str):
        self.code, self.version = code, 0
        self.stacks: dict[str, int] = {}
        self.names: dict[str, str] = {}
        self.hand_no = 0
        self.rolls: list[list[int]] = []

    @classmethod
    def create(cls, code: str, settings: dict) -> "PassTable":
        if settings.get("rules") != "pass":
            raise Refused(422, "rules must be 'pass'", "rules")
        return cls(code)

    def apply(self, entry: dict, actor: str | None) -> list[dict]:
        PassTable.applied_count += 1
        kind = entry.get("type")
        if kind == "join":
            seat = f"s{len(self.stacks) + 1}"
            self.stacks[seat], self.names[seat] = 0, entry["name"]
            out = [{"type": "joined", "seat": seat, "name": entry["name"]}]
        elif kind == "buy_in":
            if actor not in self.stacks:
                raise Refused(403, "seats buy in", None)
            self.stacks[actor] += entry["amount"]
            out = [{"type": "bought_in", "seat": actor, "amount": entry["amount"]}]
        elif kind == "pass":
            if actor not in self.stacks:
                raise Refused(403, "seats pass", None)
            if entry["to"] not in self.stacks:
                raise Refused(422, "no such seat", "to")
            if entry["amount"] > self.stacks[actor]:
                raise Refused(422, "over the stack", "amount")
            self.stacks[actor] -= entry["amount"]
            self.stacks[entry["to"]] += entry["amount"]
            out = [{"type": "passed", "seat": actor, "to": entry["to"], "amount": entry["amount"]}]
        elif kind == "start_hand":
            if actor != HOST:
                raise Refused(403, "host only", None)
            self.hand_no += 1
            out = [{"type": "hand_started", "hand": self.hand_no}]
        elif kind == "roll":
            if actor not in (HOST, SCRAMBLER):
                raise Refused(403, "roller only", None)
            self.rolls.append(list(entry["dice"]))
            out = [{"type": "rolled", "roll": {"dice": entry["dice"]}}]
        else:
            raise Refused(400, "unknown type", "type")
        self.version += 1
        return out

    def roll_needed(self, entry: dict):
        return Trigger.D6_HIGH if entry.get("type") == "roll" else None

    def view(self, seat: str | None = None, *, host: bool = False) -> dict:
        return {"code": self.code, "version": self.version, "stacks": dict(self.stacks), "hand_no": self.hand_no}

    def to_json(self) -> dict:
        return copy.deepcopy(self.__dict__)

    @classmethod
    def from_json(cls, data: dict) -> "PassTable":
        t = cls(data["code"])
        t.__dict__.update(copy.deepcopy(data))
        return t

    def credits(self) -> int:
        return sum(self.stacks.values())

    def seat_ids(self) -> list[str]:
        return list(self.stacks)


class FixedRoller:
    """Rolls the faces it is given, in turn."""

    def __init__(self, *faces: int):
        self.faces = list(faces)

    def dice(self, trigger):
        return tuple(self.faces.pop(0) for _ in range(shape(trigger)[0]))


@pytest.fixture
def ledger(tmp_path):
    led = Ledger(tmp_path / "tables.sqlite3")
    yield led
    led.close()


def new_table(ledger, roller=None) -> tuple[TableOwner, str]:
    owner, host = TableOwner.create("KMXTR", {"rules": "pass"}, ledger, PassTable, roller)
    return owner, host


def seat_two(owner: TableOwner) -> None:
    owner.join("Lando")
    owner.join("Han")
    owner.submit({"type": "buy_in", "amount": 100}, "s1")
    owner.submit({"type": "buy_in", "amount": 50}, "s2")


def test_acknowledged_entries_survive_closing_and_reopening(tmp_path):
    led = Ledger(tmp_path / "t.sqlite3")
    owner, _ = new_table(led)
    seat_two(owner)
    owner.submit({"type": "pass", "to": "s2", "amount": 30}, "s1")
    led.close()

    again = Ledger(tmp_path / "t.sqlite3")
    reloaded = TableOwner("KMXTR", again, PassTable)
    assert reloaded.view()[1]["stacks"] == {"s1": 70, "s2": 80}
    assert reloaded.version == 5
    assert [e.type for e in again.entries("KMXTR")] == ["join", "join", "buy_in", "buy_in", "pass"]
    again.close()


def test_the_database_is_in_wal_mode_with_full_sync(ledger):
    assert ledger._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert ledger._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_refused_command_changes_nothing_and_is_not_recorded(ledger):
    owner, _ = new_table(ledger)
    seat_two(owner)
    with pytest.raises(Refused) as err:
        owner.submit({"type": "pass", "to": "s2", "amount": 101}, "s1")
    assert (err.value.status, err.value.field) == (422, "amount")
    assert owner.version == 4 and ledger.last_seq("KMXTR") == 4
    assert owner.view()[1]["stacks"] == {"s1": 100, "s2": 50}


def test_rolls_get_their_dice_from_the_roller_and_the_ledger_keeps_them(ledger):
    owner, _ = new_table(ledger, FixedRoller(4, 2))
    owner.submit({"type": "roll"}, SCRAMBLER)
    owner.submit({"type": "roll"}, SCRAMBLER)
    assert [e.body["dice"] for e in ledger.entries("KMXTR")] == [[4], [2]]
    # Replaying never rolls again: the recorded dice come back.
    assert TableOwner("KMXTR", ledger, PassTable, FixedRoller()).table.rolls == [[4], [2]]


def test_a_repeated_idempotency_key_is_applied_once_and_answers_the_first_result(tmp_path):
    led = Ledger(tmp_path / "t.sqlite3")
    owner, _ = new_table(led)
    seat_two(owner)
    first = owner.submit({"type": "pass", "to": "s2", "amount": 10}, "s1", idempotency_key="k-1")
    again = owner.submit({"type": "pass", "to": "s2", "amount": 10}, "s1", version=0, idempotency_key="k-1")
    assert again.replayed and again.seq == first.seq and again.events == first.events
    assert owner.view()[1]["stacks"] == {"s1": 90, "s2": 60}
    led.close()
    # The key is in the ledger: it still holds after a restart.
    led = Ledger(tmp_path / "t.sqlite3")
    owner = TableOwner("KMXTR", led, PassTable)
    assert owner.submit({"type": "pass", "to": "s2", "amount": 10}, "s1", idempotency_key="k-1").replayed
    assert owner.view()[1]["stacks"] == {"s1": 90, "s2": 60}
    with pytest.raises(Refused) as err:
        owner.submit({"type": "pass", "to": "s2", "amount": 11}, "s1", idempotency_key="k-1")
    assert (err.value.status, err.value.field) == (422, "idempotency_key")
    led.close()


def test_a_stale_version_is_refused_with_the_current_version(ledger):
    owner, _ = new_table(ledger)
    seat_two(owner)
    with pytest.raises(Refused) as err:
        owner.submit({"type": "pass", "to": "s2", "amount": 1}, "s1", version=3)
    assert (err.value.status, err.value.field, err.value.extra["version"]) == (409, "version", 4)
    assert owner.submit({"type": "pass", "to": "s2", "amount": 1}, "s1", version=4).seq == 5


def test_loading_costs_the_same_after_many_hands_as_after_one(ledger):
    owner, _ = new_table(ledger)
    seat_two(owner)
    for hand in range(200):
        owner.submit({"type": "start_hand"}, HOST)
        owner.submit({"type": "pass", "to": "s2", "amount": 1}, "s1")
        owner.submit({"type": "pass", "to": "s1", "amount": 1}, "s2")
    # Within one hand, a snapshot every SNAPSHOT_EVERY entries bounds the replay as well.
    for _ in range(SNAPSHOT_EVERY * 3):
        owner.submit({"type": "pass", "to": "s2", "amount": 1}, "s1")
    PassTable.applied_count = 0
    reloaded = TableOwner("KMXTR", ledger, PassTable)
    assert PassTable.applied_count < SNAPSHOT_EVERY
    assert reloaded.view()[1] == owner.view()[1]
    assert reloaded.table.hand_no == 200
    # Only the current hand's snapshots (and the new table's) are kept.
    kept = [r[0] for r in ledger._db.execute("SELECT seq FROM snapshots ORDER BY seq")]
    assert kept[0] == 0 and len(kept) <= 5  # new table, hand start, one per 25 entries since


def test_undo_appends_a_counter_entry_and_the_log_keeps_both(ledger):
    owner, _ = new_table(ledger)
    seat_two(owner)
    owner.submit({"type": "start_hand"}, HOST)
    owner.submit({"type": "pass", "to": "s2", "amount": 30}, "s1")  # seq 6
    owner.submit({"type": "pass", "to": "s1", "amount": 5}, "s2")  # seq 7
    result = owner.undo(HOST, seq=6)
    assert (result.seq, result.undone) == (8, 6)
    assert owner.view()[1]["stacks"] == {"s1": 105, "s2": 45}
    log = ledger.entries("KMXTR")
    assert (log[5].type, log[5].undone_by) == ("pass", 8)
    assert (log[7].type, log[7].body) == ("undo", {"undoes": 6})
    # The same state comes back from the disk.
    assert TableOwner("KMXTR", ledger, PassTable).view()[1] == owner.view()[1]


def test_an_undo_that_later_entries_depend_on_is_refused_and_changes_nothing(ledger):
    owner, _ = new_table(ledger)
    seat_two(owner)
    owner.submit({"type": "start_hand"}, HOST)
    owner.submit({"type": "pass", "to": "s2", "amount": 100}, "s1")  # seq 6: s2 has 150
    owner.submit({"type": "pass", "to": "s1", "amount": 120}, "s2")  # seq 7 needs seq 6
    before = owner.view()
    with pytest.raises(Refused) as err:
        owner.undo(HOST, seq=6)
    assert err.value.status == 409
    assert owner.view() == before and ledger.last_seq("KMXTR") == 7


def test_only_the_host_undoes_and_only_within_the_current_hand(ledger):
    owner, _ = new_table(ledger)
    seat_two(owner)
    owner.submit({"type": "start_hand"}, HOST)
    owner.submit({"type": "pass", "to": "s2", "amount": 1}, "s1")  # seq 6, hand 1
    owner.submit({"type": "start_hand"}, HOST)  # seq 7
    with pytest.raises(Refused) as err:
        owner.undo("s1")
    assert err.value.status == 403
    with pytest.raises(Refused) as err:
        owner.undo(HOST, seq=6)
    assert err.value.status == 409 and "earlier hand" in err.value.error
    with pytest.raises(Refused) as err:
        owner.undo(HOST)  # nothing after the hand's start
    assert err.value.status == 409


def test_an_undone_entry_cannot_be_undone_twice_nor_an_undo_undone(ledger):
    owner, _ = new_table(ledger)
    seat_two(owner)
    owner.submit({"type": "start_hand"}, HOST)
    owner.submit({"type": "pass", "to": "s2", "amount": 1}, "s1")
    owner.undo(HOST, seq=6)
    for seq in (6, 7):
        with pytest.raises(Refused) as err:
            owner.undo(HOST, seq=seq)
        assert err.value.status == 409
    assert owner.view()[1]["stacks"] == {"s1": 100, "s2": 50}


def test_seat_tokens_are_stored_as_hashes_and_a_new_token_replaces_the_old(ledger):
    owner, host = new_table(ledger)
    joined = owner.join("Lando")
    assert owner.seat_for_token(joined.token) == "s1"
    assert owner.seat_for_token(host) == HOST
    dump = "\n".join(ledger._db.iterdump())
    assert joined.token not in dump and host not in dump
    fresh = owner.issue_token("s1")
    assert owner.seat_for_token(fresh) == "s1" and owner.seat_for_token(joined.token) is None


def test_subscribers_get_each_entry_after_it_is_committed(ledger):
    owner, _ = new_table(ledger)
    sub, version, state = owner.subscribe()
    owner.join("Lando")
    seq, kind, update = sub.messages.get(timeout=1)
    assert (seq, kind) == (1, "update")
    data = sub.text(update)
    # By the time the message is out, the entry is on disk.
    assert ledger.entry("KMXTR", 1).type == "join"
    assert '"joined"' in data and '"version":1' in data
    owner.unsubscribe(sub)
    owner.join("Han")
    assert sub.messages.empty()


def test_an_action_costs_the_same_late_in_a_long_session(ledger):
    owner, _ = new_table(ledger)
    seat_two(owner)

    def cost() -> tuple[int, int, int]:
        """For 40 actions: the statements the ledger runs, the characters it writes, and the
        rows it reads — what the database does, counted (a timing would mostly measure fsync
        on a disk shared with other jobs)."""
        sql: list[str] = []
        real = ledger._db
        counting = _CountingRows(real)
        real.set_trace_callback(sql.append)
        ledger._db = counting
        try:
            for _ in range(20):
                owner.submit({"type": "pass", "to": "s2", "amount": 1}, "s1")
                owner.submit({"type": "pass", "to": "s1", "amount": 1}, "s2")
        finally:
            ledger._db = real
            real.set_trace_callback(None)
        return len(sql), sum(map(len, sql)), counting.rows

    early = cost()
    for _ in range(300):
        owner.submit({"type": "start_hand"}, HOST)
    late = cost()
    # The same statements and rows; only the numbers in them (seq, time) grow by a digit.
    assert late[0] == early[0] and late[2] == early[2], (early, late)
    assert late[1] < early[1] * 1.05, (early, late)


class _CountingRows:
    """The ledger's connection, counting the rows its queries return."""

    def __init__(self, db):
        self.db, self.rows = db, 0

    def execute(self, sql, *args):
        rows = self.db.execute(sql, *args).fetchall()
        self.rows += len(rows)
        return _Rows(rows)

    def __getattr__(self, name):
        return getattr(self.db, name)


class _Rows:
    def __init__(self, rows):
        self._rows = rows

    def fetchall(self):
        return self._rows

    def fetchone(self):
        return self._rows[0] if self._rows else None


# -- with the real engine ---------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from conftest import examples  # noqa: E402

from companion.games.classic.cards import CARDS  # noqa: E402
from companion.table.engine import Table  # noqa: E402

CODES = [c for c in CARDS if CARDS[c].copies == 1]


def real_table(ledger, roller=None) -> TableOwner:
    owner, _ = TableOwner.create("KMXTR", {"rules": "weg"}, ledger, Table, roller)
    for name in ("Lando", "Han", "Leia"):
        seat = owner.join(name).seat
        owner.submit({"type": "buy_in", "amount": 100}, seat)
    return owner


def legal_moves(owner: TableOwner) -> list[tuple[str, dict]]:
    """Every (actor, entry) the engine lists as legal now, with a simple amount."""
    out = []
    for seat in owner.seat_ids():
        for legal in owner.view(seat)[1]["you"]["legal"]:
            t = legal["type"]
            if t in ("bet",):
                out.append((seat, {"type": t, "amount": legal["min"]}))
            elif t == "raise":
                out.append((seat, {"type": t, "to": legal["min_to"]}))
            elif t == "draw":
                out.append((seat, {"type": t, "action": legal["action"]}))
            elif t in ("check", "call", "fold", "all_in", "no_call", "call_hand", "roll"):
                out.append((seat, {"type": t}))
            elif t == "reveal" and not any(p["seat"] == seat and p["entered"] for p in owner.view()[1]["hand"]["players"]):
                i = owner.seat_ids().index(seat)
                cards = legal["static"] + CODES[i * 10: i * 10 + legal["hand_size"] - len(legal["static"])]
                out.append((seat, {"type": "reveal", "cards": cards}))
    for t in owner.view(None, host=True)[1]["host_legal"]:
        out.append((HOST, {"type": t}))
    return out


def test_a_real_table_reloads_to_the_same_state_after_several_hands(ledger):
    owner = real_table(ledger, FixedRoller(*([2, 5] * 200)))
    for _hand in range(3):
        owner.submit({"type": "start_hand"}, HOST)
        for _ in range(60):
            moves = [m for m in legal_moves(owner) if m[1]["type"] in ("reveal", "check", "call", "no_call", "roll", "call_hand") or m[1].get("action") == "stand"]
            if owner.view()[1]["hand"]["stage"] == "settled":
                break
            owner.submit(moves[0][1], moves[0][0])
        assert owner.view()[1]["hand"]["stage"] == "settled"
    assert owner.table.credits() == 300
    again = TableOwner("KMXTR", ledger, Table)
    assert again.table.to_json() == owner.table.to_json()
    assert again.version == owner.version == ledger.last_seq("KMXTR")


def test_undoing_a_bet_that_was_called_is_refused_with_the_real_engine(ledger):
    owner = real_table(ledger)
    owner.submit({"type": "start_hand"}, HOST)
    turn = owner.view()[1]["hand"]["turn"]
    bet = owner.submit({"type": "bet", "amount": 2}, turn)
    caller = owner.view()[1]["hand"]["to_act"]
    owner.submit({"type": "call"}, caller)  # needs the bet to call
    before = owner.table.to_json()
    with pytest.raises(Refused) as err:
        owner.undo(HOST, seq=bet.seq)
    assert err.value.status == 409 and "call" in err.value.error
    assert owner.table.to_json() == before
    # The call itself can be undone, then the bet.
    owner.undo(HOST)
    owner.undo(HOST)
    assert owner.view(turn)[1]["you"]["legal"][0]["type"] == "bet"


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(choices=st.lists(st.tuples(st.integers(0, 1000), st.booleans()), min_size=5, max_size=40))
def test_random_commands_conserve_credits_and_the_ledger_replays_to_the_live_table(tmp_path_factory, choices):
    ledger = Ledger(tmp_path_factory.mktemp("ledger") / "t.sqlite3")
    try:
        owner = real_table(ledger)
        total = owner.table.credits()
        seats = owner.seat_ids()
        for pick, legal in choices:
            moves = legal_moves(owner)
            if legal and moves:
                actor, entry = moves[pick % len(moves)]
            else:  # something probably illegal: a random command from a random seat
                actor = (seats + [HOST])[pick % 4]
                entry = [{"type": "bet", "amount": pick % 7}, {"type": "call"}, {"type": "fold"},
                         {"type": "raise", "to": pick % 9 + 1}, {"type": "start_hand"},
                         {"type": "check"}][pick % 6]
            version, size = owner.version, ledger.count_entries("KMXTR")
            try:
                owner.submit(entry, actor)
            except Refused:
                assert owner.version == version and ledger.count_entries("KMXTR") == size
            assert owner.table.credits() == total
            assert all(s["stack"] >= 0 for s in owner.view()[1]["seats"])
        assert TableOwner("KMXTR", ledger, Table).table.to_json() == owner.table.to_json()
    finally:
        ledger.close()


def test_the_scrambler_rolls_for_the_table_it_is_bound_to(tmp_path):
    from companion.table.registry import Registry

    reg = Registry(tmp_path, table_class=Table, roller_factory=lambda: FixedRoller(*[6] * 50))
    try:
        with pytest.raises(Refused):
            reg.scrambler_submit({"type": "roll"})  # no table yet
        first, _ = reg.create({"rules": "weg"}, by="127.0.0.2")
        # Never bound by being first (issue 15): a guest may make a fresh server's first table.
        assert reg.scrambler_table() is None and not reg.is_priority(first.code) and first.guest
        second, _ = reg.create({"rules": "classic"}, owner_token=True)
        # A table made with the owner token takes the unbound scrambler.
        assert reg.scrambler_table() is second and reg.scrambler_code == second.code
        assert reg.is_priority(second.code) and not second.guest
        for seat, name in (("s1", "Lando"), ("s2", "Han")):
            second.join(name)
            second.submit({"type": "buy_in", "amount": 50}, seat)
        second.submit({"type": "start_hand"}, HOST)
        while second.view()[1]["hand"]["do"] != "roll":
            turn = second.view()[1]["hand"]["to_act"] or second.view()[1]["hand"]["turn"]
            second.submit({"type": "check"}, turn)
        result = reg.scrambler_submit({"type": "roll"})
        assert result.events[0]["type"] == "rolled" and result.events[0]["roll"]["dice"] == [6, 6]
        assert first.version == 0
    finally:
        reg.close()
    # The binding survives a restart.
    again = Registry(tmp_path, table_class=Table)
    assert again.scrambler_code == second.code
    assert again.party(first.code) == "made by 127.0.0.2" and again.party(second.code) == "owner"
    again.close()


def test_a_guests_table_never_holds_the_scrambler_after_a_restart(tmp_path):
    """Issue 15: "a guest creates the first table on a freshly started server". Earlier
    versions bound the scrambler to the first table by being first; on start that binding is
    dropped, and the guest's table is not the scrambler's, nor one of the owner's."""
    from companion.table.registry import Registry

    reg = Registry(tmp_path, table_class=Table)
    guest, _ = reg.create({"rules": "weg"}, by="127.0.0.2")
    reg.ledger.set_meta("scrambler_table", guest.code)  # as the old first-table rule left it
    reg.close()
    again = Registry(tmp_path, table_class=Table)
    try:
        assert again.scrambler_code is None and again.scrambler_table() is None
        assert not again.is_priority(guest.code) and again.get(guest.code).guest
        with pytest.raises(Refused):
            again.scrambler_submit({"type": "roll"})
        assert not again.may_bind_scrambler(None) and not again.may_bind_scrambler("x" * 30)
    finally:
        again.close()


def play_to_the_end(owner: TableOwner) -> None:
    """Passive play (check, call, stand, roll, call the hand, reveal) until the hand ends."""
    for _ in range(200):
        if owner.view()[1]["hand"]["stage"] == "settled":
            return
        moves = [m for m in legal_moves(owner) if m[1]["type"] in ("reveal", "check", "call", "no_call", "roll", "call_hand") or m[1].get("action") == "stand"]
        owner.submit(moves[0][1], moves[0][0])
    raise AssertionError("the hand did not end")


def test_with_a_seeded_roller_each_hand_commits_rolls_from_its_seed_and_reveals_it(tmp_path):
    from companion.scrambler.seed import SeededRoller, commitment, derive_dice

    led = Ledger(tmp_path / "t.sqlite3")
    owner = real_table(led, SeededRoller())
    owner.submit({"type": "start_hand"}, HOST)
    published = led.entries("KMXTR")[-1].body["seed_commitment"]
    assert published == owner.view()[1]["hand"]["seed_commitment"]
    # Rolls until the first one, then the server "loses power" in the middle of the hand.
    while owner.view()[1]["hand"]["do"] != "roll" or not any(e.type == "roll" for e in led.entries("KMXTR")):
        actor, entry = [m for m in legal_moves(owner) if m[1]["type"] in ("check", "call", "roll", "no_call") or m[1].get("action") == "stand"][0]
        owner.submit(entry, actor)
    led.close()
    led = Ledger(tmp_path / "t.sqlite3")
    owner = TableOwner("KMXTR", led, Table, SeededRoller())
    play_to_the_end(owner)
    entries = led.entries("KMXTR")
    reveal = entries[-1]
    assert (reveal.type, reveal.actor) == ("reveal_seed", SCRAMBLER)
    seed = reveal.body["seed"]
    assert commitment(seed) == published
    rolls = [e.body["dice"] for e in entries if e.type == "roll"]
    assert len(rolls) >= 2
    trigger = owner.table.rules.scrambler_trigger
    assert rolls == [list(derive_dice(seed, i, trigger)) for i in range(len(rolls))]
    # The next hand has a fresh seed, and none of this is in any view.
    owner.submit({"type": "start_hand"}, HOST)
    assert led.entries("KMXTR")[-1].body["seed_commitment"] != published
    secret = led.get_meta("hand_seed:KMXTR")
    assert secret not in json.dumps([owner.view(s)[1] for s in owner.seat_ids()] + [owner.view(None, host=True)[1]])
    led.close()


class _FailingCommit:
    """The ledger's connection, except that its next COMMIT fails as a full disk would."""

    def __init__(self, db):
        self.db, self.fail = db, True

    def execute(self, sql, *args):
        if sql == "COMMIT" and self.fail:
            self.fail = False
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def test_a_commit_that_fails_changes_nothing_and_the_next_command_is_recorded(tmp_path):
    led = Ledger(tmp_path / "t.sqlite3")
    owner, _ = new_table(led)
    seat_two(owner)
    led._db = _FailingCommit(led._db)
    with pytest.raises(Refused) as err:
        owner.submit({"type": "pass", "to": "s2", "amount": 30}, "s1")
    assert err.value.status == 503
    # Not acknowledged, so not there: not in memory, not in the file.
    assert owner.view()[1]["stacks"] == {"s1": 100, "s2": 50}
    assert owner.version == 4
    owner.submit({"type": "pass", "to": "s2", "amount": 10}, "s1")
    assert owner.view()[1]["stacks"] == {"s1": 90, "s2": 60}
    led._db = led._db.db
    led.close()
    again = Ledger(tmp_path / "t.sqlite3")
    assert [(e.seq, e.body.get("amount")) for e in again.entries("KMXTR")][-1] == (5, 10)
    assert TableOwner("KMXTR", again, PassTable).view()[1]["stacks"] == {"s1": 90, "s2": 60}
    again.close()


def test_item10_a_ledger_dropped_without_close_closes_its_connection(tmp_path):
    """Issue 11, item 10: Python 3.13 warns (ResourceWarning: unclosed database) about every
    SQLite connection left to the garbage collector; a forgotten ledger closes its own."""
    import gc

    led = Ledger(tmp_path / "t.sqlite3")
    db = led._db
    led.close()
    led.close()  # twice is fine
    with pytest.raises(sqlite3.ProgrammingError):
        db.execute("SELECT 1")
    led = Ledger(tmp_path / "t.sqlite3")
    db = led._db
    del led
    gc.collect()
    with pytest.raises(sqlite3.ProgrammingError):
        db.execute("SELECT 1")
