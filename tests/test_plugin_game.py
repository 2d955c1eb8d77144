"""Issue 29: a game defined only in tests/ (tests/plugin_game/highcard.py, found through its
``highcard-0.1.dist-info`` entry point as a pip-installed game would be) is played at a live
table through the HTTP API: the start, the ante, a bet, a raise, a call, the shown cards, the
settlement, undo, a restart from the ledger, and bad input refused in words. No file outside
tests/ knows it (checked below by reading the tree).

High card's rules (its module docstring): everyone antes, one betting round, the highest card
shown takes the pot; equal cards split it, the odd credit to the first in seat order.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from companion.games import registry
from companion.server.app import create_app
from conftest import ClientApi as Api

PLUGIN = Path(__file__).parent / "plugin_game"
ROOT = Path(__file__).parent.parent


@pytest.fixture
def highcard():
    """High card on `sys.path` (its dist-info with it), found by the registry as a plug-in."""
    sys.path.insert(0, str(PLUGIN))
    registry.reload()
    try:
        yield registry.games()["highcard"]
    finally:
        sys.path.remove(str(PLUGIN))
        sys.modules.pop("highcard", None)
        registry.reload()


def _table(api: Api, rules="highcard"):
    made = api.post("/api/v1/tables", {"rules": rules}, status=201)
    code, host = made["code"], made["host_token"]
    seats = {}
    for name in ("Lando", "Han", "<b>Qi'ra</b>"):
        joined = api.post(f"/api/v1/tables/{code}/join", {"name": name}, status=201)
        seats[joined["seat"]] = joined["token"]
    for sid, token in seats.items():
        # The runtime offers every game's seats the session's moves, with their words.
        offered = {o["type"]: o for o in api.get(f"/api/v1/tables/{code}", token)["state"]["you"]["legal"]}
        assert offered["buy_in"]["inputs"][0]["kind"] == "amount" and offered["buy_in"]["words"]
        api.post(f"/api/v1/tables/{code}/commands", {"type": "buy_in", "amount": 20}, token)
    return code, host, seats


def _act(api, code, token, body, status=200):
    return api.post(f"/api/v1/tables/{code}/commands", body, token, status)


def _view(api, code, token=None):
    return api.get(f"/api/v1/tables/{code}", token)["state"]


def _stacks(view):
    return {s["seat"]: s["stack"] for s in view["seats"]}


def test_a_plugin_game_is_found_and_offered(highcard, client):
    """The registry finds it by its entry point; the start page and the rules page list it."""
    assert "highcard" in registry.presets() and registry.game_of("highcard-big") is highcard
    start = client.get("/").get_data(as_text=True) + client.get("/rules").get_data(as_text=True)
    assert "High card" in start
    page = client.get("/rules?preset=highcard-big").get_data(as_text=True)
    assert "Everyone puts in 5" in page and "up to 20" in page


def test_a_whole_hand_of_high_card_through_the_api(highcard, client):
    api = Api(client)
    code, host, seats = _table(api)
    s1, s2, s3 = seats
    _act(api, code, host, {"type": "start_hand"})
    v = _view(api, code, seats[s2])
    # The dealer is the first seat; the player after them bets first. Antes: 1 each.
    assert v["hand"]["hand_pot"] == 3 and _stacks(v) == {s1: 19, s2: 19, s3: 19}
    assert v["hand"]["to_act"] == s2 and v["hand"]["words"] == "You: check, bet or fold."
    offers = {o["type"]: o for o in v["you"]["legal"]}
    assert set(offers) == {"check", "bet", "fold", "sit_out"}  # (sitting out the next hands)
    assert offers["bet"]["inputs"][0] == {"field": "amount", "kind": "amount", "min": 1, "max": 19,
                                          "words": "How much"}
    # Out of turn, over the stack, and an unknown card: refused in words, nothing changed.
    assert _act(api, code, seats[s3], {"type": "bet", "amount": 2}, 409)["error"] == "it is Han's move"
    assert _act(api, code, seats[s2], {"type": "bet", "amount": 50}, 422)["field"] == "amount"
    assert _act(api, code, seats[s2], {"type": "show_card", "card": "1"}, 409)["error"] == \
        "cards are shown after the betting"
    assert _act(api, code, seats[s2], {"type": "show_card", "card": "J"}, 422)["field"] == "card"
    assert _view(api, code)["version"] == v["version"]
    _act(api, code, seats[s2], {"type": "bet", "amount": 3})
    _act(api, code, seats[s3], {"type": "raise", "to": 5})
    _act(api, code, seats[s1], {"type": "fold"})
    _act(api, code, seats[s2], {"type": "call"})
    v = _view(api, code, seats[s3])
    assert v["hand"]["stage"] == "reveal" and v["hand"]["hand_pot"] == 13
    assert [o["type"] for o in v["you"]["legal"]] == ["show_card", "sit_out"]
    assert [o[0] for o in v["you"]["legal"][0]["inputs"][0]["options"]] == [str(n) for n in range(1, 11)]
    _act(api, code, seats[s3], {"type": "show_card", "card": "7"})
    # A shown card stays hidden from the others until everyone has shown: in the views, and in
    # the audit log (the game's engine declares the field secret; the runtime hides it).
    assert all(p["cards"] is None for p in _view(api, code, seats[s2])["hand"]["players"])

    def shown_in_log(token):
        log = api.get(f"/api/v1/tables/{code}/log", token)["entries"]
        return [e["body"]["card"] for e in log if e["type"] == "show_card"], json.dumps(log)

    theirs, text = shown_in_log(seats[s2])
    assert theirs == ["hidden"] and '"7"' not in text
    assert shown_in_log(seats[s3])[0] == ["7"]
    _act(api, code, seats[s2], {"type": "show_card", "card": "9"})
    v = _view(api, code)
    assert v["hand"]["stage"] == "settled" and v["hand"]["settlement"]["winners"] == [s2]
    # Han put in 1 + 5 and takes the 13: 19 - 5 + 13 = 27; Qi'ra 19 - 5 = 14; Lando folded: 19.
    assert _stacks(v) == {s1: 19, s2: 27, s3: 14} and sum(_stacks(v).values()) == 60
    assert v["hands"][-1]["status"] == "won" and v["hands"][-1]["cards"][s2] == ["9"]


def test_equal_cards_split_the_pot_and_undo_takes_a_card_back(highcard, client):
    api = Api(client)
    code, host, seats = _table(api, {"preset": "highcard", "ante": 2})
    s1, s2, s3 = seats
    _act(api, code, host, {"type": "start_hand"})
    for sid in (s2, s3, s1):
        _act(api, code, seats[sid], {"type": "check"})
    _act(api, code, seats[s1], {"type": "show_card", "card": "10"})
    _act(api, code, seats[s2], {"type": "show_card", "card": "3"})
    before = _view(api, code)
    api.post(f"/api/v1/tables/{code}/undo", {"version": before["version"]}, host)
    again = _view(api, code)
    assert again["hand"]["stage"] == "reveal"  # Han's card taken back, the hand still open
    assert [p["entered"] for p in again["hand"]["players"]] == [False, False, True]  # Han, Qi'ra, Lando
    _act(api, code, seats[s2], {"type": "show_card", "card": "10"})
    _act(api, code, seats[s3], {"type": "show_card", "card": "2"})
    v = _view(api, code)
    # A pot of 6 split between Lando and Han: 3 each, nothing left over.
    assert v["hand"]["settlement"]["status"] == "split"
    assert _stacks(v) == {s1: 21, s2: 21, s3: 18}


def test_a_restart_gives_the_same_high_card_table_back(highcard, tmp_path):
    data = tmp_path / "data"
    api = Api(create_app({"TESTING": True, "DATA_DIR": str(data)}).test_client())
    code, host, seats = _table(api)
    _act(api, code, host, {"type": "start_hand"})
    s2 = list(seats)[1]
    _act(api, code, seats[s2], {"type": "bet", "amount": 4})
    before = _view(api, code, seats[s2])
    again = Api(create_app({"TESTING": True, "DATA_DIR": str(data)}).test_client())
    assert _view(again, code, seats[s2]) == before


def test_no_file_outside_tests_knows_the_plugin_game():
    hits = [str(p.relative_to(ROOT)) for top in ("companion", "web", "pyproject.toml")
            for p in ([ROOT / top] if (ROOT / top).is_file() else (ROOT / top).rglob("*"))
            if p.is_file() and p.suffix in (".py", ".js", ".html", ".toml", ".css", ".md", ".json")
            and "highcard" in p.read_text(encoding="utf-8", errors="replace").lower()]
    assert hits == [], hits  # (the docs may name it: docs/games.md walks through it)
