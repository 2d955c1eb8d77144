"""Kessel's payout calculator through the HTTP API: `POST /api/v1/settle` with
``"rules": "kessel"`` answers every example of RULES-KESSEL.md as written (its request and
answer sections), and every bad input is a 422 in words naming its field (K3, K15, K17, the
calculator's shapes and edge cases)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import examples
from test_kessel import EXAMPLES

from companion.games.kessel.cards import KESSEL_DECK


def _post(client, body, status=200):
    r = client.post("/api/v1/settle", json=body)
    assert r.status_code == status, (r.status_code, r.get_json())
    return r.get_json()


def _player(name, cards, stock, invested, impostors=None):
    p = {"name": name, "cards": cards, "stock": stock, "invested": invested}
    if impostors:
        p["impostors"] = impostors
    return p


def _effects(e):
    return {"major_fraud": e.major_fraud, "markdown": e.markdown, "cook_the_books": e.cook_the_books,
            "prime_sabacc": e.prime_sabacc}


@pytest.mark.parametrize("number", list(EXAMPLES))
def test_every_settlement_example_is_answered_as_written(client, number):
    rows, effects, won, penalties, after, out, game = EXAMPLES[number]
    body = {"rules": "kessel", "players": [_player(n, c, stock, inv, imps) for n, c, imps, stock, inv in rows],
            "credits_pot": 600}
    if effects.any():
        body["effects"] = _effects(effects)
    a = _post(client, body)
    assert a["winners"] == won and a["chips_after"] == after and a["eliminated"] == out
    assert {p["name"]: (p["reason"], p["amount"], p["shortfall"]) for p in a["penalties"]} == penalties
    assert [h["name"] for h in a["hands"]] == [r[0] for r in rows]
    assert a["game_over"] == bool(game)
    before = sum(stock + inv for *_, stock, inv in rows)
    assert a["chips_removed"] == before - sum(after.values())  # K24
    if game:
        assert a["game_winners"] == game and sum(a["credits_payouts"].values()) == 600
        assert a["credits_payouts"][game[0]] == 600 // len(game)
    else:
        assert "game_winners" not in a and "credits_payouts" not in a


def test_the_hands_are_reported_as_sand_and_blood_values_kind_value_and_difference(client):
    a = _post(client, {"rules": "kessel", "players": [
        _player("Ana", ["ss", "BS"], 6, 0), _player("Ben", ["b5", "si"], 3, 2, [2]),
        _player("Cas", ["s4", "b4"], 2, 1), _player("Dax", ["bi", "s3"], 4, 0, [5])]})
    hands = {h["name"]: h for h in a["hands"]}
    assert hands["Ana"] == {"name": "Ana", "cards": ["ss", "bs"], "values": [0, 0], "kind": "pure_sabacc",
                            "value": 0, "difference": 0}
    # Cards in either order: values are always [sand, blood]; impostors follow the cards as sent.
    assert hands["Ben"]["values"] == [2, 5] and hands["Ben"]["difference"] == 3 and hands["Ben"]["value"] is None
    assert hands["Cas"]["kind"] == "sabacc" and hands["Cas"]["value"] == 4
    assert hands["Dax"]["values"] == [3, 5] and hands["Dax"]["kind"] == "non_sabacc"
    assert a["winners"] == ["Ana"] and a["chips_after"] == {"Ana": 6, "Ben": 0, "Cas": 1, "Dax": 2}
    assert a["eliminated"] == ["Ben"] and not a["game_over"]


def test_the_worked_round_reveal_and_both_presets_and_options(client):
    players = [_player("Kay", ["s5", "b5"], 2, 4), _player("Lando", ["s2", "b2"], 6, 0),
               _player("Vel", ["s3", "bi"], 4, 2, [4])]
    a = _post(client, {"rules": "kessel", "players": players})
    assert a["winners"] == ["Lando"] and a["chips_after"] == {"Kay": 1, "Lando": 6, "Vel": 3}
    assert a["chips_removed"] == 18 - 10
    plain = _post(client, {"rules": "kessel-plain", "players": players})
    assert plain["chips_after"] == a["chips_after"]
    opts = _post(client, {"rules": {"preset": "kessel", "chips": 8, "tariff_chips": "out"}, "players": players})
    assert opts["chips_after"] == a["chips_after"] and opts["rules"] == "kessel"


def test_discards_count_against_the_decks_copies_k15(client):
    players = [_player("Ana", ["s2", "b2"], 3, 0), _player("Ben", ["s2", "b3"], 3, 0)]
    ok = _post(client, {"rules": "kessel", "players": players, "discards": ["s2", "b6"]})
    assert ok["winners"] == ["Ana"]
    bad = _post(client, {"rules": "kessel", "players": players, "discards": ["b6", "S2", "s2"]}, 422)
    # The refusal names every entry of the clashing card, so the host can correct the wrong one.
    assert bad["field"] == "discards[2]"
    assert bad["error"] == ("4 copies of Sand 2 (s2) entered, but the deck has 3: players[0].cards[0], "
                            "players[1].cards[0], discards[1], discards[2]; correct the wrong one")


@pytest.mark.parametrize("players, field, words", [
    # K3: not one Sand and one Blood card
    ([_player("Ana", ["s2", "s3"], 1, 0), _player("Ben", ["s1", "b1"], 1, 0)], "players[0].cards",
     "a hand is one Sand card and one Blood card, not two Sand cards"),
    ([_player("Ana", ["s2"], 1, 0), _player("Ben", ["s1", "b1"], 1, 0)], "players[0].cards",
     "a hand is two cards, one Sand and one Blood, not 1"),
    ([_player("Ana", ["s2", "b2", "b3"], 1, 0), _player("Ben", ["s1", "b1"], 1, 0)], "players[0].cards",
     "players[0].cards may hold at most 2 cards"),
    ([_player("Ana", ["s2", "b9"], 1, 0), _player("Ben", ["s1", "b1"], 1, 0)], "players[0].cards[1]",
     "unknown card 'b9'; the cards are s1 to s6, si, ss, b1 to b6, bi and bs"),
    # K3: too many copies (a Sylop has one)
    ([_player("Ana", ["ss", "b2"], 1, 0), _player("Ben", ["ss", "b1"], 1, 0)], "players[1].cards[0]",
     "2 copies of Sand Sylop (ss) entered, but the deck has 1: players[0].cards[0], players[1].cards[0]; "
     "correct the wrong one"),
    # K17: a missing, extra or impossible Impostor value
    ([_player("Ana", ["si", "b2"], 1, 0), _player("Ben", ["s1", "b1"], 1, 0)], "players[0].impostors",
     "the hand holds 1 Impostor: send one value for each, in the order of the cards"),
    ([_player("Ana", ["si", "bi"], 1, 0, [3]), _player("Ben", ["s1", "b1"], 1, 0)], "players[0].impostors",
     "the hand holds 2 Impostors: send one value for each, in the order of the cards"),
    ([_player("Ana", ["si", "b2"], 1, 0, [7]), _player("Ben", ["s1", "b1"], 1, 0)], "players[0].impostors[0]",
     "an Impostor's value is a die's face, a whole number from 1 to 6"),
    ([_player("Ana", ["s3", "b2"], 1, 0, [2]), _player("Ben", ["s1", "b1"], 1, 0)], "players[0].impostors",
     "the hand holds no Impostor: send no Impostor value"),
    # fewer than two players, more than eight
    ([_player("Ana", ["s3", "b2"], 1, 0)], "players",
     "a Kessel reveal needs 2 to 8 players still in the game, not 1"),
    ([_player(f"P{i}", [f"s{i % 6 + 1}", f"b{i % 6 + 1}"], 1, 0) for i in range(9)], "players",
     "a Kessel reveal needs 2 to 8 players still in the game, not 9"),
    # chips and names
    ([_player("Ana", ["s3", "b2"], -1, 0), _player("Ben", ["s1", "b1"], 1, 0)], "players[0].stock",
     "players[0].stock must be between 0 and 1000000000 chips"),
    ([_player("Ana", ["s3", "b2"], 1, 1.5), _player("Ben", ["s1", "b1"], 1, 0)], "players[0].invested",
     "players[0].invested must be a whole number of chips, not a number"),
    ([_player("Ana", ["s3", "b2"], 1, 0), _player("Ana", ["s1", "b1"], 1, 0)], "players[1].name",
     "two players are named 'Ana': names are unique at the table"),
    ([{"name": "Ana", "cards": ["s3", "b2"], "stock": 1}, _player("Ben", ["s1", "b1"], 1, 0)],
     "players[0].invested", "invested is missing"),
    ([{**_player("Ana", ["s3", "b2"], 1, 0), "committed": 1}, _player("Ben", ["s1", "b1"], 1, 0)],
     "players[0].committed", "unknown field 'committed'; the fields are name, cards, impostors, invested, stock"),
])
def test_bad_players_are_a_422_in_words_with_their_field(client, players, field, words):
    a = _post(client, {"rules": "kessel", "players": players}, 422)
    assert (a["field"], a["error"]) == (field, words)


@pytest.mark.parametrize("body, field, words", [
    ({"rules": "kessel", "players": [], "effects": {"major_fraud": True}}, "players",
     "a Kessel reveal needs 2 to 8 players still in the game, not 0"),
    ({"rules": "kessel-plain", "effects": {"markdown": True}, "players": []}, "effects",
     "effects come from shift tokens, and this table (Kessel Sabacc without tokens, tokens 'none') plays without them"),
    ({"rules": {"preset": "kessel", "tokens": "none"}, "effects": {}, "players": []}, "effects",
     "effects come from shift tokens, and this table (Kessel Sabacc, tokens 'none') plays without them"),
    ({"rules": "kessel", "effects": {"prime_sabacc": 7}, "players": []}, "effects.prime_sabacc",
     "effects.prime_sabacc is the value chosen with the Prime Sabacc token, 1 to 6, or null"),
    ({"rules": "kessel", "effects": {"markdown": "yes"}, "players": []}, "effects.markdown",
     "effects.markdown must be true or false, not a string"),
    ({"rules": "kessel", "effects": {"fraud": True}, "players": []}, "effects.fraud",
     "unknown field 'fraud'; the fields are major_fraud, markdown, cook_the_books, prime_sabacc"),
    ({"rules": {"preset": "kessel", "chips": 12}, "players": []}, "rules.chips",
     "chips must be a whole number from 4 to 8"),
    ({"rules": {"preset": "kessel", "ante": 1}, "players": []}, "rules.ante",
     "ante is not an option of Kessel Sabacc"),
    ({"rules": "kessel", "players": [], "credits_pot": -5}, "credits_pot",
     "credits_pot must be between 0 and 1000000000 credits"),
    ({"rules": "kessel", "players": [], "sabacc_pot": 0}, "sabacc_pot",
     "unknown field 'sabacc_pot'; the fields are rules, players, effects, credits_pot, discards"),
    ({"rules": "kessel"}, "players", "players is missing"),
    ({"rules": "kessel", "players": {}}, "players", "players must be a list, not an object"),
])
def test_bad_requests_are_a_422_in_words_with_their_field(client, body, field, words):
    a = _post(client, body, 422)
    assert (a["field"], a["error"]) == (field, words)


def test_major_fraud_needs_no_impostor_values_and_refuses_them(client):
    body = {"rules": "kessel", "effects": {"major_fraud": True}, "players": [
        _player("Ana", ["si", "b6"], 2, 2), _player("Ben", ["s2", "b3"], 4, 0)]}
    assert _post(client, body)["hands"][0]["values"] == [6, 6]
    body["players"][0]["impostors"] = [6]
    a = _post(client, body, 422)
    assert a["field"] == "players[0].impostors" and "Major Fraud" in a["error"]


def test_a_state_no_round_without_tokens_can_make_is_settled_as_given(client):
    # Nothing invested and nothing in stock, or more than 3 invested: the calculator knows no
    # history, so it settles what it is given.
    a = _post(client, {"rules": "kessel-plain", "players": [
        _player("Ana", ["s1", "b1"], 0, 0), _player("Ben", ["s2", "b4"], 1, 5)]})
    assert a["chips_after"] == {"Ana": 0, "Ben": 0} and a["game_winners"] == ["Ana"]
    assert "credits_payouts" not in a  # no credits_pot sent


def test_a_failed_request_changes_nothing_and_the_same_request_answers_the_same(client):
    good = {"rules": "kessel", "players": [_player("Ana", ["s2", "b4"], 2, 1), _player("Ben", ["s4", "b2"], 1, 2),
                                           _player("Cas", ["s5", "b1"], 3, 0)], "credits_pot": 5}
    first = _post(client, good)
    _post(client, {**good, "credits_pot": "x"}, 422)
    assert _post(client, good) == first
    assert first["winners"] == ["Ana", "Ben"] and "credits_payouts" not in first  # two still have chips


_ANY = st.recursive(st.none() | st.booleans() | st.integers(-3, 9) | st.floats(allow_nan=False, width=16)
                    | st.sampled_from(["s1", "SI", "bs", "b7", "x", ""]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
                        ["name", "cards", "impostors", "invested", "stock", "major_fraud", "prime_sabacc"]), inner,
                        max_size=3), max_leaves=8)
_SAND = [c for c in KESSEL_DECK.cards if c[0] == "s"]
_BLOOD = [c for c in KESSEL_DECK.cards if c[0] == "b"]


@st.composite
def _bodies(draw):
    """A request that is valid more often than not, then perhaps one field spoilt."""
    n = draw(st.integers(2, 5))
    fraud = draw(st.booleans())
    players = []
    for i in range(n):
        cards = [draw(st.sampled_from(_SAND)), draw(st.sampled_from(_BLOOD))]
        if draw(st.booleans()):
            cards.reverse()
        p = {"name": f"P{i}", "cards": cards, "invested": draw(st.integers(0, 6)), "stock": draw(st.integers(0, 6))}
        imps = [draw(st.integers(1, 6)) for c in cards if c.endswith("i")]
        if imps and not fraud:
            p["impostors"] = imps
        players.append(p)
    body = {"rules": draw(st.sampled_from(["kessel", {"preset": "kessel", "chips": 5}])), "players": players,
            "effects": {"major_fraud": fraud, "markdown": draw(st.booleans()),
                        "cook_the_books": draw(st.booleans()), "prime_sabacc": draw(st.none() | st.integers(1, 6))},
            "credits_pot": draw(st.integers(0, 900))}
    spoil = draw(st.sampled_from(["", "", "", "body", "player", "effects"]))
    if spoil == "body":
        body[draw(st.sampled_from(["rules", "players", "effects", "credits_pot", "discards", "extra"]))] = draw(_ANY)
    elif spoil == "player":
        players[draw(st.integers(0, n - 1))][draw(st.sampled_from(
            ["name", "cards", "impostors", "invested", "stock", "other"]))] = draw(_ANY)
    elif spoil == "effects":
        body["effects"][draw(st.sampled_from(["major_fraud", "markdown", "prime_sabacc", "x"]))] = draw(_ANY)
    return body


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_bodies())
def test_any_request_is_answered_or_refused_in_words_never_a_500(client, body):
    r = client.post("/api/v1/settle", json=body)
    assert r.status_code in (200, 422), (r.status_code, body)
    a = r.get_json()
    if r.status_code == 422:
        assert a["error"] and isinstance(a["field"], str)
    else:  # K24 holds for whatever was accepted, and there is a winner
        before = sum(p["stock"] + p["invested"] for p in body["players"])
        assert sum(a["chips_after"].values()) == before - a["chips_removed"] and a["winners"]
        assert a["game_over"] == (sum(1 for v in a["chips_after"].values() if v) <= 1)
