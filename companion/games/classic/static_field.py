"""Classic's static field at the live table: a player lays cards of their hand face up in
front of them, where they stay through a shift (RULES.md "The static field"), and takes them
back, as often as the rule set's `static_field` limit lets them (free, one change a turn, one
in and one out in the play round, or none).

The cards lie in the hand's per-player record, in classic's own fields (`OWN_PLAYER`, given to
every hand: `ClassicHand.OWN_STATE`); the shared engine reads them as the kept cards (`kept`,
the runtime's "kept" building block, `BLOCK`) when a hand is entered at the reveal or shifted,
and the views show them. This section owns the moves that put them there and take them back,
with their checks, words and schemas.
"""

from __future__ import annotations

from typing import Any, TypedDict

from companion.games.classic.options import StaticField
from companion.refusal import Refused
from companion.rules import cards as deck
from companion.rules.rulesets import Phase, RuleSet, ShiftKind
from companion.table.commands import CARD, FOR_SEAT, obj
from companion.table.offers import cards_input, card_name, offer
from companion.table.play import Play
from companion.table.state import Hand, Player, TableState, current_step, words_cards

#: The static field's moves -> the JSON Schema of their fields.
COMMANDS: dict[str, dict[str, Any]] = {
    "static_add": obj({**FOR_SEAT, "card": CARD}, ("card",)),
    "static_remove": obj({**FOR_SEAT, "card": CARD}, ("card",)),
}


#: The static field as the runtime's "kept" building block (`Evening.BLOCKS`): the names of its
#: field in a seat's view, its moves and their events (the names ledgers and views have always
#: used), and its words, for the pages.
BLOCK = {"field": "static", "add": "static_add", "remove": "static_remove",
         "added": "static_added", "removed": "static_removed", "words": "static field"}

#: Classic's own fields of each player's part of a hand, with their first values
#: (`state.OwnState`). Replaced whole, never changed in place (`state.copy_hand`).
OWN_PLAYER: dict[str, Any] = {"static": [], "static_turn": None, "added": 0, "removed": 0}


class StaticPlayer(Player):
    """A player's part of a classic hand: the runtime's fields and the static field's."""

    static: list[str]  # the codes of the cards the player set aside face up
    static_turn: int | None  # the turn the counts below belong to
    added: int  # face-up cards set aside in that turn
    removed: int  # face-up cards taken back in that turn


def of(h: Hand, sid: str) -> StaticPlayer:
    """`sid`'s part of classic hand `h`, with its static field (`OWN_PLAYER`: every hand of a
    classic table has it)."""
    # Not `typing.cast`, a call of its own: asked for every player at every version.
    return h["p"][sid]  # type: ignore[return-value]


#: What an undone static-field move was, in words (`evening.undone_words`).
UNDONE = {"static_add": "{who}'s static-field card", "static_remove": "{who}'s static-field change"}


def static_turn(h: Hand, sid: str) -> int | None:
    """The turn in which `sid` may change their static field now: their own turn, or the turn
    they just drew in, until the next player acts or the next phase begins (the static-field
    timing ruling: a player can lock the card they just drew). None: not now."""
    if h["turn_of"] == sid:
        return h["turn_no"]
    drew = h["drew_last"]
    return drew["turn"] if drew and drew["seat"] == sid else None


def static_allowance(s: TableState, rules: RuleSet, sid: str) -> dict[str, bool]:
    """Whether `sid` may add / remove a static-field card now (`ClassicOptions.static_field`)."""
    no = {"add": False, "remove": False}
    h = s["hand"]
    if rules.game_options.static_field is StaticField.NONE or h is None or h["stage"] != "play":
        return no
    if sid not in h["p"]:
        return no
    p = of(h, sid)
    step = current_step(h)
    if p["folded"] or step is None or h["called_by"] is not None:
        return no
    room = len(p["static"]) < p["hand_size"]
    if rules.game_options.static_field is StaticField.FREE:
        # classic: any time during play, in or out of turn, until the hand is called.
        return {"add": room, "remove": bool(p["static"])}
    turn = static_turn(h, sid)
    if turn is None:
        return no
    if rules.game_options.static_field is StaticField.ONE_IN_ONE_OUT_PLAY_ROUND and step["phase"] != Phase.PLAY.value:
        return no
    added, removed = (p["added"], p["removed"]) if p["static_turn"] == turn else (0, 0)
    if rules.game_options.static_field is StaticField.ONE_CHANGE_PER_TURN:
        free = added + removed == 0
        return {"add": free and room, "remove": free and bool(p["static"])}
    return {"add": added == 0 and room, "remove": removed == 0 and bool(p["static"])}


