"""A mypy plugin: `.get("key")` on a TypedDict must name a declared key.

mypy checks `record["key"]` against the TypedDict, but lets `record.get("key")` name any key
(PEP 589 allows it): a key the table state no longer has, read with `.get`, would hide behind its
default. This plugin reports such a `.get` as an error (code `typeddict-get-key`) and otherwise
leaves mypy's own inference of `.get` as it is. Loaded by pyproject.toml's [tool.mypy] `plugins`.
"""

from __future__ import annotations

from typing import Callable

from mypy.errorcodes import ErrorCode
from mypy.plugin import MethodContext, Plugin
from mypy.plugins.default import typed_dict_get_callback
from mypy.typeops import try_getting_str_literals
from mypy.types import Type, TypedDictType

TYPEDDICT_GET_KEY = ErrorCode("typeddict-get-key", "A .get() of a key the TypedDict does not declare",
                              "General")
_GET = "typing.Mapping.get"  # where mypy resolves a TypedDict's .get (its default plugin's hook)


def _checked_get(ctx: MethodContext) -> Type:
    """Report the literal keys the TypedDict does not declare, then infer as mypy does."""
    if isinstance(ctx.type, TypedDictType) and ctx.args and len(ctx.args[0]) == 1:
        keys = try_getting_str_literals(ctx.args[0][0], ctx.arg_types[0][0]) or []
        name = ctx.type.fallback.type.name
        for key in keys:
            if key not in ctx.type.items:
                ctx.api.fail(f'TypedDict "{name}" has no key "{key}" (a .get of it would hide a stale key)',
                             ctx.context, code=TYPEDDICT_GET_KEY)
    return typed_dict_get_callback(ctx)


class TypedDictGetPlugin(Plugin):
    """Checks the keys of `.get` calls on TypedDicts."""

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return _checked_get if fullname == _GET else None


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point."""
    return TypedDictGetPlugin
