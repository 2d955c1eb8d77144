"""The host's pages and each table's public pages: start, console, rules, audit log, history.

- `GET /host`: start a table (rule set, options, chip set), then show its join QR code.
- `GET /t/<code>/host`: the host ("the Plutt") console. It works with the host token the
  start page keeps in the browser (`localStorage["sabacc.host.<CODE>"]`) and sends every
  change through the table API (`/api/v1/tables/...`); this module only serves the page.
- `GET /t/<code>/rules`: the rules page of the table's own rule set.
- `GET /t/<code>/audit`: the audit log for everyone: entries, counter-entries, the dice of
  every roll, seed commitments and revealed seeds, which the page can check in the browser
  (`?after=N&rows=1`: only the rows after entry N, for the page's live updates).
- `GET /t/<code>/history`: standings, the hands, and `stack_chart` (also `/t/<code>/chart.svg`).
- `GET /t/<code>/standings.json`: the standings with each stack's chip breakdown.
- `GET /t/<code>/seat-qr.svg?seat=s2&token=...`: the QR code of a seat's move-to-a-new-phone
  link (only for a valid token of that seat).
- `GET /sw.js`, `GET /manifest.webmanifest`: the installable app (PWA) at the site's root.

Every page reads the table as a spectator would (`owner.view(None)`), so nothing hidden ever
reaches these pages; the console's private parts arrive through the API with the host token.
"""

from __future__ import annotations

import bisect
import functools
import json
import threading
import time
from pathlib import Path
from typing import Any, Mapping

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request

from companion.scrambler.seed import BY_HAND, HAND_WORDS
from companion.paths import STATIC_DIR
from companion.rules.option_fields import GROUPS, option_fields, presets_fields
from companion.games import registry
from companion.rules.game import option_of
from companion.rules.rulesets import HAND_POT, InvalidRules, RuleSet
from companion.scrambler.dice import DICE
from companion.server.charts import legend, stack_chart
from companion.server import qr
from companion.server.addresses import phone_base_url
from companion.table.chips import breakdown, chip_set_from, from_dealers_left, hand_back
from companion.table.evening import rules_spec
from companion.table.outcome import game_runs
from companion.table.owner import TableOwner
from companion.table.registry import registry_for
from companion.table import tie_draw

bp = Blueprint("host_pages", __name__)

#: Entries read from the ledger at once, and at most in one live update of the audit page.
AUDIT_PAGE = 500
#: Entries one page of the audit log shows (a long evening has a few thousand; all of them on
#: one page were 840 KB and 0.4 s of server time each, issue 11).
AUDIT_PAGE_ENTRIES = 100
#: Audit pages rendered at once; more wait up to AUDIT_WAIT_S, then get a 503.
AUDIT_RENDERS = 2
AUDIT_WAIT_S = 5.0
#: Requests that may wait for their turn at once (each holds a server thread while waiting).
AUDIT_QUEUE = 6
_AUDIT_RENDERS = threading.BoundedSemaphore(AUDIT_RENDERS)
_audit_waiting = [0]
_audit_lock = threading.Lock()


def _audit_turn() -> bool:
    """Wait for a turn to render an audit page; False when too many already wait or the wait
    is over (the caller answers 503). A True must be followed by `_AUDIT_RENDERS.release()`."""
    if _AUDIT_RENDERS.acquire(blocking=False):
        return True
    with _audit_lock:
        if _audit_waiting[0] >= AUDIT_QUEUE:
            return False
        _audit_waiting[0] += 1
    try:
        return _AUDIT_RENDERS.acquire(timeout=AUDIT_WAIT_S)
    finally:
        with _audit_lock:
            _audit_waiting[0] -= 1
#: How far back a page looks for the start of the hand its first entry belongs to.
AUDIT_HAND_LOOKBACK = 300
def owner_or_404(code: str) -> TableOwner:
    """The owner of table `code`, or a 404 page."""
    owner = registry_for().get(code)
    if owner is None:
        abort(404)
    return owner


def seat_names(state: dict[str, Any]) -> dict[str, str]:
    """Seat id -> name for every seat the table has had (seated first, then departed)."""
    names = {s["seat"]: s["name"] for s in state.get("seats", [])}
    for d in state.get("departed", []):
        names.setdefault(d["seat"], d["name"])
    return names


# -- the audit log in words ---------------------------------------------------------------


def _who(seat: Any, names: dict[str, str]) -> str:
    if seat is None:
        return "the house"
    return {"host": "the host", "scrambler": "the scrambler", "guest": "a guest"}.get(seat, names.get(seat, str(seat)))


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def action_words(rules: Any = None) -> dict[str, str]:
    """What each turn action did, by the id a `drew` event logs ("gain" -> "gains a card"):
    the game's own words (`TurnAction.done`, which the phones' last actions
    read too). The table's rules come first; any rule set's next, for a hand played before
    the table changed its rules."""
    words = {a.action: a.done for rs in registry.presets().values() for a in getattr(rs, "actions", ())}
    if rules is not None:  # a game whose moves are no turn actions has none
        words.update({a.action: a.done for a in getattr(rules, "actions", ())})
    return words


