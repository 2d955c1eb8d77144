"""Issue 28's whole evening in the browser: a Corellian Spike evening played from four phones,
a seat played from the host console, and the table display (RULES-SPIKE.md), then a classic
table switched to Spike by dealer's choice with its phones left open.

Every screen is read for the words of classic Sabacc (`CLASSIC_ONLY`, kept here) and the money
on every screen is checked after every hand, against figures worked out by hand below. What
is found wrong is collected (`Findings`) and reported together at the end, each finding tagged
with the issue's item, so that one wrong screen does not hide the others.

Headless Chromium, the companion under waitress; the host's own part (creating the table,
seating, buying in, starting a hand, the moves of the rounds that test nothing new) goes
through the API; the spike dice are fixed by the test through the table's owner.

The Spike evening (`test_a_spike_evening_four_phones_a_console_seat_and_the_display`): table
`spike` with a junk penalty of 1 (ante_game 1, ante_sabacc 2, fee_gain_discard 1, fee_swap 2).
Seats in join order: s1 Lando, s2 Han, s3 Chewie, s4 Leia (phones), s5 Bib (no phone: the
console plays his seat). Everyone buys in 30 (total 150). Written (Lando, Han, Chewie, Leia,
Bib | game pot, sabacc pot):

Hand 1, Lando deals; every phase starts at his left: Han, Chewie, Leia, Bib, Lando.
    antes, 1 + 2 each:                      27 27 27 27 27 | 5  10
    Han swaps with the discard pile (fee 2): 27 25 27 27 27 | 7  10
    Chewie gains and keeps (free)            27 25 27 27 27 | 7  10
    Leia gains and discards it (free)        27 25 27 27 27 | 7  10
    Bib (console) gains, keeps, discards another (fee 1)
                                             27 25 27 27 26 | 8  10
    Lando stands                             27 25 27 27 26 | 8  10
    betting: Han bets 2 (tapped)             27 23 27 27 26 | 10 10
    Chewie raises to 4 (typed)               27 23 23 27 26 | 14 10
    Leia calls 4                             27 23 23 23 26 | 18 10
    Bib (console) junks: penalty 1           27 23 23 23 25 | 19 10
    Lando calls 4                            23 23 23 23 25 | 23 10
    Han calls 2                              23 21 23 23 25 | 25 10
    spike dice Flask and Flask: a Sabacc Shift; rounds 2 and 3: everyone stands and checks.
    Reveal: Han +4 −4 and Leia −4 +4 (the same Sabacc with a pair: a true tie), Chewie
    +2 +3 +6 (Nulrhek 11), Lando +7 −1 (Nulrhek 6). Blind draw: +10 and +10, tied again;
    second blind draw: Han −9, Leia +9 (a positive card beats its negative): Leia takes the
    game pot 25 and, her hand totalling 0, the sabacc pot 10: 23 + 35 = 58.
    after hand 1:                            23 21 23 58 25 | 0  0      (sum 150)
    nets: Lando −7 (3 + 4), Han −9 (3 + 2 + 2 + 2), Chewie −7 (3 + 4), Leia +28 (35 − 7),
    Bib −5 (3 + 1 + 1); they sum to 0.

Hand 2, Han deals; from his left: Chewie, Leia, Bib, Lando, Han.
    antes:                                   20 18 20 55 22 | 5  10
    Chewie junks in the turn phase: penalty 1 (RULES-SPIKE.md: "whenever a player junks")
                                             20 18 19 55 22 | 6  10
    Leia, Bib, Lando, Han stand; betting: Leia bets 5
                                             20 18 19 50 22 | 11 10
    Bib (console), Lando, Han junk: 1 each   19 17 19 50 21 | 14 10
    Leia is the last player: she takes the game pot at once, without showing: 50 + 14 = 64
                                             19 17 19 64 21 | 0  10
    she shows +6 −6 (totalling 0) for the sabacc pot: 64 + 10 = 74.
    after hand 2:                            19 17 19 74 21 | 0  0      (sum 150)
    nets: Lando −4 (3 + 1), Han −4, Chewie −4, Leia +16 (24 − 8), Bib −4; they sum to 0.

The cash-out: nets for the evening Lando −11, Han −13, Chewie −11, Leia +44, Bib −9 (sum 0).
What each put in (the summary's "Put in", with every ante and fee: item 9):
    hand 1: Lando 7, Han 9, Chewie 7, Leia 7, Bib 5; hand 2: Lando 4, Han 4, Chewie 4, Leia 8,
    Bib 4; put in − payout = −net in every row.

Dealer's choice (`test_dealers_choice_from_classic_to_spike_with_the_phones_left_open`): a
`classic` table, s1 Lando and s2 Han on phones, 30 each (Lando, Han | hand/game pot, sabacc):
    hand 1 (classic, Lando deals): antes 1 + 1 each   28 28 | 2 2
    checks and stands; Lando calls the hand; 19 against 19: a sudden demise; Lando's 2 of
    Sabers makes 21, Han's 8 of Coins 27 (bombed out in the demise: no penalty, RULES.md);
    Lando takes the hand pot 2; 21 is no Pure Sabacc: the sabacc pot stays
                                                      30 28 | 0 2
    the console switches to `spike` (defaults: no junk penalty); the phones stay open.
    hand 2 (Spike, Han deals; Lando first): antes 1 + 2 each
                                                      27 25 | 2 6
    Lando gains and discards it; Han swaps (fee 2)    27 23 | 4 6
    everyone checks and stands to the reveal: Lando +2 −2 (Sabacc with a pair) beats Han's
    +8 −1 (Nulrhek 7): the game pot 4 and the sabacc pot 6: 27 + 10 = 37.
    after hand 2:                                     37 23 | 0 0      (sum 60)
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from companion.table.registry import registry_for
from conftest import ARTIFACTS, DISPLAY, PHONE, screenshot, tap_button
from test_play_browser import ScriptedDice, api
from test_spike_browser import pick

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MINUS = "\u2212"
CONSOLE = {"viewport": {"width": 1280, "height": 900}}

#: Words only classic Sabacc uses: none may be on a Spike table's screens (issue 28, item 5).
#: Spike junks where classic folds, has a game pot where classic has a hand pot, a blind draw
#: where classic has a sudden demise, spike dice where classic rolls the scrambler, no static
#: field, no calling of the hand, no bomb-out and no suits.
CLASSIC_ONLY: dict[str, str] = {
    "fold": r"\bfold(?:s|ed|ing)?\b",
    "hand pot": r"\bhand pot\b",
    "sudden demise": r"\bsudden[- ]demise\b",
    "Nobody calls": r"\bnobody calls\b",
    "call the hand": r"\bcall(?:s|ed)? the hand\b",
    "Roll the scrambler": r"\broll the scrambler\b",
    "Fold fee": r"\bfold fee\b",
    "bomb-out": r"\bbomb(?:-| )?out\b|\bbombed out\b",
    "Pot-building rounds": r"\bpot-building\b",
    "static field": r"\bstatic field\b",
    "a classic suit": r"\b(?:sabers|staves|flasks|coins)\b",
    "draw (classic's turn step)": r"\bdraw(?:s|n)?\b(?! pile| card| a card)",
}
#: A junk's penalty said to go to the sabacc pot (it goes to the game pot: item 4).
PENALTY_TO_SABACC = re.compile(r"(?:junks|folds)[^\n]*?\bto the sabacc pot", re.I)
#: Where "draw" is Spike's own word: the draw pile, a draw card, the blind draw, and the tied
#: players who "draw again" (RULES-SPIKE.md), which the screens say as "draw another card".
SPIKE_DRAW = re.compile(r"\bblind[- ]draw(?:s|n)?\b|\bdraw again\b|\bdraws? another card\b", re.I)


def words_in(text: str) -> dict[str, str]:
    """The classic-only words in `text`: {word: the words around its first occurrence}."""
    text = SPIKE_DRAW.sub("", text)
    found = {}
    for word, pattern in CLASSIC_ONLY.items():
        m = re.search(pattern, text, re.I)
        if m:
            found[word] = " ".join(text[max(0, m.start() - 40):m.end() + 40].split())
    return found


def plain(text: str) -> str:
    """A number as a page shows it, read as Python would ("−7" -> "-7", "+28" -> "28")."""
    return text.strip().replace(MINUS, "-").lstrip("+")


class Findings:
    """What the evening found wrong, each tagged with the issue's item; asserted at the end."""

    def __init__(self):
        self.items: list[str] = []
        self._seen: set[tuple[str, str]] = set()

    def add(self, item: str, what: str, once: str | None = None) -> None:
        if once is not None:
            if (item, once) in self._seen:
                return
            self._seen.add((item, once))
        self.items.append(f"[item {item}] {what}")

    def check(self, item: str, ok: bool, what: str) -> bool:
        if not ok:
            self.add(item, what)
        return ok

    def attempt(self, item: str, what: str, action) -> bool:
        """Run a step the issue says is broken; on failure note it and go on (the caller then
        does the step another way, so that the rest of the evening is still checked)."""
        try:
            action()
            return True
        except (AssertionError, PlaywrightError) as err:
            self.add(item, f"{what}: {str(err).splitlines()[0][:200]}")
            return False

    def assert_none(self) -> None:
        assert not self.items, f"{len(self.items)} findings:\n" + "\n".join(self.items)


