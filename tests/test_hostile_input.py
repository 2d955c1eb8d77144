"""Hostile input to the table API: huge and deeply nested bodies, wrong content types, unknown
fields, odd names and tokens, random JSON. Always a 4xx with `error` and `field`, never a 500,
and nothing stored."""

from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import examples

from companion.server import create_app
from test_tables_api import Api, flask_call


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """One app and a table with two seats in a running hand (module-wide, for Hypothesis)."""
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path_factory.mktemp("hostile"))})
    client = app.test_client()
    a = Api(flask_call(client))
    a.create({"rules": "weg"})
    a.join("Lando")
    a.join("Han")
    a.ok("host", "start_hand")
    yield app, client, a
    app.extensions["tables"].close()


def stored(app, code) -> int:
    return app.extensions["tables"].ledger.count_entries(code)


def post_paths(code):
    return [
        "/api/v1/tables",
        f"/api/v1/tables/{code}/join",
        f"/api/v1/tables/{code}/commands",
        f"/api/v1/tables/{code}/undo",
        f"/api/v1/tables/{code}/seats/s1/token",
    ]


def assert_refused(resp, statuses=(400, 401, 403, 404, 409, 413, 415, 422)):
    assert resp.status_code in statuses, (resp.status_code, resp.data[:200])
    body = resp.get_json()
    assert isinstance(body, dict) and isinstance(body["error"], str) and "field" in body


def test_bodies_of_several_megabytes_are_refused_before_reading(hostile):
    app, client, a = hostile
    size, tables = stored(app, a.code), len(app.extensions["tables"].owners())
    big = json.dumps({"name": "x" * (4 * 1024 * 1024)})
    for path in post_paths(a.code):
        resp = client.post(path, data=big, content_type="application/json",
                           headers={"Authorization": f"Bearer {a.host}"})
        assert resp.status_code == 413
        assert_refused(resp)
    assert stored(app, a.code) == size and len(app.extensions["tables"].owners()) == tables


def test_deeply_nested_json_is_refused(hostile):
    app, client, a = hostile
    size = stored(app, a.code)
    for depth in (1000, 50000):
        nested = '{"type": "bet", "amount": ' + "[" * depth + "]" * depth + "}"
        resp = client.post(f"/api/v1/tables/{a.code}/commands", data=nested,
                           content_type="application/json", headers={"Authorization": f"Bearer {a.host}"})
        assert_refused(resp, (400, 413, 422))
    assert stored(app, a.code) == size


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""])
def test_wrong_content_types_are_415(hostile, content_type):
    app, client, a = hostile
    size = stored(app, a.code)
    for path in post_paths(a.code):
        resp = client.post(path, data='{"name": "Bob"}', content_type=content_type,
                           headers={"Authorization": f"Bearer {a.host}"})
        assert resp.status_code in (401, 403, 415), (path, resp.status_code)
        assert_refused(resp)
    assert stored(app, a.code) == size


@pytest.mark.parametrize(
    "name",
    ["<script>alert(1)</script>", "Ōbi-Wan 🂡", "Лэндо", "<img src=x onerror=alert(1)>"],
)
def test_names_with_html_or_any_script_are_kept_as_text(tmp_path, name):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path)})
    client = app.test_client()
    a = Api(flask_call(client))
    a.create()
    resp = client.post(f"/api/v1/tables/{a.code}/join", json={"name": name})
    assert resp.status_code == 201
    # JSON only (never HTML), and the name comes back exactly as given.
    state = client.get(f"/api/v1/tables/{a.code}")
    assert state.mimetype == "application/json"
    assert state.headers["X-Content-Type-Options"] == "nosniff"
    assert state.get_json()["state"]["seats"][0]["name"] == name.strip()


def test_very_long_names_and_duplicates_are_refused(hostile):
    app, client, a = hostile
    size = stored(app, a.code)
    for body in ({"name": "Ж" * 1000}, {"name": "lando"}, {"name": "x", "admin": True},
                 {"name": "\u202eevil"}, {"name": "a\nb"}):
        resp = client.post(f"/api/v1/tables/{a.code}/join", json=body)
        assert resp.status_code == 422, body
        assert_refused(resp)
    assert stored(app, a.code) == size


