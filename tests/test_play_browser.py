"""A whole hand of every preset played from three phones, watched on the table display.

Headless Chromium (Debian's), the companion under waitress. Everything a player does goes
through the pages: joining by the address under the display's QR code, buying in, the
betting buttons, the scrambler, the static field, calling, the reveal and the sudden demise.
Only the host's part (create the table, start the hand) uses the API, as the host console is
another page; and the scrambler's dice are fixed by the test through the app's table owner,
so every roll (and every shift) is known in advance.

Seats in join order: s1 Lando (the first dealer), s2 Han, s3 Chewie; play starts at the
dealer's left, Han. After every step the display's stacks and pots are checked against the
numbers worked out by hand in the comments: (Lando, Han, Chewie, hand pot, sabacc pot).
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections import deque

import pytest
from playwright.sync_api import expect

from companion.table.registry import registry_for
from conftest import DISPLAY, PHONE, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

XSS = "<script>alert(1)</script>"
SEATS = ("s1", "s2", "s3")


class ScriptedDice:
    """The table's roller in these tests: the dice the test queued, in order."""

    def __init__(self):
        self.queue: deque[list[int]] = deque()

    def dice(self, trigger):
        assert self.queue, "a roll the test did not expect"
        return tuple(self.queue.popleft())


def api(live_server, path, body=None, token=None):
    """A JSON request to the companion (the host's part); returns (status, body)."""
    req = urllib.request.Request(live_server.url + path, method="POST" if body is not None else "GET")
    req.add_header("Accept", "application/json")
    if body is not None:
        req.data = json.dumps(body).encode()
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


