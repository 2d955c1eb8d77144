"""Classic Sabacc (RULES.md): the 76-card deck, the scrambler, calling the hand, the sabacc pot.

Its five presets (the rule sets of the sources: weg, classic, holodex, pagat, pagat-d6), its
options, its deck, its hand judge (`hands.evaluate`) and its rules page (`explain.explain`),
as the one value the registry finds (`GAME`)::

    >>> GAME.name, list(GAME.presets), GAME.default_preset()
    ('classic', ['weg', 'classic', 'holodex', 'pagat', 'pagat-d6'], 'classic')
"""

from __future__ import annotations

from companion.games.api import Game, imported_when_called
from companion.games.classic.cards import SABACC
from companion.games.classic.presets import FIELDS, OPTIONS, PRESETS, rules_from
from companion.scrambler.dice import SHIFT_DICE


def _engine() -> type:
    """The live table's engine: a hand dealt to each player, played in rounds (imported here,
    when a table needs it, so that loading the games never imports the table)."""
    from companion.games.classic.table import ClassicHand

    return ClassicHand


#: Classic's own events as the audit log says them (`log`, loaded when a log is first shown): a
#: card put into or taken out of a static field. (Its sudden demise is the runtime's tie draw,
#: whose events the log says under the names `ClassicHand.BLOCKS["tie"]` gives them.)
LOG_WORDS = {event: imported_when_called(f"companion.games.classic.log:{event}")
             for event in ("static_added", "static_removed")}


#: Classic Sabacc as the registry finds it.
GAME = Game(
    name="classic",
    title="Classic Sabacc",
    summary="The 76-card deck and the scrambler: bet, draw and roll until a player calls the "
    "hand; closest to 23 wins the hand pot, a Pure Sabacc or an Idiot's Array the sabacc pot too.",
    presets=PRESETS,
    options=OPTIONS,
    rules_from=rules_from,
    engine=_engine,
    decks={SABACC.name: SABACC},
    explain=imported_when_called("companion.games.classic.explain:explain"),
    by_hand=True,
    own_words=frozenset({"static field", "sudden demise", "demise card", "bomb out", "bombed out", "idiot's array",
                         "pure sabacc", "fairy empress", "force sabacc", "hold 'em", "holdem", "corellia run",
                         "alderaan", "pot-building", "declare_side", "call_hand", "no_call"}),
    default="classic",
    fields=FIELDS,
    calculator=imported_when_called("companion.games.classic.calculator:answer"),
    calculator_schema=imported_when_called("companion.games.classic.schema:schema"),
    # The scrambler's dice of every trigger a table may choose (the timer's: none).
    dice=tuple(spec for spec in SHIFT_DICE.values() if spec.count),
    log_words=LOG_WORDS,
    tie_column=imported_when_called("companion.games.classic.log:tie_column"),
)
