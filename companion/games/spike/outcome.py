"""Why each hand of a Corellian Spike settlement won or lost, in words (the shared
`outcome.explain` asks `SpikeHand.why_of`): a blind draw's cards, kept in the hand's row and
told with the rivals' ("tied with Finn; lost the blind draw: −2 against Finn's +2").
"""

from __future__ import annotations

from typing import Any

from companion.table.outcome import Told, beaten_by

#: Kinds told by their total rather than their name ("lost to Han's −3").
BY_TOTAL = frozenset({"nulrhek"})


def blind_draw_words(sid: str, told: Told) -> str:
    """How `sid`'s blind draw went, in words ("tied with Finn; lost the blind draw: −2 against
    Finn's +2"), with every card drawn, one a draw; "" for a player who drew no card. Their
    rivals are the other drawers whose hands rank the same (a tie of a side pot is its own)."""
    played, rules, name, won = told.played, told.rules, told.name, told.won
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


def why(x: dict[str, Any], told: Told) -> str:
    """Why Spike hand `x` won or lost; adds the cards of its blind draw, if it drew."""
    sid = x["name"]
    parts = []
    drew = blind_draw_words(sid, told)
    if drew:
        x["blind_draw"] = list(told.played[sid]["blind_draw"])
        parts.append(drew)
    if sid in told.won:
        parts.append("wins " + " and ".join(told.won[sid]))
    elif x["kind"] == "folded":
        parts.append(told.rules.words.folded)
    elif not drew:  # lost the blind draw: said above, with the cards that beat theirs
        best = beaten_by(told, sid, BY_TOTAL)
        if best:
            parts.append(f"lost to {best}")
    return "; ".join(parts) or "—"
