"""Issue 18 in the browser (Debian's Chromium): one test per item, at phone (360×640) and
display (1920×1080) size, and a whole evening: three hands of one rule set, a switch to another
from the host console, two more hands, the cash-out, and the export read back and checked
against the ledger. The host's part that is not under test goes through the API
(tests/evening_script.py); the dice are fixed through the table's owner.

Seats in join order: s1 Lando (the first dealer), s2 Han, s3 Chewie."""

from __future__ import annotations

import csv
import io
import json
from collections import deque
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from companion.table.registry import registry_for
from conftest import DISPLAY, PHONE, screenshot
from evening_script import Host
from test_evening import play_evening, replayed
from test_play_browser import api

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def http_post(base: str):
    """`post(path, body, token)` for evening_script.Host against the live server (the play
    test's JSON request)."""
    server = SimpleNamespace(url=base)
    return lambda path, body, token: api(server, path, body, token)


class Dice:
    """The table's roller: the dice a test queued, else a roll with no shift (weg: 6)."""

    def __init__(self, default=(6,)):
        self.queue: deque[tuple[int, ...]] = deque()
        self.default = default

    def dice(self, trigger):
        return tuple(self.queue.popleft()) if self.queue else self.default


class Evening:
    """A table of the live server, with pages for its phones, its display and its console."""

    def __init__(self, chromium, live_server, rules, **kw):
        self.chromium, self.server = chromium, live_server
        self.host = Host(http_post(live_server.url), rules, **kw)
        self.code = self.host.code
        self.owner = registry_for(live_server.app).get(self.code)
        self.dice = Dice()
        self.owner.roller = self.dice
        self.contexts = []
        self.errors: list[str] = []

    def _page(self, size, init: str | None = None):
        context = self.chromium.new_context(**size)
        self.contexts.append(context)
        if init:
            context.add_init_script(init)
        page = context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page

    def synced(self, page):
        expect(page.locator("body")).to_have_attribute("data-version", str(self.owner.version))

    def took(self, page, do) -> None:
        """Do `do()` (a tap that sends one entry) and wait until `page` shows the version that
        entry made. The version is read before the tap: read after it, it races the entry; and
        a page's text may say what the entry will do before it lands (a preset's title is
        always among the console's presets)."""
        before = self.owner.version
        do()
        expect(page.locator("body")).to_have_attribute("data-version", str(before + 1))

    def phone(self, seat: str, size=PHONE):
        info = self.host.seats[seat]
        stored = json.dumps(json.dumps({"seat": seat, "token": info["token"], "name": info["name"]}))
        page = self._page(size, f"localStorage.setItem('sabacc.seat.{self.code}', {stored})")
        page.goto(f"{self.server.url}/t/{self.code}/seat")
        page.locator("#seat-ui").wait_for()
        self.synced(page)
        return page

    def display(self):
        page = self._page(DISPLAY)
        page.goto(f"{self.server.url}/t/{self.code}/display")
        self.synced(page)
        return page

    def console(self, size=DISPLAY):
        page = self._page(size, f"localStorage.setItem('sabacc.host.{self.code}', {json.dumps(self.host.token)})")
        page.goto(f"{self.server.url}/t/{self.code}/host")
        page.locator("#host-area:not([hidden])").wait_for()
        return page

    def close(self):
        for c in self.contexts:
            c.close()
        assert not self.errors, self.errors


@pytest.fixture
def evening(chromium, live_server):
    made = []

    def make(rules, **kw):
        e = Evening(chromium, live_server, rules, **kw)
        made.append(e)
        return e
    yield make
    for e in made:
        e.close()


# -- money ------------------------------------------------------------------------------------


