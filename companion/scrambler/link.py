"""The scrambler's link to the table it is bound to: presses in, results out.

Inputs already reach the table through the hub's `send` (the registry's `scrambler_submit`).
This module carries the other direction: every roll the bound table records — whoever made
it: the button, the box, the timer or a phone's on-screen scrambler — is shown on the LED and
the buzzer, and the random timer follows the bound table's rule set::

    link = TableLink(registry, hub).start()
    ...
    link.close()

It listens like any other viewer (a public subscription to the owner), so it sees exactly
what a spectator sees and nothing hidden. When the host binds the scrambler to another table,
the link moves with it within `poll_s` seconds.
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Any

log = logging.getLogger(__name__)


class TableLink:
    """Follows the registry's scrambler table and shows its rolls on the hub's devices."""

    def __init__(self, registry: Any, hub: Any, poll_s: float = 1.0):
        self.registry = registry
        self.hub = hub
        self.poll_s = poll_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.shown = 0  # rolls shown on the devices (for tests and status)
        self.code: str | None = None  # the table followed now
        self._rules: Any = None  # the rule set the timer was last set from

    def start(self) -> "TableLink":
        """Start following in a background thread."""
        self._thread = threading.Thread(target=self._run, name="scrambler-link", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop following."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            owner = self.registry.scrambler_table()
            if owner is None:
                self.code = None
                self._stop.wait(self.poll_s)
                continue
            self._follow(owner)

    def _follow(self, owner: Any) -> None:
        """Show `owner`'s rolls until the binding changes, the table closes, or we stop."""
        sub, _, state = owner.subscribe()
        self.code = owner.code
        self._rules = None  # a new table: set its timer
        self._configure_timer(state)
        try:
            while not self._stop.is_set():
                try:
                    message = sub.messages.get(timeout=self.poll_s)
                except queue.Empty:
                    if self.registry.scrambler_table() is not owner:
                        return
                    continue
                if message is None:  # the table is closing (server shutdown)
                    self._stop.wait(self.poll_s)
                    return
                _, kind, update = message
                if kind == "update":
                    self._show(update)
        finally:
            owner.unsubscribe(sub)

    def _show(self, update: Any) -> None:
        """Show the update's rolls; follow its rule set's timer if it changed. Reads the
        events and the public view as they are (no JSON): nothing is rendered for the link."""
        for event in update.events:
            if event.get("type") == "rolled" and event.get("roll"):
                self.hub.show(event["roll"])
                self.shown += 1
        self._configure_timer(update.views.public())

    def _configure_timer(self, state: dict[str, Any]) -> None:
        rules = state.get("rules") or (state.get("settings") or {}).get("rules") or {}
        if rules == self._rules:
            return  # the same rule set as the last update's: the timer is set already
        self._rules = rules
        try:
            self.hub.configure_timer(rules["timer_mean_s"], rules["timer_min_s"], rules["timer_max_s"])
        except (KeyError, TypeError, ValueError):
            pass  # a view without the timer's settings: keep the hub's own
