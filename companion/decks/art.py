"""Card art as SVG, drawn from the deck's own data: one face per card, one back per deck.

The printed sheets inline `face_svg`; the phones' card pickers load the very same text from
`/cards/<deck>/<code>.svg`. A face is 63 × 88 mm (poker size) in a 630 × 880 view box, so one
unit is a tenth of a millimetre. No image files, no fonts but the system's::

    >>> deck = next(iter(printed_decks()))  # any deck a game declares (tests/test_print_decks.py: each)
    >>> card = deck_cards(deck)[0]
    >>> svg = face_svg(deck, card.code)
    >>> svg.startswith("<svg") and f'aria-label="{escape(card.name)}' in svg
    True
"""

from __future__ import annotations

from html import escape

from companion.games import registry
from companion.decks.source import DeckCard, deck_cards, printed_deck, printed_decks, value_text

WIDTH, HEIGHT = 630, 880  # tenths of a millimetre: a poker-size card
FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif"

#: Ink per suit (by its code prefix) and for the face cards; a signed deck's positive, negative
#: and zero cards.
SUIT_INK = {"sa": "#b3261e", "st": "#1e6b35", "fl": "#1f4fa0", "co": "#8a6300"}
FACE_INK = "#5b2a86"
POSITIVE_INK, NEGATIVE_INK, ZERO_INK = "#1b7a34", "#c0262d", "#7a5a00"

# Pip shapes in a unit box (-1..1), drawn filled; `_pip` places and scales them.
_SHAPES = {
    # "sa": a blade, its guard, grip and pommel.
    "sa": '<path d="M0 -1 L0.14 -0.72 L0.14 0.32 L-0.14 0.32 L-0.14 -0.72 Z M-0.5 0.32 H0.5 V0.48 H-0.5 Z '
          'M-0.08 0.48 H0.08 V0.82 H-0.08 Z"/><circle cy="0.9" r="0.11"/>',
    # "st": a rod with a knob and two bands.
    "st": '<path d="M-0.1 -0.7 H0.1 V1 H-0.1 Z M-0.22 -0.2 H0.22 V-0.08 H-0.22 Z M-0.22 0.45 H0.22 V0.57 H-0.22 Z"/>'
          '<circle cy="-0.78" r="0.22"/>',
    # "fl": a neck on a conical body.
    "fl": '<path d="M-0.18 -1 H0.18 V-0.35 L0.75 0.85 Q0.78 0.95 0.65 0.95 H-0.65 Q-0.78 0.95 -0.75 0.85 '
          'L-0.18 -0.35 Z"/>',
    # "co": a disc with a square hole.
    "co": '<path fill-rule="evenodd" d="M0 -0.92 A0.92 0.92 0 1 1 0 0.92 A0.92 0.92 0 1 1 0 -0.92 Z '
          'M-0.25 -0.25 H0.25 V0.25 H-0.25 Z"/>',
    # The face cards: an eight-pointed star.
    "face": '<path d="M0 -1 L0.22 -0.53 L0.71 -0.71 L0.53 -0.22 L1 0 L0.53 0.22 L0.71 0.71 L0.22 0.53 '
            'L0 1 L-0.22 0.53 L-0.71 0.71 L-0.53 0.22 L-1 0 L-0.53 -0.22 L-0.71 -0.71 L-0.22 -0.53 Z"/>',
    # Stave marks (a deck's value may name one per printed copy of a value).
    "circle": '<circle r="0.85"/>',
    "triangle": '<path d="M0 -0.9 L0.95 0.75 H-0.95 Z"/>',
    "square": '<path d="M-0.75 -0.75 H0.75 V0.75 H-0.75 Z"/>',
    # A diamond and a drop, for decks whose groups name them.
    "diamond": '<path d="M0 -1 L0.7 0 L0 1 L-0.7 0 Z"/>',
    "drop": '<path d="M0 -1 C0.2 -0.55 0.75 0 0.75 0.35 A0.75 0.65 0 1 1 -0.75 0.35 C-0.75 0 -0.2 -0.55 0 -1 Z"/>',
    # A ring round a diamond: a signed deck's zero card.
    "ring": '<path fill-rule="evenodd" d="M0 -0.95 A0.95 0.95 0 1 1 0 0.95 A0.95 0.95 0 1 1 0 -0.95 Z '
             'M0 -0.75 A0.75 0.75 0 1 0 0 0.75 A0.75 0.75 0 1 0 0 -0.75 Z"/>'
             '<path d="M0 -0.55 L0.4 0 L0 0.55 L-0.4 0 Z"/>',
}