class SpikeTable:
    """One table of the live server: its phones, its display and its console, and the host's
    API. Players join through the API and each phone holds its seat's token (as after a scan)."""

    def __init__(self, chromium, live_server, rules, names, phones, stack, findings):
        self.chromium, self.server, self.found = chromium, live_server, findings
        status, body = api(live_server, "/api/v1/tables", {"rules": rules})
        assert status == 201, body
        self.code, self.token = body["code"], body["host_token"]
        self.owner = registry_for(live_server.app).get(self.code)
        self.dice = ScriptedDice()
        self.owner.roller = self.dice
        self.contexts: list = []
        self.errors: list[str] = []
        self.names: dict[str, str] = {}
        tokens = {}
        for name in names:
            status, body = api(live_server, f"/api/v1/tables/{self.code}/join", {"name": name})
            assert status == 201, body
            self.names[body["seat"]], tokens[body["seat"]] = name, body["token"]
        for seat in self.names:
            self.host({"type": "buy_in", "seat": seat, "amount": stack})
        self.display = self._page(DISPLAY, f"{live_server.url}/t/{self.code}/display")
        self.console = self._page(CONSOLE, f"{live_server.url}/t/{self.code}/host",
                                  f"localStorage.setItem('sabacc.host.{self.code}', {json.dumps(self.token)})")
        self.phones = {}
        for seat in list(self.names)[:phones]:
            stored = json.dumps(json.dumps({"seat": seat, "token": tokens[seat], "name": self.names[seat]}))
            self.phones[seat] = self._page(PHONE, f"{live_server.url}/t/{self.code}/seat",
                                           f"localStorage.setItem('sabacc.seat.{self.code}', {stored})")
        for page in self.phones.values():
            page.locator("#seat-ui").wait_for()
        self.console.locator("#host-area:not([hidden])").wait_for()
        self.sync()

    def _page(self, size, url=None, init=None):
        context = self.chromium.new_context(**size)
        self.contexts.append(context)
        if init:
            context.add_init_script(init)
        page = context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        if url:  # the pages load side by side: each is waited for where it is first read
            page.goto(url, wait_until="commit")
        return page

    def close(self):
        for c in self.contexts:
            c.close()

    @property
    def screens(self):
        """Every open screen by name: the phones (by player), the display, the console."""
        return {**{self.names[s]: p for s, p in self.phones.items()}, "display": self.display, "console": self.console}

    def host(self, command: dict) -> None:
        status, body = api(self.server, f"/api/v1/tables/{self.code}/commands", command, self.token)
        assert status == 200, (command, body)

    def for_seat(self, seat: str, typ: str, **fields) -> None:
        """The host sends a seat's move (the rounds that test nothing new)."""
        self.host({"type": typ, "seat": seat, **fields})

    def roll(self, dice) -> None:
        """The host rolls the spike dice (the table's roller gives `dice`)."""
        self.dice.queue.append(dice)
        self.host({"type": "roll"})

    def synced(self, page) -> None:
        expect(page.locator("body")).to_have_attribute("data-version", str(self.owner.version))

    def sync(self) -> None:
        for page in self.screens.values():
            self.synced(page)

    def tap(self, page, label: str, box: str = "#actions", dice=None) -> None:
        """A tap on `page`'s button `label` (twice where it asks to confirm); it must act."""
        if dice is not None:
            self.dice.queue.append(dice)
        self.synced(page)
        before = self.owner.version
        # Taps that cannot be taken back ask twice.
        tap_button(page.locator(box), label, label.startswith(("All-in", "Junk")))
        expect(page.locator("body")).to_have_attribute("data-version", str(before + 1))

    def discard_move(self, page, label: str, card: str, picker="discard-picker", box="#actions") -> None:
        pick(page, picker, [card])
        self.tap(page, label, box)

    def enter_cards(self, page, picker: str, cards, button: str) -> None:
        """Cards picked into `picker`, then its send button (by its id: its words may change)."""
        self.synced(page)
        before = self.owner.version
        pick(page, picker, cards)
        page.locator(button).click()
        expect(page.locator("body")).to_have_attribute("data-version", str(before + 1))

    # -- what the screens say ------------------------------------------------------------------

    def read_words(self, when: str, screens=None, where: str = "body", item: str = "5") -> None:
        """Every screen (or `screens`) read for classic-only words (item 5; `item` where another
        item is the cause)."""
        self.sync()
        for name, page in (screens or self.screens).items():
            text = " ".join(page.locator(where).all_inner_texts())
            for word, around in words_in(text).items():
                kind = "phone" if name in self.names.values() else name
                self.found.add(item, f"{when}, {name}'s screen says {word!r}: “…{around}…”", once=f"{kind}:{word}")

    def money(self, when: str, stacks: dict[str, int], game_pot: int, sabacc_pot: int,
              item: str = "money", pot_item: str | None = None) -> None:
        """The stacks and both pots on every screen: the display, each phone (its own stack,
        the pots and every seat's stack in its table list) and the console. A wrong figure is
        a finding of `item` (`pot_item` for the game pot, where another item is at stake)."""
        self.sync()
        seen: list[tuple[str, str, str]] = []  # (where, shown, expected)
        d = texts(self.display, {"pot": "#d-hand-pot", "sabacc": "#d-sabacc-pot",
                                 **{s: f'#d-seats li[data-seat="{s}"] .d-stack' for s in stacks}})
        for seat, stack in stacks.items():
            seen.append((f"display: {self.names[seat]}'s stack", d[seat], str(stack)))
        seen.append(("display: game pot", d["pot"], str(game_pot)))
        seen.append(("display: sabacc pot", d["sabacc"], str(sabacc_pot)))
        for seat, page in self.phones.items():
            who = self.names[seat]
            p = texts(page, {"mine": "#my-stack", "pot": "#hand-pot", "sabacc": "#sabacc-pot",
                             **{s: f'#seats li[data-seat="{s}"] .seat-facts' for s in stacks}})
            seen.append((f"{who}'s phone: own stack", p["mine"], str(stacks[seat])))
            seen.append((f"{who}'s phone: game pot", p["pot"], str(game_pot)))
            seen.append((f"{who}'s phone: sabacc pot", p["sabacc"], str(sabacc_pot)))
            for other, stack in stacks.items():
                m = re.search(r"stack (\d+)", p[other])
                seen.append((f"{who}'s phone: {self.names[other]}'s stack", m.group(1) if m else p[other], str(stack)))
        c = texts(self.console, {"pot": "#hand-pot", "sabacc": "#sabacc-pot",
                                 **{s: f'#seat-list li[data-seat="{s}"] .seat-stack' for s in stacks}})
        for seat, stack in stacks.items():
            seen.append((f"console: {self.names[seat]}'s stack", c[seat], f"{stack} credits"))
        seen.append(("console: game pot", c["pot"], str(game_pot)))
        seen.append(("console: sabacc pot", c["sabacc"], str(sabacc_pot)))
        pots = [x for x in seen if x[0].endswith("game pot")]
        for tag, part in ((item, [x for x in seen if x not in pots]), (pot_item or item, pots)):
            wrong = [f"{where} {shown!r} (expected {want!r})" for where, shown, want in part if plain(shown) != want]
            if wrong:
                self.found.add(tag, f"money {when}: " + "; ".join(wrong))

    def nets(self, when: str, nets: dict[str, int], payouts: dict[str, int], item: str = "money") -> None:
        """The result's net and payout of every player, on the display and on every phone."""
        wrong = []
        for name, page, where in [("display", self.display, "#d-result-hands"),
                                  *((self.names[s], p, "#result-hands") for s, p in self.phones.items())]:
            shown = texts(page, {**{f"net {s}": f'{where} tr[data-seat="{s}"] .sd-net' for s in nets},
                                 **{f"paid {s}": f'{where} tr[data-seat="{s}"] .sd-payout' for s in payouts}})
            for seat, net in nets.items():
                if plain(shown[f"net {seat}"]) != str(net):
                    wrong.append(f"{name}: {self.names[seat]}'s net {shown[f'net {seat}']!r} (expected {net:+d})")
            for seat, paid in payouts.items():
                if plain(shown[f"paid {seat}"]) != str(paid):
                    wrong.append(f"{name}: {self.names[seat]}'s payout {shown[f'paid {seat}']!r} (expected {paid})")
        if wrong:
            self.found.add(item, f"the result's nets {when}: " + "; ".join(wrong))


