"""`sabacc-companion bench --side-by-side OTHER`: both builds' servers at once (companion.bench.side)."""

from __future__ import annotations

import json
import sys

from companion.bench import side
from companion.cli import main


def test_the_interpreter_of_a_command_is_the_one_its_first_line_names(tmp_path):
    """pip writes a console script's interpreter on its first line; `env` is looked up; a
    script without one runs with the `python` beside it."""
    named = tmp_path / "named"
    named.write_text("#!/opt/other/bin/python3.11\nimport sys\n")
    looked_up = tmp_path / "looked_up"
    looked_up.write_text("#!/usr/bin/env python3\n")
    bare = tmp_path / "bin" / "sabacc-companion"
    bare.parent.mkdir()
    bare.write_text("print('no first line')\n")
    assert side.python_of(str(named)) == "/opt/other/bin/python3.11"
    assert side.python_of(str(looked_up)).endswith("python3")
    assert side.python_of(str(bare)) == str(tmp_path / "bin" / "python")


def test_a_build_side_by_side_with_itself_serves_every_block_and_counts_each_servers_cpu(tmp_path, capsys):
    """This build against itself (its own interpreter as the other build): both servers start
    from tables each wrote, every block's actions reach all 6 streams (the bench raises if
    one is lost), each server's CPU is counted from its own threads, the ratio is the two
    totals' and each round has its own; the command line prints them and writes the JSON."""
    result = side.side_by_side(sys.executable, rounds=2, block=5, log=lambda msg: None)
    cpu = result["cpu_ms_per_action_5"]
    assert cpu[side.BEFORE] > 0 and cpu[side.AFTER] > 0
    assert abs(result["ratio"] - cpu[side.AFTER] / cpu[side.BEFORE]) < 0.01
    assert len(result["round_ratios"]) == 2 and all(r > 0 for r in result["round_ratios"])
    assert result["pythons"] == {side.BEFORE: sys.executable, side.AFTER: sys.executable}
    # Each round's pings too: a ping costs each server less than an action, and the ratios
    # divided by a ping are the two servers' own.
    ping, per = result["cpu_ms_per_ping"], result["cpu_ratio_5"]
    assert 0 < ping[side.BEFORE] < cpu[side.BEFORE] and 0 < ping[side.AFTER] < cpu[side.AFTER]
    assert abs(per[side.AFTER] - cpu[side.AFTER] / ping[side.AFTER]) < 0.05
    assert abs(result["cpu_ratio_5_ratio"] - per[side.AFTER] / per[side.BEFORE]) < 0.02

    out = tmp_path / "side.json"
    assert main(["bench", "--side-by-side", sys.executable, "--rounds", "1", "--quick", "--json", str(out)]) == 0
    written = json.loads(out.read_text())
    assert written["rounds"] == 1 and written["block"] == 10 and len(written["round_ratios"]) == 1
    printed = capsys.readouterr().out
    assert "after/before" in printed and "CPU per ping" in printed and "cpu_ratio_5" in printed