def test_item1_every_legal_bet_and_raise_amount_is_reachable(evening):
    # weg: after Han's bet of 2 the limit (3) allows raises to 3, 4 and 5: all three are buttons.
    t = evening("weg")
    t.host.do("start_hand")
    t.host.do("bet", seat="s2", amount=2)
    chewie = t.phone("s3")
    row = chewie.locator('#actions [role="group"][aria-label="Raise to"] button')
    expect(row).to_have_text(["Raise to 3", "Raise to 4", "Raise to 5"])
    t.took(chewie, lambda: row.nth(1).click())
    assert t.host.state()["hand"]["current_bet"] == 4
    # The console, playing Lando (no phone needed): raises to 5, 6 and 7.
    console = t.console()
    console.locator("#play-seat").select_option("s1")
    expect(console.locator("#seat-moves")).to_contain_text("Raise to 6 for Lando")
    assert console.get_by_role("button", name="Raise to 5 for Lando").is_visible()
    assert console.get_by_role("button", name="Raise to 7 for Lando").is_visible()

    # classic (no limit): a stepped amount for the rest, checked before anything is sent.
    c = evening("classic")
    c.host.do("start_hand")
    han = c.phone("s2")
    form = han.locator("form.amount-form").first
    field = form.locator("input")
    before = c.owner.version
    field.fill("60")
    form.get_by_role("button", name="Bet", exact=True).click()
    expect(form.locator(".field-error")).to_contain_text("from 1 to 48")
    assert c.owner.version == before  # never sent
    field.fill("16")
    form.get_by_role("button", name="Bet one more").click()
    expect(field).to_have_value("17")
    form.get_by_role("button", name="Bet", exact=True).click()
    expect(han.locator("body")).to_have_attribute("data-version", str(before + 1))
    assert c.host.state()["hand"]["current_bet"] == 17
    screenshot(han, "evening-item1-amounts-phone")


def test_item2_results_after_a_sudden_demise_show_the_demise_cards_totals_and_why(evening):
    t = evening("classic", names=("Lando", "Han"))
    t.host.classic_demise_hand()
    state = t.host.state()
    hands = {x["name"]: x for x in state["hand"]["settlement"]["hands"]}
    # Lando (s1, the caller) holds 19 and draws the 2 of Sabers: 21; Han's 8 of Coins makes 27.
    assert hands["s1"]["demise_total"] == 21 and hands["s2"]["demise_kind"] == "bomb_out"
    han, display = t.phone("s2"), t.display()
    for page, where in ((han, "#result-hands"), (display, "#d-result-hands")):
        lando = page.locator(f'{where} tr[data-seat="s1"]')
        expect(lando.locator(".sd-demise")).to_have_text("2 of Sabers → 21 (ordinary)")
        expect(lando.locator(".sd-result")).to_contain_text("the best after the demise; wins the hand pot")
        expect(lando.locator(".sd-total")).to_have_text("19")  # the total before, beside the one after
        row = page.locator(f'{where} tr[data-seat="s2"]')
        expect(row.locator(".sd-demise")).to_have_text("8 of Coins → 27 (bombed out)")
        expect(row.locator(".sd-result")).to_contain_text("the total is 27, bombed out")
    screenshot(han, "evening-result-after-demise-phone")
    screenshot(display, "evening-result-after-demise-display")
    history = t._page(PHONE)
    history.goto(f"{t.server.url}/t/{t.code}/history")
    row = history.locator('.showdown-table tr[data-seat="s1"]')
    expect(row.locator(".sd-demise")).to_have_text("2 of Sabers: 21, ordinary")
    expect(row.locator(".sd-why")).to_contain_text("wins the hand pot")


def test_item3_side_pots_show_only_where_an_all_in_made_them(evening):
    t = evening("classic", stack=50)
    t.host.do("cash_out", seat="s1", amount=40)  # Lando keeps 10: he will go all-in
    t.host.do("start_hand")
    han, display = t.phone("s2"), t.display()
    t.host.do("bet", seat="s2", amount=5)
    t.host.do("raise", seat="s3", to=15)  # three commitment levels, nobody all-in
    t.synced(han), t.synced(display)
    expect(han.locator("#side-pots")).to_have_text("")
    expect(display.locator("#d-side-pots")).to_have_text("")
    t.host.do("all_in", seat="s1")  # Lando's 9: now a side pot exists
    t.synced(han), t.synced(display)
    expect(han.locator("#side-pots")).to_contain_text("side pot 1")
    expect(display.locator("#d-side-pots")).to_contain_text("side pot 1")


def test_item4_the_net_for_the_hand_is_shown_with_the_payout_beside_it(evening):
    t = evening("weg")
    t.host.folded_hand("s2")  # Han: ante 1 + sabacc ante 1 + bet 2; paid out 5
    han = t.phone("s2")
    expect(han.locator("#result-mine")).to_have_text("Your stack is now 51: +1 this hand (paid out 5).")
    expect(han.locator('#result-hands tr[data-seat="s2"] .sd-net')).to_have_text("+1")
    expect(han.locator('#result-hands tr[data-seat="s2"] .sd-payout')).to_have_text("5")
    lando = t.phone("s1")
    expect(lando.locator("#result-mine")).to_have_text("Your stack is now 47: −3 this hand.")


