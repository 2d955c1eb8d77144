"""Issues 30 and 31: the end of a game played to a winner, as every screen shows it (Chromium).

A Coruscant Shift table (the `coruscant` preset) brought close to its end through the table's
owner: three players with 10 credits each (the host's adjustments). The console plays Cas,
who deals and rolls from the console, and corrects the count recorded for his selection at the
reveal (C30); the one round's all-in puts Ana and Ben out together.
What the pages show is the server's words: the roll names who rolled and the target it sets,
the turn line says the winner and the final places instead of "between hands", the seat lists
mark the players out, and the final standings number the places as the game gave them (Ana
and Ben share second), with no sabacc pot column for a game without one.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.table.commands import HOST

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: A selection of each suit's cards for a target number: two cards of the target's suit that
#: make it exactly (Cas), and one card of another suit far from it (Ana, Ben).
EXACT = {10: ("+6", "+4"), 5: ("+3", "+2"), 0: ("+3", "-3"), -5: ("-3", "-2"), -10: ("-6", "-4")}
SUITS = {"circle": "ci", "triangle": "tr", "square": "sq"}


def test_a_coruscant_game_ends_on_every_screen_with_its_winner_places_and_players_out(screens):
    s = screens
    con = s.set_up("coruscant")
    o = s.owner
    for sid in ("s1", "s2", "s3"):
        o.submit({"type": "buy_in", "amount": 100}, sid)
        o.submit({"type": "adjust", "seat": sid, "amount": -90, "reason": "a short game"}, HOST)
    o.submit({"type": "set_dealer", "seat": "s3"}, HOST)
    o.submit({"type": "start_hand"}, HOST)
    # Cas deals, from the console: its roll is his (not "the gold and silver dice roll").
    con.locator("#play-seat").select_option(label="Cas")
    s.act(lambda: con.locator("#seat-moves").get_by_role("button", name="Roll the dice for Cas").click())
    target = o.view(None)[1]["hand"]["target"]
    said = re.compile(rf"^Cas rolls .+: the target is {re.escape(target['words'][len('The target is '):])}$")
    s.synced()
    expect(s.display.locator("#d-log li", has_text="Cas rolls")).to_have_text(said)
    # The display's last roll is the target the dice set, not the dice's faces.
    expect(s.display.locator("#d-roll")).to_have_text(said)

    n, suit = target["number"], SUITS[target["suit"]]
    other = [x for x in SUITS.values() if x != suit]
    far = "-9" if n >= 0 else "+9"
    cards = {"s3": [suit + c for c in EXACT[n]], "s1": [other[0] + far], "s2": [other[1] + far]}
    # Cas's count is recorded as 1 card (a slip): the console corrects it at the reveal (C30).
    counts = {"s1": 1, "s2": 1, "s3": 1}
    for sid in ("s1", "s2", "s3"):
        o.submit({"type": "select", "count": counts[sid]}, sid)
    while (to_act := o.view(None)[1]["hand"]["to_act"]) is not None:
        o.submit({"type": "all_in"}, to_act)
    for step in ("shift", "improve"):
        for sid in ("s1", "s2", "s3"):
            o.submit({"type": step, "count": counts[sid]} if step == "improve" else {"type": step}, sid)
    s.synced()
    moves = con.locator("#seat-moves")
    moves.get_by_role("radiogroup", name="Cards in the selection").get_by_role("radio", name="2", exact=True).check()
    s.act(lambda: moves.get_by_role("button", name="Correct the count recorded (1 card) for Cas", exact=True).click())
    expect(moves.get_by_role("button", name="Correct the count recorded (2 cards) for Cas", exact=True)).to_be_visible()
    for sid in ("s1", "s2", "s3"):
        o.submit({"type": "reveal_selection", "cards": cards[sid]}, sid)
    s.synced()

    # The game is over: every screen's turn line says so, with the places; no next hand.
    end = ("Cas wins the game. Final places: 1 Cas, 2 Ana and Ben (shared). "
           "The host ends the session for the final standings.")
    expect(s.display.locator("#d-turn")).to_have_text(end)
    for phone in s.phones.values():
        expect(phone.locator("#turn")).to_have_text(end)
    # Ana and Ben are out on every seat list, with no hand shown for them.
    for sid in ("s1", "s2"):
        row = s.display.locator(f'#d-seats li[data-seat="{sid}"]')
        expect(row.locator(".tag", has_text=re.compile("^out$"))).to_have_count(1)
        expect(row).not_to_contain_text("in the pot")
        phone_row = s.phones["s1"].locator(f'#seats li[data-seat="{sid}"]')
        expect(phone_row.locator(".tag", has_text=re.compile("^out$"))).to_have_count(1)
        expect(phone_row).not_to_contain_text("in the pot")
        expect(con.locator(f'#seat-list li[data-seat="{sid}"] .seat-badges')).to_have_text("out")
        expect(row).to_contain_text("out in round 1")

    # The final standings: the game's places (Ana and Ben share second), no sabacc pot column,
    # the chips named from the table's own chip set.
    con.get_by_role("button", name="End the session…").click()
    s.act(lambda: con.get_by_role("button", name="Yes, end the session now").click())
    s.synced()
    final = s.display.locator("#d-final")
    expect(final.locator("tbody tr")).to_have_count(3)
    expect(final.locator("tbody tr td:first-child")).to_have_text(["1", "=2", "=2"])
    expect(final.locator("thead")).not_to_contain_text("Sabacc pot")
    own = {c["name"] for c in o.view(None)[1]["settings"]["chip_set"]}
    words = final.locator("tbody tr").first.locator(".chips-words").inner_text()
    assert {w for w in re.findall(r"\d+ ([a-z]+)", words)} <= own, words
    expect(s.phones["s2"].locator("#final-mine")).to_contain_text("You share place 2 of 3: −10 for the evening.")
    expect(s.phones["s1"].locator("#final-table thead")).not_to_contain_text("Sabacc pot")
    expect(s.display.locator("#d-turn")).to_have_text("The session is over.")
    assert s.errors == []
