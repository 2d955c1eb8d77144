"""Legal moves derived from the state equal the ones found by trial (issue 19).

A view's legal moves used to be found by running every candidate command on a copy of the
whole table and seeing whether it was refused. They are now derived from the live state: the
betting ranges, the static field and the reveal directly, every other move by the command's own
read-only check (`Play.check`). The old algorithm is kept here, whole, as the oracle
(`trial_legal`, `trial_host_legal`): at every step of many random hands of every preset and
variant, every seat's and the host's legal moves must equal the oracle's, in the same order,
and listing them must change nothing and copy nothing.

The random player (`Driver`) plays the derived moves at random, aims some reveals at a tie (so
that hands reach a sudden demise or Spike's blind draw), and between and during hands sits
players out and in, cashes out, leaves and seats new players (declaring a side in Force
Sabacc); `test_every_game_derived_moves_equal_the_trial_moves` asserts the run reached every
situation the legal moves depend on.
"""

from __future__ import annotations

import inspect
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import examples

import companion.table.engine as engine_module
import companion.table.state as state_module
import companion.games.classic.calling as calling_module
from companion.rules.rulesets import Trigger
from companion.scrambler.dice import DICE
from companion.table.commands import CHECKED, parse
from companion.table.engine import HOST, SCRAMBLER, Game, Refused, Table
from companion.table.offers import bare
from companion.games.classic.static_field import static_allowance
from companion.table.state import copy_json, current_step, roller_of, working_copy
from test_table_fuzz import offered_in_turn


def own(rules: Any, option: str, off: Any = False) -> Any:
    """A game's own option of the table's rules (`RuleSet.game_options`), or `off` for a game
    that has no such option (Spike has no Force Sabacc; classic no public discard pile)."""
    return getattr(rules.game_options, option, off)

PRESETS = ["weg", "classic", "holodex", "pagat", "pagat-d6"]
OPTIONS: list[dict[str, Any]] = [
    {}, {"bet_limit": 5}, {"house_dealer": True}, {"scrambler_trigger": "timer"},
    {"shift_kind": "by-symbol"}, {"holdem": True}, {"bomb_out_penalty": 4, "fold_fee": 2},
    {"force_sabacc": True}, {"corellia_run": True}, {"scrambler_trigger": "2d6-spike"},
    {"static_field": "free"}, {"pot_building_rounds": 0}, {"buy_in": 100}]
SPIKE_PRESETS = ["spike", "spike-book"]
SPIKE_OPTIONS: list[dict[str, Any]] = [
    {}, {"phase_order": "turn-spike-bet"}, {"dealer_rotates": "round"}, {"junk_penalty": 1},
    {"bet_limit": 3}, {"fee_swap": 0, "prime_sabacc": False}]
GAMES = [(p, o) for p in PRESETS for o in OPTIONS] + [(p, o) for p in SPIKE_PRESETS for o in SPIKE_OPTIONS]
#: Moves between hands (and sitting out during one): played now and then, not every step.
SESSION_MOVES = {"sit_out", "sit_in", "leave", "cash_out", "buy_in", "declare_side"}


# -- the oracle: the trial-based algorithm as it was ---------------------------------------------

def trial(t: Table, entry: dict, actor: str | None) -> bool:
    """Whether `entry` is accepted: run on a working copy of the whole table."""
    try:
        typ, fields = parse(entry, t._engine.COMMANDS)
        t._engine(working_copy(t._s), t._rules, t._chips).run(typ, fields, actor)
    except Refused:
        return False
    return True


