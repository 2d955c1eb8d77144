"""The showdown's calculator request and answer as JSON Schema (`showdown.read_request`), for
the OpenAPI document (`Game.calculator_schema`), and the calculator page's form of it.

Every game played with a `RuleSet` that has a payout calculator reads the same request: the
showdown's fields of each player and the game's own (its `PlayerReveal`'s `own_schema`), the
options of every such game (those a game types: its `option_schema`), the game's penalties
(`penalty_reasons`) and the answer while a tie is broken (`tie_answer`). The schema is built
from the registry's rule sets, so each such game (a plug-in's too) declares the same
components, which the document lists once; each game's calculator page has its own `form`.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.games import registry
from companion.games.api import CalculatorSchema
from companion.rules.request import MAX_CARDS, MAX_CREDITS, MAX_NAME
from companion.rules.rulesets import RuleSet
from companion.rules.showdown import MAX_PLAYERS, MIN_PLAYERS, SETTLED, PlayerReveal

#: A credit amount in the request.
WHOLE = {"type": "integer", "minimum": 0, "maximum": MAX_CREDITS}


def rule_sets() -> dict[str, RuleSet]:
    """The presets played with a `RuleSet` whose game has a calculator (this schema's)."""
    return {n: rs for n, rs in registry.presets().items()
            if isinstance(rs, RuleSet) and registry.game_of(n).calculator is not None}


def reveals(presets: Mapping[str, RuleSet]) -> list[type[PlayerReveal]]:
    """Each game's record of a player at the reveal, once, in the registry's order."""
    return list(dict.fromkeys(rs.hands.reveal_class() for rs in presets.values()))


def schema(examples: Mapping[str, Any], form: Mapping[str, Any]) -> CalculatorSchema:
    """The request and answer of every game played with a `RuleSet` with a calculator
    (`Game.calculator_schema`), with the calling game's `examples` and calculator `form`."""
    presets = rule_sets()
    own = reveals(presets)
    decks = {rs.deck.name: rs.deck for rs in presets.values()}
    card = {
        "type": "string",
        "description": "A card code of the rule set's deck, case-insensitive. "
        + " ".join(f"{d.title[0].upper()}{d.title[1:]} ({d.name}): {', '.join(d.cards)}." for d in decks.values()),
        "examples": [code for d in decks.values() for code in list(d.cards)[:2]],
    }
    names = {"type": "array", "items": {"type": "string"}}
    # Every kind of hand any rule set judges, in its rankings' order (each game names its own).
    kinds = list(dict.fromkeys(k for rs in presets.values() for k, _ in rs.hands.kinds))
    typed: dict[str, Any] = {}
    for reveal in own:
        typed.update(reveal.option_schema(WHOLE))
    options = {name: typed.get(name, {"description": f"The project's option {name!r} (see the rules page)."})
               for name in registry.options()}
    players: dict[str, Any] = {
        "name": {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "description": "Unique at the table."},
        "cards": {
            "type": "array",
            "maxItems": MAX_CARDS,
            "items": card,
            "description": "The hand at the reveal; at least 2 cards unless folded (a rule set's deck may "
            "also set a most: "
            + "; ".join(f"{d.name}: {d.hand_min} to {d.hand_max}" for d in decks.values() if d.hand_max)
            + "). No card may appear more often across the table than the deck has it. The "
            "last player left after everyone else folded shows nothing, or, where the rules let "
            "the last player show a hand ("
            + ", ".join(n for n, rs in presets.items() if rs.hands.last_player_shows)
            + "), may show one: a hand that takes the sabacc pot takes it too.",
        },
        "committed": {**WHOLE, "description": "Credits put into the hand pot this hand."},
        "fees": {**WHOLE, "default": 0, "description": "Fees and penalties the player paid into the pot this "
                 "hand (for a draw, for dropping out): they belong to the main pot, whoever wins it."},
        "stack": {
            "type": ["integer", "null"],
            "minimum": 0,
            "maximum": MAX_CREDITS,
            "description": "Credits behind; penalties are capped at it plus what the player "
            "receives. Omitted or null: no cap.",
        },
        "folded": {"type": "boolean", "default": False},
        "called": {"type": "boolean", "default": False, "description": "At most one player. "
                   "Not used where a hand ends after a fixed number of rounds ("
                   + ", ".join(n for n, rs in presets.items() if not rs.ending.by_call) + ")."},
    }
    for reveal in own:
        players.update(reveal.own_schema(card, presets))
    ties = [answer for reveal in own if (answer := reveal.tie_answer(names, presets)) is not None]
    reasons = list(dict.fromkeys(r for reveal in own for r in reveal.penalty_reasons()))
    hand_results = {"type": "array", "items": {"$ref": "#/components/schemas/HandResult"}}

    components: dict[str, Any] = {
        "RuleSetChoice": {
            "description": "A preset name, or a preset with options that override it. "
            "An unknown preset or option is a 422.",
            "oneOf": [
                {"type": "string", "enum": list(presets)},
                {
                    "type": "object",
                    "required": ["preset"],
                    "additionalProperties": False,
                    "properties": {"preset": {"type": "string", "enum": list(presets)}, **options},
                },
            ],
        },
        "PlayerReveal": {
            "type": "object",
            "description": "One player at the reveal. Unknown fields are a 422.",
            "required": ["name", "cards", "committed"],
            "additionalProperties": False,
            "properties": players,
        },
        "SettleRequest": {
            "type": "object",
            "required": ["rules", "players", "sabacc_pot"],
            "additionalProperties": False,
            "properties": {
                "rules": {"$ref": "#/components/schemas/RuleSetChoice"},
                "players": {
                    "type": "array",
                    "minItems": MIN_PLAYERS,
                    "maxItems": MAX_PLAYERS,
                    "items": {"$ref": "#/components/schemas/PlayerReveal"},
                    "description": "In seat order from the dealer's left (the dealer is last).",
                },
                "sabacc_pot": {**WHOLE, "description": "The sabacc pot before this settlement."},
            },
        },
        "HandResult": {
            "type": "object",
            "required": ["name", "total", "kind"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string"},
                "total": {"type": ["integer", "null"], "description": "null for folded and conceded."},
                "kind": {"type": "string", "enum": kinds},
            },
        },
        "PotResult": {
            "type": "object",
            "required": ["amount", "eligible", "winners", "to_sabacc_pot"],
            "additionalProperties": False,
            "properties": {
                "amount": {"type": "integer", "minimum": 0},
                "eligible": names,
                "winners": {**names, "description": "Two or more names for a split."},
                "to_sabacc_pot": {"type": "boolean", "description": "Nobody could win this pot."},
            },
        },
        "Penalty": {
            "type": "object",
            "required": ["name", "reason", "amount", "shortfall"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string"},
                "reason": {"type": "string", "enum": reasons},
                "amount": {"type": "integer", "minimum": 0},
                "shortfall": {"type": "integer", "minimum": 0, "description": "What the cap kept the player from paying."},
            },
        },
        "Settled": {
            "type": "object",
            "required": ["status", "hands", "pots", "sabacc_pot_winners", "penalties", "sabacc_pot_after", "payouts"],
            "additionalProperties": False,
            "properties": {
                "status": {"type": "string", "const": SETTLED},
                "hands": hand_results,
                "pots": {"type": "array", "items": {"$ref": "#/components/schemas/PotResult"}},
                "sabacc_pot_winners": names,
                "penalties": {"type": "array", "items": {"$ref": "#/components/schemas/Penalty"}},
                "sabacc_pot_after": {"type": "integer", "minimum": 0},
                "payouts": {
                    "type": "object",
                    "additionalProperties": {"type": "integer"},
                    "description": "Per player: credits received minus penalties paid.",
                },
            },
        },
        **{name: tie for name, tie, _ in ties},
        "SettleResult": {
            "oneOf": [{"$ref": "#/components/schemas/Settled"},
                      *({"$ref": f"#/components/schemas/{name}"} for name, _, _ in ties)]
        },
    }
    description = ("Judges every hand, awards the hand pot and side pots, the sabacc "
                   "pot and the penalties as the rule set's game says. The games and their presets: "
                   + "; ".join(f"{game}: " + ", ".join(n for n, rs in presets.items() if rs.hands.name == game)
                               for game in dict.fromkeys(rs.hands.name for rs in presets.values()))
                   + ". " + " ".join(words for _, _, words in ties))
    return CalculatorSchema("SettleRequest", "SettleResult", components, description.strip(), dict(examples),
                            dict(form))


def tie_players(status: str, players: str, names: Mapping[str, Any], words: str, least: int = 1) -> dict[str, Any]:
    """The answer while tied players are asked for a card: its `status`, the list of them
    (`players`, at least `least`, described by `words`) and the judged hands."""
    return {
        "type": "object",
        "required": ["status", players, "hands"],
        "additionalProperties": False,
        "properties": {
            "status": {"type": "string", "const": status},
            players: {**names, "minItems": least, "description": words},
            "hands": {"type": "array", "items": {"$ref": "#/components/schemas/HandResult"}},
        },
    }


def form(rules: RuleSet, tie: Mapping[str, Any], *, cards: Mapping[str, Any] | None = None,
         calls: bool = True, player_before: Sequence[Mapping[str, Any]] = (),
         player_after_cards: Sequence[Mapping[str, Any]] = (),
         options: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The calculator page's form of the showdown's request (`CalculatorSchema.form`) in the
    words of `rules`' game: its tie's exchange (`tie`), whether a player calls (`calls`), how a
    player's cards are asked for (`cards`: the field's label and what else the game sets), and
    the game's own fields of a player (before the cards, after them) and its options."""
    folded = rules.hands.words("folded")
    player: list[dict[str, Any]] = [{"key": "name", "label": "Name", "kind": "text"}, *map(dict, player_before)]
    player.append({"key": "cards", "label": "Cards at the reveal", "kind": "cards", "cleared_folded": True,
                   **(cards or {})})
    player += [*map(dict, player_after_cards),
               {"key": "committed", "label": "Committed", "kind": "whole", "half": True},
               {"key": "stack", "label": "Stack behind (optional)", "kind": "whole", "optional": True, "half": True},
               {"key": "folded", "label": folded[0].upper() + folded[1:], "kind": "flag", "folds": True}]
    if calls:
        player.append({"key": "called", "label": "Called the hand", "kind": "one",
                       "nobody": "Nobody called (everyone else folded)"})
    return {
        "options": [dict(o) for o in options],
        "legend": "Sabacc pot",
        "fields": [{"key": "sabacc_pot", "label": "Credits in the sabacc pot before this hand is settled",
                    "kind": "whole"}],
        "player": player,
        "players": 3,
        "seats": {"hint": "Add players in seat order, clockwise, starting with the player on the dealer's left. "
                          "The dealer is last.", "first": "on the dealer's left", "last": "the dealer"},
        "tie": dict(tie),
        "result": {"sentence": "pots", "amount": "payouts", "amount_label": "Payout", "signed": True,
                   "after": "stack", "after_label": "Stack after", "kinds": dict(rules.hands.kinds),
                   "pot_words": rules.pot_words, "pot_after": "sabacc_pot_after",
                   "pot_after_label": "Sabacc pot after"},
    }
