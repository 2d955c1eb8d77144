"""Coruscant Shift's facts as the pages show them (docs/games.md, "Facts"): the round's target
number and suit in large type on every screen, the ante now and next (the table's), and each
seat's selection count on the seat lists (C13: how many cards a player selects is public).

Each reads the round's record (`CoruscantTable.rnd`, the hand's ``"coruscant"`` key); nothing
here changes the state.

>>> r = {"target": {"number": 7, "suit": "circle"}, "ante": 2, "counts": {"s1": 3}, "improved": {}}
>>> [(f["words"], f["value"], f["hint"]) for f in table_facts(r, 3)]
[('Target', '+7 Circle', 'large'), ('Ante', '2 (next round 3)', '')]
>>> seat_facts(r, ["s1", "s2"])
{'s1': [{'key': 'selection', 'words': 'selection', 'value': '3 cards', 'hint': ''}], 's2': []}
"""

from __future__ import annotations

from typing import Any

from companion.games.api import fact
from companion.games.coruscant.cards import target_words


def table_facts(r: dict[str, Any], ante_next: int) -> list[dict[str, Any]]:
    """The round's target once the dice have set it (read across the table: large), and the
    ante of this round and the next (C8)."""
    out = []
    t = r["target"]
    if t is not None:
        out.append(fact("target", "Target", target_words(t["number"], t["suit"]), "large"))
    ante = str(r["ante"]) if ante_next == r["ante"] else f"{r['ante']} (next round {ante_next})"
    out.append(fact("ante", "Ante", ante))
    return out


def seat_facts(r: dict[str, Any], seats: list[str], went_out: dict[str, int] | None = None) \
        -> dict[str, list[dict[str, Any]]]:
    """Each seat of the round's selection count, once recorded (after improving, the count
    then); and for a seat out of the game (`went_out`: seat -> round), the round it went out in.

    >>> seat_facts({"improved": {}, "counts": {}}, ["s1"], {"s2": 1})["s2"][0]["words"]
    'out in round'
    """
    out: dict[str, list[dict[str, Any]]] = {}
    for sid in seats:
        n = r["improved"].get(sid, r["counts"].get(sid))
        out[sid] = [] if n is None else [fact("selection", "selection", "1 card" if n == 1 else f"{n} cards")]
    for sid, round_no in (went_out or {}).items():
        out.setdefault(sid, []).append(fact("out", "out in round", round_no))
    return out
