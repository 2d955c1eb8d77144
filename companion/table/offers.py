"""Every legal move as the pages draw it: its words, its style, whether it asks twice, and
what the page must ask before sending it (issue 29, docs/design/games-interface.md §2 "Offer").

`describe` takes a seat's legal list as `DealtHand.legal` builds it (``{"type": "bet", "min": 1,
"max": 9}``, ``{"type": "draw", "action": "trade"}``, ...) and returns the same items, every
key and value kept, with four keys added:

- ``words``: the button's words, in the table's game words (`RuleSet.words`, the turn
  actions' `TurnAction.button`, the dice's name), amounts where the pages put them;
- ``style``: ``"primary"``, ``"danger"``, ``"quiet"`` or ``""``;
- ``confirm``: the page asks for a second tap before it sends (what cannot be taken back);
- ``inputs``: what the page asks before sending, each ``{"field", "kind", "words", ...}``:
  ``"amount"`` (``min``, ``max``, ``shortcuts``: ``[[amount, words], ...]``: the buttons of the
  usual amounts; a number field covers the rest of the range), ``"cards"`` (from the card picker:
  ``deck``, ``count``; ``locked``: cards that are in already), or ``"choice"`` / ``"pile"`` /
  ``"seat"`` / ``"token"`` (``options``: ``[[value, words], ...]``). ``"optional": True``: the
  page may leave the input out (a choice then offers ``none``, its words) and sends the command
  without its field.

The command a page sends is ``{"type": ..., <the item's fixed fields>, <each input's field>}``;
the fixed fields are the command's own (``action`` of a draw), not the listing's (``min``,
``amount`` of a call: the engine works those out). Which are which the pages know for today's
moves; a move of a game they do not know names its fixed fields in ``fields`` (kept as it
comes, as its ``words`` and ``inputs`` are).

A game that calls dropping out of a hand "drop out" has its fold offered in those words:

>>> from dataclasses import replace
>>> from companion.games import registry
>>> rules = registry.rules_from(registry.default_preset())
>>> drop = replace(rules, words=replace(rules.words, fold="drop out"))
>>> fold = describe([{"type": "fold"}], drop, SeatFacts(stack=10))[0]
>>> fold["words"], fold["style"], fold["confirm"], fold["inputs"]
('Drop out', 'danger', True, [])
>>> bet = describe([{"type": "bet", "min": 1, "max": 4}], drop, SeatFacts(stack=4))[0]
>>> bet["words"], bet["inputs"][0]["shortcuts"]
('Bet', [[1, 'Bet 1'], [2, 'Bet 2'], [3, 'Bet 3'], [4, 'Bet 4 (all-in)']])
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, NamedTuple

from companion.rules.rulesets import RuleSet

#: The moves a page asks twice for: they cannot be taken back (leaving and cashing out end
#: the evening's seat).
CONFIRMED = frozenset({"fold", "all_in", "leave", "cash_out"})

#: The moves whose offer, when they carry no field but their type, depends on the rules alone
#: (not on the seat's stack, bet or cards): `describe` hands out their `plain_offer`, worked
#: out once per rules, without asking for the seat's facts. Every seat may fold, and sit out,
#: at every version.
PLAIN = frozenset({"check", "fold", "sit_out", "sit_in", "leave", "cash_out"})

#: The round amounts a bet or raise offers as buttons besides its smallest and largest.
ROUND_AMOUNTS = (2, 3, 5, 10, 20, 50, 100, 200, 500, 1000)

#: The most a typed buy-in may be (the phone's field; the engine takes any positive amount).
MOST_BUY_IN = 1_000_000

class SeatFacts(NamedTuple):
    """What the words of a seat's moves depend on besides the rules: its stack (an amount
    that puts all of it in is marked all-in), its bet in the betting round and the amounts a
    free buy-in offers as buttons besides the ante's round multiples. (A named tuple: one is
    made for every seat at every version.)"""

    stack: int
    bet: int = 0
    buy_ins: tuple[int, ...] | Callable[[], tuple[int, ...]] = ()  # or how to find them (only a free buy-in asks)
    kept: tuple[str, ...] = ()  # the cards it keeps face up (`Play.kept`): in at the reveal already


def seat_facts(s: Mapping[str, Any], sid: str, kept: tuple[str, ...] = ()) -> SeatFacts:
    """A seat's `SeatFacts` from the table state `s` (read-only); `kept`: the cards it keeps
    face up, as its game says (`Play.kept`)."""
    seat = s["seats"][sid]
    h = s["hand"]
    mine = h["p"].get(sid) if h is not None else None

    def usual() -> tuple[int, ...]:
        return _buy_ins_of(s)[sid]

    return SeatFacts(seat["stack"], mine["bet"] if mine else 0, usual, kept)


def _buy_ins_of(s: Mapping[str, Any]) -> dict[str, tuple[int, ...]]:
    """Every seat's usual buy-ins (`_usual`) at the table state `s`, worked out once for all
    its seats: a version's seats (a new dict at every version: `working_copy`) are asked for
    them by every seat's view; and remembered by what they depend on (the chip set and what
    each seat bought in for), which a new version rarely changes."""
    seats = s["seats"]
    hit = _BUY_INS.get(id(seats))
    if hit is None or hit[0] is not seats:
        bought = tuple([(k, x["bought_in"]) for k, x in seats.items()])
        key = (tuple([(c["value"], c["per_buy_in"]) for c in s["settings"]["chip_set"]]), bought)
        usual = _BY_BOUGHT.get(key)
        if usual is None:
            chips = sum([value * per for value, per in key[0]])
            usual = {sid: _usual(chips, tuple([b for k, b in bought if k != sid and b > 0])) for sid, _ in bought}
        if len(_BUY_INS) >= 16:  # a few versions of a few tables (each entry holds its version's seats)
            _BUY_INS.clear()
            _BY_BOUGHT.clear()
        hit = _BUY_INS[id(seats)] = (seats, usual)
        _BY_BOUGHT[key] = usual
    return hit[1]


#: `_buy_ins_of`'s answers: the id of a version's seats -> (those seats, each seat's buy-ins)
_BUY_INS: dict[int, tuple[Any, dict[str, tuple[int, ...]]]] = {}
#: ... and (the chip set's (value, per buy-in) pairs, each seat's bought-in amount) -> the same.
_BY_BOUGHT: dict[tuple[Any, ...], dict[str, tuple[int, ...]]] = {}


def _usual(chips: int, others: tuple[int, ...]) -> tuple[int, ...]:
    """The buy-ins offered as buttons: the chip set's, what others bought in for (the first
    three of these; the ante's round multiples are added up to four by `describe`)."""
    out: list[int] = []
    for n in (chips, *others):
        if n > 0 and n not in out:
            out.append(n)
    return tuple(out[:3])


