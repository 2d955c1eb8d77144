"""The printed words: a one-page rules summary per game and a reference card per preset.

Both are made of the rules page's own sections (each game's `explain`, read through
`companion.decks.source.rule_sections`) and of sections written here from the rule set's
values (its hand ranking, phases and turn actions), so nothing is typed twice::

    >>> sections = reference(registry.default_preset())
    >>> [s.key for s in sections][:2], all(s.title for s in sections)
    (['hands', 'named-hands'], True)

(tests/test_print_decks.py reads each built-in game's card.)
"""

from __future__ import annotations

from companion.decks.source import deck_cards, named_hands, rule_sections, rule_sets
from companion.games import registry
from companion.games.api import Section, credits
from companion.rules.game import TurnAction
from companion.rules.rulesets import RuleSet

#: A reference card's sections, in order: the rules page's hands, the named hands with their
#: examples, how hands compare, the turn's actions, and what the dice do (the rules page's
#: "shift" or "dice" section, whichever the game has). A game without one of them leaves it out.
REFERENCE_KEYS = ("hands", "named-hands", "ranking", "your-turn", "shift", "dice")
#: What the one-page summary leaves to the rules page: the long rulings and corner cases
#: (and any section its game marks so, `Section.in_summary`).
SUMMARY_LEAVES_OUT = frozenset({"corners", "corrections", "rulings", "variants", "session-end"})


def hands_section(preset: str) -> Section:
    """The preset's kinds of hand, best first, each with an example (from its own ranking)."""
    names = {c.code: c.name for c in deck_cards(rule_sets()[preset].deck.name)}
    return Section("named-hands", "Best first, an example each", (),
                   tuple(f"{h.kind[:1].upper()}{h.kind[1:]}: {', '.join(names[c] for c in h.example)}"
                         for h in named_hands(preset)),
                   ordered=True)


def action_words(rs: RuleSet, action: TurnAction) -> str:
    """A turn action in words, from what it does to the cards and what it costs."""
    def cards(n: int) -> str:
        return f"{n} card" if n == 1 else f"{n} cards"

    what = []
    if action.leaves:
        what.append("put your whole hand face up on the discard pile and leave the hand")
    if action.takes_discard:
        what.append("take the discard pile's top card")
    if action.dealt:
        what.append(f"take {cards(action.dealt)} from the draw pile")
    if action.discards:
        what.append(f"discard {cards(action.discards)}")
    words = f"{action.button}: " + (" and ".join(what) or "keep your hand as it is")
    if action.cards:
        words += f" (your hand grows by {cards(action.cards)})"
    fee = rs.option(action.fee) if action.fee else 0
    return words + (f"; fee {credits(fee)}" if fee else "") + "."


def turn_section(preset: str) -> Section:
    """The phases of a turn or round, in order, and the actions a player picks from."""
    rs = rule_sets()[preset]
    phases = ", ".join(rs.phase_name(pr.phase) for pr in rs.turn_phases)
    return Section("your-turn", "Turn actions", (f"In order: {phases}. To draw, one of:",),
                   tuple(action_words(rs, a) for a in rs.actions))


def reference(preset: str) -> list[Section]:
    """A player's reference card for `preset` (KeyError for no such preset): made here from a
    `RuleSet`'s values, or the sections of the rules page its game names (`Game.reference`)."""
    if preset not in rule_sets():
        wanted = registry.game_of(preset).reference
        if not wanted:
            raise KeyError(preset)
        by_name = {s.key: s for s in rule_sections(preset)}
        return [by_name[k] for k in wanted if k in by_name]
    by_key = {s.key: s for s in (*rule_sections(preset), hands_section(preset), turn_section(preset))}
    return [by_key[k] for k in REFERENCE_KEYS if k in by_key]


def summary(preset: str) -> list[Section]:
    """The one-page rules summary of the game `preset` plays (KeyError for no such preset)."""
    out = []
    for s in rule_sections(preset):
        if s.key not in SUMMARY_LEAVES_OUT and s.in_summary:
            out.append(s)
        if s.key == "hands" and preset in rule_sets():  # a hand ranking with named hands
            out.append(hands_section(preset))
    return out


def section_text(sections: list[Section], key: str) -> str:
    """The words of the section `key` among `sections` (empty when it is not there)."""
    return " ".join(s.text() for s in sections if s.key == key)
