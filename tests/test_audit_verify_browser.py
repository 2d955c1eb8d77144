"""The audit page checks each revealed hand's dice in the browser, without the server: the
plain-JS SHA-256 and HMAC-SHA256 (web/static/js/sha256.js; the phones get plain http, so no
crypto.subtle) meet the published test vectors, the seed derivation (web/static/js/verify.js)
agrees with `companion.scrambler.seed`, and on a real table rolled by `SeededRoller` the page's
button says in words that the dice check out, or which roll does not."""

from __future__ import annotations

import hashlib
import random
import re
from unittest import mock

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from companion.games import registry
from companion.rules.rulesets import Trigger
from companion.scrambler.dice import DICE
from companion.scrambler.seed import SeededRoller, commitment, derive_dice, verify
from companion.server import create_app

from conftest import PHONE, screenshot

pytestmark = pytest.mark.browser

BUTTON = "Check the dice in this browser"
KNOWN_SEED = bytes(range(32))  # the known answer in companion/scrambler/seed.py's docstring


@pytest.fixture
def app(tmp_path):
    """The app as `serve` makes it: every table rolls from a committed seed."""
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data"), "ROLLER_FACTORY": SeededRoller})


@pytest.fixture
def page(chromium, live_server):
    """A phone's page, closed before the server stops. Without the service worker and the
    table's event stream (the audit page's live rows): the check under test needs neither, and
    both would leave requests in flight when the server stops."""
    context = chromium.new_context(**PHONE, service_workers="block")
    context.route("**/api/v1/tables/*/events", lambda route: route.abort())
    yield context.new_page()
    context.close()


def modules(page, base):
    """Open a page of the site and load the two modules into it as `window.sha` and `window.v`."""
    page.goto(base + "/host")
    page.evaluate("""async () => {
        window.sha = await import("/static/js/sha256.js");
        window.v = await import("/static/js/verify.js");
        window.hex = (text) => window.sha.toHex(window.sha.sha256(new TextEncoder().encode(text)));
    }""")


# -- the hash functions -------------------------------------------------------------------------


