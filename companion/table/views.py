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
from itertools import compress
from operator import is_not
from typing import TYPE_CHECKING, Any

from companion.refusal import Refused
from companion.table.state import dumps

if TYPE_CHECKING:  # for the annotations only: the engine is imported where a table is made
    from companion.table.engine import Table

log = logging.getLogger(__name__)

#: A string as every view's encoder writes it (what `ENCODER.encode(str)` calls, without the call).
_encode_str = json.encoder.encode_basestring

#: The carry's key for the keys viewers replaced inside the public view's dicts, by the dict's
#: key (`SharedEncoder._note_inside`): `INSIDE -> ({"hand": ("words",)}, "")`.
INSIDE = ("inside",)

#: A viewer: (seat or None, host?).
Viewer = tuple[str | None, bool]


class SharedEncoder:
    """JSON text of values that share parts, each shared part encoded once.

    `encode(value, like=base)` gives exactly `dumps(value)` for a dict made from `base` (the
    public view): `dict(base)` with some keys given other values and some added, as
    `Table.viewer_view` makes each viewer's. Each of `base`'s items is encoded once, with its
    key; a viewer's item that is the very same object as `base`'s under the same key (`is`)
    takes that text; a dict under a key where `base` has another dict (the hand, whose words
    name "You") is encoded the same way against `base`'s, so that its shared parts are reused
    too; anything else is encoded whole, at C speed. Dicts and lists encoded whole are
    remembered by identity with their text. The values must not change while the encoder is
    in use.

    `carry`: texts a table's earlier version left (`VersionViews`): a part of `base` that is
    the very same object as then (the rule set), or an item of one of its lists that is (a
    settled hand's row), is not encoded again.

    >>> hand = {"pots": [1, 2], "words": "Lando: bet."}
    >>> public = {"hand": hand, "version": 7}
    >>> enc = SharedEncoder()
    >>> enc.encode(public), enc.encode({**public, "hand": {**hand, "words": "You: bet."}, "you": 1}, like=public)
    ('{"hand":{"pots":[1,2],"words":"Lando: bet."},"version":7}', '{"hand":{"pots":[1,2],"words":"You: bet."},"version":7,"you":1}')
    """

    def __init__(self, carry: dict[Any, tuple[Any, str]] | None = None) -> None:
        # id -> (the object, kept alive so that its id is not reused; its text)
        self._done: dict[int, tuple[Any, str]] = {}
        # id of a base dict -> (the dict, {key: (its value, '"key":' + the value's text)}),
        # or (the dict, None) for a dict with a key that is not a string
        self._parts: dict[int, tuple[dict, dict[str, tuple[Any, str]] | None]] = {}
        # id of a base dict -> (the dict, its `_Layout`): its parts in order (`_like`)
        self._layouts: dict[int, tuple[dict, _Layout | None]] = {}
        self._keys: dict[str, str] = {}  # a key -> its text and the colon after it
        self._carry = carry
        self._owned: list[tuple[Any, dict]] = []  # viewers' own parts to leave in `carry`
        self._inside_last: tuple[str, ...] | None = None  # what the last `_item` replaced inside

    def encode(self, value: Any, like: dict | None = None, leave_out: tuple[str, ...] = (),
               viewer: tuple[Any, ...] | None = None) -> str:
        """`dumps(value)`; for a dict made from the dict `like`, from the parts they share.
        `leave_out`: top-level keys of `value` to leave out of the text (a stream's update
        leaves out what its client holds already: `VersionViews.same_as`). `viewer`: whose
        view `value` is; its own parts (the dicts under keys `like` lacks) are `own`ed under
        `(key, *viewer)`."""
        if like is None or type(value) is not dict:
            return self._whole(value)
        if leave_out:
            return self._like(value, like, leave_out=leave_out, viewer=viewer)
        hit = self._done.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        text = self._like(value, like, viewer=viewer)
        self._done[id(value)] = (value, text)
        return text

    def base_texts(self, base: dict) -> dict[int, tuple[Any, str]]:
        """The texts of `base`'s dict and list values, and of the dicts and lists in its lists
        (for a later version's `carry`)."""
        parts = self._parts_of(base)
        if parts is None:
            return {}
        done = self._done
        out = {}
        for v, _ in parts.values():
            if type(v) is list:
                for item in v:
                    hit = done.get(id(item))
                    if hit is not None and hit[0] is item:
                        out[id(item)] = hit
            if type(v) is dict or type(v) is list:
                out[id(v)] = done[id(v)]
        return out

    def _like(self, value: dict, base: dict, top: bool = True, leave_out: tuple[str, ...] = (),
              viewer: tuple[Any, ...] | None = None) -> str:
        layout = self._layout_of(base)
        if layout is None:  # a key that is not a string
            return self._whole({k: v for k, v in value.items() if k not in leave_out} if leave_out else value)
        keys = list(value)
        n = len(layout.keys)
        if keys[:n] != layout.keys:
            return self._like_by_key(value, base, top, leave_out)
        # A viewer's dict is `dict(base)` with a few values replaced and a few keys added
        # (`Table.viewer_view`): the few replaced ones are found by identity at C speed (a
        # loop over every key was most of a viewer's text), the rest is the base's text.
        values = list(value.values())
        replaced = list(compress(range(n), map(is_not, values, layout.values)))
        if top:  # the public view: item by item, each part's text found once (`_parts_of`)
            parts = self._parts_of(base, top)
            assert parts is not None  # its keys are strings (`layout`)
            texts = layout.texts(parts)
            if replaced:
                out = list(texts)
                for i in replaced:
                    out[i] = self._item(keys[i], values[i], layout.values[i])
                    if self._inside_last is not None:  # a dict inside, a few of its values replaced
                        self._note_inside(keys[i], self._inside_last)
                if leave_out:
                    for i in layout.positions(leave_out):
                        out[i] = ""
            else:  # most viewers: the base's text as it is, joined once
                body = layout.joined(leave_out)
                out = [body] if body else []  # (nothing at all of an empty base)
        else:  # a dict inside it (the hand): the runs of items between the replaced ones
            out = self._runs_around(layout, replaced, keys, values)
            self._inside_last = tuple([keys[i] for i in replaced])
        for k, v in zip(keys[n:], values[n:]):
            if type(k) is not str:
                return self._whole({k: v for k, v in value.items() if k not in leave_out} if leave_out else value)
            if k not in leave_out:
                if viewer is not None and type(v) is dict:
                    self.own((k, *viewer), v)
                out.append(self._key(k) + self._whole(v))
        if leave_out:
            out = [t for t in out if t]
        return "{" + ",".join(out) + "}"

    def _item(self, k: str, v: Any, was: Any) -> str:
        """`'"k":' + v`'s text, where `was` stood in the base (a dict for a dict: encoded
        against it, `_like`, which says in `_inside_last` which of its keys it replaced)."""
        self._inside_last = None
        if type(v) is dict and type(was) is dict:
            return self._key(k) + self._like(v, was, False)
        return self._key(k) + self._whole(v)

    def _runs_around(self, layout: _Layout, replaced: list[int], keys: list[str], values: list[Any]) -> list[str]:
        """The texts of a dict laid out as `layout` whose items at `replaced` hold `values`:
        the runs of the base's items between them, each encoded once (`_Layout.run`)."""
        out, start = [], 0
        for i in replaced:
            if start < i:
                out.append(layout.run(start, i))
            out.append(self._item(keys[i], values[i], layout.values[i]))
            start = i + 1
        if start < len(layout.keys):
            out.append(layout.run(start, len(layout.keys)))
        return out

    def _note_inside(self, key: str, replaced: tuple[str, ...]) -> None:
        """A viewer replaced the values under `replaced` in the base's dict under `key` (the
        hand's words): the next version encodes its public dict there in runs around them
        (`_split_inside`), the runs that viewer's text is made of, instead of whole and then
        again in runs. Kept in the carry, as the viewers' own parts are."""
        if self._carry is not None:
            inside = self._carry.get(INSIDE)
            if inside is None or inside[0].get(key) != replaced:
                self._carry[INSIDE] = ({**(inside[0] if inside else {}), key: replaced}, "")

    def _split_inside(self, base: dict) -> None:
        """Encode the dicts of `base` (the public view) that viewers replaced values in at the
        last version (`_note_inside`) in runs around those values (`_runs_around`), so that a
        viewer doing so again finds its runs made."""
        inside = self._carry.get(INSIDE) if self._carry is not None else None
        if inside is None:
            return
        for key, replaced in inside[0].items():
            v = base.get(key)
            if type(v) is not dict or id(v) in self._done:
                continue
            layout = self._layout_of(v)
            if layout is None:
                continue
            at = [i for i, k in enumerate(layout.keys) if k in replaced]
            if at:
                self._done[id(v)] = (v, "{" + ",".join(self._runs_around(layout, at, layout.keys, layout.values)) + "}")

    def _like_by_key(self, value: dict, base: dict, top: bool, leave_out: tuple[str, ...]) -> str:
        """`_like` for a dict whose keys do not begin with its base's, in its base's order:
        each item found by its key."""
        parts = self._parts_of(base, top)
        assert parts is not None  # `_like` has checked the keys
        out = []
        for k, v in value.items():
            if leave_out and k in leave_out:
                continue
            hit = parts.get(k)
            if hit is not None:
                if hit[0] is v:
                    out.append(hit[1])
                    continue
                if type(v) is dict and type(hit[0]) is dict:
                    out.append(self._key(k) + self._like(v, hit[0], False))
                    continue
            elif type(k) is not str:
                return self._whole({k: v for k, v in value.items() if k not in leave_out} if leave_out else value)
            out.append(self._key(k) + self._whole(v))
        return "{" + ",".join(out) + "}"

    def _layout_of(self, base: dict) -> _Layout | None:
        """`base`'s items in its order (`_Layout`), worked out once per base; None for a dict
        with a key that is not a string."""
        found = self._layouts.get(id(base))
        if found is not None and found[0] is base:
            return found[1]
        layout = _Layout(base) if all(type(k) is str for k in base) else None
        self._layouts[id(base)] = (base, layout)
        return layout

    def own(self, viewer: Any, value: dict) -> None:
        """`value`, a viewer's own part, has the text it had at the last version where it was
        equal (compared, not encoded: a seat's private part rarely changes when another seat
        acts: `_whole` then finds it done); then leaves its text for the next version (`carry`,
        under the key `viewer`)."""
        carry = self._carry
        if carry is None:
            return
        last = carry.get(viewer)
        if last is not None and last[0] == value:
            self._done[id(value)] = (value, last[1])
            return
        self._owned.append((viewer, value))

    def owned_texts(self) -> dict[Any, tuple[Any, str]]:
        """The texts of the viewers' own parts encoded since the last call (for `carry`)."""
        out = {}
        for viewer, value in self._owned:
            hit = self._done.get(id(value))
            if hit is not None and hit[0] is value:
                out[viewer] = hit
        self._owned.clear()
        return out

    def _parts_of(self, base: dict, top: bool = True) -> dict[str, tuple[Any, str]] | None:
        """Each item of `base` with its text, worked out once per base. `top`: `base` is the
        public view itself, whose lists' items a later version may share (`carry`: encoded
        item by item); a list deeper down is new with each version, encoded whole."""
        found = self._parts.get(id(base))
        if found is not None and found[0] is base:
            return found[1]
        parts: dict[str, tuple[Any, str]] | None = None
        if all(type(k) is str for k in base):
            if top:
                self._split_inside(base)
            key, whole = self._key, self._whole
            parts = {k: (v, key(k) + whole(v, top)) for k, v in base.items()}
        self._parts[id(base)] = (base, parts)
        return parts

    def _key(self, k: str) -> str:
        text = self._keys.get(k)
        if text is None:
            text = self._keys[k] = _encode_str(k) + ":"
        return text

    def _whole(self, value: Any, items: bool = False) -> str:
        """One value as `dumps` gives it: remembered if it is a dict or a list. `items`: a list
        of the public view's own, encoded item by item where there is a `carry`."""
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
            if hit is None or hit[0] is not value:
                carry = self._carry
                hit = carry.get(id(value)) if carry is not None else None
                if hit is None or hit[0] is not value:
                    # With a carry, a public list item by item: a later version's list (a new
                    # one) holds many of the same items (the settled hands' rows, issue 19).
                    # Only there: `carry` keeps no deeper item, and a list encoded item by
                    # item costs a call per item (the hand's lists, a row's numbers).
                    by_items = items and kind is list and carry is not None
                    hit = (value, self._list(value) if by_items else dumps(value))
                self._done[id(value)] = hit
            return hit[1]
        return dumps(value)

    def _list(self, value: list) -> str:
        """A list item by item (`_whole`): its dicts and lists remembered, or found in `carry`
        (each whole: `carry` keeps the public lists' items, nothing deeper)."""
        return "[" + ",".join([self._whole(item) for item in value]) + "]"