class Table:
    """One table in the browser: three phones, the display, the version everyone should show."""

    def __init__(self, chromium, live_server, preset):
        self._chromium = chromium
        self.live_server = live_server
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        status, body = api(live_server, "/api/v1/tables", {"rules": preset})
        assert status == 201, body
        self.code, self.host_token = body["code"], body["host_token"]
        self.owner = registry_for(live_server.app).get(self.code)
        self.dice = ScriptedDice()
        self.owner.roller = self.dice
        self.contexts = []
        self.display = self.page(DISPLAY)
        self.display.goto(f"{live_server.url}/t/{self.code}/display")
        self.join_url = self.display.locator("#d-join-url").inner_text().strip()
        self.phones: dict[str, object] = {}
        self.names: dict[str, str] = {}

    def page(self, kwargs):
        context = self.chromium_context(kwargs)
        page = context.new_page()
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page

    def chromium_context(self, kwargs):
        context = self._chromium.new_context(**kwargs)
        self.contexts.append(context)
        return context

    def close(self):
        for c in self.contexts:
            c.close()

    @property
    def version(self) -> int:
        return self.owner.version

    def join(self, seat: str, name: str):
        """A phone opens the QR code's address, types a name and takes a seat."""
        page = self.page(PHONE)
        page.goto(self.join_url)
        page.get_by_label("Your name at the table").fill(name)
        page.get_by_role("button", name="Take a seat").click()
        expect(page).to_have_url(f"{self.live_server.url}/t/{self.code}/seat")
        expect(page.locator("#my-name")).to_have_text(name)
        self.phones[seat], self.names[seat] = page, name
        return page

    def buy_in(self, seat: str, amount: int | None):
        page = self.phones[seat]
        self.synced(page)
        before = self.version
        if amount is None:  # a fixed buy-in
            page.get_by_role("button", name="Buy in (", exact=False).click()
        else:
            page.get_by_label("Buy in another amount").fill(str(amount))
            page.locator("#buyin").get_by_role("button", name="Buy in", exact=True).click()
        self.wait_version(before + 1)

    def host(self, command: dict):
        status, body = api(self.live_server, f"/api/v1/tables/{self.code}/commands", command, self.host_token)
        assert status == 200, body
        self.wait_version(self.version)

    def wait_version(self, version: int):
        """Every phone and the display show the table at `version`."""
        for page in [self.display, *self.phones.values()]:
            self.synced(page, version)

    def synced(self, page, version=None):
        expect(page.locator("body")).to_have_attribute("data-version", str(self.version if version is None else version))

    def shows(self, expected):
        """The display's stacks and pots: (Lando, Han, Chewie, hand pot, sabacc pot)."""
        d = self.display
        for seat, value in zip(SEATS, expected[:3]):
            expect(d.locator(f'#d-seats li[data-seat="{seat}"] .d-stack')).to_have_text(str(value))
        expect(d.locator("#d-hand-pot")).to_have_text(str(expected[3]))
        expect(d.locator("#d-sabacc-pot")).to_have_text(str(expected[4]))

    def tap(self, seat: str, label: str, expected, dice=None):
        """`seat`'s phone taps the button `label` (twice if it asks to confirm)."""
        page = self.phones[seat]
        self.synced(page)
        before = self.version
        if dice is not None:
            self.dice.queue.append(dice)
        button = page.locator("#actions").get_by_role("button", name=label, exact=True)
        button.click()
        if label in ("Fold", "Call the hand") or label.startswith("All-in"):
            # Taps that cannot be taken back ask for a second tap on the same button; the
            # first one alone changes nothing.
            again = page.locator("#actions").get_by_role("button", name=f"Tap again: {label.lower()}", exact=True)
            expect(again).to_be_visible()
            assert self.version == before
            again.click()
        self.wait_version(before + 1)
        self.shows(expected)

    def pick(self, page, picker: str, codes):
        for code in codes:
            suited = code[:2] in ("sa", "st", "fl", "co") and code[2:].isdigit()
            page.locator(f'#{picker} .suit-tab[data-tab="{code[:2] if suited else "face"}"]').click()
            page.locator(f'#{picker} .card-btn[data-code="{code}"]').click()

    def static_add(self, seat: str, card: str, expected):
        page = self.phones[seat]
        self.synced(page)
        before = self.version
        self.pick(page, "kept-picker", [card])
        page.get_by_role("button", name="Add to my static field").click()
        self.wait_version(before + 1)
        self.shows(expected)
        # Everyone's static field is on the display, under the player's name.
        expect(self.display.locator(f'#d-seats li[data-seat="{seat}"] [data-fact="static"]')).to_contain_text("static field ")

    def reveal(self, seat: str, cards, expected, static=()):
        """Enter the hand: the picker already holds the static field; it counts to the hand size."""
        page = self.phones[seat]
        self.synced(page)
        before = self.version
        panel = page.locator("#reveal-panel")
        expect(panel).to_be_visible()
        # The move is in the reveal panel, and the phone says so where moves usually are.
        expect(page.locator("#actions")).to_have_text("Enter your hand below, under “The reveal: your hand”.")
        expect(page.locator("#turn")).to_have_text(re.compile(r"^The reveal: waiting for (\w+, )*(\w+ and )?you\b"))
        assert page.locator("#reveal-picker .chip").count() == len(static)
        send = page.get_by_role("button", name="Show my hand")
        expect(send).to_be_disabled()  # not yet the tracked hand size
        self.pick(page, "reveal-picker", [c for c in cards if c not in static])
        expect(page.locator("#reveal-count")).to_have_text(f"{len(cards)} of {len(cards)} cards.")
        send.click()
        self.wait_version(before + 1)
        self.shows(expected)

    def demise(self, seat: str, card: str, expected):
        page = self.phones[seat]
        self.synced(page)
        before = self.version
        expect(page.locator("#tie-card-panel")).to_be_visible()
        expect(page.locator("#actions")).to_have_text("Enter your new card below, under “Sudden demise”.")
        self.pick(page, "tie-card-picker", [card])
        page.get_by_role("button", name="Enter my card").click()
        self.wait_version(before + 1)
        self.shows(expected)

    def shift_seen(self, instructions: dict[str, str], shot: str | None = None, folded=(), folded_words="folded"):
        """Each phone reads its own instruction; the display lists them all, in big letters.
        A seat in `folded` reads that it is out, in the game's words ("junked")."""
        for seat, page in self.phones.items():
            banner = page.locator("#shift")
            expect(banner).to_be_visible()
            expect(page.locator("#shift-mine")).to_have_text(
                instructions.get(seat, f"You {folded_words} this hand: nothing to do." if seat in folded
                                 else "You are not in this hand: nothing to do."))
            expect(page.locator("#flash")).to_have_class("flash on")  # the screen flashes
        expect(self.display.locator("#d-shift")).to_be_visible()
        for seat, words in instructions.items():
            expect(self.display.locator("#d-shift-list")).to_contain_text(words)
        if shot:
            screenshot(self.phones["s2"], f"{shot}-player-phone-shift")
            screenshot(self.display, f"{shot}-display-shift")
        for page in self.phones.values():
            page.get_by_role("button", name="Done").click()
            expect(page.locator("#shift")).to_be_hidden()

    def result(self, words: str):
        for page in self.phones.values():
            expect(page.locator("#result-words")).to_have_text(words)

    def stand_and_roll(self, seats, dice, expected):
        for seat in seats:
            self.tap(seat, "Stand", expected)
            self.tap(seat, "Roll the scrambler", expected, dice=dice)


