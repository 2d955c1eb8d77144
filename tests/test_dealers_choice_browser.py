"""Dealer's choice from classic Sabacc to Corellian Spike with every page left open (issue 28,
item 2): three phones (360x640), the host console (1280 wide) and the display (1920x1080) follow
the change of game through the stream at once, none of them reloaded by hand — the phones'
pickers offer Spike's cards, a discard and a reveal of Spike cards are taken, the display and
the console name the game pot.

Seats in join order: s1 Lando (the first dealer), s2 Han, s3 Chewie.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from test_phones_browser import console
from test_play_browser import SEATS, Table, api
from test_spike_browser import pick

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SPIKE = "Corellian Spike (Black Spire Outpost)"
#: How long the open pages may take to load again for the new game, all at once.
RELOAD_MS = 30_000


@pytest.fixture
def table(chromium, live_server):
    t = Table(chromium, live_server, "classic")
    yield t
    t.close()


def test_item2_open_pages_follow_dealers_choice_from_classic_to_spike(table):
    t = table
    for seat, name in zip(SEATS, ("Lando", "Han", "Chewie")):
        t.join(seat, name)
    for seat in SEATS:
        t.buy_in(seat, 30)
    con = console(t)
    # A classic hand everyone but Han folds: the pages have played classic.
    t.host({"type": "start_hand"})
    t.host({"type": "bet", "seat": "s2", "amount": 2})
    t.host({"type": "fold", "seat": "s3"})
    t.host({"type": "fold", "seat": "s1"})
    for page in t.phones.values():
        expect(page.locator(".numbers")).to_contain_text("Hand pot")
    pages = [t.display, con, *t.phones.values()]
    for page in pages:  # a mark in each page's own memory: gone only if the page loads again
        page.evaluate("window.__classic = true")

    # Another console (here the API) changes the game; nobody touches the open pages.
    status, body = api(t.live_server, f"/api/v1/tables/{t.code}/commands",
                       {"type": "change_rules", "rules": "spike"}, t.host_token)
    assert status == 200, body
    # Five pages load again at once: seconds on a busy machine.
    expect(t.display.locator(".d-pot h2").first).to_have_text("Game pot", timeout=RELOAD_MS)
    expect(con.locator("#console")).to_contain_text("Game pot", timeout=RELOAD_MS)
    for page in t.phones.values():
        expect(page.locator(".numbers")).to_contain_text("Game pot", timeout=RELOAD_MS)
    for page in pages:
        expect(page.locator("body")).to_have_attribute("data-version", str(t.version), timeout=RELOAD_MS)
        expect(page.locator("body")).to_have_attribute("data-deck", "spike")
        expect(page.locator("body")).to_have_attribute("data-game", SPIKE)
    expect(con.locator("#host-area")).to_be_visible()

    # The first Spike game: the console's discard-top picker holds Spike's cards.
    t.host({"type": "start_hand"})
    t.synced(con)
    pick(con, "discard-top-picker", ["-3"])
    expect(con.locator('#discard-top-picker .suit-tab[data-tab="sa"]')).to_have_count(0)
    before = t.version
    con.locator("#discard-top-send").click()
    t.wait_version(before + 1)
    expect(t.display.locator('#d-table-facts [data-fact="discard_top"]')).to_contain_text("\u22123")
    # Han deals the second hand: Chewie, on his left, swaps with the discard pile, discarding a
    # Spike card from his phone's picker.
    chewie = t.phones["s3"]
    t.synced(chewie)
    expect(chewie.locator('#discard-picker .suit-tab[data-tab="sa"]')).to_have_count(0)
    pick(chewie, "discard-picker", ["+5"])
    before = t.version
    chewie.locator("#actions").get_by_role("button", name="Swap with the discard pile", exact=True).click()
    t.wait_version(before + 1)
    for page in [t.display, *t.phones.values()]:
        expect(page.locator('#d-table-facts [data-fact="discard_top"], #table-facts [data-fact="discard_top"]').first).to_contain_text("+5")
    # The rest of the game through the host, then Chewie's reveal of Spike cards from his phone.
    order = ("s3", "s1", "s2")
    for sid in order[1:]:
        t.host({"type": "draw", "seat": sid, "action": "stand"})
    for rnd in range(3):
        if rnd:
            for sid in order:
                t.host({"type": "draw", "seat": sid, "action": "stand"})
        for sid in order:
            t.host({"type": "check", "seat": sid})
        t.dice.queue.append([1, 2])
        t.host({"type": "roll"})
    t.synced(chewie)
    expect(chewie.locator("#reveal-panel")).to_be_visible()
    pick(chewie, "reveal-picker", ["+4", "-4"])
    before = t.version
    chewie.get_by_role("button", name="Show my hand").click()
    t.wait_version(before + 1)
    t.host({"type": "reveal", "seat": "s1", "cards": ["+3", "+1"]})
    t.host({"type": "reveal", "seat": "s2", "cards": ["sylop", "-2"]})
    expect(t.display.locator("#d-result-hands")).to_contain_text("Sabacc with a pair")
    for page in pages:
        assert page.evaluate("window.__classic === true") is False  # each followed by loading again
    assert not t.errors, t.errors
    assert not t.dialogs, t.dialogs
