"""The table API against the real engine: every input checked, 4xx with `error` and `field`,
nothing stored by a refused request; tokens; stale versions; idempotent retries; undo; log.

The helpers at the top (`Api`, `play_step`, `play_hand`) are shared with the stream, crash and
concurrency tests: they drive a table only through HTTP, as phones do.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable

import pytest

from companion.games.classic.cards import CARDS

CARD_CODES = [c.code for c in CARDS.values()]


class Api:
    """A table driven over HTTP: `call(method, path, body, token) -> (status, json)`."""

    def __init__(self, call: Callable[[str, str, Any, str | None], tuple[int, Any]]):
        self.call = call
        self.code = ""
        self.host = ""
        self.tokens: dict[str, str] = {}

    def create(self, settings: dict | None = None, owner_token: str | None = None) -> dict:
        """Make the table (as the server's owner when `owner_token` is given: its own table,
        not a guest's, which the disk reserve and entry rate treat as the table's first)."""
        status, body = self.call("POST", "/api/v1/tables", settings or {"rules": "weg"}, owner_token)
        assert status == 201, body
        self.code, self.host = body["code"], body["host_token"]
        return body

    def join(self, name: str, buy_in: int | None = 100) -> str:
        status, body = self.call("POST", f"/api/v1/tables/{self.code}/join", {"name": name}, None)
        assert status == 201, body
        self.tokens[body["seat"]] = body["token"]
        if buy_in:
            self.ok(body["seat"], "buy_in", amount=buy_in)
        return body["seat"]

    def act(self, who: str, type_: str, **fields) -> tuple[int, Any]:
        """Post a command as seat `who` (or "host")."""
        token = self.host if who == "host" else self.tokens[who]
        return self.call("POST", f"/api/v1/tables/{self.code}/commands", {"type": type_, **fields}, token)

    def ok(self, who: str, type_: str, **fields) -> dict:
        status, body = self.act(who, type_, **fields)
        assert status == 200, (type_, fields, body)
        return body

    def state(self, who: str | None = "host") -> dict:
        token = None if who is None else self.host if who == "host" else self.tokens[who]
        status, body = self.call("GET", f"/api/v1/tables/{self.code}", None, token)
        assert status == 200, body
        return body

    def log(self) -> list[dict]:
        """The whole audit log (as a spectator sees it), page by page."""
        entries: list[dict] = []
        while True:
            after = entries[-1]["seq"] if entries else 0
            status, body = self.call("GET", f"/api/v1/tables/{self.code}/log?limit=500&after={after}", None, None)
            assert status == 200, body
            entries += body["entries"]
            if len(body["entries"]) < 500:
                return entries


def credits(state: dict) -> int:
    """Stacks + hand pot + sabacc pot, read from a view."""
    hand = state["hand"]
    pot = hand["hand_pot"] if hand and hand["stage"] != "settled" else 0
    return sum(s["stack"] for s in state["seats"]) + pot + state["sabacc_pot"]


PASSIVE = ("call_hand", "check", "call", "no_call", "draw", "roll")


def next_action(api: Api, rng: random.Random | None = None, used_cards: set | None = None):
    """A legal action for some seat now: `(seat, type, fields)`, or None when the hand is over.

    Without `rng`: the first passive action (call the hand as soon as allowed). With `rng`: any
    legal action, bets and folds included, chosen at random.
    """
    host_view = api.state("host")["state"]
    hand = host_view["hand"]
    if hand is None or hand["stage"] == "settled":
        return None
    options = []
    for seat in api.tokens:
        you = api.state(seat)["state"].get("you")
        for legal in (you or {}).get("legal", []):
            t = legal["type"]
            entered = any(p["seat"] == seat and p["entered"] for p in hand["players"])
            if t == "reveal" and not entered:
                mine = sorted(set(CARD_CODES) - (used_cards or set()) - set(sum((p["static"] for p in hand["players"]), [])))
                start = list(api.tokens).index(seat) * 8
                cards = legal["static"] + mine[start:start + legal["hand_size"] - len(legal["static"])]
                return seat, "reveal", {"cards": cards}
            if t == "demise_card" and you.get("demise") is None:
                spare = [c for c in reversed(CARD_CODES) if c not in (used_cards or set())]
                return seat, "demise_card", {"card": spare[list(api.tokens).index(seat)]}
            if t == "draw":
                options.append((seat, "draw", {"action": legal["action"]}))
            elif t == "bet":
                options.append((seat, "bet", {"amount": legal["min"] if rng is None else rng.randint(legal["min"], legal["max"])}))
            elif t == "raise":
                options.append((seat, "raise", {"to": legal["min_to"]}))
            elif t in ("check", "call", "no_call", "roll", "call_hand", "fold", "all_in"):
                options.append((seat, t, {}))
    if "roll" in host_view.get("host_legal", []) and not any(o[1] == "roll" for o in options):
        options.append(("host", "roll", {}))
    if not options:
        return None
    if rng is not None:
        return rng.choice(options)
    for kind in PASSIVE:
        for o in options:
            if o[1] == kind and (kind != "draw" or o[2]["action"] == "stand"):
                return o
    return options[0]


def play_hand(api: Api, rng: random.Random | None = None, limit: int = 300) -> dict:
    """Start a hand and play it to the settlement; returns the host's final view."""
    api.ok("host", "start_hand")
    for _ in range(limit):
        action = next_action(api, rng)
        if action is None:
            break
        status, body = api.act(action[0], action[1], **action[2])
        assert status == 200, (action, body)
    else:
        raise AssertionError("the hand did not end")
    return api.state("host")["state"]


