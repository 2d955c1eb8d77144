"""Coruscant Shift's rules page, in plain words, written from the rules' values (C1–C31).

    >>> from companion.games.api import section
    >>> from companion.games.coruscant.presets import PRESETS, rules_from
    >>> [s.key for s in explain(PRESETS["coruscant"])]
    ['deck', 'dice', 'stock', 'round', 'betting', 'judging', 'pots', 'end', 'options']
    >>> "5 credits" in section(explain(PRESETS["coruscant-starcruiser"]), "stock").text()
    True
"""

from __future__ import annotations

from companion.games.api import Section, credits
from companion.games.coruscant.cards import CORUSCANT_DECK, GOLD, SILVER, SUITS, signed
from companion.games.coruscant.judge import RISE
from companion.games.coruscant.presets import CoruscantRules


def _deck(r: CoruscantRules) -> Section:
    suits = ", ".join(s.capitalize() for s in SUITS)
    return Section("deck", "The deck", (
        f"{CORUSCANT_DECK.size()} cards: three suits ({suits}), each with one card of every value "
        "from +1 to +10 and \u22121 to \u221210, and 2 Sylops worth 0 and wild for suit. Values 7 "
        "to 10 are picture cards with no printed number: the card picker asks for the suit and "
        "shows the value large.",
    ))


def _dice(r: CoruscantRules) -> Section:
    gold = ", ".join(signed(f) for f in GOLD.faces)
    return Section("dice", "The dice", (
        f"The gold die ({gold}) sets the round's target number; the silver die (Circle, Triangle, "
        "Square, two faces each) its target suit. The scrambler rolls both once a round, after "
        "the deal; every screen shows the target and the round's committed seed covers the roll.",
    ))


def _stock(r: CoruscantRules) -> Section:
    if r.ante_rise == "round":
        steps = ", ".join(f"+{RISE[n]} with {n} players left" for n in sorted(RISE))
        ante = (f"The ante is {credits(r.ante)} in the first round and rises before every later "
                f"round by the number of players still in the game: {steps}, +1 with 5 or more.")
    else:
        ante = f"The ante is {credits(r.ante)} every round."
    return Section("stock", "Stock and ante", (
        f"Each player buys in for {credits(r.stock)}. {ante} A player who cannot pay the ante in "
        "full puts in all they have and is all-in for the round.",
        f"A game has {r.min_players} to {r.max_players} players. The first dealer is drawn on the "
        "scrambler or set by the host; the starting player sits on the dealer's left, and both "
        "move one seat clockwise after each round, skipping players who are out.",
    ), varies=True)


def _round(r: CoruscantRules) -> Section:
    return Section("round", "A round", (), (
        "Ante: every player in the game pays it into the pot.",
        "Deal: five cards face down each, one at a time from the dealer's left.",
        "Roll: the gold and silver dice set the target number and suit for the round.",
        "Selection: everyone at once puts 1 to 5 cards face down as their selection; each phone "
        "records how many.",
        "First betting round.",
        "Shift: each player still in discards the cards they did not select and draws as many. "
        "If the draw pile runs out (here or at a tie draw), the dealer shuffles the discards into "
        "a new draw pile; cards in a selection or a hand never go into it.",
        "Second betting round.",
        "Improve: each player may add cards from their hand to the selection, never remove any.",
        "Reveal: clockwise from the starting player, each player still in shows and enters their "
        "selection; its count must match the phone's.",
        "Settlement.",
    ), ordered=True)


def _betting(r: CoruscantRules) -> Section:
    limit = f" No bet or raise may add more than {credits(r.bet_limit)}." if r.bet_limit else ""
    return Section("betting", "Betting", (
        "Clockwise from the starting player: check (only while nobody has bet), bet (at least "
        f"{credits(r.min_bet)}), call, raise (by at least {credits(r.min_bet)}), all-in, fold. A "
        "player may fold only facing a bet they have not matched. A player may not raise again "
        "unless someone raised after them. The betting round ends when every player still in has "
        "matched the highest bet, is all-in, or has folded." + limit,
        "When all but one have folded the round ends at once: the last player takes the pot "
        "without showing. When fewer than two players can still bet, the betting is skipped but "
        "the shift, the improve step and the reveal go on.",
    ), varies=bool(r.bet_limit) or r.min_bet != 1)


def _judging(r: CoruscantRules) -> Section:
    return Section("judging", "The best selection", (
        "A selection's total is the sum of its cards (a Sylop is 0); the total closest to the "
        "target number wins, over or under alike.",
        "Equally close: more cards of the target suit wins; each Sylop counts as one.",
        "Still tied: the tie draw. Each tied player draws the top card of the draw pile face up; "
        "the higher absolute value wins, a positive card beats a negative one of the same value, "
        "a Sylop is the lowest. Equal draws split the pot in equal shares, odd credits one each "
        "from the starting player. The tie draw happens once a settlement and decides every pot "
        "those players are tied in.",
    ))


def _pots(r: CoruscantRules) -> Section:
    return Section("pots", "Pots and side pots", (
        "Each level of commitment (ante and bets) makes a pot that only the players who put in "
        "at least that much and did not fold can win; each pot goes to its best eligible "
        "selection. A pot with one eligible player goes back to that player. Nothing else is "
        "paid: no fee, no penalty. Credits are conserved.",
    ))


def _end(r: CoruscantRules) -> Section:
    if r.end == "last":
        end = "The game ends when one player holds every credit: that player wins."
    else:
        end = ("The game ends when the deal would pass to a player who has already dealt (or "
               "earlier, if one player holds every credit). The most credits wins; equal credits "
               "share first place, and every player keeps their credits as a balance.")
    return Section("end", "Elimination and the end", (
        "A player with 0 credits after the settlement is out; players who go out in the same "
        "round share the place. A player who leaves folds at once, is out, and takes their "
        "remaining credits.",
        end,
    ), varies=True)


def _options(r: CoruscantRules) -> Section:
    words = [f"stock {credits(r.stock)}", f"ante {credits(r.ante)}",
             "the ante " + ("rises every round" if r.ante_rise == "round" else "is fixed"),
             f"minimum bet {credits(r.min_bet)}", "bet limit " + (credits(r.bet_limit) if r.bet_limit else "none"),
             "the game ends " + ("with the last player holding credits" if r.end == "last"
                                 else "when everyone has dealt once")]
    paragraphs = ["Table options: " + "; ".join(words) + "."]
    if r.overrides:
        paragraphs.append("Options changed from the preset: " + ", ".join(o.replace("_", " ") for o in r.overrides) + ".")
    return Section("options", "Table options", tuple(paragraphs), varies=True)


def explain(rules: CoruscantRules) -> list[Section]:
    """Coruscant Shift's rules page for `rules`, section by section, in reading order."""
    return [f(rules) for f in (_deck, _dice, _stock, _round, _betting, _judging, _pots, _end, _options)]
