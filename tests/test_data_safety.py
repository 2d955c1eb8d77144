"""Issue 11: the data folder and the scrambler's owner.

Item 6: binding the physical scrambler needs the server's owner token (printed by `serve`, kept
in `data/owner-token`) or the host token of the table it serves now; a guest's table cannot
take it. Item 7: a nearly full disk and a flood of tables are refused in words, nothing
changed. Item 9: a second server on the same data folder refuses to start, saying why; a
damaged table or table file is listed (API, serve's output), not silently a 404, and the
other tables are served; a read-only or missing data folder gets a clear message.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys

import pytest

from companion.server import create_app
from companion.table.registry import LEDGER_FILE, OWNER_TOKEN_FILE
from test_crash import Server
from test_tables_api import Api, flask_call


def new_app(tmp_path, **config):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path), **config})


def put_scrambler(client, code, token=None, **body):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.put("/api/v1/scrambler", json={"code": code, **body}, headers=headers)


# -- item 6: the scrambler's owner ------------------------------------------------------------


def test_item6_a_guest_who_creates_a_table_cannot_take_the_scrambler(tmp_path):
    app = new_app(tmp_path)
    client = app.test_client()
    host, guest = Api(flask_call(client)), Api(flask_call(client))
    guest.create()  # anyone on the Wi-Fi can do this, first on a fresh server too
    host.create()
    # Being first binds nothing (issue 15); the guest's host token cannot take it.
    assert client.get("/api/v1/scrambler").get_json() == {"code": None}
    resp = put_scrambler(client, guest.code, guest.host)
    assert resp.status_code == 403 and "owner token" in resp.get_json()["error"]
    owner = (tmp_path / OWNER_TOKEN_FILE).read_text().strip()
    assert put_scrambler(client, host.code, owner).status_code == 200
    assert client.get("/api/v1/scrambler").get_json() == {"code": host.code}
    # Explicitly bound: still not.
    assert put_scrambler(client, host.code, host.host).status_code == 200
    assert put_scrambler(client, guest.code, guest.host).status_code == 403
    assert put_scrambler(client, guest.code).status_code == 401
    assert put_scrambler(client, guest.code, guest.host, owner_token="guess").status_code == 403
    assert client.get("/api/v1/scrambler").get_json() == {"code": host.code}
    app.extensions["tables"].close()


def test_item6_the_owner_token_or_the_serving_tables_host_moves_the_scrambler(tmp_path):
    app = new_app(tmp_path)
    client = app.test_client()
    host, guest = Api(flask_call(client)), Api(flask_call(client))
    host.create()
    guest.create()
    token_file = tmp_path / OWNER_TOKEN_FILE
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    owner = token_file.read_text().strip()
    # The server's owner: as the request's token, or in the body (the host console's field).
    assert put_scrambler(client, guest.code, owner).get_json() == {"code": guest.code}
    assert put_scrambler(client, host.code, host.host, owner_token=owner).status_code == 200
    # The host of the table it serves now may hand it on (to a new table of theirs).
    again = Api(flask_call(client))
    again.create()
    assert put_scrambler(client, again.code, host.host).status_code == 200
    assert client.get("/api/v1/scrambler").get_json() == {"code": again.code}
    # The owner token survives a restart (the same file).
    app.extensions["tables"].close()
    app = new_app(tmp_path)
    assert put_scrambler(app.test_client(), host.code, owner).status_code == 200
    app.extensions["tables"].close()


def test_item6_a_lone_tables_host_needs_the_owner_token_and_the_owners_table_binds_itself(tmp_path):
    """Issue 15 replaces "the only table's host binds it": being first or alone is no right
    to the scrambler; a table made with the owner token (the host's link) takes it."""
    app = new_app(tmp_path)
    client = app.test_client()
    host = Api(flask_call(client))
    host.create()
    assert client.get("/api/v1/scrambler").get_json() == {"code": None}
    assert put_scrambler(client, host.code, host.host).status_code == 403
    owner = (tmp_path / OWNER_TOKEN_FILE).read_text().strip()
    made = client.post("/api/v1/tables", json={"rules": "weg"}, headers={"Authorization": f"Bearer {owner}"})
    assert made.status_code == 201
    assert client.get("/api/v1/scrambler").get_json() == {"code": made.get_json()["code"]}
    app.extensions["tables"].close()


# -- item 7: the data folder's limits ---------------------------------------------------------


def test_item7_no_new_table_while_the_disk_is_nearly_full_and_tables_go_on(tmp_path):
    app = new_app(tmp_path, MIN_FREE_TABLE=1 << 62)
    client = app.test_client()
    ledger = app.extensions["tables"].ledger
    ledger.min_free_table = ledger.guest_min_free_table = 0  # any disk: the table is a guest's
    a = Api(flask_call(client))
    a.create()
    a.join("Lando")
    ledger.min_free_table = 1 << 62  # more than any disk has free
    resp = client.post("/api/v1/tables", json={"rules": "weg"})
    assert resp.status_code == 507
    assert "disk is nearly full" in resp.get_json()["error"] and "nothing changed" in resp.get_json()["error"]
    assert len(app.extensions["tables"].owners()) == 1
    a.ok("s1", "buy_in", amount=5)  # the table already playing goes on
    ledger.min_free_command = 1 << 62
    size = ledger.count_entries(a.code)
    status, body = a.act("s1", "buy_in", amount=5)
    assert status == 507 and "MB" in body["error"]
    assert ledger.count_entries(a.code) == size
    health = client.get("/api/v1/health").get_json()
    assert health["ok"] is False and health["disk"]["free_mb"] > 0
    app.extensions["tables"].close()


def test_item7_a_server_keeps_at_most_max_tables(tmp_path):
    app = new_app(tmp_path, MAX_TABLES=3)
    client = app.test_client()
    for _ in range(3):
        assert client.post("/api/v1/tables", json={"rules": "weg"}).status_code == 201
    resp = client.post("/api/v1/tables", json={"rules": "weg"})
    assert resp.status_code == 507 and "at most 3 tables" in resp.get_json()["error"]
    assert len(app.extensions["tables"].owners()) == 3
    app.extensions["tables"].close()


# -- item 9: two servers, damaged tables, an unusable folder -----------------------------------


def serve_once(data, *extra, timeout=30):
    return subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", "0",
         "--gpio", "off", "--serial", "off", "--data", str(data), *extra],
        capture_output=True, text=True, timeout=timeout,
    )


