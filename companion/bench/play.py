"""Scripted play: a passive player for every seat, read from the public view of a table.

`moves(state)` lists what could be done next, best first, as `(actor, entry)` pairs (`actor`
is a seat id or ``"host"``); a driver tries them in order until the table accepts one. The
players check, call, stand, never fold, call the hand as soon as the rule set allows, and
enter cards the table's deck holds at the reveal (never more copies of a card than it has), so
every hand runs from the ante to the settlement. Works on any rule set — the classic games and
Corellian Spike's three rounds of turn, betting and spike dice alike — because it reads the view
(whose turn, what to do, which deck: `state["rules"]["deck"]`), never a preset name.

`build_session(registry, hands)` plays whole hands straight through a `TableOwner` — the same
path as the API, minus HTTP — to prepare long sessions for the benchmark.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Iterator

from companion.games import registry
from companion.rules.decks import Deck

#: Below this stack a seat buys in again between hands, so long sessions never run dry.
REBUY_BELOW = 20
REBUY = 100


def _player(hand: dict, seat: str) -> dict:
    return next(p for p in hand["players"] if p["seat"] == seat)


def table_deck(state: dict) -> Deck:
    """The deck the table in `state` (a view) plays with, named by its rule set."""
    return registry.decks()[state["rules"]["deck"]]


def reveal_cards(hand: dict, seat: str, deck: Deck) -> list[str]:
    """Cards of `deck` for `seat` to enter: its static field plus cards no one else uses.

    The deck's cards less the static fields are dealt out in turn to the seats in the hand,
    every distinct code once before any second copy (so hands differ and a tie is rare), and
    never a code more often than the deck holds it.

    >>> deck = registry.decks()["spike"]
    >>> hand = {"players": [{"seat": s, "static": [], "hand_size": 2} for s in ("s1", "s2")]}
    >>> reveal_cards(hand, "s1", deck), reveal_cards(hand, "s2", deck)
    (['+1', '+3'], ['+2', '+4'])
    """
    me = _player(hand, seat)
    left = Counter({c: card.copies for c, card in deck.cards.items()})
    left.subtract(sum((p["static"] for p in hand["players"]), []))
    top = max(left.values(), default=0)
    free = [c for n in range(top) for c in deck.cards if left[c] > n]
    seats = [p["seat"] for p in hand["players"]]
    size = me["hand_size"] - len(me["static"])
    return list(me["static"]) + free[seats.index(seat)::len(seats)][:size]


def demise_cards(hand: dict, deck: Deck) -> list[str]:
    """One card for each player in a sudden demise (or a blind draw), in `demise_players`
    order: distinct codes from the end of `deck`, each with a copy left beside the face-up
    cards, so the exchange is decided at once (distinct codes never tie)."""
    up = Counter(c for p in hand["players"] for c in (p["cards"] or p["static"]))
    free = [c for c in reversed(list(deck.cards)) if up[c] < deck.cards[c].copies]
    return free[:len(hand["demise_players"] or [])]


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
    if stage == "reveal":
        return [(p["seat"], {"type": "reveal", "cards": reveal_cards(hand, p["seat"], deck)})
                for p in hand["players"] if not p["folded"] and not p["entered"]]
    if stage == "demise":
        return [(s, {"type": "demise_card", "card": c})
                for s, c in zip(hand["demise_players"] or [], demise_cards(hand, deck))]
    out = []
    may_call = hand["round"] > state["rules"].get("pot_building_rounds", 1) and not hand["called_by"]
    if hand["to_act"]:
        seat = hand["to_act"]
        me = _player(hand, seat)
        if may_call:
            out += [(seat, {"type": "call_hand"})]
        if hand["current_bet"] > me["bet"]:
            out += [(seat, {"type": "call"}), (seat, {"type": "all_in"})]
        out += [(seat, {"type": "check"})]
    do, turn = hand["do"], hand["turn"]
    if do == "roll" or stage == "final_roll":
        out += [(hand["roller"] or "host", {"type": "roll"}), ("host", {"type": "roll"})]
    if do in ("call", "draw") and may_call:
        # Some rule sets let anyone but the turn player call in the call step, others only
        # the player whose move it is (before their draw): try both.
        out += [(s, {"type": "call_hand"}) for s in live if s != turn]
        out += [(turn, {"type": "call_hand"})]
    if do == "call":
        out += [(turn, {"type": "no_call"})]
    if do == "draw":
        out += [(turn, {"type": "draw", "action": "stand"})]
    if turn:
        out += [(turn, {"type": "check"}), (turn, {"type": "call_hand"})]
    return out


def play_hand(act: Callable[[str, dict], tuple[bool, dict]], state: dict, limit: int = 400) -> Iterator[dict]:
    """Play one hand from `state` (between hands) to its settlement, yielding each new state.

    `act(actor, entry)` sends one command and returns `(accepted, state after)`; the state
    may be any viewer's (only public parts are read).
    """
    started = False
    # The view never says who has entered a demise card (it is hidden until all are in):
    # remember it here, so a player enters theirs once.
    demised: set[str] = set()
    for _ in range(limit):
        hand = state["hand"]
        if started and hand is not None and hand["stage"] == "settled":
            return
        if hand is None or hand["stage"] != "demise":
            demised.clear()
        for actor, entry in moves(state):
            if entry["type"] == "demise_card" and actor in demised:
                continue
            ok, new_state = act(actor, entry)
            if ok:
                if entry["type"] == "start_hand":
                    started = True
                if entry["type"] == "demise_card":
                    demised.add(actor)
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
    for _ in range(hands):
        for _ in play_hand(act, owner.table.view(None)):
            pass
    return owner, host, tokens