def offered_amounts(lo: int, hi: int, ante: int = 1, most: int = 6) -> list[int]:
    """The amounts offered as buttons: every one when there are few, else the smallest, a few
    round ones (not below the ante) and the largest; a number field covers the rest.

    >>> offered_amounts(3, 5), offered_amounts(1, 100, ante=2)
    ([3, 4, 5], [1, 2, 3, 5, 10, 100])
    """
    if hi - lo + 1 <= most:
        return list(range(lo, hi + 1))
    out = [lo]
    for n in ROUND_AMOUNTS:
        if len(out) >= most - 1:
            break
        if lo < n < hi and n >= ante:
            out.append(n)
    return [*out, hi]


def capital(words: str) -> str:
    """`words` with a capital first letter ("drop out" -> "Drop out")."""
    return words[:1].upper() + words[1:]


def describe(items: list[dict[str, Any]], rules: RuleSet,
             seat: SeatFacts | Callable[[], SeatFacts]) -> list[dict[str, Any]]:
    """`items` (one seat's legal moves) with `words`, `style`, `confirm` and `inputs` added to
    each (new dicts; every key of an item is kept, and so are words, style, confirm and inputs
    an item brings itself: a plug-in game's move words itself). An item described before, for
    the same rules, stack and bet, is the same dict as then (`_MEMO`: read-only, shared); a
    move of `PLAIN` with no field but its type is its `plain_offer`.
    `seat`: the seat's facts, or how to find them (asked only if an item is not described yet
    and is no plain move: most of a seat's moves at most versions are one or the other)."""
    out = []
    for item in items:
        if _DESCRIBED <= item.keys():  # described already (`plain_offer`, a game's own `offer`)
            out.append(item)
            continue
        if len(item) == 1 and item["type"] in PLAIN:
            out.append(plain_offer(item["type"], rules))
            continue
        if not isinstance(seat, SeatFacts):
            seat = seat()
        facts = seat
        if item["type"] == "buy_in" and not item.get("amount"):
            # A free buy-in's amounts are what the other seats bought in for, and only they:
            # remembered by them (the same at every seat, version after version).
            facts = SeatFacts(0, 0, seat.buy_ins() if callable(seat.buy_ins) else tuple(seat.buy_ins))
            head: tuple[Any, ...] = (id(rules), facts.buy_ins)
        else:
            head = (id(rules), seat.stack, seat.bet, seat.kept)
        key: tuple[Any, ...] | None = None
        fields = (*head, *item.items())
        try:
            hit = _MEMO.get(fields)
            key = fields
        except TypeError:  # a field that is no plain value (a list): not remembered
            hit = None
        if hit is not None and hit[0] is rules:
            out.append(hit[1])
            continue
        said = dict(item)
        for k, v in _describe(item, rules, facts).items():
            said.setdefault(k, v)  # what the item says itself stands
        if key is not None:
            _MEMO.put(key, (rules, said))
        out.append(said)
    return out


