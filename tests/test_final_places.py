"""Issue 31: the final standings of a game played to a winner list the players by place — the
winner first, then the player eliminated last, and so on — through the API (the table's state,
`/standings.json`, and the history page), for Kessel (K25, K26) and Coruscant Shift (C24, C25)."""

from __future__ import annotations

import re

import pytest

from conftest import ClientApi as Api
from test_coruscant_table import Table
from test_kessel_table import Game


@pytest.fixture
def api(client):
    return Api(client)


def standings(api, code):
    """(the state's final standings, /standings.json's rows) as (name, place) pairs in order."""
    state = api.get(f"/api/v1/tables/{code}")["state"]
    assert state["ended"]
    rows = api.get(f"/t/{code}/standings.json")["standings"]
    return ([(r["name"], r.get("place")) for r in state["standings"]],
            [(r["name"], r.get("place")) for r in rows])


def test_a_kessel_game_ends_with_the_winner_first_then_the_last_player_eliminated(api, client):
    g = Game(api, {"preset": "kessel-plain", "chips": 4})
    g.act("host", {"type": "start_hand"})
    a, b, c = g.order()
    # Round 1: b pays 3 of 4 chips and is out (K25).
    g.act("host", {"type": "turn_up", "sand": "S4", "blood": "b6"})
    g.act(a, {"type": "draw_card", "pile": "sand_draw", "keep": True, "discard": "s2"})
    g.act(b, {"type": "draw_card", "pile": "blood_discard", "keep": True, "discard": "b3"})
    g.act(c, {"type": "stand"})
    for p in (a, b, c):
        g.act(p, {"type": "stand"})
    g.act(a, {"type": "show_hand", "cards": ["s5", "b5"]})
    g.act(b, {"type": "show_hand", "cards": ["b6", "s2"]})
    g.act(c, {"type": "show_hand", "cards": ["s3", "bi"]})
    g.act("host", {"type": "roll", "dice": [4, 1]})
    g.act(c, {"type": "choose_value", "value": 4})
    assert [g.by_seat()[s] for s in g.game()["out"]] == [b]
    assert g.view()["game_over"] is None  # a player out, the game goes on
    # Round 2: an exact tie, nobody pays.
    g.act("host", {"type": "turn_up", "sand": "s1", "blood": "b1"})
    g.act(c, {"type": "draw_card", "pile": "sand_discard", "keep": False})
    for p in (a, c, a):
        g.act(p, {"type": "stand"})
    g.act(c, {"type": "show_hand", "cards": ["s2", "b4"]})
    g.act(a, {"type": "show_hand", "cards": ["s4", "b2"]})
    # Round 3: c is eliminated, a wins the game (K26).
    g.act("host", {"type": "turn_up", "sand": "s6", "blood": "b6"})
    g.act(a, {"type": "draw_card", "pile": "blood_draw", "keep": False, "discard": "b5"})
    g.act(c, {"type": "draw_card", "pile": "blood_draw", "keep": True, "discard": "b2"})
    g.act(a, {"type": "draw_card", "pile": "sand_draw", "keep": True, "discard": "s3"})
    g.act(c, {"type": "stand"})
    g.act(a, {"type": "stand"})
    g.act(c, {"type": "draw_card", "pile": "blood_discard", "keep": False})
    g.act(a, {"type": "show_hand", "cards": ["s1", "b1"]})
    g.act(c, {"type": "show_hand", "cards": ["s6", "b1"]})
    v = g.view()
    assert {s["name"]: s["stack"] for s in v["seats"]} == {a: 300, b: 0, c: 0}
    # Every screen's turn line says the game's end from the view: the winner, the places, what
    # comes next (no next hand).
    assert {g.by_seat()[sid]: place for sid, place in v["game_over"]["places"].items()} == {a: 1, c: 2, b: 3}
    assert v["game_over"]["words"] == (f"{a} wins the game. Final places: 1 {a}, 2 {c}, 3 {b}. "
                                       "The host ends the session for the final standings.")
    # b and c both lost their buy-in (net −100 each): by net alone, seat order would decide.
    g.act("host", {"type": "end_session"})
    assert g.view()["game_over"]["words"] == f"{a} wins the game. Final places: 1 {a}, 2 {c}, 3 {b}."
    in_state, in_json = standings(api, g.code)
    assert in_state == in_json == [(a, 1), (c, 2), (b, 3)]
    # The history page lists them by place too, with a Place column.
    page = client.get(f"/t/{g.code}/history").get_data(as_text=True)
    table = page[page.index('<table class="payouts standings">'):]
    cells = re.findall(r'<td class="num">(\d+|—)</td><th scope="row">([^<]+)</th>', table)
    escaped = {n: n.replace("<", "&lt;").replace(">", "&gt;") for n in (a, b, c)}
    assert cells == [("1", escaped[a]), ("2", escaped[c]), ("3", escaped[b])]