def event_words(ev: dict[str, Any], names: dict[str, str], rules: Any = None,
                faces: str | None = None) -> str | None:
    """One event of the log in plain words (None for bookkeeping events nobody reads), in the
    words of the game its hand played (`rules`; the first game's default preset when not given).

    Cards another seat has entered never appear: `cards_entered` (and a game's own events of
    entered cards, `Game.log_words`) only say that they were entered. A game's own events are
    said in its words (`Game.log_words`: the hand's game's, else any game's). `faces`: a roll's dice in its game's words ("Crown and
    Eye", `roll_faces`); without it, their numbers."""
    t = str(ev.get("type"))
    n = _who(ev.get("seat"), names)
    rules = rules or _default_rules()
    w = rules.words
    done = action_words(rules)

    def f(key: str) -> Any:
        """The event's field `key` (None when it has none): a logged event is plain JSON."""
        return ev.get(key)

    all_in = ", all in" if ev.get("stack") == 0 else ""
    words = {
        "joined": lambda: f"{f('name')} takes seat {f('seat')}",
        "bought_in": lambda: f"{n} buys in for {f('amount')} (stack {f('stack')})",
        "cashed_out": lambda: f"{n} cashes out {f('amount')}: {f('words')} (stack {f('stack')})",
        "left": lambda: f"{f('name')} leaves the table",
        "sat_out": lambda: f"{n} sits out",
        "sat_in": lambda: f"{n} sits in again",
        "side_declared": lambda: f"{n} declares the {f('side')} side",
        "seats_reordered": lambda: "seats in order: " + ", ".join(_who(x, names) for x in f("order") or []),
        "dealer_set": lambda: f"{n} deals next",
        "token_set": lambda: f"{n} is dealt first next hand",
        "adjusted": lambda: f"{n}'s stack adjusted by {_signed(f('amount'))} (stack {f('stack')}): “{f('reason')}”",
        "staked": lambda: f"{n} stakes {f('item')} for {f('value')} credits",
        "hand_started": lambda: f"hand {f('hand')} starts; {_who(f('dealer'), names)} deals"
        + (f"; seed commitment {f('seed_commitment')}" if f("seed_commitment") else ""),
        "ante": lambda: f"{n} antes {f('hand_pot')}" + (f" and {f('sabacc_pot')} to the sabacc pot" if f("sabacc_pot") else ""),
        "dealt_out": lambda: f"{n} is dealt out ({f('reason')})",
        "round": lambda: f"round {f('round')}",
        "checked": lambda: f"{n} checks",
        # A bet, call or raise of the whole stack (the event's stack after it is 0) is all-in.
        "bet": lambda: f"{n} bets {f('amount')}" + all_in,
        "called_bet": lambda: f"{n} calls {f('amount')}" + all_in,
        "raised": lambda: f"{n} raises to {f('to')}" + all_in,
        "all_in": lambda: f"{n} is all in with {f('amount')}",
        # The fee's pot is named by the event where it is not the sabacc pot (Play.drop_out).
        "folded": lambda: f"{n} {w.folds}" + (f", paying {f('fee')} to the {f('pot') or 'sabacc pot'}" if f("fee") else ""),
        "rolled": lambda: _roll_words(ev, names, _dice_name(rules), faces, shifts=hasattr(rules, "shift_kind")),
        "shift": lambda: f"a {f('kind')} shift",
        "no_call": lambda: f"{n} does not call",
        "hand_called": lambda: f"{n} calls the hand",
        "drew": lambda: f"{n} {done.get(str(f('action'))) or 'draws (' + str(f('action')) + ')'} (hand size {f('hand_size')})",
        "reveal_started": lambda: "the reveal: everyone enters their hand",
        "cards_entered": lambda: f"{n} has entered their hand",
        "revealed": lambda: "hands shown: " + "; ".join(
            f"{_who(s, names)}: {' '.join(c)}" for s, c in (f("hands") or {}).items()),
        "conceded": lambda: f"{n} wins {f('amount')} uncontested",
        "shown": lambda: f"{n} shows {' '.join(f('cards') or [])} (total {f('total')})" + (
            f" and takes the sabacc pot, {f('sabacc_pot')}" if f("sabacc_pot") else ": the sabacc pot carries over"),
        # A game that words its own result says it; otherwise the stacks after it.
        "settled": lambda: str(f("words")) if f("words") else "settled: " + ", ".join(
            f"{_who(s, names)} {v}" for s, v in (f("stacks") or {}).items()) + f"; sabacc pot {f('sabacc_pot')}"
        + _drawn_tie_cards(f("settlement") or {}, names, w.tie, tie_names(rules).get("drawn")),
        "hand_ended": lambda: f"hand {f('hand')} ends",
        "seed_revealed": lambda: f"the seed of hand {f('hand')} is revealed: {f('seed')}",
        "session_ended": lambda: "the session ends" + (
            f"; the sabacc pot ({f('carried_sabacc_pot')}) is carried to the next session" if f("carried_sabacc_pot")
            else "; the sabacc pot is split: " + ", ".join(f"{_who(s, names)} {v}" for s, v in (f("sabacc_shares") or {}).items())
            if f("sabacc_shares") else ""),
        "undone": lambda: f"counter-entry: {f('words') or f('entry_type')} (entry {f('seq')}) is undone",
        "rules_changed": lambda: f"from the next hand the table plays {f('game')}",
        "discard_top": lambda: f"the discard pile's top card is {f('card')}" if f("card")
        else f"a {w.folded} hand lies on the discard pile: its top card is to be entered",
    }
    for typ, say in _log_words(rules).items():  # a game's own events, in its words
        words[typ] = functools.partial(say, ev, n, rules)
    if t in ("step", "betting_done"):
        return None
    # A game's own event says itself in its `words`, and so does a result a game words itself
    # (as the pages' live log reads them, live.js).
    own = ev.get("words")
    if isinstance(own, str) and own and (t not in words or t in ("settled", "conceded")):
        return own
    make = words.get(t)
    if make is not None:
        return make()
    # An event of a game this module does not know says itself (its `words`), else its type.
    return str(ev["words"]) if ev.get("words") else t


