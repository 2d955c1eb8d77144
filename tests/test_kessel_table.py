"""Kessel Sabacc at a live table, through the HTTP API (companion/games/kessel/engine.py): a whole
game to its winner for both presets, with draws from each of the four piles, stands, the round
ending early when everyone stands (K11), shift tokens (a targeted one, Immunity, Embargo, an
audit, the judging tokens), Impostor values, an exact tie, eliminations and the credits pot;
each seat's unplayed tokens seen by that seat only; refusals in words; undo and a restart.
"""

from __future__ import annotations

import json
import re

import pytest

from companion.server.app import create_app
from conftest import ClientApi as Api

NAMES = ("Kay", "Lando", "<b>Vel</b>")


class Game:
    """One Kessel table: its code, the host's token, each player's seat and token by name."""

    def __init__(self, api: Api, rules):
        self.api = api
        made = api.post("/api/v1/tables", {"rules": rules}, status=201)
        self.code, self.host = made["code"], made["host_token"]
        self.seat, self.token = {}, {}
        for name in NAMES:
            joined = api.post(f"/api/v1/tables/{self.code}/join", {"name": name}, status=201)
            self.seat[name], self.token[name] = joined["seat"], joined["token"]
            self.act(name, {"type": "buy_in"})

    def act(self, name, body, status=200):
        token = self.host if name == "host" else self.token[name]
        return self.api.post(f"/api/v1/tables/{self.code}/commands", body, token, status)

    def view(self, name=None):
        return self.api.get(f"/api/v1/tables/{self.code}", self.token[name] if name else None)["state"]

    def game(self):
        return self.view()["hand"]["game"]

    def log(self, name=None):
        """The audit log as `name` reads it (the host's: "host"; a spectator's: None)."""
        token = self.host if name == "host" else self.token[name] if name else None
        return self.api.get(f"/api/v1/tables/{self.code}/log", token)

    def by_seat(self):
        return {v: k for k, v in self.seat.items()}

    def order(self):
        """The players still in the game, by name, from this round's starter."""
        return [self.by_seat()[sid] for sid in self.game()["in_game"]]

    def chips(self):
        return {self.by_seat()[sid]: (c["stock"], c["invested"]) for sid, c in self.game()["chips"].items()}

    def credits(self):
        v = self.view()
        return sum(s["stack"] for s in v["seats"]) + v["hand"]["hand_pot"]


@pytest.fixture
def api(client):
    return Api(client)


