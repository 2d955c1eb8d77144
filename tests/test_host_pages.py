"""The host's pages and each table's own pages, through Flask's test client: start page,
console, table rules, audit log (counter-entries, dice, seeds you can verify), history and
its chart, standings with chip breakdowns, the seat-move QR code, and the installable app."""

from __future__ import annotations

import html
import json
import re
import shlex
import struct
import xml.etree.ElementTree as ET

import pytest

from companion.cli import main as cli_main
from companion.games.classic.explain import explain, section
from companion.games.classic.presets import PRESETS
from companion.rules.rulesets import Trigger, ruleset_from
from companion.scrambler.seed import commitment, derive_rolls
from companion.server.host_pages import event_words, showdown_rows

SEED = bytes(range(32))
EVIL = "<script>x()</script>"  # the engine allows 24 characters


class Table:
    """A table made through the API, with its host and seat tokens."""

    def __init__(self, client, settings=None, names=("Han", "Lando")):
        self.client = client
        made = client.post("/api/v1/tables", json=settings or {"rules": "weg"})
        assert made.status_code == 201, made.get_json()
        self.code = made.get_json()["code"]
        self.host = {"Authorization": "Bearer " + made.get_json()["host_token"]}
        self.seats = {}
        for name in names:
            joined = client.post(f"/api/v1/tables/{self.code}/join", json={"name": name}).get_json()
            self.seats[joined["seat"]] = {"Authorization": "Bearer " + joined["token"]}
            self.tokens = getattr(self, "tokens", {}) | {joined["seat"]: joined["token"]}

    def do(self, who, **entry):
        """Send a command as `who` ("host" or a seat id); it must be accepted."""
        headers = self.host if who == "host" else self.seats[who]
        got = self.client.post(f"/api/v1/tables/{self.code}/commands", json=entry, headers=headers)
        assert got.status_code == 200, (entry, got.get_json())
        return got.get_json()

    def undo(self, **body):
        got = self.client.post(f"/api/v1/tables/{self.code}/undo", json=body, headers=self.host)
        assert got.status_code == 200, got.get_json()
        return got.get_json()

    def page(self, path):
        got = self.client.get(f"/t/{self.code}/{path}")
        assert got.status_code == 200
        return got.get_data(as_text=True)


def play_committed_hand(t: Table, rolls=None) -> None:
    """West End Games, two players with 20 each: a hand with a seed commitment and two rolls
    entered by the host, then Lando bets 1 and Han folds. Afterwards Han has 17, Lando 20 and
    the sabacc pot 3 (antes 1 + 1 each into an empty sabacc pot, Han's fold fee 1)."""
    rolls = rolls or [d for (d,) in derive_rolls(SEED, Trigger.D6_LOW, 2)]
    for seat in t.seats:
        t.do(seat, type="buy_in", amount=20)
    t.do("host", type="start_hand", seed_commitment=commitment(SEED))
    t.do("s2", type="check")
    t.do("host", type="roll", dice=[rolls[0]])
    t.do("s2", type="draw", action="stand")
    t.do("s1", type="check")
    t.do("host", type="roll", dice=[rolls[1]])
    t.do("s1", type="draw", action="stand")
    t.do("s2", type="bet", amount=1)
    t.do("s1", type="fold")
    t.do("host", type="reveal_seed", seed=SEED.hex())


# -- pages answer --------------------------------------------------------------------------


def test_every_host_and_table_page_answers_and_unknown_tables_are_404(client):
    t = Table(client)
    assert client.get("/host").status_code == 200
    for path in ("host", "rules", "audit", "history", "chart.svg", "standings.json"):
        assert client.get(f"/t/{t.code}/{path}").status_code == 200, path
        assert client.get(f"/t/{t.code.lower()}/{path}").status_code == 200, path  # any case
        assert client.get(f"/t/KKKKK/{path}").status_code == 404, path
        assert client.get(f"/t/not-a-code/{path}").status_code == 404, path