def test_sha256_in_the_browser_meets_the_fips_vectors_and_hashlib(page, live_server):
    modules(page, live_server.url)
    # FIPS 180-2, appendix B: one block, the empty message, and a message that spills into a
    # second block of padding.
    assert page.evaluate("hex('abc')") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert page.evaluate("hex('')") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert page.evaluate("hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')") == (
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    # Every padding boundary around one and two blocks, against Python's hashlib.
    rng = random.Random(5)
    messages = [rng.randbytes(n) for n in (*range(50, 70), *range(115, 135), 1000)]
    got = page.evaluate("(ms) => ms.map((m) => sha.toHex(sha.sha256(new Uint8Array(m))))", [list(m) for m in messages])
    assert got == [hashlib.sha256(m).hexdigest() for m in messages]


def test_hmac_sha256_in_the_browser_meets_rfc_4231(page, live_server):
    modules(page, live_server.url)
    hmac = "([k, m]) => sha.toHex(sha.hmacSha256(new Uint8Array(k), new TextEncoder().encode(m)))"
    # Test case 1: a 20-byte key of 0x0b; test case 2: the key "Jefe".
    assert page.evaluate(hmac, [[0x0B] * 20, "Hi There"]) == (
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    assert page.evaluate(hmac, [list(b"Jefe"), "what do ya want for nothing?"]) == (
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    # Test case 6: a key longer than a block is hashed first.
    assert page.evaluate(hmac, [[0xAA] * 131, "Test Using Larger Than Block-Size Key - Hash Key First"]) == (
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")


# -- the seed derivation --------------------------------------------------------------------------


def test_browser_derives_the_same_commitment_and_dice_as_the_server(page, live_server):
    modules(page, live_server.url)
    rng = random.Random(20261121)
    seeds = [KNOWN_SEED] + [rng.randbytes(32) for _ in range(5)]
    derive = """([seed, count, sides, n]) => ({
        commitment: v.commitmentOf(seed),
        rolls: Array.from({length: n}, (_, i) => v.deriveDice(seed, i, count, sides)),
    })"""
    for seed in seeds:
        for trigger, (count, sides) in DICE.items():
            got = page.evaluate(derive, [seed.hex(), count, sides, 12])
            assert got["commitment"] == commitment(seed)
            assert got["rolls"] == [list(derive_dice(seed, i, trigger)) for i in range(12)], (seed.hex(), trigger)
    # The docstring's known answer, three rolls of two d6.
    assert page.evaluate("v.deriveDice(" + repr(KNOWN_SEED.hex()) + ", 1, 2, 6)") == [6, 4]
    # 40 dice need a second HMAC block ("roll:<i>:1"): the server, told to throw 40 d20, agrees.
    with mock.patch.dict(DICE, {Trigger.D20: (40, 20)}):
        for seed in seeds[:3]:
            want = [list(derive_dice(seed, i, Trigger.D20)) for i in range(3)]
            assert page.evaluate(derive, [seed.hex(), 40, 20, 3])["rolls"] == want


def test_check_hand_names_what_does_not_match(page, live_server):
    modules(page, live_server.url)
    seed = KNOWN_SEED.hex()
    check = "([hand, dice]) => v.checkHand(hand, dice)"
    dice = {"2d6-doubles": [2, 6]}
    rolls = [{"trigger": "2d6-doubles", "dice": list(d)} for d in ((5, 2), (6, 4), (3, 1))]
    good = page.evaluate(check, [{"seed": seed, "commitment": commitment(KNOWN_SEED), "rolls": rolls}, dice])
    assert good == {"ok": True, "problems": [], "recomputed": [
        {"index": i, "trigger": "2d6-doubles", "dice": r["dice"]} for i, r in enumerate(rolls)]}
    # A timer firing between rolls takes no roll number.
    timer = [rolls[0], {"trigger": "timer", "dice": []}, *rolls[1:]]
    assert page.evaluate(check, [{"seed": seed, "commitment": commitment(KNOWN_SEED), "rolls": timer}, dice])["ok"]
    bad = [rolls[0], {"trigger": "2d6-doubles", "dice": [6, 3], "entry": 7}, rolls[2]]
    got = page.evaluate(check, [{"seed": seed, "commitment": "00" * 32, "rolls": bad}, dice])
    assert got["ok"] is False and len(got["problems"]) == 2
    assert got["problems"][0].startswith("The seed does not match the commitment")
    assert got["problems"][1] == ("The roll of entry 7 (2d6-doubles) differs: the log records 6 and 3, "
                                  "the seed gives 6 and 4.")
    assert verify(KNOWN_SEED, "00" * 32, bad).ok is False  # the server's verify agrees
    short = page.evaluate(check, [{"seed": "abc", "commitment": commitment(KNOWN_SEED), "rolls": rolls}, dice])
    assert short["ok"] is False and short["problems"] == ["The seed is not valid: a seed is 32 bytes (64 hex digits)."]


def serious_violations(page) -> list:
    """axe-core's serious and critical findings on `page`."""
    results = Axe().run(page)
    return [(v["id"], [n["target"] for n in v["nodes"]][:3])
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


# -- the audit page of a real table -------------------------------------------------------------


class Table:
    """A table through the API (Flask's client on the served app), rolled by its SeededRoller."""

    def __init__(self, app, rules):
        self.client = app.test_client()
        made = self.client.post("/api/v1/tables", json={"rules": rules})
        assert made.status_code == 201, made.get_json()
        self.code = made.get_json()["code"]
        self.host = {"Authorization": "Bearer " + made.get_json()["host_token"]}
        self.seats = {}
        for name in ("Han", "<b>Lando</b>"):
            joined = self.client.post(f"/api/v1/tables/{self.code}/join", json={"name": name}).get_json()
            self.seats[joined["seat"]] = {"Authorization": "Bearer " + joined["token"]}

    def do(self, who, **entry):
        headers = self.host if who == "host" else self.seats[who]
        got = self.client.post(f"/api/v1/tables/{self.code}/commands", json=entry, headers=headers)
        assert got.status_code == 200, (entry, got.get_json())
        return got.get_json()

    def log(self):
        got = self.client.get(f"/api/v1/tables/{self.code}/log", headers=self.host)
        assert got.status_code == 200, got.get_json()
        return got.get_json()


def play_seeded_hand(table: Table) -> list[int]:
    """A hand whose dice the server's roller throws: Lando checks, a roll (then undone by the
    host: the roller takes it back), the roll again (the same dice), Lando stands; Han
    checks, a roll, Han stands; Lando bets 1 and Han folds, which ends the hand and reveals
    its seed. Returns the entries of the two rolls that stand."""
    for seat in table.seats:
        table.do(seat, type="buy_in", amount=20)
    table.do("host", type="start_hand")
    table.do("s2", type="check")
    first = table.do("host", type="roll")["seq"]
    undone = table.client.post(f"/api/v1/tables/{table.code}/undo", json={}, headers=table.host)
    assert undone.status_code == 200, undone.get_json()
    dice = next(e["body"]["dice"] for e in table.log()["entries"] if e["seq"] == first)
    second = table.do("host", type="roll")["seq"]
    assert next(e["body"]["dice"] for e in table.log()["entries"] if e["seq"] == second) == dice
    table.do("s2", type="draw", action="stand")
    table.do("s1", type="check")
    third = table.do("host", type="roll")["seq"]
    table.do("s1", type="draw", action="stand")
    table.do("s2", type="bet", amount=1)
    table.do("s1", type="fold")
    return [second, third]


def hand_record(table: Table) -> dict:
    """The revealed hand as the server's ledger has it: seed, commitment and the rolls' dice."""
    hand = {"rolls": []}
    for e in table.log()["entries"]:
        body = e["body"]
        if e["type"] == "start_hand":
            hand["commitment"] = body["seed_commitment"]
        elif e["type"] == "roll" and e["undone_by"] is None:
            hand["rolls"].append({"dice": body["dice"], "seq": e["seq"]})
        elif e["type"] == "reveal_seed":
            hand["seed"] = body["seed"]
    return hand


@pytest.mark.parametrize("rules, trigger", [("weg", "d6-low"), ({"preset": "weg", "scrambler_trigger": "2d6-doubles"}, "2d6-doubles")])
def test_audit_page_checks_a_seeded_hand_in_the_browser(page, app, live_server, rules, trigger):
    table = Table(app, rules)
    seqs = play_seeded_hand(table)
    hand = hand_record(table)
    assert [r["seq"] for r in hand["rolls"]] == seqs and "seed" in hand
    assert verify(hand["seed"], hand["commitment"], [{"trigger": trigger, "dice": r["dice"]} for r in hand["rolls"]]).ok

    page.goto(f"{live_server.url}/t/{table.code}/audit")
    article = page.locator("article.hand-seeds").filter(has_text=hand["seed"])
    article.get_by_role("button", name=BUTTON).click()
    result = article.get_by_role("status")
    expect(result).to_have_text("The seed matches the commitment and gives all 2 rolls.")
    assert result.get_attribute("aria-live") == "polite"
    assert serious_violations(page) == []
    # The browser's own numbers are the server's: the table it read came from DICE and from
    # every game's own dice (a Kessel or Coruscant hand's rolls are checked the same way).
    dice_table = page.evaluate("() => JSON.parse(document.querySelector('[data-dice-table]').dataset.diceTable)")
    games_dice = {key: [d.count, d.sides] for key, d in registry.dice().items() if d.count}
    assert dice_table == {**games_dice, **{t.value: list(shape) for t, shape in DICE.items()}}
    assert games_dice["kessel-dice"] == games_dice["coruscant-target"] == [2, 6]


def test_audit_page_says_which_roll_the_seed_does_not_give(page, app, live_server):
    table = Table(app, "weg")
    seqs = play_seeded_hand(table)
    hand = hand_record(table)
    tampered = hand["rolls"][1]
    was = tampered["dice"][0]
    fake = 1 if was != 1 else 2
    url = f"{live_server.url}/t/{table.code}/audit"

    def change_one_die(route):
        # The box's page, as a dishonest box would serve it: one recorded die changed.
        response = route.fetch()
        body, n = re.subn(rf'(data-entry="{seqs[1]}" data-trigger="d6-low" data-dice=")\d+"',
                          rf'\g<1>{fake}"', response.text())
        assert n == 1
        route.fulfill(response=response, body=body)

    page.route(url, change_one_die)
    page.goto(url)
    page.get_by_role("button", name=BUTTON).click()
    result = page.locator("article.hand-seeds").get_by_role("status")
    expect(result).to_contain_text("The dice do not check out: one problem.")
    expect(result.get_by_role("listitem")).to_have_text(
        f"The roll of entry {seqs[1]} (d6-low) differs: the log records {fake}, the seed gives {was}.")

    # A seed that is not the committed one: every roll is off, and the commitment says so first.
    page.unroute(url)
    page.goto(url)
    other = random.Random(1).randbytes(32).hex()
    page.locator("article.hand-seeds").evaluate("(el, seed) => { el.dataset.seed = seed; }", other)
    page.get_by_role("button", name=BUTTON).click()
    problems = result.get_by_role("listitem")
    expect(problems.first).to_have_text(
        f"The seed does not match the commitment: SHA-256 of the seed is {commitment(other)}, "
        f"the published commitment is {hand['commitment']}.")
    wrong = sum(list(derive_dice(other, i, Trigger.D6_LOW)) != r["dice"] for i, r in enumerate(hand["rolls"]))
    expect(problems).to_have_count(1 + wrong)
    # The words fit a phone (64 hex digits break) and the page stays accessible.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    assert serious_violations(page) == []
    screenshot(page, "audit-verify-mismatch")


def test_a_hand_whose_seed_is_not_revealed_gets_no_check_button(page, app, live_server):
    table = Table(app, "weg")
    for seat in table.seats:
        table.do(seat, type="buy_in", amount=20)
    table.do("host", type="start_hand")
    table.do("s2", type="check")
    table.do("host", type="roll")
    page.goto(f"{live_server.url}/t/{table.code}/audit")
    expect(page.locator("article.hand-seeds")).to_contain_text("not revealed yet")
    expect(page.get_by_role("button", name=BUTTON)).to_have_count(0)
