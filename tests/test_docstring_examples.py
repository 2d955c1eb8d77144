"""Every docstring example in the companion runs, against the installed package.

The examples are the modules' own documentation (a deck of 76 cards, a seed's rolls, a chip
breakdown): if one stops being true, the documentation is wrong. They run here rather than
through ``--doctest-modules`` because that option imports the source tree in place of the
installed wheel the rest of the suite tests.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import companion


def _modules() -> list[str]:
    """Every module of the installed package, by dotted name (but ``__main__``, which runs
    the command line when imported)."""
    return sorted(
        info.name
        for info in pkgutil.walk_packages(companion.__path__, prefix="companion.")
        if not info.name.endswith("__main__")
    )


def _examples(name: str) -> list[doctest.DocTest]:
    """The docstrings of one module that hold examples."""
    module = importlib.import_module(name)
    return [t for t in doctest.DocTestFinder().find(module, name) if t.examples]


MODULES_WITH_EXAMPLES = [name for name in _modules() if _examples(name)]


def test_docstring_examples_are_found() -> None:
    """The search finds the modules that document themselves with examples (the rules, the
    scrambler, the ledger, ...): a broken walk must not pass by running nothing."""
    assert len(MODULES_WITH_EXAMPLES) >= 20
    assert {"companion.rules.cards", "companion.scrambler.seed", "companion.table.chips"} <= set(
        MODULES_WITH_EXAMPLES
    )


@pytest.mark.parametrize("name", MODULES_WITH_EXAMPLES)
def test_docstring_examples_run(name: str) -> None:
    """Each example of the module gives the output its docstring shows."""
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in _examples(name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"
