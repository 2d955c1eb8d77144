"""What the printed decks read from the rules: the one door between the rules and the art.

The art, the sheets and the reference cards never read `companion.rules` themselves: they ask
`deck_cards` for a deck's cards and `rule_sections` for a preset's rules in words, so that a
change to the rules (or the deck becoming a value of the rule set) is one edit here::

    >>> [c.code for c in deck_cards("classic")][:3], len(printed(deck_cards("classic")))
    (['sa1', 'sa2', 'sa3'], 76)
    >>> len(printed(deck_cards("spike"))), deck_cards("spike")[-1].name
    (62, 'Sylop')
    >>> value_text(-13), value_text(7), value_text(7, signed=True), value_text(0, signed=True)
    ('−13', '7', '+7', '0')
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.cards import CARDS, CORELLIA_SET_ASIDE
from companion.rules.explain import Section, explain
from companion.rules.rulesets import PRESETS

MINUS = "\N{MINUS SIGN}"  # printed negatives use the typographic minus, as RULES-SPIKE.md names them


@dataclass(frozen=True)
class DeckCard:
    """One distinct card of a deck as the art needs it.

    `suit` is the suit's code prefix (classic) or None (classic face cards, Spike cards);
    `set_aside` names the variant that sets the card aside ("Corellia Run") or is None.
    """

    code: str
    value: int
    copies: int
    name: str
    tarot: str
    suit: str | None
    set_aside: str | None = None


@dataclass(frozen=True)
class Deck:
    """A printable deck: its name in URLs, its title, the game whose rules summary goes with
    it, whether its values are printed signed (+7), and its suits' names."""

    name: str
    title: str
    game_preset: str
    signed: bool
    suit_names: dict[str, tuple[str, str]]  # prefix -> (name, tarot name)


DECKS: dict[str, Deck] = {
    "classic": Deck("classic", "Classic Sabacc", "classic", False,
                    {c.suit.prefix: (c.suit.name, c.suit.tarot) for c in CARDS.values() if c.suit}),
    "spike": Deck("spike", "Corellian Spike", "spike", True, {}),
}


def deck_cards(deck: str) -> tuple[DeckCard, ...]:
    """Every distinct card of `deck` ("classic" or "spike"), in deck order.

    The one function the art reads cards through (KeyError for another deck name).
    """
    if deck == "classic":
        return tuple(
            DeckCard(c.code, c.value, c.copies, c.name, c.tarot, c.suit.prefix if c.suit else None,
                     "Corellia Run" if c.code in CORELLIA_SET_ASIDE else None)
            for c in CARDS.values()
        )
    if deck == "spike":
        cards, _ = _spike_until_deck_value()
        return cards
    raise KeyError(deck)


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
    out = {name: rs.title for name, rs in PRESETS.items()}
    _, spike = _spike_until_deck_value()
    for name, (title, _sections) in spike.items():
        out.setdefault(name, title)
    return out


def rule_sections(preset: str) -> list[Section]:
    """A preset's rules in words, as the rules page says them (KeyError for no such preset)."""
    if preset in PRESETS:
        return explain(PRESETS[preset])
    _, spike = _spike_until_deck_value()
    return list(spike[preset][1])


def _spike_until_deck_value() -> tuple[tuple[DeckCard, ...], dict[str, tuple[str, tuple[Section, ...]]]]:
    """TO BE REPLACED by the deck value and the Spike rule set (issue 16, branch `spike`).

    RULES-SPIKE.md's deck (62 cards: +1..+10 and -1..-10 three times each, two sylops) and, for
    the presets `spike` and `spike-book`, the sections of their rules that the reference card
    and the summary print, until `companion.rules` holds them. Nothing else here knows Spike.
    """
    cards = tuple(
        DeckCard(f"{'+' if v > 0 else '-'}{abs(v)}", v, 3, value_text(v, signed=True),
                 value_text(v, signed=True), None)
        for v in (*range(1, 11), *range(-1, -11, -1))
    ) + (DeckCard("sylop", 0, 2, "Sylop", "Sylop", None),)
    hands = [
        ("Pure Sabacc", "sylop, sylop"), ("Full Sabacc", "+10 +10 −10 −10 sylop"),
        ("Fleet", "four of a value and a sylop: +4 +4 −4 −4 sylop"),
        ("Prime Sabacc", "sylop +10 −10"), ("Yee-Haa", "sylop and a pair: sylop +3 −3"),
        ("Rhylet", "three of one, two of another: +2 +2 +2 −3 −3"),
        ("Squadron", "four of a value: +5 +5 −5 −5"),
        ("Gee Whiz", "+1 +2 +3 +4 −10"), ("Straight Khyron", "four in a row: +1 −2 −3 +4"),
        ("Banthas Wild", "three of a value and one or two more: +2 +2 +2 −6"),
        ("Rule of Two", "two pairs: +2 −2 +5 −5"), ("Sabacc with a pair", "+3 +3 −6"),
        ("Sabacc", "any other hand totalling 0: +1 +2 −3"),
        ("Nulrhek", "any other total: +3 −1 (2); closer to 0 wins, + beats −"),
    ]
    actions = (
        "Stand: do nothing.", "Gain, keep: take the top draw card and keep it.",
        "Gain, discard it: take the top draw card and throw it on the discard pile.",
        "Gain, keep and discard another: keep the drawn card, discard one from your hand{fee1}.",
        "Swap: take the discard pile's top card, discard a different card{fee2}.",
        "Junk: put your whole hand face up on the discard pile and leave the game.",
    )
    out = {}
    for name, title, prime, fee1, fee2 in (("spike", "Corellian Spike (Black Spire Outpost)", True, 1, 2),
                                           ("spike-book", "Corellian Spike (the printed book)", False, 0, 0)):
        fee = {"fee1": f" (fee {fee1} to the game pot)" if fee1 else "",
               "fee2": f" (fee {fee2} to the game pot)" if fee2 else ""}
        sections = (
            Section("deck", "The deck", ("62 cards: +1 to +10 and −1 to −10, three of each (one "
                                         "in each stave: circle, triangle, square; staves never "
                                         "matter), and two sylops worth 0.",)),
            Section("hands", "Hands, best first",
                    ("A hand holds 2 to 5 cards. A Sabacc totals 0 and beats every Nulrhek. Pairs "
                     "compare values without their signs.",),
                    tuple(f"{h}: {ex}" for h, ex in hands if prime or h != "Prime Sabacc"), ordered=True),
            Section("ranking", "Ties", ("More cards, then the higher total of the positive cards, "
                                        "then the higher positive card; still equal: a blind draw.",)),
            Section("order", "A game", ("Ante once a game. The dealer deals two cards each and "
                                        "turns up the discard pile. Three rounds, each: turn "
                                        "phase, betting phase, spike dice phase; then the reveal.",),
                    tuple(a.format(**fee) for a in actions)),
            Section("shift", "The spike dice", ("Matching symbols (1 roll in 6): a Sabacc Shift. "
                                                "Every player still in discards all their cards "
                                                "and is dealt the same number.",)),
            Section("money", "Pots", ("The best hand wins the game pot. A winning hand totalling "
                                      "0 also takes the sabacc pot; otherwise it carries over.",)),
        )
        out[name] = (title, sections)
    return cards, out
