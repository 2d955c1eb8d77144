"""`sabacc-companion bench --against`: a sitting of two builds' benchmarks in alternating order
(companion.bench.compare), here with stand-in benchmarks whose figures are known."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from companion.bench.compare import AFTER, BEFORE, compare, compare_text, run_sitting, sitting

#: A stand-in for a build's benchmark: notes its build and working folder in LOG, writes
#: figures that grow with each run (a machine slowing down) plus the build's own offset.
FAKE_BENCH = """
import json, os, sys
build, log = sys.argv[1], sys.argv[2]
out = sys.argv[sys.argv.index("--json") + 1]
lines = open(log).read().splitlines() if os.path.exists(log) else []
with open(log, "a") as f:
    f.write(build + " " + os.getcwd() + "\\n")
runs_before = len(lines)
json.dump({"ms": 10.0 + runs_before + (0.5 if build == "after" else 0.0), "label": "x", "rules": "weg"}, open(out, "w"))
"""


def test_a_sitting_alternates_which_build_runs_first():
    order = sitting(4)
    assert [b for _, b in order] == [BEFORE, AFTER, AFTER, BEFORE, BEFORE, AFTER, AFTER, BEFORE]
    assert [k for k, _ in order] == [1, 1, 2, 2, 3, 3, 4, 4]


def test_a_sitting_runs_each_build_in_a_fresh_folder_and_compares_its_figures(tmp_path, monkeypatch):
    """The machine slows by one unit a run, more than the after build's own 0.5: in the
    second pair (after first) the after build is the lower, yet the means over the alternated
    pairs differ by exactly its 0.5, and the drift (second run over first) shows the slowing."""
    script = tmp_path / "fake_bench.py"
    script.write_text(FAKE_BENCH)
    log = tmp_path / "runs.log"
    monkeypatch.chdir(tmp_path)
    commands = {build: [sys.executable, str(script), build, str(log)] for build in (BEFORE, AFTER)}
    runs = run_sitting(commands, pairs=2, log=lambda msg: None)
    ran = [line.split() for line in log.read_text().splitlines()]
    assert [build for build, _ in ran] == [BEFORE, AFTER, AFTER, BEFORE]
    folders = [Path(folder) for _, folder in ran]
    assert len(set(folders)) == 4 and tmp_path not in folders  # never the caller's folder
    assert [r["ms"] for r in runs[BEFORE]] == [10.0, 13.0] and [r["ms"] for r in runs[AFTER]] == [11.5, 12.5]
    (row,) = compare(runs)  # the text figures are left out
    assert (row.figure, row.before, row.after, row.after_higher, row.pairs) == ("ms", 11.5, 12.0, 1, 2)
    assert row.ratio == pytest.approx(12.0 / 11.5)
    assert row.drift == pytest.approx((11.5 / 10.0 + 13.0 / 12.5) / 2)
    text = compare_text([row])
    assert "after/before" in text and "1.04" in text and "1/2" in text


def test_a_failed_run_stops_the_sitting_with_what_it_said(tmp_path):
    commands = {BEFORE: [sys.executable, "-c", "import sys; sys.exit('no such preset')"], AFTER: ["true"]}
    with pytest.raises(RuntimeError, match="before build's benchmark failed.*no such preset"):
        run_sitting(commands, pairs=1, log=lambda msg: None)


def test_the_bench_command_line_runs_a_sitting_against_another_build(tmp_path, monkeypatch, capsys):
    """`bench --against CMD --pairs 1 --json FILE`: CMD for the before build, this package for
    the after build (stood in for here), the table printed and the runs written."""
    from companion.bench import compare as module
    from companion.cli import main

    script = tmp_path / "fake_bench.py"
    script.write_text(FAKE_BENCH)
    log = tmp_path / "runs.log"
    seen: list[list[str]] = []

    def commands(other: str, options):
        seen.append([other, *options])
        return {BEFORE: [sys.executable, str(script), BEFORE, str(log)],
                AFTER: [sys.executable, str(script), AFTER, str(log)]}

    monkeypatch.setattr(module, "bench_commands", commands)
    out = tmp_path / "sitting.json"
    assert main(["bench", "--against", "/other/venv/bin/sabacc-companion", "--pairs", "1", "--quick",
                 "--json", str(out)]) == 0
    assert seen[0][0] == "/other/venv/bin/sabacc-companion" and "--quick" in seen[0]
    written = json.loads(out.read_text())
    assert [r["ms"] for r in written["runs"][BEFORE]] == [10.0] and [r["ms"] for r in written["runs"][AFTER]] == [11.5]
    assert written["compared"][0]["figure"] == "ms" and "after/before" in capsys.readouterr().out


@pytest.mark.parametrize("pairs", ["0", "-2", "two"])
def test_a_sitting_of_no_pairs_is_refused_on_the_command_line(pairs, capsys):
    from companion.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["bench", "--against", "/other/venv/bin/sabacc-companion", "--pairs", pairs])
    assert exc.value.code == 2
    assert "is not a whole number of at least 1" in capsys.readouterr().err


def test_both_sides_of_a_sitting_are_started_the_same_way(tmp_path):
    """The other build's console script names its interpreter: that build is started as this
    one is (`python -P -m companion bench`), so that no difference in how a side starts shows
    in its figures (an A/A sitting, one side through its console script, found that side's
    ping slower in 9 pairs of 12). A command that is no Python script is run as given."""
    from companion.bench.compare import bench_commands

    script = tmp_path / "sabacc-companion"
    script.write_text(f"#!{sys.executable}\nimport sys\nfrom companion.cli import main\nsys.exit(main())\n")
    script.chmod(0o755)
    commands = bench_commands(str(script), ["--quick"])
    assert commands[BEFORE] == commands[AFTER] == [sys.executable, "-P", "-m", "companion", "bench", "--quick"]
    wrapper = tmp_path / "other-bench"
    wrapper.write_text("#!/bin/sh\nexec other-python -m companion \"$@\"\n")
    wrapper.chmod(0o755)
    assert bench_commands(str(wrapper))[BEFORE] == [str(wrapper), "bench"]
    # An interpreter that cannot run `-m companion` (an old build without it): as given.
    old_python = tmp_path / "python3-old"
    old_python.write_text("#!/bin/sh\nexit 1\n")
    old_python.chmod(0o755)
    old = tmp_path / "old-sabacc-companion"
    old.write_text(f"#!{old_python}\nfrom companion.cli import main\n")
    assert bench_commands(str(old))[BEFORE] == [str(old), "bench"]
