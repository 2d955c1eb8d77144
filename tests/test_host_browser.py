"""The host's evening in a real browser: create a table on /host, see its QR code; seats join
through the API; from the console the host undoes a bet (the counter-entry shows in the audit
log), adjusts a stack with a reason, takes a non-credit stake, moves a seat to a new phone,
ends the session and reads the standings and the chips to pay out."""

from __future__ import annotations

import re

import pytest

from playwright.sync_api import expect

from conftest import DISPLAY, PHONE, screenshot

EVIL = "<script>x()</script>"  # a hostile name (the engine allows 24 characters)

pytestmark = pytest.mark.browser


class Api:
    """The table API through the browser context's request client (same server, no page)."""

    def __init__(self, request, base, code):
        self.request, self.base, self.code = request, base, code
        self.tokens: dict[str, str] = {}

    def join(self, name):
        got = self.request.post(f"{self.base}/api/v1/tables/{self.code}/join", data={"name": name})
        assert got.status == 201, got.text()
        body = got.json()
        self.tokens[body["seat"]] = body["token"]
        return body["seat"]

    def do(self, seat, **entry):
        got = self.request.post(f"{self.base}/api/v1/tables/{self.code}/commands", data=entry,
                                headers={"Authorization": "Bearer " + self.tokens[seat]})
        assert got.status == 200, (entry, got.text())
        return got.json()


