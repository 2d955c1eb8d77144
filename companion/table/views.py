"""Every view of one table version, each part worked out once and shared (issue 19).

A table's viewers — each seat's phone, the host console, the display, the spectators, the
scrambler link — see one state in as many views. Most of a view is the same for all of them;
what is a viewer's own is small (the turn's words naming "You", its private part with its
legal commands, the host's commands). `VersionViews` holds one version of a table and works
out, at most once each, the public view, each seat's legal commands (shared by that seat's
stream, the answer to its command and the host console playing it), each viewer's state and
its JSON text, whose shared parts are encoded once (`SharedEncoder`). An `Update` is what a
committed entry hands every subscriber: nothing is rendered until a stream asks for its own
text, so each stream is sent its update as soon as its own part is ready, and an internal
subscriber (the scrambler link) reads the events without any JSON at all::

    views = VersionViews(table.frozen(), version=7, history=20)
    views.state("s1")            # the seat's view, as table.view("s1") with the version
    views.text(None, host=True)  # the host's view as JSON text
    Update(7, events, views).text("s1")   # the stream message's data for seat s1

A `VersionViews` is safe to use from any thread: it renders under its own lock, from a table
that must not change (the owner gives it `Table.frozen()`). The dicts it returns share their parts with
each other: read them, never change them (a caller may add keys at the top level).
"""

from __future__ import annotations

import inspect
import json
import logging
import threading
from typing import TYPE_CHECKING, Any

from companion.refusal import Refused
from companion.table.state import ENCODER, dumps

if TYPE_CHECKING:  # for the annotations only: the engine is imported where a table is made
    from companion.table.engine import Table

log = logging.getLogger(__name__)

#: The encoder of every view and update (`companion.table.state.dumps`).
_ENCODER = ENCODER
#: A string as that encoder writes it (what `_ENCODER.encode(str)` calls, without the call).
_encode_str = json.encoder.encode_basestring

#: A viewer: (seat or None, host?).
Viewer = tuple[str | None, bool]


class SharedEncoder:
    """JSON text of values that share parts, each shared part encoded once.

    Gives exactly `dumps(value)`. The values are views of one table version made by
    `Table.viewer_view`: dicts whose parts are the public view's own objects, except a few.
    Every dict and list met is remembered by identity with its text. A top-level dict is
    encoded key by key; so is a dict found under a key where another viewer had another dict
    (the hand, whose words name "You"), so that its shared parts are reused too. Anything
    else is encoded whole, at C speed. The values must not change while the encoder is in use.

    >>> hand = {"pots": [1, 2], "words": "Lando: bet."}
    >>> enc = SharedEncoder()
    >>> enc.encode({"hand": hand}), enc.encode({"hand": {**hand, "words": "You: bet."}})
    ('{"hand":{"pots":[1,2],"words":"Lando: bet."}}', '{"hand":{"pots":[1,2],"words":"You: bet."}}')
    """

    def __init__(self) -> None:
        # id -> (the object, kept alive so that its id is not reused; its text)
        self._done: dict[int, tuple[Any, str]] = {}
        self._keys: dict[Any, str] = {}  # a key -> its text and the colon after it
        # Top-level keys under which more than one dict has been met (-> the first one's id).
        self._first: dict[str, int] = {}
        self._varies: set[str] = set()

    def encode(self, value: Any) -> str:
        """`dumps(value)`, reusing the text of parts already encoded."""
        if not isinstance(value, dict):
            return self._whole(value)
        hit = self._done.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        parts = []
        done, keys = self._done, self._keys
        for k, v in value.items():
            key = keys.get(k)
            if key is None:
                if type(k) is not str:
                    return self._whole(value)
                key = keys[k] = _ENCODER.encode(k) + ":"
            hit = done.get(id(v))
            if hit is not None and hit[0] is v:  # the same part as another viewer's
                parts.append(key + hit[1])
                continue
            if type(v) is dict:
                first = self._first.setdefault(k, id(v))
                if first != id(v):
                    self._varies.add(k)
                text = self._items(v) if k in self._varies else self._whole(v)
            else:
                text = self._whole(v)
            parts.append(key + text)
        text = "{" + ",".join(parts) + "}"
        self._done[id(value)] = (value, text)
        return text

    def _items(self, value: dict) -> str:
        """A dict key by key, each value whole (remembered)."""
        if not all(type(k) is str for k in value):
            return self._whole(value)
        keys, whole = self._keys, self._whole
        parts = []
        for k, v in value.items():
            key = keys.get(k)
            if key is None:
                key = keys[k] = _ENCODER.encode(k) + ":"
            parts.append(key + whole(v))
        text = "{" + ",".join(parts) + "}"
        self._done[id(value)] = (value, text)
        return text

    def _whole(self, value: Any) -> str:
        """One value as `dumps` gives it: remembered if it is a dict or a list."""
        if value is None:
            return "null"
        if value is True:
            return "true"
        if value is False:
            return "false"
        kind = type(value)
        if kind is str:
            return _encode_str(value)
        if kind is int:
            return int.__repr__(value)
        if kind is dict or kind is list:
            hit = self._done.get(id(value))
            if hit is not None and hit[0] is value:
                return hit[1]
            text = _ENCODER.encode(value)
            self._done[id(value)] = (value, text)
            return text
        return _ENCODER.encode(value)


