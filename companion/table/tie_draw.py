"""A building block: a tie broken by drawing cards. The settlement finds players tied; each
enters one more card (the game says how they come by it: dealt into the hand, drawn from the
draw pile); once every one is in, a card now on the table more often than the deck holds is
entered again (the clash), then the game places the cards and the hand is settled again. Where
the cards add up, one a draw, a draw that ties again asks for another card.

A game composes `TieDraw` into its engine and names the block's parts in its `BLOCKS["tie"]`
(the names its ledgers, API and views have always used, so that old ledgers replay):

- ``stage``: the hand's stage while the tied players enter their cards;
- ``move``: the move that enters one (its schema: `commands`; the game's engine binds
  ``cmd_<move> = TieDraw.enter_tie_card``);
- ``card``: a player's field holding the card entered (and a settled hand's, in the view);
- ``players``: the hand's field listing the tied players (in the hand's view too);
- ``public``: the hand's field listing the players whose card stood face up at a clash;
- ``entered``, ``conflict``, ``started``: the events of a card entered, of a clash, of the
  tie's start (the game's `tie_begins` emits it);
- ``draws`` (where the cards add up): a player's field holding the cards drawn so far, one a
  draw, and a settled hand's (the settlement's) field holding them.

Its fields are the game's own state (`own_state`, for the game's `OWN_STATE`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Mapping

from companion.refusal import Refused
from companion.rules import cards as deck
from companion.table.commands import CARD, FOR_SEAT, obj
from companion.table.offers import cards_input, offer
from companion.table.reveal import Reveal
from companion.table.state import OwnState, join_words

#: The part of `BLOCKS` this block reads.
BLOCK = "tie"


def log_words(names: Mapping[str, str]) -> dict[str, Callable[[Mapping[str, Any], str, Any], str]]:
    """How the audit log says the block's events (`names`: the game's `BLOCKS["tie"]`; the
    functions are `Game.log_words`'): a tie starting (the event's own message, else the game's
    word for its tie) and a tied player's card entered (which card stays hidden)::

        >>> from types import SimpleNamespace
        >>> rules = SimpleNamespace(words=SimpleNamespace(tie="draw-off", tie_card="draw-off card"))
        >>> say = log_words({"started": "draw_off", "entered": "draw_off_card_entered"})
        >>> say["draw_off"]({}, "Han", rules), say["draw_off_card_entered"]({}, "Han", rules)
        ('draw-off', 'Han has entered a draw-off card')
    """
    out: dict[str, Callable[[Mapping[str, Any], str, Any], str]] = {}
    if "started" in names:
        out[names["started"]] = lambda ev, who, rules: str(ev.get("message") or rules.words.tie)
    if "entered" in names:
        out[names["entered"]] = lambda ev, who, rules: f"{who} has entered a {rules.words.tie_card}"
    return out


def commands(names: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """The block's move -> the JSON Schema of its fields: the card a tied player entered
    (`names`: the game's `BLOCKS["tie"]`)."""
    return {names["move"]: obj({**FOR_SEAT, "card": CARD}, ("card",))}


def own_state(names: Mapping[str, str], shown_before: str | None = None) -> OwnState:
    """The block's fields of a hand and of each player, with their first values: the tied
    players, those whose card stands face up, each player's card (and draws, where they add
    up). `shown_before`: the hand's flag older snapshots kept instead of the face-up list
    (every card entered stood face up), brought to the list when such a snapshot is read.

    >>> names = {"players": "tied", "public": "up", "card": "extra"}
    >>> h = {"tied": ["s1", "s2"], "shown": True, "p": {"s1": {"extra": "x"}, "s2": {"extra": None}}}
    >>> own_state(names, "shown").complete(h)
    >>> h["up"], "shown" in h
    (['s1'], False)
    """
    player: dict[str, Any] = {names["card"]: None}
    if "draws" in names:
        player[names["draws"]] = []
    older: tuple[Any, ...] = ()
    if shown_before is not None:
        def bring(h: Any) -> None:
            if h.pop(shown_before, False) and not h[names["public"]]:
                h[names["public"]] = [x for x in h[names["players"]] if h["p"][x][names["card"]]]
        older = (bring,)
    return OwnState(hand={names["players"]: [], names["public"]: []}, player=player, older=older)


def hidden(names: Mapping[str, str]) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """The block's part of an engine's `HIDDEN_FIELDS` and `SHOWN_BY`: a tie card stays hidden
    in the audit log until every one is in (a clash shows them all; the settlement ends the
    tie)."""
    return {names["move"]: ("card",)}, {names["move"]: (names["conflict"], "settled")}


class TieDraw(Reveal):
    """The tie broken by drawn cards (a section a game composes; its names: `BLOCKS["tie"]`)."""

    BLOCKS: Mapping[str, Mapping[str, str]] = {}

    def tie_names(self) -> Mapping[str, str]:
        """The game's names of the block's parts (`BLOCKS["tie"]`)."""
        return self.BLOCKS[BLOCK]

    def open_tie(self, players: list[str]) -> None:
        """The tie stage begins: `players` each enter one more card (the game's `tie_begins`
        says how they come by it and emits the tie's start)."""
        n, h = self.tie_names(), self.any_hand()
        h["stage"] = n["stage"]
        h[n["players"]], h[n["public"]] = list(players), []

    def any_hand(self) -> Any:
        """The running hand, whose block fields are the game's own (`OWN_STATE`): read by the
        names the game gives them, which its type does not list."""
        return self.hand

    def in_tie(self) -> list[str]:
        """The tied players entering a card now (none outside the tie stage)."""
        h: Any = self.s["hand"]
        n = self.BLOCKS[BLOCK]  # not `tie_names()`: every seat's list asks, at every version
        if h is None or h["stage"] != n["stage"]:
            return []
        return list(h[n["players"]])

    def enter_tie_card(self, f: dict[str, Any], actor: str | None) -> None:
        """The block's move: a tied player enters the card the tie gave them (checked against
        the face-up cards only); with every card in and no clash, the game places them
        (`tie_cards_in`) and the hand is settled again."""
        n = self.tie_names()
        sid = self.who(f, actor)
        tie = self.rules.words.tie
        if not self.in_hand() or self.hand["stage"] != n["stage"]:
            raise Refused(409, f"there is no {tie} now", None)
        h = self.any_hand()
        if sid not in h[n["players"]]:
            raise Refused(409, f"you are not in the {tie}", None)
        try:
            code = self.rules.deck.normalize(f["card"])
        except deck.UnknownCard as exc:
            raise Refused(422, str(exc), "card") from None
        self.need_in_play_deck(code, "card")
        public = h[n["public"]]
        if sid in public:
            raise Refused(409, f"your {self.rules.words.tie_card} is already face up", None)
        # Checked against the face-up cards only: the revealed hands, and the tie cards shown
        # at a clash that stand. Another player's tie card entered since is still hidden:
        # refusing for it would tell this player that card.
        table = [c for x in self.live() for c in self.face_up(x)]
        table += [d for x in public if (d := h["p"][x][n["card"]]) is not None]
        try:
            self.rules.deck.check_copies(table + [code])
        except deck.TooManyCopies as exc:
            raise Refused(422, f"{exc}: check the card", "card") from None
        h["p"][sid][n["card"]] = code
        self.emit(n["entered"], seat=sid)
        if all(h["p"][x][n["card"]] for x in h[n["players"]]) and not self.tie_conflict():
            self.tie_cards_in()
            self.settle_hand()

    def tie_conflict(self) -> bool:
        """With every tie card in: if a card is now on the table (the face-up hands and every
        tie card) more often than the deck holds, the players whose tie card it is enter theirs
        again; the other tie cards stand, face up. True if there was such a card. Resolved only
        here, once every card is in, so that no answer to one player's entry ever depends on
        another's hidden card."""
        n, h = self.tie_names(), self.any_hand()
        cards = {x: h["p"][x][n["card"]] for x in h[n["players"]]}
        count = Counter(c for x in self.live() for c in self.face_up(x))
        count.update(c for c in cards.values() if c is not None)
        over = sorted(c for c, k in count.items() if k > self.rules.deck.cards[c].copies)
        # A card that stood face up at an earlier clash stands: the new entries clash.
        clash = [x for x, c in cards.items() if c in over and x not in h[n["public"]]]
        if not clash:
            return False
        h[n["public"]] = [x for x in h[n["players"]] if x not in clash]
        for x in clash:
            h["p"][x][n["card"]] = None
        names = " and ".join(self.name(x) for x in clash)
        self.emit(n["conflict"], cards=cards, seats=clash,
                  message=f"{', '.join(over)}: more copies on the table than the deck holds. "
                          f"{names}: check your card and enter it again.")
        return True

    def tie_cards_in(self) -> None:
        """Every tied player's card is in: where the cards add up (``draws``), each joins its
        player's draws, one a draw, and the entry empties for the next; else they stay."""
        n, h = self.tie_names(), self.any_hand()
        if "draws" not in n:
            return
        for x in h[n["players"]]:
            drawer = h["p"][x]
            if drawer[n["card"]] is not None:
                drawer[n["draws"]] = [*drawer[n["draws"]], drawer[n["card"]]]
            drawer[n["card"]] = None

    def drawn(self, sid: str) -> list[str]:
        """The cards `sid` drew so far where the tie's cards add up (else none)."""
        n, h = self.tie_names(), self.any_hand()
        return list(h["p"][sid][n["draws"]]) if "draws" in n else []

    def tie_moves(self, sid: str) -> list[dict[str, Any]]:
        """`sid`'s tie-card move while it is tied and its card is not face up: where the cards
        add up, with the draw's number and the cards drawn before it (the phone starts a new,
        empty entry)."""
        if sid not in self.in_tie():  # every seat's list asks, at every version: first the rare tie
            return []
        n = self.tie_names()
        if sid in self.any_hand()[n["public"]]:
            return []
        asks: dict[str, Any] = {}
        if "draws" in n:
            drawn = self.drawn(sid)
            asks = {"draw": len(drawn) + 1, "drawn": drawn}
        return [offer({"type": n["move"], **asks}, "Enter my card", "primary", False,
                      [cards_input("card", self.rules, 1, f"Your {self.rules.words.tie_card}")])]

    # The views read the block's fields with a default: after a dealer's choice, the settled
    # hand still shown may be another game's, dealt without them.

    def tie_player_view(self, sid: str) -> dict[str, Any]:
        """What a hand's view shows of `sid`'s tie card: face up once the hand is settled."""
        # The block's names and the hand read directly: asked for every player at every version.
        h: Any = self.s["hand"]  # its block's fields are the game's own (`any_hand`)
        n = self.BLOCKS[BLOCK]
        return {n["card"]: h["p"][sid].get(n["card"]) if h["stage"] == "settled" else None}

    def tie_hand_view(self) -> dict[str, Any]:
        """What a hand's view shows of the tie: the tied players."""
        h: Any = self.s["hand"]
        n = self.BLOCKS[BLOCK]
        return {n["players"]: h.get(n["players"], [])}

    def tie_private(self, sid: str) -> dict[str, Any]:
        """What `sid`'s own view shows of the tie: the card it entered."""
        n, h = self.BLOCKS[BLOCK], self.s["hand"]
        mine: Any = h["p"].get(sid) if h else None
        return {n["card"]: mine.get(n["card"]) if mine else None}

    def stage_words(self, viewer: str | None, who: Any) -> str | None:
        """The turn line while the tied players enter their cards; None at any other stage."""
        n, h = self.tie_names(), self.s["hand"]
        if h is None or h["stage"] != n["stage"]:
            return None
        p: Any = h["p"]
        waiting = [("you" if x == viewer else self.name(x)) for x in self.in_tie() if not p[x][n["card"]]]
        return (f"{self.rules.words.tie.capitalize()}: waiting for {join_words(waiting)} to enter "
                f"one more card.")
