"""Two builds' benchmarks in one sitting: `sabacc-companion bench --against OTHER`.

"Before and after, in one sitting on one machine" needs more than two runs. A machine's speed
drifts over minutes (a shared or burstable CPU, its clock, what else it runs), and on the
machine this was written on the build run second in every pair looked up to a fifth slower
on some figures for that alone. So a sitting alternates which build goes first (pairs in the
order before-after, after-before, ...: `sitting`), and `compare` gives for each figure both
means, their ratio, in how many pairs the after build's figure was the higher, and the drift
(the mean ratio of the pair's second run to its first, whichever build that was): a figure
whose drift is as large as its ratio did not move beyond what the machine does by itself.
Running a build against itself (an A/A sitting) shows how far the ratios wander when nothing
changed::

    >>> sitting(3)
    [(1, 'before'), (1, 'after'), (2, 'after'), (2, 'before'), (3, 'before'), (3, 'after')]
    >>> rows = compare({"before": [{"ms": 2.0}, {"ms": 2.2}], "after": [{"ms": 1.9}, {"ms": 2.4}]})
    >>> r = rows[0]
    >>> r.figure, r.before, r.after, round(r.ratio, 3), r.after_higher, round(r.drift, 3)
    ('ms', 2.1, 2.15, 1.024, 1, 0.933)

Both builds are started the same way: each one's interpreter with `-P -m companion`, the other
build's interpreter read from the first line of its `sabacc-companion` command (`started_as`),
each from a fresh empty working folder (so neither imports a `companion/` package lying there:
`ServerProcess` starts its server with `-P` too). Starting them alike takes away the one
known difference between the sides. It does not take away a sitting's spread: of three
sittings of one build against itself (docs/PERFORMANCE.md, "Issue 29, eleventh session"),
the one whose other side started through its console script had that side's pings slower in
9 pairs of 12, and one with both sides started alike had them faster in 6 pairs of 8.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

BEFORE, AFTER = "before", "after"
#: Pairs in a sitting unless `--pairs` says otherwise.
PAIRS = 4


def before_first(pair: int) -> bool:
    """Whether pair number `pair` (from 1) of a sitting runs the before build first: the odd
    pairs do, the even pairs run the after build first."""
    return pair % 2 == 1


def sitting(pairs: int) -> list[tuple[int, str]]:
    """The runs of a sitting of `pairs` pairs, in order: (pair number, build)."""
    out: list[tuple[int, str]] = []
    for k in range(1, pairs + 1):
        first, second = (BEFORE, AFTER) if before_first(k) else (AFTER, BEFORE)
        out += [(k, first), (k, second)]
    return out


@dataclass(frozen=True)
class Compared:
    """One figure over a sitting: the builds' means, `after / before`, the pairs where the
    after build's figure was the higher, and the drift (second run / first run, averaged)."""

    figure: str
    before: float
    after: float
    ratio: float
    after_higher: int
    pairs: int
    drift: float


def _figures(run: Mapping[str, Any]) -> dict[str, float]:
    return {k: float(v) for k, v in run.items() if type(v) in (int, float)}


def compare(runs: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[Compared]:
    """Each numeric figure both builds' runs have (`runs[BEFORE][i]` and `runs[AFTER][i]` are
    pair i + 1 of `sitting`), in the order of the first before run."""
    pairs = list(zip(runs[BEFORE], runs[AFTER]))
    if not pairs:
        return []
    b_runs = [_figures(b) for b, _ in pairs]
    a_runs = [_figures(a) for _, a in pairs]
    rows = []
    for figure in b_runs[0]:
        if not all(figure in b and figure in a for b, a in zip(b_runs, a_runs)):
            continue
        bs = [b[figure] for b in b_runs]
        as_ = [a[figure] for a in a_runs]
        mb, ma = statistics.mean(bs), statistics.mean(as_)
        seconds = [(a / b if before_first(k) else b / a) for k, (b, a) in enumerate(zip(bs, as_), start=1) if a and b]
        rows.append(Compared(figure, round(mb, 6), round(ma, 6), ma / mb if mb else float("nan"),
                             sum(a > b for b, a in zip(bs, as_)), len(pairs),
                             statistics.mean(seconds) if seconds else float("nan")))
    return rows


def compare_text(rows: Sequence[Compared]) -> str:
    """The comparison as a plain-text table."""
    head = ("figure", "before", "after", "after/before", "after higher", "drift (2nd/1st)")
    lines = [head] + [(r.figure, f"{r.before:g}", f"{r.after:g}", f"{r.ratio:.2f}",
                       f"{r.after_higher}/{r.pairs}", f"{r.drift:.2f}") for r in rows]
    width = [max(len(line[i]) for line in lines) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(width[i]) for i, c in enumerate(line)).rstrip() for line in lines)


def bench_commands(other: str, options: Sequence[str] = ()) -> dict[str, list[str]]:
    """The command lines of a sitting's runs, before `--json FILE`: the build of the other
    `sabacc-companion` command (before) and this one (after), both started as `started_as`
    starts them, with the bench's `options`."""
    return {BEFORE: [*started_as(other), "bench", *options],
            AFTER: [sys.executable, "-P", "-m", "companion", "bench", *options]}


def started_as(command: str) -> list[str]:
    """How to start the build behind `command` (its `sabacc-companion`) as this build's runs
    are started: its interpreter, named on the command's first line (a console script's
    ``#!``), with `-P -m companion`. A command that is no such script, or whose build cannot
    be run with `-m`, is run as it is.

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     script = os.path.join(d, "sabacc-companion")
    ...     with open(script, "w") as f:
    ...         _ = f.write(f"#!{sys.executable}\\nfrom companion.cli import main\\n")
    ...     started_as(script) == [sys.executable, "-P", "-m", "companion"]
    True
    >>> started_as("/no/such/command")
    ['/no/such/command']
    """
    found = shutil.which(command) or command
    try:
        with open(found, "rb") as f:
            first = f.readline(1024)
    except OSError:
        return [command]
    words = first[2:].split() if first.startswith(b"#!") else []
    if len(words) != 1 or not Path(os.fsdecode(words[0])).name.startswith("python"):
        return [command]
    python = os.fsdecode(words[0])
    probe = "import importlib.util, sys; sys.exit(importlib.util.find_spec('companion.__main__') is None)"
    try:
        runs = subprocess.run([python, "-P", "-c", probe], cwd=tempfile.gettempdir(),
                              capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        runs = False
    return [python, "-P", "-m", "companion"] if runs else [command]


def run_sitting(commands: Mapping[str, Sequence[str]], pairs: int = PAIRS,
                log: Callable[[str], None] = print) -> dict[str, list[dict[str, Any]]]:
    """Run a sitting (`sitting(pairs)`): each run is `commands[build] + ["--json", FILE]` in a
    fresh empty working folder; returns each build's figures, pair by pair. Raises
    `RuntimeError` if a run fails."""
    runs: dict[str, list[dict[str, Any]]] = {BEFORE: [], AFTER: []}
    for k, build in sitting(pairs):
        log(f"pair {k} of {pairs}: the {build} build ...")
        with tempfile.TemporaryDirectory(prefix="sabacc-sitting-") as tmp:
            out = Path(tmp) / "figures.json"
            done = subprocess.run([*commands[build], "--json", str(out)], cwd=tmp,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if done.returncode != 0 or not out.exists():
                raise RuntimeError(f"the {build} build's benchmark failed ({done.returncode}): {done.stderr[-2000:]}")
            runs[build].append(json.loads(out.read_text()))
    return runs
