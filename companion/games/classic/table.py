"""Classic Sabacc's live-table engine: the shared dealt-hand engine (`DealtHand`: seats,
betting, rounds, rolls and shifts, the reveal and the settlement) with classic's own
sections, whose moves, checks, words and schemas live in this package.

`GAME.engine()` returns `ClassicHand`; the table finds it through the registry::

    >>> sorted(set(ClassicHand.COMMANDS) - set(DealtHand.COMMANDS))
    ['call_hand', 'declare_side', 'demise_card', 'no_call', 'static_add', 'static_remove']
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.refusal import Refused
from companion.games.classic import calling, facts, outcome, sides, static_field
from companion.games.classic.calling import Calling
from companion.games.classic.settle import PlayerReveal, Settlement, settle
from companion.games.classic.sides import Sides
from companion.games.classic.static_field import StaticFieldMoves
from companion.table import tie_draw
from companion.table.dealt import DealtHand
from companion.table.outcome import Told
from companion.table.state import OwnState, Step, current_step
from companion.table.tie_draw import TieDraw

#: The sudden demise, the runtime's tie broken by drawn cards (`tie_draw`), in the names
#: classic's ledgers, API and views have always used: the "demise" stage, the `demise_card`
#: move, each player's `demise` card, and the settlement's `demise_total` and `demise_kind`.
TIE = {"stage": "demise", "move": "demise_card", "card": "demise", "players": "demise_players",
       "public": "demise_public", "entered": "demise_card_entered", "conflict": "demise_conflict",
       "started": "sudden_demise", "total": "demise_total", "kind": "demise_kind"}


class ClassicHand(Calling, Sides, StaticFieldMoves, TieDraw, DealtHand):
    """A hand of classic Sabacc at the live table (its sections first: what they answer of
    the shared engine's hooks wins)."""

    #: The runtime's commands and classic's own moves.
    COMMANDS = {**DealtHand.COMMANDS, **calling.COMMANDS, **sides.COMMANDS, **static_field.COMMANDS,
                **tie_draw.commands(TIE)}

    #: The runtime's building blocks classic composes, by its own names (`Evening.BLOCKS`):
    #: the static field is its kept cards, calling the hand is the call step's moves, and the
    #: sudden demise is the tie broken by drawn cards.
    BLOCKS: Mapping[str, Mapping[str, str]] = {"kept": static_field.BLOCK, "call": calling.BLOCK, "tie": TIE}
    #: Classic's own fields of a hand and of each player's part: the tie's (older snapshots
    #: kept `demise_shown` for the face-up tie cards) and the static field's.
    OWN_STATE = tie_draw.own_state(TIE, shown_before="demise_shown") | OwnState(player=static_field.OWN_PLAYER)
    HIDDEN_FIELDS = {**DealtHand.HIDDEN_FIELDS, **tie_draw.hidden(TIE)[0]}
    SHOWN_BY = {**DealtHand.SHOWN_BY, **tie_draw.hidden(TIE)[1]}
    cmd_demise_card = TieDraw.enter_tie_card

    #: The runtime's checked commands and classic's own.
    CHECKED = DealtHand.CHECKED | {"declare_side", "call_hand", "no_call"}

    MOVE_WORDS = calling.WORDS
    #: An undone tie card says the game's word for it ({tie_card}: the sudden-demise card).
    UNDONE = {**calling.UNDONE, **static_field.UNDONE, "demise_card": "{who}'s {tie_card}"}
    HOST_CHECKED = ("no_call",)

    def hand_view(self, viewer: str | None) -> dict[str, Any] | None:
        """The shared hand view, with classic's facts (docs/games.md "Facts"): each seat's
        static field."""
        view, h = super().hand_view(viewer), self.s["hand"]
        if view is not None and h is not None:
            # The sides, where the rules have them (Force Sabacc), of the players still seated
            # (a settled hand stays on screen after a player left).
            seats = self.s["seats"]
            sides = {sid: seats[sid]["side"] for sid in h["players"]
                     if sid in seats and self.rules.game_options.force_sabacc}
            view["facts"] = {"table": [], "seats": facts.seat_facts(h, self.rules, sides)}
        return view

    def own_checked(self, sid: str, in_hand: bool, step: Step | None) -> list[str]:
        """Classic's own checked moves in a seat's list: calling the hand, or not."""
        return self.calling_moves(sid, in_hand, step)

    def seat_moves(self, sid: str) -> list[dict[str, Any]]:
        """Classic's own seat moves: a side to declare (Force Sabacc)."""
        return self.side_moves(sid)

    def hand_moves(self, sid: str) -> list[dict[str, Any]]:
        """Classic's own moves in the hand: the static field's."""
        return self.static_moves(sid)

    def not_ready(self, sid: str) -> str | None:
        """A player without a side is dealt out (Force Sabacc)."""
        return "no side declared" if self.side_missing(sid) else None

    def judged_with(self, sid: str) -> dict[str, Any]:
        """The judge reads each player's side (Force Sabacc), in Hold 'Em which of a hand's
        cards lie in its static field (every other player's are community cards), and the
        card a sudden demise dealt."""
        p, tie = static_field.of(self.hand, sid), self.any_hand()["p"][sid][self.tie_names()["card"]]
        return {"static": tuple(p["static"]) if self.rules.game_options.holdem and not p["folded"] else (),
                "side": self.side_of(sid),
                "demise": (tie,) if tie else ()}

    def settlement(self, reveals: list[dict[str, Any]], sabacc_pot: int) -> Settlement:
        """Classic's settlement of the reveal (`settle.settle`, RULES.md)."""
        return settle(self.rules, [PlayerReveal(**r) for r in reveals], sabacc_pot)

    def tie_begins(self, players: list[str]) -> None:
        """Sudden demise: the dealer deals one more card each to the tied players, and each
        enters it (once a hand: the judge breaks any tie after it)."""
        if self.hand["stage"] == self.tie_names()["stage"]:
            raise Refused(409, "the settlement asked for a second sudden demise", None)
        self.open_tie(players)
        self.deal_job({x: 1 for x in players})
        names = ", ".join(self.name(x) for x in players)
        self.emit("sudden_demise", players=list(players),
                  message=f"Sudden demise: the dealer deals one more card each to {names}; "
                          f"each enters it.")

    def played_facts(self, sid: str) -> dict[str, Any]:
        """What the words of a settlement read of a hand: its demise card, its static field
        (Hold 'Em's community cards) and its side (Force Sabacc)."""
        p = self.any_hand()["p"][sid]
        return {"demise": p[self.tie_names()["card"]], "static": static_field.of(self.hand, sid)["static"],
                "side": self.side_of(sid)}

    def why_of(self, x: dict[str, Any], told: Told) -> str:
        """Why a hand won or lost, with its demise card and a bomb-out (outcome.why)."""
        return outcome.why(x, told)

    def turn_player_opens(self) -> bool:
        """Only the player whose turn it is opens the betting, where the rule set says so."""
        return self.rules.game_options.only_turn_player_opens

    def fold_window_open(self) -> bool:
        """After the turn's betting ended (the turn player's check), folding stays open until
        that turn's roll where the rule set says so (`ClassicOptions.fold_until_roll`)."""
        st = current_step(self.hand)
        return self.rules.game_options.fold_until_roll and st is not None and st["do"] == "roll" \
            and st["turn_of"] is not None
