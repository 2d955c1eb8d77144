"""What every section of the hand engine shares: one command applied to a private copy of the
state, the events it emits, and the checks that refuse it (who acts, whether a hand is on).

`Game` (companion.table.engine) is made of the sections, each a class of its own module:
seats.Seats (seats and session), turns.Turns (the turn and its draws),
betting.Betting, shifts.Shifts (rolls and shifts), reveal.Reveal (the reveal and the settlement).
A section calls another's step through `self` (the methods below that only raise name where
each lives), so no section imports another.
"""

from __future__ import annotations

from typing import Any, TypeVar

from companion.refusal import Refused
from companion.rules.rulesets import RuleSet
from companion.table.commands import (
    CHECKED,
    HOST,
    HOST_ONLY,
    SCRAMBLER,
)
from companion.table.state import Hand, OwnState, Player, Step, TableState

T = TypeVar("T")


class Refusal:
    """A refusal a read-only check (`check_<typ>`) returns rather than raises: the `Refused`
    its command raises (`sure`). Listing a seat's legal moves asks every check and most of
    them refuse; building and unwinding a `Refused` each time was a third of what a refused
    check cost. Refusals deep in the shared helpers (a seat acting for another, no hand at
    all) are still raised: the listing rarely meets them."""

    __slots__ = ("status", "error", "field")

    def __init__(self, status: int, error: str, field: str | None = None):
        self.status, self.error, self.field = status, error, field

    def refused(self) -> Refused:
        """The exception a command raises for this refusal."""
        return Refused(self.status, self.error, self.field)


def sure(answer: T | Refusal) -> T:
    """What a check found, for its command to go ahead with; its refusal raised instead."""
    if isinstance(answer, Refusal):
        raise answer.refused()
    return answer


def need(refusal: Refusal | None) -> None:
    """Raise `refusal`, if there is one (a command's use of a check that finds nothing)."""
    if refusal is not None:
        raise refusal.refused()


#: Refusals shared by more than one check (the same words wherever they are met).
PLAYING = Refusal(409, "not while you are playing a hand")
IN_HAND = Refusal(409, "not while a hand is being played")
ENDED = Refusal(409, "the session has ended")
NO_BETTING = Refusal(409, "there is no betting now")