def trial_legal(t: Table, sid: str) -> list[dict[str, Any]]:
    """`Table._legal` as it was before issue 19: every non-derived move found by trial."""
    s, rules = t._s, t._rules
    out: list[dict[str, Any]] = []
    h = s["hand"]
    stack = s["seats"][sid]["stack"]
    betting = h["betting"] if h and h["stage"] == "play" else None
    bets = h
    if betting is None and h and t._engine(s, rules, t._chips).folded_caller() is not None:
        closed = t._engine(working_copy(s), rules, t._chips)
        closed.advance()
        bets = closed.hand
        betting = bets["betting"] if bets["stage"] == "play" else None
    if betting and bets is not None and betting["to_act"] == sid:
        mine = bets["p"][sid]
        cur, limit = betting["current"], rules.bet_limit
        if cur == 0 and (betting["opener"] in (None, sid)) and stack >= 1:
            out.append({"type": "bet", "min": 1, "max": min(stack, limit or stack)})
        if cur > 0:
            hi = min(cur + (limit or stack), mine["bet"] + stack)
            if hi > cur:
                out.append({"type": "raise", "min_to": cur + 1, "max_to": hi})
        if cur > mine["bet"] and cur - mine["bet"] <= stack:
            out.append({"type": "call", "amount": cur - mine["bet"]})
    in_hand = h is not None and h["stage"] == "play" and sid in h["p"] and not h["p"][sid]["folded"]
    simple = ["check", "all_in", "fold", "call_hand", "no_call"] if in_hand else []
    step = current_step(h) if h and h["stage"] == "play" else None
    if not in_hand and step is not None and step["do"] == "call" and step["seat"] == sid:
        simple.append("no_call")
    simple += ["sit_out", "sit_in", "leave", "cash_out", "buy_in"]
    if own(rules, "force_sabacc") and s["seats"][sid]["side"] is None:
        simple.append("declare_side")
    for typ in simple:
        entry: dict[str, Any] = {"type": typ}
        if typ == "buy_in" and rules.buy_in == 0:
            entry["amount"] = 1
        if typ == "declare_side":
            entry["side"] = "light"
        if trial(t, entry, sid):
            item: dict[str, Any] = {"type": typ}
            if typ == "all_in":
                item["amount"] = stack
            if typ == "buy_in":
                item["amount"] = rules.buy_in or None
            out.append(item)
    if step is not None and step["do"] == "draw" and step["seat"] == sid:
        for taken in rules.actions:
            asks = own(rules, "discard_pile_public") and taken.discards > 0
            entry = {"type": "draw", "action": taken.action}
            if trial(t, {**entry, **({"card": next(iter(rules.deck.cards))} if asks else {})}, sid):
                out.append({**entry, **({"card": True} if asks else {})})
    if h and h["stage"] in ("play", "final_roll") and roller_of(h, step) == sid:
        count = DICE.get(rules.scrambler_trigger, (0, 0))[0]
        if trial(t, {"type": "roll", "dice": [1] * count}, sid):
            out.append({"type": "roll"})
    # A static field only where the game has one (classic's option; Spike has none).
    no_static = {"add": False, "remove": False}
    static = static_allowance(s, rules, sid) if own(rules, "static_field", None) is not None else no_static
    if static["add"]:
        out.append({"type": "static_add"})
    if static["remove"]:
        out.append({"type": "static_remove"})
    if h and h["stage"] == "reveal" and sid in h["p"] and not h["p"][sid]["folded"]:
        p = h["p"][sid]
        if not (h["revealed"] and p["cards"] is not None):
            # A game's kept cards (classic's static field, its own state) are in already.
            out.append({"type": "reveal", "hand_size": p["hand_size"],
                        **({"static": list(p["static"])} if "static" in p else {})})
    if h and h["stage"] == "demise" and sid in h["demise_players"]:
        if sid not in h["demise_public"]:
            # A blind draw asks for its next card (issue 28); only its players keep their draws.
            drawn = h["p"][sid].get("blind_draw", [])
            out.append({"type": "demise_card", "draw": len(drawn) + 1, "drawn": list(drawn)}
                       if rules.hands.tie == "blind_draw" else {"type": "demise_card"})
    if h and h["stage"] == "show" and h["settlement"] is not None and h["settlement"]["winner"] == sid:
        out.append({"type": "show", "hand_size": h["p"][sid]["hand_size"]})
        out.append({"type": "no_show"})
    return out


def trial_host_legal(t: Table) -> list[str]:
    """`Table._host_legal` as it was: each host command tried."""
    out = [typ for typ in ("start_hand", "end_session", "no_call") if trial(t, {"type": typ}, HOST)]
    count = DICE.get(t._rules.scrambler_trigger, (0, 0))[0]
    if trial(t, {"type": "roll", "dice": [1] * count}, HOST):
        out.append("roll")
    return out


