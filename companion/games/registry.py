"""Every game the companion plays, found as plug-ins; the one place the runtime asks about games.

A game is found two ways, both giving the same `GAME` value (de-duplicated):

- the entry points of the group ``sabacc_companion.games`` (`importlib.metadata`): the built-in
  games are declared in pyproject.toml, and a game shipped as a pip package of its own declares
  one the same way and appears with no edit here;
- the sub-packages of `companion.games` that export `GAME`: the source tree run without
  installing (the tests, with the source on PYTHONPATH) has no entry points.

The built-in games come first (by package name), then the plug-ins (by entry-point name). A
game is refused at load time, in words, when it raises on import, is not a `Game`, or has a
name, a preset name or a deck name another game already has: the refusal is logged as a
warning and that game is left out, so one bad plug-in never stops the site::

    >>> first = next(iter(games().values()))
    >>> names = list(presets())
    >>> game_of(names[0]) is first, default_preset() in first.presets
    (True, True)
    >>> rules_from({"preset": names[0]}).name == names[0]
    True
    >>> try:
    ...     rules_from({"preset": names[0], "no_such_option": 1})
    ... except InvalidRules as exc:
    ...     print(exc.field, "-", exc.message)
    rules.no_such_option - unknown option 'no_such_option'

Tests add a game with `register(game)` (it returns the undo), or put a ``*.dist-info`` on
`sys.path` and call `reload()`.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import logging
import pkgutil
from types import MappingProxyType
from typing import Any, Callable, Iterator, Mapping

from companion.games.api import DiceSpec, Game, InvalidRules, Parser

__all__ = ["GROUP", "Game", "GameRefused", "InvalidRules", "decks", "default_preset", "dice", "game_of", "games",
           "may_follow", "options", "presets", "register", "reload", "rules_from"]

#: The entry-point group a game package declares (`[project.entry-points."sabacc_companion.games"]`).
GROUP = "sabacc_companion.games"
#: Where the built-in games live (each sub-package exporting `GAME`).
PACKAGE = "companion.games"

log = logging.getLogger(__name__)


class GameRefused(ValueError):
    """A game the registry will not take: the message says why, in words."""


class _Loaded:
    """What the registry found, with the maps every reader asks for (built once)."""

    def __init__(self, found: list[tuple[str, Any]]):
        self.games: dict[str, Game] = {}
        self.presets: dict[str, Any] = {}
        self.preset_game: dict[str, Game] = {}
        self.decks: dict[str, Any] = {}
        self.options: dict[str, Parser] = {}
        self.dice: dict[str, DiceSpec] = {}
        for origin, game in found:
            why = self.refusal(game)
            if why:
                log.warning("game %r (%s) left out: %s", getattr(game, "name", "?"), origin, why)
                continue
            self.add(game)

    def refusal(self, game: Any) -> str:
        """Why `game` cannot join the games found so far ("" if it can)."""
        if not isinstance(game, Game):
            return f"its GAME is a {type(game).__name__}, not a companion.games.api.Game"
        if not isinstance(game.name, str) or not game.name:
            return "its name is empty"
        if game.name in self.games:
            return f"another game is named {game.name!r} too"
        if not game.presets:
            return "it has no preset"
        for name, rules in game.presets.items():
            if getattr(rules, "name", None) != name:
                return f"its preset {name!r} holds rules named {getattr(rules, 'name', None)!r}"
            if name in self.presets:
                return f"its preset {name!r} is already a preset of {self.preset_game[name].title}"
        if game.default and game.default not in game.presets:
            return f"its default preset {game.default!r} is none of its presets"
        for name, deck in game.decks.items():
            if name in self.decks and self.decks[name] is not deck and self.decks[name] != deck:
                return f"its deck {name!r} is another deck of that name already"
        for name, parse in game.options.items():
            if not callable(parse):
                return f"its option {name!r} has no parser"
        for spec in game.dice:
            had = self.dice.get(spec.key)
            if had is not None and (had.count, had.sides, had.shifts) != (spec.count, spec.sides, spec.shifts):
                # The key is what a recorded roll names: one key, one way to derive and judge it.
                return f"its dice {spec.key!r} are other dice than another game's of that key"
        return ""

    def add(self, game: Game) -> None:
        """Take `game` in (checked by `refusal` first)."""
        self.games[game.name] = game
        for name, rules in game.presets.items():
            self.presets[name] = rules
            self.preset_game[name] = game
        for name, deck in game.decks.items():
            self.decks.setdefault(name, deck)
        for name, parse in game.options.items():
            self.options.setdefault(name, parse)
        for spec in game.dice:
            self.dice.setdefault(spec.key, spec)


#: The games found (None: not looked for yet), and the games tests added with `register`.
_found: _Loaded | None = None
_added: list[Game] = []
_loading = False


def _built_in() -> Iterator[tuple[str, Callable[[], Any]]]:
    """The sub-packages of `companion.games`, by name: (`module:GAME`, how to load it)."""
    package = importlib.import_module(PACKAGE)
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.ispkg:
            module = f"{PACKAGE}.{info.name}"
            yield f"{module}:GAME", functools.partial(_game_of_module, module)


def _game_of_module(module: str) -> Any:
    """A module's `GAME` (None when it exports none)."""
    return getattr(importlib.import_module(module), "GAME", None)


