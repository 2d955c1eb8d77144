"""Conflicting commands from many clients at once, over real HTTP (waitress): each is applied
once or refused, none is lost or doubled, and credits are conserved."""

from __future__ import annotations

import random
import threading

import pytest

from companion.server import create_app
from companion.table.owner import TableOwner
from conftest import LiveServer
from test_crash import http_call
from test_sse import stop
from test_tables_api import Api, credits, next_action

CLIENTS = 20


@pytest.fixture
def served(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path / "data")})
    srv = LiveServer(app, threads=CLIENTS + 8)
    a = Api(http_call(srv))
    a.create({"rules": "weg"})
    for name in ("Lando", "Han", "Leia"):
        a.join(name)
    yield app, a
    stop(app, srv)


def at_once(n: int, fn) -> list:
    """Run `fn(i)` in `n` threads released together; their results in order."""
    barrier = threading.Barrier(n)
    results: list = [None] * n

    def run(i):
        barrier.wait()
        results[i] = fn(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def stacks(api) -> dict[str, int]:
    return {s["seat"]: s["stack"] for s in api.state()["state"]["seats"]}


def test_many_clients_with_the_same_version_only_one_is_applied(served):
    app, api = served
    version = api.state()["version"]
    before = stacks(api)
    results = at_once(
        CLIENTS,
        lambda i: api.act("host", "adjust", seat="s1", amount=1, reason=f"client {i}", version=version),
    )
    statuses = sorted(status for status, _ in results)
    assert statuses == [200] + [409] * (CLIENTS - 1)
    for status, body in results:
        if status == 409:
            assert body["field"] == "version" and body["version"] == version + 1
    assert stacks(api)["s1"] == before["s1"] + 1
    assert api.state()["version"] == version + 1


def test_a_retry_storm_with_one_idempotency_key_is_applied_once(served):
    app, api = served
    before = stacks(api)
    results = at_once(
        CLIENTS,
        lambda i: api.act("host", "adjust", seat="s2", amount=5, reason="late chips", idempotency_key="storm"),
    )
    assert all(status == 200 for status, _ in results)
    assert len({body["seq"] for _, body in results}) == 1
    assert sum(1 for _, body in results if not body.get("replayed")) == 1
    assert stacks(api)["s2"] == before["s2"] + 5


def test_everyone_acting_at_once_in_a_hand_each_command_applied_once_or_refused(served):
    app, api = served
    api.ok("host", "start_hand")
    start = credits(api.state()["state"])
    first_seq = api.state()["version"] + 1
    turn = api.state()["state"]["hand"]["turn"]
    # Each of the 20 clients tries a bet, a check or a fold, for the turn seat or another.
    rng = random.Random(3)
    plan = [(rng.choice(list(api.tokens)), rng.choice(["bet", "check", "fold"])) for _ in range(CLIENTS)]
    plan[0] = (turn, "bet")

    def go(i):
        seat, kind = plan[i]
        fields = {"amount": 1} if kind == "bet" else {}
        return api.act(seat, kind, **fields, idempotency_key=f"c{i}")

    results = at_once(CLIENTS, go)
    assert all(status in (200, 403, 409, 422) for status, _ in results), results
    applied = [body["seq"] for status, body in results if status == 200]
    assert len(applied) == len(set(applied)), "two commands got the same entry"
    log = api.log()
    # The ledger holds exactly the acknowledged commands: none lost, nothing unacknowledged.
    assert [e["seq"] for e in log if e["seq"] >= first_seq] == sorted(applied)
    assert credits(api.state()["state"]) == start
    # The ledger replays to the same table.
    owner = app.extensions["tables"].get(api.code)
    replayed = TableOwner(owner.code, owner.ledger, owner.table_class)
    assert replayed.table.to_json() == owner.table.to_json()


def test_random_play_from_many_threads_conserves_credits_and_replays_exactly(served):
    app, api = served
    bought = credits(api.state()["state"])
    api.ok("host", "start_hand")
    lock = threading.Lock()
    outcomes: list[int] = []

    def player(i):
        rng = random.Random(i)
        for _ in range(6):
            with lock:  # choosing reads several views; sending is what races
                action = next_action(api, rng)
            if action is None:
                return
            seat, kind, fields = action
            status, _ = api.act(seat, kind, **fields)
            outcomes.append(status)

    at_once(8, player)
    assert 200 in outcomes and set(outcomes) <= {200, 403, 409, 422}
    view = api.state()["state"]
    assert credits(view) == bought
    assert all(s["stack"] >= 0 for s in view["seats"])
    owner = app.extensions["tables"].get(api.code)
    assert TableOwner(owner.code, owner.ledger, owner.table_class).table.to_json() == owner.table.to_json()
