"""Print layout: poker-size cards nine to a sheet, cut marks, and a mirrored back for each sheet.

Every front sheet is followed by its back sheet, so a duplex printer (flip on the long edge)
puts each card's back behind its face. Flipping on the long edge swaps left and right, so the
back sheet mirrors the columns: the back of the card in column 1 is printed in column 3::

    >>> a4 = PAPERS["a4"]
    >>> slot(a4, 0), slot(a4, 0, back=True)
    ((10.5, 16.5), (136.5, 16.5))
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.decks.art import back_svg, die_net_svg, face_svg, item_back_svg, item_svg
from companion.decks.source import deck_cards, printables, printed

CARD_W, CARD_H = 63.0, 88.0  # millimetres: poker size
COLUMNS, ROWS = 3, 3
PER_SHEET = COLUMNS * ROWS
MARK_GAP, MARK_LENGTH = 1.0, 9.0  # a cut mark stops this far from the card; its length


@dataclass(frozen=True)
class Paper:
    """A sheet of paper in millimetres."""

    name: str
    title: str
    width: float
    height: float


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", "A4", 210.0, 297.0),
    "letter": Paper("letter", "US Letter", 215.9, 279.4),
}


@dataclass(frozen=True)
class Placed:
    """One card on a sheet: its top-left corner in millimetres, its SVG, and its name."""

    x: float
    y: float
    svg: str
    label: str


@dataclass(frozen=True)
class Sheet:
    """One front sheet and its back sheet."""

    number: int
    fronts: tuple[Placed, ...]
    backs: tuple[Placed, ...]


def origin(paper: Paper) -> tuple[float, float]:
    """The grid's top-left corner: the nine cards are centred on the sheet."""
    return (round((paper.width - COLUMNS * CARD_W) / 2, 2), round((paper.height - ROWS * CARD_H) / 2, 2))


def slot(paper: Paper, index: int, *, back: bool = False) -> tuple[float, float]:
    """Where the card at `index` (0..8, row by row) of a sheet goes; on the back sheet the
    column is mirrored (long-edge duplex)."""
    row, column = divmod(index, COLUMNS)
    if back:
        column = COLUMNS - 1 - column
    x0, y0 = origin(paper)
    return (round(x0 + column * CARD_W, 2), round(y0 + row * CARD_H, 2))


def cut_marks(paper: Paper) -> tuple[tuple[float, float, float, float], ...]:
    """The cut marks (x1, y1, x2, y2), in the margins along every card edge, never on a card."""
    x0, y0 = origin(paper)
    x1, y1 = x0 + COLUMNS * CARD_W, y0 + ROWS * CARD_H
    marks = []
    for i in range(COLUMNS + 1):
        x = round(x0 + i * CARD_W, 2)
        marks.append((x, max(0.0, y0 - MARK_GAP - MARK_LENGTH), x, round(y0 - MARK_GAP, 2)))
        marks.append((x, round(y1 + MARK_GAP, 2), x, min(paper.height, y1 + MARK_GAP + MARK_LENGTH)))
    for j in range(ROWS + 1):
        y = round(y0 + j * CARD_H, 2)
        marks.append((max(0.0, x0 - MARK_GAP - MARK_LENGTH), y, round(x0 - MARK_GAP, 2), y))
        marks.append((round(x1 + MARK_GAP, 2), y, min(paper.width, x1 + MARK_GAP + MARK_LENGTH), y))
    return tuple(marks)


def sheets(deck: str, paper: Paper = PAPERS["a4"], *, tarot: bool = False) -> list[Sheet]:
    """Every sheet of `deck`: its cards in deck order, nine a sheet, each with its backs."""
    cards = printed(deck_cards(deck))
    back = back_svg(deck)
    out = []
    for start in range(0, len(cards), PER_SHEET):
        fronts, backs = [], []
        for i, (c, copy) in enumerate(cards[start:start + PER_SHEET]):
            svg = face_svg(deck, c.code, tarot=tarot, copy=copy)
            fronts.append(Placed(*slot(paper, i), svg, c.tarot if tarot else c.name))
            backs.append(Placed(*slot(paper, i, back=True), back, "back"))
        out.append(Sheet(start // PER_SHEET + 1, tuple(fronts), tuple(backs)))
    return out


def layout(items: list[tuple[str, str, str]], paper: Paper = PAPERS["a4"]) -> list[Sheet]:
    """Sheets of any printed things: `items` are (name, front SVG, back SVG), nine a sheet;
    a sheet whose items have no back ("") has no back sheet (its `backs` is empty)."""
    out = []
    for start in range(0, len(items), PER_SHEET):
        fronts, backs = [], []
        for i, (label, front, back) in enumerate(items[start:start + PER_SHEET]):
            fronts.append(Placed(*slot(paper, i), front, label))
            if back:
                backs.append(Placed(*slot(paper, i, back=True), back, "back"))
        out.append(Sheet(start // PER_SHEET + 1, tuple(fronts), tuple(backs)))
    return out


def printable_sheets(deck: str, key: str, paper: Paper = PAPERS["a4"]) -> list[Sheet]:
    """The sheets of what the game of `deck` prints beside it under `key`: its cards (each
    copy, with their back), then its dice as nets (no back). KeyError for no such thing."""
    p = printables(deck)[key]
    back = item_back_svg(p.back or p.title)
    items = [(c.name, item_svg(c.name, c.words), back) for c in p.cards for _ in range(c.copies)]
    items += [(d.name, die_net_svg(d.name, d.faces, d.ink, d.marks), "") for d in p.dice]
    return layout(items, paper)