def test_start_page_offers_every_preset_with_its_one_line_summary(client):
    page = client.get("/host").get_data(as_text=True)
    for name, rs in PRESETS.items():
        assert f'value="{name}"' in page
        assert html.escape(rs.summary, quote=False) in page
    for label in ("Ante, credits", "Buy-in, credits", "Bet and raise limit, credits", "Fold fee to the sabacc pot, credits",
                  "Pot-building rounds before a call", "Fixed penalty, credits", "When the scrambler shifts",
                  "What a shift does", "Force Sabacc"):
        assert label in page


def test_start_page_carries_each_presets_defaults_for_the_form(client):
    page = client.get("/host").get_data(as_text=True)
    found = re.search(r'id="preset-holodex" value="holodex"\s+data-defaults="([^"]*)"', page)
    defaults = json.loads(html.unescape(found.group(1)))
    assert defaults["ante"] == 5 and defaults["buy_in"] == 500 and defaults["bet_limit"] is None
    assert defaults["pot_building_rounds"] == 2 and defaults["bomb_out_penalty"] == "hand_pot"
    assert defaults["chip_set"][0] == {"name": "aurodium", "value": 100, "per_buy_in": 2}


def test_console_names_the_table_and_its_settings(client):
    t = Table(client, {"rules": {"preset": "holodex", "ante": 10}, "max_seats": 6})
    page = t.page("host")
    assert f'data-code="{t.code}"' in page
    assert "Games of the Galaxy Holodex (holodex), changed: ante" in page
    assert "<dt>Ante</dt><dd>10</dd>" in page and "<dt>Seats at most</dt><dd>6</dd>" in page


def test_table_rules_page_explains_the_tables_own_options(client):
    t = Table(client, {"rules": {"preset": "weg", "bet_limit": 10, "fold_fee": 2}})
    page = t.page("rules")
    money = section(explain(ruleset_from({"preset": "weg", "bet_limit": 10, "fold_fee": 2})), "money")
    for p in money.paragraphs + money.points:
        assert html.escape(p, quote=False).replace("'", "&#39;") in page
    assert "10 credits" in money.text()
    assert '<span class="tag">bet limit</span>' in page and '<span class="tag">fold fee</span>' in page


# -- the audit log -------------------------------------------------------------------------


def test_audit_log_keeps_an_undone_entry_next_to_its_counter_entry(client):
    t = Table(client)
    for seat in t.seats:
        t.do(seat, type="buy_in", amount=20)
    t.do("host", type="start_hand")
    bet = t.do("s2", type="bet", amount=2)
    undone = t.undo()
    assert undone["undone"] == bet["seq"]
    page = t.page("audit")
    row = re.search(rf'<tr id="entry-{bet["seq"]}"[^>]*class="([^"]*)"(.*?)</tr>', page, re.S)
    assert "is-undone" in row.group(1)
    assert f'undone by <a href="#entry-{undone["seq"]}">entry {undone["seq"]}</a>' in row.group(2)
    assert "Lando bets 2" in row.group(2)
    counter = re.search(rf'<tr id="entry-{undone["seq"]}"(.*?)</tr>', page, re.S).group(1)
    assert f'<strong>Undo</strong> of <a href="#entry-{bet["seq"]}">entry {bet["seq"]}</a>' in counter
    # what was undone, in words (not only "entry 47")
    assert f"bet of 2 (entry {bet['seq']}) is undone" in counter and "counter-entry: Lando" in counter


def test_audit_rows_after_an_entry_are_served_for_live_updates(client):
    t = Table(client)
    t.do("s1", type="buy_in", amount=20)
    version = client.get(f"/api/v1/tables/{t.code}").get_json()["version"]
    t.do("s2", type="buy_in", amount=30)
    rows = client.get(f"/t/{t.code}/audit?rows=1&after={version}").get_data(as_text=True)
    assert rows.count("<tr ") == 1 and "Lando buys in for 30 (stack 30)" in rows
    assert client.get(f"/t/{t.code}/audit?after=x").status_code == 400