def test_a_host_runs_a_session_from_the_console(chromium, live_server, app):
    from companion.table.registry import owner_token

    context = chromium.new_context(**DISPLAY)
    page = context.new_page()
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        # Create the table from the host's link serve prints (it carries the owner token):
        # West End Games with a 2-credit fold fee and a 60-credit bet limit.
        page.goto(live_server.url + "/host#owner=" + owner_token(app.config["DATA_DIR"]))
        assert "owner" not in page.url  # taken out of the address bar at once
        page.get_by_label("West End Games (1989)").check()
        page.get_by_label("Fold fee to the sabacc pot, credits").fill("2")
        # A bet limit that lets the Falcon's stake below be a bet of 50 (a stake obeys the limit).
        page.get_by_label("Bet and raise limit, credits").fill("60")
        # A face the one-die trigger does not have: the server's words show next to that field.
        page.get_by_label("The face that shifts (d10, d12, d20, 2d6-spike)").fill("7")
        page.get_by_role("button", name="Create the table").click()
        face_error = page.locator('[data-field="rules.trigger_face"] .field-error')
        expect(face_error).to_have_text("trigger_face 7 does not fit the d6-low trigger")
        page.get_by_label("The face that shifts (d10, d12, d20, 2d6-spike)").fill("")
        page.get_by_role("button", name="Create the table").click()
        page.locator("#created").wait_for()
        code = page.locator("#created-code").inner_text()
        assert re.fullmatch(r"[ACDEFHJKMNPRTUVWXY]{5}", code)
        assert page.locator("#join-url").inner_text() == f"{live_server.url}/join/{code}"
        qr = page.locator("#join-qr")
        expect(qr).to_have_js_property("complete", True)
        assert qr.evaluate("img => img.naturalWidth") > 0  # the API's SVG QR code loaded
        assert page.evaluate(f"localStorage.getItem('sabacc.host.{code}')")
        screenshot(page, "host-start-created-display")

        api = Api(context.request, live_server.url, code)
        han, evil = api.join("Han"), api.join(EVIL)
        api.do(han, type="buy_in", amount=20)
        api.do(evil, type="buy_in", amount=20)

        page.get_by_role("link", name="Open the host console").click()
        page.locator("#host-area").wait_for()
        seat_names = page.locator("#seat-list .seat-name")
        seat_names.nth(1).wait_for()
        assert seat_names.all_inner_texts() == ["Han", EVIL]  # the name is text, nothing ran
        # Only the changed options were sent: the table plays West End Games with a fold fee of 2
        # and a bet limit of 60.
        assert "West End Games (1989) (weg), changed: bet limit, fold fee" in page.locator("#host-area").inner_text()
        # The owner's table took the scrambler when it was made (issue 15).
        expect(page.locator("#scrambler-status")).to_have_text("The scrambler (button or USB box) rolls for this table.")
        # No button or box on this server: the host reads that players roll on their phones.
        expect(page.locator("#scrambler-devices")).to_have_text(
            "No physical scrambler on this server: players roll on screen, from their phones.")

        # Start a hand; the evil seat bets 2 (antes 1 each: hand pot 2 + 2).
        page.get_by_role("button", name="Start the next hand").click()
        expect(page.locator("#hand-no")).to_have_text("1")
        bet = api.do(evil, type="bet", amount=2)
        expect(page.locator("#hand-pot")).to_have_text("4")

        # Undo it: the console names the counter-entry; the hand pot is back to 2.
        page.get_by_role("button", name="Undo the last entry").click()
        result = page.locator("#undo-result")
        result.wait_for()
        counter = bet["seq"] + 1
        # What was undone, in words (issue 18 item 7), not "entry 47".
        assert result.inner_text() == f"Undone: {EVIL}'s bet of 2 (entry {bet['seq']})."
        expect(page.locator("#hand-pot")).to_have_text("2")

        audit = context.new_page()
        audit.goto(f"{live_server.url}/t/{code}/audit")
        row = audit.locator(f"#entry-{bet['seq']}")
        assert "is-undone" in row.get_attribute("class")
        assert f"undone by entry {counter}" in row.inner_text()
        assert f"Undo of entry {bet['seq']}" in audit.locator(f"#entry-{counter}").inner_text()
        audit.close()  # a tab in the background gets no animation frames: clicks there crawl

        # Adjust Han's stack: the server's refusal shows next to the amount, then it works.
        form = page.locator("#adjust-form")
        form.get_by_label("Player").select_option(label="Han")
        form.get_by_label("Credits to add (negative to take away)").fill("-100")
        form.get_by_label("Reason (shown in the audit log)").fill("a miscount")
        form.get_by_role("button", name="Adjust the stack").click()
        amount_error = form.locator('[data-field="amount"] .field-error')
        amount_error.wait_for()
        assert amount_error.inner_text() == "the stack is 18: it cannot go below 0"
        form.get_by_label("Credits to add (negative to take away)").fill("5")
        form.get_by_label("Reason (shown in the audit log)").fill("")
        form.get_by_role("button", name="Adjust the stack").click()
        assert form.locator('[data-field="reason"] .field-error').inner_text().startswith("Say why")
        form.get_by_label("Reason (shown in the audit log)").fill("a chip found under the table")
        form.get_by_role("button", name="Adjust the stack").click()
        form.locator(".form-done").filter(has_text="Han's stack is now 23.").wait_for()
        assert amount_error.inner_text() == ""

        # A non-credit stake by the evil seat: the Falcon, valued 50, into the hand pot.
        stake = page.locator("#stake-form")
        stake.get_by_label("Player").select_option(label=EVIL)
        stake.get_by_label("Item").fill("the Falcon")
        stake.get_by_label("Its value, credits").fill("50")
        stake.get_by_role("button", name="Stake the item").click()
        stake.locator(".form-done").filter(has_text=f"{EVIL} staked the Falcon for 50 credits.").wait_for()
        expect(page.locator("#hand-pot")).to_have_text("52")
        assert f"{EVIL} staked the Falcon, valued 50 credits" in page.locator("#item-list").inner_text()

        # The Falcon is the evil seat's bet of 50 (the Plutt ruling); Han folds (fee 2): 52 to the
        # evil seat uncontested.
        api.do(han, type="fold")
        expect(page.locator("#hand-stage")).to_have_text("between hands")

        # The host types in a field while a phone acts: the update keeps the focus and the text.
        han_buy_in = page.get_by_label("Buy-in credits for Han")
        han_buy_in.fill("7")
        api.do(evil, type="sit_out")
        expect(page.locator('#seat-list li[data-seat="s2"] .seat-badges')).to_contain_text("sitting out")
        expect(han_buy_in).to_be_focused()
        expect(han_buy_in).to_have_value("7")
        api.do(evil, type="sit_in")
        han_buy_in.fill("")

        # Between hands: seat Han after the evil seat, as they sit at the real table; Han sits out.
        page.get_by_role("button", name="Move down: Han").click()
        expect(seat_names).to_have_text([EVIL, "Han"])
        page.get_by_role("button", name="Sit out or in: Han").click()
        expect(page.locator('#seat-list li[data-seat="s1"] .seat-badges')).to_have_text("sitting out")
        page.get_by_role("button", name="Sit out or in: Han").click()
        expect(page.locator('#seat-list li[data-seat="s1"] .seat-badges')).to_have_text("")

        # Han moves to a new phone: a new seat link and its QR code; the old token is void.
        page.get_by_role("button", name="Move to a new phone: Han").click()
        link = page.locator("#move-link")
        link.wait_for()
        assert re.fullmatch(rf"{re.escape(live_server.url)}/t/{code}/join#seat=s1&token=\S+", link.inner_text())
        expect(page.locator("#move-qr")).to_have_js_property("complete", True)
        assert page.locator("#move-qr").evaluate("img => img.naturalWidth") > 0
        old = context.request.get(f"{live_server.url}/api/v1/tables/{code}",
                                  headers={"Authorization": "Bearer " + api.tokens[han]})
        assert old.status == 403
        new_phone = chromium.new_context(**PHONE)
        try:  # the new phone opens the link and is Han, with Han's stack
            phone = new_phone.new_page()
            phone.goto(link.inner_text())
            expect(phone).to_have_url(f"{live_server.url}/t/{code}/seat")
            expect(phone.locator("#my-name")).to_have_text("Han")
            expect(phone.locator("#my-stack")).to_have_text("21")
        finally:
            new_phone.close()

        # End the session (two taps), read the standings and the chips.
        page.get_by_role("button", name="End the session…").click()
        page.get_by_role("button", name="Yes, end the session now").click()
        table = page.locator("#standings-table")
        table.wait_for()
        expect(table.locator("tbody tr")).to_have_count(2)
        rows = [r.split("\t") for r in table.locator("tbody tr").all_inner_texts()]
        # The sabacc pot (4) is split at the end of the session: 2 each (issue 18's ruling).
        assert rows == [
            # player, bought in, items, adjusted, cashed out, stack, net, share, chips to hand back
            [EVIL, "20", "50", "0", "0", "72", "+2", "2", "2 aurodium, 4 argentium, 2 bronzium"],
            ["Han", "20", "0", "5", "0", "23", "-2", "2", "4 argentium, 3 bronzium"],
        ]
        # Cash Han out from the console: the banker's chips in words.
        page.get_by_role("button", name="Cash out: Han").click()
        page.locator("#cash-result").filter(has_text="Han cashes out 23: pay 4 argentium, 3 bronzium.").wait_for()
        # The standings now show the cash-out; Han's net is the same.
        expect(table.locator('tr[data-seat="s1"]').locator("th, td")).to_have_text(
            ["Han", "20", "0", "5", "23", "0", "-2", "2", "nothing"])
        screenshot(page, "host-console-ended-display")

        # Back on the start page, this browser's table is listed with its console.
        page.goto(live_server.url + "/host")
        expect(page.locator("#my-tables-list a")).to_have_text([f"Table {code}: host console"])

        history = context.new_page()
        history.goto(f"{live_server.url}/t/{code}/history")
        assert history.locator("svg.stack-chart g.stack-line").count() == 2
        assert history.locator(".legend-list li").all_inner_texts() == [EVIL, "Han"]  # seat order
        assert dialogs == []
    finally:
        context.close()


