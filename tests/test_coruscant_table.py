"""Coruscant Shift at a live table, through the HTTP API (RULES-CORUSCANT.md C5–C31): the
rules file's worked round move by move (ante, the dice, the selection counts, both betting
rounds with a raise, an all-in and a fold, the shift, the improve step, the reveal, the side
pot), bad moves refused in words with nothing changed, undo, the tie draw, eliminations, and a
whole game of each preset played to its end."""

from __future__ import annotations

import pytest

from companion.server.app import create_app


#: The moves the table offers in every game (sitting out, leaving, ...), not the round's.
SESSION = {"sit_out", "sit_in", "leave", "cash_out", "buy_in"}


class Table:
    """One Coruscant table as the host and the phones use it (Flask's test client)."""

    def __init__(self, client, rules, names):
        self.c = client
        made = self.post("/api/v1/tables", {"rules": rules}, status=201)
        self.code, self.host = made["code"], made["host_token"]
        self.seat, self.token = {}, {}
        for name in names:
            joined = self.post(f"/api/v1/tables/{self.code}/join", {"name": name}, status=201)
            self.seat[name], self.token[name] = joined["seat"], joined["token"]
        self.name = {sid: n for n, sid in self.seat.items()}
        for name in names:
            self.act(name, {"type": "buy_in"})

    def post(self, path, body, token=None, status=200):
        r = self.c.post(path, json=body, headers={"Authorization": f"Bearer {token}"} if token else {})
        assert r.status_code == status, (body, r.status_code, r.get_json())
        return r.get_json()

    def act(self, who, body, status=200):
        token = self.host if who == "host" else self.token[who]
        return self.post(f"/api/v1/tables/{self.code}/commands", body, token, status)

    def view(self, who=None):
        headers = {"Authorization": f"Bearer {self.token[who]}"} if who else {}
        r = self.c.get(f"/api/v1/tables/{self.code}", headers=headers)
        assert r.status_code == 200
        return r.get_json()["state"]

    def stacks(self):
        return {self.name[s["seat"]]: s["stack"] for s in self.view()["seats"]}

    def offers(self, who):
        """The round's moves offered to `who` (the session's own, sitting out or leaving, aside)."""
        return {o["type"]: o for o in self.view(who)["you"]["legal"] if o["type"] not in SESSION}

    def all_do(self, typ, counts=None, names=None):
        for n in names or [self.name[p["seat"]] for p in self.view()["hand"]["players"] if not p["folded"]]:
            self.act(n, {"type": typ, **({"count": counts[n]} if counts else {})})


@pytest.fixture
def client(tmp_path):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")}).test_client()


def _worked_table(client):
    """The worked round's table: 4 players, stock 30, ante 4, Tobias deals, the credits of
    the rules file before the round (Han 55, Lando 25, Bria 30, Tobias 10) by host adjustments."""
    t = Table(client, {"preset": "coruscant", "stock": 30, "ante": 4}, ["Han", "Lando", "Bria", "Tobias"])
    for who, amount in (("Han", 25), ("Lando", -5), ("Tobias", -20)):
        t.act("host", {"type": "adjust", "seat": t.seat[who], "amount": amount, "reason": "the worked round"})
    t.act("host", {"type": "set_dealer", "seat": t.seat["Tobias"]})
    return t


