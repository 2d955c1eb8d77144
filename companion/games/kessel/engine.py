"""Kessel Sabacc's live-table engine (RULES-KESSEL.md K5–K41), on the runtime's session and seat
sections, as a plug-in game's engine is (`Game.engine`).

The runtime plays in hands; a Kessel game is played to a winner, so one runtime hand is the
whole game: `start_hand` takes each player's buy-in into the credits pot (the hand's pot) and
gives them their chips, and the hand is settled when one player is left with chips, who takes
the pot (K26, K27). Inside it, the rounds: the dealer turns up the two discard piles' first
cards (`turn_up`), three turns of an optional token (`play_token`) then `draw_card` or
`stand`, the reveal one player at a time from the starter (`show_hand`; an Impostor's two dice
are the runtime's `roll`, from the table's roller and its committed seed, or typed by the host
from real dice, and the player takes one with `choose_value`; so is Prime Sabacc's value), the
settlement and elimination. Kessel's own state lies under the hand's ``"game"`` key (the runtime's hand
record has no place for a game's own state: see the report of issue 30); each seat's unplayed
tokens are in it, and `hand_view` and `private` show them to that seat only.

What is not done here yet, because the runtime has no place for it: the first starter drawn
on the scrambler (the host names the dealer; the starter sits on their left), tokens dealt at
random, and Exhaustion's two cards entered by its target (the
player who plays it enters them).
"""

from __future__ import annotations

from typing import Any, cast

from companion.games.kessel import facts as kessel_facts
from companion.games.kessel.cards import KESSEL_DECK, family, name as card_name
from companion.games.kessel.chips import TARIFF_OUT, Pile, draw, embezzle, pay, refund
from companion.games.kessel.cards import is_impostor
from companion.games.kessel.hands import Effects, InvalidHand, judge, shape
from companion.games.api import DiceSpec
from companion.games.kessel.presets import KESSEL_ROLL, KesselRules
from companion.games.kessel.settle import Seat as SettleSeat, settle
from companion.games.kessel.tokens import TOKEN_BY_CODE, TOKENS, TOKENS_EACH
from companion.refusal import Refused
from companion.rules.cards import TooManyCopies
from companion.table.commands import COMMANDS, HOST, SCRAMBLER, SESSION_COMMANDS
from companion.table.evening import Evening, places_by_elimination
from companion.table.play import Refusal, sure
from companion.table.seats import Seats
from companion.table.state import hand_pot, new_hand, rotate

#: The four piles a draw takes from (K9), and the family each belongs to.
PILES = {"sand_draw": "sand", "blood_draw": "blood", "sand_discard": "sand", "blood_discard": "blood"}
#: The roll the scrambler makes for Kessel: two six-sided dice, two values to choose from (K4).
ROLL = KESSEL_ROLL
#: The cards of each family a draw pile holds at the start of a round (K14).
FAMILY_SIZE = 22

_SEAT = {"seat": {"type": "string", "description": "host only: the seat acted for"}}
_CODE = {"type": "string", "minLength": 1, "maxLength": 4}


def _obj(props: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(required), "additionalProperties": False}


#: Kessel's commands beside the runtime's session commands (their JSON Schemas).
KESSEL_COMMANDS: dict[str, dict[str, Any]] = {
    "choose_tokens": _obj({**_SEAT, "tokens": {"type": "array", "items": {"type": "string", "enum": [
        t.code for t in TOKENS]}, "minItems": TOKENS_EACH, "maxItems": TOKENS_EACH}}, ("tokens",)),
    # The host may name the dealer it acts for (the console playing the dealer's seat).
    "turn_up": _obj({**_SEAT, "sand": _CODE, "blood": _CODE}, ("sand", "blood")),
    "play_token": _obj({**_SEAT, "token": {"type": "string", "enum": [t.code for t in TOKENS]},
                        "target": {"type": "string"},
                        "cards": {"type": "array", "items": _CODE, "minItems": 2, "maxItems": 2}},
                       ("token",)),
    "draw_card": _obj({**_SEAT, "pile": {"type": "string", "enum": list(PILES)}, "keep": {"type": "boolean"},
                       "discard": _CODE}, ("pile", "keep")),
    "stand": _obj(dict(_SEAT)),
    "show_hand": _obj({**_SEAT, "cards": {"type": "array", "items": _CODE, "minItems": 2, "maxItems": 2}},
                      ("cards",)),
    # The scrambler's two dice (K4), the runtime's roll: for an Impostor or the Prime Sabacc token.
    "roll": COMMANDS["roll"],
    "choose_value": _obj({**_SEAT, "value": {"type": "integer", "minimum": 1, "maximum": 6}}, ("value",)),
    # K39: a player who leaves mid-round enters the two cards they held (they go on the discard piles).
    "leave": _obj({**_SEAT, "cards": {"type": "array", "items": _CODE, "minItems": 2, "maxItems": 2}}),
}


