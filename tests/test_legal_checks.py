"""The read-only checks behind a view's legal moves (issue 19's speed): what they answer is
what the commands do.

A command's check returns its refusal (`Refusal`) rather than raise it, and the command
raises what its check returns: at every step of random hands, every checked command a seat
may be offered is accepted exactly when its check finds no refusal, and refused with that
refusal's status, words and field. The legal moves ask a first step several checks share
once per seat (`Betting.mover`, `Seats.not_in_running_hand`): wherever it refuses, so does
every check that begins with it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_legal_moves import Driver

from companion.table.betting import MOVER_FIRST
from companion.table.engine import Game, Refused, Table
from companion.table.play import Refusal, sure
from companion.table.seats import OUTSIDE_A_HAND
from companion.table.state import working_copy

GAMES: list[tuple[str, dict[str, Any], float]] = [
    ("weg", {}, 0.6), ("classic", {"bet_limit": 5}, 0.6), ("pagat", {"force_sabacc": True}, 0.0),
    ("holodex", {"buy_in": 100}, 0.0), ("spike", {}, 0.0), ("pagat-d6", {"house_dealer": True}, 0.0)]
#: The checked commands a seat's list asks, with the fields it asks them with.
ASKED: list[tuple[str, dict[str, Any]]] = [
    ("check", {}), ("all_in", {}), ("fold", {}), ("call_hand", {}), ("no_call", {}), ("sit_out", {}),
    ("sit_in", {}), ("leave", {}), ("cash_out", {}), ("buy_in", {"amount": 1}), ("buy_in", {}),
    ("declare_side", {"side": "light"})]


def answer(t: Table, typ: str, fields: dict[str, Any], actor: str) -> Any:
    """What the command's check answers (a refusal raised by a shared helper, as a Refused)."""
    try:
        return t._engine(t._s, t._rules, t._chips).answer(typ, fields, actor)
    except Refused as exc:
        return exc


def applied(t: Table, typ: str, fields: dict[str, Any], actor: str) -> Refused | None:
    """The command run on a copy of the table: its refusal, or None."""
    try:
        t._engine(working_copy(t._s), t._rules, t._chips).run(typ, fields, actor)
    except Refused as exc:
        return exc
    return None


def same_state_checks(t: Table) -> int:
    """Compare every seat's checks with its commands at this state; the refusals compared."""
    refusals = 0
    for sid in t.seat_ids():
        for typ, fields in ASKED:
            if typ not in t._engine.CHECKED:
                continue  # another game's move (declare_side: classic's Force Sabacc)
            found, ran = answer(t, typ, fields, sid), applied(t, typ, fields, sid)
            if isinstance(found, Refusal):
                found = found.refused()
            if isinstance(found, Refused):
                refusals += 1
                assert ran is not None, (typ, sid, found.error)
                assert (ran.status, ran.error, ran.field) == (found.status, found.error, found.field)
            else:
                assert ran is None, (typ, sid, ran.error)
        game = t._engine(t._s, t._rules, t._chips)
        try:
            moving = game.past_window().mover({}, sid)
        except Refused:
            moving = Refusal(409, "raised")
        if isinstance(moving, Refusal):
            for typ in MOVER_FIRST:
                assert not game.allows(typ, {}, sid), (typ, sid)
        if game.not_in_running_hand(sid) is not None:
            for typ, fields in ASKED:
                if typ in OUTSIDE_A_HAND:
                    assert not game.allows(typ, fields, sid), (typ, sid)
    return refusals


@pytest.mark.parametrize("preset, option, fold_turns", GAMES)
def test_each_check_answers_as_its_command_does(preset, option, fold_turns):
    driver = Driver(preset, option, random.Random(f"checks {preset}"), fold_turns=fold_turns)
    refusals = 0
    for _ in range(120):
        refusals += same_state_checks(driver.t)
        driver.step()
    assert refusals


def test_sure_passes_what_a_check_found_and_raises_its_refusal():
    assert sure((1, 2)) == (1, 2)
    with pytest.raises(Refused) as caught:
        sure(Refusal(422, "say how many credits you buy in for", "amount"))
    assert (caught.value.status, caught.value.error, caught.value.field) == \
        (422, "say how many credits you buy in for", "amount")
    assert caught.value.body() == {"error": "say how many credits you buy in for", "field": "amount"}
