"""A whole Corellian Spike game in the browser: three phones and the display (RULES-SPIKE.md).

Headless Chromium, the companion under waitress, the spike dice fixed by the test through the
table's owner (see test_play_browser.py, whose table helper this reuses). Seats in join order:
s1 Lando (the dealer), s2 Han, s3 Chewie; every phase starts at the dealer's left, Han. After
every step the display's stacks and pots are checked against the numbers worked out by hand:
(Lando, Han, Chewie, game pot, sabacc pot).

The game: antes (1 to the game pot, 2 to the sabacc pot each); round 1: Han swaps with the
discard pile (fee 2), Chewie gains and keeps, Lando stands, everyone checks, the spike dice
match: a Sabacc Shift; round 2: Han gains, keeps and discards another (fee 1), Chewie junks;
round 3: both stand; the reveal: Han and Lando hold the same Sabacc with a pair (a true tie),
the blind draw gives it to Han (a positive card beats its negative), who takes the game pot and,
his hand totalling 0, the sabacc pot.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import tap_button
from test_play_browser import Table, seat_three

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MINUS = "\u2212"


def pick(page, picker: str, codes) -> None:
    """Tap Spike cards into a picker: its group (positive, negative, sylops), then the card."""
    for code in codes:
        tab = "sylop" if code == "sylop" else "plus" if code.startswith("+") else "minus"
        page.locator(f'#{picker} .suit-tab[data-tab="{tab}"]').click()
        page.locator(f'#{picker} .card-btn[data-code="{code}"]').click()


def discard(t: Table, seat: str, label: str, card: str, expected) -> None:
    """A move that discards: the card goes in the discard picker, then the move's button."""
    pick(t.phones[seat], "discard-picker", [card])
    t.tap(seat, label, expected)


@pytest.fixture
def table(chromium, live_server):
    t = Table(chromium, live_server, "spike")
    yield t
    t.close()