def _log_words(rules: Any) -> dict[str, Any]:
    """Every game's own events as the audit log says them (`Game.log_words`), the hand's own
    game's last, so that its words stand where two games log the same event."""
    out: dict[str, Any] = {}
    games = registry.games()
    for game in games.values():
        out.update(_tie_log_words(game.name))
        out.update(game.log_words)
    own = _game_of(rules)
    if own is not None:
        out.update(_tie_log_words(own.name))
        out.update(own.log_words)
    return out


@functools.lru_cache(maxsize=None)
def _tie_log_words(game: str) -> dict[str, Any]:
    """How the log says the events of game `game`'s tie broken by drawn cards, under the names
    its engine gives them (`tie_draw.log_words`); {} for a game without one."""
    return tie_draw.log_words(getattr(registry.games()[game].engine(), "BLOCKS", {}).get("tie", {}))


def _game_of(rules: Any) -> Any:
    """The game whose preset `rules` is (None for rules no game of the registry holds)."""
    return next((g for g in registry.games().values() if getattr(rules, "name", None) in g.presets), None)


#: A penalty's reason when the player who called the hand did not win it (SETTLE-API.md).
CALLER_LOST = "caller_lost"


def tie_names(rules: Any) -> Mapping[str, str]:
    """The names the game of `rules` gives the runtime's tie broken by drawn cards (its engine's
    `BLOCKS["tie"]`: `drawn`, a settled hand's field of the cards each tied player drew); {} for
    a game without one, or rules no game holds."""
    game = _game_of(rules)
    return game.engine().BLOCKS.get("tie", {}) if game is not None else {}


def _drawn_tie_cards(settlement: dict[str, Any], names: dict[str, str], tie: str, field: str | None) -> str:
    """A settlement's drawn tie cards (each hand's `field`), as the audit log says them ("; <the
    tie>: Han +5 +1, Lando +5 0"), or "" when nobody drew (the cards are face up once all are in)."""
    if field is None:
        return ""
    drawn = [f"{_who(x.get('name'), names)} {' '.join(x[field])}"
             for x in settlement.get("hands") or [] if x.get(field)]
    return f"; {tie}: {', '.join(drawn)}" if drawn else ""


def _dice_name(rules: Any) -> str:
    """What rolls at a table of these rules: its dice's name in its game's words; "the
    scrambler" for a game whose rules name no dice."""
    dice = getattr(rules, "dice", None)
    return str(dice.name) if dice is not None else "the scrambler"


def _roll_words(ev: dict[str, Any], names: dict[str, str], dice_name: str = "the scrambler",
                faces: str | None = None, shifts: bool = True) -> str:
    """A roll in the audit log's words: who rolled what, the trigger, and whether it shifted
    (said only at a table whose game has shifts: `shifts`)."""
    roll = ev.get("roll") or {}
    dice = roll.get("dice") or []
    who = _who(ev.get("seat"), names) if ev.get("seat") else dice_name
    what = f"a {roll.get('kind')} shift" if roll.get("shift") else "no shift" if shifts else ""
    faces = (faces or " and ".join(str(d) for d in dice)) if dice else "the timer"
    hand = f", {HAND_WORDS}" if roll.get(BY_HAND) else ""
    return f"{who} rolls {faces} ({roll.get('trigger')}{hand})" + (f": {what}" if what else "")


def entry_words(entry: dict[str, Any], names: dict[str, str], rules: Any = None) -> str:
    """What was asked for, in words: the command and its fields (hidden cards stay hidden); a
    turn action by its button in the words of the table's game (`rules`: "stand", "gain a
    card"), a fold as the game says it (`words.fold`)."""
    body = {k: v for k, v in entry["body"].items() if k != "type"}
    rules = rules or _default_rules()
    kind = entry["type"].replace("_", " ")
    buttons = {a.action: a.button.lower() for a in getattr(rules, "actions", ())}
    if entry["type"] == "draw" and body.get("action") in buttons:
        kind = buttons[body.pop("action")]
    elif entry["type"] == "fold":
        kind = rules.words.fold
    if "seat" in body:
        body["seat"] = _who(body["seat"], names)
    if "order" in body and isinstance(body["order"], list):
        body["order"] = ", ".join(_who(x, names) for x in body["order"])
    fields = "; ".join(f"{k.replace('_', ' ')}: {v if not isinstance(v, list) else ' '.join(map(str, v))}"
                       for k, v in body.items())
    return f"{kind} ({fields})" if fields else kind


def _default_rules() -> Any:
    """The rules of the preset the pages select first (for a hand whose rules are not known)."""
    return registry.rules_from(registry.default_preset())


