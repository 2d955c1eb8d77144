"""Classic's payout calculator (`GAME.calculator`): reading a SETTLE-API.md request into what
`settle` takes, and the answer. Corellian Spike's calculator reads the same request (its rules
are a `RuleSet` too) and answers with its own settlement (`answer_with`).

`parse_settle_request(body)` checks every field's type and range and then the reveal itself
(`check_reveal`), and returns `(RuleSet, [PlayerReveal], sabacc_pot)`. Anything wrong raises
`InvalidRequest` with the message in words and the path of the first bad field::

    >>> rules, players, pot = parse_settle_request({
    ...     "rules": "classic",
    ...     "players": [
    ...         {"name": "Lando", "cards": ["CO7", "sa11"], "committed": 30},
    ...         {"name": "Han", "cards": ["idiot", "st2", "co3"], "committed": 30, "called": True},
    ...     ],
    ...     "sabacc_pot": 40,
    ... })
    >>> rules.name, players[0].cards, players[1].called, pot
    ('classic', ('co7', 'sa11'), True, 40)
    >>> try:
    ...     parse_settle_request({"rules": "classic", "sabacc_pot": 0, "players": [
    ...         {"name": "Lando", "cards": ["co7", "sa99"], "committed": 1},
    ...         {"name": "Han", "cards": ["co8", "sa1"], "committed": 1}]})
    ... except InvalidRequest as exc:
    ...     print(exc.field, "-", exc.message)
    players[0].cards[1] - unknown card 'sa99'

Rulings on the shape (documented in the OpenAPI document too):

- Unknown fields, at the top level or in a player, are refused (422), so that a misspelt
  `comitted` is not silently read as 0.
- `sabacc_pot`, and each player's `name`, `cards` and `committed`, are required (`cards` may
  be empty for a folded player). `stack` may be omitted or null (no cap).
- `static` must be empty unless the rules play Hold 'Em, and `side` absent (or null) unless they
  play Force Sabacc; under Force Sabacc every player still in the hand needs a side.
- Credits are whole numbers from 0 to `MAX_CREDITS`; true/false and 30.0 are not whole
  numbers. At most `MAX_PLAYERS` players and `MAX_CARDS` cards a hand.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from companion.games import api
from companion.games.classic.settle import (MAX_PLAYERS, MIN_PLAYERS, PlayerReveal, Settlement,
                                            check_reveal, settle, variant)
from companion.rules.decks import Deck
from companion.rules.request import (MAX_CARDS, MAX_CREDITS, card_codes, flag, player_name, request_object, type_name,
                                     whole_number)
from companion.games.classic.hands import Side
from companion.rules.rulesets import InvalidRules, RuleSet, ruleset_from
from companion.rules.settle import InvalidReveal

TOP_FIELDS = ("rules", "players", "sabacc_pot")
PLAYER_FIELDS = ("name", "cards", "committed", "stack", "folded", "called", "demise", "static", "side",
                 "blind_draw", "fees")


class InvalidRequest(InvalidReveal):
    """A request body that is not a valid settlement request: `message` and `field` path."""


def _credits(value: Any, where: str) -> int:
    return whole_number(value, where, MAX_CREDITS, error=InvalidRequest)


def _flag(value: Any, where: str) -> bool:
    return flag(value, where, error=InvalidRequest)


def _cards(deck: Deck, value: Any, where: str, most: int = MAX_CARDS) -> tuple[str, ...]:
    return tuple(card_codes(deck, value, where, most, error=InvalidRequest))


def _player(deck: Deck, value: Any, at: str) -> PlayerReveal:
    raw = request_object(value, at, PLAYER_FIELDS, ("name", "cards", "committed"), InvalidRequest)
    name = player_name(raw["name"], f"{at}.name")
    stack = raw.get("stack")
    side = raw.get("side")
    if side is not None:
        try:
            side = Side(side) if isinstance(side, str) else None
        except ValueError:
            side = None
        if side is None:
            raise InvalidRequest('side must be "light" or "dark"', f"{at}.side")
    demise = _cards(deck, raw.get("demise", []), f"{at}.demise", most=1)
    if "demise" in raw and not demise:
        raise InvalidRequest("a demise is one card, as a one-card list", f"{at}.demise")
    blind_draw = _cards(deck, raw.get("blind_draw", []), f"{at}.blind_draw")
    if "blind_draw" in raw and not blind_draw:
        raise InvalidRequest("a blind draw is one card a draw, as a list", f"{at}.blind_draw")
    return PlayerReveal(
        name=name,
        cards=_cards(deck, raw["cards"], f"{at}.cards"),
        committed=_credits(raw["committed"], f"{at}.committed"),
        stack=None if stack is None else _credits(stack, f"{at}.stack"),
        folded=_flag(raw.get("folded", False), f"{at}.folded"),
        called=_flag(raw.get("called", False), f"{at}.called"),
        demise=demise,
        static=_cards(deck, raw.get("static", []), f"{at}.static"),
        side=side,
        blind_draw=blind_draw,
        fees=_credits(raw.get("fees", 0), f"{at}.fees"),
    )


def parse_settle_request(body: Any) -> tuple[RuleSet, list[PlayerReveal], int]:
    """Read a SETTLE-API.md request body; raise `InvalidRequest` for the first bad field."""
    raw = request_object(body, "", TOP_FIELDS, TOP_FIELDS, InvalidRequest)
    try:
        rules = ruleset_from(raw["rules"])
    except InvalidRules as exc:
        raise InvalidRequest(exc.message, exc.field) from None
    if not isinstance(rules, RuleSet):  # another game's rules: its own calculator reads them
        raise InvalidRequest(f"{rules.title} has no payout calculator here", "rules")
    penalty = variant(rules, "bomb_out_penalty")
    if isinstance(penalty, int) and penalty > MAX_CREDITS:
        raise InvalidRequest(f"bomb_out_penalty may be at most {MAX_CREDITS} credits", "rules.bomb_out_penalty")
    sabacc_pot = _credits(raw["sabacc_pot"], "sabacc_pot")
    players_raw = raw["players"]
    if not isinstance(players_raw, list):
        raise InvalidRequest(f"players must be a list, not {type_name(players_raw)}", "players")
    if not MIN_PLAYERS <= len(players_raw) <= MAX_PLAYERS:
        raise InvalidRequest(f"a hand needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players_raw)}", "players")
    players = [_player(rules.deck, p, f"players[{i}]") for i, p in enumerate(players_raw)]
    try:
        check_reveal(rules, players, sabacc_pot)
    except InvalidRequest:
        raise
    except InvalidReveal as exc:
        raise InvalidRequest(exc.message, exc.field) from None
    return rules, players, sabacc_pot


#: A settlement of a game played with a `RuleSet`: (rules, players, sabacc pot) -> `Settlement`.
Settle = Callable[[RuleSet, Sequence[PlayerReveal], int], Settlement]


def answer_with(settle_hand: Settle, body: Any) -> dict[str, Any]:
    """The answer to a SETTLE-API.md request body as JSON, settled by `settle_hand` (the
    game's own settlement). Raises `InvalidRequest` of the game interface
    (`companion.games.api`) with the message and the path of the first bad field."""
    try:
        rules, players, sabacc_pot = parse_settle_request(body)
        return settle_hand(rules, players, sabacc_pot).to_json()
    except InvalidReveal as exc:  # InvalidRequest is one
        raise api.InvalidRequest(exc.message, exc.field) from None


def answer(body: Any) -> dict[str, Any]:
    """Classic's payout calculator (`Game.calculator`): the answer to a SETTLE-API.md request
    body as JSON; `InvalidRequest` (of `companion.games.api`) for the first bad field."""
    return answer_with(settle, body)
