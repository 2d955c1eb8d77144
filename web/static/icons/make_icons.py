"""Draw the companion's app icons as PNG files with the standard library only (zlib + struct).

    python web/static/icons/make_icons.py      # writes icon-192.png and icon-512.png here

The design matches icon.svg: on the dark theme's background, a gold ring (the scrambler's
dial) around a gold diamond (a card's pip). Everything lies inside the central 80 % circle, so
the icon also works as a "maskable" icon that the phone crops to its own shape.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

BACKGROUND = (0x0B, 0x0E, 0x14)
GOLD = (0xFF, 0xC8, 0x57)
SIZES = (192, 512)
SAMPLES = 3  # supersampling per axis: smooth edges without a drawing library


def gold_at(x: float, y: float) -> bool:
    """Whether the point (x, y) of the unit square [0, 1]² is gold."""
    dx, dy = x - 0.5, y - 0.5
    r = (dx * dx + dy * dy) ** 0.5
    ring = 0.30 <= r <= 0.38
    diamond = abs(dx) / 0.13 + abs(dy) / 0.2 <= 1
    return ring or diamond


def pixels(size: int) -> bytes:
    """The icon's raw RGB rows, each preceded by PNG filter byte 0."""
    rows = bytearray()
    n = SAMPLES * SAMPLES
    for py in range(size):
        rows.append(0)
        for px in range(size):
            hits = sum(
                gold_at((px + (i + 0.5) / SAMPLES) / size, (py + (j + 0.5) / SAMPLES) / size)
                for i in range(SAMPLES)
                for j in range(SAMPLES)
            )
            rows.extend(round(b + (g - b) * hits / n) for b, g in zip(BACKGROUND, GOLD))
    return bytes(rows)


def chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data, CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(size: int) -> bytes:
    """A `size`×`size` 8-bit RGB PNG of the icon."""
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit, truecolour
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(pixels(size), 9)) + chunk(b"IEND", b""))


def main() -> None:
    """Write icon-<size>.png next to this script."""
    here = Path(__file__).resolve().parent
    for size in SIZES:
        (here / f"icon-{size}.png").write_bytes(png(size))


if __name__ == "__main__":
    main()
