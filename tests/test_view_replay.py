"""Every viewer's stream, byte for byte, on recorded sessions (issue 19).

The fixture `fixtures/session-views.json.gz` holds, for one session per preset, the ledger
entries of a randomly played evening (5 seats, a few hands: bets, raises, folds, all-ins,
draws, static fields, shifts, reveals, sudden demises, rebuys, host adjustments and undos)
and the exact text every event stream received: the public view (spectators, the display,
the scrambler link), the host console and each of the 5 seats. It was recorded from main
before the publish path was rebuilt for speed; this test replays the same entries through a
`TableOwner` and compares each viewer's messages with it, so a faster publish path must send
the same bytes.

To record it again (only when a view is meant to change, and say so in the commit)::

    .venv/bin/python tests/test_view_replay.py --record
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.refusal import Refused
from companion.games.classic.cards import CARDS
from companion.table.ledger import UNDO, Ledger
from companion.table.owner import HOST, TableOwner

FIXTURE = Path(__file__).parent / "fixtures" / "session-views.json.gz"
PRESETS = ("weg", "classic", "holodex", "pagat", "pagat-d6")
NAMES = ["Lando", "Han", "Leia", "Chewie", "Qi'ra"]
HANDS = 3
CARD_CODES = [c.code for c in CARDS.values()]


class ScriptRoller:
    """Dice from a seeded random source (recording), or none at all (replay: the recorded
    roll entries carry their dice)."""

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng

    def dice(self, trigger: Any) -> tuple[int, ...]:
        from companion.scrambler.dice import shape

        if self.rng is None:
            raise AssertionError("a replayed roll must carry its dice")
        count, sides = shape(trigger)
        return tuple(self.rng.randint(1, sides) for _ in range(count))


def _viewers(seats: list[str]) -> dict[str, tuple[str | None, bool]]:
    return {"public": (None, False), "host": (None, True), **{s: (s, False) for s in seats}}


def _listen(owner: TableOwner, seats: list[str]) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Subscribe every viewer; returns the subscriptions and their first views (as JSON)."""
    subs, first = {}, {}
    for name, (seat, host) in _viewers(seats).items():
        sub, _, state = owner.subscribe(seat, host)
        subs[name] = sub
        first[name] = [json.dumps(state, separators=(",", ":"), ensure_ascii=False)]
    return subs, first


def _collect(owner: TableOwner, subs: dict[str, Any], out: dict[str, list[str]]) -> None:
    if hasattr(owner, "_drain"):  # main before issue 19 (how the fixture was recorded)
        owner._drain()
    for name, sub in subs.items():
        while not sub.messages.empty():
            msg = sub.messages.get_nowait()
            assert msg is not None
            seq, kind, update = msg
            text = update if isinstance(update, str) else sub.text(update)
            out[name].append(f"{seq} {kind} {text}")


# -- recording: a random evening driven by each seat's own legal actions ---------------------

#: How likely a move is tried first, against 1 for the others: the evening should reach the
#: reveal and sudden demise often, not end every hand by folds.
WEIGHTS = {"fold": 0.15, "all_in": 0.2, "sit_in": 3.0, "call_hand": 4.0, "reveal": 5.0,
           "demise_card": 5.0, "static_add": 0.5, "static_remove": 0.3}


def _entry_for(rng: random.Random, legal: dict[str, Any], state: dict[str, Any], seat: str) -> dict | None:
    """A command for one of `seat`'s legal actions, its amounts and cards picked at random."""
    typ = legal["type"]
    hand = state["hand"]
    if typ == "bet":
        return {"type": "bet", "amount": rng.randint(legal["min"], min(legal["max"], legal["min"] + 6))}
    if typ == "raise":
        return {"type": "raise", "to": rng.randint(legal["min_to"], min(legal["max_to"], legal["min_to"] + 6))}
    if typ == "call":
        return {"type": "call"}
    if typ == "buy_in":
        stack = next(x["stack"] for x in state["seats"] if x["seat"] == seat)
        if stack >= 15:
            return None
        return {"type": "buy_in"} if legal.get("amount") else {"type": "buy_in", "amount": 50}
    if typ in ("static_add", "static_remove"):
        mine = next(p for p in hand["players"] if p["seat"] == seat)["static"]
        if typ == "static_remove":
            return {"type": typ, "card": rng.choice(mine)} if mine else None
        taken = set(sum((p["static"] for p in hand["players"]), []))
        return {"type": typ, "card": rng.choice([c for c in CARD_CODES if c not in taken])}
    if typ == "reveal":
        from companion.bench.play import reveal_cards, table_deck

        kept = state["blocks"]["kept"]["field"]  # the static field: in the hand already
        return {"type": "reveal", "cards": reveal_cards(hand, seat, table_deck(state), kept)}
    if typ == "demise_card":
        return {"type": "demise_card", "card": rng.choice(CARD_CODES)}
    if typ == "draw":
        return {"type": "draw", "action": legal["action"]}
    if typ in ("leave", "cash_out", "end_session"):
        return None  # the evening goes on
    if typ == "sit_out" and rng.random() < 0.97:
        return None
    return {k: v for k, v in legal.items() if k in ("type", "action")}


