"""Corellian Spike's rules page, in plain words, written from the rule set's values.

The deck, the named hands, the turn actions and their fees, the rounds and the options are
read from the `RuleSet` (its `deck`, `hands`, `actions`, `ending` and Spike's options), so a
changed option changes the text::

    >>> from companion.games.api import section
    >>> from companion.games.spike.presets import PRESETS, rules_from
    >>> [s.key for s in explain(PRESETS["spike"])][:3]
    ['deck', 'hands', 'game']
    >>> [p.split(":")[0] for p in section(explain(PRESETS["spike-book"]), "hands").points][2:4]
    ['Fleet', 'Yee-Haa']
    >>> "3 credits" in section(explain(rules_from({"preset": "spike", "fee_swap": 3})), "turn").text()
    True
"""

from __future__ import annotations

from companion.games.api import Section, credits
from companion.games.spike.hands import KINDS, STAVES, SYLOP
from companion.rules.rulesets import RuleSet


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _deck(rs: RuleSet) -> Section:
    d = rs.deck
    copies = d.cards["+1"].copies
    return Section("deck", "The deck", (
        f"{d.size()} cards: +1 to +10 and \u22121 to \u221210, {copies} of each value (one in each "
        f"stave: {_join(list(STAVES))}; the staves never matter), and {d.cards[SYLOP].copies} sylops "
        "worth 0. Values 7 to 10 are picture cards with no printed number: the card picker shows "
        "the value, large and signed.",
        f"A hand always holds {d.hand_min} to {d.hand_max} cards. Two spike dice, six symbols each: "
        "matching symbols (1 roll in 6) cause a Sabacc Shift.",
    ))


def _hands(rs: RuleSet) -> Section:
    kinds = [k for k in KINDS if rs.game_options.prime_sabacc or k.kind != "prime_sabacc"]
    points = tuple(f"{k.words}: {k.pattern}" + ("" if k.better == "—" else f"; better is {k.better}.")
                   for k in kinds)
    paragraphs = [
        "The total is the sum of the values. A Sabacc is any hand totalling 0; a Nulrhek any "
        "other. Every Sabacc beats every Nulrhek. Pairs and sets compare absolute values (+5 and "
        "\u22125 are a pair); a Rhylet alone is defined by signs. Sylops never pair with anything, "
        "except the two of a Pure Sabacc. Named hands have exactly their pattern's cards.",
        "Best first:",
    ]
    if not rs.game_options.prime_sabacc:
        paragraphs.append("This table plays no Prime Sabacc: a sylop, +10 and \u221210 is a Yee-Haa of tens.")
    after = ("After a kind's own comparison (and for a plain Sabacc, alone) the general chain: "
             "more cards; then the higher total of the positive cards; then the higher single "
             "positive card. Two hands still equal are a true tie: a blind draw.")
    return Section("hands", "Hands", (*paragraphs, after), points, varies=True, ordered=True)


def _game(rs: RuleSet) -> Section:
    phases = {"turn-bet-spike": "turn phase, betting phase, spike dice phase",
              "turn-spike-bet": "turn phase, spike dice phase, betting phase (you bet on the hand you will reveal)"}
    dealer = "after each game" if rs.game_options.dealer_rotates == "game" else "after each round"
    return Section("game", "A game", (), (
        f"Ante, once a game: {credits(rs.ante)} into the game pot and {credits(rs.game_options.ante_sabacc)} into "
        "the sabacc pot. A player who cannot pay sits this game out.",
        "Deal: from the dealer's left, two cards face down each; the top card of the rest starts "
        "the face-up discard pile. Its top card is shown on every screen.",
        f"{rs.ending.rounds} rounds, each: {phases.get(rs.game_options.phase_order, rs.game_options.phase_order)}. The player "
        "on the dealer's left starts every phase.",
        f"The reveal after round {rs.ending.rounds}'s last phase, from the dealer's left. The best hand wins.",
        f"The dealer passes to the left {dealer}.",
    ), varies=True, ordered=True)


