"""The table's event stream: snapshot then updates with ids, Last-Event-ID resume, per-viewer
views (no seat ever sees another's hidden cards or any token), the stream cap, dead clients
dropped by the heartbeat, and actions served promptly while many streams are open."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time

import pytest

from companion import serve
from companion.server import create_app, events

from conftest import LiveServer
from test_crash import http_call
from test_tables_api import Api, flask_call, next_action


def parse(text: str) -> list[dict]:
    """SSE text → messages: {"id", "event", "data"} (comments as {"comment"})."""
    out = []
    for block in text.split("\n\n"):
        if not block.strip():
            continue
        msg: dict = {}
        for line in block.split("\n"):
            if line.startswith(":"):
                msg["comment"] = line[1:].strip()
            elif line.startswith("retry:"):
                msg["retry"] = int(line[6:])
            else:
                key, _, value = line.partition(": ")
                msg[key] = int(value) if key == "id" else json.loads(value) if key == "data" else value
        out.append(msg)
    return out


class Stream:
    """An open stream through Flask's test client (`buffered=False`)."""

    def __init__(self, client, url, headers=None, address: str = "127.0.0.1"):
        self.resp = client.get(url, headers=headers or {}, buffered=False, environ_base={"REMOTE_ADDR": address})
        self._chunks = self.resp.iter_encoded()

    def next(self) -> dict:
        """The next message that is not the retry line (pings included)."""
        while True:
            msgs = parse(next(self._chunks).decode())
            msg = msgs[0]
            if "retry" not in msg:
                return msg

    def next_event(self) -> dict:
        """The next message that is not a ping."""
        while True:
            msg = self.next()
            if "comment" not in msg:
                return msg

    def close(self):
        self.resp.close()


@pytest.fixture
def sse_app(tmp_path):
    app = create_app(
        {"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "SSE_HEARTBEAT_S": 0.2, "MAX_STREAMS": 6,
         "MAX_SPECTATOR_STREAMS": 6}
    )
    yield app
    app.extensions["tables"].close()


@pytest.fixture
def table(sse_app):
    a = Api(flask_call(sse_app.test_client()))
    a.create({"rules": "weg"})
    for name in ("Lando", "Han", "Leia"):
        a.join(name)
    return a


def events_url(api, token=None):
    return f"/api/v1/tables/{api.code}/events" + (f"?token={token}" if token else "")


def test_a_stream_starts_with_a_snapshot_then_sends_each_update_with_its_version(sse_app, table):
    stream = Stream(sse_app.test_client(), events_url(table, table.tokens["s1"]))
    assert stream.resp.headers["Content-Type"].startswith("text/event-stream")
    assert stream.resp.headers["Cache-Control"] == "no-cache"
    assert stream.resp.headers["X-Accel-Buffering"] == "no"
    snap = stream.next_event()
    assert snap["event"] == "snapshot" and snap["id"] == 6 == snap["data"]["version"]
    assert snap["data"]["viewer"] == {"seat": "s1", "host": False}
    assert snap["data"]["state"]["you"]["seat"] == "s1"
    started = table.ok("host", "start_hand")
    msg = stream.next_event()
    assert (msg["event"], msg["id"]) == ("update", started["seq"])
    assert msg["data"]["events"] == started["events"]
    assert msg["data"]["state"]["you"]["seat"] == "s1" and msg["data"]["state"]["version"] == 7
    stream.close()