#: Described moves already worked out: (the rules' id, the seat's stack, bet and kept cards —
#: for a free buy-in, the amounts it offers —, the move's fields) -> (the rules, the described
#: move). The same moves come back in every version of a
#: table for every seat (a check, a sit out, a turn action), and describing them again was a
#: quarter of a version's views. Views are read, never changed, so the dicts are shared.
#: What was not asked for lately is forgotten (`Recent`): a described move with its inputs is
#: about 0.7 KB, and a server playing hands for hours meets many stacks and bets.


class Recent:
    """A memo of what was asked for lately: two generations of at most `most` entries each.
    When the newer is full it becomes the older (the older is forgotten); an entry found in
    the older is moved to the newer. A server's memory never holds more than 2 × `most`
    entries, and those asked for at every version stay.

    >>> memo = Recent(2)
    >>> for k in "abcde":
    ...     memo.put(k, k.upper())
    >>> memo.get("a"), memo.get("c"), memo.get("e")
    (None, 'C', 'E')
    """

    def __init__(self, most: int):
        self.most = most
        self._new: dict[Any, Any] = {}
        self._old: dict[Any, Any] = {}

    def get(self, key: Any) -> Any:
        """The value put under `key` lately, or None (raises TypeError for a key that cannot
        be hashed, as a dict does)."""
        hit = self._new.get(key)
        if hit is None:
            hit = self._old.get(key)
            if hit is not None:
                self.put(key, hit)
        return hit

    def put(self, key: Any, value: Any) -> None:
        """Remember `value` under `key` (in the newer generation)."""
        if len(self._new) >= self.most:
            self._old, self._new = self._new, {}
        self._new[key] = value


_MEMO = Recent(96)


_ADDED = ("words", "style", "confirm", "inputs")
_DESCRIBED = frozenset(_ADDED)


def plain_offer(typ: str, rules: RuleSet) -> dict[str, Any]:
    """The offer of the move `typ` with no fields (a sit out, a leave, a check): its words
    are the rules' alone, so it is worked out once per rules and shared (read-only), and
    `describe` passes it on as it is.

    >>> from companion.games import registry
    >>> rules = next(iter(registry.presets().values()))
    >>> plain_offer("leave", rules)
    {'type': 'leave', 'words': 'Leave the table', 'style': 'danger', 'confirm': True, 'inputs': []}
    >>> plain_offer("leave", rules) is plain_offer("leave", rules)
    True
    """
    key = (id(rules), typ)
    hit = _PLAIN.get(key)
    if hit is None or hit[0] is not rules:
        item = {"type": typ}
        hit = _PLAIN[key] = (rules, {**item, **_describe(item, rules, SeatFacts(stack=0))})
    return hit[1]


#: `plain_offer`'s offers: (the rules' id, the move) -> (the rules, the offer). A table's rules
#: are one value for its life, so this holds a few moves for each table's rules at most.
_PLAIN: dict[tuple[int, str], tuple[RuleSet, dict[str, Any]]] = {}


def _amount(field: str, lo: int, hi: int, verb: str, words: str, ante: int,
            whole: int | None, shortcuts: Iterable[int] | None = None) -> dict[str, Any]:
    """An amount input from `lo` to `hi`: its buttons say "<verb> <n>", "(all-in)" on `whole`."""
    amounts = offered_amounts(lo, hi, ante) if shortcuts is None else list(shortcuts)
    return {"field": field, "kind": "amount", "min": lo, "max": hi, "words": words,
            "shortcuts": [[n, f"{verb} {n}{' (all-in)' if n == whole else ''}"] for n in amounts]}


