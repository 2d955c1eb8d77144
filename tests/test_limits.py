"""Issue 11, item 7: limits per client (rates, the number of tables, body size), and issue 9's
web layer without an import circle."""

from __future__ import annotations

import ast
import json
import socket
import time
from pathlib import Path

import pytest

from companion.server import create_app
from companion.server.front import MAX_BODY_BYTES
from companion.server.limits import PRODUCTION, Bucket, Limits, Rate
from companion.refusal import Refused

from conftest import REPO, LiveServer


@pytest.fixture
def limited(tmp_path):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "LIMITS": PRODUCTION})
    yield app
    app.extensions["tables"].close()


def create(client, addr="10.0.0.5"):
    return client.post("/api/v1/tables", json={"rules": "weg"}, environ_base={"REMOTE_ADDR": addr})


class Clock:
    """The limiter's clock, moved by the test: requests arrive exactly as fast as it says,
    however busy the machine running the test is."""

    def __init__(self):
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_item7_one_seat_toggling_sit_out_79_times_a_second_is_refused_with_429_in_words(limited, monkeypatch):
    from companion.server import limits

    clock = Clock()
    monkeypatch.setattr(limits, "time", clock)
    client = limited.test_client()
    code = create(client).get_json()["code"]
    token = client.post(f"/api/v1/tables/{code}/join", json={"name": "Lando"},
                        environ_base={"REMOTE_ADDR": "10.0.0.7"}).get_json()["token"]
    answers = []
    for i in range(79):
        clock.now += 1 / 79  # 79 a second
        answers.append(client.post(f"/api/v1/tables/{code}/commands", json={"type": "sit_out" if i % 2 == 0 else "sit_in"},
                                   headers={"Authorization": f"Bearer {token}"}, environ_base={"REMOTE_ADDR": "10.0.0.7"}))
    accepted = [r for r in answers if r.status_code == 200]
    refused = [r for r in answers if r.status_code == 429]
    assert len(accepted) + len(refused) == 79
    # The burst, then 20 a second: about 60 of the 79 in that second, the rest refused.
    rate = PRODUCTION.commands_per_token
    assert len(accepted) <= rate.burst + rate.per_second + 1 and len(refused) >= 79 - rate.burst - rate.per_second - 1
    body = refused[0].get_json()
    assert "too many commands" in body["error"] and body["field"] is None
    assert int(refused[0].headers["Retry-After"]) >= 1
    # Nothing changed for a refused command: the version counts the accepted ones only.
    state = client.get(f"/api/v1/tables/{code}").get_json()
    assert state["version"] == 1 + len(accepted)


def test_item7_normal_play_never_meets_the_command_limits():
    """A busy evening, simulated on the limit's own clock: a phone sending a command every
    0.3 s for an hour, with bursts of 10 quick taps, is never refused."""
    per_token = Bucket(PRODUCTION.commands_per_token, "commands")
    now = 0.0
    for minute in range(60):
        for _ in range(10):  # a burst of quick taps (bet, raise, undo on the host's console)
            per_token.take("phone", now)
            now += 0.05
        for _ in range(200):
            per_token.take("phone", now)
            now += 0.3


def test_item7_bucket_refills_and_says_when_to_come_back():
    bucket = Bucket(Rate(burst=2, per_second=0.5), "tables")
    bucket.take("a", 0.0)
    bucket.take("a", 0.0)
    with pytest.raises(Refused) as exc:
        bucket.take("a", 0.1)
    assert exc.value.status == 429 and exc.value.extra["retry_after"] == 2
    bucket.take("b", 0.1)  # another client is not affected
    bucket.take("a", 2.2)  # one refilled after 2 s


def test_item7_table_creation_is_rate_limited_per_address(limited):
    client = limited.test_client()
    made = [create(client).status_code for _ in range(PRODUCTION.table_creation.burst)]
    assert made == [201] * PRODUCTION.table_creation.burst
    refused = create(client)
    assert refused.status_code == 429 and "tables created" in refused.get_json()["error"]
    assert refused.headers["Retry-After"]
    assert create(client, addr="10.0.0.9").status_code == 201  # another device still can


def raw(port: int, request: bytes, read_s: float = 5.0) -> tuple[bytes, float]:
    """Send `request` on a fresh connection; the answer and how long it took."""
    with socket.create_connection(("127.0.0.1", port), timeout=read_s) as s:
        t0 = time.perf_counter()
        s.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < int(
                data.split(b"Content-Length: ")[1].split(b"\r\n")[0]) if b"Content-Length: " in data else True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        return data, time.perf_counter() - t0


