"""The printed words: a one-page rules summary per game and a reference card per preset.

Both are chosen sections of the rules page's own text (`companion.rules.explain`, read through
`companion.decks.source.rule_sections`), so a change to a rule set changes what is printed and
nothing is typed twice::

    >>> [s.key for s in reference("classic")]
    ['hands', 'named-hands', 'ranking', 'order', 'shift']
    >>> "gain" in section_text(reference("classic"), "order")
    True
    >>> reference("spike")[1].points[4]
    'Yee-Haa: Sylop, +1, −1'
"""

from __future__ import annotations

from companion.decks.source import deck_cards, named_hands, rule_sections
from companion.rules.explain import Section
from companion.rules.rulesets import RULE_SETS

#: What a player's reference card holds: the hand ranking, the turn's actions and the shifts.
REFERENCE_KEYS = ("hands", "named-hands", "ranking", "order", "shift")
#: What a game's one-page summary holds.
SUMMARY_KEYS = ("deck", "hands", "named-hands", "ranking", "order", "calling", "shift", "static-field", "money",
                "settling", "sabacc-pot", "penalties")


def hands_section(preset: str) -> Section:
    """The preset's kinds of hand, best first, each with an example (from its own ranking)."""
    names = {c.code: c.name for c in deck_cards(RULE_SETS[preset].deck.name)}
    return Section("named-hands", "Best first, an example each", (),
                   tuple(f"{h.kind[:1].upper()}{h.kind[1:]}: {', '.join(names[c] for c in h.example)}"
                         for h in named_hands(preset)),
                   ordered=True)


def _chosen(preset: str, keys: tuple[str, ...]) -> list[Section]:
    by_key = {s.key: s for s in (hands_section(preset), *rule_sections(preset))}
    return [by_key[k] for k in keys if k in by_key]


def reference(preset: str) -> list[Section]:
    """A player's reference card for `preset` (KeyError for no such preset)."""
    return _chosen(preset, REFERENCE_KEYS)


def summary(preset: str) -> list[Section]:
    """The one-page rules summary of the game `preset` plays (KeyError for no such preset)."""
    return _chosen(preset, SUMMARY_KEYS)


def section_text(sections: list[Section], key: str) -> str:
    """The words of the section `key` among `sections` (empty when it is not there)."""
    return " ".join(s.text() for s in sections if s.key == key)
