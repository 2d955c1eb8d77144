"""The USB scrambler box's line protocol, version 1 (`firmware/PROTOCOL.md`), host side.

    >>> parse("HELLO proto=1 box=sabacc-scrambler fw=1.0.0 mode=companion\\r\\n")
    Message(verb='HELLO', fields={'proto': '1', 'box': 'sabacc-scrambler', 'fw': '1.0.0', 'mode': 'companion'})
    >>> format_line("LED", pattern="shift")
    'LED pattern=shift\\n'
    >>> try:
    ...     parse("SHOUT loud=1")
    ... except ProtocolError as exc:
    ...     print(exc.reason, exc)
    verb unknown verb 'SHOUT'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

PROTO = 1
MAX_LINE = 120

_VERB = re.compile(r"[A-Z]+\Z")
_KEY = re.compile(r"[a-z][a-z0-9_]*\Z")
_VALUE = re.compile(r"[!-~]+\Z")  # printable ASCII without spaces

_WORD = r"[a-z0-9._-]+"
_BIT = r"[01]"
_INT = r"[0-9]+"
_SECONDS = r"[0-9]+(\.[0-9]+)?"

#: Each verb's required fields and what their values look like (regular expressions).
#: Fields not listed are allowed and ignored, so later versions can add fields.
BOX_VERBS: dict[str, dict[str, str]] = {
    "HELLO": {"proto": _INT},
    "PRESS": {},
    "HOLD": {},
    "ROLL": {"trigger": _WORD, "dice": r"[0-9]+(,[0-9]+)*", "shift": _BIT},
    "TIMER": {"shift": _BIT},
    "PONG": {},
    "ERR": {"reason": _WORD},
}
HOST_VERBS: dict[str, dict[str, str]] = {
    "HELLO": {"proto": _INT},
    "LED": {"pattern": "idle|rolling|shift|noshift|rolled|armed|off"},
    "BEEP": {"pattern": "shift|noshift|rolled|press|error"},
    "MODE": {"mode": "companion|dice|timer"},
    "TIMER": {"mean": _SECONDS, "min": _SECONDS, "max": _SECONDS, "armed": _BIT},
    "PING": {},
}
#: Optional fields that must be well formed when present.
OPTIONAL: dict[tuple[str, str], str] = {("MODE", "trigger"): _WORD}


class ProtocolError(ValueError):
    """A line that breaks the protocol; `reason` is the box's word for it (verb/field/long)."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Message:
    """One line: its verb and its fields (values as text)."""

    verb: str
    fields: dict[str, str] = field(default_factory=dict)

    def int(self, key: str) -> int:
        """A numeric field's value."""
        return int(self.fields[key])


def parse(line: str | bytes, verbs: dict[str, dict[str, str]] = BOX_VERBS) -> Message:
    """The `Message` in `line` (a trailing ``\\r\\n`` or ``\\n`` is allowed).

    Raises `ProtocolError` for an empty, too long, non-ASCII or malformed line, or a verb not
    in `verbs` (by default, the lines a box sends).
    """
    if isinstance(line, bytes):
        try:
            line = line.decode("ascii")
        except UnicodeDecodeError:
            raise ProtocolError("the line is not ASCII", "field") from None
    line = line.removesuffix("\n").removesuffix("\r")
    if len(line) > MAX_LINE:
        raise ProtocolError(f"the line is longer than {MAX_LINE} characters", "long")
    if not line.isascii():
        raise ProtocolError("the line is not ASCII", "field")
    parts = line.split(" ")
    verb = parts[0]
    if not verb:
        raise ProtocolError("empty line" if not line else "the line starts with a space", "verb")
    if not _VERB.match(verb) or verb not in verbs:
        raise ProtocolError(f"unknown verb {verb!r}", "verb")
    fields: dict[str, str] = {}
    for part in parts[1:]:
        key, eq, value = part.partition("=")
        if not eq or not _KEY.match(key) or not _VALUE.match(value) or key in fields:
            raise ProtocolError(f"malformed field {part!r}", "field")
        fields[key] = value
    for key, pattern in verbs[verb].items():
        if key not in fields:
            raise ProtocolError(f"{verb} needs {key}=", "field")
        if not re.fullmatch(pattern, fields[key]):
            raise ProtocolError(f"{verb}: bad value {key}={fields[key]}", "field")
    for (v, key), pattern in OPTIONAL.items():
        if v == verb and key in fields and not re.fullmatch(pattern, fields[key]):
            raise ProtocolError(f"{verb}: bad value {key}={fields[key]}", "field")
    return Message(verb, fields)


def format_line(verb: str, verbs: dict[str, dict[str, str]] = HOST_VERBS, **fields) -> str:
    """One protocol line (with its ``\\n``); checked by `parse` so we never send a bad one.

    Field values may be text, numbers, booleans (sent as 0/1) or lists (comma-separated).
    """
    parts = [verb]
    for key, value in fields.items():
        if isinstance(value, bool):
            value = int(value)
        elif isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        elif isinstance(value, float):
            value = f"{value:g}" if "e" not in f"{value:g}" else f"{value:.3f}"
        parts.append(f"{key}={value}")
    line = " ".join(parts)
    parse(line, verbs)
    return line + "\n"
