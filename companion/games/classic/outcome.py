"""Why each hand of a classic settlement won or lost, in words (the shared `outcome.explain`
asks `ClassicHand.why_of`): the sudden-demise card and the total and kind after it, a bomb-out,
and the penalties (bombing out, calling the hand and losing)::

    >>> from companion.games.classic.presets import PRESETS
    >>> from companion.table.outcome import explain
    >>> record = {"status": "settled", "payouts": {"s1": 40, "s2": -40},
    ...           "hands": [{"name": "s1", "total": 19, "kind": "ordinary"},
    ...                     {"name": "s2", "total": 19, "kind": "ordinary"}],
    ...           "pots": [{"amount": 40, "eligible": ["s1", "s2"], "winners": ["s1"],
    ...                     "to_sabacc_pot": False}],
    ...           "sabacc_pot_winners": [], "penalties": [{"name": "s2", "reason": "caller_lost",
    ...           "amount": 40, "shortfall": 0}]}
    >>> played = {"s1": {"cards": ["co10", "sa9"], "demise": "sa2", "committed": 20},
    ...           "s2": {"cards": ["fl10", "st9"], "demise": "co8", "committed": 20}}
    >>> out = explain(record, played, PRESETS["classic"], {"s1": "Leia", "s2": "Luke"}.get, why)
    >>> [(x["demise"], x["demise_total"], x["demise_kind"]) for x in out["hands"]]
    [('sa2', 21, 'ordinary'), ('co8', 27, 'bomb_out')]
    >>> out["hands"][0]["why"]
    'sudden demise: with 2 of Sabers the total is 21, the best after the demise; wins the hand pot'
    >>> out["hands"][1]["why"]
    'sudden demise: with 8 of Coins the total is 27, bombed out; called the hand and lost: pays 40'
    >>> out["net"], out["committed"]
    ({'s1': 20, 's2': -60}, {'s1': 20, 's2': 20})
"""

from __future__ import annotations

from typing import Any

from companion.table.outcome import Told, beaten_by

#: Kinds told by their total rather than their name ("lost to Han's 19").
BY_TOTAL = frozenset({"ordinary", "bomb_out"})


def _shown(hand: dict[str, Any]) -> tuple[Any, Any]:
    """The kind and total a hand ended with: after its demise card, if it had one."""
    return hand.get("demise_kind") or hand.get("kind"), hand.get("demise_total", hand.get("total"))


def why(x: dict[str, Any], told: Told) -> str:
    """Why classic hand `x` won or lost; adds its demise card and the total and kind after it."""
    rules, played, won, penalty = told.rules, told.played, told.won, told.penalty
    sid = x["name"]
    p = played.get(sid) or {}
    parts = []
    if p.get("demise") and p.get("cards"):
        # Hold 'Em: every other live hand's static field is this hand's community cards.
        community = tuple(c for o, q in played.items() if o != sid and q.get("cards")
                          for c in q.get("static") or ()) if rules.game_options.holdem else ()
        after = rules.hands.evaluate(rules, list(p["cards"]) + [p["demise"]], side=p.get("side"),
                                     community=community)
        x["demise"] = p["demise"]
        x["demise_total"] = after.total
        x["demise_kind"] = str(after.kind.value if hasattr(after.kind, "value") else after.kind)
        verdict = ("bombed out" if x["demise_kind"] == "bomb_out" else
                   "the best after the demise" if sid in won else "not the best after the demise")
        if x["demise_kind"] not in BY_TOTAL:
            verdict = f"{rules.hands.words(x['demise_kind'])}, " + verdict
        parts.append(f"{rules.words.tie}: with {rules.deck.display_name(p['demise'])} the total is "
                     f"{after.total}, {verdict}")
    elif x["kind"] == "bomb_out":
        parts.append(f"bombed out with {x['total']}")
    if sid in won:
        parts.append("wins " + " and ".join(won[sid]))
    elif x["kind"] == "folded":
        parts.append(rules.words.folded)
    elif not parts or x.get("demise_kind") not in ("bomb_out", None):
        best = beaten_by(told, sid, BY_TOTAL, _shown)
        if best and x["kind"] != "bomb_out":
            parts.append(f"lost to {best}")
    if sid in penalty:
        reason = "bombed out" if penalty[sid]["reason"] == "bomb_out" else "called the hand and lost"
        if penalty[sid]["reason"] == "bomb_out" and parts and parts[0].startswith("bombed out"):
            parts[0] = f"{parts[0]}: pays {penalty[sid]['amount']}"
        else:
            parts.append(f"{reason}: pays {penalty[sid]['amount']}")
    return "; ".join(parts) or "—"