def test_a_whole_kessel_plain_game_to_its_winner(api):
    g = Game(api, {"preset": "kessel-plain", "chips": 4})
    g.act("host", {"type": "start_hand"})
    assert g.credits() == 300 and g.view()["hand"]["hand_pot"] == 300  # 3 buy-ins of 100
    a, b, c = g.order()
    assert g.game()["stage"] == "deal" and g.chips() == {a: (4, 0), b: (4, 0), c: (4, 0)}
    # Round 1. Nobody may act before the discard piles are turned up.
    assert g.act(a, {"type": "stand"}, 409)["error"] == "not now: the dealer turns up the first card of each discard pile"
    g.act("host", {"type": "turn_up", "sand": "S4", "blood": "b6"})
    assert g.game()["discard_tops"] == {"sand": "s4", "blood": "b6"} and g.game()["draw_left"] == {"sand": 18, "blood": 18}
    assert g.act(b, {"type": "stand"}, 409)["error"] == f"it is {a}'s turn"
    g.act(a, {"type": "draw_card", "pile": "sand_draw", "keep": True, "discard": "s2"})
    g.act(b, {"type": "draw_card", "pile": "blood_discard", "keep": True, "discard": "b3"})
    assert g.game()["discard_tops"] == {"sand": "s2", "blood": "b3"} and g.game()["draw_left"]["sand"] == 17
    g.act(c, {"type": "stand"})
    assert g.chips() == {a: (3, 1), b: (3, 1), c: (4, 0)}
    for p in (a, b, c):  # K11: everyone stands in turn 2: the reveal at once
        g.act(p, {"type": "stand"})
    assert g.game()["stage"] == "reveal" and g.game()["turn"] == 2
    # K17: hands are shown in order; an Impostor needs its value; a wrong shape is refused.
    assert g.act(b, {"type": "show_hand", "cards": ["s2", "b6"]}, 409)["error"].endswith(f"{a} shows next")
    assert g.act(a, {"type": "show_hand", "cards": ["s5", "s3"]}, 422)["field"] == "cards"
    g.act(a, {"type": "show_hand", "cards": ["s5", "b5"]})
    g.act(b, {"type": "show_hand", "cards": ["b6", "s2"]})
    # K17: the Impostor's two dice (here a roll of the table's dice the host enters), then a value.
    g.act(c, {"type": "show_hand", "cards": ["s3", "bi"]})
    assert g.act(c, {"type": "choose_value", "value": 4}, 409)["error"] == "no dice to choose from now"
    assert g.view(c)["hand"]["words"] == "The scrambler rolls two dice for the Impostor."
    assert [o["type"] for o in g.view(c)["you"]["legal"]] == ["roll"]
    g.act("host", {"type": "roll", "dice": [4, 1]})
    assert g.view(c)["hand"]["words"] == "You: take 4 or 1 for the Impostor."
    assert g.act(c, {"type": "choose_value", "value": 5}, 422) == \
        {"error": "choose 4 or 1, the values rolled", "field": "value"}
    g.act(c, {"type": "choose_value", "value": 4})
    r1 = g.game()["rounds"][0]
    names = g.by_seat()
    assert [names[w] for w in r1["winners"]] == [a] and r1["chips_removed"] == 5
    assert g.chips() == {a: (4, 0), b: (0, 0), c: (3, 0)}  # b paid 3 of 4 and is out
    assert [names[s] for s in g.game()["out"]] == [b] and g.order() == [c, a]  # K6: the starter moves on
    # Round 2: an exact tie (K21): both win, nobody pays.
    g.act("host", {"type": "turn_up", "sand": "s1", "blood": "b1"})
    g.act(c, {"type": "draw_card", "pile": "sand_discard", "keep": False})  # takes s1, puts it back: 1 chip
    assert g.chips()[c] == (2, 1) and g.game()["discard_tops"]["sand"] == "s1"
    for p in (a, c, a):
        g.act(p, {"type": "stand"})
    g.act(c, {"type": "show_hand", "cards": ["s2", "b4"]})
    g.act(a, {"type": "show_hand", "cards": ["s4", "b2"]})
    assert len(g.game()["rounds"][1]["winners"]) == 2 and g.chips() == {a: (4, 0), b: (0, 0), c: (3, 0)}
    # Round 3: three turns, then the reveal; c is eliminated and a wins the game.
    assert g.order() == [a, c]
    g.act("host", {"type": "turn_up", "sand": "s6", "blood": "b6"})
    g.act(a, {"type": "draw_card", "pile": "blood_draw", "keep": False, "discard": "b5"})
    g.act(c, {"type": "draw_card", "pile": "blood_draw", "keep": True, "discard": "b2"})
    g.act(a, {"type": "draw_card", "pile": "sand_draw", "keep": True, "discard": "s3"})
    g.act(c, {"type": "stand"})
    g.act(a, {"type": "stand"})
    g.act(c, {"type": "draw_card", "pile": "blood_discard", "keep": False})
    assert g.chips() == {a: (2, 2), b: (0, 0), c: (1, 2)} and g.game()["stage"] == "reveal"
    assert g.credits() == 300
    g.act(a, {"type": "show_hand", "cards": ["s1", "b1"]})
    g.act(c, {"type": "show_hand", "cards": ["s6", "b1"]})
    v = g.view()
    assert v["hand"]["stage"] == "settled" and [names[w] for w in v["hand"]["game"]["winners"]] == [a]
    assert {names[s["seat"]]: s["stack"] for s in v["seats"]} == {a: 300, b: 0, c: 0}
    assert v["hands"][-1]["status"] == "won" and g.credits() == 300
    assert g.act("host", {"type": "start_hand"}, 409)["error"].startswith("this table's game of Kessel is over")


