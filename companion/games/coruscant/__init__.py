"""Coruscant Shift (RULES-CORUSCANT.md): the Galaxy's Edge deck read in three suits, a gold die
for the target number and a silver die for the target suit; played until a winner.

Its two presets (coruscant: the Sabacc Cantina App's rising ante, played to the last player
with credits; coruscant-starcruiser: the Halcyon's fixed ante, everyone deals once), its options,
its deck and dice (`cards`), its judge, pots, ante schedule and end of the game (`judge`), its
rules page (`explain`), as the one value the registry finds (`GAME`)::

    >>> GAME.name, list(GAME.presets), list(GAME.decks), GAME.by_hand
    ('coruscant', ['coruscant', 'coruscant-starcruiser'], ['coruscant'], False)
"""

from __future__ import annotations

from companion.games.api import DieNet, Game, Printables, imported_when_called
from companion.games.coruscant.cards import CORUSCANT_DECK, GOLD, SILVER, TARGET_ROLL, signed
from companion.games.coruscant.presets import FIELDS, OPTIONS, PRESETS, rules_from


def _engine() -> type:
    """The live table's engine (imported here when a table needs it, so that loading the games
    never imports the table)."""
    from companion.games.coruscant.engine import CoruscantRound

    return CoruscantRound


#: Coruscant Shift as the registry finds it.
GAME = Game(
    name="coruscant",
    title="Coruscant Shift",
    summary="The 62-card deck in three suits and two dice: the gold die sets a target number, the "
    "silver die a target suit; select cards toward it, bet, shift, improve and reveal. Closest to "
    "the target wins, then the most cards of the suit.",
    presets=PRESETS,
    options=OPTIONS,
    rules_from=rules_from,
    engine=_engine,
    decks={CORUSCANT_DECK.name: CORUSCANT_DECK},
    explain=imported_when_called("companion.games.coruscant.explain:explain"),
    by_hand=False,  # a game played to its end (C25, C26), never switched by dealer's choice
    own_words=frozenset({"coruscant", "gold die", "silver die", "target number", "target suit",
                         "tie draw", "starcruiser", "halcyon"}),
    default="coruscant",
    fields=FIELDS,
    calculator=imported_when_called("companion.games.coruscant.calculator:answer"),
    calculator_schema=imported_when_called("companion.games.coruscant.schema:schema"),
    # The two dice as cube nets to cut and fold (C3), faces in the dice's own order, so that
    # +5 and −5, +10 and −10, and the two blanks end up opposite each other.
    printables=(Printables("dice", "The gold and silver dice", dice=(
        DieNet("Gold die", tuple(signed(f) for f in GOLD.faces), "#9a6a00"),
        DieNet("Silver die", tuple(f.capitalize() for f in SILVER.faces), "#4b5563", SILVER.faces),
    )),),
    reference=("dice", "round", "judging", "betting"),
    dice=(TARGET_ROLL,),
)
