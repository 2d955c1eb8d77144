"""Corellian Spike's survivor at the live table (RULES-SPIKE.md): when everyone else has
dropped out, the last player left takes the pots and may show their hand for the sabacc pot
too (a hand that takes it takes it), or keep it hidden; the sabacc pot then carries over.

This section owns the "show" stage that follows the concession, its two moves (`show`,
`no_show`) with their checks, words and schemas, and the turn line while it waits.
"""

from __future__ import annotations

from typing import Any

from companion.refusal import Refused
from companion.rules import cards as deck
from companion.table.commands import CARD, FOR_SEAT, obj
from companion.table.offers import cards_input, offer
from companion.table.play import Play

#: The survivor's moves -> the JSON Schema of their fields.
COMMANDS: dict[str, dict[str, Any]] = {
    "show": obj({**FOR_SEAT, "cards": {"type": "array", "items": CARD, "maxItems": 60}}, ("cards",)),
    "no_show": obj(dict(FOR_SEAT)),
}


class SurvivorShows(Play):
    """The survivor's choice to show a hand for the sabacc pot (a section of `SpikeHand`)."""

    def after_concede(self, winner: str) -> bool:
        """Where the ranking lets the survivor show (`HandRanking.last_player_shows`) and the
        sabacc pot holds credits, the hand waits in the "show" stage for their choice."""
        h = self.hand
        if not (self.rules.hands.last_player_shows and self.s["sabacc_pot"] > 0):
            return False
        h["stage"] = "show"
        self.emit("step", round=h["round"], phase="show", seat=winner, do="show")
        return True

    def survivor(self, f: dict[str, Any], actor: str | None) -> tuple[str, dict[str, Any]]:
        """The last player left, who may show a hand for the sabacc pot now, and the hand's
        settlement (the pots they took uncontested)."""
        h = self.s["hand"]
        record = h["settlement"] if h is not None and h["stage"] == "show" else None
        if record is None:
            raise Refused(409, "nobody is showing a hand now", None)
        sid = self.who(f, actor)
        if sid != record["winner"]:
            raise Refused(409, f"only {self.name(record['winner'])} may show a hand", None)
        return sid, record

    def cmd_show(self, f: dict[str, Any], actor: str | None) -> None:
        """The survivor shows their hand: one that takes the sabacc pot (totalling 0) takes
        it too; any other leaves it to carry over."""
        sid, record = self.survivor(f, actor)
        h, rules = self.hand, self.rules
        codes = []
        for i, c in enumerate(f["cards"]):
            try:
                codes.append(rules.deck.normalize(c))
            except deck.UnknownCard as exc:
                raise Refused(422, str(exc), f"cards[{i}]") from None
        n = h["p"][sid]["hand_size"]
        if len(codes) != n:
            raise Refused(422, f"the table counts {n} cards in your hand; you entered {len(codes)}", "cards")
        try:
            top = h["discard_top"]
            rules.deck.check_copies(codes + ([top] if top is not None else []))
        except deck.TooManyCopies as exc:
            raise Refused(422, f"{exc}: check your cards", "cards") from None
        shown = rules.hands.evaluate(rules, codes)
        amount = self.s["sabacc_pot"] if shown.kind in rules.hands.sabacc_pot_kinds else 0
        self.s["seats"][sid]["stack"] += amount
        self.s["sabacc_pot"] -= amount
        payouts = {**record["payouts"], sid: record["payouts"][sid] + amount}
        # The shown hand is face up: the result rows and the history show its cards, and the
        # net is told again with the sabacc pot it took.
        h["p"][sid]["cards"] = codes
        h["revealed"] = True
        h["settlement"] = self.told({k: v for k, v in record.items() if k not in ("committed", "paid", "net")}
                                    | {"payouts": payouts,
                                       "shown": {"cards": codes, "kind": str(shown.kind), "total": shown.total,
                                                 "sabacc_pot": amount}})
        self.emit("shown", seat=sid, cards=codes, kind=shown.kind, total=shown.total, sabacc_pot=amount)
        self.end_hand()

    def cmd_no_show(self, f: dict[str, Any], actor: str | None) -> None:
        """The survivor keeps their hand hidden: the sabacc pot carries over."""
        self.survivor(f, actor)
        self.end_hand()

    def survivor_moves(self, sid: str) -> list[dict[str, Any]]:
        """The survivor's two moves while the hand waits for them (with their words)."""
        h = self.s["hand"]
        if not (h and h["stage"] == "show" and h["settlement"] is not None and h["settlement"]["winner"] == sid):
            return []
        n = h["p"][sid]["hand_size"]
        return [offer({"type": "show", "hand_size": n}, "Show my hand", "primary",
                      inputs=[cards_input("cards", self.rules, n, "Your hand")]),
                offer({"type": "no_show"}, "Keep my hand hidden")]

    def survivor_words(self, viewer: str | None, who: Any) -> str | None:
        """The turn line while the hand waits for the survivor; None at any other stage."""
        h = self.hand
        if h["stage"] != "show" or h["settlement"] is None:
            return None
        # Everyone else dropped out: the table waits for the survivor to show or not.
        winner = h["settlement"]["winner"]
        whose = "your" if winner == viewer else "their"
        return (f"{who(winner)}: everyone else {self.rules.words.folded}. Show {whose} hand "
                f"for the sabacc pot, or keep it hidden.")
