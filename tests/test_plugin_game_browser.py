"""Issue 29: a game defined only in tests/ (High card, tests/plugin_game/highcard.py) played in
Chromium through the pages alone, which know no game: the start page offers its preset, two
phones join by the join page, the console plays a third seat without a phone, and the table
display watches.

High card: everyone antes 1, one betting round, then each player still in shows one card (a
choice of 1 to 10); the highest takes the pot. Every move is drawn from the server's offers
(their words, their inputs), the result from the settlement's words; the test reads the money
and the words every screen shows.

Seats in join order: s1 Lando (a phone, the first dealer), s2 Han (a phone), s3 Chewie (the
console plays it). The player after the dealer acts first: Han.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion.table.registry import registry_for
from conftest import DISPLAY, PHONE, screenshot, settled, tap_button
from test_plugin_game import highcard  # noqa: F401 - the fixture: High card found as a plug-in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CONSOLE = {"viewport": {"width": 1280, "height": 900}}


class Screens:
    """The console, the display and the two phones of one table, and the errors they raised."""

    def __init__(self, chromium, live_server):
        self.chromium = chromium
        self.url = live_server.url
        self.app = live_server.app
        self.owner = None
        self.contexts = []
        self.errors: list[str] = []
        self.phones: dict[str, object] = {}

    def page(self, kwargs):
        context = self.chromium.new_context(**kwargs)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        page.on("console", lambda m: self.errors.append(f"{page.url}: {m.text}") if m.type == "error" else None)
        return page

    def close(self):
        for c in self.contexts:
            c.close()

    def set_up(self, preset: str):
        """The host makes a `preset` table on the start page and opens its console and the
        display; Ana and Ben join on their phones (s1, s2); the console seats Cas, who has no
        phone (s3). Returns the console."""
        con = self.console = self.page(CONSOLE)
        con.goto(f"{self.url}/host")
        con.locator(f"#preset-{preset}").check()
        con.get_by_role("button", name="Create the table").click()
        con.locator("#created").wait_for()
        code = con.locator("#created-code").inner_text()
        join_url = con.locator("#join-url").inner_text()
        display_href = con.locator("#display-link").get_attribute("href")
        con.get_by_role("link", name="Open the host console").click()
        con.locator("#host-area").wait_for()
        self.owner = registry_for(self.app).get(code)
        self.display = self.page(DISPLAY)
        self.display.goto(display_href if display_href.startswith("http") else self.url + display_href)
        for seat, name in (("s1", "Ana"), ("s2", "Ben")):
            page = self.page(PHONE)
            page.goto(join_url)
            page.get_by_label("Your name at the table").fill(name)
            page.get_by_role("button", name="Take a seat").click()
            expect(page.locator("#my-name")).to_have_text(name)
            self.phones[seat] = page
        con.get_by_label("Seat a player without a phone", exact=False).fill("Cas")
        con.get_by_role("button", name="Add the seat").click()
        expect(con.locator("#add-seat-done")).to_contain_text("Cas has seat s3")
        return con

    @property
    def version(self) -> int:
        return self.owner.version

    def synced(self):
        """Every screen shows the table's latest version and takes taps (`settled`): the
        console asks for the seat it plays its moves after each version, and draws them again
        when they come, dropping a choice already made (seen on a loaded machine)."""
        for page in [self.console, self.display, *self.phones.values()]:
            expect(page.locator("body")).to_have_attribute("data-version", str(self.version))
            settled(page)

    def act(self, do):
        """Do `do()` on a page and wait until the table has taken it (its version moved on)."""
        before = self.version
        do()
        self.display.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)

    def money(self, stacks: dict[str, int], pot: int):
        """Every screen's stacks and pot: the display's seats, each phone's own stack and its
        table list, the console's seat list."""
        self.synced()
        d = self.display
        for seat, stack in stacks.items():
            expect(d.locator(f'#d-seats li[data-seat="{seat}"] .d-stack')).to_have_text(str(stack))
        expect(d.locator("#d-hand-pot")).to_have_text(str(pot))
        for seat, page in self.phones.items():
            expect(page.locator("#my-stack")).to_have_text(str(stacks[seat]))
            expect(page.locator("#hand-pot")).to_have_text(str(pot))
            for other, stack in stacks.items():
                expect(page.locator(f'#seats li[data-seat="{other}"] .seat-facts')).to_contain_text(f"stack {stack}")
        expect(self.console.locator("#hand-pot")).to_have_text(str(pot))
        for seat, stack in stacks.items():
            expect(self.console.locator(f'#seat-list li[data-seat="{seat}"] .seat-stack')).to_have_text(f"{stack} credits")

    def no_game_keys_shown(self):
        """Nothing a dealt-hand game's view has and this one's lacks is shown as if it were
        there: no static field, no sabacc pot, no reveal picker, no "undefined"."""
        for page in [self.console, self.display, *self.phones.values()]:
            text = page.locator("body").inner_text()
            for word in ("undefined", "NaN", "null", "[object Object]", "Static", "Sabacc pot", "sudden demise",
                         "scrambler", "shift", "1 cards"):
                assert word.lower() not in text.lower(), (page.url, word, text)