def test_the_worked_round_move_by_move(client):
    t = _worked_table(client)
    t.act("host", {"type": "start_hand"})
    v = t.view("Tobias")
    # 1. Ante 4 each: pot 16; Tobias deals five cards each and rolls.
    assert v["hand"]["hand_pot"] == 16 and t.stacks() == {"Han": 51, "Lando": 21, "Bria": 26, "Tobias": 6}
    assert [j["cards"] for j in v["hand"]["deal"]] == [5, 5, 5, 5] and v["hand"]["words"] == "You: roll the dice."
    assert t.act("Han", {"type": "roll"}, 403)["error"] == "Tobias rolls the dice, or the scrambler"
    assert t.act("Han", {"type": "select", "count": 2}, 409)["error"] == "not now: the round is at the roll"
    # 2. Gold face 3 (+5), silver face 2 (Triangle), entered by the host (dice by hand).
    t.act("host", {"type": "roll", "dice": [3, 2]})
    assert t.view()["hand"]["target"]["words"] == "The target is +5 Triangle."
    # 3. The selection counts, in any order; the round waits for every phone.
    for who, n in (("Bria", 2), ("Han", 2), ("Tobias", 1)):
        t.act(who, {"type": "select", "count": n})
    assert t.view()["hand"]["words"] == "Waiting for Lando."
    assert t.act("Han", {"type": "select", "count": 3}, 409)["error"].startswith("your selection count is recorded")
    t.act("Lando", {"type": "select", "count": 1})
    # 4. The first betting round, from Han (the dealer's left).
    assert set(t.offers("Han")) == {"check", "bet", "all_in"}  # no fold without a bet to face (C15)
    assert t.act("Han", {"type": "fold"}, 409)["error"].startswith("you may fold only facing a bet")
    t.act("Han", {"type": "bet", "amount": 4})
    t.act("Lando", {"type": "call"})
    t.act("Bria", {"type": "raise", "to": 10})
    t.act("Tobias", {"type": "all_in"})
    t.act("Han", {"type": "call"})
    t.act("Lando", {"type": "fold"})
    v = t.view()
    assert {t.name[p["seat"]]: p["committed"] for p in v["hand"]["players"]} == \
        {"Han": 14, "Lando": 8, "Bria": 14, "Tobias": 10}
    # 5. The shift: each draws 5 minus their count.
    assert t.offers("Tobias")["shift"]["words"] == "I discarded and drew 4 cards"
    assert t.act("Lando", {"type": "shift"}, 409)["error"] == "you have folded this round"
    t.all_do("shift")
    assert {t.name[p["seat"]]: p["drawn"] for p in t.view()["hand"]["players"]} == \
        {"Han": 3, "Lando": None, "Bria": 3, "Tobias": 4}
    # 6. The second betting round: Tobias is all-in and is skipped.
    t.act("Han", {"type": "check"})
    t.act("Bria", {"type": "bet", "amount": 5})
    t.act("Han", {"type": "call"})
    # 7. Improve: cards are added, never removed.
    assert t.act("Han", {"type": "improve", "count": 1}, 422) == \
        {"error": "cards are added, never removed: at least 2", "field": "count"}
    t.all_do("improve", {"Han": 3, "Bria": 3, "Tobias": 1})
    # 8. The reveal, checked against the count and the deck (C4).
    assert t.offers("Han")["reveal_selection"]["inputs"][0]["count"] == 3
    t.act("Han", {"type": "reveal_selection", "cards": ["TR+4", "sylop", "ci+2"]})
    assert t.act("Bria", {"type": "reveal_selection", "cards": ["sq+10", "tr-6"]}, 422)["error"] == \
        "the selection holds 2 cards but 3 were recorded"
    assert t.act("Tobias", {"type": "reveal_selection", "cards": ["tr+4"]}, 422)["error"] == \
        "the deck has only 1 of Triangle +4"
    assert t.act("Tobias", {"type": "reveal_selection", "cards": ["tr+55"]}, 422)["field"] == "cards[0]"
    assert all(p["cards"] is None for p in t.view("Bria")["hand"]["players"])  # hidden until all are in
    t.act("Bria", {"type": "reveal_selection", "cards": ["sq+10", "tr-6", "sq+2"]})
    t.act("Tobias", {"type": "reveal_selection", "cards": ["tr+5"]})
    # 9–10. Main pot 38 to Tobias, side pot 18 to Han on the triangles; the ante rises to 6.
    v = t.view()
    s = v["hand"]["settlement"]
    assert [(p["amount"], [t.name[w] for w in p["winners"]]) for p in s["pots"]] == [(38, ["Tobias"]), (18, ["Han"])]
    assert t.stacks() == {"Han": 54, "Lando": 17, "Bria": 11, "Tobias": 38} and sum(t.stacks().values()) == 120
    assert v["ante_due"] == 6 and v["dealer"] == t.seat["Han"]
    assert s["words"] == "The main pot of 38 goes to Tobias. A side pot of 18 goes to Han."
    assert v["hands"][-1]["cards"][t.seat["Han"]] == ["tr+4", "sylop", "ci+2"]


