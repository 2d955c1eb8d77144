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
    assert [o["type"] for o in g.view(c)["you"]["legal"]] == ["roll", "sit_out", "leave"]
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
    assert offered == [("play_token", "major_fraud"), ("play_token", "free_draw"), ("stand", None), ("sit_out", None),
                       ("leave", None)]
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


def test_k39_the_phone_offers_leaving_mid_round_and_asks_for_the_two_cards_held(api):
    """K39 from the phone: a player dealt in is offered the leave move at any time, with the
    two cards they hold as its input (the table adds the session's moves to any game's); the
    move sent as offered takes them out."""
    g = Game(api, "kessel-plain")
    g.act("host", {"type": "start_hand"})
    g.act("host", {"type": "turn_up", "sand": "s4", "blood": "b6"})
    a, b, c = g.order()
    for who in (a, b):  # whose turn it is or not
        leave = next(o for o in g.view(who)["you"]["legal"] if o["type"] == "leave")
        assert leave["confirm"] is True and leave["style"] == "danger"
        assert [(i["field"], i["kind"], i["count"]) for i in leave["inputs"]] == [("cards", "cards", 2)]
    g.act(b, {"type": "leave", "cards": ["s2", "b3"]})
    assert g.seat[b] not in g.game()["in_game"] and g.game()["discard_tops"] == {"sand": "s2", "blood": "b3"}
    assert b not in {s["name"] for s in g.view()["seats"]}


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


def test_k4_the_scrambler_rolls_two_dice_for_prime_sabacc_and_an_impostor_under_the_committed_seed(tmp_path):
    """K4: two six-sided dice, for the Prime Sabacc token and for an Impostor, rolled by the
    table's roller (no dice sent) and said with both values; the game's committed seed, revealed
    when the game ends (here: the loser leaves, K39), gives exactly those rolls."""
    from companion.scrambler.seed import SeededRoller, commitment, derive_rolls
    from companion.table.engine import Table
    from companion.table.ledger import Ledger
    from companion.table.owner import HOST, SCRAMBLER, TableOwner

    led = Ledger(tmp_path / "t.sqlite3")
    owner, _ = TableOwner.create("KSSLC", {"rules": {"preset": "kessel", "chips": 4}}, led, Table, SeededRoller())
    a, b = (owner.join(name).seat for name in ("Kay", "Lando"))
    for sid in (a, b):
        owner.submit({"type": "buy_in"}, sid)
    owner.submit({"type": "set_dealer", "seat": b}, HOST)  # a starts
    owner.submit({"type": "start_hand"}, HOST)
    committed = owner.view(None)[1]["hand"]["seed_commitment"]
    assert committed
    for sid in (a, b):
        owner.submit({"type": "choose_tokens", "tokens": ["prime_sabacc", "refund", "immunity"]}, sid)
    owner.submit({"type": "turn_up", "sand": "s4", "blood": "b6"}, HOST)
    owner.submit({"type": "play_token", "token": "prime_sabacc"}, a)
    rolled = [owner.submit({"type": "roll"}, SCRAMBLER).events[0]]  # the table's button: no dice sent
    dice = [rolled[0]["roll"]["dice"]]
    assert rolled[0]["words"] == f"The dice for Prime Sabacc: {dice[0][0]} and {dice[0][1]}; Kay chooses one."
    owner.submit({"type": "choose_value", "value": dice[0][1]}, a)
    assert owner.view(b)[1]["hand"]["game"]["effects"]["prime_sabacc"] == dice[0][1]
    owner.submit({"type": "stand"}, a)
    owner.submit({"type": "stand"}, b)  # K11: the reveal
    owner.submit({"type": "show_hand", "cards": ["ss", "bs"]}, a)  # Pure Sabacc: a wins whatever b rolls
    owner.submit({"type": "show_hand", "cards": ["si", "b3"]}, b)
    rolled.append(owner.submit({"type": "roll"}, b).events[0])  # the phone's on-screen roller
    dice.append(rolled[1]["roll"]["dice"])
    assert rolled[1]["words"] == f"The dice for Sand Impostor: {dice[1][0]} and {dice[1][1]}; Lando chooses one."
    assert all(len(d) == 2 and all(1 <= x <= 6 for x in d) for d in dice)
    owner.submit({"type": "choose_value", "value": dice[1][0]}, b)
    owner.submit({"type": "leave"}, b)  # between rounds: a is the last player and wins the game
    assert owner.view(a)[1]["hand"]["game"]["winners"] == [a]
    reveal = led.entries("KSSLC")[-1]
    assert (reveal.type, reveal.actor) == ("reveal_seed", SCRAMBLER)
    seed = reveal.body["seed"]
    assert commitment(seed) == committed
    assert [list(d) for d in derive_rolls(seed, "2d6-doubles", 2)] == dice
    led.close()


