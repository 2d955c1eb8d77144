"""A stream's bytes are sent by its own thread without the server's main loop spinning on it
(issue 19: 87 polls per update with 6 streams before); a response's header goes with its
body in one send."""

from __future__ import annotations

import http.client

from conftest import LiveServer
from waitress.channel import HTTPChannel

from companion.server import front
from companion.server.app import create_app


class _Server:
    def __init__(self) -> None:
        self.triggers = 0

    def pull_trigger(self) -> None:
        self.triggers += 1


def _channel() -> front.TableChannel:
    channel = object.__new__(front.TableChannel)  # no socket: only what these methods read
    channel.server = _Server()
    channel.rank = front.OWN_TABLE
    channel.total_outbufs_len = 0
    channel.will_close = channel.close_when_flushed = False
    return channel


def test_a_responses_header_goes_with_its_body_in_one_send(monkeypatch, tmp_path):
    """Over a real server: each answer reaches the connection in one piece, the status line
    and the body together (one packet on the Wi-Fi, not two)."""
    pieces: list[bytes] = []
    real = front.TableChannel.write_soon

    def recorded(self, data):
        if self.held is None:
            pieces.append(bytes(data))
        return real(self, data)

    monkeypatch.setattr(front.TableChannel, "write_soon", recorded)
    server = LiveServer(create_app({"DATA_DIR": str(tmp_path)}), threads=4)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.server.effective_port, timeout=10)
        for _ in range(2):
            conn.request("GET", "/api/v1/ping")
            body = conn.getresponse().read()
            assert body
        conn.close()
    finally:
        server.close()
    answers = [p for p in pieces if p.startswith(b"HTTP/1.1 200")]
    assert len(answers) == 2 and all(a.endswith(body) for a in answers)


def test_the_main_loop_does_not_watch_a_channel_while_its_task_sends(monkeypatch):
    channel = _channel()
    seen = []

    def send_all(self, data):
        seen.append((self.task_writing, self.writable()))  # bytes waiting, the task sending
        return len(data)

    monkeypatch.setattr(HTTPChannel, "write_soon", send_all)
    channel.total_outbufs_len = 5
    assert channel.writable()  # bytes left to the main loop: watched
    channel.total_outbufs_len = 0
    channel.write_soon(b"data: {}\n\n")
    assert seen == [(True, False)]
    assert not channel.task_writing and channel.server.triggers == 0


def test_what_the_task_could_not_send_is_left_to_the_main_loop(monkeypatch):
    channel = _channel()

    def send_some(self, data):
        self.total_outbufs_len = 4  # the client's socket is full
        return len(data)

    monkeypatch.setattr(HTTPChannel, "write_soon", send_some)
    channel.write_soon(b"data: {}\n\n")
    assert channel.writable() and channel.server.triggers == 1
