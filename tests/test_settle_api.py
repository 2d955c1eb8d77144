"""`POST /api/v1/settle` (SETTLE-API.md): the contract, and a 422 for every invalid input."""

from __future__ import annotations

import copy
import json

import jsonschema_rs
import pytest

URL = "/api/v1/settle"

EXAMPLE = {
    "rules": "classic",
    "players": [
        {"name": "Lando", "cards": ["co7", "sa11", "fl9"], "committed": 30, "stack": 120},
        {"name": "Han", "cards": ["idiot", "st2", "co3"], "committed": 30, "stack": 45, "called": True},
        {"name": "Chewie", "cards": [], "committed": 10, "stack": 80, "folded": True},
    ],
    "sabacc_pot": 40,
}

# Leia 10 + 9 = 19 and Luke 10 + 9 = 19: a sudden demise
TIED = {
    "rules": "classic",
    "players": [
        {"name": "Leia", "cards": ["co10", "sa9"], "committed": 20},
        {"name": "Luke", "cards": ["fl10", "st9"], "committed": 20, "called": True},
    ],
    "sabacc_pot": 0,
}


def body_with(base, path, value):
    """A copy of `base` with the field at `path` (a tuple of keys/indices) set or deleted."""
    body = copy.deepcopy(base)
    target = body
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return body


DELETE = object()


@pytest.fixture
def schema(client):
    """A validator factory for the OpenAPI document's component schemas."""
    doc = client.get("/api/v1/openapi.json").get_json()

    def validator(name):
        return jsonschema_rs.Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": doc["components"]})

    return validator


def test_the_api_example_settles_exactly_as_documented(client, schema):
    r = client.post(URL, json=EXAMPLE)
    assert r.status_code == 200
    assert r.get_json() == {
        "status": "settled",
        "hands": [
            {"name": "Lando", "total": 27, "kind": "bomb_out"},
            {"name": "Han", "total": 5, "kind": "idiots_array"},
            {"name": "Chewie", "total": None, "kind": "folded"},
        ],
        "pots": [{"amount": 70, "eligible": ["Lando", "Han"], "winners": ["Han"], "to_sabacc_pot": False}],
        "sabacc_pot_winners": ["Han"],
        "penalties": [{"name": "Lando", "reason": "bomb_out", "amount": 70, "shortfall": 0}],
        "sabacc_pot_after": 70,
        "payouts": {"Lando": -70, "Han": 110, "Chewie": 0},
    }
    assert list(r.get_json()) == ["status", "hands", "pots", "sabacc_pot_winners", "penalties",
                                  "sabacc_pot_after", "payouts"]
    schema("SettleResult").validate(r.get_json())


def test_sudden_demise_is_a_two_step_exchange(client, schema):
    r = client.post(URL, json=TIED)
    assert r.status_code == 200
    asked = r.get_json()
    assert asked["status"] == "sudden_demise" and asked["demise_players"] == ["Leia", "Luke"]
    assert "pots" not in asked and "payouts" not in asked and "penalties" not in asked
    schema("SettleResult").validate(asked)
    body = copy.deepcopy(TIED)
    body["players"][0]["demise"] = ["sa2"]  # 21
    body["players"][1]["demise"] = ["co8"]  # 27: bombs out in the demise
    r = client.post(URL, json=body)
    out = r.get_json()
    assert out["status"] == "settled" and out["pots"][0]["winners"] == ["Leia"]
    # Luke called and won nothing: he pays the hand pot as the caller, not as a bomb-out
    assert out["penalties"] == [{"name": "Luke", "reason": "caller_lost", "amount": 40, "shortfall": 0}]
    assert out["payouts"] == {"Leia": 40, "Luke": -40}
    schema("SettleResult").validate(out)


def test_rules_as_an_object_with_options_and_codes_in_any_case(client):
    body = body_with(EXAMPLE, ("rules",), {"preset": "weg", "bomb_out_penalty": 5})
    body["players"][0]["cards"] = ["CO7", "Sa11", "fl9"]
    out = client.post(URL, json=body).get_json()
    assert out["penalties"] == [{"name": "Lando", "reason": "bomb_out", "amount": 5, "shortfall": 0}]
    assert out["sabacc_pot_after"] == 5