def flask_call(client):
    """An `Api.call` for Flask's test client."""

    def call(method, path, body, token):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        resp = client.open(path, method=method, json=body, headers=headers)
        return resp.status_code, resp.get_json(silent=True)

    return call


@pytest.fixture
def api(client) -> Api:
    a = Api(flask_call(client))
    a.create({"rules": "weg"})
    return a


@pytest.fixture
def seated(api) -> Api:
    """A weg table with three seats bought in for 100 each."""
    for name in ("Lando", "Han", "Leia"):
        api.join(name)
    return api


def ledger_size(app, code) -> int:
    return app.extensions["tables"].ledger.count_entries(code)


# -- tables -----------------------------------------------------------------------------------


def test_a_new_table_has_a_short_unambiguous_code_and_a_host_token(client):
    resp = client.post("/api/v1/tables", json={"rules": "classic"})
    assert resp.status_code == 201
    body = resp.get_json()
    assert len(body["code"]) == 5 and set(body["code"]) <= set("ACDEFHJKMNPRTUVWXY")
    assert body["join_url"].endswith(f"/join/{body['code']}")
    assert body["state"]["rules"]["name"] == "classic" and body["version"] == 0
    listed = client.get("/api/v1/tables").get_json()["tables"]
    assert [t["code"] for t in listed] == [body["code"]]
    # Codes are case-insensitive in URLs.
    assert client.get(f"/api/v1/tables/{body['code'].lower()}").status_code == 200


def test_bad_table_settings_are_refused_and_no_table_is_made(client):
    for settings, field in (({"rules": "poker"}, "rules.preset"), ({"rules": "weg", "max_seats": 99}, "max_seats")):
        resp = client.post("/api/v1/tables", json=settings)
        assert resp.status_code == 422
        assert resp.get_json()["field"] == field
    assert client.get("/api/v1/tables").get_json()["tables"] == []


def test_an_unknown_table_is_404(client):
    resp = client.get("/api/v1/tables/AAAAA")
    assert resp.status_code == 404 and resp.get_json()["field"] == "code"
    assert client.post("/api/v1/tables/zz/join", json={"name": "x"}).status_code == 404


def test_the_qr_code_encodes_the_join_url_as_svg(api, client):
    resp = client.get(f"/api/v1/tables/{api.code}/qr.svg")
    assert resp.status_code == 200 and resp.mimetype == "image/svg+xml"
    assert resp.data.startswith(b"<svg") and b"<path" in resp.data
    # Module for module the code qrcode makes of the join address (what a scanner reads).
    from companion.server.qr import dark_modules, dark_modules_of
    assert dark_modules(resp.get_data(as_text=True)) == dark_modules_of(f"http://localhost/join/{api.code}")


# -- seats and tokens ---------------------------------------------------------------------------


def test_joining_gives_a_seat_and_a_secret_token_that_acts_only_for_that_seat(seated):
    assert list(seated.tokens) == ["s1", "s2", "s3"]
    seated.ok("host", "start_hand")
    turn = seated.state()["state"]["hand"]["turn"]
    other = next(s for s in seated.tokens if s != turn)
    # Another seat's token cannot act for the seat whose turn it is.
    status, body = seated.act(other, "check", seat=turn)
    assert status == 403
    status, body = seated.call(
        "POST", f"/api/v1/tables/{seated.code}/commands", {"type": "check"}, "not-a-token"
    )
    assert (status, body["field"]) == (403, "token")
    status, body = seated.call("POST", f"/api/v1/tables/{seated.code}/commands", {"type": "check"}, None)
    assert status == 401
    assert seated.ok(turn, "check")["events"][0] == {"type": "checked", "seat": turn}


