"""`bench --floor` (companion.bench.floor): its patches take away what they say, and only that.

Each patch is a prelude run in the benchmark's server process; here each runs in a child
Python of its own, so that nothing of it reaches this test run.
"""

from __future__ import annotations

import subprocess
import sys

from companion.bench.floor import CASES, NO_FSYNC, SMALL_TEXTS, VIEWS_GIVEN, floor_text

PLAY = """
import json, tempfile
from companion.table.engine import HOST, Table
from companion.table.views import VersionViews
t = Table.create("FLOOR", {"rules": "weg"})
for name in ("Lando", "Han"):
    seat = t.apply({"type": "join", "name": name}, None)[0]["seat"]
    t.apply({"type": "buy_in", "amount": 30}, seat)
first = VersionViews(t.frozen(), 4, 20).text("s1")
t.apply({"type": "adjust", "seat": "s1", "amount": 5, "reason": "floor"}, HOST)
later = VersionViews(t.frozen(), 5, 20).text("s1")
stack = lambda text: json.loads(text)["seats"][0]["stack"]
print(stack(first), stack(later))
"""


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_views_given_sends_each_viewer_its_first_text_again():
    """Without the patch a later version shows the new stack; with it, the first text again."""
    assert _run(PLAY) == "30 35"
    assert _run(VIEWS_GIVEN + PLAY) == "30 30"


def test_small_texts_are_a_few_bytes_naming_the_version():
    shown = PLAY.replace("print(stack(first), stack(later))", "print(first, later)")
    assert _run(SMALL_TEXTS + shown) == '{"version":4} {"version":5}'


def test_no_fsync_opens_the_ledger_without_its_fsync():
    check = """
import tempfile
from companion.table.ledger import Ledger
ledger = Ledger(tempfile.mkdtemp() + "/table.db")
print(ledger._db.execute("PRAGMA synchronous").fetchone()[0])
ledger.close()
"""
    assert _run(check) == "2"  # FULL: every commit synced
    assert _run(NO_FSYNC + check) == "0"  # OFF


def test_the_cases_take_away_more_and_more_and_the_table_shows_each():
    assert dict(CASES) == {"as_is": "", "views_given": VIEWS_GIVEN, "views_given_no_fsync": VIEWS_GIVEN + NO_FSYNC,
                           "small_texts_no_fsync": SMALL_TEXTS + NO_FSYNC}
    text = floor_text({"as_is": {"cpu_ratio_5": 3.1, "overhead_ratio": 2.2},
                       "views_given": {"cpu_ratio_5": 2.3}})
    assert text.splitlines() == ["figure          as_is  views_given",
                                 "cpu_ratio_5     3.1    2.3",
                                 "overhead_ratio  2.2"]
