"""Issue 10, "Phones at a real table": each item in headless Debian Chromium, then a whole
`classic` and a whole `weg` hand played by two phones and the host console (the third seat has
no phone), watched on the display.

One waitress server serves the whole module (each test makes its own table). Where a test
only needs a table in some state, the host's API puts it there (the host may send any seat's
command with `seat`, and enters the dice of a roll); what the item is about is done on the
pages. Seats: s1 Lando (the first dealer), s2 Han, s3 Chewie.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import expect

from companion.server import create_app
from conftest import CHROMIUM, CHROMIUM_ARGS, DISPLAY, PHONE, LiveServer, screenshot
from test_play_browser import Table, api

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAMES = {"s1": "Lando", "s2": "Han", "s3": "Chewie"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One live server for every test of this module."""
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path_factory.mktemp("phones") / "data")})
    srv = LiveServer(app)
    yield srv
    srv.close()


@pytest.fixture
def make_table(chromium, server):
    made = []

    def make(preset):
        t = Table(chromium, server, preset)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


def phone(t: Table, seat: str, *, join=True, url=None, browser=None):
    """A phone holding `seat` (joined through the API, its token in the phone's storage)."""
    if join:
        status, body = api(t.live_server, f"/api/v1/tables/{t.code}/join", {"name": NAMES[seat]})
        assert status == 201 and body["seat"] == seat, body
        token = body["token"]
    else:
        token = t.tokens[seat]
    t.__dict__.setdefault("tokens", {})[seat] = token
    context = (browser.new_context(**PHONE) if browser else t.chromium_context(PHONE))
    if browser:
        t.contexts.append(context)
    stored = json.dumps({"seat": seat, "token": token, "name": NAMES[seat]})
    context.add_init_script(f"localStorage.setItem('sabacc.seat.{t.code}', {json.dumps(stored)})")
    page = context.new_page()
    page.on("pageerror", lambda e: t.errors.append(str(e)))
    page.goto(url or f"{t.live_server.url}/t/{t.code}/seat")
    expect(page.locator("#my-name")).to_have_text(NAMES[seat])
    t.phones[seat], t.names[seat] = page, NAMES[seat]
    t.synced(page)
    return page


def host(t: Table, entry: dict):
    """The host's API (acting for a seat with `seat`); every screen catches up."""
    t.host(entry)


def stacks(t: Table) -> dict[str, int]:
    return {s["seat"]: s["stack"] for s in t.owner.view(None)[1]["seats"]}


def console(t: Table):
    """The host console in its own browser context, holding the host token."""
    context = t.chromium_context({"viewport": {"width": 1280, "height": 900}})
    context.add_init_script(f"localStorage.setItem('sabacc.host.{t.code}', {json.dumps(t.host_token)})")
    page = context.new_page()
    page.on("pageerror", lambda e: t.errors.append(str(e)))
    page.goto(f"{t.live_server.url}/t/{t.code}/host")
    expect(page.locator("#host-area")).to_be_visible()
    return page


def settle_ui(page):
    """Wait until the moves panel takes taps again (it ignores them for 400 ms after a change)."""
    page.wait_for_function("() => !document.querySelector('.settling')")


def double_tap(page, locator, gap_ms=150):
    """Two taps on the same spot, `gap_ms` apart: a finger's double tap."""
    settle_ui(page)
    box = locator.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    page.wait_for_timeout(gap_ms)
    page.mouse.click(x, y)


# ---- the items ------------------------------------------------------------------------------


