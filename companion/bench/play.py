"""Scripted play: a passive player for every seat, read from the public view of a table.

`moves(state)` lists what could be done next, best first, as `(actor, entry)` pairs (`actor`
is a seat id or ``"host"``); a driver tries them in order until the table accepts one. The
players check, call, stand, never fold, call the hand as soon as the rule set allows, and
enter cards the table's deck holds at the reveal (never more copies of a card than it has), so
every hand runs from the ante to the settlement. Works on any rule set of the dealt-hand games
alike — whatever their rounds, phases and dice — because it reads the view (whose turn, what to
do, which deck: `state["rules"]["deck"]`), never a preset name.

`build_session(registry, hands)` plays whole hands straight through a `TableOwner` — the same
path as the API, minus HTTP — to prepare long sessions for the benchmark.

Games whose commands this scripted player does not send (`scripted()`: a game played to a
winner, a plug-in) are played by their offers instead (`OfferPlayer`, `play_offers`): each
seat's `you.legal` and the host's `host_legal`, a move picked at random and its inputs filled
at random within their ranges and options; a refused move is never a stall, another is tried.
The dealt-hand games keep the scripted player: it is deterministic, needs no view per seat
between moves, and its figures are the ones docs/PERFORMANCE.md has always recorded.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable, Iterator

from companion.games import registry
from companion.rules.decks import Deck

#: The names this player reads and sends for the runtime's building blocks are the game's own,
#: read from the view's `blocks` (`Evening.BLOCKS`): the cards a player keeps face up
#: (``kept``: ``field``), the tie's stage, its players and the move entering a tie card (``tie``:
#: ``stage``, ``players``, ``move``), and the moves of a call step (``call``: ``move`` calls the
#: hand, ``pass`` plays on). A game without one of them has no such block: nothing is read or
#: sent for it.

#: Below this stack a seat buys in again between hands, so long sessions never run dry.
REBUY_BELOW = 20
REBUY = 100


def _player(hand: dict, seat: str) -> dict:
    return next(p for p in hand["players"] if p["seat"] == seat)


def table_deck(state: dict) -> Deck:
    """The deck the table in `state` (a view) plays with, named by its rule set."""
    return registry.decks()[state["rules"]["deck"]]


def kept_up(p: dict, field: str | None) -> list[str]:
    """The cards player `p` (a hand view's) keeps face up: its `field` (the kept block's name
    for them, `blocks["kept"]["field"]`), none where the game keeps none (`field` None)."""
    return p[field] if field else []


def reveal_cards(hand: dict, seat: str, deck: Deck, kept: str | None = None) -> list[str]:
    """Cards of `deck` for `seat` to enter: the cards it set aside face up (`kept`: their field
    in the view, `kept_up`) plus cards no one else uses.

    The deck's cards less those set aside face up are dealt out in turn to the seats in the hand,
    every distinct code once before any second copy (so hands differ and a tie is rare), and
    never a code more often than the deck holds it.

    >>> deck = next(iter(registry.decks().values()))
    >>> hand = {"players": [{"seat": s, "hand_size": 2} for s in ("s1", "s2")]}
    >>> codes = list(deck.cards)
    >>> reveal_cards(hand, "s1", deck) == codes[0:3:2], reveal_cards(hand, "s2", deck) == codes[1:4:2]
    (True, True)
    """
    me = _player(hand, seat)
    left = Counter({c: card.copies for c, card in deck.cards.items()})
    left.subtract(sum((kept_up(p, kept) for p in hand["players"]), []))
    top = max(left.values(), default=0)
    free = [c for n in range(top) for c in deck.cards if left[c] > n]
    seats = [p["seat"] for p in hand["players"]]
    size = me["hand_size"] - len(kept_up(me, kept))
    return list(kept_up(me, kept)) + free[seats.index(seat)::len(seats)][:size]


def tie_cards(hand: dict, deck: Deck, tied: list[str], kept: str | None = None) -> list[str]:
    """One card for each of the `tied` players drawing one more (the game's `tie_card`), in
    their order: distinct codes from the end of `deck`, each with a copy left beside the face-up
    cards (`kept`: as in `reveal_cards`), so the exchange is decided at once (distinct codes
    never tie)."""
    up = Counter(c for p in hand["players"] for c in (p["cards"] or kept_up(p, kept)))
    free = [c for c in reversed(list(deck.cards)) if up[c] < deck.cards[c].copies]
    return free[:len(tied)]


def buy_in_entry(state: dict, amount: int) -> dict[str, Any]:
    """A buy-in: `amount` at a free buy-in table, the table's fixed buy-in otherwise."""
    if state["rules"].get("buy_in"):
        return {"type": "buy_in"}
    return {"type": "buy_in", "amount": amount}


def moves(state: dict) -> list[tuple[str, dict[str, Any]]]:
    """What could be done next at the table in `state` (a view), best first."""
    hand = state["hand"]
    if hand is None or hand["stage"] == "settled":
        out: list[tuple[str, dict]] = [
            (s["seat"], buy_in_entry(state, REBUY))
            for s in state["seats"]
            if s["stack"] < REBUY_BELOW and not s["sitting_out"]
        ]
        return out + [("host", {"type": "start_hand"})]
    stage = hand["stage"]
    live = [p["seat"] for p in hand["players"] if not p["folded"]]
    deck = table_deck(state)
    blocks = state["blocks"]
    kept = blocks.get("kept", {}).get("field")
    if stage == "reveal":
        return [(p["seat"], {"type": "reveal", "cards": reveal_cards(hand, p["seat"], deck, kept)})
                for p in hand["players"] if not p["folded"] and not p["entered"]]
    tie = blocks.get("tie")
    if tie is not None and stage == tie["stage"]:
        tied = hand[tie["players"]] or []
        return [(s, {"type": tie["move"], "card": c}) for s, c in zip(tied, tie_cards(hand, deck, tied, kept))]
    out = []
    call = blocks.get("call", {})  # a game without a call step's moves calls none
    calls = [{"type": call["move"]}] if call else []
    # The rounds played before anyone may call: the rule set's calling rule.
    calling = state["rules"].get("calling") or {}
    may_call = hand["round"] > calling.get("rounds_before_call", 1) and not hand["called_by"]
    if hand["to_act"]:
        seat = hand["to_act"]
        me = _player(hand, seat)
        if may_call:
            out += [(seat, x) for x in calls]
        if hand["current_bet"] > me["bet"]:
            out += [(seat, {"type": "call"}), (seat, {"type": "all_in"})]
        out += [(seat, {"type": "check"})]
    do, turn = hand["do"], hand["turn"]
    if do == "roll" or stage == "final_roll":
        out += [(hand["roller"] or "host", {"type": "roll"}), ("host", {"type": "roll"})]
    if do in ("call", "draw") and may_call:
        # Some rule sets let anyone but the turn player call in the call step, others only
        # the player whose move it is (before their draw): try both.
        out += [(s, x) for s in live if s != turn for x in calls]
        out += [(turn, x) for x in calls]
    if do == "call" and call:
        out += [(turn, {"type": call["pass"]})]
    if do == "draw":
        out += [(turn, {"type": "draw", "action": "stand"})]
    if turn:
        out += [(turn, {"type": "check"})] + [(turn, x) for x in calls]
    return out


def play_hand(act: Callable[[str, dict], tuple[bool, dict]], state: dict, limit: int = 400) -> Iterator[dict]:
    """Play one hand from `state` (between hands) to its settlement, yielding each new state.

    `act(actor, entry)` sends one command and returns `(accepted, state after)`; the state
    may be any viewer's (only public parts are read).
    """
    started = False
    # The view never says who has entered a tie card (it is hidden until all are in):
    # remember it here, so a player enters theirs once.
    tied_in: set[str] = set()
    for _ in range(limit):
        hand = state["hand"]
        if started and hand is not None and hand["stage"] == "settled":
            return
        tie = state["blocks"].get("tie")
        tie_card = tie["move"] if tie is not None else None
        if hand is None or tie is None or hand["stage"] != tie["stage"]:
            tied_in.clear()
        for actor, entry in moves(state):
            if entry["type"] == tie_card and actor in tied_in:
                continue
            ok, new_state = act(actor, entry)
            if ok:
                if entry["type"] == "start_hand":
                    started = True
                if entry["type"] == tie_card:
                    tied_in.add(actor)
                state = new_state
                yield state
                break
        else:
            raise RuntimeError(f"no move is accepted at {hand and hand['stage']!r}: {moves(state)}")
    raise RuntimeError("the hand did not end")


def owner_actor(owner, seats: list[str]) -> Callable[[str, dict], tuple[bool, dict]]:
    """An `act` for `play_hand` that submits straight to a `TableOwner`."""
    from companion.refusal import Refused

    def act(actor: str, entry: dict) -> tuple[bool, dict]:
        try:
            owner.submit(entry, actor)
        except Refused:
            return False, owner.table.view(None)
        return True, owner.table.view(None)

    return act


def build_session(registry, settings: dict, names: list[str], hands: int,
                  buy_in: int = 200) -> tuple[Any, str, dict[str, str]]:
    """A table with `names` seated and bought in, after `hands` complete hands.

    Returns `(owner, host_token, {seat: token})`.
    """
    owner, host = registry.create(settings)
    tokens = {}
    for name in names:
        result = owner.join(name)
        tokens[result.seat] = result.token
        owner.submit(buy_in_entry(owner.table.view(None), buy_in), result.seat)
    act = owner_actor(owner, list(tokens))
    if not scripted(settings["rules"]):
        # A game played to a winner holds as many hands as its game lasts, at most `hands`.
        player, look = OfferPlayer(hash(owner.code) & 0xFFFF), owner_look(owner, list(tokens))
        for _ in range(hands):
            if not sum(1 for _ in play_offers(act, look, player)):
                break
        return owner, host, tokens
    for _ in range(hands):
        for _ in play_hand(act, owner.table.view(None)):
            pass
    return owner, host, tokens


# -- any game, by its offers ----------------------------------------------------------------

#: The commands a hand of the scripted player (`moves()`) cannot do without: a game whose
#: engine takes them all deals hands it plays; every other game is played by its offers.
SCRIPTED_COMMANDS = frozenset({"reveal", "draw", "check", "call"})
#: A seat's offers the player never takes: they would empty the table or end the evening
#: (buying in is done between hands, when a stack cannot pay the next hand).
SESSION_MOVES = frozenset({"join", "buy_in", "cash_out", "leave", "sit_out", "sit_in", "reorder",
                           "set_dealer", "set_token", "adjust", "end_session", "change_rules",
                           "reveal_seed"})
#: The host's commands the player sends, when `host_legal` lists them.
HOST_MOVES = ("start_hand", "roll")

#: `(state, host_legal, {seat: its offers})`: the host's view of a table and each seat's moves.
Look = tuple[dict, list[str], dict[str, list[dict]]]


def scripted(preset: str) -> bool:
    """Whether the scripted player (`moves`) plays the preset `preset`, or its offers do: by
    the commands its game's engine takes (`SCRIPTED_COMMANDS`), never by its name.

    >>> scripted(registry.default_preset())
    True
    """
    engine: Any = registry.game_of(preset).engine()
    return SCRIPTED_COMMANDS <= set(engine.COMMANDS)


class OfferPlayer:
    """Plays any game from its offers: a random offered move, each input filled at random.

    Cards come from the input's deck (`registry.decks()`), `count` of them, the `locked` ones
    first, never more copies of a card than the deck holds counting those this player has
    already entered in the hand (the table refuses what it must; another move is tried).
    """

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self.entered: Counter[str] = Counter()
        #: The table's deck, for a cards input that names none (the pages' picker does the same).
        self.deck = ""
        self.deal: tuple[Any, Any] = (None, None)

    def new_hand(self) -> None:
        """Forget the cards entered: a new hand deals the deck again."""
        self.entered.clear()

    def fill(self, offer: dict[str, Any]) -> dict[str, Any]:
        """The command for `offer`: `{type, ...fields, one value per input}`.

        >>> p = OfferPlayer(1)
        >>> p.fill({"type": "bet", "inputs": [{"field": "amount", "kind": "amount", "min": 2, "max": 2}]})
        {'type': 'bet', 'amount': 2}
        >>> p.fill({"type": "pick", "fields": {"pile": "sand"},
        ...         "inputs": [{"field": "seat", "kind": "seat", "options": [["s2", "Han"]]}]})
        {'type': 'pick', 'pile': 'sand', 'seat': 's2'}
        """
        entry: dict[str, Any] = {"type": offer["type"], **offer.get("fields", {})}
        for item in offer.get("inputs", []):
            entry[item["field"]] = self.value(item)
        return entry

    def value(self, item: dict[str, Any]) -> Any:
        """A random value for one input."""
        kind = item["kind"]
        if kind == "amount":
            low = item.get("min", 0)
            return self.rng.randint(low, max(low, item.get("max", low)))
        if kind == "cards":
            return self.cards(item)
        values = [o[0] for o in item.get("options", [])]
        if "count" in item:  # several distinct options (three tokens of a hand of them)
            return self.rng.sample(values, min(item["count"], len(values)))
        return self.rng.choice(values) if values else None

    def cards(self, item: dict[str, Any]) -> list[str]:
        """`count` cards of the input's deck, its locked ones first."""
        deck = registry.decks()[item.get("deck") or self.deck]
        locked = list(item.get("locked") or [])
        left = Counter({c: card.copies for c, card in deck.cards.items()})
        left.subtract(self.entered)
        left.subtract(locked)
        pool = [c for c, n in left.items() for _ in range(max(0, n))]
        want = max(0, item.get("count", len(locked)) - len(locked))
        return locked + self.rng.sample(pool, min(want, len(pool)))

    def remember(self, entry: dict[str, Any]) -> None:
        """Count the cards of an accepted command as entered."""
        for value in entry.values():
            if isinstance(value, list) and value and all(isinstance(c, str) for c in value):
                self.entered.update(value)

    def choices(self, look: Look) -> list[tuple[str, dict[str, Any]]]:
        """Every move to try now, in a random order of the seats' moves, then the host's."""
        state, host_legal, legal = look
        hand = state["hand"]
        deal = (hand and hand["no"], hand and hand.get("round"))
        if deal != self.deal:  # a new hand or round: the cards are dealt again
            self.deal = deal
            self.new_hand()
        self.deck = state["rules"].get("deck") or next(iter(registry.game_of(state["rules"]["name"]).decks), "")
        seat_moves = [(seat, offer) for seat, offers in legal.items() for offer in offers
                      if offer["type"] not in SESSION_MOVES]
        self.rng.shuffle(seat_moves)
        out = [(seat, self.fill(offer)) for seat, offer in seat_moves]
        if hand is None or hand["stage"] == "settled":
            out = [(s["seat"], buy_in_entry(state, REBUY)) for s in state["seats"]
                   if s["stack"] < max(REBUY_BELOW, state.get("ante_due") or 0, state["rules"].get("buy_in") or 0)
                   and not s["sitting_out"]] + out
        out += [("host", {"type": t}) for t in HOST_MOVES if t in host_legal]
        return out


def game_over(look: Look) -> bool:
    """Whether the table's game has ended: between hands and the host cannot start another."""
    state, host_legal, _ = look
    hand = state["hand"]
    return bool(state.get("ended")) or (
        (hand is None or hand["stage"] == "settled") and "start_hand" not in host_legal)


def play_offers(act: Callable[[str, dict], tuple[bool, dict]], look: Callable[[], Look],
                player: OfferPlayer, limit: int = 5000) -> Iterator[dict]:
    """Play one hand of any game by its offers, from between hands to its settlement,
    yielding the host's view after each accepted move. Ends at once if the game is over
    (`game_over`: the caller starts a new table). `act(actor, entry)` sends one command;
    `look()` reads the table (`Look`)."""
    started = False
    for _ in range(limit):
        now = look()
        hand = now[0]["hand"]
        if started and (hand is None or hand["stage"] == "settled"):
            return
        if not started and game_over(now):
            return
        if not any(_try(act, player, now) for _ in range(RETRIES)):
            raise RuntimeError(f"no offer is accepted at {hand and hand['stage']!r}: {player.choices(now)}")
        after = look()
        if not started and after[0]["hand"] is not None and after[0]["hand"]["no"] != (hand or {}).get("no"):
            started = True
        yield after[0]
    raise RuntimeError("the hand did not end")


#: Passes over the offers, each filled afresh, before a hand counts as stuck: a game's hidden
#: constraints (copies already shown, one card of each suit) refuse some random fills.
RETRIES = 200


def _try(act: Callable[[str, dict], tuple[bool, dict]], player: OfferPlayer, now: Look) -> bool:
    """One pass over the offers of `now`, freshly filled: whether one was accepted."""
    for actor, entry in player.choices(now):
        ok, _ = act(actor, entry)
        if ok:
            player.remember(entry)
            return True
    return False


def owner_look(owner, seats: list[str]) -> Callable[[], Look]:
    """A `look` for `play_offers` that reads a `TableOwner`'s table."""

    def look() -> Look:
        table = owner.table
        state = table.view(None, host=True)
        return state, state.get("host_legal") or [], {s: table.view(s)["you"].get("legal") or [] for s in seats}

    return look
