"""Shared fixtures: the Flask app and client, a live waitress server, and headless Chromium."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from hypothesis import settings

from companion.server import create_app

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Flags that keep Chromium off the (closed) network and working as root in a container.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = REPO / "test-artifacts"

#: The share of each property test's Hypothesis examples this run makes (`examples`). The
#: primary Python runs them all; scripts/test runs the other supported Pythons with
#: SABACC_TEST_EXAMPLES=0.25: the code under test is the same, so the second run is there for
#: the language and the libraries, and the primary's full search repeated beside it would only
#: take the cores the two runs share.
EXAMPLES_SHARE = float(os.environ.get("SABACC_TEST_EXAMPLES", "1"))
if not 0 < EXAMPLES_SHARE <= 1:
    raise ValueError(f"SABACC_TEST_EXAMPLES={EXAMPLES_SHARE}: a share of the examples, above 0 and at most 1")


def examples(n: int) -> int:
    """How many Hypothesis examples a property test whose full count is `n` makes in this run:
    `n`, or its share (SABACC_TEST_EXAMPLES), never fewer than 5."""
    return n if EXAMPLES_SHARE == 1 else max(5, min(n, round(n * EXAMPLES_SHARE)))


# The property tests that keep Hypothesis's default count (100) take the same share of it.
if EXAMPLES_SHARE < 1:
    settings.register_profile("share", max_examples=examples(settings.default.max_examples))
    settings.load_profile("share")


def pytest_addoption(parser):
    """`--timed`: which of the tests marked `timed` (wall-clock bounds that only hold on a
    machine doing nothing else) to run: all tests (the default), only the timed ones, or all
    but them. scripts/test runs the rest on two workers first, then the timed ones alone."""
    parser.addoption("--timed", choices=("with", "only", "without"), default="with",
                     help="run the tests marked timed with the others (default), only them, or without them")


#: Where the timed tests are (the reliability drills): `--timed only` collects nothing else,
#: instead of importing every test module to deselect all of them.
TIMED_HOME = REPO / "tests" / "drills"


def pytest_ignore_collect(collection_path, config):
    """Under `--timed only`, test files outside TIMED_HOME are not collected."""
    if (config.getoption("--timed") == "only" and collection_path.suffix == ".py"
            and TIMED_HOME not in collection_path.parents):
        return True
    return None


def pytest_collection_modifyitems(config, items):
    """Keep the tests `--timed` asks for; the others are deselected (and reported so)."""
    which = config.getoption("--timed")
    if which != "with":
        keep, drop = [], []
        for item in items:
            (keep if (item.get_closest_marker("timed") is not None) == (which == "only") else drop).append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep
    if hasattr(config, "workerinput"):
        # A pytest-xdist worker (scripts/test: a file to a worker, in this order): the files
        # with slow or browser tests first, so that the many quick files fill the end instead
        # of a browser game left to one worker while the other idles. (Every worker sorts the
        # same way.)
        slow = {item.path for item in items
                if item.get_closest_marker("slow") is not None or item.get_closest_marker("browser") is not None}
        items.sort(key=lambda item: item.path not in slow)


@pytest.fixture
def factory():
    """gpiozero's own mock pins (PWM-capable) for one test: pins cannot be opened twice, so
    each test gets a fresh factory and it is reset afterwards."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    f = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = f
    yield f
    f.reset()
    Device.pin_factory = None


@pytest.fixture
def app(tmp_path):
    """A fresh application with its own data folder."""
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")})


class ClientApi:
    """The table API as a phone and the host use it, through Flask's test client: each call
    asserts its status (`status` for a post) and answers the JSON body."""

    def __init__(self, client):
        self.c = client

    def post(self, path, body, token=None, status=200):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = self.c.post(path, json=body, headers=headers)
        assert r.status_code == status, (r.status_code, r.get_json())
        return r.get_json()

    def get(self, path, token=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = self.c.get(path, headers=headers)
        assert r.status_code == 200, r.get_json()
        return r.get_json()


@pytest.fixture
def client(app):
    """Flask's test client for `app`."""
    return app.test_client()


class LiveServer:
    """The app served by a real waitress server on a free port, in a thread, set up as
    `serve` sets it up, and stopped without a race (see `close`)."""

    def __init__(self, app, threads: int = 32):
        from companion.server import front

        self.app = app
        # The same server as `serve` (deadlines, shares per address, body limit).
        self.server = front.make_server(app, "127.0.0.1", 0, threads=threads)
        self.url = f"http://127.0.0.1:{self.server.effective_port}"
        self.stopping = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        # waitress's own loop runs while any connection is open (a browser keeps some alive),
        # and closing its sockets from another thread races with select(). So the loop runs
        # here in short steps, and this thread closes every socket itself once told to stop.
        from waitress import wasyncore

        sockets = self.server._map
        while not self.stopping:
            wasyncore.loop(timeout=0.05, map=sockets, use_poll=True, count=1)
        wasyncore.close_all(sockets)

    def close(self) -> None:
        """Say goodbye to every event stream (their threads end), then stop serving."""
        tables = self.app.extensions.get("tables")
        if tables is not None:
            for owner in tables.owners():
                owner.close()
        self.stopping = True
        self.thread.join(5)
        self.server.task_dispatcher.shutdown(timeout=2)


@pytest.fixture
def live_server(app):
    """A running waitress server for `app`; its `.url` is the base URL."""
    srv = LiveServer(app)
    yield srv
    srv.close()


@pytest.fixture(scope="session")
def chromium():
    """One headless Debian Chromium for the whole run, driven by Playwright."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/test, which installs Debian's chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


PHONE = {"viewport": {"width": 360, "height": 640}, "device_scale_factor": 2, "has_touch": True, "is_mobile": True}
DISPLAY = {"viewport": {"width": 1920, "height": 1080}}


@pytest.fixture
def phone(chromium):
    """A fresh phone-sized browser page (360x640)."""
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def screens(chromium, live_server):
    """The screens of one table in Chromium (`Screens` in test_plugin_game_browser.py: the
    console, the display, the phones), closed after the test."""
    from test_plugin_game_browser import Screens

    s = Screens(chromium, live_server)
    yield s
    s.close()


def settled(page) -> None:
    """Wait until `page` takes taps: its moves were not just drawn again (`.settling`, the tap
    guard) and none are being asked for (`[aria-busy=true]`, the console playing a seat)."""
    page.wait_for_function("() => !document.querySelector('.settling, [aria-busy=true]')")


def tap_button(box, name: str, confirm: bool = False) -> None:
    """Tap the button `name` in `box` (a Playwright locator: a phone's `#actions`, the
    console's seat panel) once its page takes taps (`settled`); a move that asks to be
    confirmed (`confirm`: a fold, an all-in, a junk...) is tapped again once it is armed
    ("Tap again: ..."). The browser tests tap a move this way; what each then waits for (the
    table's next version, the page's answer) is its own."""
    settled(box.page)
    box.get_by_role("button", name=name, exact=True).click()
    if confirm:
        settled(box.page)
        box.get_by_role("button", name=f"Tap again: {name.lower()}", exact=True).click()


def screenshot(page, name: str) -> Path:
    """Save a screenshot of `page` under test-artifacts/screenshots/ and return its path."""
    out = ARTIFACTS / "screenshots" / f"{name}.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out), full_page=True)
    return out
