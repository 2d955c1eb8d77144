"""Random sequences of legal and illegal commands against one table (Hypothesis state machine).

Invariants after every command: credits are conserved (stacks + hand pot + sabacc pot change
only by buy-ins, cash-outs, stakes and host adjustments), no stack is negative, a JSON round
trip of the snapshot is the same table, a refused command changes nothing, replaying every
accepted entry on a fresh table gives the same state, and no hand ever waits for the host: while
a hand is played, some player always has a move of the hand (the host starts hands; the reveal
corrections of docs/table-commands.md are the players' own re-entries).
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from conftest import examples

from companion.games.classic.cards import CARDS
from companion.scrambler.dice import DICE
from companion.table.engine import COMMANDS, HOST, SCRAMBLER, Refused, Table

PRESETS = ["weg", "classic", "holodex", "pagat", "pagat-d6"]
HAND_MOVES = {"check", "bet", "raise", "call", "all_in", "fold", "roll", "call_hand", "no_call",
              "draw", "static_add", "static_remove", "reveal", "demise_card", "show", "no_show",
              "discard_top"}
#: Variants mixed into the presets: limits, house dealer, the timer, by-symbol shifts, Hold 'Em,
#: a fixed bomb-out penalty, a fold fee of 2.
OPTIONS = [{}, {"bet_limit": 5}, {"house_dealer": True}, {"scrambler_trigger": "timer"},
           {"shift_kind": "by-symbol"}, {"holdem": True}, {"bomb_out_penalty": 4, "fold_fee": 2},
           {"force_sabacc": True}, {"corellia_run": True}, {"scrambler_trigger": "2d6-spike"},
           {"scrambler_trigger": "d20"}, {"shift_kind": "wild"}, {"shift_kind": "rim"},
           {"static_field": "free"}, {"pot_building_rounds": 0}]
#: Corellian Spike's presets and table options (RULES-SPIKE.md), played by the same machine.
SPIKE_PRESETS = ["spike", "spike-book"]
SPIKE_OPTIONS = [{}, {"phase_order": "turn-spike-bet"}, {"dealer_rotates": "round"}, {"junk_penalty": 1},
                 {"bet_limit": 3}, {"fee_swap": 0, "prime_sabacc": False}, {"ante_game": 2, "ante_sabacc": 0}]
#: Every game's presets with the options they take.
GAMES = [(p, o) for p in PRESETS for o in OPTIONS] + [(p, o) for p in SPIKE_PRESETS for o in SPIKE_OPTIONS]
EXTERNAL = {"bought_in": "amount", "cashed_out": "amount", "adjusted": "amount", "staked": "value"}


class TableMachine(RuleBasedStateMachine):
    """Drives one table with mostly legal moves (from the view) and some random junk."""

    @initialize(game=st.sampled_from(GAMES), players=st.integers(2, 4))
    def create(self, game, players):
        preset, option = game
        self.settings = {"rules": {"preset": preset, "buy_in": 0, **option}}
        self.table = Table.create("STATE", self.settings)
        self.log: list[tuple[dict, object]] = []
        self.external = 0
        for i in range(players):
            self.send({"type": "join", "name": f"P{i}"}, None)
            self.send({"type": "buy_in", "amount": 10 + 7 * i}, f"s{i + 1}")

    def send(self, entry, actor):
        """Apply; on refusal check nothing changed. Returns True when accepted."""
        before = self.table.to_json()
        try:
            events = self.table.apply(entry, actor)
        except Refused as exc:
            self.last_refusal = (exc.status, exc.error, exc.field)
            assert exc.status in (400, 403, 409, 422)
            assert self.table.to_json() == before
            return False
        self.log.append((json.loads(json.dumps(entry)), actor))
        for e in events:
            json.dumps(e)  # every event is JSON
            if e["type"] in EXTERNAL:
                sign = -1 if e["type"] == "cashed_out" else 1
                self.external += sign * e[EXTERNAL[e["type"]]]
        assert self.table.version == len(self.log)
        return True

    # -- legal moves --------------------------------------------------------------------------

    @rule()
    def start_hand(self):
        self.send({"type": "start_hand"}, HOST)

    @rule(data=st.data())
    def seat_move(self, data):
        """A legal seat-management move (buy-in, cash-out, sitting out and in, leaving)."""
        seats = self.table.seat_ids()
        if not seats:
            return
        sid = data.draw(st.sampled_from(seats))
        moves = [m for m in self.table.view(sid)["you"]["legal"] if m["type"] not in HAND_MOVES
                 and (m["type"] != "leave" or len(seats) > 2)]
        if moves:
            move = data.draw(st.sampled_from(moves))
            assert self.send(self.concrete(move, sid, data), sid)

    @rule(data=st.data(), count=st.integers(1, 25))
    def play_moves(self, data, count):
        """Several legal moves of the hand in a row, by whoever may make them."""
        for _ in range(count):
            options = [(sid, m) for sid in self.table.seat_ids()
                       for m in self.table.view(sid)["you"]["legal"] if m["type"] in HAND_MOVES]
            if not options:
                if not self.send({"type": "start_hand"}, HOST):
                    return
                continue
            # Folding is legal for everyone in every betting step: keep it rare so that hands
            # also reach the call, the reveal and sudden demises.
            calmer = [o for o in options if o[1]["type"] != "fold"]
            if calmer and data.draw(st.integers(0, 5)):
                options = calmer
            calls = [o for o in options if o[1]["type"] == "call_hand"]
            if calls and not data.draw(st.integers(0, 2)):
                options = calls
            sid, move = data.draw(st.sampled_from(options))
            entry = self.concrete(move, sid, data)
            assert self.send(entry, sid), (entry, sid, self.last_refusal)

    def concrete(self, move, sid, data):
        typ = move["type"]
        if typ == "bet":
            return {"type": "bet", "amount": data.draw(st.integers(move["min"], move["max"]))}
        if typ == "raise":
            return {"type": "raise", "to": data.draw(st.integers(move["min_to"], move["max_to"]))}
        if typ == "roll":
            count, sides = DICE.get(self.table.rules.scrambler_trigger, (0, 0))
            return {"type": "roll", "dice": data.draw(st.lists(st.integers(1, sides),
                                                               min_size=count, max_size=count))}
        if typ == "buy_in":
            return {"type": "buy_in", "amount": data.draw(st.integers(1, 20))}
        if typ == "declare_side":
            return {"type": typ, "side": data.draw(st.sampled_from(["light", "dark"]))}
        if typ == "cash_out":
            return {"type": "cash_out", "amount": 1}
        if typ in ("static_add", "static_remove"):
            mine = self.me(sid)
            if typ == "static_remove":
                return {"type": typ, "card": data.draw(st.sampled_from(mine["static"]))}
            return {"type": typ, "card": data.draw(st.sampled_from(self.unused(())))}
        if typ == "reveal":
            need = move["hand_size"] - len(move.get("static", []))  # classic's static field is in
            free = self.unused(())
            cards = data.draw(st.lists(st.sampled_from(free), min_size=need, max_size=need, unique=True))
            return {"type": "reveal", "cards": cards}
        if typ == "demise_card":
            return {"type": "demise_card", "card": data.draw(st.sampled_from(self.unused(())))}
        if typ == "show":
            free = self.unused(())
            cards = data.draw(st.lists(st.sampled_from(free), min_size=move["hand_size"],
                                       max_size=move["hand_size"], unique=True))
            return {"type": "show", "cards": cards}
        if typ == "draw" and move.get("card"):  # a discard onto a face-up discard pile
            return {"type": "draw", "action": move["action"], "card": data.draw(st.sampled_from(self.unused(())))}
        return {k: v for k, v in move.items() if k in ("type", "action")}

    def me(self, sid):
        return next(p for p in self.table.view()["hand"]["players"] if p["seat"] == sid)

    def unused(self, extra_used):
        """Cards no static field and no entered hand holds (from the full snapshot)."""
        h = self.table.to_json()["hand"]
        used = list(extra_used)
        for p in h["p"].values():
            if p["folded"]:
                continue
            used += p["cards"] if p["cards"] is not None else p.get("static", [])
            if p["demise"]:
                used.append(p["demise"])
        deck = self.table.rules.deck
        aside = deck.set_aside_by(self.table.rules)
        left = [c for c in deck.physical if c not in aside]
        for c in used:
            left.remove(c)
        return sorted(set(left))

    @rule(data=st.data())
    def host_move(self, data):
        kind = data.draw(st.sampled_from(["adjust", "no_call", "roll", "stake", "sit"]))
        seats = self.table.seat_ids()
        if not seats:
            return
        sid = data.draw(st.sampled_from(seats))
        if kind == "adjust":
            self.send({"type": "adjust", "seat": sid, "amount": data.draw(st.integers(-5, 5)),
                       "reason": "house rule"}, HOST)
        elif kind == "stake":
            self.send({"type": "stake", "seat": sid, "item": "a droid", "value": 3}, HOST)
        elif kind == "sit":
            self.send({"type": data.draw(st.sampled_from(["sit_out", "sit_in"])), "seat": sid}, HOST)
        elif kind == "no_call":
            self.send({"type": "no_call"}, HOST)
        else:
            count, sides = DICE.get(self.table.rules.scrambler_trigger, (0, 0))
            self.send({"type": "roll", "dice": [data.draw(st.integers(1, sides)) for _ in range(count)]},
                      SCRAMBLER)

    # -- illegal (or random) moves ------------------------------------------------------------

    @rule(data=st.data())
    def random_command(self, data):
        typ = data.draw(st.sampled_from(sorted(COMMANDS)))
        fields = {}
        for name in COMMANDS[typ]["properties"]:
            if data.draw(st.booleans()):
                fields[name] = data.draw(st.one_of(
                    st.integers(-3, 60), st.sampled_from(["s1", "s2", "s9", "sa7", "idiot", "xx", "", "gain"]),
                    st.lists(st.sampled_from(list(CARDS)[:10] + ["nope"]), max_size=4), st.none()))
        actor = data.draw(st.sampled_from(["s1", "s2", "s3", "s7", HOST, SCRAMBLER, None]))
        self.send({"type": typ, **fields}, actor)

    # -- invariants ---------------------------------------------------------------------------

    @invariant()
    def credits_are_conserved(self):
        assert self.table.credits() == self.external

    @invariant()
    def pots_add_up_to_the_hand_pot(self):
        h = self.table.view()["hand"]
        if h is not None and h["stage"] != "settled":
            assert sum(p["amount"] for p in h["pots"]) == h["hand_pot"]

    @invariant()
    def no_hand_waits_for_the_host(self):
        h = self.table.view()["hand"]
        if h is None or h["stage"] == "settled":
            return
        moves = [m for sid in self.table.seat_ids()
                 for m in self.table.view(sid)["you"]["legal"] if m["type"] in HAND_MOVES]
        # A roll that is no seat's (a house dealer who is not a seat) is the scrambler's: its
        # button or box at the table rolls, not the host.
        scrambler = h["roller"] is None and (h["do"] == "roll" or h["stage"] == "final_roll")
        assert moves or scrambler, f"the hand waits for the host: {h['stage']} {h['phase']} {h['do']}"

    @invariant()
    def no_negative_stack(self):
        assert all(s["stack"] >= 0 for s in self.table.view()["seats"])

    @invariant()
    def snapshot_round_trips(self):
        again = Table.from_json(json.loads(json.dumps(self.table.to_json())))
        assert again == self.table
        view = self.table.view("s1", host=True)
        assert json.loads(json.dumps(view)) == view == again.view("s1", host=True)

    @invariant()
    def views_hide_entered_cards(self):
        h = self.table.to_json()["hand"]
        if h is None or h["revealed"] or not any(p["cards"] for p in h["p"].values()):
            return
        for viewer in ["s1", "s2", None]:
            for p in self.table.view(viewer)["hand"]["players"]:
                assert p["cards"] is None

    def teardown(self):
        if not hasattr(self, "table"):
            return
        fresh = Table.create("STATE", self.settings)
        for entry, actor in self.log:
            fresh.apply(entry, actor)
        assert fresh == self.table


TableMachine.TestCase.settings = settings(
    max_examples=examples(30), stateful_step_count=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_random_commands_conserve_credits_and_replay_exactly = TableMachine.TestCase



def _random_entry(machine, move, sid, rng):
    """A legal move made concrete from a seeded random source (the sweep's `concrete`)."""
    typ = move["type"]
    if typ == "bet":
        return {"type": typ, "amount": rng.randint(move["min"], move["max"])}
    if typ == "raise":
        return {"type": typ, "to": rng.randint(move["min_to"], move["max_to"])}
    if typ == "roll":
        count, sides = DICE.get(machine.table.rules.scrambler_trigger, (0, 0))
        return {"type": typ, "dice": [rng.randint(1, sides) for _ in range(count)]}
    if typ == "declare_side":
        return {"type": typ, "side": rng.choice(["light", "dark"])}
    if typ == "static_remove":
        return {"type": typ, "card": rng.choice(machine.me(sid)["static"])}
    if typ in ("static_add", "demise_card"):
        return {"type": typ, "card": rng.choice(machine.unused(()))}
    if typ == "reveal":
        need = move["hand_size"] - len(move.get("static", []))  # classic's static field is in
        return {"type": typ, "cards": rng.sample(machine.unused(()), need)}
    if typ == "show":
        return {"type": typ, "cards": rng.sample(machine.unused(()), move["hand_size"])}
    if typ == "draw" and move.get("card"):
        return {"type": typ, "action": move["action"], "card": rng.choice(machine.unused(()))}
    return {k: v for k, v in move.items() if k in ("type", "action")}


def test_every_preset_and_variant_plays_on_without_the_host():
    """A seeded sweep beside the Hypothesis machine, so that every preset meets every variant in
    the default run: random legal moves by the players (the host only starts hands, the
    scrambler rolls for a house dealer who is not a seat), with the credits conserved and some
    player always able to move the hand on."""
    import random

    for preset, option in GAMES:
        if True:
            rng = random.Random(f"{preset}{sorted(option.items())}")
            machine = TableMachine()
            machine.settings = {"rules": {"preset": preset, "buy_in": 0, **option}}
            machine.table = Table.create("SWEEP", machine.settings)
            machine.log, machine.external = [], 0
            for i in range(2 + len(option) % 2):  # two or three players
                machine.send({"type": "join", "name": f"P{i}"}, None)
                machine.send({"type": "buy_in", "amount": 30 + 5 * i}, f"s{i + 1}")
            hands = 0
            for _ in range(50):
                options = [(sid, m) for sid in machine.table.seat_ids()
                           for m in machine.table.view(sid)["you"]["legal"]
                           if m["type"] in HAND_MOVES | {"declare_side"}]
                calmer = [o for o in options if o[1]["type"] != "fold"]
                if calmer and rng.random() < 0.85:
                    options = calmer
                if not options:
                    h = machine.table.view()["hand"]
                    if h is not None and h["stage"] != "settled":
                        count, sides = DICE[machine.table.rules.scrambler_trigger]
                        dice = [rng.randint(1, sides) for _ in range(count)]
                        assert machine.send({"type": "roll", "dice": dice}, SCRAMBLER), (preset, option)
                        continue
                    if not machine.send({"type": "start_hand"}, HOST):
                        break
                    hands += 1
                    continue
                sid, move = rng.choice(options)
                entry = _random_entry(machine, move, sid, rng)
                assert machine.send(entry, sid), (preset, option, entry, sid, machine.last_refusal)
                machine.credits_are_conserved()
                machine.no_hand_waits_for_the_host()
            assert hands >= 1, (preset, option)
