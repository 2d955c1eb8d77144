"""Coruscant Shift's live table (RULES-CORUSCANT.md C5–C31): one round a hand, the game to its end.

The runtime's sections do the seats, the session and the betting (`Evening`, `Seats`,
`Betting`); this engine adds Coruscant's round (C10) as moves with words and inputs:

1. `start_hand` (the host): the ante of this round (C7, C8), five cards each to deal;
2. `roll` (the dealer, the host or the scrambler): two six-sided dice, the gold die's face then
   the silver die's, give the target number and suit (C3);
3. `select`: each player's selection count, 1 to 5, in any order; the round waits for all;
4. the first betting round (C14, C15: a player folds only facing a bet they have not matched);
5. `shift`: each player still in confirms drawing 5 − their count;
6. the second betting round;
7. `improve`: each player's new count, never lower than the first;
8. `reveal_selection`: the cards, checked against the count and the deck (C4); hidden from
   the others until every player still in has entered theirs;
9. `tie_draw`: when the suit cannot break a tie, each tied player enters the card they drew
   (C19, C20); then the settlement, elimination (C24) and the end of the game (C25, C26).

The game's own record lives beside the runtime's: the table's ``state["coruscant"]`` (who is in
the game, who went out in which round, who has dealt, the round and its ante) and the hand's
``hand["coruscant"]`` (the step, the target, the counts). Both are replaced whole, never changed
in place: a command works on a shallow copy of the state (`state.working_copy`).
"""

from __future__ import annotations

from typing import Any, Mapping, cast

from companion.games.coruscant import facts as coruscant_facts
from companion.games.api import DiceSpec
from companion.games.coruscant.cards import (CORUSCANT_DECK, GOLD, SELECTION_MAX, SELECTION_MIN, SILVER, TARGET_ROLL,
                                              target_words)
from companion.games.coruscant.judge import (TIE_DRAW, Entry, Target, decided_by, game_over, next_ante, next_dealer, places,
                                             reveal_refusal, settle_round)
from companion.games.coruscant.presets import CoruscantRules
from companion.refusal import Refused
from companion.table.betting import Betting
from companion.table.commands import COMMANDS, HOST, SCRAMBLER, SESSION_COMMANDS
from companion.table.evening import Evening
from companion.table.outcome import pot_labels
from companion.table.play import Refusal, sure
from companion.table.seats import Seats
from companion.table.state import Hand, OwnState, hand_pot, new_hand, pots_of, rotate

_SEAT = {"seat": {"type": "string", "description": "host only: the seat acted for"}}
_COUNT = {"type": "integer", "minimum": SELECTION_MIN, "maximum": SELECTION_MAX}
_CARD = {"type": "string", "minLength": 1, "maxLength": 20}


def _obj(props: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "properties": props, "required": list(required)}


#: The dice the table asks the scrambler for: the gold die's face, then the silver die's.
TWO_DICE = TARGET_ROLL

#: The steps of a round while the hand's stage is "play", in order (C10).
STEPS = ("roll", "select", "bet1", "shift", "bet2", "improve")
#: What the table waits for at each step, in words (the turn line of every screen).
STEP_WORDS = {"roll": "roll the gold and silver dice", "select": "choose your selection",
              "shift": "discard the cards you did not select and draw as many",
              "improve": "add cards to your selection, or none", "reveal": "enter your selection",
              "tie_draw": "draw the top card of the draw pile and enter it"}


