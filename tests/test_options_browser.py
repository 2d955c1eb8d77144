"""The host's option fields in a real browser (Debian's Chromium), one test per item: the start
page offers, for the chosen preset, exactly the options its game takes, in its words, with the
preset's defaults (companion/rules/option_fields.py); a sabacc pot carried from the table's
last session opens the new table's; the console's dealer's choice offers the same fields."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion.rules.option_fields import option_fields
from companion.rules.rulesets import RULE_SETS
from conftest import DISPLAY, PHONE, screenshot
from evening_script import Host
from test_evening_browser import evening, http_post  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

#: Labels only classic's games have: a Spike start page shows none of them.
CLASSIC_ONLY = ("Ante, credits", "Fold fee to the sabacc pot, credits", "Pot-building rounds before a call",
                "Bomb-out penalty", "When the scrambler shifts", "What a shift does", "−23 is also a Pure Sabacc")


def _create(page) -> str:
    """Create the table from the start page; its code."""
    page.get_by_role("button", name="Create the table").click()
    page.locator("#created").wait_for()
    return page.locator("#created-code").inner_text()


def _state(context, base: str, code: str) -> dict:
    token = context.pages[0].evaluate("code => localStorage.getItem('sabacc.host.' + code)", code)
    got = context.request.get(f"{base}/api/v1/tables/{code}", headers={"Authorization": "Bearer " + token})
    assert got.status == 200, got.text()
    return got.json()["state"]


def test_item1_spike_start_page_offers_spikes_options_and_makes_a_table_with_them(chromium, live_server):
    context = chromium.new_context(**DISPLAY)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(live_server.url + "/host")
        expect(page.get_by_label("Fold fee to the sabacc pot, credits")).to_be_visible()  # weg first
        page.get_by_label("Corellian Spike (Black Spire Outpost)").check()  # no reload
        form = page.locator("#option-fields")
        # Spike's own options, in its words, with the preset's defaults.
        expect(page.get_by_label("Game ante into the game pot, credits")).to_have_value("1")
        expect(page.get_by_label("Sabacc ante into the sabacc pot, credits")).to_have_value("2")
        expect(page.get_by_label("Fee to keep a gained card and discard another, credits")).to_have_value("1")
        expect(page.get_by_label("Fee to swap with the discard pile, credits")).to_have_value("2")
        expect(page.get_by_label("Junk penalty into the game pot, credits")).to_have_value("0")
        expect(page.get_by_label("Bet and raise limit, credits")).to_have_value("")
        expect(page.get_by_label("The phases of a round")).to_have_value("turn-bet-spike")
        expect(page.get_by_label("The dealer passes to the left")).to_have_value("game")
        expect(page.get_by_role("checkbox", name="Prime Sabacc", exact=False)).to_be_checked()
        # Exactly the fields the rule set's game offers, and none of classic's.
        names = form.locator("input[name], select[name]").evaluate_all("els => els.map(e => e.name)")
        assert names == [f["name"] for f in option_fields(RULE_SETS["spike"])]
        screenshot(page, "host-start-spike-options-display")
        text = form.inner_text()
        for label in CLASSIC_ONLY:
            assert label not in text, label
        # spike-book: its own defaults (no fees, no Prime Sabacc).
        page.get_by_label("Corellian Spike (the printed rule book)").check()
        expect(page.get_by_label("Fee to swap with the discard pile, credits")).to_have_value("0")
        expect(page.get_by_role("checkbox", name="Prime Sabacc", exact=False)).not_to_be_checked()
        page.get_by_label("Corellian Spike (Black Spire Outpost)").check()
        # A bad value is caught before anything is sent.
        page.get_by_label("Game ante into the game pot, credits").fill("-1")
        page.get_by_role("button", name="Create the table").click()
        expect(page.locator('[data-field="rules.ante_game"] .field-error')).to_have_text("Enter a whole number of at least 0.")
        assert page.locator("#created").is_hidden()
        page.get_by_label("Game ante into the game pot, credits").fill("2")
        page.get_by_label("Fee to swap with the discard pile, credits").fill("3")
        page.get_by_label("Junk penalty into the game pot, credits").fill("1")
        page.get_by_label("The phases of a round").select_option("turn-spike-bet")
        page.get_by_role("checkbox", name="Prime Sabacc", exact=False).uncheck()
        code = _create(page)
        rules = _state(context, live_server.url, code)["rules"]
        assert rules["name"] == "spike"
        assert sorted(rules["overrides"]) == ["ante_game", "fee_swap", "junk_penalty", "phase_order", "prime_sabacc"]
        assert (rules["ante"], rules["fee_swap"], rules["fold_fee"], rules["phase_order"], rules["prime_sabacc"]) == (
            2, 3, 1, "turn-spike-bet", False)
        page.goto(f"{live_server.url}/t/{code}/rules")
        options = page.locator("body").inner_text()
        for words in ("game ante 2 credits", "fee to swap 3 credits", "Prime Sabacc off",
                      "phases turn-spike-bet", "junk penalty 1 credit;"):
            assert words in options, words
        assert errors == []
    finally:
        context.close()


def test_item2_a_carried_sabacc_pot_opens_the_new_tables_sabacc_pot(chromium, live_server):
    context = chromium.new_context(**DISPLAY)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/host")
        page.get_by_label("Classic Sabacc v1.01").check()
        pot = page.get_by_label("Sabacc pot carried from this table's last session, credits")
        expect(pot).to_have_value("")
        pot.fill("-4")  # checked before sending
        page.get_by_role("button", name="Create the table").click()
        expect(page.locator('[data-field="sabacc_pot"] .field-error')).to_have_text(
            "The carried sabacc pot is a whole number of credits, 0 or more.")
        assert page.locator("#created").is_hidden()
        pot.fill("37")
        state = _state(context, live_server.url, _create(page))
        assert state["sabacc_pot"] == 37
        page.get_by_role("link", name="Open the host console").click()
        expect(page.locator("#sabacc-pot")).to_have_text("37")
    finally:
        context.close()


def test_item3_dealers_choice_switches_weg_to_spike_with_a_spike_option(evening):
    t = evening("weg")
    console = t.console()
    form = console.locator("#rules-form")
    expect(form.get_by_label("Fold fee to the sabacc pot, credits")).to_have_value("1")  # weg's own
    console.locator("#rules-preset").select_option("spike")
    expect(form.get_by_label("Sabacc ante into the sabacc pot, credits")).to_have_value("2")
    assert form.get_by_label("Fold fee to the sabacc pot, credits").count() == 0
    form.get_by_label("Sabacc ante into the sabacc pot, credits").fill("5")
    form.get_by_label("The dealer passes to the left").select_option("round")
    t.took(console, console.get_by_role("button", name="Play this from the next hand").click)
    expect(console.locator("#host-area")).to_contain_text("Corellian Spike")
    rules = t.host.state()["rules"]
    assert rules["name"] == "spike" and rules["ante_sabacc"] == 5 and rules["dealer_rotates"] == "round"
    assert sorted(rules["overrides"]) == ["ante_sabacc", "dealer_rotates"]
    # Drawn again, the form starts from what the table plays now.
    expect(console.locator("#rules-preset")).to_have_value("spike")
    expect(form.get_by_label("Sabacc ante into the sabacc pot, credits")).to_have_value("5")
    screenshot(console, "host-console-dealers-choice-spike-display")
    # The change in words among the recent entries (its rules field by field).
    expect(console.locator("#recent-entries")).to_contain_text("ante sabacc 5")
    assert "[object Object]" not in console.locator("#recent-entries").inner_text()
    # The next hand plays under it: three players ante 1 to the game pot and 5 to the sabacc pot.
    console.get_by_role("button", name="Start the next hand").click()
    expect(console.locator("#hand-no")).to_have_text("1")
    state = t.host.state()
    assert state["sabacc_pot"] == 15 and state["hand"]["hand_pot"] == 3
    assert state["rules"]["name"] == "spike"
    expect(console.locator("#sabacc-pot")).to_have_text("15")