class KesselTable(Evening, Seats):
    """The live Kessel table: the runtime's session and seats sections, and Kessel's game."""

    COMMANDS = {**{k: COMMANDS[k] for k in SESSION_COMMANDS}, **KESSEL_COMMANDS}
    #: A seat's chosen tokens are its secret until it plays each (K29): the audit log shows the
    #: choice only to that seat (owner.secret_fields); the views and events never carry it.
    HIDDEN_FIELDS = {"choose_tokens": ("tokens",)}
    #: K39: a player may leave the table mid-game; they are out at once (`left_mid_hand`).
    LEAVES_MID_HAND = True

    # -- reading the state ------------------------------------------------------------------

    @property
    def kr(self) -> KesselRules:
        """The table's rules, as Kessel's (the runtime types them as a rule set)."""
        return cast(KesselRules, self.rules)

    def game(self) -> dict[str, Any] | None:
        """Kessel's own state of the running or latest game (None before the first)."""
        h = self.s["hand"]
        return cast(dict[str, Any], h).get("game") if h is not None else None

    def need_game(self, *stages: str) -> dict[str, Any]:
        """The running game, at one of `stages`; else refused in words."""
        g = self.game() if self.in_hand() else None
        if g is None:
            raise Refused(409, "no game is being played", None)
        if stages and g["stage"] not in stages:
            raise Refused(409, f"not now: {self.stage_words(g)}", None)
        return g

    def stage_words(self, g: dict[str, Any]) -> str:
        """Where the game is, in words."""
        return {"tokens": "the players are choosing their tokens",
                "deal": "the dealer turns up the first card of each discard pile",
                "turns": f"round {g['round']}, turn {g['turn']}",
                "reveal": "the hands are being shown", "over": "the game is over"}[g["stage"]]

    def piles(self, g: dict[str, Any]) -> dict[str, Pile]:
        """Each player's chips as piles (a copy: write back with `store`)."""
        return {sid: Pile(c["stock"], c["invested"]) for sid, c in g["chips"].items()}

    def store(self, g: dict[str, Any], piles: dict[str, Pile]) -> None:
        """Write the piles back into the game state."""
        for sid, p in piles.items():
            g["chips"][sid] = {"stock": p.stock, "invested": p.invested}

    def effects(self, g: dict[str, Any]) -> Effects:
        """The judging effects in force (K35)."""
        e = g["effects"]
        return Effects(e["major_fraud"], e["markdown"], e["cook_the_books"], e["prime_sabacc"])

    # -- the start of the game (K5, K6, K28) ------------------------------------------------

    def check_start_hand(self, f: dict[str, Any], actor: str | None) -> list[str] | Refusal:
        """The players who start the game, or why it cannot start."""
        refusal = self.not_ended() or self.between_hands()
        if refusal is not None:
            return refusal
        if self.s["hands"]:
            return Refusal(409, "this table's game of Kessel is over: start a new table for another")
        if self.kr.tokens == "random":
            return Refusal(409, "tokens dealt at random are not dealt at a live table yet: choose them "
                                "(tokens: select) or play without them")
        players = [sid for sid in self.s["order"] if not self.s["seats"][sid]["sitting_out"]
                   and self.stack(sid) >= self.kr.buy_in]
        if len(players) < self.kr.min_players:
            return Refusal(409, f"a game needs at least {self.kr.min_players} players who can pay the buy-in "
                                f"of {self.kr.buy_in} credits")
        if len(players) > self.kr.max_players:
            return Refusal(409, f"a game seats at most {self.kr.max_players} players: ask the others to sit out")
        return players

    def cmd_start_hand(self, f: dict[str, Any], actor: str | None) -> None:
        """Start the game: the buy-ins into the credits pot, the chips, the first dealer and starter (K5, K6)."""
        players = sure(self.check_start_hand(f, actor))
        s = self.s
        # The starter: the host's dealer setting names the dealer; the starter sits on their left (K6).
        dealer = s["dealer"] if s["dealer"] in players else players[-1]
        starter = players[(players.index(dealer) + 1) % len(players)]
        s["dealer"] = dealer  # the table's dealer is the round's: every page marks that seat
        order = rotate(s["order"], starter, players)
        s["hand_no"] += 1
        h = s["hand"] = new_hand(s["hand_no"], dealer, None, order, 2, f.get("seed_commitment"), s["sabacc_pot"],
                                 {sid: self.stack(sid) for sid in players})
        for sid in players:  # K5: the buy-in into the credits pot
            s["seats"][sid]["stack"] -= self.kr.buy_in
            h["p"][sid]["committed"] = self.kr.buy_in
        cast(dict[str, Any], h)["game"] = {
            "stage": "tokens" if self.kr.plays_tokens else "deal",
            "seats": list(order), "in_game": list(order), "out": {},
            "round": 1, "turn": 1, "starter": starter, "dealer": dealer, "to_act": None,
            "chips": {sid: {"stock": self.kr.chips, "invested": 0} for sid in order},
            "tokens": {sid: [] for sid in order}, "chosen": [],
            "played": [], "token_turn": None, "free_draw": False,
            "effects": {"major_fraud": False, "markdown": False, "cook_the_books": False, "prime_sabacc": None},
            "immune": [], "embargo": None, "last": {}, "stood": [],
            "discards": {"sand": [], "blood": []}, "draw_left": {"sand": FAMILY_SIZE, "blood": FAMILY_SIZE},
            "shown": {}, "rounds": [], "winners": [], "pending": None,
        }
        self.emit("hand_started", hand=h["no"], dealer=dealer, token=None, first=starter, players=list(order),
                  deal_size=2, seed_commitment=h["seed_commitment"])
        self.emit("game_started", players=list(order), chips=self.kr.chips, credits_pot=hand_pot(h),
                  words=f"Kessel Sabacc: {len(order)} players, {self.kr.chips} chips each, a credits pot of "
                        f"{hand_pot(h)}.")

    def cmd_choose_tokens(self, f: dict[str, Any], actor: str | None) -> None:
        """A player chooses their 3 tokens, in secret (K28)."""
        sid = self.who(f, actor)
        g = self.need_game("tokens")
        if sid not in g["in_game"]:
            raise Refused(409, "you are not playing this game", None)
        if sid in g["chosen"]:
            raise Refused(409, "you have chosen your tokens", None)
        if len(set(f["tokens"])) != TOKENS_EACH:
            raise Refused(422, f"choose {TOKENS_EACH} different tokens", "tokens")
        g["tokens"][sid] = list(f["tokens"])
        g["chosen"].append(sid)
        # Secret until played (K28): the event says who chose, never what.
        self.emit("tokens_chosen", seat=sid, words=f"{self.name(sid)} has chosen their tokens.")
        if len(g["chosen"]) == len(g["in_game"]):
            g["stage"] = "deal"

    # -- a round (K7–K16) ------------------------------------------------------------------

    def cmd_turn_up(self, f: dict[str, Any], actor: str | None) -> None:
        """The dealer enters the two cards turned up to start the discard piles (K7, K14)."""
        g = self.need_game("deal")
        if actor != HOST and actor != g["dealer"] or f.get("seat") not in (None, g["dealer"]):
            raise Refused(403, "the dealer (or the host) turns up the discard piles' first cards", None)
        sand, blood = (self.card(f[k], k, fam) for k, fam in (("sand", "sand"), ("blood", "blood")))
        g["discards"] = {"sand": [sand], "blood": [blood]}
        dealt = len(g["in_game"])
        g["draw_left"] = {fam: FAMILY_SIZE - dealt - 1 for fam in ("sand", "blood")}
        g["stage"], g["turn"], g["stood"], g["last"] = "turns", 1, [], {}
        g["to_act"] = g["in_game"][0]
        g["token_turn"], g["free_draw"] = None, False
        self.emit("turned_up", sand=sand, blood=blood, round=g["round"],
                  words=f"Round {g['round']}: {card_name(sand)} and {card_name(blood)} start the discard piles.")

    def card(self, code: Any, field: str, fam: str | None = None) -> str:
        """A card code entered, checked to be a Kessel card (of `fam`)."""
        try:
            c = KESSEL_DECK.normalize(code)
        except ValueError as exc:
            raise Refused(422, str(exc), field) from None
        if fam is not None and family(c) != fam:
            raise Refused(422, f"{card_name(c)} is not a {fam.capitalize()} card", field)
        return c

    def need_turn(self, sid: str) -> dict[str, Any]:
        """The game, when it is `sid`'s turn to act; else refused."""
        g = self.need_game("turns")
        if g["to_act"] != sid:
            raise Refused(409, f"it is {self.name(g['to_act'])}'s turn", None)
        self.need_no_pending(g)
        return g

    def need_no_pending(self, g: dict[str, Any]) -> None:
        """Refuse a move while the dice are to be rolled or a value chosen."""
        p = g.get("pending")
        if p is not None:
            what = "the Prime Sabacc token" if p["for"] == "prime_sabacc" else "the Impostor"
            raise Refused(409, f"first the dice for {what}: " + (
                "roll the scrambler" if p["dice"] is None else f"{self.name(p['seat'])} chooses a value"), None)

    def others(self, g: dict[str, Any], sid: str) -> list[str]:
        """The other players in the game a token reaches (not the immune: K32)."""
        return [o for o in g["in_game"] if o != sid and o not in g["immune"]]

    def check_play_token(self, f: dict[str, Any], actor: str | None) -> tuple[str, str | None] | Refusal:
        """The seat and the token's target, or why the token cannot be played now (K29, K30)."""
        sid = self.who(f, actor)
        g = self.need_turn(sid)
        code = str(f.get("token"))
        if g["token_turn"] == g["turn"]:
            return Refusal(409, "one token a turn: you have played one")
        if code not in g["tokens"][sid]:
            return Refusal(409, "you do not hold that token", "token")
        t = TOKEN_BY_CODE[code]
        target = f.get("target")
        if t.target:
            valid = [o for o in self.others(g, sid) if not t.target_in_stand or g["last"].get(o) == "stand"]
            if target is None:
                return Refusal(422, f"{t.name} needs a target" + ("" if valid else ": nobody can be chosen now"),
                               "target")
            if target not in valid:
                return Refusal(422, f"{self.name(target)} cannot be the target of {t.name}"
                               + (" (immune)" if target in g["immune"] else
                                  " (not in stand)" if t.target_in_stand else ""), "target")
        elif target is not None:
            return Refusal(422, f"{t.name} has no target", "target")
        if (code == "exhaustion") != (f.get("cards") is not None):
            return Refusal(422, "Exhaustion needs the two cards its target discards" if code == "exhaustion"
                           else f"{t.name} takes no cards", "cards")
        return sid, target

    def cmd_play_token(self, f: dict[str, Any], actor: str | None) -> None:
        """Play a token and apply it at once (K29–K36)."""
        sid, target = sure(self.check_play_token(f, actor))
        g = self.game()
        assert g is not None
        code = f["token"]
        t = TOKEN_BY_CODE[code]
        piles = self.piles(g)
        others = self.others(g, sid)
        said = [f"{self.name(sid)} plays {t.name}"]
        if code == "exhaustion":  # the target's two cards go face up; two new ones, free (K35)
            cards = [self.card(c, f"cards[{k}]") for k, c in enumerate(f["cards"])]
            if sorted(family(c) for c in cards) != ["blood", "sand"]:
                raise Refused(422, "the target discards one Sand card and one Blood card", "cards")
            for c in cards:
                g["discards"][family(c)].append(c)
            for fam in ("sand", "blood"):
                self.take_from_draw_pile(g, fam)
        if code == "free_draw":
            g["free_draw"] = True
        elif code in ("refund", "extra_refund"):
            said.append(f"{refund(piles[sid], t.amount)} back")
        elif code == "embezzlement":
            gave = embezzle(piles, sid, others)
            said.append("1 chip each from " + (", ".join(self.name(o) for o in gave) or "nobody"))
        elif code == "immunity":
            g["immune"].append(sid)
        elif code == "embargo":
            i = g["in_game"].index(sid)
            nxt = g["in_game"][i + 1] if i + 1 < len(g["in_game"]) else (
                g["in_game"][0] if g["turn"] < self.kr.turns else None)
            g["embargo"] = nxt if nxt not in g["immune"] else None
        elif code in ("major_fraud", "markdown"):
            g["effects"][code] = True
        elif code == "cook_the_books":
            g["effects"]["cook_the_books"] = not g["effects"]["cook_the_books"]
        elif code == "prime_sabacc":  # the scrambler rolls two dice and the player takes one (K35)
            g["pending"] = {"for": "prime_sabacc", "seat": sid, "cards": [], "impostors": [], "dice": None,
                            "values": []}
            said.append("the scrambler rolls two dice for its value")
        elif t.who_pays:
            hit: list[str] = {"target": [target] if target else [], "others": others,
                              "others_in_stand": [o for o in others if g["last"].get(o) == "stand"]}[t.who_pays]
            for o in hit:
                paid, short = pay(piles[o], t.amount, self.kr.tariff_chips)
                said.append(f"{self.name(o)} pays {paid}" + (f" (short {short})" if short else ""))
        self.store(g, piles)
        g["tokens"][sid].remove(code)
        g["token_turn"] = g["turn"]
        g["played"].append({"round": g["round"], "turn": g["turn"], "seat": sid, "token": code,
                            "target": target, "value": None})
        self.emit("token_played", seat=sid, token=code, target=target,
                  words=(f"{said[0]}: {'; '.join(said[1:])}" if len(said) > 1 else said[0]) + ".")

    def take_from_draw_pile(self, g: dict[str, Any], fam: str) -> None:
        """One card off a family's draw pile; an empty pile is made again from the discard pile
        but its top card first (K16)."""
        if g["draw_left"][fam] == 0:
            pile = g["discards"][fam]
            g["draw_left"][fam] = len(pile) - 1
            del pile[:-1]  # in place: a draw holding the pile puts its discard on the new one
            self.emit("reshuffled", family=fam, cards=g["draw_left"][fam],
                      words=f"The {fam.capitalize()} draw pile is empty: the dealer shuffles the discard pile "
                            "but its top card into a new draw pile.")
        if g["draw_left"][fam] == 0:
            raise Refused(409, f"no {fam.capitalize()} card is left to draw", "pile")
        g["draw_left"][fam] -= 1

    def check_draw_card(self, f: dict[str, Any], actor: str | None) -> str | Refusal:
        """The seat drawing, or why it must stand (K10)."""
        sid = self.who(f, actor)
        g = self.need_turn(sid)
        if g["embargo"] == sid:
            return Refusal(409, "you are under Embargo: you must stand")
        if g["chips"][sid]["stock"] < 1 and not g["free_draw"]:
            return Refusal(409, "you have no chips in stock: you must stand")
        return sid

    def cmd_draw_card(self, f: dict[str, Any], actor: str | None) -> None:
        """A paid draw from one of the four piles, keeping the card or discarding it (K9, K16)."""
        sid = sure(self.check_draw_card(f, actor))
        g = self.game()
        assert g is not None
        fam, pile, keep = PILES[f["pile"]], f["pile"], f["keep"]
        discards = g["discards"][fam]
        if pile.endswith("_discard"):
            if not discards:
                raise Refused(409, f"the {fam.capitalize()} discard pile is empty", "pile")
            top = discards[-1]
            if keep:
                if f.get("discard") is None:
                    raise Refused(422, f"enter the {fam.capitalize()} card you discard", "discard")
                put = self.card(f["discard"], "discard", fam)
                discards[-1] = put
            elif f.get("discard") is not None:
                raise Refused(422, "a card taken from a discard pile and put back is no new discard", "discard")
            took = top
        else:
            if f.get("discard") is None:
                raise Refused(422, f"enter the {fam.capitalize()} card that goes on the discard pile", "discard")
            put = self.card(f["discard"], "discard", fam)
            self.take_from_draw_pile(g, fam)
            discards.append(put)
            took = None
        piles = self.piles(g)
        draw(piles[sid], free=g["free_draw"])
        self.store(g, piles)
        g["last"][sid] = "draw"
        self.emit("drew", seat=sid, pile=pile, keep=keep, took=took, discard_top=discards[-1],
                  words=f"{self.name(sid)} draws from the {pile.replace('_', ' ')} pile"
                        + (f" ({card_name(took)})" if took else "") + (" and keeps it" if keep else " and discards it")
                        + f"; {card_name(discards[-1])} is on top.")
        self.acted(g, sid)

    def check_stand(self, f: dict[str, Any], actor: str | None) -> str:
        """The seat standing (it must be their turn)."""
        sid = self.who(f, actor)
        self.need_turn(sid)
        return sid

    def cmd_stand(self, f: dict[str, Any], actor: str | None) -> None:
        """Stand: nothing done, nothing paid (K10)."""
        sid = self.check_stand(f, actor)
        g = self.game()
        assert g is not None
        g["last"][sid] = "stand"
        g["stood"].append(sid)
        self.emit("stood", seat=sid, words=f"{self.name(sid)} stands.")
        self.acted(g, sid)

    def acted(self, g: dict[str, Any], sid: str) -> None:
        """`sid` has drawn or stood: the next player, the next turn, or the reveal (K8, K11)."""
        if g["embargo"] == sid:
            g["embargo"] = None
        g["free_draw"], g["token_turn"] = False, None  # the next player's turn: their own token
        self.pass_turn(g, g["in_game"].index(sid) + 1)

    def pass_turn(self, g: dict[str, Any], i: int) -> None:
        """The turn passes to the `i`th player in the game; after the last, the next turn or the
        reveal (K8, K11)."""
        order = g["in_game"]
        if i < len(order):
            g["to_act"] = order[i]
            return
        everyone_stood = set(g["stood"]) >= set(order)
        if g["turn"] >= self.kr.turns or everyone_stood:
            g["stage"], g["to_act"], g["shown"] = "reveal", None, {}
            self.emit("reveal_started", round=g["round"],
                      words="Everyone stood: the reveal." if everyone_stood and g["turn"] < self.kr.turns
                      else "The reveal.")
            return
        g["turn"] += 1
        g["stood"], g["to_act"] = [], order[0]
        self.emit("turn_started", round=g["round"], turn=g["turn"], words=f"Turn {g['turn']}.")

    # -- a player leaving mid-game (K39) --------------------------------------------------

    def held(self, g: dict[str, Any], sid: str) -> list[str] | None:
        """The cards `sid` holds that are known to the table (shown, or waiting for their
        Impostor dice) at this round's reveal; None while they are face down in the player's
        hand (or before the discard piles are turned up, when none is in play)."""
        if g["stage"] != "reveal":
            return None
        if sid in g["shown"]:
            return list(g["shown"][sid]["cards"])
        p = g.get("pending")
        if p is not None and p["seat"] == sid and p["for"] == "impostor":
            return list(p["cards"])
        return None

    def holds_face_down(self, g: dict[str, Any], sid: str) -> bool:
        """Whether `sid` holds a face-down hand that leaving must enter (K39): in the game, the
        discard piles turned up, and their cards not shown."""
        return sid in g["in_game"] and g["stage"] in ("turns", "reveal") and self.held(g, sid) is None

    def leave_mid_hand(self, sid: str, f: dict[str, Any]) -> Refusal | None:
        """K39: a player may leave mid-game; one holding a face-down hand enters its two cards
        (they go on the discard piles), checked as a reveal's are (K3, K15)."""
        g = self.game()
        assert g is not None
        dealt = self.holds_face_down(g, sid)
        if not dealt:
            return None if f.get("cards") is None else Refusal(
                422, "no cards to enter: " + ("yours are known to the table" if sid in g["in_game"] and
                                               g["stage"] == "reveal" else "you hold none in play"), "cards")
        if f.get("cards") is None:
            return Refusal(422, "enter the two cards you hold: they go on the discard piles", "cards")
        try:
            cards = list(shape(f["cards"]))
        except InvalidHand as exc:
            return Refusal(422, exc.message, exc.field)
        shown = [c for o in g["shown"].values() for c in o["cards"]]
        try:
            KESSEL_DECK.check_copies([*shown, *cards, *g["discards"]["sand"], *g["discards"]["blood"]])
        except TooManyCopies as exc:
            return Refusal(422, f"{card_name(exc.code)}: {exc.count} entered with the hands shown and the discard "
                                f"piles, but the deck has {exc.copies}", "cards")
        return None

    def leave_offer(self, sid: str) -> dict[str, Any] | None:
        """K39 on the phone: leaving is offered at any time; a player holding a face-down hand
        is asked for its two cards as they go (`leave_mid_hand` checks them)."""
        g = self.game()
        assert g is not None
        if self.holds_face_down(g, sid):
            return {"type": "leave", "words": "Leave the game (your two cards go on the discard piles)",
                    "style": "danger", "confirm": True,
                    "inputs": [{"field": "cards", "kind": "cards", "words": "Your two cards", "count": 2}]}
        return super().leave_offer(sid)

    def left_mid_hand(self, sid: str, f: dict[str, Any]) -> None:
        """K39: `sid` is out at once; their chips (invested and in stock) and unplayed tokens
        leave the game; their cards go on the discard piles; the turn, the reveal or the game
        goes on without them, and one player left wins the credits pot (K26)."""
        g = self.game()
        assert g is not None
        if sid not in g["in_game"]:  # out already: nothing of theirs is in the game
            return
        cards = self.held(g, sid) or ([c.lower() for c in shape(f["cards"])] if f.get("cards") else [])
        for c in cards:
            g["discards"][family(c)].append(c)
        p = g.get("pending")
        if p is not None and p["seat"] == sid:
            g["pending"] = None
        chips, tokens = g["chips"][sid], len(g["tokens"][sid])
        g["chips"][sid], g["tokens"][sid] = {"stock": 0, "invested": 0}, []
        g["shown"].pop(sid, None)
        i = g["in_game"].index(sid)
        g["in_game"].remove(sid)
        g["out"][sid] = g["round"]
        g["immune"] = [o for o in g["immune"] if o != sid]
        g["stood"] = [o for o in g["stood"] if o != sid]
        g["chosen"] = [o for o in g["chosen"] if o != sid]
        g["last"].pop(sid, None)
        if g["embargo"] == sid:
            g["embargo"] = None
        if g["dealer"] == sid and g["stage"] == "deal":  # the next player turns up the piles
            g["dealer"] = self.s["dealer"] = self.next_in_game(g, sid)
        self.emit("left_game", seat=sid, round=g["round"], chips=chips["stock"] + chips["invested"],
                  tokens=tokens, cards=cards,
                  words=f"{self.name(sid)} leaves the game: out; {chips['invested']} invested and "
                        f"{chips['stock']} in stock leave the table" + (f", and {tokens} unplayed tokens" if tokens
                                                                       else "")
                        + (f"; {card_name(cards[0])} and {card_name(cards[1])} go on the discard piles."
                           if cards else "."))
        if len(g["in_game"]) == 1:  # K26: the last player wins the game and the credits pot
            self.end_game(g, list(g["in_game"]), {g["in_game"][0]: hand_pot(self.hand)})
        elif g["stage"] == "tokens" and set(g["chosen"]) >= set(g["in_game"]):
            g["stage"] = "deal"
        elif g["stage"] == "turns" and g["to_act"] == sid:
            g["free_draw"], g["token_turn"] = False, None
            self.pass_turn(g, i)
        elif g["stage"] == "reveal" and g.get("pending") is None and self.next_to_show(g) is None:
            self.settle_round(g)

    # -- the reveal and the settlement (K17–K27) -------------------------------------------

    def next_to_show(self, g: dict[str, Any]) -> str | None:
        """Who shows their hand next (K17: clockwise from the starter), or None."""
        return next((sid for sid in g["in_game"] if sid not in g["shown"]), None)

    def check_show_hand(self, f: dict[str, Any], actor: str | None) -> str | Refusal:
        """The seat showing, or why it may not now."""
        sid = self.who(f, actor)
        g = self.need_game("reveal")
        if g.get("pending") is not None:
            self.need_no_pending(g)
        nxt = self.next_to_show(g)
        if sid not in g["in_game"]:
            return Refusal(409, "you are not in this round")
        if nxt != sid:
            return Refusal(409, f"hands are shown clockwise from the starter: {self.name(nxt)} shows next"
                           if nxt else "every hand is shown")
        return sid

    def cmd_show_hand(self, f: dict[str, Any], actor: str | None) -> None:
        """A player enters their two cards and Impostor values; the last one settles the round."""
        sid = sure(self.check_show_hand(f, actor))
        g = self.game()
        assert g is not None
        try:
            cards = list(shape(f["cards"]))  # K3: Sand first
        except InvalidHand as exc:
            raise Refused(422, exc.message, exc.field) from None
        shown = [c for o in g["shown"].values() for c in o["cards"]]
        try:  # K3, K15: the other reveals and the discard piles count against the copies
            KESSEL_DECK.check_copies([*shown, *cards, *g["discards"]["sand"], *g["discards"]["blood"]])
        except TooManyCopies as exc:
            raise Refused(422, f"{card_name(exc.code)}: {exc.count} entered with the other hands and the "
                               f"discard piles, but the deck has {exc.copies}; the host corrects the wrong one",
                          "cards") from None
        impostors = [] if self.effects(g).major_fraud else [c for c in cards if is_impostor(c)]
        if impostors:  # K17: each Impostor, Sand first, gets two dice from the scrambler
            g["pending"] = {"for": "impostor", "seat": sid, "cards": cards, "impostors": impostors, "dice": None,
                            "values": []}
            self.emit("cards_shown", seat=sid, cards=cards,
                      words=f"{self.name(sid)} shows {card_name(cards[0])} and {card_name(cards[1])}: the scrambler "
                            f"rolls for the {card_name(impostors[0])}.")
            return
        self.show(g, sid, cards, [])

    def show(self, g: dict[str, Any], sid: str, cards: list[str], values: list[int]) -> None:
        """`sid`'s hand is face up and judged; the last one settles the round."""
        hand = judge(cards, values, self.effects(g))
        g["shown"][sid] = {"cards": list(hand.cards), "impostors": values,
                           "values": list(hand.values), "kind": hand.kind, "value": hand.value,
                           "difference": hand.difference}
        self.emit("hand_shown", seat=sid, cards=list(hand.cards), values=list(hand.values), kind=hand.kind,
                  words=f"{self.name(sid)} shows {card_name(hand.cards[0])} and {card_name(hand.cards[1])}: "
                        f"{hand.words}.")
        if self.next_to_show(g) is None:
            self.settle_round(g)

    # -- the dice (K4, K17, K35) ------------------------------------------------------------

    def pending(self) -> dict[str, Any] | None:
        """What the dice are wanted for now (an Impostor, the Prime Sabacc token), or None."""
        g = self.game() if self.in_hand() else None
        return g.get("pending") if g is not None else None

    def check_roll(self, f: dict[str, Any], actor: str | None) -> list[int] | Refusal:
        """The two dice, or why there is nothing to roll (the table's roller fills them in)."""
        p = self.pending()
        if p is None or p["dice"] is not None:
            return Refusal(409, "nothing to roll now: the dice are rolled for an Impostor or the Prime Sabacc token")
        if actor not in (HOST, SCRAMBLER, p["seat"]):
            return Refusal(403, f"the scrambler, the host or {self.name(p['seat'])} rolls")
        dice = f.get("dice")
        try:
            ROLL.read(dice if isinstance(dice, list) else [])
        except ValueError:
            return Refusal(422, "two dice, each 1 to 6", "dice")
        return list(cast(list[int], dice))

    def cmd_roll(self, f: dict[str, Any], actor: str | None) -> None:
        """The scrambler's two dice for the pending Impostor or Prime Sabacc (K4)."""
        dice = sure(self.check_roll(f, actor))
        p = self.pending()
        assert p is not None
        p["dice"] = dice
        what = "Prime Sabacc" if p["for"] == "prime_sabacc" else card_name(p["impostors"][len(p["values"])])
        self.emit("rolled", seat=p["seat"], roll={"trigger": ROLL.key, "dice": dice, "shift": False, "kind": None},
                  words=f"The dice for {what}: {dice[0]} and {dice[1]}; {self.name(p['seat'])} chooses one.")

    def cmd_choose_value(self, f: dict[str, Any], actor: str | None) -> None:
        """The player takes one of the two values rolled (K17, K35)."""
        sid = self.who(f, actor)
        p = self.pending()
        if p is None or p["dice"] is None:
            raise Refused(409, "no dice to choose from now", None)
        if sid != p["seat"]:
            raise Refused(409, f"{self.name(p['seat'])} chooses", None)
        if f["value"] not in p["dice"]:
            raise Refused(422, f"choose {p['dice'][0]} or {p['dice'][1]}, the values rolled", "value")
        g = self.game()
        assert g is not None
        if p["for"] == "prime_sabacc":
            g["effects"]["prime_sabacc"], g["pending"] = f["value"], None
            g["played"][-1]["value"] = f["value"]
            self.emit("value_chosen", seat=sid, value=f["value"],
                      words=f"Prime Sabacc: any Sabacc of {f['value']} ranks just under Pure Sabacc.")
            return
        p["values"].append(f["value"])
        p["dice"] = None
        self.emit("value_chosen", seat=sid, value=f["value"],
                  words=f"{self.name(sid)} takes {f['value']} for the {card_name(p['impostors'][len(p['values']) - 1])}.")
        if len(p["values"]) == len(p["impostors"]):
            g["pending"] = None
            # The values in the order of the cards as held (Sand first), as the judge reads them.
            self.show(g, sid, p["cards"], p["values"])

    def settle_round(self, g: dict[str, Any]) -> None:
        """The round's settlement (K22–K25), then the next round or the end of the game (K26, K27)."""
        h = self.hand
        effects = self.effects(g)
        seats = [SettleSeat(sid, judge(g["shown"][sid]["cards"], g["shown"][sid]["impostors"], effects),
                            g["chips"][sid]["stock"], g["chips"][sid]["invested"]) for sid in g["in_game"]]
        result = settle(seats, hand_pot(h))
        assert result.conserved()  # K24
        for sid, n in result.chips_after.items():
            g["chips"][sid] = {"stock": n, "invested": 0}
        g["rounds"].append({"round": g["round"], "winners": result.winners, "chips_after": result.chips_after,
                            "penalties": [p.to_json() for p in result.penalties], "eliminated": result.eliminated,
                            "chips_removed": result.chips_removed, "hands": dict(g["shown"])})
        names = " and ".join(self.name(w) for w in result.winners)
        self.emit("round_settled", round=g["round"], winners=result.winners, chips_after=result.chips_after,
                  eliminated=result.eliminated, chips_removed=result.chips_removed,
                  words=f"{names} {'wins' if len(result.winners) == 1 else 'win'} round {g['round']}; "
                        + (f"{', '.join(self.name(e) for e in result.eliminated)} out; " if result.eliminated else "")
                        + f"{result.chips_removed} chips leave the table.")
        for sid in result.eliminated:
            g["out"][sid] = g["round"]
        g["in_game"] = [sid for sid in g["in_game"] if sid not in result.eliminated]
        # K34: every effect ends with the settlement.
        g["effects"] = {"major_fraud": False, "markdown": False, "cook_the_books": False, "prime_sabacc": None}
        g["immune"], g["embargo"] = [], None
        for sid in result.eliminated:  # K28: an eliminated player's tokens are lost
            g["tokens"][sid] = []
        if result.game_over:
            assert result.credits_payouts is not None
            self.end_game(g, result.game_winners, result.credits_payouts)
            return
        # K6: the starter and the dealer move one seat clockwise, skipping eliminated players.
        g["starter"] = self.next_in_game(g, g["starter"])
        g["dealer"] = self.s["dealer"] = self.next_in_game(g, g["dealer"])
        g["in_game"] = rotate(g["seats"], g["starter"], g["in_game"])
        g["round"] += 1
        g["stage"], g["to_act"], g["discards"] = "deal", None, {"sand": [], "blood": []}

    def final_places(self) -> dict[str, int] | None:
        """Once the game is won: its winners first (K26, K27), then the players eliminated, the
        last out first, those out at one reveal sharing the place (K25)."""
        g = self.game()
        if g is None or g.get("stage") != "over":
            return None
        return places_by_elimination(list(g["winners"]), dict(g["out"]))

    def next_in_game(self, g: dict[str, Any], after: str) -> str:
        """The first player still in the game clockwise after `after`."""
        ring = g["seats"]
        i = ring.index(after)
        return next(sid for sid in ring[i + 1:] + ring[:i + 1] if sid in g["in_game"])

    def end_game(self, g: dict[str, Any], winners: list[str], payouts: dict[str, int]) -> None:
        """The last player with chips (or the round's winners, K27) take the credits pot."""
        h, s = self.hand, self.s
        for sid, n in payouts.items():
            s["seats"][sid]["stack"] += n
        g["stage"], g["winners"] = "over", winners
        h["revealed"] = True
        full = {sid: payouts.get(sid, 0) for sid in h["players"]}
        record: dict[str, Any] = {"status": "won" if len(winners) == 1 else "split", "winners": winners,
                                  "amount": hand_pot(h), "payouts": full,
                                  # each player's gain or loss, as every game's settlement names it
                                  "net": {sid: full[sid] - h["p"][sid]["committed"] for sid in h["players"]}}
        h["settlement"] = record
        h["stage"] = "settled"
        stacks = self.record_hand({sid: None for sid in h["players"]}, self.kr.title)
        names = " and ".join(self.name(w) for w in winners)
        self.emit("game_won", winners=winners, payouts=full,
                  words=f"{names} {'wins' if len(winners) == 1 else 'win'} the game and the credits pot of "
                        f"{hand_pot(h)}.")
        self.emit("hand_ended", hand=h["no"], stacks=stacks, sabacc_pot=s["sabacc_pot"])

    # -- what the table reads ---------------------------------------------------------------

    def end_hand(self) -> None:
        """Never called: the game ends in `end_game`."""
        raise AssertionError("Kessel closes its game in `end_game`")

    def pots_held(self) -> int:
        """The credits pot, while the game runs (the table's credits stay whole)."""
        h = self.s["hand"]
        return 0 if h is None or h["stage"] == "settled" else hand_pot(h)

    def ante_due(self) -> int:
        """What joining the game takes from a stack: the buy-in."""
        return self.kr.buy_in

    def roll_due(self, entry: dict) -> DiceSpec | None:
        """Two six-sided dice when a roll without dice comes while the dice are wanted (the owner
        fills them from the table's roller, covered by the committed seed)."""
        if isinstance(entry, dict) and entry.get("type") == "roll" and entry.get("dice") is None:
            p = self.pending()
            if p is not None and p["dice"] is None:
                return ROLL
        return None

    def turn_words(self, viewer: str | None) -> str | None:
        """Whose turn it is and what to do, in words ("You" for the viewer)."""
        g = self.game() if self.in_hand() else None
        if g is None:
            return None

        def who(sid: str) -> str:
            return "You" if sid == viewer else self.name(sid)
        p = g.get("pending")
        if p is not None:
            what = "Prime Sabacc" if p["for"] == "prime_sabacc" else "the Impostor"
            return (f"The scrambler rolls two dice for {what}." if p["dice"] is None else
                    f"{who(p['seat'])}: take {p['dice'][0]} or {p['dice'][1]} for {what}.")
        if g["stage"] == "tokens":
            waiting = [sid for sid in g["in_game"] if sid not in g["chosen"]]
            return ("You: choose 3 shift tokens." if viewer in waiting else
                    "Choosing tokens: " + ", ".join(self.name(sid) for sid in waiting) + ".")
        if g["stage"] == "deal":
            return f"{who(g['dealer'])}: turn up the first card of each discard pile."
        if g["stage"] == "turns":
            return f"Round {g['round']}, turn {g['turn']}: {who(g['to_act'])}" + (
                ": stand (Embargo)." if g["embargo"] == g["to_act"] else ": draw or stand.")
        nxt = self.next_to_show(g)
        return f"The reveal: {who(nxt)}: show your hand." if nxt else None

    def public_game(self, g: dict[str, Any]) -> dict[str, Any]:
        """Kessel's state as every viewer sees it: never a seat's unplayed tokens, only how many."""
        return {
            "stage": g["stage"], "round": g["round"], "turn": g["turn"], "turns": self.kr.turns,
            "starter": g["starter"], "dealer": g["dealer"], "to_act": g["to_act"],
            "in_game": list(g["in_game"]), "out": dict(g["out"]),
            "chips": {sid: dict(c) for sid, c in g["chips"].items()},
            "last": dict(g["last"]), "tokens_left": {sid: len(t) for sid, t in g["tokens"].items()},
            "chosen": list(g["chosen"]), "played": list(g["played"]), "immune": list(g["immune"]),
            "embargo": g["embargo"], "effects": dict(g["effects"]),
            "discard_tops": {fam: (p[-1] if p else None) for fam, p in g["discards"].items()},
            "draw_left": dict(g["draw_left"]), "shown": dict(g["shown"]), "rounds": list(g["rounds"]),
            "winners": list(g["winners"]), "pending": g.get("pending"),
        }

    def hand_view(self, viewer: str | None) -> dict[str, Any] | None:
        """The game as every viewer sees it (no seat's unplayed tokens)."""
        h = self.s["hand"]
        if h is None:
            return None
        g = cast(dict[str, Any], h)["game"]
        return {
            "no": h["no"], "stage": h["stage"], "round": g["round"], "phase": None, "turn": g["turn"],
            "do": g["stage"], "roller": None, "to_act": g["to_act"], "current_bet": 0, "owed": 0,
            "call_open": False, "call_window": [], "deal": [], "words": self.turn_words(viewer),
            "called_by": None, "dealer": g["dealer"], "token": None,
            "players": [{"seat": sid, "committed": h["p"][sid]["committed"], "bet": 0, "folded": False,
                         "all_in": False, "hand_size": 2, "static": [], "entered": sid in g["shown"],
                         "cards": g["shown"][sid]["cards"] if sid in g["shown"] else None, "demise": None}
                        for sid in h["players"]],
            "hand_pot": 0 if h["stage"] == "settled" else hand_pot(h), "pots": [],
            "seed_commitment": h["seed_commitment"], "seed": h["seed"], "settlement": h["settlement"],
            "game": self.public_game(g),
            # The seats out of the game (K25, K39): the seat lists mark them out.
            "out": list(g["out"]),
            # What the pages show, as facts (docs/games.md "Facts"): never a seat's tokens.
            "facts": {"table": kessel_facts.table_facts(g, self.name),
                      "seats": kessel_facts.seat_facts(g, self.kr.plays_tokens)},
        }

    def private(self, sid: str, legal: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """What only `sid` sees: their own tokens and their legal moves."""
        g = self.game()
        return {"seat": sid, "cards": None, "tokens": list(g["tokens"].get(sid, [])) if g else [],
                "legal": self.legal(sid) if legal is None else legal, "facts": kessel_facts.own_facts(g, sid)}

    def legal(self, sid: str) -> list[dict[str, Any]]:
        """Each move `sid` may make now, with its words and inputs."""
        g = self.game() if self.in_hand() else None
        out: list[dict[str, Any]] = []
        if g is None:
            return out
        p = g.get("pending")
        if p is not None:  # the dice first: the roll (the scrambler, the host or the player), then a value
            if p["seat"] == sid and p["dice"] is None:
                out.append({"type": "roll", "words": "Roll the dice", "style": "primary", "confirm": False,
                            "inputs": []})
            elif p["seat"] == sid:
                out.append({"type": "choose_value", "words": "Take a value", "style": "primary", "confirm": False,
                            "inputs": [{"field": "value", "kind": "choice", "words": "Which die",
                                        "options": [[d, str(d)] for d in dict.fromkeys(p["dice"])]}]})
            return out
        if g["stage"] == "tokens" and sid in g["in_game"] and sid not in g["chosen"]:
            out.append({"type": "choose_tokens", "words": "Choose 3 tokens", "style": "primary", "confirm": True,
                        "inputs": [{"field": "tokens", "kind": "choice", "words": "Your 3 tokens", "count": 3,
                                    "options": [[t.code, t.name] for t in TOKENS]}]})
        if g["stage"] == "deal" and sid == g["dealer"]:
            out.append({"type": "turn_up", "words": "Turn up the discard piles", "style": "primary",
                        "confirm": False, "inputs": [
                            {"field": fam, "kind": "choice", "words": f"{fam.capitalize()} card",
                             "options": [[c, card_name(c)] for c in KESSEL_DECK.cards if family(c) == fam]}
                            for fam in ("sand", "blood")]})
        if g["stage"] == "turns" and g["to_act"] == sid:
            if g["token_turn"] != g["turn"]:
                for code in g["tokens"][sid]:
                    t = TOKEN_BY_CODE[code]
                    targets = [o for o in self.others(g, sid) if not t.target_in_stand or g["last"].get(o) == "stand"]
                    if t.target and not targets:
                        continue  # K30: no valid target, the token cannot be played now
                    inputs: list[dict[str, Any]] = []
                    if t.target:
                        inputs.append({"field": "target", "kind": "seat", "words": "On whom",
                                       "options": [[o, self.name(o)] for o in targets]})
                    if code == "exhaustion":  # the target's two cards go face up: entered with the token
                        inputs.append({"field": "cards", "kind": "cards", "words": "The two cards the target discards",
                                       "count": 2})
                    out.append({"type": "play_token", "token": code, "words": f"Play {t.name}", "style": "",
                                "confirm": True, "fields": {"token": code}, "inputs": inputs})
            if not isinstance(self.check_draw_card({}, sid), Refusal):
                out.append({"type": "draw_card", "words": "Draw", "style": "primary", "confirm": False,
                            "inputs": [{"field": "pile", "kind": "choice", "words": "From which pile",
                                        "options": [[p, p.replace("_", " ").capitalize()] for p in PILES]},
                                       {"field": "keep", "kind": "choice", "words": "Keep it?",
                                        "options": [[True, "Keep"], [False, "Discard it"]]},
                                       # Left out when the card drawn from a discard pile goes back on it.
                                       {"field": "discard", "kind": "choice", "words": "The card discarded",
                                        "optional": True, "none": "None: the drawn card goes back",
                                        "options": [[c, card_name(c)] for c in KESSEL_DECK.cards]}]})
            out.append({"type": "stand", "words": "Stand", "style": "", "confirm": False, "inputs": []})
        if g["stage"] == "reveal" and self.next_to_show(g) == sid:
            out.append({"type": "show_hand", "words": "Show my hand", "style": "primary", "confirm": True,
                        "inputs": [{"field": "cards", "kind": "cards", "words": "Your two cards", "count": 2}]})
        return out

    def host_legal(self) -> list[str]:
        """The host's commands now."""
        if self.allows("start_hand", {}, HOST):
            return ["start_hand"]
        p = self.pending()
        return ["roll"] if p is not None and p["dice"] is None else []

