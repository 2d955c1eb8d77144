"""The evening around the hands: dealer's choice between hands, and the end of the session.

Two commands of the engine (a section of `Game`, like seats or betting):

- `change_rules` (host, between hands): the table plays another rule set or other options from
  the next hand on, with the same seats, stacks, sabacc pot and history. It is a ledger entry
  like any other, so a restart replays the same table; every settled hand records the game it
  was (`game_words`).
- `end_session` (host, between hands): the cash-out. RULES.md's end-of-session ruling: a sabacc
  pot nobody won is split equally among the players still seated, odd credits one each from
  the dealer's left (`split_sabacc_pot`), or carried to the table's next session
  (`"sabacc_pot": "carry"`; the next table is made with `"sabacc_pot": N`). Then the final
  standings: each player's stack, net for the evening and the chips to hand back, listed by
  net; or, after a game played to a winner (`final_places`), by the game's places: the
  winner first, then the player eliminated last, and so on, players out together sharing one.

    >>> split_sabacc_pot(11, ["s1", "s2", "s3", "s4"], dealer="s2")
    {'s3': 3, 's4': 3, 's1': 3, 's2': 2}
    >>> places_in_order([["Ana"], ["Ben", "Cas"], ["Dex"]])
    {'Ana': 1, 'Ben': 2, 'Cas': 2, 'Dex': 4}
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.games import registry
from companion.refusal import Refused
from companion.rules.game import GameWords
from companion.rules.option_fields import option_value
from companion.rules.rulesets import InvalidRules, RuleSet, ruleset_from
from companion.table.chips import InvalidChips, chip_set_from, chip_set_to_json, from_dealers_left, hand_back
from companion.table.commands import HOST, SCRAMBLER
from companion.table.play import Play, Refusal, need
from companion.table.state import replace_last_row


def rules_spec(rules: Any, options: dict[str, Any]) -> dict[str, Any]:
    """The rule-set spec a table keeps ({"preset": name, **options}) from a preset name or
    object and options given beside it. Raises Refused(422) naming the bad field."""
    spec = {"preset": rules} if isinstance(rules, str) else rules
    if not isinstance(spec, dict):
        raise Refused(422, "rules must be a preset name or an object with a preset", "rules")
    spec = dict(spec)
    for k, v in options.items():
        if k in spec:
            raise Refused(422, f"{k} is given twice (top level and in rules)", k)
        spec[k] = v
    return spec


def checked_rules(spec: dict[str, Any], chip_set: Any = None) -> tuple[RuleSet, list[dict[str, Any]]]:
    """The rule set and the table's chip set (as JSON) a spec makes, or Refused(422)."""
    try:
        rules = ruleset_from(spec)
    except InvalidRules as exc:
        raise Refused(422, exc.message, exc.field) from None
    if not rules.live_table:
        raise Refused(422, f"{rules.title} is not played at a live table yet: "
                           "the payout calculator settles its hands", "rules")
    try:
        chips = chip_set_from(chip_set) if chip_set is not None else rules.chip_set
    except InvalidChips as exc:
        raise Refused(422, exc.message, exc.field) from None
    return rules, chip_set_to_json(chips)


def game_words(rules: RuleSet) -> str:
    """Which game a hand was, as the history and standings name it: the rule set's title and,
    when the host changed options, which ones with the values played.

    >>> from types import SimpleNamespace as Rules
    >>> game_words(Rules(title="Coin toss", overrides=()))
    'Coin toss'
    >>> game_words(Rules(title="Coin toss", overrides=("bet_limit", "best_of"), bet_limit=5, best_of=None))
    'Coin toss (bet limit 5; best of none)'
    """
    if not rules.overrides:
        return rules.title
    # An option's value is read where the rule set keeps it (a game may name an option in its
    # own words and keep it in another field: `option_value`).
    changed = "; ".join(f"{k.replace('_', ' ')} {_option_value(option_value(rules, k))}"
                        for k in rules.overrides)
    return f"{rules.title} ({changed})"