def texts(page, selectors: dict[str, str]) -> dict[str, str]:
    """The text of each selector's element on `page`, read at once ("(none)" where missing)."""
    return page.evaluate("""sel => Object.fromEntries(Object.entries(sel).map(([k, s]) => {
        const e = document.querySelector(s); return [k, e ? e.innerText : "(none)"]; }))""", selectors)


def soon(locator, text: str, timeout: float = 2500) -> bool:
    """Whether `locator` comes to contain `text` within `timeout` ms (a page that has taken a
    new version may still be fetching what it needs to draw it, a new deck's cards)."""
    try:
        expect(locator).to_contain_text(text, timeout=timeout)
        return True
    except AssertionError:
        return False


def visible_unscrolled(page, locator) -> bool:
    """At the top of the page (as it opens), `locator` lies inside the viewport and nothing
    covers its middle."""
    page.evaluate("() => window.scrollTo(0, 0)")
    return locator.evaluate("""e => {
        const r = e.getBoundingClientRect();
        if (r.height === 0 || r.top < 0 || r.bottom > window.innerHeight) return false;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return Boolean(hit) && (e.contains(hit) || hit.contains(e));
    }""")


def viewport_shot(page, name: str) -> None:
    """What the phone shows, exactly its screen (test-artifacts/screenshots/)."""
    out = ARTIFACTS / "screenshots" / f"{name}.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(out))


