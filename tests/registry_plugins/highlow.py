"""A small game defined only in tests/: High-low (each player draws one card; the highest wins).

It is found as a plug-in through `highlow-0.1.dist-info/entry_points.txt` beside this module,
as a pip-installed game would be (tests/test_registry.py puts this folder on `sys.path`). It has
no payout calculator and no live table engine of its own yet: the registry, the rules page, the
start page and the settle API's refusal are what it exercises.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.games.api import Game, InvalidRules, OptionField, Section
from companion.rules.cards import Card
from companion.rules.decks import Deck, Group


@dataclass(frozen=True)
class HighLowRules:
    """High-low's rules: a preset's name and words, and its stake."""

    name: str
    title: str
    summary: str
    stake: int = 1
    low_wins: bool = False


def _stake(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 100:
        raise ValueError("must be a whole number from 1 to 100")
    return v


def _switch(v: Any) -> bool:
    if not isinstance(v, bool):
        raise ValueError("must be true or false")
    return v


PRESETS = {
    "highlow": HighLowRules("highlow", "High-low", "One card each; the highest wins the stakes."),
    "highlow-low": HighLowRules("highlow-low", "High-low, low wins", "One card each; the lowest wins.", low_wins=True),
}
OPTIONS = {"stake": _stake, "low_wins": _switch}


def rules_from(spec: Any, field: str = "rules") -> HighLowRules:
    """High-low's rules from a preset name or {"preset": name, **options}."""
    spec = {"preset": spec} if isinstance(spec, str) else dict(spec)
    rules = PRESETS[spec.pop("preset")]
    rules = replace(rules, **{name: OPTIONS[name](value) for name, value in spec.items()})
    if rules.stake > 50 and rules.low_wins:
        raise InvalidRules("a low game's stake is at most 50", f"{field}.stake")
    return rules


def explain(rules: HighLowRules) -> list[Section]:
    """The rules page: one section."""
    wins = "lowest" if rules.low_wins else "highest"
    return [Section("play", "How to play", (f"Everyone puts in {rules.stake} and draws one card; the {wins} card "
                                           "takes everything.",), varies=True)]


_CARDS = {str(v): Card(str(v), v, 4, f"Card {v}", f"Card {v}", short=str(v)) for v in range(1, 11)}
DECK = Deck("highlow", "the 40-card High-low deck", _CARDS, (Group("all", "Cards", tuple(_CARDS)),), "value",
            hand_min=1, hand_max=1)


class Engine:
    """Not played at a live table yet."""


def _engine() -> type:
    return Engine


GAME = Game(name="highlow", title="High-low", summary="One card each, the highest wins.", presets=PRESETS,
            options=OPTIONS, rules_from=rules_from, engine=_engine, decks={DECK.name: DECK}, explain=explain,
            by_hand=True, own_words=frozenset({"high-low"}),
            fields=(OptionField("stake", "Stake, credits", "money", minimum=1, maximum=100),
                    OptionField("low_wins", "The lowest card wins", "variants", kind="switch")))