def test_audit_log_shows_every_roll_and_a_verify_command_that_checks_out(client, capsys):
    t = Table(client)
    play_committed_hand(t)
    page = t.page("audit")
    dice = [d for (d,) in derive_rolls(SEED, Trigger.D6_LOW, 2)]
    assert commitment(SEED) in page and SEED.hex() in page
    command = html.unescape(re.search(r'<pre class="command"[^>]*><code>(.*?)</code></pre>', page, re.S).group(1))
    assert command.endswith(f"--roll d6-low:{dice[0]} --roll d6-low:{dice[1]}")
    argv = shlex.split(command)
    assert argv[0] == "sabacc-companion"
    assert cli_main(argv[1:]) == 0  # the seed matches the commitment and gives both rolls


def test_a_roll_that_the_seed_does_not_give_fails_the_audit_pages_verify_command(client, capsys):
    t = Table(client)
    good = [d for (d,) in derive_rolls(SEED, Trigger.D6_LOW, 2)]
    play_committed_hand(t, rolls=[good[0], 1 if good[1] != 1 else 2])
    page = t.page("audit")
    command = html.unescape(re.search(r'<pre class="command"[^>]*><code>(.*?)</code></pre>', page, re.S).group(1))
    assert cli_main(shlex.split(command)[1:]) == 1


def test_audit_words_never_show_an_entered_card():
    names = {"s1": "Han"}
    assert "sa5" not in event_words({"type": "demise_card_entered", "seat": "s1", "card": "sa5"}, names)
    assert event_words({"type": "cards_entered", "seat": "s1"}, names) == "Han has entered their hand"


def test_the_audit_log_says_a_games_own_events_in_that_games_words():
    # Each game declares how the log says its own events (Game.log_words); a tie broken by
    # drawn cards is the runtime's block, whose events the log says under the names the hand's
    # game gives them (its BLOCKS["tie"]: the tie card both games enter is one event name).
    names = {"s1": "Han", "s2": "Lando"}
    classic, spike = ruleset_from("classic"), ruleset_from("spike")
    assert event_words({"type": "static_added", "seat": "s1", "card": "sa5"}, names, classic) == \
        "Han puts sa5 in the static field"
    assert event_words({"type": "static_removed", "seat": "s2", "card": "c3"}, names, classic) == \
        "Lando takes c3 out of the static field"
    assert event_words({"type": "sudden_demise"}, names, classic) == "sudden demise"
    assert event_words({"type": "blind_draw"}, names, spike) == "blind draw"
    entered = {"type": "demise_card_entered", "seat": "s1", "card": "sa5"}
    assert event_words(entered, names, classic) == "Han has entered a sudden-demise card"
    assert event_words(entered, names, spike) == "Han has entered a blind-draw card"
    # A settled hand of drawn tie cards lists them, named as the game names its tie.
    settled = {"type": "settled", "stacks": {"s1": 12, "s2": 8}, "sabacc_pot": 0,
               "settlement": {"hands": [{"name": "s1", "blind_draw": ["+5", "+1"]}, {"name": "s2"}]}}
    assert event_words(settled, names, spike).endswith("; blind draw: Han +5 +1")
    assert "blind draw" not in event_words({**settled, "settlement": {"hands": []}}, names, spike)


