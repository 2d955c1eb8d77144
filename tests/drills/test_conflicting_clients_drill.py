"""Twenty clients at once against the real server (`sabacc-companion serve` as a process):
the same idempotency key, the same stale version, and a whole hand played by twenty phones
racing each other. No action is lost or applied twice, and credits are conserved.

The clients behave as real phones do: a `429` is waited out (its `Retry-After`) and sent again,
so the drill holds however fast the machine answers; and a real table's legitimate burst (every
phone and the host acting at once) stays under the limits."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter

import pytest

from companion.bench.clients import JsonClient
from companion.bench.play import moves
from companion.bench.server import ServerProcess

CLIENTS = 20
NAMES = ("Lando", "Han", "Leia", "Chewie")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("conflicts") / "data").start()
    yield srv
    srv.stop()


#: A server as a fast machine meets it: the clients' loops reach the per-token limit, so the
#: limiter's 429 appears in every run (where the shared machine is slow, it may never appear
#: with the real limits).
TIGHT = ("import companion.serve as s\nfrom companion.server.limits import Limits, Rate\n"
         "s.LIMITS = Limits(commands_per_token=Rate(burst=4, per_second=8))")


@pytest.fixture(scope="module")
def tight_server(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("tight") / "data", prelude=TIGHT).start()
    yield srv
    srv.stop()


@pytest.fixture
def table(server):
    """A weg table with four seats bought in for 200: `(code, tokens incl. "host")`."""
    return seated_table(server)


def seated_table(server) -> tuple[str, dict[str, str]]:
    """A weg table with four seats bought in for 200: `(code, tokens incl. "host")`."""
    c = JsonClient(server.port)
    _, created, _ = c.call("POST", "/api/v1/tables", {"rules": "weg"})
    tokens = {"host": created["host_token"]}
    for name in NAMES:
        _, joined, _ = c.call("POST", f"/api/v1/tables/{created['code']}/join", {"name": name})
        tokens[joined["seat"]] = joined["token"]
        status, _, _ = c.call("POST", f"/api/v1/tables/{created['code']}/commands",
                              {"type": "buy_in", "amount": 200}, joined["token"])
        assert status == 200
    c.close()
    return created["code"], tokens


def at_once(server, work) -> list:
    """Run `work(i, client)` in CLIENTS threads released together; their results in order."""
    barrier = threading.Barrier(CLIENTS)
    results: list = [None] * CLIENTS

    def run(i):
        client = JsonClient(server.port)
        try:
            barrier.wait(timeout=30)
            results[i] = work(i, client)
        finally:
            client.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


def post_as_a_phone(c: JsonClient, path: str, body: dict, token: str, waited: Counter) -> tuple[int, dict]:
    """POST as a real phone does: a 429 (nothing changed) is waited out for its Retry-After
    and sent again; `waited` counts the waits per token."""
    for _ in range(60):
        status, answer, _ = c.call("POST", path, body, token)
        if status != 429:
            return status, answer
        waited[token] += 1
        time.sleep(float(answer.get("retry_after", 1)))
    raise AssertionError(f"still limited after 60 waits: {answer}")


def log(server, code) -> list[dict]:
    c = JsonClient(server.port)
    try:
        status, body, _ = c.call("GET", f"/api/v1/tables/{code}/log?limit=500")
        assert status == 200
        return body["entries"]
    finally:
        c.close()


def host_state(server, code, tokens) -> dict:
    c = JsonClient(server.port)
    try:
        return c.call("GET", f"/api/v1/tables/{code}", None, tokens["host"])[1]
    finally:
        c.close()


def table_credits(state: dict) -> int:
    hand = state["hand"]
    pot = hand["hand_pot"] if hand and hand["stage"] != "settled" else 0
    return sum(s["stack"] for s in state["seats"]) + pot + state["sabacc_pot"]


def test_twenty_retries_of_one_idempotency_key_apply_it_once(server, table):
    code, tokens = table
    before = len(log(server, code))
    key = uuid.uuid4().hex
    cmd = {"type": "adjust", "seat": "s1", "amount": 7, "reason": "a round on the house",
           "idempotency_key": key}
    results = at_once(server, lambda i, c: c.call("POST", f"/api/v1/tables/{code}/commands", cmd,
                                                  tokens["host"])[:2])
    assert all(status == 200 for status, _ in results), results
    assert len({body["seq"] for _, body in results}) == 1
    assert sum(not body.get("replayed") for _, body in results) == 1
    entries = log(server, code)
    assert len(entries) == before + 1 and entries[-1]["type"] == "adjust"
    seat = next(s for s in host_state(server, code, tokens)["state"]["seats"] if s["seat"] == "s1")
    assert seat["stack"] == 207 and seat["adjusted"] == 7


def test_twenty_commands_made_against_the_same_version_only_one_is_applied(server, table):
    code, tokens = table
    version = host_state(server, code, tokens)["version"]

    def work(i, c):
        cmd = {"type": "adjust", "seat": f"s{1 + i % 4}", "amount": i + 1, "reason": f"claim {i}",
               "version": version, "idempotency_key": uuid.uuid4().hex}
        return c.call("POST", f"/api/v1/tables/{code}/commands", cmd, tokens["host"])[:2]

    results = at_once(server, work)
    statuses = Counter(status for status, _ in results)
    assert statuses == {200: 1, 409: CLIENTS - 1}, statuses
    for status, body in results:
        if status == 409:
            assert body["field"] == "version" and body["version"] == version + 1
            assert body["state"]["version"] == version + 1
    state = host_state(server, code, tokens)
    assert state["version"] == version + 1
    assert table_credits(state["state"]) == 800 + sum(s["adjusted"] for s in state["state"]["seats"])


@pytest.mark.slow
def test_twenty_phones_racing_through_hands_lose_nothing_and_double_nothing(server, table):
    """Each client plays for one actor (four clients per seat and four for the host), reads the
    state and sends what it thinks is next with the version it saw. Clients of one actor that
    saw the same version and chose the same command send the same idempotency key, as one
    phone retrying on a flaky network would."""
    race(server, table)


@pytest.mark.slow
def test_item9_twenty_client_race_drill_holds_on_any_machine(tight_server):
    """The same race where the server answers fast enough for the clients' loops to meet the
    per-token limit: they wait out Retry-After as real clients do, and the drill holds."""
    waited = race(tight_server, seated_table(tight_server), hands_to_play=1)
    assert waited, "the limit was never met: this run did not test the waiting"


def race(server, table, hands_to_play: int = 3) -> Counter:
    """Play `hands_to_play` hands with twenty racing clients; check nothing was lost or
    doubled. Returns how often each token waited out a 429."""
    code, tokens = table
    start = host_state(server, code, tokens)["version"]
    actors = list(tokens)
    stop = threading.Event()
    keys_lock = threading.Lock()
    shared_keys: dict[tuple, str] = {}

    def work(i, c):
        rng = random.Random(i)
        me = actors[i % len(actors)]
        accepted, refused, other, waited = [], Counter(), [], Counter()
        while not stop.is_set():
            status, body, _ = c.call("GET", f"/api/v1/tables/{code}", None, tokens[me])
            state, version = body["state"], body["version"]
            if state["hand_no"] > hands_to_play or (state["hand_no"] == hands_to_play and state["hand"]["stage"] == "settled"):
                stop.set()
                break
            mine = [e for a, e in moves(state) if a == me]
            if not mine:
                continue
            entry = mine[0] if rng.random() < 0.8 else rng.choice(mine)
            with keys_lock:
                key = shared_keys.setdefault((me, version, repr(entry)), uuid.uuid4().hex)
            status, body = post_as_a_phone(c, f"/api/v1/tables/{code}/commands",
                                           {**entry, "version": version, "idempotency_key": key},
                                           tokens[me], waited)
            if status == 200:
                accepted.append((body["seq"], bool(body.get("replayed")), key))
            elif 400 <= status < 500:
                refused[status] += 1
            else:
                other.append((status, body))
        return accepted, refused, other, waited

    results = at_once(server, work)
    assert all(not other for _, _, other, _ in results), [o for _, _, o, _ in results if o]
    applied = [(seq, key) for acc, _, _, _ in results for seq, replayed, key in acc if not replayed]
    replays = [(seq, key) for acc, _, _, _ in results for seq, replayed, key in acc if replayed]
    # (The seeds the server reveals itself after each hand are its own entries.)
    entries = [e for e in log(server, code) if e["seq"] > start
               and not (e["type"] == "reveal_seed" and e["actor"] == "scrambler")]
    # Every entry in the ledger was answered 200 to exactly one client as new...
    assert sorted(seq for seq, _ in applied) == [e["seq"] for e in entries]
    # ...every replay points at one of those, with the key that made it...
    made_by = dict((key, seq) for seq, key in applied)
    assert all(made_by.get(key) == seq for seq, key in replays)
    # ...and the refusals were real races (stale version, not your turn), never a 5xx.
    refused = sum((r for _, r, _, _ in results), Counter())
    assert set(refused) <= {409, 422, 403} and refused[409] > 0
    assert replays, "no two clients ever sent the same request"
    state = host_state(server, code, tokens)["state"]
    assert state["hand_no"] >= hands_to_play
    assert 429 not in refused  # waited out, as a phone does: never a refusal of the drill
    assert table_credits(state) == sum(s["bought_in"] for s in state["seats"]) + sum(
        s["adjusted"] for s in state["seats"])
    return sum((w for _, _, _, w in results), Counter())


def test_item9_a_whole_tables_burst_stays_under_the_limits(tmp_path):
    """Every phone and the host act at once, twice each (four clients per token, as the race
    drill has): 40 commands from one address in a moment, none refused by a limit. On a server
    of its own, so that what the other drills sent from this address does not count."""
    server = ServerProcess(tmp_path / "data").start()
    try:
        burst(server, seated_table(server))
    finally:
        server.stop()


def burst(server, table) -> None:
    code, tokens = table
    actors = list(tokens)

    def work(i, c):
        me = actors[i % len(actors)]
        out = []
        for n in range(2):
            if me == "host":
                cmd = {"type": "adjust", "seat": "s1", "amount": 1, "reason": f"burst {i} {n}"}
            else:
                cmd = {"type": "sit_out" if n == 0 else "sit_in"}
            out.append(c.call("POST", f"/api/v1/tables/{code}/commands", cmd, tokens[me])[0])
        return out

    statuses = Counter(s for got in at_once(server, work) for s in got)
    assert 429 not in statuses, statuses
    assert set(statuses) <= {200, 409}, statuses  # a sit_in after another client's sit_in: 409