def test_item5_the_display_result_fits_1080p_with_eight_players(evening):
    names = ("Lando Calrissian", "Han Solo", "Chewbacca", "Leia Organa", "Luke Skywalker",
             "Lobot of Bespin", "Nien Nunb", "Wedge Antilles")
    t = evening("classic", names=names)
    t.host.classic_demise_hand()  # two play it out, six fold: eight rows in the result
    display = t.display()
    display.locator("#d-result:not([hidden])").wait_for()
    expect(display.locator("#d-result-hands tbody tr")).to_have_count(8)
    screenshot(display, "evening-display-eight-players")
    bottom = display.evaluate("() => Math.max(...[...document.querySelectorAll('#d-result, #d-seats, .d-join')]"
                              ".map((e) => e.getBoundingClientRect().bottom))")
    assert bottom <= 1080, bottom
    assert display.evaluate("() => document.documentElement.scrollHeight") <= 1080
    size = display.locator("#d-join-url").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 32, size  # readable from 3 m (it was 16 px)


# -- taps, words and flow ---------------------------------------------------------------------


def test_item6_a_new_button_under_the_finger_ignores_the_old_tap_and_says_so(evening):
    t = evening("weg")
    t.host.do("start_hand")
    t.host.do("check", seat="s2")
    han = t.phone("s2")
    roll = han.get_by_role("button", name="Roll the scrambler")
    expect(roll).to_be_visible()  # drawn: on a slow machine the page may still be drawing its moves
    box = roll.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    before = t.owner.version
    han.wait_for_timeout(1000)  # the page has just drawn its moves: let them settle
    han.mouse.click(x, y)  # Roll: the moves are drawn again, a draw button under the finger
    expect(han.locator("body")).to_have_attribute("data-version", str(before + 1))
    # Where the finger was: a draw button has taken Roll's place (the part of it that overlaps).
    spot = han.evaluate("""(r) => {
        for (const b of document.querySelectorAll('#actions button[data-action="draw"]')) {
          const n = b.getBoundingClientRect();
          const top = Math.max(n.top, r.y), bottom = Math.min(n.bottom, r.y + r.height);
          if (bottom > top) return [n.left + n.width / 2, (top + bottom) / 2];
        }
        return null; }""", box)
    assert spot, "no new button where Roll was"
    x, y = spot
    han.mouse.click(x, y)  # the second tap of a double tap, meant for Roll
    expect(han.locator(".tap-ignored")).to_contain_text("ignored")  # not silent
    han.wait_for_timeout(300)
    assert t.owner.version == before + 1  # the new button did nothing
    han.wait_for_timeout(1000)
    han.get_by_role("button", name="Stand").click()  # a deliberate tap, later: it acts
    expect(han.locator("body")).to_have_attribute("data-version", str(before + 2))