def test_k5_the_buy_in_goes_into_the_credits_pot_and_each_player_gets_their_chips_in_stock(api):
    """K5: each player pays `buy_in` into the credits pot and gets `chips` chips, all in stock,
    none invested; a seat that cannot pay the buy-in is not dealt in."""
    made = api.post("/api/v1/tables", {"rules": {"preset": "kessel-plain", "buy_in": 50, "chips": 5}}, status=201)
    code, host = made["code"], made["host_token"]
    seats = {}
    for name in ("Kay", "Lando", "Vel", "Han"):
        joined = api.post(f"/api/v1/tables/{code}/join", {"name": name}, status=201)
        seats[name] = joined["seat"]
        if name != "Han":  # Han has no credits: not dealt in
            api.post(f"/api/v1/tables/{code}/commands", {"type": "buy_in"}, joined["token"])
    said = api.post(f"/api/v1/tables/{code}/commands", {"type": "start_hand"}, host)["events"]
    v = api.get(f"/api/v1/tables/{code}")["state"]
    assert {s["name"]: s["stack"] for s in v["seats"]} == {"Kay": 0, "Lando": 0, "Vel": 0, "Han": 0}
    assert v["hand"]["hand_pot"] == 150 and sorted(v["hand"]["game"]["in_game"]) == sorted(
        seats[n] for n in ("Kay", "Lando", "Vel"))
    assert v["hand"]["game"]["chips"] == {seats[n]: {"stock": 5, "invested": 0} for n in ("Kay", "Lando", "Vel")}
    assert said[-1]["words"] == "Kessel Sabacc: 3 players, 5 chips each, a credits pot of 150."


def test_k7_every_round_starts_with_the_dealer_turning_up_one_card_of_each_family_for_all_to_see(api):
    """K7: at the start of every round the dealer (only they, or the host) enters the two cards
    turned up; they start fresh discard piles every viewer sees, and the draw piles are counted
    again from the whole deck: 22 a family, less the cards dealt and the one turned up."""
    g = Game(api, {"preset": "kessel-plain", "chips": 4})
    g.act("host", {"type": "start_hand"})
    a, b, c = g.order()
    dealer = g.by_seat()[g.game()["dealer"]]
    assert g.view(dealer)["hand"]["words"] == "You: turn up the first card of each discard pile."
    assert g.act(next(p for p in (a, b, c) if p != dealer), {"type": "turn_up", "sand": "s1", "blood": "b1"},
                 403)["error"] == "the dealer (or the host) turns up the discard piles' first cards"
    g.act(dealer, {"type": "turn_up", "sand": "s4", "blood": "b6"})
    for viewer in (None, a, b, c):
        assert g.view(viewer)["hand"]["game"]["discard_tops"] == {"sand": "s4", "blood": "b6"}
    assert g.game()["draw_left"] == {"sand": 22 - 3 - 1, "blood": 22 - 3 - 1}
    g.act(a, {"type": "draw_card", "pile": "sand_draw", "keep": True, "discard": "s2"})
    for p in (b, c):
        g.act(p, {"type": "stand"})
    for p in (a, b, c):
        g.act(p, {"type": "stand"})
    for p, cards in ((a, ["s1", "b1"]), (b, ["s2", "b3"]), (c, ["s3", "b4"])):
        g.act(p, {"type": "show_hand", "cards": cards})
    # Round 2: a new dealer; the piles start again from their new first cards.
    assert g.game()["round"] == 2 and g.game()["stage"] == "deal" and g.game()["discard_tops"] == \
        {"sand": None, "blood": None}
    dealer2 = g.by_seat()[g.game()["dealer"]]
    assert dealer2 != dealer and g.view()["dealer"] == g.seat[dealer2]  # the table's dealer: every page's mark
    g.act(dealer2, {"type": "turn_up", "sand": "s5", "blood": "b2"})
    assert g.view(a)["hand"]["game"]["discard_tops"] == {"sand": "s5", "blood": "b2"}
    assert g.game()["draw_left"] == {"sand": 18, "blood": 18}


