"""The reveal and the settlement: entering hands (checked only against what the player may
already see), the conflicts when a card is on the table too often, the settlement the game
answers (`settlement`; a tie it breaks with more cards begins there), and closing the hand into
the history."""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Protocol, Sequence

from companion.refusal import Refused
from companion.rules import cards as deck
from companion.rules.settle import InvalidReveal
from companion.table.evening import game_words
from companion.table.outcome import Told, explain, plain_why
from companion.table.play import Play
from companion.table.state import Player, hand_pot, plain


class Outcome(Protocol):
    """What a game's settlement of a reveal answers (`Reveal.settlement`): the players a tie
    needs one more card from (none once settled), what each player receives or pays, the
    sabacc pot after (None while tied), and the record of it as JSON."""

    @property
    def tie_players(self) -> Sequence[str]: ...

    @property
    def payouts(self) -> Mapping[str, int]: ...

    @property
    def sabacc_pot_after(self) -> int | None: ...

    def to_json(self) -> dict[str, Any]: ...


class Reveal(Play):
    """The reveal and the settlement (a section of the engine's Game)."""

    def face_up(self, sid: str) -> list[str]:
        """The hand `sid` entered at the reveal, once it is face up: every live hand is, from
        the moment the last one is entered (but one being entered again after a conflict)."""
        cards = self.hand["p"][sid]["cards"]
        if cards is None:
            raise Refused(409, f"{self.name(sid)} has not entered their hand yet", None)
        return cards

    def start_reveal(self) -> None:
        h = self.hand
        h["stage"] = "reveal"
        h["betting"] = None
        h["finishing"] = None
        h["deal"] = []  # the dealer's last job is done: its words must not stay up into the reveal
        self.emit("reveal_started", players=self.live())

    def cmd_reveal(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.who(f, actor)
        if not self.in_hand() or self.hand["stage"] != "reveal":
            raise Refused(409, "it is not the reveal", None)
        h = self.hand
        p = self.in_play(sid)
        if h["revealed"] and p["cards"] is not None:
            raise Refused(409, "your hand is already face up: it cannot change now", None)
        public = [x for x in self.live() if h["revealed"] and x not in h["reentry"]]
        entered = []
        for i, c in enumerate(f["cards"]):
            try:
                entered.append(self.rules.deck.normalize(c))
            except deck.UnknownCard as exc:
                raise Refused(422, str(exc), f"cards[{i}]") from None
        for i, c in enumerate(entered):
            self.need_in_play_deck(c, f"cards[{i}]")
        # The entry is the whole hand, or the hand without its kept cards (filled in here).
        # Decided by the count, not by matching codes: with two copies of a face card, the
        # second copy in the hand is not the one lying face up.
        n, kept, where = p["hand_size"], self.kept(sid), self.kept_words()
        if len(entered) == n:
            full = entered
            missing = Counter(kept) - Counter(entered)
            if missing:
                raise Refused(422, f"your {where}'s {', '.join(sorted(missing))} is part of "
                                   f"your hand: enter it too", "cards")
        elif kept and len(entered) + len(kept) == n:
            full = entered + list(kept)
        else:
            extra = f" (your {where} {', '.join(kept)} included)" if kept else ""
            raise Refused(422, f"the table counts {n} cards in your hand{extra}; you entered "
                               f"{len(entered)}", "cards")
        try:
            self.rules.deck.check_copies(full)
        except deck.TooManyCopies as exc:
            raise Refused(422, str(exc), "cards") from None
        # Checked against what this seat may already see: every player's kept cards, and the other
        # hands only once they are face up. A refusal naming a card another seat entered
        # would let a player read that hand by entering card after card.
        others: list[str] = []
        for other, q in h["p"].items():
            if other == sid or q["folded"]:
                continue
            others += self.face_up(other) if other in public else self.kept(other)
        if h["discard_top"] is not None:
            others.append(h["discard_top"])  # a face-up discard pile's top card is on the table
        try:
            self.rules.deck.check_copies(full + others)
        except deck.TooManyCopies as exc:
            raise Refused(422, f"{exc.code} would be on the table {exc.count} times but the deck "
                               f"has {exc.copies}: check your cards", "cards") from None
        p["cards"] = full
        self.emit("cards_entered", seat=sid)
        if all(h["p"][x]["cards"] is not None for x in self.live()):
            h["revealed"] = True
            h["reentry"] = []
            self.emit("revealed", hands={x: list(self.face_up(x)) for x in self.live()})
            if not self.reveal_conflict():
                self.settle_hand()

    def reveal_conflict(self) -> bool:
        """With every hand face up: if a card is on the table more often than the deck holds,
        the players who hold it outside their kept cards enter their hands again (the
        others' hands stand). True if there was such a card."""
        h = self.hand
        count = Counter(c for x in self.live() for c in self.face_up(x))
        over = sorted(c for c, n in count.items() if n > self.rules.deck.cards[c].copies)
        if not over:
            return False
        seats = [x for x in self.live()
                 if any(c in over for c in (Counter(self.face_up(x)) - Counter(self.kept(x))))]
        for x in seats:
            h["p"][x]["cards"] = None
        h["reentry"] = list(seats)
        names = " and ".join(self.name(x) for x in seats)
        self.emit("reveal_conflict", cards=over, seats=seats,
                  message=f"{', '.join(over)}: more copies on the table than the deck holds. "
                          f"{names}: check your cards and enter them again.")
        return True

    def judged_with(self, sid: str) -> dict[str, Any]:
        """What else a game's settlement reads of `sid` at the reveal, beside its name, cards,
        commitment, fees, stack, fold and call (a side the player plays, community cards, a tie
        card); by default nothing."""
        return {}

    def settlement(self, reveals: list[dict[str, Any]], sabacc_pot: int) -> Outcome:
        """The game's settlement of the reveal: `reveals` holds each player's, in seat order
        (`name`, `cards`, `committed`, `fees`, `stack`, `folded`, `called` and what
        `judged_with` adds); raises `InvalidReveal` for one it cannot settle. A game that
        settles a reveal answers it; the runtime settles none of its own."""
        raise Refused(409, "these rules settle no reveal", None)

    def tie_cards_in(self) -> None:
        """Every tied player's card is in (the game's tie-card move), before the judge reads the
        hands again: a game whose tie cards add up says where each goes; by default they
        stay where they were entered."""

    def tie_moves(self, sid: str) -> list[dict[str, Any]]:
        """`sid`'s moves of a tie broken with more cards (`tie_draw.TieDraw`), listed last,
        each with its words; by default none."""
        return []

    def tie_player_view(self, sid: str) -> dict[str, Any]:
        """What a hand's view adds of `sid`'s tie card (`tie_draw.TieDraw`); by default nothing."""
        return {}

    def tie_hand_view(self) -> dict[str, Any]:
        """What a hand's view adds of a tie (`tie_draw.TieDraw`); by default nothing."""
        return {}

    def tie_private(self, sid: str) -> dict[str, Any]:
        """What `sid`'s own view adds of its tie card (`tie_draw.TieDraw`); by default nothing."""
        return {}

    def tie_begins(self, players: list[str]) -> None:
        """The judge found `players` tied: the game's tie break with one more card each
        begins (the hand's tie stage, where each enters a card). A game without
        one refuses."""
        raise Refused(409, "the settlement asked for a tie break these rules do not have", None)

    def settle_hand(self) -> None:
        """Settle with the game's settlement and move the stacks and the sabacc pot."""
        h, s = self.hand, self.s
        reveals = []
        for sid in h["players"]:
            p = h["p"][sid]
            reveals.append({
                **self.judged_with(sid),
                "name": sid,
                "cards": tuple(p["cards"] or ()) if not p["folded"] else (),
                "committed": p["committed"],
                "fees": p["fees"],
                "stack": s["seats"][sid]["stack"],
                "folded": p["folded"],
                "called": sid == h["called_by"],
            })
        try:
            result = self.settlement(reveals, s["sabacc_pot"])
        except InvalidReveal as exc:
            raise Refused(422, exc.message, "cards") from None
        if result.tie_players:
            # A tie the game breaks with more cards: the tied players each enter one (the
            # game says how they come by it).
            self.tie_begins(list(result.tie_players))
            return
        committed = hand_pot(h)
        paid = sum(result.payouts.get(sid, 0) for sid in h["players"])
        pot_after = result.sabacc_pot_after  # None only for a tie broken with more cards
        if pot_after is None or paid + pot_after != committed + s["sabacc_pot"]:
            raise Refused(409, "the settlement does not add up; nothing was changed", None)
        for sid in h["players"]:
            s["seats"][sid]["stack"] += result.payouts.get(sid, 0)
            if s["seats"][sid]["stack"] < 0:
                raise Refused(409, "the settlement would leave a negative stack", None)
        s["sabacc_pot"] = pot_after
        record = self.told(plain(result.to_json()))
        h["settlement"] = record
        self.emit("settled", settlement=record,
                  stacks={sid: s["seats"][sid]["stack"] for sid in h["players"]},
                  sabacc_pot=s["sabacc_pot"])
        self.end_hand()

    def told(self, record: dict[str, Any]) -> dict[str, Any]:
        """The settlement record with why each hand won or lost (in the game's words, with
        what its `why_of` adds) and each player's net (outcome.explain)."""
        h, s = self.hand, self.s
        start = h["stacks_start"]
        played = {sid: {"cards": h["p"][sid]["cards"] if not h["p"][sid]["folded"] else None,
                        "committed": h["p"][sid]["committed"],
                        "paid": (start[sid] - s["seats"][sid]["stack"] + record.get("payouts", {}).get(sid, 0)
                                 if sid in start else h["p"][sid]["committed"]),
                        **self.played_facts(sid)}
                  for sid in h["players"]}
        return explain(record, played, self.rules, lambda sid: self.name(sid), self.why_of)

    def played_facts(self, sid: str) -> dict[str, Any]:
        """What a game's `why_of` reads of `sid`'s hand besides its cards and money; by
        default nothing."""
        return {}

    def why_of(self, x: dict[str, Any], told: Told) -> str:
        """Why hand `x` of a settlement won or lost, in the game's words (it may add its own
        facts to `x`); by default `outcome.plain_why`."""
        return plain_why(x, told)

    def end_hand(self) -> None:
        """Close the hand: history, the stack chart, and the dealer (or token) moves left."""
        h, s = self.hand, self.s
        h["stage"] = "settled"
        h["betting"] = None
        h["deal"] = []
        # face-up hands only: a folded or conceding hand was never shown
        stacks = self.record_hand({sid: _shown(h["p"][sid]) if h["revealed"] else None for sid in h["players"]},
                                  game_words(self.rules))
        order = s["order"]
        current = h["token"] if self.rules.house_dealer else h["dealer"]
        if current in order and len(order) > 1:
            following = order[(order.index(current) + 1) % len(order)]
            if self.rules.house_dealer:
                s["token"] = following
            else:
                s["dealer"] = following
        self.emit("hand_ended", hand=h["no"], stacks=stacks, sabacc_pot=s["sabacc_pot"])


def _shown(p: Player) -> list[str] | None:
    """A player's hand as the history keeps it: the cards entered, unless they folded (a
    folded or conceding hand was never shown)."""
    return list(p["cards"]) if p["cards"] is not None and not p["folded"] else None