def test_stack_omitted_or_null_means_no_cap(client):
    body = body_with(EXAMPLE, ("players", 0, "stack"), None)
    assert client.post(URL, json=body).get_json()["payouts"]["Lando"] == -70
    body = body_with(EXAMPLE, ("players", 0, "stack"), 3)
    out = client.post(URL, json=body).get_json()
    assert out["penalties"][0] == {"name": "Lando", "reason": "bomb_out", "amount": 3, "shortfall": 67}


def test_force_sabacc_sides_through_the_api(client):
    body = {
        "rules": {"preset": "classic", "force_sabacc": True},
        "players": [
            {"name": "Luke", "cards": ["sa10", "co13"], "committed": 10, "side": "light"},  # +23
            {"name": "Vader", "cards": ["fl10", "st12"], "committed": 10, "side": "dark"},  # -22
        ],
        "sabacc_pot": 5,
    }
    out = client.post(URL, json=body).get_json()
    assert out["hands"][1] == {"name": "Vader", "total": -22, "kind": "ordinary"}
    assert out["payouts"] == {"Luke": 25, "Vader": 0}


def test_holdem_static_through_the_api(client):
    body = {
        "rules": {"preset": "classic", "holdem": True},
        "players": [
            {"name": "Lando", "cards": ["co10", "sa8"], "committed": 10},  # 18 + Han's fl5 = 23
            {"name": "Han", "cards": ["fl5", "st2"], "committed": 10, "static": ["fl5"]},
        ],
        "sabacc_pot": 0,
    }
    assert client.post(URL, json=body).get_json()["hands"][0] == {"name": "Lando", "total": 23, "kind": "pure_sabacc"}


def tied_with_demise(**cards):
    body = copy.deepcopy(TIED)
    for i, code in cards.items():
        body["players"][int(i[1:])]["demise"] = code
    return body


