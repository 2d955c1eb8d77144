"""Issue 15: the stream places the owner's tables need are theirs, and one client's tables
cannot take another table's places (`companion.server.events.StreamGate`)."""

from __future__ import annotations

import pytest

from companion.refusal import Refused
from companion.server.events import StreamGate
from companion.server.limits import COMMAND_BODY_MAX
from companion.server import create_app


def test_four_addresses_full_of_a_guests_seat_streams_give_way_to_the_owners_table():
    gate = StreamGate(seats=96, spectators=8)
    guest = [gate.enter(f"127.0.0.{2 + n // 24}", f"guest-token-{n // 3}", "made by 127.0.0.2")
             for n in range(96)]
    for n, token in enumerate(("seat", "host", "display:KMXTR")):
        gate.enter("127.0.0.1", token, "owner", own=True)
    assert gate.seats.open == 96 and gate.shed == 3
    # The guest's extra streams (a token's second and third) went first, its first ones kept.
    left = [p for p in guest if not p.left]
    assert len(left) == 93 and all(p.token for p in left)


def test_with_the_pool_full_the_owners_open_pages_open_again_and_a_guests_reload_replaces_its_own():
    """Issue 28, item 19: the owner's phone, host console and display each hold their stream
    when a guest's streams fill the pool; a reload or a second tab (the token's second stream)
    still gets in, in a guest's place. A guest's own second stream takes its oldest's place
    instead of a `503`."""
    gate = StreamGate(seats=96, spectators=8)
    for n in range(96):  # 8 addresses, 12 seats of their own tables each, one stream each
        gate.enter(f"127.0.0.{2 + n // 12}", f"guest-{n}", f"made by 127.0.0.{2 + n // 12}")
    pages = [gate.enter("127.0.0.1", token, "owner", own=True) for token in ("seat", "host", "display:K")]
    again = [gate.enter("127.0.0.1", token, "owner", own=True) for token in ("seat", "host", "display:K")]
    assert not any(p.left for p in pages + again), "an open page of the owner's table lost its stream"
    assert gate.seats.open == 96 and sum(1 for p in gate.seats.places if p.own) == 6
    # A guest seat's reload replaces its own stream (no 503, and no other guest's place).
    mine = next(p for p in gate.seats.places if p.token == "guest-95")
    reload = gate.enter("127.0.0.9", "guest-95", "made by 127.0.0.9")
    assert mine.left and not reload.left and gate.seats.open == 96


def test_one_clients_tables_cannot_take_another_tables_places():
    gate = StreamGate(seats=12, spectators=4, per_token=1)
    for n in range(12):  # one client's many tables fill the pool, one stream per token
        gate.enter("127.0.0.2", f"g{n}", "made by 127.0.0.2")
    # Another client's table (not the owner's either) still seats its streams, up to a fair
    # share: the party holding the most gives way while it holds more.
    mine = [gate.enter("127.0.0.3", f"t{n}", "made by 127.0.0.3") for n in range(5)]
    assert all(not p.left for p in mine)
    parties = {}
    for p in gate.seats.places:
        parties[p.party] = parties.get(p.party, 0) + 1
    assert parties == {"made by 127.0.0.2": 7, "made by 127.0.0.3": 5}
    for n in range(5, 6):
        gate.enter("127.0.0.3", f"t{n}", "made by 127.0.0.3")
    with pytest.raises(Refused):  # an even split: nobody takes more
        gate.enter("127.0.0.3", "t6", "made by 127.0.0.3")