class Play:
    """One command being applied to a private copy of the state (discarded if refused)."""

    #: The commands with a read-only check (`answer`): the runtime's, and a game's engine
    #: adds its own moves' (whose `cmd_<typ>` begins with `check_<typ>`).
    CHECKED: frozenset[str] = CHECKED

    #: The moves that leave the drawer's window after a draw open (`Hand.drew_last`): a
    #: game's engine names those of its moves a player may still make on the card just drawn.
    KEEP_DRAW_WINDOW: frozenset[str] = frozenset()

    #: The game's own fields of a hand and of each player's part of it, with their first values
    #: (`state.OwnState`, the plan's StateSchema): a new hand gets them, and so does an older
    #: snapshot's hand (`Table.from_json`).
    OWN_STATE = OwnState()

    def __init__(self, s: TableState, rules: RuleSet, chips: tuple[Any, ...]):
        self.s, self.rules, self.chips = s, rules, chips
        self.events: list[dict[str, Any]] = []
        self.dealt_now = False  # whether this command gave the dealer a job (`deal_job`)

    def emit(self, type_: str, **fields: Any) -> None:
        self.events.append({"type": type_, **fields})

    @property
    def hand(self) -> Hand:
        """The table's hand: the running one, or the latest (settled) one between hands. With
        no hand at all, the command is refused (409), never half applied: every step of the
        engine that reads the hand reads it here."""
        h = self.s["hand"]
        if h is None:
            raise Refused(409, "no hand is being played", None)
        return h

    def running(self) -> Hand | None:
        """The running hand (dealt and not yet settled), or None."""
        h = self.s["hand"]
        return h if h is not None and h["stage"] != "settled" else None

    def in_hand(self) -> bool:
        """Whether a hand is running (dealt and not yet settled)."""
        return self.running() is not None

    def plays(self, sid: str) -> bool:
        """Whether `sid` is dealt into the running hand (folded or not)."""
        h = self.running()
        return h is not None and sid in h["p"]

    def name(self, sid: str) -> str:
        return self.s["seats"][sid]["name"] if sid in self.s["seats"] else sid

    def stack(self, sid: str) -> int:
        return self.s["seats"][sid]["stack"]

    def pay(self, sid: str, amount: int) -> None:
        """Move `amount` from the seat's stack into its commitment (the hand pot)."""
        self.s["seats"][sid]["stack"] -= amount
        p = self.hand["p"][sid]
        p["committed"] += amount
        p["bet"] += amount

    def pay_fee(self, sid: str, amount: int) -> None:
        """Move `amount` from the seat's stack into the pot as a fee: no commitment level of
        its own (it is no bet), it belongs to the main pot whoever wins it."""
        self.s["seats"][sid]["stack"] -= amount
        p = self.hand["p"][sid]
        p["fees"] += amount

    def drop_out(self, sid: str) -> None:
        """`sid` leaves the hand: a fold, or a turn action that leaves the hand, in whatever
        phase (the fee is paid whenever a player drops out). Pays the rule set's fold fee,
        capped at the stack: into the sabacc pot, or, where the game says so
        (`fold_fee_into_pot`), into the hand's pot as a fee. The `folded` event names the pot
        the fee went to (`pot`) where it is not the sabacc pot, so the log's words follow the
        money. The cards go onto the discard pile."""
        h, rules = self.hand, self.rules
        p = h["p"][sid]
        fee = min(rules.fold_fee, self.stack(sid))
        into_pot = self.fold_fee_into_pot()
        if into_pot:
            self.pay_fee(sid, fee)
        else:
            self.s["seats"][sid]["stack"] -= fee
            self.s["sabacc_pot"] += fee
        p["folded"], p["folded_turn"] = True, h["turn_no"]
        h["out_of_play"] += p["hand_size"]
        self.hand_on_discard_pile()
        self.emit("folded", seat=sid, fee=fee, stack=self.stack(sid), sabacc_pot=self.s["sabacc_pot"],
                  **({"pot": rules.words.pot} if fee and into_pot else {}))

    def fold_fee_into_pot(self) -> bool:
        """Whether a fold's fee goes into the hand's pot as a fee (a game's engine says so);
        by default it goes into the sabacc pot."""
        return False

    def names_discards(self) -> bool:
        """Whether a move that discards names the card it puts on the discard pile (a face-up
        pile: `discard.PublicDiscardPile`); by default not."""
        return False

    def hand_on_discard_pile(self) -> None:
        """A whole hand went face up onto the discard pile (a fold): a game whose discard
        pile is public says what that changes (`discard.PublicDiscardPile`); by default
        nothing."""

    def put_on_discard_pile(self, code: str | None) -> None:
        """A card a move named is now the discard pile's top card (`discard.PublicDiscardPile`;
        a face-down pile names none)."""
        raise NotImplementedError

    def kept(self, sid: str) -> list[str]:
        """The cards of `sid`'s hand that lie face up in front of them and stay through a
        shift and a discard (a game whose players lay cards aside says which); by default
        none. At the reveal they are entered for the player."""
        return []

    def kept_words(self) -> str:
        """What a game calls the cards a player keeps face up in front of them (`kept`), in
        words; by default "kept cards"."""
        return "kept cards"

    def who(self, fields: dict[str, Any], actor: str | None) -> str:
        """The seat a seat command is for: the actor's own, or the one the host names."""
        seat = fields.get("seat")
        if actor == HOST:
            if seat is None:
                raise Refused(400, "the host must name the seat it acts for", "seat")
            return self.seat_ref(seat)
        if actor in self.s["seats"]:
            if seat is not None and seat != actor:
                raise Refused(403, "you can only act for your own seat", "seat")
            return actor
        raise Refused(403, "only a seated player (or the host for them) can do this", None)

    def need_host(self, actor: str | None) -> None:
        if actor != HOST:
            raise Refused(403, "only the host can do this", None)

    def between_hands(self) -> Refusal | None:
        """Refuse what is done only between hands while a hand is running."""
        return IN_HAND if self.in_hand() else None

    def not_ended(self) -> Refusal | None:
        """Refuse what the session's end closes once it has ended."""
        return ENDED if self.s["ended"] else None

    def need_hand(self) -> Hand:
        """The running hand, at whatever stage."""
        h = self.running()
        if h is None:
            raise Refused(409, "no hand is being played", None)
        return h

    def need_play(self) -> Hand:
        h = self.need_hand()
        if h["stage"] != "play":
            raise Refused(409, f"not now: the hand is at the {h['stage'].replace('_', ' ')}", None)
        return h

    def in_play(self, sid: str) -> Player:
        """The hand record of a seat that is still in the hand (dealt in, not folded)."""
        h = self.hand
        if sid not in h["p"]:
            raise Refused(409, "you are not dealt into this hand", None)
        p = h["p"][sid]
        if p["folded"]:
            raise Refused(409, "you have folded this hand", None)
        return p

    def live(self) -> list[str]:
        h = self.hand
        return [sid for sid in h["players"] if not h["p"][sid]["folded"]]

    def need_in_play_deck(self, code: str, field: str) -> None:
        """Refuse a card the variant in play sets aside (the deck's set-asides), wherever it is entered."""
        reason = self.rules.deck.set_aside_reason(code, self.rules)
        if reason is not None:
            raise Refused(422, reason, field)

    def deal_job(self, counts: dict[str, int]) -> None:
        """The dealer's latest job (view()["hand"]["deal"]): cards to deal to each seat."""
        self.dealt_now = True  # made by this command: it stays up while the next step begins
        self.hand["deal"] = [{"seat": sid, "cards": n,
                              "words": f"Deal {self.name(sid)} {n} card{'' if n == 1 else 's'}"}
                             for sid, n in counts.items() if n > 0]

    def seat_ref(self, seat: Any, field: str = "seat") -> str:
        """A seat the host names, checked to be at the table."""
        if seat not in self.s["seats"]:
            raise Refused(422, f"no seat {seat!r} at this table", field)
        return seat

    def need_actor(self, typ: str, actor: str | None) -> None:
        """Refuse an actor the table does not know, and anyone but the host a host command."""
        if actor not in (None, HOST, SCRAMBLER, "guest") and actor not in self.s["seats"]:
            raise Refused(403, f"unknown actor {actor!r}", None)
        if typ in HOST_ONLY:
            self.need_host(actor)

    def run(self, typ: str, f: dict[str, Any], actor: str | None) -> None:
        """Apply one parsed command (`typ`, fields `f`) from `actor` to this state, or raise
        `Refused` (the state is then a copy to throw away: `Table.apply`)."""
        self.need_actor(typ, actor)
        h = self.s["hand"]
        if h is not None and h["drew_last"] and typ not in self.KEEP_DRAW_WINDOW:
            h["drew_last"] = None  # the next player acts: the drawer's window closes
        self.next_player_acts(typ, f, actor)
        getattr(self, "cmd_" + typ)(f, actor)

    def answer(self, typ: str, f: dict[str, Any], actor: str | None) -> Any:
        """What `check_<typ>` answers to `run(typ, f, actor)`, changing nothing: its `Refusal`,
        or what the command would go ahead with (a shared helper may raise its `Refused`
        instead). For the commands in `CHECKED`, whose `cmd_<typ>` begins by calling its
        `check_<typ>` (the one definition of when the command is refused). The legal moves of
        a view ask this of the live state, with no copy of it (issue 19: a trial on a copy of
        the table for each candidate move was most of what a view cost). Clearing the drawer's
        window (`run`) changes no answer here: only the moves that keep it open read it."""
        if typ not in self.CHECKED:
            raise ValueError(f"{typ!r} has no read-only check")
        self.need_actor(typ, actor)
        return getattr(self.ahead(typ, f, actor), "check_" + typ)(f, actor)

    def check(self, typ: str, f: dict[str, Any], actor: str | None) -> None:
        """Raise the `Refused` that `run(typ, f, actor)` would raise, changing nothing (`answer`)."""
        sure(self.answer(typ, f, actor))

    def allows(self, typ: str, f: dict[str, Any], actor: str | None) -> bool:
        """Whether `run(typ, f, actor)` would be accepted now (`answer`, read-only)."""
        try:
            return not isinstance(self.answer(typ, f, actor), Refusal)
        except Refused:
            return False

    # -- the steps each section offers the others (implemented in the module named) ---------

    def advance(self) -> None:
        """Move to the next step of the round (turns.Turns)."""
        raise NotImplementedError

    def open_betting(self, st: Step) -> bool:
        """Open the betting round of a betting step, if it can open (betting.Betting)."""
        raise NotImplementedError

    def next_player_acts(self, typ: str, f: dict[str, Any], actor: str | None) -> None:
        """What `typ` closes first, before it acts (a window of a game's own that the next
        move ends); by default nothing."""

    def ahead(self, typ: str, f: dict[str, Any], actor: str | None) -> "Play":
        """The game in which `typ` is checked: this one, or (a game's own) the one past a
        window that `typ` closes first (`next_player_acts`)."""
        return self

    def after_call_next(self) -> None:
        """Carry out the next of a game's own steps after the last roll of the hand (the
        `final_roll` stage ends): a game with such a stage says what follows."""
        raise NotImplementedError

    def call_window(self) -> list[str]:
        """Who may still act in a window open to several (turns.Turns)."""
        raise NotImplementedError

    def round_order(self) -> list[str]:
        """The hand's players in this round's order (turns.Turns)."""
        raise NotImplementedError

    def after_bet_action(self, sid: str) -> None:
        """Move the betting on after `sid` acted (betting.Betting)."""
        raise NotImplementedError

    def reopen(self, raiser: str) -> None:
        """A bet or raise: everyone else acts again (betting.Betting)."""
        raise NotImplementedError

    def concede(self, winner: str) -> None:
        """Everyone else folded: the last player takes the pots (betting.Betting)."""
        raise NotImplementedError

    def start_reveal(self) -> None:
        """Begin the reveal (reveal.Reveal)."""
        raise NotImplementedError

    def end_hand(self) -> None:
        """Close the hand (reveal.Reveal)."""
        raise NotImplementedError

    def record_hand(self, cards: dict[str, Any], game: str) -> dict[str, int]:
        """Write the settled hand (its `settlement` set) into the session's history: its row
        (who played, the settlement, `cards`: each player's cards shown, or None; `game`: the
        rule set it was played with, in words) and the stacks after it (the chart). Returns
        those stacks. Every game's engine closes a hand with it: the history, the audit, the
        summary and the charts read these rows alike."""
        h, s = self.hand, self.s
        record = h["settlement"]
        stacks = {sid: s["seats"][sid]["stack"] for sid in s["order"]}
        # New lists (`state.HISTORY`: shared by every version, never changed in place).
        s["stack_history"] = [*s["stack_history"], {"hand": h["no"], "stacks": stacks, "sabacc_pot": s["sabacc_pot"]}]
        s["hands"] = [*s["hands"], {"hand": h["no"], "dealer": h["dealer"], "players": list(h["players"]),
                                    "called_by": h.get("called_by"),
                                    "status": record["status"] if record else None,
                                    "payouts": (record or {}).get("payouts"),
                                    "seed_commitment": h["seed_commitment"], "seed": None,
                                    "settlement": record, "game": game, "cards": cards}]
        return stacks

    def told(self, record: dict[str, Any]) -> dict[str, Any]:
        """A settlement record with the words and nets players read (reveal.Reveal)."""
        raise NotImplementedError
