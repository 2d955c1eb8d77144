"""axe-core on every page of the companion, at phone (360×640) and display (1920×1080) size:
no "serious" or "critical" violation; nothing wider than a phone's screen; a screenshot of each
page at each size is kept under test-artifacts/screenshots/ (a11y-<size>-<page>.png).

The table pages are shown with something to show: a settled hand (history, chart, audit log)
and a second hand under way (console, player page, display); and a classic table whose hand
was revealed and settled (every hand's cards, total and kind on the player page, the display
and the history)."""

from __future__ import annotations

import json

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import DISPLAY, PHONE, screenshot

pytestmark = pytest.mark.browser

SIZES = {"phone": PHONE, "display": DISPLAY}
EVIL = "<script>x()</script>"


def set_up_table(request, base: str) -> dict:
    """A West End Games table: Han and a hostile name, one hand settled, the next one running."""
    made = request.post(f"{base}/api/v1/tables", data={"rules": "weg"}).json()
    code, host = made["code"], {"Authorization": "Bearer " + made["host_token"]}
    seats = {}
    for name in ("Han", EVIL):
        joined = request.post(f"{base}/api/v1/tables/{code}/join", data={"name": name}).json()
        seats[joined["seat"]] = {"seat": joined["seat"], "token": joined["token"], "name": name}

    def do(who, **entry):
        headers = host if who == "host" else {"Authorization": "Bearer " + seats[who]["token"]}
        got = request.post(f"{base}/api/v1/tables/{code}/commands", data=entry, headers=headers)
        assert got.status == 200, (entry, got.text())

    for sid in seats:
        do(sid, type="buy_in", amount=20)
    do("host", type="start_hand")
    do("s2", type="bet", amount=2)
    do("s1", type="fold")
    do("host", type="adjust", seat="s1", amount=3, reason="a chip found on the floor")
    do("host", type="start_hand")
    return {"code": code, "host_token": made["host_token"], "seat": seats["s2"]}


def set_up_settled(request, base: str) -> dict:
    """A classic table whose first hand went to the reveal and was settled (Han 15, the other 23)."""
    made = request.post(f"{base}/api/v1/tables", data={"rules": "classic"}).json()
    code, host = made["code"], {"Authorization": "Bearer " + made["host_token"]}
    seats = {}
    for name in ("Han", EVIL):
        joined = request.post(f"{base}/api/v1/tables/{code}/join", data={"name": name}).json()
        seats[joined["seat"]] = {"seat": joined["seat"], "token": joined["token"], "name": name}
    roll = ("roll", None, {"dice": [1, 2]})  # the host enters the dice: no shift
    script = [("buy_in", "s1", {"amount": 20}), ("buy_in", "s2", {"amount": 20}), ("start_hand", None, {}),
              ("check", "s2", {}), roll, ("draw", "s2", {"action": "stand"}),
              ("check", "s1", {}), roll, ("draw", "s1", {"action": "stand"}),
              ("check", "s2", {}), roll,  # round 2: Han's call step
              ("call_hand", "s1", {}), ("reveal", "s1", {"cards": ["co7", "co5"]}),
               ("reveal", "s2", {"cards": ["sa15", "co8"]})]
    for typ, seat, extra in script:
        entry = {"type": typ, **extra, **({"seat": seat} if seat else {})}
        got = request.post(f"{base}/api/v1/tables/{code}/commands", data=entry, headers=host)
        assert got.status == 200, (entry, got.text())
    return {"code": code, "host_token": made["host_token"], "seat": seats["s2"]}


def pages(t: dict) -> list[tuple[str, str, str | None]]:
    """(name, path, the selector that says the page has drawn itself)."""
    c = t["code"]
    return [
        ("home", "/", None),
        ("calculator", "/calculator", '#calculator[data-ready="true"]'),
        ("rules", "/rules?preset=classic", None),
        ("decks", "/decks", None),
        ("host-start", "/host", None),
        ("host-console", f"/t/{c}/host", "#host-area:not([hidden]) #seat-list li"),
        ("audit", f"/t/{c}/audit", None),
        ("history", f"/t/{c}/history", None),
        ("table-rules", f"/t/{c}/rules", None),
        ("join", f"/t/{c}/join", None),
        ("player", f"/t/{c}/seat", "body[data-version]"),
        ("display", f"/t/{c}/display", "body[data-version]"),
        ("player-result", f"/t/{t['settled']['code']}/seat", "#result-hands table"),
        ("display-result", f"/t/{t['settled']['code']}/display", "#d-result-hands table"),
        ("history-result", f"/t/{t['settled']['code']}/history", None),
        # issue 18: the cash-out's pages (a classic table whose session has ended)
        ("summary", f"/t/{t['ended']['code']}/summary", None),
        ("player-final", f"/t/{t['ended']['code']}/seat", "#final-panel:not([hidden]) table"),
        ("display-final", f"/t/{t['ended']['code']}/display", "#d-final:not([hidden]) table"),
        ("host-console-final", f"/t/{t['ended']['code']}/host", "#standings:not([hidden]) tbody tr"),
    ]


@pytest.mark.parametrize("size", SIZES)
def test_every_page_has_no_serious_accessibility_violations(chromium, live_server, size):
    kwargs = SIZES[size]
    context = chromium.new_context(**kwargs)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    axe = Axe()
    found, too_wide = {}, {}
    try:
        t = set_up_table(context.request, live_server.url)
        t["settled"] = s = set_up_settled(context.request, live_server.url)
        t["ended"] = e = set_up_settled(context.request, live_server.url)
        got = context.request.post(f"{live_server.url}/api/v1/tables/{e['code']}/commands",
                                   data={"type": "end_session"}, headers={"Authorization": "Bearer " + e["host_token"]})
        assert got.status == 200, got.text()
        # The host token and the evil seat's token, as the start page and join page keep them.
        page.goto(live_server.url + "/")
        page.evaluate(
            "([hostKey, host, seatKey, seat]) => { localStorage.setItem(hostKey, host); localStorage.setItem(seatKey, seat); }",
            [f"sabacc.host.{t['code']}", t["host_token"], f"sabacc.seat.{t['code']}", json.dumps(t["seat"])],
        )
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"sabacc.seat.{s['code']}", json.dumps(s["seat"])])
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"sabacc.seat.{e['code']}", json.dumps(e["seat"])])
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"sabacc.host.{e['code']}", e["host_token"]])
        for name, path, ready in pages(t):
            if name == "join":  # a phone without a seat sees the join form
                page.evaluate(f"localStorage.removeItem('sabacc.seat.{t['code']}')")
                page.goto(live_server.url + path)
                page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"sabacc.seat.{t['code']}", json.dumps(t["seat"])])
            else:
                page.goto(live_server.url + path)
            if ready:
                page.wait_for_selector(ready)
            results = axe.run(page)
            serious = [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3])
                       for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
            if serious:
                found[name] = serious
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > kwargs["viewport"]["width"]:
                too_wide[name] = width
            screenshot(page, f"a11y-{size}-{name}")
        assert found == {}
        assert too_wide == {}  # no sideways scrolling
        assert errors == []
    finally:
        context.close()