def test_start_page_sends_the_options_the_host_changed(chromium, live_server):
    # Holodex with a fixed bomb-out penalty, a bet limit, Force Sabacc and one chip renamed;
    # the table's rule set must say exactly that, and the rest stays the preset's.
    context = chromium.new_context(**DISPLAY)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/host")
        page.get_by_label("Games of the Galaxy Holodex").check()
        assert page.get_by_label("Buy-in, credits").input_value() == "500"  # the preset's own
        page.get_by_label("Bet and raise limit, credits").fill("20")
        page.get_by_label("A fixed amount").check()
        page.get_by_label("Fixed penalty, credits").fill("15")
        page.get_by_label("Force Sabacc: each player declares the Light (+23) or the Dark (−23) side").check()
        page.get_by_label("Chip 1 name").fill("gold")
        page.get_by_label("Chip 3 name").fill("")  # drop the bronzium
        page.get_by_role("button", name="Create the table").click()
        page.locator("#created").wait_for()
        code = page.locator("#created-code").inner_text()
        token = page.evaluate("code => localStorage.getItem('sabacc.host.' + code)", code)
        state = context.request.get(f"{live_server.url}/api/v1/tables/{code}",
                                    headers={"Authorization": "Bearer " + token}).json()
        assert state["viewer"]["host"] is True
        rules = state["state"]["rules"]
        assert sorted(rules["overrides"]) == ["bet_limit", "bomb_out_penalty", "force_sabacc"]
        assert (rules["bet_limit"], rules["bomb_out_penalty"], rules["force_sabacc"], rules["ante"]) == (20, 15, True, 5)
        assert state["state"]["settings"]["chip_set"] == [
            {"name": "gold", "value": 100, "per_buy_in": 2},
            {"name": "argentium", "value": 50, "per_buy_in": 4},
        ]
    finally:
        context.close()