def faces_url(deck: str) -> str:
    """Where the site serves `deck`'s faces: the address with `{code}` in place of a card code
    (`companion.server.decks_pages.card_face`)."""
    return f"/cards/{deck}/{{code}}.svg"


def card(deck: str, code: str) -> DeckCard:
    """The card `code` of `deck` (KeyError when the deck has no such card)."""
    for c in deck_cards(deck):
        if c.code == code:
            return c
    raise KeyError(code)


def mark(deck: str, c: DeckCard, copy: int = 0) -> str:
    """The pip shape a printed copy shows: its group's own, its suit, the face star, its stave,
    or a signed deck's ring."""
    if c.mark in _SHAPES:  # a shape the art does not draw falls back to the deck's own choice
        return c.mark
    if c.suit:
        return c.suit
    if c.staves:
        return c.staves[copy % len(c.staves)]
    return "ring" if printed_deck(deck).signed else "face"


def ink(deck: str, c: DeckCard) -> str:
    """The colour a card is printed in: its group's own, its suit's, or green positive and red
    negative."""
    if c.ink:
        return c.ink
    if c.suit:
        return SUIT_INK[c.suit]
    if not printed_deck(deck).signed:
        return FACE_INK
    return ZERO_INK if c.value == 0 else POSITIVE_INK if c.value > 0 else NEGATIVE_INK


def card_name(deck: str, c: DeckCard, tarot: bool = False) -> str:
    """The name printed on a card (tarot words as an option)."""
    return c.tarot if tarot else c.name


def _pip(shape: str, x: float, y: float, size: float, colour: str) -> str:
    return (f'<g transform="translate({x:g} {y:g}) scale({size:g})" fill="{colour}">'
            f"{_SHAPES[shape]}</g>")


def _text(x: float, y: float, size: float, words: str, colour: str, *, weight: str = "bold",
          anchor: str = "middle") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" font-weight="{weight}" fill="{colour}" '
            f'text-anchor="{anchor}">{escape(words)}</text>')


def _lines(name: str, width: int = 17) -> list[str]:
    """A long name broken into at most two lines at a space."""
    if len(name) <= width or " " not in name:
        return [name]
    words, first = name.split(" "), ""
    while words and len(first) + len(words[0]) < len(name) / 2 + 4:
        first = f"{first} {words.pop(0)}".strip()
    return [first, " ".join(words)]


def _svg(label: str, body: str, css_class: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="{css_class}" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'width="63mm" height="88mm" role="img" aria-label="{escape(label)}" '
            f'font-family="{FONT}">{body}</svg>')


