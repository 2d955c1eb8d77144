"""Kessel Sabacc's rules page, in plain words, from the rules value and the game's own data
(the deck's copies, the tokens' table), so a changed option changes the text::

    >>> from companion.games.api import section
    >>> from companion.games.kessel.presets import PRESETS, rules_from
    >>> [s.key for s in explain(PRESETS["kessel"])]
    ['deck', 'setup', 'round', 'reveal', 'hands', 'settling', 'tokens', 'variants']
    >>> "tokens" in [s.key for s in explain(PRESETS["kessel-plain"])]
    False
    >>> "8 chips" in section(explain(rules_from({"preset": "kessel", "chips": 8})), "setup").text()
    True
"""

from __future__ import annotations

from companion.games.api import Section, credits
from companion.games.kessel.cards import IMPOSTOR_COPIES, KESSEL_DECK, NUMBER_COPIES, SYLOP_COPIES
from companion.games.kessel.presets import KesselRules
from companion.games.kessel.tokens import TOKENS, TOKENS_EACH


def _deck(r: KesselRules) -> Section:
    return Section("deck", "The deck and the dice", (
        f"{KESSEL_DECK.size()} cards in two families of 22, Sand (yellow) and Blood (red). Each family "
        f"has the numbers 1 to 6, {NUMBER_COPIES} of each, {IMPOSTOR_COPIES} Impostors and "
        f"{SYLOP_COPIES} Sylop.",
        "A hand is always exactly one Sand card and one Blood card. Two six-sided dice, rolled on the "
        "scrambler (its button, the USB box or the on-screen roller), value the Impostors"
        + (" and the Prime Sabacc token." if r.plays_tokens else "."),
    ))


def _setup(r: KesselRules) -> Section:
    return Section("setup", "Setup", (), (
        f"{r.min_players} to {r.max_players} players. Each pays {credits(r.buy_in)} into the credits "
        f"pot and receives {r.chips} chips: their stock.",
        "Chips put in during a round lie in the player's invested pile, at risk until the reveal.",
        "The first round's starter is drawn on the scrambler (or set by the host); the dealer sits on "
        "the starter's right. After each round both move one seat clockwise, skipping eliminated players.",
        "Each round: each family is shuffled on its own, everyone is dealt one Sand and one Blood card "
        "face down, and the top card of each family is turned up to start its discard pile.",
    ) + ((f"Before the first round every player takes {TOKENS_EACH} different shift tokens for the whole "
          "game: " + ("each chooses them." if r.tokens == "select" else "the companion deals them at random.")
          + " They stay secret until played.",) if r.plays_tokens else ()), varies=True, ordered=True)


def _round(r: KesselRules) -> Section:
    token = ("first, optionally, one shift token; then " if r.plays_tokens else "")
    return Section("round", "A round", (
        f"{r.turns} turns. In each turn every player acts once, clockwise from the starter: {token}Draw or Stand.",
    ), (
        "Draw: pay 1 chip from stock into your invested pile and take the top card of one of four piles "
        "(the Sand or Blood draw pile, the Sand or Blood discard pile). Keep it and discard your card of "
        "the same family face up, or discard the drawn card. The card discarded is entered, so both "
        "discard piles' top cards are public.",
        "Stand: do nothing and pay nothing. A player with no chips in stock must stand"
        + (" (unless they played Free Draw); so must a player under Embargo." if r.plays_tokens else "."),
        "If every player stands in the same turn, the round ends at once and the reveal follows; "
        f"otherwise after turn {r.turns}.",
        "Nobody folds and nobody is eliminated during a round: a player at 0 chips stands until the reveal.",
        "When a draw pile runs out, the dealer shuffles that family's discard pile, all but its top card, "
        "into a new draw pile.",
    ), varies=True)