def test_a_stream_asking_for_changes_only_gets_updates_that_rebuild_the_whole_view(sse_app, table):
    """`?changed=1` (what the pages ask for): each update's state leaves out the top-level
    parts that are the same as in the last state the stream sent (the rules and the game's
    blocks, most of a view's bytes); the page keeps them (live.js), and the last state with
    the update's parts over it is the viewer's whole view at that version, byte for byte."""
    client = sse_app.test_client()
    full = Stream(client, events_url(table, table.tokens["s2"]))
    changed = Stream(client, events_url(table, table.tokens["s2"]) + "&changed=1")
    kept = changed.next_event()["data"]["state"]
    assert full.next_event()["data"]["state"] == kept and "rules" in kept and "blocks" in kept
    table.ok("host", "start_hand")
    turn = table.state()["state"]["hand"]["turn"]
    table.ok(turn, "bet", amount=2)
    table.ok("host", "adjust", seat="s1", amount=1, reason="found a chip")
    for _ in range(3):
        whole, part = full.next_event()["data"], changed.next_event()["data"]
        assert part["version"] == whole["version"] and part["events"] == whole["events"]
        assert "rules" not in part["state"] and "blocks" not in part["state"]
        assert len(json.dumps(part["state"])) < 0.75 * len(json.dumps(whole["state"]))
        kept = {**kept, **part["state"]}
        assert json.dumps(kept) == json.dumps(whole["state"])  # the same keys in the same order too
    assert kept == table.state("s2")["state"]  # the whole view at the last version
    full.close()
    changed.close()
    # A page coming back from sleep gets the missed entries and, with the last, its whole view.
    back = Stream(client, events_url(table, table.tokens["s2"]) + "&changed=1", {"Last-Event-ID": "7"})
    assert back.next_event()["id"] == 8
    last = back.next_event()["data"]
    assert last["version"] == 9 and last["state"] == table.state("s2")["state"]
    table.ok("host", "adjust", seat="s1", amount=-1, reason="gave it back")
    assert "rules" not in back.next_event()["data"]["state"]
    back.close()


def test_a_quiet_stream_sends_heartbeat_comments(sse_app, table):
    stream = Stream(sse_app.test_client(), events_url(table))
    stream.next_event()
    assert stream.next() == {"comment": "ping"}
    stream.close()


def test_last_event_id_replays_the_missed_updates_in_order(sse_app, table):
    client = sse_app.test_client()
    table.ok("host", "start_hand")  # 7
    turn = table.state()["state"]["hand"]["turn"]
    table.ok(turn, "bet", amount=2)  # 8
    stream = Stream(client, events_url(table, table.tokens["s2"]), {"Last-Event-ID": "6"})
    first, second = stream.next_event(), stream.next_event()
    assert [first["id"], second["id"]] == [7, 8]
    assert first["data"]["events"][0]["type"] == "hand_started" and "state" not in first["data"]
    assert second["data"]["events"][0] == {"type": "bet", "seat": turn, "amount": 2, "stack": second["data"]["events"][0]["stack"]}
    assert second["data"]["state"]["version"] == 8 and second["data"]["state"]["you"]["seat"] == "s2"
    # Then live updates follow, none missed or doubled.
    table.ok("host", "adjust", seat="s1", amount=1, reason="found a chip")
    assert stream.next_event()["id"] == 9
    stream.close()


def test_an_unknown_or_too_old_last_event_id_gets_a_fresh_snapshot(sse_app, table):
    client = sse_app.test_client()
    for last in ("99", "banana"):
        stream = Stream(client, events_url(table), {"Last-Event-ID": last})
        msg = stream.next_event()
        assert (msg["event"], msg["id"]) == ("snapshot", 6)
        stream.close()


def test_a_stream_with_a_wrong_token_is_refused(sse_app, table):
    resp = sse_app.test_client().get(events_url(table, "nope"))
    assert resp.status_code == 403 and resp.get_json()["field"] == "token"
    assert sse_app.test_client().get("/api/v1/tables/AAAAA/events").status_code == 404


def test_moving_a_seat_to_a_new_phone_ends_the_old_phones_stream(sse_app, table):
    old = table.tokens["s2"]
    stream = Stream(sse_app.test_client(), events_url(table, old))
    try:
        assert stream.next_event()["event"] == "snapshot"
        status, body = table.call("POST", f"/api/v1/tables/{table.code}/seats/s2/token", None, table.host)
        assert status == 200
        assert stream.next_event()["event"] == "bye"
        with pytest.raises(StopIteration):
            stream.next()
    finally:
        stream.close()
    assert sse_app.test_client().get(events_url(table, old)).status_code == 403
    fresh = Stream(sse_app.test_client(), events_url(table, body["token"]))
    try:
        assert fresh.next_event()["data"]["viewer"]["seat"] == "s2"
    finally:
        fresh.close()