# -- the comparison at one state ----------------------------------------------------------------

def folded_window(t: Table) -> bool:
    return t._engine(t._s, t._rules, t._chips).folded_caller() is not None


def assert_same_legal_moves(t: Table) -> dict[str, list[dict[str, Any]]]:
    """Every seat's and the host's derived moves equal the oracle's; listing them changed
    nothing. Returns each seat's moves."""
    before = copy_json(t._s)
    moves = {sid: bare(t.legal(sid)) for sid in t.seat_ids()}
    host = t._reader().host_legal()
    assert t._s == before, "listing the legal moves changed the table"
    for sid, mine in moves.items():
        assert mine == trial_legal(t, sid), (sid, t._s["hand"] and t._s["hand"]["stage"])
    assert host == trial_host_legal(t)
    return moves


# -- a random player ------------------------------------------------------------------------------

class Driver:
    """One table played at random by its derived legal moves, compared with the oracle at
    every step; `seen` counts the situations reached."""

    def __init__(self, preset: str, option: dict[str, Any], rng: random.Random, fold_turns: float = 0.0):
        #: How often a turn player folds in their own turn once a call may follow (then 4
        #: players who stay seated, so that two are left to call or not).
        self.rng, self.fold_turns = rng, fold_turns
        self.t = Table.create("LEGAL", {"rules": {"preset": preset, **option}})
        self.seen: Counter = Counter()
        self.joined = 0
        for _ in range(4 if fold_turns else rng.randint(2, 4)):
            self.join()

    @property
    def rules(self) -> Any:
        return self.t.rules

    def send(self, entry: dict[str, Any], actor: str | None) -> bool:
        try:
            events = self.t.apply(entry, actor)
        except Refused:
            return False
        self.seen[entry["type"]] += 1
        if entry["type"] == "draw":
            self.seen["draw " + entry["action"]] += 1
        for e in events:
            self.seen["event " + e["type"]] += 1
        return True

    def join(self) -> None:
        self.joined += 1
        events = self.t.apply({"type": "join", "name": f"P{self.joined}"}, None)
        sid = events[0]["seat"]
        fixed = self.rules.buy_in
        assert self.send({"type": "buy_in", **({} if fixed else {"amount": self.rng.randint(8, 40)})}, sid)
        if own(self.rules, "force_sabacc") and self.rng.random() < 0.7:
            self.send({"type": "declare_side", "side": self.rng.choice(["light", "dark"])}, sid)

    def unused(self, *, hidden_too: bool = True) -> list[str]:
        """Card codes of the deck not on the table (every live hand's entered cards or static
        field, the demise cards and the discard pile's top), a code once for each copy left."""
        h = self.t._s["hand"]
        deck = self.rules.deck
        left = Counter({c: card.copies for c, card in deck.cards.items()
                        if deck.set_aside_reason(c, self.rules) is None})
        if h is not None:
            for p in h["p"].values():
                if not p["folded"]:
                    left.subtract(p["cards"] if p["cards"] is not None else p.get("static", []))
                if p["demise"]:
                    left.subtract([p["demise"]])
            if h["discard_top"]:
                left.subtract([h["discard_top"]])
        return sorted(left.elements())

    def reveal_cards(self, sid: str, move: dict[str, Any]) -> list[str]:
        """Cards for `sid`'s reveal (the static field filled in by the table): half the time
        a hand that ties the first hand entered, where one is found, so that hands tie."""
        h = self.t._s["hand"]
        kept = move.get("static", [])  # classic's static field; other games keep none
        need = move["hand_size"] - len(kept)
        pool = self.unused()
        first = next((x for x, p in h["p"].items() if x != sid and p["cards"] and not p["folded"]), None)
        if first is not None and self.rng.random() < 0.6:
            theirs = h["p"][first]["cards"]
            if not kept and len(theirs) == need and not Counter(theirs) - Counter(pool):
                return list(theirs)  # the same cards again, where the deck has the copies
            target = self.judge(first, theirs)
            for _ in range(60):
                pick = self.rng.sample(pool, need)
                mine = self.judge(sid, pick + list(kept))
                if (mine.kind, mine.total) == (target.kind, target.total):
                    return pick
        pick = self.rng.sample(pool, need)
        if first is not None and need and self.rng.random() < 0.2:
            # A card another hand holds too (hidden until every hand is in): a reveal conflict
            # once the hands are face up, where the deck has no copy left for it.
            pick[0] = self.rng.choice(h["p"][first]["cards"])
        return pick

    def judge(self, sid: str, cards: list[str]) -> Any:
        """`sid`'s hand of `cards` as the rules judge it (their side in Force Sabacc)."""
        side = {"side": self.t._s["seats"][sid]["side"]} if own(self.rules, "force_sabacc") else {}
        return self.rules.hands.evaluate(self.rules, cards, **side)

    def dice(self) -> list[int]:
        count, sides = DICE.get(self.rules.scrambler_trigger, (0, 0))
        return [self.rng.randint(1, sides) for _ in range(count)]

    def concrete(self, sid: str, move: dict[str, Any]) -> dict[str, Any]:
        """A command for one of `sid`'s legal moves."""
        rng, typ = self.rng, move["type"]
        if typ == "bet":
            return {"type": typ, "amount": rng.randint(move["min"], move["max"])}
        if typ == "raise":
            return {"type": typ, "to": rng.randint(move["min_to"], move["max_to"])}
        if typ == "roll":
            return {"type": typ, "dice": self.dice()}
        if typ == "draw":
            return {"type": typ, "action": move["action"],
                    **({"card": rng.choice(self.unused())} if move.get("card") else {})}
        if typ == "static_add" or typ == "demise_card":
            return {"type": typ, "card": rng.choice(self.unused())}
        if typ == "static_remove":
            return {"type": typ, "card": rng.choice(self.t._s["hand"]["p"][sid]["static"])}
        if typ == "reveal":
            return {"type": typ, "cards": self.reveal_cards(sid, move)}
        if typ == "show":
            return {"type": typ, "cards": rng.sample(self.unused(), move["hand_size"])}
        if typ == "cash_out" and rng.random() < 0.5:
            return {"type": typ, "amount": rng.randint(1, self.t._s["seats"][sid]["stack"])}
        if typ == "buy_in":
            return {"type": typ, **({"amount": rng.randint(5, 30)} if move["amount"] is None else {})}
        if typ == "declare_side":
            return {"type": typ, "side": rng.choice(["light", "dark"])}
        return {"type": typ}

    def note(self) -> None:
        """Count the situations of the state the legal moves depend on."""
        h = self.t._s["hand"]
        if h is None:
            return
        self.seen["stage " + h["stage"]] += 1
        if h["stage"] == "play" and h["call_open"]:
            self.seen["call window"] += 1
        if folded_window(self.t):
            self.seen["folded turn player's call window"] += 1
            past = self.t._engine(self.t._s, self.rules, self.t._chips).past_window().s["hand"]
            if past["stage"] == "play" and past["betting"] is not None:
                self.seen["betting opened past a folded turn player's call window"] += 1
        if any(s["sitting_out"] for s in self.t._s["seats"].values()) and h["stage"] != "settled":
            self.seen["sitting out in a hand"] += 1

    def step(self) -> None:
        """Compare the legal moves, then make one move."""
        rng, t = self.rng, self.t
        moves = assert_same_legal_moves(t)
        self.note()
        h = t._s["hand"]
        playing = h is not None and h["stage"] != "settled"
        options = [(sid, m) for sid, ms in moves.items() for m in ms
                   if m["type"] not in SESSION_MOVES]
        calmer = [o for o in options if o[1]["type"] != "fold"]
        if calmer and rng.random() < 0.85:
            options = calmer
        session = [(sid, m) for sid, ms in moves.items() for m in ms
                   if m["type"] in SESSION_MOVES and not self.fold_turns]
        luck = rng.random()
        if luck < 0.03 and t.seat_ids():
            self.send({"type": "adjust", "seat": rng.choice(t.seat_ids()), "amount": rng.randint(-4, 4) or 1,
                       "reason": "house"}, HOST)
            return
        if playing and luck < 0.05:
            self.send({"type": "no_call"}, HOST)
            return
        if playing and self.rules.scrambler_trigger is Trigger.TIMER and luck < 0.1:
            self.send({"type": "roll", "dice": []}, SCRAMBLER)
            return
        if not playing:
            self.between_hands(session)
            return
        if session and luck > 0.96:  # sitting out (or in) during a hand
            options = session
        folds = [(sid, m) for sid, m in options if m["type"] == "fold" and sid == h["turn_of"]]
        if folds and h["round"] > own(self.rules, "pot_building_rounds", 0) and rng.random() < self.fold_turns:
            options = folds  # the turn player folds in their own turn (a call window follows)
        elif self.fold_turns and rng.random() < 0.8:  # and the hand goes on, uncalled
            options = [o for o in options if o[1]["type"] != "call_hand"] or options
        if not options:
            # Nobody seated can move the hand on: the scrambler rolls (a house dealer, the timer).
            assert self.send({"type": "roll", "dice": self.dice()}, SCRAMBLER), "a stuck hand"
            return
        sid, move = rng.choice(options)
        entry = self.concrete(sid, move)
        accepted = self.send(entry, sid)
        # A listed move is accepted, bar a card the random player picked badly.
        assert accepted or entry["type"] in ("reveal", "demise_card", "show", "static_add", "draw"), entry

    def between_hands(self, options: list[tuple[str, dict[str, Any]]]) -> None:
        rng, t = self.rng, self.t
        if options and rng.random() < 0.5:
            sid, move = rng.choice(options)
            self.send(self.concrete(sid, move), sid)
            return
        if len(t.seat_ids()) < 3 and rng.random() < 0.5:
            self.join()
            return
        for sid in t.seat_ids():
            seat = t._s["seats"][sid]
            if seat["stack"] < 4:
                self.send({"type": "buy_in", **({} if self.rules.buy_in else {"amount": 30})}, sid)
            if seat["sitting_out"] and rng.random() < 0.7:
                self.send({"type": "sit_in"}, sid)
            if own(self.rules, "force_sabacc") and seat["side"] is None:
                self.send({"type": "declare_side", "side": "dark"}, sid)
        if not self.send({"type": "start_hand"}, HOST) and len(t.seat_ids()) < 4:
            self.join()

    def play(self, hands: int, limit: int = 600) -> None:
        """Play until `hands` hands have ended (or the session, now and then, by the host)."""
        for _ in range(limit):
            if self.seen["event hand_ended"] >= hands:
                break
            self.step()
        if self.rng.random() < 0.3:
            self.send({"type": "end_session", "sabacc_pot": self.rng.choice(["split", "carry"])}, HOST)
        assert_same_legal_moves(self.t)