def _reveal(r: KesselRules) -> Section:
    return Section("reveal", "The reveal", (
        "Hands are shown clockwise from the starter and each player enters their two cards. Players who "
        "reveal later see the earlier hands.",
    ), (
        "A Sand Sylop with a Blood Sylop is Pure Sabacc, resolved no further.",
        "Each Impostor, Sand before Blood: the scrambler rolls two dice and the player takes one of the "
        "two values. Two Impostors are two rolls."
        + (" Under Major Fraud an Impostor is 6 and nothing is rolled." if r.plays_tokens else ""),
        "A single Sylop takes the value of the other card."
        + (" Under Markdown a Sylop is 0." if r.plays_tokens else ""),
        "The difference is the gap between the Sand and the Blood value. Difference 0 is a Sabacc, "
        "worth the shared number.",
    ), ordered=True)


def _hands(r: KesselRules) -> Section:
    points = ["Pure Sabacc: the two Sylops."]
    if r.plays_tokens:
        points.append("Prime Sabacc: a Sabacc of the value chosen with the Prime Sabacc token.")
    points += [
        "Sabacc: difference 0; the lower value is better (1 best, 6 worst"
        + ("; reversed under Cook the Books)." if r.plays_tokens else ")."),
        "Any other hand: the lower difference is better, then the lower of the two cards (3/2 beats 5/4).",
    ]
    return Section("hands", "Hands, best first", (
        "A Sylop or Impostor Sabacc is equal to the natural pair of the same value. Equal hands are an "
        "exact tie: every tied best hand wins. Every round has at least one winner.",
    ), tuple(points), varies=True, ordered=True)


def _settling(r: KesselRules) -> Section:
    return Section("settling", "Settlement and the credits pot", (), (
        "The winners take their invested piles back into stock. They win nothing from anyone else.",
        "Every other player loses their invested pile and pays a penalty from stock: 1 chip for a Sabacc, "
        "otherwise chips equal to the difference, at most what they have. Lost and penalty chips leave "
        "the game: they go to no player and no pot.",
        "A player with 0 chips after the settlement is eliminated; players out at the same reveal share "
        "the place.",
        "When one player has chips left, they take the whole credits pot "
        f"({credits(r.buy_in)} a player). If everyone is out at once, the round's winners share it, odd "
        "credits one each from the starter. There is no prize for second place.",
    ))


def _tokens(r: KesselRules) -> Section:
    return Section("tokens", "Shift tokens", (
        f"Each player holds {TOKENS_EACH} tokens for the whole game and may play each once: at most one a "
        "turn, at the start of their own turn, before drawing or standing, never at the reveal. Every token "
        "played is announced. A token aimed at a player needs another player in the game who is not immune.",
        "\"Pays n\": n chips from stock, or all of it if fewer; they go "
        + ("into the payer's invested pile (back if the payer wins the round)." if r.tariff_chips == "invested"
           else "out of the game at once.")
        + " Effects that last until the reveal apply to every hand; all end with the settlement.",
    ), tuple(f"{t.name}: {t.does} ({t.lasts})." for t in TOKENS), varies=True)


def _options(r: KesselRules) -> Section:
    deal = {"select": "3 each, chosen", "random": "3 each, dealt at random", "none": "none"}[r.tokens]
    paragraphs = ["Table options: " + "; ".join((
        f"{r.chips} chips each", f"buy-in {credits(r.buy_in)}", f"shift tokens {deal}",
        "tariff and audit chips " + ("into the payer's invested pile" if r.tariff_chips == "invested"
                                     else "out of the game"))) + "."]
    if r.overrides:
        paragraphs.append("Options changed from the preset: " + ", ".join(o.replace("_", " ") for o in r.overrides)
                          + ".")
    return Section("variants", "Table options", tuple(paragraphs), varies=True)


def explain(r: KesselRules) -> list[Section]:
    """Kessel's rules page for `r`, section by section, in reading order (no tokens section
    for a table without tokens)."""
    out = [_deck(r), _setup(r), _round(r), _reveal(r), _hands(r), _settling(r)]
    if r.plays_tokens:
        out.append(_tokens(r))
    return [*out, _options(r)]
