"""The host console at a Spike table, 1280 px wide (issue 28, items 11 and 12): the console
plays every seat (nobody has a phone), enters the discard pile's top card, and enters the spike
dice rolled by hand at the table; the display (1920x1080) shows what it entered.

- item 11: a seat's discard picker starts empty for its next move (it kept the card discarded
  in the round before, which the next move would have recorded again); a junk leaves the top card to be
  entered; after the third round's Sabacc Shift the new top card is entered at the reveal.
- item 12: the dice are chosen by their symbols and entered; no card grid, tab row or dice
  choice reaches past its panel at 1280 px.

Seats in join order: s1 Lando (the dealer), s2 Han, s3 Chewie; play starts at Han.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import screenshot, tap_button
from test_phones_browser import console, settle_ui
from test_play_browser import Table, api
from test_spike_browser import pick

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MINUS = "\u2212"

#: Every element of the console that must stay inside its panel, and how far it reaches
#: past it (px; 0 when inside), with the panel's width (a scrolled-out grid counts too).
OVERFLOW = """() => Array.from(document.querySelectorAll(
    '#console .card-grid, #console .suit-tabs, #console .chips, #console .dice-entry .row, #console .action-grid'))
  .filter((el) => el.offsetParent !== null)
  .map((el) => {
    const panel = el.closest('.panel').getBoundingClientRect();
    const box = el.getBoundingClientRect();
    const out = Math.max(0, box.right - panel.right, panel.left - box.left, el.scrollWidth - el.clientWidth);
    return {what: (el.parentElement.id || el.parentElement.className) + ' ' + el.className, out: Math.round(out)};
  })"""


def inside_panels(con) -> None:
    reach = con.evaluate(OVERFLOW)
    assert reach, "no card grid is shown"
    assert [r for r in reach if r["out"] > 0.5] == [], reach


@pytest.fixture
def table(chromium, live_server):
    t = Table(chromium, live_server, "spike")
    yield t
    t.close()


def test_item11_12_the_console_plays_the_discard_pile_and_enters_the_spike_dice_at_1280(table):
    t = table
    for name in ("Lando", "Han", "Chewie"):
        status, body = api(t.live_server, f"/api/v1/tables/{t.code}/join", {"name": name})
        assert status == 201, body
    for sid in ("s1", "s2", "s3"):
        t.host({"type": "buy_in", "seat": sid, "amount": 30})
    con = console(t)
    t.host({"type": "start_hand"})
    t.synced(con)
    seat = con.get_by_label("Seat", exact=True)

    def tap(label: str) -> None:
        t.synced(con)
        before = t.version
        tap_button(con.locator("#seat-moves"), label, label.startswith("Junk"))
        t.wait_version(before + 1)

    def enter_top(card: str) -> None:
        pick(con, "discard-top-picker", [card])
        before = t.version
        con.locator("#discard-top-send").click()
        t.wait_version(before + 1)

    def enter_dice(first: str, second: str) -> None:
        entry = con.locator("#dice-entry")
        expect(entry).to_be_visible()
        entry.get_by_label("Die 1").select_option(label=first)
        entry.get_by_label("Die 2").select_option(label=second)
        before = t.version
        entry.get_by_role("button", name="Enter the roll").click()
        t.wait_version(before + 1)

    # The dealer turns up the first card; the console enters it.
    expect(con.locator("#dice-entry")).to_be_hidden()  # no roll is due yet
    enter_top("-3")
    expect(t.display.locator('#d-table-facts [data-fact="discard_top"]')).to_have_text(f"Discard pile {MINUS}3")

    # Han swaps from the console, discarding +5: the +5 is the top card, and the picker is empty.
    seat.select_option("s2")
    pick(con, "seat-cards", ["+5"])
    inside_panels(con)
    tap("Swap with the discard pile for Han")
    expect(con.locator('#hand-game-facts [data-fact="discard_top"] .fact-value')).to_have_text("+5")
    expect(t.display.locator('#d-table-facts [data-fact="discard_top"]')).to_have_text("Discard pile +5")
    # Chewie junks: a junked card lies on top now, to be entered.
    seat.select_option("s3")
    tap("Junk for Chewie")
    expect(con.locator('#hand-game-facts [data-fact="discard_top"] .fact-value')).to_have_text("the top card is not entered yet")
    expect(t.display.locator('#d-table-facts [data-fact="discard_top"]')).to_have_text("Discard pile the top card is not entered yet")
    enter_top("+8")
    expect(t.display.locator('#d-table-facts [data-fact="discard_top"]')).to_have_text("Discard pile +8")
    seat.select_option("s1")
    tap("Stand for Lando")
    for sid, name in (("s2", "Han"), ("s1", "Lando")):
        seat.select_option(sid)
        tap(f"Check for {name}")

    # The spike dice, rolled by hand at the table: chosen by their symbols.
    inside_panels(con)
    screenshot(con, "spike-console-1280-dice")
    enter_dice("Crown", "Eye")
    expect(t.display.locator("#d-roll")).to_have_text("Last roll: Crown and Eye")

    # Round 2: Han's picker has not kept the +5 he discarded in round 1 (the console would have
    # recorded it again as this move's card): a discarding move without a card is refused here.
    seat.select_option("s2")
    expect(con.locator("#seat-play-for")).to_have_text("Moves for Han")
    expect(con.locator("#seat-moves")).to_contain_text("Gain, keep and discard another for Han")
    expect(con.locator("#seat-cards .chip")).to_have_count(0)
    before = t.version
    settle_ui(con)
    con.locator("#seat-moves").get_by_role("button", name="Gain, keep and discard another for Han", exact=True).click()
    expect(con.locator("#seat-play-error")).to_have_text("Pick the card the seat discards first.")
    assert t.version == before
    pick(con, "seat-cards", ["-1"])
    tap("Gain, keep and discard another for Han")
    expect(t.display.locator('#d-table-facts [data-fact="discard_top"]')).to_have_text(f"Discard pile {MINUS}1")
    expect(con.locator("#seat-cards .chip")).to_have_count(0)
    seat.select_option("s1")
    tap("Stand for Lando")
    for sid, name in (("s2", "Han"), ("s1", "Lando")):
        seat.select_option(sid)
        tap(f"Check for {name}")
    enter_dice("Spike", "Sun")
    # Round 3: both stand and check; the last roll matches: a Sabacc Shift.
    for action in ("Stand", "Check"):
        for sid, name in (("s2", "Han"), ("s1", "Lando")):
            seat.select_option(sid)
            tap(f"{action} for {name}")
    enter_dice("Flask", "Flask")
    expect(t.display.locator("#d-roll")).to_contain_text("Last roll: Flask and Flask")
    # The reveal: the dealer turned up a new top card after the shift, and it is entered.
    expect(con.locator("#hand-stage")).to_contain_text("reveal")
    enter_top("-9")
    expect(con.locator('#hand-game-facts [data-fact="discard_top"] .fact-value')).to_have_text(f"{MINUS}9")
    expect(t.display.locator('#d-table-facts [data-fact="discard_top"]')).to_have_text(f"Discard pile {MINUS}9")
    seat.select_option("s2")
    pick(con, "seat-cards", ["+4", "-4"])
    inside_panels(con)
    screenshot(con, "spike-console-1280-reveal")
    assert not t.errors, t.errors
