"""The type checker over companion/ (issue 16's guard).

The table state is declared as TypedDicts (companion/table/state.py); only a checker reading
every use makes that worth anything: a key read that the state no longer has, or a hand read
where there may be none, fails here instead of at a table. mypy runs with the repository's own
configuration (pyproject.toml's [tool.mypy]) over the repository's companion/ folder, on every
Python the suite runs on, with a cache of this run's own so that nothing from an earlier run
counts (the probe's check reads what the check of companion/ wrote, when it ran first: the
same modules, the same configuration).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """mypy's cache for this module's checks: new for each run, shared by its tests."""
    return tmp_path_factory.mktemp("mypy-cache")


def mypy(cache: Path, *paths: Path) -> subprocess.CompletedProcess[str]:
    """mypy with the repository's configuration over `paths` (companion/ importable from the
    repository), its cache in `cache`."""
    env = {**os.environ, "MYPY_FORCE_COLOR": "0", "NO_COLOR": "1", "MYPYPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(cache), *map(str, paths)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )


@pytest.mark.slow
def test_companion_type_checks_clean(cache: Path) -> None:
    """mypy finds no error in companion/, and it did check the package's modules."""
    run = mypy(cache, ROOT / "companion")
    report = f"mypy exited with {run.returncode}\n{run.stdout}{run.stderr}"
    assert run.returncode == 0, report
    checked = re.search(r"Success: no issues found in (\d+) source files", run.stdout)
    assert checked is not None, report
    modules = list((ROOT / "companion").rglob("*.py"))
    assert int(checked.group(1)) == len(modules), report


def test_a_key_the_state_does_not_declare_is_an_error_read_either_way(tmp_path: Path, cache: Path) -> None:
    """The guard itself: a hand's key that is not (or no longer) declared fails as `h["key"]`
    (mypy) and as `h.get("key")` (tests/mypy_plugins/typeddict_get.py); a declared one passes."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from companion.table.state import Hand\n"
        "def stale(h: Hand) -> object:\n"
        "    return h['demise_shown'], h.get('demise_shown', False)\n"
        "def declared(h: Hand) -> object:\n"
        "    return h['reentry'], h.get('drew_last')\n"
    )
    run = mypy(cache, probe)
    report = f"mypy exited with {run.returncode}\n{run.stdout}{run.stderr}"
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 2, report
    assert all(":3:" in line and "demise_shown" in line for line in errors), report
    assert any("[typeddict-item]" in line for line in errors), report
    assert any("[typeddict-get-key]" in line for line in errors), report