@pytest.fixture
def findings():
    return Findings()


@pytest.fixture
def tables(chromium, live_server):
    made = []

    def make(*args, **kw):
        t = SpikeTable(chromium, live_server, *args, **kw)
        made.append(t)
        return t
    yield make
    for t in made:
        t.close()


def test_a_spike_evening_four_phones_a_console_seat_and_the_display(tables, findings, live_server):
    found = findings
    t = tables({"preset": "spike", "junk_penalty": 1}, ("Lando", "Han", "Chewie", "Leia", "Bib"),
               phones=4, stack=30, findings=found)
    lando, han, chewie, leia = (t.phones[s] for s in ("s1", "s2", "s3", "s4"))
    con = t.console
    con.locator("#play-seat").select_option("s5")
    start = {s: 30 for s in t.names}
    t.money("after the buy-ins", start, 0, 0)

    # ---- hand 1: Lando deals --------------------------------------------------------------
    t.host({"type": "start_hand"})
    t.host({"type": "discard_top", "card": "-3"})
    t.money("after hand 1's antes", {s: 27 for s in t.names}, 5, 10)
    t.discard_move(han, "Swap with the discard pile", "+5")
    # Chewie's phone at 360x640 in the turn phase: his moves and the turn line in view.
    t.synced(chewie)
    expect(chewie.locator("#actions").get_by_role("button", name="Gain and keep", exact=True)).to_be_visible()
    viewport_shot(chewie, "spike-evening-phone-turn-phase")
    moves = chewie.locator('#actions button[data-action="draw"]')
    found.check("14", any(visible_unscrolled(chewie, moves.nth(i)) for i in range(moves.count())),
                "at 360x640 in the turn phase, none of Chewie's moves (Stand, Gain and keep, …) is in view: "
                "the card picker fills the moves panel")
    found.check("14", visible_unscrolled(chewie, chewie.locator("#turn")),
                "at 360x640 in the turn phase, Chewie's turn line is not in view (or is covered)")
    t.read_words("hand 1, the turn phase")
    t.tap(chewie, "Gain and keep")
    t.discard_move(leia, "Gain and discard it", "+8")
    expect(con.locator("#seat-play-for")).to_have_text("Moves for Bib")
    t.discard_move(con, "Gain, keep and discard another for Bib", "-2", picker="seat-cards", box="#seat-moves")
    t.tap(lando, "Stand")
    t.money("after hand 1's turn phase", {"s1": 27, "s2": 25, "s3": 27, "s4": 27, "s5": 26}, 8, 10)

    # The betting phase: a tapped bet, a typed raise, calls, a junk from the console.
    t.tap(han, "Bet 2")
    t.synced(t.display)
    found.check("15", t.display.locator("#d-deal").is_hidden(),
                "the display's deal note lingers into the betting phase: "
                f"{t.display.locator('#d-deal').inner_text()!r}")
    t.synced(chewie)
    chewie.get_by_label("Raise to another total").fill("4")
    before = t.owner.version
    chewie.wait_for_function("() => !document.querySelector('.settling, [aria-busy=true]')")
    chewie.locator("#actions form").get_by_role("button", name="Raise to", exact=True).click()
    expect(chewie.locator("body")).to_have_attribute("data-version", str(before + 1))
    # Leia faces a bet at 360x640: "Call 4" and "Junk" in view.
    t.synced(leia)
    call = leia.locator("#actions").get_by_role("button", name="Call 4", exact=True)
    expect(call).to_be_visible()
    viewport_shot(leia, "spike-evening-phone-facing-a-bet")
    found.check("14", visible_unscrolled(leia, call), "at 360x640 facing a bet, Leia's “Call 4” is not in view")
    found.check("14", visible_unscrolled(leia, leia.locator("#actions").get_by_role("button", name="Junk", exact=True)),
                "at 360x640 facing a bet, Leia's “Junk” is not in view")
    found.check("14", visible_unscrolled(leia, leia.locator("#turn")),
                "at 360x640 facing a bet, Leia's turn line is not in view (or is covered)")
    t.read_words("hand 1, facing a bet")
    t.tap(leia, "Call 4")
    t.tap(con, "Junk for Bib", box="#seat-moves")  # a junk in the betting phase: penalty 1
    # Bib's hand went face up onto the discard pile: the −2 shown before is no longer its top
    # card, and every screen says the top card is to be entered (item 11).
    for page, line in ((t.display, '#d-table-facts [data-fact="discard_top"]'), (han, '#table-facts [data-fact="discard_top"]'),
                       (leia, '#table-facts [data-fact="discard_top"]')):
        expect(page.locator(line)).to_have_text("Discard pile the top card is not entered yet")
    t.tap(lando, "Call 4")
    t.tap(han, "Call 2")
    t.money("after hand 1's first betting phase", {"s1": 23, "s2": 21, "s3": 23, "s4": 23, "s5": 25}, 25, 10)
    logs = "\n".join(t.display.locator("#d-log").all_inner_texts() + han.locator("#log").all_inner_texts())
    wrong = PENALTY_TO_SABACC.search(logs)
    found.check("4", not wrong, f"the log says a junk penalty goes to the sabacc pot (it goes to the game pot): "
                                f"{wrong.group(0) if wrong else ''!r}")

    # The spike dice match: a Sabacc Shift.
    t.tap(lando, "Roll the spike dice", dice=[2, 2])
    t.sync()
    roll = t.display.locator("#d-roll").inner_text()
    found.check("10", "Flask and Flask" in roll and "Symbol" not in roll,
                f"the display names the spike dice {roll!r} (RULES-SPIKE.md: “Flask and Flask”)")
    for page in t.phones.values():
        expect(page.locator("#shift")).to_be_visible()
    t.read_words("hand 1, the Sabacc Shift")
    for page in t.phones.values():
        page.get_by_role("button", name="Done").click()
    if t.display.locator("#d-shift").is_visible():
        t.display.locator("#d-shift").click()
    t.host({"type": "discard_top", "card": "+1"})

    # Rounds 2 and 3 (nothing new): everyone still in stands and checks.
    for dice in ([1, 3], [4, 5]):
        for seat in ("s2", "s3", "s4", "s1"):
            t.for_seat(seat, "draw", action="stand")
        for seat in ("s2", "s3", "s4", "s1"):
            t.for_seat(seat, "check")
        t.roll(dice)
    t.sync()
    roll = t.display.locator("#d-roll").inner_text()
    found.check("10", "Compass and Eye" in roll, f"the display names the spike dice {roll!r} (“Compass and Eye”)")

    # The reveal: Han and Leia hold the same Sabacc with a pair: a blind draw, twice.
    for page, cards in ((han, ["+4", "-4"]), (chewie, ["+2", "+3", "+6"]), (lando, ["+7", "-1"])):
        t.enter_cards(page, "reveal-picker", cards, "#reveal-send")
    t.read_words("hand 1, the reveal")
    t.enter_cards(leia, "reveal-picker", ["-4", "+4"], "#reveal-send")
    for page in (han, leia):
        expect(page.locator("#tie-card-title")).to_have_text("Blind draw")
    t.read_words("hand 1, the blind draw")
    t.enter_cards(han, "tie-card-picker", ["+10"], "#tie-card-send")
    t.enter_cards(leia, "tie-card-picker", ["+10"], "#tie-card-send")  # +10 and +10: tied again
    t.sync()
    for who, page in (("Han", han), ("Leia", leia)):
        expect(page.locator("#tie-card-panel")).to_be_visible()
        text = page.locator("body").inner_text()
        found.check("7", re.search(r"tied again", text, re.I) is not None,
                    f"after a tied blind draw, {who}'s phone does not say “tied again”")
        chips = page.locator("#tie-card-picker .chip")
        if not found.check("7", chips.count() == 0,
                           f"the second blind draw starts with {who}'s first card still in the picker"):
            while chips.count():
                chips.first.click()
    t.read_words("hand 1, the second blind draw")
    t.enter_cards(han, "tie-card-picker", ["-9"], "#tie-card-send")
    t.enter_cards(leia, "tie-card-picker", ["+9"], "#tie-card-send")
    after1 = {"s1": 23, "s2": 21, "s3": 23, "s4": 58, "s5": 25}
    t.money("after hand 1", after1, 0, 0)
    t.nets("of hand 1", {"s1": -7, "s2": -9, "s3": -7, "s4": 28, "s5": -5}, {"s4": 35})
    for page in t.phones.values():
        words = page.locator("#result-words").inner_text()
        found.check("money", "Leia wins the game pot, 25, and the sabacc pot, 10" in words,
                    f"hand 1's result says {words!r}")
    # The blind draws leave a trace in the result: both tied rows show the cards drawn.
    for where, page, box in (("display", t.display, "#d-result-hands"), ("Han's phone", han, "#result-hands")):
        for seat, drawn in (("s2", ("+10", f"{MINUS}9")), ("s4", ("+10", "+9"))):
            row = page.locator(f'{box} tr[data-seat="{seat}"]').inner_text()
            found.check("7", all(c in row for c in drawn),
                        f"{where}: {t.names[seat]}'s result row leaves out the blind-draw cards {drawn}: {row!r}")
    screenshot(t.display, "spike-evening-display-result")
    t.read_words("hand 1, the result")

    # ---- hand 2: Han deals; a junk in the turn phase; Leia is the last player and shows ------
    t.host({"type": "start_hand"})
    t.host({"type": "discard_top", "card": "+1"})
    t.money("after hand 2's antes", {"s1": 20, "s2": 18, "s3": 20, "s4": 55, "s5": 22}, 5, 10)
    t.tap(chewie, "Junk")  # in the turn phase: the penalty is due as in the betting phase
    t.money("after Chewie junks in the turn phase", {"s1": 20, "s2": 18, "s3": 19, "s4": 55, "s5": 22}, 6, 10,
            item="3")
    t.tap(leia, "Stand")
    t.tap(con, "Stand for Bib", box="#seat-moves")
    t.tap(lando, "Stand")
    t.tap(han, "Stand")
    t.tap(leia, "Bet 5")
    t.tap(con, "Junk for Bib", box="#seat-moves")
    t.tap(lando, "Junk")
    t.tap(han, "Junk")
    # The last player takes the game pot at once (RULES-SPIKE.md): 50 + 14 = 64; it is no
    # longer in the pot while she chooses whether to show for the sabacc pot (the screens
    # while the survivor chooses: item 6; today they show it in her stack and in the pot).
    t.money("when Leia is the last player", {"s1": 19, "s2": 17, "s3": 19, "s4": 64, "s5": 21}, 0, 10,
            item="3", pot_item="6")
    # While Leia chooses to show or not, no screen says it is a betting phase.
    expect(leia.locator("#reveal-panel")).to_be_visible()
    for name, page in t.screens.items():
        turn = page.locator("#d-turn" if name == "display" else "#turn" if name != "console" else "#hand-turn")
        text = turn.inner_text()
        found.check("6", "Betting phase" not in text and "bet." not in text,
                    f"while Leia chooses to show, {name}'s turn line says {text!r}")
    found.check("6", "Leia" in t.display.locator("#d-turn").inner_text(),
                f"while Leia chooses to show, the display does not name her: {t.display.locator('#d-turn').inner_text()!r}")
    t.read_words("hand 2, the last player chooses")
    t.enter_cards(leia, "reveal-picker", ["+6", "-6"], "#reveal-send")
    after2 = {"s1": 19, "s2": 17, "s3": 19, "s4": 74, "s5": 21}
    t.money("after hand 2", after2, 0, 0, item="3")
    t.nets("of hand 2", {"s1": -4, "s2": -4, "s3": -4, "s4": 16, "s5": -4}, {"s4": 24}, item="3")
    # Whatever the payout, Leia put in 8 (ante 3, bet 5): her net is the payout less 8, the
    # sabacc pot she showed for included.
    for where, page, box in (("display", t.display, "#d-result-hands"), ("Leia's phone", leia, "#result-hands")):
        row = page.locator(f'{box} tr[data-seat="s4"]')
        paid, net = (plain(row.locator(x).inner_text()) for x in (".sd-payout", ".sd-net"))
        found.check("8", net == str(int(paid) - 8),
                    f"{where}: the last player's net {net} is not her payout {paid} less the 8 she put in")
    for where, page, box in (("display", t.display, "#d-result-hands"), ("Leia's phone", leia, "#result-hands")):
        row = page.locator(f'{box} tr[data-seat="s4"]').inner_text()
        found.check("8", "+6" in row and f"{MINUS}6" in row, f"{where}: the shown cards of the last player read {row!r}")
    t.read_words("hand 2, the result")

    # ---- the cash-out, the history, the audit log and the summary ----------------------------
    t.host({"type": "end_session"})
    t.sync()
    evening = {"s1": -11, "s2": -13, "s3": -11, "s4": 44, "s5": -9}
    shown = {tr.get_attribute("data-seat"): plain(tr.locator("td").nth(1).inner_text())
             for tr in t.display.locator("#d-final tbody tr").all()}
    found.check("3", shown == {s: str(n) for s, n in evening.items()},
                f"the display's final standings: nets {shown} (expected {evening})")
    for seat, page in t.phones.items():
        mine = page.locator("#final-mine").inner_text()
        found.check("3", f"Hand back {after2[seat]} credits" in mine, f"{t.names[seat]}'s final words: {mine!r}")
    t.read_words("the final standings")

    history = t._page(CONSOLE)
    answer = history.goto(f"{live_server.url}/t/{t.code}/history")
    found.check("1", answer is not None and answer.status == 200, "the history page does not open")
    hist = history.locator("main").inner_text()
    t.read_words("the history page", {"history": history}, "main")
    for hand, stacks in ((1, after1), (2, after2)):
        want = ", ".join(f"{t.names[s]} {n}" for s, n in stacks.items())
        found.check("3" if hand == 2 else "money", want in hist, f"the history's stacks after hand {hand} are not {want!r}")
    drawn = history.locator('.showdown-table[data-hand="1"] tr[data-seat="s2"]')
    row = drawn.inner_text() if drawn.count() else "(no row)"
    found.check("7", "+10" in row and "9" in row, f"the history's row of Han, who lost the blind draw, shows no drawn cards: {row!r}")
    hand2 = " ".join(history.locator('.showdown-table[data-hand="2"], '
                                     '.table-wrap:has(.showdown-table[data-hand="2"]) + .sd-pots').all_inner_texts())
    found.check("8", "sabacc pot" in hand2 and "+6" in hand2,
                f"the history of hand 2 leaves out Leia's shown cards or the sabacc pot she won: {hand2!r}")

    for where in ("display", "history", "summary"):
        if where == "summary":
            history.goto(f"{live_server.url}/t/{t.code}/summary")
        text = (t.display if where == "display" else history).locator("main").inner_text()
        found.check("10", "junk penalty none" not in text,
                    f"the {where} names the game “… (junk penalty none)” at a table whose junk penalty is 1")
    history.goto(f"{live_server.url}/t/{t.code}/audit")
    # (The entries' own column is the ledger's command as sent: the API's words, every game's.)
    t.read_words("the audit log", {"audit": history}, "main section[aria-labelledby='seeds-h'], main .event-list")
    rolls = history.locator("ol.rolls").all_inner_texts()
    found.check("10", any("Flask and Flask" in r for r in rolls),
                f"the audit page names the spike dice as numbers: {' | '.join(rolls)[:200]!r}")
    audit = history.locator("main").inner_text()
    wrong = PENALTY_TO_SABACC.search(audit)
    found.check("4", not wrong, f"the audit log says a junk penalty goes to the sabacc pot: "
                                f"{wrong.group(0) if wrong else ''!r}")
    found.check("7", "+10" in audit and ("-9" in audit or f"{MINUS}9" in audit),
                "the audit log shows no blind-draw card")

    history.goto(f"{live_server.url}/t/{t.code}/summary")
    t.read_words("the summary", {"summary": history}, "main")
    put_in = {1: {"s1": 7, "s2": 9, "s3": 7, "s4": 7, "s5": 5}, 2: {"s1": 4, "s2": 4, "s3": 4, "s4": 8, "s5": 4}}
    payout = {1: {"s4": 35}, 2: {"s4": 24}}
    for hand, rows in put_in.items():
        for seat, amount in rows.items():
            cells = history.locator(f'table.summary-hand[data-hand="{hand}"] tr[data-seat="{seat}"] td').all_inner_texts()
            if not cells:
                found.add("9", f"the summary has no row for {t.names[seat]} in hand {hand}")
                continue
            got_in, got_paid, got_net = (plain(c) for c in cells[:3])
            paid = payout[hand].get(seat, 0)
            found.check("9", got_in == str(amount),
                        f"summary, hand {hand}, {t.names[seat]}: put in {got_in} (expected {amount})")
            found.check("3" if hand == 2 and seat in ("s3", "s4") else "money",
                        (got_paid, got_net) == (str(paid), str(paid - amount)),
                        f"summary, hand {hand}, {t.names[seat]}: payout, net {got_paid}, {got_net} "
                        f"(expected {paid}, {paid - amount})")
            if hand == 2 and seat == "s4":  # whatever the payout, the net is the payout less 8
                found.check("8", got_net == str(int(got_paid) - 8),
                            f"summary, hand 2: the last player's net {got_net} is not her payout {got_paid} less 8")
    final = {tr.get_attribute("data-seat"): plain(tr.locator("td").nth(5).inner_text())
             for tr in history.locator("table.standings tbody tr").all()}
    found.check("3", final == {s: str(n) for s, n in evening.items()}, f"the summary's nets {final} (expected {evening})")
    assert not t.errors, t.errors
    found.assert_none()