def test_views_never_carry_tokens_and_each_seat_sees_only_its_own_private_part(seated):
    for seat in seated.tokens:
        body = seated.state(seat)
        assert body["viewer"] == {"seat": seat, "host": False}
        assert body["state"]["you"]["seat"] == seat
        text = json.dumps(body)
        assert not any(token in text for token in seated.tokens.values())
        assert seated.host not in text
    public = seated.state(None)
    assert "you" not in public["state"] and public["viewer"] == {"seat": None, "host": False}


def test_the_host_moves_a_seat_to_a_new_phone_and_the_old_token_stops_working(seated):
    old = seated.tokens["s2"]
    status, body = seated.call("POST", f"/api/v1/tables/{seated.code}/seats/s2/token", None, seated.tokens["s1"])
    assert status == 403
    status, body = seated.call("POST", f"/api/v1/tables/{seated.code}/seats/s2/token", None, seated.host)
    assert status == 200 and body["seat"] == "s2" and body["token"] != old
    assert seated.call("GET", f"/api/v1/tables/{seated.code}", None, old)[0] == 403
    assert seated.call("GET", f"/api/v1/tables/{seated.code}", None, body["token"])[1]["viewer"]["seat"] == "s2"
    status, _ = seated.call("POST", f"/api/v1/tables/{seated.code}/seats/s9/token", None, seated.host)
    assert status == 404


def test_a_retried_join_keeps_the_seat_and_replaces_the_token(api, client):
    url = f"/api/v1/tables/{api.code}/join"
    first = client.post(url, json={"name": "Chewie", "idempotency_key": "join-1"})
    again = client.post(url, json={"name": "Chewie", "idempotency_key": "join-1"})
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.get_json()["seat"] == again.get_json()["seat"] == "s1"
    assert len(api.state()["state"]["seats"]) == 1
    assert client.get(f"/api/v1/tables/{api.code}", headers={"X-Seat-Token": first.get_json()["token"]}).status_code == 403
    assert client.get(f"/api/v1/tables/{api.code}", headers={"X-Seat-Token": again.get_json()["token"]}).status_code == 200


@pytest.mark.parametrize(
    "body, status, field",
    [
        ({}, 422, "name"),
        ({"name": ""}, 422, "name"),
        ({"name": "   "}, 422, "name"),
        ({"name": "x" * 41}, 422, "name"),
        ({"name": 7}, 400, "name"),
        ({"name": "Bob\x00"}, 422, "name"),
        ({"name": "Bob", "seat": "s1"}, 422, "seat"),
    ],
)
def test_bad_names_are_refused_and_nobody_is_seated(api, app, body, status, field):
    resp_status, resp = api.call("POST", f"/api/v1/tables/{api.code}/join", body, None)
    assert (resp_status, resp["field"]) == (status, field)
    assert ledger_size(app, api.code) == 0


def test_names_may_be_non_latin_and_are_returned_as_given(api):
    seat = api.join("Ла́ндо 卡瑞辛", buy_in=None)
    assert api.state()["state"]["seats"][0]["name"] == "Ла́ндо 卡瑞辛" and seat == "s1"


# -- commands ---------------------------------------------------------------------------------


def _turn(api) -> str:
    return api.state()["state"]["hand"]["turn"]


def test_out_of_turn_is_409_and_changes_nothing(seated, app):
    seated.ok("host", "start_hand")
    turn = _turn(seated)
    other = next(s for s in seated.tokens if s != turn)
    before, size = seated.state()["state"], ledger_size(app, seated.code)
    status, body = seated.act(other, "check")
    assert status == 409 and body["error"]
    assert seated.state()["state"] == before and ledger_size(app, seated.code) == size


def test_an_illegal_amount_is_422_and_changes_nothing(seated, app):
    seated.ok("host", "start_hand")
    turn = _turn(seated)
    size = ledger_size(app, seated.code)
    for amount, status in ((4, 422), (0, 422), (-1, 422), ("3", 400), (1.5, 400), (True, 400)):
        code, body = seated.act(turn, "bet", amount=amount)
        assert (code, body["field"]) == (status, "amount"), (amount, body)
    assert ledger_size(app, seated.code) == size
    assert seated.ok(turn, "bet", amount=3)["events"][0]["amount"] == 3  # weg's limit is 3


