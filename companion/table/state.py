"""The table's state, typed: what a snapshot holds, field by field.

The state is plain JSON data (so `Table.to_json` is the snapshot and replaying the ledger gives
the same value); the `TypedDict`s below say what each part holds. `new_seat`, `new_player` and
`new_hand` are the only places a record is made, so a field added later has one home, and
`migrate` gives an older snapshot's records the fields added since.

Functions of the state that several sections of the engine read (the current step, who rolls,
the cards left in the deck, the pots) live here too: they read the
state and change nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, TypedDict, TypeVar, cast

from companion.rules.rulesets import RuleSet
from companion.rules.settle import build_pots

#: Where a hand is: playing its rounds ("play"), at the last roll after a call ("final_roll"),
#: entering hands ("reveal"), at a stage of a game's own (a tie broken with one more card
#: each: its `BLOCKS["tie"]["stage"]`, `tie_draw.TieDraw`; after the last player took the pots,
#: "show": `after_concede`), or over ("settled").
Stage = str


class Settings(TypedDict):
    """What the host chose when the table was made (fixed for the session)."""

    rules: dict[str, Any]  # {"preset": name, **options}: read with rulesets.ruleset_from
    chip_set: list[dict[str, Any]]  # the table's own chips: [{"name", "value", "per_buy_in"}]
    max_seats: int  # 2..12


class Seat(TypedDict):
    """One seated player (or, under `departed`, one who left)."""

    name: str  # as typed (untrusted text: escaped by every page)
    stack: int  # credits in front of the player now
    sitting_out: bool  # dealt out of the next hands until they sit in
    side: str | None  # a side the player declared once, where the game has sides; else None
    bought_in: int  # every buy-in, added up (for the standings)
    cashed_out: int  # every cash-out, added up
    adjusted: int  # the host's adjustments, added up (signed)
    items: int  # the credit value of non-credit stakes (the Plutt's)


class Player(TypedDict):
    """One seat's part in the running hand: the runtime's fields (a game keeps its own beside
    them, `OwnState.player`)."""

    committed: int  # credits (and stakes) put in this hand: ante and bets
    bet: int  # put in during the current betting round
    folded: bool
    folded_turn: int | None  # the turn number it folded in (a turn player still rolls)
    acted: bool  # has acted since the last bet or raise in this betting round
    hand_size: int  # cards held (the table counts them; the cards are physical)
    cards: list[str] | None  # the hand entered at the reveal (hidden until all are in)
    fees: int  # fees paid into the pot this hand: in the main pot, no commitment level of their own


class Step(TypedDict):
    """One step of a round, built from the rule set's phases (turns.build_round)."""

    phase: str  # the Phase value it belongs to
    seat: str | None  # who acts (None: the whole table, or a call window open to all)
    do: str  # "bet", "roll", "call" or "draw"
    turn_of: str | None  # whose turn it is part of (None for a table-wide phase)


class Betting(TypedDict):
    """The open betting round."""

    opener: str | None  # only this seat may open (`turn_player_opens`); None: anyone
    current: int  # the round's bet to match
    to_act: str  # whose move it is


class DrewLast(TypedDict):
    """A player who just drew may still change the cards they set aside (the timing ruling)."""

    seat: str
    turn: int  # the turn the draw was made in (the face-up counts belong to it)
    phase: str  # closes when another phase begins


class DealJob(TypedDict):
    """One part of the dealer's current job (view()["hand"]["deal"])."""

    seat: str
    cards: int  # how many cards to deal that seat
    words: str  # "Deal Han 1 card"


