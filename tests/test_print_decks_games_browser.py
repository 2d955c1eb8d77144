"""Kessel's and Coruscant Shift's print and play in Chromium: each deck, the shift tokens and the
dice nets printed to PDF and read back, on A4 and Letter (issues 30 and 31)."""

from __future__ import annotations

import math
import unicodedata

import pytest
from axe_playwright_python.sync_playwright import Axe

from companion.decks.sheets import PAPERS
from companion.decks.source import deck_cards, printed
from companion.games.coruscant.cards import GOLD, SILVER, signed
from companion.games.kessel.tokens import TOKENS
from test_print_decks_browser import POINTS_PER_MM, page, pdf_of  # noqa: F401 (the page fixture)

pytestmark = pytest.mark.browser


def _words(p) -> str:
    """A PDF page's words as one line (a long name is printed on two; NFKC undoes the font's
    ligatures, "ﬀ" in "Tariff")."""
    return " ".join(unicodedata.normalize("NFKC", p.extract_text()).split())


def _in_order(text: str, names: list[str]) -> bool:
    at = 0
    for name in names:
        at = text.find(name, at)
        if at < 0:
            return False
        at += len(name)
    return True


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("deck", ["kessel", "coruscant"])
def test_the_deck_reads_back_card_by_card_nine_a_sheet_each_followed_by_its_backs(page, live_server, deck, paper):
    cards = printed(deck_cards(deck))
    pdf = pdf_of(page, f"{live_server.url}/decks/{deck}?paper={paper}")
    assert len(pdf.pages) == 2 * math.ceil(len(cards) / 9) == {"kessel": 10, "coruscant": 14}[deck]
    for p in pdf.pages:
        assert float(p.mediabox.width) == pytest.approx(PAPERS[paper].width * POINTS_PER_MM, abs=1.5)
        assert float(p.mediabox.height) == pytest.approx(PAPERS[paper].height * POINTS_PER_MM, abs=1.5)
    for n in range(len(pdf.pages) // 2):
        front, back = _words(pdf.pages[2 * n]), _words(pdf.pages[2 * n + 1])
        assert _in_order(front, [c.name for c, _ in cards[9 * n:9 * n + 9]]), (n, front)
        assert not any(c.name in back for c, _ in cards)  # a back tells nothing


@pytest.mark.parametrize("paper", PAPERS)
def test_the_shift_tokens_read_back_nine_a_sheet_with_their_backs(page, live_server, paper):
    pdf = pdf_of(page, f"{live_server.url}/decks/kessel/tokens?paper={paper}")
    assert len(pdf.pages) == 4
    fronts = [_words(pdf.pages[0]), _words(pdf.pages[2])]
    assert _in_order(fronts[0], [t.name for t in TOKENS[:9]]) and _in_order(fronts[1], [t.name for t in TOKENS[9:]])
    assert "Embargo" not in fronts[0] and "Free Draw" not in fronts[1]
    assert all("SHIFT TOKEN" in _words(pdf.pages[i]) for i in (1, 3))


@pytest.mark.parametrize("paper", PAPERS)
def test_the_dice_nets_read_back_on_one_page_with_every_face(page, live_server, paper):
    pdf = pdf_of(page, f"{live_server.url}/decks/coruscant/dice?paper={paper}")
    assert len(pdf.pages) == 1
    text = _words(pdf.pages[0])
    assert "Gold die" in text and "Silver die" in text
    for face in {signed(f) for f in GOLD.faces} | {f.capitalize() for f in SILVER.faces}:
        assert face in text, face


def test_the_new_print_pages_have_no_serious_accessibility_violations(page, live_server):
    axe = Axe()
    found = {}
    for path in ("/decks/kessel", "/decks/coruscant?paper=letter", "/decks/kessel/tokens", "/decks/coruscant/dice",
                 "/decks/reference/kessel", "/decks/reference/coruscant"):
        page.goto(live_server.url + path)
        results = axe.run(page)
        serious = [(v["id"], [n["target"] for n in v["nodes"]][:3])
                   for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        if serious:
            found[path] = serious
    assert found == {}