def test_a_coruscant_game_to_its_last_player_lists_the_player_out_last_second(client):
    t = Table(client, {"preset": "coruscant", "stock": 10}, ["Cas", "Ana", "Ben"])
    # Round 1 (Cas deals): Ana all-in, Ben calls all-in, Cas folds; Ana's +10 Circle wins, Ben is out.
    t.act("host", {"type": "start_hand"})
    t.act("host", {"type": "roll", "dice": [5, 4]})  # +10 Circle
    t.all_do("select", {"Cas": 1, "Ana": 2, "Ben": 1})
    t.act("Ana", {"type": "all_in"})
    t.act("Ben", {"type": "all_in"})
    t.act("Cas", {"type": "fold"})
    t.all_do("shift")
    t.all_do("improve", {"Ana": 2, "Ben": 1})
    t.act("Ana", {"type": "reveal_selection", "cards": ["ci+6", "ci+4"]})
    t.act("Ben", {"type": "reveal_selection", "cards": ["tr+9"]})
    assert t.stacks() == {"Cas": 8, "Ana": 22, "Ben": 0}
    # Round 2 (Ana deals, Cas starts): Cas goes all-in with what is left and loses: out.
    t.act("host", {"type": "start_hand"})
    t.act("host", {"type": "roll", "dice": [1, 1]})
    t.all_do("select", {"Cas": 1, "Ana": 1})
    t.act("Cas", {"type": "all_in"})
    t.act("Ana", {"type": "call"})
    t.all_do("shift")
    t.all_do("improve", {"Cas": 1, "Ana": 1})
    t.act("Cas", {"type": "reveal_selection", "cards": ["ci+9"]})
    t.act("Ana", {"type": "reveal_selection", "cards": ["sylop"]})
    assert t.stacks() == {"Cas": 0, "Ana": 30, "Ben": 0}
    # The end of the game, as every screen's turn line says it (not "between hands").
    assert t.view("Ben")["game_over"]["words"] == ("Ana wins the game. Final places: 1 Ana, 2 Cas, 3 Ben. "
                                                   "The host ends the session for the final standings.")
    t.act("host", {"type": "end_session"})
    api = Api(client)
    in_state, in_json = standings(api, t.code)
    # Cas (out in round 2) before Ben (out in round 1), though Cas sits first and both lost 10.
    assert in_state == in_json == [("Ana", 1), ("Cas", 2), ("Ben", 3)]


def test_a_session_of_hands_keeps_its_standings_by_net_without_places(api):
    made = api.post("/api/v1/tables", {"rules": "classic"}, status=201)
    code, host = made["code"], made["host_token"]
    for name, amount in (("Han", 50), ("Leia", 80)):
        joined = api.post(f"/api/v1/tables/{code}/join", {"name": name}, status=201)
        api.post(f"/api/v1/tables/{code}/commands", {"type": "buy_in", "amount": amount}, joined["token"])
    api.post(f"/api/v1/tables/{code}/commands", {"type": "end_session"}, host)
    assert api.get(f"/api/v1/tables/{code}")["state"]["game_over"] is None  # no game to win
    in_state, in_json = standings(api, code)
    assert [n for n, _ in in_state] == ["Han", "Leia"] and all(p is None for _, p in in_state + in_json)
