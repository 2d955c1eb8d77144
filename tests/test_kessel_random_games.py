"""Random Kessel games played to their end on the live table's engine (companion.table.engine
.Table, the same engine the API runs): at every step every viewer's view is read, and

- no view shows a seat's unplayed tokens to anyone but that seat (K28);
- the table's credits stay whole (the buy-ins sit in the credits pot until the winner takes it);
- no stock or invested pile goes below 0, and chips in play never grow (K24);
- every round settled has a winner, and the game ends with the whole pot paid (K26, K27).

Moves are picked among each seat's offered moves (`legal`), their inputs filled at random; the
cards entered follow the deck (one Sand and one Blood card; never more copies than it has). A
draw pile that runs out is made again from its discard pile (K16): the 8-player test reaches it.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from conftest import examples

from companion.games.kessel.cards import KESSEL_DECK
from companion.games.kessel.tokens import TOKENS
from companion.table.engine import HOST, Refused, Table

NAMES = ("Kay", "Lando", "Vel", "Han", "Qi'ra", "Beckett", "Enfys", "L3")


def _table(rules, players: int) -> Table:
    t = Table.create("KESSEL", {"rules": rules})
    for i in range(players):
        t.apply({"type": "join", "name": NAMES[i]}, None)
    for sid in list(t.seat_ids()):
        t.apply({"type": "buy_in"}, sid)
    return t


def _game(t: Table) -> dict:
    return t.to_json()["hand"]["game"]


def _free_cards(g: dict, extra: list[str]) -> Counter:
    """The copies of each card not yet entered this round (hands shown, discard piles)."""
    used = Counter([c for o in g["shown"].values() for c in o["cards"]]
                   + g["discards"]["sand"] + g["discards"]["blood"] + extra)
    return Counter({c: KESSEL_DECK.cards[c].copies - used[c] for c in KESSEL_DECK.cards})


def _pick(rnd: random.Random, free: Counter, prefix: str) -> str:
    return rnd.choice(sorted(c for c, n in free.items() if n > 0 and c.startswith(prefix)))


def _check_secrets(t: Table, held: dict[str, list[str]]) -> None:
    """No viewer but the seat itself sees its unplayed tokens (as values in any view). Several
    players may hold the same token (K28): a code someone has played is public, and left out."""
    played = {p["token"] for p in _game(t)["played"]}
    for viewer in (None, *t.seat_ids()):
        view = t.view(viewer, host=viewer is None)
        if "you" in view:  # the menu of all 16 tokens a seat chooses from is no one's hand
            view["you"]["legal"] = [o for o in view["you"]["legal"] if o["type"] != "choose_tokens"]
        text = json.dumps(view)
        for owner, tokens in held.items():
            if owner == viewer:
                continue
            own = set(held.get(viewer, [])) if viewer else set()
            for code in set(tokens) - own - played:
                assert not re.search(f'"{code}"(?!\\s*:)', text), (viewer, owner, code)


def _play(t: Table, rnd: random.Random, draws_to: str | None = None) -> dict:
    """Play the started game to its end with random moves; return the final game state."""
    credits = t.credits()
    rounds_seen = 0
    for _ in range(3000):
        g = _game(t)
        if g["stage"] == "over":
            return g
        held = {sid: list(tok) for sid, tok in g["tokens"].items() if tok}
        _check_secrets(t, held)
        assert t.credits() == credits
        assert all(c["stock"] >= 0 and c["invested"] >= 0 for c in g["chips"].values())
        if g.get("pending") is not None:  # the dice for an Impostor or Prime Sabacc
            p = g["pending"]
            if p["dice"] is None:
                t.apply({"type": "roll", "dice": [rnd.randint(1, 6), rnd.randint(1, 6)]},
                        rnd.choice([HOST, p["seat"]]))
            else:
                t.apply({"type": "choose_value", "value": rnd.choice(p["dice"])}, p["seat"])
            continue
        if g["stage"] == "tokens":
            sid = next(s for s in g["in_game"] if s not in g["chosen"])
            t.apply({"type": "choose_tokens", "tokens": rnd.sample([x.code for x in TOKENS], 3)}, sid)
        elif g["stage"] == "deal":
            free = _free_cards(g, [])
            t.apply({"type": "turn_up", "sand": _pick(rnd, free, "s"), "blood": _pick(rnd, free, "b")},
                    g["dealer"] if rnd.random() < 0.5 else HOST)
        elif g["stage"] == "turns":
            sid = g["to_act"]
            offers = t.legal(sid)
            kinds = [o["type"] for o in offers]
            if "play_token" in kinds and rnd.random() < 0.4:
                o = rnd.choice([o for o in offers if o["type"] == "play_token"])
                body = {"type": "play_token", "token": o["token"]}
                for i in o["inputs"]:
                    if i["kind"] != "cards":  # Exhaustion's cards: below
                        body[i["field"]] = rnd.choice(i["options"])[0]
                if o["token"] == "exhaustion":
                    free = _free_cards(g, [])
                    body["cards"] = [_pick(rnd, free, "s"), _pick(rnd, free, "b")]
                t.apply(body, sid)
                continue
            if "draw_card" in kinds and (draws_to or rnd.random() < 0.6):
                pile = draws_to or rnd.choice(["sand_draw", "blood_draw", "sand_discard", "blood_discard"])
                keep = rnd.random() < 0.5
                body = {"type": "draw_card", "pile": pile, "keep": keep}
                if pile.endswith("_draw") or keep:
                    body["discard"] = _pick(rnd, _free_cards(g, []), pile[0])
                t.apply(body, sid)
            else:
                assert "stand" in kinds
                t.apply({"type": "stand"}, sid)
        else:  # the reveal: the next player enters a hand the deck allows
            sid = next(s for s in g["in_game"] if s not in g["shown"])
            free = _free_cards(g, [])
            cards = [_pick(rnd, free, "s"), _pick(rnd, free, "b")]
            before = sum(c["stock"] + c["invested"] for c in g["chips"].values())
            t.apply({"type": "show_hand", "cards": cards}, sid)
            while _game(t).get("pending") is not None:  # K17: each Impostor's dice, then a value
                p = _game(t)["pending"]
                if p["dice"] is None:
                    t.apply({"type": "roll", "dice": [rnd.randint(1, 6), rnd.randint(1, 6)]}, HOST)
                else:
                    t.apply({"type": "choose_value", "value": rnd.choice(p["dice"])}, p["seat"])
            after = _game(t)
            if len(after["rounds"]) > rounds_seen:  # the round was settled
                rounds_seen = len(after["rounds"])
                r = after["rounds"][-1]
                assert r["winners"] and sum(r["chips_after"].values()) == before - r["chips_removed"] <= before
    raise AssertionError("the game did not end")


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(2, 6), st.sampled_from(["kessel", "kessel-plain"]), st.sampled_from(["invested", "out"]),
       st.integers(4, 8), st.integers(0, 2**32))
def test_random_games_keep_credits_chips_and_secrets_and_end_with_the_pot_paid(players, preset, tariff, chips, seed):
    rnd = random.Random(seed)  # the moves: one seed per game (Hypothesis shrinks the settings)
    rules = {"preset": preset, "chips": chips} | ({"tariff_chips": tariff} if preset == "kessel" else {})
    t = _table(rules, players)
    t.apply({"type": "start_hand"}, HOST)
    pot = 100 * players
    g = _play(t, rnd)
    v = t.view()
    assert v["hand"]["stage"] == "settled" and g["winners"]
    stacks = {s["seat"]: s["stack"] for s in v["seats"]}
    assert sum(stacks.values()) == pot and all(stacks[w] >= pot // len(g["winners"]) for w in g["winners"])
    assert sum(1 for sid in g["chips"] if g["chips"][sid]["stock"] > 0) <= 1


def test_k16_a_draw_pile_that_runs_out_is_made_again_from_its_discard_pile():
    t = _table({"preset": "kessel-plain", "chips": 8}, 8)
    t.apply({"type": "start_hand"}, HOST)
    t.apply({"type": "turn_up", "sand": "s1", "blood": "b1"}, HOST)
    assert _game(t)["draw_left"] == {"sand": 13, "blood": 13}  # 22 - 8 dealt - 1 turned up
    rnd = random.Random(16)
    reshuffled = []
    for _ in range(14):  # 13 draws empty the pile; the 14th makes it again from the discard pile
        g = _game(t)
        events = t.apply({"type": "draw_card", "pile": "sand_draw", "keep": True,
                          "discard": _pick(rnd, _free_cards(g, []), "s")}, g["to_act"])
        reshuffled += [e for e in events if e["type"] == "reshuffled"]
    g = _game(t)
    assert len(reshuffled) == 1 and reshuffled[0]["cards"] == 13  # 14 on the pile, its top kept
    assert g["draw_left"]["sand"] == 12 and len(g["discards"]["sand"]) == 2


def test_k12_k37_a_player_at_0_stock_stays_in_stands_unless_free_draw_and_a_win_returns_the_invested_pile():
    t = _table({"preset": "kessel", "chips": 4}, 2)
    t.apply({"type": "start_hand"}, HOST)
    a, b = _game(t)["in_game"]
    t.apply({"type": "choose_tokens", "tokens": ["free_draw", "refund", "immunity"]}, a)
    t.apply({"type": "choose_tokens", "tokens": ["target_tariff", "general_tariff", "embargo"]}, b)
    t.apply({"type": "turn_up", "sand": "s1", "blood": "b1"}, HOST)
    t.apply({"type": "draw_card", "pile": "blood_discard", "keep": False}, a)
    t.apply({"type": "play_token", "token": "target_tariff", "target": a}, b)
    t.apply({"type": "stand"}, b)
    t.apply({"type": "draw_card", "pile": "blood_discard", "keep": False}, a)
    assert _game(t)["chips"][a] == {"stock": 0, "invested": 4}
    events = t.apply({"type": "play_token", "token": "general_tariff"}, b)
    assert events[-1]["words"].endswith("pays 0 (short 1).")  # K31: the shortfall is shown
    t.apply({"type": "stand"}, b)
    try:  # K10: no stock, no Free Draw: a must stand
        t.apply({"type": "draw_card", "pile": "blood_discard", "keep": False}, a)
    except Refused as exc:
        assert exc.error == "you have no chips in stock: you must stand"
    else:
        raise AssertionError("a paid draw with no stock was accepted")
    assert a in _game(t)["in_game"]  # K12: nobody is eliminated during a round
    t.apply({"type": "play_token", "token": "free_draw"}, a)
    t.apply({"type": "draw_card", "pile": "blood_discard", "keep": False}, a)  # free
    t.apply({"type": "stand"}, b)
    assert _game(t)["chips"][a] == {"stock": 0, "invested": 4} and _game(t)["stage"] == "reveal"
    t.apply({"type": "show_hand", "cards": ["s2", "b2"]}, a)
    t.apply({"type": "show_hand", "cards": ["s6", "b1"]}, b)  # b owes 5, pays 4: out
    g = _game(t)
    assert g["rounds"][0]["chips_after"] == {a: 4, b: 0} and g["stage"] == "over" and g["winners"] == [a]
    assert {s["seat"]: s["stack"] for s in t.view()["seats"]} == {a: 200, b: 0}
