"""Issue 28 item 13: a raise (or a call, or a bet) of a player's whole stack is an all-in, and
every screen says so: the phone's and the console's buttons before it, the phones' last actions
and the host's log after it, and the display's seat tag."""

from __future__ import annotations

import urllib.request

import pytest
from playwright.sync_api import expect

from conftest import screenshot
from test_phones_browser import console, host, make_table, phone, server, settle_ui  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser]


def test_a_raise_and_a_call_of_the_whole_stack_are_marked_all_in_on_every_screen(make_table):
    t = make_table("classic")
    lando, han = phone(t, "s1"), phone(t, "s2")
    for seat in ("s1", "s2"):
        host(t, {"type": "buy_in", "seat": seat, "amount": 20})
    host(t, {"type": "start_hand"})  # antes 1 + 1 each: 18 behind; Han (s2) opens
    host(t, {"type": "bet", "seat": "s2", "amount": 1})  # Han: 17 behind
    raise_all = lando.locator("#actions").get_by_role("button", name="Raise to 18 (all-in)")
    expect(raise_all).to_be_visible()
    con = console(t)  # the host console's buttons for a seat say it too
    con.get_by_label("Seat", exact=True).select_option("s1")
    expect(con.get_by_role("button", name="Raise to 18 (all-in) for Lando")).to_be_visible()
    expect(con.get_by_role("button", name="Raise to 2 for Lando", exact=True)).to_be_visible()
    expect(lando.locator("#actions").get_by_role("button", name="Raise to 2", exact=True)).to_be_visible()
    before = t.version
    settle_ui(lando)
    raise_all.click()
    t.wait_version(before + 1)
    call_all = han.locator("#actions").get_by_role("button", name="Call 17 (all-in)")
    expect(call_all).to_be_visible()
    con.get_by_label("Seat", exact=True).select_option("s2")
    expect(con.get_by_role("button", name="Call 17 (all-in) for Han")).to_be_visible()
    for page in (lando, han):
        expect(page.locator("#log")).to_contain_text("Lando raises to 18 (all-in)")
    expect(t.display.locator('#d-seats li[data-seat="s1"]')).to_contain_text("all-in")
    screenshot(han, "all-in-call-whole-stack-phone")
    settle_ui(han)
    before = t.version
    call_all.click()
    t.wait_version(before + 1)
    expect(lando.locator("#log")).to_contain_text("Han calls 17 (all-in)")
    with urllib.request.urlopen(f"{t.live_server.url}/t/{t.code}/audit", timeout=10) as resp:
        audit = resp.read().decode()
    assert "Lando raises to 18, all in" in audit and "Han calls 17, all in" in audit
    assert "Han bets 1," not in audit  # a bet that leaves a stack is no all-in
    assert t.errors == []