def offer(item: dict[str, Any], words: str, style: str = "", confirm: bool = False,
          inputs: Iterable[dict[str, Any]] = ()) -> dict[str, Any]:
    """A legal move that brings its own words, style, confirm step and inputs (a game's own
    move; `describe` keeps them), its keys in the order `describe` writes them."""
    return {**item, "words": words, "style": style, "confirm": confirm, "inputs": list(inputs)}


def cards_input(field: str, rules: RuleSet, count: int, words: str, locked: Iterable[str] = ()) -> dict[str, Any]:
    """A cards input: `count` cards of the table's deck from the card picker."""
    out: dict[str, Any] = {"field": field, "kind": "cards", "deck": rules.deck.name, "count": count, "words": words}
    if locked:
        out["locked"] = list(locked)
    return out


def _describe(item: Mapping[str, Any], rules: RuleSet, seat: SeatFacts) -> dict[str, Any]:
    """The four added keys of one legal move."""
    typ = item["type"]
    words, style = typ.replace("_", " ").capitalize(), ""
    inputs: list[dict[str, Any]] = []
    ante = getattr(rules, "ante", 0) or 1  # a game without an ante (it plays for chips) counts in ones
    confirm = typ in CONFIRMED
    if typ == "check":
        words, style = "Check", "primary"
    elif typ == "call":
        words, style = f"Call {item['amount']}{' (all-in)' if item['amount'] == seat.stack else ''}", "primary"
    elif typ == "bet":
        words = "Bet"
        inputs = [_amount("amount", item["min"], item["max"], "Bet", "Bet another amount", ante, seat.stack)]
    elif typ == "raise":
        words = "Raise to"
        inputs = [_amount("to", item["min_to"], item["max_to"], "Raise to", "Raise to another total", ante,
                          seat.bet + seat.stack)]
    elif typ == "all_in":
        words, style = f"All-in ({item['amount']})", "danger"
    elif typ == "fold":
        words, style = capital(rules.words.fold), "danger"
    elif typ == "roll":
        words, style = f"Roll {rules.dice.name}", "primary"
    elif typ == "draw":
        taken = next((a for a in rules.actions if a.action == item["action"]), None)
        if taken is not None:
            words = taken.button
            # Leaving the hand cannot be taken back: it asks twice, as a fold does.
            style = "danger" if taken.leaves else "primary" if taken.primary else ""
            confirm = taken.leaves
        if item.get("card"):
            inputs = [cards_input("card", rules, 1, "The card you discard")]
    elif typ == "reveal":
        words, style = "Show my hand", "primary"
        inputs = [cards_input("cards", rules, item["hand_size"], "Your hand", seat.kept)]
    elif typ == "sit_out":
        words = "Sit out the next hands"
    elif typ == "sit_in":
        words, style = "Sit in again", "primary"
    elif typ == "cash_out":
        words = "Cash out my stack"
    elif typ == "leave":
        words, style = "Leave the table", "danger"
    elif typ == "buy_in":
        if item.get("amount"):
            words, style = f"Buy in ({item['amount']})", "primary"
        else:
            words = "Buy in"
            usual = list(seat.buy_ins() if callable(seat.buy_ins) else seat.buy_ins)
            for n in (20 * ante, 50 * ante, 100 * ante):
                if len(usual) < 4 and n not in usual:
                    usual.append(n)
            inputs = [_amount("amount", 1, MOST_BUY_IN, "Buy in", "Buy in another amount", ante, None, sorted(usual))]
    return {"words": words, "style": style, "confirm": confirm, "inputs": inputs}


def card_name(rules: RuleSet, code: str) -> str:
    """A card's name in the table's deck (as the deck names it); its code for a card the deck lacks."""
    card = rules.deck.cards.get(code)
    return card.name if card is not None else code


def bare(items: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Legal moves without what `describe` added (what the engine decided, for comparing).

    >>> bare([{"type": "check", "words": "Check", "style": "primary", "confirm": False, "inputs": []}])
    [{'type': 'check'}]
    """
    return [{k: v for k, v in item.items() if k not in _ADDED} for item in items]
