"""The random-play fuzz through the table's owner (issue 14's "done when"): every preset with
every variant, played by random legal moves of the players, with the host's stakes, adjustments
and undos mixed in, on a real ledger with the scrambler's committed seeds.

After every command: no hand is stuck (while a hand is played some player can move it on, or
the scrambler's button rolls), no seat is offered a move out of its turn (`offered_in_turn`),
the credits add up (stacks, the hand pot and the sabacc pot
change only by buy-ins, cash-outs, adjustments and stakes, undos included), no stack is
negative, a refused command or undo changes nothing, and no view shows a seat's hidden cards
to another seat (the host's console included). After each table: every finished hand's seed is
revealed and `verify` passes on it (`verify_chain`), and the ledger loads back to the same
table.

The default run plays a few hands over every variant (each preset in turn), and every preset
with a house dealer (issue 28: a `weg` table with a house dealer). The full run:
`SABACC_FUZZ_HANDS=1000 .venv/bin/pytest tests/test_table_fuzz.py -s` prints its figures.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import pytest

from companion.games.classic.cards import CORELLIA_SET_ASIDE, DECK
from companion.scrambler.dice import DICE
from companion.scrambler.seed import SeededRoller, verify_chain
from companion.table.engine import HOST, SCRAMBLER, Refused, Table
from companion.table.ledger import Ledger
from companion.table.owner import TableOwner

PRESETS = ["weg", "classic", "holodex", "pagat", "pagat-d6"]
#: The variants (as test_table_stateful's machine mixes them in).
OPTIONS: list[dict[str, Any]] = [
    {}, {"bet_limit": 5}, {"house_dealer": True}, {"scrambler_trigger": "timer"},
    {"shift_kind": "by-symbol"}, {"holdem": True}, {"bomb_out_penalty": 4, "fold_fee": 2},
    {"force_sabacc": True}, {"corellia_run": True}, {"scrambler_trigger": "2d6-spike"},
    {"scrambler_trigger": "d20"}, {"shift_kind": "wild"}, {"shift_kind": "rim"},
    {"static_field": "free"}, {"pot_building_rounds": 0}]
HAND_MOVES = {"check", "bet", "raise", "call", "all_in", "fold", "roll", "call_hand", "no_call",
              "draw", "static_add", "static_remove", "reveal", "demise_card"}
#: Events that bring credits to the table or take them away, and their amount field.
EXTERNAL = {"bought_in": "amount", "cashed_out": "amount", "adjusted": "amount", "staked": "value"}
#: Events counted in the figures (what the run reached).
SEEN = {"staked", "sudden_demise", "demise_conflict", "reveal_conflict", "conceded", "settled",
        "shift", "hand_called", "all_in"}
#: Every preset with a house dealer: the pairing of PRESETS and OPTIONS above gives the house
#: dealer to one preset only.
HOUSE_DEALER: list[tuple[str, dict[str, Any]]] = [(p, {"house_dealer": True}) for p in PRESETS]
#: The moves a seat makes only when the table waits for it: its betting move, its draw, its roll.
TURN_MOVES = {"check", "bet", "raise", "call", "all_in", "draw", "roll"}
#: The full run's size (hands over all tables); the default run's is small for the suite.
HANDS = int(os.environ.get("SABACC_FUZZ_HANDS", "0"))
STEP_LIMIT = 400  # commands for one hand: far more than a hand needs


class Fuzz:
    """One table driven through its owner by a seeded random source."""

    def __init__(self, ledger: Ledger, code: str, preset: str, option: dict, rng: random.Random):
        self.rng, self.code = rng, code
        settings = {"rules": {"preset": preset, "buy_in": 0, **option}}
        self.owner, _ = TableOwner.create(code, settings, ledger, Table, SeededRoller())
        self.ledger = ledger
        self.external: dict[int, int] = {}  # seq -> credits it brought (or took)
        self.figures: Counter = Counter()
        for i in range(rng.randint(2, 4)):
            seat = self.owner.join(f"P{i}").seat
            self.send({"type": "buy_in", "amount": rng.randint(15, 60)}, seat, must=True)
            if self.table.rules.game_options.force_sabacc:
                self.send({"type": "declare_side", "side": rng.choice(["light", "dark"])}, seat, must=True)

    @property
    def table(self) -> Table:
        return self.owner.table

    # -- sending, with the checks every command gets ----------------------------------------

    def send(self, entry: dict, actor: str | None, must: bool = False) -> bool:
        """Submit; a refusal must change nothing. True when accepted."""
        before, size = self.table.to_json(), self.ledger.count_entries(self.code)
        try:
            result = self.owner.submit(entry, actor)
        except Refused as exc:
            assert not must, (entry, actor, exc.status, exc.error)
            assert exc.status in (400, 403, 409, 422), (entry, exc.status, exc.error)
            assert self.table.to_json() == before and self.ledger.count_entries(self.code) == size
            self.figures["refused"] += 1
            return False
        self.record(result.seq, result.events)
        self.figures["accepted"] += 1
        self.figures["hands"] += sum(e["type"] == "hand_ended" for e in result.events)
        for e in result.events:
            if e["type"] in SEEN:
                self.figures[e["type"]] += 1
        return True

    def record(self, seq: int, events: list[dict]) -> None:
        amount = 0
        for e in events:
            if e["type"] in EXTERNAL:
                amount += (-1 if e["type"] == "cashed_out" else 1) * e[EXTERNAL[e["type"]]]
        if amount:
            self.external[seq] = amount

    def undo(self) -> None:
        before, size = self.table.to_json(), self.ledger.count_entries(self.code)
        try:
            result = self.owner.undo(HOST)
        except Refused as exc:
            assert exc.status in (404, 409), exc.error
            assert self.table.to_json() == before and self.ledger.count_entries(self.code) == size
            self.figures["undo refused"] += 1
            return
        self.external.pop(result.undone, None)
        self.figures["undone"] += 1

    # -- the invariants ---------------------------------------------------------------------

    def check(self) -> None:
        t = self.table
        assert t.credits() == sum(self.external.values()), "credits do not add up"
        view = t.view(None)
        assert all(s["stack"] >= 0 for s in view["seats"])
        h = view["hand"]
        if h is None or h["stage"] == "settled":
            return
        self.no_hidden_cards_shown()
        offers = {sid: t.legal(sid) for sid in t.seat_ids()}
        for sid, legal in offers.items():
            offered_in_turn(h, sid, legal)
        moves = [m for legal in offers.values() for m in legal if m["type"] in HAND_MOVES]
        scrambler = h["roller"] is None and (h["do"] == "roll" or h["stage"] == "final_roll")
        assert moves or scrambler, f"a stuck hand: {h['stage']} {h['phase']} {h['do']}"

    def no_hidden_cards_shown(self) -> None:
        """No view shows a hand entered at the reveal before every hand is in, nor a demise
        card before the hand is settled, but the seat's own."""
        private = self.table.to_json()["hand"]
        for viewer in [*self.table.seat_ids(), None, HOST]:
            view = self.table.view(None, host=True) if viewer == HOST else self.table.view(viewer)
            for p in view["hand"]["players"]:
                if not private["revealed"]:
                    assert p["cards"] is None, (viewer, p["seat"])
                assert p["demise"] is None
            if viewer not in (None, HOST):
                mine = private["p"].get(viewer)
                assert view["you"]["cards"] == (mine["cards"] if mine else None)

    # -- playing ----------------------------------------------------------------------------

    def play_hand(self) -> None:
        """From between hands to the end of one hand (or of the session)."""
        if not self.send({"type": "start_hand"}, HOST):
            self.rebuy()
            if not self.send({"type": "start_hand"}, HOST):
                return
        for _ in range(STEP_LIMIT):
            self.check()
            h = self.table.view(None)["hand"]
            if h["stage"] == "settled":
                return
            self.step(h)
        raise AssertionError(f"the hand did not end in {STEP_LIMIT} commands")

    def rebuy(self) -> None:
        for sid in self.table.seat_ids():
            if self.table.view(None)["seats"][self.table.seat_ids().index(sid)]["stack"] < 5:
                self.send({"type": "buy_in", "amount": self.rng.randint(10, 40)}, sid, must=True)
            self.send({"type": "sit_in"}, sid)

    def step(self, h: dict) -> None:
        rng = self.rng
        luck = rng.random()
        if luck < 0.04:
            return self.undo()
        if luck < 0.09 and h["to_act"] is not None:
            return self.stake(h)
        if luck < 0.11:
            sid = rng.choice(self.table.seat_ids())
            self.send({"type": "adjust", "seat": sid, "amount": rng.randint(-3, 5), "reason": "house"}, HOST)
            return None
        options = [(sid, m) for sid in self.table.seat_ids() for m in self.table.legal(sid)
                   if m["type"] in HAND_MOVES]
        calmer = [o for o in options if o[1]["type"] != "fold"]
        if calmer and rng.random() < 0.9:
            options = calmer
        calls = [o for o in options if o[1]["type"] == "call_hand"]
        if calls and rng.random() < 0.3:
            options = calls
        if not options:  # the scrambler's roll (a house dealer who is not a seat, the timer)
            self.send({"type": "roll"}, SCRAMBLER, must=True)
            return None
        sid, move = rng.choice(options)
        self.send(self.concrete(move, sid), sid, must=True)
        return None

    def stake(self, h: dict) -> None:
        """The host stakes an item for the seat whose move it is: mostly a legal bet, call or
        raise of its value, sometimes one the bet limit refuses."""
        owed, limit = h["owed"], self.table.rules.bet_limit or 6
        value = owed + self.rng.choice([0, 1, limit, limit + 1]) if owed else self.rng.randint(1, limit + 1)
        self.send({"type": "stake", "seat": h["to_act"], "item": "a droid", "value": max(1, value)}, HOST)

    def concrete(self, move: dict, sid: str) -> dict:
        rng, typ = self.rng, move["type"]
        if typ == "bet":
            return {"type": typ, "amount": rng.randint(move["min"], move["max"])}
        if typ == "raise":
            return {"type": typ, "to": rng.randint(move["min_to"], move["max_to"])}
        if typ == "roll":
            return {"type": "roll"}  # the owner rolls from the hand's seed
        if typ == "static_remove":
            mine = next(p for p in self.table.view(None)["hand"]["players"] if p["seat"] == sid)
            return {"type": typ, "card": rng.choice(mine["static"])}
        if typ in ("static_add", "demise_card"):
            return {"type": typ, "card": rng.choice(self.unused())}
        if typ == "reveal":
            need = move["hand_size"] - len(move.get("static", []))  # classic's static field is in
            return {"type": typ, "cards": rng.sample(self.unused(), need)}
        return {k: v for k, v in move.items() if k in ("type", "action")}

    def unused(self) -> list[str]:
        """Cards no static field, entered hand or demise card holds (the physical deck: the
        players hold real cards, so they never enter one another's)."""
        h = self.table.to_json()["hand"]
        left = [c for c in DECK if not (self.table.rules.game_options.corellia_run and c in CORELLIA_SET_ASIDE)]
        for p in h["p"].values():
            if p["folded"]:
                continue
            for c in (p["cards"] if p["cards"] is not None else p.get("static", [])) + ([p["demise"]] if p["demise"] else []):
                left.remove(c)
        return sorted(set(left))

    def finish(self) -> None:
        """Every finished hand verifies, and the ledger loads back to the same table."""
        log = [{"type": e.type, "body": e.body, "events": e.events, "undone_by": e.undone_by}
               for e in self.ledger.entries(self.code)]
        chain = verify_chain(log)
        assert chain.ok, chain.problems
        self.figures["verified"] += sum(1 for e in log if e["type"] == "reveal_seed" and e["undone_by"] is None)
        again = TableOwner(self.code, self.ledger, Table, SeededRoller())
        assert again.table == self.table


