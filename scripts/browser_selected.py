"""Whether pytest's arguments may run a browser test: scripts/test installs Chromium only then.

Run with the test venv's Python and the arguments scripts/test passes to pytest; the exit
status is 0 when a test marked ``browser`` may run, 1 when surely none will. It is
conservative: it says "none" only when the arguments only collect (``--collect-only``,
``--co``) or when the marker expression (the last ``-m``, as pytest takes it) is false for
every test marked ``browser`` whatever its other marks. Anything it cannot read (no pytest,
an expression pytest would refuse, ``-qm EXPR``) counts as "may run": at worst Chromium is
installed for nothing, never missing for a browser test.

    >>> browser_tests_may_run(["-m", "not browser"])
    False
    >>> browser_tests_may_run(["-x", "-m", "slow and not (browser or hardware)"])
    False
    >>> browser_tests_may_run(["-m", "not slow"])
    True
    >>> browser_tests_may_run(["-k", "settle"])
    True
"""

from __future__ import annotations

import sys
from typing import Any, Sequence

#: Options after which pytest runs no test at all.
COLLECT_ONLY = frozenset({"--collect-only", "--co"})


def marker_expression(args: Sequence[str]) -> str | None:
    """The ``-m`` expression pytest would use (the last one given), or None."""
    expression = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "-m" and i + 1 < len(args):
            expression = args[i + 1]
        elif arg.startswith("-m") and not arg.startswith("-m="):
            expression = arg[2:] or expression  # -mEXPR, argparse's attached form
    return expression


def may_match_a_browser_test(expression: str) -> bool:
    """Whether some test marked ``browser`` (with any other marks) satisfies `expression`.

    Every mark name the expression reads, other than a bare ``browser`` (true for such a test),
    is tried both ways: it is usually two or three names, so trying them all is cheap.
    """
    try:
        from _pytest.mark.expression import Expression  # pytest's own parser: same grammar

        compiled = Expression.compile(expression)
    except Exception:
        return True  # unreadable here: pytest will say what is wrong, with Chromium at hand
    pending: list[dict[Any, bool]] = [{"browser": True}]
    while pending:
        fixed = pending.pop()
        unknown: list[Any] = []

        def matcher(name: str, /, **kwargs: Any) -> bool:
            key = (name, tuple(sorted(kwargs.items()))) if kwargs else name
            if key in fixed:
                return fixed[key]
            unknown.append(key)
            return False

        if compiled.evaluate(matcher):
            return True
        if unknown:  # the first name met undecided: decide it both ways
            pending.append({**fixed, unknown[0]: False})
            pending.append({**fixed, unknown[0]: True})
    return False


def browser_tests_may_run(args: Sequence[str]) -> bool:
    """Whether pytest run with `args` may run a test marked ``browser`` (see the module)."""
    if any(arg in COLLECT_ONLY for arg in args):
        return False
    expression = marker_expression(args)
    if not expression or not expression.strip():
        return True  # no -m (or an empty one): every test is selected
    return may_match_a_browser_test(expression)


if __name__ == "__main__":
    sys.exit(0 if browser_tests_may_run(sys.argv[1:]) else 1)
