"""An event stream's updates are written by the thread that commits them (issue 19).

Under waitress, once a stream has written its first messages, each later update is rendered
and written to its connection by the thread that committed the entry (`TableOwner.deliver`,
`Subscription.write_directly`, `front.chunk_writer`): no thread wakes per stream and update.
These tests hold that path to what a phone needs: every update, once, in order, after its
snapshot; the command's answer first; a stream too far behind cut; nothing written once the
stream has ended.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from urllib.parse import urlsplit

import pytest

from companion.server import events, front
from companion.server.events import StreamGate
from companion.table.owner import defer_delivery, deferred_deliveries
from companion.table.registry import Registry


class FakeServer:
    """What a stream reads of waitress's server: where a dropped connection is reported."""

    def __init__(self) -> None:
        self.dropped: list[str] = []

    def drop(self, channel, why):
        self.dropped.append(why)


class FakeTask(front.TableTask):
    """A waitress task with no socket: it records each piece written, and by which thread."""

    def __init__(self) -> None:  # waitress's own __init__ needs a channel and a request
        self.pieces: list[tuple[bytes, str]] = []
        self.gone = False
        self.written = threading.Condition()

    def write(self, data: bytes) -> None:
        if self.gone:
            from waitress.channel import ClientDisconnected

            raise ClientDisconnected
        with self.written:
            self.pieces.append((data, threading.current_thread().name))
            self.written.notify_all()

    def wait_for(self, count: int, timeout: float = 10) -> list[tuple[bytes, str]]:
        with self.written:
            assert self.written.wait_for(lambda: len(self.pieces) >= count, timeout), self.pieces
            return list(self.pieces)


def _stream(owner, environ, first=("retry: 2000\n\n",), heartbeat=60.0):
    """A spectator's stream of `owner`, iterated by a thread of its own as waitress does; the
    pieces it yields itself are handed to the task (as waitress writes them)."""
    gate = StreamGate(seats=4, spectators=4)
    place = gate.enter("127.0.0.2", None)
    sub, version, _ = owner.subscribe()
    stream = events.EventStream(owner, sub, place, list(first), heartbeat, None, environ)
    task = environ["companion.task"]

    def run():
        for piece in stream:
            task.write(piece)

    thread = threading.Thread(target=run, name="stream-thread", daemon=True)
    return stream, thread, gate


def _ids(pieces) -> list[int]:
    return [int(p.split(b"\n", 1)[0][4:]) for p, _ in pieces if p.startswith(b"id: ")]


@pytest.fixture
def registry(tmp_path):
    reg = Registry(tmp_path)
    yield reg
    reg.close()


def _environ():
    channel = object.__new__(front.TableChannel)  # no socket: only what the stream reads
    channel.server = FakeServer()
    channel.total_outbufs_len = 0
    return {"companion.channel": channel, "companion.task": FakeTask()}


def test_each_update_is_written_by_the_committing_thread_in_order(registry):
    owner, _ = registry.create({"rules": "weg"})
    environ = _environ()
    task = environ["companion.task"]
    stream, thread, gate = _stream(owner, environ)
    # Committed before the stream's thread has written its first piece: they wait in the
    # mailbox and are written first, in order, when the stream switches to direct writes.
    owner.join("Lando")
    owner.join("Han")
    thread.start()
    pieces = task.wait_for(3)
    assert pieces[0][0].startswith(b"retry")
    assert _ids(pieces) == [1, 2]
    owner.join("Chewie")
    owner.join("Qi'ra")
    pieces = task.wait_for(5)
    assert _ids(pieces) == [1, 2, 3, 4]
    # The later two were written by this (the committing) thread, not the stream's own.
    assert [name for _, name in pieces[3:]] == [threading.current_thread().name] * 2
    update = json.loads(pieces[-1][0].split(b"data: ", 1)[1])
    assert update["version"] == 4 and [s["name"] for s in update["state"]["seats"]] == ["Lando", "Han", "Chewie", "Qi'ra"]
    owner.close()  # the table goes away: its streams are told goodbye and end
    thread.join(10)
    assert not thread.is_alive()
    assert task.pieces[-1][0].startswith(b"event: bye")
    assert gate.spectators.open == 0 and owner.subscriber_count == 0


def test_a_stream_too_far_behind_is_cut_by_the_committing_thread(registry):
    owner, _ = registry.create({"rules": "weg"})
    environ = _environ()
    task, channel = environ["companion.task"], environ["companion.channel"]
    stream, thread, gate = _stream(owner, environ)
    thread.start()
    task.wait_for(1)
    owner.join("Lando")
    assert _ids(task.wait_for(2)) == [1]
    channel.total_outbufs_len = events.STREAM_BEHIND_BYTES + 1  # the client stopped taking it
    owner.join("Han")
    thread.join(10)
    assert not thread.is_alive()
    assert _ids(task.pieces) == [1]  # nothing more written, not even a goodbye
    assert channel.server.dropped == ["its event stream fell too far behind"]
    owner.join("Chewie")
    assert _ids(task.pieces) == [1] and gate.spectators.open == 0 and owner.subscriber_count == 0