class Hand(TypedDict):
    """The running (or just settled) hand."""

    no: int  # the hand's number in the session, from 1
    stage: Stage
    dealer: str | None  # None: a house dealer who is not a seat
    token: str | None  # house dealer: who is dealt first
    players: list[str]  # dealt in, in playing order (from the dealer's left)
    p: dict[str, Player]  # each player's part
    round: int  # from 1
    steps: list[Step]  # this round's steps
    step: int  # index of the current step (-1 before the first)
    turn_no: int  # counts turns (a limit on cards set aside is per turn)
    turn_of: str | None  # whose turn it is
    betting: Betting | None  # the open betting round
    called_by: str | None  # the caller
    after: list[str]  # AfterCall steps still to come between the call and the reveal
    finishing: str | None  # the phase the others finish after a call
    out_of_play: int  # cards out of play (dropped hands, discards)
    last_roll: dict[str, Any] | None  # the latest roll record
    shift: dict[str, Any] | None  # the latest shift: kind, round, each player's instructions
    rolls: list[dict[str, Any]]  # every roll of the hand
    revealed: bool  # every hand was entered: the hands are face up
    settlement: dict[str, Any] | None  # the settlement record, once settled
    seed_commitment: str | None  # the scrambler's commitment to its seed
    seed: str | None  # the seed, revealed after the hand
    sabacc_pot_start: int  # the sabacc pot when the hand started
    call_open: bool  # a call window is open (the call step, or the draw it is folded into)
    passed: list[str]  # a window open to several: who has passed
    drew_last: DrewLast | None  # the set-aside window after a draw
    deal: list[DealJob]  # the dealer's latest job, until the next one or the end of the hand
    reentry: list[str]  # players entering their hand again after a reveal conflict
    stacks_start: dict[str, int]  # each player's stack before the ante (the net for the hand)
    discard_top: str | None  # the discard pile's top card, where the pile is face up


class HistoryRow(TypedDict):
    """One settled hand in `hands` (the history phones show)."""

    hand: int
    dealer: str | None
    players: list[str]
    called_by: str | None
    status: str | None  # the settlement's status ("settled", "conceded", ...)
    payouts: dict[str, int] | None
    seed_commitment: str | None
    seed: str | None
    settlement: dict[str, Any] | None  # the same record as the hand's settlement
    cards: dict[str, list[str] | None] | None  # face-up hands; None: folded or never shown
    game: str  # the game it was, in words (dealer's choice may change it between hands)


class TableState(TypedDict):
    """One table's whole state: the snapshot `Table.to_json` returns."""

    code: str  # the table's code
    version: int  # entries applied since the table was made
    settings: Settings
    seats: dict[str, Seat]  # seated players by seat id ("s1", "s2", ...)
    order: list[str]  # seat ids clockwise (to the left)
    departed: dict[str, Seat]  # players who left, by their old seat id
    next_seat: int  # the number of the next seat id
    dealer: str | None  # who deals the next hand
    token: str | None  # house dealer: who is dealt first next
    sabacc_pot: int
    hand_no: int  # hands started so far
    hand: Hand | None  # the running or latest hand
    hands: list[HistoryRow]  # every settled hand
    stack_history: list[dict[str, Any]]  # {"hand", "stacks", "sabacc_pot"} after each hand
    items: list[dict[str, Any]]  # non-credit stakes: {"hand", "seat", "item", "value"}
    ended: bool  # the session has ended
    standings: list[dict[str, Any]] | None  # the final standings, once ended
    carried_sabacc_pot: int  # the sabacc pot carried to the next session when this one ended


def new_seat(name: str) -> Seat:
    """A player who just sat down."""
    return {"name": name, "stack": 0, "sitting_out": False, "side": None,
            "bought_in": 0, "cashed_out": 0, "adjusted": 0, "items": 0}


def new_player(hand_size: int) -> Player:
    """A seat's part in a hand it was just dealt into."""
    return {"committed": 0, "bet": 0, "folded": False, "folded_turn": None, "acted": False,
            "hand_size": hand_size, "cards": None, "fees": 0}


def new_hand(no: int, dealer: str | None, token: str | None, players: list[str], deal_size: int,
             seed_commitment: str | None, sabacc_pot: int, stacks: dict[str, int],
             own: "OwnState | None" = None) -> Hand:
    """A hand just dealt: `players` in playing order, `deal_size` cards each, before its antes
    and its first round's steps; `stacks`: each player's stack before the ante; `own`: the
    game's own fields of the hand and of each player, with their first values."""
    h: Hand = {
        "no": no, "stage": "play", "dealer": dealer, "token": token, "players": players,
        "p": {sid: new_player(deal_size) for sid in players},
        "round": 1, "steps": [], "step": -1, "turn_no": 0, "turn_of": None,
        "betting": None, "called_by": None, "after": [], "finishing": None,
        "out_of_play": 0, "last_roll": None, "shift": None, "rolls": [],
        "revealed": False, "settlement": None,
        "seed_commitment": seed_commitment, "seed": None, "sabacc_pot_start": sabacc_pot,
        "call_open": False, "passed": [], "drew_last": None, "deal": [],
        "reentry": [], "stacks_start": stacks, "discard_top": None,
    }
    if own is not None:
        own.complete(h)
    return h