def test_audit_page_follows_the_table_live(chromium, live_server):
    context = chromium.new_context(**DISPLAY)
    page = context.new_page()
    try:
        made = context.request.post(f"{live_server.url}/api/v1/tables", data={"rules": "classic"}).json()
        api = Api(context.request, live_server.url, made["code"])
        han = api.join("Han")
        page.goto(f"{live_server.url}/t/{made['code']}/audit")
        expect(page.locator("#audit-rows tr")).to_have_count(1)
        page.wait_for_timeout(300)  # let the event stream open (its snapshot also refreshes)
        bought = api.do(han, type="buy_in", amount=30)
        row = page.locator(f"#entry-{bought['seq']}")
        expect(row).to_contain_text("Han buys in for 30 (stack 30)")
        undo = context.request.post(f"{live_server.url}/api/v1/tables/{made['code']}/undo", data={},
                                    headers={"Authorization": "Bearer " + made["host_token"]}).json()
        expect(row).to_have_class("is-undone")
        expect(row).to_contain_text(f"undone by entry {undo['seq']}")
        expect(page.locator(f"#entry-{undo['seq']}")).to_contain_text(f"Undo of entry {bought['seq']}")
    finally:
        context.close()


def test_the_site_installs_and_opens_the_app_shell_offline(chromium, live_server):
    # The service worker registers from /sw.js with the whole site as its scope and keeps the
    # app shell; with the network gone, the start page still opens from the cache.
    context = chromium.new_context(**DISPLAY)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/host")
        scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
        assert scope == live_server.url + "/"
        cached = page.evaluate(
            "async () => { const c = await caches.open('sabacc-shell-v1');"
            " for (let i = 0; i < 50; i++) { if ((await c.keys()).length >= 10) break;"
            " await new Promise((r) => setTimeout(r, 100)); }"
            " return (await c.keys()).map((r) => new URL(r.url).pathname); }")
        assert {"/host", "/static/css/app.css", "/static/js/host.js", "/static/icons/icon-192.png"} <= set(cached)
        context.set_offline(True)
        page.goto(live_server.url + "/host")
        expect(page.get_by_role("heading", level=1)).to_have_text("Start a table")
        api = page.evaluate("async () => { try { await fetch('/api/v1/tables'); return 'online'; } catch (e) { return 'offline'; } }")
        assert api == "offline"  # table data is never served from a cache
    finally:
        context.close()


def test_long_words_in_the_consoles_latest_entries_stay_inside_a_laptop_screen(chromium, live_server):
    # A start_hand entry carries a 64-digit seed commitment, and a reason can be one long word
    # (88 letters here):
    # the latest entries wrap them instead of pushing the console off a 1280-pixel screen.
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        page.goto(live_server.url + "/host")
        page.get_by_role("button", name="Create the table").click()
        page.locator("#created").wait_for()
        code = page.locator("#created-code").inner_text()
        api = Api(context.request, live_server.url, code)
        for name in ("Han", "Leia"):
            api.do(api.join(name), type="buy_in", amount=20)
        page.get_by_role("link", name="Open the host console").click()
        page.locator("#host-area").wait_for()
        page.get_by_role("button", name="Start the next hand").click()
        expect(page.locator("#hand-no")).to_have_text("1")
        form = page.locator("#adjust-form")
        form.get_by_label("Credits to add (negative to take away)").fill("1")
        reason = "chipfoundunderthetable" * 4
        form.get_by_label("Reason (shown in the audit log)").fill(reason)
        form.get_by_role("button", name="Adjust the stack").click()
        expect(page.locator("#recent-entries")).to_contain_text(reason)
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        entries = page.locator("#recent-entries").bounding_box()
        for box in page.locator("#recent-entries li > span").evaluate_all(
                "spans => spans.map(s => s.getBoundingClientRect().right)"):
            assert box <= entries["x"] + entries["width"] + 0.5
    finally:
        context.close()