def test_a_hands_history_says_each_games_tie_and_penalties_in_its_words():
    # Classic's sudden demise (its Game.tie_column): the card dealt, the new total and kind; the
    # penalty of a hand over the limit is said as the ranking's kind of hand.
    names = {"s1": "Han", "s2": "Lando"}
    classic = {"hand": 3, "cards": {"s1": ["sa5", "sa3"], "s2": ["st7", "st9"]},
               "settlement": {"status": "settled", "payouts": {"s1": 6, "s2": -6},
                              "pots": [{"amount": 6, "eligible": ["s1", "s2"], "winners": ["s1"]}],
                              "penalties": [{"name": "s2", "reason": "bomb_out", "amount": 6}],
                              "hands": [{"name": "s1", "total": 8, "kind": "ordinary", "demise": "sa2",
                                         "demise_total": 10, "demise_kind": "ordinary"},
                                        {"name": "s2", "total": 16, "kind": "ordinary", "demise": "st11",
                                         "demise_total": 27, "demise_kind": "bomb_out"}]}}
    rules = ruleset_from("classic")
    rows = showdown_rows(classic, names, rules)
    assert [r["tie"] for r in rows["rows"]] == [f"{rules.deck.display_name('sa2')}: 10, ordinary",
                                                   f"{rules.deck.display_name('st11')}: 27, bombed out"]
    assert rows["tie"] == "Sudden demise" and "Lando bombed out: pays 6." in rows["pots"]
    # Spike has no tie column of its own: the cards each tied player drew, in the deck's names.
    spike = {"hand": 1, "cards": {"s1": ["+5", "-5"], "s2": ["+4", "-4"]},
             "settlement": {"status": "settled", "payouts": {"s1": 4, "s2": -4},
                            "pots": [{"amount": 4, "eligible": ["s1", "s2"], "winners": ["s1"]}],
                            "hands": [{"name": "s1", "total": 0, "kind": "sabacc", "blind_draw": ["+5", "+1"]},
                                      {"name": "s2", "total": 0, "kind": "sabacc", "blind_draw": ["+5", "-1"]}]}}
    rows = showdown_rows(spike, names, ruleset_from("spike"))
    deck = ruleset_from("spike").deck
    assert rows["rows"][0]["tie"] == f"{deck.display_name('+5')}, then {deck.display_name('+1')}"
    assert rows["tie"] == "Blind draw"


def test_the_audit_log_says_each_turn_action_in_the_games_own_words(client):
    """Spike's turn actions are logged by id ("gain_keep"): the audit log says what each did
    as the phones' last actions do, never the id made into a verb ("gain_keeps a card")."""
    t = Table(client, {"rules": "spike"}, names=("Han", "Lando", "Chewie"))
    for sid in t.seats:
        t.do(sid, type="buy_in", amount=30)
    t.do("host", type="start_hand")
    hand = client.get(f"/api/v1/tables/{t.code}").get_json()["state"]["hand"]
    first, second, third = (p["seat"] for p in hand["players"])
    t.do(first, type="draw", action="gain_keep")
    t.do(second, type="draw", action="stand")
    t.do(third, type="draw", action="gain_discard", card="-6")
    names = dict(zip(t.seats, ("Han", "Lando", "Chewie")))
    said = [html.unescape(w) for w in re.findall(r"<li>(.*?)</li>", t.page("audit"))]
    assert f"{names[first]} gains a card and keeps it (hand size 3)" in said
    assert f"{names[second]} stands (hand size 2)" in said
    assert f"{names[third]} gains a card and discards it (hand size 2)" in said
    assert not [w for w in said if "gain_" in w]


# -- history, chart and standings -----------------------------------------------------------


def test_history_chart_and_standings_after_a_hand(client):
    t = Table(client, names=("Han", EVIL))
    play_committed_hand(t)
    svg = client.get(f"/t/{t.code}/chart.svg")
    assert svg.mimetype == "image/svg+xml"
    root = ET.fromstring(svg.get_data(as_text=True))  # well-formed
    assert not [el for el in root.iter() if el.tag.endswith("script")]
    titles = {g.get("data-seat"): g.find("{http://www.w3.org/2000/svg}title").text
              for g in root.iter("{http://www.w3.org/2000/svg}g")}
    assert titles == {"s1": "Han", "s2": EVIL}
    page = t.page("history")
    assert EVIL not in page and html.escape(EVIL) in page
    standings = client.get(f"/t/{t.code}/standings.json").get_json()["standings"]
    assert [(r["name"], r["stack"], r["net"], r["chips"]["words"]) for r in standings] == [
        (EVIL, 20, 0, "4 argentium"),
        ("Han", 17, -3, "3 argentium, 2 bronzium"),
    ]
    assert "3 argentium, 2 bronzium" in page