def test_undo_takes_back_a_reveal_and_the_settlement(client):
    t = _worked_table(client)
    t.act("host", {"type": "start_hand"})
    t.act("host", {"type": "roll", "dice": [1, 1]})  # 0 Circle
    t.all_do("select", {"Han": 1, "Lando": 1, "Bria": 1, "Tobias": 1})
    for who in ("Han", "Lando", "Bria", "Tobias"):
        t.act(who, {"type": "check"})
    t.all_do("shift")
    for who in ("Han", "Lando", "Bria", "Tobias"):
        t.act(who, {"type": "check"})
    t.all_do("improve", {"Han": 1, "Lando": 1, "Bria": 1, "Tobias": 1})
    for who, card in (("Han", "ci+1"), ("Lando", "tr+5"), ("Bria", "sq-7")):
        t.act(who, {"type": "reveal_selection", "cards": [card]})
    t.act("Tobias", {"type": "reveal_selection", "cards": ["sq+9"]})
    before = t.view()
    assert before["hand"]["stage"] == "settled" and t.stacks()["Han"] == 51 + 16
    t.post(f"/api/v1/tables/{t.code}/undo", {"version": before["version"]}, t.host)
    again = t.view()
    assert again["hand"]["stage"] == "reveal" and t.stacks()["Han"] == 51
    assert [p["entered"] for p in again["hand"]["players"]] == [True, True, True, False]


def test_the_scrambler_rolls_the_two_dice(client):
    t = Table(client, "coruscant-starcruiser", ["Ana", "Ben"])
    t.act("host", {"type": "start_hand"})
    t.act("Ana", {"type": "roll"})  # the dealer's phone: the table's scrambler rolls the dice
    h = t.view()["hand"]
    assert h["target"]["number"] in (-10, -5, 0, 5, 10) and h["target"]["suit"] in ("circle", "triangle", "square")
    assert len(h["last_roll"]["dice"]) == 2 and all(1 <= d <= 6 for d in h["last_roll"]["dice"])
    assert t.act("host", {"type": "roll", "dice": [1, 2]}, 409)["error"].startswith("the dice are rolled once")
    assert t.act("host", {"type": "start_hand"}, 409)["error"] == "not while a hand is being played"


def _quiet_round(t, dice, cards, draws=None, counts=None):
    """A round everyone checks through: `cards` by name (each selection's cards), `draws` the
    tie-draw cards if the round asks for them. Returns the settled view."""
    t.act("host", {"type": "start_hand"})
    t.act("host", {"type": "roll", "dice": dice})
    counts = {n: len(c) for n, c in cards.items()}
    t.all_do("select", counts)
    order = [t.name[p["seat"]] for p in t.view()["hand"]["players"]]
    for _ in range(2):
        for n in order:
            if "check" in t.offers(n):
                t.act(n, {"type": "check"})
        if t.view()["hand"]["phase"] == "shift":
            t.all_do("shift")
    t.all_do("improve", counts)
    for n in order:
        t.act(n, {"type": "reveal_selection", "cards": cards[n]})
    v = t.view()
    if draws:
        assert v["hand"]["stage"] == "demise" and [t.name[s] for s in v["hand"]["demise_players"]] == list(draws)
        assert "tie_draw" in t.offers(list(draws)[0])
        for n, card in draws.items():
            t.act(n, {"type": "tie_draw", "card": card})
        v = t.view()
    assert v["hand"]["stage"] == "settled"
    return v


def test_a_whole_starcruiser_game_ends_when_the_deal_would_pass_to_someone_who_dealt(client):
    t = Table(client, "coruscant-starcruiser", ["Ana", "Ben", "Cas"])
    # Round 1 (Ana deals, Ben starts): +5 Circle; Ben wins outright. Ante 5 each: 15.
    _quiet_round(t, [3, 1], {"Ben": ["ci+5"], "Cas": ["tr+1"], "Ana": ["sq+2"]})
    assert t.stacks() == {"Ana": 95, "Ben": 110, "Cas": 95}
    # Round 2 (Ben deals): 0 Square; Cas and Ana tie at 0 with no square: the tie draw, Ana's −8 wins.
    v = _quiet_round(t, [1, 3], {"Cas": ["ci+1", "ci-1"], "Ana": ["tr+2", "tr-2"], "Ben": ["sq+6"]},
                     draws={"Cas": "tr+3", "Ana": "sq-8"})
    assert t.stacks() == {"Ana": 105, "Ben": 105, "Cas": 90} and v["ante_due"] == 5
    assert v["hand"]["settlement"]["hands"][1]["blind_draw"] == ["sq-8"]
    # Round 3 (Cas deals): the deal would pass to Ana, who dealt: the game is over.
    v = _quiet_round(t, [6, 6], {"Ana": ["sq-10"], "Ben": ["ci-3"], "Cas": ["tr-9"]})
    assert t.stacks() == {"Ana": 115, "Ben": 100, "Cas": 85}
    assert v["hand"]["game"]["over"] and v["hand"]["game"]["places"] == {t.seat["Ana"]: 1, t.seat["Ben"]: 2,
                                                                         t.seat["Cas"]: 3}
    assert t.act("host", {"type": "start_hand"}, 409)["error"].startswith("the game is over")
    t.act("host", {"type": "end_session"})
    assert t.view()["ended"]