@pytest.fixture
def table(chromium, live_server, request):
    t = Table(chromium, live_server, request.param)
    yield t
    t.close()


def seat_three(t: Table, stacks: tuple[int, int, int] | None, chewie="Chewie"):
    """Lando, Han and Chewie join from their phones and buy in; the host starts the hand."""
    for seat, name in zip(SEATS, ("Lando", "Han", chewie)):
        t.join(seat, name)
    for seat, amount in zip(SEATS, stacks or (None, None, None)):
        t.buy_in(seat, amount)
    t.host({"type": "start_hand"})


def measure_latency(t: Table, seat: str, label: str, expected) -> float:
    """Milliseconds from a tap on one phone to the last other screen showing its result."""
    page = t.phones[seat]
    t.synced(page)
    target = t.version + 1
    watchers = [p for s, p in t.phones.items() if s != seat] + [t.display]
    for w in watchers:
        w.evaluate(
            """v => { window.__seenAt = null;
                const obs = new MutationObserver(() => {
                  if (document.body.dataset.version === String(v)) { window.__seenAt = Date.now(); obs.disconnect(); }
                });
                obs.observe(document.body, {attributes: true, attributeFilter: ["data-version"]}); }""",
            target,
        )
    button = page.locator("#actions").get_by_role("button", name=label, exact=True)
    button.wait_for()
    page.wait_for_function("() => !document.querySelector('.settling, [aria-busy=true]')")
    tapped = button.evaluate("b => { const t = Date.now(); b.click(); return t; }")
    t.wait_version(target)
    seen = [w.evaluate("() => window.__seenAt") for w in watchers]
    t.shows(expected)
    return max(seen) - tapped


# ---- the hands --------------------------------------------------------------------------------


