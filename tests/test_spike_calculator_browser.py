"""The payout calculator settles Corellian Spike in headless Chromium (RULES-SPIKE.md): the
Spike deck in the picker (values large and signed, no staves), no caller, "Junked", the
Spike hand kinds in words, and the blind-draw exchange."""

from __future__ import annotations

import pytest

from test_calculator_browser import open_calculator, payouts, seat

pytestmark = pytest.mark.browser

MINUS = "\u2212"


def pick_spike(page, n: int, codes: list[str]) -> None:
    """Tap Spike cards into seat n's picker: the group tab (positive, negative, sylops), then the card."""
    player = seat(page, n).locator('[data-key="cards"]')
    for code in codes:
        tab = "sylop" if code == "sylop" else "plus" if code.startswith("+") else "minus"
        player.locator(f'.suit-tab[data-tab="{tab}"]').tap()
        player.locator(f'.card-btn[data-code="{code}"]').tap()


def enter(page, n, name, cards=(), committed=0, junked=False):
    player = seat(page, n)
    player.locator('[data-key="name"] input').fill(name)
    pick_spike(page, n, list(cards))
    player.locator('[data-key="committed"] input').fill(str(committed))
    if junked:
        player.get_by_label("Junked").check()


def test_spike_in_the_calculator_a_blind_draw_then_the_sabacc_pot(phone, live_server):
    # Spike, sabacc pot 10. Lando +1 +4 -5 and Han -5 +4 +1: the same cards, a true tie (a
    # plain Sabacc); Chewie +9 +1 is a Nulrhek; Leia junked after 2. The blind draw: Lando
    # draws -3, Han +3 (a positive card beats its negative): Han wins the game pot of
    # 5+5+5+2 = 17 and, his hand totalling 0, the sabacc pot of 10.
    page = phone
    open_calculator(page, live_server, "spike", sabacc_pot=10)
    page.wait_for_selector('#calculator[data-deck="spike"]')
    # The Spike game takes no caller and none of classic's options.
    assert seat(page, 1).locator('[data-key="called"]').is_hidden()
    assert page.locator('[data-field="rules.bomb_out_penalty"]').is_hidden()
    faces = seat(page, 1).locator('[data-key="cards"] .suit-tab').all_inner_texts()
    assert faces == ["Positive", "Negative", "Sylops"]
    seat(page, 1).locator('[data-key="cards"] .suit-tab[data-tab="minus"]').tap()
    assert seat(page, 1).locator('.card-btn[data-code="-7"] .card-face').inner_text() == f"{MINUS}7"
    enter(page, 1, "Lando", ["+1", "+4", "-5"], committed=5)
    enter(page, 2, "Han", ["-5", "+4", "+1"], committed=5)
    enter(page, 3, "Chewie", ["+9", "+1"], committed=5)
    page.get_by_role("button", name="Add a player").tap()
    enter(page, 4, "Leia", [], committed=2, junked=True)
    page.get_by_role("button", name="Settle", exact=True).tap()
    page.locator("#tie").wait_for()
    assert page.locator("#tie-h").inner_text() == "Blind draw"
    assert "Lando and Han tie" in page.locator("#tie-text").inner_text()
    for k, code in enumerate(["-3", "+3"]):
        picker = page.locator(f"#tie-picker-{k}")
        picker.locator(f'.suit-tab[data-tab="{"minus" if code[0] == "-" else "plus"}"]').tap()
        picker.locator(f'.card-btn[data-code="{code}"]').tap()
    page.get_by_role("button", name="Settle with these cards").tap()
    sentence = page.locator("#result-sentence")
    sentence.wait_for()
    assert sentence.inner_text() == "Han wins the game pot, 17, and the sabacc pot, 10."
    assert payouts(page)["Han"] == ("+27", "—")
    hands = page.locator("#payouts tbody td:nth-of-type(1)").all_inner_texts()
    assert hands[0].startswith("Sabacc, 0") and hands[2].startswith("Nulrhek, 10")
    assert hands[3].startswith("junked")
    assert page.locator("#sabacc-after").inner_text() == "0"


def test_back_to_classic_the_calculator_offers_the_classic_deck_again(phone, live_server):
    page = phone
    open_calculator(page, live_server, "spike-book")
    page.wait_for_selector('#calculator[data-deck="spike"]')
    page.get_by_label("Play by").select_option("classic")
    page.wait_for_selector('#calculator[data-deck="sabacc"]')
    assert seat(page, 1).locator('[data-key="called"]').is_visible()
    tabs = seat(page, 1).locator('[data-key="cards"] .suit-tab').all_inner_texts()
    assert tabs == ["Sabers", "Staves", "Flasks", "Coins", "Faces"]