@pytest.mark.slow
def test_every_game_derived_moves_equal_the_trial_moves():
    """Every preset with its variants, a few hands each: at every step the derived moves equal
    the trial moves, and the run reached every situation they depend on."""
    seen: Counter = Counter()
    actions: set[str] = set()
    for preset, option in GAMES:
        rng = random.Random(f"legal {preset} {sorted(option.items())}")
        driver = Driver(preset, option, rng)
        driver.play(hands=3)
        seen += driver.seen
        actions |= {a.action for a in driver.rules.actions}
    for preset in ("weg", "classic"):  # where a turn player who folded keeps a call window
        for n in range(8):
            driver = Driver(preset, {}, random.Random(f"legal folds {preset} {n}"), fold_turns=0.5)
            driver.play(hands=3)
            seen += driver.seen
    print("\nlegal moves:", {k: v for k, v in sorted(seen.items())})
    for situation in ("fold", "all_in", "call window", "folded turn player's call window",
                      "betting opened past a folded turn player's call window", "roll",
                      "stage reveal", "event sudden_demise", "event blind_draw", "event reveal_conflict",
                      "sit_out", "sitting out in a hand", "sit_in", "leave", "cash_out", "declare_side",
                      "stage final_roll", "stage show", "no_show", "show", "call_hand", "no_call",
                      "event session_ended", "static_add", "static_remove", "event conceded"):
        assert seen[situation], f"the random play never reached {situation!r}"
    for action in actions:  # every game's every turn action
        assert seen["draw " + action], f"the random play never drew {action!r}"