@dataclass(frozen=True)
class OwnState:
    """A game's own state (the plan's `StateSchema`): the fields it keeps in a hand and in each
    player's part of it, plain JSON, with the value each starts at. A new hand gets them
    (`new_hand`), and so does an older snapshot's hand that lacks them (`Table.from_json`): a
    field a game adds later needs no migration of its own. A command replaces a player's list
    whole (``p["stock"] = [*p["stock"], code]``), never changes it in place: a command's working
    copy shares it with the state (`copy_hand`).

    >>> own = OwnState(hand={"tokens_played": 0}, player={"stock": []})
    >>> h = {"p": {"s1": {"stock": ["x"]}, "s2": {}}}
    >>> own.complete(h)
    >>> h["tokens_played"], h["p"]["s1"]["stock"], h["p"]["s2"]["stock"]
    (0, ['x'], [])
    """

    hand: Mapping[str, Any] = field(default_factory=dict)  # field -> first value
    player: Mapping[str, Any] = field(default_factory=dict)  # field -> first value
    #: What an older snapshot's hand needs besides the fields it lacks (a field of another
    #: form before): each is given the hand, completed, and changes it in place; a hand
    #: already in today's form is left as it is.
    older: tuple[Callable[[Any], None], ...] = ()

    def __or__(self, other: "OwnState") -> "OwnState":
        """Both games' or blocks' fields (a game composing blocks joins their state).

        >>> (OwnState(hand={"a": 0}) | OwnState(player={"b": []})).player
        {'b': []}
        """
        return OwnState({**self.hand, **other.hand}, {**self.player, **other.player},
                        self.older + other.older)

    def complete(self, h: Any) -> None:
        """Give hand `h` (in place) each of these fields it lacks, with its first value (a
        copy: no two hands or players share a list), then bring an older one's to today's
        form (`older`)."""
        for k, v in self.hand.items():
            if k not in h:
                h[k] = copy_json(v)
        for p in h["p"].values():
            for k, v in self.player.items():
                if k not in p:
                    p[k] = copy_json(v)
        for bring in self.older:
            bring(h)


