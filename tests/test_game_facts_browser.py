"""A game's facts on every screen (docs/games.md "Facts"; issues 29, 30, 31), in Chromium: the
phones, the console and the display draw what a Kessel and a Coruscant Shift table's views say,
without knowing the game (web/static/js/facts.js).

Kessel: the discard piles' tops and the draw piles, each seat's stock and invested chips after a
draw, the token effects in force, and a seat's own tokens on its own phone only; a card drawn
from a discard pile put back with no card entered (the discarded card left out); a player
leaving mid-round from the phone, entering the two cards held (K39). Coruscant: the
round's target in large type on each screen (its computed font size), each seat's selection
count on the seat lists. Neither display offers the shift sound: their dice never shift.

Seats in join order (`Screens.set_up`): s1 Ana (a phone), s2 Ben (a phone), s3 Cas (the console
plays it)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion.games.coruscant.cards import target_words
from conftest import screenshot, settled, tap_button
from test_plugin_game_browser import tap

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def table_fact(page, key):
    """The value a screen shows of the table's fact `key`."""
    for sel in ("#table-facts", "#hand-game-facts", "#d-table-facts"):
        if page.locator(sel).count():
            return page.locator(f'{sel} [data-fact="{key}"] .fact-value')
    raise AssertionError(f"no table facts on {page.url}")


def seat_fact(page, seat, key):
    """The words a screen's seat list shows of seat `seat`'s fact `key` ("stock 5")."""
    for sel in ("#seats", "#seat-list", "#d-seats"):
        if page.locator(sel).count():
            return page.locator(f'{sel} li[data-seat="{seat}"] [data-fact="{key}"]')
    raise AssertionError(f"no seat list on {page.url}")


def every_screen(s):
    return [s.console, s.display, *s.phones.values()]


def pick(box, group, option):
    """Choose `option` of the offer's one-of choice `group` in `box`."""
    box.get_by_role("radiogroup", name=group).get_by_role("radio", name=option, exact=True).check()


def choose(s, box, count: str) -> None:
    """Check the radio `count` in `box` once its page shows the latest version and takes taps."""
    s.synced()
    settled(box.page)
    radio = box.get_by_role("radio", name=count, exact=True)
    radio.check()
    expect(radio).to_be_checked()


def press(s, box, words, confirm=False):
    """Press the button `words` in `box` (twice where it asks); wait for the table to take it."""
    s.act(lambda: tap_button(box, words, confirm))


def test_kessel_facts_on_the_phones_the_console_and_the_display(screens):
    s = screens
    con = s.set_up("kessel")
    for name in ("Ana", "Ben", "Cas"):
        s.act(lambda: con.get_by_role("button", name=f"Buy in: {name}").click())
    con.get_by_label("Next dealer").select_option(label="Ana")
    s.act(lambda: con.get_by_role("button", name="Set the dealer").click())
    s.act(lambda: con.get_by_role("button", name="Start the next hand").click())
    con.locator("#play-seat").select_option(label="Cas")
    ana, ben = s.phones["s1"].locator("#actions"), s.phones["s2"].locator("#actions")
    cas = con.locator("#seat-moves")

    # -- tokens: each seat's own, on its own phone only --------------------------------------
    # (Each in the order of the tokens' list, the order a phone sends and shows them in.)
    chosen = {"s1": ("Free Draw", "Refund", "Markdown"), "s2": ("General Tariff", "Embargo", "Immunity"),
              "s3": ("Embezzlement", "Cook the Books", "General Audit")}
    for seat, box, suffix in (("s1", ana, ""), ("s2", ben, ""), ("s3", cas, " for Cas")):
        for token in chosen[seat]:
            box.get_by_role("group", name="Your 3 tokens").get_by_role("checkbox", name=token, exact=True).check()
        press(s, box, "Choose 3 tokens" + suffix, confirm=True)
    s.synced()
    for seat, page in s.phones.items():
        mine = page.locator('#my-facts [data-fact="my_tokens"] .fact-value')
        expect(mine).to_have_text(", ".join(chosen[seat]))
        for other, tokens in chosen.items():
            if other != seat:
                for token in tokens:
                    expect(page.locator("#play-root")).not_to_contain_text(token)
    for page in (con, s.display):
        for tokens in chosen.values():
            for token in tokens:
                expect(page.locator(".game-facts")).not_to_contain_text(token)
    # Every seat holds 3 tokens: the number is public.
    for page in every_screen(s):
        expect(seat_fact(page, "s3", "tokens")).to_have_text("tokens 3")

    # -- Ana deals: the discard piles' tops on every screen -----------------------------------
    pick(ana, "Sand card", "Sand 4")
    pick(ana, "Blood card", "Blood 6")
    press(s, ana, "Turn up the discard piles")
    s.synced()
    for page in every_screen(s):
        expect(table_fact(page, "discards")).to_have_text("Sand 4 · Blood 6")
        expect(table_fact(page, "draw_piles")).to_have_text("Sand 18 · Blood 18")  # 22, less 3 dealt and 1 turned up
        for seat in ("s1", "s2", "s3"):
            expect(seat_fact(page, seat, "stock")).to_have_text("stock 6")
            expect(seat_fact(page, seat, "invested")).to_have_text("invested 0")

    # -- Ben (the starter) draws from the sand draw pile and discards Sand 2: a chip invested ---
    pick(ben, "From which pile", "Sand draw")
    pick(ben, "Keep it?", "Discard it")
    pick(ben, "The card discarded", "Sand 2")
    press(s, ben, "Draw")
    # -- Cas takes the blood discard pile's top and puts it back: no card entered ---------------
    pick(cas, "From which pile", "Blood discard")
    pick(cas, "Keep it?", "Discard it")
    expect(cas.get_by_role("radiogroup", name="The card discarded")
           .get_by_role("radio", name="None: the drawn card goes back", exact=True)).to_be_checked()
    press(s, cas, "Draw for Cas")
    # -- Ana plays Markdown: an effect in force until the reveal -------------------------------
    press(s, ana, "Play Markdown", confirm=True)
    s.synced()
    for page in every_screen(s):
        # Ben's Sand 2 on the sand pile; Cas's Blood 6 put back as it was.
        expect(table_fact(page, "discards")).to_have_text("Sand 2 · Blood 6")
        expect(table_fact(page, "draw_piles")).to_have_text("Sand 17 · Blood 18")
        expect(table_fact(page, "effect_markdown")).to_have_text(
            "Markdown: a Sylop is 0 instead of copying; two Sylops are still Pure Sabacc")
        for seat, stock, invested in (("s2", 5, 1), ("s3", 5, 1), ("s1", 6, 0)):
            expect(seat_fact(page, seat, "stock")).to_have_text(f"stock {stock}")
            expect(seat_fact(page, seat, "invested")).to_have_text(f"invested {invested}")
        expect(seat_fact(page, "s1", "tokens")).to_have_text("tokens 2")
    expect(s.phones["s1"].locator('#my-facts [data-fact="my_tokens"] .fact-value')).to_have_text("Free Draw, Refund")
    for page in s.phones.values():
        expect(page.locator("#log")).to_contain_text("Cas draws from the blood discard pile (Blood 6) and discards it")
    # The console says whose turn it is in the game's words (no betting round in Kessel).
    expect(con.locator("#hand-turn")).to_have_text("Round 1, turn 1: Ana: draw or stand.")
    # The display offers no shift sound: Kessel's dice never shift.
    expect(s.display.locator("#d-sound")).to_be_hidden()
    screenshot(s.phones["s1"], "facts-kessel-phone")
    screenshot(con, "facts-kessel-console")
    screenshot(s.display, "facts-kessel-display")

    # -- K39 from the phone: Ben leaves mid-round, entering the two cards he holds -------------
    s.synced()
    mine = s.phones["s2"].locator("#seat-actions")
    for code, tab in (("s5", "sand"), ("b3", "blood")):
        mine.locator(f'.suit-tab[data-tab="{tab}"]').click()
        mine.locator(f'.card-btn[data-code="{code}"]').click()
    press(s, mine, "Leave the game (your two cards go on the discard piles)", confirm=True)
    s.synced()
    for page in (con, s.display, s.phones["s1"]):
        expect(table_fact(page, "discards")).to_have_text("Sand 5 · Blood 3")
        expect(page.locator("#seats, #seat-list, #d-seats").locator('li[data-seat="s2"]')).to_have_count(0)
    assert [p["seat"] for p in s.owner.view(None)[1]["seats"]] == ["s1", "s3"]
    assert s.errors == []


