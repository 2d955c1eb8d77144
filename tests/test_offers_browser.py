"""The phone and the console draw moves they have never seen from their offers (issue 29 item 4).

A game the pages do not know (a plug-in's) sends its moves as offers: words, style, a second
tap, and inputs. Here the engine's legal list is given two such moves for Lando (a wager with an
amount alone; a token played with an amount and a choice of pile, asking twice), and an event
the pages do not know that carries its own words. In Chromium: the buttons say the offers' words,
the amount field keeps to the offer's range, a missing choice is said, and the exact command is
sent — by the phone, and by the console playing Lando's seat (with `seat`). The event's words
show in the log as text, never as markup.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from companion.table import engine
from companion.table.dealt import DealtHand
from test_phones_browser import console, make_table, phone, server, settle_ui  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAGER = {"type": "wager", "fields": {"pot": "main"}, "words": "Wager", "style": "", "confirm": False,
         "inputs": [{"field": "amount", "kind": "amount", "min": 2, "max": 40, "words": "Wager another amount",
                     "shortcuts": [[2, "Wager 2"], [10, "Wager 10"], [40, "Wager 40"]]}]}
TOKEN = {"type": "play_token", "fields": {"token": "t1"}, "words": "Play the shift token", "style": "danger",
         "confirm": True,
         "inputs": [{"field": "count", "kind": "amount", "min": 1, "max": 3, "words": "How many cards"},
                    {"field": "pile", "kind": "pile", "words": "Which pile",
                     "options": [["sand", "Sand discard pile"], ["blood", "Blood discard pile"]]}]}
EVENT_WORDS = "<b>Lando</b> plays the <i>shift</i> token"


@pytest.fixture
def unknown_moves(monkeypatch):
    """Lando is offered the two moves; his sitting out also tells of a played token."""
    legal, apply = DealtHand.legal, engine.Table.apply

    def more_legal(self, sid):
        return legal(self, sid) + ([dict(WAGER), dict(TOKEN)] if sid == "s1" else [])

    def more_events(self, entry, actor):
        events = apply(self, entry, actor)
        if entry.get("type") == "sit_out":
            events.append({"type": "token_played", "seat": "s1", "words": EVENT_WORDS})
        return events

    monkeypatch.setattr(DealtHand, "legal", more_legal)
    monkeypatch.setattr(engine.Table, "apply", more_events)


def commands(page) -> list[dict]:
    """The commands `page` posts from now on, without the version and key every post carries."""
    sent: list[dict] = []

    def seen(request):
        if request.method == "POST" and request.url.endswith("/commands"):
            body = json.loads(request.post_data or "{}")
            sent.append({k: v for k, v in body.items() if k not in ("version", "idempotency_key")})

    page.on("request", seen)
    return sent


def test_the_phone_and_the_console_draw_moves_they_do_not_know_from_their_offers(make_table, unknown_moves):
    t = make_table("weg")
    lando = phone(t, "s1")
    phone(t, "s2")
    sent = commands(lando)
    moves = lando.locator("#actions")
    # A move that waits for the player lights up "Your move".
    expect(lando.locator("#actions-title")).to_have_text("Your move")

    # The wager: its usual amounts as buttons, and a field kept to the offer's range.
    for words in ("Wager 2", "Wager 10", "Wager 40"):
        expect(moves.get_by_role("button", name=words, exact=True)).to_be_visible()
    field = lando.get_by_label("Wager another amount")
    assert (field.get_attribute("min"), field.get_attribute("max")) == ("2", "40")
    settle_ui(lando)
    field.fill("41")
    moves.get_by_role("button", name="Wager", exact=True).click()
    expect(moves.locator(".amount-form .field-error")).to_have_text("41 is outside what you may wager now: from 2 to 40.")
    field.fill("7")
    moves.get_by_role("button", name="Wager", exact=True).click()
    lando.wait_for_function("() => !document.querySelector('#actions button[disabled]')")
    assert sent == [{"type": "wager", "pot": "main", "amount": 7}]
    # The table does not know the move: it refuses it, in words, next to the form.
    expect(moves.locator('[data-offer="wager"] .field-error').first).not_to_be_empty()

    # The token: an amount and a choice of pile, then the button, which asks twice.
    token = moves.locator('[data-offer="play_token"]')
    count = token.get_by_label("How many cards")
    assert (count.get_attribute("min"), count.get_attribute("max")) == ("1", "3")
    button = token.get_by_role("button", name="Play the shift token")
    expect(button).to_have_class(__import__("re").compile("danger"))
    settle_ui(lando)
    count.fill("2")
    button.click()
    expect(token.locator("p.field-error").last).to_have_text("Choose which pile first.")
    token.get_by_label("Blood discard pile").check()
    button.click()
    expect(button).to_have_text("Tap again: play the shift token")
    assert len(sent) == 1  # the first tap only arms it
    settle_ui(lando)
    button.click()
    lando.wait_for_function("() => !document.querySelector('#actions button[disabled]')")
    assert sent[1:] == [{"type": "play_token", "token": "t1", "count": 2, "pile": "blood"}]

    # The console plays Lando's seat with the same offers, "for Lando", and sends his seat.
    con = console(t)
    from_console = commands(con)
    con.get_by_label("Seat", exact=True).select_option("s1")
    expect(con.locator("#seat-play-for")).to_have_text("Moves for Lando")
    seat_moves = con.locator("#seat-moves")
    expect(seat_moves.get_by_role("button", name="Wager 40 for Lando", exact=True)).to_be_visible()
    expect(con.get_by_label("Wager another amount for Lando")).to_have_attribute("max", "40")
    con.wait_for_function("() => !document.querySelector('.settling, [aria-busy=true]')")
    seat_moves.get_by_role("button", name="Wager 40 for Lando", exact=True).click()
    con.wait_for_function("() => !document.querySelector('#seat-moves button[disabled]')")
    expect(seat_moves.locator('[data-offer="wager"] .field-error').first).not_to_be_empty()
    assert from_console == [{"type": "wager", "pot": "main", "amount": 40, "seat": "s1"}]

    # An event the pages do not know: its words, as text.
    t.host({"type": "sit_out", "seat": "s1"})
    expect(lando.locator("#log li").first).to_have_text(EVENT_WORDS)
    assert lando.locator("#log b, #log i").count() == 0
    expect(t.display.locator("#d-log")).to_contain_text(EVENT_WORDS)
    assert t.errors == []
