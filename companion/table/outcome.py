"""A settled hand told to the players: why each hand won or lost, and what each player gained
(net) beside what they were paid (payout).

`explain` adds these to the settlement record the engine keeps (the hand's `settlement` and its
history row), so the phones, the display and the history page all read the same words and none
of them works the outcome out again. Each game's engine writes its hands' `why` (`plain_why`
by default: a game's own tie or penalty words are its own)::

    >>> from companion.games.registry import presets
    >>> record = {"status": "settled", "payouts": {"s1": 40, "s2": 0},
    ...           "hands": [{"name": "s1", "total": 19, "kind": "ordinary"},
    ...                     {"name": "s2", "total": 17, "kind": "ordinary"}],
    ...           "pots": [{"amount": 40, "eligible": ["s1", "s2"], "winners": ["s1"],
    ...                     "to_sabacc_pot": False}], "sabacc_pot_winners": []}
    >>> played = {"s1": {"cards": ["co10", "sa9"], "committed": 20},
    ...           "s2": {"cards": ["fl10", "st7"], "committed": 20}}
    >>> out = explain(record, played, next(iter(presets().values())), {"s1": "Leia", "s2": "Luke"}.get)
    >>> [x["why"] for x in out["hands"]], out["net"]
    (['wins the hand pot', "lost to Leia's 19"], {'s1': 20, 's2': -20})
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from companion.rules.rulesets import RuleSet


def pot_labels(pots: list[dict[str, Any]], pot: str = "hand pot") -> list[str]:
    """Each pot's name as the table says it: the game's pot (`pot`: "hand pot", or the game's own word)
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


@dataclass(frozen=True)
class Told:
    """What a game's `why` reads to tell one hand of a settlement: the record, each seat's
    `played` facts, the rules, seat id -> name, the pots each winner took (in words) and the
    penalties by seat."""

    record: dict[str, Any]
    played: dict[str, dict[str, Any]]
    rules: RuleSet
    name: Callable[[str], str | None]
    won: dict[str, list[str]]
    penalty: dict[str, dict[str, Any]]


def explain(record: dict[str, Any], played: dict[str, dict[str, Any]], rules: RuleSet,
            name: Callable[[str], str | None],
            why: Callable[[dict[str, Any], Told], str] | None = None) -> dict[str, Any]:
    """`record` (a settlement's JSON) with, for each hand, `why` it won or lost (in words the
    game's `why` writes, which may add its own facts to the hand: `plain_why` by default);
    and for the hand, each seat's `committed` and `net`: the payout less all the player put
    in this hand (`paid`: the antes to both pots, bets and a fold fee; `committed` when not
    given). `played`: seat -> {"cards", "committed", "paid"?, ...the game's own facts}. The
    record itself is not changed."""
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
    told = Told(record, played, rules, name, won, {x["name"]: x for x in record.get("penalties") or []})
    hands = []
    for x in record["hands"]:
        x = dict(x)
        x["why"] = (why or plain_why)(x, told)
        hands.append(x)
    out["hands"] = hands
    return out


def plain_why(x: dict[str, Any], told: Told) -> str:
    """Why hand `x` won or lost, in words: the pots it took, a fold, or who beat it; and a
    penalty it paid."""
    sid = x["name"]
    parts = []
    if sid in told.won:
        parts.append("wins " + " and ".join(told.won[sid]))
    elif x["kind"] == "folded":
        parts.append(told.rules.words.folded)
    else:
        best = beaten_by(told, sid)
        if best:
            parts.append(f"lost to {best}")
    if sid in told.penalty:
        fine = told.penalty[sid]
        parts.append(f"{str(fine['reason']).replace('_', ' ')}: pays {fine['amount']}")
    return "; ".join(parts) or "—"


def money(record: dict[str, Any], sid: str) -> dict[str, int]:
    """What `sid` put into a settled hand and took out of it, as the evening's summary shows
    them: `put_in` is every credit that left the stack for the hand (the antes to both pots,
    bets, fees, what dropping out cost, and a penalty paid at the settlement); `took_out`
    every credit that came back (the pots and the sabacc pot won); `net` = took_out − put_in,
    the change of the stack over the hand. A penalty is a payout below 0 in the record: here
    it is counted as put in, so that neither figure is ever below 0.

    >>> record = {"payouts": {"s1": 110, "s2": -70}, "paid": {"s1": 35, "s2": 35},
    ...           "penalties": [{"name": "s2", "reason": "over the limit", "amount": 70, "shortfall": 0}]}
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


def beaten_by(told: Told, sid: str, by_total: frozenset[str] = frozenset({"ordinary"}),
              shown: Callable[[dict[str, Any]], tuple[Any, Any]] = lambda hw: (hw.get("kind"), hw.get("total"))) \
        -> str | None:
    """Who took the pots `sid` played for, in words ("Han's Pure Sabacc"): a hand of a kind in
    `by_total` by its total ("Han's 19"); `shown(hand)`: the kind and total the winner's hand
    ended with (a game whose tie changes them says so)."""
    hands = {x["name"]: x for x in told.record["hands"]}
    for pot in told.record.get("pots") or []:
        if sid in pot["eligible"] and pot["winners"] and sid not in pot["winners"]:
            w = pot["winners"][0]
            kind, total = shown(hands.get(w, {}))
            what = str(total) if kind in by_total else told.rules.hands.words(kind)
            return f"{told.name(w) or w}'s {what}"
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
