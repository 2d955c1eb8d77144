"""Kessel's facts as the pages show them (docs/games.md, "Facts"): the discard piles' top cards
and what is left to draw, the token effects in force (the table's); each seat's stock,
invested chips and tokens left (the seat lists'); a seat's own unplayed tokens (its own view
only: they are its secret until played, K29).

Each reads Kessel's state of the game (`KesselTable.game()`, the hand's ``"game"`` key) and
names the seats through `name`; nothing here changes the state.

>>> g = {"stage": "turns", "round": 1, "turn": 2, "in_game": ["s1", "s2"], "out": {},
...      "chips": {"s1": {"stock": 5, "invested": 1}, "s2": {"stock": 6, "invested": 0}},
...      "tokens": {"s1": ["refund"], "s2": []}, "chosen": ["s1"], "discards": {"sand": ["s3"], "blood": []},
...      "draw_left": {"sand": 20, "blood": 21}, "immune": [], "embargo": None,
...      "effects": {"major_fraud": False, "markdown": True, "cook_the_books": False, "prime_sabacc": None}}
>>> [(f["words"], f["value"]) for f in table_facts(g, str)]
... # doctest: +NORMALIZE_WHITESPACE
[('Discard piles', 'Sand 3 · Blood: empty'), ('Draw piles', 'Sand 20 · Blood 21'),
 ('In force', 'Markdown: a Sylop is 0 instead of copying; two Sylops are still Pure Sabacc')]
>>> [(f["words"], f["value"]) for f in seat_facts(g)["s1"]]
[('stock', 5), ('invested', 1), ('tokens', 1)]
>>> own_facts(g, "s1")[0]["value"]
'Refund'
"""

from __future__ import annotations

from typing import Any, Callable

from companion.games.api import fact
from companion.games.kessel.cards import name as card_name
from companion.games.kessel.tokens import TOKEN_BY_CODE

#: The judging effects (K33, K35) as the state keeps them, in the order the pages list them.
_JUDGING = ("major_fraud", "markdown", "cook_the_books")


def table_facts(g: dict[str, Any], name: Callable[[str], str]) -> list[dict[str, Any]]:
    """The table's facts: both discard piles' top cards, the cards left in both draw piles, and
    each token effect in force (K33–K35: judging effects, Prime Sabacc's value, Immunity,
    Embargo). The round and turn are the turn's words (`KesselTable.turn_words`)."""
    # One line each for the discard piles and the draw piles: a phone has room for few.
    out = [fact("discards", "Discard piles", " · ".join(card_name(p[-1]) if p else f"{fam.capitalize()}: empty"
                                                        for fam, p in g["discards"].items())),
           fact("draw_piles", "Draw piles", " · ".join(f"{fam.capitalize()} {left}"
                                                      for fam, left in g["draw_left"].items()), "quiet")]
    e = g["effects"]
    for code in _JUDGING:
        if e[code]:
            t = TOKEN_BY_CODE[code]
            out.append(fact(f"effect_{code}", "In force", f"{t.name}: {t.does}"))
    if e["prime_sabacc"] is not None:
        out.append(fact("effect_prime_sabacc", "In force",
                        f"{TOKEN_BY_CODE['prime_sabacc'].name}: a Sabacc of {e['prime_sabacc']} ranks just under "
                        "Pure Sabacc"))
    for sid in g["immune"]:
        out.append(fact("effect_immunity", "In force", f"{TOKEN_BY_CODE['immunity'].name}: {name(sid)}"))
    if g["embargo"] is not None:
        out.append(fact("effect_embargo", "In force", f"{TOKEN_BY_CODE['embargo'].name}: {name(g['embargo'])} must stand"))
    return out


def seat_facts(g: dict[str, Any], tokens: bool = True) -> dict[str, list[dict[str, Any]]]:
    """Each seat of the game's facts: its chips in stock and invested, how many tokens it has
    left where the game plays tokens (the number is public, the tokens are not), and the round
    it went out in."""
    out: dict[str, list[dict[str, Any]]] = {}
    for sid, c in g["chips"].items():
        facts = [fact("stock", "stock", c["stock"]), fact("invested", "invested", c["invested"])]
        if tokens:
            facts.append(fact("tokens", "tokens", len(g["tokens"].get(sid, []))))
        if sid in g["out"]:
            facts.append(fact("out", "out in round", g["out"][sid]))
        out[sid] = facts
    return out


def own_facts(g: dict[str, Any] | None, sid: str) -> list[dict[str, Any]]:
    """What only `sid` sees of its own: its unplayed tokens, by name, once chosen (all played:
    "none left")."""
    if g is None or sid not in g["chosen"]:
        return []
    mine = [TOKEN_BY_CODE[code].name for code in g["tokens"][sid]]
    return [fact("my_tokens", "My tokens", ", ".join(mine) if mine else "none left")]