def test_item7_stale_messages_are_cleared_and_an_undo_says_what_it_undid(evening):
    t = evening("weg")
    t.host.do("start_hand")
    han = t.phone("s2")

    # A tap that arrives after the table moved on: the words go when the next hand begins.
    def move_on_first(route):
        t.host.do("adjust", seat="s3", amount=1, reason="a chip under the table")
        route.continue_()
    han.route("**/commands", move_on_first)
    han.wait_for_timeout(1000)  # the moves were just drawn: a tap now would be ignored
    han.get_by_role("button", name="Check").click()
    stale = han.locator("[data-stale-hand]")
    expect(stale).to_contain_text("tap once more")
    han.unroute("**/commands")
    for seat in ("s3", "s1"):
        t.host.do("fold", seat=seat)
    t.host.do("start_hand")
    t.synced(han)
    expect(han.locator("[data-stale-hand]")).to_have_count(0)
    assert "tap once more" not in han.locator("#actions-panel").inner_text()

    # A refused fold: the button is itself again, and one tap arms it.
    t.host.do("bet", seat="s3", amount=2)  # hand 2: Chewie opens (Han dealt)
    lando = t.phone("s1")
    fold = lando.locator('#actions button[data-action="fold"]')
    lando.wait_for_timeout(1000)
    fold.click()
    expect(fold).to_have_text("Tap again: fold")
    lando.route("**/commands", lambda r: r.fulfill(status=409, content_type="application/json",
                                                    body=json.dumps({"error": "not now", "field": None})))
    lando.wait_for_timeout(450)
    fold.click()
    expect(lando.locator("#actions-panel .field-error")).to_have_text("not now")
    expect(fold).to_have_text("Fold")
    lando.unroute("**/commands")
    lando.wait_for_timeout(450)
    fold.click()
    expect(fold).to_have_text("Tap again: fold")

    # An undo says what it undid.
    console = t.console()
    bet_seq = t.owner.version
    console.get_by_role("button", name="Undo the last entry").click()
    expect(console.locator("#undo-result")).to_have_text(f"Undone: Chewie's bet of 2 (entry {bet_seq}).")
    expect(lando.locator("#log li").first).to_have_text("The host undid Chewie's bet of 2")

    # The dealer's instructions are gone at the reveal.
    c = evening("classic", names=("Lando", "Han"))
    c.host.do("start_hand")
    lando_c, display = c.phone("s1"), c.display()
    expect(display.locator("#d-deal")).to_be_visible()
    expect(lando_c.locator("#deal")).to_be_visible()
    roll = {"dice": [1, 2]}
    for typ, seat, extra in [("check", "s2", {}), ("roll", None, roll), ("draw", "s2", {"action": "stand"}),
                             ("check", "s1", {}), ("roll", None, roll), ("draw", "s1", {"action": "stand"}),
                             ("check", "s2", {}), ("roll", None, roll), ("call_hand", "s1", {})]:
        c.host.do(typ, **extra, **({"seat": seat} if seat else {}))
    assert c.host.state()["hand"]["stage"] == "reveal"
    c.synced(display), c.synced(lando_c)
    expect(display.locator("#d-deal")).to_be_hidden()
    expect(lando_c.locator("#deal")).to_be_hidden()


def test_a_first_tap_stays_armed_when_the_moves_are_drawn_again_and_runs_out_after_4s(evening):
    """A move that asks twice (a fold) is tapped once; before the second tap the table moves on
    (the host corrects the player's stack, so he can no longer call or raise), which draws the
    moves again. The new button is still armed and one more tap sends it: on the phone and on
    the console playing a seat. An arming four seconds old has run out: one tap only arms
    again (the console's used to last for ever)."""
    t = evening("weg")
    t.host.do("start_hand")
    t.host.do("bet", seat="s2", amount=2)  # Chewie (s3), then Lando (s1), face Han's bet of 2
    chewie, con = t.phone("s3"), t.console()
    not_settling = "() => !document.querySelector('.settling, [aria-busy=true]')"

    def all_but_one(seat: str) -> None:
        stack = t.owner.table.to_json()["seats"][seat]["stack"]
        t.host.do("adjust", seat=seat, amount=1 - stack, reason="a chip under the table")

    def folded(seat: str) -> bool:
        return t.owner.table.to_json()["hand"]["p"][seat]["folded"]

    # The phone: Chewie's first tap on Fold, then the host corrects his stack.
    fold = chewie.locator('#actions button[data-action="fold"]')
    chewie.wait_for_function(not_settling)
    fold.click()
    expect(fold).to_have_text("Tap again: fold")
    fold.evaluate("b => { window.firstButton = b; }")
    before = t.owner.version
    all_but_one("s3")
    t.synced(chewie)
    chewie.wait_for_function("() => !window.firstButton.isConnected")  # the moves were drawn again
    expect(fold).to_have_text("Tap again: fold")
    chewie.wait_for_function(not_settling)
    fold.click()
    expect(chewie.locator("body")).to_have_attribute("data-version", str(before + 2))
    assert folded("s3")

    # The console playing Lando (s1, to act now): the same, then an arming that ran out.
    con.locator("#play-seat").select_option("s1")
    box = con.locator("#seat-moves")
    expect(con.locator("#seat-play-for")).to_have_text("Moves for Lando")
    lando_fold = box.get_by_role("button", name="Fold for Lando", exact=True)
    con.wait_for_function(not_settling)
    lando_fold.click()
    armed = box.get_by_role("button", name="Tap again: fold for lando", exact=True)
    expect(armed).to_be_visible()
    armed.evaluate("b => { window.firstButton = b; }")
    all_but_one("s1")
    t.synced(con)
    con.wait_for_function("() => !window.firstButton.isConnected")  # the moves were drawn again
    con.wait_for_function(not_settling)
    expect(armed).to_be_visible()  # the new button is still armed
    con.wait_for_timeout(4300)  # the arming runs out
    expect(lando_fold).to_be_visible()
    before = t.owner.version
    lando_fold.click()  # one tap, four seconds after the first: it only arms again
    expect(armed).to_be_visible()
    assert t.owner.version == before and not folded("s1")
    con.wait_for_function(not_settling)
    armed.click()
    expect(con.locator("body")).to_have_attribute("data-version", str(before + 1))
    assert folded("s1")


