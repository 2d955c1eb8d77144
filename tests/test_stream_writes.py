"""A stream's bytes are sent by its own thread without the server's main loop spinning on it
(issue 19: 87 polls per update with 6 streams before)."""

from __future__ import annotations

from waitress.channel import HTTPChannel

from companion.server import front


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
