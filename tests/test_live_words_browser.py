"""Issue 14 item 10: the pages show only the server's words for the turn line (live.js's
`turnWords` had a fallback of its own that still said "call the round's bet" after the engine
was fixed). Run in Chromium, on the module the phones and the display load."""

from __future__ import annotations

import pytest

from companion.table.engine import HOST, Table

pytestmark = pytest.mark.browser

CALL = "async (args) => (await import('/static/js/live.js')).turnWords(args[0], new Map(), args[1])"


def test_item10_live_js_turn_words_are_only_the_servers_words(phone, live_server):
    page = phone
    page.goto(f"{live_server.url}/rules")
    t = Table.create("WORDS", {"rules": "holodex"})
    for name in ("Lando", "Han", "Chewie"):
        t.apply({"type": "join", "name": name}, None)
    for sid in ("s1", "s2", "s3"):
        t.apply({"type": "buy_in"}, sid)
    t.apply({"type": "start_hand"}, HOST)
    t.apply({"type": "bet", "amount": 5}, "s2")
    t.apply({"type": "raise", "to": 10}, "s3")
    t.apply({"type": "call"}, "s1")
    for seat in ("s2", "s1", None):
        state = t.view(seat)
        assert page.evaluate(CALL, [state, seat]) == state["hand"]["words"]
    state = t.view("s2")
    assert page.evaluate(CALL, [state, "s2"]).startswith("You: call 5")
    # Without the server's words the page says nothing of its own (no stale "call 10").
    state["hand"]["words"] = None
    assert page.evaluate(CALL, [state, "s2"]) == ""
