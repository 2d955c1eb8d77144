"""The user-facing rules, in plain words, generated from a `RuleSet` value.

Every ruling of RULES.md that a player could argue about is stated here. The parts that
differ between rule sets are written from the rule set's fields, so a changed option changes
the text; nothing here tests a preset's name. The rules page and a live table's own rules
page both render `explain(ruleset)`::

    >>> from companion.games.classic.presets import PRESETS, rules_from
    >>> [s.key for s in explain(PRESETS["weg"])][:4]
    ['deck', 'hands', 'ranking', 'money']
    >>> section(explain(PRESETS["weg"]), "money").text().count("3 credits") > 0
    True
    >>> "10 credits" in section(explain(rules_from({"preset": "weg", "bet_limit": 10})), "money").text()
    True
"""

from __future__ import annotations

from companion.games.api import Section, credits, section
from companion.games.classic.cards import CARDS, SUITS, deck_count
from companion.games.classic.options import RANKING_WORDS, AfterCall, Ranking, StaticField
from companion.rules.rulesets import (
    DEFAULT_FACE,
    HAND_POT,
    PHASES,
    AnteRule,
    OrderOfPlay,
    RuleSet,
    ShiftKind,
    Trigger,
    Who,
)


def _join(words: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


# Plain words for each value of the rule set's enums: the one place the page's wording of an
# option lives, so tests and the host's preset picker can reuse it.
TRIGGER_WORDS = {
    Trigger.TWO_D6_DOUBLES: "two six-sided dice; any double causes a shift (1 roll in 6)",
    Trigger.TWO_D6_ONE_FACE: "two six-sided dice; only the double of the spike face causes a shift "
    "(1 roll in 36)",  # which face: _trigger_face
    Trigger.D6_HIGH: "one six-sided die; a 4, 5 or 6 causes a shift (half of all rolls)",
    Trigger.D6_LOW: "one six-sided die; a 1, 2 or 3 causes a shift (half of all rolls)",
    Trigger.D10: "one ten-sided die; one chosen face causes a shift (1 roll in 10)",
    Trigger.D12: "one twelve-sided die; one chosen face causes a shift (1 roll in 12)",
    Trigger.D20: "one twenty-sided die; one chosen face causes a shift (1 roll in 20)",
    Trigger.TIMER: "a random timer (the randomiser) that fires a shift at random moments",
}

SHIFT_WORDS = {
    ShiftKind.CORE: "core shift: every player discards every card that is not in their static "
    "field; the dealer shuffles the discards into the deck and deals each player the same "
    "number back",
    ShiftKind.RIM: "rim shift: each player discards one card, picked at random by the nearest "
    "player to their right who is still in the hand; the dealer gathers and shuffles those cards "
    "and deals one back to each player",
    ShiftKind.WILD: "wild shift: every player discards every card that is not in their static "
    "field; the dealer shuffles everything that is not in a static field, the junk pile "
    "included, and deals each player the same number back",
}

STATIC_FIELD_WORDS = {
    StaticField.NONE: "There is no static field in this rule set: every card in your hand can "
    "be changed by a shift.",
    StaticField.FREE: "At any time during play, in your turn or out of it, until the hand is "
    "called, you may add cards to your static field or take them back, as many as you like.",
    StaticField.ONE_CHANGE_PER_TURN: "Each turn you may change your static field by one card: "
    "add one, or take one back. You may do it in your own turn, also after your draw (so you can "
    "lock the card you just drew), until the next player acts or the dice phase begins.",
    StaticField.ONE_IN_ONE_OUT_PLAY_ROUND: "In the play round only, you may add one card to "
    "your static field and take one back each round, in your own turn, also after your draw, "
    "until your roll.",
}


def _deck() -> Section:
    suits = ", ".join(s.name for s in SUITS)
    faces = [c for c in CARDS.values() if c.is_face]
    face_list = ", ".join(f"{c.name} {c.value}" for c in faces)
    tarot_suits = ", ".join(f"{s.name} = {s.tarot}" for s in SUITS)
    tarot_faces = ", ".join(f"{c.name} = {c.tarot}" for c in faces)
    return Section(
        "deck",
        "The deck",
        (
            f"76 cards. Four suits ({suits}), each with one copy of 1 to 11, Commander 12, "
            "Mistress 13, Master 14 and Ace 15: 60 cards. Eight face cards, two copies of each "
            f"(16 cards): {face_list}.",
            "No set of cards can hold more copies of a card than the deck has: two 7s of "
            "Sabers, or three Idiots, at one table means a card was misread.",
            "Playing with two tarot decks: "
            f"{tarot_suits}; 11 = Page, 12 = Knight, 13 = Queen, 14 = King, 15 = Ace; "
            f"{tarot_faces}. The tarot names are a display option only.",
        ),
    )


def _pure_words(rs: RuleSet) -> str:
    if rs.game_options.negative_pure:
        return "a total of exactly 23 or exactly -23"
    return "a total of exactly +23 (a total of -23 is an ordinary hand)"


def _hands(rs: RuleSet) -> Section:
    if rs.game_options.corellia_run:
        return Section(
            "hands",
            "Hands (Corellia Run)",
            (
                "Corellia Run is in play: the face cards other than the Idiot are set aside "
                f"before the deal, so the deck holds {deck_count(corellia_run=True)} cards. A "
                "set-aside card is refused wherever a card is entered: the static field, the "
                "reveal and the sudden demise. Sabers and Staves count negative, Coins and "
                "Flasks positive.",
                "Idiot's Array (the Idiot, a 2 and a 3 of any suits) still exists and beats "
                "everything.",
                "The target is 0. A total of exactly 0 is Sabacc and wins both pots. Otherwise "
                "the total closest to 0 wins, and at equal distance the positive total wins. "
                "A total further than 23 from zero bombs out.",
            ),
            varies=True,
        )
    points = [
        "Your total is the sum of your card values, static field included.",
        "Idiot's Array: exactly three cards, the Idiot, a 2 of any suit and a 3 of any suit. "
        "It beats every other hand.",
        f"Pure Sabacc: {_pure_words(rs)}. It beats every ordinary hand.",
    ]
    if rs.game_options.fairy_empress:
        points.append(
            "Fairy Empress: exactly two cards, both Queens of Air and Darkness (total -4). It "
            "beats every ordinary hand of 22 or less either side of zero, loses to Pure Sabacc "
            "and to the Idiot's Array, and never wins the sabacc pot."
        )
        if not rs.game_options.negative_pure and not rs.game_options.force_sabacc and not rs.game_options.corellia_run:
            # The engine's ruling where RULES.md is silent (companion.rules.hands).
            points.append(
                "Here -23 is not Pure Sabacc. "
                + (
                    "Under this ranking -23 is the weakest hand, so the Fairy Empress beats it."
                    if rs.game_options.ranking is Ranking.HIGHEST
                    else "An ordinary -23 is 23 from zero, so it beats the Fairy Empress."
                )
            )
    else:
        points.append(
            "There is no Fairy Empress in this rule set; two Queens of Air and Darkness are an "
            "ordinary -4."
        )
    exceptions = "an Idiot's Array" + (" or a Fairy Empress" if rs.game_options.fairy_empress else "")
    points.append(
        f"Bomb out: a total over 23, under -23, or exactly 0, unless the hand is {exceptions}."
    )
    paragraphs: list[str] = []
    if rs.game_options.force_sabacc:
        paragraphs.append(
            "Force Sabacc is in play: at the start of the game each player declares Light (aims "
            "for +23) or Dark (aims for -23). Sabers and Coins count positive, Flasks and Staves "
            "negative; face cards count negative for Light players and positive for Dark players. "
            "A Dark player's hand is judged as if its total were turned round (-23 counts as 23), "
            "so each side's Pure Sabacc is its own 23 and a hand on the wrong side of zero is weak."
        )
        paragraphs.append(
            "Each player declares their side once, when they first sit down, before their first "
            "hand of the session; it cannot change afterwards (the host may correct it before "
            "that first hand)."
        )
    return Section("hands", "Hands", tuple(paragraphs), tuple(points), varies=True)


def _ranking(rs: RuleSet) -> Section:
    if rs.game_options.corellia_run:
        return Section(
            "ranking",
            "Which hand wins",
            (
                "Idiot's Array beats everything, then Sabacc (exactly 0), then the total "
                "closest to 0; at equal distance the positive total wins.",
            ),
            varies=True,
        )
    ranking = Ranking.HIGHEST if rs.game_options.force_sabacc else rs.game_options.ranking
    order = ["Idiot's Array", "Pure Sabacc"]
    if rs.game_options.fairy_empress:
        order.append("Fairy Empress")
    order.append("ordinary hands")
    paragraphs = [
        "From best to worst: " + ", then ".join(order) + ". A hand that bombed out never wins.",
        "Ordinary hands: " + RANKING_WORDS[ranking] + ".",
    ]
    if rs.game_options.force_sabacc:
        paragraphs.append(
            "With Force Sabacc, hands are compared on their judged totals (a Dark player's "
            "turned round) and the higher judged total wins, whatever the usual ranking."
        )
    if rs.game_options.negative_pure and not rs.game_options.force_sabacc:
        if ranking is Ranking.HIGHEST:
            paragraphs.append(
                "+23 and -23 are both Pure Sabacc and rank equal: a +23 against a -23 is a tie, "
                "settled by sudden demise."
            )
        elif ranking is Ranking.CLOSEST_POSITIVE:
            paragraphs.append("+23 and -23 are both Pure Sabacc; +23 beats -23.")
        else:
            paragraphs.append("+23 and -23 are both Pure Sabacc; -23 beats +23.")
    paragraphs.append("Equal best hands go to a sudden demise (see Settling).")
    return Section("ranking", "Which hand wins", tuple(paragraphs), varies=True)


def _money(rs: RuleSet) -> Section:
    if rs.ante_rule is AnteRule.BOTH_POTS:
        ante = (
            f"Ante: at the start of each hand every player puts {credits(rs.ante)} into the hand "
            f"pot and {credits(rs.ante)} into the sabacc pot."
        )
    else:
        ante = (
            f"Ante: at the start of each hand every player puts {credits(rs.ante)} into the hand "
            f"pot; only while the sabacc pot is empty does each player also put "
            f"{credits(rs.ante)} into the sabacc pot."
        )
    if rs.bet_limit is None:
        limit = "Bets and raises: no limit."
    else:
        limit = f"Bets and raises: one bet or raise may add at most {credits(rs.bet_limit)}."
    if rs.buy_in:
        chips = " + ".join(f"{c.per_buy_in} × {c.value} ({c.name})" for c in rs.chip_set)
        worth = sum(c.per_buy_in * c.value for c in rs.chip_set)
        buy_in = f"Buy-in: {credits(rs.buy_in)} each, as chips: {chips} = {worth}."
    else:
        chips = ", ".join(f"{c.name} {c.value}" for c in rs.chip_set)
        buy_in = f"Buy-in: free; players bring what they like. Suggested chips: {chips}."
    return Section(
        "money",
        "Ante, bets and folding",
        (ante, limit, buy_in),
        (
            f"Fold: your cards go to the junk pile, you pay the fold fee of {credits(rs.fold_fee)} "
            "to the sabacc pot, and you cannot win any pot this hand. What you already put in "
            "stays in.",
            _when_to_fold(rs),
            "If you cannot match a bet you may go all-in with what you have: you can then win "
            "only the part of the pot you matched (a side pot), or you may fold.",
        ),
        varies=True,
    )


def _when_to_fold(rs: RuleSet) -> str:
    """The folding ruling: when a player may fold, and who may not."""
    if rs.game_options.fold_until_roll:
        when = ("You may fold during the bet phase of any turn, also after the turn player's "
                "check ended the betting, until that turn's roll.")
    else:
        when = "You may fold while a betting round is open."
    return (when + " A player who is all-in has nothing to fold for and cannot fold, whether "
            "the button is offered or the command is sent by hand. The caller cannot fold after "
            "calling the hand.")


def _order(rs: RuleSet) -> Section:
    phases = [pr.words for pr in rs.turn_phases]
    if rs.order_of_play is OrderOfPlay.TURNS:
        text = (
            "Play goes round the table in turns. On your turn, in this order: "
            + ", ".join(phases)
            + "."
        )
    elif rs.order_of_play is OrderOfPlay.PHASES:
        text = (
            "Each round has phases, in this order: "
            + ", ".join(f"{p} phase" for p in phases)
            + ". Everyone bets in the betting phase, each player in turn trades in the trade "
            "phase, and the dealer rolls the scrambler in the dice phase."
        )
    else:
        text = (
            "Each round has a play round and a betting round, in this order: "
            + ", ".join(f"{p} round" for p in phases)
            + ". In the play round each player draws, then rolls the scrambler."
        )
    unit = {OrderOfPlay.TURNS: "turn", OrderOfPlay.PHASES: "phase"}.get(rs.order_of_play, "round")
    for phase in rs.dealer_rolls_after:
        text += f" At the end of each {PHASES[phase].words} {unit} the dealer rolls the scrambler."
    if rs.order_of_play is OrderOfPlay.TURNS:
        text += (" A turn player who folded in their own turn still rolls the scrambler, but "
                 "draws no more.")
    deal = f"At the start of a hand the dealer deals each player {rs.deal_size} cards."
    if rs.starter_rotates_each_round:
        deal += (" The player at the dealer's left starts the first round; the starting player "
                 "moves one seat to the left each round.")
    else:
        deal += " The player at the dealer's left starts every round."
    draws = {pr.phase for pr in rs.turn_phases if "draw" in pr.does}
    if draws:
        deal += (" To draw, you gain (take one more card), trade (discard one card and take "
                 "one) or stand (keep your hand). Trading keeps your count and gaining adds "
                 "one, so a hand always has at least two cards.")
    opens = (
        "Only the player whose turn it is may open the betting; the others may call or raise."
        if rs.game_options.only_turn_player_opens
        else "Any player may open the betting when it comes to them."
    )
    extra = (
        "House dealer: the dealer stays the same all game; a token moves one seat left each "
        "hand to show who is dealt first."
        if rs.house_dealer
        else "The deal moves one seat to the left after each hand."
    )
    return Section("order", "Order of play", (deal, text, opens, extra), varies=True)


def _shift(rs: RuleSet) -> Section:
    trigger = TRIGGER_WORDS[rs.scrambler_trigger]
    face = rs.trigger_face or DEFAULT_FACE.get(rs.scrambler_trigger)
    if rs.scrambler_trigger is Trigger.TWO_D6_ONE_FACE:
        trigger += (f"; the spike is the face {face}, so only a double {face} shifts"
                    + ("" if rs.trigger_face else " (the face marked as the spike)"))
    elif face is not None:
        trigger += (f"; the shifting face is {face}" if rs.trigger_face else
                    f"; the shifting face is the die's highest, the {face}, unless the table "
                    "chooses another")
        if rs.trigger_face:
            trigger += f" (the {face})"
    if rs.scrambler_trigger is Trigger.TIMER:
        trigger += (
            f"; on average every {rs.timer_mean_s:g} seconds, never sooner than "
            f"{rs.timer_min_s:g} or later than {rs.timer_max_s:g}"
        )
    if rs.shift_kind is ShiftKind.BY_SYMBOL:
        kind = (
            "The kind of shift is picked by the doubled die face: 1 or 2 a "
            + SHIFT_WORDS[ShiftKind.CORE]
            + "; 3 or 4 a "
            + SHIFT_WORDS[ShiftKind.RIM]
            + "; 5 or 6 a "
            + SHIFT_WORDS[ShiftKind.WILD]
            + "."
        )
    else:
        kind = "Every shift is a " + SHIFT_WORDS[rs.shift_kind] + "."
    return Section(
        "shift",
        "The scrambler and shifts",
        (
            f"The scrambler replaces the dice: {trigger}.",
            kind,
            (
                "Cards in a static field are protected from a shift. "
                if rs.game_options.static_field is not StaticField.NONE
                else ""
            )
            + "After a shift every player holds exactly as many cards as before.",
        ),
        varies=True,
    )


def _static_field(rs: RuleSet) -> Section:
    paragraphs = [STATIC_FIELD_WORDS[rs.game_options.static_field]]
    if rs.game_options.static_field is not StaticField.NONE:
        paragraphs.insert(
            0,
            "Your static field is the cards you lay face up in front of you. Everyone can see "
            "them, a shift cannot touch them, and they count in your hand at the reveal.",
        )
    if rs.game_options.holdem:
        paragraphs.append(
            "Hold 'Em is in play: every card in any static field is a community card. At the "
            "reveal your hand is the best hand made of all your own cards plus any of the "
            "community cards you like. If every such hand bombs out, your hand bombs out with the "
            "total of your own cards."
        )
    return Section("static-field", "The static field", tuple(paragraphs), varies=True)


def _calling(rs: RuleSet) -> Section:
    c = rs.game_options.calling
    phase = PHASES[c.phase]
    who = (
        "a player other than the one whose turn it is"
        if c.not_by_turn_player
        else "the player whose move it is, on their own move"
    )
    where = f"in the {rs.phase_name(c.phase)}" + (
        " of a turn" if rs.order_of_play is OrderOfPlay.TURNS else "")
    if c.not_by_turn_player:
        window = ("The call window stays open until the turn player draws (or stands): the draw "
                  "itself closes it, with no separate \"nobody calls\" tap. A turn player who "
                  "folded in their own turn still rolls; their call window then closes as soon "
                  "as the next player acts (or on a tap from them or the host): it never holds "
                  "up the next turn. So while it is open, the next player is already offered the "
                  "moves of their own turn (their bet or check, or their roll): making one closes "
                  "the window first, as a \"nobody calls\" would. Any other player still in the "
                  "hand may call while it is open.")
    elif phase.by is Who.TABLE:
        window = (f"When fewer than two players can still bet, the {phase.words} round of a "
                  "round where a call is allowed is a call window open to every player still "
                  "in the hand, all-in players included; it closes when each has passed or one "
                  "has called.")
    else:
        window = ""
    if c.rounds_before_call == 0:
        when = "at any time from the start of the hand"
    elif c.rounds_before_call == 1:
        when = "once every player, dealer included, has had a turn (one full round)"
    else:
        when = (
            f"once {c.rounds_before_call} full rounds have been played "
            f"(so from round {c.rounds_before_call + 1} on)"
        )
    steps = []
    for step in c.after_call:
        if step is AfterCall.FINISH_PHASE:
            steps.append("the other players finish the current "
                         + ("phase" if rs.order_of_play is OrderOfPlay.PHASES else "round"))
        elif step is AfterCall.ROLL:
            steps.append("the scrambler is rolled once more")
        else:
            steps.append("then every hand still in is revealed")
    after = _join(steps) if len(steps) > 1 else "every hand still in is revealed at once"
    return Section(
        "calling",
        "Calling the hand",
        (
            f"A hand may be called by {who}, {where}, {when}. After the call, {after}.",
            *([window] if window else []),
            *(["Where betting goes on after the call, the caller checks, calls, raises or goes "
               "all-in like anyone else (the caller cannot fold)."]
              if "bet" in phase.does and AfterCall.FINISH_PHASE in c.after_call else []),
            "The caller takes a risk: if the caller wins no share of a contested pot, the caller "
            "pays a penalty (see Penalties).",
        ),
        varies=True,
    )


def _settling() -> Section:
    return Section(
        "settling",
        "Settling a called hand",
        (
            "The companion settles a hand in this order. Every credit is accounted for: what "
            "players receive plus the sabacc pot afterwards equals what they put in plus the "
            "sabacc pot before plus the penalties.",
        ),
        (
            "Pots are built from what each player put in this hand (ante and bets), as in "
            "poker: each level of commitment makes a pot that only players who put in at least "
            "that much and did not fold can win. A pot that only one player can win goes back "
            "to that player. The hand pot, as the penalty rule means it, is the total of the "
            "pots that were contested.",
            "If everyone else folded, the last player takes every pot, shows nothing, pays "
            "nothing, and cannot win the sabacc pot.",
            "Each pot goes to the best hand among the players who can win it, leaving out "
            "hands that bombed out. A pot nobody can win moves to the sabacc pot.",
            "The sabacc pot (below).",
            "Penalties (below), paid after all the pots are awarded.",
        ),
        ordered=True,
    )


def _sudden_demise() -> Section:
    return Section(
        "sudden-demise",
        "Ties: sudden demise and splits",
        (
            "When the best hands for a pot are equal, the dealer deals each tied player one more "
            "card, which is added to their hand. The best hand after that wins.",
        ),
        (
            "A player who bombs out in a sudden demise drops out of it and pays no bomb-out "
            "penalty for it.",
            "If the hands are still equal, those players split the pot. Credits that do not "
            "divide evenly go one at a time to the tied players in seat order, starting from "
            "the dealer's left.",
            "If every player in the sudden demise bombs out, the pot goes to the best hand among "
            "the pot's other players that did not bomb out (split if they tie). There is never a "
            "second sudden demise.",
        ),
        in_summary=False,  # a long ruling: the one-page summary leaves it to the rules page
    )


def _sabacc_pot(rs: RuleSet) -> Section:
    specials = "an Idiot's Array or a Pure Sabacc"
    if rs.game_options.corellia_run:
        specials = "an Idiot's Array or a Sabacc (exactly 0)"
    points = [
        f"It is won, all of it, only by the player who wins the hand with {specials}; the "
        "best such hand on the table takes it.",
        "It is never divided between side pots.",
        "If two such hands tie, the sudden demise decides both pots: its winner takes the "
        "sabacc pot too; players still tied after it split the sabacc pot (odd credits as "
        "above); if none of them survives the sudden demise, nobody wins the sabacc pot.",
    ]
    if rs.game_options.fairy_empress:
        points.append("A Fairy Empress never wins the sabacc pot.")
    points.append(
        "Penalties, fold fees and pots nobody could win go into the sabacc pot and build it "
        "for the hands to come."
    )
    return Section(
        "sabacc-pot",
        "The sabacc pot",
        ("The sabacc pot carries over from hand to hand.",),
        tuple(points),
        varies=True,
    )


def _session_end() -> Section:
    return Section(
        "session-end",
        "The end of the session",
        ("When the host ends the session, every player's standing is final: their stack, what "
         "they bought in and cashed out, and the net for the evening.",),
        ("A sabacc pot nobody won is split equally among the players still seated, odd credits "
         "one each from the dealer's left; the host may instead carry it to the table's next "
         "session, where it opens the sabacc pot.",
         "Fold fees and penalties are never left unowned.",),
    )


def _penalties(rs: RuleSet) -> Section:
    if rs.game_options.bomb_out_penalty == HAND_POT:
        amount = "The penalty is the size of the hand pot (the contested pots)."
    else:
        amount = (
            f"The penalty is a fixed {credits(int(rs.game_options.bomb_out_penalty))}, agreed before play."
        )
    return Section(
        "penalties",
        "Penalties",
        (
            "After the pots are awarded, every player who bombed out at the reveal pays a "
            "penalty into the sabacc pot, and so does the caller if the caller wins no share "
            "of a contested pot.",
            amount,
        ),
        (
            "Nobody pays more than one penalty.",
            "Nobody pays more than they have: the penalty is capped at the player's stack plus "
            "what they receive in this settlement. What the cap saves them is shown as a "
            "shortfall.",
            "A penalty of 0 credits is not listed; one the cap reduces to 0 is listed with its "
            "shortfall.",
        ),
        varies=True,
    )


def _everyone_bombs(rs: RuleSet) -> Section:
    pays = (
        "each the size of the hand pot as it stood at the reveal"
        if rs.game_options.bomb_out_penalty == HAND_POT
        else f"each the fixed {credits(int(rs.game_options.bomb_out_penalty))}"
    )
    return Section(
        "everyone-bombs-out",
        "When everyone bombs out",
        (
            "Nobody wins the hand: the hand pot moves to the sabacc pot, and every player still "
            f"pays their penalty, {pays}.",
        ),
        varies=True,
        in_summary=False,  # a corner case: the one-page summary leaves it to the rules page
    )


def _variants(rs: RuleSet) -> Section:
    on = []
    if rs.game_options.holdem:
        on.append("Hold 'Em")
    if rs.game_options.force_sabacc:
        on.append("Force Sabacc")
    if rs.game_options.corellia_run:
        on.append("Corellia Run")
    if rs.house_dealer:
        on.append("house dealer")
    if rs.game_options.bomb_out_penalty != HAND_POT:
        on.append("fixed bomb-out penalty")
    paragraphs = [
        ("Variants in play at this table: " + _join(on) + ".")
        if on
        else "No variants are in play: the rule set as described above."
    ]
    if rs.overrides:
        paragraphs.append(
            "Options changed from the preset: " + ", ".join(o.replace("_", " ") for o in rs.overrides) + "."
        )
    paragraphs.append(
        "The Plutt (the host, in the companion) rules on house rules and sets the credit value "
        "of anything other than credits put into a pot."
    )
    limit = (f" (one bet or raise adds at most {credits(rs.bet_limit)})" if rs.bet_limit is not None
             else "")
    paragraphs.append(
        "Such a stake counts toward the player's bet in the current betting round: it is a bet, "
        "call or raise of its value, made in the player's own turn to bet. The bet limit"
        f"{limit} and the order of betting apply to it exactly as to credits; a stake that "
        "would break them is refused, and the host is told why."
    )
    return Section("variants", "Variants and the Plutt", tuple(paragraphs), varies=True)


def _corners(rs: RuleSet) -> Section:
    """The settlement engine's rulings where RULES.md leaves a corner open (companion.games.classic.settle)."""
    points = [
        "A level of betting that only players who later folded reached is a pot nobody can win: "
        "it goes to the sabacc pot (unless everyone else folded: then the last player takes it "
        "with the rest).",
        "A pot only one player can win goes back to that player even if they bombed out, and "
        "even when everyone bombs out.",
        "A pot that moves to the sabacc pot while a hand is settled is part of the sabacc pot "
        "the winner of this hand can take.",
        "The sabacc pot goes to the best hand on the table (everyone who neither folded nor "
        "bombed out) when that hand is a special hand, even if a side pot goes to someone else.",
        "A player still in the hand who put nothing in plays for the empty main pot (the level "
        "of 0 credits), and can still take the sabacc pot with a special hand.",
        "In a sudden demise each pot's tie is decided among that pot's tied players. A player "
        "tied for more than one pot is dealt one card, used for each. The card counts in full: "
        "it can make an Idiot's Array or a Pure Sabacc, or a bomb out.",
        "The caller pays the penalty whenever they win no share of a contested pot, even in a "
        "hand where no pot was contested"
        + (
            f" (then it costs them the fixed {credits(int(rs.game_options.bomb_out_penalty))})."
            if rs.game_options.bomb_out_penalty != HAND_POT
            else "."
        ),
        "A player who folded pays no penalty at the reveal (they paid the fold fee), cannot be "
        "the caller and takes no part in a sudden demise. A hand shown at the reveal has at "
        "least two cards.",
    ]
    if rs.game_options.holdem:
        points.append(
            "Hold 'Em: the community cards are the static fields of the players still in the "
            "hand; a folded player's static field went to the junk pile."
        )
    return Section(
        "corners",
        "Corner cases",
        ("Where the printed rules leave a corner open, the companion rules:",),
        tuple(points),
        varies=rs.game_options.holdem or rs.game_options.bomb_out_penalty != HAND_POT,
    )


def _corrections() -> Section:
    """Undo and the verifiable dice (the third-round ruling)."""
    return Section(
        "corrections",
        "Corrections: undo and the dice",
        (
            "The host can undo a mistaken entry of the hand being played; the table is worked "
            "out again without it.",
        ),
        (
            "Once a hand's seed is revealed, after the hand, everyone knows its rolls: that "
            "hand's play can no longer be undone, and corrections after that are adjustments "
            "of a stack, made in words by the host.",
            "Before the reveal, a roll that is undone comes back identical when the dice are "
            "rolled again: the n-th roll of a hand that stands is always the seed's n-th roll, "
            "so every finished hand can be verified.",
            "An undo never depends on a card that is still hidden: while a hand or a demise "
            "card entered later is not yet face up, undo that entry first.",
        ),
    )


def _rulings() -> Section:
    return Section(
        "rulings",
        "Where the source texts disagree",
        ("The printed rules this companion follows disagree in places. Its rulings:",),
        (
            "The Holodex starting chips do not add up for the 500-credit buy-in. The companion "
            "uses 20 × 5 + 4 × 50 + 2 × 100 = 500 for a lay game and 20 × 10 + 8 × 50 + "
            "4 × 100 = 1000 for a tournament; the chip set can be changed.",
            "The Holodex says both one and two rounds must be played before Alderaan can be "
            "called: the companion uses two.",
            "The 78-card deck in the Classic Sabacc introduction is a proposal, not a rule: "
            "the deck is always 76 cards.",
        ),
    )


def explain(rs: RuleSet) -> list[Section]:
    """The whole rules page for `rs`, section by section, in reading order."""
    return [
        _deck(),
        _hands(rs),
        _ranking(rs),
        _money(rs),
        _order(rs),
        _shift(rs),
        _static_field(rs),
        _calling(rs),
        _settling(),
        _sudden_demise(),
        _sabacc_pot(rs),
        _session_end(),
        _penalties(rs),
        _everyone_bombs(rs),
        _corners(rs),
        _variants(rs),
        _corrections(),
        _rulings(),
    ]
