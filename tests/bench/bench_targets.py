"""The benchmark's targets (issue 6), as a test to run on its own — never in the default run
(the file name does not match `test_*.py`):

    .venv/bin/pytest tests/bench/bench_targets.py -q

It runs `sabacc-companion bench` once (every figure from the same run), writes the figures to
test-artifacts/bench.json, and checks each target on its own line so a report shows which
ones were missed. Figures depend on the machine and on what else runs on it: see
docs/PERFORMANCE.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.bench import TARGETS

ARTIFACT = Path(__file__).resolve().parents[2] / "test-artifacts" / "bench.json"


@pytest.fixture(scope="module")
def figures():
    ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "companion", "bench", "--json", str(ARTIFACT)],
                   check=True, timeout=900)
    return json.loads(ARTIFACT.read_text())


def test_the_benchmark_reports_every_figure(figures):
    for n in (1, 10, 50):
        assert 0 < figures[f"fanout_p50_ms_{n}"] <= figures[f"fanout_p99_ms_{n}"]
    for key in ("overhead_ratio", "growth_ratio", "rss_mb_50", "startup_s", "settle_per_s"):
        assert figures[key] > 0, key


@pytest.mark.parametrize("figure", sorted(TARGETS))
def test_target(figures, figure):
    assert figures[figure] <= TARGETS[figure], f"{figure} = {figures[figure]} (target ≤ {TARGETS[figure]})"