def test_a_kessel_game_with_tokens_secret_until_played(api):
    g = Game(api, {"preset": "kessel", "chips": 4})
    g.act("host", {"type": "start_hand"})
    a, b, c = g.order()
    hands = {a: ["immunity", "target_tariff", "general_audit"], b: ["embargo", "refund", "cook_the_books"],
             c: ["major_fraud", "target_audit", "free_draw"]}
    assert g.act(a, {"type": "choose_tokens", "tokens": ["refund", "refund", "embargo"]}, 422)["field"] == "tokens"
    for p in (a, b, c):
        g.act(p, {"type": "choose_tokens", "tokens": hands[p]})
    assert g.act(a, {"type": "choose_tokens", "tokens": hands[a]}, 409)["error"].startswith("not now")

    def secret_kept():
        """No view and no audit log shows a seat's unplayed tokens to another seat, nor to the
        display or the host (the log hides a choice of tokens but to its own seat)."""
        for viewer in (None, "host", a, b, c):
            text = json.dumps(g.view(None if viewer == "host" else viewer)) + json.dumps(g.log(viewer))
            for owner, held in g.game()["tokens_left"].items():
                if g.by_seat()[owner] == viewer:
                    continue
                mine = set(hands[viewer]) if viewer in hands else set()
                unplayed = [t for t in hands[g.by_seat()[owner]] if t not in played and t not in mine]
                # A token's code as a value anywhere ("embargo" is also the name of a key: the seat under it).
                assert not any(re.search(f'"{t}"(?!\\s*:)', text) for t in unplayed), (viewer, owner, unplayed)
        return True

    played: list[str] = []
    assert secret_kept() and g.view(a)["you"]["tokens"] == hands[a]
    assert g.game()["tokens_left"] == {g.seat[p]: 3 for p in (a, b, c)}
    # Round 1.
    g.act("host", {"type": "turn_up", "sand": "s4", "blood": "b6"})
    assert g.act(b, {"type": "play_token", "token": "embargo"}, 409)["error"] == f"it is {a}'s turn"
    g.act(a, {"type": "play_token", "token": "immunity"})
    played.append("immunity")
    assert g.act(a, {"type": "play_token", "token": "target_tariff", "target": g.seat[c]}, 409)["error"] == \
        "one token a turn: you have played one"
    g.act(a, {"type": "stand"})
    assert g.act(b, {"type": "play_token", "token": "major_fraud"}, 409)["error"] == "you do not hold that token"
    g.act(b, {"type": "play_token", "token": "embargo"})  # c, the next to act, must stand
    played.append("embargo")
    g.act(b, {"type": "draw_card", "pile": "sand_draw", "keep": True, "discard": "s2"})
    assert g.act(c, {"type": "draw_card", "pile": "sand_draw", "keep": True, "discard": "s5"}, 409)["error"] == \
        "you are under Embargo: you must stand"
    assert "draw_card" not in [o["type"] for o in g.view(c)["you"]["legal"]]
    # K30, K32: Kay is immune and Lando drew: Target Audit has no target, and is not offered.
    assert g.act(c, {"type": "play_token", "token": "target_audit", "target": g.seat[a]}, 422) == \
        {"error": f"{a} cannot be the target of Target Audit (immune)", "field": "target"}
    offered = [(o["type"], o.get("token")) for o in g.view(c)["you"]["legal"]]
    assert offered == [("play_token", "major_fraud"), ("play_token", "free_draw"), ("stand", None)]
    g.act(c, {"type": "stand"})
    assert secret_kept()
    # Turn 2: a targets c with a tariff (into c's invested pile), b takes a refund, c plays Major Fraud.
    g.act(a, {"type": "play_token", "token": "target_tariff", "target": g.seat[c]})
    g.act(a, {"type": "draw_card", "pile": "blood_draw", "keep": False, "discard": "b4"})
    g.act(b, {"type": "play_token", "token": "refund"})
    g.act(b, {"type": "stand"})
    g.act(c, {"type": "play_token", "token": "major_fraud"})
    g.act(c, {"type": "stand"})
    played += ["target_tariff", "refund", "major_fraud"]
    assert g.chips() == {a: (3, 1), b: (4, 0), c: (2, 2)} and g.game()["effects"]["major_fraud"] is True
    # Turn 3: General Audit: every other player in stand pays 2.
    g.act(a, {"type": "play_token", "token": "general_audit"})
    played.append("general_audit")
    assert g.chips() == {a: (3, 1), b: (2, 2), c: (0, 4)}
    for p in (a, b, c):
        g.act(p, {"type": "stand"})
    assert secret_kept()
    # The reveal under Major Fraud: Impostors are 6, no value is entered.
    g.act(a, {"type": "show_hand", "cards": ["si", "b6"]})
    assert g.game()["pending"] is None and g.game()["shown"][g.seat[a]]["values"] == [6, 6]  # nothing rolled
    g.act(b, {"type": "show_hand", "cards": ["s3", "b3"]})
    g.act(c, {"type": "show_hand", "cards": ["s1", "bi"]})
    assert g.game()["pending"] is None
    names = g.by_seat()
    r1 = g.game()["rounds"][0]
    assert [names[w] for w in r1["winners"]] == [b] and r1["chips_removed"] == 6
    assert g.chips() == {a: (2, 0), b: (4, 0), c: (0, 0)}
    assert g.game()["effects"] == {"major_fraud": False, "markdown": False, "cook_the_books": False,
                                   "prime_sabacc": None}  # K34
    assert g.game()["tokens_left"][g.seat[c]] == 0  # K28: an eliminated player's tokens are lost
    # Round 2: Cook the Books makes 6/6 the best Sabacc.
    assert g.order() == [b, a]
    g.act("host", {"type": "turn_up", "sand": "s5", "blood": "b5"})
    g.act(b, {"type": "play_token", "token": "cook_the_books"})
    played.append("cook_the_books")
    g.act(b, {"type": "stand"})
    g.act(a, {"type": "stand"})
    g.act(b, {"type": "show_hand", "cards": ["s1", "b1"]})
    g.act(a, {"type": "show_hand", "cards": ["s6", "b6"]})
    assert [names[w] for w in g.game()["rounds"][1]["winners"]] == [a] and g.chips()[b] == (3, 0)
    # Round 3: Pure Sabacc; a owes 3, pays 2 and is out: b wins the game and the credits pot.
    assert g.order() == [a, b]
    g.act("host", {"type": "turn_up", "sand": "s2", "blood": "b2"})
    g.act(a, {"type": "stand"})
    g.act(b, {"type": "stand"})
    g.act(a, {"type": "show_hand", "cards": ["s2", "b5"]})
    g.act(b, {"type": "show_hand", "cards": ["ss", "bs"]})
    v = g.view()
    assert v["hand"]["stage"] == "settled" and {names[s["seat"]]: s["stack"] for s in v["seats"]} == \
        {a: 0, b: 300, c: 0}
    assert [(names[t["seat"]], t["token"]) for t in v["hand"]["game"]["played"]][:2] == [(a, "immunity"), (b, "embargo")]