bp.add_app_template_global(event_words, "event_words")
bp.add_app_template_global(entry_words, "entry_words")
bp.add_app_template_global(_who, "who_words")


@bp.app_template_filter("clock")
def clock(ts: float) -> str:
    """A ledger time as the table's clock shows it (HH:MM:SS, the box's local time)."""
    return time.strftime("%H:%M:%S", time.localtime(ts))


# -- the host's start page and console ------------------------------------------------------


def _preset_defaults(rs) -> dict[str, Any]:
    """The option values of a preset, as the start page's form fills them in."""
    absent = object()
    out = {name: v for name in registry.options() if (v := option_of(rs, name, absent)) is not absent}
    out["chip_set"] = [{"name": c.name, "value": c.value, "per_buy_in": c.per_buy_in}
                       for c in getattr(rs, "chip_set", ())]
    return {k: (v.value if hasattr(v, "value") and not isinstance(v, (int, str)) else v) for k, v in out.items()}


@bp.get("/host")
def start():
    """Start a table: pick a rule set, change its options, then show the join QR code."""
    defaults = {name: _preset_defaults(rs) for name, rs in registry.presets().items()}
    return render_template(
        "host/start.html",
        defaults=defaults,
        fields=presets_fields(),
        groups=GROUPS,
        hand_pot=HAND_POT,
        rule_sets=registry.presets(),
    )


@bp.get("/t/<code>/host")
def console(code: str):
    """The host console of table `code` (the host token lives in the browser)."""
    owner = owner_or_404(code)
    _, state = owner.view(None)
    rules = owner.table.rules
    # Dealer's choice offers every preset's options; the table's own preset starts from the
    # values it plays now (each field's `value`), sent where they differ from the preset's.
    # Only the presets the table may switch to (a game played to a winner keeps its table).
    choices = {name: rs for name, rs in registry.presets().items()
               if registry.may_follow(registry.game_of(rules.name), registry.game_of(name))}
    fields = {name: f for name, f in presets_fields().items() if name in choices}
    now = {f["name"]: f["default"] for f in option_fields(rules)}
    for f in fields.get(rules.name, []):
        f["value"] = now.get(f["name"], f["default"])
    # Whether the table's game turns its discards face up (the runtime's public discard
    # pile, which the console enters the top card of).
    names_discards = getattr(owner.table, "names_discards", None)
    discard_pile = bool(names_discards and names_discards())
    return render_template("host/console.html", code=owner.code, state=state, ruleset=rules,
                           discard_pile=discard_pile,
                           presets=choices, fields=fields, groups=GROUPS, hand_pot=HAND_POT,
                           deck_name=state["rules"].get("deck") or "",
                           game_name=state["game"], dice_table=dice_table())


def scrambler_devices_words(hub: Any) -> str:
    """What the physical scrambler is right now, in the host's words (`hub`: the scrambler
    hub `serve` starts, or None when the server runs without one)."""
    if hub is None:
        return "No physical scrambler on this server: players roll on screen, from their phones."
    status = hub.status()
    parts = []
    if hub.gpio is not None and hub.gpio.button is not None:
        parts.append("the button on the Pi's pins")
    box = status.get("box")
    if box == "ready":
        fw = status.get("box_firmware")
        parts.append(f"the USB box (firmware {fw})" if fw else "the USB box")
    if parts:
        words = f"Attached: {' and '.join(parts)}. Phones can still roll on screen."
    else:
        words = "Nothing is attached now: players roll on screen, from their phones."
    if box in ("searching", "connecting"):
        words += " Looking for the USB box (plug it in at any time)."
    elif box == "incompatible":
        words += " The USB box's firmware speaks another protocol version: update it (firmware/README.md)."
    if not status.get("on_screen"):
        long_press = {"timer": "starts or stops the random timer", "roll": "rolls",
                      "none": "does nothing"}.get(status.get("long_press"), "")
        if long_press:
            words += f" A long press of the button {long_press}."
        if status.get("timer", {}).get("armed"):
            words += " The random timer is running."
    return words


@bp.get("/scrambler/devices.json")
def scrambler_devices():
    """What is attached (GPIO button, USB box) and whether phones must roll on screen; nothing
    secret, so anyone may ask (the host console shows it)."""
    hub = current_app.extensions.get("scrambler")
    return jsonify({"on_screen": True if hub is None else hub.on_screen,
                    "words": scrambler_devices_words(hub)})


# -- pages every seat may read ---------------------------------------------------------------


@bp.get("/t/<code>/rules")
def table_rules(code: str):
    """The rules in plain words for this table's own rule set (its options included)."""
    owner = owner_or_404(code)
    return render_template("host/table_rules.html", code=owner.code, ruleset=owner.table.rules,
                           runs=game_runs(owner.table.session()))


def _verify_command(hand: dict[str, Any]) -> str | None:
    """The `sabacc-companion verify` command line that checks one hand's rolls."""
    if not hand.get("seed") or not hand.get("commitment"):
        return None
    parts = ["sabacc-companion verify", f"--seed {hand['seed']}", f"--commitment {hand['commitment']}"]
    for r in hand["rolls"]:
        if r.get("dice"):
            mark = ":by-hand" if r.get(BY_HAND) else ""
            parts.append(f"--roll {r['trigger']}:{','.join(str(d) for d in r['dice'])}{mark}")
    return " ".join(parts)


