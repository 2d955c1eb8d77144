"""Coruscant Shift's payout calculator: `POST /api/v1/settle` with `"rules": "coruscant"`
(RULES-CORUSCANT.md "The payout calculator for Coruscant Shift"), as `GAME.calculator`.

The body names the target and the players in seat order from the starting player; the answer
keeps the classic shape (`hands`, `pots`, `payouts`, `penalties`, always empty). A tie the suit
cannot break is answered `"status": "tie_draw"` with the players who must draw; the client sends
the request again with each one's `tie_draw` card. Example 1 of the rules file::

    >>> a = answer({"rules": "coruscant", "target": {"number": -5, "suit": "Circle"}, "players": [
    ...     {"name": "Ana", "cards": ["CI-3", "sq-2"], "committed": 10, "stack": 90},
    ...     {"name": "Ben", "cards": ["tr-10", "ci+4"], "committed": 10, "stack": 90}]})
    >>> a["status"], a["payouts"], a["hands"][0]
    ('settled', {'Ana': 20, 'Ben': 0}, {'name': 'Ana', 'total': -5, 'distance': 0, 'suit_count': 1, 'kind': 'selection'})

Anything invalid raises `InvalidRequest(message, field)` for the first bad field (the server
answers 422): a target the dice cannot show, a card the deck does not hold, more copies of a card
than the deck has (the selections and the tie-draw cards together), a selection of no cards (or
more than 5) for a player who did not fold, a folded player who committed more than every player
still in, a tie-draw card for a player in no tie.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from companion.games.api import InvalidRequest, InvalidRules
from companion.games.coruscant.cards import (CORUSCANT_DECK, GOLD, SELECTION_MAX, SELECTION_MIN, SILVER, SUITS,
                                             TARGET_NUMBERS, signed)
from companion.games.coruscant.judge import (CONCEDED_KIND, FOLDED, SELECTION, TIE_DRAW, Entry, RoundResult, Target,
                                             settle_round)
from companion.games.coruscant.presets import CoruscantRules
from companion.rules.request import card_codes, player_name, request_object, type_name, whole_number

#: The largest number of credits any field may hold (as the other games' calculators).
MAX_CREDITS = 1_000_000_000
#: The longest name (as the other games').
TOP_FIELDS = ("rules", "target", "players")
TARGET_FIELDS = ("number", "suit")
PLAYER_FIELDS = ("name", "cards", "committed", "stack", "folded", "tie_draw")


#: What an unknown card's refusal adds: the codes to use.
CODES = "; the Coruscant Shift deck's codes are like ci+7, tr-3, sq+10 and sylop"


def _credits(value: Any, where: str) -> int:
    return whole_number(value, where, MAX_CREDITS, error=InvalidRequest)


def _target(value: Any) -> Target:
    raw = request_object(value, "target", TARGET_FIELDS, TARGET_FIELDS, InvalidRequest)
    number, suit = raw["number"], raw["suit"]
    faces = ", ".join(signed(n) for n in TARGET_NUMBERS)
    if isinstance(number, bool) or not isinstance(number, int) or not GOLD.shows(number):
        raise InvalidRequest(f"the gold die shows {faces}; not {number!r}", "target.number")
    if not isinstance(suit, str) or not SILVER.shows(suit.strip().lower()):
        raise InvalidRequest(f"the silver die shows {', '.join(SUITS)}; not {suit!r}", "target.suit")
    return Target(number, suit.strip().lower())


def _rules(spec: Any) -> CoruscantRules:
    from companion.games import registry  # when a request comes, never at import

    try:
        rules = registry.rules_from(spec)
    except InvalidRules as exc:
        raise InvalidRequest(exc.message, exc.field) from None
    if not isinstance(rules, CoruscantRules):
        raise InvalidRequest(f"{rules.title} is not Coruscant Shift: its own calculator settles it", "rules")
    return rules


def parse(body: Any) -> tuple[CoruscantRules, Target, list[Entry]]:
    """Read a request body; raise `InvalidRequest` for the first bad field."""
    raw = request_object(body, "", TOP_FIELDS, TOP_FIELDS, InvalidRequest)
    rules = _rules(raw["rules"])
    target = _target(raw["target"])
    players_raw = raw["players"]
    if not isinstance(players_raw, list):
        raise InvalidRequest(f"players must be a list, not {type_name(players_raw)}", "players")
    if not rules.min_players <= len(players_raw) <= rules.max_players:
        raise InvalidRequest(f"a round has {rules.min_players} to {rules.max_players} players, not "
                             f"{len(players_raw)}", "players")
    entries: list[Entry] = []
    seen: set[str] = set()
    raw_cards: list[Any] = []
    for i, value in enumerate(players_raw):
        at = f"players[{i}]"
        p = request_object(value, at, PLAYER_FIELDS, ("name", "cards", "committed"), InvalidRequest)
        name = player_name(p["name"], f"{at}.name")
        if name in seen:
            raise InvalidRequest(f"two players are called {name!r}", f"{at}.name")
        seen.add(name)
        if not isinstance(p["cards"], list):
            raise InvalidRequest(f"{at}.cards must be a list of card codes, not {type_name(p['cards'])}",
                                 f"{at}.cards")
        committed = _credits(p["committed"], f"{at}.committed")
        if p.get("stack") is not None:
            _credits(p["stack"], f"{at}.stack")
        folded = p.get("folded", False)
        if not isinstance(folded, bool):
            raise InvalidRequest(f"{at}.folded must be true or false, not {type_name(folded)}", f"{at}.folded")
        draw = None
        if "tie_draw" in p:
            if folded:
                raise InvalidRequest(f"{name} folded: a folded player draws no tie-draw card", f"{at}.tie_draw")
            drawn = card_codes(CORUSCANT_DECK, p["tie_draw"], f"{at}.tie_draw", 1, error=InvalidRequest,
                               unknown=CODES)
            if not drawn:
                raise InvalidRequest("a tie draw is one card, as a one-card list", f"{at}.tie_draw")
            draw = drawn[0]
        raw_cards.append(p["cards"])
        entries.append(Entry(name, (), committed, folded, draw))
    live = [i for i, e in enumerate(entries) if not e.folded]
    if not live:
        raise InvalidRequest("every player folded: at least one must still be in the round", "players")
    top = max(entries[i].committed for i in live)
    for i, e in enumerate(entries):
        if e.folded and e.committed > top:
            raise InvalidRequest(f"{e.name} folded having committed more than every player still in, which "
                                 "play cannot produce (a player folds only facing a bet)", f"players[{i}].committed")
    # The selections of the players still in (a folded player's cards, and the cards of a last
    # player everyone else folded to, are not judged: not read).
    conceded = len(live) == 1
    for i in live:
        at = f"players[{i}].cards"
        if conceded:
            if entries[i].tie_draw is not None:
                raise InvalidRequest("everyone else folded: there is no tie draw", f"players[{i}].tie_draw")
            continue
        cards = card_codes(CORUSCANT_DECK, raw_cards[i], at, SELECTION_MAX, error=InvalidRequest, unknown=CODES)
        if len(cards) < SELECTION_MIN:
            raise InvalidRequest(f"{entries[i].name} did not fold: a selection holds {SELECTION_MIN} to "
                                 f"{SELECTION_MAX} cards, not none", at)
        entries[i] = replace(entries[i], cards=tuple(cards))
    _check_copies(entries)
    return rules, target, entries


def _check_copies(entries: list[Entry]) -> None:
    """C4: no more copies of a card than the deck has, the selections and tie draws together."""
    count: Counter[str] = Counter()
    for i, e in enumerate(entries):
        if e.folded:
            continue
        for k, code in enumerate((*e.cards, *((e.tie_draw,) if e.tie_draw else ()))):
            count[code] += 1
            copies = CORUSCANT_DECK.cards[code].copies
            if count[code] > copies:
                where = f"players[{i}].cards[{k}]" if k < len(e.cards) else f"players[{i}].tie_draw[0]"
                raise InvalidRequest(f"{CORUSCANT_DECK.cards[code].name} is entered {count[code]} times but "
                                     f"the deck has {'only one' if copies == 1 else copies}", where)


def _hand(name: str, entry: Entry, result: RoundResult, conceded: bool) -> dict[str, Any]:
    judged = result.hands.get(name)
    kind = FOLDED if entry.folded else CONCEDED_KIND if conceded else SELECTION
    return {"name": name, "total": judged.total if judged else None,
            "distance": judged.distance if judged else None,
            "suit_count": judged.suit_count if judged else None, "kind": kind}


def answer(body: Any) -> dict[str, Any]:
    """The answer to a request body as JSON (`Game.calculator`); `InvalidRequest` for bad input."""
    _, target, entries = parse(body)
    undrawn = settle_round([replace(e, tie_draw=None) for e in entries], target)
    tied = set(undrawn.tie_draw_players)
    for i, e in enumerate(entries):
        if e.tie_draw is not None and e.name not in tied:
            raise InvalidRequest(f"{e.name} is in no tie: a tie-draw card is only sent for the players a "
                                 "tie_draw answer named", f"players[{i}].tie_draw")
    result = settle_round(entries, target)
    conceded = sum(not e.folded for e in entries) == 1
    hands = [_hand(e.name, e, result, conceded) for e in entries]
    echo = {"number": target.number, "suit": target.suit}
    if result.status == TIE_DRAW:
        return {"status": TIE_DRAW, "target": echo, "tie_draw_players": list(result.tie_draw_players),
                "hands": hands}
    return {
        "status": "settled",
        "target": echo,
        "hands": hands,
        "pots": [{"amount": p.amount, "eligible": list(p.eligible), "winners": list(p.winners)} for p in result.pots],
        "tie_draws": {e.name: e.tie_draw for e in entries if e.tie_draw is not None and e.name in tied},
        "penalties": [],
        "payouts": dict(result.payouts),
    }