def _plug_ins() -> Iterator[tuple[str, Callable[[], Any]]]:
    """The entry points of `GROUP`, by name: (`module:attr`, how to load it)."""
    for ep in sorted(importlib.metadata.entry_points(group=GROUP), key=lambda e: (e.name, e.value)):
        yield ep.value.replace(" ", ""), ep.load


def _find() -> list[tuple[str, Any]]:
    """Every game value with where it came from (`module:attr`), loaded once each; a source
    that raises is logged and left out."""
    found: list[tuple[str, Any]] = []
    seen: set[str] = set()
    for key, load in (*_built_in(), *_plug_ins()):
        if key in seen:
            continue
        seen.add(key)
        try:
            game = load()
        except Exception as exc:  # a plug-in's own bug: leave it out, keep the site up
            log.warning("game %s left out: it raised %s: %s", key, type(exc).__name__, exc)
            continue
        if game is None:  # a sub-package that is no game (it exports no GAME)
            continue
        if any(game is g for _, g in found):  # the entry point of a built-in game found by the scan
            continue
        found.append((key, game))
    return found


def _loaded() -> _Loaded:
    global _found, _loading
    if _found is None:
        if _loading:
            raise RuntimeError("a game asked the registry while the games were loading "
                               "(a game package must not read the registry at import)")
        _loading = True
        try:
            _found = _Loaded([*_find(), *(("registered", g) for g in _added)])
        finally:
            _loading = False
    return _found


def games() -> Mapping[str, Game]:
    """Every game by its name: the built-in ones first, then the plug-ins (loaded once)."""
    return MappingProxyType(_loaded().games)


def presets() -> Mapping[str, Any]:
    """Every preset of every game by its name, game by game in `games()` order (each game's in
    its own order): what a table and the payout calculator start from."""
    return MappingProxyType(_loaded().presets)


def game_of(preset: str) -> Game:
    """The game a preset belongs to. Raises `InvalidRules` (field "rules.preset") if none has it."""
    found = _loaded().preset_game.get(preset) if isinstance(preset, str) else None
    if found is None:
        raise InvalidRules(f"unknown preset {preset!r}; one of " + ", ".join(presets()), "rules.preset")
    return found


def may_follow(was: Game, becomes: Game) -> bool:
    """Whether a table playing `was` may switch to `becomes` by dealer's choice: within one
    game always, between games only when both are played in hands (a game played to a winner
    keeps its table until it is won)::

        >>> import dataclasses
        >>> by_hand = next(g for g in games().values() if g.by_hand)
        >>> to_a_winner = dataclasses.replace(by_hand, by_hand=False)
        >>> may_follow(by_hand, by_hand), may_follow(to_a_winner, to_a_winner), may_follow(by_hand, to_a_winner)
        (True, True, False)
    """
    return was is becomes or (was.by_hand and becomes.by_hand)


def default_preset() -> str:
    """The preset the pages select first: the first game's default."""
    return next(iter(games().values())).default_preset()


def options() -> Mapping[str, Parser]:
    """Every option name any game accepts -> its parser."""
    return MappingProxyType(_loaded().options)


def decks() -> Mapping[str, Any]:
    """Every deck of every game by its name (the card picker asks for one by it)."""
    return MappingProxyType(_loaded().decks)


def dice() -> Mapping[str, DiceSpec]:
    """Every dice any game's scrambler throws, by its key (what a recorded roll names)."""
    return MappingProxyType(_loaded().dice)


def rules_from(spec: Any, field: str = "rules") -> Any:
    """The rules a description gives: a preset name or ``{"preset": name, **options}``.

    Finds the game by the preset, refuses in words (`InvalidRules` with the path of the bad
    field) an unknown preset, an unknown option, an option of another game and a value the
    option's parser refuses, each in the description's order, then asks the game.
    """
    preset_field = field if isinstance(spec, str) else f"{field}.preset"
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, Mapping):
        raise InvalidRules("rules must be a preset name or an object with a preset", field)
    preset = spec.get("preset")
    found = _loaded()
    game = found.preset_game.get(preset) if isinstance(preset, str) else None  # a list is unhashable
    if game is None or not isinstance(preset, str):
        raise InvalidRules(f"unknown preset {preset!r}; one of " + ", ".join(found.presets), preset_field)
    for name, value in spec.items():
        if name == "preset":
            continue
        if name not in found.options:
            raise InvalidRules(f"unknown option {name!r}", f"{field}.{name}")
        parse = game.options.get(name)
        if parse is None:
            raise InvalidRules(f"{name} is not an option of {found.presets[preset].title}", f"{field}.{name}")
        try:
            parse(value)
        except ValueError as exc:
            raise InvalidRules(f"{name} {exc}", f"{field}.{name}") from None
    return game.rules_from(spec, field)


def register(game: Game) -> Callable[[], None]:
    """Add a game (for tests: a game defined in tests/); returns the undo. Raises `GameRefused`
    in words when the registry refuses it (see the module docstring)."""
    why = _loaded().refusal(game)
    if why:
        raise GameRefused(f"game {getattr(game, 'name', game)!r} refused: {why}")
    _added.append(game)
    _loaded().add(game)

    def undo() -> None:
        if game in _added:
            _added.remove(game)
        reload()

    return undo


def reload() -> None:
    """Forget what was found; the next question looks again (after a test put a plug-in's
    ``*.dist-info`` on `sys.path`, or took it away). Games added with `register` stay."""
    global _found
    importlib.invalidate_caches()
    _found = None