def _record_session(tmp: Path, preset: str, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    ledger = Ledger(tmp / f"{preset}.sqlite")
    owner, _ = TableOwner.create("VIEWS", {"rules": preset}, ledger, _table_class(), ScriptRoller(rng))
    seats = [owner.join(n).seat for n in NAMES]
    for s in seats:
        owner.submit({"type": "buy_in"} if owner.table.rules.buy_in else {"type": "buy_in", "amount": 60}, s)
    subs, messages = _listen(owner, seats)
    start = owner.version
    hands_done = 0
    for _ in range(2000):
        state = owner.view(None, host=True)[1]
        hand = state["hand"]
        if hands_done >= HANDS and (hand is None or hand["stage"] == "settled"):
            break
        weighted: list[tuple[float, str, dict]] = []
        for s in seats:
            view = owner.view(s)[1]
            for legal in view["you"]["legal"]:
                entry = _entry_for(rng, legal, view, s)
                if entry is not None:
                    weighted.append((WEIGHTS.get(entry["type"], 1.0), s, entry))
        for typ in state["host_legal"]:
            if typ != "end_session":
                weighted.append((1.0, HOST, {"type": typ}))
        if rng.random() < 0.05:
            weighted.append((1.0, HOST, {"type": "adjust", "seat": rng.choice(seats),
                                         "amount": rng.choice([-2, -1, 1, 3]), "reason": "a spilled chip"}))
        # A weighted random order (each move's key: random ** (1 / weight)).
        weighted.sort(key=lambda m: -(rng.random() ** (1 / m[0])))
        moves = [(actor, entry) for _, actor, entry in weighted]
        if hand is not None and hand["stage"] != "settled" and rng.random() < 0.04:
            try:
                owner.undo(HOST)
                _collect(owner, subs, messages)
                continue
            except Refused:
                pass
        for actor, entry in moves:
            try:
                result = owner.submit(entry, actor)
            except Refused:
                continue
            if any(e.get("type") == "hand_started" for e in result.events):
                hands_done += 1
            break
        else:
            raise AssertionError(f"{preset}: no move accepted at {hand and hand['stage']}")
        _collect(owner, subs, messages)
    entries = [{"seq": e.seq, "type": e.type, "actor": e.actor, "body": e.body, "undoes": e.undoes}
               for e in ledger.entries(owner.code, after=0)]
    owner.close()
    ledger.close()
    return {"preset": preset, "seats": seats, "listen_at": start, "entries": entries, "messages": messages}


def _table_class() -> type:
    from companion.table.engine import Table

    return Table


def record(path: Path = FIXTURE) -> None:
    """Play and record one session per preset into `path`."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        sessions = [_record_session(Path(tmp), p, seed) for seed, p in enumerate(PRESETS)]
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as f:
        json.dump({"sessions": sessions}, f, ensure_ascii=False, separators=(",", ":"))


# -- replaying ----------------------------------------------------------------------------

def replay(tmp: Path, session: dict[str, Any]) -> dict[str, list[str]]:
    """Submit the recorded entries again, listening as every viewer from the same point.
    The messages are read only at the end, as a slow phone would: each must still be its
    own version's, however far the table has moved on since."""
    ledger = Ledger(tmp / f"{session['preset']}.sqlite")
    owner, _ = TableOwner.create("VIEWS", {"rules": session["preset"]}, ledger, _table_class(), ScriptRoller())
    subs: dict[str, Any] = {}
    messages: dict[str, list[str]] = {}
    try:
        for e in session["entries"]:
            if e["seq"] == session["listen_at"] + 1:
                subs, messages = _listen(owner, session["seats"])
            if e["type"] == UNDO:
                owner.undo(e["actor"], e["undoes"])
            else:
                owner.submit(e["body"], e["actor"])
        _collect(owner, subs, messages)
    finally:
        owner.close()
        ledger.close()
    return messages


def _sessions() -> list[dict[str, Any]]:
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        return json.load(f)["sessions"]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_viewer_receives_the_recorded_bytes(tmp_path, preset):
    session = next(s for s in _sessions() if s["preset"] == preset)
    got = replay(tmp_path, session)
    assert set(got) == set(session["messages"])
    for viewer, want in session["messages"].items():
        assert len(got[viewer]) == len(want), viewer
        for i, (g, w) in enumerate(zip(got[viewer], want)):
            assert g == w, f"{preset}: {viewer}'s message {i} differs"


def test_the_recording_covers_the_game():
    """The recorded evenings reach what a view shows: shifts, folds, raises, reveals, undos."""
    kinds = {e["type"] for s in _sessions() for e in s["entries"]}
    assert {"bet", "raise", "call", "fold", "roll", "reveal", "undo", "adjust", "draw",
            "static_add"} <= kinds
    assert all(len(s["messages"]["s1"]) > 40 for s in _sessions())


if __name__ == "__main__":
    if sys.argv[1:] == ["--record"]:
        record()
        print(f"recorded {FIXTURE} ({FIXTURE.stat().st_size} bytes)")
    else:
        print(__doc__)