@pytest.mark.parametrize("table", ["weg"], indirect=True)
def test_weg_hand_rim_shift_side_pot_caller_pays_reload_keeps_the_seat(table, chromium):
    t = table
    # The join address under the QR code is the table's join page.
    assert t.join_url == f"{t.live_server.url}/t/{t.code}/join"
    seat_three(t, (30, 30, 4))
    # weg ante: 1 each to the hand pot, and 1 each to the sabacc pot because it was empty.
    t.shows((28, 28, 2, 3, 3))
    # Only Han may open, with at most 3 (the bet limit): his buttons stop at 3.
    han = t.phones["s2"]
    expect(han.locator("#actions").get_by_role("button", name="Bet 4")).to_have_count(0)
    expect(t.phones["s3"].locator("#actions [data-action=bet]")).to_have_count(0)
    ms = measure_latency(t, "s2", "Bet 3", (28, 25, 2, 6, 3))
    print(f"\ntap on one phone -> shown on the others and the display: {ms} ms")
    assert ms < 1000
    t.tap("s3", "All-in (2)", (28, 25, 0, 8, 3))  # Chewie calls for less: a side pot
    t.tap("s1", "Call 3", (25, 25, 0, 11, 3))
    # Everyone put in 3, Han and Lando 1 more: a main pot and a side pot without Chewie.
    expect(t.display.locator("#d-side-pots")).to_have_text("main pot: 9 · side pot 1: 2")
    t.tap("s2", "Roll the scrambler", (25, 25, 0, 11, 3), dice=[5])  # 4-6: no shift
    t.tap("s2", "Gain a card", (25, 25, 0, 11, 3))

    # Han's phone reloads mid-hand (or the Wi-Fi drops): the same seat comes back.
    han.reload()
    expect(han.locator("#my-name")).to_have_text("Han")
    expect(han.locator("#my-stack")).to_have_text("25")
    t.synced(han)
    # A second phone without Han's token has no seat and cannot act for his.
    thief = t.page(PHONE)
    thief.goto(f"{t.live_server.url}/t/{t.code}/seat")
    expect(thief.locator("#no-seat")).to_be_visible()
    expect(thief.locator("#actions button")).to_have_count(0)
    status, body = api(t.live_server, f"/api/v1/tables/{t.code}/commands", {"type": "fold", "seat": "s2"})
    assert status == 401
    status, body = api(t.live_server, f"/api/v1/tables/{t.code}/commands", {"type": "fold"}, token="not-hans-token")
    assert status == 403

    # The display asks for one tap to make sound possible; then the shift will beep.
    t.display.get_by_role("button", name="Tap to turn on the shift sound").click()
    expect(t.display.get_by_role("button", name="Tap to turn on the shift sound")).to_be_hidden()
    assert t.display.evaluate("async () => (await import('/static/js/live.js')).soundReady()")
    # Chewie rolls a 1: a rim shift. Each phone shows its own instruction.
    t.tap("s3", "Roll the scrambler", (25, 25, 0, 11, 3), dice=[1])
    t.shift_seen({
        "s2": "Lando (on your right) picks one of your 3 cards at random; "
              "discard it; the dealer deals you 1.",
        "s3": "Han (on your right) picks one of your 2 cards at random; "
              "discard it; the dealer deals you 1.",
        "s1": "Chewie (on your right) picks one of your 2 cards at random; "
              "discard it; the dealer deals you 1.",
    }, shot="play-weg")
    t.tap("s3", "Stand", (25, 25, 0, 11, 3))
    # The server restarts its streams (it says goodbye): every screen reconnects by itself
    # with Last-Event-ID and the hand goes on.
    t.owner.close()
    started = time.monotonic()
    for page in [t.display, *t.phones.values()]:
        expect(page.locator("#conn")).to_contain_text("reconnecting")
    for page in [t.display, *t.phones.values()]:
        expect(page.locator("#conn")).to_contain_text("live", ignore_case=True)
    print(f"every screen back on the stream after {time.monotonic() - started:.1f} s")
    # Lando bets 2; Han folds (1 to the sabacc pot).
    t.tap("s1", "Bet 2", (23, 25, 0, 13, 3))
    screenshots(t, "weg")
    # The host moves Han's seat to a new phone (the host console shows this link as a QR
    # code): the new phone takes the seat; the old one is told at once (its event stream ends
    # and its reconnect is refused) and has no buttons left to tap.
    old_token = t.phones["s2"].evaluate("async c => (await import('/static/js/live.js')).loadSeat(c).token", t.code)
    status, body = api(t.live_server, f"/api/v1/tables/{t.code}/seats/s2/token", {}, t.host_token)
    assert status == 200
    old, new = t.phones["s2"], t.page(PHONE)
    new.goto(f"{t.live_server.url}/t/{t.code}/join#seat=s2&token={body['token']}")
    expect(new).to_have_url(f"{t.live_server.url}/t/{t.code}/seat")
    expect(new.locator("#my-name")).to_have_text("Han")
    assert body["token"] not in new.url
    t.phones["s2"] = new
    expect(old.locator("#no-seat-why")).to_contain_text("moved to another phone")
    expect(old.locator("#actions button:visible")).to_have_count(0)
    status, _ = api(t.live_server, f"/api/v1/tables/{t.code}/commands", {"type": "fold"}, token=old_token)
    assert status == 403
    t.shows((23, 25, 0, 13, 3))  # nothing happened
    t.tap("s2", "Fold", (23, 24, 0, 13, 4))
    t.tap("s1", "Roll the scrambler", (23, 24, 0, 13, 4), dice=[6])
    t.tap("s1", "Stand", (23, 24, 0, 13, 4))
    # Round 2: Chewie's turn; in its call step Lando calls the hand.
    t.tap("s3", "Roll the scrambler", (23, 24, 0, 13, 4), dice=[6])
    t.tap("s1", "Call the hand", (23, 24, 0, 13, 4))
    t.reveal("s3", ["sa11", "co11"], (23, 24, 0, 13, 4))  # 22
    # Pots: 9 (3 each: Chewie, Lando; Han's folded 3) and 4 (Han 1 + Lando 3, only Lando's).
    # Chewie's 22 beats Lando's 20: Chewie 9. Lando takes his 4 back and, as the caller who
    # lost, pays the pot he contested, 9: 23 + 4 - 9 = 18; sabacc pot 4 + 9 = 13.
    t.reveal("s1", ["sa10", "co10"], (18, 24, 9, 0, 13))
    t.result("Chewie wins the hand pot, 9; Lando takes back 4 that nobody else matched; "
             "Lando called, won nothing, and pays 9.")
    assert t.dialogs == [] and t.errors == []