def offered_in_turn(h: dict, sid: str, legal: list[dict]) -> int:
    """No state offers a seat a move out of its turn (issue 28): a betting move only to the
    seat the betting waits for, a draw only to the seat whose draw it is, a roll only to the
    roller. The one exception is the third-round ruling's: while a turn player who folded in
    their own turn has their call window open (`do` "call", `to_act` None), the next turn's
    player (the next one still in, from the hand's order) is offered the moves of their turn,
    as making one closes the window first (RULES.md; the rules page says so). Returns how many
    moves were offered by that exception."""
    turn_player = next((p for p in h["players"] if p["seat"] == h["turn"]), None)
    next_turn = None
    if h["stage"] == "play" and h["do"] == "call" and turn_player is not None and turn_player["folded"]:
        order = [p["seat"] for p in h["players"]]
        i = order.index(h["turn"])
        next_turn = next((order[(i + k) % len(order)] for k in range(1, len(order))
                          if not h["players"][(i + k) % len(order)]["folded"]), None)
    excepted = 0
    for m in legal:
        typ = m["type"]
        if typ not in TURN_MOVES:
            continue
        if sid == next_turn:
            excepted += 1
            continue
        if typ == "draw":
            assert h["do"] == "draw" and h["turn"] == sid, (sid, m, h["do"], h["turn"])
        elif typ == "roll":
            assert h["roller"] == sid, (sid, m, h["roller"])
        else:
            assert h["to_act"] == sid, (f"{sid} is offered {m} out of its turn", h["do"], h["to_act"], h["turn"])
    return excepted