@pytest.mark.slow
@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), rng=st.randoms(use_true_random=False),
       fold_turns=st.sampled_from([0.0, 0.0, 0.6]))
def test_derived_moves_equal_the_trial_moves_in_any_random_play(game, rng, fold_turns):
    """The same property, the play chosen by Hypothesis (and shrunk by it on a failure)."""
    preset, option = game
    Driver(preset, option, rng, fold_turns=fold_turns).play(hands=2, limit=300)


# -- a folded turn player's call window, step by step ---------------------------------------------

@pytest.mark.parametrize("rules", ["weg", "classic", {"preset": "weg", "bet_limit": 1},
                                   {"preset": "classic", "house_dealer": True}])
@pytest.mark.parametrize("next_player_all_in", [False, True])
def test_a_folded_turn_players_call_window_offers_the_next_turns_moves_as_the_trials_do(rules, next_player_all_in):
    """The turn player folds in their own turn and rolls: their call window is open. The next
    player's move closes it first (`next_player_acts`): their betting (or, all in, the turn's
    roll) is what they are offered, the third player may call but not fold, and the host's roll
    and "no call" are as tried."""
    t = to_round_2(rules)
    turn, following, third = t._s["hand"]["players"][:3]
    if next_player_all_in:
        t.apply({"type": "adjust", "seat": following, "amount": -t._s["seats"][following]["stack"],
                 "reason": "all in"}, HOST)
    t.apply({"type": "fold"}, turn)
    t.apply({"type": "roll", "dice": quiet_dice(t)}, turn)
    assert folded_window(t)
    moves = assert_same_legal_moves(t)
    offered = {m["type"] for m in moves[following]}
    if next_player_all_in:
        assert "bet" not in offered and "check" not in offered
    else:
        assert {"bet", "check", "fold"} <= offered
    assert "fold" not in {m["type"] for m in moves[third]}  # not the next turn's move
    assert "call_hand" in {m["type"] for m in moves[third]}
    assert "no_call" in {m["type"] for m in moves[turn]}  # the folded turn player may close it