def screenshots(t: Table, name: str):
    """The player page and the display at phone and 1080p sizes; nothing scrolls sideways."""
    if t.display.locator("#d-shift").is_visible():
        t.display.locator("#d-shift").click()  # the announcement is tapped away
    phone = t.phones["s2"]
    for page, kind, other in ((phone, "player", DISPLAY), (t.display, "display", PHONE)):
        own = PHONE if kind == "player" else DISPLAY
        for size, vp in (("phone", PHONE["viewport"]), ("display", DISPLAY["viewport"])):
            page.set_viewport_size(vp)
            assert page.evaluate("document.documentElement.scrollWidth") <= vp["width"], (kind, size)
            screenshot(page, f"play-{name}-{kind}-{size}")
        page.set_viewport_size(own["viewport"])


@pytest.mark.parametrize("table", ["classic"], indirect=True)
def test_classic_hand_static_field_core_shift_pure_sabacc_and_a_script_name(table):
    t = table
    t.join("s1", "Lando")
    t.join("s2", "Han")
    # Chewie's phone tries a name that is a script: it never runs, and it is shown as typed.
    # (The engine takes names of up to 24 characters; this one has 25: the refusal is shown
    # in words next to the name field, and a 21-character script name is seated instead.)
    page = t.page(PHONE)
    page.goto(t.join_url)
    page.get_by_label("Your name at the table").fill(XSS)
    page.get_by_role("button", name="Take a seat").click()
    chewie = XSS
    error = page.locator('[data-field="name"] .field-error')
    expect(page.locator("#my-name").or_(error)).to_be_visible()
    if error.is_visible():
        expect(error).to_contain_text("24")
        chewie = "<svg onload=alert(1)>"
        page.get_by_label("Your name at the table").fill(chewie)
        page.get_by_role("button", name="Take a seat").click()
    expect(page.locator("#my-name")).to_have_text(chewie)
    t.phones["s3"], t.names["s3"] = page, chewie
    for seat, amount in zip(SEATS, (50, 50, 5)):
        t.buy_in(seat, amount)
    t.host({"type": "start_hand"})
    # classic: 1 from each to each pot.
    t.shows((48, 48, 3, 3, 3))
    for p in [t.display, *t.phones.values()]:
        expect(p.locator('[data-seat="s3"] .d-name, [data-seat="s3"] .seat-name').first).to_have_text(chewie)
    # A bet over Han's stack: checked against the limit before sending (issue 18), in words.
    han = t.phones["s2"]
    han.get_by_label("Bet another amount").fill("60")
    han.locator("#actions").get_by_role("button", name="Bet", exact=True).click()
    expect(han.locator("#actions .amount-form .field-error")).to_have_text(
        "60 is outside what you may bet now: from 1 to 48.")
    t.shows((48, 48, 3, 3, 3))
    t.tap("s2", "Bet 10", (48, 38, 3, 13, 3))
    t.tap("s3", "All-in (3)", (48, 38, 0, 16, 3))
    t.tap("s1", "Fold", (47, 38, 0, 16, 4))
    # Han lays the Ace of Sabers in his static field, then rolls a double: a core shift.
    t.static_add("s2", "sa15", (47, 38, 0, 16, 4))
    t.tap("s2", "Roll the scrambler", (47, 38, 0, 16, 4), dice=[3, 3])
    t.shift_seen({
        "s2": "Discard your card outside the static field; the dealer deals you 1.",
        "s3": "Discard your 2 cards outside the static field; the dealer deals you 2.",
    }, folded=("s1",))
    t.tap("s2", "Gain a card", (47, 38, 0, 16, 4))
    t.tap("s3", "Roll the scrambler", (47, 38, 0, 16, 4), dice=[1, 2])
    t.tap("s3", "Stand", (47, 38, 0, 16, 4))
    # Round 2 (Lando folded, so skipped): Han rolls; Chewie calls the hand in the call step.
    t.tap("s2", "Roll the scrambler", (47, 38, 0, 16, 4), dice=[4, 6])
    t.tap("s3", "Call the hand", (47, 38, 0, 16, 4))
    # Han's picker starts with his static Ace; he adds 5 + 3: 23, Pure Sabacc.
    t.reveal("s2", ["sa15", "co5", "st3"], (47, 38, 0, 16, 4), static=["sa15"])
    # Main pot 4 + 4 + 1 = 9 and Han's unmatched 7 go to Han, with the sabacc pot (4):
    # 38 + 9 + 7 + 4 = 58. Chewie called and lost with nothing left: pays 0.
    t.reveal("s3", ["sa10", "co9"], (47, 58, 0, 0, 0))
    assert t.dialogs == [] and t.errors == []
    for p in [t.display, *t.phones.values()]:
        assert p.locator("script:not([src])").count() == 0