def test_dealers_choice_from_classic_to_spike_with_the_phones_left_open(tables, findings, live_server):
    found = findings
    t = tables("classic", ("Lando", "Han"), phones=2, stack=30, findings=found)
    lando, han = t.phones["s1"], t.phones["s2"]
    con = t.console
    # Hand 1, classic, to a reveal of classic cards and a sudden demise (the dice entered by
    # the host: 1 and 2, no shift): Lando's 21 takes the hand pot; Han's 27 bombs out.
    t.host({"type": "start_hand"})
    t.money("after the classic hand's antes", {"s1": 28, "s2": 28}, 2, 2)
    for typ, seat, extra in [("check", "s2", {}), ("roll", None, {"dice": [1, 2]}), ("draw", "s2", {"action": "stand"}),
                             ("check", "s1", {}), ("roll", None, {"dice": [1, 2]}), ("draw", "s1", {"action": "stand"}),
                             ("check", "s2", {}), ("roll", None, {"dice": [1, 2]}), ("call_hand", "s1", {}),
                             ("reveal", "s1", {"cards": ["co10", "sa9"]}), ("reveal", "s2", {"cards": ["fl10", "st9"]}),
                             ("demise_card", "s1", {"card": "sa2"}), ("demise_card", "s2", {"card": "co8"})]:
        t.host({"type": typ, **extra, **({"seat": seat} if seat else {})})
    t.money("after the classic hand", {"s1": 30, "s2": 28}, 0, 2)

    # Dealer's choice at the console; the phones and the display are not reloaded.
    before = t.owner.version
    con.locator("#rules-preset").select_option("spike")
    con.get_by_role("button", name="Play this from the next hand").click()
    expect(con.locator("body")).to_have_attribute("data-version", str(before + 1))
    t.host({"type": "start_hand"})
    t.host({"type": "discard_top", "card": "-3"})
    t.money("after the Spike hand's antes", {"s1": 27, "s2": 25}, 2, 6)
    # A page that still shows the old game is given time once (2.5 s); the others, drawn at the
    # same version, are read at once after that.
    patience = [2500]

    def soon_once(locator, text):
        if soon(locator, text, patience[0]):
            return True
        patience[0] = 200
        return False

    for name, page, where in (("Lando's phone", lando, ".numbers"), ("Han's phone", han, ".numbers"),
                              ("the display", t.display, ".d-top"), ("the console", con, "#hand-facts")):
        if not soon_once(page.locator(where), "Game pot"):
            text = " ".join(page.locator(where).inner_text().split())
            found.add("2", f"after the change of game, {name} reads {text!r} (no “Game pot”)")
    live = {"Lando": lando, "Han": han}
    # (The last actions still tell the classic hand in its own words: they are left out.)
    t.read_words("the first Spike hand after the change, on the open phones", live,
                 "#seat-ui > :not(section[aria-labelledby='log-title']):visible", item="2")

    def by_phone(page, label, card):
        t.synced(page)
        assert soon_once(page.locator('#discard-picker .suit-tab[data-tab="plus"]'), "Positive"), \
            f"its discard picker offers {page.locator('#discard-picker .suit-tab').all_inner_texts()}"
        t.discard_move(page, label, card)

    if not found.attempt("2", "Lando's open phone cannot pick the Spike card he discards",
                         lambda: by_phone(lando, "Gain and discard it", "+7")):
        t.for_seat("s1", "draw", action="gain_discard", card="+7")
    if not found.attempt("2", "Han's open phone cannot pick the Spike card he discards",
                         lambda: by_phone(han, "Swap with the discard pile", "-9")):
        t.for_seat("s2", "draw", action="swap", card="-9")
    t.money("after the Spike turn phase", {"s1": 27, "s2": 23}, 4, 6)
    t.tap(lando, "Check")
    t.tap(han, "Check")
    t.tap(han, "Roll the spike dice", dice=[1, 4])
    t.sync()
    roll = t.display.locator("#d-roll").inner_text()
    found.check("10", "Spike and Compass" in roll, f"the display names the spike dice {roll!r} (“Spike and Compass”)")
    for dice in ([2, 3], [5, 6]):
        for seat in ("s1", "s2"):
            t.for_seat(seat, "draw", action="stand")
        for seat in ("s1", "s2"):
            t.for_seat(seat, "check")
        t.roll(dice)

    def reveal(page, cards):
        t.synced(page)
        expect(page.locator("#reveal-panel")).to_be_visible()
        assert soon_once(page.locator('#reveal-picker .suit-tab[data-tab="plus"]'), "Positive"), \
            f"its reveal picker offers {page.locator('#reveal-picker .suit-tab').all_inner_texts()}"
        t.enter_cards(page, "reveal-picker", cards, "#reveal-send")

    for seat, page, cards in (("s1", lando, ["+2", "-2"]), ("s2", han, ["+8", "-1"])):
        if not found.attempt("2", f"{t.names[seat]}'s open phone cannot enter a Spike hand",
                             lambda: reveal(page, cards)):
            t.for_seat(seat, "reveal", cards=cards)
    t.money("after the Spike hand", {"s1": 37, "s2": 23}, 0, 0)
    t.read_words("the Spike hand's result, on the open phones", live, "#result-panel")
    t.read_words("the Spike hand's result, on the display", {"display": t.display}, "#d-result")

    history = t._page(CONSOLE)
    answer = history.goto(f"{live_server.url}/t/{t.code}/history")
    if found.check("1", answer is not None and answer.status == 200,
                   f"the history page after the change of game answers {answer.status if answer else None}"):
        games = history.locator("table.hands tbody tr td.game").all_inner_texts()
        found.check("1", len(games) == 2, f"the history names the games {games}")
    assert not t.errors, t.errors
    found.assert_none()
