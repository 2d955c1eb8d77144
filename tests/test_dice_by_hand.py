"""Issue 15: "the host enters dice by hand for every roll of a hand". The dice are marked as
entered by hand in the ledger (the `rolled` event's roll), on the audit page, in the hand's
history words and in `verify`'s words ("rolled by hand, not from the seed"); a hand rolled by
the scrambler alone still verifies."""

from __future__ import annotations

import json

from companion.cli import main as cli_main
from companion.scrambler.seed import HAND_WORDS, SeededRoller, verify, verify_chain
from companion.server import create_app
from companion.table.owner import HOST
from companion.table.registry import registry_for
from test_ledger import legal_moves


def _play(owner, by_hand: bool) -> None:
    """Passive play to the end of a hand; every roll entered by the host by hand (or not)."""
    for _ in range(300):
        if owner.view()[1]["hand"]["stage"] == "settled":
            return
        moves = [m for m in legal_moves(owner) if m[1]["type"] in ("reveal", "check", "call", "no_call", "roll", "call_hand")
                 or m[1].get("action") == "stand"]
        actor, entry = moves[0]
        if entry["type"] == "roll" and by_hand:
            actor, entry = HOST, {"type": "roll", "dice": [3]}  # weg: one d6
        owner.submit(entry, actor)
    raise AssertionError("the hand did not end")


def test_the_host_enters_dice_by_hand_for_every_roll_and_every_record_says_so(tmp_path, capsys):
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "ROLLER_FACTORY": SeededRoller})
    reg = registry_for(app)
    try:
        owner, _ = reg.create({"rules": "weg"}, owner_token=True)
        for name in ("Lando", "Han", "Leia"):
            seat = owner.join(name).seat
            owner.submit({"type": "buy_in", "amount": 100}, seat)
        owner.submit({"type": "start_hand"}, HOST)
        _play(owner, by_hand=False)  # hand 1: the scrambler's own rolls
        owner.submit({"type": "start_hand"}, HOST)
        _play(owner, by_hand=True)  # hand 2: every roll entered by the host
        log = [owner.log_entry(e, None) for e in owner.ledger.entries(owner.code)]
        rolls = [(e["actor"], ev["roll"]) for e in log for ev in e["events"] if ev.get("type") == "rolled"]
        assert any(r.get("by_hand") for _, r in rolls), "no roll entered by hand"
        # The ledger marks exactly the host's rolls.
        assert all(bool(r.get("by_hand")) == (actor == HOST) for actor, r in rolls)

        chain = verify_chain(log)
        assert not chain.ok
        assert chain.problems and all(p.startswith("hand 2:") and HAND_WORDS in p for p in chain.problems)

        client = app.test_client()
        audit = client.get(f"/t/{owner.code}/audit").get_data(as_text=True)
        assert "rolled by hand, not from the seed" in audit and 'data-by-hand="1"' in audit
        # The hand's history says so for hand 2, not for hand 1.
        history = client.get(f"/t/{owner.code}/history").get_data(as_text=True)
        assert HAND_WORDS in history and history.count('class="by-hand"') == 1
        # The hand's entries in words (the audit log's rows, the host console's recent entries).
        from companion.server.host_pages import event_words
        words = [event_words(ev, {}) for e in log for ev in e["events"] if ev.get("type") == "rolled"]
        assert sum(HAND_WORDS in w for w in words) == sum(1 for a, _ in rolls if a == HOST)

        # `sabacc-companion verify` says it in words, from the record the audit page links.
        from companion.scrambler.seed import hand_records
        hand = hand_records(log)[1]
        record = tmp_path / "hand-2.json"
        record.write_text(json.dumps(hand))
        assert cli_main(["verify", "--record", str(record)]) == 1
        assert HAND_WORDS in capsys.readouterr().err
        first = hand_records(log)[0]
        assert verify(first["seed"], first["commitment"], first["rolls"]).ok
        roll = hand["rolls"][0]
        argv = ["verify", "--seed", hand["seed"], "--commitment", hand["commitment"],
                "--roll", f"{roll['trigger']}:{','.join(map(str, roll['dice']))}:by-hand"]
        assert cli_main(argv) == 1 and HAND_WORDS in capsys.readouterr().err
    finally:
        reg.close()
