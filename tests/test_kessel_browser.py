"""Issue 30: a whole game of Kessel Sabacc (the `kessel` preset, 4 chips each) played in
Chromium through the pages alone, which know no game: two phones join by the join page, the console plays a third seat,
the display watches. Every move is drawn from the server's offers (their words and inputs).

Seats in join order: s1 Ana (a phone), s2 Ben (a phone), s3 Cas (the console plays it)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from conftest import screenshot
from test_plugin_game_browser import Screens

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def screens(chromium, live_server):
    s = Screens(chromium, live_server)
    yield s
    s.close()


class Seat:
    """Where a seat's moves are drawn: a phone's #actions, or the console's moves for the seat
    (its buttons say "… for <name>")."""

    def __init__(self, s, seat, name):
        self.s, self.name = s, name
        self.phone = s.phones.get(seat)
        self.box = self.phone.locator("#actions") if self.phone else s.console.locator("#seat-moves")
        self.suffix = "" if self.phone else f" for {name}"

    def pick(self, group, option):
        """Choose `option` of the offer's one-of choice `group`."""
        self.box.get_by_role("radiogroup", name=group).get_by_role("radio", name=option, exact=True).check()

    def tick(self, group, option):
        """Tick `option` of the offer's choice of several, `group`."""
        self.box.get_by_role("group", name=group).get_by_role("checkbox", name=option, exact=True).check()

    def press(self, words, confirm=False):
        """Press the offer's button (twice where it asks to confirm); wait for the table to take it."""
        button = self.box.get_by_role("button", name=words + self.suffix, exact=True)

        def do():
            button.click()
            if confirm:
                again = self.box.get_by_role("button", name=f"Tap again: {(words + self.suffix).lower()}", exact=True)
                expect(again).to_be_visible()
                again.click()
        self.s.act(do)


