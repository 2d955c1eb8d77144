"""How the audit log says classic's own events (`Game.log_words`; the package's `LOG_WORDS`
names them): a card put into or taken out of a static field; and a settled hand's sudden demise
in the history's tie column (`Game.tie_column`). Its sudden demise starting and a demise card
entered are the runtime's tie draw's events (`companion.table.tie_draw.log_words`)."""

from __future__ import annotations

from typing import Any, Callable, Mapping


def static_added(ev: Mapping[str, Any], who: str, rules: Any) -> str:
    """A card put into the player's static field."""
    return f"{who} puts {ev.get('card')} in the static field"


def static_removed(ev: Mapping[str, Any], who: str, rules: Any) -> str:
    """A card taken out of the player's static field."""
    return f"{who} takes {ev.get('card')} out of the static field"


def tie_column(hand: Mapping[str, Any], card_name: Callable[[str], str], kind_words: Callable[[str], str]) -> str:
    """A settled hand's sudden demise, as the history's tie column says it: the card dealt,
    the hand's new total and kind ("" for a player who was not in one)."""
    if not hand.get("demise"):
        return ""
    return f"{card_name(hand['demise'])}: {hand['demise_total']}, {kind_words(hand['demise_kind'])}"
