"""Issue 31: a whole Coruscant Shift game (the `coruscant-starcruiser` preset: stock 100, ante 5,
the game ends when the deal would pass to a player who has dealt) played in Chromium through
the pages alone, which know no game: three phones join by the join page, the console plays the
seats without a phone, the display watches. Every move is drawn from the server's offers.

Seats in join order: s1 Ana, s2 Ben and s4 Dee on phones; s3 Cas and s5 Eli played from the
console. Five players, not the issue's four: a `deal-once` game of four players lasts four
rounds, and the gold die has five targets (0, +5, −5, +10, −10) to show, one a round.

The dice come from each round's committed seed, as at any table: the test chooses the seeds the
table draws (`scripted_seeds`), each the first of a fixed series that rolls the round's target,
so the rounds' targets are known and the players choose their cards for them:

1. +10 Circle. Ben bets 30, Cas raises to 60, everyone else folds: Cas takes 115 unseen (C16).
2. +5 Triangle. Cas bets 10, Dee raises to 20, Eli and Ana fold, Ben goes all-in for his 60,
   Cas raises to 80, Dee calls: a main pot of 205 (Ben, Cas, Dee) and a side pot of 40 (Cas,
   Dee). Cas and Dee are both 1 away: Dee wins both on the suit (2 Triangles to 1); Ben is out.
3. 0 Square. Eli bets 5, Ana calls, Cas and Dee fold; Eli and Ana both make 0 with no Square:
   the tie draw (Ana's phone reloaded first), Eli's +8 beats Ana's −8: Eli takes 30.
4. −5 Circle and 5. −10 Triangle: one bet, everyone else folds. The deal would pass from Eli,
   over Ben (out), to Ana, who dealt: Dee wins the game with 240 credits.
"""

from __future__ import annotations

import hashlib

import pytest
from playwright.sync_api import expect

from companion.games.coruscant.cards import GOLD, SILVER
from companion.rules.rulesets import Trigger
from companion.scrambler.seed import SeededRoller, derive_dice
from companion.server.app import create_app
from conftest import PHONE, screenshot, settled, tap_button

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: The rounds' targets, in the order the rounds roll them: every number the gold die shows.
TARGETS = [(10, "circle"), (5, "triangle"), (0, "square"), (-5, "circle"), (-10, "triangle")]
TARGET_WORDS = ["+10 Circle", "+5 Triangle", "0 Square", "−5 Circle", "−10 Triangle"]


def seed_for(number: int, suit: str) -> str:
    """The first seed of a fixed series whose first roll of the two dice shows `number` and `suit`."""
    i = 0
    while True:
        seed = hashlib.sha256(f"coruscant {i}".encode()).hexdigest()
        gold, silver = derive_dice(seed, 0, Trigger.TWO_D6_DOUBLES)
        if (GOLD.face(gold), SILVER.face(silver)) == (number, suit):
            return seed
        i += 1


class ScriptedSecrets:
    """`secrets` for the table owner, drawing the hands' seeds in the order given (the owner draws
    one when the table is made and one at each seed's reveal, for the next hand); everything
    else is the real module's."""

    def __init__(self, seeds):
        import secrets

        self.real, self.seeds = secrets, list(seeds)

    def token_hex(self, n):
        assert n == 32 and self.seeds, "the test gave fewer seeds than the table drew"
        return self.seeds.pop(0)

    def __getattr__(self, name):
        return getattr(self.real, name)


@pytest.fixture
def app(tmp_path, monkeypatch):
    """The server rolls from committed seeds (as `serve` does), the seeds the test chose."""
    from companion.table import owner

    spare = [seed_for(0, "circle")] * 3  # the seed drawn after the last round's reveal
    monkeypatch.setattr(owner, "secrets", ScriptedSecrets([seed_for(*t) for t in TARGETS] + spare))
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "ROLLER_FACTORY": SeededRoller})


