"""The tie broken by drawn cards as a runtime building block (companion/table/tie_draw.py,
issue 29): the pages draw it by the names the view's `blocks.tie` gives, so those names must
be the ones the view and the legal moves actually use, at a classic and at a Spike table; and a
game composing the block under names of its own plays the same tie."""

from __future__ import annotations

from typing import Any

from companion.games.classic.table import ClassicHand
from companion.table.engine import Table
from companion.table.tie_draw import own_state
from test_spike_table import at_the_reveal, spike  # noqa: F401 (the fixture)
from test_table_rulings import do, hand
from test_third_round_rulings import to_reveal


def tie_parts(t: Table, sid: str) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """The view's tie names, the hand as `sid` sees it and `sid`'s legal moves."""
    v = t.view(sid)
    return v["blocks"]["tie"], v["hand"], v["you"]["legal"]


def test_a_classic_tie_is_drawn_by_the_names_the_view_gives() -> None:
    t = to_reveal("classic", players=3)
    do(t, "s2", "reveal", cards=["sa10", "co10"])
    do(t, "s3", "reveal", cards=["st10", "fl10"])
    do(t, "s1", "reveal", cards=["sa9", "co11"])
    names, h, legal = tie_parts(t, "s2")
    assert h["stage"] == names["stage"]
    assert sorted(h[names["players"]]) == ["s1", "s2", "s3"]
    tie_move = [m for m in legal if m["type"] == names["move"]]
    assert len(tie_move) == 1 and tie_move[0]["inputs"][0]["kind"] == "cards"
    do(t, "s2", "demise_card", card="sa2")
    assert t.view("s2")["you"][names["card"]] == "sa2"  # your own card, to you
    assert t.view("s3")["you"][names["card"]] is None
    do(t, "s3", "demise_card", card="co3")
    do(t, "s1", "demise_card", card="fl4")
    settled = t.view(None)["hand"]
    assert settled["stage"] == "settled"
    cards = {p["seat"]: p[names["card"]] for p in settled["players"]}
    assert cards == {"s1": "fl4", "s2": "sa2", "s3": "co3"}  # face up once settled
    by_name = {x["name"]: x for x in settled["settlement"]["hands"]}
    assert by_name["s2"][names["card"]] == "sa2" and by_name["s2"][names["total"]] == 22


def test_a_spike_blind_draw_says_its_draws_by_the_names_the_view_gives(spike) -> None:  # noqa: F811
    t, (first, second, third) = at_the_reveal(spike)
    do(t, first, "reveal", cards=["+3", "-3"])
    do(t, second, "reveal", cards=["-3", "+3"])
    events = do(t, third, "reveal", cards=["+9", "+1"])
    names, h, legal = tie_parts(t, first)
    assert any(e["type"] == names["started"] for e in events)
    assert h[names["players"]] == [first, second]
    do(t, first, "demise_card", card="+5")
    do(t, second, "demise_card", card="+5")  # tied again: each draws another
    _, _, legal = tie_parts(t, first)
    again = next(m for m in legal if m["type"] == names["move"])
    assert again["draw"] == 2 and again["drawn"] == ["+5"]
    do(t, first, "demise_card", card="sylop")
    do(t, second, "demise_card", card="+1")
    rows = {x["name"]: x for x in t.view(None)["hand"]["settlement"]["hands"]}
    assert rows[first][names["drawn"]] == ["+5", "sylop"] and rows[second][names["drawn"]] == ["+5", "+1"]


class OtherNames(ClassicHand):
    """Classic's hand with the tie's state under other names (as a new game would name it)."""

    BLOCKS = {"tie": {**ClassicHand.BLOCKS["tie"], "card": "extra", "players": "tied", "public": "standing"}}
    OWN_STATE = own_state(BLOCKS["tie"])


def test_the_block_plays_a_tie_under_a_games_own_names() -> None:
    t = to_reveal("classic", players=2)
    t._engine = OtherNames  # the same rules, the block's state named otherwise
    h: Any = t._s["hand"]
    OtherNames.OWN_STATE.complete(h)
    do(t, "s2", "reveal", cards=["sa10", "co10"])
    do(t, "s1", "reveal", cards=["st10", "fl10"])
    assert hand(t)["stage"] == "demise" and sorted(hand(t)["tied"]) == ["s1", "s2"]
    assert t.to_json()["hand"]["standing"] == []
    do(t, "s1", "demise_card", card="sa1")
    do(t, "s2", "demise_card", card="co2")
    v = t.view(None)["hand"]
    assert v["stage"] == "settled" and {p["seat"]: p["extra"] for p in v["players"]} == {"s1": "sa1", "s2": "co2"}
    assert "demise" not in v["players"][0] and "demise_players" not in v
    payouts = t.to_json()["hands"][-1]["settlement"]["payouts"]
    assert payouts["s2"] > 0 and payouts.get("s1", 0) <= 0  # 22 beats 21