def test_a_whole_coruscant_game_is_played_until_one_player_holds_every_credit(client):
    t = Table(client, {"preset": "coruscant", "stock": 10}, ["Ana", "Ben", "Cas"])
    # Round 1 (ante 2; Ana deals, Ben starts): Ben goes all-in for 8, Cas calls all-in, Ana folds.
    t.act("host", {"type": "start_hand"})
    t.act("host", {"type": "roll", "dice": [5, 4]})  # +10 Circle
    t.all_do("select", {"Ana": 1, "Ben": 2, "Cas": 1})
    t.act("Ben", {"type": "all_in"})
    t.act("Cas", {"type": "all_in"})
    t.act("Ana", {"type": "fold"})
    # Nobody can bet: the betting is skipped, the shift, improve and reveal go on (C16).
    assert t.view()["hand"]["phase"] == "shift"
    t.all_do("shift")
    t.all_do("improve", {"Ben": 2, "Cas": 1})
    t.act("Ben", {"type": "reveal_selection", "cards": ["ci+6", "ci+4"]})
    t.act("Cas", {"type": "reveal_selection", "cards": ["tr+9"]})
    v = t.view()
    assert t.stacks() == {"Ana": 8, "Ben": 22, "Cas": 0}
    assert v["hand"]["game"]["out"] == {t.seat["Cas"]: 1} and v["ante_due"] == 2 + 5  # two left: +5
    # Round 2 (Ben deals, Ana starts; ante 7): Ana pays 7, is left with 1 and goes all-in; she loses.
    t.act("host", {"type": "start_hand"})
    assert [t.name[p["seat"]] for p in t.view()["hand"]["players"]] == ["Ana", "Ben"]
    t.act("host", {"type": "roll", "dice": [1, 1]})
    t.all_do("select", {"Ana": 1, "Ben": 1})
    t.act("Ana", {"type": "all_in"})
    t.act("Ben", {"type": "call"})
    t.all_do("shift")
    t.all_do("improve", {"Ana": 1, "Ben": 1})
    t.act("Ana", {"type": "reveal_selection", "cards": ["ci+9"]})
    t.act("Ben", {"type": "reveal_selection", "cards": ["sylop"]})
    v = t.view()
    assert t.stacks() == {"Ana": 0, "Ben": 30, "Cas": 0}
    assert v["hand"]["game"]["over"] and v["hand"]["game"]["places"] == {t.seat["Ben"]: 1, t.seat["Ana"]: 2,
                                                                         t.seat["Cas"]: 3}
    assert t.act("host", {"type": "start_hand"}, 409)["error"].startswith("the game is over")


def test_buy_ins_and_cash_outs_wait_for_the_end_of_the_game(client):
    t = Table(client, "coruscant-starcruiser", ["Ana", "Ben"])
    assert t.act("Ana", {"type": "buy_in"}, 409)["error"] == "you have bought in for the stock"
    assert t.stacks() == {"Ana": 100, "Ben": 100}
    _quiet_round(t, [3, 1], {"Ben": ["ci+5"], "Ana": ["sq+2"]})
    assert t.act("Ana", {"type": "cash_out"}, 409)["error"].startswith("credits stay in the game")
    assert t.act("Ana", {"type": "buy_in"}, 409)["error"].startswith("the game has begun")


