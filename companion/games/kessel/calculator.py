"""Kessel Sabacc's payout calculator: `POST /api/v1/settle` with ``"rules": "kessel"`` (or
``"kessel-plain"``, or a preset with options) settles one reveal (RULES-KESSEL.md "The payout
calculator for Kessel")::

    >>> a = answer({"rules": "kessel", "players": [
    ...     {"name": "Ana", "cards": ["s2", "b2"], "invested": 2, "stock": 3},
    ...     {"name": "Ben", "cards": ["B1", "s4"], "invested": 1, "stock": 4}]})
    >>> a["winners"], a["chips_after"], a["penalties"][0]["amount"], a["hands"][1]["values"]
    (['Ana'], {'Ana': 5, 'Ben': 1}, 3, [4, 1])

Every bad input raises `InvalidRequest` (the server answers 422) with the message in words and
the path of the first bad field; the body is read in full before anything is settled.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.games.api import InvalidRequest, InvalidRules
from companion.games.kessel.cards import KESSEL_DECK, name as card_name
from companion.games.kessel.hands import Effects, InvalidHand, judge
from companion.games.kessel.presets import MAX_BUY_IN, MAX_PLAYERS, MIN_PLAYERS, KesselRules
from companion.games.kessel.settle import Seat, settle
from companion.rules.request import card_codes, player_name, request_object, type_name, whole_number

#: The fields of a request, of a player and of the effects (anything else is refused).
TOP_FIELDS = ("rules", "players", "effects", "credits_pot", "discards")
PLAYER_FIELDS = ("name", "cards", "impostors", "invested", "stock")
EFFECT_FIELDS = ("major_fraud", "markdown", "cook_the_books", "prime_sabacc")
#: What an unknown card's refusal adds: the codes to use.
CODES = "; the cards are s1 to s6, si, ss, b1 to b6, bi and bs"
#: The longest name, and the most chips or credits a field may hold.
MAX_AMOUNT = MAX_BUY_IN


def _whole(value: Any, where: str, what: str = "chips") -> int:
    return whole_number(value, where, MAX_AMOUNT, what, error=InvalidRequest)


def _rules(spec: Any) -> KesselRules:
    from companion.games import registry  # read when a request comes, never at import

    try:
        rules = registry.rules_from(spec)
    except InvalidRules as exc:
        raise InvalidRequest(exc.message, exc.field) from None
    if not isinstance(rules, KesselRules):
        raise InvalidRequest(f"{rules.title} is not Kessel Sabacc", "rules")
    return rules


def _effects(raw: Any, rules: KesselRules) -> Effects:
    if raw is None:
        return Effects()
    if not rules.plays_tokens:
        raise InvalidRequest(f"effects come from shift tokens, and this table ({rules.title}, tokens "
                             f"{rules.tokens!r}) plays without them", "effects")
    e = request_object(raw, "effects", EFFECT_FIELDS, (), InvalidRequest)
    flags = {}
    for key in ("major_fraud", "markdown", "cook_the_books"):
        v = e.get(key, False)
        if not isinstance(v, bool):
            raise InvalidRequest(f"effects.{key} must be true or false, not {type_name(v)}", f"effects.{key}")
        flags[key] = v
    prime = e.get("prime_sabacc")
    if prime is not None and (isinstance(prime, bool) or not isinstance(prime, int) or not 1 <= prime <= 6):
        raise InvalidRequest("effects.prime_sabacc is the value chosen with the Prime Sabacc token, 1 to 6, "
                             "or null", "effects.prime_sabacc")
    return Effects(prime_sabacc=prime, **flags)


def _check_copies(entries: list[tuple[str, str]]) -> None:
    """K3, K15: no card more often across the reveals and the discard piles than the deck has
    it; the refusal names every entry of the clashing card."""
    counts = Counter(code for code, _ in entries)
    for code, count in counts.items():
        copies = KESSEL_DECK.cards[code].copies
        if count > copies:
            where = [w for c, w in entries if c == code]
            raise InvalidRequest(
                f"{count} copies of {card_name(code)} ({code}) entered, but the deck has {copies}: "
                + ", ".join(where) + "; correct the wrong one", where[copies])


def parse(body: Any) -> tuple[KesselRules, list[tuple[str, list[str], list[int], int, int]], Effects, int | None]:
    """Read a Kessel request: the rules, each player's (name, cards, impostors, invested, stock),
    the effects and the credits pot. Raises `InvalidRequest` for the first bad field."""
    raw = request_object(body, "", TOP_FIELDS, ("rules", "players"), InvalidRequest)
    rules = _rules(raw["rules"])
    effects = _effects(raw.get("effects"), rules)
    pot = None if raw.get("credits_pot") is None else _whole(raw["credits_pot"], "credits_pot", "credits")
    players_raw = raw["players"]
    if not isinstance(players_raw, list):
        raise InvalidRequest(f"players must be a list, not {type_name(players_raw)}", "players")
    if not rules.min_players <= len(players_raw) <= rules.max_players:
        raise InvalidRequest(f"a Kessel reveal needs {rules.min_players} to {rules.max_players} players "
                             f"still in the game, not {len(players_raw)}", "players")
    players = []
    names: set[str] = set()
    entries: list[tuple[str, str]] = []
    for i, p in enumerate(players_raw):
        at = f"players[{i}]"
        p = request_object(p, at, PLAYER_FIELDS, ("name", "cards", "invested", "stock"), InvalidRequest)
        nm = player_name(p["name"], f"{at}.name")
        if nm in names:
            raise InvalidRequest(f"two players are named {nm!r}: names are unique at the table", f"{at}.name")
        names.add(nm)
        cards = card_codes(KESSEL_DECK, p["cards"], f"{at}.cards", 2, error=InvalidRequest, unknown=CODES)
        if len(cards) != 2:
            raise InvalidRequest(f"a hand is two cards, one Sand and one Blood, not {len(cards)}", f"{at}.cards")
        entries += [(c, f"{at}.cards[{k}]") for k, c in enumerate(cards)]
        imps = p.get("impostors", [])
        if not isinstance(imps, list):
            raise InvalidRequest(f"impostors must be a list of values, not {type_name(imps)}", f"{at}.impostors")
        players.append((nm, cards, imps, _whole(p["invested"], f"{at}.invested"), _whole(p["stock"], f"{at}.stock")))
    if "discards" in raw:
        entries += [(c, f"discards[{k}]") for k, c in enumerate(card_codes(KESSEL_DECK, raw["discards"], "discards",
                                                                       KESSEL_DECK.size(), error=InvalidRequest,
                                                                       unknown=CODES))]
    _check_copies(entries)
    return rules, players, effects, pot


def answer(body: Any) -> dict[str, Any]:
    """Kessel's payout calculator (`Game.calculator`): a request body -> the answer's JSON."""
    rules, players, effects, pot = parse(body)
    seats = []
    for i, (nm, cards, imps, invested, stock) in enumerate(players):
        try:
            hand = judge(cards, imps, effects)
        except InvalidHand as exc:
            raise InvalidRequest(exc.message, f"players[{i}].{exc.field}") from None
        seats.append(Seat(nm, hand, stock, invested))
    s = settle(seats, pot)
    out: dict[str, Any] = {
        "rules": rules.name,
        "hands": [{"name": seat.name, **seat.hand.to_json()} for seat in seats],
        "winners": s.winners,
        "penalties": [p.to_json() for p in s.penalties],
        "chips_after": s.chips_after,
        "eliminated": s.eliminated,
        "chips_removed": s.chips_removed,
        "game_over": s.game_over,
    }
    if s.game_over:
        out["game_winners"] = s.game_winners
        if s.credits_payouts is not None:
            out["credits_payouts"] = s.credits_payouts
    return out