def test_closing_a_stream_unsubscribes_it_and_frees_its_place(sse_app, table):
    owner = sse_app.extensions["tables"].get(table.code)
    gate = sse_app.extensions["table_streams"]
    streams = [Stream(sse_app.test_client(), events_url(table)) for _ in range(6)]
    assert owner.subscriber_count == 6 and gate.open == 6
    # The cap: one more is refused with 503 and Retry-After.
    resp = sse_app.test_client().get(events_url(table))
    assert resp.status_code == 503 and resp.headers["Retry-After"] == "5"
    assert resp.get_json()["error"]
    for s in streams:
        s.close()
    assert owner.subscriber_count == 0 and gate.open == 0
    # Closing a stream that never sent anything also frees it.
    resp = sse_app.test_client().get(events_url(table), buffered=False)
    resp.close()
    assert owner.subscriber_count == 0 and gate.open == 0


def test_item2_a_seats_stream_gets_through_with_the_spectators_pool_full(sse_app, table):
    """Issue 11 item 2: token-less streams have their own pool; seats and the host are never
    refused because spectators took every place."""
    spectators = [Stream(sse_app.test_client(), events_url(table), address=f"10.0.0.{i}") for i in range(6)]
    try:
        refused = sse_app.test_client().get(events_url(table), environ_base={"REMOTE_ADDR": "10.0.1.1"})
        assert refused.status_code == 503 and refused.headers["Retry-After"] == "5"
        seat = Stream(sse_app.test_client(), events_url(table, table.tokens["s1"]), address="10.0.0.1")
        host = Stream(sse_app.test_client(), events_url(table, table.host), address="10.0.2.1")
        assert seat.next_event()["event"] == "snapshot" and host.next_event()["event"] == "snapshot"
        seat.close()
        host.close()
    finally:
        for s in spectators:
            s.close()


def test_item2_one_address_cannot_take_the_spectators_pool(tmp_path):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "SSE_HEARTBEAT_S": 0.2,
                      "MAX_SPECTATOR_STREAMS": 6, "SPECTATOR_STREAMS_PER_ADDRESS": 2})
    a = Api(flask_call(app.test_client()))
    a.create({"rules": "weg"})
    held = [Stream(app.test_client(), events_url(a), address="10.0.0.66") for _ in range(2)]
    try:
        over = app.test_client().get(events_url(a), environ_base={"REMOTE_ADDR": "10.0.0.66"})
        assert over.status_code == 429 and over.headers["Retry-After"] == "5"
        assert "close a page" in over.get_json()["error"]
        other = Stream(app.test_client(), events_url(a), address="10.0.0.67")
        assert other.next_event()["event"] == "snapshot"
        other.close()
    finally:
        for s in held:
            s.close()
    assert app.extensions["table_streams"].open == 0
    app.extensions["tables"].close()


def test_item2_a_tokens_fourth_stream_takes_the_place_of_its_oldest(sse_app, table):
    """A reloaded phone always gets its stream: the oldest of the seat's streams says bye."""
    url = events_url(table, table.tokens["s2"])
    streams = [Stream(sse_app.test_client(), url) for _ in range(events.STREAMS_PER_TOKEN)]
    for s in streams:
        assert s.next_event()["event"] == "snapshot"
    newest = Stream(sse_app.test_client(), url)
    assert newest.next_event()["event"] == "snapshot"
    assert streams[0].next_event()["event"] == "bye"
    with pytest.raises(StopIteration):
        streams[0].next()
    gate = sse_app.extensions["table_streams"]
    assert gate.seats.open == events.STREAMS_PER_TOKEN
    for s in [*streams, newest]:
        s.close()
    assert gate.open == 0