@pytest.mark.parametrize("table", ["holodex"], indirect=True)
def test_holodex_hand_all_in_call_in_the_trade_phase_negative_hand_wins(table):
    t = table
    seat_three(t, None)  # the fixed 500 buy-in
    # Ante 5 to each pot.
    t.shows((490, 490, 490, 15, 15))
    t.tap("s2", "Bet 20", (490, 470, 490, 35, 15))
    t.tap("s3", "All-in (490)", (490, 470, 0, 525, 15))
    t.tap("s1", "Fold", (489, 470, 0, 525, 16))
    t.tap("s2", "Call 470 (all-in)", (489, 0, 0, 995, 16))  # his whole stack (issue 28 item 13)
    # Trade phase: one static-field change a turn.
    t.static_add("s2", "fl1", (489, 0, 0, 995, 16))
    expect(t.phones["s2"].locator("#kept-add-wrap")).to_be_hidden()
    t.tap("s2", "Gain a card", (489, 0, 0, 995, 16))
    t.tap("s3", "Stand", (489, 0, 0, 995, 16))
    # Dice phase: the dealer (Lando, folded) rolls a double: a core shift for the two left.
    t.tap("s1", "Roll the scrambler", (489, 0, 0, 995, 16), dice=[2, 2])
    t.shift_seen({
        "s2": "Discard your 2 cards outside the static field; the dealer deals you 2.",
        "s3": "Discard your 2 cards outside the static field; the dealer deals you 2.",
    }, folded=("s1",))
    # Round 2: the starting player moves one seat to the left each round: Chewie trades first.
    # The turn line names the phase as the rules page does (ruling 11: one wording).
    expect(t.phones["s3"].locator("#turn")).to_contain_text("round 2. Trade phase — You: gain a card")
    t.tap("s3", "Stand", (489, 0, 0, 995, 16))
    t.tap("s2", "Stand", (489, 0, 0, 995, 16))
    t.tap("s1", "Roll the scrambler", (489, 0, 0, 995, 16), dice=[1, 3])
    # Round 3 would start with Lando, who folded: Han. He calls the hand in his trade turn;
    # the trade phase is finished, then the reveal.
    t.tap("s2", "Call the hand", (489, 0, 0, 995, 16))
    t.tap("s2", "Stand", (489, 0, 0, 995, 16))
    t.tap("s3", "Stand", (489, 0, 0, 995, 16))
    t.reveal("s2", ["fl1", "sa10", "co5"], (489, 0, 0, 995, 16), static=["fl1"])  # 16
    # Chewie's -22 is closer to 23 than 16: the whole 995. Han called and lost: nothing left.
    t.reveal("s3", ["moderation", "endurance"], (489, 0, 995, 0, 16))
    assert t.dialogs == [] and t.errors == []