#: The encoder of the state's JSON text (snapshots, views, updates): `json.dumps(value,
#: separators=(",", ":"), ensure_ascii=False)`, made once (json.dumps with arguments makes a
#: new encoder per call).
ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def _one_pass_encoder() -> Callable[[Any, int], Any] | None:
    """`ENCODER`'s C encoder, made once. `JSONEncoder.encode` makes a new one on every call,
    which cost more than encoding the value for most of a view's parts (0.5–0.8 µs each,
    some 20 per table version, issue 19). No check for circular references (the state is
    plain data; a circle would end in RecursionError instead of ValueError). None where the
    C encoder is missing (another Python): `dumps` then asks `ENCODER`."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    try:  # the arguments of Python 3.11 to 3.13's (`JSONEncoder.iterencode` passes the same)
        return make(None, ENCODER.default, json.encoder.encode_basestring, None,
                    ENCODER.key_separator, ENCODER.item_separator, False, False, True)
    except TypeError:  # another Python's C encoder takes other arguments
        return None


_ONE_PASS = _one_pass_encoder()


def dumps(value: Any) -> str:
    """`value` as compact JSON text, the form every snapshot, view and update is in: exactly
    `ENCODER.encode(value)`.

    >>> dumps({"seat": "s1", "name": "Qi'ra", "words": "You: bet or check.", "pots": [1.5, None]})
    '{"seat":"s1","name":"Qi\\'ra","words":"You: bet or check.","pots":[1.5,null]}'
    """
    if type(value) is str or _ONE_PASS is None:
        return ENCODER.encode(value)
    return "".join(_ONE_PASS(value, 0))


def copy_json(v: Any) -> Any:
    """A deep copy of plain JSON data (much faster than copy.deepcopy for the state): its dicts
    and lists are new, its strings, numbers, booleans and None shared.

    >>> state = {"seats": {"s1": {"stack": 5, "items": [{"name": "a droid"}]}}, "hand": None}
    >>> copy = copy_json(state)
    >>> copy == state, copy["seats"]["s1"]["items"][0] is state["seats"]["s1"]["items"][0]
    (True, False)
    """
    kind = type(v)
    if kind is dict:
        # Most values are plain: copied without a call each (a working copy per command).
        return {k: copy_json(x) if type(x) in _CONTAINERS else x for k, x in v.items()}
    if kind is list:
        return [copy_json(x) if type(x) in _CONTAINERS else x for x in v]
    return v


#: What `copy_json` copies; everything else in plain JSON is immutable.
_CONTAINERS = (dict, list)


#: The history of settled hands: lists that only grow, by one row at the end of each hand; a
#: command never changes one in place (they are shared by every version of a table).
HISTORY = ("hands", "stack_history")
#: A row of one of the HISTORY lists.
Row = TypeVar("Row")


def working_copy(state: TableState) -> TableState:
    """The copy of the state a command is tried on. It copies only what a command changes in
    place: the seats, the seat order, the stakes and, of the hand, the players' parts, the
    betting round and the lists that grow (`copy_hand`). Everything else a command only ever
    replaces whole, so the copy shares it: the history lists too (`HISTORY`: a hand's end
    gives each a new list with its row added, `replace_last_row` a new last row). Copying the whole history made
    every command, and every legal-action check of a view, cost more the longer the session
    ran (the benchmark's growth_ratio: 70x slower views at hand 500); copying the whole hand
    was most of an action's time (overhead_ratio)."""
    out = state.copy()
    out["seats"] = copy_json(state["seats"])
    out["departed"] = dict(state["departed"])
    out["order"] = list(state["order"])
    out["items"] = list(state["items"])
    # The HISTORY lists are shared: a command never changes one in place, it replaces the list
    # (a settled hand's rows: `[*rows, row]`) or a row (`replace_last_row`).
    if state["hand"] is not None:
        out["hand"] = copy_hand(state["hand"])
    return out


def replace_last_row(rows: list[Row], row: Row) -> list[Row]:
    """A history list (`HISTORY`) with its last row replaced by `row`: a new list, as every
    change of a history list is (the lists are shared by the versions of a table: a working
    copy does not copy them).

    >>> rows = [{"hand": 1}, {"hand": 2, "seed": None}]
    >>> later = replace_last_row(rows, {**rows[-1], "seed": "ab"})
    >>> later[-1]["seed"], rows[-1]["seed"], later[0] is rows[0]
    ('ab', None, True)
    """
    return [*rows[:-1], row]


def copy_hand(h: Hand) -> Hand:
    """A hand a command may change: the fields changed in place are copied (`p`, `betting`,
    and the lists `steps`, `rolls`, `after`, `passed` that a command edits), the others shared.
    A player's part is copied one level deep: its lists (the runtime's and a game's own,
    `OwnState`) are replaced whole by a command, never changed in place."""
    out = h.copy()
    out["p"] = {sid: p.copy() for sid, p in h["p"].items()}
    out["betting"] = h["betting"].copy() if h["betting"] is not None else None
    out["steps"] = list(h["steps"])
    out["rolls"] = list(h["rolls"])
    out["after"] = list(h["after"])
    out["passed"] = list(h["passed"])
    return out


#: Hand fields added after the first snapshots were written, with the value an old snapshot's
#: hand gets (`migrate`): the call window, the set-aside window after a draw, the dealer's job,
#: the hands being entered again after a reveal conflict (a game's own fields: its `OWN_STATE`).
HAND_ADDED: dict[str, Any] = {"call_open": False, "passed": [], "drew_last": None, "deal": [],
                               "reentry": [], "stacks_start": {}, "discard_top": None}
#: The same for each player's part of the hand: the fees paid.
PLAYER_ADDED: dict[str, Any] = {"fees": 0}


#: Hand fields renamed since: the name an older snapshot has -> today's (`migrate`). The cards
#: out of play had one game's word for them.
HAND_RENAMED: dict[str, str] = {"junk": "out_of_play"}


def migrate(state: dict[str, Any]) -> TableState:
    """An older snapshot in today's form (in place): fields added since get their defaults.
    The snapshot is one `Table.to_json` wrote (today or in an older version), so once
    completed here it is a `TableState`."""
    h = state.get("hand")
    if h is not None:
        for old, new in HAND_RENAMED.items():
            if old in h:
                h[new] = h.pop(old)
        for k, v in HAND_ADDED.items():
            h.setdefault(k, copy_json(v))
        for player in h["p"].values():
            for k, v in PLAYER_ADDED.items():
                player.setdefault(k, copy_json(v))
        if h["stage"] == "play":
            st = current_step(h)
            h["call_open"] = h["call_open"] or bool(st and st["do"] == "call")
    for row in state.get("hands", []):
        row.setdefault("settlement", None)
        row.setdefault("cards", None)
        row.setdefault("game", "")  # not known any more: the pages leave it out
    state.setdefault("carried_sabacc_pot", 0)
    return cast(TableState, state)  # the one place snapshot JSON becomes the typed state


def plain(v: Any) -> Any:
    """Enums and tuples inside `RuleSet.to_json` as plain JSON values."""
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if hasattr(v, "value") and not isinstance(v, (int, str)):
        return v.value
    if isinstance(v, str):
        return str(v)
    return v


def current_step(h: Hand) -> Step | None:
    if 0 <= h["step"] < len(h["steps"]):
        return h["steps"][h["step"]]
    return None


def roller_of(h: Hand, step: Step | None) -> str | None:
    """Who rolls now: the final roll and the dice phase are the dealer's; else the turn player."""
    if h["stage"] == "final_roll":
        return h["dealer"]
    if step and step["do"] == "roll":
        return step["seat"]
    return None


def deck_left(h: Hand, rules: RuleSet) -> int:
    """Cards left in the draw pile: the deck minus every live hand and the cards out of play."""
    held = sum(p["hand_size"] for p in h["p"].values() if not p["folded"])
    return rules.deck.in_play(rules) - held - h["out_of_play"]


def pots_of(h: Hand, stacks: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """The hand pot and side pots, derived from the commitments by the rules engine's
    `build_pots` (the same derivation that settles the hand).

    While the hand is played, only an all-in makes a side pot: a player still in the hand with
    credits behind can still match any bet, so a bet not yet called splits nothing (the
    pots read "main 25 · side 150 · side 450" mid-betting before). `stacks`: seat -> stack,
    to know who is all in; without it, the pots as they would be settled now."""
    committed = {sid: h["p"][sid]["committed"] for sid in h["players"]}
    folded = [sid for sid in h["players"] if h["p"][sid]["folded"]]
    fees = sum(p["fees"] for p in h["p"].values())
    if stacks is None or h["stage"] == "settled" or not committed:
        return [{"amount": pot.amount, "eligible": list(pot.eligible)}
                for pot in build_pots(committed, folded, fees)]
    top = max(committed.values())
    reach = {sid: c if sid in folded or stacks.get(sid, 0) == 0 else top for sid, c in committed.items()}
    pots: list[dict[str, Any]] = []
    previous = 0
    for level in sorted({c for c in reach.values() if c > 0}):
        amount = sum(min(c, level) - min(c, previous) for c in committed.values())
        eligible = [sid for sid, c in reach.items() if c >= level and sid not in folded]
        if pots and pots[-1]["eligible"] == eligible:
            amount += pots.pop()["amount"]
        pots.append({"amount": amount, "eligible": eligible})
        previous = level
    if fees:  # fees paid into the pot join the main pot, as in the settlement (build_pots)
        if pots:
            pots[0]["amount"] += fees
        else:
            pots.append({"amount": fees, "eligible": [sid for sid in committed if sid not in folded]})
    return pots


def hand_pot(h: Hand) -> int:
    """Every credit in the hand's pots: the commitments and the fees paid into the pot."""
    return sum(p["committed"] + p["fees"] for p in h["p"].values())


def join_words(words: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1] if words else ""


def words_cards(n: int) -> str:
    return "card" if n == 1 else f"{n} cards"


def rotate(order: list[str], start: str, members: list[str]) -> list[str]:
    """`members` in seat order beginning at `start`."""
    i = order.index(start)
    ring = order[i:] + order[:i]
    return [sid for sid in ring if sid in members]


def next_in(order: list[str], after: str | None, members: list[str], inclusive: bool = False) -> str:
    """The first of `members` to the left of `after` (or `after` itself when `inclusive`)."""
    if after is None or after not in order:
        return next(sid for sid in order if sid in members)
    i = order.index(after)
    for k in range(0 if inclusive else 1, len(order) + 1):
        sid = order[(i + k) % len(order)]
        if sid in members:
            return sid
    raise AssertionError("no member")  # members is never empty here
