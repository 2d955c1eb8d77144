"""Issue 30: a whole game of Kessel Sabacc (the `kessel` preset, 4 chips each) played in
Chromium through the pages alone, which know no game: three phones join by the join page, the
console plays a fourth seat, the display watches. Every move is drawn from the server's offers
(their words and inputs); the players enter the cards they hold at the reveal, chosen here to
give a Sabacc, an exact tie and eliminations.

Seats in join order: s1 Ana (a phone), s2 Ben (a phone), s3 Cas (the console plays it), s4 Dee
(a phone). Dee deals first, so Ana starts.

What the game has: draws from each of the four piles; stands (forced by Embargo and by an empty
stock too); seven different tokens (Immunity; Target Tariff, whose target cannot be the immune
Ana; Embargo; General Audit; Extra Refund; Cook the Books; Free Draw); an Impostor rolled on
the phone's roller; Ben's phone reloaded in the middle of round 1; a Sabacc (rounds 1 and 3), an
exact tie (round 2), an elimination every round, and Cas taking the credits pot."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from conftest import PHONE, screenshot, tap_button

pytestmark = [pytest.mark.browser, pytest.mark.slow]


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
        self.s.act(lambda: tap_button(self.box, words + self.suffix, confirm))


def show(seat, cards):
    """`seat` enters its two cards with the card picker and shows them."""
    seat.s.synced()  # the moves drawn from the latest view: a later redraw would drop the picks
    for code in cards:
        seat.box.locator(f'.suit-tab[data-tab="{"sand" if code[0] == "s" else "blood"}"]').click()
        seat.box.locator(f'.card-btn[data-code="{code}"]').click()
    seat.press("Show my hand", confirm=True)


def draw(seat, pile, discard):
    """`seat` draws from `pile`, keeps the card and enters the card it discards."""
    seat.s.synced()
    seat.pick("From which pile", pile)
    seat.pick("Keep it?", "Keep")
    seat.pick("The card discarded", discard)
    seat.press("Draw")


def turn_up(seat, sand, blood):
    """The dealer `seat` enters the two cards that start the discard piles."""
    seat.s.synced()
    seat.pick("Sand card", sand)
    seat.pick("Blood card", blood)
    seat.press("Turn up the discard piles")


def test_a_kessel_game_through_the_pages(screens):
    s = screens
    con = s.set_up("kessel")
    # A third phone: Dee joins by the join address the display shows.
    dee_phone = s.page(PHONE)
    dee_phone.goto(s.display.locator("#d-join-url").inner_text())
    dee_phone.get_by_label("Your name at the table").fill("Dee")
    dee_phone.get_by_role("button", name="Take a seat").click()
    expect(dee_phone.locator("#my-name")).to_have_text("Dee")
    s.phones["s4"] = dee_phone
    for name in ("Ana", "Ben", "Cas", "Dee"):
        s.act(lambda: con.get_by_role("button", name=f"Buy in: {name}").click())
    # Four chips each (the fewest K5 allows), from the console's settings; Dee deals, Ana starts.
    con.get_by_label("Chips each at the start").fill("4")
    s.act(lambda: con.get_by_role("button", name="Play this from the next hand").click())
    con.get_by_label("Next dealer").select_option(label="Dee")
    s.act(lambda: con.get_by_role("button", name="Set the dealer").click())
    s.act(lambda: con.get_by_role("button", name="Start the next hand").click())
    con.locator("#play-seat").select_option(label="Cas")
    ana, ben, cas, dee = Seat(s, "s1", "Ana"), Seat(s, "s2", "Ben"), Seat(s, "s3", "Cas"), Seat(s, "s4", "Dee")
    s.money({"s1": 0, "s2": 0, "s3": 0, "s4": 0}, 400)  # the credits pot: four buy-ins of 100

    def said(*words):
        """Every screen's log says each of `words` (the display, the three phones; the display
        keeps the last 8 lines, so this is asked after a few moves)."""
        for page in (s.display, *s.phones.values()):
            log = page.locator("#d-log" if page is s.display else "#log")
            for w in words:
                expect(log).to_contain_text(w)

    # -- each chooses 3 shift tokens, in secret -------------------------------------------------
    s.synced()
    for seat, tokens in ((ana, ("Immunity", "Free Draw", "Refund")),
                         (ben, ("Target Tariff", "Markdown", "Refund")),
                         (cas, ("Embargo", "General Audit", "Refund")),
                         (dee, ("General Tariff", "Cook the Books", "Extra Refund"))):
        for token in tokens:
            seat.tick("Your 3 tokens", token)
        seat.press("Choose 3 tokens", confirm=True)
    expect(dee.phone.locator("#turn")).to_have_text("Hand 1. You: turn up the first card of each discard pile.")
    turn_up(dee, "Sand 4", "Blood 6")

    # -- round 1, turn 1 ------------------------------------------------------------------------
    expect(ana.phone.locator("#turn")).to_have_text("Hand 1. Round 1, turn 1: You: draw or stand.")
    ana.press("Play Immunity", confirm=True)
    draw(ana, "Sand draw", "Sand 2")
    # Ben's Target Tariff: the immune Ana cannot be its target (K30, K32).
    s.synced()
    targets = ben.box.get_by_role("radiogroup", name="On whom").get_by_role("radio")
    expect(targets).to_have_count(2)
    expect(ben.box.get_by_role("radiogroup", name="On whom")).not_to_contain_text("Ana")
    ben.pick("On whom", "Dee")
    ben.press("Play Target Tariff", confirm=True)
    draw(ben, "Blood draw", "Blood 3")
    said("Ana plays Immunity.", "Ana draws from the sand draw pile and keeps it; Sand 2 is on top.",
         "Ben plays Target Tariff: Dee pays 2.", "Ben draws from the blood draw pile and keeps it; Blood 3 is on top.")
    cas.press("Play Embargo", confirm=True)
    draw(cas, "Sand discard", "Sand 5")  # takes Ana's Sand 2
    # Dee is under Embargo: the only move is to stand (a token may still come first).
    expect(dee.phone.locator("#turn")).to_have_text("Hand 1. Round 1, turn 1: You: stand (Embargo).")
    expect(dee.box.get_by_role("button", name="Draw", exact=True)).to_have_count(0)
    screenshot(dee.phone, "kessel-phone-turn")
    dee.press("Stand")
    said("Cas plays Embargo.", "Cas draws from the sand discard pile (Sand 2) and keeps it; Sand 5 is on top.",
         "Dee stands.")

    # -- turn 2: Ben's phone is reloaded before his move; it shows his turn and tokens again ---
    draw(ana, "Blood discard", "Blood 4")  # takes Ben's Blood 3: every pile drawn from
    ben.phone.reload()
    expect(ben.phone.locator("#my-name")).to_have_text("Ben")
    expect(ben.phone.locator("#turn")).to_have_text("Hand 1. Round 1, turn 2: You: draw or stand.")
    expect(ben.box.get_by_role("button", name="Play Markdown", exact=True)).to_be_visible()
    expect(ben.box.get_by_role("button", name="Play Target Tariff", exact=True)).to_have_count(0)  # played
    ben.press("Stand")
    cas.press("Play General Audit", confirm=True)  # Ben and Dee are in stand: each pays 2
    cas.press("Stand")
    # Dee's stock is 0 (2 to the tariff, 2 to the audit): she stands; Extra Refund first.
    expect(dee.box.get_by_role("button", name="Draw", exact=True)).to_have_count(0)
    dee.press("Play Extra Refund", confirm=True)
    dee.press("Stand")
    said("Cas plays General Audit: Ben pays 2; Dee pays 2.", "Dee plays Extra Refund: 3 back.")
    for seat in (ana, ben, cas, dee):  # turn 3: everyone stands; the reveal
        seat.press("Stand")

    # -- round 1's reveal: Ana's Sabacc; Ben's Impostor rolled on his phone; Ben is out --------
    show(ana, ("s1", "b1"))
    said("Ana shows Sand 1 and Blood 1: Sabacc of 1.")
    screenshot(ben.phone, "kessel-phone-reveal")
    show(ben, ("si", "b5"))
    expect(ben.phone.locator("#turn")).to_have_text("Hand 1. The scrambler rolls two dice for the Impostor.")
    ben.press("Roll the dice")  # the on-screen roller (no scrambler at this table)
    turn = ben.phone.locator("#turn")
    expect(turn).to_have_text(re.compile(r"^Hand 1\. You: take [1-6] or [1-6] for the Impostor\.$"))
    roll = [int(d) for d in re.findall(r"take ([1-6]) or ([1-6])", turn.inner_text())[0]]
    # The roll said as the game words it, with nothing added ("Ben rolls 4 and 3: The dice ...").
    expect(s.display.locator("#d-log li", has_text="The dice for")).to_have_text(
        f"The dice for Sand Impostor: {roll[0]} and {roll[1]}; Ben chooses one.")
    ben.pick("Which die", str(roll[0]))
    ben.press("Take a value")
    said(f"Ben takes {roll[0]} for the Sand Impostor.")
    show(cas, ("s4", "b3"))
    show(dee, ("s3", "b2"))
    # Ana wins: her 2 invested come back. Ben loses 3 invested and his last chip: out.
    # Cas and Dee each lose 1 invested and pay 1 for a difference of 1: 8 chips leave.
    said("Cas shows Sand 4 and Blood 3: difference 1 (4/3).",
         "Ana wins round 1; Ben out; 8 chips leave the table.")
    seats = s.display.locator("#d-seats")
    expect(seats.locator('li[data-seat="s1"]')).to_contain_text("Hand: Sand 1, Blood 1")
    s.money({"s1": 0, "s2": 0, "s3": 0, "s4": 0}, 400)  # the credits pot stays whole
    screenshot(s.display, "kessel-display")

    # -- round 2: Ana deals, Cas starts; Cook the Books, Free Draw; an exact tie ----------------
    expect(ana.phone.locator("#turn")).to_have_text("Hand 1. You: turn up the first card of each discard pile.")
    expect(ana.phone.locator('#seats li[data-seat="s1"]')).to_contain_text("dealer")  # K6: the dealer moved on
    expect(s.display.locator('#d-seats li[data-seat="s4"]')).not_to_contain_text("dealer")
    turn_up(ana, "Sand 6", "Blood 1")
    expect(cas.box.get_by_role("button", name="Stand for Cas", exact=True)).to_be_visible()
    cas.press("Stand")
    dee.press("Play Cook the Books", confirm=True)
    dee.press("Stand")
    ana.press("Play Free Draw", confirm=True)
    draw(ana, "Sand draw", "Sand 3")  # free: her stock stays 4
    said("Dee plays Cook the Books.", "Ana plays Free Draw.", "Ana draws from the sand draw pile and keeps it")
    for seat in (cas, dee, ana):  # turn 2: everyone stands; the reveal at once (K11)
        seat.press("Stand")
    show(cas, ("s2", "b4"))
    show(dee, ("s4", "b2"))  # the same difference and the same lower card: an exact tie (K21)
    show(ana, ("s6", "b1"))  # a difference of 5 with 4 chips: out
    said("Cas shows Sand 2 and Blood 4: difference 2 (2/4).", "Dee shows Sand 4 and Blood 2: difference 2 (4/2).",
         "Cas and Dee win round 2; Ana out; 4 chips leave the table.")

    # -- round 3: Cas deals (the console, for him), Dee starts; Cas's Sabacc wins the game ----
    turn_up(cas, "Sand 2", "Blood 5")
    dee.press("Stand")
    cas.press("Stand")
    show(dee, ("s6", "b1"))
    show(cas, ("s3", "b3"))
    said("Cas shows Sand 3 and Blood 3: Sabacc of 3.", "Cas wins round 3; Dee out; 2 chips leave the table.",
         "Cas wins the game and the credits pot of 400.")
    s.money({"s1": 0, "s2": 0, "s3": 400, "s4": 0}, 0)
    hands = s.display.locator("#d-result-hands")
    expect(hands.locator("tr", has_text="Cas")).to_contain_text("Wins the credits pot")
    expect(hands.locator("tr", has_text="Cas")).to_contain_text("+300")
    expect(hands.locator("tr", has_text="Dee")).to_contain_text("Sand 6, Blood 1")
    expect(dee.phone.locator("#result-mine")).to_contain_text("Your stack is now 0")
    # The game's end on every screen's turn line (no "between hands"), and who is out.
    end = ("Cas wins the game. Final places: 1 Cas, 2 Dee, 3 Ana, 4 Ben. "
           "The host ends the session for the final standings.")
    expect(s.display.locator("#d-turn")).to_have_text(end)
    for phone in s.phones.values():
        expect(phone.locator("#turn")).to_have_text(end)
    for sid in ("s1", "s2", "s4"):
        row = s.display.locator(f'#d-seats li[data-seat="{sid}"]')
        expect(row.locator(".tag", has_text=re.compile("^out$"))).to_have_count(1)
        expect(row).not_to_contain_text("in the pot")
    expect(s.display.locator('#d-seats li[data-seat="s3"] .tag', has_text=re.compile("^out$"))).to_have_count(0)
    screenshot(s.display, "kessel-display-game-over")
    assert s.errors == []
