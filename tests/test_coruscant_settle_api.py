"""Coruscant Shift's payout calculator through `POST /api/v1/settle` (RULES-CORUSCANT.md "The
payout calculator for Coruscant Shift"): every example of the rules file answered as written
(the eight settlement examples, the worked round, the tie-draw round trip), and bad input a 422
in words with its field, nothing settled."""

from __future__ import annotations

import pytest

from companion.server.app import create_app


@pytest.fixture
def api(tmp_path):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")}).test_client()


def _p(name, cards, committed, stack=100, folded=False, **more):
    return {"name": name, "cards": list(cards), "committed": committed, "stack": stack, "folded": folded, **more}


def _body(number, suit, *players, rules="coruscant"):
    return {"rules": rules, "target": {"number": number, "suit": suit}, "players": list(players)}


def _settle(api, body, status=200):
    r = api.post("/api/v1/settle", json=body)
    assert r.status_code == status, r.get_json()
    return r.get_json()


def _nets(answer, body):
    return {p["name"]: answer["payouts"][p["name"]] - p["committed"] for p in body["players"]}


def test_example_1_distance_0_wins(api):
    body = _body(-5, "circle", _p("Ana", ["ci-3", "sq-2"], 10), _p("Ben", ["tr-10", "ci+4"], 10))
    a = _settle(api, body)
    assert a["status"] == "settled" and _nets(a, body) == {"Ana": 10, "Ben": -10}
    assert [(h["total"], h["distance"], h["kind"]) for h in a["hands"]] == [(-5, 0, "selection"), (-6, 1, "selection")]
    assert a["penalties"] == [] and a["pots"] == [{"amount": 20, "eligible": ["Ana", "Ben"], "winners": ["Ana"]}]


def test_example_2_the_sylop_counts_for_the_target_suit(api):
    body = _body(10, "square", _p("Ana", ["sq+6", "tr+4"], 12), _p("Ben", ["sylop", "sq+3", "ci+7"], 12))
    a = _settle(api, body)
    assert [(h["total"], h["suit_count"]) for h in a["hands"]] == [(10, 1), (10, 2)]
    assert _nets(a, body) == {"Ana": -12, "Ben": 12}


def test_example_3_the_tie_draw_round_trip_positive_beats_negative(api):
    body = _body(0, "triangle", _p("Ana", ["ci+4", "sq-4"], 8), _p("Ben", ["ci+1", "sq-1"], 8))
    first = _settle(api, body)
    assert first["status"] == "tie_draw" and first["tie_draw_players"] == ["Ana", "Ben"]
    assert "payouts" not in first and [h["suit_count"] for h in first["hands"]] == [0, 0]
    body["players"][0]["tie_draw"], body["players"][1]["tie_draw"] = ["TR-7"], ["sq+7"]
    a = _settle(api, body)
    assert a["status"] == "settled" and _nets(a, body) == {"Ana": -8, "Ben": 8}
    assert a["tie_draws"] == {"Ana": "tr-7", "Ben": "sq+7"}


def test_example_4_equal_draws_split_25_as_13_and_12(api):
    body = _body(5, "circle", _p("Ana", ["tr+5"], 10, tie_draw=["ci+9"]), _p("Ben", ["sq+5"], 10, tie_draw=["tr+9"]),
                 _p("Cas", [], 5, folded=True))
    a = _settle(api, body)
    assert a["payouts"] == {"Ana": 13, "Ben": 12, "Cas": 0} and _nets(a, body) == {"Ana": 3, "Ben": 2, "Cas": -5}
    assert a["pots"] == [{"amount": 25, "eligible": ["Ana", "Ben"], "winners": ["Ana", "Ben"]}]
    assert a["hands"][2] == {"name": "Cas", "total": None, "distance": None, "suit_count": None, "kind": "folded"}


def test_example_5_the_all_in_takes_the_main_pot_the_side_pot_goes_on(api):
    body = _body(0, "square", _p("Ana", ["tr+2", "tr-2"], 20, stack=0), _p("Ben", ["ci+1"], 50), _p("Cas", ["sq+2"], 50))
    a = _settle(api, body)
    assert [(p["amount"], p["eligible"], p["winners"]) for p in a["pots"]] == [
        (60, ["Ana", "Ben", "Cas"], ["Ana"]), (60, ["Ben", "Cas"], ["Ben"])]
    assert _nets(a, body) == {"Ana": 40, "Ben": 10, "Cas": -50}


def test_example_6_conceded_the_last_player_takes_20_without_showing(api):
    body = _body(5, "circle", _p("Ana", [], 12), _p("Ben", ["not", "read"], 6, folded=True), _p("Cas", [], 2, folded=True))
    a = _settle(api, body)
    assert [h["kind"] for h in a["hands"]] == ["conceded", "folded", "folded"] and a["hands"][0]["total"] is None
    assert _nets(a, body) == {"Ana": 8, "Ben": -6, "Cas": -2}
    # Cards the last player sends are not judged either.
    body["players"][0]["cards"] = ["xx+99"]
    assert _settle(api, body)["payouts"]["Ana"] == 20