def test_undo_takes_a_kessel_move_back_and_a_restart_gives_the_same_table(tmp_path):
    data = tmp_path / "data"
    api = Api(create_app({"TESTING": True, "DATA_DIR": str(data)}).test_client())
    g = Game(api, "kessel-plain")
    g.act("host", {"type": "start_hand"})
    a, b, c = g.order()
    g.act("host", {"type": "turn_up", "sand": "s4", "blood": "b6"})
    before = g.view()
    g.act(a, {"type": "draw_card", "pile": "sand_draw", "keep": True, "discard": "s2"})
    assert g.chips()[a] == (5, 1)
    api.post(f"/api/v1/tables/{g.code}/undo", {"version": g.view()["version"]}, g.host)
    again = g.view()
    assert again["hand"]["game"] == before["hand"]["game"] and g.chips()[a] == (6, 0)
    g.act(a, {"type": "draw_card", "pile": "blood_discard", "keep": True, "discard": "b2"})
    seen = g.view(b)
    restarted = Api(create_app({"TESTING": True, "DATA_DIR": str(data)}).test_client())
    assert restarted.get(f"/api/v1/tables/{g.code}", g.token[b])["state"] == seen


def test_refusals_at_the_start_are_in_words(api):
    g = Game(api, {"preset": "kessel", "tokens": "random"})
    err = g.act("host", {"type": "start_hand"}, 409)
    assert "tokens dealt at random" in err["error"]
    g = Game(api, "kessel-plain")
    g.act("host", {"type": "start_hand"})
    a, b, c = g.order()
    assert g.act(b, {"type": "turn_up", "sand": "s1", "blood": "b1"}, 403)["error"].startswith("the dealer")
    assert g.act("host", {"type": "turn_up", "sand": "b1", "blood": "b1"}, 422) == \
        {"error": "Blood 1 is not a Sand card", "field": "sand"}
    assert g.act(a, {"type": "choose_tokens", "tokens": ["refund", "embargo", "immunity"]}, 409)["error"] == \
        "not now: the dealer turns up the first card of each discard pile"