def test_no_seat_receives_another_seats_hidden_cards_or_any_token(sse_app, table):
    client = sse_app.test_client()
    streams = {seat: Stream(client, events_url(table, tok)) for seat, tok in table.tokens.items()}
    streams[None] = Stream(client, events_url(table))
    streams["host"] = Stream(client, events_url(table, table.host))
    for s in streams.values():
        s.next_event()
    table.ok("host", "start_hand")
    entered: dict[str, list[str]] = {}
    seen: dict = {k: [] for k in streams}
    for _ in range(300):
        seat, kind, fields = next_action(table)
        table.ok(seat, kind, **fields)
        for k, s in streams.items():
            seen[k].append(s.next_event())
        if kind == "reveal":
            entered[seat] = fields["cards"]
            if len(entered) == 2:  # the reveal is not complete yet: one seat still to enter
                break
    secrets_ = set(table.tokens.values()) | {table.host}
    for viewer, messages in seen.items():
        text = json.dumps(messages)
        assert not any(tok in text for tok in secrets_), viewer
        for seat, cards in entered.items():
            if seat != viewer:
                assert not any(f'"{c}"' in text for c in cards), (viewer, seat)
    mine = next(iter(entered))
    assert seen[mine][-1]["data"]["state"]["you"]["cards"] == entered[mine]
    for s in streams.values():
        s.close()


# -- under waitress ---------------------------------------------------------------------------


def stop(app, srv) -> None:
    """Say goodbye to every stream, wait until their threads are done, then stop serving
    (a stream thread writing after the server closed would raise in waitress)."""
    for owner in app.extensions["tables"].owners():
        owner.close()
    gate = app.extensions["table_streams"]
    deadline = time.monotonic() + 10
    while gate.open and time.monotonic() < deadline:
        time.sleep(0.02)
    srv.close()
    app.extensions["tables"].close()


