"""`sabacc-companion bench [--rules PRESET] [--json FILE]`: measure the real server on this machine.

Starts `sabacc-companion serve` as a child process (waitress, a temporary data folder, a free
port), talks to it with real HTTP and SSE clients, prints a table and, with `--json`, writes
the figures (docs/PERFORMANCE.md explains each one and holds the latest run):

- `fanout_p50_ms_N`, `fanout_p99_ms_N` (N = 1, 10, 50 open event streams): from sending an
  action to the last stream receiving its update;
- `fanout_p50_ms_5`, `fanout_p99_ms_5`: the same at a table of 5 seats in a hand, each seat's
  stream open and the acting host's too, as a table is; `cpu_ms_per_action_5`: the server's
  CPU time over those actions, per action; `cpu_ms_per_ping`: the same for `GET /api/v1/ping`;
- `load_p99_ms`: a full server (96 open seat streams over 12 tables) with 10 hosts each sending
  commands at the rate limit: the p99 of a command's round trip;
- `overhead_ratio`: median action round trip ÷ median `GET /api/v1/ping`, interleaved;
- `growth_ratio`: median action round trip at hand 500 of a session ÷ at hand 1;
- `rss_mb_50`: peak resident memory of the server with 50 streams open;
- `startup_s`: process start to the first successful request (with the 500-hand session on disk);
- `settle_per_s`: `POST /api/v1/settle` requests per second from one client.

Every table plays the rule set `--rules` names (default: `DEFAULT_RULES`); the scripted play
reads what to do from each table's view, so it measures the same at the tables of either game
it knows (`play.scripted`: its rounds, its dice, its cards at the reveal). Any other game (a
built-in game it does not script, a plug-in's preset) is played by its offers (`play.OfferPlayer`),
and a game that is over is replaced by a new table (`new_tables`). The payout calculator's
figure uses SETTLE-API.md's example whatever the rule set.

The long session is prepared before the server starts, by playing its hands straight through
a `TableOwner` on the same data folder (`companion.bench.play`), so it is exactly what the
server would have written itself.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

from companion.bench.clients import JsonClient, Listener
from companion.bench.compare import PAIRS
from companion.bench.play import Look, OfferPlayer, buy_in_entry, play_hand, play_offers, scripted
from companion.bench.server import ServerProcess
from companion.games import registry
from companion.server.settle_api import calculator_schemas

#: Targets on a 2-core machine (issues 6 and 19). `max` means the figure must not exceed it.
TARGETS = {
    "fanout_p99_ms_10": 50.0,
    "overhead_ratio": 1.5,
    "growth_ratio": 1.05,
    "rss_mb_50": 80.0,
    "startup_s": 1.5,
    "load_p99_ms": 100.0,
    # cpu_ms_per_action_5 ÷ cpu_ms_per_ping, and fanout_p50_ms_5 ÷ ping_ms_p50.
    "cpu_ratio_5": 2.0,
    "fanout_ratio_5": 2.0,
}
NAMES = ["Lando", "Han", "Leia", "Chewie", "Bossk", "Qi'ra", "Jabba", "Ackbar"]


def settle_body() -> Any:
    """The request body of the payout calculator's throughput test: the first example a game's
    calculator declares (SETTLE-API.md's). Asked for when the test runs, not at import: every
    `sabacc-companion serve` imports this module to list the `bench` command, and reading the
    examples imports every game's calculator schema."""
    return next(e["value"] for _, declared in calculator_schemas() for e in declared.examples.values())


#: Pause between timed requests. Back-to-back requests would each be timed while the server
#: still finishes the one before (waitress hands a kept-alive connection's next request to a
#: worker while the last worker is still closing its response): phones are never that fast.
GAP_S = 0.003
#: Actions at the table of 5 before its figures are taken.
WARM_UP = 50


def percentile(values: list[float], q: float) -> float:
    """The `q`-th percentile (0–100) by nearest rank.

    >>> percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50), percentile(list(range(1, 101)), 99)
    (5, 99)
    """
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


class Table:
    """A table the benchmark drives over HTTP: its code and tokens."""

    def __init__(self, code: str, host: str, tokens: dict[str, str]):
        self.code, self.host, self.tokens = code, host, tokens

    def token(self, who: str) -> str:
        """The token that acts as `who` (a seat id or "host")."""
        return self.host if who == "host" else self.tokens[who]


#: Tables of 8 seats for `load_p99_ms`: 12 × 8 = 96 streams, the seats' pool full.
LOAD_TABLES = 12
#: Hosts sending commands at the rate limit during `load_p99_ms`.
LOAD_SENDERS = 10


#: Run in the server before `serve` starts: no limits per client (companion.server.limits).
NO_LIMITS = "import companion.serve as s; s.LIMITS = None"


#: The rule set the benchmark's tables play unless `--rules` names another.
DEFAULT_RULES = next(iter(registry.presets()))


def prepare(data: Path, hands: int, rules: str = DEFAULT_RULES) -> dict[str, Table]:
    """Write the benchmark's tables into `data` before the server starts.

    - `fanout`: 8 seats between hands (every phone a different viewer);
    - `short`: 3 seats after 1 hand; `long`: 3 seats after `hands` hands (growth);
    - `overhead`: 3 seats, no hand yet;
    - `five`: 5 seats in the first betting round of a hand;
    - `load1` ... `load12`: 8 seats each, between hands.
    Every table plays the preset `rules`.
    The preparation commits without fsync (it is not what is measured); the server reopens
    the file with `synchronous=FULL` as always.
    """
    from companion.bench.play import build_session
    from companion.table.registry import Registry

    reg = Registry(data)
    reg.ledger._db.execute("PRAGMA synchronous=OFF")
    out = {}
    layout = [("fanout", 8, 0), ("overhead", 3, 0), ("short", 3, 1), ("long", 3, hands), ("five", 5, 0)]
    layout += [(f"load{i + 1}", 8, 0) for i in range(LOAD_TABLES)]
    for name, seats, played in layout:
        owner, host, tokens = build_session(reg, {"rules": rules}, NAMES[:seats], played)
        if name == "five":
            owner.submit({"type": "start_hand"}, "host")
        out[name] = Table(owner.code, host, tokens)
    reg.ledger.close()
    return out


def adjust(client: JsonClient, table: Table, i: int) -> tuple[int, float]:
    """A host stack adjustment (+1 / −1 alternately, always legal): `(seq, seconds)`."""
    status, body, dt = client.call(
        "POST", f"/api/v1/tables/{table.code}/commands",
        {"type": "adjust", "seat": "s1", "amount": 1 if i % 2 == 0 else -1, "reason": "bench"},
        table.host,
    )
    if status != 200:
        raise RuntimeError(f"adjust refused: {status} {body}")
    return body["seq"], dt


def stream_path(table: Table, query: str) -> str:
    """The event stream a page opens with `query` ("?token=..." or ""): as the pages ask for
    it, each update carrying only what changed (`?changed=1`, live.js)."""
    return f"/api/v1/tables/{table.code}/events{query}{'&' if query else '?'}changed=1"


def measure_fanout(srv: ServerProcess, client: JsonClient, table: Table,
                   counts: tuple[int, ...], samples: dict[int, int], out: dict[str, Any]) -> None:
    """Open streams up to each count in `counts` and time actions until all have the update.

    Streams are the 8 seats, the host, then spectators. `rss_mb_<max>` is read at the end.
    """
    listeners: list[Listener] = []
    viewers = [f"?token={t}" for t in table.tokens.values()] + [f"?token={table.host}"]
    try:
        for n in counts:
            while len(listeners) < n:
                i = len(listeners)
                query = viewers[i] if i < len(viewers) else ""
                # Every phone is its own device (address), as on the table's Wi-Fi.
                lst = Listener(srv.port, stream_path(table, query), source=f"127.0.1.{1 + i}")
                listeners.append(lst)
            for lst in listeners:
                if lst.wait_status() != 200:
                    raise RuntimeError(f"a stream was refused: {lst.status}")
            # Everyone has their snapshot before timing starts.
            wait_snapshots(client, table, listeners)
            times = time_fanout(client, table, listeners, samples[n])
            out[f"fanout_p50_ms_{n}"] = round(percentile(times, 50), 2)
            out[f"fanout_p99_ms_{n}"] = round(percentile(times, 99), 2)
        out[f"rss_mb_{counts[-1]}"] = round(srv.peak_rss_mb(), 1)
        out[f"rss_now_mb_{counts[-1]}"] = round(srv.rss_mb(), 1)
    finally:
        for lst in listeners:
            lst.close()


def open_streams(srv: ServerProcess, client: JsonClient, table: Table, queries: list[str],
                 first_address: int = 1) -> list[Listener]:
    """Open one stream per query (each from its own loopback address, as phones are) and wait
    until every one has its snapshot."""
    def open_one(i: int, query: str) -> Listener:
        n = first_address + i
        path = stream_path(table, query)
        for _ in range(20):
            lst = Listener(srv.port, path, source=f"127.0.{1 + n // 250}.{1 + n % 250}")
            if lst.wait_status() == 200:
                return lst
            # The streams of an earlier phase free their places within a second of hanging up.
            lst.close()
            time.sleep(0.25)
        raise RuntimeError(f"a stream was refused: {lst.status}")

    listeners = [open_one(i, q) for i, q in enumerate(queries)]
    wait_snapshots(client, table, listeners)
    return listeners


def wait_snapshots(client: JsonClient, table: Table, listeners: list[Listener]) -> None:
    """Wait until every stream has the table's current version (its snapshot)."""
    _, state, _ = client.call("GET", f"/api/v1/tables/{table.code}")
    for lst in listeners:
        if not lst.wait_for(state["version"]):
            raise RuntimeError("a stream never got its snapshot")


def time_fanout(client: JsonClient, table: Table, listeners: list[Listener], samples: int,
                receivers: int | None = None) -> list[float]:
    """`samples` host actions, each timed (ms) from sending until the last of the first
    `receivers` streams (all by default) has it; every stream must get every update."""
    times = []
    for i in range(samples):
        time.sleep(GAP_S)
        t0 = time.perf_counter()
        seq, _ = adjust(client, table, i)
        for lst in listeners:
            if not lst.wait_for(seq):
                raise RuntimeError(f"stream lost update {seq}")
        times.append((max(lst.arrived[seq] for lst in listeners[:receivers]) - t0) * 1000)
    return times


def measure_table(srv: ServerProcess, client: JsonClient, table: Table, samples: int,
                  out: dict[str, Any]) -> None:
    """A table as it is played: 5 seats in a hand, each seat's stream open and the acting
    host's too. Times each host action until the last seat has its update (`fanout_*_5`),
    and the server's CPU time over all of them (`cpu_ms_per_action_5`), after `WARM_UP`
    actions that are not timed."""
    seats = [f"?token={t}" for t in table.tokens.values()]
    listeners = open_streams(srv, client, table, seats + [f"?token={table.host}"])
    try:
        # A table that has been played a while: the streams' first updates are not timed.
        time_fanout(client, table, listeners, WARM_UP)
        cpu0 = srv.cpu_s()
        times = time_fanout(client, table, listeners, samples, receivers=len(seats))
        out["cpu_ms_per_action_5"] = round((srv.cpu_s() - cpu0) * 1000 / samples, 3)
        out["fanout_p50_ms_5"] = round(percentile(times, 50), 2)
        out["fanout_p99_ms_5"] = round(percentile(times, 99), 2)
    finally:
        for lst in listeners:
            lst.close()


def measure_ping_cpu(srv: ServerProcess, client: JsonClient, samples: int, out: dict[str, Any]) -> None:
    """The server's CPU time per `GET /api/v1/ping`, over `samples` pings (`cpu_ms_per_ping`)."""
    cpu0 = srv.cpu_s()
    for _ in range(samples):
        time.sleep(GAP_S)
        status, _, _ = client.call("GET", "/api/v1/ping")
        assert status == 200
    out["cpu_ms_per_ping"] = round((srv.cpu_s() - cpu0) * 1000 / samples, 3)


def measure_load(srv: ServerProcess, tables: list[Table], senders: int, seconds: float,
                 out: dict[str, Any]) -> None:
    """A full server: every table's 8 seats streaming (`MAX_STREAMS` streams in all), and the
    hosts of `senders` tables each sending commands at the rate limit of one token for
    `seconds`. `load_p99_ms` is the p99 of those commands' round trips."""
    from companion.server.limits import PRODUCTION

    listeners: list[Listener] = []
    setup = JsonClient(srv.port)
    try:
        for t, table in enumerate(tables):
            listeners += open_streams(srv, setup, table, [f"?token={tok}" for tok in table.tokens.values()],
                                      first_address=100 + 8 * t)
        period = 1.0 / PRODUCTION.commands_per_token.per_second
        times: list[list[float]] = [[] for _ in range(senders)]
        errors: list[str] = []

        def send(k: int) -> None:
            client = JsonClient(srv.port)
            table = tables[k]
            start = time.perf_counter() + period * k / senders  # the senders take turns
            i = 0
            while True:
                due = start + i * period
                if due - start > seconds:
                    break
                time.sleep(max(0.0, due - time.perf_counter()))
                try:
                    times[k].append(adjust(client, table, i)[1])
                except Exception as exc:
                    errors.append(repr(exc))
                    break
                i += 1
            client.close()

        threads = [threading.Thread(target=send, args=(k,)) for k in range(senders)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        if errors:
            raise RuntimeError(f"under load: {errors[0]}")
        every = [dt * 1000 for ts in times for dt in ts]
        out["load_streams"] = len(listeners)
        out["load_commands_per_s"] = round(len(every) / seconds, 1)
        out["load_p50_ms"] = round(percentile(every, 50), 2)
        out["load_p99_ms"] = round(percentile(every, 99), 2)
    finally:
        setup.close()
        for lst in listeners:
            lst.close()


def measure_overhead(client: JsonClient, table: Table, samples: int, out: dict[str, Any]) -> None:
    """Ping and action round trips, interleaved on one keep-alive connection."""
    pings, actions = [], []
    for i in range(samples):
        time.sleep(GAP_S)
        status, _, dt = client.call("GET", "/api/v1/ping")
        assert status == 200
        pings.append(dt)
        time.sleep(GAP_S)
        actions.append(adjust(client, table, i)[1])
    out["ping_ms_p50"] = round(statistics.median(pings) * 1000, 3)
    out["action_ms_p50"] = round(statistics.median(actions) * 1000, 3)
    out["overhead_ratio"] = round(statistics.median(actions) / statistics.median(pings), 2)


def http_actor(client: JsonClient, table: Table, times: list[float]):
    """An `act` for `play_hand` over HTTP that records accepted actions' round trips."""

    def act(actor: str, entry: dict) -> tuple[bool, dict]:
        time.sleep(GAP_S)
        status, body, dt = client.call("POST", f"/api/v1/tables/{table.code}/commands",
                                       entry, table.token(actor))
        if status == 200:
            times.append(dt)
            return True, body["state"]
        if status >= 500:
            raise RuntimeError(f"{entry} → {status} {body}")
        return False, {}

    return act


def http_look(client: JsonClient, table: Table) -> Callable[[], Look]:
    """A `look` for `play_offers` over HTTP: the host's view, then each seat's, as its phone
    reads it (these reads are not timed)."""

    def look() -> Look:
        path = f"/api/v1/tables/{table.code}"
        state = client.call("GET", path, None, table.host)[1]["state"]
        legal = {seat: client.call("GET", path, None, token)[1]["state"]["you"].get("legal") or []
                 for seat, token in table.tokens.items()}
        return state, state.get("host_legal") or [], legal

    return look


def new_table(client: JsonClient, rules: str, seats: int) -> Table:
    """A new table over HTTP, as a host makes one: `seats` players join and buy in."""
    status, body, _ = client.call("POST", "/api/v1/tables", {"rules": rules})
    if status != 201:
        raise RuntimeError(f"a new table was refused: {status} {body}")
    table = Table(body["code"], body["host_token"], {})
    for name in NAMES[:seats]:
        status, joined, _ = client.call("POST", f"/api/v1/tables/{table.code}/join", {"name": name})
        if status != 201:
            raise RuntimeError(f"a join was refused: {status} {joined}")
        table.tokens[joined["seat"]] = joined["token"]
        client.call("POST", f"/api/v1/tables/{table.code}/commands",
                    buy_in_entry(joined["state"], 200), joined["token"])
    return table


def play_hands(client: JsonClient, table: Table, hands: int, times: list[float],
               out: dict[str, Any]) -> Table:
    """Play `hands` hands at `table` over HTTP, recording accepted actions' round trips in
    `times`; returns the table played last. The scripted player plays the games it knows; any
    other game is played by its offers, and one that is over (a game played to a
    winner) is replaced by a new table of the same game, as the people at it would start one
    (`out["new_tables"]` counts them)."""
    for _ in range(hands):
        state = client.call("GET", f"/api/v1/tables/{table.code}", None, table.host)[1]["state"]
        if scripted(state["rules"]["name"]):
            for _ in play_hand(http_actor(client, table, times), state):
                pass
            continue
        player = OfferPlayer(len(times))
        while not sum(1 for _ in play_offers(http_actor(client, table, times), http_look(client, table), player)):
            table = new_table(client, state["rules"]["name"], len(table.tokens))
            out["new_tables"] = out.get("new_tables", 0) + 1
    return table


def measure_growth(client: JsonClient, short: Table, long: Table, hands: int,
                   out: dict[str, Any]) -> None:
    """Play `hands` hands on each table, alternately; compare the median action round trip
    (a game over is replaced by a new table: `play_hands`)."""
    times: dict[str, list[float]] = {"short": [], "long": []}
    tables = {"short": short, "long": long}
    for _ in range(hands):
        for name in ("short", "long"):
            tables[name] = play_hands(client, tables[name], 1, times[name], out)
    out["action_ms_p50_hand_1"] = round(statistics.median(times["short"]) * 1000, 3)
    out["action_ms_p50_hand_n"] = round(statistics.median(times["long"]) * 1000, 3)
    out["growth_ratio"] = round(statistics.median(times["long"]) / statistics.median(times["short"]), 2)


def measure_settle(client: JsonClient, seconds: float, out: dict[str, Any]) -> None:
    """Payout-calculator requests answered per second, one client, one connection."""
    request = settle_body()
    count, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        status, body, _ = client.call("POST", "/api/v1/settle", request)
        if status != 200:
            raise RuntimeError(f"settle: {status} {body}")
        count += 1
    out["settle_per_s"] = round(count / (time.perf_counter() - t0), 1)


def machine() -> dict[str, Any]:
    """Where the figures come from: cores, CPU model, Python."""
    import os

    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = round(os.getloadavg()[0], 2)
    except OSError:
        load = None
    return {"cores": os.cpu_count(), "cpu": model, "python": platform.python_version(),
            "load_1min_at_start": load, "date": time.strftime("%Y-%m-%d %H:%M %Z")}


def run_bench(hands: int = 500, quick: bool = False, log=print, rules: str = DEFAULT_RULES) -> dict[str, Any]:
    """Run every measurement once, in one run, at tables of the preset `rules`; returns the figures."""
    samples = {1: 60, 10: 60, 50: 40} if quick else {1: 200, 10: 200, 50: 150}
    out: dict[str, Any] = {"machine": machine(), "rules": rules, "hands": hands, "quick": quick}
    with tempfile.TemporaryDirectory(prefix="sabacc-bench-") as tmp:
        data = Path(tmp) / "data"
        log(f"preparing a {hands}-hand session of {rules} ...")
        t0 = time.perf_counter()
        tables = prepare(data, hands, rules)
        out["prepare_s"] = round(time.perf_counter() - t0, 1)
        # The benchmark sends faster than any person: the limits per client are off for it.
        with ServerProcess(data, prelude=NO_LIMITS) as srv:
            out["startup_s"] = round(srv.startup_s, 3)
            out["rss_mb_idle"] = round(srv.rss_mb(), 1)
            out["threads"] = srv.threads()
            client = JsonClient(srv.port)
            log("overhead ...")
            measure_overhead(client, tables["overhead"], 100 if quick else 300, out)
            log("growth ...")
            measure_growth(client, tables["short"], tables["long"], 3 if quick else 8, out)
            log("fan-out ...")
            measure_fanout(srv, client, tables["fanout"], (1, 10, 50), samples, out)
            log("a table of 5 ...")
            # The server's CPU time is counted in clock ticks (10 ms): enough actions and
            # pings that a tick is under 1 % of the figure.
            measure_table(srv, client, tables["five"], 100 if quick else 1000, out)
            measure_ping_cpu(srv, client, 300 if quick else 3000, out)
            log("load ...")
            measure_load(srv, [tables[f"load{i + 1}"] for i in range(LOAD_TABLES)], LOAD_SENDERS,
                         3.0 if quick else 10.0, out)
            log("settle ...")
            measure_settle(client, 1.0 if quick else 3.0, out)
            client.close()
        # A second start on a fresh, empty folder: the cost of the process itself.
        with ServerProcess(Path(tmp) / "empty", prelude=NO_LIMITS) as srv:
            out["startup_empty_s"] = round(srv.startup_s, 3)
    out["cpu_ratio_5"] = round(out["cpu_ms_per_action_5"] / out["cpu_ms_per_ping"], 2)
    out["fanout_ratio_5"] = round(out["fanout_p50_ms_5"] / out["ping_ms_p50"], 2)
    out["targets"] = {k: {"max": v, "value": out.get(k), "met": out.get(k) is not None and out[k] <= v}
                      for k, v in TARGETS.items()}
    return out


def table_text(out: dict[str, Any]) -> str:
    """The figures as a plain-text table."""
    rows = [("figure", "value", "target", "")]
    for key, value in out.items():
        if key in ("machine", "targets") or isinstance(value, (dict, str)):
            continue
        target = TARGETS.get(key)
        mark = "" if target is None else ("met" if value is not None and value <= target else "MISSED")
        rows.append((key, str(value), "" if target is None else f"≤ {target:g}", mark))
    width = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = ["  ".join(c.ljust(width[i]) for i, c in enumerate(r)).rstrip() for r in rows]
    m = out["machine"]
    lines.append(f"\nrules {out.get('rules', DEFAULT_RULES)}; {m['cores']} cores, {m['cpu']}, Python {m['python']}, {m['date']}, "
                 f"load {m['load_1min_at_start']}")
    return "\n".join(lines)


def _positive(text: str) -> int:
    """A whole number of at least 1 (argparse's type for `--pairs`)."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return n


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `bench` subcommand."""
    p = sub.add_parser("bench", help="measure the server on this machine (docs/PERFORMANCE.md)")
    p.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    p.add_argument("--hands", type=int, default=500, help="length of the long session (default %(default)s)")
    p.add_argument("--quick", action="store_true", help="fewer samples (a smoke test, not figures)")
    p.add_argument("--rules", default=DEFAULT_RULES, choices=sorted(registry.presets()), metavar="PRESET",
                   help="the rule set every table plays (default %(default)s)")
    p.add_argument("--floor", action="store_true",
                   help="instead: the ratios with the views, then the fsync too, taken away "
                        "(companion.bench.floor)")
    p.add_argument("--against", metavar="COMMAND",
                   help="instead: a sitting against another build, whose sabacc-companion command "
                        "this is (before), this build after, alternating which runs first; then "
                        "each figure's ratio (companion.bench.compare)")
    p.add_argument("--pairs", type=_positive, default=PAIRS, metavar="N",
                   help="with --against: the pairs of runs (default %(default)s)")
    p.add_argument("--side-by-side", metavar="COMMAND", dest="side_by_side",
                   help="instead: the CPU an action at a table of 5 and a ping cost, this build's "
                        "server and another build's (its sabacc-companion command) running at once, "
                        "blocks of actions and pings taking turns (companion.bench.side)")
    p.add_argument("--rounds", type=_positive, default=None, metavar="N",
                   help="with --side-by-side: the blocks of actions (each with its pings) sent to each "
                        "server (default 20)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark, print the table, write the JSON; exit 0 even if a target is missed."""
    if args.side_by_side:
        from companion.bench.side import ROUNDS, side_by_side, side_text

        result = side_by_side(args.side_by_side, args.rounds or ROUNDS, 10 if args.quick else 100,
                              log=lambda msg: print(msg, file=sys.stderr))
        print(side_text(result))
        if args.json:
            args.json.write_text(json.dumps({"machine": machine(), **result}, indent=2) + "\n")
        return 0
    if args.against:
        from companion.bench.compare import bench_commands, compare, compare_text, run_sitting

        options = [f"--hands={args.hands}", f"--rules={args.rules}"] + (["--quick"] if args.quick else [])
        runs = run_sitting(bench_commands(args.against, options), args.pairs,
                           log=lambda msg: print(msg, file=sys.stderr))
        rows = compare(runs)
        print(compare_text(rows))
        if args.json:
            args.json.write_text(json.dumps({"machine": machine(), "runs": runs,
                                             "compared": [vars(r) for r in rows]}, indent=2) + "\n")
        return 0
    if args.floor:
        from companion.bench.floor import floor_text, run_floor  # it imports this module

        results = run_floor(args.quick, log=lambda msg: print(msg, file=sys.stderr))
        print(floor_text(results))
        if args.json:
            args.json.write_text(json.dumps({"machine": machine(), **results}, indent=2) + "\n")
        return 0
    out = run_bench(args.hands, args.quick, log=lambda msg: print(msg, file=sys.stderr), rules=args.rules)
    print(table_text(out))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    return 0