INVALID = [
    # (rule it checks, body, field)
    ("unknown card", body_with(EXAMPLE, ("players", 1, "cards", 2), "co16"), "players[1].cards[2]"),
    ("card code not a string", body_with(EXAMPLE, ("players", 0, "cards", 0), 7), "players[0].cards[0]"),
    ("too many copies across the table", body_with(EXAMPLE, ("players", 1, "cards", 0), "co7"), "players[1].cards[0]"),
    ("too many copies counting demise cards", tied_with_demise(p0=["sa2"], p1=["sa9"]), "players[1].demise[0]"),
    ("three idiots", body_with(body_with(EXAMPLE, ("players", 0, "cards"), ["idiot", "idiot"]),
                               ("players", 1, "cards"), ["idiot", "st2", "co3"]), "players[1].cards[0]"),
    ("revealed hand under two cards", body_with(EXAMPLE, ("players", 0, "cards"), ["co7"]), "players[0].cards"),
    ("negative committed", body_with(EXAMPLE, ("players", 0, "committed"), -1), "players[0].committed"),
    ("fractional committed", body_with(EXAMPLE, ("players", 0, "committed"), 30.5), "players[0].committed"),
    ("whole float committed", body_with(EXAMPLE, ("players", 0, "committed"), 30.0), "players[0].committed"),
    ("string committed", body_with(EXAMPLE, ("players", 0, "committed"), "30"), "players[0].committed"),
    ("bool committed", body_with(EXAMPLE, ("players", 0, "committed"), True), "players[0].committed"),
    ("negative stack", body_with(EXAMPLE, ("players", 2, "stack"), -5), "players[2].stack"),
    ("negative sabacc pot", body_with(EXAMPLE, ("sabacc_pot",), -1), "sabacc_pot"),
    ("bool sabacc pot", body_with(EXAMPLE, ("sabacc_pot",), False), "sabacc_pot"),
    ("huge committed", body_with(EXAMPLE, ("players", 0, "committed"), 10**15), "players[0].committed"),
    ("huge fixed penalty", body_with(EXAMPLE, ("rules",), {"preset": "classic", "bomb_out_penalty": 10**15}),
     "rules.bomb_out_penalty"),
    ("two callers", body_with(EXAMPLE, ("players", 0, "called"), True), "players[1].called"),
    ("a folded caller", body_with(body_with(EXAMPLE, ("players", 1, "called"), False), ("players", 2, "called"), True),
     "players[2].called"),
    ("duplicate names", body_with(EXAMPLE, ("players", 2, "name"), "Lando"), "players[2].name"),
    ("empty name", body_with(EXAMPLE, ("players", 0, "name"), ""), "players[0].name"),
    ("blank name", body_with(EXAMPLE, ("players", 0, "name"), "   "), "players[0].name"),
    ("name over 24 characters", body_with(EXAMPLE, ("players", 0, "name"), "L" * 25), "players[0].name"),
    ("name not a string", body_with(EXAMPLE, ("players", 0, "name"), 12), "players[0].name"),
    ("unknown option", body_with(EXAMPLE, ("rules",), {"preset": "classic", "jokers": True}), "rules.jokers"),
    ("unknown preset", body_with(EXAMPLE, ("rules",), "vegas"), "rules"),
    ("unknown preset in an object", body_with(EXAMPLE, ("rules",), {"preset": "vegas"}), "rules.preset"),
    ("bad option value", body_with(EXAMPLE, ("rules",), {"preset": "classic", "holdem": "yes"}), "rules.holdem"),
    ("another game's option", body_with(EXAMPLE, ("rules",), {"preset": "spike", "static_field": "free"}),
     "rules.static_field"),
    ("rules of the wrong type", body_with(EXAMPLE, ("rules",), 42), "rules"),
    ("players not a list", body_with(EXAMPLE, ("players",), {"Lando": {}}), "players"),
    ("player not an object", body_with(EXAMPLE, ("players", 1), "Han"), "players[1]"),
    ("cards not a list", body_with(EXAMPLE, ("players", 0, "cards"), "co7 sa11"), "players[0].cards"),
    ("folded not a boolean", body_with(EXAMPLE, ("players", 2, "folded"), "yes"), "players[2].folded"),
    ("called not a boolean", body_with(EXAMPLE, ("players", 1, "called"), 1), "players[1].called"),
    ("unneeded demise card", body_with(EXAMPLE, ("players", 0, "demise"), ["co1"]), "players[0].demise"),
    ("demise card for a player outside the demise",
     body_with(tied_with_demise(p0=["sa2"], p1=["co8"]), ("players",), TIED["players"] + [
         {"name": "Rey", "cards": ["co2", "co4"], "committed": 20, "demise": ["co5"]}]), "players[2].demise"),
    ("two demise cards", tied_with_demise(p0=["sa2", "co1"], p1=["co8"]), "players[0].demise"),
    ("empty demise list", tied_with_demise(p0=[], p1=["co8"]), "players[0].demise"),
    ("missing sabacc_pot", body_with(EXAMPLE, ("sabacc_pot",), DELETE), "sabacc_pot"),
    ("missing rules", body_with(EXAMPLE, ("rules",), DELETE), "rules"),
    ("missing players", body_with(EXAMPLE, ("players",), DELETE), "players"),
    ("missing committed", body_with(EXAMPLE, ("players", 1, "committed"), DELETE), "players[1].committed"),
    ("missing cards", body_with(EXAMPLE, ("players", 1, "cards"), DELETE), "players[1].cards"),
    ("missing name", body_with(EXAMPLE, ("players", 1, "name"), DELETE), "players[1].name"),
    ("fewer than two players", body_with(EXAMPLE, ("players",), EXAMPLE["players"][:1]), "players"),
    ("more than twelve players", body_with(EXAMPLE, ("players",), [
        {"name": f"P{i}", "cards": [], "committed": 0, "folded": True} for i in range(13)]), "players"),
    ("every player folded", body_with(EXAMPLE, ("players",), [
        {"name": f"P{i}", "cards": [], "committed": 1, "folded": True} for i in range(3)]), "players"),
    ("unknown top-level field", body_with(EXAMPLE, ("table",), 1), "table"),
    ("unknown player field", body_with(EXAMPLE, ("players", 0, "comitted"), 30), "players[0].comitted"),
    ("body not an object", ["rules", "classic"], "body"),
    ("side without Force Sabacc", body_with(EXAMPLE, ("players", 0, "side"), "light"), "players[0].side"),
    ("static without Hold 'Em", body_with(EXAMPLE, ("players", 0, "static"), ["co7"]), "players[0].static"),
]


def force_body(**sides):
    return {
        "rules": {"preset": "classic", "force_sabacc": True},
        "players": [
            {"name": "Luke", "cards": ["sa10", "co13"], "committed": 10, **sides.get("luke", {"side": "light"})},
            {"name": "Vader", "cards": ["fl10", "st12"], "committed": 10, **sides.get("vader", {})},
        ],
        "sabacc_pot": 0,
    }