def test_k13_every_phone_and_the_display_read_the_turn_the_chips_actions_tokens_and_effects(api):
    """K13: every viewer (each phone, and the display, which has no seat) reads the round and
    turn and whose turn it is, each player's stock and invested chips, their latest action, how
    many tokens they have not played, Immunity and Embargo, the discard piles' top cards and the
    effects in force; no one's cards are recorded before the reveal."""
    g = Game(api, {"preset": "kessel", "chips": 4})
    g.act("host", {"type": "start_hand"})
    a, b, c = g.order()
    for p, chosen in ((a, ["immunity", "markdown", "refund"]), (b, ["embargo", "refund", "free_draw"]),
                      (c, ["refund", "markdown", "free_draw"])):
        g.act(p, {"type": "choose_tokens", "tokens": chosen})
    g.act("host", {"type": "turn_up", "sand": "s4", "blood": "b6"})
    g.act(a, {"type": "play_token", "token": "immunity"})
    g.act(a, {"type": "draw_card", "pile": "blood_draw", "keep": True, "discard": "b2"})
    g.act(b, {"type": "play_token", "token": "embargo"})
    g.act(b, {"type": "stand"})
    views = {name: g.view(name) for name in (None, a, b, c)}
    turn = {name: v["hand"]["words"] for name, v in views.items()}
    assert turn == {None: f"Round 1, turn 1: {c}: stand (Embargo).", a: f"Round 1, turn 1: {c}: stand (Embargo).",
                    b: f"Round 1, turn 1: {c}: stand (Embargo).", c: "Round 1, turn 1: You: stand (Embargo)."}
    for v in views.values():
        game = v["hand"]["game"]
        assert (game["round"], game["turn"], game["to_act"]) == (1, 1, g.seat[c])
        assert game["chips"] == {g.seat[a]: {"stock": 3, "invested": 1}, g.seat[b]: {"stock": 4, "invested": 0},
                                 g.seat[c]: {"stock": 4, "invested": 0}}
        assert game["last"] == {g.seat[a]: "draw", g.seat[b]: "stand"}
        assert game["tokens_left"] == {g.seat[a]: 2, g.seat[b]: 2, g.seat[c]: 3}
        assert game["immune"] == [g.seat[a]] and game["embargo"] == g.seat[c]
        assert game["discard_tops"] == {"sand": "s4", "blood": "b2"}
        assert game["effects"] == {"major_fraud": False, "markdown": False, "cook_the_books": False,
                                   "prime_sabacc": None}
        assert all(p["cards"] is None for p in v["hand"]["players"])
    g.act(c, {"type": "play_token", "token": "markdown"})
    assert all(g.view(n)["hand"]["game"]["effects"]["markdown"] is True for n in (None, a, b, c))