def test_item7_a_large_body_is_refused_before_it_is_read(app):
    srv = LiveServer(app, threads=4)
    try:
        port = srv.server.effective_port
        # 400 MB announced, none sent: the 413 comes at once, with the API's JSON body.
        head = (b"POST /api/v1/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 400000000\r\n\r\n")
        data, took = raw(port, head)
        assert data.startswith(b"HTTP/1.1 413"), data[:200]
        body = json.loads(data.split(b"\r\n\r\n", 1)[1])
        assert body["field"] == "body" and str(MAX_BODY_BYTES) in body["error"]
        assert took < 1.0
        # A chunked body is counted as it arrives and refused once it grows past the limit.
        chunk = b"x" * 65536
        chunked = (b"POST /api/v1/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                   b"Transfer-Encoding: chunked\r\n\r\n"
                   + (b"%x\r\n" % len(chunk) + chunk + b"\r\n") * (MAX_BODY_BYTES // len(chunk) + 2))
        data, _ = raw(port, chunked)
        assert data.startswith(b"HTTP/1.1 413"), data[:200]
        assert json.loads(data.split(b"\r\n\r\n", 1)[1])["field"] == "body"
        # Headers are bounded too (a phone sends 1 to 2 KiB of them).
        data, _ = raw(port, b"GET /api/v1/ping HTTP/1.1\r\nHost: x\r\nX-Big: " + b"y" * 40000 + b"\r\n\r\n")
        assert data.split(b" ")[1] == b"431", data[:200]  # (waitress answers it as HTTP/1.0)
        assert "headers are too large" in json.loads(data.split(b"\r\n\r\n", 1)[1])["error"]
    finally:
        srv.close()
        app.extensions["tables"].close()


def test_issue9_no_import_circle_in_companion_server():
    """The web layer's modules import each other in one direction only (the event stream and
    the table API share `access`, not each other)."""
    folder = REPO / "companion" / "server"
    graph: dict[str, set[str]] = {}
    for path in folder.glob("*.py"):
        name = f"companion.server.{path.stem}"
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module == "companion.server":
                    deps |= {f"companion.server.{a.name}" for a in node.names}
                elif node.module.startswith("companion.server."):
                    deps.add(node.module)
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name.startswith("companion.server.")}
        graph[name] = {d for d in deps if d != name}

    def reach(start: str, seen: set[str]) -> set[str]:
        for dep in graph.get(start, ()):
            if dep not in seen:
                seen.add(dep)
                reach(dep, seen)
        return seen

    circles = [m for m in graph if m in reach(m, set())]
    assert not circles, circles
    assert "companion.server.tables_api" not in graph["companion.server.events"]
    assert "companion.server.events" not in graph["companion.server.tables_api"]


def test_item7_every_audit_page_keeps_its_hands_whole_for_the_seed_check(tmp_path, monkeypatch):
    """Pages of 5 entries over a seeded hand (and entries after it): each page's seeds section
    shows the hand, wherever the page cuts it, with its seed and both of its rolls that stand
    (the browser's check needs them all), and the "older" links reach every entry once."""
    import re

    from companion.scrambler.seed import SeededRoller
    from companion.server import host_pages
    from test_audit_verify_browser import Table, play_seeded_hand

    monkeypatch.setattr(host_pages, "AUDIT_PAGE_ENTRIES", 5)
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "ROLLER_FACTORY": SeededRoller})
    try:
        table = Table(app, "weg")
        play_seeded_hand(table)
        for i in range(3):
            table.do("host", type="adjust", seat="s1", amount=1, reason=f"after the hand {i}")
        version = table.log()["version"]
        path, seen, pages, with_hand = f"/t/{table.code}/audit", [], 0, 0
        while path:
            html = table.client.get(path).get_data(as_text=True)
            rows = [int(s) for s in re.findall(r'<tr id="entry-(\d+)"', html)]
            assert 1 <= len(rows) <= 5
            seen += rows
            for article in re.findall(r'<article class="hand-seeds".*?</article>', html, re.S):
                with_hand += 1
                assert "data-seed=" in article
                assert len(re.findall(r"<li data-entry=", article)) == 2, article
            pages += 1
            older = re.search(r'rel="prev" href="(\?before=\d+)"', html)
            path = f"/t/{table.code}/audit{older.group(1)}" if older else None
        assert sorted(seen) == list(range(1, version + 1)) and pages == -(-version // 5)
        assert with_hand >= 3  # the hand is cut by pages, and shown whole on each of them
    finally:
        app.extensions["tables"].close()