def test_a_whole_spike_game_on_three_phones_and_the_display(table):
    t = table
    seat_three(t, (30, 30, 30))
    t.shows((27, 27, 27, 3, 6))  # antes: 1 each to the game pot, 2 each to the sabacc pot
    expect(t.display.locator("#d-hand-title")).to_contain_text("round 1 of 3")
    han = t.phones["s2"]
    expect(han.locator("#turn")).to_contain_text("Hand 1, round 1 of 3.")
    expect(han.locator(".numbers")).to_contain_text("Game pot")

    # The dealer turns up the discard pile's first card; every screen shows it.
    t.host({"type": "discard_top", "card": "-3"})
    expect(t.display.locator('#d-table-facts [data-fact="discard_top"]')).to_have_text(f"Discard pile {MINUS}3")
    for page in t.phones.values():
        expect(page.locator('#table-facts [data-fact="discard_top"]')).to_have_text(f"Discard pile {MINUS}3")

    # Round 1, the turn phase: Han swaps (fee 2 into the game pot), Chewie gains and keeps.
    discard(t, "s2", "Swap with the discard pile", "+5", (27, 25, 27, 5, 6))
    expect(t.display.locator('#d-table-facts [data-fact="discard_top"]')).to_have_text("Discard pile +5")
    t.tap("s3", "Gain and keep", (27, 25, 27, 5, 6))
    t.tap("s1", "Stand", (27, 25, 27, 5, 6))
    for seat in ("s2", "s3", "s1"):
        t.tap(seat, "Check", (27, 25, 27, 5, 6))
    # The spike dice: matching symbols, a Sabacc Shift.
    t.tap("s1", "Roll the spike dice", (27, 25, 27, 5, 6), dice=[3, 3])
    expect(t.display.locator("#d-roll")).to_contain_text("Crown and Crown — a shift")
    t.shift_seen({"s1": "Discard your 2 cards; the dealer deals you 2.",
                  "s2": "Discard your 2 cards; the dealer deals you 2.",
                  "s3": "Discard your 3 cards; the dealer deals you 3."})
    t.host({"type": "discard_top", "card": "+9"})

    # Round 2: Han keeps a gained card and discards another (fee 1); Chewie junks.
    expect(t.display.locator("#d-hand-title")).to_contain_text("round 2 of 3")
    discard(t, "s2", "Gain, keep and discard another", "-1", (27, 24, 27, 6, 6))
    page = t.phones["s3"]
    before = t.version
    page.locator("#actions").get_by_role("button", name="Junk", exact=True).click()
    expect(page.locator("#actions").get_by_role("button", name="Tap again: junk", exact=True)).to_be_visible()
    assert t.version == before  # one tap alone junks nothing
    page.locator("#actions").get_by_role("button", name="Tap again: junk", exact=True).click()
    t.wait_version(before + 1)
    t.shows((27, 24, 27, 6, 6))
    t.tap("s1", "Stand", (27, 24, 27, 6, 6))
    for seat in ("s2", "s1"):
        t.tap(seat, "Check", (27, 24, 27, 6, 6))
    t.tap("s1", "Roll the spike dice", (27, 24, 27, 6, 6), dice=[1, 2])

    # Round 3: both stand and check; the last roll comes before the reveal.
    for seat in ("s2", "s1"):
        t.tap(seat, "Stand", (27, 24, 27, 6, 6))
    for seat in ("s2", "s1"):
        t.tap(seat, "Check", (27, 24, 27, 6, 6))
    t.tap("s1", "Roll the spike dice", (27, 24, 27, 6, 6), dice=[5, 6])

    # The reveal: the same Sabacc with a pair of fours, a true tie: a blind draw.
    for seat, cards in (("s2", ["+4", "-4"]), ("s1", ["-4", "+4"])):
        page = t.phones[seat]
        t.synced(page)
        before = t.version
        expect(page.locator("#reveal-panel")).to_be_visible()
        pick(page, "reveal-picker", cards)
        page.get_by_role("button", name="Show my hand").click()
        t.wait_version(before + 1)
    for seat, card in (("s2", "+2"), ("s1", "-2")):
        page = t.phones[seat]
        t.synced(page)
        before = t.version
        expect(page.locator("#tie-card-title")).to_have_text("Blind draw")
        expect(page.locator("#actions")).to_have_text("Enter the card you drew below, under “Blind draw”.")
        pick(page, "tie-card-picker", [card])
        page.get_by_role("button", name="Enter my card").click()
        t.wait_version(before + 1)
    # Han wins the game pot of 6 and, his hand totalling 0, the sabacc pot of 6.
    t.shows((27, 36, 27, 0, 0))
    t.result("Han wins the game pot, 6, and the sabacc pot, 6.")  # the fees are no bets: one pot
    expect(t.display.locator("#d-result-hands")).to_contain_text("Sabacc with a pair")
    assert not t.errors, t.errors