def test_c16_and_c29_everyone_folds_to_one_player_the_round_ends_at_once(client):
    t = Table(client, "coruscant-starcruiser", ["Ana", "Ben", "Cas"])
    t.act("host", {"type": "start_hand"})
    t.act("host", {"type": "roll", "dice": [2, 3]})
    t.all_do("select", {"Ana": 1, "Ben": 2, "Cas": 3})
    t.act("Ben", {"type": "bet", "amount": 7})  # Ben starts (Ana deals)
    t.act("Cas", {"type": "fold"})
    t.act("Ana", {"type": "fold"})
    v = t.view()
    # No shift, no more betting, nothing shown: Ben takes the 22 (antes 15 and his 7).
    assert v["hand"]["stage"] == "settled" and v["hand"]["settlement"]["status"] == "conceded"
    assert t.stacks() == {"Ana": 95, "Ben": 110, "Cas": 95}
    assert v["hands"][-1]["cards"] == {t.seat[n]: None for n in ("Ben", "Cas", "Ana")}
    # C29: the cards not selected are simply discarded: nobody is asked to shift or improve.
    assert all(p["drawn"] is None for p in v["hand"]["players"]) and v["hand"]["waiting"] == []
    assert all(t.offers(n) == {} for n in ("Ana", "Ben", "Cas"))
    assert v["hand"]["settlement"]["words"] == "Ben takes 22: everyone else folded."


def test_c27_heads_up_the_dealers_opponent_starts_and_bets_first_in_both_rounds(client):
    t = Table(client, "coruscant-starcruiser", ["Ana", "Ben"])
    t.act("host", {"type": "set_dealer", "seat": t.seat["Ben"]})
    t.act("host", {"type": "start_hand"})
    t.act("host", {"type": "roll", "dice": [1, 1]})
    t.all_do("select", {"Ana": 1, "Ben": 1})
    assert t.view()["hand"]["to_act"] == t.seat["Ana"]
    assert t.act("Ben", {"type": "check"}, 409)["error"] == "it is Ana's move"
    t.act("Ana", {"type": "check"})
    t.act("Ben", {"type": "check"})
    t.all_do("shift")
    assert t.view()["hand"]["to_act"] == t.seat["Ana"]


def test_c28_all_in_on_the_ante_still_selects_and_wins_only_its_level(client):
    t = Table(client, {"preset": "coruscant", "stock": 20, "ante": 5}, ["Ana", "Ben", "Cas"])
    t.act("host", {"type": "adjust", "seat": t.seat["Cas"], "amount": -17, "reason": "short stack"})
    t.act("host", {"type": "start_hand"})
    assert t.stacks()["Cas"] == 0 and t.view()["hand"]["players"][1]["all_in"]  # Ben, Cas, Ana
    t.act("host", {"type": "roll", "dice": [3, 1]})  # +5 Circle
    t.all_do("select", {"Ana": 1, "Ben": 1, "Cas": 1})
    t.act("Ben", {"type": "bet", "amount": 5})
    t.act("Ana", {"type": "call"})
    t.all_do("shift")
    t.act("Ben", {"type": "check"})
    t.act("Ana", {"type": "check"})
    t.all_do("improve", {"Ana": 1, "Ben": 1, "Cas": 1})
    t.act("Ben", {"type": "reveal_selection", "cards": "tr+4"})  # one card, sent as the card
    t.act("Cas", {"type": "reveal_selection", "cards": ["ci+5"]})
    t.act("Ana", {"type": "reveal_selection", "cards": ["sq+1"]})
    # Cas reached the 3 level only: the main pot 9 is Cas's, the side pot 14 Ben's (+4 is 1 away).
    pots = t.view()["hand"]["settlement"]["pots"]
    assert [(p["amount"], [t.name[w] for w in p["winners"]]) for p in pots] == [(9, ["Cas"]), (14, ["Ben"])]
    assert t.stacks() == {"Ana": 10, "Ben": 24, "Cas": 9}


def test_c31_a_player_who_leaves_between_rounds_is_out_and_takes_their_credits(client):
    t = Table(client, "coruscant-starcruiser", ["Ana", "Ben", "Cas"])
    _quiet_round(t, [3, 1], {"Ben": ["ci+5"], "Cas": ["tr+1"], "Ana": ["sq+2"]})
    t.act("Cas", {"type": "leave"})
    v = t.view()
    assert v["departed"][0]["cashed_out"] == 95 and v["hand"]["game"]["out"] == {t.seat["Cas"]: 1}
    t.act("host", {"type": "start_hand"})
    assert [t.name[p["seat"]] for p in t.view()["hand"]["players"]] == ["Ana", "Ben"]


