"""Issue 29, "Done when": a data folder written by the release before the change opens after it.

`tests/fixtures/data-folder-v1/` holds a data folder written by the release of 2026-11-27
(before every game became a plug-in package) and what that release said about each of its five
tables (`make_folder.py` beside it says which, and how it was written; it is never run again).
Here the current code opens a copy the way `serve` does (the folder's lock, `create_app` with
the seeded roller), and

- says the same of every table: the view of a spectator, of each seat and of the host, the
  whole session's history, `session()` (the export), the audit log as each of them reads it,
  what the audit page draws from it, and every `verify` result — up to the changes the issue
  allows, made in one place (`comparable`);
- plays every table on through the table API (the seats with their own tokens, the host with
  the host's): the running hand to its settlement, then one more hand, with the credits
  conserved, each hand settled with a history row, and its seed revealed and verified.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import tarfile
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main as cli_main
from companion.scrambler.seed import SeededRoller, verify, verify_chain
from companion.server import create_app
from companion.server.host_pages import audit_hands, entry_games, roll_faces
from companion.table.owner import TableOwner
from companion.table.registry import hold_data_folder, registry_for

FIXTURE = Path(__file__).parent / "fixtures" / "data-folder-v1"
TABLES: dict[str, dict[str, Any]] = json.loads((FIXTURE / "tables.json").read_text())
with gzip.open(FIXTURE / "recorded.json.gz", "rt", encoding="utf-8") as _f:
    RECORDED: dict[str, dict[str, Any]] = json.load(_f)


# -- the one place where a view may differ from the recorded one --------------------------------


def comparable(recorded: Any, new: Any) -> tuple[Any, Any]:
    """`(recorded, new)` with the differences issue 29 allows taken out; everything else is
    left as it is, so the two must then be equal. The allowed differences:

    1. Each item of a seat's `legal` list may GAIN keys (the move's words, style, confirm,
       inputs: the pages draw every move from data). Only the keys the recorded item has are
       compared; the list keeps its length and order.
    2. The view's `rules` object (a rule set's JSON: it has `name` and `title`) may LOSE the
       keys of the other game (today a classic table's rules carry Spike's fields, and the
       reverse). The new object must keep `name` and `title`, may not add a key, and every key
       it keeps must hold the recorded value.

    3. A hand in the survivor's `show` lists no `pots` (a fix of issue 29: its game pot,
       already paid to the survivor, read 0 while the pots still summed to it).
    4. A hand (a view's object with a `stage`) may GAIN `facts`: what its game gives the pages
       to show (docs/games.md "Facts"), read from the hand's own state (a seat's static field,
       the discard pile's top card, both still in the view as recorded);
       tests/test_game_facts.py says what they hold.
    5. The view GAINS `game_over`: null at these tables, whose games are played in hands (a
       game played to a winner says its end there, issues 30 and 31).
    6. The view GAINS `blocks`: the names its game gives the runtime's building blocks' state,
       moves and events (`Evening.BLOCKS`; the pages draw a block by them), which are the names
       the recorded views already use (at a classic or Spike table: `tie`, the tie broken by
       drawn cards, whose names are the "demise" stage, `demise_card`, `demise_players`, ...;
       at a classic table also `kept`, its static field, and `call`, calling the hand).
    7. In the view's `rules`, the game's words (`words`) name what a hand over the limit pays
       `over_limit` instead of `bomb_out` (issue 29 step 7: a key of the runtime names no
       game's concept); the words are the same.
    8. A hand (a view's object with a `stage`) calls its count of the cards out of play
       `out_of_play` (it had one game's word, `junk`); the count is the recorded one.
    9. Where the game keeps no cards face up (no `blocks.kept`: Spike), a hand's seat entry and
       a reveal offer (objects with a `hand_size`) no longer carry an empty `static`: the kept
       cards are shown only by a game that has them, under its own name for them (classic's
       `static`, as recorded).
    10. The view's `rules` GAIN `kind_marks`: how the result tables mark a hand of a kind
        (a special hand, a bust), which the page's style sheet read from the kinds' names.

    Raises AssertionError where the new value breaks these (a lost `name`, an added key, a
    legal list of another length), so the failure says what.

        >>> comparable({"legal": [{"type": "check"}]}, {"legal": [{"type": "check", "words": "Check"}]})
        ({'legal': [{'type': 'check'}]}, {'legal': [{'type': 'check'}]})
        >>> old = {"rules": {"name": "weg", "title": "WEG", "ante": 1, "fee_swap": 0}}
        >>> comparable(old, {"rules": {"name": "weg", "title": "WEG", "ante": 1}})
        ({'rules': {'name': 'weg', 'title': 'WEG', 'ante': 1}}, {'rules': {'name': 'weg', 'title': 'WEG', 'ante': 1}})
        >>> comparable({"hand": {"stage": "play"}}, {"hand": {"stage": "play", "facts": {"table": []}}})
        ({'hand': {'stage': 'play'}}, {'hand': {'stage': 'play'}})
    """
    if isinstance(recorded, dict) and isinstance(new, dict):
        old_out: dict[str, Any] = {}
        new_out: dict[str, Any] = {}
        for key, value in recorded.items():
            if key == "junk" and "stage" in recorded and "out_of_play" in new and key not in new:
                old_out[key], new_out[key] = comparable(value, new["out_of_play"])  # 8
                continue
            if key == "static" and value == [] and "hand_size" in recorded and key not in new:
                continue  # 9: no kept cards in this game
            if key not in new:
                old_out[key] = value  # missing from the new one: left to fail the comparison
                continue
            if key == "rules" and _is_rule_set(value) and isinstance(new[key], dict):
                old_out[key], new_out[key] = _rules_comparable(value, new[key])
            elif key == "pots" and recorded.get("stage") == "show" and new[key] == []:
                old_out[key] = new_out[key] = []
            elif key == "legal" and isinstance(value, list) and isinstance(new[key], list):
                old_out[key], new_out[key] = _legal_comparable(value, new[key])
            else:
                old_out[key], new_out[key] = comparable(value, new[key])
        for key in new:
            if key == "facts" and "stage" in recorded and key not in recorded:
                continue  # a hand's facts, new with the pages drawing them from data (4.)
            if key == "game_over" and key not in recorded and new[key] is None and "ended" in new:
                continue  # 5: a view's new key, null for a game of hands
            if key == "blocks" and key not in recorded and "ended" in new and isinstance(new[key], dict):
                continue  # 6: the names of the game's building blocks, for the pages
            if key == "out_of_play" and "junk" in recorded and "stage" in recorded:
                continue  # 8: compared with the recorded `junk` above
            if key not in recorded:
                new_out[key] = new[key]  # added: left to fail the comparison
        return old_out, new_out
    if isinstance(recorded, list) and isinstance(new, list) and len(recorded) == len(new):
        pairs = [comparable(a, b) for a, b in zip(recorded, new)]
        return [a for a, _ in pairs], [b for _, b in pairs]
    return recorded, new


#: The game's word keys renamed in a view's `rules.words` (7.): recorded name -> new name.
WORD_KEYS_RENAMED = {"bomb_out": "over_limit"}


def _is_rule_set(value: Any) -> bool:
    return isinstance(value, dict) and "name" in value and "title" in value


def _rules_comparable(recorded: dict, new: dict) -> tuple[dict, dict]:
    assert "name" in new and "title" in new, f"the view's rules lost name or title: {sorted(new)}"
    added = sorted(set(new) - set(recorded) - {"kind_marks"})  # 10.
    assert not added, f"the view's rules gained keys {added} (only losing the other game's is allowed)"
    kept = {k: recorded[k] for k in new if k in recorded}
    new = {k: v for k, v in new.items() if k in recorded}
    if isinstance(kept.get("words"), dict) and "bomb_out" in kept["words"]:  # 7.
        kept["words"] = {WORD_KEYS_RENAMED.get(k, k): v for k, v in kept["words"].items()}
    return comparable(kept, dict(new))


def _legal_comparable(recorded: list, new: list) -> tuple[list, list]:
    assert len(recorded) == len(new), (
        f"the legal moves changed: {[x.get('type') for x in recorded]} -> {[x.get('type') for x in new]}")
    reduced = [{k: b[k] for k in a if k in b} if isinstance(a, dict) and isinstance(b, dict) else b
               for a, b in zip(recorded, new)]
    return comparable(recorded, reduced)


# -- the folder, opened as serve opens it ---------------------------------------------------------


@pytest.fixture
def app(tmp_path):
    """The app on a copy of the old data folder, made as `serve` makes it (the folder's lock,
    `DATA_DIR`, every table rolling from a committed seed)."""
    with tarfile.open(FIXTURE / "data.tar.gz") as tar:
        tar.extractall(tmp_path, filter="data")
    data = tmp_path / "data"
    lock = hold_data_folder(data)
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "ROLLER_FACTORY": SeededRoller})
    yield app
    registry_for(app).close()
    lock.close()


class Api:
    """The table API through Flask's test client."""

    def __init__(self, app):
        self.client = app.test_client()

    def call(self, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, Any]:
        """GET `path` (no body) or POST `body` to it, with `token` as the bearer."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = (self.client.post(path, json=body, headers=headers) if body is not None
             else self.client.get(path, headers=headers))
        return r.status_code, r.get_json()

    def log(self, code: str, token: str | None) -> dict[str, Any]:
        """The whole audit log as `token`'s holder reads it, page by page."""
        entries: list[dict] = []
        while True:
            after = entries[-1]["seq"] if entries else 0
            status, body = self.call(f"/api/v1/tables/{code}/log?after={after}&limit=200", None, token)
            assert status == 200, body
            if not body["entries"]:
                return {"version": body["version"], "entries": entries}
            entries += body["entries"]


def viewers(info: dict[str, Any]) -> dict[str, str | None]:
    """Who reads a table: a spectator (no token), the host, each seat."""
    return {"spectator": None, "host": info["host_token"],
            **{sid: s["token"] for sid, s in info["seats"].items()}}


def verify_command(line: str) -> dict[str, Any]:
    """Run an audit page's `sabacc-companion verify ...` line: its exit status and words."""
    words = io.StringIO()
    with contextlib.redirect_stdout(words), contextlib.redirect_stderr(words):
        status = cli_main(line.split()[1:])
    return {"status": status, "output": words.getvalue()}


def owner_of(app, code: str) -> TableOwner:
    """The owner of table `code` on `app`'s server (it must have opened)."""
    owner = registry_for(app).get(code)
    assert owner is not None, f"table {code} did not open"
    return owner


def audit_and_verify(app, code: str, entries: list[dict]) -> tuple[dict, dict]:
    """What the audit page draws from the log, and every `verify` result on it."""
    owner = owner_of(app, code)
    faces = roll_faces(owner, entries)
    hands = audit_hands(entries, faces)
    games = {str(seq): rs.name for seq, rs in entry_games(owner, entries).items()}
    checks: list[dict | None] = []
    for h in hands:
        if h["seed"] is None:
            checks.append(None)
            continue
        got = verify(h["seed"], h["commitment"],
                     [{k: r[k] for k in ("trigger", "dice", "by_hand") if k in r} for r in h["rolls"]])
        checks.append({"ok": got.ok, "problems": list(got.problems)})
    chain = verify_chain([{k: e[k] for k in ("type", "body", "events", "undone_by")} for e in entries])
    audit = {"hands": hands, "faces": {str(k): v for k, v in faces.items()}, "games": games}
    checks_out = {"hands": checks, "commands": [verify_command(h["verify"]) if h["verify"] else None for h in hands],
                  "chain": {"ok": chain.ok, "problems": list(chain.problems)}}
    return json.loads(json.dumps(audit)), json.loads(json.dumps(checks_out))


# -- it opens, and says the same --------------------------------------------------------------------


def test_every_table_of_the_old_folder_opens(app):
    reg = registry_for(app)
    assert reg.damaged == []
    assert sorted(o.code for o in reg.owners()) == sorted(t["code"] for t in TABLES.values())
    assert set(RECORDED) == set(TABLES) == {"weg", "holodex", "spike", "spike-book", "dealers-choice"}


@pytest.mark.parametrize("label", sorted(TABLES))
def test_each_viewer_sees_what_the_old_release_showed(app, label):
    info, rec = TABLES[label], RECORDED[label]
    api = Api(app)
    for who, token in viewers(info).items():
        status, body = api.call(f"/api/v1/tables/{info['code']}", None, token)
        assert status == 200, body
        old, new = comparable(rec["views"][who], body)
        assert new == old, f"{label}: the view of {who} differs"
    owner = owner_of(app, info["code"])
    _, history = owner.view(None, history=None)
    old, new = comparable(rec["history_view"], json.loads(json.dumps(history)))
    assert new == old, f"{label}: the whole session's history differs"
    old, new = comparable(rec["session"], json.loads(json.dumps(owner.table.session())))
    assert new == old, f"{label}: session() differs"


@pytest.mark.parametrize("label", sorted(TABLES))
def test_the_audit_log_and_verify_say_what_the_old_release_said(app, label):
    info, rec = TABLES[label], RECORDED[label]
    api = Api(app)
    for who, token in viewers(info).items():
        assert api.log(info["code"], token) == rec["log"][who], f"{label}: the audit log as {who} reads it differs"
    audit, checks = audit_and_verify(app, info["code"], rec["log"]["spectator"]["entries"])
    assert audit == rec["audit"]
    assert checks == rec["verify"]


def test_the_fixture_holds_what_it_says():
    """The recording itself: each table in the stage its description names (so that a
    comparison above cannot pass on a folder that lost what it was meant to keep)."""
    stage = {label: rec["views"]["host"]["state"]["hand"]["stage"] for label, rec in RECORDED.items()}
    assert stage == {"weg": "settled", "holodex": "demise", "spike": "play", "spike-book": "show",
                     "dealers-choice": "settled"}
    spike = RECORDED["spike"]["views"]["spectator"]["state"]["hand"]
    assert spike["discard_top"] == "+9"
    games = RECORDED["dealers-choice"]["audit"]["games"]
    assert {"classic", "spike"} <= set(games.values())
    weg = RECORDED["weg"]
    assert any(e["undone_by"] for e in weg["log"]["spectator"]["entries"])
    assert weg["verify"]["hands"][0]["ok"] is False  # its first hand's roll was entered by hand
    assert all(RECORDED[t]["verify"]["chain"]["ok"] for t in TABLES if t != "weg")
    demise = RECORDED["holodex"]["log"]["spectator"]["entries"][-1]
    assert demise["type"] == "demise_card" and demise["body"]["card"] == "hidden"


# -- and play goes on -----------------------------------------------------------------------------

#: Cards each player enters when the table asks for a hand (first the classic deck's, then
#: Spike's: the table refuses the other deck's in words), by seat index; distinct totals, so
#: that most hands settle without a tie.
CARDS = {
    "classic": [["co10", "sa9", "fl1", "st1"], ["fl5", "st3", "co1", "sa1"], ["co2", "sa4", "fl2", "st2"]],
    "spike": [["+1", "-1", "+2", "-2"], ["+4", "-2", "+3", "-3"], ["+9", "+1", "+5", "+6"]],
}
#: One more card at a tie, tried in turn until the table takes one.
TIE_CARDS = ["co3", "sa7", "fl9", "st6", "+5", "-4", "+8", "-6", "sylop"]
#: Moves the players here never choose (session moves, giving up, the static field).
QUIET = {"fold", "sit_out", "sit_in", "leave", "cash_out", "buy_in", "declare_side", "static_add",
         "static_remove", "bet", "raise", "all_in", "no_call", "discard_top"}


class Player:
    """Plays a table on through the API from what each seat's `legal` list offers."""

    def __init__(self, api: Api, info: dict[str, Any]):
        self.api, self.info, self.code = api, info, info["code"]
        self.tokens = {sid: s["token"] for sid, s in info["seats"].items()}
        self.tried = 0

    def state(self, token: str | None) -> dict:
        status, body = self.api.call(f"/api/v1/tables/{self.code}", None, token)
        assert status == 200, body
        return body["state"]

    def send(self, token: str, typ: str, **fields: Any) -> tuple[int, Any]:
        return self.api.call(f"/api/v1/tables/{self.code}/commands", {"type": typ, **fields}, token)

    def do(self, token: str, typ: str, **fields: Any) -> None:
        status, body = self.send(token, typ, **fields)
        assert status == 200, (typ, fields, body)

    def play_hand(self) -> None:
        """The running hand to its settlement: checks, calls, rolls, stands, calls the hand,
        enters cards, a tie card, shows the survivor's hand."""
        for _ in range(300):
            host = self.state(self.info["host_token"])
            h = host["hand"]
            if h is None or h["stage"] == "settled":
                return
            order = sorted(self.tokens, key=lambda s: s != h.get("to_act"))
            yours = {sid: self.state(self.tokens[sid])["you"] for sid in order}
            entered = {p["seat"] for p in h["players"] if p.get("entered")}
            # A hand or a tie card entered may be entered again until all are in: once is enough.
            offers = {sid: [x for x in you["legal"]
                            if not (x["type"] == "reveal" and sid in entered)
                            and not (x["type"] == "demise_card" and you.get("demise") is not None)]
                      for sid, you in yours.items()}
            if not self._one_move(order, offers) and "roll" in host["host_legal"]:
                self.do(self.info["host_token"], "roll")
            elif not any(x["type"] not in QUIET for o in offers.values() for x in o) \
                    and "roll" not in host["host_legal"]:
                raise AssertionError(f"nobody can move: {h['words']}")
        raise AssertionError("the hand did not settle")

    def _one_move(self, order: list[str], offers: dict[str, list[dict]]) -> bool:
        for pref in ("reveal", "show", "demise_card", "call_hand", "call", "check", "roll", "draw"):
            for sid in order:
                for x in offers[sid]:
                    if x["type"] == pref and self._move(sid, x):
                        return True
        return False

    def _move(self, sid: str, offer: dict) -> bool:
        token, typ = self.tokens[sid], offer["type"]
        if typ == "draw":
            if offer.get("action") != "stand":
                return False
            self.do(token, "draw", action="stand")
        elif typ in ("reveal", "show"):
            index = sorted(self.tokens).index(sid)
            size = offer.get("hand_size") or 2
            for deck in ("classic", "spike"):
                status, body = self.send(token, typ, cards=CARDS[deck][index][:size])
                if status == 200:
                    return True
                assert 400 <= status < 500, body
            raise AssertionError(f"{typ}: no deck's cards were taken")
        elif typ == "demise_card":
            for _ in TIE_CARDS:
                card = TIE_CARDS[self.tried % len(TIE_CARDS)]
                self.tried += 1
                status, body = self.send(token, typ, card=card)
                if status == 200:
                    return True
                assert 400 <= status < 500, body
            raise AssertionError("no tie card was taken")
        else:
            self.do(token, typ)
        return True


def money(state: dict) -> tuple[int, int]:
    """(credits at the table between hands: stacks and the sabacc pot; credits brought in:
    buy-ins less cash-outs, with the host's adjustments)."""
    seats = state["seats"] + state.get("departed", [])
    held = sum(s.get("stack", 0) for s in state["seats"]) + state["sabacc_pot"]
    brought = sum(s.get("bought_in", 0) - s.get("cashed_out", 0) + s.get("adjusted", 0) for s in seats)
    return held, brought


@pytest.mark.parametrize("label", sorted(TABLES))
def test_play_goes_on_at_every_table(app, label):
    info = TABLES[label]
    api = Api(app)
    player = Player(api, info)
    host = info["host_token"]
    before = player.state(host)
    hands_before, no_before = len(before["hands"]), before["hand_no"]
    running = before["hand"] is not None and before["hand"]["stage"] != "settled"
    if running:
        player.play_hand()
    for _ in range(2 if not running else 1):
        player.do(host, "start_hand")
        player.play_hand()
    after = player.state(host)
    assert after["hand"]["stage"] == "settled"
    assert after["hand_no"] == no_before + (1 if running else 2)
    held, brought = money(after)
    assert held == brought, f"{label}: {held} credits at the table, {brought} brought in"
    assert brought == money(before)[1]  # nobody bought in or cashed out: the same credits
    rows = after["hands"][hands_before:]  # the history's new rows: two hands, each settled
    assert [r["hand"] for r in rows] == list(range(no_before + (0 if running else 1), after["hand_no"] + 1))
    assert all(r.get("settlement") for r in rows)
    # Every hand played here (the one running at the start included) reveals its seed and
    # its dice check out; so does the whole log from the old release's first entry on.
    entries = api.log(info["code"], None)["entries"]
    audit, checks = audit_and_verify(app, info["code"], entries)
    new = checks["hands"][len(RECORDED[label]["audit"]["hands"]) - (1 if running else 0):]
    assert len(new) == 2 and all(c is not None and c["ok"] for c in new), new
    problems = checks["chain"]["problems"]
    assert problems == RECORDED[label]["verify"]["chain"]["problems"], problems


def test_comparable_lets_through_only_what_the_issue_allows():
    def same(old, new):
        a, b = comparable(old, new)
        return a == b

    view = {"rules": {"name": "weg", "title": "WEG", "ante": 1, "fee_swap": 0},
            "you": {"legal": [{"type": "bet", "min": 1, "max": 3}, {"type": "check"}]}, "sabacc_pot": 3}
    richer = json.loads(json.dumps(view))
    richer["rules"].pop("fee_swap")  # the other game's field, gone
    richer["you"]["legal"][0].update(words="Bet", inputs=[{"field": "amount"}])  # words, inputs: added
    assert same(view, richer)
    # Anything else still differs: a kept rule's value, a legal item's recorded key, the moves'
    # order, any other field.
    for change in (lambda v: v["rules"].update(ante=2), lambda v: v["you"]["legal"][0].update(max=4),
                   lambda v: v["you"]["legal"][0].pop("min"), lambda v: v["you"]["legal"].reverse(),
                   lambda v: v.update(sabacc_pot=4), lambda v: v.update(extra=1)):
        changed = json.loads(json.dumps(richer))
        change(changed)
        assert not same(view, changed)
    # The rules must keep their name and title and gain nothing; the legal list its length.
    for broken in (lambda v: v["rules"].pop("title"), lambda v: v["rules"].update(deck_words="x"),
                   lambda v: v["you"]["legal"].pop()):
        changed = json.loads(json.dumps(richer))
        broken(changed)
        with pytest.raises(AssertionError):
            comparable(view, changed)