def font_px(locator) -> float:
    return float(locator.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))


def test_coruscant_target_large_and_selection_counts_on_every_screen(screens):
    s = screens
    con = s.set_up("coruscant-starcruiser")
    for name in ("Ana", "Ben", "Cas"):
        s.act(lambda: con.get_by_role("button", name=f"Buy in: {name}").click())
    s.act(lambda: con.get_by_role("button", name="Start the next hand").click())
    ana, ben = s.phones["s1"], s.phones["s2"]
    s.synced()
    for page in every_screen(s):
        expect(table_fact(page, "ante")).to_have_text("5")
        expect(page.locator('[data-fact="target"]')).to_have_count(0)  # the dice set it, not yet rolled
    s.act(lambda: tap(ana, "Roll the dice"))
    target = s.owner.view(None)[1]["hand"]["target"]
    words = target_words(target["number"], target["suit"])
    s.synced()
    # The target in large type: at least twice the page's own type, and as large as each
    # screen's role asks (a phone in a hand, the console on a laptop, a TV across the table).
    for page, least in ((ana, 40), (ben, 40), (con, 44), (s.display, 100)):
        value = table_fact(page, "target")
        expect(value).to_have_text(words)
        expect(value).to_be_visible()
        body = float(page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)"))
        size = font_px(value)
        assert size >= least and size >= 2 * body, (page.url, size, body)
    # The display offers no shift sound: these dice set a target, they never shift.
    expect(s.display.locator("#d-sound")).to_be_hidden()

    # -- the selection counts on every seat list, as each is recorded -----------------------------
    # Each choice is made on moves drawn from the latest version and taking taps: a redraw
    # after the choice would clear it, and a tap while they settle is ignored.
    box = ben.locator("#actions")
    choose(s, box, "3")
    s.act(lambda: tap_button(box, "My selection: how many cards"))
    s.synced()
    for page in every_screen(s):
        expect(seat_fact(page, "s2", "selection")).to_have_text("selection 3 cards")
        expect(seat_fact(page, "s1", "selection")).to_have_count(0)
    con.locator("#play-seat").select_option(label="Cas")
    moves = con.locator("#seat-moves")
    choose(s, moves, "1")
    s.act(lambda: tap_button(moves, "My selection: how many cards for Cas"))
    s.synced()
    for page in every_screen(s):
        expect(seat_fact(page, "s3", "selection")).to_have_text("selection 1 card")
    screenshot(ana, "facts-coruscant-phone")
    screenshot(con, "facts-coruscant-console")
    screenshot(s.display, "facts-coruscant-display")
    assert s.errors == []
