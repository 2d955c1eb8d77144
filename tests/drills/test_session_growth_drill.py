"""An action costs the same late in the evening as at its start (the benchmark's growth_ratio):
what the API answers and streams does not grow with the number of hands played, and a
command's working copy does not copy the whole session. Sizes and object identity, not
timings, so the check is exact on any machine."""

from __future__ import annotations

import json

from companion.bench.play import build_session, play_hand
from companion.scrambler.dice import SoftwareRoller
from companion.server import create_app
from companion.table.engine import Refused
from companion.table.owner import VIEW_HISTORY
from companion.table.registry import Registry

MID = VIEW_HISTORY + 5  # hands: just past the rows of the stack chart a view carries
LONG = 3 * MID


def sizes(client, code, tokens) -> dict[str, int]:
    """Bytes of the state answer for each viewer, and of one action's answer."""
    out = {}
    for who, token in tokens.items():
        resp = client.get(f"/api/v1/tables/{code}", headers={"Authorization": f"Bearer {token}"})
        # The latest hands' rows (each with its settlement and cards) vary with how each hand
        # went, not with how many were played: their count is bounded (checked below), their
        # bytes left out here.
        state = resp.get_json()["state"]
        assert len(state["hands"]) <= VIEW_HISTORY
        # The hand in play is one hand whatever came before it (its rolls and shift words
        # vary with how it goes): left out as well.
        varying = {"hands": state["hands"], "hand": state["hand"]}
        out[who] = len(resp.data) - len(json.dumps(varying, separators=(",", ":"), ensure_ascii=False))
    resp = client.post(f"/api/v1/tables/{code}/commands", json={"type": "adjust", "seat": "s1", "amount": 1, "reason": "tip"},
                       headers={"Authorization": f"Bearer {tokens['host']}"})
    assert resp.status_code == 200
    out["action"] = len(resp.data)
    return out


def test_answers_late_in_the_session_are_no_bigger_than_earlier(tmp_path):
    reg = Registry(tmp_path / "data")
    reg.ledger._db.execute("PRAGMA synchronous=OFF")  # preparing, not measuring
    short, short_host, short_tokens = build_session(reg, {"rules": "weg"}, ["Lando", "Han", "Leia"], MID)
    long, long_host, long_tokens = build_session(reg, {"rules": "weg"}, ["Lando", "Han", "Leia"], LONG)
    assert long.table.view(None)["hand_no"] == LONG
    reg.ledger.close()
    client = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")}).test_client()
    small = sizes(client, short.code, {"host": short_host, **short_tokens})
    big = sizes(client, long.code, {"host": long_host, **long_tokens})
    for who in small:
        # A few more digits in counters and stacks, never a row per hand (~90 bytes each).
        assert big[who] < small[who] + 400, (who, small[who], big[who])
    state = client.get(f"/api/v1/tables/{long.code}").get_json()["state"]
    assert len(state["stack_history"]) == VIEW_HISTORY and state["stack_history"][-1]["hand"] == LONG
    assert len(state["hands"]) == VIEW_HISTORY and state["hands"][-1]["hand"] == LONG
    # The whole session is still there for the history page.
    assert len(long.view(None)[1]["stack_history"]) == LONG


def test_a_commands_working_copy_shares_the_settled_history(tmp_path):
    reg = Registry(tmp_path / "data")
    reg.ledger._db.execute("PRAGMA synchronous=OFF")
    owner, _, _ = build_session(reg, {"rules": "weg"}, ["Lando", "Han"], 5)
    table = owner.table
    twin = table.copy()
    rows, twin_rows = table.view(None)["stack_history"], twin.view(None)["stack_history"]
    assert twin_rows == rows and all(a is b for a, b in zip(rows[:-1], twin_rows[:-1]))
    # ...and yet the twin is independent: playing on it leaves the original as it was.
    before = json.dumps(table.to_json())
    roller = SoftwareRoller()

    def act(actor, entry):
        trigger = twin.roll_needed(entry)
        if trigger is not None:
            entry = {**entry, "dice": list(roller.dice(trigger))}
        try:
            twin.apply(entry, actor)
        except Refused:
            return False, twin.view(None)
        return True, twin.view(None)

    for _ in play_hand(act, twin.view(None)):
        pass
    assert twin.view(None)["hand_no"] == 6 and json.dumps(table.to_json()) == before
    reg.ledger.close()
