"""A table version's views (companion.table.views): each part worked out once, the same bytes."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from conftest import examples

from companion.table.engine import HOST, Table
from companion.table.ledger import Ledger
from companion.table.owner import VIEW_HISTORY, TableOwner
from companion.table.views import SharedEncoder, Update, VersionViews, dumps

SCALARS = st.none() | st.booleans() | st.integers() | st.text(max_size=8) | \
    st.floats(allow_nan=False, allow_infinity=False)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) |
                    st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=20)


def plain_dumps(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@settings(max_examples=examples(200), deadline=None)
@given(public=st.dictionaries(st.text(max_size=5), JSON, min_size=1, max_size=6),
       own=st.lists(st.tuples(st.text(max_size=5), JSON), max_size=3),
       inner=st.dictionaries(st.text(max_size=5), JSON, max_size=4),
       other=st.dictionaries(st.text(max_size=5), JSON, max_size=4))
def test_a_view_made_of_shared_parts_encodes_as_dumps_does(public, own, inner, other):
    """However the viewers' dicts share parts with the public one (whole values, a nested dict
    copied with one value changed, keys added), or share nothing with the dict they are said
    to be like, every text is exactly json.dumps's; so is every text of a later version's
    encoder handed the first's texts (`carry`), which keeps only the parts still the same."""
    enc = SharedEncoder()
    public = {**public, "hand": inner}
    viewers = [public]
    for key, value in own:
        viewer = dict(public)
        viewer["hand"] = {**inner, "words": value}
        viewer[key] = value
        viewers.append(viewer)
    for viewer in viewers + viewers:  # the second time from what it remembers
        assert enc.encode(viewer, like=public) == plain_dumps(viewer)
        assert enc.encode(viewer) == plain_dumps(viewer)
        assert enc.encode(viewer, like=other) == plain_dumps(viewer)
        # A stream's update leaves out the parts its client holds: the first key, the
        # hand, or a key the viewer added (each viewer of a version leaves out the same few).
        for gone in ((next(iter(public)),), ("hand",), tuple(viewer)[-1:], tuple(viewer)):
            want = plain_dumps({k: v for k, v in viewer.items() if k not in gone})
            assert enc.encode(viewer, like=public, leave_out=gone) == want
    # A dict whose keys stand in another order than its base's is encoded key by key.
    shuffled = dict(reversed(list({**public, "hand": {**inner, "words": "You"}}.items())))
    assert enc.encode(shuffled, like=public) == plain_dumps(shuffled)
    # Each viewer again, by an encoder that has not seen it, like `other` (maybe empty: then
    # every key is the viewer's own).
    for viewer in viewers:
        assert SharedEncoder().encode(viewer, like=other) == plain_dumps(viewer)
        assert SharedEncoder().encode(viewer, like={}) == plain_dumps(viewer)
    carry = enc.base_texts(public)
    later = {**public, "hand": {**inner}, "other": other}
    assert SharedEncoder(carry).encode(later, like=later) == plain_dumps(later)


def test_a_later_versions_list_of_the_same_rows_is_encoded_from_their_texts():
    """The settled hands' rows are the same objects from version to version, in a new list:
    the next version's encoder takes each row's text from the carry, and a row that is new
    (or another object at a carried id) is encoded afresh."""
    rows = [{"hand": n, "winner": "s1", "pots": [n, 2]} for n in range(3)]
    first = {"hands": rows[:2], "hand": {"words": "Han: draw."}}
    enc = SharedEncoder({})
    assert enc.encode(first, like=first) == plain_dumps(first)
    carry = enc.base_texts(first)
    assert carry[id(rows[0])] == (rows[0], plain_dumps(rows[0]))
    old = rows[1]
    rows[1] = {"hand": 1, "winner": "s2", "pots": []}  # a new row in the old one's place
    later = {"hands": rows[:], "hand": {"words": "You: draw."}}
    assert SharedEncoder(carry).encode(later, like=later) == plain_dumps(later)
    # The carried text is what is used for the same row, never for another object at its id.
    marked = {id(rows[0]): (rows[0], '"carried"'), id(rows[1]): (old, '"stale"')}
    text = SharedEncoder(marked).encode(later, like=later)
    assert text.startswith('{"hands":["carried",{"hand":1,"winner":"s2"') and "stale" not in text


@settings(max_examples=examples(300), deadline=None)
@given(value=JSON)
def test_dumps_with_its_one_c_encoder_gives_json_dumpss_text(value):
    """`dumps` calls the C encoder it made once: the same text as json.dumps, whatever the
    value (floats, text beyond ASCII, nesting)."""
    assert dumps(value) == plain_dumps(value)


