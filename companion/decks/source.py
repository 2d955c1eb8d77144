"""What the printed decks read from the rules: the one door between the rules and the art.

The art, the sheets and the reference cards never read `companion.rules` themselves: they ask
`deck_cards` for a deck's cards (from the rule sets' deck values) and `rule_sections` for a
preset's rules in words, so that a change to the rules is one edit here::

    >>> [c.code for c in deck_cards("sabacc")][:3], len(printed(deck_cards("sabacc")))
    (['sa1', 'sa2', 'sa3'], 76)
    >>> len(printed(deck_cards("spike"))), deck_cards("spike")[-1].name, deck_cards("spike")[0].staves
    (62, 'Sylop', ('circle', 'triangle', 'square'))
    >>> value_text(-13), value_text(7), value_text(7, signed=True), value_text(0, signed=True)
    ('−13', '7', '+7', '0')
    >>> [(h.kind, h.example) for h in named_hands("spike")][:2]
    [('Pure Sabacc', ('sylop', 'sylop')), ('Full Sabacc', ('sylop', '+10', '+10', '-10', '-10'))]
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

from companion.rules.explain import Section, explain
from companion.rules.game import DROPPED_OUT
from companion.rules.rulesets import DECKS as RULE_DECKS
from companion.rules.rulesets import PRESETS, RULE_SETS

MINUS = "\N{MINUS SIGN}"  # printed negatives use the typographic minus, as RULES-SPIKE.md names them


@dataclass(frozen=True)
class DeckCard:
    """One distinct card of a deck as the art needs it.

    `suit` is the suit's code prefix (classic) or None; `staves` the marks printed on its
    copies, one each (Spike's numbered cards), or empty; `set_aside` names the variant that
    sets the card aside ("Corellia Run") or is None.
    """

    code: str
    value: int
    copies: int
    name: str
    tarot: str
    suit: str | None
    staves: tuple[str, ...] = ()
    set_aside: str | None = None


@dataclass(frozen=True)
class Deck:
    """A printable deck: its name (the rule sets' deck's), its title, the preset whose rules
    summary goes with it, and whether its values are printed signed (+7)."""

    name: str
    title: str
    game_preset: str
    signed: bool


#: The printed decks: each deck value of the rule sets, with a title and its game's preset.
_TITLES = {"sabacc": ("Classic Sabacc", "classic"), "spike": ("Corellian Spike", "spike")}
DECKS: dict[str, Deck] = {
    name: Deck(name, *_TITLES.get(name, (d.title, next(r.name for r in RULE_SETS.values() if r.deck is d))),
               d.entry == "value")  # a deck entered by its value alone shows it signed
    for name, d in RULE_DECKS.items()
}


@functools.cache  # a deck is a value built once: its cards never change
def deck_cards(deck: str) -> tuple[DeckCard, ...]:
    """Every distinct card of `deck` ("sabacc" or "spike"), in deck order.

    The one function the art reads cards through (KeyError for another deck name).
    """
    d = RULE_DECKS[deck]
    aside = {code: s.words for s in d.set_asides for code in s.codes}
    return tuple(
        DeckCard(c.code, c.value, c.copies, c.name, c.tarot, c.suit.prefix if c.suit else None,
                 d.staves if c.copies == len(d.staves) else (), aside.get(c.code))
        for c in d.cards.values()
    )


def printed(cards: tuple[DeckCard, ...]) -> tuple[tuple[DeckCard, int], ...]:
    """One entry per physical card: (card, which copy of it, from 0), in deck order."""
    return tuple((c, i) for c in cards for i in range(c.copies))


def value_text(value: int, *, signed: bool = False) -> str:
    """A value as printed: a typographic minus for negatives, a plus sign when `signed`."""
    if value < 0:
        return f"{MINUS}{-value}"
    return f"+{value}" if signed and value > 0 else str(value)


def reference_presets() -> dict[str, str]:
    """Every preset a reference card is printed for: name -> title."""
    return {name: rs.title for name, rs in RULE_SETS.items()}


@dataclass(frozen=True)
class NamedHand:
    """A kind of hand in the game's words, with the shortest example the ranking judges so."""

    kind: str
    example: tuple[str, ...]


@functools.cache
def named_hands(preset: str) -> tuple[NamedHand, ...]:
    """The kinds of hand of a preset's ranking, best first, each with an example found by
    judging the smallest hands of its deck (a kind the preset never makes is left out)."""
    rs = RULE_SETS[preset]
    dropped = {kind for kind, _ in DROPPED_OUT}
    wanted = [kind for kind, _ in rs.hands.kinds if kind not in dropped]
    # Sylops and small values first, so that the first hand found is the plainest.
    codes = sorted(rs.deck.cards, key=lambda c: (abs(rs.deck.cards[c].value), -rs.deck.cards[c].value))
    found: dict[str, tuple[str, ...]] = {}
    largest = rs.deck.hand_max or rs.deck.hand_min + 1
    for size in range(rs.deck.hand_min, largest + 1):
        for hand in itertools.combinations_with_replacement(codes, size):
            if any(hand.count(c) > rs.deck.cards[c].copies for c in set(hand)):
                continue
            found.setdefault(str(rs.hands.evaluate(rs, list(hand)).kind), hand)
        if len(found.keys() & set(wanted)) == len(wanted):
            break
    return tuple(NamedHand(rs.hands.words(k), found[k]) for k in wanted if k in found)


def rule_sections(preset: str) -> list[Section]:
    """A preset's rules in words, as the rules page says them (KeyError for no such preset)."""
    waiting = _spike_until_explain_knows_it()
    if preset in waiting:
        return list(waiting[preset])
    return explain(RULE_SETS[preset])


def _spike_until_explain_knows_it() -> dict[str, tuple[Section, ...]]:
    """TO BE REPLACED by `explain` once it words Corellian Spike (issue 16, branch `spike`).

    The presets `spike` and `spike-book` in the words RULES-SPIKE.md gives them: the sections
    of their rules that the reference card and the summary print (the named hands come from
    the rule set itself, see `named_hands`). Nothing else here knows Spike.
    """
    out = {}
    for preset in ("spike", "spike-book"):
        rs = RULE_SETS[preset]
        fee = {"fee1": f" (fee {rs.fee_gain_discard} to the game pot)" if rs.fee_gain_discard else "",
               "fee2": f" (fee {rs.fee_swap} to the game pot)" if rs.fee_swap else ""}
        actions = (
            "Stand: do nothing.", "Gain, keep: take the top draw card and keep it.",
            "Gain, discard it: take the top draw card and throw it on the discard pile.",
            "Gain, keep and discard another: keep the drawn card, discard one from your hand{fee1}.",
            "Swap: take the discard pile's top card, discard a different card{fee2}.",
            "Junk: put your whole hand face up on the discard pile and leave the game.",
        )
        out[preset] = (
            Section("deck", "The deck", ("62 cards: +1 to +10 and −1 to −10, three of each (one "
                                         "in each stave: circle, triangle, square; staves never "
                                         "matter), and two sylops worth 0.",)),
            Section("hands", "Hands", ("A hand holds 2 to 5 cards. A Sabacc totals 0 and beats "
                                       "every Nulrhek (any other total). Pairs compare values "
                                       "without their signs.",)),
            Section("ranking", "Ties", ("Within a kind: see its rule; then more cards, then the "
                                        "higher total of the positive cards, then the higher "
                                        "positive card; still equal: a blind draw.",)),
            Section("order", "A game", (f"Ante once a game: {rs.ante} to the game pot, "
                                        f"{rs.ante_sabacc} to the sabacc pot. The dealer deals two "
                                        "cards each and turns up the discard pile. Three rounds, "
                                        "each: turn phase, betting phase, spike dice phase; then "
                                        "the reveal. In the turn phase, one action each:",),
                    tuple(a.format(**fee) for a in actions)),
            Section("shift", "The spike dice", ("Matching symbols (1 roll in 6): a Sabacc Shift. "
                                                "Every player still in discards all their cards "
                                                "and is dealt the same number.",)),
            Section("money", "Pots", ("The best hand wins the game pot. A winning hand totalling "
                                      "0 also takes the sabacc pot; otherwise it carries over.",)),
        )
    return out
