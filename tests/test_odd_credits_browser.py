"""Issue 28 item 17: at a `holodex` table (smallest chip: a bronzium, 5 credits) the final
standings say, in words, how the credits no chip can pay are settled (Lando 1, Leia 4): the
table's rule (`chips.hand_back`) rounds them to whole chips, the most first, so the chips
handed back are exactly the chips on the table. Read on the summary page at 1280 px, and in
the engine's own final standings (the phones, the display and the console read those)."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from conftest import screenshot

pytestmark = [pytest.mark.browser]


def _api(server, path, body=None, token=None):
    req = urllib.request.Request(server.url + path, method="POST" if body is not None else "GET")
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, data=json.dumps(body).encode() if body is not None else None,
                                timeout=10) as resp:
        return json.loads(resp.read())


def _chips_value(chips: dict) -> int:
    return sum(c["value"] * c["count"] for c in chips["chips"])


def test_holodex_final_standings_say_how_credits_no_chip_can_pay_are_settled(live_server, chromium):
    made = _api(live_server, "/api/v1/tables", {"rules": "holodex"})
    code, token = made["code"], made["host_token"]
    for name in ("Lando", "Leia", "Han"):
        _api(live_server, f"/api/v1/tables/{code}/join", {"name": name})
    seats = {"Lando": "s1", "Leia": "s2", "Han": "s3"}
    for sid in seats.values():
        _api(live_server, f"/api/v1/tables/{code}/commands", {"type": "buy_in", "seat": sid}, token)
    # Stacks of 1, 4 and 505 (the credits a night of 1-credit fees leaves): 510 on the table.
    for sid, amount in (("s1", -499), ("s2", -496), ("s3", 5)):
        _api(live_server, f"/api/v1/tables/{code}/commands",
             {"type": "adjust", "seat": sid, "amount": amount, "reason": "the evening"}, token)
    ended = _api(live_server, f"/api/v1/tables/{code}/commands", {"type": "end_session"}, token)
    final = {e["seat"]: e for ev in ended["events"] if ev["type"] == "session_ended" for e in ev["standings"]}
    # Leia has the most odd credits: the one bronzium they make is hers; Lando's 1 is rounded down.
    assert _chips_value(final["s2"]["chips"]) == 5 and _chips_value(final["s1"]["chips"]) == 0
    assert sum(_chips_value(r["chips"]) for r in final.values()) == 510  # every chip, none made up
    assert "rounded up" in final["s2"]["chips"]["words"] and "rounded down" in final["s1"]["chips"]["words"]

    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{code}/summary")
        note = page.locator("#odd-credits")
        expect(note).to_contain_text("Credits no chip can pay: Lando 1, Leia 4")
        expect(note).to_contain_text("1 bronzium, which goes to Leia")
        expect(note).to_contain_text("the others are rounded down")
        expect(page.locator('table.standings tr[data-seat="s2"] .chips-words')).to_have_text(
            "1 bronzium (4 credits below the smallest chip, rounded up)")
        expect(page.locator('table.standings tr[data-seat="s1"] .chips-words')).to_have_text(
            "nothing (1 credit below the smallest chip, rounded down)")
        expect(page.locator('table.standings tr[data-seat="s3"] .chips-words')).to_have_text(
            "5 aurodium, 1 bronzium")
        screenshot(page, "odd-credits-summary-1280")
        # Leia cashes out after the end: the banker hands back what the standings say, and
        # the standings of what is left say that Lando's 1 credit makes no chip.
        out = _api(live_server, f"/api/v1/tables/{code}/commands", {"type": "cash_out", "seat": "s2"}, token)
        cashed = next(ev for ev in out["events"] if ev["type"] == "cashed_out")
        assert cashed["amount"] == 4 and cashed["words"] == final["s2"]["chips"]["words"]
        page.goto(f"{live_server.url}/t/{code}/history")
        expect(page.locator("#odd-credits")).to_contain_text("Credits no chip can pay: Lando 1 ")
        expect(page.locator("#odd-credits")).to_contain_text("make no whole bronzium")
    finally:
        context.close()
