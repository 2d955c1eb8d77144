"""A building block: the showdown of a game played with a `RuleSet`, named for what it does.

The first steps of every such game's settlement are the same (`judge_reveal`): the reveal is
checked (`check_reveal`), the pots are built from what each player committed, a hand won by the
last player standing is settled, every other hand is judged by the rule set's hand ranking, and
who is tied for each pot and for the sabacc pot is found. The game ends it its own way (a
`Finish`: how it breaks a tie, what penalties it charges), through `settle`.

A game's own facts of a player at the reveal (a card dealt or drawn to break a tie, a side it
plays, ...) are fields of its own subclass of `PlayerReveal`, which also says how they are
checked, what the judge reads of them, how a payout calculator's request holds them and how the
request's JSON Schema describes them (the hooks on `PlayerReveal`). The rule set's hand ranking
names that subclass (`HandRanking.reveal`), so that a calculator request is read for any game
played with a `RuleSet` (`read_request`) and answered by the game's own settlement
(`answer_with`). The pots, the awards and a tie broken by drawn cards are `companion.rules.settle`'s.

Credits are whole numbers everywhere, and every `Finish` conserves them: what the players
receive plus the sabacc pot after equals what they committed plus the sabacc pot before plus
the penalties paid.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping, Sequence

from companion.games import api
from companion.rules.cards import UnknownCard
from companion.rules.decks import Deck
from companion.rules.game import CONCEDED, FOLDED, InvalidHand
from companion.rules.request import (MAX_CARDS, MAX_CREDITS, MAX_NAME, card_codes, flag, player_name,
                                     request_object, type_name, whole_number)
from companion.rules.rulesets import InvalidRules, RuleSet, ruleset_from
from companion.rules.settle import InvalidReveal, Pot, PotResult, best, build_pots

#: Limits that keep one settlement small (the API refuses larger requests with a 422).
MAX_PLAYERS = 12
MIN_PLAYERS = 2
#: Revealed hands need at least this many cards.
MIN_HAND = 2

#: A settlement's status once every pot is awarded (a tie still to break has the game's own).
SETTLED = "settled"


class InvalidRequest(InvalidReveal):
    """A request body that is not a valid settlement request: `message` and `field` path."""


@dataclass(frozen=True)
class PlayerReveal:
    """One player at the reveal, as every game played with a `RuleSet` reads it (a calculator
    request's `players[i]`). A game's own fields are those of its subclass, which overrides the
    hooks below that read them; this class alone is a game with none."""

    name: str
    cards: tuple[str, ...]  # canonical card codes
    committed: int  # credits put into the hand pot this hand (ante and bets)
    stack: int | None = None  # credits behind; None: penalties are not capped
    folded: bool = False
    called: bool = False
    # Fees and penalties paid into the pot during the hand: no commitment level of their own,
    # they belong to the main pot whoever wins it.
    fees: int = 0

    #: The fields of the game's own a calculator request's player may send (`read_own`).
    OWN_FIELDS: ClassVar[tuple[str, ...]] = ()

    def tie_cards(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The cards this player was given to break a tie, as (the request's field, its cards):
        counted with the hands against the deck, and refused in a hand won by the last player
        standing (nobody is tied there). None by default."""
        return ()

    def check(self, rules: RuleSet, players: Sequence["PlayerReveal"], at: str) -> None:
        """The game's own checks of this player (`at`: its path, ``players[2]``), after the
        shared ones; raises `InvalidReveal`. None by default."""

    def judged_with(self, rules: RuleSet, players: Sequence["PlayerReveal"]) -> dict[str, Any]:
        """What the game's judge reads of this player besides the cards (the keywords of
        `HandRanking.evaluate`). Nothing by default."""
        return {}

    @classmethod
    def read_own(cls, deck: Deck, raw: Mapping[str, Any], at: str) -> dict[str, Any]:
        """The game's own fields of one player of a calculator request (`raw`, whose field names
        are known to be this class's), as keywords of this class; raises `InvalidRequest`."""
        return {}

    @classmethod
    def check_rules(cls, rules: RuleSet) -> None:
        """The game's own checks of a calculator request's rules, beyond the rule set's own;
        raises `InvalidRequest`. None by default."""

    # What the request's JSON Schema says of the game (`companion.rules.showdown_schema`):

    @classmethod
    def own_schema(cls, card: Mapping[str, Any], rule_sets: Mapping[str, RuleSet]) -> dict[str, Any]:
        """The JSON Schema of the game's own fields of a request's player (`card`: a card code's
        schema; `rule_sets`: every preset the request's schema lists). None by default."""
        return {}

    @classmethod
    def option_schema(cls, whole: Mapping[str, Any]) -> dict[str, Any]:
        """The JSON Schema of the game's own options a request's rules may set, by name, where
        the game types them (`whole`: a credit amount's schema). None by default."""
        return {}

    @classmethod
    def penalty_reasons(cls) -> tuple[str, ...]:
        """The reasons of the penalties the game's settlement charges. None by default."""
        return ()

    @classmethod
    def tie_answer(cls, names: Mapping[str, Any],
                   rule_sets: Mapping[str, RuleSet]) -> tuple[str, dict[str, Any], str] | None:
        """The answer while the game's tie is broken: (its schema's name, the schema, what the
        client does then, in words); `names`: a list of names' schema. None by default."""
        return None


@dataclass(frozen=True)
class HandResult:
    """How one player's hand was judged."""

    name: str
    total: int | None
    kind: str  # one of the rule set's kinds (`HandRanking.kinds`), folded or conceded


@dataclass(frozen=True)
class Penalty:
    """A penalty paid to the sabacc pot after the pots are awarded."""

    name: str
    reason: str  # the game's own reason
    amount: int
    shortfall: int


@dataclass(frozen=True)
class Settlement:
    """The outcome of `settle`: either settled, or waiting for the tied players' cards
    (`tie_players`, named in the answer under `tie_field`)."""

    status: str  # SETTLED, or the game's own status of a tie still to break
    hands: tuple[HandResult, ...]
    tie_players: tuple[str, ...] = ()
    pots: tuple[PotResult, ...] = ()
    sabacc_pot_winners: tuple[str, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    sabacc_pot_after: int | None = None
    payouts: dict[str, int] = field(default_factory=dict)
    tie_field: str = "tie_players"

    def to_json(self) -> dict[str, Any]:
        """The calculator's answer (SETTLE-API.md's response body)."""
        hands = [{"name": h.name, "total": h.total, "kind": str(h.kind)} for h in self.hands]
        if self.status != SETTLED:
            return {"status": self.status, self.tie_field: list(self.tie_players), "hands": hands}
        return {
            "status": self.status,
            "hands": hands,
            "pots": [
                {
                    "amount": p.amount,
                    "eligible": list(p.eligible),
                    "winners": list(p.winners),
                    "to_sabacc_pot": p.to_sabacc_pot,
                }
                for p in self.pots
            ],
            "sabacc_pot_winners": list(self.sabacc_pot_winners),
            "penalties": [
                {"name": p.name, "reason": p.reason, "amount": p.amount, "shortfall": p.shortfall}
                for p in self.penalties
            ],
            "sabacc_pot_after": self.sabacc_pot_after,
            "payouts": dict(self.payouts),
        }


def check_reveal(rules: RuleSet, players: Sequence[PlayerReveal], sabacc_pot: int = 0) -> None:
    """Raise `InvalidReveal` (with the bad field's path) if the reveal cannot be settled.

    Checks what no type check can: player count, names, callers, hand sizes, the copies of
    each card across the table (tie cards included), cards the rule set sets aside, then each
    player's own fields (`PlayerReveal.check`). `settle` runs it first.
    """
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidReveal(
            f"a hand needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}", "players"
        )
    if isinstance(sabacc_pot, bool) or not isinstance(sabacc_pot, int) or sabacc_pot < 0:
        raise InvalidReveal("the sabacc pot must be a whole number of credits, at least 0", "sabacc_pot")
    seen: dict[str, int] = {}
    copies: Counter[str] = Counter()
    callers = []
    # The last player standing shows nothing (RULES.md step 2), so any count is fine. Where
    # the last player left may show a hand, a shown hand is checked as any other.
    conceded = sum(not q.folded for q in players) == 1
    least = max(MIN_HAND, rules.deck.hand_min)
    for i, p in enumerate(players):
        at = f"players[{i}]"
        if not isinstance(p.name, str) or not 1 <= len(p.name) <= MAX_NAME or not p.name.strip():
            raise InvalidReveal(f"a name must be 1 to {MAX_NAME} characters", f"{at}.name")
        if p.name in seen:
            raise InvalidReveal(f"two players are called {p.name!r}", f"{at}.name")
        seen[p.name] = i
        for what, value in (("committed", p.committed), ("stack", p.stack), ("fees", p.fees)):
            if value is None and what == "stack":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidReveal(f"{what} must be a whole number of credits, at least 0", f"{at}.{what}")
        if p.called:
            callers.append(i)
            if len(callers) > 1:
                raise InvalidReveal(
                    f"only one player can call; {players[callers[0]].name!r} already did", f"{at}.called"
                )
            if not rules.ending.by_call:
                raise InvalidReveal(f"nobody calls in {rules.title}: a hand ends after "
                                    f"{rules.ending.rounds} rounds", f"{at}.called")
            if p.folded:
                raise InvalidReveal("a player who folded cannot be the caller", f"{at}.called")
        shown = not p.folded and (not conceded or (rules.hands.last_player_shows and bool(p.cards)))
        if shown and len(p.cards) < least:
            raise InvalidReveal(f"a revealed hand has at least {least} cards", f"{at}.cards")
        if shown and rules.deck.hand_max is not None and len(p.cards) > rules.deck.hand_max:
            raise InvalidReveal(f"a hand holds {least} to {rules.deck.hand_max} cards, not "
                                f"{len(p.cards)}", f"{at}.cards")
        for kind, codes in (("cards", p.cards), *p.tie_cards()):
            for k, code in enumerate(codes):
                try:
                    c = rules.deck.card(code)
                except UnknownCard as exc:
                    raise InvalidReveal(str(exc), f"{at}.{kind}[{k}]") from None
                copies[c.code] += 1
                if copies[c.code] > c.copies:
                    raise InvalidReveal(
                        f"more copies of {c.code} on the table than the deck has ({c.copies})",
                        f"{at}.{kind}[{k}]",
                    )
                aside = rules.deck.set_aside_reason(c.code, rules)
                if aside is not None:
                    raise InvalidReveal(f"{aside}: it cannot be in a hand", f"{at}.{kind}[{k}]")
        p.check(rules, players, at)
    if all(p.folded for p in players):
        raise InvalidReveal("at least one player must still be in the hand", "players")


@dataclass(frozen=True)
class Judged:
    """A reveal judged, before its ties are broken: what a game's `Finish` reads.

    `judged` holds each player's hand (seat index -> the judge's hand, with `rank`, `total`
    and `kind`) of the players still in; `standing` those whose hand did not lose by itself (a
    kind the ranking marks "bust"); `pot_ties` per pot of `built` its best hands among them
    (empty when uncontested), `sabacc_tie` the best hands of the table that may take the sabacc
    pot, and `needed` every player tied for something."""

    rules: RuleSet
    players: Sequence[PlayerReveal]
    sabacc_pot: int
    built: tuple[Pot, ...]
    hands: tuple[HandResult, ...]
    judged: Mapping[int, Any]
    standing: list[int]
    pot_ties: list[list[int]]
    sabacc_tie: list[int]
    needed: set[int]

    @property
    def names(self) -> list[str]:
        """The players' names, in seat order."""
        return [p.name for p in self.players]


#: The end of a settlement, as the game breaks its ties and charges its penalties.
Finish = Callable[[Judged], Settlement]


def judge_reveal(rules: RuleSet, players: Sequence[PlayerReveal], sabacc_pot: int) -> Settlement | Judged:
    """The first steps of a settlement for any game played with a `RuleSet`: the checks, the
    pots, a hand won by the last player standing (settled here), and the judged hands with who
    is tied for what."""
    check_reveal(rules, players, sabacc_pot)
    names = [p.name for p in players]
    index = {n: i for i, n in enumerate(names)}
    in_hand = [i for i, p in enumerate(players) if not p.folded]
    built = build_pots({p.name: p.committed for p in players}, {p.name for p in players if p.folded},
                       sum(p.fees for p in players))

    # Conceded hand: the last player standing takes every pot, shows nothing, pays nothing.
    # Where the last player may show a hand, one that takes the sabacc pot takes it too.
    if len(in_hand) == 1:
        last = in_hand[0]
        for i, p in enumerate(players):
            for kind, codes in p.tie_cards():
                if codes:
                    raise InvalidReveal(f"nobody is in a {rules.words.tie} when only one player is left "
                                        "in the hand", f"players[{i}].{kind}")
        shown = rules.hands.evaluate(rules, players[last].cards) \
            if rules.hands.last_player_shows and players[last].cards else None
        conceded = tuple(
            HandResult(p.name, None, FOLDED) if i != last else
            HandResult(p.name, None, CONCEDED) if shown is None else
            HandResult(p.name, shown.total, shown.kind)
            for i, p in enumerate(players)
        )
        pots = tuple(PotResult(pot.amount, pot.eligible, (names[last],)) for pot in built)
        payouts = {n: 0 for n in names}
        payouts[names[last]] = sum(pot.amount for pot in built)
        takes_sabacc = shown is not None and shown.kind in rules.hands.sabacc_pot_kinds
        if takes_sabacc:
            payouts[names[last]] += sabacc_pot
        return Settlement(SETTLED, conceded, pots=pots, payouts=payouts,
                          sabacc_pot_winners=(names[last],) if takes_sabacc else (),
                          sabacc_pot_after=0 if takes_sabacc else sabacc_pot)

    evaluate = rules.hands.evaluate
    try:
        judged = {i: evaluate(rules, players[i].cards, **players[i].judged_with(rules, players)) for i in in_hand}
    except InvalidHand as exc:  # check_reveal catches these first; kept for safety
        raise InvalidReveal(exc.message, "players") from None
    hands = tuple(
        HandResult(p.name, judged[i].total, judged[i].kind) if i in judged else HandResult(p.name, None, FOLDED)
        for i, p in enumerate(players)
    )
    busts = rules.hands.busts
    standing = [i for i in in_hand if judged[i].kind not in busts]

    # Who is tied for what: each contested pot, and the sabacc pot's special hands.
    pot_ties: list[list[int]] = []
    for pot in built:
        contenders = [index[n] for n in pot.eligible if index[n] in standing]
        pot_ties.append(best(contenders, judged) if pot.contested else [])
    table_best = best(standing, judged)
    sabacc_tie = table_best if table_best and judged[table_best[0]].kind in rules.hands.sabacc_pot_kinds else []
    needed = {i for tie in (*pot_ties, sabacc_tie) if len(tie) > 1 for i in tie}
    return Judged(rules, players, sabacc_pot, built, hands, judged, standing, pot_ties, sabacc_tie, needed)


def settle(rules: RuleSet, players: Sequence[PlayerReveal], sabacc_pot: int, finish: Finish) -> Settlement:
    """Settle a reveal: `judge_reveal`, then the game's `finish` (a hand won by the last player
    standing needs none). `players` are in seat order from the dealer's left. Raises
    `InvalidReveal` for a reveal that cannot be settled."""
    judged = judge_reveal(rules, players, sabacc_pot)
    return judged if isinstance(judged, Settlement) else finish(judged)


# -- a payout calculator's request ----------------------------------------------------------

#: A calculator request's fields, and those of each player that every game played with a
#: `RuleSet` reads (a game's own are its `PlayerReveal.OWN_FIELDS`).
TOP_FIELDS = ("rules", "players", "sabacc_pot")
PLAYER_FIELDS = ("name", "cards", "committed", "stack", "folded", "called", "fees")


def _credits(value: Any, where: str) -> int:
    return whole_number(value, where, MAX_CREDITS, error=InvalidRequest)


def read_cards(deck: Deck, value: Any, where: str, most: int = MAX_CARDS) -> tuple[str, ...]:
    """A list of `deck`'s card codes at `where`, canonical; `InvalidRequest` otherwise."""
    return tuple(card_codes(deck, value, where, most, error=InvalidRequest))


def _player(reveal: type[PlayerReveal], deck: Deck, value: Any, at: str) -> PlayerReveal:
    raw = request_object(value, at, (*PLAYER_FIELDS, *reveal.OWN_FIELDS), ("name", "cards", "committed"),
                         InvalidRequest)
    stack = raw.get("stack")
    return reveal(
        name=player_name(raw["name"], f"{at}.name"),
        cards=read_cards(deck, raw["cards"], f"{at}.cards"),
        committed=_credits(raw["committed"], f"{at}.committed"),
        stack=None if stack is None else _credits(stack, f"{at}.stack"),
        folded=flag(raw.get("folded", False), f"{at}.folded", error=InvalidRequest),
        called=flag(raw.get("called", False), f"{at}.called", error=InvalidRequest),
        fees=_credits(raw.get("fees", 0), f"{at}.fees"),
        **reveal.read_own(deck, raw, at),
    )


def read_request(body: Any) -> tuple[RuleSet, list[PlayerReveal], int]:
    """Read a calculator request body of a game played with a `RuleSet` (SETTLE-API.md): the
    rules, each player as the game's own `PlayerReveal` (its hand ranking's `reveal`), the
    sabacc pot; then the reveal itself (`check_reveal`). Raises `InvalidRequest` for the first
    bad field. Unknown fields are refused, so that a misspelt `comitted` is not read as 0."""
    raw = request_object(body, "", TOP_FIELDS, TOP_FIELDS, InvalidRequest)
    try:
        rules = ruleset_from(raw["rules"])
    except InvalidRules as exc:
        raise InvalidRequest(exc.message, exc.field) from None
    if not isinstance(rules, RuleSet):  # another game's rules: its own calculator reads them
        raise InvalidRequest(f"{rules.title} has no payout calculator here", "rules")
    reveal = rules.hands.reveal_class()
    reveal.check_rules(rules)
    sabacc_pot = _credits(raw["sabacc_pot"], "sabacc_pot")
    players_raw = raw["players"]
    if not isinstance(players_raw, list):
        raise InvalidRequest(f"players must be a list, not {type_name(players_raw)}", "players")
    if not MIN_PLAYERS <= len(players_raw) <= MAX_PLAYERS:
        raise InvalidRequest(f"a hand needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players_raw)}", "players")
    players = [_player(reveal, rules.deck, p, f"players[{i}]") for i, p in enumerate(players_raw)]
    try:
        check_reveal(rules, players, sabacc_pot)
    except InvalidRequest:
        raise
    except InvalidReveal as exc:
        raise InvalidRequest(exc.message, exc.field) from None
    return rules, players, sabacc_pot


#: A settlement of a game played with a `RuleSet`: (rules, players, sabacc pot) -> `Settlement`.
Settle = Callable[[RuleSet, Sequence[Any], int], Settlement]


def answer_with(settle_hand: Settle, body: Any) -> dict[str, Any]:
    """The answer to a calculator request body as JSON, settled by `settle_hand` (the game's
    own settlement). Raises `InvalidRequest` of the game interface (`companion.games.api`) with
    the message and the path of the first bad field."""
    try:
        rules, players, sabacc_pot = read_request(body)
        return settle_hand(rules, players, sabacc_pot).to_json()
    except InvalidReveal as exc:  # InvalidRequest is one
        raise api.InvalidRequest(exc.message, exc.field) from None