def audit_hands(entries: list[dict[str, Any]], faces: dict[int, str] | None = None) -> list[dict[str, Any]]:
    """Per hand: its seed commitment, its revealed seed, and every roll that stands in the order
    the table made it (an undone roll is taken back: rolled again, it gives the same dice), with
    a `verify` command line. `faces`: each roll entry's dice in its game's words (`roll_faces`;
    else their numbers), as `faces` of the roll."""
    faces = faces or {}
    hands: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for e in entries:
        for ev in e["events"]:
            if ev.get("type") == "hand_started":
                current = {"hand": ev.get("hand"), "commitment": ev.get("seed_commitment"),
                           "seed": None, "rolls": []}
                hands.append(current)
            elif ev.get("type") == "rolled" and current is not None and e["undone_by"] is None:
                roll = dict(ev.get("roll") or {})
                roll.update(seq=e["seq"], faces=faces.get(e["seq"]) or " and ".join(map(str, roll.get("dice") or [])))
                current["rolls"].append(roll)
            elif ev.get("type") == "seed_revealed":
                for h in hands:
                    if h["hand"] == ev.get("hand"):
                        h["seed"] = ev.get("seed")
    for h in hands:
        h["verify"] = _verify_command(h)
    return hands


def _entries(owner: TableOwner, first: int, last: int) -> list[dict[str, Any]]:
    """Log entries `first` to `last` (inclusive), as a spectator sees them (hidden cards stay
    hidden)."""
    out: list[dict[str, Any]] = []
    after = first - 1
    while after < last:
        batch = owner.ledger.entries(owner.code, after=after, limit=min(AUDIT_PAGE, last - after))
        out += [owner.log_entry(e, None) for e in batch if e.seq <= last]
        if not batch:
            break
        after = batch[-1].seq
    return out


def _starts_hand(entry) -> bool:
    return any(ev.get("type") == "hand_started" for ev in entry.events)


def _hand_start(owner: TableOwner, seq: int) -> int:
    """The entry that started the hand entry `seq` belongs to (its seeds and rolls are checked
    together), looking back at most `AUDIT_HAND_LOOKBACK` entries; `seq` when none is found."""
    low = max(0, seq - 1 - AUDIT_HAND_LOOKBACK)
    for e in reversed(owner.ledger.entries(owner.code, after=low, limit=seq - low)):
        if _starts_hand(e):
            return e.seq
    return seq


def _hand_end(owner: TableOwner, seq: int, version: int) -> int:
    """The entry that ends the hand entry `seq` belongs to: the one starting the next hand (a
    seed may be revealed as the next hand starts), looking ahead at most `AUDIT_HAND_LOOKBACK`
    entries."""
    ahead = owner.ledger.entries(owner.code, after=seq, limit=min(AUDIT_HAND_LOOKBACK, version - seq))
    for e in ahead:
        if _starts_hand(e):
            return e.seq
    return ahead[-1].seq if ahead else seq


def _seq_arg(name: str) -> int | None:
    """A whole-number query argument (ASCII digits, at most 15), or a 400."""
    raw = request.args.get(name)
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 15):
        abort(400)
    return int(raw)


@bp.get("/t/<code>/audit")
def audit(code: str):
    """The audit log, a page at a time (the newest first; `?before=N` for older entries):
    every entry, its counter-entry if undone, dice, seeds."""
    owner = owner_or_404(code)
    version, state = owner.view(None)
    names = seat_names(state)
    after = _seq_arg("after")
    if request.args.get("rows"):
        # Live updates: the rows after entry `after` (at most a page; the page asks again),
        # plus the entries they undo, re-drawn.
        start = (after or 0) + 1
        entries = _entries(owner, start, min(version, start + AUDIT_PAGE - 1))
        undone = {e["undoes"] for e in entries if e["undoes"]}
        redraw = [owner.log_entry(x, None) for x in (owner.ledger.entry(owner.code, s) for s in undone) if x]
        return render_template("host/audit_rows.html", entries=redraw + entries, names=names,
                               games=entry_games(owner, redraw + entries),
                               faces=roll_faces(owner, redraw + entries))
    # A page is tens of milliseconds of CPU: a few at once, the rest wait their turn, so that
    # guests reading it cannot crowd the phones' commands out of the CPU (issue 11).
    if not _audit_turn():
        return Response("The audit log is busy; reload in a few seconds.", 503,
                        {"Retry-After": "5", "Content-Type": "text/plain; charset=utf-8"})
    try:
        return _audit_page(owner, version, names)
    finally:
        _AUDIT_RENDERS.release()


def _audit_page(owner: TableOwner, version: int, names: dict):
    """One page of the audit log (`?before=N`: the page before entry N)."""
    before = _seq_arg("before")
    last = version if before is None else min(version, max(0, before - 1))
    first = max(1, last - AUDIT_PAGE_ENTRIES + 1)
    # The seeds section needs each hand on the page whole: from its first entry, and (when the
    # page ends inside a hand whose seed is still to come) on to its last one.
    start = _hand_start(owner, first) if last else first
    context = _entries(owner, start, last) if last else []
    faces = roll_faces(owner, context)
    hands = audit_hands(context, faces)
    if last < version and hands and hands[-1]["commitment"] and not hands[-1]["seed"]:
        context += _entries(owner, last + 1, _hand_end(owner, last, version))
        faces = roll_faces(owner, context)
        hands = audit_hands(context, faces)[:len(hands)]  # the next hand (and its entry) is not on it
    entries = [e for e in context if first <= e["seq"] <= last]
    return render_template(
        "host/audit.html", code=owner.code, entries=entries, names=names, faces=faces,
        games=entry_games(owner, entries),
        hands=hands, version=version, dice_table=dice_table(),
        first=first, last=last, newest=last >= version,
    )


