"""The type checker over companion/ (issue 16's guard).

The table state is declared as TypedDicts (companion/table/state.py); only a checker reading
every use makes that worth anything: a key read that the state no longer has, or a hand read
where there may be none, fails here instead of at a table. mypy runs with the repository's own
configuration (pyproject.toml's [tool.mypy]) over the repository's companion/ folder, on every
Python the suite runs on, with a cache of its own so that nothing from an earlier run counts.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_companion_type_checks_clean(tmp_path: Path) -> None:
    """mypy finds no error in companion/, and it did check the package's modules."""
    env = {**os.environ, "MYPY_FORCE_COLOR": "0", "NO_COLOR": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "mypy-cache"), str(ROOT / "companion")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    report = f"mypy exited with {run.returncode}\n{run.stdout}{run.stderr}"
    assert run.returncode == 0, report
    checked = re.search(r"Success: no issues found in (\d+) source files", run.stdout)
    assert checked is not None, report
    modules = list((ROOT / "companion").rglob("*.py"))
    assert int(checked.group(1)) == len(modules), report
