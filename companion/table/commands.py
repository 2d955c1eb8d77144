"""The table's commands: who may send them, and their one schema and validator.

`COMMANDS` maps every command type to the JSON Schema of its fields (docs/table-commands.md
lists them with their events); `parse` checks an entry against it. The web layer checks a
request body with the same `check`, so a bad body gets the same answer, field and status
wherever it is caught::

    >>> parse({"type": "bet", "amount": 3, "version": 7})
    ('bet', {'amount': 3})
    >>> try:
    ...     parse({"type": "bet", "amount": "three"})
    ... except Refused as exc:
    ...     print(exc.status, exc.field, exc.error)
    400 amount amount must be integer
"""

from __future__ import annotations

import re
from typing import Any

from companion.refusal import Refused
from companion.games import registry

HOST = "host"  # actor for host commands


SCRAMBLER = "scrambler"  # actor for rolls from the GPIO button / USB box / on-screen scrambler / timer


#: A seat's name: long enough for "Lando Calrissian of Cloud City"; the engine settles by seat
#: id, so the payout calculator's 24-character limit does not apply here.
NAME_MAX = 40


_HEX = {"type": "string", "pattern": "^[0-9a-fA-F]{1,128}$"}


def obj(props: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The schema of a command's fields: `props` and no others, `required` among them (a
    game's moves are written with it too)."""
    return {"type": "object", "properties": props, "required": list(required),
            "additionalProperties": False}


_obj = obj


#: The field a seat command carries when the host sends it for a seat.
FOR_SEAT = {"seat": {"type": "string", "description": "host only: the seat acted for"}}
_FOR_SEAT = FOR_SEAT


#: A card's code as a command carries it (the deck checks it).
CARD = {"type": "string", "minLength": 1, "maxLength": 20}
_CARD = CARD


#: Every command type -> the JSON Schema of its fields (besides "type"); see docs/table-commands.md.
COMMANDS: dict[str, dict[str, Any]] = {
    # seats and session
    "join": _obj({"name": {"type": "string", "minLength": 1, "maxLength": NAME_MAX}}, ("name",)),
    "buy_in": _obj({**_FOR_SEAT, "amount": {"type": "integer", "minimum": 1}}),
    "cash_out": _obj({**_FOR_SEAT, "amount": {"type": "integer", "minimum": 1}}),
    "leave": _obj(dict(_FOR_SEAT)),
    "sit_out": _obj(dict(_FOR_SEAT)),
    "sit_in": _obj(dict(_FOR_SEAT)),
    "reorder": _obj({"order": {"type": "array", "items": {"type": "string"}, "maxItems": 24}},
                    ("order",)),
    "set_dealer": _obj({"seat": {"type": ["string", "null"]}}, ("seat",)),
    "set_token": _obj({"seat": {"type": "string"}}, ("seat",)),
    "adjust": _obj({"seat": {"type": "string"}, "amount": {"type": "integer"},
                    "reason": {"type": "string", "minLength": 1, "maxLength": 200}},
                   ("seat", "amount", "reason")),
    "stake": _obj({"seat": {"type": "string"},
                   "item": {"type": "string", "minLength": 1, "maxLength": 60},
                   "value": {"type": "integer", "minimum": 1}}, ("seat", "item", "value")),
    "end_session": _obj({"sabacc_pot": {"type": "string", "enum": ["split", "carry"],
                                        "description": "a sabacc pot nobody won: split among the "
                                                       "seated players (default) or carried to "
                                                       "the table's next session"}}),
    "change_rules": _obj({"rules": {"type": ["string", "object"],
                                    "description": "dealer's choice between hands: a preset name "
                                                   "or {\"preset\": ..., **options}"},
                          "chip_set": {"type": "array", "maxItems": 12}}, ("rules",)),
    # the hand
    "start_hand": _obj({"seed_commitment": _HEX}),
    "check": _obj(dict(_FOR_SEAT)),
    "bet": _obj({**_FOR_SEAT, "amount": {"type": "integer", "minimum": 1}}, ("amount",)),
    "call": _obj(dict(_FOR_SEAT)),
    "raise": _obj({**_FOR_SEAT, "to": {"type": "integer", "minimum": 1,
                                       "description": "raise TO: this round's bet total"}},
                  ("to",)),
    "all_in": _obj(dict(_FOR_SEAT)),
    "fold": _obj(dict(_FOR_SEAT)),
    "roll": _obj({"dice": {"type": ["array", "null"], "maxItems": 3,
                           "items": {"type": "integer", "minimum": 1, "maximum": 20}}}),
    # Every game's turn actions (a rule set's `actions`; the engine refuses another game's).
    "draw": _obj({**_FOR_SEAT, "action": {"type": "string", "enum": list(dict.fromkeys(
                     a.action for rs in registry.presets().values() for a in getattr(rs, "actions", ())))},
                  # Where the discard pile is face up: the card discarded, now its top card.
                  "card": _CARD},
                 ("action",)),
    "reveal": _obj({**_FOR_SEAT, "cards": {"type": "array", "items": _CARD, "maxItems": 60}},
                   ("cards",)),
    "reveal_seed": _obj({"seed": _HEX}, ("seed",)),
}


#: The runtime's own commands, whatever the game: seats, the session, starting a hand and
#: revealing its seed. A game's engine accepts these and its own moves (`COMMANDS` of its class).
SESSION_COMMANDS = ("join", "buy_in", "cash_out", "leave", "sit_out", "sit_in", "reorder",
                    "set_dealer", "set_token", "adjust", "end_session", "change_rules",
                    "start_hand", "reveal_seed")


#: Fields the server may leave on an entry; they are not the engine's business.
TRANSPORT_FIELDS = {"type", "version", "idempotency_key"}


#: The commands with a read-only check (`Play.check`): the ones whose acceptance a view's legal
#: moves ask about (the others' legal forms are derived from the state directly).
CHECKED = frozenset({"check", "all_in", "fold", "sit_out", "sit_in",
                     "leave", "cash_out", "buy_in", "draw", "roll",
                     "start_hand", "end_session"})


HOST_ONLY = {"reorder", "set_dealer", "set_token", "adjust", "stake", "end_session", "start_hand",
             "change_rules"}


TABLE_SETTINGS = {"rules", "chip_set", "max_seats", "sabacc_pot"}


# The one validator of a command (and of any other JSON body checked against a JSON Schema):
# the hand engine and the web layer both call it, so a body gets the same answer from both.
_TYPES = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def check(schema: dict, value: Any, path: str) -> None:
    """Refuse `value` (with `path` as the field) unless it fits `schema`: the parts of JSON
    Schema the command schemas use (type, const, enum, lengths, pattern, bounds, items,
    properties, required, additionalProperties).

        >>> check(COMMANDS["bet"], {"amount": 0}, "")
        Traceback (most recent call last):
        ...
        companion.refusal.Refused: amount must be at least 1
    """
    types = schema.get("type")
    if types is not None:
        names = types if isinstance(types, list) else [types]
        ok = any(
            isinstance(value, _TYPES[n]) and not (n in ("integer", "number") and isinstance(value, bool))
            for n in names
            if n in _TYPES
        )
        if not ok:
            raise Refused(400, f"{path} must be {' or '.join(names)}", path)
    if "const" in schema and value != schema["const"]:
        raise Refused(422, f"{path} must be {schema['const']!r}", path)
    if "enum" in schema and value not in schema["enum"]:
        raise Refused(422, f"{path} must be one of {', '.join(map(str, schema['enum']))}", path)
    if isinstance(value, str):
        _within(len(value), schema, "minLength", "maxLength", path, "is too short",
                f"is too long (at most {schema.get('maxLength')} characters)")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            raise Refused(422, f"{path} is not in the right form", path)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        _within(value, schema, "minimum", "maximum", path, f"must be at least {schema.get('minimum')}",
                f"must be at most {schema.get('maximum')}")
    if isinstance(value, list):
        _within(len(value), schema, "minItems", "maxItems", path, "has too few items",
                "has too many items")
        if isinstance(schema.get("items"), dict):
            for i, item in enumerate(value):
                check(schema["items"], item, f"{path}[{i}]")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                raise Refused(422, f"{name} is required", name if path == "" else f"{path}.{name}")
        for k, v in value.items():
            sub = f"{path}.{k}" if path else str(k)
            if k in props:
                check(props[k], v, sub)
            elif schema.get("additionalProperties") is False:
                raise Refused(422, f"unknown field {k!r}", sub[:60])
            elif isinstance(schema.get("additionalProperties"), dict):
                check(schema["additionalProperties"], v, sub)


def _within(n: float, schema: dict, low: str, high: str, path: str, under: str, over: str) -> None:
    """Refuse a size or number below `schema[low]` or above `schema[high]` (where given)."""
    if low in schema and n < schema[low]:
        raise Refused(422, f"{path} {under}", path)
    if high in schema and n > schema[high]:
        raise Refused(422, f"{path} {over}", path)


def parse(entry: Any, commands: dict[str, dict[str, Any]] | None = None) -> tuple[str, dict[str, Any]]:
    """Check an entry's shape against `commands` (the table's engine's; `COMMANDS` by
    default); return its type and fields (without the transport fields the server may leave
    on it)."""
    schemas = COMMANDS if commands is None else commands
    if not isinstance(entry, dict):
        raise Refused(400, "a command is a JSON object with a type", None)
    typ = entry.get("type")
    if typ not in schemas:
        raise Refused(400, f"unknown command type {typ!r}", "type")
    fields = {k: v for k, v in entry.items() if k not in TRANSPORT_FIELDS}
    check(schemas[typ], fields, "")
    return typ, fields