def test_every_move_is_offered_with_its_words_and_inputs(client):
    t = Table(client, "coruscant-starcruiser", ["Ana", "Ben"])
    t.act("host", {"type": "start_hand"})
    assert t.offers("Ana")["roll"]["words"] == "Roll the dice" and "roll" not in t.offers("Ben")
    t.act("host", {"type": "roll", "dice": [3, 3]})
    select = t.offers("Ben")["select"]
    assert select["inputs"][0]["options"] == [[n, str(n)] for n in range(1, 6)]
    t.all_do("select", {"Ana": 2, "Ben": 3})
    bet = t.offers("Ben")["bet"]
    assert bet["inputs"][0] == {"field": "amount", "kind": "amount", "min": 1, "max": 95, "words": "How much"}
    t.act("Ben", {"type": "check"})
    t.act("Ana", {"type": "check"})
    t.all_do("shift")
    t.act("Ben", {"type": "check"})
    t.act("Ana", {"type": "check"})
    assert t.offers("Ana")["improve"]["inputs"][0]["options"] == [[n, str(n)] for n in range(2, 6)]
    t.all_do("improve", {"Ana": 2, "Ben": 3})
    reveal = t.offers("Ben")["reveal_selection"]["inputs"][0]
    assert (reveal["kind"], reveal["count"], reveal["deck"]) == ("cards", 3, "coruscant")
    t.act("Ben", {"type": "reveal_selection", "cards": ["ci+2", "ci+3", "sylop"]})  # +5 Square: 1 square
    t.act("Ana", {"type": "reveal_selection", "cards": ["sq+4", "sylop"]})  # +4: 1 away
    assert t.view()["hand"]["settlement"]["words"] == "The pot of 10 goes to Ben."


def _to_betting(t, dice, counts):
    """Start a round, roll `dice` (by hand, as the host), record the selection `counts`."""
    t.act("host", {"type": "start_hand"})
    t.act("host", {"type": "roll", "dice": dice})
    t.all_do("select", counts)


def test_c12_an_eight_player_shift_runs_past_the_deck_and_no_card_in_a_selection_comes_back(client):
    names = ["Ana", "Ben", "Cas", "Dee", "Eli", "Fen", "Gus", "Hal"]
    t = Table(client, "coruscant-starcruiser", names)
    _to_betting(t, [3, 1], {n: 1 for n in names})  # +5 Circle
    order = names[1:] + names[:1]  # Ana deals, Ben starts
    for n in order:
        t.act(n, {"type": "check"})
    # 40 cards dealt and 8 × 4 to draw: 72 of 62. The dealer shuffles the discards into a new
    # draw pile (the cards are real: the phones only say how many to draw), and the round goes on.
    assert {t.offers(n)["shift"]["words"] for n in names} == {"I discarded and drew 4 cards"}
    t.all_do("shift")
    assert t.view()["hand"]["phase"] == "bet2" and t.view()["hand"]["to_act"] == t.seat["Ben"]
    for n in order:
        t.act(n, {"type": "check"})
    t.all_do("improve", {n: 1 for n in names})
    cards = dict(zip(order, ["tr+5", "sq+5", "ci+1", "ci-2", "tr-3", "sq-4", "tr+1", "sq+1"]))
    for n in order:
        t.act(n, {"type": "reveal_selection", "cards": [cards[n]]})
    # Ben (Triangle +5) and Cas (Square +5) both make the target, neither with a Circle.
    assert [t.name[s] for s in t.view()["hand"]["demise_players"]] == ["Ben", "Cas"]
    # A tie-draw card from the new draw pile may be a card discarded earlier, never one in a selection.
    assert t.act("Ben", {"type": "tie_draw", "card": "sq+5"}, 422) == \
        {"error": "Square +5 is already on the table", "field": "card"}
    t.act("Ben", {"type": "tie_draw", "card": "ci+9"})
    # The card alone or a one-card list, as the offer's card input gives it (the benchmark's
    # offer player sends a list: a tie draw stalled its games).
    assert t.act("Cas", {"type": "tie_draw", "card": ["ci-10", "ci-9"]}, 422)["field"] == "card"
    t.act("Cas", {"type": "tie_draw", "card": ["ci-10"]})
    assert t.view()["hand"]["settlement"]["words"] == "The pot of 40 goes to Cas."
    # The result table's reason says the tie draw decided (C19), for the winner and the tied.
    why = {t.name[x["name"]]: x.get("why") for x in t.view()["hand"]["settlement"]["hands"]}
    assert (why["Cas"], why["Ben"], why["Ana"]) == ("wins the pot: the tie draw: Circle −10",
                                                    "lost to Cas on the tie draw", "lost to Cas")
    assert "shuffles the discards into a new draw pile" in \
        client.get(f"/t/{t.code}/rules").get_data(as_text=True)