def test_a_kessel_game_through_the_pages(screens):
    s = screens
    con = s.set_up("kessel")
    for name in ("Ana", "Ben", "Cas"):
        s.act(lambda: con.get_by_role("button", name=f"Buy in: {name}").click())
    # Four chips each (the fewest K5 allows), from the console's settings; Ana deals (the
    # console's next dealer); Ben, on her left, starts.
    con.get_by_label("Chips each at the start").fill("4")
    s.act(lambda: con.get_by_role("button", name="Play this from the next hand").click())
    con.get_by_label("Next dealer").select_option(label="Ana")
    s.act(lambda: con.get_by_role("button", name="Set the dealer").click())
    s.act(lambda: con.get_by_role("button", name="Start the next hand").click())
    con.locator("#play-seat").select_option(label="Cas")
    ana, ben, cas = Seat(s, "s1", "Ana"), Seat(s, "s2", "Ben"), Seat(s, "s3", "Cas")
    # Kessel's credits pot: the three buy-ins of 100.
    s.money({"s1": 0, "s2": 0, "s3": 0}, 300)

    # -- each chooses 3 shift tokens (the offer's choice of three, asked twice) -----------------
    expect(ana.phone.locator("#turn")).to_have_text("Hand 1. You: choose 3 shift tokens.")
    before = s.version
    ana.box.get_by_role("group", name="Your 3 tokens").get_by_role("checkbox", name="Free Draw", exact=True).check()
    ana.box.get_by_role("button", name="Choose 3 tokens", exact=True).click()
    expect(ana.box).to_contain_text("Choose 3: your 3 tokens.")  # two are missing: nothing sent
    assert s.version == before
    for seat, tokens in ((ana, ("Refund", "Embargo")), (ben, ("Free Draw", "Refund", "Markdown")),
                         (cas, ("Refund", "General Audit", "Embargo"))):
        for token in tokens:
            seat.tick("Your 3 tokens", token)
        seat.press("Choose 3 tokens", confirm=True)
    # Ana deals: she turns up the first card of each discard pile, from her phone.
    expect(ana.phone.locator("#turn")).to_have_text("Hand 1. You: turn up the first card of each discard pile.")
    ana.pick("Sand card", "Sand 4")
    ana.pick("Blood card", "Blood 6")
    ana.press("Turn up the discard piles")

    # -- round 1, turn 1: Ben plays a token, then draws; Cas draws from a discard pile; Ana stands --
    expect(ben.phone.locator("#turn")).to_have_text("Hand 1. Round 1, turn 1: You: draw or stand.")
    ben.press("Play Free Draw", confirm=True)
    ben.pick("From which pile", "Sand draw")
    ben.pick("Keep it?", "Keep")
    ben.pick("The card discarded", "Sand 2")
    ben.press("Draw")
    cas.pick("From which pile", "Blood discard")
    cas.pick("Keep it?", "Keep")
    cas.pick("The card discarded", "Blood 3")
    cas.press("Draw")
    ana.press("Stand")
    for page in (s.display, ana.phone):
        log = page.locator("#d-log" if page is s.display else "#log")
        expect(log).to_contain_text("Ben plays Free Draw.")
        expect(log).to_contain_text("Ben draws from the sand draw pile and keeps it; Sand 2 is on top.")
        expect(log).to_contain_text("Cas draws from the blood discard pile (Blood 6) and keeps it; Blood 3 is on top.")
        expect(log).to_contain_text("Ana stands.")

    # -- turn 2: everyone stands, and the round goes to the reveal at once (K11) ---------------
    ben.press("Stand")
    cas.press("Stand")
    ana.press("Stand")

    # -- the reveal, from the starter: each shows two cards with the card picker ---------------
    def show(seat, cards):
        for code in cards:
            seat.box.locator(f'.suit-tab[data-tab="{"sand" if code[0] == "s" else "blood"}"]').click()
            seat.box.locator(f'.card-btn[data-code="{code}"]').click()
        seat.press("Show my hand", confirm=True)

    expect(ben.phone.locator("#actions").get_by_role("button", name="Show my hand", exact=True)).to_be_visible()
    show(ben, ("ss", "bs"))  # the two Sylops: Pure Sabacc, the best hand
    show(cas, ("s6", "b2"))
    screenshot(ana.phone, "kessel-phone-reveal")
    show(ana, ("s3", "bi"))  # an Impostor: its value comes from two dice
    expect(ana.phone.locator("#turn")).to_have_text("Hand 1. The scrambler rolls two dice for the Impostor.")
    ana.press("Roll the dice")  # the on-screen roller (no scrambler at this table)
    # The two dice, as the turn words say them, are the two values offered.
    turn = ana.phone.locator("#turn")
    expect(turn).to_have_text(re.compile(r"^Hand 1\. You: take [1-6] or [1-6] for the Impostor\.$"))
    roll = [int(d) for d in re.findall(r"take ([1-6]) or ([1-6])", turn.inner_text())[0]]
    dice = ana.box.get_by_role("radiogroup", name="Which die").get_by_role("radio")
    expect(dice).to_have_count(len(set(roll)))
    expect(s.display.locator("#d-log")).to_contain_text(f"Ana rolls {roll[0]} and {roll[1]}")
    ana.pick("Which die", str(roll[0]))
    ana.press("Take a value")

    # -- round 1's result, on every screen: Ben's Pure Sabacc wins; the next round's dealer -----
    value = roll[0]
    words = f"Ana shows Sand 3 and Blood Impostor: difference {abs(3 - value)} (3/{value})."
    for log in (s.display.locator("#d-log"), ana.phone.locator("#log"), ben.phone.locator("#log")):
        expect(log).to_contain_text("Ben shows Sand Sylop and Blood Sylop: Pure Sabacc.")
        expect(log).to_contain_text("Cas shows Sand 6 and Blood 2: difference 4 (6/2).")
        expect(log).to_contain_text(f"Ana takes {value} for the Blood Impostor.")
        expect(log).to_contain_text(words)
        expect(log).to_contain_text(re.compile(r"Ben wins round 1; Cas out; \d+ chips leave the table\."))
    seats = s.display.locator("#d-seats")
    expect(seats.locator('li[data-seat="s2"]')).to_contain_text("Hand: Sand Sylop, Blood Sylop")
    expect(seats.locator('li[data-seat="s1"]')).to_contain_text("Hand: Sand 3, Blood Impostor")
    expect(s.display.locator("#d-turn")).to_have_text("Ben: turn up the first card of each discard pile.")
    expect(ben.phone.locator("#actions").get_by_role("button", name="Turn up the discard piles", exact=True)).to_be_visible()
    # (Cas paid a chip to draw and owed 4 with 3 left: out, as the round's words say.)
    # The credits pot stays whole until the game is won.
    s.money({"s1": 0, "s2": 0, "s3": 0}, 300)
    screenshot(s.display, "kessel-display")

    # -- round 2: Ben deals; Ana and Ben stand to the reveal; Ana's difference of 5 puts her out --
    ben.pick("Sand card", "Sand 1")
    ben.pick("Blood card", "Blood 1")
    ben.press("Turn up the discard piles")
    show_button = ana.box.get_by_role("button", name="Show my hand", exact=True)
    for _ in range(6):
        s.synced()  # every page drawn from the latest view before its buttons are read
        if show_button.count() or ben.box.get_by_role("button", name="Show my hand", exact=True).count():
            break
        who = ana if ana.box.get_by_role("button", name="Stand", exact=True).count() else ben
        who.press("Stand")
    s.synced()
    first, second = (ana, ben) if show_button.count() else (ben, ana)
    show(first, ("ss", "bs") if first is ben else ("s6", "b1"))
    show(second, ("ss", "bs") if second is ben else ("s6", "b1"))
    # Ben is the last with chips: he takes the whole credits pot.
    s.money({"s1": 0, "s2": 300, "s3": 0}, 0)
    for log in (s.display.locator("#d-log"), ana.phone.locator("#log"), ben.phone.locator("#log")):
        expect(log).to_contain_text("Ben wins the game")
    hands = s.display.locator("#d-result-hands")
    expect(hands.locator("tr", has_text="Ben")).to_contain_text("Wins the credits pot")
    expect(hands.locator("tr", has_text="Ben")).to_contain_text("+200")
    expect(hands.locator("tr", has_text="Ana")).to_contain_text("Sand 6, Blood 1")
    expect(ben.phone.locator("#result-mine")).to_contain_text("Your stack is now 300")
    screenshot(s.display, "kessel-display-game-over")
    assert s.errors == []