class Seat:
    """Where a seat's moves are drawn: its phone's #actions, or the console's moves for the seat
    (chosen in its seat list; the buttons say "… for <name>")."""

    def __init__(self, s, seat, name):
        self.s, self.seat, self.name = s, seat, name
        self.phone = s.phones.get(seat)
        self.page = self.phone or s.console
        self.box = self.phone.locator("#actions") if self.phone else s.console.locator("#seat-moves")
        self.suffix = "" if self.phone else f" for {name}"

    def ready(self):
        """The page shows the table's latest version (and the console this seat's moves)."""
        expect(self.page.locator("body")).to_have_attribute("data-version", str(self.s.version))
        if not self.phone:
            self.s.console.locator("#play-seat").select_option(self.seat)
            expect(self.s.console.locator("#seat-play-for")).to_have_text(f"Moves for {self.name}")
        settled(self.page)  # a tap now is not one the page ignores (its moves were just drawn)

    def button(self, words):
        return self.box.get_by_role("button", name=words + self.suffix, exact=True)

    def press(self, words, confirm=False):
        """Press the offer's button (twice where it asks to confirm); wait for the table to take it."""
        self.ready()

        self.s.act(lambda: tap_button(self.box, words + self.suffix, confirm))

    def count(self, n, words):
        """Choose `n` cards of the offer's choice and send it (the selection, the improve step)."""
        self.ready()
        # The offer is drawn (the console fetches a seat's moves after choosing it) before its
        # count is chosen, and the choice holds before it is sent.
        expect(self.button(words)).to_be_visible()
        radio = self.box.get_by_role("radio", name=str(n), exact=True)
        radio.check()
        expect(radio).to_be_checked()
        self.s.act(lambda: self.button(words).click())

    def amount(self, label, n, words):
        """Fill the offer's amount `label` with `n` and send it with the button `words`."""
        self.ready()
        self.page.get_by_label(label + self.suffix, exact=True).fill(str(n))
        self.s.act(lambda: self.box.get_by_role("button", name=words, exact=True).click())

    def cards(self, codes, words):
        """Pick `codes` in the offer's card picker and send them."""
        self.ready()
        for code in codes:
            tab = "sylop" if code == "sylop" else code[:2]
            self.box.locator(f'.suit-tab[data-tab="{tab}"]').click()
            self.box.locator(f'.card-btn[data-code="{code}"]').click()
        self.s.act(lambda: self.button(words).click())