class StaticFieldMoves(Play):
    """The static field's moves (a section of classic's engine, `ClassicHand`)."""

    #: A player who just drew may still lay the card drawn in the static field (the timing
    #: ruling): these moves keep the drawer's window open.
    KEEP_DRAW_WINDOW = frozenset(COMMANDS)

    def static_change(self, f: dict[str, Any], actor: str | None, add: bool) -> None:
        sid = self.who(f, actor)
        h = self.need_play()
        if self.rules.game_options.static_field is StaticField.NONE:
            raise Refused(409, "this rule set has no static field", None)
        self.in_play(sid)
        p = of(h, sid)
        try:
            code = self.rules.deck.normalize(f["card"])
        except deck.UnknownCard as exc:
            raise Refused(422, str(exc), "card") from None
        self.need_in_play_deck(code, "card")
        allowed = static_allowance(self.s, self.rules, sid)
        turn = static_turn(h, sid)
        if self.rules.game_options.static_field is not StaticField.FREE and turn is None:
            raise Refused(409, "change your static field in your own turn", None)
        if not allowed["add" if add else "remove"]:
            if add and len(p["static"]) >= p["hand_size"]:
                raise Refused(409, "every card of your hand is already in the static field", "card")
            raise Refused(409, f"the static-field limit this turn is reached "
                               f"({self.rules.game_options.static_field.value})", None)
        if p["static_turn"] != turn:
            p["static_turn"], p["added"], p["removed"] = turn, 0, 0
        if add:
            everywhere = [c for q in h["p"] if not h["p"][q]["folded"] for c in of(h, q)["static"]] + [code]
            try:
                self.rules.deck.check_copies(everywhere)
            except deck.TooManyCopies as exc:
                raise Refused(422, f"{exc} across the static fields", "card") from None
            p["static"] = [*p["static"], code]  # replaced, not changed in place (OWN_PLAYER)
            p["added"] += 1
            self.emit("static_added", seat=sid, card=code, static=list(p["static"]))
        else:
            if code not in p["static"]:
                raise Refused(422, f"{code} is not in your static field", "card")
            i = p["static"].index(code)
            p["static"] = p["static"][:i] + p["static"][i + 1:]
            p["removed"] += 1
            self.emit("static_removed", seat=sid, card=code, static=list(p["static"]))

    def cmd_static_add(self, f: dict[str, Any], actor: str | None) -> None:
        self.static_change(f, actor, add=True)

    def cmd_static_remove(self, f: dict[str, Any], actor: str | None) -> None:
        self.static_change(f, actor, add=False)

    def static_moves(self, sid: str) -> list[dict[str, Any]]:
        """`sid`'s static-field moves now, with their words and inputs (the offers)."""
        rules, h = self.rules, self.s["hand"]
        allowed = static_allowance(self.s, rules, sid)
        out = []
        if allowed["add"]:
            out.append(offer({"type": "static_add"}, "Add to my static field",
                             inputs=[cards_input("card", rules, 1, "Card to put in your static field")]))
        if allowed["remove"] and h is not None:
            held = of(h, sid)["static"]
            out.append(offer({"type": "static_remove"}, "Take back", "quiet", inputs=[
                {"field": "card", "kind": "choice", "words": "The card you take back from your static field",
                 "options": [[c, card_name(rules, c)] for c in dict.fromkeys(held)]}]))
        return out

    # -- what the shared engine asks: the static field's cards stay through a shift ----------

    def kept(self, sid: str) -> list[str]:
        """The static field's cards stay in front of the player through a shift."""
        return of(self.hand, sid)["static"]

    def kept_words(self) -> str:
        """What the kept cards are called."""
        return BLOCK["words"]

    def shift_instructions(self, kind: ShiftKind) -> dict[str, str]:
        """What each player still in the hand does in this shift: the cards outside their
        static field shift; hand sizes stay the same."""
        h = self.hand
        live = self.live()
        out = {}
        # A rule set without a static field has no cards "outside" it to speak of.
        outside = "" if self.rules.game_options.static_field is StaticField.NONE else " outside the static field"
        for i, sid in enumerate(live):
            p = of(h, sid)
            n = p["hand_size"] - len(p["static"])
            if n == 0:
                out[sid] = "All your cards are in the static field: keep them."
            elif kind is ShiftKind.RIM:
                right = live[i - 1]
                picks = (f"picks one of your {n} cards{outside} at random" if n > 1
                         else f"takes your one card{outside}")
                out[sid] = (f"{self.name(right)} (on your right) {picks}; discard it; "
                            f"the dealer deals you 1.")
            elif kind is ShiftKind.WILD:
                out[sid] = (f"Discard your {words_cards(n)}{outside}; the dealer "
                            f"shuffles every card not in a static field, the junk pile included, "
                            f"and deals you {n}.")
            else:
                out[sid] = (f"Discard your {words_cards(n)}{outside}; "
                            f"the dealer deals you {n}.")
        return out
