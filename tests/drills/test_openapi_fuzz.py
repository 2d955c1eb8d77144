"""Schemathesis against the OpenAPI document: generated requests for every operation, on a
server with a real table in it. No request may get a 500, and every response must match the
document (status code listed, content type, body schema, headers)."""

from __future__ import annotations

import tempfile

import schemathesis
from hypothesis import HealthCheck, settings

from companion.server import create_app

# A short heartbeat: schemathesis reads an event stream until a time limit, checked as
# messages arrive, so a quiet stream must still send something often.
APP = create_app({"TESTING": True, "DATA_DIR": tempfile.mkdtemp(prefix="sabacc-fuzz-"),
                  "SSE_HEARTBEAT_S": 0.05})
_client = APP.test_client()
_created = _client.post("/api/v1/tables", json={"rules": "weg"}).get_json()
CODE, HOST = _created["code"], _created["host_token"]
_seat = _client.post(f"/api/v1/tables/{CODE}/join", json={"name": "Lando"}).get_json()
SEAT_TOKEN = _seat["token"]

schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_generated_request_is_answered_as_the_document_says(case):
    # Half the cases aim at the real table, as the host or a seat, so that generated bodies
    # reach the engine instead of stopping at a 404 for an unknown code.
    if case.path_parameters and "code" in case.path_parameters and hash(repr(case.body)) % 2 == 0:
        case.path_parameters["code"] = CODE
        token = HOST if hash(repr(case.query)) % 2 == 0 else SEAT_TOKEN
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    # The schema cannot say every rule of the game (a reveal needs at least two cards, a bet
    # must be the turn player's): a 4xx for schema-valid data is right, so that one check is off.
    # An event stream never ends by itself: read each one for half a second.
    extra = {"timeout": 0.5} if case.path.endswith("/events") else {}
    case.call_and_validate(excluded_checks=[schemathesis.checks.positive_data_acceptance], **extra)