class CoruscantRound(Evening, Seats, Betting):
    """The live table's engine for Coruscant Shift: the runtime's session, seats and betting,
    and Coruscant's round (module docstring)."""

    COMMANDS = {**{k: COMMANDS[k] for k in SESSION_COMMANDS},
                **{k: COMMANDS[k] for k in ("check", "bet", "call", "raise", "all_in", "fold", "roll")},
                "select": _obj({**_SEAT, "count": _COUNT}, ("count",)),
                "shift": _obj(dict(_SEAT)),
                "improve": _obj({**_SEAT, "count": _COUNT}, ("count",)),
                # A one-card selection may come as the card itself (the pages' card input
                # gives one card as a string: moves.js cardsControl).
                "reveal_selection": _obj({**_SEAT, "cards": {"type": ["array", "string"], "items": _CARD,
                                                             "minItems": 1, "maxItems": SELECTION_MAX,
                                                             "minLength": 1, "maxLength": 20}}, ("cards",)),
                # The card drawn, or a one-card list (the offer's card input, as the reveal's).
                "tie_draw": _obj({**_SEAT, "card": {"type": ["array", "string"], "items": _CARD, "minItems": 1,
                                                    "maxItems": 1, "minLength": 1, "maxLength": 20}}, ("card",))}

    #: The tie draw's fields (C22): the tied players, each player's card drawn.
    OWN_STATE = OwnState(hand={"demise_players": []}, player={"demise": None})
    #: The names of the tie draw's parts the pages read (Evening.BLOCKS): its stage, the tied
    #: players and each one's card in the hand's view, the drawn cards in the settlement's hands.
    BLOCKS: Mapping[str, Mapping[str, str]] = {
        "tie": {"stage": "demise", "players": "demise_players", "card": "demise", "drawn": "blind_draw"}}

    # The runtime's sections type the rules as a `RuleSet` (Play.rules); this engine's table
    # holds Coruscant's rules value (the registry gives each engine its own game's).
    rules: CoruscantRules  # type: ignore[assignment]

    # -- the game's and the round's own records ----------------------------------------------

    @property
    def game(self) -> dict[str, Any]:
        """The game's record (empty before the first round)."""
        return cast(dict[str, Any], self.s).get("coruscant") or {}

    def final_places(self) -> dict[str, int] | None:
        """Once the game is over, its places (C24–C26, `judge.places`); None while it runs."""
        g = self.game
        return dict(g["places"]) if g.get("over") and g.get("places") else None

    def set_game(self, **changes: Any) -> None:
        """Replace the game's record with `changes` made (never in place: see the module)."""
        cast(dict[str, Any], self.s)["coruscant"] = {**self.game, **changes}

    @staticmethod
    def rnd(h: Hand) -> dict[str, Any]:
        """The round's record of hand `h`."""
        return cast(dict[str, Any], h)["coruscant"]

    def set_rnd(self, **changes: Any) -> None:
        """Replace the running round's record with `changes` made."""
        h = cast(dict[str, Any], self.hand)
        h["coruscant"] = {**h["coruscant"], **changes}

    def step(self) -> str | None:
        """Where the running round is: a step of `STEPS`, "reveal", "tie_draw", or None."""
        h = self.running()
        if h is None:
            return None
        return {"reveal": "reveal", "demise": "tie_draw"}.get(h["stage"]) or self.rnd(h)["step"]

    def players_in_game(self) -> list[str]:
        """The seats still in the game, in seat order (before the first round: those with credits)."""
        g = self.game
        if not g:
            return [sid for sid in self.s["order"] if self.stack(sid) > 0 and not self.s["seats"][sid]["sitting_out"]]
        return [sid for sid in self.s["order"] if sid in g["players"] and sid not in g["out"]]

    # -- the start of a round --------------------------------------------------------------

    def check_buy_in(self, f: dict[str, Any], actor: str | None) -> tuple[str, int] | Refusal:
        """Each player buys in once, for the stock (C5), before the first round."""
        if self.game:
            return Refusal(409, "the game has begun: no buy-ins until it ends")
        found = super().check_buy_in(f, actor)
        if not isinstance(found, Refusal) and self.stack(found[0]) > 0:
            return Refusal(409, "you have bought in for the stock")
        return found

    def check_cash_out(self, f: dict[str, Any], actor: str | None) -> tuple[str, int] | Refusal:
        """Credits stay in the game until it ends (a player who leaves takes them, C31)."""
        if self.game and not self.game.get("over") and self.who(f, actor) in self.players_in_game():
            return Refusal(409, "credits stay in the game until it ends: leave the table to take them")
        return super().check_cash_out(f, actor)

    def cmd_leave(self, f: dict[str, Any], actor: str | None) -> None:
        """C31: a player who leaves between rounds is out, placed as if out this round."""
        sid = self.who(f, actor)
        g = self.game
        if g and not g.get("over") and sid in self.players_in_game():
            sure(self.check_leave(f, actor))
            self.set_game(out={**g["out"], sid: g["round"]})
        super().cmd_leave(f, actor)

    #: C31: a player may leave mid-round (`left_mid_hand`).
    LEAVES_MID_HAND = True

    def leave_mid_hand(self, sid: str, f: dict[str, Any]) -> Refusal | None:
        """C31: a player may leave at any moment of a round."""
        return None

    def left_mid_hand(self, sid: str, f: dict[str, Any]) -> None:
        """C31: the leaver's hand is folded at once (a fold's way: `drop_out`); the round goes
        on without them: the last player left takes the pots (C16), the betting passes on, a
        step the round waited for them at ends (the leave's `cmd_leave` places them as out
        this round; they take their credits as they leave)."""
        h: Any = self.hand  # its tie fields are the game's own (OWN_STATE)
        if h["p"][sid]["folded"]:
            return
        b, step, waited = h["betting"], self.step(), sid in self.waiting()
        self.drop_out(sid)
        if h.get("demise_players"):
            h["demise_players"] = [x for x in h["demise_players"] if x != sid]
        live = self.live()
        if len(live) == 1:
            self.concede(live[0])
        elif b is not None and b["to_act"] == sid:
            self.after_bet_action(sid)
        elif waited and not self.waiting():  # the step waited for them only: it ends as at its last move
            if step in ("select", "shift"):
                self.set_rnd(step="bet1" if step == "select" else "bet2")
                self.open_round_betting()
            elif step == "improve":
                self.start_reveal()
            elif step == "reveal":
                h["revealed"] = True
                self.emit("revealed", hands={x: h["p"][x]["cards"] for x in live})
                self.settle()
            elif step == "tie_draw":
                self.settle()

    def check_start_hand(self, f: dict[str, Any], actor: str | None) -> list[str] | Refusal:
        """The players of the next round, or why none can start."""
        refusal = self.not_ended() or self.between_hands()
        if refusal is not None:
            return refusal
        if self.game.get("over"):
            return Refusal(409, "the game is over: end the session for the final standings")
        players = self.players_in_game()
        if len(players) < self.rules.min_players:
            return Refusal(409, f"a game needs {self.rules.min_players} players with credits")
        if len(players) > self.rules.max_players:
            return Refusal(409, f"a game has at most {self.rules.max_players} players")
        return players

    def cmd_start_hand(self, f: dict[str, Any], actor: str | None) -> None:
        players = sure(self.check_start_hand(f, actor))
        s, g = self.s, self.game
        order = s["order"]
        dealer = s["dealer"] if s["dealer"] in players else players[0]
        start = next_dealer(order, dealer, [sid for sid in order if sid not in players])
        first = not g
        ante = self.rules.ante if first else next_ante(g["ante"], len(players), self.rules.ante_rise)
        round_no = 1 if first else g["round"] + 1
        self.set_game(players=list(players) if first else g["players"], out=dict(g.get("out", {})),
                      dealt=[*g.get("dealt", []), dealer], round=round_no, ante=ante, over=False, places=None)
        s["dealer"] = dealer
        s["hand_no"] += 1
        seated = rotate(order, start, players)
        h = s["hand"] = new_hand(s["hand_no"], dealer, None, seated, 5, f.get("seed_commitment"),
                                 s["sabacc_pot"], {sid: self.stack(sid) for sid in seated}, self.OWN_STATE)
        h["round"] = round_no
        cast(dict[str, Any], h)["coruscant"] = {"step": "roll", "ante": ante, "target": None,
                                                 "counts": {}, "drawn": {}, "improved": {}}
        self.emit("hand_started", hand=h["no"], dealer=dealer, token=None, first=start, players=list(seated),
                  deal_size=5, seed_commitment=h["seed_commitment"], round=round_no, ante=ante)
        for sid in seated:  # C7: all they have if they cannot pay in full (then all-in)
            paid = min(self.stack(sid), ante)
            s["seats"][sid]["stack"] -= paid
            h["p"][sid]["committed"] = paid
            self.emit("ante", seat=sid, hand_pot=paid, sabacc_pot=0, all_in=self.stack(sid) == 0)
        self.deal_job({sid: 5 for sid in seated})
        self.emit("step", round=round_no, phase="roll", seat=dealer, do="roll",
                  words=f"Round {round_no}: ante {ante}. {self.name(dealer)} deals five cards each; "
                        "then the dice.")

    # -- the dice -------------------------------------------------------------------------

    def roll_due(self, entry: dict) -> DiceSpec | None:
        """A roll without dice asks the scrambler for two d6 (the gold die's, the silver die's)."""
        if entry.get("type") == "roll" and entry.get("dice") is None:
            return TWO_DICE
        return None

    def check_roll(self, f: dict[str, Any], actor: str | None) -> list[int] | Refusal:
        """The two faces rolled, or why the roll is refused now."""
        h = self.running()
        if h is None or self.step() != "roll":
            return Refusal(409, "the dice are rolled once a round, after the deal")
        if actor not in (HOST, SCRAMBLER, h["dealer"]):
            return Refusal(403, f"{self.name(h['dealer'] or '')} rolls the dice, or the scrambler")
        dice = f.get("dice")
        if dice is None:  # the owner fills them in (`roll_due`); a read-only check has none yet
            return [1, 1]
        try:
            TWO_DICE.read(dice if isinstance(dice, list) else [])
        except ValueError:
            return Refusal(422, "two dice, faces 1 to 6: the gold die's, then the silver die's", "dice")
        return list(dice)

    def cmd_roll(self, f: dict[str, Any], actor: str | None) -> None:
        if f.get("dice") is None:
            raise Refused(422, "the dice are missing: the scrambler rolls them", "dice")
        gold_face, silver_face = sure(self.check_roll(f, actor))
        h = self.hand
        target: dict[str, Any] = {"number": GOLD.face(gold_face), "suit": SILVER.face(silver_face)}
        words = "The target is " + target_words(target["number"], target["suit"]) + "."
        roll = {"trigger": TWO_DICE.key, "dice": [gold_face, silver_face], "shift": False, "kind": None,
                **target}
        # Who rolled: the dealer, from their phone or from the console (the host rolls for the
        # dealer, C3); a roll of the scrambler's is the dice's own.
        seat = actor if actor in self.s["seats"] else h["dealer"] if actor == HOST else None
        faces = " and ".join(TWO_DICE.read([gold_face, silver_face]))
        said = (f"{self.name(seat)} rolls" if seat else TWO_DICE.name[0].upper() + TWO_DICE.name[1:] + " roll") \
            + f" {faces}: the target is {target_words(target['number'], target['suit'])}."
        record = {"seat": seat, "round": h["round"], **roll, "words": said}
        h["rolls"] = [*h["rolls"], record]
        h["last_roll"] = record
        self.set_rnd(step="select", target={**target, "words": words})
        self.emit("rolled", seat=seat, roll=roll, words=said)
        self.emit("step", round=h["round"], phase="select", seat=None, do="select",
                  words="Everyone: put 1 to 5 cards face down as your selection.")

    # -- simultaneous moves: select, shift, improve ----------------------------------------

    def seat_at(self, step: str, f: dict[str, Any], actor: str | None) -> str | Refusal:
        """The seat making a move of `step` now, or why it may not."""
        h = self.running()
        if h is None:
            return Refusal(409, "no round is being played")
        sid = self.who(f, actor)
        if sid not in h["p"]:
            return Refusal(409, "you are not in this round")
        if h["p"][sid]["folded"]:
            return Refusal(409, "you have folded this round")
        now = self.step()
        if now != step:
            return Refusal(409, f"not now: the round is at the {_step_name(now)}")
        return sid

    def check_select(self, f: dict[str, Any], actor: str | None) -> str | Refusal:
        """The seat recording its selection count, or why not (the host may correct one)."""
        sid = self.seat_at("select", f, actor)
        if isinstance(sid, str) and sid in self.rnd(self.hand)["counts"] and actor != HOST:
            return Refusal(409, "your selection count is recorded: the host can correct it")
        return sid

    def cmd_select(self, f: dict[str, Any], actor: str | None) -> None:
        sid = sure(self.check_select(f, actor))
        counts = {**self.rnd(self.hand)["counts"], sid: f["count"]}
        self.set_rnd(counts=counts)
        self.emit("selected", seat=sid, count=f["count"],
                  words=f"{self.name(sid)} selects {_cards(f['count'])}.")
        if all(x in counts for x in self.live()):
            self.set_rnd(step="bet1")
            self.open_round_betting()

    def check_shift(self, f: dict[str, Any], actor: str | None) -> str | Refusal:
        """The seat confirming its draw at the shift, or why not."""
        sid = self.seat_at("shift", f, actor)
        if isinstance(sid, str) and sid in self.rnd(self.hand)["drawn"]:
            return Refusal(409, "you have drawn your cards")
        return sid

    def cmd_shift(self, f: dict[str, Any], actor: str | None) -> None:
        sid = sure(self.check_shift(f, actor))
        r = self.rnd(self.hand)
        n = SELECTION_MAX - r["counts"][sid]
        drawn = {**r["drawn"], sid: n}
        self.set_rnd(drawn=drawn)
        self.emit("shifted", seat=sid, drawn=n, words=f"{self.name(sid)} discards and draws {_cards(n)}.")
        if all(x in drawn for x in self.live()):
            self.set_rnd(step="bet2")
            self.open_round_betting()

    def check_improve(self, f: dict[str, Any], actor: str | None) -> str | Refusal:
        """The seat recording its improved count, or why not (never fewer than the first, C10).
        At the reveal the host may correct a seat's recorded count before the settlement (C30)."""
        correcting = actor == HOST and self.step() == "reveal"
        sid = self.seat_at("reveal" if correcting else "improve", f, actor)
        if not isinstance(sid, str) or correcting:
            return sid
        r = self.rnd(self.hand)
        if sid in r["improved"] and actor != HOST:
            return Refusal(409, "your count is recorded: the host can correct it")
        first = r["counts"][sid]
        if "count" in f and f["count"] < first:
            return Refusal(422, f"cards are added, never removed: at least {first}", "count")
        return sid

    def cmd_improve(self, f: dict[str, Any], actor: str | None) -> None:
        sid = sure(self.check_improve(f, actor))
        r = self.rnd(self.hand)
        improved = {**r["improved"], sid: f["count"]}
        self.set_rnd(improved=improved)
        if self.step() == "reveal":  # C30: the host's correction; the entered cards must match it
            self.emit("improved", seat=sid, count=f["count"], added=None,
                      words=f"The host corrects {self.name(sid)}'s selection count: {_cards(f['count'])}.")
            return
        added = f["count"] - r["counts"][sid]
        self.emit("improved", seat=sid, count=f["count"], added=added,
                  words=f"{self.name(sid)} adds {_cards(added)}: {_cards(f['count'])} selected.")
        if all(x in improved for x in self.live()):
            self.start_reveal()

    # -- betting (the runtime's block, with Coruscant's minimum bet and folding rule) ---------

    def round_order(self) -> list[str]:
        return list(self.hand["players"])

    def open_round_betting(self) -> None:
        """Open this step's betting round; skip it when fewer than two can bet (C16)."""
        h = self.hand
        step = self.rnd(h)["step"]
        self.emit("step", round=h["round"], phase=step, seat=None, do="bet")
        if not self.open_betting({"phase": "betting", "seat": None, "do": "bet", "turn_of": None}):
            self.advance()

    def advance(self) -> None:
        """A betting round is over: the shift after the first, the improve step after the second."""
        h = self.hand
        step = self.rnd(h)["step"]
        if step == "bet1":
            self.set_rnd(step="shift")
            self.emit("step", round=h["round"], phase="shift", seat=None, do="shift",
                      words="Everyone still in: discard the cards you did not select and draw as many.")
        elif step == "bet2":
            self.set_rnd(step="improve")
            self.emit("step", round=h["round"], phase="improve", seat=None, do="improve",
                      words="Everyone still in: add cards to your selection, or none.")

    def cmd_bet(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.who(f, actor)
        if f["amount"] < self.rules.min_bet and f["amount"] < self.stack(sid):
            raise Refused(422, f"the minimum bet is {self.rules.min_bet}", "amount")
        super().cmd_bet(f, actor)

    def cmd_raise(self, f: dict[str, Any], actor: str | None) -> None:
        sid = self.who(f, actor)
        b = self.betting_round()
        p = self.hand["p"].get(sid)
        if p is not None and 0 < f["to"] - b["current"] < self.rules.min_bet and f["to"] - p["bet"] < self.stack(sid):
            raise Refused(422, f"a raise adds at least {self.rules.min_bet}: raise to "
                               f"{b['current'] + self.rules.min_bet} or more", "to")
        super().cmd_raise(f, actor)

    def check_fold(self, f: dict[str, Any], actor: str | None) -> Any:
        """C15: a player folds only facing a bet they have not matched."""
        found = super().check_fold(f, actor)
        if isinstance(found, Refusal):
            return found
        sid, h, p = found
        b = h["betting"]
        if b is None or p["bet"] >= b["current"]:
            return Refusal(409, "you may fold only facing a bet you have not matched: check instead")
        return found

    def concede(self, winner: str) -> None:
        """C16: everyone else folded: the last player takes every pot without showing."""
        h = self.hand
        amount = hand_pot(h)
        self.s["seats"][winner]["stack"] += amount
        self.settled({"status": "conceded", "winner": winner, "amount": amount,
                      "payouts": {sid: amount if sid == winner else 0 for sid in h["players"]}},
                     f"{self.name(winner)} takes {amount}: everyone else folded.")

    # -- the reveal, the tie draw and the settlement ----------------------------------------

    def start_reveal(self) -> None:
        h = self.hand
        h["stage"], h["betting"] = "reveal", None
        self.emit("step", round=h["round"], phase="reveal", seat=None, do="reveal",
                  words="Everyone still in: enter your selection.")

    def recorded(self, sid: str) -> int:
        """The count the phone recorded for `sid` (the improved one, C10)."""
        r = self.rnd(self.hand)
        return int(r["improved"].get(sid, r["counts"].get(sid, 0)))

    def shown(self, but: str | None = None) -> list[str]:
        """The cards entered this round so far (reveals and tie-draw cards), `but` one seat's."""
        h: Any = self.hand
        out: list[str] = []
        for sid in h["players"]:
            p = h["p"][sid]
            if sid != but and p["cards"]:
                out += p["cards"]
            if p["demise"]:
                out.append(p["demise"])
        return out

    def check_reveal_selection(self, f: dict[str, Any], actor: str | None) -> tuple[str, list[str]] | Refusal:
        """The seat and its selection (lower case), or why it is refused (C4, C30)."""
        sid = self.seat_at("reveal", f, actor)
        if not isinstance(sid, str):
            return sid
        if self.hand["p"][sid]["cards"] is not None and actor != HOST:
            return Refusal(409, "your selection is entered: the host can correct it")
        cards = f.get("cards", [])
        cards = [cards] if isinstance(cards, str) else cards
        for k, code in enumerate(cards):
            try:
                CORUSCANT_DECK.card(code)
            except ValueError:
                return Refusal(422, f"the deck has no card {code!r}", f"cards[{k}]")
        why = reveal_refusal(cards, self.recorded(sid), self.shown(but=sid))
        if why is not None:
            return Refusal(422, why, "cards")
        return sid, [CORUSCANT_DECK.normalize(c) for c in cards]

    def cmd_reveal_selection(self, f: dict[str, Any], actor: str | None) -> None:
        sid, cards = sure(self.check_reveal_selection(f, actor))
        h = self.hand
        h["p"][sid]["cards"] = cards
        self.emit("selection_entered", seat=sid, words=f"{self.name(sid)} has entered their selection.")
        if all(h["p"][x]["cards"] is not None for x in self.live()):
            h["revealed"] = True
            self.emit("revealed", hands={x: h["p"][x]["cards"] for x in self.live()})
            self.settle()

    def check_tie_draw(self, f: dict[str, Any], actor: str | None) -> tuple[str, str] | Refusal:
        """The tied seat and the card it drew, or why not."""
        sid = self.seat_at("tie_draw", f, actor)
        if not isinstance(sid, str):
            return sid
        h: Any = self.hand
        if sid not in h["demise_players"]:
            return Refusal(409, "you are not in the tie draw")
        if h["p"][sid]["demise"] is not None and actor != HOST:
            return Refusal(409, "your tie-draw card is entered")
        card = f.get("card", "")
        card = card[0] if isinstance(card, list) else card
        if not card:  # the legal moves' read-only question: no card yet
            return sid, ""
        try:
            code = CORUSCANT_DECK.normalize(card)
        except ValueError:
            return Refusal(422, f"the deck has no card {card!r}", "card")
        others = [c for c in self.shown() if c != h["p"][sid]["demise"]] if h["p"][sid]["demise"] else self.shown()
        if others.count(code) >= CORUSCANT_DECK.cards[code].copies:
            return Refusal(422, f"{CORUSCANT_DECK.cards[code].name} is already on the table", "card")
        return sid, code

    def cmd_tie_draw(self, f: dict[str, Any], actor: str | None) -> None:
        sid, code = sure(self.check_tie_draw(f, actor))
        h: Any = self.hand
        h["p"][sid]["demise"] = code
        self.emit("tie_card", seat=sid, card=code,
                  words=f"{self.name(sid)} draws {CORUSCANT_DECK.cards[code].name}.")
        if all(h["p"][x]["demise"] is not None for x in h["demise_players"]):
            self.settle()

    def entries(self) -> list[Entry]:
        h: Any = self.hand
        return [Entry(sid, tuple(h["p"][sid]["cards"] or ()), h["p"][sid]["committed"], h["p"][sid]["folded"],
                      h["p"][sid]["demise"]) for sid in h["players"]]

    def settle(self) -> None:
        """Judge the selections against the target (C17–C23): the tie draw, or the pots paid."""
        h: Any = self.hand
        t = self.rnd(h)["target"]
        result = settle_round(self.entries(), Target(t["number"], t["suit"]))
        if result.status == TIE_DRAW:
            h["stage"] = "demise"
            h["demise_players"] = list(result.tie_draw_players)
            names = " and ".join(self.name(x) for x in result.tie_draw_players)
            self.emit("tie", players=list(result.tie_draw_players),
                      words=f"A tie: {names} each draw the top card of the draw pile face up.")
            return
        for sid, amount in result.payouts.items():
            self.s["seats"][sid]["stack"] += amount
        words = []
        for i, pot in enumerate(result.pots):
            what = "The pot" if len(result.pots) == 1 else "The main pot" if i == 0 else "A side pot"
            who = " and ".join(self.name(x) for x in pot.winners)
            verb = "goes to" if len(pot.winners) == 1 else "is split between"
            words.append(f"{what} of {pot.amount} {verb} {who}.")
        pots = [{"amount": p.amount, "eligible": list(p.eligible), "winners": list(p.winners)} for p in result.pots]
        # Why each won or lost (the result table's reason): what decided between selections
        # equally close to the target, the target suit or the tie draw.
        why = decided_by(result, self.entries(), Target(t["number"], t["suit"]),
                         {sid: self.name(sid) for sid in h["players"]},
                         [f"the {label}" for label in pot_labels(pots, self.rules.words.pot)])
        self.settled({"status": "settled", "winners": sorted({w for p in result.pots for w in p.winners},
                                                              key=h["players"].index),
                      "amount": hand_pot(h), "payouts": dict(result.payouts),
                      "pots": pots,
                      # The history page's shape (a list, by seat): total, kind, the tie-draw card,
                      # why it won or lost.
                      "hands": [{**self.hand_record(sid, result.hands.get(sid)),
                                 **({"why": why[sid]} if sid in why else {})} for sid in h["players"]],
                      "target": {k: t[k] for k in ("number", "suit")}},
                     " ".join(words))

    def hand_record(self, sid: str, judged: Any) -> dict[str, Any]:
        """One player's line of the settlement: total, distance, target-suit count, kind, and
        the tie-draw card where one was drawn."""
        p: Any = self.hand["p"][sid]
        if judged is None:
            return {"name": sid, "total": None, "kind": "folded"}
        line = {"name": sid, "total": judged.total, "distance": judged.distance,
                "suit_count": judged.suit_count, "kind": "selection"}
        if p["demise"] is not None:
            line["blind_draw"] = [p["demise"]]
        return line

    def settled(self, record: dict[str, Any], words: str) -> None:
        """Close the round: history, stacks, eliminations (C24), the next dealer (C6) and the end
        of the game (C25, C26)."""
        h, s, g = self.hand, self.s, self.game
        # `net`: each player's gain or loss, under the name the pages read (the phones' result,
        # the history, the summary: docs/games.md).
        h["settlement"] = {**record, "words": words,
                           "net": {sid: record["payouts"].get(sid, 0) - h["p"][sid]["committed"]
                                   for sid in h["players"]}}
        h["stage"], h["betting"] = "settled", None
        out = dict(g["out"])
        gone = [sid for sid in h["players"] if sid in s["seats"] and self.stack(sid) == 0]
        for sid in gone:
            out[sid] = h["round"]
        dealer = h["dealer"] or h["players"][0]
        order = s["order"]
        left = [sid for sid in order if sid in g["players"] and sid not in out]
        nxt = next_dealer(order, dealer, [sid for sid in order if sid not in left]) if left else dealer
        # Every player of the game (one who left is placed at 0, as out in the round they left).
        stacks = {sid: self.stack(sid) if sid in s["seats"] else 0 for sid in g["players"]}
        over = game_over(self.rules.end, stacks, g["dealt"], nxt)
        final = places(stacks, out) if over else None
        self.set_game(out=out, over=over, places=final)
        s["dealer"] = nxt
        seat_stacks = self.record_hand({sid: h["p"][sid]["cards"] if h["revealed"] else None
                                        for sid in h["players"]}, self.rules.title)
        self.emit("settled", payouts=record["payouts"], words=words)
        for sid in gone:
            self.emit("eliminated", seat=sid, round=h["round"], words=f"{self.name(sid)} is out of credits: out.")
        self.emit("hand_ended", hand=h["no"], stacks=seat_stacks, sabacc_pot=s["sabacc_pot"])
        if over and final is not None:
            first = [self.name(sid) for sid, place in final.items() if place == 1]
            self.emit("game_over", places=final, words=" and ".join(first) + (" win" if len(first) > 1 else " wins")
                      + " the game.")

    def end_hand(self) -> None:
        raise AssertionError("Coruscant Shift closes its rounds in `settled`")

    # -- what the table reads ---------------------------------------------------------------

    def pots_held(self) -> int:
        h = self.s["hand"]
        return 0 if h is None or h["stage"] == "settled" else hand_pot(h)

    def ante_due(self) -> int:
        """The ante of the next round (C8): what the phones say a stack must cover."""
        g = self.game
        if not g:
            return self.rules.ante
        running = self.running()
        if running is not None:
            return int(self.rnd(running)["ante"])
        return next_ante(g["ante"], len(self.players_in_game()), self.rules.ante_rise)

    def turn_words(self, viewer: str | None) -> str | None:
        h = self.s["hand"]
        if h is None or h["stage"] == "settled":
            return None
        step = self.step()
        b = h["betting"]
        if b is not None:
            who = "You" if b["to_act"] == viewer else self.name(b["to_act"])
            owed = b["current"] - h["p"][b["to_act"]]["bet"]
            return f"{who}: check or bet." if b["current"] == 0 else f"{who}: call {owed}, raise or fold."
        if step == "roll":
            return f"{'You' if viewer == h['dealer'] else self.name(h['dealer'] or '')}: roll the dice."
        waiting = self.waiting()
        if viewer in waiting:
            return f"You: {STEP_WORDS.get(step or '', 'move')}."
        return f"Waiting for {', '.join(self.name(sid) for sid in waiting)}." if waiting else None

    def waiting(self) -> list[str]:
        """The seats the round waits for at a simultaneous step."""
        h: Any = self.running()
        if h is None:
            return []
        step, r = self.step(), self.rnd(h)
        if step == "select":
            return [sid for sid in self.live() if sid not in r["counts"]]
        if step == "shift":
            return [sid for sid in self.live() if sid not in r["drawn"]]
        if step == "improve":
            return [sid for sid in self.live() if sid not in r["improved"]]
        if step == "reveal":
            return [sid for sid in self.live() if h["p"][sid]["cards"] is None]
        if step == "tie_draw":
            return [sid for sid in h["demise_players"] if h["p"][sid]["demise"] is None]
        return []

    def hand_view(self, viewer: str | None) -> dict[str, Any] | None:
        h: Any = self.s["hand"]
        if h is None:
            return None
        b, r, g = h["betting"], self.rnd(h), self.game
        step = self.step()
        ante_next = next_ante(r["ante"], len(self.players_in_game()), self.rules.ante_rise)
        return {
            "no": h["no"], "stage": h["stage"], "round": h["round"], "phase": step, "turn": None,
            "do": "bet" if b else step, "roller": h["dealer"] if step == "roll" else None,
            "to_act": b["to_act"] if b else None, "current_bet": b["current"] if b else 0,
            "owed": b["current"] - h["p"][b["to_act"]]["bet"] if b else 0,
            "call_open": False, "call_window": [], "deal": h["deal"],
            "words": self.turn_words(viewer), "called_by": None, "dealer": h["dealer"], "token": None,
            # Coruscant's own (C13): the target, the ante now and next, who the round waits for.
            "target": r["target"], "ante": r["ante"],
            "ante_next": ante_next,
            "waiting": self.waiting(), "last_roll": h["last_roll"],
            "players": [{"seat": sid, "committed": p["committed"], "bet": p["bet"], "folded": p["folded"],
                         "all_in": not p["folded"] and sid in self.s["seats"] and self.stack(sid) == 0,
                         "hand_size": 5, "static": [], "entered": p["cards"] is not None,
                         "selection": r["improved"].get(sid, r["counts"].get(sid)),
                         "drawn": r["drawn"].get(sid),
                         "cards": list(p["cards"]) if h["revealed"] and p["cards"] else None,
                         "demise": p["demise"] if h["stage"] in ("settled",) or
                         all(h["p"][x]["demise"] for x in h["demise_players"]) else None}
                        for sid, p in ((sid, h["p"][sid]) for sid in h["players"])],
            "demise_players": list(h["demise_players"]),
            "hand_pot": 0 if h["stage"] == "settled" else hand_pot(h),
            "pots": pots_of(h, {sid: seat["stack"] for sid, seat in self.s["seats"].items()}),
            "seed_commitment": h["seed_commitment"], "seed": h["seed"], "settlement": h["settlement"],
            "game": {"round": g.get("round"), "out": g.get("out", {}), "over": bool(g.get("over")),
                     "places": g.get("places")},
            # What the pages show, as facts (docs/games.md "Facts"): the target, the selections.
            "facts": {"table": coruscant_facts.table_facts(r, ante_next),
                      "seats": coruscant_facts.seat_facts(r, h["players"], g.get("out") or {})},
            # The seats out of the game (C24, C31): the seat lists mark them out.
            "out": list(g.get("out") or {}),
        }

    def private(self, sid: str, legal: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        h = self.s["hand"]
        mine = h["p"].get(sid) if h else None
        return {"seat": sid, "cards": list(mine["cards"]) if mine and mine["cards"] else None,
                "legal": self.legal(sid) if legal is None else legal}

    def host_offers(self, sid: str) -> list[dict[str, Any]]:
        """C30: at the reveal the host corrects the count recorded for a player still in, until
        the settlement (the cards entered must then match it)."""
        h = self.running()
        if h is None or self.step() != "reveal" or sid not in self.live():
            return []
        now = self.recorded(sid)
        return [_offer("improve", f"Correct the count recorded ({_cards(now)})", "quiet",
                       [{"field": "count", "kind": "choice", "words": "Cards in the selection",
                         "options": [[n, str(n)] for n in range(SELECTION_MIN, SELECTION_MAX + 1) if n != now]}])]

    def legal(self, sid: str) -> list[dict[str, Any]]:
        """Each move `sid` may make now, with its words and inputs (the pages draw them)."""
        out: list[dict[str, Any]] = []
        h = self.running()
        if h is None:
            return out
        b = h["betting"]
        if h["stage"] == "play" and b is not None and b["to_act"] == sid:
            out += self.betting_offers(sid)
        step = self.step()
        if step == "roll" and sid == h["dealer"]:
            out.append(_offer("roll", "Roll the dice", "primary"))
        elif step in ("select", "improve") and self.allowed(step, sid):
            low = self.rnd(h)["counts"].get(sid, SELECTION_MIN) if step == "improve" else SELECTION_MIN
            words = "My selection: how many cards" if step == "select" else "Add cards: my selection now"
            out.append(_offer(step, words, "primary", [{"field": "count", "kind": "choice", "words": "Cards",
                                                        "options": [[n, str(n)] for n in range(low, 6)]}]))
        elif step == "shift" and self.allowed("shift", sid):
            n = SELECTION_MAX - self.rnd(h)["counts"][sid]
            out.append(_offer("shift", f"I discarded and drew {_cards(n)}", "primary"))
        elif step == "reveal" and self.allowed("reveal", sid):
            out.append(_offer("reveal_selection", "Enter my selection", "primary",
                              [{"field": "cards", "kind": "cards", "deck": CORUSCANT_DECK.name,
                                "count": self.recorded(sid), "words": "Your selection"}]))
        elif step == "tie_draw" and self.allowed("tie_draw", sid):
            out.append(_offer("tie_draw", "Enter the card I drew", "primary",
                              [{"field": "card", "kind": "cards", "deck": CORUSCANT_DECK.name, "count": 1,
                                "words": "The card you drew"}]))
        return out

    def betting_offers(self, sid: str) -> list[dict[str, Any]]:
        """The betting moves of the seat whose move it is (C14, C15)."""
        h = self.hand
        b = h["betting"]
        assert b is not None
        p, stack, low = h["p"][sid], self.stack(sid), self.rules.min_bet
        limit = self.rules.bet_limit or stack
        out: list[dict[str, Any]] = []
        if b["current"] == 0:
            out.append(_offer("check", "Check", ""))
            hi = min(stack, limit)
            if hi >= low:
                out.append({**_offer("bet", "Bet", "primary", [{"field": "amount", "kind": "amount", "min": low,
                                                                 "max": hi, "words": "How much"}]),
                            "min": low, "max": hi})
        else:
            owed = b["current"] - p["bet"]
            if owed < stack:
                out.append({**_offer("call", f"Call {owed}", "primary"), "amount": owed})
            hi = min(b["current"] + limit, p["bet"] + stack - 1)
            if hi >= b["current"] + low:
                out.append({**_offer("raise", "Raise to", "", [{"field": "to", "kind": "amount",
                                                                 "min": b["current"] + low, "max": hi,
                                                                 "words": "Raise to"}]),
                            "min_to": b["current"] + low, "max_to": hi})
            out.append({**_offer("fold", "Fold", "danger"), "confirm": True})
        if stack and (self.rules.bet_limit is None or p["bet"] + stack - b["current"] <= self.rules.bet_limit):
            out.append({**_offer("all_in", f"All-in ({stack})", "danger"), "confirm": True})
        return out

    def allowed(self, step: str, sid: str) -> bool:
        """Whether `sid` may make `step`'s move now (the command's own check, read-only)."""
        check = {"select": self.check_select, "shift": self.check_shift, "improve": self.check_improve,
                 "reveal": self.check_reveal_selection, "tie_draw": self.check_tie_draw}[step]
        try:
            found = check({"cards": ["sylop"]} if step == "reveal" else {}, sid)
        except Refused:
            return False
        if isinstance(found, Refusal):
            # The reveal's check also judges the cards; a seat that may enter some is offered it.
            return step == "reveal" and found.status == 422
        return True

    def host_legal(self) -> list[str]:
        out = ["start_hand"] if self.allows("start_hand", {}, HOST) else []
        if self.step() == "roll":
            out.append("roll")
        if self.allows("end_session", {}, HOST):
            out.append("end_session")
        return out


def _offer(typ: str, words: str, style: str, inputs: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"type": typ, "words": words, "style": style, "confirm": False, "inputs": inputs or []}


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _step_name(step: str | None) -> str:
    return {"roll": "roll", "select": "selection", "bet1": "first betting round", "shift": "shift",
            "bet2": "second betting round", "improve": "improve step", "reveal": "reveal",
            "tie_draw": "tie draw", None: "end"}.get(step, str(step))
