"""Classic's payout calculator (`GAME.calculator`): a SETTLE-API.md request, read as the
runtime's showdown reads every game played with a `RuleSet` (`companion.rules.showdown.
read_request`, with classic's own fields: `demise`, `static`, `side`), answered by classic's
settlement (`settle.settle`).

`read_request(body)` checks every field's type and range and then the reveal itself
(`check_reveal`), and returns `(RuleSet, [classic's PlayerReveal], sabacc_pot)`. Anything wrong
raises `InvalidRequest` with the message in words and the path of the first bad field::

    >>> from companion.rules.showdown import InvalidRequest, read_request
    >>> rules, players, pot = read_request({
    ...     "rules": "classic",
    ...     "players": [
    ...         {"name": "Lando", "cards": ["CO7", "sa11"], "committed": 30},
    ...         {"name": "Han", "cards": ["idiot", "st2", "co3"], "committed": 30, "called": True},
    ...     ],
    ...     "sabacc_pot": 40,
    ... })
    >>> rules.name, players[0].cards, players[1].called, pot
    ('classic', ('co7', 'sa11'), True, 40)
    >>> try:
    ...     read_request({"rules": "classic", "sabacc_pot": 0, "players": [
    ...         {"name": "Lando", "cards": ["co7", "sa99"], "committed": 1},
    ...         {"name": "Han", "cards": ["co8", "sa1"], "committed": 1}]})
    ... except InvalidRequest as exc:
    ...     print(exc.field, "-", exc.message)
    players[0].cards[1] - unknown card 'sa99'

Rulings on the shape (documented in the OpenAPI document too):

- Unknown fields, at the top level or in a player, are refused (422), so that a misspelt
  `comitted` is not silently read as 0.
- `sabacc_pot`, and each player's `name`, `cards` and `committed`, are required (`cards` may
  be empty for a folded player). `stack` may be omitted or null (no cap).
- `static` must be empty unless the rules play Hold 'Em, and `side` absent (or null) unless they
  play Force Sabacc; under Force Sabacc every player still in the hand needs a side.
- Credits are whole numbers from 0 to `MAX_CREDITS`; true/false and 30.0 are not whole
  numbers. At most `MAX_PLAYERS` players and `MAX_CARDS` cards a hand.
"""

from __future__ import annotations

from typing import Any

from companion.games.classic.settle import settle
from companion.rules.showdown import answer_with


def answer(body: Any) -> dict[str, Any]:
    """Classic's payout calculator (`Game.calculator`): the answer to a SETTLE-API.md request
    body as JSON; `InvalidRequest` (of `companion.games.api`) for the first bad field."""
    return answer_with(settle, body)