def test_odd_tokens_are_refused(hostile):
    app, client, a = hostile
    url = f"/api/v1/tables/{a.code}/commands"
    for headers in ({"Authorization": "Bearer " + "A" * 10000}, {"Authorization": "Basic Zm9vOmJhcg=="},
                    {"X-Seat-Token": "' OR 1=1 --"}, {"Authorization": "Bearer "}):
        resp = client.post(url, json={"type": "check"}, headers=headers)
        assert resp.status_code in (401, 403)
        assert_refused(resp)
    resp = client.get(f"/api/v1/tables/{a.code}?token=%E2%9C%93")
    assert resp.status_code == 403


@pytest.mark.parametrize("query", ["after=-1", "after=abc", "limit=0", "limit=501", "limit=1e3"])
def test_bad_log_queries_are_400(hostile, query):
    app, client, a = hostile
    resp = client.get(f"/api/v1/tables/{a.code}/log?{query}")
    assert resp.status_code == 400
    assert_refused(resp)


@pytest.mark.parametrize("code", ["%00", "A" * 300, "..%2F..", "KMXTR%20"])
def test_odd_table_codes_are_404(hostile, code):
    app, client, a = hostile
    resp = client.get(f"/api/v1/tables/{code}")
    assert resp.status_code == 404
    assert_refused(resp)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
command_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["bet", "raise", "check", "fold", "reveal", "static_add", "adjust", "undo", "x"])},
    optional={
        "amount": json_values, "to": json_values, "cards": json_values, "card": json_values,
        "seat": json_values, "version": json_values, "idempotency_key": json_values, "extra": json_values,
    },
)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(json_values, command_like), who=st.sampled_from(["s1", "s2", "host", None]))
def test_random_json_never_500s_and_is_stored_only_when_accepted(hostile, body, who):
    app, client, a = hostile
    size = stored(app, a.code)
    token = None if who is None else a.host if who == "host" else a.tokens[who]
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    for path in (f"/api/v1/tables/{a.code}/commands", f"/api/v1/tables/{a.code}/join",
                 f"/api/v1/tables/{a.code}/undo"):
        resp = client.post(path, data=json.dumps(body), content_type="application/json", headers=headers)
        assert resp.status_code < 500, (path, body, resp.data[:300])
        if resp.status_code >= 400:
            assert_refused(resp)
            assert stored(app, a.code) == size
        else:
            size = stored(app, a.code)


# -- issue 11, item 8: the former 500s, each a 4xx (or a 503 for a full disk) in words --------

LONE = '"\\ud800"'  # valid JSON for a lone surrogate: not text, cannot be stored