def open_stream(port: int, path: str, source: str | None = None) -> tuple[socket.socket, str]:
    """A raw HTTP connection reading the stream (from loopback address `source`, as another
    device); returns it and the text up to the snapshot."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                    source_address=(source, 0) if source else None)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
    text = b""
    while b"event: snapshot" not in text:
        if b"\r\n\r\n" in text and not text.startswith(b"HTTP/1.1 200"):
            head, _, body = text.partition(b"\r\n\r\n")
            length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            if len(body) >= length:
                break
        chunk = sock.recv(65536)
        if not chunk:
            break
        text += chunk
    return sock, text.decode(errors="replace")


@pytest.mark.slow
def test_under_waitress_actions_stay_fast_with_every_stream_slot_taken(tmp_path):
    """The real numbers of `serve`: both stream pools full still leave threads for actions.
    Every device is its own loopback address, as phones are on the Wi-Fi."""
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "MAX_STREAMS": serve.MAX_STREAMS,
                      "MAX_SPECTATOR_STREAMS": serve.MAX_SPECTATOR_STREAMS, "SSE_HEARTBEAT_S": 1.0})
    srv = LiveServer(app, threads=serve.SERVER_THREADS)
    port = srv.server.effective_port
    socks = []
    try:
        a = Api(http_call(srv))
        a.create({"rules": "weg"})
        for name in ("Lando", "Han"):
            a.join(name)
        # More tables, so that enough tokens hold the seats' pool (3 streams per token).
        tokens = [a.host, *a.tokens.values()]
        while len(tokens) * events.STREAMS_PER_TOKEN < serve.MAX_STREAMS:
            other = Api(http_call(srv))
            other.create({"rules": "weg", "max_seats": 12})
            tokens.append(other.host)
            for n in range(12):
                other.join(f"Guest {n}", buy_in=None)
            tokens += [(other.code, t) for t in other.tokens.values()]
            tokens[-13] = (other.code, other.host)
        paths = []
        for t in tokens:
            code, tok = t if isinstance(t, tuple) else (a.code, t)
            paths += [f"/api/v1/tables/{code}/events?token={tok}"] * events.STREAMS_PER_TOKEN
        for i, path in enumerate(paths[:serve.MAX_STREAMS]):
            sock, text = open_stream(port, path, source=f"127.0.1.{1 + i // 3}")
            assert "200 OK" in text and "event: snapshot" in text, text[:300]
            socks.append(sock)
        for i in range(serve.MAX_SPECTATOR_STREAMS):
            sock, text = open_stream(port, f"/api/v1/tables/{a.code}/events", source=f"127.0.2.{1 + i // 4}")
            assert "200 OK" in text and "event: snapshot" in text, text[:300]
            socks.append(sock)
        sock, text = open_stream(port, f"/api/v1/tables/{a.code}/events", source="127.0.3.1")
        assert "503" in text.splitlines()[0] and "Retry-After: 5" in text
        sock.close()
        # Twenty clients act at once while every stream is open: all answered promptly.
        times: list[float] = []
        errors: list = []

        def act(i):
            t = time.perf_counter()
            status, body = a.act("host", "adjust", seat="s2", amount=1, reason=f"drill {i}")
            times.append(time.perf_counter() - t)
            if status != 200:
                errors.append(body)

        threads = [threading.Thread(target=act, args=(i,)) for i in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert not errors and len(times) == 20
        # A request starved by the streams would wait until they close (never, here) and time
        # out after 10 s; twenty commits queued behind one lock on a busy 2-core machine can
        # take a few seconds, so the bound sits between the two.
        assert max(times) < 8.0, times
        assert a.state()["state"]["seats"][1]["stack"] == 100 + 20
        # Every stream received the twenty updates.
        for sock in socks[:5]:
            sock.settimeout(5)
            got = b""
            while got.count(b"event: update") < 20:
                got += sock.recv(65536)
    finally:
        for sock in socks:
            sock.close()
        stop(app, srv)


@pytest.mark.slow
def test_under_waitress_a_dead_client_is_dropped_by_the_heartbeat(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "SSE_HEARTBEAT_S": 0.2})
    srv = LiveServer(app, threads=8)
    try:
        a = Api(http_call(srv))
        a.create({"rules": "weg"})
        owner = app.extensions["tables"].get(a.code)
        gate = app.extensions["table_streams"]
        socks = [open_stream(srv.server.effective_port, f"/api/v1/tables/{a.code}/events")[0] for _ in range(5)]
        assert owner.subscriber_count == 5
        for sock in socks:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            sock.close()  # a reset, as when a phone walks out of the Wi-Fi
        deadline = time.monotonic() + 10
        while (owner.subscriber_count or gate.open) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert owner.subscriber_count == 0 and gate.open == 0
        # The freed threads serve requests again.
        assert a.state()["version"] == 0
    finally:
        stop(app, srv)


def test_http_client_reads_the_stream_over_a_real_connection(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "SSE_HEARTBEAT_S": 0.2})
    srv = LiveServer(app, threads=8)
    try:
        a = Api(http_call(srv))
        a.create({"rules": "weg"})
        conn = http.client.HTTPConnection("127.0.0.1", srv.server.effective_port, timeout=10)
        conn.request("GET", f"/api/v1/tables/{a.code}/events?token={a.host}")
        resp = conn.getresponse()
        assert resp.status == 200 and resp.getheader("X-Accel-Buffering") == "no"
        a.join("Lando", buy_in=None)
        text = ""
        while "event: update" not in text:
            text += resp.read1(65536).decode()
        msgs = [m for m in parse(text.split("event: update")[0] + "event: update" + "\n") if "id" in m]
        assert msgs[0]["event"] == "snapshot"
        conn.close()
    finally:
        stop(app, srv)


@pytest.mark.slow
def test_under_waitress_stream_churn_leaves_no_subscriber_or_thread_behind(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "SSE_HEARTBEAT_S": 0.2, "MAX_STREAMS": 24})
    srv = LiveServer(app, threads=32)
    try:
        a = Api(http_call(srv))
        a.create({"rules": "weg"})
        a.join("Lando", buy_in=None)
        owner = app.extensions["tables"].get(a.code)
        gate = app.extensions["table_streams"]
        port = srv.server.effective_port
        open_stream(port, f"/api/v1/tables/{a.code}/events")[0].close()
        baseline = threading.active_count()
        for i in range(300):
            sock, text = open_stream(port, f"/api/v1/tables/{a.code}/events?token={a.tokens['s1']}")
            while " 503 " in text.splitlines()[0]:
                # Every place is held by a client that left but has not been pinged yet: like
                # a browser, wait as Retry-After says (scaled to this test's heartbeat).
                sock.close()
                time.sleep(0.25)
                sock, text = open_stream(port, f"/api/v1/tables/{a.code}/events?token={a.tokens['s1']}")
            assert "event: snapshot" in text
            if i % 2:  # half leave with a reset, half with a clean close
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            sock.close()
            if i % 50 == 0:
                a.ok("s1", "sit_out") if i % 100 == 0 else a.ok("s1", "sit_in")
        deadline = time.monotonic() + 10
        while (owner.subscriber_count or gate.open) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert owner.subscriber_count == 0 and gate.open == 0
        assert threading.active_count() <= baseline + 1  # at most the table's publisher
        assert a.state()["state"]["seats"][0]["sitting_out"] is False
    finally:
        stop(app, srv)


@pytest.mark.slow
def test_under_waitress_a_closed_stream_is_freed_long_before_the_next_ping(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "SSE_HEARTBEAT_S": 30.0})
    srv = LiveServer(app, threads=8)
    try:
        a = Api(http_call(srv))
        a.create({"rules": "weg"})
        gate = app.extensions["table_streams"]
        socks = [open_stream(srv.server.effective_port, f"/api/v1/tables/{a.code}/events")[0] for _ in range(4)]
        assert gate.open == 4
        started = time.monotonic()
        for sock in socks:
            sock.close()
        while gate.open and time.monotonic() - started < 15:
            time.sleep(0.05)
        # Freed by waitress's disconnect check (every 0.5 s), far sooner than the 30 s ping
        # (slack for a busy machine).
        assert gate.open == 0 and time.monotonic() - started < 10
    finally:
        stop(app, srv)


def test_item2_the_displays_stream_gets_through_with_the_spectators_pool_full(sse_app, table):
    """Issue 11 item 2: the table display holds no token, but the display key the host console
    hands it: guests filling the spectators' pool cannot blind it, and it sees the public view
    only. A wrong key is a spectator like any other."""
    status, body = table.call("GET", f"/api/v1/tables/{table.code}", None, table.host)
    key = body["display_key"]
    status, public = table.call("GET", f"/api/v1/tables/{table.code}", None, None)
    assert "display_key" not in public
    spectators = [Stream(sse_app.test_client(), events_url(table), address=f"10.0.0.{i}") for i in range(6)]
    try:
        wrong = sse_app.test_client().get(events_url(table) + "?display=" + "0" * 32,
                                          environ_base={"REMOTE_ADDR": "10.0.1.1"})
        assert wrong.status_code == 503
        display = Stream(sse_app.test_client(), events_url(table) + "?display=" + key, address="10.0.3.1")
        snapshot = display.next_event()
        assert snapshot["event"] == "snapshot"
        assert snapshot["data"]["viewer"] == {"seat": None, "host": False}
        assert "host_legal" not in snapshot["data"]["state"]
        display.close()
    finally:
        for s in spectators:
            s.close()


def test_a_stream_asking_for_changes_with_another_value_is_a_400(sse_app, table):
    """`changed` takes the one value the document names: any other is refused in words (the
    fuzzer's `?changed=AAA` was answered with a stream, as if it were left out)."""
    client = sse_app.test_client()
    for value in ("AAA", "0", ""):
        resp = client.get(f"/api/v1/tables/{table.code}/events?changed={value}&token={table.tokens['s1']}")
        assert resp.status_code == 400 and resp.get_json()["field"] == "changed"
    stream = client.get(f"/api/v1/tables/{table.code}/events?changed=1&token={table.tokens['s1']}", buffered=False)
    assert stream.status_code == 200
    stream.close()