def face_svg(deck: str, code: str, *, tarot: bool = False, copy: int = 0) -> str:
    """The face of one printed card of `deck` as a standalone SVG document.

    `copy` picks which printed copy (copies of a value may differ by stave); the pickers show copy 0.
    An unknown deck or card raises KeyError.
    """
    c = card(deck, code)
    signed = printed_deck(deck).signed
    colour, shape = ink(deck, c), mark(deck, c, copy)
    # A card of a group with its own ink prints its picker face ("+7", a card's name): the value
    # on such a card may be known only at the reveal.
    value = c.short or value_text(c.value, signed=signed)
    name = card_name(deck, c, tarot)
    corner = (_text(62, 122, 84 if len(value) < 4 else 40, value, colour, anchor="start") + _pip(shape, 100, 180, 32, colour))
    parts = [
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        f'<rect x="24" y="24" width="{WIDTH - 48}" height="{HEIGHT - 48}" rx="34" fill="none" '
        f'stroke="{colour}" stroke-width="6"/>',
        corner,
        f'<g transform="rotate(180 {WIDTH / 2:g} {HEIGHT / 2:g})">{corner}</g>',
    ]
    if signed:
        count = abs(c.value) or 1
        size = 38 if count > 1 else 110
        rows = [min(5, count), count - min(5, count)] if count > 1 else [1]
        for r, n in enumerate(rows):
            for i in range(n):
                x = WIDTH / 2 + (i - (n - 1) / 2) * 92
                parts.append(_pip(shape, x, (272 if count > 1 else 280) + r * 90, size, colour))
        parts.append(_text(WIDTH / 2, 590, 210, value, colour))
        parts.append(_text(WIDTH / 2, 680, 48, name, colour, weight="normal"))
    else:
        parts.append(_pip(shape, WIDTH / 2, 270, 120, colour))
        parts.append(_text(WIDTH / 2, 530, min(170, 800 / max(len(value), 1)), value, colour))
        for i, line in enumerate(_lines(name)):
            parts.append(_text(WIDTH / 2, 610 + i * 48, 40, line, "#222222", weight="normal"))
    if c.set_aside:
        parts.append(f'<rect x="150" y="684" width="330" height="40" rx="20" fill="none" stroke="#444444" '
                     f'stroke-width="3" stroke-dasharray="10 6"/>')
        parts.append(_text(WIDTH / 2, 712, 23, f"set aside in {c.set_aside}", "#444444", weight="normal"))
    label = name if name == value else f"{name}, {value}"
    if c.set_aside:
        label += f", set aside in {c.set_aside}"
    return _svg(label, "".join(parts), f"card-face deck-{deck}")


def _plain_back(deck: str) -> tuple[str, str, str, str]:
    """A back drawn from the deck's own data: its name in capitals, slate inks, and the mark
    its cards without a suit or stave carry (a signed deck's ring, or the face cards' star)."""
    return deck.upper(), "#1f2a36", "#b8c4d0", "ring" if printed_deck(deck).signed else "face"


def back_svg(deck: str) -> str:
    """The back every card of `deck` shares: a lattice, a ring and the game's name."""
    # Each deck's back is its own (`Deck.back`: its title, its two inks and its emblem); a deck
    # without one gets `_plain_back`.
    title, ground, line, emblem = registry.decks()[deck].back or _plain_back(deck)
    lattice = "".join(
        f'<path d="M{x} 40 L{x + 400} 840 M{x} 840 L{x + 400} 40" stroke="{line}" stroke-width="3" opacity="0.35"/>'
        for x in range(-360, WIDTH, 60)
    )
    body = (
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>'
        f'<rect x="24" y="24" width="{WIDTH - 48}" height="{HEIGHT - 48}" rx="34" fill="{ground}"/>'
        f'<svg x="40" y="40" width="{WIDTH - 80}" height="{HEIGHT - 80}" viewBox="40 40 {WIDTH - 80} {HEIGHT - 80}">'
        f"{lattice}</svg>"
        f'<rect x="40" y="40" width="{WIDTH - 80}" height="{HEIGHT - 80}" rx="24" fill="none" stroke="{line}" stroke-width="6"/>'
        f'<circle cx="{WIDTH / 2:g}" cy="{HEIGHT / 2:g}" r="150" fill="{ground}" stroke="{line}" stroke-width="10"/>'
        + _pip(emblem, WIDTH / 2, HEIGHT / 2 - 30, 70, line)
        + _text(WIDTH / 2, HEIGHT / 2 + 100, 44, title, line)
    )
    return _svg(f"{printed_deck(deck).title} card back", body, f"card-back deck-{deck}")