@pytest.mark.parametrize("table", ["pagat"], indirect=True)
def test_pagat_hand_play_and_betting_rounds_final_roll_pure_sabacc(table):
    t = table
    seat_three(t, (40, 40, 6))
    t.shows((38, 38, 4, 3, 3))
    # Round 1, play round: Han gains, lays the 8 of Sabers in his static field, rolls.
    t.tap("s2", "Gain a card", (38, 38, 4, 3, 3))
    t.static_add("s2", "sa8", (38, 38, 4, 3, 3))
    t.tap("s2", "Roll the scrambler", (38, 38, 4, 3, 3), dice=[1, 2])
    t.stand_and_roll(["s3", "s1"], [3, 4], (38, 38, 4, 3, 3))
    # Betting round: Han 5, Chewie all-in for 4, Lando calls 5.
    t.tap("s2", "Bet 5", (38, 33, 4, 8, 3))
    t.tap("s3", "All-in (4)", (38, 33, 0, 12, 3))
    t.tap("s1", "Call 5", (33, 33, 0, 17, 3))
    # The dealer rolls after the betting round: a double, a core shift.
    t.tap("s1", "Roll the scrambler", (33, 33, 0, 17, 3), dice=[4, 4])
    t.shift_seen({s: "Discard your 2 cards outside the static field; the dealer deals you 2." for s in SEATS})
    for _ in range(2):  # rounds 2 and 3: no call yet
        t.stand_and_roll(["s2", "s3", "s1"], [1, 2], (33, 33, 0, 17, 3))
        expect(t.phones["s2"].get_by_role("button", name="Call the hand")).to_have_count(0)
        t.tap("s2", "Check", (33, 33, 0, 17, 3))
        t.tap("s1", "Check", (33, 33, 0, 17, 3))
        t.tap("s1", "Roll the scrambler", (33, 33, 0, 17, 3), dice=[1, 2])
    # Round 4: Han calls in the betting round, then bets 3; Lando folds (1 to the sabacc pot).
    t.stand_and_roll(["s2", "s3", "s1"], [1, 2], (33, 33, 0, 17, 3))
    t.tap("s2", "Call the hand", (33, 33, 0, 17, 3))
    t.tap("s2", "Bet 3", (33, 30, 0, 20, 3))
    t.tap("s1", "Fold", (32, 30, 0, 20, 4))
    t.tap("s1", "Roll the scrambler", (32, 30, 0, 20, 4), dice=[6, 1])  # the last roll
    t.reveal("s2", ["sa8", "co7", "fl8"], (32, 30, 0, 20, 4), static=["sa8"])  # 23
    # Pure Sabacc: main pot 15 (5 each), Han's own 4 + Lando's 1 (5), the sabacc pot 4:
    # 30 + 15 + 5 + 4 = 54.
    t.reveal("s3", ["st10", "fl10"], (32, 54, 0, 0, 0))
    assert t.dialogs == [] and t.errors == []