def test_item1_typed_values_and_focus_survive_another_phones_action(make_table):
    t = make_table("classic")
    lando = phone(t, "s1")
    phone(t, "s2")
    chewie = phone(t, "s3")
    box = lando.get_by_label("Buy in another amount")
    box.fill("49")
    # Han buys in on his phone: Lando's typed 49 and his focus stay.
    host(t, {"type": "buy_in", "seat": "s2", "amount": 30})
    expect(box).to_have_value("49")
    assert lando.evaluate("document.activeElement.id") == "amount-buy_in"
    settle_ui(lando)
    lando.locator("#buyin").get_by_role("button", name="Buy in", exact=True).click()
    t.wait_version(t.version)
    expect(lando.locator("#my-stack")).to_have_text("49")
    assert stacks(t)["s1"] == 49  # exactly what was typed
    host(t, {"type": "buy_in", "seat": "s3", "amount": 30})
    host(t, {"type": "start_hand"})
    host(t, {"type": "bet", "seat": "s2", "amount": 1})
    # Chewie types a raise to 9; Lando folds out of turn meanwhile: the 9 stays.
    raise_box = chewie.get_by_label("Raise to another total")
    raise_box.fill("9")
    host(t, {"type": "fold", "seat": "s1"})
    expect(raise_box).to_have_value("9")
    settle_ui(chewie)
    chewie.locator("#actions").get_by_role("button", name="Raise to", exact=True).click()
    t.wait_version(t.version)
    assert t.owner.view(None)[1]["hand"]["current_bet"] == 9
    assert t.errors == []


def test_item2_a_double_tap_performs_one_action(make_table):
    t = make_table("weg")
    phone(t, "s1")
    han = phone(t, "s2")
    host(t, {"type": "buy_in", "seat": "s1", "amount": 20})
    host(t, {"type": "buy_in", "seat": "s2", "amount": 20})
    host(t, {"type": "start_hand"})
    # A double tap on "Bet 2": one bet, and no "Tap again: fold" armed under the finger.
    before = t.version
    double_tap(han, han.locator("#actions").get_by_role("button", name="Bet 2", exact=True))
    t.wait_version(before + 1)
    han.wait_for_timeout(500)
    assert t.version == before + 1
    expect(han.locator(".armed")).to_have_count(0)
    host(t, {"type": "call", "seat": "s1"})
    # A double tap on "Roll the scrambler": one roll; "Gain a card", which appears in its
    # place, is not tapped.
    t.dice.queue.append([5])
    before = t.version
    double_tap(han, han.locator("#actions").get_by_role("button", name="Roll the scrambler"))
    t.wait_version(before + 1)
    han.wait_for_timeout(500)
    assert t.version == before + 1
    expect(han.locator("#actions").get_by_role("button", name="Gain a card")).to_be_visible()
    assert t.errors == []


def test_item3_page_stays_awake_on_a_non_secure_origin(make_table, server):
    from playwright.sync_api import sync_playwright  # noqa: F401 - the session's Playwright runs it

    t = make_table("classic")
    port = server.url.rsplit(":", 1)[1]
    browser = t._chromium.browser_type.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS + ["--host-resolver-rules=MAP sabacc.test 127.0.0.1"])
    try:
        origin = f"http://sabacc.test:{port}"
        page = phone(t, "s1", url=f"{origin}/t/{t.code}/seat", browser=browser)
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("'wakeLock' in navigator") is False  # no Wake Lock here
        page.locator("#my-name").click()  # the first tap
        expect(page.locator("body")).to_have_attribute("data-awake", "video")
        first = page.evaluate("document.querySelector('video.keep-awake').currentTime")
        page.wait_for_timeout(300)
        video = page.evaluate("(() => { const v = document.querySelector('video.keep-awake');"
                              " return {paused: v.paused, loop: v.loop, muted: v.muted, t: v.currentTime,"
                              " src: v.currentSrc}; })()")
        assert not video["paused"] and video["loop"] and video["muted"]
        assert video["t"] != first  # it is playing
        assert video["src"] == f"{origin}/static/media/keepawake.webm"  # shipped locally
        ctx = browser.new_context(**DISPLAY)
        display = ctx.new_page()
        display.goto(f"{origin}/t/{t.code}/display")
        display.locator("#d-sound").click()
        expect(display.locator("body")).to_have_attribute("data-awake", "video")
        ctx.close()
    finally:
        browser.close()