def test_example_7_under_or_over_does_not_matter_circles_decide(api):
    body = _body(-10, "circle", _p("Ana", ["ci-10", "tr-2"], 6), _p("Ben", ["ci-6", "ci-2"], 6))
    a = _settle(api, body)
    assert [(h["total"], h["distance"], h["suit_count"]) for h in a["hands"]] == [(-12, 2, 1), (-8, 2, 2)]
    assert _nets(a, body) == {"Ana": -6, "Ben": 6}


def test_example_8_a_sylop_is_the_lowest_draw_and_the_second_sylop_may_be_drawn(api):
    body = _body(5, "square", _p("Ana", ["sylop", "tr+5"], 5), _p("Ben", ["sq+5"], 5))
    assert _settle(api, body)["tie_draw_players"] == ["Ana", "Ben"]
    body["players"][0]["tie_draw"], body["players"][1]["tie_draw"] = ["sylop"], ["tr-1"]
    assert _nets(_settle(api, body), body) == {"Ana": -5, "Ben": 5}


def test_the_worked_round_with_the_options_as_an_object(api):
    body = _body(5, "Triangle", _p("Han", ["tr+4", "sylop", "ci+2"], 19, stack=36), _p("Lando", [], 8, stack=17, folded=True),
                 _p("Bria", ["sq+10", "tr-6", "sq+2"], 19, stack=11), _p("Tobias", ["tr+5"], 10, stack=0),
                 rules={"preset": "coruscant", "stock": 30})
    a = _settle(api, body)
    assert [(p["amount"], p["winners"]) for p in a["pots"]] == [(38, ["Tobias"]), (18, ["Han"])]
    after = {p["name"]: p["stack"] + a["payouts"][p["name"]] for p in body["players"]}
    assert after == {"Han": 54, "Lando": 17, "Bria": 11, "Tobias": 38} and a["target"] == {"number": 5, "suit": "triangle"}


def test_a_partial_tie_draw_is_asked_again_and_the_starcruiser_preset_is_answered(api):
    body = _body(5, "square", _p("Ana", ["sylop", "tr+5"], 5, tie_draw=["ci+2"]), _p("Ben", ["sq+5"], 5),
                 rules="coruscant-starcruiser")
    a = _settle(api, body)
    assert a["status"] == "tie_draw" and a["tie_draw_players"] == ["Ana", "Ben"]


@pytest.mark.parametrize("change, field, words", [
    (lambda b: b["target"].update(number=3), "target.number", "the gold die shows"),
    (lambda b: b["target"].update(number=True), "target.number", "the gold die shows"),
    (lambda b: b["target"].update(suit="star"), "target.suit", "the silver die shows"),
    (lambda b: b.pop("target"), "target", "target is missing"),
    (lambda b: b["players"][0]["cards"].__setitem__(1, "ci+11"), "players[0].cards[1]", "unknown card 'ci+11'"),
    (lambda b: b["players"][1]["cards"].__setitem__(0, "ci-3"), "players[1].cards[0]",
     "Circle \u22123 is entered 2 times but the deck has only one"),
    (lambda b: b["players"][1].update(tie_draw=["sylop"]), "players[1].tie_draw", "Ben is in no tie"),
    (lambda b: b["players"][1].update(cards=[]), "players[1].cards", "Ben did not fold: a selection holds 1 to 5"),
    (lambda b: b["players"][1].update(cards=["tr+1", "tr+2", "tr+3", "tr+4", "tr+5", "tr+6"]), "players[1].cards",
     "at most 5 cards"),
    (lambda b: b["players"][1].update(folded=True, committed=30), "players[1].committed", "play cannot produce"),
    (lambda b: b["players"][0].update(comitted=3), "players[0].comitted", "unknown field 'comitted'"),
    (lambda b: b["players"][1].update(name="Ana"), "players[1].name", "two players are called 'Ana'"),
    (lambda b: b["players"][1].update(committed=-1), "players[1].committed", "between 0 and"),
    (lambda b: b["players"][0].update(tie_draw=["ci+1", "ci+2"]), "players[0].tie_draw", "at most 1 card"),
    (lambda b: b["players"][1].update(folded=True, tie_draw=["ci+1"]), "players[1].tie_draw", "Ben folded"),
    (lambda b: b.update(rules={"preset": "coruscant", "end": "never"}), "rules.end", "end must be one of"),
    (lambda b: b.update(rules={"preset": "coruscant", "junk_penalty": 1}), "rules.junk_penalty", "not an option"),
    (lambda b: b.update(players=b["players"][:1]), "players", "2 to 8 players"),
])
def test_bad_input_is_a_422_in_words_with_its_field(api, change, field, words):
    body = _body(-5, "circle", _p("Ana", ["ci-3", "sq-2"], 10), _p("Ben", ["tr-10", "ci+4"], 10))
    change(body)
    a = _settle(api, body, 422)
    assert a["field"] == field and words in a["error"], a


def test_too_many_sylops_counting_the_tie_draw_is_refused_at_the_draw(api):
    body = _body(5, "square", _p("Ana", ["sylop", "tr+5"], 5, tie_draw=["sylop"]), _p("Ben", ["sq+5"], 5, tie_draw=["Sylop"]))
    a = _settle(api, body, 422)
    assert a["field"] == "players[1].tie_draw[0]" and "Sylop is entered 3 times but the deck has 2" in a["error"]