@pytest.mark.slow
def test_item9_a_second_server_on_the_same_data_folder_refuses_to_start(tmp_path):
    data = tmp_path / "data"
    first = Server(data)
    try:
        second = serve_once(data)
        assert second.returncode == 2
        assert "another sabacc-companion serve" in second.stderr and str(data) in second.stderr
        assert f"process {first.proc.pid}" in second.stderr
        assert "Traceback" not in second.stderr + second.stdout
    finally:
        first.kill()  # kill -9: the lock goes with the process
    again = Server(data)
    again.kill()


@pytest.mark.parametrize("where", ["under-a-file", "read-only"])
def test_item9_a_missing_or_read_only_data_folder_is_a_clear_message(tmp_path, where):
    if where == "under-a-file":
        (tmp_path / "file").write_text("x")
        data, words = tmp_path / "file" / "data", "cannot be created"
    else:
        data, words = "/sys", "cannot be written"  # read-only even for root
    got = serve_once(data)
    assert got.returncode == 2
    assert words in got.stderr and "--data" in got.stderr
    assert "Traceback" not in got.stderr


def test_item9_a_table_that_cannot_be_replayed_is_named_and_the_others_are_served(tmp_path):
    app = new_app(tmp_path)
    client = app.test_client()
    good, bad = Api(flask_call(client)), Api(flask_call(client))
    good.create()
    bad.create()
    bad.join("Lando")
    bad.join("Han")
    app.extensions["tables"].close()
    db = sqlite3.connect(tmp_path / LEDGER_FILE)
    with db:  # an entry the engine refuses on replay: Lando pays more than he has
        db.execute("UPDATE entries SET body=? WHERE table_code=? AND type='buy_in'",
                   ('{"type": "pass", "to": "s9", "amount": 100000}', bad.code))
    db.close()
    app = new_app(tmp_path)
    client = app.test_client()
    assert client.get(f"/api/v1/tables/{good.code}").status_code == 200
    resp = client.get(f"/api/v1/tables/{bad.code}")
    assert resp.status_code == 503
    words = resp.get_json()["error"]
    assert f"table {bad.code} is damaged" in words and "kept" in words
    health = client.get("/api/v1/health").get_json()
    assert health["ok"] is False and [d["code"] for d in health["damaged"]] == [bad.code]
    # Nothing was deleted: the entries are still in the file.
    assert app.extensions["tables"].ledger.count_entries(bad.code) > 0
    app.extensions["tables"].close()


@pytest.mark.slow
def test_item9_a_damaged_table_file_is_moved_aside_and_the_server_goes_on(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / LEDGER_FILE).write_bytes(b"this is not a database, it was cut in half" * 100)
    server = Server(data)
    try:
        import json
        import urllib.request

        with urllib.request.urlopen(server.url + "/api/v1/health", timeout=5) as resp:
            health = json.loads(resp.read())
        assert health["ok"] is False
        (damage,) = health["damaged"]
        assert "damaged" in damage["problem"] and "moved to" in damage["kept"]
        moved = list((data / "damaged").iterdir())
        assert len(moved) == 1 and moved[0].read_bytes().startswith(b"this is not a database")
        api = Api(lambda m, p, b, t: _http(server.url, m, p, b, t))
        api.create()  # a fresh file: the server goes on
    finally:
        server.kill()
    assert "DAMAGED: the table file tables.sqlite3 is damaged" in server.output


def _http(url, method, path, body, token):
    """A JSON request to a served companion at `url`: (status, body)."""
    from companion.bench.clients import JsonClient

    client = JsonClient(int(url.rsplit(":", 1)[1]), timeout=10)
    try:
        status, answer, _ = client.call(method, path, body, token)
    finally:
        client.close()
    return status, answer


def test_item9_serve_prints_the_owner_token_that_binds_the_scrambler(tmp_path):
    data = tmp_path / "data"
    server = Server(data)
    assert _http(server.url, "GET", "/api/v1/health", None, None)[0] == 200  # past the banner
    server.kill()
    token = (data / OWNER_TOKEN_FILE).read_text().strip()
    assert f"Owner token (binds the table's physical scrambler; keep it to yourself): {token}" in server.output
    assert (data / "LOCK").read_text().strip() == str(server.proc.pid)
    assert os.path.exists(data / LEDGER_FILE)