def test_k41_the_host_corrects_a_discard_a_token_target_and_a_reveal_before_the_settlement_then_adjusts(api):
    """K41: before the settlement, the host corrects a mis-entered discard, token target and
    reveal (undo, then the entry made again for the seat); after the settlement a correction is
    an adjustment of credits, with its reason."""
    g = Game(api, {"preset": "kessel", "chips": 4})
    g.act("<b>Vel</b>", {"type": "sit_out"})
    g.act("host", {"type": "start_hand"})
    a, b = g.order()
    g.act(a, {"type": "choose_tokens", "tokens": ["target_tariff", "refund", "immunity"]})
    g.act(b, {"type": "choose_tokens", "tokens": ["refund", "markdown", "free_draw"]})
    g.act("host", {"type": "turn_up", "sand": "s4", "blood": "b6"})

    def undo():
        api.post(f"/api/v1/tables/{g.code}/undo", {"version": g.view()["version"]}, g.host)

    # A mis-entered discard: Sand 2 was entered, the card was Sand 5.
    g.act(a, {"type": "draw_card", "pile": "sand_draw", "keep": True, "discard": "s2"})
    undo()
    assert g.game()["discard_tops"]["sand"] == "s4" and g.chips()[a] == (4, 0)
    g.act("host", {"type": "draw_card", "seat": g.seat[a], "pile": "sand_draw", "keep": True, "discard": "s5"})
    assert g.game()["discard_tops"]["sand"] == "s5" and g.chips()[a] == (3, 1)
    g.act(b, {"type": "stand"})
    # A token's target: the only target here is b; played, undone, the token is a's again.
    g.act(a, {"type": "play_token", "token": "target_tariff", "target": g.seat[b]})
    assert g.chips()[b] == (2, 2)
    undo()
    assert g.chips()[b] == (4, 0) and g.game()["tokens_left"][g.seat[a]] == 3 and g.game()["played"] == []
    g.act(a, {"type": "stand"})
    g.act(b, {"type": "stand"})  # K11: the reveal
    # A mis-entered reveal, corrected before the last hand settles the round.
    g.act(a, {"type": "show_hand", "cards": ["s3", "b3"]})
    undo()
    assert g.game()["shown"] == {}
    g.act("host", {"type": "show_hand", "seat": g.seat[a], "cards": ["s1", "b1"]})
    assert g.game()["shown"][g.seat[a]]["cards"] == ["s1", "b1"]
    g.act(b, {"type": "show_hand", "cards": ["s6", "b1"]})  # b pays 5 of 4: out; a wins the game
    v = g.view()
    assert v["hand"]["stage"] == "settled" and v["hand"]["game"]["winners"] == [g.seat[a]]
    # After the settlement a correction is an adjustment of credits, with its reason.
    g.act("host", {"type": "adjust", "seat": g.seat[a], "amount": -20, "reason": "a wrong card at the reveal"})
    g.act("host", {"type": "adjust", "seat": g.seat[b], "amount": 20, "reason": "a wrong card at the reveal"})
    assert {s["name"]: s["stack"] for s in g.view()["seats"]} == {a: 180, b: 20, "<b>Vel</b>": 100}


def test_k35_exhaustion_is_offered_with_the_targets_two_cards_to_enter(api):
    """K35: Exhaustion's offer asks for its target and the two cards the target discards (a
    page draws both inputs); sent as offered, the cards go face up on the discard piles."""
    g = Game(api, {"preset": "kessel", "chips": 4})
    g.act("<b>Vel</b>", {"type": "sit_out"})
    g.act("host", {"type": "start_hand"})
    a, b = g.order()
    g.act(a, {"type": "choose_tokens", "tokens": ["exhaustion", "refund", "immunity"]})
    g.act(b, {"type": "choose_tokens", "tokens": ["refund", "markdown", "free_draw"]})
    g.act("host", {"type": "turn_up", "sand": "s4", "blood": "b6"})
    offer = next(o for o in g.view(a)["you"]["legal"] if o.get("token") == "exhaustion")
    assert offer["words"] == "Play Exhaustion" and [(i["field"], i["kind"]) for i in offer["inputs"]] == \
        [("target", "seat"), ("cards", "cards")]
    assert offer["inputs"][1]["count"] == 2 and offer["inputs"][0]["options"] == [[g.seat[b], b]]
    g.act(a, {"type": "play_token", **offer["fields"], "target": g.seat[b], "cards": ["b2", "s5"]})
    assert g.game()["discard_tops"] == {"sand": "s5", "blood": "b2"}
    assert g.game()["draw_left"] == {"sand": 22 - 2 - 1 - 1, "blood": 22 - 2 - 1 - 1}
