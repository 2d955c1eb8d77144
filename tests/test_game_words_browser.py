"""Issue 28 item 5: every word on every screen is the table's game's own.

A Corellian Spike table junks (never folds), plays for the game pot (never the hand pot),
settles a tie by a blind draw (never a sudden demise), rolls the spike dice (never "the
scrambler" on a button), and nobody calls a hand nor bombs out. The words come from one place,
the rule set's `words` (companion/rules/game.py `GameWords`), which the state's rules carry to
every page. Headless Chromium, the companion under waitress, the dice fixed by the test.

Seats in join order: s1 Lando (the first dealer), s2 Han, s3 Chewie on phones, s4 Leia (no
phone) played from the host console; every phase starts at the dealer's left.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from test_phones_browser import console
from test_play_browser import Table, api
from test_spike_browser import pick

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Words only classic Sabacc says (RULES.md), that a Spike table must never show. Kept here,
#: not read from the code: the test is the table's ear, not a copy of the words object.
CLASSIC_ONLY = (
    r"\bfold(s|ed|ing)?\b", r"\bhand pot\b", r"\bsudden[- ]demise\b", r"\broll the scrambler\b",
    r"\bthe scrambler (rolls|one last time)\b", r"\bnobody calls\b", r"\bcalls? the hand\b",
    r"\bbomb(-| )?out\b", r"\bbombed out\b", r"\bpot-building\b", r"\bstatic field\b",
    r": draw\b", r"\bdraw \(action", r"\bIdiot's Array\b",
)


def screen_text(page) -> str:
    """Everything the page shows: its visible text, and the names of its controls."""
    return page.evaluate("""() => [document.body.innerText,
        ...[...document.querySelectorAll('[aria-label]')].filter((e) => e.offsetParent !== null)
          .map((e) => e.getAttribute('aria-label'))].join('\\n')""")


def classic_words(text: str) -> list[str]:
    """The lines of `text` that hold a classic-only word."""
    return [line for line in text.splitlines() for word in CLASSIC_ONLY if re.search(word, line, re.I)]


class Screens:
    """Every screen of the table, read at moments of the game."""

    def __init__(self, t: Table, con):
        self.t, self.con = t, con
        self.found: dict[str, list[str]] = {}
        self.read_count = 0

    def read(self, moment: str, extra=()) -> dict[str, str]:
        t = self.t
        t.wait_version(t.version)
        self.t.synced(self.con)
        pages = {**{f"phone {t.names[s]}": p for s, p in t.phones.items()},
                 "console": self.con, "display": t.display, **dict(extra)}
        texts = {}
        for label, page in pages.items():
            text = screen_text(page)
            texts[label] = text
            self.read_count += 1
            bad = classic_words(text)
            if bad:
                self.found[f"{moment}, {label}"] = bad
        return texts


@pytest.fixture
def spike_table(chromium, live_server):
    t = Table(chromium, live_server, {"preset": "spike", "junk_penalty": 1})
    yield t
    t.close()


def test_item5_a_spike_table_says_only_its_own_words_on_every_screen(spike_table, live_server):
    t = spike_table
    for seat, name in zip(("s1", "s2", "s3"), ("Lando", "Han", "Chewie")):
        t.join(seat, name)
    for seat in ("s1", "s2", "s3"):
        t.buy_in(seat, 30)
    status, body = api(live_server, f"/api/v1/tables/{t.code}/join", {"name": "Leia"})
    assert status in (200, 201), body
    t.host({"type": "buy_in", "seat": "s4", "amount": 8})
    con = console(t)
    con.get_by_label("Seat", exact=True).select_option("s4")
    screens = Screens(t, con)
    lando, han, chewie = (t.phones[s] for s in ("s1", "s2", "s3"))

    def tap(page, label, box="#actions", dice=None, again=None):
        if dice is not None:
            t.dice.queue.append(dice)
        t.synced(page)
        before = t.version
        page.wait_for_function("() => !document.querySelector('.settling')")
        page.locator(box).get_by_role("button", name=label, exact=True).click()
        if again:  # taps that cannot be taken back ask twice, in the game's word
            page.wait_for_function("() => !document.querySelector('.settling')")
            page.locator(box).get_by_role("button", name=again, exact=True).click()
        t.wait_version(before + 1)

    t.host({"type": "start_hand"})
    t.host({"type": "discard_top", "card": "-3"})
    # Hand 1, round 1, the turn phase: the console names the phase's step as Spike does.
    screens.read("the turn phase")
    expect(con.locator("#hand-turn")).to_have_text("Han: turn")
    expect(con.locator("#host-roll")).to_have_text("Roll the spike dice")
    expect(con.locator("#host-no-call")).to_be_hidden()
    tap(han, "Stand")
    tap(chewie, "Stand")
    tap(con, "Junk for Leia", box="#seat-moves", again="Tap again: junk for leia")
    tap(lando, "Stand")
    # The betting phase: Chewie faces a bet and may junk it (the junk penalty, 1, into the game pot).
    tap(han, "Bet 2")
    screens.read("facing a bet")
    expect(chewie.locator("#turn")).to_contain_text("You: call 2, raise, go all-in or junk.")
    expect(chewie.locator("#actions").get_by_role("button", name="Junk", exact=True)).to_be_visible()
    tap(chewie, "Junk", again="Tap again: junk")
    expect(t.display.locator("#d-log li").first).to_have_text("Chewie junks (pays 1 to the game pot)")
    expect(t.display.locator('#d-seats li[data-seat="s3"] .tag')).to_have_text("junked")
    tap(lando, "Call 2")
    tap(lando, "Roll the spike dice", dice=[1, 2])
    for dice in ([2, 3], [5, 6]):
        for page in (han, lando):
            tap(page, "Stand")
        for page in (han, lando):
            tap(page, "Check")
        tap(lando, "Roll the spike dice", dice=dice)
    # The reveal: the same Sabacc with a pair of fours, a true tie: a blind draw.
    for page, cards in ((han, ["+4", "-4"]), (lando, ["-4", "+4"])):
        t.synced(page)
        before = t.version
        pick(page, "reveal-picker", cards)
        page.get_by_role("button", name="Show my hand").click()
        t.wait_version(before + 1)
    screens.read("the blind draw")
    expect(con.locator("#hand-stage")).to_have_text("blind draw")
    expect(han.locator("#demise-title")).to_have_text("Blind draw")
    expect(t.display.locator("#d-turn")).to_contain_text("Blind draw: waiting for Han and Lando")
    for page, card in ((han, "+2"), (lando, "-2")):
        t.synced(page)
        before = t.version
        pick(page, "demise-picker", [card])
        page.get_by_role("button", name="Enter my card").click()
        t.wait_version(before + 1)
    texts = screens.read("the result")
    expect(t.display.locator("#d-result-hands .sd-pots")).to_contain_text(re.compile(r"Game pot, \d+: Han\."))
    assert re.search(r"Han wins the game pot, \d+", texts["phone Han"])

    # Hand 2: Han deals; everyone else junks in the turn phase, Han keeps his hand hidden.
    t.host({"type": "start_hand"})
    tap(chewie, "Junk", again="Tap again: junk")
    tap(con, "Junk for Leia", box="#seat-moves", again="Tap again: junk for leia")
    tap(lando, "Junk", again="Tap again: junk")
    tap(han, "Keep my hand hidden")
    texts = screens.read("the hand nobody contested")
    assert re.search(r"Han takes the game pot, \d+: everyone else junked", texts["display"])

    # The host's pages: history, audit log, summary, the table's rules.
    pages = {}
    for path in ("history", "audit", "summary", "rules"):
        page = t.page({"viewport": {"width": 1280, "height": 900}})
        page.goto(f"{live_server.url}/t/{t.code}/{path}")
        pages[path] = page
    texts = screens.read("the evening's pages", extra=pages.items())
    assert re.search(r"Game pot, \d+: Han\.", texts["history"])
    assert "Chewie junks, paying 1 to the game pot" in texts["audit"]
    assert "Lando stands (hand size 2)" in texts["audit"]
    assert screens.read_count >= 6 * 5 + 4
    assert not screens.found, "\n".join(f"{k}: {sorted(set(v))}" for k, v in screens.found.items())
    assert not t.errors, t.errors


@pytest.fixture
def classic_table(chromium, live_server):
    t = Table(chromium, live_server, "classic")
    yield t
    t.close()


def test_item5_a_classic_table_still_says_its_own_words(classic_table):
    """The same pages at a classic table: fold, the hand pot, the scrambler, calling."""
    t = classic_table
    for seat, name in zip(("s1", "s2", "s3"), ("Lando", "Han", "Chewie")):
        t.join(seat, name)
    for seat in ("s1", "s2", "s3"):
        t.buy_in(seat, 30)
    con = console(t)
    t.host({"type": "start_hand"})
    chewie = t.phones["s3"]
    t.tap("s2", "Bet 2", (28, 26, 28, 5, 3))  # antes: 1 to each pot
    expect(chewie.locator("#turn")).to_contain_text("You: call 2, raise, go all-in or fold.")
    t.tap("s3", "Fold", (28, 26, 27, 5, 4))  # the fold fee, 1, into the sabacc pot
    expect(t.display.locator("#d-log li").first).to_have_text("Chewie folds (pays 1 to the sabacc pot)")
    expect(t.display.locator('#d-seats li[data-seat="s3"] .tag')).to_have_text("folded")
    expect(t.display.locator(".d-pot h2").first).to_have_text("Hand pot")
    expect(con.locator("#host-roll")).to_have_text("Roll the scrambler")
    expect(con.locator("#host-no-call")).to_be_visible()
    settings = con.locator("#settings-h").locator("xpath=..")
    for words in ("Pot-building rounds", "Fold fee", "Bomb-out penalty", "Scrambler"):
        expect(settings).to_contain_text(words)
    assert not t.errors, t.errors