def test_the_start_page_the_rules_page_and_a_tables_phone_and_display_pages_show_kessel(api, client):
    start = client.get("/host").get_data(as_text=True)
    assert "Kessel Sabacc" in start and "kessel-plain" in start
    page = client.get("/rules?preset=kessel").get_data(as_text=True)
    assert "Target Audit" in page and "one Sand card and one Blood card" in page
    g = Game(api, "kessel")
    g.act("host", {"type": "start_hand"})
    assert g.view()["rules"]["deck"] == "kessel" and g.view()["rules"]["plays_tokens"] is True
    cards = client.get("/api/v1/cards?deck=kessel").get_json()
    assert [grp["key"] for grp in cards["groups"]] == ["sand", "blood"] and len(cards["cards"]) == 16
    for path in (f"/t/{g.code}/seat", f"/t/{g.code}/display", f"/t/{g.code}/history"):
        assert client.get(path).status_code == 200, path


def test_the_scrambler_rolls_the_impostor_dice_from_the_tables_roller(api):
    g = Game(api, "kessel-plain")
    g.act("host", {"type": "start_hand"})
    a, b, c = g.order()
    g.act("host", {"type": "turn_up", "sand": "s4", "blood": "b6"})
    for p in (a, b, c):
        g.act(p, {"type": "stand"})
    g.act(a, {"type": "show_hand", "cards": ["bi", "si"]})  # two Impostors: two rolls, Sand first
    assert g.act(b, {"type": "roll"}, 403)["error"] == f"the scrambler, the host or {a} rolls"
    values = []
    for _ in range(2):
        g.act(a, {"type": "roll"})  # no dice sent: the table's roller rolls them
        dice = g.game()["pending"]["dice"]
        assert len(dice) == 2 and all(1 <= d <= 6 for d in dice)
        g.act(a, {"type": "choose_value", "value": dice[1]})
        values.append(dice[1])
    shown = g.game()["shown"][g.seat[a]]
    assert shown["cards"] == ["si", "bi"] and shown["values"] == values
    assert g.act(a, {"type": "roll"}, 409)["error"].startswith("nothing to roll now")


def test_the_console_turns_up_the_piles_for_the_dealer_it_plays(api):
    """K7: the host's console, playing the dealer's seat without a phone, names that seat;
    naming another seat is refused and changes nothing."""
    g = Game(api, "kessel-plain")
    g.act("host", {"type": "start_hand"})
    dealer = g.game()["dealer"]
    other = next(sid for sid in g.seat.values() if sid != dealer)
    assert g.act("host", {"type": "turn_up", "seat": other, "sand": "s4", "blood": "b6"}, 403)["error"] == \
        "the dealer (or the host) turns up the discard piles' first cards"
    assert g.game()["stage"] == "deal"
    g.act("host", {"type": "turn_up", "seat": dealer, "sand": "s4", "blood": "b6"})
    assert g.game()["discard_tops"] == {"sand": "s4", "blood": "b6"}


