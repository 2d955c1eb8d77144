"""Server-rendered SVG charts: every player's stack over the hands of a session.

The chart is plain SVG text built from the table's `stack_history` (one row per settled hand:
`{"hand": n, "stacks": {seat: credits}, ...}`), so it needs no script and no library on the
phone. Every name is XML-escaped: a player called ``<script>`` is only text here.

    >>> svg = stack_chart([{"hand": 1, "stacks": {"s1": 10, "s2": 30}},
    ...                    {"hand": 2, "stacks": {"s1": 40, "s2": 0}}], {"s1": "Han", "s2": "Lando"})
    >>> 'data-seat="s1"' in svg and "Han" in svg
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

#: Line colours on the dark theme (each at least 4.5:1 on the background #0b0e14), and dash
#: patterns so that lines stay apart for colour-blind players and in a black-and-white print.
COLOURS = ("#ffc857", "#6cb8ff", "#7ee2a8", "#ff9b9b", "#d7a6ff", "#f5f5f5", "#ffa366", "#66e0e0",
           "#c8e67a", "#ff8fd0", "#a0b4ff", "#e0c090")
DASHES = ("", "8 4", "2 4", "12 4 2 4", "4 4", "16 6")


@dataclass(frozen=True)
class Layout:
    """The chart's size and the margins around its plot area, in SVG user units."""

    width: int = 720
    height: int = 360
    left: int = 64  # room for the credit labels
    right: int = 20
    top: int = 20
    bottom: int = 48  # room for the hand numbers

    @property
    def plot_width(self) -> int:
        """Width of the area the lines are drawn in."""
        return self.width - self.left - self.right

    @property
    def plot_height(self) -> int:
        """Height of the area the lines are drawn in."""
        return self.height - self.top - self.bottom


def nice_ceiling(value: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... that is at least `value` (the y axis' top).

    >>> [nice_ceiling(v) for v in (0, 1, 3, 7, 10, 11, 480, 501)]
    [1, 1, 5, 10, 10, 20, 500, 1000]
    """
    step = 1
    while True:
        for m in (1, 2, 5):
            if m * step >= value:
                return m * step
        step *= 10


def x_of(i: int, count: int, layout: Layout) -> float:
    """The x of the `i`th hand of `count` (one hand alone sits in the middle)."""
    if count <= 1:
        return layout.left + layout.plot_width / 2
    return layout.left + layout.plot_width * i / (count - 1)


def y_of(credits: float, top: int, layout: Layout) -> float:
    """The y of a stack of `credits` when the axis runs from 0 (bottom) to `top`."""
    return layout.top + layout.plot_height * (1 - credits / top)


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def stack_lines(history: list[dict], layout: Layout = Layout()) -> tuple[int, dict[str, list[list[tuple[float, float]]]]]:
    """The axis top and, per seat, its runs of points `(x, y)`.

    A seat that was not at the table for some hands (joined later, left) gets a break in its
    line there, so each run is a list of consecutive hands.
    """
    count = len(history)
    highest = max((v for row in history for v in row.get("stacks", {}).values()), default=0)
    top = nice_ceiling(max(highest, 1))
    runs: dict[str, list[list[tuple[float, float]]]] = {}
    seen: dict[str, int] = {}  # seat -> index of its last point
    for i, row in enumerate(history):
        for seat, credits in row.get("stacks", {}).items():
            point = (x_of(i, count, layout), y_of(credits, top, layout))
            if seen.get(seat) == i - 1:
                runs[seat][-1].append(point)
            else:
                runs.setdefault(seat, []).append([point])
            seen[seat] = i
    return top, runs


def stack_chart(history: list[dict], names: dict[str, str], layout: Layout = Layout(),
                title: str = "Stacks after each hand") -> str:
    """The SVG chart of each player's stack after each hand in `history`.

    `names` maps seat ids to player names (untrusted: escaped). Seats appear in the legend in
    the order of `names`, then any other seat of the history.
    """
    top, runs = stack_lines(history, layout)
    seats = _seat_order(runs, names)
    w, h = layout.width, layout.height
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="stack-chart" viewBox="0 0 {w} {h}" '
        f'role="img" aria-labelledby="chart-title chart-desc">',
        f'<title id="chart-title">{escape(title)}</title>',
        f'<desc id="chart-desc">{escape(_describe(history, names, seats))}</desc>',
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="#151a23"/>',
    ]
    # Grid: five credit levels and the hand numbers.
    for k in range(5):
        credits = top * k / 4
        level_y = _num(y_of(credits, top, layout))
        out.append(f'<line x1="{layout.left}" y1="{level_y}" x2="{w - layout.right}" y2="{level_y}" '
                   f'stroke="#3a4556" stroke-width="1"/>')
        out.append(f'<text x="{layout.left - 8}" y="{level_y}" fill="#b4bfcc" font-size="18" '
                   f'text-anchor="end" dominant-baseline="middle">{_num(credits)}</text>')
    label_every = max(1, len(history) // 12)  # at most about a dozen hand numbers
    for i, row in enumerate(history):
        if i % label_every and i != len(history) - 1:
            continue
        label_x = _num(x_of(i, len(history), layout))
        out.append(f'<text x="{label_x}" y="{h - layout.bottom + 20}" fill="#b4bfcc" font-size="18" '
                   f'text-anchor="middle">{escape(str(row.get("hand", i + 1)))}</text>')
    out.append(f'<text x="{layout.left + layout.plot_width / 2:.0f}" y="{h - 8}" fill="#b4bfcc" '
               f'font-size="18" text-anchor="middle">hand</text>')
    for n, seat in enumerate(seats):
        colour, dash = COLOURS[n % len(COLOURS)], DASHES[n % len(DASHES)]
        name = names.get(seat, seat)
        out.append(f'<g class="stack-line" data-seat={quoteattr(seat)}>')
        out.append(f"<title>{escape(name)}</title>")
        for run in runs[seat]:
            points = " ".join(f"{_num(x)},{_num(y)}" for x, y in run)
            dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
            if len(run) > 1:
                out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                           f'stroke-width="3" stroke-linejoin="round"{dash_attr}/>')
            for x, y in run:
                out.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="4" fill="{colour}"/>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def _seat_order(runs: dict, names: dict[str, str]) -> list[str]:
    return [s for s in names if s in runs] + [s for s in runs if s not in names]


def legend(history: list[dict], names: dict[str, str]) -> list[dict[str, str]]:
    """The chart's key: per seat drawn, its name, colour and dash pattern (as in the chart)."""
    _, runs = stack_lines(history)
    return [{"seat": seat, "name": names.get(seat, seat), "colour": COLOURS[n % len(COLOURS)],
             "dash": DASHES[n % len(DASHES)]} for n, seat in enumerate(_seat_order(runs, names))]


def _describe(history: list[dict], names: dict[str, str], seats: list[str]) -> str:
    """The chart in words, for screen readers: each player's first and last stack."""
    if not history:
        return "No hand has been settled yet."
    parts = []
    for seat in seats:
        values = [row["stacks"][seat] for row in history if seat in row.get("stacks", {})]
        parts.append(f"{names.get(seat, seat)}: {values[0]} to {values[-1]} credits")
    hands = "1 hand" if len(history) == 1 else f"{len(history)} hands"
    return f"{hands}. " + "; ".join(parts) + "."
