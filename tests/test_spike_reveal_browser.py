"""The end of a Corellian Spike game on every screen (issue 28 items 6, 7 and 8): a blind draw
that ties again, and a sole survivor who shows a hand for the sabacc pot.

Headless Chromium: three phones (360x640: s1 Lando, the dealer; s2 Han; s3 Chewie), the
display (1920x1080), the host console (1280 wide), then the history and audit pages. The
rounds before the reveal are played by the host for the seats (the test of a whole game on the
phones is test_spike_browser.py); what these tests read is the screens at the reveal.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from conftest import screenshot

from test_phones_browser import console
from test_play_browser import Table, seat_three
from test_spike_browser import pick

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MINUS = "\u2212"
NAMES = {"s1": "Lando", "s2": "Han", "s3": "Chewie"}


@pytest.fixture
def table(chromium, live_server):
    t = Table(chromium, live_server, "spike")
    yield t
    t.close()


def for_seat(t: Table, seat: str, **command) -> None:
    """The host plays `seat` (as the console does for a seat without a phone)."""
    t.host({**command, "seat": seat})


def to_the_reveal(t: Table) -> list[str]:
    """Three quiet rounds (everyone stands and checks, the spike dice never match); the players
    from the dealer's left (Han, Chewie, Lando)."""
    order = [p["seat"] for p in t.owner.view(None)[1]["hand"]["players"]]
    for _ in range(3):
        for seat in order:
            for_seat(t, seat, type="draw", action="stand")
        for seat in order:
            for_seat(t, seat, type="check")
        t.dice.queue.append([1, 2])
        t.host({"type": "roll"})
    assert t.owner.view(None)[1]["hand"]["stage"] == "reveal"
    return order


def enter_on_phone(t: Table, seat: str, picker: str, cards, button: str) -> None:
    page = t.phones[seat]
    t.synced(page)
    before = t.version
    pick(page, picker, cards)
    page.get_by_role("button", name=button).click()
    t.wait_version(before + 1)


def enter_on_console(t: Table, con, card: str) -> None:
    before = t.version
    pick(con, "seat-cards", [card])
    con.get_by_role("button", name="Enter Lando's card").click()
    t.wait_version(before + 1)


def result_row(page, box: str, seat: str):
    return page.locator(f'{box} tr[data-seat="{seat}"]')


def test_a_blind_draw_that_ties_again_is_shown_with_its_cards_everywhere(table):
    """Item 7: Han and Lando hold the same Sabacc with a pair of threes; both draw +5 (tied
    again), then Han a sylop and Lando +1. The second draw starts with an empty entry on the
    phone and the console and says "tied again"; the drawn cards are in the result rows of the
    phones, the display and the console, in the history and in the audit log, and Lando's row says he lost
    the blind draw (not "lost to Han's 0", the total both held)."""
    t = table
    seat_three(t, (30, 30, 30))
    con = console(t)
    con.get_by_label("Seat", exact=True).select_option("s1")  # the console plays Lando's seat
    to_the_reveal(t)
    for seat, cards in (("s2", ["+3", "-3"]), ("s3", ["+9", "+1"]), ("s1", ["-3", "+3"])):
        for_seat(t, seat, type="reveal", cards=cards)
    han = t.phones["s2"]
    expect(han.locator("#tie-card-title")).to_have_text("Blind draw")
    expect(han.locator("#tie-card-hint")).to_have_text("Draw a card from the draw pile. Enter it:")

    # The first draw: Han on his phone, Lando from the console; both +5.
    enter_on_phone(t, "s2", "tie-card-picker", ["+5"], "Enter my card")
    enter_on_console(t, con, "+5")

    # Tied again: every screen says so, and each entry starts empty for the second card.
    again = "Blind draw, tied again: waiting for Han and Lando to draw another card and enter it."
    expect(t.display.locator("#d-turn")).to_have_text(again)
    expect(t.phones["s3"].locator("#turn")).to_have_text(again)
    expect(han.locator("#turn")).to_have_text(
        "Blind draw, tied again: waiting for you and Lando to draw another card and enter it.")
    expect(han.locator("#tie-card-hint")).to_have_text(
        "Tied again (you drew +5): draw another card from the draw pile. Enter it:")
    expect(han.locator("#actions")).to_have_text("Tied again: draw another card and enter it below, under “Blind draw”.")
    expect(han.locator("#tie-card-picker .chip")).to_have_count(0)
    expect(con.locator("#hand-turn")).to_have_text(again)
    expect(con.locator("#seat-cards")).to_have_attribute("aria-label", "Lando's blind-draw card (tied again: draw 2)")
    expect(con.locator("#seat-cards .chip")).to_have_count(0)
    for page in t.phones.values():
        expect(page.locator("#log")).to_contain_text("Blind draw, tied again (Han +5, Lando +5)")

    # The second draw: a sylop beats everything.
    enter_on_phone(t, "s2", "tie-card-picker", ["sylop"], "Enter my card")
    enter_on_console(t, con, "+1")
    lost = f"tied with Han; lost the blind draw: +5, then +1 against Han's +5, then Sylop"
    won = "tied with Lando; won the blind draw: +5, then Sylop against Lando's +5, then +1"
    for page, box in ((han, "#result-hands"), (t.phones["s1"], "#result-hands"), (t.display, "#d-result-hands"),
                      (con, "#hand-result")):
        expect(result_row(page, box, "s2").locator(".sd-blind-draw")).to_have_text("+5, then Sylop")
        expect(result_row(page, box, "s1").locator(".sd-blind-draw")).to_have_text("+5, then +1")
        expect(result_row(page, box, "s3").locator(".sd-blind-draw")).to_have_text("—")
        expect(result_row(page, box, "s1").locator(".sd-result")).to_have_text(lost)
        expect(result_row(page, box, "s2").locator(".sd-result")).to_contain_text(won)
        expect(page.locator(f"{box} thead")).to_contain_text("Blind draw")
    screenshot(han, "spike-blind-draw-phone-result")
    screenshot(t.display, "spike-blind-draw-display-result")
    screenshot(con, "spike-blind-draw-console-result")
    # The console's result fits its 1280 px page (a wide table scrolls inside its own box).
    assert con.evaluate("document.documentElement.scrollWidth") <= 1280

    # The history keeps the drawn cards, under the game's name for its tie.
    history = t.page({"viewport": {"width": 1280, "height": 900}})
    history.goto(f"{t.live_server.url}/t/{t.code}/history")
    sd = history.locator('table.showdown-table[data-hand="1"]')
    expect(sd.locator("thead")).to_contain_text("Blind draw")
    expect(sd.locator('tr[data-seat="s1"] .sd-demise')).to_have_text("+5, then +1")
    expect(sd.locator('tr[data-seat="s2"] .sd-demise')).to_have_text("+5, then Sylop")
    expect(sd.locator('tr[data-seat="s1"] .sd-why')).to_have_text(lost)
    # The audit log: the tie again with its cards, and the settlement with every drawn card.
    history.goto(f"{t.live_server.url}/t/{t.code}/audit")
    expect(history.locator("body")).to_contain_text("Blind draw, tied again (Han +5, Lando +5): Han, Lando each draw another card")
    expect(history.locator("body")).to_contain_text("blind draw: Han +5 sylop, Lando +5 +1")
    assert not t.errors, t.errors


