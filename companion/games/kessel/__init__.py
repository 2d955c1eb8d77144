"""Kessel Sabacc (RULES-KESSEL.md): the sabacc of Star Wars Outlaws, played to a winner.

Its two presets (kessel: 3 shift tokens each, chosen; kessel-plain: no tokens), its options
(chips, buy_in, tokens, tariff_chips), its 44-card deck, its judge (`hands.judge`), its 16
shift tokens (`tokens.TOKENS`), its settlement (`settle.settle`), its rules page
(`explain.explain`) and its payout calculator (`calculator.answer`), as the one value the
registry finds (`GAME`)::

    >>> GAME.name, list(GAME.presets), list(GAME.decks), GAME.by_hand
    ('kessel', ['kessel', 'kessel-plain'], ['kessel'], False)
"""

from __future__ import annotations

from companion.games.api import Game, PrintCard, Printables, imported_when_called
from companion.games.kessel.cards import KESSEL_DECK
from companion.games.kessel.presets import FIELDS, KESSEL_ROLL, OPTIONS, PRESETS, rules_from
from companion.games.kessel.tokens import TOKENS


def _engine() -> type:
    """The live table's engine (imported here, when a table needs it, so that loading the games
    never imports the table)."""
    from companion.games.kessel.engine import KesselTable

    return KesselTable


#: Kessel Sabacc as the registry finds it.
GAME = Game(
    name="kessel",
    title="Kessel Sabacc",
    summary="The sabacc of Star Wars Outlaws: one Sand and one Blood card each, three turns of draw or "
    "stand, shift tokens; chips only ever leave the table, and the last player with chips takes the "
    "credits pot.",
    presets=PRESETS,
    options=OPTIONS,
    rules_from=rules_from,
    engine=_engine,
    decks={KESSEL_DECK.name: KESSEL_DECK},
    explain=imported_when_called("companion.games.kessel.explain:explain"),
    by_hand=False,
    own_words=frozenset({"kessel", "impostor", "shift token", "credits pot", "tariff", "embezzlement", "embargo",
                         "exhaustion", "direct transaction", "cook the books", "major fraud", "general audit",
                         "target audit", "free draw", "extra refund"}),
    default="kessel",
    fields=FIELDS,
    calculator=imported_when_called("companion.games.kessel.calculator:answer"),
    calculator_schema=imported_when_called("companion.games.kessel.schema:schema"),
    # The 16 shift tokens as cards to print and cut (K35), one of each.
    printables=(Printables("tokens", "The 16 shift tokens", tuple(PrintCard(t.name, t.does) for t in TOKENS),
                           back="Shift token"),),
    reference=("hands", "reveal", "tokens"),
    dice=(KESSEL_ROLL,),
)