class _Layout:
    """A base dict's items in its order, for `SharedEncoder._like`: its keys and values as
    lists, its items' texts (`'"key":' + text`), where the keys a text leaves out stand, and
    the text of a run of its items (what a viewer's dict shares between its own values)."""

    __slots__ = ("keys", "values", "_texts", "_left_out", "_joined", "_runs")

    def __init__(self, base: dict[str, Any]):
        self.keys = list(base)
        self.values = list(base.values())
        self._texts: list[str] | None = None
        self._left_out: dict[tuple[str, ...], list[int]] = {}
        self._joined: dict[tuple[str, ...], str] = {}
        self._runs: dict[tuple[int, int], str] = {}

    def texts(self, parts: dict[str, tuple[Any, str]]) -> list[str]:
        """Every item's text, in order, from `parts` (`SharedEncoder._parts_of` of the base)."""
        if self._texts is None:
            self._texts = [t for _, t in parts.values()]
        return self._texts

    def joined(self, leave_out: tuple[str, ...]) -> str:
        """The items' texts (`texts`) but those under the keys in `leave_out`, joined: what a
        viewer's text shares whole with the base (worked out once per `leave_out`)."""
        found = self._joined.get(leave_out)
        if found is None:
            assert self._texts is not None  # `texts` comes first
            gone = self.positions(leave_out)
            found = self._joined[leave_out] = ",".join([t for i, t in enumerate(self._texts) if i not in gone])
        return found

    def positions(self, leave_out: tuple[str, ...]) -> list[int]:
        """Where the keys in `leave_out` stand among the keys (each viewer of a version leaves
        out the same few: worked out once)."""
        found = self._left_out.get(leave_out)
        if found is None:
            found = self._left_out[leave_out] = [i for i, k in enumerate(self.keys) if k in leave_out]
        return found

    def run(self, start: int, stop: int) -> str:
        """The items from `start` to `stop` (not included) as they stand in the base's text,
        encoded once, together, at C speed."""
        text = self._runs.get((start, stop))
        if text is None:
            text = self._runs[(start, stop)] = dumps(dict(zip(self.keys[start:stop], self.values[start:stop])))[1:-1]
        return text


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

    `carry`: a dict the table's owner hands to the views of each version in turn. The first
    text a version renders leaves there the texts of its public parts (the rule set, the
    settled hands' rows); the next version finds those of its parts that are the very same
    objects already encoded.
    """

    def __init__(self, table: Any, version: int, history: int | None,
                 carry: dict[Any, tuple[Any, str]] | None = None):
        self.table = table
        self.version = version
        self.history = history
        self._split = hasattr(table, "public_view") and hasattr(table, "viewer_view")
        self._lock = threading.RLock()
        self._public: dict[str, Any] | None = None
        self._legal: dict[str, list[dict[str, Any]] | Refused] = {}
        self._states: dict[Viewer, dict[str, Any]] = {}
        self._texts: dict[tuple[Any, ...], str] = {}
        self._missing: set[Viewer] = set()  # viewers with no view of their own (`shown`)
        self._steady: tuple[str, ...] | None = None  # public parts the last version had (`same_as`)
        # The owner's one dict of the last version's public parts' texts (`_remember`).
        self._carry = carry
        self._encoder = SharedEncoder(carry)

    def public(self) -> dict[str, Any]:
        """What every viewer sees alike (a spectator's view)."""
        if self._public is not None:  # once made, read without the lock
            return self._public
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
        found = self._legal.get(seat)  # once made, read without the lock
        if found is None:
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
        state = self._states.get(key)  # once made, read without the lock
        if state is not None:
            return state
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

    def shown(self, seat: str | None = None, host: bool = False) -> dict[str, Any]:
        """The state `text(seat, host)` is made from: the viewer's (`state`), or a spectator's
        for a seat that left the table since (it has no view of its own any more)."""
        state = self._states.get((seat, host))
        if state is not None:
            return state
        with self._lock:
            try:
                return self.state(seat, host)
            except Exception:
                if (seat, host) not in self._missing:  # said once per version
                    self._missing.add((seat, host))
                    log.exception("table %s: no view for %s", getattr(self.table, "code", "?"), (seat, host))
                return self.state(None, False)

    def same_as(self, seat: str | None, host: bool, last: dict[str, Any]) -> tuple[str, ...]:
        """The top-level parts of the viewer's state (`shown`) that are the very same dicts
        and lists as in `last`, a state of an earlier version (its rules, the game's blocks:
        what a version rarely changes): a stream's update leaves them out (`Update.text`),
        its client keeps them from the last state it was sent. Views are read, never
        changed, so the same object is the same value. Only the public parts the last
        version had already (found in `carry`) are compared: the others are new."""
        steady = self._steady
        if steady is None:
            with self._lock:
                steady = self._steady
                if steady is None:  # no text of this version yet: the carry is still the last version's
                    steady = self._steady = self._steady_parts(self.public())
        state = self.shown(seat, host)
        return tuple([k for k in steady if last.get(k) is state.get(k)])

    def _steady_parts(self, public: dict[str, Any]) -> tuple[str, ...]:
        """The keys of `public`'s dicts and lists that the last version's public view had too
        (the very same objects, found in `carry`): all `same_as` compares."""
        # The carry holds its objects: no other live object has one's id (`is` is enough).
        get = (self._carry or {}).get
        return tuple([k for k, v in public.items() if (hit := get(id(v))) is not None and hit[0] is v])

    def text(self, seat: str | None = None, host: bool = False, leave_out: tuple[str, ...] = ()) -> str:
        """`state(seat, host)` as JSON text (`dumps`), its shared parts encoded once;
        without its top-level parts named in `leave_out` (`same_as`)."""
        key = (seat, host, leave_out) if leave_out else (seat, host)
        text = self._texts.get(key)  # once made, read without the lock (a dict's get is atomic)
        if text is not None:
            return text
        with self._lock:
            text = self._texts.get(key)
            if text is None:
                state = self.shown(seat, host)
                if self._split:  # from the parts it shares with the public view
                    public = self.public()
                    encoder = self._encoder
                    # The viewer's own parts (its private part) are `own`ed under (key, viewer).
                    text = encoder.encode(state, like=public, leave_out=leave_out, viewer=(seat, host))
                    if not self._texts:
                        self._remember(public)
                    if self._carry is not None:
                        self._carry.update(encoder.owned_texts())
                else:
                    text = dumps({k: v for k, v in state.items() if k not in leave_out} if leave_out else state)
                self._texts[key] = text
            return text

    def _remember(self, public: dict[str, Any]) -> None:
        """Leave the texts of this version's public parts for the next version (`carry`),
        in place of the last version's: only what both share is found there again."""
        if self._carry is not None:
            if self._steady is None:  # found before the carry is the last version's no more
                self._steady = self._steady_parts(public)
            texts = self._encoder.base_texts(public)
            # The viewers' own parts (keyed by viewer, not by id: `SharedEncoder.own`) stay.
            owned = {k: v for k, v in self._carry.items() if type(k) is tuple}
            self._carry.clear()
            self._carry.update(texts)
            self._carry.update(owned)


class Update:
    """One committed entry as every subscriber of the table receives it: `seq`, its `events`
    (public: the engine never puts hidden cards in an event) and the table's `views` after it.
    Nothing is rendered until a viewer asks for its `text`."""

    def __init__(self, seq: int, events: list[dict[str, Any]], views: VersionViews):
        self.seq, self.events, self.views = seq, events, views
        self._events_text: str | None = None
        # One text per viewer (and parts left out), however many streams it has.
        self._texts: dict[tuple[Any, ...], str] = {}

    def text(self, seat: str | None = None, host: bool = False, last: dict[str, Any] | None = None) -> str:
        """The `update` message for one viewer: `update_json(seq, events, its state)`. With
        `last`, the state the viewer's stream was sent before (its client keeps it), the state
        leaves out the top-level parts that are the very same as there (`VersionViews.same_as`):
        an update carries what changed, not the rules and blocks again."""
        leave_out = self.views.same_as(seat, host, last) if last is not None else ()
        key = (seat, host, leave_out)
        text = self._texts.get(key)
        if text is None:
            if self._events_text is None:
                self._events_text = dumps(self.events)
            state = self.views.text(seat, host, leave_out)
            text = f'{{"version":{self.seq},"events":{self._events_text},"state":{state}}}'
            self._texts[key] = text
        return text
