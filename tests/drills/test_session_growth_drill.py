"""An action costs the same late in the evening as at its start (the benchmark's growth_ratio):
what the API answers and streams does not grow with the number of hands played, and a
command's working copy does not copy the whole session. Sizes and object identity, not
timings; and the sizes compared are only what does not vary with how the hands went (issue 14
item 11: a margin for run-to-run variation broke twice), so the check is exact on any machine."""

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


def deterministic(answer: dict) -> dict:
    """What of an answer does not depend on how the hands went: the numbers written as 0 (a
    stack of 18 or 1,018, a version of 400 or 1,200), the hand in play and the latest hands'
    rows left out (their rolls, words, settlements and cards vary with play; their count is
    bounded, checked below), and a seat's own legal moves (they depend on its stack)."""

    def zero(v):
        if isinstance(v, dict):
            return {k: zero(x) for k, x in v.items()}
        if isinstance(v, list):
            return [zero(x) for x in v]
        return 0 if isinstance(v, (int, float)) and not isinstance(v, bool) else v

    out = dict(answer)
    state = dict(out.pop("state"))
    assert len(state["hands"]) <= VIEW_HISTORY
    for varying in ("hands", "hand"):
        state.pop(varying)
    if "you" in state:
        state["you"] = {k: v for k, v in state["you"].items() if k != "legal"}
    out["state"] = state
    return zero(out)


def sizes(client, code, tokens) -> dict[str, int]:
    """Bytes of the deterministic part of the state answer for each viewer, and of one
    action's answer."""
    out = {}
    for who, token in tokens.items():
        resp = client.get(f"/api/v1/tables/{code}", headers={"Authorization": f"Bearer {token}"})
        out[who] = len(json.dumps(deterministic(resp.get_json()), separators=(",", ":"), ensure_ascii=False))
    resp = client.post(f"/api/v1/tables/{code}/commands", json={"type": "adjust", "seat": "s1", "amount": 1, "reason": "tip"},
                       headers={"Authorization": f"Bearer {tokens['host']}"})
    assert resp.status_code == 200
    out["action"] = len(json.dumps(deterministic(resp.get_json()), separators=(",", ":"), ensure_ascii=False))
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
        # Exactly the same: a row per hand (~90 bytes each) would show; digits do not count.
        assert big[who] == small[who], (who, small[who], big[who])
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


def test_item11_the_size_check_compares_only_what_is_deterministic():
    """Two answers that differ only in how the hands went (digits of the stacks, the hand in
    play, the latest hands' rows, the seat's legal moves) compare equal; one more stack-chart
    row does not."""
    row = {"hand": 7, "stacks": {"s1": 18, "s2": 22}, "sabacc_pot": 3}
    one = {"version": 40, "state": {"stack_history": [row], "hands": [{"hand": 7, "cards": None}],
                                    "hand": {"words": "Han: bet or check."}, "seats": [{"stack": 18}],
                                    "you": {"seat": "s1", "legal": [{"type": "cash_out"}]}}}
    other = {"version": 1040, "state": {"stack_history": [{**row, "stacks": {"s1": 1018, "s2": 0}}],
                                        "hands": [{"hand": 70, "cards": {"s1": ["sa1", "co2"]}}],
                                        "hand": {"words": "The reveal: waiting for Han."},
                                        "seats": [{"stack": 1018}], "you": {"seat": "s1", "legal": []}}}
    dumps = lambda a: json.dumps(deterministic(a))  # noqa: E731
    assert dumps(one) == dumps(other)
    grown = json.loads(json.dumps(one))
    grown["state"]["stack_history"].append(row)
    assert len(dumps(grown)) > len(dumps(one))
