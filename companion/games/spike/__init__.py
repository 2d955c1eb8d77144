"""Corellian Spike (RULES-SPIKE.md): the Galaxy's Edge deck and the spike dice, three rounds a hand.

Its two presets (spike: the Black Spire Outpost table; spike-book: the printed rule book), its
options, its deck, its hand judge (`hands.evaluate`) and its rules page (`explain.explain`), as
the one value the registry finds (`GAME`)::

    >>> GAME.name, list(GAME.presets), list(GAME.decks)
    ('spike', ['spike', 'spike-book'], ['spike'])
"""

from __future__ import annotations

from companion.games.api import Game, imported_when_called
from companion.games.spike.hands import SPIKE_DECK
from companion.games.spike.presets import FIELDS, OPTIONS, PRESETS, SPIKE_SHIFT_DICE, rules_from


def _engine() -> type:
    """The live table's engine: a hand dealt to each player, played in rounds (imported here,
    when a table needs it, so that loading the games never imports the table)."""
    from companion.games.spike.table import SpikeHand

    return SpikeHand


#: Corellian Spike as the registry finds it.
GAME = Game(
    name="spike",
    title="Corellian Spike",
    summary="The 62-card Galaxy's Edge deck and the spike dice: three rounds of turn, betting and "
    "spike dice; closest to zero wins the game pot, a zero hand the sabacc pot too.",
    presets=PRESETS,
    options=OPTIONS,
    rules_from=rules_from,
    engine=_engine,
    decks={SPIKE_DECK.name: SPIKE_DECK},
    explain=imported_when_called("companion.games.spike.explain:explain"),
    by_hand=True,
    own_words=frozenset({"spike dice", "junk", "junked", "junk penalty", "sylop", "blind draw", "game pot",
                         "discard_top", "gain_keep", "gain_discard", "prime sabacc", "stave", "yee-haa",
                         "nulrhek", "sabacc shift"}),
    default="spike",
    fields=FIELDS,
    calculator=imported_when_called("companion.games.spike.calculator:answer"),
    calculator_schema=imported_when_called("companion.games.spike.schema:schema"),
    dice=(SPIKE_SHIFT_DICE,),
    shift_announcements={"sabacc": "A Sabacc Shift: the spike dice match."},
)
