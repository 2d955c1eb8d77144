"""`sabacc-companion serve`: the banner phones follow, a real server answering, the scrambler it starts."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from companion.serve import phone_url, print_banner


def test_phone_url_names_a_reachable_address_not_the_wildcard():
    url = phone_url("0.0.0.0", 8023)
    assert re.fullmatch(r"http://\d+\.\d+\.\d+\.\d+:8023/", url)
    assert "0.0.0.0" not in url
    assert phone_url("192.168.4.1", 80) == "http://192.168.4.1:80/"


def test_banner_prints_the_url_and_a_qr_code():
    out = io.StringIO()
    print_banner("http://192.168.4.1:8023/", out)
    text = out.getvalue()
    assert "http://192.168.4.1:8023/" in text
    qr_rows = [line for line in text.splitlines() if "█" in line or "▀" in line or "▄" in line]
    assert len(qr_rows) >= 10, "no QR code drawn"


def test_serve_starts_waitress_and_serves_the_site(tmp_path):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", "0",
         "--data", str(tmp_path / "data")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )
    try:
        deadline = time.monotonic() + 20
        url = None
        while time.monotonic() < deadline and url is None:
            line = proc.stdout.readline()
            m = re.search(r"phones open (http://\S+)", line)
            if m:
                url = m.group(1)
        assert url, "serve printed no URL"
        with urllib.request.urlopen(url + "api/v1/openapi.json", timeout=5) as resp:
            assert resp.status == 200
            assert resp.headers["Server"].startswith("waitress")
        assert (tmp_path / "data").is_dir()
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()


def start_serve(tmp_path, *args, env=None, host="127.0.0.1"):
    """`sabacc-companion serve` on a free port; returns (process, the URL it printed)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", host, "--port", "0",
         "--data", str(tmp_path / "data"), *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1", **(env or {})),
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        m = re.search(r"phones open (http://\S+)", proc.stdout.readline())
        if m:
            return proc, m.group(1)
    proc.kill()
    raise AssertionError("serve printed no URL")


def devices(url):
    with urllib.request.urlopen(url + "scrambler/devices.json", timeout=5) as resp:
        return json.loads(resp.read())


def test_serve_starts_the_scrambler_on_the_gpio_pins_and_stops_cleanly_on_sigterm(tmp_path):
    # gpiozero's mock pins stand in for the Pi's header: serve opens the button, and the host
    # console's words say so; SIGTERM (systemctl stop) ends it with status 0.
    proc, url = start_serve(tmp_path, "--serial", "off", "--long-press", "roll",
                            env={"GPIOZERO_PIN_FACTORY": "mock"})
    try:
        got = devices(url)
        assert got["on_screen"] is False
        assert got["words"].startswith("Attached: the button on the Pi's pins.")
        assert "A long press of the button rolls." in got["words"]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()


def test_serve_with_the_scrambler_off_has_players_roll_on_screen(tmp_path):
    proc, url = start_serve(tmp_path, "--gpio", "off", "--serial", "off",
                            env={"GPIOZERO_PIN_FACTORY": "mock"})
    try:
        got = devices(url)
        assert got == {"on_screen": True,
                       "words": "Nothing is attached now: players roll on screen, from their phones."}
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()


def test_the_display_opened_on_the_servers_own_screen_shows_the_address_serve_printed(tmp_path):
    # Listening on every interface, serve prints the LAN address; a display opened at
    # 127.0.0.1 (the Pi's own HDMI screen) shows that address under its QR code, not loopback.
    proc, url = start_serve(tmp_path, "--gpio", "off", "--serial", "off", host="0.0.0.0")
    try:
        port = url.rsplit(":", 1)[1].strip("/")
        local = f"http://127.0.0.1:{port}/"
        req = urllib.request.Request(local + "api/v1/tables", data=b'{"rules": "classic"}',
                                     headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(req, timeout=5) as resp:
            code = json.loads(resp.read())["code"]
        with urllib.request.urlopen(f"{local}t/{code}/display", timeout=5) as resp:
            html = resp.read().decode()
        assert f'id="d-join-url">{url}t/{code}/join</span>' in html
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()


def test_item1_serve_and_the_test_server_are_built_the_same_way(monkeypatch, tmp_path):
    """`serve` builds its server with `front.make_server` (the deadlines and shares of issue 11,
    item 1), and so does the tests' `LiveServer`: what the suite tests is what a Pi runs."""
    import argparse

    from companion import serve
    from companion.server import front
    from conftest import LiveServer

    made = []

    def fake_make_server(app, host, port, threads):
        made.append((host, port, threads))
        app.extensions["tables"].ledger.close()
        raise SystemExit(0)  # built: enough, do not serve

    monkeypatch.setattr(front, "make_server", fake_make_server)
    args = argparse.Namespace(host="127.0.0.1", port=0, data=tmp_path / "data")
    try:
        serve.run(args)
    except SystemExit:
        pass
    assert made == [("127.0.0.1", 0, serve.SERVER_THREADS)]
    monkeypatch.undo()

    from companion.server import create_app
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "live")})
    srv = LiveServer(app, threads=4)
    try:
        assert isinstance(srv.server, front.TableServer)
        adj = srv.server.adj
        assert adj.max_request_body_size == front.MAX_BODY_BYTES
        assert adj.connection_limit == front.CONNECTION_LIMIT + front.ACCEPT_SLACK and adj.cleanup_interval == front.CHECK_INTERVAL_S
    finally:
        srv.close()
        app.extensions["tables"].close()


