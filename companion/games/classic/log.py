"""How the audit log says classic's own events (`Game.log_words`; the package's `LOG_WORDS`
names them): a card put into or taken out of a static field, a sudden demise starting, a
sudden-demise card entered (the cards another seat entered never appear: only that one was
entered)."""

from __future__ import annotations

from typing import Any, Callable, Mapping


def static_added(ev: Mapping[str, Any], who: str, rules: Any) -> str:
    """A card put into the player's static field."""
    return f"{who} puts {ev.get('card')} in the static field"


def static_removed(ev: Mapping[str, Any], who: str, rules: Any) -> str:
    """A card taken out of the player's static field."""
    return f"{who} takes {ev.get('card')} out of the static field"


def tie_started(ev: Mapping[str, Any], who: str, rules: Any) -> str:
    """A tie's exchange starting: the event's own message, else the game's word for it."""
    return str(ev.get("message") or rules.words.tie)


def tie_card_entered(ev: Mapping[str, Any], who: str, rules: Any) -> str:
    """A tied player's card entered (which card stays hidden), in the game's words."""
    return f"{who} has entered a {rules.words.tie_card}"


def tie_column(hand: Mapping[str, Any], card_name: Callable[[str], str], kind_words: Callable[[str], str]) -> str:
    """A settled hand's sudden demise, as the history's tie column says it: the card dealt,
    the hand's new total and kind ("" for a player who was not in one)."""
    if not hand.get("demise"):
        return ""
    return f"{card_name(hand['demise'])}: {hand['demise_total']}, {kind_words(hand['demise_kind'])}"
