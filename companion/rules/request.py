"""Readers of a payout-calculator request, shared by every game's calculator: an object with
its allowed and required fields (`request_object`), a whole number in a range
(`whole_number`), a list of a deck's card codes (`card_codes`), true or false (`flag`).

Each raises the error its caller names (by default the game interface's `InvalidRequest`,
which `POST /api/v1/settle` answers with a 422) with the message in words and the path of the
bad field::

    >>> try:
    ...     request_object({"name": "Ana", "comitted": 3}, "players[0]", ("name", "committed"), ("name",))
    ... except InvalidRequest as exc:
    ...     print(exc.field, "-", exc.message)
    players[0].comitted - unknown field 'comitted'; the fields are name, committed
    >>> whole_number(30, "committed", 100)
    30
"""

from __future__ import annotations

from typing import Any

from companion.games.api import InvalidRequest
from companion.rules.cards import UnknownCard
from companion.rules.decks import Deck

#: The largest number of credits any field may hold (a billion: far beyond any table).
MAX_CREDITS = 1_000_000_000
#: The most cards one list of a request may hold (no real hand comes near this).
MAX_CARDS = 30


def type_name(value: Any) -> str:
    """A JSON value's kind in words, for a refusal ("must be a list, not a string")."""
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}.get(
        type(value), "a number"
    )


def whole_number(value: Any, where: str, most: int, what: str = "credits", *,
                 error: type[ValueError] = InvalidRequest) -> int:
    """`value` read as a whole number from 0 to `most` of `what`; else `error` (made with the
    message and the field) in words. Every game's calculator reads its amounts with it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{where} must be a whole number of {what}, not {type_name(value)}", where)
    if not 0 <= value <= most:
        raise error(f"{where} must be between 0 and {most} {what}", where)
    return value


def flag(value: Any, where: str, *, error: type[ValueError] = InvalidRequest) -> bool:
    """`value` read as true or false; else `error` in words."""
    if not isinstance(value, bool):
        raise error(f"{where} must be true or false, not {type_name(value)}", where)
    return value


#: The longest player name a payout calculator request may give (a seat's name is no longer).
MAX_NAME = 24


def player_name(value: Any, where: str, *, error: type[ValueError] = InvalidRequest) -> str:
    """`value` read as a player's name in a request: a string of 1 to `MAX_NAME` characters,
    not only spaces; else `error` in words, at `where` (the name's own field)."""
    if not isinstance(value, str):
        raise error(f"a name is a string, not {type_name(value)}", where)
    if not 1 <= len(value) <= MAX_NAME or not value.strip():
        raise error(f"a name must be 1 to {MAX_NAME} characters (not only spaces)", where)
    return value


def card_codes(deck: Deck, value: Any, where: str, most: int = MAX_CARDS, *, error: type[ValueError] = InvalidRequest,
               unknown: str = "") -> list[str]:
    """`value` read as a list of at most `most` card codes of `deck`, each as the deck writes
    it; else `error` (made with the message and the field) naming the first bad one. Every
    game's calculator reads its cards with it. `unknown`: words added to an unknown card's
    refusal (the codes a player should use)."""
    if not isinstance(value, list):
        raise error(f"{where} must be a list of card codes, not {type_name(value)}", where)
    if len(value) > most:
        raise error(f"{where} may hold at most {most} card{'s' if most != 1 else ''}", where)
    out = []
    for k, code in enumerate(value):
        if not isinstance(code, str):
            raise error(f"a card code is a string, not {type_name(code)}", f"{where}[{k}]")
        try:
            out.append(deck.card(code).code)
        except UnknownCard as exc:
            raise error(f"{exc}{unknown}", f"{where}[{k}]") from None
    return out


def request_object(value: Any, where: str, allowed: tuple[str, ...], required: tuple[str, ...],
                   error: type[ValueError] = InvalidRequest) -> dict:
    """`value` checked to be an object with only the `allowed` fields and every `required` one;
    else `error` (made with the message and the field) naming the field (`where` is its path).
    Every game's calculator reads its request's objects with it, so they refuse alike."""
    if not isinstance(value, dict):
        raise error(f"{where or 'the body'} must be an object, not {type_name(value)}", where or "body")
    prefix = f"{where}." if where else ""
    for key in value:
        if key not in allowed:
            raise error(f"unknown field {key!r}; the fields are " + ", ".join(allowed), prefix + key)
    for key in required:
        if key not in value:
            raise error(f"{key} is missing", prefix + key)
    return value
