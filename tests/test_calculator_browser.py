"""The payout calculator driven in headless Chromium on a phone-sized screen.

Each test types a reveal in through the page only (names, the card picker, commitments,
folds, the caller), presses Settle and reads the outcome off the page; the expected values are
worked out by hand from RULES.md in the comments.
"""

from __future__ import annotations

import pytest

from conftest import screenshot

pytestmark = pytest.mark.browser


def seat(page, n: int):
    """The n-th player (1-based, seat order) of the calculator."""
    return page.locator("#players > li").nth(n - 1)


def pick(page, n: int, codes: list[str]) -> None:
    """Tap cards into seat n's picker: the suit tab, then the card (a 3-card hand: 6 taps)."""
    player = seat(page, n).locator('[data-key="cards"]')
    for code in codes:
        suited = code[:2] in ("sa", "st", "fl", "co") and code[2:].isdigit()
        tab = code[:2] if suited else "face"
        player.locator(f'.suit-tab[data-tab="{tab}"]').tap()
        player.locator(f'.card-btn[data-code="{code}"]').tap()


def enter_player(page, n, name, cards=(), committed=0, stack=None, folded=False, called=False):
    """Fill in one seat of the form."""
    player = seat(page, n)
    player.locator('[data-key="name"] input').fill(name)
    pick(page, n, list(cards))
    player.locator('[data-key="committed"] input').fill(str(committed))
    if stack is not None:
        player.locator('[data-key="stack"] input').fill(str(stack))
    if folded:
        player.get_by_label("Folded").check()
    if called:
        player.get_by_label("Called the hand").check()


def open_calculator(page, live_server, preset="classic", sabacc_pot=0):
    page.goto(live_server.url + "/calculator")
    page.wait_for_selector('#calculator[data-ready="true"]')
    page.get_by_label("Play by").select_option(preset)
    page.get_by_label("Credits in the sabacc pot before this hand is settled").fill(str(sabacc_pot))