def test_an_unknown_card_is_refused(client):
    a = Api(flask_call(client))
    a.create({"rules": "classic"})  # classic has a free static field
    for name in ("Lando", "Han"):
        a.join(name)
    a.ok("host", "start_hand")
    size = a.call("GET", f"/api/v1/tables/{a.code}/log", None, None)[1]["version"]
    # Play to the first draw step, where the turn player may add to the static field.
    for _ in range(50):
        view = a.state()["state"]["hand"]
        if view["do"] == "draw":
            break
        seat, kind, fields = next_action(a)
        a.ok(seat, kind, **fields)
    turn = view["turn"]
    status, body = a.act(turn, "static_add", card="xx99")
    assert status == 422 and body["field"] == "card"
    assert a.state()["state"]["hand"]["players"][0]["static"] == []
    assert size <= a.call("GET", f"/api/v1/tables/{a.code}/log", None, None)[1]["version"]


@pytest.mark.parametrize(
    "body, status, field",
    [
        ({"type": "teleport"}, 400, "type"),
        ({"type": "join", "name": "x"}, 400, "type"),
        ({"amount": 3}, 400, "type"),
        ({"type": "check", "amount": 3}, 422, "amount"),
        ({"type": "check", "version": "1"}, 400, "version"),
        ({"type": "check", "idempotency_key": ""}, 400, "idempotency_key"),
        ({"type": "check", "idempotency_key": "k" * 101}, 400, "idempotency_key"),
        ({"type": "check", "seat": 3}, 400, "seat"),
        ({"type": "roll", "dice": [3]}, 403, "dice"),
    ],
)
def test_malformed_commands_are_refused_and_nothing_is_stored(seated, app, body, status, field):
    seated.ok("host", "start_hand")
    size = ledger_size(app, seated.code)
    code, resp = seated.call("POST", f"/api/v1/tables/{seated.code}/commands", body, seated.tokens["s2"])
    assert (code, resp["field"]) == (status, field), resp
    assert ledger_size(app, seated.code) == size


def test_a_stale_version_is_409_with_the_fresh_state(seated):
    seated.ok("host", "start_hand")
    turn = _turn(seated)
    version = seated.state(turn)["version"]
    seated.ok(turn, "check")  # moves the table on
    nxt = seated.state()["state"]["hand"]
    status, body = seated.act(nxt["turn"] or nxt["to_act"] or turn, "check", version=version)
    assert (status, body["field"]) == (409, "version")
    assert body["version"] == version + 1 == body["state"]["version"]
    assert body["state"]["hand"]["players"]  # the asker's whole view, ready to redraw


def test_a_retried_command_is_applied_once(seated, app):
    seated.ok("host", "start_hand")
    turn = _turn(seated)
    before = next(s["stack"] for s in seated.state()["state"]["seats"] if s["seat"] == turn)
    first = seated.ok(turn, "bet", amount=2, idempotency_key="bet-1")
    again = seated.ok(turn, "bet", amount=2, idempotency_key="bet-1")
    assert again["replayed"] is True and again["seq"] == first["seq"] and again["events"] == first["events"]
    stack = next(s["stack"] for s in seated.state()["state"]["seats"] if s["seat"] == turn)
    assert stack == before - 2  # the bet of 2, once
    assert sum(1 for e in seated.log() if e["type"] == "bet") == 1
    status, body = seated.act(turn, "bet", amount=3, idempotency_key="bet-1")
    assert (status, body["field"]) == (422, "idempotency_key")


def test_the_body_must_be_a_small_json_object(seated, client, app):
    url = f"/api/v1/tables/{seated.code}/commands"
    auth = {"Authorization": f"Bearer {seated.tokens['s1']}"}
    size = ledger_size(app, seated.code)
    cases = [
        (client.post(url, data="{", content_type="application/json", headers=auth), 400),
        (client.post(url, data='{"type": "check"}', content_type="text/plain", headers=auth), 415),
        (client.post(url, json=[{"type": "check"}], headers=auth), 400),
        (client.post(url, json="check", headers=auth), 400),
        (client.post(url, data=b"{" + b" " * (300 * 1024) + b"}", content_type="application/json", headers=auth), 413),
        (client.post(url, data="[" * 2000 + "]" * 2000, content_type="application/json", headers=auth), 400),
            # A command body over COMMAND_BODY_MAX (8 KiB) is refused before it is read.
            (client.post(url, data="[" * 100000 + "]" * 100000, content_type="application/json", headers=auth), 413),
    ]
    for resp, status in cases:
        assert resp.status_code == status, resp.get_json()
        assert set(resp.get_json()) >= {"error", "field"}
    assert ledger_size(app, seated.code) == size


