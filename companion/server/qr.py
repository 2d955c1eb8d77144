"""QR codes as SVG, drawn from qrcode's module grid.

The join page, the display and a seat's move to a new phone show a QR code. qrcode's own SVG
factories build an `xml.etree` tree to write a few hundred squares: importing them costs the
server some 0.7 MB of resident memory for as long as it runs (measured on a Pi's 512 MB, that
is memory the table's phones need). The grid is all an SVG needs, so it is written here as one
path, each run of dark modules in a row one rectangle::

    >>> svg = qr_svg("http://192.168.4.1:8000/t/KMXTR/join")
    >>> svg.startswith("<svg") and 'shape-rendering="crispEdges"' in svg
    True
    >>> dark_modules(svg) == dark_modules_of("http://192.168.4.1:8000/t/KMXTR/join")
    True
"""

from __future__ import annotations

import re

import qrcode

__all__ = ["qr_svg", "dark_modules", "dark_modules_of"]

#: The quiet zone around the code, in modules (qrcode's default is 4; 2 reads fine on a screen
#: and leaves the code larger).
BORDER = 2


def _grid(data: str) -> list[list[bool]]:
    """The code's modules for `data`, quiet zone included (True: dark)."""
    qr = qrcode.QRCode(border=BORDER)
    qr.add_data(data)
    qr.make(fit=True)
    return qr.get_matrix()


def qr_svg(data: str, attributes: str = "") -> str:
    """The QR code of `data` as an SVG document (a string). `attributes` are added to the
    `<svg>` element as they are: the callers' own constants, never user text."""
    grid = _grid(data)
    size = len(grid)
    runs = []
    for y, row in enumerate(grid):
        x = 0
        while x < size:
            if not row[x]:
                x += 1
                continue
            start = x
            while x < size and row[x]:
                x += 1
            runs.append(f"M{start} {y}h{x - start}v1h-{x - start}z")
    extra = f" {attributes}" if attributes else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
            f'width="{size}mm" height="{size}mm" shape-rendering="crispEdges"{extra}>'
            f'<rect width="{size}" height="{size}" fill="#fff"/>'
            f'<path d="{"".join(runs)}" fill="#000"/></svg>')


_RUN = re.compile(r"M(\d+) (\d+)h(\d+)v1h-\d+z")


def dark_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules `(x, y)` an SVG written by `qr_svg` draws (read back from its path)."""
    return {(x, int(y)) for start, y, length in _RUN.findall(svg)
            for x in range(int(start), int(start) + int(length))}


def dark_modules_of(data: str) -> set[tuple[int, int]]:
    """The dark modules `(x, y)` qrcode itself computes for `data` (what a scanner reads)."""
    return {(x, y) for y, row in enumerate(_grid(data)) for x, dark in enumerate(row) if dark}