def game_of(n: int) -> tuple[str, dict[str, Any]]:
    """The preset and variant of the n-th table: each variant once (the presets in turn), then
    every preset with a house dealer, then the variants again."""
    first = len(OPTIONS)
    if first <= n < first + len(HOUSE_DEALER):
        return HOUSE_DEALER[n - first]
    return PRESETS[n % len(PRESETS)], OPTIONS[n % len(OPTIONS)]


def run(tmp_path, hands: int, per_table: int) -> Counter:
    """Play `hands` hands over tables of every preset and variant, `per_table` hands each."""
    figures: Counter = Counter()
    ledger = Ledger(tmp_path / "fuzz.sqlite3")
    try:
        n = 0
        while figures["hands"] < hands or n < len(OPTIONS) + len(HOUSE_DEALER):
            preset, option = game_of(n)
            rng = random.Random(f"fuzz {n} {preset} {sorted(option.items())}")
            fuzz = Fuzz(ledger, f"F{n}", preset, option, rng)
            for _ in range(per_table):
                fuzz.play_hand()
            fuzz.finish()
            figures += fuzz.figures
            figures["tables"] += 1
            n += 1
    finally:
        ledger.close()
    return figures


def test_random_play_through_the_owner_no_stuck_hand_no_credit_error_no_leak_and_every_hand_verifies(tmp_path):
    """Every variant once (the presets in turn) and every preset with a house dealer, a few
    hands each; with SABACC_FUZZ_HANDS set, that many hands in all."""
    figures = run(tmp_path, HANDS or 2 * len(OPTIONS), per_table=2 if not HANDS else 5)
    print("\nfuzz:", dict(figures))
    assert figures["tables"] >= len(OPTIONS) + len(HOUSE_DEALER)
    assert figures["undone"] and figures["verified"] == figures["hands"]