def test_spike_with_a_console_seat_an_all_in_side_pot_and_the_sabacc_pot_carried(table):
    """Four seats: Lando, Han and Chewie on phones, Leia (no phone) played from the host
    console. Game 1: Leia swaps from the console (fee 2), Han bets 5, Chewie calls, Leia goes
    all-in for 3, Lando junks: a main pot of 15 (the fee in it) and a side pot of 4; a Sabacc
    Shift in round 3; Leia's Pure Sabacc takes the main pot and the sabacc pot, Han's Nulrhek
    (closer to 0 than Chewie's) the side pot. Game 2: everyone but Han junks; Han keeps his hand
    hidden: the game pot is his, the sabacc pot carries over."""
    from test_phones_browser import console

    t = table
    for seat, name in zip(("s1", "s2", "s3"), ("Lando", "Han", "Chewie")):
        t.join(seat, name)
    for seat in ("s1", "s2", "s3"):
        t.buy_in(seat, 30)
    status, body = _api(t, f"/api/v1/tables/{t.code}/join", {"name": "Leia"})
    assert status in (200, 201), body
    t.host({"type": "buy_in", "seat": "s4", "amount": 8})
    con = console(t)
    con.get_by_label("Seat", exact=True).select_option("s4")
    t.host({"type": "start_hand"})

    def money(expected):
        """Every screen: the display's stacks and pots, each phone's own stack and the pots."""
        lando, han, chewie, leia, pot, sabacc = expected
        d = t.display
        for seat, value in zip(("s1", "s2", "s3", "s4"), (lando, han, chewie, leia)):
            expect(d.locator(f'#d-seats li[data-seat="{seat}"] .d-stack')).to_have_text(str(value))
        expect(d.locator("#d-hand-pot")).to_have_text(str(pot))
        expect(d.locator("#d-sabacc-pot")).to_have_text(str(sabacc))
        for seat, value in zip(("s1", "s2", "s3"), (lando, han, chewie)):
            page = t.phones[seat]
            expect(page.locator("#my-stack")).to_have_text(str(value))
            expect(page.locator("#sabacc-pot")).to_have_text(str(sabacc))
        expect(con.locator("#sabacc-pot")).to_have_text(str(sabacc))

    def tap(page, label, box="#actions", dice=None):
        if dice is not None:
            t.dice.queue.append(dice)
        t.synced(page)
        before = t.version
        # Taps that cannot be taken back ask twice.
        tap_button(page.locator(box), label, label.startswith(("All-in", "Junk")))
        t.wait_version(before + 1)

    lando, han, chewie = (t.phones[s] for s in ("s1", "s2", "s3"))
    money((27, 27, 27, 5, 4, 8))
    t.host({"type": "discard_top", "card": "-3"})
    # Round 1, the turn phase (from the dealer's left: Han, Chewie, Leia, Lando).
    tap(han, "Stand")
    tap(chewie, "Stand")
    # The console plays Leia's seat: the card she discards, then her swap (fee 2).
    expect(con.locator("#seat-play-for")).to_have_text("Moves for Leia")
    pick(con, "seat-cards", ["+6"])
    tap(con, "Swap with the discard pile for Leia", box="#seat-moves")
    expect(con.locator('#hand-game-facts [data-fact="discard_top"] .fact-value')).to_have_text("+6")
    tap(lando, "Stand")
    money((27, 27, 27, 3, 6, 8))
    # The betting phase: Han bets 5, Chewie calls, Leia all-in for 3, Lando junks.
    tap(han, "Bet 5")
    tap(chewie, "Call 5")
    tap(con, "All-in (3) for Leia", box="#seat-moves")
    tap(lando, "Junk")  # in the betting phase
    money((27, 22, 22, 0, 19, 8))
    expect(t.display.locator("#d-side-pots")).to_have_text("main pot: 15 · side pot 1: 4")
    tap(lando, "Roll the spike dice", dice=[1, 2])
    # Rounds 2 and 3: Han and Chewie stand and check; all-in Leia stands from the console.
    for rnd, dice in ((2, [2, 3]), (3, [4, 4])):
        expect(t.display.locator("#d-hand-title")).to_contain_text(f"round {rnd} of 3")
        tap(han, "Stand")
        tap(chewie, "Stand")
        tap(con, "Stand for Leia", box="#seat-moves")
        tap(han, "Check")
        tap(chewie, "Check")
        tap(lando, "Roll the spike dice", dice=dice)
    t.shift_seen({"s2": "Discard your 2 cards; the dealer deals you 2.",
                  "s3": "Discard your 2 cards; the dealer deals you 2."}, folded=("s1",), folded_words="junked")
    # The reveal: Leia's Pure Sabacc from the console, Han's and Chewie's Nulrheks.
    for page, cards in ((han, ["+3", "-1"]), (chewie, ["+5", "+4"])):
        t.synced(page)
        before = t.version
        pick(page, "reveal-picker", cards)
        page.get_by_role("button", name="Show my hand").click()
        t.wait_version(before + 1)
    pick(con, "seat-cards", ["sylop", "sylop"])
    before = t.version
    con.get_by_role("button", name="Enter Leia's hand").click()
    t.wait_version(before + 1)
    money((27, 26, 22, 23, 0, 0))
    t.result("Leia wins the main pot, 15, and the sabacc pot, 8; Han wins side pot 1, 4.")
    expect(t.display.locator("#d-result-hands")).to_contain_text("Pure Sabacc")

    # Game 2: the dealer passed left (Han); Chewie, Leia and Lando junk; Han keeps his hand hidden.
    t.host({"type": "start_hand"})
    money((24, 23, 19, 20, 4, 8))
    tap(chewie, "Junk")
    tap(con, "Junk for Leia", box="#seat-moves")
    tap(lando, "Junk")
    expect(han.locator("#actions")).to_contain_text("Keep my hand hidden")
    tap(han, "Keep my hand hidden")
    money((24, 27, 19, 20, 0, 8))  # the game pot to Han; the sabacc pot carries over
    t.result("Han takes the game pot, 4: everyone else junked.")
    assert not t.errors, t.errors


def _api(t, path, body):
    from test_play_browser import api

    return api(t.live_server, path, body)