def test_item8_a_players_next_action_counts_as_done_after_a_shift(evening):
    t = evening("weg")
    t.host.do("start_hand")
    t.host.do("check", seat="s2")
    t.dice.queue.append((1,))  # a 1: a rim shift
    han = t.phone("s2")
    han.get_by_role("button", name="Roll the scrambler").click()
    expect(han.locator("#shift")).to_be_visible()
    han.wait_for_timeout(1000)
    before = t.owner.version
    han.get_by_role("button", name="Stand").click()  # his next move, no "Done" tap first
    expect(han.locator("#shift")).to_be_hidden()
    expect(han.locator("body")).to_have_attribute("data-version", str(before + 1))  # and it acted


def test_item9_the_console_seats_a_phoneless_player_and_offers_its_static_field(evening):
    t = evening("classic", names=("Lando", "Han"))
    console = t.console()
    console.get_by_label("Seat a player without a phone", exact=False).fill("Bib Fortuna")
    console.get_by_role("button", name="Add the seat").click()
    expect(console.locator("#add-seat-done")).to_contain_text("Bib Fortuna has seat s3")
    expect(console.locator("#seat-list .seat-name")).to_have_text(["Lando", "Han", "Bib Fortuna"])
    expect(console.locator("#play-seat")).to_have_value("s3")
    t.host.do("buy_in", seat="s3", amount=50)
    t.host.do("start_hand")
    wrap = console.locator("#seat-kept-wrap")
    expect(wrap).to_be_visible()
    expect(console.locator("#seat-kept-name")).to_have_text("Bib Fortuna")
    console.locator('#seat-kept-picker .suit-tab[data-tab="sa"]').click()
    console.locator('#seat-kept-picker .card-btn[data-code="sa5"]').click()
    console.get_by_role("button", name="Add to my static field").click()
    expect(console.locator("#seat-kept-list")).to_contain_text("5 of Sabers")
    bib = next(p for p in t.host.state()["hand"]["players"] if p["seat"] == "s3")
    assert bib["static"] == ["sa5"]


def test_item10_the_current_moves_stay_in_view_at_360x640(evening):
    t = evening("weg")
    t.host.do("start_hand")
    t.host.do("bet", seat="s2", amount=3)
    chewie = t.phone("s3")
    call = chewie.get_by_role("button", name="Call 3")
    expect(call).to_be_visible()
    box = call.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 640, box  # no scrolling needed
    screenshot(chewie, "evening-item10-call-in-view-phone")


def test_item11_holodex_standings_say_how_to_settle_credits_smaller_than_a_chip(evening):
    t = evening("holodex", names=("Lando", "Han"), stack=500)
    t.host.folded_hand("s2")  # a fold fee of 1 against a smallest chip of 5
    t.host.do("end_session", sabacc_pot="carry")
    console = t.console()
    standings = console.locator("#standings")
    expect(standings).to_be_visible()
    text = standings.inner_text()
    assert "without a chip" not in text
    # Issue 28 item 17: the table's rule rounds the odd credits to whole chips (chips.hand_back).
    assert "below the smallest chip, rounded" in text and "IOU" not in text


