"""The session history's stack chart: its geometry follows the stacks, names are only text."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from companion.server.charts import Layout, legend, nice_ceiling, stack_chart

SVG = "{http://www.w3.org/2000/svg}"

# Three hands of two players. Default layout: plot from x 64 to 700 (636 wide) and from
# y 20 (top) to 312 (0 credits), 292 high. The highest stack is 40, so the axis tops at 50:
# y(c) = 20 + 292 * (1 - c / 50).
HISTORY = [
    {"hand": 1, "stacks": {"s1": 10, "s2": 30}, "sabacc_pot": 2},
    {"hand": 2, "stacks": {"s1": 20, "s2": 20}, "sabacc_pot": 2},
    {"hand": 3, "stacks": {"s1": 40, "s2": 0}, "sabacc_pot": 2},
]
NAMES = {"s1": "Han", "s2": "Lando"}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def line_of(root: ET.Element, seat: str) -> ET.Element:
    (group,) = [g for g in root.iter(SVG + "g") if g.get("data-seat") == seat]
    return group


def points(element: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in element.get("points").split()]


def test_a_growing_stack_draws_a_rising_line_through_the_hand_computed_points():
    root = parse(stack_chart(HISTORY, NAMES))
    (han,) = line_of(root, "s1").iter(SVG + "polyline")
    assert points(han) == [(64, 253.6), (382, 195.2), (700, 78.4)]
    ys = [y for _, y in points(han)]
    assert ys == sorted(ys, reverse=True)  # SVG y grows downwards: a rising line


def test_a_shrinking_stack_falls_to_the_zero_line():
    root = parse(stack_chart(HISTORY, NAMES))
    (lando,) = line_of(root, "s2").iter(SVG + "polyline")
    assert points(lando) == [(64, 136.8), (382, 195.2), (700, 312)]


def test_the_credit_axis_tops_at_a_round_number_above_the_highest_stack():
    root = parse(stack_chart(HISTORY, NAMES))
    labels = {t.text: float(t.get("y")) for t in root.iter(SVG + "text") if t.get("text-anchor") == "end"}
    assert labels["50"] == 20 and labels["0"] == 312 and labels["25"] == 166
    assert [nice_ceiling(v) for v in (40, 500, 501, 1)] == [50, 500, 1000, 1]


def test_a_player_who_joins_later_starts_at_their_first_hand():
    history = [
        {"hand": 1, "stacks": {"s1": 10}},
        {"hand": 2, "stacks": {"s1": 10, "s3": 10}},
        {"hand": 3, "stacks": {"s1": 10, "s3": 5}},
    ]
    root = parse(stack_chart(history, {"s1": "Han", "s3": "Chewie"}))
    (chewie,) = line_of(root, "s3").iter(SVG + "polyline")
    # The axis tops at 10: y(10) = 20, y(5) = 20 + 292 / 2 = 166.
    assert points(chewie) == [(382, 20), (700, 166)]


def test_a_seat_away_for_a_hand_gets_a_break_in_its_line():
    history = [
        {"hand": 1, "stacks": {"s1": 4, "s2": 2}},
        {"hand": 2, "stacks": {"s1": 6}},
        {"hand": 3, "stacks": {"s1": 0, "s2": 10}},
    ]
    group = line_of(parse(stack_chart(history, NAMES)), "s2")
    assert list(group.iter(SVG + "polyline")) == []  # no line across the missing hand
    dots = [(float(c.get("cx")), float(c.get("cy"))) for c in group.iter(SVG + "circle")]
    assert dots == [(64, 253.6), (700, 20)]  # 2 of 10: y = 20 + 292 * 0.8


def test_a_single_hand_sits_in_the_middle():
    root = parse(stack_chart([{"hand": 7, "stacks": {"s1": 5}}], {"s1": "Han"}))
    (dot,) = line_of(root, "s1").iter(SVG + "circle")
    assert (float(dot.get("cx")), float(dot.get("cy"))) == (382, 20)
    assert [t.text for t in root.iter(SVG + "text") if t.get("text-anchor") == "middle"][0] == "7"


def test_no_hands_yet_is_an_empty_chart_that_says_so():
    root = parse(stack_chart([], NAMES))
    assert list(root.iter(SVG + "g")) == []
    assert root.find(SVG + "desc").text == "No hand has been settled yet."


@pytest.mark.parametrize("name", ["<script>alert(1)</script>", 'Lando "the" & <b>', "]]><x/>"])
def test_player_names_are_text_in_the_svg_never_markup(name):
    svg = stack_chart(HISTORY, {"s1": "Han", "s2": name})
    root = parse(svg)  # well-formed XML
    tags = {el.tag for el in root.iter()}
    assert tags <= {SVG + t for t in ("svg", "title", "desc", "rect", "line", "text", "g", "polyline", "circle")}
    assert line_of(root, "s2").find(SVG + "title").text == name
    assert name in root.find(SVG + "desc").text
    assert "<script" not in svg


def test_the_legend_matches_the_chart_colours_in_seat_order():
    keys = legend(HISTORY, NAMES)
    root = parse(stack_chart(HISTORY, NAMES))
    for key in keys:
        (line,) = line_of(root, key["seat"]).iter(SVG + "polyline")
        assert line.get("stroke") == key["colour"]
    assert [k["name"] for k in keys] == ["Han", "Lando"]


def test_a_smaller_layout_scales_the_points():
    small = Layout(width=200, height=120, left=20, right=20, top=10, bottom=10)  # plot 160 x 100
    root = parse(stack_chart(HISTORY, NAMES, small))
    (han,) = line_of(root, "s1").iter(SVG + "polyline")
    assert points(han) == [(20, 90), (100, 70), (180, 30)]
