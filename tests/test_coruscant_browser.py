"""Issue 31: a Coruscant Shift game (the `coruscant-starcruiser` preset) played in Chromium
through the pages alone, which know no game: two phones join by the join page, the console
plays a third seat, the display watches. Every move is drawn from the server's offers.

Seats in join order: s1 Ana (a phone, the first dealer), s2 Ben (a phone), s3 Cas (the console
plays it)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import screenshot
from test_plugin_game_browser import Screens, tap

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def screens(chromium, live_server):
    s = Screens(chromium, live_server)
    yield s
    s.close()


def test_a_coruscant_round_through_the_pages(screens):
    s = screens
    con = s.set_up("coruscant-starcruiser")

    # Buy-ins of the preset's stock (100), from the console's seat list.
    for name in ("Ana", "Ben", "Cas"):
        s.act(lambda: con.get_by_role("button", name=f"Buy in: {name}").click())
    s.money({"s1": 100, "s2": 100, "s3": 100}, 0)

    # -- round 1: ante 5 each; Ana deals and rolls from her phone ------------------------------
    s.act(lambda: con.get_by_role("button", name="Start the next hand").click())
    s.money({"s1": 95, "s2": 95, "s3": 95}, 15)
    ana, ben = s.phones["s1"], s.phones["s2"]
    expect(ana.locator("#turn")).to_have_text("Hand 1. You: roll the dice.")
    s.act(lambda: tap(ana, "Roll the dice"))
    # The target, in the game's words, on every screen's last actions.
    target = s.owner.view(None)[1]["hand"]["target"]
    words = target["words"]
    expect(s.display.locator("#d-log")).to_contain_text(f"Ana rolls")
    expect(s.display.locator("#d-log")).to_contain_text(words)
    for page in s.phones.values():
        expect(page.locator("#log")).to_contain_text(words)
    expect(s.display.locator("#d-turn")).to_have_text("Waiting for Ben, Cas, Ana.")

    # -- the selection counts: Ben 1 and Cas 1 (the console), Ana 2 ----------------------------
    expect(ben.locator("#actions")).to_contain_text("My selection: how many cards")
    screenshot(ben, "coruscant-phone-selection")
    pick = ben.locator("#actions")
    pick.get_by_role("radio", name="1", exact=True).check()
    s.act(lambda: pick.get_by_role("button", name="My selection: how many cards", exact=True).click())
    con.locator("#play-seat").select_option(label="Cas")
    moves = con.locator("#seat-moves")
    moves.get_by_role("radio", name="1", exact=True).check()
    s.act(lambda: moves.get_by_role("button", name="My selection: how many cards for Cas", exact=True).click())
    expect(s.display.locator("#d-turn")).to_have_text("Waiting for Ana.")
    ana.locator("#actions").get_by_role("radio", name="2", exact=True).check()
    s.act(lambda: ana.locator("#actions").get_by_role("button", name="My selection: how many cards", exact=True).click())

    # -- the first betting round, from Ben (the dealer's left): a bet, a raise, a fold, a call ----
    expect(ben.locator("#turn")).to_have_text("Hand 1. You: check or bet.")
    ben.get_by_label("How much").fill("3")
    s.act(lambda: ben.locator("#actions").get_by_role("button", name="Bet", exact=True).click())
    s.money({"s1": 95, "s2": 92, "s3": 95}, 18)
    con.get_by_label("Raise to for Cas").fill("8")
    s.act(lambda: moves.get_by_role("button", name="Raise to", exact=True).click())
    s.money({"s1": 95, "s2": 92, "s3": 87}, 26)
    s.act(lambda: tap(ana, "Fold", confirm=True))
    s.act(lambda: tap(ben, "Call 5"))
    s.money({"s1": 95, "s2": 87, "s3": 87}, 31)

    # -- the shift: each still in discards the cards not selected and draws as many -------------
    expect(ben.locator("#turn")).to_have_text("Hand 1. You: discard the cards you did not select and draw as many.")
    expect(ana.locator("#actions")).not_to_contain_text("I discarded")  # Ana folded
    s.act(lambda: tap(ben, "I discarded and drew 4 cards"))
    s.act(lambda: moves.get_by_role("button", name="I discarded and drew 4 cards for Cas", exact=True).click())

    # -- the second betting round: both check ------------------------------------------------
    s.act(lambda: tap(ben, "Check"))
    s.act(lambda: moves.get_by_role("button", name="Check for Cas", exact=True).click())
    s.money({"s1": 95, "s2": 87, "s3": 87}, 31)

    # -- improve: Ben adds a card (his count can only grow), Cas keeps one ---------------------
    improve = ben.locator("#actions")
    expect(improve.get_by_role("radio")).to_have_count(5)  # 1..5: never below his count of 1
    improve.get_by_role("radio", name="2", exact=True).check()
    s.act(lambda: improve.get_by_role("button", name="Add cards: my selection now", exact=True).click())
    moves.get_by_role("radio", name="1", exact=True).check()
    s.act(lambda: moves.get_by_role("button", name="Add cards: my selection now for Cas", exact=True).click())

    # -- the reveal: each enters the selection with the card picker ---------------------------
    n, suit = target["number"], {"circle": "ci", "triangle": "tr", "square": "sq"}[target["suit"]]
    # Ben's two cards of the target's suit add up to the target; Cas's one is far from it.
    ben_cards = {10: ("+6", "+4"), 5: ("+3", "+2"), 0: ("+3", "-3"), -5: ("-3", "-2"), -10: ("-6", "-4")}[n]
    other = "sq" if suit != "sq" else "ci"
    cas_card = other + ("-10" if n >= 0 else "+10")
    expect(ben.locator("#turn")).to_have_text("You: enter your selection.")
    entry = ben.locator("#actions")
    before = s.version
    entry.get_by_role("button", name="Enter my selection", exact=True).click()
    expect(entry).to_contain_text("Pick 2 cards first (your selection).")
    assert s.version == before
    for value in ben_cards:
        entry.locator(f'.suit-tab[data-tab="{suit}"]').click()
        entry.locator(f'.card-btn[data-code="{suit}{value}"]').click()
    screenshot(ben, "coruscant-phone-reveal")
    s.act(lambda: entry.get_by_role("button", name="Enter my selection", exact=True).click())
    moves.locator(f'.suit-tab[data-tab="{other}"]').click()
    moves.locator(f'.card-btn[data-code="{cas_card}"]').click()
    s.act(lambda: moves.get_by_role("button", name="Enter my selection for Cas", exact=True).click())

    # -- the result on every screen ----------------------------------------------------------
    s.money({"s1": 95, "s2": 118, "s3": 87}, 0)
    # Ben's two cards make the target exactly; Cas is far; Ana folded. Ben put in 5 + 3 + 5.
    result = "The pot of 31 goes to Ben."
    expect(s.display.locator("#d-result-words")).to_have_text(result)
    for page in s.phones.values():
        expect(page.locator("#result-words")).to_have_text(result)
    expect(con.locator("#hand-result")).to_contain_text(result)
    expect(ben.locator("#result-mine")).to_have_text("Your stack is now 118: +18 this hand (paid out 31).")
    expect(ana.locator("#result-mine")).to_have_text("Your stack is now 95: −5 this hand.")
    hands = s.display.locator("#d-result-hands")
    expect(hands.locator("tr", has_text="Ben")).to_contain_text("wins the pot")
    expect(hands.locator("tr", has_text="Ben")).to_contain_text("+18")
    expect(hands.locator("tr", has_text="Cas")).to_contain_text("−13")
    expect(hands.locator("tr", has_text="Ana")).to_contain_text("folded")
    expect(s.display.locator("#d-log")).to_contain_text("Ben adds 1 card: 2 cards selected.")
    screenshot(s.display, "coruscant-display-result")
    screenshot(ana, "coruscant-phone-result")

    # -- round 2: Ben deals (the ante stays 5); everyone checks; Cas wins -----------------------
    def box(name):
        return moves if name == "Cas" else s.phones["s1" if name == "Ana" else "s2"].locator("#actions")

    def press(name, words):
        s.act(lambda: box(name).get_by_role("button", name=words + (" for Cas" if name == "Cas" else ""), exact=True).click())

    def quiet_round(dealer, order, winner):
        """A round everyone checks through with selections of 2: `winner` makes the target."""
        press(dealer, "Roll the dice")
        t = s.owner.view(None)[1]["hand"]["target"]
        expect(s.display.locator("#d-log")).to_contain_text(t["words"])
        for name in order:
            box(name).get_by_role("radio", name="2", exact=True).check()
            press(name, "My selection: how many cards")
        for step in ("Check", "I discarded and drew 3 cards", "Check"):
            for name in order:
                press(name, step)
        for name in order:
            box(name).get_by_role("radio", name="2", exact=True).check()
            press(name, "Add cards: my selection now")
        n, suit = t["number"], {"circle": "ci", "triangle": "tr", "square": "sq"}[t["suit"]]
        others = iter(x for x in ("ci", "tr", "sq") if x != suit)
        far = ("-10", "-9") if n >= 0 else ("+10", "+9")
        for name in order:
            mine = [suit + v for v in {10: ("+6", "+4"), 5: ("+3", "+2"), 0: ("+3", "-3"), -5: ("-3", "-2"),
                                       -10: ("-6", "-4")}[n]] if name == winner else []
            if not mine:
                other = next(others)  # each loser its own suit: no card twice
                mine = [other + v for v in far]
            for code in mine:
                box(name).locator(f'.suit-tab[data-tab="{code[:2]}"]').click()
                box(name).locator(f'.card-btn[data-code="{code}"]').click()
            press(name, "Enter my selection")

    s.act(lambda: con.get_by_role("button", name="Start the next hand").click())
    s.money({"s1": 90, "s2": 113, "s3": 82}, 15)
    expect(ana.locator("#actions")).not_to_contain_text("Roll the dice")
    quiet_round("Ben", ("Cas", "Ana", "Ben"), "Cas")
    s.money({"s1": 90, "s2": 113, "s3": 97}, 0)
    expect(s.display.locator("#d-result-words")).to_have_text("The pot of 15 goes to Cas.")

    # -- round 3: Cas deals (the console rolls for Cas); Ana wins; the deal would pass back to
    # Ana, who has dealt: the game is over, and Ben, with the most credits, wins it.
    s.act(lambda: con.get_by_role("button", name="Start the next hand").click())
    s.money({"s1": 85, "s2": 108, "s3": 92}, 15)
    quiet_round("Cas", ("Ana", "Ben", "Cas"), "Ana")
    s.money({"s1": 100, "s2": 108, "s3": 92}, 0)
    for log in (s.display.locator("#d-log"), ana.locator("#log"), ben.locator("#log")):
        expect(log).to_contain_text("Ben wins the game.")
    screenshot(s.display, "coruscant-display-game-over")
    assert s.errors == []