def dice_table() -> dict[str, list[int]]:
    """Dice key -> [dice count, sides]: every shift trigger's (`DICE`) and every game's own
    dice (`registry.dice`). The audit page's own check of the rolls in the browser reads it,
    so that the page never keeps a second copy."""
    table = {trigger.value: [count, sides] for trigger, (count, sides) in DICE.items()}
    for key, spec in registry.dice().items():
        if spec.count:
            table.setdefault(key, [spec.count, spec.sides])
    return table


@bp.get("/t/<code>/history")
def history(code: str):
    """The session so far: standings, the settled hands, and the stack chart."""
    owner = owner_or_404(code)
    _, state = owner.view(None)
    names = seat_names(state)
    played = hand_rules(owner)
    showdowns = [showdown_rows(h, names, played.get(h["hand"], owner.table.rules))
                 for h in reversed(state["hands"]) if h.get("settlement")]
    by_hand = dice_by_hand(owner)
    for sd in showdowns:
        sd["by_hand"] = by_hand.get(sd["hand"], 0)
    return render_template(
        "host/history.html", code=owner.code, state=state, names=names,
        chart=stack_chart(state["stack_history"], names), legend=legend(state["stack_history"], names),
        standings=standings(state), odd_credits=standings_and_note(state)[1],
        runs=game_runs(owner.table.session()), showdowns=showdowns, sabacc_pot=sabacc_pot_seen(state),
        shown={sd["hand"]: sd["shown"] for sd in showdowns if sd["shown"]},
    )


def games_played(owner: TableOwner) -> list[tuple[int, int, RuleSet]]:
    """Each hand's (entry that started it, hand number, rule set it was played with), in order,
    from the ledger: the table's own rules at its start, then each dealer's choice that stands
    (issue 28: a table that went from one game to another holds hands of two decks and two
    kinds of dice, and each is read with its own)."""
    row = owner.ledger.table(owner.code)
    if row is None:
        return []
    settings = row.settings
    options = registry.options()
    spec: Any = rules_spec(settings["rules"], {k: v for k, v in settings.items() if k in options})
    made: dict[str, RuleSet] = {}
    out: list[tuple[int, int, RuleSet]] = []
    for e in owner.ledger.entries_of_type(owner.code, ("change_rules", "start_hand")):
        if not e.applies:
            continue
        for ev in e.events:
            if ev.get("type") == "rules_changed":
                spec = ev.get("rules", spec)
            elif ev.get("type") == "hand_started" and isinstance(ev.get("hand"), int):
                key = json.dumps(spec, sort_keys=True)
                if key not in made:
                    try:
                        made[key] = registry.rules_from(spec)
                    except InvalidRules:  # a spec an older version accepted: the table's own
                        made[key] = owner.table.rules
                out.append((e.seq, ev["hand"], made[key]))
    return out


def hand_rules(owner: TableOwner) -> dict[int, RuleSet]:
    """Per hand number, the rule set it was played with (`games_played`)."""
    return {hand: rules for _, hand, rules in games_played(owner)}


def entry_games(owner: TableOwner, entries: list[dict[str, Any]]) -> dict[int, RuleSet]:
    """Per entry of `entries`, the rule set of the game its hand played (`games_played`; the
    table's own before its first hand): the audit log says each entry in that game's words,
    so a hand before a dealer's choice still reads in the words of the game it played."""
    games = games_played(owner)
    starts = [seq for seq, _, _ in games]
    out: dict[int, RuleSet] = {}
    for e in entries:
        i = bisect.bisect_right(starts, e["seq"]) - 1
        out[e["seq"]] = games[i][2] if i >= 0 else owner.table.rules
    return out


def roll_faces(owner: TableOwner, entries: list[dict[str, Any]]) -> dict[int, str]:
    """Per entry of `entries` that rolls, its dice in the words of the game its hand played
    ("Crown and Eye" where the dice show symbols, "4 and 2" where they show numbers)."""
    rolls = [(e, ev["roll"]["dice"]) for e in entries for ev in e["events"]
             if ev.get("type") == "rolled" and (ev.get("roll") or {}).get("dice")]
    if not rolls:
        return {}
    games = entry_games(owner, [e for e, _ in rolls])
    out = {}
    for e, dice in rolls:
        named = getattr(games[e["seq"]], "dice", None)  # a game that names no dice: their numbers
        out[e["seq"]] = named.show(dice) if named is not None else " and ".join(map(str, dice))
    return out


def dice_by_hand(owner: TableOwner) -> dict[int, int]:
    """Per hand number, how many of its standing rolls the host entered by hand (issue 15: the
    hand's history says so, as the audit page and `verify` do)."""
    counts: dict[int, int] = {}
    hand = None
    for e in owner.ledger.entries_of_type(owner.code, ("start_hand", "roll")):
        for ev in e.events:
            if ev.get("type") == "hand_started":
                hand = ev.get("hand")
            elif (ev.get("type") == "rolled" and e.applies and hand is not None
                  and (ev.get("roll") or {}).get(BY_HAND)):
                counts[hand] = counts.get(hand, 0) + 1
    return counts