def test_dumps_without_the_c_encoder_gives_the_same_text(monkeypatch):
    """Where the C encoder is missing (or takes other arguments), `dumps` asks `ENCODER`."""
    from companion.table import state

    value = {"seat": "s1", "name": "Qi'ra ⊕", "pots": [1.5, None, True], "hand": {}}
    with_c = dumps(value)
    monkeypatch.setattr(state, "_ONE_PASS", None)
    assert state.dumps(value) == with_c == plain_dumps(value)


def _table() -> Table:
    t = Table.create("VIEWS", {"rules": "weg"})
    for name in ("Lando", "Han", "Leia"):
        seat = t.apply({"type": "join", "name": name}, None)[0]["seat"]
        t.apply({"type": "buy_in", "amount": 30}, seat)
    t.apply({"type": "start_hand"}, HOST)
    return t


def test_every_viewer_gets_what_table_view_gives():
    t = _table()
    views = VersionViews(t.frozen(), 9, VIEW_HISTORY)
    for seat, host in ((None, False), (None, True), ("s1", False), ("s2", False), ("s9", False)):
        want = t.view(seat, host=host, history=VIEW_HISTORY)
        want["version"] = 9
        assert views.state(seat, host) == want
        assert views.text(seat, host) == dumps(want)
    assert views.legal("s2") == t.legal("s2")


def test_version_after_version_every_text_is_dumps_and_an_unchanged_own_part_is_not_encoded_again():
    """A table's versions rendered in turn with one carry (as its owner does): every viewer's
    text is `dumps` of its state; a seat's own part equal to the last version's (the host
    corrected another seat's stack) takes the last text, kept under the viewer in the carry."""
    t = _table()
    carry: dict = {}
    viewers = [(None, False), (None, True), *((sid, False) for sid in t.seat_ids())]
    kept = {}
    for i in range(6):
        if i:  # between the versions: the host corrects s1's stack (s2's own part is the same)
            t.apply({"type": "adjust", "seat": "s1", "amount": 1 if i % 2 else -1, "reason": "a chip"}, HOST)
        views = VersionViews(t.frozen(), 9 + i, VIEW_HISTORY, carry=carry)
        for seat, host in viewers:
            assert views.text(seat, host) == dumps(views.state(seat, host))
        kept[i] = carry[("you", "s2", False)][0]
    you = VersionViews(t.frozen(), 99, VIEW_HISTORY).state("s2")["you"]
    assert kept[5] == you
    assert all(kept[i] is kept[0] for i in range(6))  # encoded once, at the first version


def test_a_seats_legal_moves_are_worked_out_once_per_version():
    t = _table().frozen()
    calls = []
    real = t.legal

    def counted(seat):
        calls.append(seat)
        return real(seat)

    t.legal = counted
    views = VersionViews(t, 9, VIEW_HISTORY)
    views.text("s2")
    views.state("s2")
    views.legal("s2")
    Update(9, [], views).text("s2")
    assert calls == ["s2"]


def test_listing_legal_moves_leaves_the_table_as_it_was():
    """The legal moves are checked on the table's own state, read-only: the table never
    changes, and the moves are the same when worked out again on a table loaded afresh."""
    t = _table()
    before = t.to_json()
    first = {s: t.legal(s) for s in t.seat_ids()}
    assert t.to_json() == before
    again = Table.from_json(before)
    assert {s: again.legal(s) for s in again.seat_ids()} == first


def test_publishing_renders_nothing_until_a_viewer_asks(tmp_path):
    """A committed entry hands every subscriber the same update, unrendered: each stream
    renders its own text when it wakes, and a late reader still gets its version's."""
    ledger = Ledger(tmp_path / "t.sqlite")
    owner, _ = TableOwner.create("VIEWS", {"rules": "weg"}, ledger, Table)
    owner.join("Lando")
    subs = [owner.subscribe("s1")[0], owner.subscribe()[0], owner.subscribe(None, True)[0]]
    owner.submit({"type": "buy_in", "amount": 30}, "s1")
    updates = [s.messages.get_nowait() for s in subs]
    assert len({id(u[2]) for u in updates}) == 1
    update = updates[0][2]
    assert update.views._texts == {}  # nothing rendered yet
    version, state = owner.view("s1", history=VIEW_HISTORY)
    owner.submit({"type": "sit_out"}, "s1")  # the table moves on
    text = subs[0].text(update)
    assert json.loads(text) == {"version": version, "events": update.events, "state": state}
    ledger.close()
