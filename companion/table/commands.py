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
from typing import Any, Callable, TypeVar

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
    _checker(schema)(value, path)


#: What `per_schema` makes.
T = TypeVar("T")

#: `_checker`'s answers: the id of a schema -> (that schema, its check). A command's schema is
#: made once (a game's engine's, the request's closed form of it), and checked for every
#: command: reading the schema's keywords again for each value was a tenth of a command.
_CHECKERS: dict[int, tuple[dict, Callable[[Any, str], None]]] = {}


def per_schema(cache: dict[int, tuple[dict, T]], schema: dict, make: Callable[[dict], T]) -> T:
    """`make(schema)`, made once per schema and kept in `cache` (by the schema's identity,
    with the schema kept alive so that its id is not reused). A command's schema is made once
    (a game's engine's, the request's closed form of it); schemas made afresh (a test's) are
    forgotten now and then.

    >>> cache: dict = {}
    >>> schema = {"type": "integer"}
    >>> per_schema(cache, schema, len) is per_schema(cache, schema, len), len(cache)
    (True, 1)
    """
    hit = cache.get(id(schema))
    if hit is None or hit[0] is not schema:
        if len(cache) >= 4096:
            cache.clear()
        hit = cache[id(schema)] = (schema, make(schema))
    return hit[1]


def _checker(schema: dict) -> Callable[[Any, str], None]:
    """`schema`'s check (`_compile`), made once per schema."""
    return per_schema(_CHECKERS, schema, _compile)


def _compile(schema: dict) -> Callable[[Any, str], None]:
    """The check of `schema` (`check`): its keywords read once, the value's checks in the
    order `check` documents, each refusal in the same words."""
    types = schema.get("type")
    names = (types if isinstance(types, list) else [types]) if types is not None else None
    # A bool is an int to Python, never a number to JSON Schema: only "boolean" takes one.
    allowed = tuple(t for n in names if n in _TYPES for t in _TYPES[n]) if names else ()
    takes_bool = names is not None and "boolean" in names
    has_const, const = "const" in schema, schema.get("const")
    enum = schema.get("enum")
    pattern = schema.get("pattern")
    items = schema.get("items")
    item_check = _checker(items) if isinstance(items, dict) else None
    props = {k: _checker(v) for k, v in schema.get("properties", {}).items()}
    required = list(schema.get("required", []))
    extra = schema.get("additionalProperties")
    closed = extra is False
    extra_check = _checker(extra) if isinstance(extra, dict) else None

    def run(value: Any, path: str) -> None:
        if names is not None and not (isinstance(value, allowed) and (takes_bool or not isinstance(value, bool))):
            raise Refused(400, f"{path} must be {' or '.join(names)}", path)
        if has_const and value != const:
            raise Refused(422, f"{path} must be {const!r}", path)
        if enum is not None and value not in enum:
            raise Refused(422, f"{path} must be one of {', '.join(map(str, enum))}", path)
        if isinstance(value, str):
            _within(len(value), schema, "minLength", "maxLength", path, "is too short",
                    f"is too long (at most {schema.get('maxLength')} characters)")
            if pattern is not None and not re.search(pattern, value):
                raise Refused(422, f"{path} is not in the right form", path)
        elif isinstance(value, dict):
            for name in required:
                if name not in value:
                    raise Refused(422, f"{name} is required", name if path == "" else f"{path}.{name}")
            for k, v in value.items():
                sub = f"{path}.{k}" if path else str(k)
                own = props.get(k)
                if own is not None:
                    own(v, sub)
                elif closed:
                    raise Refused(422, f"unknown field {k!r}", sub[:60])
                elif extra_check is not None:
                    extra_check(v, sub)
        elif isinstance(value, list):
            _within(len(value), schema, "minItems", "maxItems", path, "has too few items",
                    "has too many items")
            if item_check is not None:
                for i, item in enumerate(value):
                    item_check(item, f"{path}[{i}]")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            _within(value, schema, "minimum", "maximum", path, f"must be at least {schema.get('minimum')}",
                    f"must be at most {schema.get('maximum')}")

    return run


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