def test_k39_a_player_leaving_mid_round_is_out_and_their_chips_tokens_and_cards_leave_the_game(api):
    """K39 through the API: the leaver enters the two cards they held (they go on the discard
    piles), their invested chips, stock and unplayed tokens leave the game, their credits
    outside the game go with them, the credits pot stays whole, play goes on without them,
    and undo brings them back."""
    g = Game(api, {"preset": "kessel", "chips": 4})
    g.act("Lando", {"type": "buy_in"})  # 200 credits: 100 for the buy-in, 100 kept outside the game
    g.act("host", {"type": "start_hand"})
    a, b, c = g.order()
    for p in (a, b, c):
        g.act(p, {"type": "choose_tokens", "tokens": ["refund", "embargo", "immunity"]})
    g.act("host", {"type": "turn_up", "sand": "s4", "blood": "b6"})
    g.act(a, {"type": "stand"})
    g.act(b, {"type": "draw_card", "pile": "sand_draw", "keep": True, "discard": "s2"})
    g.act(c, {"type": "stand"})
    g.act(a, {"type": "stand"})
    assert g.chips()[b] == (3, 1) and g.game()["tokens_left"][g.seat[b]] == 3
    before = g.view()
    bought = 100 * 3 + 100 * (b == "Lando")
    # Leaving mid-round: the two cards held are entered, checked as a reveal's are (K3, K15).
    assert g.act(b, {"type": "leave"}, 422) == {
        "error": "enter the two cards you hold: they go on the discard piles", "field": "cards"}
    assert g.act(b, {"type": "leave", "cards": ["s3", "s5"]}, 422)["field"] == "cards"
    assert g.view() == before  # refused, nothing applied
    said = {e["type"]: e for e in g.act(b, {"type": "leave", "cards": ["b1", "S3"]})["events"]}
    assert said["left_game"]["words"] == (f"{b} leaves the game: out; 1 invested and 3 in stock leave the table, and 3 "
                                "unplayed tokens; Sand 3 and Blood 1 go on the discard piles.")
    v = g.view()
    game = v["hand"]["game"]
    assert game["in_game"] == [g.seat[a], g.seat[c]] and game["out"] == {g.seat[b]: 1}
    assert game["chips"][g.seat[b]] == {"stock": 0, "invested": 0} and game["tokens_left"][g.seat[b]] == 0
    assert game["discard_tops"] == {"sand": "s3", "blood": "b1"}
    left = {s["name"]: s for s in v["departed"]}[b]
    assert left["stack"] == 0 and left["cashed_out"] == (100 if b == "Lando" else 0)
    # The ledger: every credit bought in is in a stack, the credits pot or the leaver's pocket.
    assert sum(s["stack"] for s in v["seats"]) + v["hand"]["hand_pot"] + left["cashed_out"] == bought
    assert v["hand"]["hand_pot"] == 300
    # Undo: the leaver is back in the game with their chips and tokens, and it is their turn.
    api.post(f"/api/v1/tables/{g.code}/undo", {"version": v["version"]}, g.host)
    assert g.view()["hand"]["game"] == before["hand"]["game"] and g.game()["to_act"] == g.seat[b]
    g.act(b, {"type": "leave", "cards": ["b1", "s3"]})
    # Play goes on: b's turn passes to c; the round ends with the two left and a winner.
    assert g.game()["to_act"] == g.seat[c] and g.view(c)["hand"]["words"] == "Round 1, turn 2: You: draw or stand."
    g.act(c, {"type": "stand"})  # K11: a stood this turn too: everyone in the game stood
    assert g.game()["stage"] == "reveal"
    g.act(a, {"type": "show_hand", "cards": ["s1", "b1"]})
    g.act(c, {"type": "show_hand", "cards": ["s3", "b2"]})  # a difference of 1: c pays 1 (K23)
    r1 = g.game()["rounds"][0]
    assert [g.by_seat()[w] for w in r1["winners"]] == [a] and r1["chips_after"] == {g.seat[a]: 4, g.seat[c]: 3}
    assert g.game()["stage"] == "deal" and g.game()["round"] == 2 and g.credits() + 100 * (b == "Lando") == bought


def test_k39_when_one_player_is_left_they_win_the_game_and_the_credits_pot(api):
    """K39, K26: two players left and one leaves during the reveal after showing (their shown
    cards go on the discard piles, no entry needed): the other takes the credits pot."""
    g = Game(api, {"preset": "kessel-plain", "chips": 4})
    g.act("host", {"type": "start_hand"})
    a, b, c = g.order()
    g.act("host", {"type": "turn_up", "sand": "s4", "blood": "b6"})
    g.act(a, {"type": "stand"})
    g.act(b, {"type": "leave", "cards": ["s1", "b1"]})  # out: a and c play on
    g.act(c, {"type": "stand"})  # K11: everyone in the game stood: the reveal
    g.act(a, {"type": "show_hand", "cards": ["s5", "b5"]})
    assert g.act(a, {"type": "leave", "cards": ["s5", "b5"]}, 422) == \
        {"error": "no cards to enter: yours are known to the table", "field": "cards"}
    said = g.act(a, {"type": "leave"})["events"]
    assert said[0]["type"] == "left_game" and said[0]["words"] == f"{a} leaves the game: out; 0 invested and 4 in stock leave the table; " \
                               "Sand 5 and Blood 5 go on the discard piles."
    v = g.view()
    assert v["hand"]["stage"] == "settled" and v["hand"]["game"]["winners"] == [g.seat[c]]
    assert {s["name"]: s["stack"] for s in v["seats"]} == {c: 300}
    assert any(e["type"] == "game_won" and e["words"] == f"{c} wins the game and the credits pot of 300."
               for e in said)
    assert v["hands"][-1]["payouts"] == {g.seat[a]: 0, g.seat[b]: 0, g.seat[c]: 300}