def _wrap(words: str, width: int) -> list[str]:
    """`words` broken at spaces into lines of at most `width` characters (a longer word alone)."""
    lines: list[str] = []
    for word in words.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def item_svg(name: str, words: str, colour: str = "#1f2a36") -> str:
    """A printed card that is no card of a deck (a token): its name large, what it does below."""
    parts = [
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        f'<rect x="24" y="24" width="{WIDTH - 48}" height="{HEIGHT - 48}" rx="34" fill="none" '
        f'stroke="{colour}" stroke-width="6"/>',
        _pip("diamond", WIDTH / 2, 170, 80, colour),
    ]
    for i, line in enumerate(_lines(name, 14)):
        parts.append(_text(WIDTH / 2, 340 + i * 70, 60, line, colour))
    for i, line in enumerate(_wrap(words[:1].upper() + words[1:] + ".", 24)[:9]):
        parts.append(_text(WIDTH / 2, 510 + i * 40, 30, line, "#222222", weight="normal"))
    return _svg(f"{name}: {words}", "".join(parts), "card-face item")


def item_back_svg(title: str) -> str:
    """The back the printed items of a game share: slate, a ring, and `title`."""
    line = "#b8c4d0"
    body = (
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>'
        f'<rect x="24" y="24" width="{WIDTH - 48}" height="{HEIGHT - 48}" rx="34" fill="#1f2a36"/>'
        f'<circle cx="{WIDTH / 2:g}" cy="{HEIGHT / 2:g}" r="150" fill="none" stroke="{line}" stroke-width="10"/>'
        + _pip("diamond", WIDTH / 2, HEIGHT / 2 - 30, 70, line)
        + _text(WIDTH / 2, HEIGHT / 2 + 100, 40 if len(title) < 14 else 28, title.upper(), line)
    )
    return _svg(f"{title} back", body, "card-back item")


#: Where a cube net's six faces go, in a 3 × 4 grid of squares (column, row), in the order
#: that puts faces 1 and 2, 3 and 4, 5 and 6 on opposite sides of the folded cube.
NET = ((1, 0), (1, 2), (0, 1), (2, 1), (1, 1), (1, 3))
NET_SIDE = 200  # a face's side in tenths of a millimetre: a 20 mm die


def die_net_svg(name: str, faces: tuple[str, ...], colour: str = "#1f2a36", marks: tuple[str, ...] = ()) -> str:
    """A die as a cube net that fits a card's place: six squares to cut out round the outline
    and fold on the dashed lines; faces 1–2, 3–4 and 5–6 end up opposite each other."""
    side = NET_SIDE
    x0, y0 = (WIDTH - 3 * side) / 2, (HEIGHT - 4 * side) / 2
    parts = [f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>']
    for i, (col, row) in enumerate(NET):
        x, y = x0 + col * side, y0 + row * side
        words = faces[i]
        shape = marks[i] if i < len(marks) and marks[i] in _SHAPES else ""
        parts.append(f'<rect x="{x:g}" y="{y:g}" width="{side}" height="{side}" fill="#ffffff" '
                     f'stroke="{colour}" stroke-width="3" stroke-dasharray="12 8"/>')
        if shape:
            parts.append(_pip(shape, x + side / 2, y + side / 2 - 25, 50, colour))
            parts.append(_text(x + side / 2, y + side - 30, 34, words, colour))
        else:
            parts.append(_text(x + side / 2, y + side / 2 + 30, 90 if len(words) < 4 else 40, words, colour))
    # The outline, cut along: the net's outer edge.
    outline = (f"M{x0 + side:g} {y0:g} H{x0 + 2 * side:g} V{y0 + side:g} H{x0 + 3 * side:g} V{y0 + 2 * side:g} "
               f"H{x0 + 2 * side:g} V{y0 + 4 * side:g} H{x0 + side:g} V{y0 + 2 * side:g} H{x0:g} V{y0 + side:g} "
               f"H{x0 + side:g} Z")
    parts.append(f'<path d="{outline}" fill="none" stroke="#222222" stroke-width="5"/>')
    for i, line in enumerate(_wrap(name, 11)):  # in the empty corner beside the top face
        parts.append(_text(x0 + side / 2, y0 + 80 + i * 40, 32, line, colour))
    label = f"{name}: " + ", ".join(faces)
    return _svg(label, "".join(parts), "die-net")