def test_host_adjusts_a_stack_with_a_written_reason(seated):
    status, body = seated.act("host", "adjust", seat="s2", amount=5)
    assert (status, body["field"]) == (422, "reason")
    body = seated.ok("host", "adjust", seat="s2", amount=-5, reason="spilled chips counted twice")
    assert body["events"][0]["reason"] == "spilled chips counted twice"
    assert seated.state()["state"]["seats"][1]["stack"] == 95
    assert seated.act("s1", "adjust", seat="s1", amount=5, reason="mine")[0] == 403


def test_a_full_hand_over_http_conserves_credits(seated):
    start = credits(seated.state()["state"])
    final = play_hand(seated, random.Random(7))
    assert final["hand"]["stage"] == "settled"
    assert credits(final) == start
    assert all(s["stack"] >= 0 for s in final["seats"])


# -- undo and the audit log -------------------------------------------------------------------


def test_host_undo_appends_a_counter_entry_and_the_log_shows_both(seated):
    seated.ok("host", "start_hand")
    turn = _turn(seated)
    before = seated.state(turn)["state"]
    bet = seated.ok(turn, "bet", amount=3)
    assert seated.call("POST", f"/api/v1/tables/{seated.code}/undo", {}, seated.tokens[turn])[0] == 403
    status, body = seated.call("POST", f"/api/v1/tables/{seated.code}/undo", {}, seated.host)
    assert status == 200 and body["undone"] == bet["seq"] and body["seq"] == bet["seq"] + 1
    after = seated.state(turn)["state"]
    assert {k: v for k, v in after.items() if k != "version"} == {k: v for k, v in before.items() if k != "version"}
    log = seated.log()
    assert log[-2]["type"] == "bet" and log[-2]["undone_by"] == body["seq"]
    assert log[-1]["type"] == "undo" and log[-1]["undoes"] == bet["seq"]
    # The turn player can bet again: the table is where it was.
    seated.ok(turn, "bet", amount=1)


def test_undo_refusals(seated):
    url = f"/api/v1/tables/{seated.code}/undo"
    assert seated.call("POST", url, {"seq": 1}, seated.host)[0] == 409  # a join
    assert seated.call("POST", url, {"seq": 999}, seated.host)[0] == 404
    assert seated.call("POST", url, {"seq": "1"}, seated.host)[1]["field"] == "seq"
    assert seated.call("POST", url, {"seq": 1, "why": "x"}, seated.host)[1]["field"] == "why"


def test_the_log_never_shows_another_seats_reveal_cards(client):
    a = Api(flask_call(client))
    a.create({"rules": "weg"})
    for name in ("Lando", "Han", "Leia"):
        a.join(name)
    a.ok("host", "start_hand")
    entered = {}
    for _ in range(300):
        action = next_action(a)
        assert action is not None
        seat, kind, fields = action
        if kind == "reveal":
            a.ok(seat, kind, **fields)
            entered[seat] = fields["cards"]
            break
        a.ok(seat, kind, **fields)
    first = next(iter(entered))
    others = [s for s in a.tokens if s != first]
    cards = entered[first]
    for viewer in others + ["host", None]:
        token = None if viewer is None else a.host if viewer == "host" else a.tokens[viewer]
        log = a.call("GET", f"/api/v1/tables/{a.code}/log", None, token)[1]
        state = a.call("GET", f"/api/v1/tables/{a.code}", None, token)[1]
        for text in (json.dumps(log), json.dumps(state)):
            assert not any(f'"{c}"' in text for c in cards), viewer
    own = a.call("GET", f"/api/v1/tables/{a.code}/log", None, a.tokens[first])[1]
    assert own["entries"][-1]["body"]["cards"] == cards


# -- OpenAPI ------------------------------------------------------------------------------------


def test_every_table_endpoint_and_command_is_in_the_openapi_document(client):
    from companion.table.engine import COMMANDS

    doc = client.get("/api/v1/openapi.json").get_json()
    for path in ("/api/v1/tables", "/api/v1/tables/{code}", "/api/v1/tables/{code}/join",
                 "/api/v1/tables/{code}/commands", "/api/v1/tables/{code}/undo",
                 "/api/v1/tables/{code}/log", "/api/v1/tables/{code}/qr.svg",
                 "/api/v1/tables/{code}/events", "/api/v1/tables/{code}/seats/{seat}/token"):
        assert path in doc["paths"], path
    variants = {v["$ref"].rsplit("_", 1)[-1] for v in doc["components"]["schemas"]["Command"]["oneOf"]}
    assert {c.rsplit("_", 1)[-1] for c in COMMANDS if c != "join"} <= variants