def test_item1_a_request_whose_headers_never_end_is_dropped_within_the_deadline(tmp_path):
    import socket

    from companion.server import create_app, front
    from conftest import LiveServer

    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")})
    srv = LiveServer(app, threads=4)
    try:
        slow = socket.create_connection(("127.0.0.1", srv.server.effective_port), timeout=20)
        slow.sendall(b"GET /api/v1/ping HTTP/1.1\r\n")
        started = time.monotonic()
        closed = None
        while time.monotonic() - started < front.HEADER_TIMEOUT_S + 5:
            try:
                slow.sendall(b"X-Slow: 1\r\n")  # a byte now and then: waitress alone waited for ever
            except OSError:
                closed = time.monotonic() - started
                break
            slow.settimeout(0.5)
            try:
                if slow.recv(100) == b"":
                    closed = time.monotonic() - started
                    break
            except socket.timeout:
                pass
            except OSError:  # reset by the server: dropped as well
                closed = time.monotonic() - started
                break
        slow.close()
        assert closed is not None and front.HEADER_TIMEOUT_S - 0.5 < closed < front.HEADER_TIMEOUT_S + 3, closed
        with urllib.request.urlopen(srv.url + "/api/v1/ping", timeout=5) as resp:
            assert resp.status == 200
    finally:
        srv.close()
        app.extensions["tables"].close()


def test_the_threads_at_rest_are_the_ones_install_md_states_and_the_unit_leaves_room(tmp_path):
    # hardware/pi/INSTALL.md states the threads of a serve at rest, once (the unit's comment
    # refers to it): when the server's thread model changes, this says the figure is stale.
    repo = Path(__file__).resolve().parents[1]
    install = (repo / "hardware/pi/INSTALL.md").read_text()
    stated = int(re.search(r"at rest the server runs \*\*(\d+) threads\*\*", install)[1])
    unit = (repo / "hardware/pi/sabacc-companion.service").read_text()
    assert int(re.search(r"^TasksMax=(\d+)$", unit, re.M)[1]) >= 2 * stated
    # As the unit runs it, but without the GPIO scrambler (its threads are stated apart, and a
    # Pi running the suite has real pins); the USB box is searched for as always.
    proc, url = start_serve(tmp_path, "--gpio", "off")
    try:
        devices(url)  # it answers: at rest from here on
        status = Path(f"/proc/{proc.pid}/status").read_text()
        threads = int(re.search(r"^Threads:\s+(\d+)$", status, re.M)[1])
        # Under qemu-user (scripts/pi-rootfs-check) the emulator adds a thread or two of its own.
        assert stated <= threads <= stated + 2, (
            f"serve runs {threads} threads at rest; hardware/pi/INSTALL.md says {stated}")
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()


def test_the_server_caps_glibcs_malloc_arenas_where_it_can():
    """`serve` asks glibc for at most `MALLOC_ARENAS` arenas (less memory with many streams);
    on another C library there is nothing to set and it starts all the same."""
    import platform

    from companion import serve

    took = serve.cap_malloc_arenas()
    assert took is (platform.libc_ver()[0] == "glibc")


def test_serve_keeps_what_it_loaded_out_of_the_collectors_passes(monkeypatch, tmp_path):
    """What `serve` has loaded when it starts serving (every module and game, the tables)
    lives as long as the process: it is frozen out of the garbage collector's passes, which
    otherwise walked it all again and again while tables were played (docs/PERFORMANCE.md,
    "Issue 29, seventh session": a tenth of an action's instructions)."""
    import argparse
    import gc

    from companion import serve
    from companion.server import front

    class Server:
        effective_port = 0
        frozen_when_serving = -1

        def run(self):
            Server.frozen_when_serving = gc.get_freeze_count()

        def close(self):
            pass

    monkeypatch.setattr(front, "make_server", lambda app, host, port, threads: Server())
    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers())
    args = parser.parse_args(["serve", "--host", "127.0.0.1", "--port", "0", "--data", str(tmp_path / "data"),
                              "--gpio", "off", "--serial", "off"])
    before = gc.get_freeze_count()
    try:
        with monkeypatch.context() as m:
            m.setattr(signal, "signal", lambda *a: None)  # the test process keeps its own handlers
            assert serve.run(args) == 0
    finally:
        gc.unfreeze()  # the test process's objects go back to the collector
    assert before == 0
    assert Server.frozen_when_serving > 1000  # the modules' functions and classes at the least