class InTurnDriver(Driver):
    """The random player, checking before each move that no seat is offered a move out of its
    turn (`test_table_fuzz.offered_in_turn`)."""

    def step(self) -> None:
        h = self.t.view(None)["hand"]
        if h is not None and h["stage"] == "play":
            for sid in self.t.seat_ids():
                if offered_in_turn(h, sid, self.t.legal(sid)):
                    self.seen["the next turn's move offered in a folded turn player's call window"] += 1
        super().step()


@pytest.mark.slow
def test_no_seat_is_offered_a_move_out_of_its_turn_at_a_house_dealers_table():
    """Issue 28: a `weg` table with a house dealer offered a seat "bet" while a folded turn
    player's call window was open (`do` call, `to_act` None). It was the next turn's player:
    their move closes the window first (the third-round ruling; the rules page says so). No
    other seat is ever offered a betting move, a draw or a roll out of its turn."""
    seen: Counter = Counter()
    for preset in ("weg", "classic", "holodex", "pagat", "spike"):
        for n in range(3):
            driver = InTurnDriver(preset, {"house_dealer": True}, random.Random(f"in turn {preset} {n}"),
                                  fold_turns=0.5 if preset in ("weg", "classic") else 0.0)
            driver.play(hands=3, limit=400)
            seen[preset] += driver.seen["event hand_ended"]
            seen += driver.seen
    assert all(seen[preset] for preset in ("weg", "classic", "holodex", "pagat", "spike")), seen
    assert seen["the next turn's move offered in a folded turn player's call window"]


def to_round_2(rules: Any) -> Table:
    """Four players (stacks of 30) after a quiet first round: the first player is to bet."""
    t = Table.create("FOLDS", {"rules": rules})
    for name in ("Lando", "Han", "Chewie", "Leia"):
        sid = t.apply({"type": "join", "name": name}, None)[0]["seat"]
        t.apply({"type": "buy_in", "amount": 30}, sid)
    t.apply({"type": "start_hand"}, HOST)
    while t._s["hand"]["round"] == 1:
        assert_same_legal_moves(t)
        h = t._s["hand"]
        st_ = current_step(h)
        sid = h["betting"]["to_act"] if h["betting"] else st_["seat"]
        if st_["do"] == "roll":
            t.apply({"type": "roll", "dice": quiet_dice(t)}, sid or HOST)
        elif h["betting"]:
            t.apply({"type": "check"}, sid)
        elif st_["do"] == "call":
            t.apply({"type": "no_call"}, HOST)
        else:
            t.apply({"type": "draw", "action": "stand"}, sid)
    h = t._s["hand"]
    assert (h["turn_of"], h["betting"] and h["betting"]["to_act"]) == (h["players"][0],) * 2
    return t