def _option_value(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "on" if v else "off"
    return str(getattr(v, "value", v))


#: What an undone entry was, in words (`undone_words`); {who} is the seat's (or actor's) name.
_UNDONE = {
    "bet": "{who}'s bet of {amount}", "raise": "{who}'s raise to {to}", "call": "{who}'s call",
    "check": "{who}'s check", "fold": "{who}'s {fold}", "all_in": "{who}'s all-in",
    "roll": "{who}'s roll", "draw": "{who}'s draw ({action})", "reveal": "{who}'s hand as entered",
    "buy_in": "{who}'s buy-in",
    "cash_out": "{who}'s cash-out", "adjust": "the adjustment of {who}'s stack ({amount})",
    "stake": "{who}'s stake", "start_hand": "the start of the hand", "sit_out": "{who} sitting out",
    "sit_in": "{who} sitting in", "set_dealer": "the choice of dealer", "reorder": "the seat order",
    "change_rules": "the change of rules",
}


def _game_undone(rules: RuleSet | None) -> dict[str, str]:
    """What an undone entry of the table's game's own moves was, in words (its engine's
    `UNDONE`, as `_UNDONE`); none for a table without rules or a game the registry lacks."""
    if rules is None:
        return {}
    try:
        engine = registry.game_of(rules.name).engine()
    except (InvalidRules, KeyError):
        return {}
    return dict(getattr(engine, "UNDONE", {}))


def undone_words(typ: str, body: dict[str, Any], actor: str | None, name: Any,
                 rules: RuleSet | None = None) -> str:
    """An undone entry as the table says it ("Han's bet of 4", not "entry 47"), in the words of
    the table's game (`rules`: the game's word for a fold). Hidden fields (the cards of a reveal) are never
    named. `name`: seat id -> name."""
    seat = body.get("seat") or actor
    who = name(seat) if seat not in (None, "host", "scrambler") else "the host" if seat == "host" else "the scrambler"
    words = _UNDONE.get(typ) or _game_undone(rules).get(typ) or typ.replace("_", " ")
    fields = {k: v for k, v in body.items() if isinstance(v, (int, str)) and k not in ("cards", "card")}
    game = (rules.words if rules else GameWords())
    fields.update(fold=game.fold, tie_card=game.tie_card)
    try:
        return words.format(who=who, **fields)
    except (KeyError, IndexError):
        return typ.replace("_", " ")


def split_sabacc_pot(amount: int, seated: list[str], dealer: str | None) -> dict[str, int]:
    """The sabacc pot split equally among `seated` (seat order), the odd credits one each from
    the dealer's left (RULES.md, the end of a session). Seats in the order they are paid."""
    if not seated:
        return {}
    start = (seated.index(dealer) + 1) % len(seated) if dealer in seated else 0
    ring = seated[start:] + seated[:start]
    share, odd = divmod(amount, len(ring))
    return {sid: share + (1 if i < odd else 0) for i, sid in enumerate(ring)}


def places_in_order(groups: list[list[str]]) -> dict[str, int]:
    """Places from groups of players, best first; a group shares one place and the next group's
    place counts everyone ahead of it (1, 2, 2, 4)."""
    out: dict[str, int] = {}
    for group in groups:
        place = len(out) + 1
        out.update({sid: place for sid in group if sid not in out})
    return out


def places_by_elimination(first: list[str], went_out: dict[str, int]) -> dict[str, int]:
    """A game played to its last player: `first` (the winners) share first place, then the
    players who went out, the latest round first, those out in one round sharing a place.
    `went_out` maps a player to the round they went out in.

        >>> places_by_elimination(["s2"], {"s1": 1, "s3": 3, "s4": 1})
        {'s2': 1, 's3': 2, 's1': 3, 's4': 3}
    """
    rounds = sorted({r for sid, r in went_out.items() if sid not in first}, reverse=True)
    return places_in_order([list(first)] + [[sid for sid, r in went_out.items() if r == n and sid not in first]
                                             for n in rounds])


class Evening(Play):
    """Dealer's choice and the end of the session (a section of the engine's Game)."""

    #: The names a game gives the runtime's building blocks' state, moves and events (the
    #: names its ledgers and views have always used), for the pages, which draw a block
    #: without knowing the game: block -> its part -> the game's name, e.g. ``{"kept": {"field":
    #: ..., "add": ..., "remove": ...}}`` (docs/games.md "Blocks"). Empty: the game uses none.
    BLOCKS: Mapping[str, Mapping[str, str]] = {}

    def final_places(self) -> dict[str, int] | None:
        """Each player's place once a game played to a winner is over (seat -> place; equal
        places shared); None while it runs, or for a session of hands (its standings go by net)."""
        return None

    def host_offers(self, sid: str) -> list[dict[str, Any]]:
        """The host's own moves for seat `sid` now, as offers (docs/games.md "Offers"): the
        corrections a game lets the host make for a player (a count recorded wrongly, set
        right before the settlement). The console draws them after the moves of the seat it
        plays; a phone never sees them. None by default."""
        return []

    def game_over(self) -> dict[str, Any] | None:
        """What every screen says once a game played to a winner is over (`final_places`), until
        the session ends: `places` (seat -> place) and `words`, the winners and the final places
        in names ("Cas wins the game. Final places: 1 Cas, 2 Dee, 3 Ana and Ben (shared). The host
        ends the session for the final standings."); None while it runs or for a session of hands."""
        places = self.final_places()
        if not places:
            return None
        departed = self.s["departed"]

        def named(sid: str) -> str:
            return departed[sid]["name"] if sid not in self.s["seats"] and sid in departed else self.name(sid)

        by_place: dict[int, list[str]] = {}
        for sid, place in sorted(places.items(), key=lambda x: x[1]):
            by_place.setdefault(place, []).append(named(sid))
        first = by_place.get(1, [])
        lines = [f"{place} {' and '.join(names)}" + (" (shared)" if len(names) > 1 else "")
                 for place, names in by_place.items()]
        words = (f"{' and '.join(first)} {'wins' if len(first) == 1 else 'win'} the game. "
                 f"Final places: {', '.join(lines)}.")
        if not self.s["ended"]:
            words += " The host ends the session for the final standings."
        return {"places": dict(places), "words": words}

    def cmd_change_rules(self, f: dict[str, Any], actor: str | None) -> None:
        need(self.not_ended() or self.between_hands())
        spec = rules_spec(f["rules"], {})
        rules, chips = checked_rules(spec, f.get("chip_set"))
        was, becomes = registry.game_of(self.rules.name), registry.game_of(rules.name)
        if not registry.may_follow(was, becomes):
            # A game played to a winner keeps its table until it is won (docs/design/games-interface.md).
            raise Refused(409, f"dealer's choice changes only between games played in hands: not from "
                               f"{was.title} to {becomes.title}", "rules")
        settings = self.s["settings"].copy()
        settings["rules"] = spec
        settings["chip_set"] = chips
        # Replaced whole: the engine sees new settings and reads the rule set again (Table.apply).
        self.s["settings"] = settings
        if rules.house_dealer is False and self.s["dealer"] is None and self.s["order"]:
            self.s["dealer"] = self.s["token"] or self.s["order"][0]
        self.emit("rules_changed", preset=rules.name, game=game_words(rules), rules=spec)

    def check_end_session(self, f: dict[str, Any], actor: str | None) -> Refusal | None:
        """The refusal of the end of the session that `cmd_end_session` would raise (read-only)."""
        refusal = self.between_hands() or self.not_ended()
        if refusal is None and self.s["sabacc_pot"] and f.get("sabacc_pot", "split") == "split" \
                and not self.s["order"]:
            return Refusal(409, "nobody is seated to share the sabacc pot: carry it instead",
                           "sabacc_pot")
        return refusal

    def cmd_end_session(self, f: dict[str, Any], actor: str | None) -> None:
        need(self.check_end_session(f, actor))
        s = self.s
        pot = s["sabacc_pot"]
        what = f.get("sabacc_pot", "split")
        shares: dict[str, int] = {}
        carried = 0
        dealer = s["token"] if self.rules.house_dealer else s["dealer"]
        if pot and what == "split":
            shares = split_sabacc_pot(pot, list(s["order"]), dealer)
            for sid, n in shares.items():
                s["seats"][sid]["stack"] += n
        elif pot:
            carried = pot
        s["sabacc_pot"] = 0
        rows: list[dict[str, Any]] = []
        every = [(sid, s["seats"][sid], True) for sid in s["order"]]
        every += [(sid, seat, False) for sid, seat in s["departed"].items()]
        # The chips each hands back, the odd credits rounded by the table's rule (chips.hand_back),
        # the most first, ties from the dealer's left.
        stack_of = {sid: seat["stack"] for sid, seat, _ in every}
        ring = from_dealers_left(list(s["order"]), dealer) + list(s["departed"])
        back = hand_back([(sid, stack_of[sid]) for sid in ring], self.chips)
        for sid, seat, seated in every:
            net = seat["stack"] + seat["cashed_out"] - seat["bought_in"] - seat["items"] - seat["adjusted"]
            rows.append({"seat": sid, "name": seat["name"], "stack": seat["stack"],
                         "bought_in": seat["bought_in"], "cashed_out": seat["cashed_out"],
                         "items": seat["items"], "adjusted": seat["adjusted"], "net": net,
                         "sabacc_share": shares.get(sid, 0), "seated": seated,
                         "chips": back.rows[sid]})
        places = self.final_places()
        if places:
            # The game's places, then by net (stable: seat order among equals). A player seated
            # after the game began has no place and comes last.
            for row in rows:
                row["place"] = places.get(row["seat"])
            rows.sort(key=lambda r: (r["place"] is None, r["place"] or 0, -r["net"]))
        else:
            rows.sort(key=lambda r: -r["net"])  # stable: seat order among equals
        s["ended"] = True
        s["standings"] = rows
        s["carried_sabacc_pot"] = carried
        self.emit("session_ended", standings=rows, sabacc_shares=shares, carried_sabacc_pot=carried)

    def cmd_reveal_seed(self, f: dict[str, Any], actor: str | None) -> None:
        if actor not in (HOST, SCRAMBLER):
            raise Refused(403, "only the scrambler or the host reveals the seed", None)
        h = self.s["hand"]
        if h is None or h["stage"] != "settled":
            raise Refused(409, "the seed is revealed after the hand is settled", None)
        if h["seed_commitment"] is None:
            raise Refused(409, "this hand carried no seed commitment", None)
        if h["seed"] is not None:
            raise Refused(409, "the seed is already revealed", None)
        h["seed"] = f["seed"].lower()
        self.s["hands"] = replace_last_row(self.s["hands"], {**self.s["hands"][-1], "seed": h["seed"]})
        self.emit("seed_revealed", hand=h["no"], seed=h["seed"])