def test_final_standings_count_items_and_adjustments_apart_from_winnings(client):
    t = Table(client, {"rules": "weg", "bet_limit": 50})  # the Falcon's stake is a bet of 50
    for seat in t.seats:
        t.do(seat, type="buy_in", amount=20)
    t.do("host", type="adjust", seat="s1", amount=5, reason="a chip found under the table")
    t.do("host", type="start_hand")
    t.do("host", type="stake", seat="s2", item="the Falcon", value=50)
    t.do("s1", type="fold")  # the Falcon is his bet of 50 (the Plutt ruling): Lando wins the
    # hand pot, antes 2 and the Falcon's 50
    t.do("host", type="end_session")
    rows = {r["name"]: r for r in client.get(f"/t/{t.code}/standings.json").get_json()["standings"]}
    # The sabacc pot (antes 1 + 1, the fold fee 1) is split at the end of the session: 1 each,
    # the odd credit to the dealer's left (the ruling).
    assert rows["Han"]["sabacc_share"] + rows["Lando"]["sabacc_share"] == 3
    han, lando = rows["Han"]["sabacc_share"], rows["Lando"]["sabacc_share"]
    assert rows["Han"]["stack"] == 25 - 2 - 1 + han and rows["Han"]["adjusted"] == 5
    assert rows["Han"]["net"] == -3 + han
    assert rows["Lando"]["stack"] == 20 - 2 + 1 + 50 + 1 + lando and rows["Lando"]["items"] == 50
    assert rows["Lando"]["net"] == 70 + lando - 20 - 50
    words = rows["Lando"]["chips"]["words"]
    page = t.page("history")
    assert "Final standings" in page and words in page
    lando_row = re.search(r'<tr data-seat="s2">(.*?)</tr>', page, re.S).group(1)
    assert re.findall(r'<td class="num[^"]*">([^<]*)</td>', lando_row) == [
        "20", "50", "0", "0", str(70 + lando), f"+{lando}", str(lando)]


# -- moving a seat to a new phone -------------------------------------------------------------


def test_seat_move_qr_is_drawn_only_for_that_seats_valid_token(client):
    t = Table(client)
    issued = client.post(f"/api/v1/tables/{t.code}/seats/s1/token", headers=t.host).get_json()["token"]
    good = client.get(f"/t/{t.code}/seat-qr.svg", query_string={"seat": "s1", "token": issued})
    assert good.status_code == 200 and good.mimetype == "image/svg+xml"
    ET.fromstring(good.get_data(as_text=True))
    assert good.headers["Cache-Control"] == "no-store"
    for seat, token in (("s2", issued), ("s1", t.tokens["s1"]), ("s1", "")):  # the old token is void
        assert client.get(f"/t/{t.code}/seat-qr.svg", query_string={"seat": seat, "token": token}).status_code == 404


# -- the installable app ---------------------------------------------------------------------


def fetch(client, url, ok=True):
    """The body of `url` (None for a non-200 answer unless `ok`), the file closed again."""
    response = client.get(url)
    try:
        if response.status_code != 200:
            assert not ok, f"{url}: {response.status_code}"
            return None
        return response.get_data()
    finally:
        response.close()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_manifest_is_json_with_real_icons_of_the_declared_sizes(client):
    got = client.get("/manifest.webmanifest")
    got.close()
    assert got.mimetype == "application/manifest+json"
    manifest = json.loads(got.get_data(as_text=True))
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    # The dark theme's background, as in base.html's theme-color and app.css's --bg.
    assert manifest["theme_color"] == manifest["background_color"] == "#0b0e14"
    sizes = set()
    for icon in manifest["icons"]:
        data = fetch(client, icon["src"])
        if icon["type"] == "image/png":
            w, h = png_size(data)
            assert icon["sizes"] == f"{w}x{h}"
            sizes.add(w)
        else:
            assert ET.fromstring(data).tag == "{http://www.w3.org/2000/svg}svg"
    assert {192, 512} <= sizes