def test_the_sole_survivor_choosing_and_the_shown_hand_on_every_screen(table):
    """Items 6 and 8: Han and Chewie junk in the betting phase; while Lando chooses, every
    screen says the table waits for him to show or keep his hand hidden (never "Betting phase
    — The dealer: bet."). He shows +7 and −7: his cards, total and hand are in the result rows,
    and the result, the history and the audit log say he took the sabacc pot."""
    t = table
    seat_three(t, (30, 30, 30))
    con = console(t)
    order = [p["seat"] for p in t.owner.view(None)[1]["hand"]["players"]]
    assert order == ["s2", "s3", "s1"]
    for seat in order:
        for_seat(t, seat, type="draw", action="stand")
    for_seat(t, "s2", type="fold")  # junk, in the betting phase
    for_seat(t, "s3", type="fold")
    t.shows((30, 27, 27, 0, 6))  # the game pot (3) is Lando's already; the sabacc pot waits

    waits = "Lando: everyone else junked. Show their hand for the sabacc pot, or keep it hidden."
    expect(t.phones["s1"].locator("#turn")).to_have_text(
        "You: everyone else junked. Show your hand for the sabacc pot, or keep it hidden.")
    for page in (t.phones["s2"], t.phones["s3"]):
        expect(page.locator("#turn")).to_have_text(waits)
    expect(t.display.locator("#d-turn")).to_have_text(waits)
    expect(con.locator("#hand-stage")).to_have_text(
        "everyone else junked: the last player shows their hand or keeps it hidden")
    expect(con.locator("#hand-turn")).to_have_text("Lando: show or keep the hand hidden")
    for page in (*t.phones.values(), t.display, con):
        expect(page.locator("body")).not_to_contain_text(re.compile("Betting phase|The dealer: bet"))

    # Lando shows a Sabacc (a pair of sevens) for the sabacc pot.
    enter_on_phone(t, "s1", "reveal-picker", ["+7", "-7"], "Show my hand")
    t.shows((36, 27, 27, 0, 0))
    for page, box in ((t.phones["s1"], "#result-hands"), (t.phones["s2"], "#result-hands"), (t.display, "#d-result-hands"),
                      (con, "#hand-result")):
        row = result_row(page, box, "s1")
        expect(row.locator(".sd-cards")).to_have_text(f"+7, {MINUS}7")
        expect(row.locator(".sd-total")).to_have_text("0")
        expect(row.locator(".sd-kind")).to_have_text("Sabacc with a pair")
        expect(row.locator(".sd-payout")).to_have_text("9")
        expect(row.locator(".sd-net")).to_have_text("+6")  # 3 + 6 back, less the antes of 3
    for page in t.phones.values():
        expect(page.locator("#result-words")).to_contain_text("shows Sabacc with a pair and takes the sabacc pot, 6")
    screenshot(t.phones["s1"], "spike-survivor-shows-phone-result")

    history = t.page({"viewport": {"width": 1280, "height": 900}})
    history.goto(f"{t.live_server.url}/t/{t.code}/history")
    sd = history.locator('table.showdown-table[data-hand="1"]')
    expect(sd.locator('tr[data-seat="s1"] td').first).to_have_text(f"+7, {MINUS}7")
    expect(sd.locator('tr[data-seat="s1"] .sd-net')).to_have_text("+6")
    expect(history.locator("table.hands tbody tr").first).to_contain_text(
        "conceded; Lando shows Sabacc with a pair and takes the sabacc pot, 6")
    expect(history.locator("#showdowns .sd-pots")).to_have_text(
        "Lando takes the game pot, 3: everyone else junked; Lando shows Sabacc with a pair and takes the sabacc pot, 6.")
    history.goto(f"{t.live_server.url}/t/{t.code}/audit")
    expect(history.locator("body")).to_contain_text("Lando shows +7 -7 (total 0) and takes the sabacc pot, 6")
    assert not t.errors, t.errors
