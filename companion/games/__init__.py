"""The games the companion plays, each a plug-in package (issue 29, docs/design/games-interface.md).

A game is a package that exports one `GAME` value (`companion.games.api.Game`): its presets,
its options, how a rule-set description becomes its rules value, its decks, its rules page, the
engine its live table runs and its payout calculator. `companion.games.registry` finds every
game: the sub-packages of this package and the entry points of the group
``sabacc_companion.games`` (a game shipped as a pip package of its own). The runtime asks the
registry and names no game.

This module imports nothing, so that `companion.games.api` can be imported by anything.
"""