def cuts_history(table_class: type[Table]) -> bool:
    """Whether `table_class.view` takes `history=` (the engine's does: it can cut its stack
    chart to the latest rows)."""
    return "history" in inspect.signature(table_class.view).parameters


class VersionViews:
    """Every viewer's view of `table` at `version` (the ledger's), each worked out once.

    `history`: rows of the stack chart each view carries (`Table.view(history=)`), or None
    for a table class whose views take no such argument (`cuts_history(type(table))`). A
    table class with `public_view` and `viewer_view` (the engine's) has its public part
    built and encoded once; any other gets each viewer's `view(seat, host=)` whole.
    """

    def __init__(self, table: Any, version: int, history: int | None):
        self.table = table
        self.version = version
        self.history = history
        self._split = hasattr(table, "public_view") and hasattr(table, "viewer_view")
        self._lock = threading.RLock()
        self._public: dict[str, Any] | None = None
        self._legal: dict[str, list[dict[str, Any]] | Refused] = {}
        self._states: dict[Viewer, dict[str, Any]] = {}
        self._texts: dict[Viewer, str] = {}
        self._encoder = SharedEncoder()

    def public(self) -> dict[str, Any]:
        """What every viewer sees alike (a spectator's view)."""
        with self._lock:
            if self._public is None:
                if self._split:
                    public = self.table.public_view(self.history)
                    public["version"] = self.version
                    self._public = public
                else:
                    self._public = self.state(None, False)
            return self._public

    def legal(self, seat: str) -> list[dict[str, Any]]:
        """`seat`'s legal commands (`Table.legal`; raises its `Refused` for a seat that is not
        at the table)."""
        with self._lock:
            found = self._legal.get(seat)
            if found is None:
                try:
                    found = self.table.legal(seat)
                except Refused as exc:
                    found = exc
                self._legal[seat] = found
        if isinstance(found, Refused):
            raise found
        return found

    def state(self, seat: str | None = None, host: bool = False) -> dict[str, Any]:
        """The view of `seat` (None: a spectator) or the host, as `Table.view` gives it with
        `version` set to the ledger's."""
        key = (seat, host)
        with self._lock:
            state = self._states.get(key)
            if state is None:
                if self._split:
                    legal = None
                    if seat is not None:
                        try:
                            legal = self.legal(seat)
                        except Refused:
                            pass  # not at the table: no private part
                    state = self.table.viewer_view(self.public(), seat, host=host, legal=legal)
                elif self.history is not None:
                    state = self.table.view(seat, host=host, history=self.history)
                else:
                    state = self.table.view(seat, host=host)
                state["version"] = self.version
                self._states[key] = state
            return state

    def text(self, seat: str | None = None, host: bool = False) -> str:
        """`state(seat, host)` as JSON text (`dumps`), its shared parts encoded once."""
        key = (seat, host)
        with self._lock:
            text = self._texts.get(key)
            if text is None:
                try:
                    state = self.state(seat, host)
                except Exception:  # a seat that left has no view of its own any more
                    log.exception("table %s: no view for %s", getattr(self.table, "code", "?"), key)
                    state = self.state(None, False)
                # The first viewer's text in one pass of the C encoder (quicker, when nobody
                # shares it); the others' from the parts they share (`SharedEncoder`).
                text = self._encoder.encode(state) if self._texts else dumps(state)
                self._texts[key] = text
            return text


class Update:
    """One committed entry as every subscriber of the table receives it: `seq`, its `events`
    (public: the engine never puts hidden cards in an event) and the table's `views` after it.
    Nothing is rendered until a viewer asks for its `text`."""

    def __init__(self, seq: int, events: list[dict[str, Any]], views: VersionViews):
        self.seq, self.events, self.views = seq, events, views
        self._events_text: str | None = None
        self._texts: dict[Viewer, str] = {}  # one text per viewer, however many streams it has

    def text(self, seat: str | None = None, host: bool = False) -> str:
        """The `update` message for one viewer: `update_json(seq, events, its state)`."""
        text = self._texts.get((seat, host))
        if text is None:
            if self._events_text is None:
                self._events_text = dumps(self.events)
            state = self.views.text(seat, host)
            text = f'{{"version":{self.seq},"events":{self._events_text},"state":{state}}}'
            self._texts[(seat, host)] = text
        return text