INVALID += [
    ("Force Sabacc missing side", force_body(), "players[1].side"),
    ("Force Sabacc unknown side", force_body(vader={"side": "grey"}), "players[1].side"),
    ("Force Sabacc side of the wrong type", force_body(vader={"side": 1}), "players[1].side"),
    ("Corellia Run set-aside face card",
     body_with(body_with(EXAMPLE, ("rules",), {"preset": "classic", "corellia_run": True}),
               ("players", 0, "cards"), ["co7", "star"]), "players[0].cards[1]"),
    ("Hold 'Em static card not in the hand",
     body_with(body_with(EXAMPLE, ("rules",), {"preset": "classic", "holdem": True}),
               ("players", 0, "static"), ["co8"]), "players[0].static[0]"),
    ("Hold 'Em static not a list",
     body_with(body_with(EXAMPLE, ("rules",), {"preset": "classic", "holdem": True}),
               ("players", 0, "static"), "co7"), "players[0].static"),
]


@pytest.mark.parametrize("rule, body, field", INVALID, ids=[case[0] for case in INVALID])
def test_invalid_input_is_a_422_naming_the_field(client, schema, rule, body, field):
    r = client.post(URL, json=body)
    assert r.status_code == 422, r.get_json()
    out = r.get_json()
    assert out["field"] == field
    assert isinstance(out["error"], str) and out["error"]
    schema("Error").validate(out)


def test_not_json_is_a_415(client):
    r = client.post(URL, data=json.dumps(EXAMPLE), content_type="text/plain")
    assert r.status_code == 415 and r.get_json()["field"] == "body" and r.get_json()["error"]


def test_broken_json_is_a_400(client):
    r = client.post(URL, data='{"rules": "classic",', content_type="application/json")
    assert r.status_code == 400 and r.get_json()["field"] == "body" and r.get_json()["error"]


def test_deeply_nested_json_is_a_400_not_a_500(client):
    r = client.post(URL, data="[" * 100_000 + "]" * 100_000, content_type="application/json")
    assert r.status_code in (400, 413) and r.get_json()["error"]


def test_oversized_body_is_a_413(client, schema):
    r = client.post(URL, data=" " * (300 * 1024) + "{}", content_type="application/json")
    assert r.status_code == 413 and r.get_json()["error"]
    schema("Error").validate(r.get_json())


def test_a_refused_request_changes_nothing_and_the_same_body_settles_once_fixed(client):
    bad = body_with(EXAMPLE, ("players", 0, "cards", 0), "co99")
    assert client.post(URL, json=bad).status_code == 422
    assert client.post(URL, json=EXAMPLE).get_json()["sabacc_pot_after"] == 70


def test_openapi_documents_every_status_of_the_endpoint(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    op = doc["paths"]["/api/v1/settle"]["post"]
    assert set(op["responses"]) == {"200", "400", "413", "415", "422"}
    request_schema = doc["components"]["schemas"]["SettleRequest"]
    assert request_schema["additionalProperties"] is False
    assert set(request_schema["required"]) == {"rules", "players", "sabacc_pot"}
    # the request example of SETTLE-API.md is valid against the documented request schema
    jsonschema_rs.Draft202012Validator(
        {"$ref": "#/components/schemas/SettleRequest", "components": doc["components"]}
    ).validate(EXAMPLE)


# Schemathesis: every response to generated requests (valid and invalid) matches the document.

import schemathesis  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from conftest import examples  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance, unsupported_method  # noqa: E402


def _app_for_schemathesis():
    """An app of its own (Schemathesis needs the schema when the module is collected)."""
    import tempfile

    from companion.server import create_app

    return create_app({"TESTING": True, "DATA_DIR": tempfile.mkdtemp(prefix="settle-api-")})


settle_schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", _app_for_schemathesis())


@settle_schema.include(path="/api/v1/settle").parametrize()
@settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))
def test_every_settle_response_matches_the_openapi_document(case):
    # Excluded checks: positive_data_acceptance, because a schema cannot say "no card twice
    # across the table" or "names unique", so schema-valid bodies can rightly get a 422;
    # unsupported_method (the 405's Allow header) belongs to the shared error handler.
    case.call_and_validate(excluded_checks=[positive_data_acceptance, unsupported_method])
