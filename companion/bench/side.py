"""Both builds' servers at once: what an action costs each in CPU, measured side by side.

`sabacc-companion bench --side-by-side OTHER` starts this build's server and the other build's
(OTHER is its `sabacc-companion` command, as for `--against`), each with the benchmark's table
of 5 in a hand (`prepare`'s `five`, written by that build itself) and its 6 streams open as the
pages open them. The host's stack adjustments (`adjust`, the benchmark's action) are then sent
in blocks, `rounds` blocks to each server, the two servers taking turns (and which goes first
alternating), and each block's CPU is read from every thread of its server
(`/proc/<pid>/task/*/schedstat`, in nanoseconds, not clock ticks). After each block of actions
the same server answers a block of pings (`GET /api/v1/ping`, as `cpu_ms_per_ping` is
measured), so that the figures divided by a ping (`cpu_ratio_5`) are side by side too.

Why: a sitting of whole benchmark runs (`--against`) compares runs minutes apart, and this
machine's speed drifts over minutes by more than the few per cent a change of the views makes
(docs/PERFORMANCE.md, "Issue 29, eighth session": a build against itself gave ratios from 0.77
to 1.17). Side by side, both servers meet the same moments of the machine, block by block.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from companion.bench.server import ServerProcess

#: Blocks of actions sent to each server, and actions in a block.
ROUNDS, BLOCK = 20, 100
#: The builds, as the figures name them: the other build and this one.
BEFORE, AFTER = "before", "after"

#: Run by each build's own interpreter: its table of 5 written into a data folder, told back.
_PREPARE = ("import json, sys; from pathlib import Path; from companion.bench import prepare; "
            "t = prepare(Path(sys.argv[1]), 1)['five']; print(json.dumps([t.code, t.host, t.tokens]))")


def python_of(command: str) -> str:
    """The Python interpreter a `sabacc-companion` command runs with: the one its first line
    names (pip writes it there), else a `python` beside it.

    >>> python_of(sys.executable) == sys.executable
    True
    """
    path = Path(shutil.which(command) or command)
    try:
        with open(path, "rb") as f:
            first = f.readline(500).decode("utf-8", "replace")
    except OSError:
        first = ""
    if first.startswith("#!"):
        words = first[2:].split()
        if words and Path(words[0]).name == "env" and len(words) > 1:
            return shutil.which(words[1]) or words[1]
        if words:
            return words[0]
    if path.name.startswith("python"):
        return str(path)
    return str(path.parent / "python")


def thread_cpu_ns(pid: int) -> int:
    """CPU time every thread of process `pid` has used so far, in nanoseconds."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # a thread that ended meanwhile
    return total


def side_by_side(other: str, rounds: int = ROUNDS, block: int = BLOCK,
                 log: Callable[[str], None] = print) -> dict[str, Any]:
    """Measure both builds side by side (see the module): each build's CPU milliseconds per
    action over all its blocks, their ratio (after ÷ before), and each round's ratio."""
    from companion import bench

    pythons = {BEFORE: python_of(other), AFTER: sys.executable}
    servers: dict[str, ServerProcess] = {}
    tables: dict[str, Any] = {}
    clients: dict[str, Any] = {}
    listeners: dict[str, list[Any]] = {}
    with tempfile.TemporaryDirectory(prefix="sabacc-side-") as tmp:
        try:
            for build, python in pythons.items():
                log(f"the {build} build's server ({python}) ...")
                data = Path(tmp) / build / "data"
                done = subprocess.run([python, "-P", "-c", _PREPARE, str(data)], cwd=tmp, capture_output=True,
                                      text=True)
                if done.returncode != 0:
                    raise RuntimeError(f"the {build} build could not write its tables: {done.stderr.strip()[-500:]}")
                code, host, tokens = json.loads(done.stdout.strip().splitlines()[-1])
                table = tables[build] = bench.Table(code, host, tokens)
                server = servers[build] = ServerProcess(data, prelude=bench.NO_LIMITS, python=python).start()
                client = clients[build] = bench.JsonClient(server.port)
                queries = [f"?token={t}" for t in tokens.values()] + [f"?token={host}"]
                listeners[build] = bench.open_streams(server, client, table, queries)
                bench.time_fanout(client, table, listeners[build], bench.WARM_UP)
            used = {BEFORE: 0, AFTER: 0}
            pinged = {BEFORE: 0, AFTER: 0}
            ratios = []
            for r in range(rounds):
                spent = {}
                for build in (BEFORE, AFTER) if r % 2 == 0 else (AFTER, BEFORE):
                    pid = servers[build].pid
                    start = thread_cpu_ns(pid)
                    bench.time_fanout(clients[build], tables[build], listeners[build], block)
                    spent[build] = thread_cpu_ns(pid) - start
                    used[build] += spent[build]
                    start = thread_cpu_ns(pid)
                    ping_block(clients[build], block)
                    pinged[build] += thread_cpu_ns(pid) - start
                ratios.append(spent[AFTER] / spent[BEFORE])
        finally:
            for build in listeners:
                for listener in listeners[build]:
                    listener.close()
            for client in clients.values():
                client.close()
            for server in servers.values():
                server.stop()
    actions = rounds * block
    return {"rounds": rounds, "block": block, "pythons": pythons,
            "cpu_ms_per_action_5": {build: round(used[build] / actions / 1e6, 3) for build in used},
            "ratio": round(used[AFTER] / used[BEFORE], 3),
            "round_ratios": [round(x, 3) for x in ratios],
            "cpu_ms_per_ping": {build: round(pinged[build] / actions / 1e6, 3) for build in pinged},
            "ping_ratio": round(pinged[AFTER] / pinged[BEFORE], 3),
            "cpu_ratio_5": {build: round(used[build] / pinged[build], 3) for build in used},
            "cpu_ratio_5_ratio": round(used[AFTER] / pinged[AFTER] / (used[BEFORE] / pinged[BEFORE]), 3)}


def ping_block(client: Any, pings: int) -> None:
    """`pings` pings on `client`'s connection, spaced as the benchmark spaces its pings."""
    from companion import bench

    for _ in range(pings):
        time.sleep(bench.GAP_S)
        status, _, _ = client.call("GET", "/api/v1/ping")
        if status != 200:
            raise RuntimeError(f"a ping was answered {status}")


def side_text(result: dict[str, Any]) -> str:
    """`side_by_side`'s result in a few lines."""
    cpu, ratios = result["cpu_ms_per_action_5"], result["round_ratios"]
    ping, per = result["cpu_ms_per_ping"], result["cpu_ratio_5"]
    return "\n".join([
        f"CPU per action at the table of 5, {result['rounds']} blocks of {result['block']} actions each:",
        f"  before {cpu[BEFORE]:.3f} ms   after {cpu[AFTER]:.3f} ms   after/before {result['ratio']:.3f}",
        f"  the blocks' ratios: median {statistics.median(ratios):.3f}, from {min(ratios):.3f} to {max(ratios):.3f}",
        f"CPU per ping: before {ping[BEFORE]:.3f} ms   after {ping[AFTER]:.3f} ms   after/before {result['ping_ratio']:.3f}",
        f"an action's CPU in pings (cpu_ratio_5): before {per[BEFORE]:.2f}   after {per[AFTER]:.2f}   "
        f"after/before {result['cpu_ratio_5_ratio']:.3f}",
    ])
