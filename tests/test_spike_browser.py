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
    expect(t.display.locator("#d-discard")).to_have_text(f"Discard pile: {MINUS}3")
    for page in t.phones.values():
        expect(page.locator("#discard-top")).to_have_text(f"Discard pile: {MINUS}3")

    # Round 1, the turn phase: Han swaps (fee 2 into the game pot), Chewie gains and keeps.
    discard(t, "s2", "Swap with the discard pile", "+5", (27, 25, 27, 5, 6))
    expect(t.display.locator("#d-discard")).to_have_text("Discard pile: +5")
    t.tap("s3", "Gain and keep", (27, 25, 27, 5, 6))
    t.tap("s1", "Stand", (27, 25, 27, 5, 6))
    for seat in ("s2", "s3", "s1"):
        t.tap(seat, "Check", (27, 25, 27, 5, 6))
    # The spike dice: matching symbols, a Sabacc Shift.
    t.tap("s1", "Roll the spike dice", (27, 25, 27, 5, 6), dice=[3, 3])
    expect(t.display.locator("#d-roll")).to_contain_text("Symbol 3 and Symbol 3 — a shift")
    t.shift_seen({"s1": "Discard your 2 cards; the dealer deals you 2.",
                  "s2": "Discard your 2 cards; the dealer deals you 2.",
                  "s3": "Discard your 3 cards; the dealer deals you 3."})
    t.host({"type": "discard_top", "card": "+9"})

    # Round 2: Han keeps a gained card and discards another (fee 1); Chewie junks.
    expect(t.display.locator("#d-hand-title")).to_contain_text("round 2 of 3")
    discard(t, "s2", "Gain, keep and discard another", "-1", (27, 24, 27, 6, 6))
    t.tap("s3", "Junk", (27, 24, 27, 6, 6))
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
        expect(page.locator("#demise-title")).to_have_text("Blind draw")
        expect(page.locator("#actions")).to_have_text("Enter the card you drew below, under “Blind draw”.")
        pick(page, "demise-picker", [card])
        page.get_by_role("button", name="Enter my card").click()
        t.wait_version(before + 1)
    # Han wins the game pot of 6 and, his hand totalling 0, the sabacc pot of 6.
    t.shows((27, 36, 27, 0, 0))
    t.result("Han wins the game pot, 6, and the sabacc pot, 6.")  # the fees are no bets: one pot
    expect(t.display.locator("#d-result-hands")).to_contain_text("Sabacc with a pair")
    assert not t.errors, t.errors