def showdown_rows(entry: dict, names: dict[str, str], rules: RuleSet | None = None) -> dict:
    """One settled hand of the history for the page: each player's cards (by name), total,
    kind and credits won or paid, and who took which pot (the phones' showdown.js, in Python),
    in the words of the table's game (its deck's card names, its ranking's kinds)."""
    rules = rules or _default_rules()
    # A game without a deck of its own says its cards as they are; without judged hands, no kinds.
    deck = getattr(rules, "deck", None)
    display_name: Any = deck.display_name if deck is not None else str
    judge = getattr(rules, "hands", None)
    kind_words: Any = judge.words if judge is not None else (lambda kind: str(kind or ""))
    # A game's own tie column (`Game.tie_column`); else the cards drawn in a tie, if any.
    game = _game_of(rules)
    tie_column = game.tie_column if game is not None else None
    drawn = tie_names(rules).get("drawn")

    s = entry["settlement"]
    def n(seat: str) -> str:
        """The seat's player's name (the seat id for a seat the table no longer knows)."""
        return names.get(seat, seat)

    cards = dict(entry.get("cards") or {})
    payouts = s.get("payouts") or {}
    shown_words = ""  # the last player's shown hand, for the history's line of the hand
    judged = bool(s.get("hands")) or s.get("words") is None  # hands with totals and kinds
    if not judged:
        # A game that words its own result: each player, the cards shown, who won or folded.
        winners = s.get("winners") or [s.get("winner")]
        played = list(entry.get("players") or payouts)
        hands = [{"name": seat, "total": None, "kind": None,
                  "why": f"wins the {rules.words.pot}" if seat in winners else
                  rules.words.folded if not cards.get(seat) else ""} for seat in played]
        pots = [str(s["words"])]
    elif s.get("status") == "conceded":
        # The last player's shown hand (where the game lets them show one) is a hand like any
        # revealed one: cards, total, kind.
        shown = s.get("shown")
        hands = [{"name": seat, "total": None, "kind": "folded"} if seat != s["winner"] else
                 {"name": seat, "total": shown["total"], "kind": shown["kind"]} if shown else
                 {"name": seat, "total": None, "kind": "conceded"} for seat in payouts]
        if shown:
            cards[s["winner"]] = shown["cards"]
        # The same sentence as the phones' (settlement.js concededWords), in the game's words.
        shown_words = ("" if not shown else
                       f"{n(s['winner'])} shows {kind_words(shown['kind'])} and takes the sabacc pot, "
                       f"{shown['sabacc_pot']}" if shown["sabacc_pot"] else
                       f"{n(s['winner'])} shows {kind_words(shown['kind'])}: the sabacc pot carries over")
        pots = [f"{n(s['winner'])} takes the {rules.words.pot}, {s['amount']}: everyone else "
                f"{rules.words.folded}{'; ' + shown_words if shown else ''}."]
    else:
        hands = s.get("hands") or []
        contested = [p for p in s.get("pots") or [] if len(p["eligible"]) > 1 or p.get("to_sabacc_pot")]
        pots = []
        for p in s.get("pots") or []:
            if p not in contested:  # nobody else is left in it: no pot anyone won
                pots.append(f"The rest, {p['amount']}: to {n(p['winners'][0])} (nobody else is left in it).")
                continue
            i = contested.index(p)
            label = rules.words.pot.capitalize() if len(contested) == 1 else "Main pot" if i == 0 else f"Side pot {i}"
            to = ("to the sabacc pot" if p.get("to_sabacc_pot") else
                  " and ".join(n(w) for w in p["winners"]))
            pots.append(f"{label}, {p['amount']}: {to}.")
        if s.get("sabacc_pot_winners"):
            pots.append(f"Sabacc pot: {' and '.join(n(w) for w in s['sabacc_pot_winners'])}.")
        for x in s.get("penalties") or []:
            # A penalty's reason is a kind of hand in the game's words, or the caller's loss.
            why = "called the hand and lost" if x["reason"] == CALLER_LOST else kind_words(x["reason"])
            pots.append(f"{n(x['name'])} {why}: pays {x['amount']}.")
    rows = []
    for x in hands:
        codes = cards.get(x["name"]) or []
        pay = payouts.get(x["name"])
        rows.append({
            "seat": x["name"], "name": n(x["name"]),
            "cards": ", ".join(display_name(c) for c in codes) or "—",
            "total": "—" if x.get("total") is None else str(x["total"]),
            "kind": kind_words(x["kind"]) if x.get("kind") is not None else "—",
            "credits": "—" if pay is None else f"{pay:+d}" if pay else "0",
            "net": _net_words((s.get("net") or {}).get(x["name"])),
            "tie": (tie_column(x, display_name, kind_words) if tie_column else "")
            or ", then ".join(display_name(c) for c in (x.get(drawn) or () if drawn else ())),
            "why": x.get("why", ""),
        })
    # `judged`: the columns of judged hands (total, kind, the tie's card) are shown.
    # The tie column's class is the tie card's name the game gives it (sd-<card>), as always.
    return {"hand": entry["hand"], "game": entry.get("game", ""), "rows": rows, "pots": pots,
            "tie": rules.words.tie.capitalize(), "tie_class": f"sd-{tie_names(rules).get('card', 'tie')}",
            "shown": shown_words, "judged": judged}


