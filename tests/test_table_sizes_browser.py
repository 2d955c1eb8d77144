"""Issue 28 items 14 and 15, at the sizes a table uses: a small phone (360×640) and the TV
(1920×1080).

14: on a 360×640 phone the current moves are on the screen and nothing covers them or the turn
line: a Spike turn (six actions and the card a move discards), a Spike bet, a classic bet.
15: the TV is read from the table's chairs: the result and the discard pile's top card are big,
the deal note goes when the betting starts, and the third round's shift says what the dealer
deals. Screenshots of each are saved in test-artifacts/screenshots/.

The host's part goes through the API (tests/evening_script.py); the dice are fixed through the
table's owner. Seats in join order: s1 Lando (the first dealer), s2 Han, s3 Chewie.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from conftest import ARTIFACTS
from test_evening_browser import evening  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.browser]

SPIKE_TURN = ("Stand", "Gain and keep", "Gain and discard it", "Gain, keep and discard another",
              "Swap with the discard pile", "Junk")


def shot(page, name: str) -> None:
    """What the screen shows (not the whole page: the question is what is in view)."""
    out = ARTIFACTS / "screenshots" / f"{name}.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out))


def in_view_and_uncovered(page, locator) -> dict:
    """Where `locator` is on the screen, and what lies on top of it at its centre and at two
    corners (a sticky panel over it would be found there)."""
    return locator.evaluate("""(e) => {
        const r = e.getBoundingClientRect();
        const spots = [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 4, r.top + 4],
                       [r.right - 4, r.bottom - 4]];
        const covered = spots.filter(([x, y]) => { const at = document.elementFromPoint(x, y);
                                                   return !(at && (at === e || e.contains(at))); });
        return {top: r.top, bottom: r.bottom, height: innerHeight, covered: covered.length};
    }""")


def assert_in_view(page, locator, what: str, settle_s: float = 5.0) -> None:
    """`locator` lies inside the screen with nothing over it, once the page has settled: the
    moves panel fits itself to the screen after a render (fitMoves), so a slow machine may see
    it mid-layout for a moment; what still covers a move after `settle_s` covers it for good."""
    expect(locator).to_be_visible()
    deadline = time.monotonic() + settle_s
    where = in_view_and_uncovered(page, locator)
    while (where["covered"] or where["top"] < 0 or where["bottom"] > where["height"]) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        where = in_view_and_uncovered(page, locator)
    assert where["top"] >= 0 and where["bottom"] <= where["height"], (what, where)
    assert where["covered"] == 0, (what, where)


def test_item14_a_spike_turn_and_a_spike_bet_are_in_view_on_a_360x640_phone(evening):
    t = evening("spike")
    t.host.do("start_hand")
    t.host.do("discard_top", card="-3")
    han = t.phone("s2")
    expect(han.locator("#turn")).to_contain_text("You: stand")
    assert_in_view(han, han.locator("#turn"), "the turn line")
    for label in SPIKE_TURN:
        assert_in_view(han, han.locator("#actions").get_by_role("button", name=label, exact=True), label)
    shot(han, "spike-phone-360x640-turn")
    # The card a move discards is entered below the moves; a move without it says so.
    han.locator("#actions").get_by_role("button", name="Swap with the discard pile", exact=True).click()
    expect(han.locator("#actions-error")).to_have_text("Pick the card you discard first.")
    assert_in_view(han, han.locator("#discard-picker .suit-tab").first, "the discard picker")

    for seat in ("s2", "s3", "s1"):
        t.host.do("draw", seat=seat, action="stand")
    t.host.do("bet", seat="s2", amount=3)
    chewie = t.phone("s3")
    expect(chewie.locator("#turn")).to_contain_text("You: call 3")
    assert_in_view(chewie, chewie.locator("#turn"), "the turn line")
    for label in ("Call 3", "Junk", "All-in (47)"):
        assert_in_view(chewie, chewie.locator("#actions").get_by_role("button", name=label, exact=True), label)
    shot(chewie, "spike-phone-360x640-facing-a-bet")


def test_item14_a_classic_bet_is_in_view_on_a_360x640_phone(evening):
    t = evening("classic")
    t.host.do("start_hand")
    t.host.do("bet", seat="s2", amount=3)
    chewie = t.phone("s3")
    expect(chewie.locator("#turn")).to_contain_text("You: call 3")
    assert_in_view(chewie, chewie.locator("#turn"), "the turn line")
    for label in ("Call 3", "Fold"):
        assert_in_view(chewie, chewie.locator("#actions").get_by_role("button", name=label, exact=True), label)
    shot(chewie, "classic-phone-360x640-facing-a-bet")


def px(page, selector: str, prop: str = "fontSize") -> float:
    return page.locator(selector).first.evaluate(f"e => parseFloat(getComputedStyle(e).{prop})")


def test_item15_the_tv_reads_from_the_table_at_1920x1080(evening):
    """A Spike game on the TV: the deal note goes when the betting starts; the third round's
    shift says what the dealer deals; the result and the discard pile's top card are read from
    the chairs, in the room the screen has."""
    t = evening("spike")
    t.dice.default = (1, 2)
    display = t.display()
    t.host.do("start_hand")
    t.host.do("discard_top", card="-3")
    t.synced(display)
    expect(display.locator("#d-deal")).to_contain_text("Lando, deal: Deal Han 2 cards")
    discard = display.locator('#d-table-facts [data-fact="discard_top"]')
    expect(discard).to_have_text("Discard pile \u22123")
    assert px(display, '#d-table-facts [data-fact="discard_top"]') >= 40  # read from across the table (it was 17.6 px)
    for rnd in (1, 2, 3):
        for seat in ("s2", "s3", "s1"):
            t.host.do("draw", seat=seat, action="stand")
        t.synced(display)
        expect(display.locator("#d-turn")).to_contain_text("Han: bet or check")
        expect(display.locator("#d-deal")).to_be_hidden()  # the deal was done in the turn phase
        for seat in ("s2", "s3", "s1"):
            t.host.do("check", seat=seat)
        if rnd == 3:
            t.dice.queue.append((4, 4))  # matching symbols: a Sabacc Shift before the reveal
        t.host.do("roll")
    t.synced(display)
    expect(display.locator("#d-shift")).to_be_visible()
    expect(display.locator("#d-shift-deal")).to_have_text(
        "Dealer: Deal Han 2 cards · Deal Chewie 2 cards · Deal Lando 2 cards")
    display.wait_for_function("() => !document.getAnimations().length")  # the flash is over
    shot(display, "spike-display-1920x1080-third-round-shift")
    display.locator("#d-shift").click()
    for seat, cards in (("s2", ["+3", "-3"]), ("s3", ["+5", "+4"]), ("s1", ["+10", "-1"])):
        t.host.do("reveal", seat=seat, cards=cards)
    t.synced(display)
    expect(display.locator("#d-result-words")).to_contain_text("Han wins the game pot, 3, and the sabacc pot, 6.")
    shot(display, "spike-display-1920x1080-result")
    # The result is read from the chairs: its words at least 4.5 % of the screen's height, the
    # hands' rows 3 %; together they use the lower half of the screen, and nothing overflows it.
    assert px(display, "#d-result-words") >= 0.045 * 1080
    assert px(display, "#d-result-hands td") >= 0.03 * 1080
    box = display.locator("#d-result").bounding_box()
    assert box["y"] + box["height"] >= 0.8 * 1080, box
    assert display.evaluate("() => document.documentElement.scrollHeight") <= 1080
