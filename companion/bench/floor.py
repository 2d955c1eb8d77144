"""How low the ratio targets could go if parts of an action's work cost nothing (issue 19).

`sabacc-companion bench --floor` measures the three ratios of issue 19 — `cpu_ratio_5`,
`fanout_ratio_5` and `overhead_ratio`, as `bench` does — on fresh servers in which parts of the
work are taken away, each case on its own server, one after another:

- `as_is`: the server as it is;
- `views_given`: every viewer's text is rendered once, for the first version it is asked for,
  and that same text is sent again for every later version: no public view, no legal moves,
  no JSON, the same bytes on the wire (each update is as long as before);
- `views_given_no_fsync`: that, and every commit without its fsync (`synchronous=OFF`: not
  durable, which the companion never is in play);
- `small_texts_no_fsync`: every viewer's text a few bytes (`{"version":N}`), made without
  rendering, and no fsync: the floor of a protocol whose updates carried only what changed.

What is left in the last two cases is the work no rendering or disk can save: the request read,
checked and answered through Flask and waitress, the command applied and written to SQLite,
and each stream's update sent. Its ratios are a floor for any change to the views or the
commit: a target below it needs a change of the HTTP path or the streams themselves.

Each case runs in a child process (`ServerProcess`) with a prelude that patches the server:
nothing here changes how `serve` runs.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Callable

from companion.bench import (
    NO_LIMITS,
    JsonClient,
    ServerProcess,
    measure_overhead,
    measure_ping_cpu,
    measure_table,
    prepare,
)

#: Each viewer's text is made once and sent again for every later version.
VIEWS_GIVEN = """
import companion.table.views as _views
_render, _given = _views.VersionViews.text, {}
def _text(self, seat=None, host=False):
    if (seat, host) not in _given:
        _given[(seat, host)] = _render(self, seat, host)
    return _given[(seat, host)]
_views.VersionViews.text = _text
"""

#: Every viewer's text a few bytes long, made without rendering: as if each update carried
#: only what changed, and that cost nothing to work out.
SMALL_TEXTS = """
import companion.table.views as _views
_views.VersionViews.text = lambda self, seat=None, host=False: '{"version":%d}' % self.version
"""

#: Every commit without its fsync.
NO_FSYNC = """
import companion.table.ledger as _ledger
_open = _ledger.Ledger.__init__
def _init(self, *args, **kwargs):
    _open(self, *args, **kwargs)
    self._db.execute("PRAGMA synchronous=OFF")
_ledger.Ledger.__init__ = _init
"""

#: The cases, in the order they run: a name and what is taken away (a prelude).
CASES = (
    ("as_is", ""),
    ("views_given", VIEWS_GIVEN),
    ("views_given_no_fsync", VIEWS_GIVEN + NO_FSYNC),
    ("small_texts_no_fsync", SMALL_TEXTS + NO_FSYNC),
)


def measure_case(prelude: str, quick: bool = False) -> dict[str, Any]:
    """The three ratios (and what they are made of) on a fresh server patched by `prelude`."""
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="sabacc-floor-") as tmp:
        data = Path(tmp) / "data"
        tables = prepare(data, 1)
        with ServerProcess(data, prelude=NO_LIMITS + "\n" + prelude) as srv:
            client = JsonClient(srv.port)
            try:
                measure_overhead(client, tables["overhead"], 100 if quick else 300, out)
                measure_table(srv, client, tables["five"], 100 if quick else 1000, out)
                measure_ping_cpu(srv, client, 300 if quick else 3000, out)
            finally:
                client.close()
    out["cpu_ratio_5"] = round(out["cpu_ms_per_action_5"] / out["cpu_ms_per_ping"], 2)
    out["fanout_ratio_5"] = round(out["fanout_p50_ms_5"] / out["ping_ms_p50"], 2)
    return out


def run_floor(quick: bool = False, log: Callable[[str], Any] = print) -> dict[str, dict[str, Any]]:
    """Every case of `CASES` in turn: `{case: figures}`."""
    results = {}
    for name, prelude in CASES:
        log(f"{name} ...")
        results[name] = measure_case(prelude, quick)
    return results


#: The figures `floor_text` shows, in order.
SHOWN = ("cpu_ratio_5", "fanout_ratio_5", "overhead_ratio", "cpu_ms_per_action_5", "cpu_ms_per_ping",
         "fanout_p50_ms_5", "ping_ms_p50", "action_ms_p50")


def floor_text(results: dict[str, dict[str, Any]]) -> str:
    """The cases side by side, a figure a row.

    >>> print(floor_text({"as_is": {"cpu_ratio_5": 3.4}, "views_given": {"cpu_ratio_5": 2.3}}))
    figure       as_is  views_given
    cpu_ratio_5  3.4    2.3
    """
    names = list(results)
    rows = [["figure", *names]]
    rows += [[key, *(str(results[n].get(key, "")) for n in names)] for key in SHOWN
             if any(key in results[n] for n in names)]
    width = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(width[i]) for i, c in enumerate(r)).rstrip() for r in rows)
