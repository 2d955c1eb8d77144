"""The box's side of the line protocol (firmware/PROTOCOL.md, version 1).

`parse()` turns one line from the host into a verb and its fields, or raises `LineError`
with the reason the box puts in its `ERR` answer; `line()` builds the lines the box sends::

    >>> parse("MODE mode=dice trigger=d20\\r\\n")
    ('MODE', {'mode': 'dice', 'trigger': 'd20'})
    >>> line("ROLL", ("trigger", "2d6-doubles"), ("dice", "3,3"), ("shift", 1))
    'ROLL trigger=2d6-doubles dice=3,3 shift=1'

Pure logic with no imports from `machine`, so it runs under CPython in the unit tests.
"""

PROTO = 1
BOX = "sabacc-scrambler"
MAX_LINE = 120

#: The scrambler triggers a box can roll by itself (RULES.md names; `timer` is a mode).
DICE_TRIGGERS = ("2d6-doubles", "2d6-spike", "d6-high", "d6-low", "d10", "d12", "d20")
MODES = ("companion", "dice", "timer")
LED_PATTERNS = ("idle", "rolling", "shift", "noshift", "rolled", "armed", "off")
BEEP_PATTERNS = ("shift", "noshift", "rolled", "press", "error")

#: The longest timer setting a host may send, in seconds: an hour is already no game.
MAX_SECONDS = 3600


class LineError(Exception):
    """A host line the box cannot act on; `reason` is `verb`, `field` or `long`."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def _choice(options):
    def check(value):
        if value not in options:
            raise LineError("field")
        return value
    return check


def _seconds(value):
    """A non-negative number of seconds such as `90` or `2.5` (no signs, no exponents)."""
    if not value or value == "." or value.count(".") > 1:
        raise LineError("field")
    for ch in value:
        if ch not in "0123456789.":
            raise LineError("field")
    seconds = float(value)
    if seconds > MAX_SECONDS:
        raise LineError("field")
    return seconds


def _flag(value):
    if value not in ("0", "1"):
        raise LineError("field")
    return value == "1"


def _proto(value):
    if not value.isdigit():
        raise LineError("field")
    return int(value)


#: What the host may send: verb -> (required fields, {field: checker}). Fields a verb does
#: not list are ignored, so that later protocol versions can add some.
HOST_VERBS = {
    "HELLO": ((), {"proto": _proto}),
    "LED": (("pattern",), {"pattern": _choice(LED_PATTERNS)}),
    "BEEP": (("pattern",), {"pattern": _choice(BEEP_PATTERNS)}),
    "MODE": (("mode",), {"mode": _choice(MODES), "trigger": _choice(DICE_TRIGGERS)}),
    "TIMER": ((), {"mean": _seconds, "min": _seconds, "max": _seconds, "armed": _flag}),
    "PING": ((), {}),
}


def _text(raw):
    """`raw` (bytes or str) as ASCII text without its line ending."""
    if isinstance(raw, bytes):
        for b in raw:
            if b > 127:
                raise LineError("verb")
        raw = raw.decode()
    else:
        for ch in raw:
            if ord(ch) > 127:
                raise LineError("verb")
    if raw.endswith("\n"):
        raw = raw[:-1]
    if raw.endswith("\r"):
        raw = raw[:-1]
    return raw


def parse(raw, verbs=HOST_VERBS):
    """Parse one received line into `(verb, fields)`, the fields checked and converted.

    Raises `LineError("long")` for a line over `MAX_LINE` characters, `LineError("verb")`
    for an empty or non-ASCII line or an unknown verb, and `LineError("field")` for a
    malformed, missing or out-of-range field.
    """
    text = _text(raw)
    if len(text) > MAX_LINE:
        raise LineError("long")
    parts = text.split(" ")
    verb = parts[0]
    if verb not in verbs:
        raise LineError("verb")
    required, checkers = verbs[verb]
    fields = {}
    for part in parts[1:]:
        pair = part.split("=", 1)  # (no str.partition on every MicroPython port)
        if len(pair) != 2 or not pair[0] or not pair[1] or pair[0] in fields:
            raise LineError("field")  # also catches a double space (an empty part)
        key, value = pair
        check = checkers.get(key)
        if check is not None:
            fields[key] = check(value)
    for key in required:
        if key not in fields:
            raise LineError("field")
    return verb, fields


def _value(value):
    if value is True or value is False:
        return "1" if value else "0"
    if isinstance(value, (tuple, list)):
        return ",".join([str(v) for v in value])
    return str(value)


def line(verb, *fields):
    """One line to send (without its ending): `verb` then `key=value` for each pair."""
    out = verb
    for key, value in fields:
        out += " " + key + "=" + _value(value)
    return out


def hello(fw, mode):
    """The box's hello, sent at boot and in answer to a host `HELLO`."""
    return line("HELLO", ("proto", PROTO), ("box", BOX), ("fw", fw), ("mode", mode))


def error(reason):
    """The box's answer to a line it could not understand."""
    return line("ERR", ("reason", reason))