def load_script(path):
    """Run a script of the tree (not a module of the package) and return its names, without
    writing bytecode beside it: an import would leave web/static/icons/__pycache__/ behind,
    and the next packaging test would find it (issue 14 item 11)."""
    import types

    module = types.ModuleType(path.stem)
    module.__file__ = str(path)
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    return module


def test_icons_script_draws_the_committed_pngs(tmp_path):
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "web/static/icons/make_icons.py"
    module = load_script(path)
    assert module.png(192) == (path.parent / "icon-192.png").read_bytes()


def test_item11_the_icons_test_leaves_no_pycache_in_the_tree(tmp_path):
    import shutil
    from pathlib import Path

    copy = tmp_path / "make_icons.py"
    shutil.copy(Path(__file__).resolve().parent.parent / "web/static/icons/make_icons.py", copy)
    load_script(copy).png(16)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["make_icons.py"]


def test_service_worker_is_served_from_the_root_as_javascript(client):
    got = client.get("/sw.js")
    assert got.status_code == 200
    assert got.mimetype in ("text/javascript", "application/javascript")
    assert got.headers["Service-Worker-Allowed"] == "/" and "no-cache" in got.headers["Cache-Control"]
    shell = re.search(r"const SHELL = \[(.*?)\];", got.get_data(as_text=True), re.S).group(1)
    urls = re.findall(r'"([^"]+)"', shell)
    assert "/static/css/app.css" in urls and "/host" in urls
    missing = [u for u in urls if fetch(client, u, ok=False) is None]
    assert missing == []


@pytest.mark.parametrize("path", ["/host", "/t/{code}/host", "/t/{code}/audit", "/t/{code}/history", "/t/{code}/rules"])
def test_host_pages_link_the_manifest_and_register_the_worker_from_a_file(client, path):
    t = Table(client)
    page = client.get(path.format(code=t.code)).get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<script src="/static/js/pwa.js"></script>' in page
    assert not re.search(r"<script(?![^>]*\ssrc=)[^>]*>", page)  # no inline script under the CSP


def test_audit_log_lists_the_dice_of_a_hand_without_a_seed_commitment(client):
    # West End Games: one d6, 1-3 shifts (rim). The host enters a 2: a rim shift.
    t = Table(client)
    for seat in t.seats:
        t.do(seat, type="buy_in", amount=20)
    t.do("host", type="start_hand")
    t.do("s2", type="check")
    rolled = t.do("host", type="roll", dice=[2])
    page = t.page("audit")
    plain = re.search(r'<ul class="plain-hands"[^>]*>(.*?)</ul>\s', page, re.S).group(1)
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", plain)).strip()
    assert words == f"Hand 1: entry {rolled['seq']}: d6-low, dice 2 — a rim shift"
    assert "sabacc-companion verify --seed" not in page  # nothing to check against


def test_without_a_physical_scrambler_the_host_is_told_players_roll_on_screen(client):
    got = client.get("/scrambler/devices.json")
    assert got.status_code == 200
    assert got.json == {"on_screen": True, "words": "No physical scrambler on this server: players roll on screen, from their phones."}


def test_a_button_on_the_pis_pins_is_named_with_its_long_press(app, client, factory):
    from companion.scrambler.gpio import GpioPins
    from companion.scrambler.hub import Scrambler, ScramblerSettings

    hub = Scrambler(lambda entry: None, ScramblerSettings(gpio=GpioPins(17, 27, 22), long_press="timer"),
                    gpio_options={"pin_factory": factory}).start()
    app.extensions["scrambler"] = hub
    try:
        got = client.get("/scrambler/devices.json").json
        assert got["on_screen"] is False
        assert got["words"] == ("Attached: the button on the Pi's pins. Phones can still roll on screen. "
                                "A long press of the button starts or stops the random timer.")
        hub.long_press()  # the host holds the button: the timer runs
        assert client.get("/scrambler/devices.json").json["words"].endswith("The random timer is running.")
    finally:
        app.extensions.pop("scrambler")
        hub.close()