@pytest.fixture
def screens(screens, highcard):  # noqa: F811 - the imported fixture
    """conftest's screens, with High card registered."""
    return screens


def tap(page, name: str, *, within="#actions", confirm=False):
    """Tap the button `name` (twice, when it asks to confirm) once the panel takes taps."""
    tap_button(page.locator(within), name, confirm)


def test_high_card_through_the_pages_with_two_phones_and_the_console(screens):
    s = screens
    # -- the host starts a High card table from the start page -------------------------------
    con = s.console = s.page(CONSOLE)
    con.goto(f"{s.url}/host")
    choice = con.locator("#preset-highcard")
    expect(choice).to_be_attached()  # the plug-in's preset is offered beside the built-in ones
    expect(con.locator('label[for="preset-highcard"]')).to_contain_text("Ante 1, one betting round, the highest card wins.")
    choice.check()
    con.get_by_role("button", name="Create the table").click()
    con.locator("#created").wait_for()
    code = con.locator("#created-code").inner_text()
    join_url = con.locator("#join-url").inner_text()
    display_href = con.locator("#display-link").get_attribute("href")
    con.get_by_role("link", name="Open the host console").click()
    con.locator("#host-area").wait_for()
    expect(con.locator("#host-area")).to_contain_text("High card")

    s.owner = registry_for(s.app).get(code)  # the test reads its version, never changes it
    s.display = s.page(DISPLAY)
    s.display.goto(display_href if display_href.startswith("http") else s.url + display_href)
    expect(s.display.locator("#d-game")).to_have_text("High card")

    # -- two phones join by the join page; the console seats Chewie ---------------------------
    for seat, name in (("s1", "Lando"), ("s2", "Han")):
        page = s.page(PHONE)
        page.goto(join_url)
        page.get_by_label("Your name at the table").fill(name)
        page.get_by_role("button", name="Take a seat").click()
        expect(page).to_have_url(f"{s.url}/t/{code}/seat")
        expect(page.locator("#my-name")).to_have_text(name)
        s.phones[seat] = page
    con.get_by_label("Seat a player without a phone", exact=False).fill("Chewie")
    con.get_by_role("button", name="Add the seat").click()
    expect(con.locator("#add-seat-done")).to_contain_text("Chewie has seat s3")

    # Buy-ins, from the console's seat list (High card's offers are its hand's moves only: the
    # phones offer no buy-in, and say why they are not dealt in).
    expect(s.phones["s1"].locator("#why-out")).to_have_text(
        "Your stack (0) cannot pay the ante of the next hand: buy in to play.")
    for name in ("Lando", "Han", "Chewie"):
        con.get_by_label(f"Buy-in credits for {name}").fill("20")
        con.get_by_role("button", name=f"Buy in: {name}").click()
        expect(con.get_by_label(f"Buy-in credits for {name}")).to_have_value("")
    s.money({"s1": 20, "s2": 20, "s3": 20}, 0)

    # -- hand 1, from the console ---------------------------------------------------------------
    s.act(lambda: con.get_by_role("button", name="Start the next hand").click())
    # Antes of 1: a pot of 3. Han (after the dealer, Lando) acts first.
    s.money({"s1": 19, "s2": 19, "s3": 19}, 3)
    han, lando = s.phones["s2"], s.phones["s1"]
    expect(han.locator("#turn")).to_have_text("Hand 1. You: check, bet or fold.")  # one round: none said
    expect(lando.locator("#turn")).to_contain_text("Han: check, bet or fold.")
    expect(s.display.locator("#d-turn")).to_have_text("Han: check, bet or fold.")
    expect(con.locator("#hand-turn")).to_contain_text("Han")
    expect(con.locator("#hand-stage")).to_have_text("betting")  # the game's own word for its stage
    expect(han.locator("#actions-title")).to_have_text("Your move")
    s.no_game_keys_shown()
    screenshot(han, "highcard-phone-turn")

    # Han bets 3 from the offer's amount (no usual amounts: the number field, within 1..19).
    bet = han.get_by_label("How much")
    settled(han)
    bet.fill("30")
    han.locator("#actions").get_by_role("button", name="Bet", exact=True).click()
    expect(han.locator("#actions")).to_contain_text("30 is outside what you may bet now: from 1 to 19.")
    assert s.owner.view(None)[1]["hand"]["hand_pot"] == 3  # nothing was sent
    bet.fill("3")
    s.act(lambda: han.locator("#actions").get_by_role("button", name="Bet", exact=True).click())
    s.money({"s1": 19, "s2": 16, "s3": 19}, 6)
    expect(s.display.locator("#d-turn")).to_have_text("Chewie: call 3, raise or fold.")

    # The console plays Chewie: raise to 5 from the offer drawn for the seat.
    con.locator("#play-seat").select_option(label="Chewie")
    expect(con.locator("#seat-play-for")).to_have_text("Moves for Chewie")
    expect(con.locator("#seat-moves").get_by_role("button", name="Call 3 for Chewie", exact=True)).to_be_visible()
    settled(con)  # the seat's moves were just drawn: a tap now would be ignored (and said so)
    con.get_by_label("Raise to for Chewie").fill("5")
    s.act(lambda: con.locator("#seat-moves").get_by_role("button", name="Raise to", exact=True).click())
    s.money({"s1": 19, "s2": 16, "s3": 14}, 11)

    # Lando folds (a move that asks twice); Han calls 2.
    expect(lando.locator("#turn")).to_contain_text("You: call 5, raise or fold.")
    s.act(lambda: tap(lando, "Fold", confirm=True))
    s.money({"s1": 19, "s2": 16, "s3": 14}, 11)
    s.act(lambda: tap(han, "Call 2"))
    s.money({"s1": 19, "s2": 14, "s3": 14}, 13)

    # -- the cards: each shows one through the offer's choice ------------------------------------
    expect(han.locator("#turn")).to_contain_text("You: show your card.")
    expect(lando.locator("#turn")).to_contain_text("Showing cards: Han, Chewie.")
    expect(s.display.locator("#d-turn")).to_have_text("Showing cards: Han, Chewie.")
    expect(con.locator("#hand-stage")).to_have_text("showing cards")
    expect(lando.locator("#why-out")).to_have_text("You folded this hand: you are out until the next one.")
    # Without a choice the button says what is missing, and nothing is sent.
    show = han.locator("#actions").get_by_role("button", name="Show my card", exact=True)
    before = s.version
    show.click()
    expect(han.locator("#actions")).to_contain_text("Choose your card first.")
    assert s.version == before
    han.locator("#actions").get_by_role("radio", name="9", exact=True).check()
    s.act(show.click)
    s.money({"s1": 19, "s2": 14, "s3": 14}, 13)
    expect(s.display.locator("#d-turn")).to_have_text("Showing cards: Chewie.")
    moves = con.locator("#seat-moves")
    moves.get_by_role("radio", name="7", exact=True).check()
    s.act(lambda: moves.get_by_role("button", name="Show my card for Chewie", exact=True).click())

    # -- the result on every screen: who won, the pot, every stack ------------------------------
    # Han put in 1 + 5 and takes the 13: 27; Chewie 14; Lando folded: 19.
    s.money({"s1": 19, "s2": 27, "s3": 14}, 0)
    result = "Han wins 13 with 9."
    expect(s.display.locator("#d-result-words")).to_have_text(result)
    for page in s.phones.values():
        expect(page.locator("#result-words")).to_have_text(result)
    expect(con.locator("#hand-result")).to_contain_text(result)
    expect(han.locator("#result-mine")).to_have_text("Your stack is now 27: +7 this hand (paid out 13).")
    expect(lando.locator("#result-mine")).to_have_text("Your stack is now 19: −1 this hand.")
    # Each player's shown card and what they got, on the display.
    hands = s.display.locator("#d-result-hands")
    expect(hands.locator("tr", has_text="Han")).to_contain_text("9")
    expect(hands.locator("tr", has_text="Chewie")).to_contain_text("7")
    expect(hands.locator("tr", has_text="Han")).to_contain_text("13")
    # The last actions say it in the game's words too.
    expect(lando.locator("#log")).to_contain_text("Han has shown a card.")
    expect(s.display.locator("#d-log")).to_contain_text(result)
    s.no_game_keys_shown()
    screenshot(s.display, "highcard-display-result")
    screenshot(lando, "highcard-phone-result")

    # -- a second hand, from the console -------------------------------------------------------
    s.act(lambda: con.get_by_role("button", name="Start the next hand").click())
    # Han deals now; Chewie acts first. Antes: 18, 26, 13; the pot 3.
    s.money({"s1": 18, "s2": 26, "s3": 13}, 3)
    expect(s.display.locator("#d-turn")).to_have_text("Chewie: check, bet or fold.")
    expect(s.display.locator("#d-result")).to_be_hidden()
    expect(con.locator("#hand-no")).to_have_text("2")
    expect(con.locator("#seat-moves").get_by_role("button", name="Check for Chewie", exact=True)).to_be_visible()

    # The audit log and the history say the game's events and its result in the game's words.
    audit = s.page(CONSOLE)
    audit.goto(f"{s.url}/t/{code}/audit")
    log = audit.locator("main")
    for words in ("Han has shown a card.", result, "Han bets 3", "Chewie raises to 5"):
        expect(log).to_contain_text(words)
    assert "card_shown" not in log.inner_text()  # an event is said in words, never by its id
    history = s.page(CONSOLE)
    history.goto(f"{s.url}/t/{code}/history")
    expect(history.locator("main")).to_contain_text(result)
    assert s.errors == []

