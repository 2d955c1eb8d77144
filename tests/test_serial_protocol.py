"""The box's line protocol (firmware/PROTOCOL.md), host side: every line of the page parses,
malformed lines are refused with the page's reason words, and we only ever send valid lines."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.scrambler.protocol import (
    HOST_VERBS,
    MAX_LINE,
    Message,
    ProtocolError,
    format_line,
    parse,
)

# Every box -> host line in PROTOCOL.md's table.
BOX_LINES = [
    ("HELLO proto=1 box=sabacc-scrambler fw=1.0.0 mode=companion",
     Message("HELLO", {"proto": "1", "box": "sabacc-scrambler", "fw": "1.0.0",
                       "mode": "companion"})),
    ("PRESS", Message("PRESS")),
    ("HOLD", Message("HOLD")),
    ("ROLL trigger=2d6-doubles dice=3,3 shift=1",
     Message("ROLL", {"trigger": "2d6-doubles", "dice": "3,3", "shift": "1"})),
    ("TIMER shift=1", Message("TIMER", {"shift": "1"})),
    ("PONG", Message("PONG")),
    ("ERR reason=verb", Message("ERR", {"reason": "verb"})),
]


@pytest.mark.parametrize("line,message", BOX_LINES)
def test_every_box_line_of_the_protocol_parses(line, message):
    assert parse(line) == message
    assert parse(line + "\r\n") == message  # MicroPython's print ends lines with \r\n
    assert parse((line + "\n").encode()) == message


@pytest.mark.parametrize("verb,fields,line", [
    ("HELLO", {"proto": 1}, "HELLO proto=1\n"),
    ("LED", {"pattern": "armed"}, "LED pattern=armed\n"),
    ("BEEP", {"pattern": "error"}, "BEEP pattern=error\n"),
    ("MODE", {"mode": "dice", "trigger": "d6-low"}, "MODE mode=dice trigger=d6-low\n"),
    ("TIMER", {"mean": 120.0, "min": 20, "max": 600, "armed": True},
     "TIMER mean=120 min=20 max=600 armed=1\n"),
    ("PING", {}, "PING\n"),
])
def test_every_host_line_of_the_protocol_is_written_as_the_page_shows(verb, fields, line):
    assert format_line(verb, **fields) == line
    assert parse(line, HOST_VERBS).verb == verb


def test_unknown_fields_of_a_known_verb_are_ignored_for_later_versions():
    msg = parse("PRESS count=2 at=12345")
    assert msg.verb == "PRESS"


@pytest.mark.parametrize("line,reason", [
    ("", "verb"),
    ("\r\n", "verb"),
    ("press", "verb"),
    ("SHOUT", "verb"),
    (" PRESS", "verb"),
    ("HELLO", "field"),  # proto is required
    ("HELLO proto=one", "field"),
    ("HELLO proto=1 proto=2", "field"),
    ("ROLL trigger=d6-low dice=3 shift=yes", "field"),
    ("ROLL trigger=d6-low dice=a,b shift=1", "field"),
    ("PRESS junk", "field"),
    ("PRESS =1", "field"),
    ("PRESS Key=1", "field"),
    ("PRESS  a=1", "field"),  # two spaces
    ("PRESS a=", "field"),
    ("PRESS a=\u00e9", "field"),
    ("PRESS " + "a=1 " * 40, "long"),
])
def test_malformed_lines_are_refused_with_the_reason_word(line, reason):
    with pytest.raises(ProtocolError) as exc:
        parse(line)
    assert exc.value.reason == reason


def test_bytes_that_are_not_ascii_are_refused():
    with pytest.raises(ProtocolError):
        parse(b"PRESS \xff\xfe\n")


def test_host_verbs_are_not_accepted_from_the_box():
    with pytest.raises(ProtocolError):
        parse("LED pattern=shift")


@pytest.mark.parametrize("verb,fields", [
    ("LED", {"pattern": "rainbow"}),
    ("BEEP", {}),
    ("MODE", {"mode": "party"}),
    ("TIMER", {"mean": "soon", "min": 1, "max": 2, "armed": 1}),
    ("SING", {}),
    ("LED", {"pattern": "shift now"}),
])
def test_the_host_never_sends_a_line_the_box_would_refuse(verb, fields):
    with pytest.raises(ProtocolError):
        format_line(verb, **fields)


@given(st.binary(max_size=200))
def test_any_bytes_parse_or_are_refused_never_crash(data):
    try:
        msg = parse(data)
    except ProtocolError as exc:
        assert exc.reason in ("verb", "field", "long")
    else:
        assert msg.verb.isupper() and len(data.rstrip(b"\r\n")) <= MAX_LINE


@given(st.sampled_from(["idle", "rolling", "shift", "noshift", "armed", "off"]),
       st.dictionaries(st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True).filter(
           lambda k: k != "pattern"),
           st.from_regex(r"[!-~]{1,8}", fullmatch=True).filter(lambda v: "=" not in v),
           max_size=3))
def test_written_lines_parse_back_to_the_same_fields(pattern, extra):
    line = format_line("LED", pattern=pattern, **extra)
    assert parse(line, HOST_VERBS) == Message("LED", {"pattern": pattern, **extra})


def test_the_documented_examples_hold():
    import doctest

    import companion.scrambler.protocol as protocol_module

    result = doctest.testmod(protocol_module)
    assert result.attempted > 0 and result.failed == 0