def test_item12_dealers_choice_from_the_console_keeps_seats_stacks_and_history(evening):
    t = evening("weg")
    t.host.folded_hand("s2")
    stacks = {s["seat"]: s["stack"] for s in t.host.state()["seats"]}
    console = t.console()
    console.locator("#rules-preset").select_option("classic")
    console.get_by_label("Bet and raise limit, credits").fill("10")
    t.took(console, console.get_by_role("button", name="Play this from the next hand").click)
    expect(console.locator("#host-area")).to_contain_text("Classic Sabacc v1.01 (classic)")
    state = t.host.state()
    assert state["rules"]["name"] == "classic" and state["rules"]["bet_limit"] == 10
    assert {s["seat"]: s["stack"] for s in state["seats"]} == stacks
    console.get_by_role("button", name="Start the next hand").click()
    expect(console.locator("#hand-no")).to_have_text("2")
    for seat in ("s3", "s1"):  # hand 2: Chewie first
        t.host.do("fold", seat=seat)
    page = t._page(PHONE)
    page.goto(f"{t.server.url}/t/{t.code}/history")
    expect(page.locator("table.hands tbody tr td.game")).to_have_text(
        ["West End Games (1989)", "Classic Sabacc v1.01 (bet limit 10)"])
    expect(page.locator(".game-runs")).to_contain_text("Hand 2: Classic Sabacc v1.01 (bet limit 10)")
    page.goto(f"{t.server.url}/t/{t.code}/rules")
    expect(page.locator(".game-runs")).to_contain_text("Hand 1: West End Games (1989)")


def test_item13_the_cash_out_shows_final_standings_everywhere_and_exports(evening):
    t = evening("weg")
    for bettor in ("s2", "s3"):
        t.host.folded_hand(bettor)
    han, display, console = t.phone("s2"), t.display(), t.console()
    pot = t.host.state()["sabacc_pot"]
    console.get_by_label("Split it among the players still seated", exact=False).check()
    console.get_by_role("button", name="End the session…").click()
    console.get_by_role("button", name="Yes, end the session now").click()
    expect(console.locator("#standings")).to_be_visible()
    state = t.host.state()
    assert state["ended"] and state["sabacc_pot"] == 0
    assert sum(r["sabacc_share"] for r in state["standings"]) == pot
    mine = next(r for r in state["standings"] if r["seat"] == "s2")
    t.synced(han), t.synced(display)
    expect(han.locator("#final-mine")).to_contain_text(f"Hand back {mine['stack']} credits: {mine['chips']['words']}")
    expect(display.locator("#d-final")).to_be_visible()
    expect(display.locator("#d-final tbody tr")).to_have_count(3)
    screenshot(han, "evening-final-standings-phone")
    screenshot(display, "evening-final-standings-display")
    console.locator("#summary-link").click()
    expect(console.locator("h2#final-h")).to_have_text("Final standings")
    screenshot(console, "evening-export-summary-display")
    got = console.context.request.get(console.locator("#export-csv").evaluate("a => a.href"))
    assert got.status == 200 and got.headers["content-type"].startswith("text/csv")


def test_whole_evening_switch_cash_out_and_export_checked_against_the_ledger(evening, live_server):
    t = evening("weg")
    han, display = t.phone("s2"), t.display()
    play_evening(t.host)  # 3 weg hands, the switch to classic, 2 hands (a demise), the cash-out
    t.synced(han), t.synced(display)
    expect(display.locator("#d-final tbody tr")).to_have_count(3)
    expect(han.locator("#final-panel")).to_be_visible()
    page = t._page(PHONE)
    page.goto(f"{live_server.url}/t/{t.code}/summary")
    expect(page.locator(".game-runs")).to_contain_text("Hands 1–3: West End Games (1989)")
    expect(page.locator(".game-runs")).to_contain_text("Hands 4–5: Classic Sabacc v1.01")
    screenshot(page, "evening-export-summary-phone")
    text = page.context.request.get(page.locator("#export-csv").evaluate("a => a.href")).text()
    rows = list(csv.DictReader(io.StringIO(text)))
    session = replayed(live_server.app, t.code).session()  # the ledger, applied again
    after = {r["hand"]: r for r in session["stack_history"]}
    assert len(rows) == 15
    for r in rows:
        assert int(r["stack_after"]) == after[int(r["hand"])]["stacks"][r["seat"]]
    for x in session["standings"]:
        nets = sum(int(r["net"]) for r in rows if r["seat"] == x["seat"])
        assert x["bought_in"] + nets + x["sabacc_share"] == x["stack"]
    shown = {tr.get_attribute("data-seat"): tr.locator("td").nth(1).inner_text()
             for tr in display.locator("#d-final tbody tr").all()}
    for x in session["standings"]:
        assert shown[x["seat"]].replace("−", "-").lstrip("+") == str(x["net"])
