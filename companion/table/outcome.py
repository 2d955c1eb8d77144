"""A settled hand told to the players: each demise card, the totals after it, why each hand won
or lost, and what each player gained (net) beside what they were paid (payout).

`explain` adds these to the settlement record the engine keeps (the hand's `settlement` and its
history row), so the phones, the display and the history page all read the same words and none
of them works the outcome out again::

    >>> from companion.games.registry import presets
    >>> record = {"status": "settled", "payouts": {"s1": 40, "s2": -40},
    ...           "hands": [{"name": "s1", "total": 19, "kind": "ordinary"},
    ...                     {"name": "s2", "total": 19, "kind": "ordinary"}],
    ...           "pots": [{"amount": 40, "eligible": ["s1", "s2"], "winners": ["s1"],
    ...                     "to_sabacc_pot": False}],
    ...           "sabacc_pot_winners": [], "penalties": [{"name": "s2", "reason": "caller_lost",
    ...           "amount": 40, "shortfall": 0}]}
    >>> played = {"s1": {"cards": ["co10", "sa9"], "demise": "sa2", "committed": 20},
    ...           "s2": {"cards": ["fl10", "st9"], "demise": "co8", "committed": 20}}
    >>> out = explain(record, played, presets()["classic"], {"s1": "Leia", "s2": "Luke"}.get)
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

from typing import Any, Callable

from companion.rules.rulesets import RuleSet

#: Kinds told by their total rather than their name ("lost to Han's 19").
_BY_TOTAL = {"ordinary", "bomb_out", "nulrhek"}


def pot_labels(pots: list[dict[str, Any]], pot: str = "hand pot") -> list[str]:
    """Each pot's name as the table says it: the game's pot (`pot`: "hand pot", "game pot")
    when one pot was contested, else "main pot", "side pot 1", ...; "the rest" for what
    nobody else was left in."""
    contested = [p for p in pots if len(p["eligible"]) > 1 or p.get("to_sabacc_pot")]
    out = []
    for p in pots:
        if p not in contested:
            out.append("the rest")
        elif len(contested) == 1:
            out.append(pot)
        else:
            i = contested.index(p)
            out.append("main pot" if i == 0 else f"side pot {i}")
    return out


def explain(record: dict[str, Any], played: dict[str, dict[str, Any]], rules: RuleSet,
            name: Callable[[str], str | None]) -> dict[str, Any]:
    """`record` (a settlement's JSON) with, for each hand, its demise card and the total and
    kind after it, and `why` it won or lost; and for the hand, each seat's `committed` and
    `net`: the payout less all the player put in this hand (`paid`: the antes to both pots,
    bets and a fold fee; `committed` when not given). `played`: seat -> {"cards", "demise",
    "committed", "paid"?, "static"?, "side"?, "blind_draw"?}: a blind draw's cards are kept in the
    hand's row (`blind_draw`) and told in its `why`. The record itself is not changed."""
    out = dict(record)
    payouts = record.get("payouts") or {}
    committed = {sid: int(p.get("committed", 0)) for sid, p in played.items()}
    paid = {sid: int(p.get("paid", committed[sid])) for sid, p in played.items()}
    out["committed"] = committed
    out["paid"] = paid
    out["net"] = {sid: payouts.get(sid, 0) - paid.get(sid, 0) for sid in payouts}
    if record.get("status") != "settled" or "hands" not in record:
        return out
    won: dict[str, list[str]] = {}
    for label, pot in zip(pot_labels(record.get("pots") or [], rules.words.pot), record.get("pots") or []):
        if label == "the rest":
            continue
        for w in pot["winners"]:
            won.setdefault(w, []).append(f"the {label}")
    for w in record.get("sabacc_pot_winners") or []:
        won.setdefault(w, []).append("the sabacc pot")
    penalty = {x["name"]: x for x in record.get("penalties") or []}
    live = [sid for sid, p in played.items() if p.get("cards")]
    community = {sid: tuple(c for o in live if o != sid for c in played[o].get("static") or ())
                 for sid in live} if rules.holdem else {}
    hands = []
    for x in record["hands"]:
        x = dict(x)
        sid = x["name"]
        p = played.get(sid) or {}
        parts = []
        if p.get("demise") and p.get("cards"):
            after = rules.hands.evaluate(rules, list(p["cards"]) + [p["demise"]], side=p.get("side"),
                                         community=community.get(sid, ()))
            x["demise"] = p["demise"]
            x["demise_total"] = after.total
            x["demise_kind"] = str(after.kind.value if hasattr(after.kind, "value") else after.kind)
            verdict = ("bombed out" if x["demise_kind"] == "bomb_out" else
                       "the best after the demise" if sid in won else "not the best after the demise")
            if x["demise_kind"] not in _BY_TOTAL:
                verdict = f"{rules.hands.words(x['demise_kind'])}, " + verdict
            parts.append(f"{rules.words.tie}: with {rules.deck.display_name(p['demise'])} the total is "
                         f"{after.total}, {verdict}")
        elif x["kind"] == "bomb_out":
            parts.append(f"bombed out with {x['total']}")
        drew = _blind_draw_words(sid, played, rules, name, won)
        if drew:
            x["blind_draw"] = list(played[sid]["blind_draw"])
            parts.append(drew)
        if sid in won:
            parts.append("wins " + " and ".join(won[sid]))
        elif x["kind"] == "folded":
            parts.append(rules.words.folded)
        elif drew:
            pass  # lost the blind draw: said above, with the cards that beat theirs
        elif not parts or x.get("demise_kind") not in ("bomb_out", None):
            best = _beaten_by(record, sid, name, rules)
            if best and x["kind"] != "bomb_out":
                parts.append(f"lost to {best}")
        if sid in penalty:
            why = "bombed out" if penalty[sid]["reason"] == "bomb_out" else "called the hand and lost"
            if penalty[sid]["reason"] == "bomb_out" and parts and parts[0].startswith("bombed out"):
                parts[0] = f"{parts[0]}: pays {penalty[sid]['amount']}"
            else:
                parts.append(f"{why}: pays {penalty[sid]['amount']}")
        x["why"] = "; ".join(parts) or "—"
        hands.append(x)
    out["hands"] = hands
    return out


def _blind_draw_words(sid: str, played: dict[str, dict[str, Any]], rules: RuleSet,
                      name: Callable[[str], str | None], won: dict[str, list[str]]) -> str:
    """How `sid`'s blind draw went, in words ("tied with Finn; lost the blind draw: −2 against
    Finn's +2"), with every card drawn, one a draw; "" for a player who drew no card. Their
    rivals are the other drawers whose hands rank the same (a tie of a side pot is its own)."""
    drawn = {o: list(p.get("blind_draw") or ()) for o, p in played.items() if p.get("blind_draw")}
    if sid not in drawn:
        return ""

    def rank(o: str) -> Any:
        return rules.hands.evaluate(rules, list(played[o].get("cards") or ())).rank

    def cards(o: str) -> str:
        return ", then ".join(rules.deck.display_name(c) for c in drawn[o])

    rivals = [o for o in drawn if o != sid and played[o].get("cards") and played[sid].get("cards")
              and rank(o) == rank(sid)]
    if not rivals:
        return f"blind draw: {cards(sid)}"
    who = [name(o) or o for o in rivals]
    against = " and ".join(f"{w}'s {cards(o)}" for w, o in zip(who, rivals))
    verdict = "won" if sid in won else "lost"
    return f"tied with {' and '.join(who)}; {verdict} the blind draw: {cards(sid)} against {against}"


def money(record: dict[str, Any], sid: str) -> dict[str, int]:
    """What `sid` put into a settled hand and took out of it, as the evening's summary shows
    them: `put_in` is every credit that left the stack for the hand (the antes to both pots,
    bets, fees, a fold fee or junk penalty, and a penalty paid at the settlement); `took_out`
    every credit that came back (the pots and the sabacc pot won); `net` = took_out − put_in,
    the change of the stack over the hand. A penalty is a payout below 0 in the record: here
    it is counted as put in, so that neither figure is ever below 0.

    >>> record = {"payouts": {"s1": 110, "s2": -70}, "paid": {"s1": 35, "s2": 35},
    ...           "penalties": [{"name": "s2", "reason": "bomb_out", "amount": 70, "shortfall": 0}]}
    >>> money(record, "s1"), money(record, "s2")
    ({'put_in': 35, 'took_out': 110, 'net': 75}, {'put_in': 105, 'took_out': 0, 'net': -105})

    A game's record that gives only each player's `net` (docs/games.md) is read from it:

    >>> money({"payouts": {"s1": 15, "s2": 0}, "net": {"s1": 10, "s2": -5}}, "s1")
    {'put_in': 5, 'took_out': 15, 'net': 10}
    """
    penalty = sum(int(x.get("amount", 0)) for x in record.get("penalties") or [] if x.get("name") == sid)
    payout = int((record.get("payouts") or {}).get(sid, 0))
    paid_of, committed_of, net_of = (record.get(k) or {} for k in ("paid", "committed", "net"))
    if sid in paid_of or sid in committed_of or sid not in net_of:
        paid = int(paid_of.get(sid, committed_of.get(sid, 0)))
    else:  # all it put in is what its net leaves of its payout
        paid = payout - int(net_of[sid])
    put_in, took_out = paid + penalty, payout + penalty
    return {"put_in": put_in, "took_out": took_out, "net": took_out - put_in}


def _beaten_by(record: dict[str, Any], sid: str, name: Callable[[str], str | None],
               rules: RuleSet) -> str | None:
    """Who took the pots `sid` played for, in words ("Han's Pure Sabacc")."""
    hands = {x["name"]: x for x in record["hands"]}
    for pot in record.get("pots") or []:
        if sid in pot["eligible"] and pot["winners"] and sid not in pot["winners"]:
            w = pot["winners"][0]
            hw = hands.get(w, {})
            kind = hw.get("demise_kind") or hw.get("kind")
            total = hw.get("demise_total", hw.get("total"))
            what = str(total) if kind in _BY_TOTAL else rules.hands.words(kind)
            return f"{name(w) or w}'s {what}"
    return None


def game_runs(session: dict[str, Any]) -> list[dict[str, Any]]:
    """Which game each run of hands was: [{"first", "last", "game"}] in order."""
    runs: list[dict[str, Any]] = []
    for h in session["hands"]:
        game = h.get("game", "")
        if runs and runs[-1]["game"] == game:
            runs[-1]["last"] = h["hand"]
        else:
            runs.append({"first": h["hand"], "last": h["hand"], "game": game})
    return runs