def test_a_gone_client_ends_its_stream_and_nothing_more_is_written(registry):
    owner, _ = registry.create({"rules": "weg"})
    environ = _environ()
    task = environ["companion.task"]
    stream, thread, gate = _stream(owner, environ)
    thread.start()
    task.wait_for(1)
    task.gone = True
    owner.join("Lando")  # its write finds the client gone: the stream's thread is woken, ends
    thread.join(10)
    assert not thread.is_alive() and owner.subscriber_count == 0 and gate.spectators.open == 0
    task.gone = False
    owner.join("Han")
    assert len(task.pieces) == 1


def test_within_a_web_request_the_update_waits_for_the_answer(registry):
    """`defer_delivery`: the streams are written only when the request's deliveries are run
    (after its answer is sent); the mailbox of a stream not writing directly too."""
    owner, _ = registry.create({"rules": "weg"})
    sub, _, _ = owner.subscribe()
    defer_delivery()
    try:
        owner.join("Lando")
        assert sub.messages.empty()
        waiting = deferred_deliveries()
    finally:
        deferred_deliveries()
    assert waiting == [owner]
    for o in waiting:
        o.deliver()
    seq, kind, update = sub.messages.get_nowait()
    assert (seq, kind) == (1, "update") and update.events[0]["type"] == "joined"
    owner.join("Han")  # not deferring any more: delivered before `join` returns
    assert sub.messages.get_nowait()[0] == 2



def test_the_served_app_writes_a_requests_updates_once_its_answer_is_closed(registry, monkeypatch):
    """The app as the server runs it (`app.served`): under waitress, what a request commits
    reaches the streams when its answer is closed (after it is written), not before; a request
    that ends in an error delivers at once; outside waitress nothing waits."""
    from companion.server.app import served

    owner, _ = registry.create({"rules": "weg"})
    sub, _, _ = owner.subscribe()
    names = iter(["Lando", "Han", "Leia"])

    def commits(environ, start_response):
        owner.join(next(names))
        if environ.get("fail"):
            raise RuntimeError("the request broke after committing")
        start_response("200 OK", [])
        return [b"answer"]

    by_waitress = {"waitress": True}
    monkeypatch.setattr(front, "served_by_waitress", lambda environ: by_waitress["waitress"])
    app = served(commits)
    answer = app({}, lambda *a: None)
    assert list(answer) == [b"answer"] and sub.messages.empty()
    answer.close()
    assert sub.messages.get_nowait()[0] == 1
    with pytest.raises(RuntimeError):
        app({"fail": True}, lambda *a: None)
    assert sub.messages.get_nowait()[0] == 2
    by_waitress["waitress"] = False
    assert app({}, lambda *a: None) == [b"answer"]
    assert sub.messages.get_nowait()[0] == 3

def _read_events(resp, count: int, timeout: float) -> list[dict]:
    """`count` SSE messages (id, event, data) read from an HTTP/1.1 (chunked) response."""
    out: list[dict] = []
    msg: dict = {}
    deadline = time.monotonic() + timeout
    while len(out) < count and time.monotonic() < deadline:
        line = resp.readline().decode().rstrip("\n")
        if not line:
            if msg:
                out.append(msg)
                msg = {}
            continue
        if line.startswith(":"):
            continue
        key, _, value = line.partition(": ")
        msg[key] = value
    return out


def test_streams_get_every_update_once_in_order_while_several_phones_act(live_server):
    """A real server (HTTP/1.1, chunked, as browsers read it): four streams open, three
    clients sending commands at once; every stream gets every update exactly once, in order,
    each with the state after it, and the answers and the streams agree."""
    url = urlsplit(live_server.url)
    reg = live_server.app.extensions["tables"]
    owner, host = reg.create({"rules": "weg"})
    tokens = [owner.join(name).token for name in ("Lando", "Han", "Chewie")]
    readers = []
    for token in tokens + [host]:
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        conn.request("GET", f"/api/v1/tables/{owner.code}/events?token={token}")
        resp = conn.getresponse()
        assert resp.status == 200 and resp.getheader("Transfer-Encoding") == "chunked"
        readers.append((conn, resp))
    start = owner.version
    rounds, senders = 20, 3
    answered: list[int] = []

    def send(k: int) -> None:
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        for i in range(rounds):
            body = json.dumps({"type": "adjust", "seat": "s1", "amount": 1 if i % 2 == 0 else -1,
                               "reason": f"phone {k}"})
            conn.request("POST", f"/api/v1/tables/{owner.code}/commands", body,
                         {"Content-Type": "application/json", "Authorization": f"Bearer {host}"})
            resp = conn.getresponse()
            answer = json.loads(resp.read())
            assert resp.status == 200, answer
            answered.append(answer["seq"])
        conn.close()

    threads = [threading.Thread(target=send, args=(k,)) for k in range(senders)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    total = rounds * senders
    assert sorted(answered) == list(range(start + 1, start + total + 1))
    for conn, resp in readers:
        got = _read_events(resp, 2 + total, timeout=30)  # the retry line's message, the snapshot
        snapshot = next(m for m in got if m.get("event") == "snapshot")
        updates = [m for m in got if m.get("event") == "update"]
        assert int(snapshot["id"]) == start
        assert [int(m["id"]) for m in updates] == list(range(start + 1, start + total + 1))
        last = json.loads(updates[-1]["data"])
        assert last["state"]["version"] == start + total
        # +1 and −1 in equal numbers from each phone: the stack is back where it began.
        assert next(s["stack"] for s in last["state"]["seats"] if s["seat"] == "s1") == 0
        conn.close()
