"""Corellian Spike's payout calculator (`GAME.calculator`): the request of SETTLE-API.md, read
as the runtime's showdown reads every game played with a `RuleSet` (`companion.rules.showdown.
read_request`; `blind_draw` is Spike's own field), answered by Spike's settlement
(`settle.settle`: a tie is a blind draw)::

    >>> a = answer({"rules": "spike", "sabacc_pot": 10, "players": [
    ...     {"name": "Rey", "cards": ["+1", "-1"], "committed": 4},
    ...     {"name": "Finn", "cards": ["+5", "-2"], "committed": 4}]})
    >>> a["status"], a["payouts"], a["sabacc_pot_winners"]
    ('settled', {'Rey': 18, 'Finn': 0}, ['Rey'])
"""

from __future__ import annotations

from typing import Any

from companion.rules.showdown import answer_with
from companion.games.spike.settle import settle


def answer(body: Any) -> dict[str, Any]:
    """Spike's payout calculator: the answer to a request body as JSON; `InvalidRequest` (of
    `companion.games.api`) for the first bad field."""
    return answer_with(settle, body)