def test_a_command_body_is_bounded_and_the_free_space_probe_stands_in_for_a_small_disk(tmp_path):
    free = {"bytes": 200 * 1024 * 1024}
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "FREE_SPACE_PROBE": lambda: free["bytes"]})
    client = app.test_client()
    reg = app.extensions["tables"]
    owner_token = reg.owner_secret
    try:
        guest = client.post("/api/v1/tables", json={"rules": "weg"}).get_json()
        real = client.post("/api/v1/tables", json={"rules": "weg"},
                           headers={"Authorization": f"Bearer {owner_token}"}).get_json()
        seats = {}
        for t in (guest, real):
            seats[t["code"]] = client.post(f"/api/v1/tables/{t['code']}/join", json={"name": "Lando"}).get_json()["token"]

        def act(code):
            return client.post(f"/api/v1/tables/{code}/commands", json={"type": "sit_out"},
                               headers={"Authorization": f"Bearer {seats[code]}"}).status_code

        free["bytes"] = 30 * 1024 * 1024  # below a guest's reserve, above the owner's
        assert act(guest["code"]) == 507 and act(real["code"]) == 200
        assert client.post("/api/v1/tables", json={"rules": "weg"}).status_code == 507
        assert client.post("/api/v1/tables", json={"rules": "weg"},
                           headers={"Authorization": f"Bearer {owner_token}"}).status_code == 201
        free["bytes"] = 4 * 1024 * 1024  # below every reserve: the data stays safe
        assert act(real["code"]) == 507
        big = client.post(f"/api/v1/tables/{real['code']}/commands", data=b"{" + b" " * COMMAND_BODY_MAX + b"}",
                          content_type="application/json", headers={"Authorization": f"Bearer {seats[real['code']]}"})
        assert big.status_code == 413 and big.get_json()["field"] == "body"
    finally:
        reg.close()


def test_a_stream_too_far_behind_its_client_is_cut_and_its_place_freed(tmp_path):
    """Issue 22: a stream whose client has not taken `STREAM_BEHIND_BYTES` of it is cut (its
    connection dropped, nothing more queued for it); the phone reconnects to a snapshot."""
    from companion.server import events, front
    from companion.table.registry import Registry

    class Server:
        dropped: list[str] = []

        def drop(self, channel, why):
            self.dropped.append(why)

    channel = object.__new__(front.TableChannel)  # no socket: only what the stream reads
    channel.server = Server()
    channel.total_outbufs_len = 0
    environ = {"companion.channel": channel}
    reg = Registry(tmp_path)
    try:
        owner, _ = reg.create({"rules": "weg"})
        gate = StreamGate(seats=4, spectators=4)
        place = gate.enter("127.0.0.2", None)
        sub, version, _ = owner.subscribe()
        stream = events.EventStream(owner, sub, place, ["retry: 2000\n\n"], 5.0, None, environ)
        out = iter(stream)
        assert next(out).startswith(b"retry")
        owner.join("Lando")  # in the stream's mailbox once committed (no publisher thread)
        assert next(out).startswith(b"id: 1")  # kept up: the update goes out
        channel.total_outbufs_len = events.STREAM_BEHIND_BYTES + 1  # the client stopped taking it
        owner.join("Han")
        assert list(out) == []  # cut: nothing more is written
        assert channel.server.dropped == ["its event stream fell too far behind"]
        assert place.left and gate.spectators.open == 0 and owner.subscriber_count == 0
    finally:
        reg.close()


def test_guest_lanes_are_given_back_whatever_order_the_requests_end_in():
    """A lane belongs to the thread running a request: a connection whose next request is
    queued (and runs on another thread) before this one ends must not keep or lose one."""
    import threading
    import time

    from companion.server import front

    dispatcher = front.LaneDispatcher({front.OTHER_TABLE: 1, front.ANONYMOUS: 1})
    done = threading.Semaphore(0)
    most = {"running": 0}

    class Conn(front.TableChannel):
        def __init__(self, rank, again):
            self.rank, self.requests, self.again = rank, [], again

        def service(self):
            most["running"] = max(most["running"], sum(dispatcher.guests_running.values()))
            if self.again:
                self.again -= 1
                dispatcher.add_task(self)  # its next request, queued before this one ends
            time.sleep(0.001)
            done.release()

    dispatcher.set_thread_count(4)
    try:
        conns = [Conn(rank, 3) for rank in (front.OTHER_TABLE, front.ANONYMOUS, front.OWN_TABLE) * 5]
        for c in conns:
            dispatcher.add_task(c)
        for _ in range(len(conns) * 4):
            assert done.acquire(timeout=10)
        time.sleep(0.05)
        assert dispatcher.guests_running == {front.OTHER_TABLE: 0, front.ANONYMOUS: 0}
        assert most["running"] <= 2  # never more than the lanes
    finally:
        dispatcher.shutdown()