def quiet_dice(t: Table) -> list[int]:
    """A roll that shifts nothing: a 6 under d6-low, a 1-2 under two d6."""
    return [6] if t.rules.scrambler_trigger is Trigger.D6_LOW else [1, 2]


# -- no copy ---------------------------------------------------------------------------------------

@pytest.mark.slow
def test_listing_legal_moves_copies_no_table(monkeypatch):
    """While the legal moves are listed, no copy of the table is made: `working_copy` and
    `copy_json` fail if called. Only in a folded turn player's call window is the hand (alone)
    copied, once per list, to find where the next player's move takes it (`past_window`)."""
    real_copy_hand = calling_module.copy_hand
    copied = Counter()

    def no_copy(*_: Any) -> Any:
        raise AssertionError("a copy of the table while listing legal moves")

    def counted_copy_hand(h: Any) -> Any:
        copied["hands"] += 1
        return real_copy_hand(h)

    steps = windows = 0
    drivers = [Driver(p, o, random.Random(f"no copy {p} {n}"), fold_turns=f)
               for n, (p, o, f) in enumerate([("weg", {}, 0.6), ("classic", {}, 0.6), ("pagat", {}, 0.0),
                                              ("holodex", {}, 0.0), ("spike", {}, 0.0)])]
    drivers.append(Driver("classic", {}, random.Random(""), fold_turns=0.0))
    drivers[-1].t = to_round_2("classic")
    drivers[-1].t.apply({"type": "fold"}, "s2")  # s2 folds in their own turn: a call window next
    for driver in drivers:
        for _ in range(150):
            t = driver.t
            public = t.public_view(0)  # the rule set's JSON is copied for each public view
            with monkeypatch.context() as m:
                for module in (engine_module, state_module):
                    m.setattr(module, "working_copy", no_copy, raising=False)
                    m.setattr(module, "copy_json", no_copy)
                m.setattr(calling_module, "copy_hand", counted_copy_hand)
                before = copied["hands"]
                for sid in t.seat_ids():
                    t._reader().legal(sid)
                    t.legal(sid)
                    t.viewer_view(public, sid, host=True)  # a view's own legal moves
                t._reader().host_legal()
                made = copied["hands"] - before
            if folded_window(t):
                windows += 1
                assert 0 < made <= 4 * len(t.seat_ids()) + 1  # at most once for each list
            else:
                assert made == 0
            steps += 1
            driver.step()
    assert steps == 150 * len(drivers) and windows


# -- one definition ---------------------------------------------------------------------------------

ENGINES = {Table.create("E", {"rules": p})._engine for p in ("classic", "spike")}


@pytest.mark.parametrize("engine,typ", sorted(((e, typ) for e in ENGINES for typ in e.CHECKED),
                                              key=lambda x: (x[0].__name__, x[1])))
def test_each_checked_command_begins_with_its_own_check(engine, typ):
    """`cmd_<type>` calls `check_<type>` before it changes anything, so what a view offers
    (`Play.check`) and what the command accepts have one definition (the runtime's commands
    and each game's own)."""
    assert CHECKED <= engine.CHECKED
    body = inspect.getsource(getattr(engine, "cmd_" + typ)).split("\n", 1)[1]
    first = next(line.strip() for line in body.splitlines() if line.strip() and not line.strip().startswith(('"', "#")))
    assert f"self.check_{typ}(f, actor)" in first, first


def test_a_command_without_a_check_is_not_asked():
    t = Table.create("NONE", {"rules": "weg"})
    with pytest.raises(ValueError):
        t._engine(t._s, t._rules, t._chips).check("bet", {"amount": 1}, HOST)