def payouts(page) -> dict[str, tuple[str, str]]:
    """The payouts table as {name: (payout, stack after)}."""
    out = {}
    for row in page.locator("#payouts tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        out[row.locator("th").inner_text()] = (cells[1], cells[2])
    return out


def test_idiots_array_takes_both_pots_and_the_bomb_out_pays_the_hand_pot(phone, live_server):
    # Classic, sabacc pot 40. Lando 7+11+9 = 27 bombs out; Han holds Idiot, 2, 3 (Idiot's
    # Array) and called; Chewie folded after putting in 10. The 10-level (30, Chewie folded)
    # and the 30-level (40) are both contested by Lando and Han: a hand pot of 70 for Han,
    # plus the whole sabacc pot of 40. Lando pays the hand pot, 70, into the sabacc pot.
    page = phone
    open_calculator(page, live_server, "classic", sabacc_pot=40)
    enter_player(page, 1, "Lando", ["co7", "sa11", "fl9"], committed=30, stack=120)
    # The deck holds one 11 of Sabers: once Lando has it, nobody else can pick it.
    assert seat(page, 2).locator('[data-key="cards"] .card-btn[data-code="sa11"]').is_disabled()
    enter_player(page, 2, "Han", ["idiot", "st2", "co3"], committed=30, stack=45, called=True)
    enter_player(page, 3, "Chewie", [], committed=10, stack=80, folded=True)
    chips = seat(page, 2).locator('[data-key="cards"] .chip > span:first-child').all_inner_texts()
    assert chips == ["The Idiot", "2 of Staves", "3 of Coins"]
    page.get_by_role("button", name="Settle", exact=True).tap()
    sentence = page.locator("#result-sentence")
    sentence.wait_for()
    assert sentence.inner_text() == (
        "Han wins the hand pot, 70, and the sabacc pot, 40; Lando bombed out and pays 70."
    )
    # Stacks after: Lando 120 - 70, Han 45 + 110, Chewie 80 (his 10 is already in the pot).
    assert payouts(page) == {"Lando": ("-70", "50"), "Han": ("+110", "155"), "Chewie": ("0", "80")}
    assert page.locator("#sabacc-after").inner_text() == "70"
    assert page.locator("#result-stale").is_hidden()
    screenshot(page, "calculator-phone-idiots-array")
    # Changing the form afterwards says the result no longer matches it, until settled again:
    # Chewie's 10 more makes the hand pot 80 (and Lando's penalty 80).
    seat(page, 3).locator('[data-key="committed"] input').fill("20")
    assert page.locator("#result-stale").is_visible()
    page.get_by_role("button", name="Settle", exact=True).tap()
    page.locator("#result-stale").wait_for(state="hidden")
    assert sentence.inner_text() == (
        "Han wins the hand pot, 80, and the sabacc pot, 40; Lando bombed out and pays 80."
    )


def test_sudden_demise_card_decides_the_tie_and_the_losing_caller_pays(phone, live_server):
    # Classic, sabacc pot 40, everyone put in 30 (hand pot 90). Lando 10+8 and Han 10+8 tie
    # at 18 over Leia's 8: sudden demise. Lando is dealt a 2 (20), Han a 1 (19): at closest
    # to 23, 20 beats 19, so Lando takes the 90. Han called and won no share: he pays the
    # hand pot, 90, to the sabacc pot: 40 + 90 = 130.
    page = phone
    open_calculator(page, live_server, "classic", sabacc_pot=40)
    enter_player(page, 1, "Lando", ["co10", "sa8"], committed=30)
    enter_player(page, 2, "Han", ["st10", "fl8"], committed=30, called=True)
    enter_player(page, 3, "Leia", ["sa7", "sa1"], committed=30)
    page.get_by_role("button", name="Settle", exact=True).tap()
    demise = page.locator("#tie")
    demise.wait_for()
    assert "Lando and Han tie" in page.locator("#tie-text").inner_text()
    assert page.locator("#result").is_hidden()
    pickers = demise.locator(".tie-player")
    # The prompt is brought to the top of the phone's screen: the heading, the words and the
    # first player's whole card picker are in view without scrolling (640 px high).
    heading, first = page.locator("#tie-h").bounding_box(), pickers.nth(0).bounding_box()
    assert 0 <= heading["y"] < 100, heading
    assert first["y"] + first["height"] <= 640, first
    assert pickers.count() == 2
    assert pickers.nth(0).locator(".label").inner_text() == "Card dealt to Lando"
    pickers.nth(0).locator('.suit-tab[data-tab="co"]').tap()
    pickers.nth(0).locator('.card-btn[data-code="co2"]').tap()
    # One card each: the picker is full after one tap.
    assert pickers.nth(0).locator('.card-btn[data-code="co3"]').is_disabled()
    pickers.nth(1).locator('.suit-tab[data-tab="st"]').tap()
    pickers.nth(1).locator('.card-btn[data-code="st1"]').tap()
    screenshot(page, "calculator-phone-sudden-demise")
    page.get_by_role("button", name="Settle with these cards").tap()
    sentence = page.locator("#result-sentence")
    sentence.wait_for()
    assert sentence.inner_text() == "Lando wins the hand pot, 90; Han called, won nothing, and pays 90."
    assert payouts(page) == {"Lando": ("+90", "—"), "Han": ("-90", "—"), "Leia": ("0", "—")}
    assert page.locator("#sabacc-after").inner_text() == "130"
    assert page.locator("#tie").is_hidden()


def test_a_script_as_a_player_name_is_shown_as_text(phone, live_server):
    # Weg ranks the higher total: 10+9 = 19 beats Rey's 5+6 = 11 and takes the hand pot of 20.
    # Nothing bombs out; the caller (Rey) won no share and pays the hand pot, 20.
    page = phone
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    script = "<script>alert(1)</script>"
    open_calculator(page, live_server, "weg", sabacc_pot=0)
    enter_player(page, 1, script, ["co10", "fl9"], committed=10)
    enter_player(page, 2, "Rey", ["sa5", "st6"], committed=10, called=True)
    seat(page, 3).locator('[data-action="remove"]').tap()
    page.get_by_role("button", name="Settle", exact=True).tap()
    # 25 characters: over the 24 a name may have, so the server refuses it, in words, at the
    # name; the name itself stays in its box exactly as typed.
    error = seat(page, 1).locator('[data-key="name"] .field-error')
    error.wait_for()
    assert "24 characters" in error.inner_text()
    assert seat(page, 1).locator('[data-key="name"] input').input_value() == script
    # A hostile name that fits is settled and shown as plain text.
    evil = "<svg onload=alert(1)>"
    seat(page, 1).locator('[data-key="name"] input').fill(evil)
    page.get_by_role("button", name="Settle", exact=True).tap()
    sentence = page.locator("#result-sentence")
    sentence.wait_for()
    assert sentence.inner_text() == f"{evil} wins the hand pot, 20; Rey called, won nothing, and pays 20."
    assert payouts(page)[evil] == ("+20", "—")
    assert page.locator("main script, main svg").count() == 0
    page.wait_for_timeout(200)
    assert dialogs == []
    screenshot(page, "calculator-phone-hostile-name")


def test_a_refused_request_is_shown_next_to_the_control_it_names(phone, live_server):
    # Two players called Han: the API answers 422 with field players[2].name, so the words
    # appear under seat 3's name, and nowhere else.
    page = phone
    open_calculator(page, live_server, "classic")
    enter_player(page, 1, "Lando", ["co10", "sa8"], committed=5)
    enter_player(page, 2, "Han", ["st10", "fl8"], committed=5, called=True)
    enter_player(page, 3, "Han", ["sa7", "sa1"], committed=5)
    page.get_by_role("button", name="Settle", exact=True).tap()
    error = seat(page, 3).locator('[data-key="name"] .field-error')
    error.wait_for()
    assert "Han" in error.inner_text()
    assert seat(page, 3).locator('[data-key="name"] input').get_attribute("aria-invalid") == "true"
    assert seat(page, 2).locator('[data-key="name"] .field-error').inner_text() == ""
    assert page.locator("#result").is_hidden()
    screenshot(page, "calculator-phone-422")
    # A hand of one card is refused at that player's cards.
    seat(page, 3).locator('[data-key="name"] input').fill("Leia")
    seat(page, 3).locator('[data-key="cards"] .chip').first.tap()
    page.get_by_role("button", name="Settle", exact=True).tap()
    cards_error = seat(page, 3).locator('[data-key="cards"] .field-error')
    cards_error.wait_for()
    assert cards_error.inner_text() != ""
    assert seat(page, 3).locator('[data-key="name"] .field-error').is_hidden()
    # An error about one card falls back to the control of the whole hand.
    paths = page.evaluate(
        "async () => (await import('/static/js/api.js')).fieldPathCandidates('players[1].cards[0]')"
    )
    assert paths == ["players[1].cards[0]", "players[1].cards", "players[1]", "players"]


SENTENCES = [
    # Classic. A is all-in for 10: the main pot (3 x 10 = 30) goes to A's 19 over B's 18 and
    # C's 8; side pot 1 (2 x 20 = 40) is between B and C only, and B's 18 takes it.
    (
        [{"name": "A", "cards": ["co10", "sa9"], "committed": 10},
         {"name": "B", "cards": ["st10", "fl8"], "committed": 30, "called": True},
         {"name": "C", "cards": ["sa7", "sa1"], "committed": 30}],
        "A wins the main pot, 30; B wins side pot 1, 40.",
    ),
    # A and B tie at 19, both are dealt a 1 (20 each): still tied, they split 33, the odd
    # credit to A, first in seat order from the dealer's left.
    (
        [{"name": "A", "cards": ["co10", "sa9"], "committed": 11, "demise": ["co1"]},
         {"name": "B", "cards": ["st10", "fl9"], "committed": 11, "called": True, "demise": ["fl1"]},
         {"name": "C", "cards": ["sa7", "sa1"], "committed": 11}],
        "A and B split the hand pot, 33 (A 17, B 16).",
    ),
    # Everyone bombs out (29 and 29): the hand pot, 20, goes to the sabacc pot; each pays the
    # hand pot, but A has only 3 behind and receives nothing, so pays 3 and is 17 short.
    (
        [{"name": "A", "cards": ["co15", "sa14"], "committed": 10, "stack": 3},
         {"name": "B", "cards": ["st15", "fl14"], "committed": 10, "called": True}],
        "Nobody wins the hand: the hand pot, 20, goes to the sabacc pot; "
        "A bombed out and pays 3 (17 short: that is all they have); B bombed out and pays 20.",
    ),
    # C folded after matching 30: the level above A's all-in (B's 20 and C's 20) has B as
    # its only eligible player, so its 40 goes back to B uncontested. A's 19 beats B's 18 for
    # the main pot, 30, and B, the caller, won no share of a contested pot: B pays the hand
    # pot (the contested pots: 30).
    (
        [{"name": "A", "cards": ["co10", "sa9"], "committed": 10},
         {"name": "B", "cards": ["st10", "fl8"], "committed": 30, "called": True},
         {"name": "C", "cards": [], "committed": 30, "folded": True}],
        "A wins the hand pot, 30; B takes back 40 that nobody else matched; "
        "B called, won nothing, and pays 30.",
    ),
]


def test_result_sentence_names_side_pots_splits_and_pots_nobody_can_win(phone, live_server):
    page = phone
    page.goto(live_server.url + "/calculator")
    for players, expected in SENTENCES:
        said = page.evaluate(
            """async (players) => {
                const r = await fetch("/api/v1/settle", {method: "POST",
                    headers: {"Content-Type": "application/json"},
                    body: JSON.stringify({rules: "classic", players, sabacc_pot: 5})});
                const { describeSettlement } = await import("/static/js/settlement.js");
                return describeSettlement(await r.json());
            }""",
            players,
        )
        assert said == expected


PAGES = (("/", "home"), ("/calculator", "calculator"), ("/rules?preset=holodex", "rules-holodex"))


def test_pages_have_no_serious_accessibility_violations(chromium, live_server):
    # axe-core on each page at phone size; then every page at phone and 1080p size fits the
    # screen's width. Screenshots are kept (the long rules page only at 1080p: a full-page
    # phone shot of it costs seconds).
    from axe_playwright_python.sync_playwright import Axe

    from conftest import DISPLAY, PHONE

    axe = Axe()
    for size, kwargs in (("phone", PHONE), ("display", DISPLAY)):
        context = chromium.new_context(**kwargs)
        page = context.new_page()
        try:
            for path, name in PAGES:
                page.goto(live_server.url + path)
                if path == "/calculator":
                    page.wait_for_selector('#calculator[data-ready="true"]')
                if size == "phone":
                    results = axe.run(page)
                    serious = [
                        (v["id"], v["help"]) for v in results.response["violations"]
                        if v["impact"] in ("serious", "critical")
                    ]
                    assert serious == [], f"{path}: {serious}"
                # Nothing wider than the screen: no sideways scrolling on a 360px phone.
                assert page.evaluate("document.documentElement.scrollWidth") <= kwargs["viewport"]["width"]
                if not (size == "phone" and name.startswith("rules")):
                    screenshot(page, f"{size}-{name}")
        finally:
            context.close()


def test_fixed_bomb_out_penalty_option_is_sent_and_checked(phone, live_server):
    # Classic with a fixed bomb-out penalty. Lando 15+14 = 29 bombs out; Han's 10+9 = 19 wins
    # the hand pot, 2 x 8 = 16. Lando pays the fixed 15, not the hand pot.
    page = phone
    open_calculator(page, live_server, "classic", sabacc_pot=4)
    enter_player(page, 1, "Lando", ["co15", "sa14"], committed=8)
    enter_player(page, 2, "Han", ["st10", "fl9"], committed=8, called=True)
    seat(page, 3).locator('[data-action="remove"]').tap()
    page.locator("details.options > summary").tap()
    page.get_by_label("A fixed amount").check()
    page.get_by_label("Fixed penalty, credits").fill("-5")
    page.locator("details.options > summary").tap()  # closed again: the error must reopen it
    page.get_by_role("button", name="Settle", exact=True).tap()
    error = page.locator('[data-field="rules.bomb_out_penalty"] > .field-error')
    error.wait_for()
    assert "bomb_out_penalty" in error.inner_text()
    assert page.get_by_label("Fixed penalty, credits").is_visible()
    page.get_by_label("Fixed penalty, credits").fill("15")
    page.get_by_role("button", name="Settle", exact=True).tap()
    sentence = page.locator("#result-sentence")
    sentence.wait_for()
    assert sentence.inner_text() == "Han wins the hand pot, 16; Lando bombed out and pays 15."
    assert page.locator("#sabacc-after").inner_text() == "19"
    assert error.is_hidden()


def open_variant(page, label: str) -> None:
    """Tick one variant under Options (opening the box, then closing it again)."""
    page.locator("details.options > summary").tap()
    page.get_by_label(label).check()
    page.locator("details.options > summary").tap()


def test_force_sabacc_each_player_picks_a_side_and_dark_is_judged_negated(phone, live_server):
    # Pagat with Force Sabacc, sabacc pot 20, 10 each (hand pot 20). Luke (Light): Sabers 10
    # + Commander of Coins 12 + Coins 1 = +23, Light's Pure Sabacc. Vader (Dark): Flasks and
    # Staves count negative: -10 - 9 = -19, judged +19. Luke takes the hand pot, 20, and the
    # sabacc pot, 20; Vader called and won nothing: he pays the hand pot, 20.
    page = phone
    open_calculator(page, live_server, "pagat", sabacc_pot=20)
    assert seat(page, 1).locator('[data-key="side"]').is_hidden()
    open_variant(page, "Force Sabacc: each player plays Light or Dark")
    enter_player(page, 1, "Luke", ["sa10", "co12", "co1"], committed=10)
    enter_player(page, 2, "Vader", ["fl10", "st9"], committed=10, called=True)
    seat(page, 3).locator('[data-action="remove"]').tap()
    seat(page, 1).get_by_label("Side (Force Sabacc)").select_option("light")
    page.get_by_role("button", name="Settle", exact=True).tap()
    # Vader has no side yet: the server's words appear at his side, nowhere else.
    error = seat(page, 2).locator('[data-key="side"] .field-error')
    error.wait_for()
    assert "light or dark" in error.inner_text()
    assert page.locator("#result").is_hidden()
    seat(page, 2).get_by_label("Side (Force Sabacc)").select_option("dark")
    page.get_by_role("button", name="Settle", exact=True).tap()
    sentence = page.locator("#result-sentence")
    sentence.wait_for()
    assert sentence.inner_text() == (
        "Luke wins the hand pot, 20, and the sabacc pot, 20; Vader called, won nothing, and pays 20."
    )
    assert payouts(page) == {"Luke": ("+40", "—"), "Vader": ("-20", "—")}
    assert page.locator("#sabacc-after").inner_text() == "20"


def test_holdem_a_static_field_is_community_cards_for_the_others(phone, live_server):
    # Classic with Hold 'Em, sabacc pot 40, 10 each. Han holds the 2 of Staves and lays the
    # 5 of Flasks in his static field: 7. Lando's 10 of Coins + 8 of Sabers = 18, plus Han's
    # community 5 = 23, Pure Sabacc: Lando takes the hand pot, 20, and the sabacc pot, 40.
    page = phone
    open_calculator(page, live_server, "classic", sabacc_pot=40)
    assert seat(page, 1).locator('[data-key="static"]').is_hidden()
    open_variant(page, "Hold 'Em: every static field is community cards")
    enter_player(page, 1, "Lando", ["co10", "sa8"], committed=10)
    enter_player(page, 2, "Han", ["st2"], committed=10)
    static = seat(page, 2).locator('[data-key="static"]')
    static.locator('.suit-tab[data-tab="fl"]').tap()
    static.locator('.card-btn[data-code="fl5"]').tap()
    # One 5 of Flasks in the deck: in Han's static field, it is no longer offered to Lando.
    lando_cards = seat(page, 1).locator('[data-key="cards"]')
    lando_cards.locator('.suit-tab[data-tab="fl"]').tap()
    assert lando_cards.locator('.card-btn[data-code="fl5"]').is_disabled()
    seat(page, 3).locator('[data-action="remove"]').tap()
    page.get_by_role("button", name="Settle", exact=True).tap()
    sentence = page.locator("#result-sentence")
    sentence.wait_for()
    assert sentence.inner_text() == "Lando wins the hand pot, 20, and the sabacc pot, 40."
    assert payouts(page) == {"Lando": ("+60", "—"), "Han": ("0", "—")}
    hands = page.locator("#payouts tbody tr td:first-of-type").all_inner_texts()
    assert hands[0].startswith("Pure Sabacc, 23") and hands[1].startswith("ordinary, 7")


def test_every_tick_box_keeps_its_full_size_beside_a_long_label(phone, live_server):
    # A 360px phone wraps the long variant labels; the box beside them must stay a full
    # 1.6rem (25.6px) target, not be squeezed by the text.
    page = phone
    open_calculator(page, live_server, "classic")
    page.locator("details.options > summary").tap()
    boxes = page.locator('#calculator input[type="checkbox"]:visible, #calculator input[type="radio"]:visible')
    widths = {b.evaluate("e => e.id || e.name || e.value"): b.bounding_box()["width"] for b in boxes.all()}
    assert widths and all(w >= 25 for w in widths.values()), widths


def test_corellia_run_offers_no_set_aside_face_card_and_zero_is_sabacc(phone, live_server):
    # Classic with Corellia Run, sabacc pot 5, 10 each. Lando: -5 (Sabers) + 5 (Coins) = 0,
    # Sabacc: the hand pot, 20, and the sabacc pot, 5. Han: +4 - 3 = +1, ordinary.
    page = phone
    open_calculator(page, live_server, "classic", sabacc_pot=5)
    open_variant(page, "Corellia Run: aim for 0; face cards other than the Idiot set aside")
    faces = seat(page, 1).locator('[data-key="cards"]')
    faces.locator('.suit-tab[data-tab="face"]').tap()
    assert faces.locator('.card-btn[data-code="star"]').is_disabled()
    assert faces.locator('.card-btn[data-code="queen"]').is_disabled()
    assert faces.locator('.card-btn[data-code="idiot"]').is_enabled()
    enter_player(page, 1, "Lando", ["sa5", "co5"], committed=10)
    enter_player(page, 2, "Han", ["co4", "sa3"], committed=10)
    seat(page, 3).locator('[data-action="remove"]').tap()
    page.get_by_role("button", name="Settle", exact=True).tap()
    sentence = page.locator("#result-sentence")
    sentence.wait_for()
    assert sentence.inner_text() == "Lando wins the hand pot, 20, and the sabacc pot, 5."
    assert payouts(page) == {"Lando": ("+25", "—"), "Han": ("0", "—")}


def pick_by_tab(page, n: int, codes: list[str], tab) -> None:
    """Tap cards into seat n's picker: `tab(code)` names the card's tab (Kessel, Coruscant)."""
    player = seat(page, n).locator('[data-key="cards"]')
    for code in codes:
        player.locator(f'.suit-tab[data-tab="{tab(code)}"]').tap()
        player.locator(f'.card-btn[data-code="{code}"]').tap()


def test_kessel_in_the_calculator_row_4_of_the_rules_file(phone, live_server):
    # RULES-KESSEL.md's settlement example 4, chips as stock/invested: Ana s3 b2 [3/1], Ben s5 b4
    # [4/2], Cas s6 b1 [3/0]. Ana and Ben both have difference 1; Ana wins on the lower cards
    # (2 < 4) and keeps her stock and invested: 4. Ben loses his 2 invested and pays 1: 3. Cas's
    # difference 5 costs 5 but he has 3: he pays 3 (shortfall 2) and is out: 0.
    page = phone
    page.goto(live_server.url + "/calculator")
    page.wait_for_selector('#calculator[data-ready="true"]')
    page.get_by_label("Play by").select_option("kessel")
    page.locator('#calculator[data-deck="kessel"]').wait_for()
    assert page.locator('[data-field="sabacc_pot"]').is_hidden()
    page.get_by_role("button", name="Add a player").tap()
    family = lambda code: "sand" if code.startswith("s") else "blood"  # noqa: E731
    for n, (name, cards, stock, invested) in enumerate(
            [("Ana", ["s3", "b2"], 3, 1), ("Ben", ["s5", "b4"], 4, 2), ("Cas", ["s6", "b1"], 3, 0)], start=1):
        player = seat(page, n)
        player.get_by_label("Name").fill(name)
        pick_by_tab(page, n, cards, family)
        player.get_by_label("Chips in stock").fill(str(stock))
        player.get_by_label("Invested chips").fill(str(invested))
    page.get_by_role("button", name="Settle", exact=True).tap()
    sentence = page.locator("#result-sentence")
    sentence.wait_for()
    assert sentence.inner_text() == "Ana wins; Ben pays 1; Cas pays 3."
    assert page.locator("#payouts thead").inner_text().split("\t")[-1].strip() == "Chips after"
    rows = {row.locator("th").inner_text(): row.locator("td").all_inner_texts()
            for row in page.locator("#payouts tbody tr").all()}
    assert {name: cells[1] for name, cells in rows.items()} == {"Ana": "4", "Ben": "3", "Cas": "0"}
    assert rows["Cas"][0].splitlines() == ["no Sabacc (difference 5)", "Sand 6, Blood 1"]
    screenshot(page, "calculator-phone-kessel")


def test_coruscant_in_the_calculator_a_tie_draw_then_the_pot(phone, live_server):
    # RULES-CORUSCANT.md's settlement example 3: target 0 Triangle; Ana ci+4 sq-4 and Ben ci+1
    # sq-1 both total 0 with no triangle: a tie draw. Ana draws tr-7, Ben sq+7: a positive card
    # beats its negative, so Ben takes the pot of 16. Stacks behind 50: Ana 50, Ben 66.
    page = phone
    page.goto(live_server.url + "/calculator")
    page.wait_for_selector('#calculator[data-ready="true"]')
    page.get_by_label("Play by").select_option("coruscant")
    page.locator('#calculator[data-deck="coruscant"]').wait_for()
    page.get_by_label("Gold die: the target number").select_option(label="0")
    page.get_by_label("Silver die: the target suit").select_option(label="Triangle")
    suit = lambda code: code[:2]  # noqa: E731
    for n, (name, cards) in enumerate([("Ana", ["ci+4", "sq-4"]), ("Ben", ["ci+1", "sq-1"])], start=1):
        player = seat(page, n)
        player.get_by_label("Name").fill(name)
        pick_by_tab(page, n, cards, suit)
        player.get_by_label("Committed").fill("8")
        player.get_by_label("Stack behind (optional)").fill("50")
    page.get_by_role("button", name="Settle", exact=True).tap()
    page.locator("#tie").wait_for()
    assert page.locator("#tie-h").inner_text() == "Tie draw"
    assert "Ana and Ben tie" in page.locator("#tie-text").inner_text()
    for k, code in enumerate(["tr-7", "sq+7"]):
        picker = page.locator(f"#tie-picker-{k}")
        picker.locator(f'.suit-tab[data-tab="{suit(code)}"]').tap()
        picker.locator(f'.card-btn[data-code="{code}"]').tap()
    page.get_by_role("button", name="Settle with these cards").tap()
    sentence = page.locator("#result-sentence")
    sentence.wait_for()
    assert sentence.inner_text() == "Ben wins 16."
    assert payouts(page) == {"Ana": ("0", "50"), "Ben": ("+16", "66")}
    assert page.locator("#tie").is_hidden()
    screenshot(page, "calculator-phone-coruscant")