def test_a_whole_starcruiser_game_through_three_phones_the_console_and_the_display(screens):
    s = screens
    con = s.set_up("coruscant-starcruiser")
    # A third phone (Dee, s4) joins by the display's join address; the console seats Eli (s5).
    dee = s.page(PHONE)
    dee.goto(s.display.locator("#d-join-url").text_content().strip())
    dee.get_by_label("Your name at the table").fill("Dee")
    dee.get_by_role("button", name="Take a seat").click()
    expect(dee.locator("#my-name")).to_have_text("Dee")
    s.phones["s4"] = dee
    con.get_by_label("Seat a player without a phone", exact=False).fill("Eli")
    con.get_by_role("button", name="Add the seat").click()
    expect(con.locator("#add-seat-done")).to_contain_text("Eli has seat s5")
    ana, ben, cas, dee, eli = (Seat(s, f"s{i + 1}", n) for i, n in enumerate(("Ana", "Ben", "Cas", "Dee", "Eli")))
    phones = [ana, ben, dee]

    for name in ("Ana", "Ben", "Cas", "Dee", "Eli"):  # the preset's stock of 100 each
        s.act(lambda: con.get_by_role("button", name=f"Buy in: {name}").click())
    s.money({"s1": 100, "s2": 100, "s3": 100, "s4": 100, "s5": 100}, 0)

    def start(stacks, pot):
        """The console starts the next round; the antes are paid."""
        s.act(lambda: con.get_by_role("button", name="Start the next hand").click())
        s.money(stacks, pot)

    def roll(dealer, round_no):
        """`dealer` rolls from their moves; the round's target is said on every screen."""
        dealer.press("Roll the dice")
        words = f"The target is {TARGET_WORDS[round_no - 1]}."
        number, suit = TARGETS[round_no - 1]
        assert s.owner.view(None)[1]["hand"]["target"] == {"number": number, "suit": suit, "words": words}
        # The dealer rolls, from the phone or from the console (which rolls for the dealer).
        said = f"{dealer.name} rolls"
        expect(s.display.locator("#d-log")).to_contain_text(said)
        # The display's last roll is the target the dice mean, not the dice's faces.
        expect(s.display.locator("#d-roll")).to_contain_text(f"{said} ")
        expect(s.display.locator("#d-roll")).to_contain_text(f"the target is {TARGET_WORDS[round_no - 1]}.")
        for page in [s.display.locator("#d-log"), *(p.phone.locator("#log") for p in phones)]:
            expect(page).to_contain_text(f"the target is {TARGET_WORDS[round_no - 1]}.")

    def result(words, mine=None):
        """The round's result in words on every screen, and each phone's own credits in words."""
        s.synced()
        expect(s.display.locator("#d-result-words")).to_have_text(words)
        for p in phones:
            expect(p.phone.locator("#result-words")).to_have_text(words)
        expect(con.locator("#hand-result")).to_contain_text(words)
        for p, line in (mine or {}).items():
            expect(p.phone.locator("#result-mine")).to_have_text(line)

    # -- round 1: +10 Circle; Ana deals, Ben starts; a bet, a raise, four folds ---------------
    start({"s1": 95, "s2": 95, "s3": 95, "s4": 95, "s5": 95}, 25)
    expect(ana.phone.locator("#turn")).to_have_text("Hand 1. You: roll the dice.")
    expect(ben.box).not_to_contain_text("Roll the dice")
    roll(ana, 1)
    expect(s.display.locator("#d-turn")).to_have_text("Waiting for Ben, Cas, Dee, Eli, Ana.")
    expect(ben.box).to_contain_text("My selection: how many cards")
    screenshot(ben.phone, "coruscant-phone-selection")
    for p in (ben, cas, dee, eli, ana):
        p.count(1, "My selection: how many cards")
    expect(s.display.locator("#d-log")).to_contain_text("Ana selects 1 card.")
    expect(ben.phone.locator("#turn")).to_have_text("Hand 1. You: check or bet.")
    ben.amount("How much", 30, "Bet")
    cas.amount("Raise to", 60, "Raise to")
    s.money({"s1": 95, "s2": 65, "s3": 35, "s4": 95, "s5": 95}, 115)
    for p in (dee, eli, ana, ben):
        p.press("Fold", confirm=True)
    # Everyone else folded: Cas takes the pot without showing, no shift (C16).
    s.money({"s1": 95, "s2": 65, "s3": 150, "s4": 95, "s5": 95}, 0)
    result("Cas takes 115: everyone else folded.",
           {ben: "Your stack is now 65: −35 this hand.", ana: "Your stack is now 95: −5 this hand."})

    # -- round 2: +5 Triangle; Ben deals, Cas starts; raises, an all-in and a side pot ---------
    start({"s1": 90, "s2": 60, "s3": 145, "s4": 90, "s5": 90}, 25)
    roll(ben, 2)
    for p, n in ((cas, 2), (dee, 2), (eli, 1), (ana, 1), (ben, 1)):
        p.count(n, "My selection: how many cards")
    cas.amount("How much", 10, "Bet")
    dee.amount("Raise to", 20, "Raise to")
    eli.press("Fold", confirm=True)
    ana.press("Fold", confirm=True)
    ben.press("All-in (60)", confirm=True)
    cas.amount("Raise to", 80, "Raise to")
    dee.press("Call 60")
    s.money({"s1": 90, "s2": 0, "s3": 65, "s4": 10, "s5": 90}, 245)
    # The shift: 5 − the selection count to draw; Ben, all-in, still shifts, improves, reveals.
    expect(ana.box).not_to_contain_text("I discarded")  # Ana folded
    for p, n in ((cas, 3), (dee, 3), (ben, 4)):
        p.press(f"I discarded and drew {n} cards")
    cas.press("Check")
    dee.press("Check")
    for p, n in ((cas, 2), (dee, 2), (ben, 1)):
        p.count(n, "Add cards: my selection now")
    expect(s.display.locator("#d-log")).to_contain_text("Ben adds 0 cards: 1 card selected.")
    # The reveal, each with the card picker: Cas 6 (1 Triangle), Dee 6 (2 Triangles), Ben 10.
    cas.cards(["tr+4", "ci+2"], "Enter my selection")
    dee.ready()
    expect(dee.phone.locator("#turn")).to_have_text("You: enter your selection.")
    for code in ("tr+1", "tr+5"):
        dee.box.locator(f'.suit-tab[data-tab="{code[:2]}"]').click()
        dee.box.locator(f'.card-btn[data-code="{code}"]').click()
    screenshot(dee.phone, "coruscant-phone-reveal")
    s.act(lambda: dee.button("Enter my selection").click())
    ben.cards(["sq+10"], "Enter my selection")
    # Dee wins the main pot and the side pot on the target suit; Ben is out of credits.
    s.money({"s1": 90, "s2": 0, "s3": 65, "s4": 255, "s5": 90}, 0)
    result("The main pot of 205 goes to Dee. A side pot of 40 goes to Dee.",
           {dee: "Your stack is now 255: +160 this hand (paid out 245).",
            ben: "Your stack is now 0: −65 this hand."})
    hands = s.display.locator("#d-result-hands")
    expect(hands.locator('tr[data-seat="s4"]')).to_contain_text("+160")
    expect(hands.locator('tr[data-seat="s3"]')).to_contain_text("−85")
    expect(hands.locator('tr[data-seat="s5"]')).to_contain_text("folded")
    # Why: Cas's 6 was as close as Dee's; Dee's two Triangles to his one decided (C18).
    expect(hands.locator('tr[data-seat="s4"]')).to_contain_text("as close to the target, more Triangle cards (2 to 1)")
    expect(hands.locator('tr[data-seat="s3"]')).to_contain_text("lost to Dee on the target suit (1 Triangle card to 2)")
    for log in (s.display.locator("#d-log"), ben.phone.locator("#log")):
        expect(log).to_contain_text("Ben is out of credits: out.")
    screenshot(s.display, "coruscant-display-side-pot")

    # -- round 3: 0 Square; Cas deals (Ben is out: Dee starts); the tie draw -----------------
    start({"s1": 85, "s2": 0, "s3": 60, "s4": 250, "s5": 85}, 20)
    expect(ben.phone.locator("#actions")).not_to_contain_text("My selection")
    roll(cas, 3)
    for p in (dee, eli, ana, cas):
        p.count(2, "My selection: how many cards")
    dee.press("Check")
    eli.amount("How much", 5, "Bet")
    ana.press("Call 5")
    cas.press("Fold", confirm=True)
    dee.press("Fold", confirm=True)
    for p in (eli, ana):
        p.press("I discarded and drew 3 cards")
    for p in (eli, ana):
        p.press("Check")
    for p in (eli, ana):
        p.count(2, "Add cards: my selection now")
    eli.cards(["ci+1", "ci-1"], "Enter my selection")
    ana.cards(["tr+2", "tr-2"], "Enter my selection")
    # Both make 0, neither holds a Square: each draws a card. Ana's phone is reloaded first.
    ana.phone.reload()
    expect(ana.phone.locator("#my-stack")).to_have_text("80")
    expect(ana.phone.locator("#turn")).to_have_text("You: draw the top card of the draw pile and enter it.")
    expect(ana.phone.locator("#log")).to_contain_text("A tie: Eli and Ana each draw the top card of the draw pile")
    ana.cards(["sq-8"], "Enter the card I drew")
    eli.cards(["ci+8"], "Enter the card I drew")
    s.money({"s1": 80, "s2": 0, "s3": 60, "s4": 250, "s5": 110}, 0)
    result("The pot of 30 goes to Eli.", {ana: "Your stack is now 80: −10 this hand."})
    expect(s.display.locator("#d-log")).to_contain_text("Eli draws Circle +8.")

    # -- rounds 4 and 5: −5 Circle and −10 Triangle; one bet, everyone else folds ------------
    start({"s1": 75, "s2": 0, "s3": 55, "s4": 245, "s5": 105}, 20)
    roll(dee, 4)
    for p in (eli, ana, cas, dee):
        p.count(1, "My selection: how many cards")
    eli.amount("How much", 5, "Bet")
    for p in (ana, cas, dee):
        p.press("Fold", confirm=True)
    result("Eli takes 25: everyone else folded.")
    start({"s1": 70, "s2": 0, "s3": 50, "s4": 240, "s5": 120}, 20)
    roll(eli, 5)
    for p in (ana, cas, dee, eli):
        p.count(1, "My selection: how many cards")
    ana.amount("How much", 10, "Bet")
    for p in (cas, dee, eli):
        p.press("Fold", confirm=True)
    # The deal would pass from Eli, over Ben, to Ana, who has dealt: the game is over.
    s.money({"s1": 90, "s2": 0, "s3": 50, "s4": 240, "s5": 120}, 0)
    result("Ana takes 30: everyone else folded.", {ana: "Your stack is now 90: +15 this hand (paid out 30)."})
    for log in (s.display.locator("#d-log"), *(p.phone.locator("#log") for p in phones)):
        expect(log).to_contain_text("Dee wins the game.")
    view = s.owner.view(None)[1]
    assert view["hand"]["game"]["places"] == {"s4": 1, "s5": 2, "s1": 3, "s3": 4, "s2": 5}
    # Each round rolled from its committed seed, revealed after it: the seeds the test chose.
    assert [h["seed"] for h in view["hands"]] == [seed_for(*target) for target in TARGETS]
    screenshot(s.display, "coruscant-display-game-over")
    # The host ends the session: the final standings, Dee first with 240 (+140), Ben last.
    con.get_by_role("button", name="End the session…").click()
    s.act(lambda: con.get_by_role("button", name="Yes, end the session now").click())
    s.synced()
    rows = s.display.locator("#d-final tbody tr")
    expect(rows).to_have_count(5)
    expect(rows.first).to_contain_text("Dee")
    expect(rows.last).to_contain_text("Ben")
    expect(dee.phone.locator("#final-mine")).to_contain_text("You finish 1 of 5: +140 for the evening. Hand back 240 credits")
    expect(ben.phone.locator("#final-mine")).to_contain_text("You finish 5 of 5: −100 for the evening.")
    screenshot(s.display, "coruscant-display-final-standings")
    assert s.errors == []
