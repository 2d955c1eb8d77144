"""The print-and-play decks in Chromium: printed to PDF and read back, seen as images at print
size, the phones' picker faces, accessibility, and no request leaving the box."""

from __future__ import annotations

import io
import math
import struct
import zlib

import pytest
from axe_playwright_python.sync_playwright import Axe
from pypdf import PdfReader

from companion.decks.art import face_svg
from companion.decks.sheets import CARD_H, CARD_W, PAPERS, cut_marks, origin, sheets
from companion.decks.source import deck_cards, printed, reference_presets
from conftest import ARTIFACTS
from test_calculator_browser import open_calculator

pytestmark = pytest.mark.browser

POINTS_PER_MM = 72 / 25.4
PX_PER_MM = 96 / 25.4  # CSS pixels: a screenshot at device scale 1 is print size at 96 dpi


@pytest.fixture
def page(chromium):
    """A page that may load only from the companion itself: every other request is refused
    and recorded (the decks must print with no network)."""
    context = chromium.new_context()
    outside: list[str] = []

    def only_local(route):
        if route.request.url.startswith(("http://127.0.0.1", "data:")):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_local)
    p = context.new_page()
    p.outside = outside
    yield p
    assert outside == [], f"requests left the box: {outside}"
    context.close()


def pdf_of(page, url: str) -> PdfReader:
    """`url` printed to PDF by Chromium, at the page size the page itself asks for."""
    page.goto(url)
    return PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True)))


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("deck", ["sabacc", "spike"])
def test_a_printed_deck_has_a_front_and_a_back_page_a_sheet_and_each_card_in_order(page, live_server, deck, paper):
    size = PAPERS[paper]
    cards = printed(deck_cards(deck))
    pdf = pdf_of(page, f"{live_server.url}/decks/{deck}?paper={paper}")
    assert len(pdf.pages) == 2 * math.ceil(len(cards) / 9)
    for p in pdf.pages:
        assert float(p.mediabox.width) == pytest.approx(size.width * POINTS_PER_MM, abs=1.5)
        assert float(p.mediabox.height) == pytest.approx(size.height * POINTS_PER_MM, abs=1.5)
    signed = deck == "spike"
    for n in range(len(pdf.pages) // 2):
        # Words as one line: a long name is printed on two.
        front, back = (" ".join(pdf.pages[2 * n + i].extract_text().split()) for i in (0, 1))
        on_sheet = cards[9 * n:9 * n + 9]
        at = 0
        for c, _ in on_sheet:  # each card's value then its name, in deck order
            value = f"{'−' if c.value < 0 else '+' if signed and c.value > 0 else ''}{abs(c.value)}"
            at = front.index(value, at)
            at = front.index(c.name, at) + len(c.name)
        assert f"sheet {n + 1} of {len(pdf.pages) // 2} · fronts" in front
        assert f"sheet {n + 1} of {len(pdf.pages) // 2} · backs" in back
        assert not any(c.name in back for c, _ in cards if len(c.name) > 3)  # a back tells nothing


def test_the_tarot_deck_prints_the_tarot_names(page, live_server):
    pdf = pdf_of(page, f"{live_server.url}/decks/sabacc?paper=a4&tarot=1")
    assert "Knight of Swords" in pdf.pages[2].extract_text()
    assert "The Fool" in pdf.pages[12].extract_text()  # cards 55 to 63: the Idiots are 61 and 62


@pytest.mark.parametrize("paper", PAPERS)
def test_each_rules_summary_and_reference_card_is_one_page_with_nothing_cut_off(page, live_server, paper):
    urls = [f"/decks/{d}/summary?paper={paper}" for d in ("sabacc", "spike")]
    urls += [f"/decks/reference/{p}?paper={paper}" for p in reference_presets()]
    for url in urls:
        pdf = pdf_of(page, live_server.url + url)
        assert len(pdf.pages) == 1, url
        page.emulate_media(media="print")
        clipped = page.evaluate(
            "() => [...document.querySelectorAll('.page-body, .ref-card')]"
            ".filter((e) => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1).length")
        page.emulate_media(media="screen")
        assert clipped == 0, url
    text = pdf_of(page, f"{live_server.url}/decks/reference/spike?paper={paper}").pages[0].extract_text()
    assert "Yee-Haa" in text and "Swap" in text and "Sabacc Shift" in text


def _png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """A screenshot's rows of RGB(A) bytes (8-bit, non-interlaced PNG, as Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, rows, prev = zlib.decompress(idat), [], bytearray(width * bpp)
    stride = width * bpp
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up, corner = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        prev = line
    return width, bpp, rows


class Picture:
    """A screenshot read as pixels, addressed in millimetres of the printed sheet."""

    def __init__(self, png: bytes, scale: int):
        self.width, self.bpp, self.rows = _png_pixels(png)
        self.scale = scale

    def at(self, x_mm: float, y_mm: float, dx: int = 0, dy: int = 0) -> tuple[int, ...]:
        x, y = int(x_mm * PX_PER_MM * self.scale) + dx, int(y_mm * PX_PER_MM * self.scale) + dy
        return tuple(self.rows[y][x * self.bpp:x * self.bpp + 3])

    def dark(self, x_mm: float, y_mm: float) -> bool:
        """Ink within 0.4 mm of the point: a 0.2 mm line is under two pixels wide at this size,
        and an element's screenshot may start half a pixel off the sheet's edge."""
        near = range(-3, 4)
        return min(sum(self.at(x_mm, y_mm, dx, dy)) for dx in near for dy in near) < 3 * 140

    def inked(self, x_mm: float, y_mm: float) -> bool:
        """Any colour but paper within 0.4 mm of the point."""
        near = range(-3, 4)
        return any(min(self.at(x_mm, y_mm, dx, dy)) < 200 for dx in near for dy in near)

    def white(self, x_mm: float, y_mm: float) -> bool:
        return min(self.at(x_mm, y_mm)) > 245


@pytest.mark.parametrize("paper", PAPERS)
def test_a_sheet_and_its_back_seen_at_print_size(chromium, live_server, paper):
    size = PAPERS[paper]
    scale = 2
    context = chromium.new_context(viewport={"width": math.ceil(size.width * PX_PER_MM), "height": 1200},
                                   device_scale_factor=scale)
    try:
        page = context.new_page()
        page.emulate_media(media="print")
        page.goto(f"{live_server.url}/decks/sabacc?paper={paper}")
        last = len(sheets("sabacc"))  # 76 cards: the last sheet holds 4, in slots 0..3
        shots = ARTIFACTS / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        front, back = (
            Picture(page.locator(f'.sheet[data-sheet="{last}"][data-side="{side}"]').screenshot(
                path=str(shots / f"decks-classic-{paper}-last-{side}.png")), scale)
            for side in ("fronts", "backs"))
        assert front.width == pytest.approx(size.width * PX_PER_MM * scale, abs=2)  # print size
        x0, y0 = origin(size)
        # Cut marks: dark on each card edge in the margins, paper white just beside them.
        for ax, ay, bx, by in cut_marks(size):
            mx, my = (ax + bx) / 2, (ay + by) / 2
            assert front.dark(mx, my) and back.dark(mx, my), (ax, ay, bx, by)
            beside = (mx + 2, my) if ax == bx else (mx, my + 2)
            assert front.white(*beside) and back.white(*beside)

        def card_at(column: int, row: int, x_mm: float, y_mm: float) -> tuple[float, float]:
            """A point `x_mm`, `y_mm` into the card slot at `column`, `row`."""
            return x0 + column * CARD_W + x_mm, y0 + row * CARD_H + y_mm

        frame, ground = (2.4, CARD_H / 2), (10, 10)  # a face's frame line; a back's dark ground
        # The fronts fill row 1 left to right and card 4 starts row 2 at the left...
        assert all(front.inked(*card_at(c, 0, *frame)) for c in range(3))
        assert front.inked(*card_at(0, 1, *frame)) and front.white(*card_at(2, 1, *frame))
        # ...so its back is printed mirrored, on the right, in the back's dark ground.
        assert all(back.dark(*card_at(c, 0, *ground)) for c in range(3))
        assert back.dark(*card_at(2, 1, *ground)) and back.white(*card_at(0, 1, *ground))
        assert back.white(*card_at(1, 1, *ground)) and back.white(*card_at(1, 2, *ground))
        # The card's frame sits inside its cut line: between them is paper.
        assert front.white(*card_at(0, 0, 1.0, CARD_H / 2)) and back.white(*card_at(0, 0, 1.0, CARD_H / 2))
    finally:
        context.close()


def test_the_pickers_faces_are_the_printed_svg(phone, live_server):
    phone.goto(live_server.url + "/calculator")
    phone.wait_for_selector('#calculator[data-ready="true"]')
    art = phone.locator('.card-btn[data-code="sa12"] img.card-art').first
    art.scroll_into_view_if_needed()
    phone.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=art.element_handle())
    src = art.get_attribute("src")
    assert src == "/cards/sabacc/sa12.svg"
    served = phone.evaluate("(u) => fetch(u).then((r) => r.text())", src)
    assert served == face_svg("sabacc", "sa12")
    # The sheet prints that very text, inline.
    sheet = phone.evaluate("(u) => fetch(u).then((r) => r.text())", f"{live_server.url}/decks/sabacc")
    assert served in sheet
    assert phone.locator('.card-btn[data-code="sa12"]').first.get_attribute("aria-label").startswith("Commander of Sabers")


def test_a_spike_pickers_faces_are_the_printed_spike_cards(phone, live_server):
    open_calculator(phone, live_server, "spike")
    phone.wait_for_selector('#calculator[data-deck="spike"]')
    picker = phone.locator('[data-key="cards"]').first
    picker.locator('.suit-tab[data-tab="minus"]').tap()
    art = picker.locator('.card-btn[data-code="-7"] img.card-art')
    phone.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=art.element_handle())
    src = art.get_attribute("src")
    assert src == "/cards/spike/-7.svg"
    assert phone.evaluate("(u) => fetch(u).then((r) => r.text())", src) == face_svg("spike", "-7")
    picker.locator('.suit-tab[data-tab="plus"]').tap()
    assert picker.locator('.card-btn[data-code="+7"] img.card-art').get_attribute("src") == "/cards/spike/%2B7.svg"


def test_the_decks_pages_have_no_serious_accessibility_violations(page, live_server):
    axe = Axe()
    found = {}
    for path in ("/decks", "/decks/sabacc?paper=letter", "/decks/spike", "/decks/spike/summary",
                 "/decks/reference/classic"):
        page.goto(live_server.url + path)
        results = axe.run(page)
        serious = [(v["id"], [n["target"] for n in v["nodes"]][:3])
                   for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        if serious:
            found[path] = serious
    assert found == {}
    assert page.outside == []  # with no network: every request went to the companion itself