@pytest.mark.parametrize("table", ["pagat-d6"], indirect=True)
def test_pagat_d6_hand_ends_in_a_sudden_demise(table):
    t = table
    seat_three(t, (40, 40, 6))
    t.shows((38, 38, 4, 3, 3))
    t.stand_and_roll(["s2", "s3", "s1"], [1], (38, 38, 4, 3, 3))  # 1-3: no shift
    t.tap("s2", "Bet 5", (38, 33, 4, 8, 3))
    t.tap("s3", "All-in (4)", (38, 33, 0, 12, 3))
    t.tap("s1", "Call 5", (33, 33, 0, 17, 3))
    t.tap("s1", "Roll the scrambler", (33, 33, 0, 17, 3), dice=[5])  # 4-6 shifts
    t.shift_seen({s: "Discard your 2 cards outside the static field; the dealer deals you 2." for s in SEATS})
    for _ in range(2):
        t.stand_and_roll(["s2", "s3", "s1"], [1], (33, 33, 0, 17, 3))
        t.tap("s2", "Check", (33, 33, 0, 17, 3))
        t.tap("s1", "Check", (33, 33, 0, 17, 3))
        t.tap("s1", "Roll the scrambler", (33, 33, 0, 17, 3), dice=[2])
    t.stand_and_roll(["s2", "s3", "s1"], [1], (33, 33, 0, 17, 3))
    t.tap("s2", "Call the hand", (33, 33, 0, 17, 3))
    t.tap("s2", "Bet 2", (33, 31, 0, 19, 3))
    t.tap("s1", "Fold", (32, 31, 0, 19, 4))
    t.tap("s1", "Roll the scrambler", (32, 31, 0, 19, 4), dice=[3])
    t.reveal("s2", ["sa10", "co10"], (32, 31, 0, 19, 4))  # 20
    t.reveal("s3", ["fl10", "st10"], (32, 31, 0, 19, 4))  # 20: a tie, sudden demise
    for seat in ("s2", "s3"):
        expect(t.phones[seat].locator("#turn")).to_contain_text("Sudden demise")
    expect(t.phones["s1"].locator("#tie-card-panel")).to_be_hidden()
    t.demise("s2", "sa2", (32, 31, 0, 19, 4))  # 22
    # Han's 22 beats Chewie's 21: the main pot 15 and his own unmatched 4: 31 + 19 = 50.
    t.demise("s3", "co1", (32, 50, 0, 0, 4))
    t.result("Han wins the hand pot, 15; Han takes back 4 that nobody else matched.")
    assert t.dialogs == [] and t.errors == []


def test_play_pages_have_no_serious_accessibility_violations(chromium, live_server):
    # axe-core on the join page, a player page in the middle of a hand (with its actions) and
    # the display, each at the size it is used at.
    from axe_playwright_python.sync_playwright import Axe

    t = Table(chromium, live_server, "classic")
    try:
        join = t.page(PHONE)
        join.goto(t.join_url)
        seat_three(t, (20, 20, 20))
        t.static_add("s2", "sa15", (18, 18, 18, 3, 3))
        t.tap("s2", "Bet 2", (18, 16, 18, 5, 3))
        screenshot(join, "play-join-phone")
        axe = Axe()
        for name, page in (("join", join), ("player", t.phones["s3"]), ("display", t.display)):
            results = axe.run(page)
            serious = [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3])
                       for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
            assert serious == [], f"{name}: {serious}"
        assert t.errors == []
    finally:
        t.close()


def test_a_players_own_action_is_listed_once_when_the_stream_shows_it_before_the_answer(chromium, live_server):
    # On a busy network the event stream can bring a command's entry to the phone that sent it
    # before the command's own answer does: the phone shows that action once, not twice.
    t = Table(chromium, live_server, "classic")
    try:
        seat_three(t, (20, 20, 20))
        han = t.phones["s2"]
        target = t.version + 1

        def answer_after_the_stream(route):
            response = route.fetch()  # the server has applied the bet and sent the update
            han.wait_for_function("v => document.body.dataset.version === String(v)", arg=target)
            route.fulfill(response=response)

        # The phone counts the command answers it has read (its own `send` takes each one
        # within the same turn of the event loop).
        han.evaluate("""() => {
            window.answersRead = 0;
            const json = Response.prototype.json;
            Response.prototype.json = function () {
                const read = json.call(this);
                if (this.url.endsWith("/commands")) read.then(() => { window.answersRead += 1; }, () => {});
                return read;
            };
        }""")
        han.route("**/commands", answer_after_the_stream)
        t.tap("s2", "Bet 2", (18, 16, 18, 5, 3))
        # The screens show the bet once the stream brings it, maybe before the held answer is
        # given (on a loaded machine): wait for the handler, then for the phone to read it.
        han.unroute_all(behavior="wait")
        han.wait_for_function("() => window.answersRead === 1")
        expect(han.locator("#log li", has_text="Han bets 2")).to_have_count(1)
        # The other phones were never in doubt.
        expect(t.phones["s1"].locator("#log li", has_text="Han bets 2")).to_have_count(1)
        assert t.errors == []
    finally:
        t.close()
