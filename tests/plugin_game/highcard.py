"""High card: a game defined only in tests/, played at a live table as a plug-in would be.

Everyone antes, one betting round (the runtime's betting block: check, bet, call, raise,
all-in, fold), then each player still in shows one card of a ten-card suit; the highest card
takes the pot, equal highest cards split it (odd credits to the first in seat order). It is
found through `highcard-0.1.dist-info/entry_points.txt` beside it, as a pip-installed game
would be (the tests put this folder on `sys.path`, or on `PYTHONPATH` for a server they
start); nothing outside tests/ knows it. docs/games.md walks through it.

    >>> GAME.name, list(GAME.presets), GAME.rules_from({"preset": "highcard", "ante": 2}).ante
    ('highcard', ['highcard', 'highcard-big'], 2)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from companion.games.api import Game, InvalidRules, Section
from companion.refusal import Refused
from companion.rules.game import GameWords
from companion.rules.rulesets import Chip
from companion.table.betting import Betting
from companion.table.commands import COMMANDS, HOST, SESSION_COMMANDS
from companion.table.evening import Evening
from companion.table.play import Refusal, sure
from companion.table.seats import Seats
from companion.table.state import hand_pot, new_hand, pots_of, rotate

#: The cards: one suit, 1 to 10 (a player shows one).
CARDS = tuple(str(v) for v in range(1, 11))

#: The words the pages say that are this game's own (a tie splits; no tie card, no bomb-out).
WORDS = GameWords(pot="pot", tie="split pot", tie_card="", tie_started="", over_limit="")
#: Its stages as the host's console says them.
STAGE_WORDS = {"play": "betting", "reveal": "showing cards", "settled": "settled"}


@dataclass(frozen=True)
class HighCardRules:
    """High card's rules: the preset's name and words, the ante and the betting limit."""

    name: str
    title: str
    summary: str
    ante: int = 1
    bet_limit: int | None = None
    buy_in: int = 0
    source: str = "tests/plugin_game/highcard.py"
    # What the runtime's sections read of any game's rules (docs/games.md).
    overrides: tuple[str, ...] = ()
    house_dealer: bool = False
    chip_set: tuple[Chip, ...] = (Chip("gold", 10, 2), Chip("silver", 1, 10))
    fold_fee: int = 0
    live_table: bool = True
    words: GameWords = WORDS

    def to_json(self) -> dict[str, Any]:
        """The rules as a view carries them."""
        return {k: v for k, v in asdict(self).items() if k not in ("chip_set", "words")} | \
            {"words": asdict(self.words), "stage_words": STAGE_WORDS}


def _whole(low: int, high: int) -> Any:
    def parse(v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise ValueError(f"must be a whole number from {low} to {high}")
        return v
    return parse


PRESETS = {
    "highcard": HighCardRules("highcard", "High card", "Ante 1, one betting round, the highest card wins."),
    "highcard-big": HighCardRules("highcard-big", "High card, big ante", "Ante 5, bets up to 20.",
                                  ante=5, bet_limit=20),
}
OPTIONS = {"ante": _whole(1, 100), "bet_limit": _whole(1, 1000)}


def rules_from(spec: Any, field: str = "rules") -> HighCardRules:
    """High card's rules from a preset name or {"preset": name, **options} (the registry has
    checked the preset and the option names and values)."""
    spec = {"preset": spec} if isinstance(spec, str) else dict(spec)
    rules = PRESETS[spec.pop("preset")]
    rules = replace(rules, **{k: OPTIONS[k](v) for k, v in spec.items()},
                    overrides=tuple(sorted(spec)))
    if rules.bet_limit is not None and rules.bet_limit < rules.ante:
        raise InvalidRules("the bet limit is at least the ante", f"{field}.bet_limit")
    return rules


def explain(rules: HighCardRules) -> list[Section]:
    """The rules page."""
    limit = f"up to {rules.bet_limit}" if rules.bet_limit else "any amount"
    return [Section("play", "How to play", (
        f"Everyone puts in {rules.ante}, takes one card face down, and bets once around ({limit}).",
        "Then everyone still in shows their card: the highest takes the pot; equal cards split it."),
        varies=True)]


class HighCardHand(Evening, Seats, Betting):
    """The live table's engine: the runtime's session, seats and betting sections, and High
    card's own hand (its start, its one betting round, the shown cards and the settlement)."""

    COMMANDS = {**{k: COMMANDS[k] for k in SESSION_COMMANDS},
                **{k: COMMANDS[k] for k in ("check", "bet", "call", "raise", "all_in", "fold")},
                "show_card": {"type": "object", "additionalProperties": False, "required": ["card"],
                              "properties": {"seat": {"type": "string"},
                                             "card": {"type": "string", "enum": list(CARDS)}}}}

    #: A shown card is secret until every card is in: the audit log shows it only to its seat.
    HIDDEN_FIELDS = {"show_card": ("card",)}
    SHOWN_BY = {"show_card": ("settled", "hand_ended")}

    # -- the hand ---------------------------------------------------------------------------

    def check_start_hand(self, f: dict[str, Any], actor: str | None) -> list[str] | Refusal:
        """The players who can pay the ante, or why no hand can start."""
        refusal = self.not_ended() or self.between_hands()
        if refusal is not None:
            return refusal
        players = [sid for sid in self.s["order"] if not self.s["seats"][sid]["sitting_out"]
                   and self.stack(sid) >= self.rules.ante]
        if len(players) < 2:
            return Refusal(409, "a hand needs at least two players who can pay the ante")
        return players

    def cmd_start_hand(self, f: dict[str, Any], actor: str | None) -> None:
        able = sure(self.check_start_hand(f, actor))
        s = self.s
        order = s["order"]
        dealer = s["dealer"] if s["dealer"] in able else able[0]
        players = rotate(order, able[(able.index(dealer) + 1) % len(able)], able)
        s["dealer"] = dealer
        s["hand_no"] += 1
        h = s["hand"] = new_hand(s["hand_no"], dealer, None, players, 1, f.get("seed_commitment"),
                                 s["sabacc_pot"], {sid: self.stack(sid) for sid in players})
        self.emit("hand_started", hand=h["no"], dealer=dealer, token=None, first=players[0],
                  players=list(players), deal_size=1, seed_commitment=h["seed_commitment"])
        for sid in players:
            s["seats"][sid]["stack"] -= self.rules.ante
            h["p"][sid]["committed"] = self.rules.ante
            self.emit("ante", seat=sid, hand_pot=self.rules.ante, sabacc_pot=0)
        self.open_betting({"seat": None})
        if h["betting"] is None:  # nobody can bet (all in from the ante): straight to the cards
            self.advance()

    def round_order(self) -> list[str]:
        return list(self.hand["players"])

    def advance(self) -> None:
        """The betting round is over: everyone still in shows a card."""
        self.hand["stage"] = "reveal"
        self.emit("step", round=1, phase="reveal", seat=None, do="show_card")

    def concede(self, winner: str) -> None:
        """Everyone else folded: the last player takes the pot, shows nothing."""
        h = self.hand
        amount = hand_pot(h)
        self.s["seats"][winner]["stack"] += amount
        words = f"{self.name(winner)} takes {amount}: everyone else folded."
        self.settled({"status": "conceded", "winner": winner, "winners": [winner], "amount": amount,
                      "payouts": {sid: amount if sid == winner else 0 for sid in h["players"]}, "words": words})
        self.emit("conceded", seat=winner, amount=amount, words=words)

    def check_show_card(self, f: dict[str, Any], actor: str | None) -> str | Refusal:
        """The seat showing a card, or why it may not now."""
        sid = self.who(f, actor)
        h = self.need_hand()
        if h["stage"] != "reveal":
            return Refusal(409, "cards are shown after the betting")
        self.in_play(sid)
        if h["p"][sid]["cards"] is not None:
            return Refusal(409, "you have shown your card")
        return sid

    def cmd_show_card(self, f: dict[str, Any], actor: str | None) -> None:
        sid = sure(self.check_show_card(f, actor))
        h = self.hand
        h["p"][sid]["cards"] = [f["card"]]
        # Face down until every card is in: the event says who, not which card (the audit log
        # hides it too: HIDDEN_FIELDS).
        self.emit("card_shown", seat=sid, words=f"{self.name(sid)} has shown a card.")
        if all(h["p"][x]["cards"] is not None for x in self.live()):
            self.settle()

    def settle(self) -> None:
        """The highest card takes the pot; equal highest split it, odd credits in seat order."""
        h = self.hand
        h["revealed"] = True
        live = self.live()
        top = max(int(h["p"][sid]["cards"][0]) for sid in live)
        winners = [sid for sid in live if int(h["p"][sid]["cards"][0]) == top]
        pot = hand_pot(h)
        share, odd = divmod(pot, len(winners))
        payouts = {sid: 0 for sid in h["players"]}
        for i, sid in enumerate(winners):
            payouts[sid] = share + (1 if i < odd else 0)
            self.s["seats"][sid]["stack"] += payouts[sid]
        names = " and ".join(self.name(sid) for sid in winners)
        words = f"{names} {'wins' if len(winners) == 1 else 'split'} {pot} with {top}."
        self.settled({"status": "won" if len(winners) == 1 else "split", "winners": winners,
                      "amount": pot, "payouts": payouts, "words": words})
        self.emit("settled", winners=winners, payouts=payouts,
                  cards={sid: h["p"][sid]["cards"][0] for sid in live}, words=words)

    def settled(self, record: dict[str, Any]) -> None:
        """Close the hand with its settlement (history, stack chart, the dealer moves on)."""
        h, s = self.hand, self.s
        # `words`: the result as every screen says it; `net`: what each player gained or lost.
        h["settlement"] = {**record, "net": {sid: record["payouts"].get(sid, 0) - h["p"][sid]["committed"]
                                              for sid in h["players"]}}
        h["stage"], h["betting"] = "settled", None
        stacks = self.record_hand({sid: h["p"][sid]["cards"] if h["revealed"] else None
                                   for sid in h["players"]}, self.rules.title)
        order = s["order"]
        if h["dealer"] in order:
            s["dealer"] = order[(order.index(h["dealer"]) + 1) % len(order)]
        self.emit("hand_ended", hand=h["no"], stacks=stacks, sabacc_pot=s["sabacc_pot"])

    def end_hand(self) -> None:
        raise AssertionError("High card closes its hands in `settled`")

    # -- what the table reads -------------------------------------------------------------

    def pots_held(self) -> int:
        h = self.s["hand"]
        return 0 if h is None or h["stage"] == "settled" else hand_pot(h)

    def ante_due(self) -> int:
        return self.rules.ante

    def roll_due(self, entry: dict) -> None:
        return None  # no dice in this game

    def turn_words(self, viewer: str | None) -> str | None:
        h = self.s["hand"]
        if h is None or h["stage"] == "settled":
            return None
        if h["stage"] == "reveal":
            waiting = [sid for sid in self.live() if h["p"][sid]["cards"] is None]
            if viewer in waiting:
                return "You: show your card."
            return "Showing cards: " + ", ".join(self.name(sid) for sid in waiting) + "."
        b = h["betting"]
        if b is None:
            return None
        who = "You" if b["to_act"] == viewer else self.name(b["to_act"])
        return f"{who}: check, bet or fold." if b["current"] == 0 else \
            f"{who}: call {b['current'] - h['p'][b['to_act']]['bet']}, raise or fold."

    def hand_view(self, viewer: str | None) -> dict[str, Any] | None:
        h = self.s["hand"]
        if h is None:
            return None
        b = h["betting"]
        return {
            "no": h["no"], "stage": h["stage"], "round": 1, "phase": None, "turn": None,
            "do": "bet" if b else None, "roller": None,
            "to_act": b["to_act"] if b else None, "current_bet": b["current"] if b else 0,
            "owed": b["current"] - h["p"][b["to_act"]]["bet"] if b else 0,
            "call_open": False, "call_window": [], "deal": [],
            "words": self.turn_words(viewer), "called_by": None, "dealer": h["dealer"], "token": None,
            "players": [{"seat": sid, "committed": p["committed"], "bet": p["bet"], "folded": p["folded"],
                         "all_in": not p["folded"] and sid in self.s["seats"] and self.stack(sid) == 0,
                         "hand_size": 1, "static": [], "entered": p["cards"] is not None,
                         "cards": list(p["cards"]) if h["revealed"] and p["cards"] else None,
                         "demise": None}
                        for sid, p in ((sid, h["p"][sid]) for sid in h["players"])],
            "hand_pot": 0 if h["stage"] == "settled" else hand_pot(h),
            "pots": pots_of(h, {sid: seat["stack"] for sid, seat in self.s["seats"].items()}),
            "seed_commitment": h["seed_commitment"], "seed": h["seed"], "settlement": h["settlement"],
        }

    def private(self, sid: str, legal: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        h = self.s["hand"]
        mine = h["p"].get(sid) if h else None
        return {"seat": sid, "cards": list(mine["cards"]) if mine and mine["cards"] else None,
                "legal": self.legal(sid) if legal is None else legal}

    def legal(self, sid: str) -> list[dict[str, Any]]:
        """Each move `sid` may make now, with its words and inputs (the pages draw them)."""
        out: list[dict[str, Any]] = []
        h = self.s["hand"]
        b = h["betting"] if h else None
        if h is not None and h["stage"] == "play" and b is not None and b["to_act"] == sid:
            p, stack = h["p"][sid], self.stack(sid)
            limit = self.rules.bet_limit or stack
            if b["current"] == 0:
                out.append({"type": "check", "words": "Check", "style": "", "confirm": False, "inputs": []})
                if stack:
                    out.append({"type": "bet", "min": 1, "max": min(stack, limit), "words": "Bet",
                                "style": "primary", "confirm": False,
                                "inputs": [{"field": "amount", "kind": "amount", "min": 1,
                                            "max": min(stack, limit), "words": "How much"}]})
            else:
                owed = b["current"] - p["bet"]
                if owed <= stack:
                    out.append({"type": "call", "amount": owed, "words": f"Call {owed}", "style": "primary",
                                "confirm": False, "inputs": []})
                hi = min(b["current"] + limit, p["bet"] + stack)
                if hi > b["current"]:
                    out.append({"type": "raise", "min_to": b["current"] + 1, "max_to": hi, "words": "Raise to",
                                "style": "", "confirm": False,
                                "inputs": [{"field": "to", "kind": "amount", "min": b["current"] + 1,
                                            "max": hi, "words": "Raise to"}]})
            out.append({"type": "fold", "words": "Fold", "style": "danger", "confirm": True, "inputs": []})
        if h is not None and self.allows_show(sid):
            out.append({"type": "show_card", "words": "Show my card", "style": "primary", "confirm": False,
                        "inputs": [{"field": "card", "kind": "choice", "words": "Your card",
                                    "options": [[c, c] for c in CARDS]}]})
        return out  # the table adds the session's moves (sitting out or in, buying in, cashing out, leaving)

    def allows_show(self, sid: str) -> bool:
        """Whether `sid` may show its card now (the command's own check, read-only)."""
        try:
            return not isinstance(self.check_show_card({}, sid), Refusal)
        except Refused:
            return False

    def host_legal(self) -> list[str]:
        return ["start_hand"] if self.allows("start_hand", {}, HOST) else []


def _engine() -> type:
    return HighCardHand


#: High card as the registry finds it.
GAME = Game(name="highcard", title="High card", summary="One card each, one betting round; the highest wins.",
            presets=PRESETS, options=OPTIONS, rules_from=rules_from, engine=_engine, decks={},
            explain=explain, by_hand=True, own_words=frozenset({"high card"}))
