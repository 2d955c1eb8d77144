"""Issues 29-31: the OpenAPI document of `POST /api/v1/settle` lists every game's calculator
request and answer as the game declares them (`Game.calculator_schema`): classic's and Spike's
request (SETTLE-API.md), Kessel's (RULES-KESSEL.md) and Coruscant Shift's (RULES-CORUSCANT.md).
The rules files' examples are valid requests, the answers the server gives them match the
documented answer, and a plug-in game with a calculator is documented with no edit outside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jsonschema_rs
import pytest

from companion.games import registry
from companion.games.api import CalculatorSchema, Game, InvalidRequest

URL = "/api/v1/settle"

#: RULES-KESSEL.md's settlement example 4: Ana wins on the lower cards, Cas is eliminated.
KESSEL_ROW_4 = {"rules": "kessel", "players": [
    {"name": "Ana", "cards": ["s3", "b2"], "invested": 1, "stock": 3},
    {"name": "Ben", "cards": ["s5", "b4"], "invested": 2, "stock": 4},
    {"name": "Cas", "cards": ["s6", "b1"], "invested": 0, "stock": 3}]}
#: RULES-KESSEL.md's example 5: the game ends, with a credits pot.
KESSEL_ROW_5 = {"rules": "kessel", "credits_pot": 100, "players": [
    {"name": "Ana", "cards": ["si", "bs"], "impostors": [2], "invested": 3, "stock": 1},
    {"name": "Ben", "cards": ["s1", "bi"], "impostors": [1], "invested": 2, "stock": 2}]}
#: RULES-CORUSCANT.md's settlement example 3: a tie draw, then Ben's positive card wins.
CORUSCANT_ROW_3 = {"rules": "coruscant", "target": {"number": 0, "suit": "triangle"}, "players": [
    {"name": "Ana", "cards": ["ci+4", "sq-4"], "committed": 8, "stack": 50},
    {"name": "Ben", "cards": ["ci+1", "sq-1"], "committed": 8, "stack": 50}]}


@pytest.fixture
def doc(client):
    return client.get("/api/v1/openapi.json").get_json()


def validator(doc: dict[str, Any], name: str) -> jsonschema_rs.Draft202012Validator:
    return jsonschema_rs.Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": doc["components"]})


def test_the_endpoint_takes_the_request_of_every_game_with_a_calculator(doc):
    op = doc["paths"]["/api/v1/settle"]["post"]
    body = op["requestBody"]["content"]["application/json"]
    assert body["schema"] == {"$ref": "#/components/schemas/CalculatorRequest"}
    refs = [r["$ref"] for r in doc["components"]["schemas"]["CalculatorRequest"]["anyOf"]]
    assert sorted(refs) == ["#/components/schemas/CoruscantRequest", "#/components/schemas/KesselRequest",
                            "#/components/schemas/SettleRequest"]
    assert {"reveal", "kessel", "coruscant"} <= set(body["examples"])
    assert "Kessel Sabacc" in op["description"] and "Coruscant Shift" in op["description"]
    kessel = doc["components"]["schemas"]["KesselRequest"]
    assert set(kessel["properties"]) == {"rules", "players", "effects", "credits_pot", "discards"}
    assert set(kessel["properties"]["players"]["items"]["properties"]) == {"name", "cards", "impostors", "invested",
                                                                           "stock"}
    coruscant = doc["components"]["schemas"]["CoruscantRequest"]
    assert coruscant["properties"]["target"]["properties"]["number"]["enum"] == [-10, -5, 0, 5, 10]
    assert "tie_draw" in coruscant["properties"]["players"]["items"]["properties"]


@pytest.mark.parametrize("example", ["reveal", "kessel", "coruscant"])
def test_each_documented_example_is_a_valid_request_the_server_settles(client, doc, example):
    body = doc["paths"]["/api/v1/settle"]["post"]["requestBody"]["content"]["application/json"]["examples"][example]
    validator(doc, "CalculatorRequest").validate(body["value"])
    r = client.post(URL, json=body["value"])
    assert r.status_code == 200, r.get_json()
    validator(doc, "CalculatorResult").validate(r.get_json())


def test_kessel_answers_match_the_documented_answer(client, doc):
    for request, after in ((KESSEL_ROW_4, {"Ana": 4, "Ben": 3, "Cas": 0}), (KESSEL_ROW_5, {"Ana": 0, "Ben": 4})):
        validator(doc, "KesselRequest").validate(request)
        answer = client.post(URL, json=request).get_json()
        assert answer["chips_after"] == after
        validator(doc, "KesselResult").validate(answer)
    assert answer["game_over"] is True and answer["credits_payouts"] == {"Ana": 0, "Ben": 100}
    # a Kessel request is no classic request, and the other way round
    assert not validator(doc, "SettleRequest").is_valid(KESSEL_ROW_4)
    assert not validator(doc, "KesselRequest").is_valid(CORUSCANT_ROW_3)


def test_coruscant_tie_draw_and_settlement_match_the_documented_answer(client, doc):
    validator(doc, "CoruscantRequest").validate(CORUSCANT_ROW_3)
    asked = client.post(URL, json=CORUSCANT_ROW_3).get_json()
    assert asked["status"] == "tie_draw" and asked["tie_draw_players"] == ["Ana", "Ben"]
    validator(doc, "CoruscantResult").validate(asked)
    drawn = {**CORUSCANT_ROW_3, "players": [{**CORUSCANT_ROW_3["players"][0], "tie_draw": ["tr-7"]},
                                            {**CORUSCANT_ROW_3["players"][1], "tie_draw": ["sq+7"]}]}
    validator(doc, "CoruscantRequest").validate(drawn)
    settled = client.post(URL, json=drawn).get_json()
    assert settled["payouts"] == {"Ana": 0, "Ben": 16}
    validator(doc, "CoruscantResult").validate(settled)
    validator(doc, "CalculatorResult").validate(settled)


@dataclass(frozen=True)
class CoinRules:
    name: str
    title: str = "Coin toss"
    summary: str = "Heads or tails."


def _coin_answer(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict) or body.get("call") not in ("heads", "tails"):
        raise InvalidRequest('call is "heads" or "tails"', "call")
    return {"won": body["call"] == "heads"}


def _coin_schema() -> CalculatorSchema:
    return CalculatorSchema(
        "CoinRequest", "CoinResult",
        {"CoinRequest": {"type": "object", "required": ["rules", "call"], "additionalProperties": False,
                         "properties": {"rules": {"const": "cointoss"}, "call": {"enum": ["heads", "tails"]}}},
         "CoinResult": {"type": "object", "required": ["won"], "properties": {"won": {"type": "boolean"}}}},
        "Coin toss: heads wins.", {"coin": {"summary": "Heads", "value": {"rules": "cointoss", "call": "heads"}}})


def test_a_plug_in_game_with_a_calculator_is_documented_with_no_edit_outside_it(client):
    """The document is written once (the server then answers with the same bytes) and again
    when a game comes or goes: a plug-in registered after the document was served shows in it."""
    served = client.get("/api/v1/openapi.json").data
    assert client.get("/api/v1/openapi.json").data == served and b"CoinRequest" not in served
    game = Game(name="cointoss", title="Coin toss", summary="Heads or tails.",
                presets={"cointoss": CoinRules("cointoss")}, options={},
                rules_from=lambda spec, field="rules": CoinRules("cointoss"), engine=lambda: object, decks={},
                explain=lambda rules: [], calculator=_coin_answer, calculator_schema=_coin_schema)
    undo = registry.register(game)
    try:
        doc = client.get("/api/v1/openapi.json").get_json()
        refs = [r["$ref"] for r in doc["components"]["schemas"]["CalculatorRequest"]["anyOf"]]
        assert refs[-1] == "#/components/schemas/CoinRequest"
        assert "Coin toss: heads wins." in doc["paths"]["/api/v1/settle"]["post"]["description"]
        r = client.post(URL, json={"rules": "cointoss", "call": "heads"})
        assert r.status_code == 200 and r.get_json() == {"won": True}
        validator(doc, "CalculatorResult").validate(r.get_json())
    finally:
        undo()
    doc = client.get("/api/v1/openapi.json").get_json()
    assert "CoinRequest" not in doc["components"]["schemas"]


def test_the_calculator_page_offers_every_game_with_its_declared_form(client):
    import html
    import json
    import re

    page = client.get("/calculator").get_data(as_text=True)
    offered = {value: json.loads(html.unescape(game)) for value, game in
               re.findall(r'<option value="([^"]+)" data-summary="[^"]*" data-game="([^"]+)"', page)}
    games = {name: g["game"] for name, g in offered.items()}
    assert {games[p] for p in ("classic", "spike", "kessel", "coruscant")} == {"classic", "spike", "kessel",
                                                                                "coruscant"}
    # Each game's form is its own: Kessel's players invest chips, Coruscant's round has a target,
    # and only classic's players call.
    keys = {name: [f["key"] for f in g["form"]["player"]] for name, g in offered.items()}
    assert "invested" in keys["kessel"] and "called" not in keys["kessel"]
    assert [f["key"] for f in offered["coruscant"]["form"]["fields"]] == ["target.number", "target.suit"]
    assert "called" in keys["classic"] and "called" not in keys["spike"]
    assert offered["coruscant-starcruiser"]["deck"] == "coruscant"