def test_c13_every_screen_shows_the_round_the_target_the_antes_the_pot_the_turn_and_each_player(client):
    t = _worked_table(client)
    _to_betting(t, [3, 2], {"Han": 2, "Lando": 1, "Bria": 2, "Tobias": 1})
    t.act("Han", {"type": "bet", "amount": 4})
    t.act("Lando", {"type": "fold"})
    t.act("Bria", {"type": "call"})
    t.act("Tobias", {"type": "all_in"})
    for viewer in (None, "Han", "Bria"):  # the display, the bettor's phone, another phone
        v = t.view(viewer)
        h = v["hand"]
        assert (h["round"], t.name[h["dealer"]]) == (1, "Tobias")
        assert (h["target"]["number"], h["target"]["suit"], h["target"]["words"]) == \
            (5, "triangle", "The target is +5 Triangle.")
        assert (h["ante"], h["ante_next"], h["hand_pot"]) == (4, 6, 30)  # 4 players left: +2
        assert t.name[h["to_act"]] == "Han" and h["owed"] == 2
        assert h["words"] == ("You: call 2, raise or fold." if viewer == "Han" else "Han: call 2, raise or fold.")
        players = {t.name[p["seat"]]: (p["committed"], p["selection"], p["folded"], p["all_in"]) for p in h["players"]}
        assert players == {"Han": (8, 2, False, False), "Lando": (4, 1, True, False),
                           "Bria": (8, 2, False, False), "Tobias": (10, 1, False, True)}
        assert t.stacks() == {"Han": 47, "Lando": 21, "Bria": 22, "Tobias": 0}
        assert all(p["cards"] is None for p in h["players"])  # the selections lie face down


def test_c14_betting_check_bet_call_raise_within_the_minimum_and_the_limit_until_all_have_matched(client):
    t = Table(client, {"preset": "coruscant-starcruiser", "min_bet": 2, "bet_limit": 10}, ["Ana", "Ben", "Cas"])
    _to_betting(t, [1, 1], {"Ana": 1, "Ben": 1, "Cas": 1})
    # Ben starts (Ana deals). No all-in while it would bet more than the limit.
    offers = t.offers("Ben")
    assert set(offers) == {"check", "bet"} and (offers["bet"]["min"], offers["bet"]["max"]) == (2, 10)
    assert t.act("Ben", {"type": "bet", "amount": 1}, 422) == {"error": "the minimum bet is 2", "field": "amount"}
    assert t.act("Ben", {"type": "bet", "amount": 11}, 422) == {"error": "the bet limit is 10", "field": "amount"}
    t.act("Ben", {"type": "bet", "amount": 4})
    assert t.act("Cas", {"type": "check"}, 409)["error"].startswith("you must call 4")
    assert t.act("Cas", {"type": "raise", "to": 5}, 422)["error"] == "a raise adds at least 2: raise to 6 or more"
    assert t.act("Cas", {"type": "raise", "to": 15}, 422)["error"] == "a raise adds at most 10: raise to 14 at most"
    t.act("Cas", {"type": "raise", "to": 14})
    t.act("Ana", {"type": "call"})
    assert (t.offers("Ben")["raise"]["min_to"], t.offers("Ben")["raise"]["max_to"]) == (16, 24)
    t.act("Ben", {"type": "call"})
    # Everyone has matched 14: Cas, the last to raise, is not asked again; the shift follows.
    v = t.view()
    assert v["hand"]["phase"] == "shift" and v["hand"]["to_act"] is None and v["hand"]["hand_pot"] == 57
    assert t.stacks() == {"Ana": 81, "Ben": 81, "Cas": 81}