def test_issue11_item6_the_console_moves_the_scrambler_only_with_the_owner_token(chromium, live_server, app):
    # The owner's table serves the scrambler. Another table's host (a guest could create one)
    # cannot take it with their own host token; with the owner token serve printed, they can.
    from companion.table.registry import owner_token

    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        first = context.request.post(f"{live_server.url}/api/v1/tables", data={"rules": "classic"},
                                     headers={"Authorization": "Bearer " + owner_token(app.config["DATA_DIR"])})
        assert first.status == 201, first.text()
        first_code = first.json()["code"]
        page.goto(live_server.url + "/host")
        page.get_by_role("button", name="Create the table").click()
        page.locator("#created").wait_for()
        code = page.locator("#created-code").inner_text()
        page.get_by_role("link", name="Open the host console").click()
        page.locator("#host-area").wait_for()
        expect(page.locator("#scrambler-status")).to_contain_text(f"table {first_code}, not this one")
        page.get_by_role("button", name="Let the scrambler roll for this table").click()
        error = page.locator("#bind-scrambler").locator("xpath=..").locator(".field-error")
        expect(error).to_contain_text("owner token")
        assert context.request.get(f"{live_server.url}/api/v1/scrambler").json()["code"] == first_code
        page.get_by_label(re.compile("owner token")).fill(owner_token(app.config["DATA_DIR"]))
        page.get_by_role("button", name="Let the scrambler roll for this table").click()
        expect(page.locator("#scrambler-status")).to_have_text(
            "The scrambler (button or USB box) rolls for this table.")
        assert context.request.get(f"{live_server.url}/api/v1/scrambler").json()["code"] == code
    finally:
        context.close()


def test_issue11_item9_the_start_page_names_a_damaged_table(chromium, tmp_path):
    # A table whose ledger no longer replays is kept on disk and served as damaged: the host
    # reads which table and what was kept on /host, not a table that silently vanished.
    import sqlite3

    from conftest import LiveServer
    from test_data_safety import new_app
    from test_tables_api import Api, flask_call

    from companion.table.registry import LEDGER_FILE

    app = new_app(tmp_path)
    bad = Api(flask_call(app.test_client()))
    bad.create()
    bad.join("Lando")
    app.extensions["tables"].close()
    db = sqlite3.connect(tmp_path / LEDGER_FILE)
    with db:
        db.execute("UPDATE entries SET body=? WHERE table_code=? AND type='join'",
                   ('{"type": "pass", "to": "s9", "amount": 100000}', bad.code))
    db.close()
    app = new_app(tmp_path)
    server = LiveServer(app)
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(server.url + "/host")
        panel = page.locator("#data-health")
        expect(panel).to_be_visible()
        expect(panel).to_contain_text(f"table {bad.code} is damaged")
        expect(panel).to_contain_text("kept")
    finally:
        context.close()
        server.close()
        app.extensions["tables"].close()


def test_issue11_item2_the_display_opened_from_the_host_keeps_its_place_among_the_guests(chromium, live_server):
    # The start page's display link carries the display key in its fragment; the display's
    # stream sends it, so guests filling the spectators' places cannot blind the display.
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(live_server.url + "/host")
        page.get_by_role("button", name="Create the table").click()
        page.locator("#created").wait_for()
        href = page.locator("#display-link").get_attribute("href")
        assert "#key=" in href
        key = href.split("#key=", 1)[1]
        display = context.new_page()
        with display.expect_request(lambda r: "/events?" in r.url) as stream:
            display.goto(live_server.url + href)
        assert f"display={key}" in stream.value.url
        expect(display.locator("#conn")).to_contain_text("live")
        # Its later visits without the fragment keep the key.
        again = context.new_page()
        with again.expect_request(lambda r: "/events?" in r.url) as stream2:
            again.goto(live_server.url + href.split("#", 1)[0])
        assert f"display={key}" in stream2.value.url
    finally:
        context.close()