def _turn(rs: RuleSet) -> Section:
    points = []
    for a in rs.actions:
        fee = rs.option(a.fee) if a.fee else 0
        cost = f" Fee: {credits(fee)} into the game pot." if fee else ""
        points.append(f"{a.button}.{cost}")
    penalty = (f" Junking costs {credits(rs.fold_fee)} into the game pot." if rs.fold_fee else "")
    return Section("turn", "Turn phase: one action each", (
        "Every discard puts a new card face up on top of the discard pile (its value is entered: "
        "it is public; a junk lays the whole hand on it, and whichever card lies on top is entered "
        "too). A hand of 5 cannot keep a gained card, and no action shrinks a hand below "
        "2. A player who cannot pay a fee has only the free actions. When the draw pile runs out, "
        "the discard pile but its top card is shuffled into a new draw pile." + penalty,
    ), tuple(points), varies=True)


def _betting(rs: RuleSet) -> Section:
    limit = f" No bet or raise may add more than {credits(rs.bet_limit)}." if rs.bet_limit else ""
    return Section("betting", "Betting phase", (
        "Check (only while nobody has bet), bet, call, raise, all-in, junk. The phase ends when "
        "every player still in has matched the highest bet, is all-in, or has junked. A player "
        "may not raise their own raise, and the opener who bet may not raise again unless "
        "someone else raised. A player who cannot call goes all-in or junks." + limit,
        "All-in players make side pots of the game pot, from what each put in; a level only "
        "junked players reached goes to the sabacc pot. If everyone else junks, the last player "
        "wins at once.",
    ), varies=bool(rs.bet_limit))


def _dice(rs: RuleSet) -> Section:
    return Section("dice", "Spike dice phase", (
        "The dealer rolls the spike dice (the scrambler: its button, the USB box or the on-screen "
        "roller; every screen shows both symbols, and the hand's committed seed covers the "
        "rolls). Matching symbols: a Sabacc Shift. Every player still in discards all their "
        "cards face up and the dealer deals each the same number, one player at a time from the "
        "dealer's left, then turns up the next card as the new top of the discard pile. Junked "
        "players are not dealt.",
    ))


def _settling(rs: RuleSet) -> Section:
    return Section("settling", "The reveal and the pots", (), (
        "The game pot (antes, bets, fees, junk penalties) goes to the best hand; each side pot to "
        "the best hand that may win it. There are no penalties for losing hands.",
        "A tie is a blind draw: each tied player takes one card from the draw pile; closest to 0 "
        "wins (a sylop beats everything), a positive card beats its negative; players still tied "
        "draw again. The drawn cards go on the discard pile.",
        "The sabacc pot goes, whole, to the winner of the showdown (the best hand of everyone "
        "still in, all-in players included) when that hand totals 0, also when a blind draw "
        "decided it. Otherwise it carries over to the next game.",
        "The last player left after everyone else junked takes the game pot without showing. They "
        "may show a hand totalling 0 to take the sabacc pot too; if they do not, it carries over.",
        "At the end of the session a sabacc pot nobody won is split equally among the seated "
        "players (odd credits from the dealer's left), unless the host keeps it for the next "
        "session.",
    ))


def _options(rs: RuleSet) -> Section:
    paragraphs = [
        "Table options: " + "; ".join((
            f"game ante {credits(rs.ante)}", f"sabacc ante {credits(rs.game_options.ante_sabacc)}",
            f"fee to keep a gained card and discard another {credits(rs.game_options.fee_gain_discard)}",
            f"fee to swap {credits(rs.game_options.fee_swap)}", "Prime Sabacc " + ("on" if rs.game_options.prime_sabacc else "off"),
            f"phases {rs.game_options.phase_order}", f"junk penalty {credits(rs.fold_fee)}",
            "bet limit " + (credits(rs.bet_limit) if rs.bet_limit else "none"),
            f"the dealer passes after each {rs.game_options.dealer_rotates}")) + ".",
    ]
    if rs.overrides:
        paragraphs.append("Options changed from the preset: "
                          + ", ".join(o.replace("_", " ") for o in rs.overrides) + ".")
    return Section("variants", "Table options", tuple(paragraphs), varies=True)


def explain(rs: RuleSet) -> list[Section]:
    """Corellian Spike's rules page for `rs`, section by section, in reading order."""
    return [_deck(rs), _hands(rs), _game(rs), _turn(rs), _betting(rs), _dice(rs), _settling(rs), _options(rs)]