def test_c15_a_fold_only_facing_a_bet_a_player_who_cannot_call_goes_all_in_or_folds_and_loses_what_is_in(client):
    t = Table(client, "coruscant-starcruiser", ["Ana", "Ben", "Cas"])
    t.act("host", {"type": "adjust", "seat": t.seat["Cas"], "amount": -80, "reason": "a short stack"})
    _to_betting(t, [3, 3], {"Ana": 1, "Ben": 1, "Cas": 1})  # +5 Square
    assert t.act("Ben", {"type": "fold"}, 409)["error"] == \
        "you may fold only facing a bet you have not matched: check instead"
    t.act("Ben", {"type": "bet", "amount": 30})
    # Cas holds 15 and owes 30: no call, no raise; all-in or fold.
    assert set(t.offers("Cas")) == {"all_in", "fold"}
    assert t.act("Cas", {"type": "call"}, 422)["error"] == "calling needs 30 but you have 15: go all-in or fold"
    t.act("Cas", {"type": "fold"})
    t.act("Ana", {"type": "call"})
    assert t.act("Cas", {"type": "shift"}, 409)["error"] == "you have folded this round"
    t.all_do("shift")
    t.act("Ben", {"type": "check"})
    t.act("Ana", {"type": "check"})
    t.all_do("improve", {"Ana": 1, "Ben": 1})
    t.act("Ben", {"type": "reveal_selection", "cards": ["sq+9"]})
    t.act("Ana", {"type": "reveal_selection", "cards": ["tr+6"]})
    # Cas's ante stays in the pot and Cas cannot win it: Ana's 6 is 1 away, Ben's 9 is 4.
    s = t.view()["hand"]["settlement"]
    assert s["words"] == "The pot of 75 goes to Ana." and s["pots"][0]["eligible"] == [t.seat["Ben"], t.seat["Ana"]]
    assert t.stacks() == {"Ana": 140, "Ben": 65, "Cas": 15}


def test_c30_a_count_mismatch_is_refused_the_host_corrects_the_count_or_the_cards_before_the_settlement(client):
    t = Table(client, "coruscant-starcruiser", ["Ana", "Ben", "Cas"])
    _to_betting(t, [5, 2], {"Ana": 1, "Ben": 1, "Cas": 1})  # +10 Triangle
    for _ in range(2):
        for n in ("Ben", "Cas", "Ana"):
            t.act(n, {"type": "check"})
        if t.view()["hand"]["phase"] == "shift":
            t.all_do("shift")
    t.all_do("improve", {"Ana": 1, "Ben": 1, "Cas": 1})
    # Ben's phone recorded 1 card, but Ben shows 2: refused, nothing entered.
    assert t.act("Ben", {"type": "reveal_selection", "cards": ["tr+6", "tr+4"]}, 422) == \
        {"error": "the selection holds 2 cards but 1 was recorded", "field": "cards"}
    # The host corrects the recorded count (players may not), then Ben's two cards stand.
    assert t.act("Ben", {"type": "improve", "count": 2}, 409)["error"] == "not now: the round is at the reveal"
    assert "improve" not in t.offers("Ben")
    # The console playing Ben is offered the correction (the host's own move for the seat).
    r = client.get(f"/api/v1/tables/{t.code}/seats/{t.seat['Ben']}/legal",
                   headers={"Authorization": f"Bearer {t.host}"})
    fix = next(o for o in r.get_json()["legal"] if o["type"] == "improve")
    assert fix["words"] == "Correct the count recorded (1 card)"
    assert [v for v, _ in fix["inputs"][0]["options"]] == [2, 3, 4, 5]
    t.act("host", {"type": "improve", "seat": t.seat["Ben"], "count": 2})
    assert [p["selection"] for p in t.view()["hand"]["players"]] == [2, 1, 1]  # Ben, Cas, Ana
    t.act("Ben", {"type": "reveal_selection", "cards": ["tr+6", "tr+4"]})
    # Cas entered a wrong card: the host enters the right one before the last reveal settles.
    t.act("Cas", {"type": "reveal_selection", "cards": ["ci+9"]})
    assert t.act("Cas", {"type": "reveal_selection", "cards": ["ci+10"]}, 409)["error"].startswith(
        "your selection is entered")
    t.act("host", {"type": "reveal_selection", "seat": t.seat["Cas"], "cards": ["ci+10"]})
    t.act("Ana", {"type": "reveal_selection", "cards": ["sq+10"]})
    v = t.view()
    # All three make 10; Ben's two Triangles win.
    assert v["hand"]["settlement"]["words"] == "The pot of 15 goes to Ben."
    # After the settlement the count is no longer corrected; credits are moved by adjustments.
    assert t.act("host", {"type": "improve", "seat": t.seat["Ben"], "count": 3}, 409)["error"] == \
        "no round is being played"
    for who, amount in (("Ben", -15), ("Cas", 15)):
        t.act("host", {"type": "adjust", "seat": t.seat[who], "amount": amount, "reason": "C30: the pot was Cas's"})
    assert t.stacks() == {"Ana": 95, "Ben": 95, "Cas": 110}