def _net_words(net: int | None) -> str:
    """A net for the hand as the tables show it ("+12", "−5", "0"; "—" when not known)."""
    return "—" if net is None else _signed(net)


@bp.get("/t/<code>/chart.svg")
def chart(code: str):
    """The stack chart alone, as an SVG image."""
    owner = owner_or_404(code)
    _, state = owner.view(None)
    return Response(stack_chart(state["stack_history"], seat_names(state)), mimetype="image/svg+xml")


def sabacc_pot_seen(state: dict[str, Any]) -> bool:
    """Whether the table has ever held credits in a sabacc pot (the pages show its column and
    its count only then, as the console does: a game may never use one)."""
    return bool(state.get("sabacc_pot") or state.get("carried_sabacc_pot")
                or any(row.get("sabacc_pot") for row in state.get("stack_history") or [])
                or any(s.get("sabacc_share") for s in (state.get("standings") or [])))


def standings(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Each player's money over the session, with the chips to hand back for the stack still
    on the table: net = stack + cashed out − bought in − items staked − adjustments
    (`standings_and_note`, without the note)."""
    return standings_and_note(state)[0]


def standings_and_note(state: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
    """Each player's money over the session, with the chips to hand back for the stack still
    on the table (`chips.hand_back`: the odd credits rounded by the table's rule, the most
    first, ties from the dealer's left), and that rule in words for this table's stacks (empty
    when every credit is a chip): net = stack + cashed out − bought in − items staked −
    adjustments.

    The columns are read from the seats now, so cash-outs after the end of the session show;
    the order is the engine's final standings once the session has ended (net is unchanged
    by a cash-out), else by net. After a game played to a winner each row has its `place`."""
    chips = chip_set_from(state["settings"]["chip_set"])
    people = {d["seat"]: d for d in state.get("departed", [])} | {s["seat"]: s for s in state["seats"]}
    rows = []
    house = state.get("house_dealer", (state.get("rules") or {}).get("house_dealer"))
    ring = from_dealers_left([s["seat"] for s in state["seats"]], state.get("token") if house else state.get("dealer"))
    ring += [sid for sid in people if sid not in ring]
    back = hand_back([(sid, people[sid].get("stack", 0)) for sid in ring], chips)
    for sid, s in people.items():
        row = {"seat": sid, **{k: s.get(k, 0) for k in ("name", "stack", "bought_in", "cashed_out", "items", "adjusted")}}
        row["net"] = row["stack"] + row["cashed_out"] - row["bought_in"] - row["items"] - row["adjusted"]
        row["chips"] = back.rows[sid]
        rows.append(row)
    shares = {r["seat"]: r.get("sabacc_share", 0) for r in state.get("standings") or []}
    placed = {r["seat"]: r["place"] for r in state.get("standings") or [] if "place" in r}
    for row in rows:
        row["sabacc_share"] = shares.get(row["seat"], 0)
        if placed:  # a game played to a winner: its places (shared ones included)
            row["place"] = placed.get(row["seat"])
    final = [r["seat"] for r in state.get("standings") or []]
    if final:
        rows.sort(key=lambda r: final.index(r["seat"]) if r["seat"] in final else len(final))
    else:
        rows.sort(key=lambda r: -r["net"])  # stable: seat order among equals
    return rows, back.words(lambda sid: people[sid].get("name") if sid in people else None)


@bp.get("/t/<code>/standings.json")
def standings_json(code: str):
    """The standings with each remaining stack's chip breakdown (final once `ended`)."""
    owner = owner_or_404(code)
    _, state = owner.view(None)
    rows, note = standings_and_note(state)
    return jsonify({"code": owner.code, "ended": state["ended"], "standings": rows, "odd_credits": note})


@bp.get("/t/<code>/seat-qr.svg")
def seat_qr(code: str):
    """The QR code of the link that moves a seat to a new phone. Only drawn for a token that
    is valid for that seat, so this is no general QR service."""
    owner = owner_or_404(code)
    seat, token = request.args.get("seat", ""), request.args.get("token", "")
    if not token or len(token) > 200 or owner.seat_for_token(token) != seat:
        abort(404)
    return Response(qr.qr_svg(seat_link(owner.code, seat, token)), mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


def seat_link(code: str, seat: str, token: str) -> str:
    """The link a new phone opens to take over `seat`: the table's join page with the seat and
    its new token in the fragment (never sent to the server, never in a log)."""
    return f"{phone_base_url()}t/{code}/join#seat={seat}&token={token}"


# -- the installable app ---------------------------------------------------------------------


@bp.get("/sw.js")
def service_worker():
    """The service worker, from the site's root so that its scope is the whole site."""
    # Read whole (a few KB): nothing is left open if a client goes away mid-answer.
    body = (Path(STATIC_DIR) / "sw.js").read_bytes()
    return Response(body, mimetype="text/javascript",
                    headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest (name, icons, colours) with its own media type."""
    body = (Path(STATIC_DIR) / "manifest.webmanifest").read_bytes()
    return Response(body, mimetype="application/manifest+json", headers={"Cache-Control": "max-age=3600"})