def raw_post(client, path, raw: str, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(path, data=raw, content_type="application/json", headers=headers)


def test_item8_a_lone_surrogate_in_an_idempotency_key_is_a_400(hostile):
    app, client, a = hostile
    size = stored(app, a.code)
    resp = raw_post(client, f"/api/v1/tables/{a.code}/commands",
                    '{"type": "check", "idempotency_key": ' + LONE + '}', a.tokens["s1"])
    assert resp.status_code == 400 and resp.get_json()["field"] == "idempotency_key"
    assert "surrogate" in resp.get_json()["error"]
    resp = raw_post(client, f"/api/v1/tables/{a.code}/join", '{"name": "Bo", "idempotency_key": ' + LONE + '}')
    assert resp.status_code == 400
    assert stored(app, a.code) == size


def test_item8_a_lone_surrogate_in_an_adjust_reason_is_a_400(hostile):
    app, client, a = hostile
    size = stored(app, a.code)
    resp = raw_post(client, f"/api/v1/tables/{a.code}/commands",
                    '{"type": "adjust", "seat": "s1", "amount": 1, "reason": "tip ' + LONE[1:-1] + '"}', a.host)
    assert resp.status_code == 400 and resp.get_json()["field"] == "reason"
    assert stored(app, a.code) == size


def test_item8_a_lone_surrogate_in_a_body_sent_as_utf16_is_a_400(hostile):
    """A body in UTF-16 (which the JSON reader takes too) is walked for a lone surrogate as a
    UTF-8 one with a \\u escape is: its escape does not look like one in the bytes."""
    app, client, a = hostile
    size = stored(app, a.code)
    body = '{"type": "adjust", "seat": "s1", "amount": 1, "reason": ' + LONE + '}'
    resp = client.post(f"/api/v1/tables/{a.code}/commands", data=body.encode("utf-16-le"),
                       content_type="application/json", headers={"Authorization": f"Bearer {a.host}"})
    assert resp.status_code == 400 and resp.get_json()["field"] == "reason"
    assert stored(app, a.code) == size


def test_item8_a_lone_surrogate_in_a_chip_name_is_a_400(hostile):
    app, client, a = hostile
    tables = len(app.extensions["tables"].owners())
    resp = raw_post(client, "/api/v1/tables",
                    '{"rules": "weg", "chip_set": [{"name": ' + LONE + ', "value": 1}]}')
    assert resp.status_code == 400 and resp.get_json()["field"] == "chip_set[0].name"
    assert_refused(resp, (400,))
    assert len(app.extensions["tables"].owners()) == tables


@pytest.mark.parametrize("after", ["%C2%B2", "1" * 5000, "%D9%A3"])  # ², 5,000 digits, Arabic 3
def test_item8_log_and_audit_after_with_odd_digits_are_400(hostile, after):
    app, client, a = hostile
    resp = client.get(f"/api/v1/tables/{a.code}/log?after={after}")
    assert resp.status_code == 400
    assert_refused(resp, (400,))
    assert "after" in resp.get_json()["error"]
    page = client.get(f"/t/{a.code}/audit?after={after}&rows=1")
    assert page.status_code == 400


def test_item8_an_odd_last_event_id_does_not_break_the_stream(hostile):
    app, client, a = hostile
    resp = client.get(f"/api/v1/tables/{a.code}/events?last_event_id=%C2%B2", buffered=False)
    assert resp.status_code == 200
    resp.close()


class _FullDisk:
    """The ledger's connection on a full disk: every COMMIT fails as SQLite's does."""

    def __init__(self, db):
        self.db = db

    def execute(self, sql, *args):
        if sql == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def test_item8_creating_a_table_or_moving_a_seat_on_a_full_disk_is_a_503_in_words(tmp_path):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path)})
    client = app.test_client()
    a = Api(flask_call(client))
    a.create({"rules": "weg"})
    a.join("Lando")
    ledger = app.extensions["tables"].ledger
    ledger._db = _FullDisk(ledger._db)
    try:
        tables, size = len(app.extensions["tables"].owners()), stored(app, a.code)
        resp = client.post("/api/v1/tables", json={"rules": "weg"})
        assert resp.status_code == 503 and "disk is full" in resp.get_json()["error"]
        assert len(app.extensions["tables"].owners()) == tables
        old = a.tokens["s1"]
        resp = client.post(f"/api/v1/tables/{a.code}/seats/s1/token", headers={"Authorization": f"Bearer {a.host}"})
        assert resp.status_code == 503 and "nothing changed" in resp.get_json()["error"]
        resp = client.post(f"/api/v1/tables/{a.code}/commands", json={"type": "buy_in", "amount": 5},
                           headers={"Authorization": f"Bearer {old}"})
        assert resp.status_code == 503 and "nothing changed" in resp.get_json()["error"]
        assert stored(app, a.code) == size
    finally:
        ledger._db = ledger._db.db
    # The old token still works: moving the seat did not half-happen.
    a.ok("s1", "buy_in", amount=5)
    assert stored(app, a.code) == size + 1
    app.extensions["tables"].close()


@pytest.mark.parametrize("seq", [10**6, 2**63, 20751986869724020731])
def test_an_undo_of_an_entry_past_the_table_or_past_sqlites_integers_is_a_404(hostile, seq):
    """Found by the OpenAPI fuzz drill: an undo's `seq` over 2**63 reached SQLite (a 500)."""
    app, client, a = hostile
    size = stored(app, a.code)
    resp = raw_post(client, f"/api/v1/tables/{a.code}/undo", json.dumps({"seq": seq}), a.host)
    assert resp.status_code == 404 and resp.get_json()["field"] == "seq"
    assert stored(app, a.code) == size
