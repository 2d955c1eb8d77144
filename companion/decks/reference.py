"""The printed words: a one-page rules summary per game and a reference card per preset.

Both are chosen sections of the rules page's own text (`companion.rules.explain`, read through
`companion.decks.source.rule_sections`), so a change to a rule set changes what is printed and
nothing is typed twice::

    >>> [s.key for s in reference("classic")]
    ['hands', 'ranking', 'order', 'shift']
    >>> "gain" in section_text(reference("classic"), "order")
    True
    >>> "Yee-Haa" in section_text(reference("spike"), "hands")
    True
"""

from __future__ import annotations

from companion.decks.source import rule_sections
from companion.rules.explain import Section

#: What a player's reference card holds: the hand ranking, the turn's actions and the shifts.
REFERENCE_KEYS = ("hands", "ranking", "order", "shift")
#: What a game's one-page summary holds.
SUMMARY_KEYS = ("deck", "hands", "ranking", "order", "calling", "shift", "static-field", "money",
                "settling", "sabacc-pot", "penalties")


def _chosen(preset: str, keys: tuple[str, ...]) -> list[Section]:
    by_key = {s.key: s for s in rule_sections(preset)}
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
