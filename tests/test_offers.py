"""Every legal move carries its words and inputs (issue 29 item 4, `companion/table/offers.py`).

The pages draw a move from its offer: the button's words in the table's game words, its style,
whether it asks twice, and what it asks before sending (an amount and its range, cards from the
picker, a choice). These tests read the offers of real tables: each game's words, the turn
actions' words, an amount's range against the move's own, and — over random play of every game
and variant — that every offer has words and inputs a page can fill, and that filling each
input with any value it offers gives a command the table accepts.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.rules.rulesets import ruleset_from
from companion.table.commands import parse
from companion.table.engine import Game, Table
from companion.table.offers import PLAIN, SeatFacts, bare, describe, plain_offer
from companion.table.state import working_copy
from test_legal_moves import GAMES, Driver

KINDS = {"amount", "cards", "pile", "seat", "token", "choice"}
STYLES = {"primary", "danger", "quiet", ""}


def seated(rules: Any, stack: int = 30, names=("Lando", "Han", "Chewie")) -> Table:
    t = Table.create("OFFER", {"rules": rules})
    for i, name in enumerate(names):
        t.apply({"type": "join", "name": name}, None)
        t.apply({"type": "buy_in", "amount": stack}, f"s{i + 1}")
    return t


def quietly(t: Table, until) -> None:
    """Play the quietest moves (check, call, stand, no call, a roll) until `until(t)` holds."""
    for _ in range(60):
        if until(t):
            return
        h = t._s["hand"]
        for sid in t.seat_ids():
            moves = {(o["type"], o.get("action")): o for o in t.legal(sid)}
            for key in (("check", None), ("call", None), ("draw", "stand"), ("roll", None), ("no_call", None)):
                if key in moves:
                    fields = {"action": "stand"} if key[0] == "draw" else {"dice": [1, 2]} if key[0] == "roll" else {}
                    t.apply({"type": key[0], **fields}, sid)
                    break
            else:
                continue
            break
        else:
            if h is not None and h["stage"] == "play":
                t.apply({"type": "no_call"}, "host")
    assert until(t), "the quiet play never got there"


def offer(t: Table, sid: str, typ: str, **match: Any) -> dict[str, Any]:
    found = [o for o in t.legal(sid) if o["type"] == typ and all(o.get(k) == v for k, v in match.items())]
    assert found, f"{sid} is not offered {typ} {match}: {[o['type'] for o in t.legal(sid)]}"
    return found[0]


@pytest.mark.parametrize(("rules", "fold", "pot"), [("spike", "Junk", "game pot"), ("weg", "Fold", "hand pot")])
def test_the_fold_offer_says_the_games_own_word(rules, fold, pot):
    t = seated(rules)
    t.apply({"type": "start_hand"}, "host")
    quietly(t, lambda t: t.view(None)["hand"]["to_act"])  # Spike: the turn phase comes first
    o = offer(t, t.view(None)["hand"]["to_act"], "fold")
    assert (o["words"], o["style"], o["confirm"], o["inputs"]) == (fold, "danger", True, [])
    assert t.rules.words.pot == pot  # the same rule set's words, not the page's


def test_spikes_turn_actions_say_the_rule_sets_words_and_junk_asks_twice():
    t = seated("spike")
    t.apply({"type": "start_hand"}, "host")
    turn = t.view(None)["hand"]["turn"]
    draws = {o["action"]: o for o in t.legal(turn) if o["type"] == "draw"}
    assert {a: o["words"] for a, o in draws.items()} == {
        "stand": "Stand", "gain_keep": "Gain and keep", "gain_discard": "Gain and discard it",
        "gain_keep_discard": "Gain, keep and discard another", "swap": "Swap with the discard pile",
        "junk": "Junk"}
    assert (draws["junk"]["style"], draws["junk"]["confirm"]) == ("danger", True)
    assert (draws["stand"]["style"], draws["stand"]["confirm"]) == ("primary", False)
    # A discarding move names its card (the pile lies face up): one card of Spike's deck.
    assert draws["gain_discard"]["card"] is True
    assert draws["gain_discard"]["inputs"] == [
        {"field": "card", "kind": "cards", "deck": "spike", "count": 1, "words": "The card you discard"}]
    assert draws["stand"]["inputs"] == []


def test_classics_turn_actions_and_roll_say_their_words():
    t = seated("pagat")  # pagat: each player draws in their turn
    t.apply({"type": "start_hand"}, "host")
    drawing = lambda t: [o for sid in t.seat_ids() for o in t.legal(sid) if o["type"] == "draw"]  # noqa: E731
    quietly(t, drawing)
    draws = {o["action"]: o["words"] for o in drawing(t)}
    assert draws == {"gain": "Gain a card", "trade": "Trade a card", "stand": "Stand"}
    assert describe([{"type": "roll"}], t.rules, SeatFacts(stack=1))[0]["words"] == "Roll the scrambler"
    spike = ruleset_from({"preset": "spike"})
    assert describe([{"type": "roll"}], spike, SeatFacts(stack=1))[0]["words"] == "Roll the spike dice"


def test_an_amount_input_has_the_moves_own_range_and_marks_the_whole_stack_all_in():
    t = seated("weg", stack=12)
    t.apply({"type": "start_hand"}, "host")
    mover = t.view(None)["hand"]["to_act"]
    bet = offer(t, mover, "bet")
    [amount] = bet["inputs"]
    assert (amount["field"], amount["kind"], amount["min"], amount["max"]) == ("amount", "amount", bet["min"], bet["max"])
    stack = t._s["seats"][mover]["stack"]
    assert amount["shortcuts"][-1] == [bet["max"], f"Bet {bet['max']}" + (" (all-in)" if bet["max"] == stack else "")]
    assert all(bet["min"] <= n <= bet["max"] for n, _ in amount["shortcuts"])
    t.apply({"type": "bet", "amount": 2}, mover)
    following = t.view(None)["hand"]["to_act"]
    raising = offer(t, following, "raise")
    [to] = raising["inputs"]
    assert (to["field"], to["min"], to["max"]) == ("to", raising["min_to"], raising["max_to"])
    call = offer(t, following, "call")
    assert call["words"] == "Call 2" and call["style"] == "primary"


def test_a_call_of_the_whole_stack_and_a_fixed_buy_in_say_so():
    rules = ruleset_from({"preset": "weg"})
    facts = SeatFacts(stack=5)
    said = describe([{"type": "call", "amount": 5}, {"type": "all_in", "amount": 5},
                     {"type": "buy_in", "amount": 500}], rules, facts)
    assert [o["words"] for o in said] == ["Call 5 (all-in)", "All-in (5)", "Buy in (500)"]
    free = describe([{"type": "buy_in", "amount": None}], rules, SeatFacts(stack=0, buy_ins=(30,)))[0]
    assert free["words"] == "Buy in" and free["inputs"][0]["min"] == 1
    assert [n for n, _ in free["inputs"][0]["shortcuts"]] == [20, 30, 50, 100]


def test_describe_keeps_every_key_and_a_plug_ins_own_words():
    items = [{"type": "draw", "action": "trade", "card": True},
             {"type": "play_token", "fields": {"token": "t1"}, "words": "Play a token",
              "inputs": [{"field": "target", "kind": "seat", "options": [["s2", "Han"]], "words": "On whom"}]}]
    said = describe(items, ruleset_from({"preset": "weg"}), SeatFacts(stack=3))
    assert bare(said) == [{k: v for k, v in i.items() if k not in ("words", "inputs")} for i in items]
    assert said[0]["action"] == "trade" and said[0]["card"] is True
    assert (said[1]["words"], said[1]["inputs"], said[1]["style"]) == ("Play a token", items[1]["inputs"], "")


def test_a_plain_move_is_described_by_the_rules_alone_without_asking_the_seat():
    """A fold, a check or a sit-out with no field but its type says the same words at every
    seat and version: it is the rules' one offer (`plain_offer`), and the seat's facts, worked
    out for every seat at every version otherwise, are not asked for."""
    rules = ruleset_from({"preset": "weg"})

    def facts() -> SeatFacts:
        raise AssertionError("a plain move asked for the seat's facts")

    items = [{"type": t} for t in sorted(PLAIN)]
    said = describe(items, rules, facts)
    assert [o["type"] for o in said] == sorted(PLAIN)
    assert all(o is plain_offer(o["type"], rules) for o in said)
    fold = next(o for o in said if o["type"] == "fold")
    assert (fold["words"], fold["style"], fold["confirm"], fold["inputs"]) == ("Fold", "danger", True, [])
    # The same offer as one worked out with the seat's facts (any stack): nothing in it reads them.
    worked = describe([{"type": "fold", "x": 1}], rules, SeatFacts(stack=7))[0]
    assert {k: v for k, v in worked.items() if k != "x"} == fold
    # A move with a field of its own still reads the seat (an all-in's amount is its stack).
    with pytest.raises(AssertionError, match="asked for the seat's facts"):
        describe([{"type": "all_in", "amount": 5}], rules, facts)


def check_offers(t: Table) -> int:
    """Every offer of every seat has words, a style and inputs a page can fill; any value an
    input offers makes a command the table's own check accepts. Returns the inputs filled."""
    game, filled = t._reader(), 0
    for sid in t.seat_ids():
        for o in t.legal(sid):
            assert isinstance(o["words"], str) and o["words"].strip(), o
            assert o["style"] in STYLES and isinstance(o["confirm"], bool), o
            fixed = {"action": o["action"]} if o["type"] == "draw" else {}
            for i in o["inputs"]:
                assert i["kind"] in KINDS and i["field"] and i["words"], i
                values: list[Any] = []
                if i["kind"] == "amount":
                    assert 1 <= i["min"] <= i["max"], i
                    assert all(i["min"] <= n <= i["max"] and w for n, w in i["shortcuts"]), i
                    values = [i["min"], i["max"], *(n for n, _ in i["shortcuts"])]
                elif i["kind"] == "cards":
                    assert i["deck"] == t.rules.deck.name and i["count"] >= 1, i
                else:
                    assert i["options"] and all(w for _, w in i["options"]), i
                    values = [v for v, _ in i["options"]]
                for v in values[:2]:  # the range's ends; every option
                    entry = {"type": o["type"], **fixed, i["field"]: v}
                    if o["type"] in t._engine.CHECKED:
                        assert game.allows(o["type"], {k: x for k, x in entry.items() if k != "type"}, sid), (sid, o, entry)
                    else:  # a betting move: tried on a copy of the state (raises Refused if refused)
                        t._engine(working_copy(t._s), t._rules, t._chips).run(*parse(entry, t._engine.COMMANDS), sid)
                    filled += 1
    return filled


def test_every_offer_of_random_tables_has_words_and_inputs_the_table_accepts():
    filled = 0
    rng = random.Random(29)
    for preset, option in GAMES[::4]:  # every kind of input is reached (declare_side, show too)
        driver = Driver(preset, option, rng)
        for _ in range(100):
            if driver.seen["event hand_ended"] >= 1:
                break
            filled += check_offers(driver.t)
            driver.step()
    assert filled > 500
