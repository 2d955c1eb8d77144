"""Verifiable rolls: a committed secret seed per hand, every roll derived from it.

Before each hand the table draws a fresh 32-byte secret seed from the operating system
(`secrets`) and publishes its *commitment*; every roll of the hand is derived from the seed;
after the hand the seed is revealed, and anyone can check that it matches the commitment and
recompute every roll (`sabacc-companion verify`, or the audit page in the browser).

The derivation, scheme ``sabacc-hmac-sha256-v1`` (exact enough to reimplement with
SubtleCrypto):

1. **Seed**: 32 bytes, written as 64 lower-case hex digits.
2. **Commitment**: ``SHA-256(seed)`` over the 32 raw seed bytes (not the hex text), as 64
   lower-case hex digits. The seed is uniformly random, so no salt is needed.
3. **Roll index**: the hand's rolls that throw dice are numbered 0, 1, 2, ... in the order the
   table made them. A timer firing throws no dice and takes no index.
4. **Byte stream of roll i**: the concatenation of the 32-byte blocks
   ``HMAC-SHA256(key=seed, message=ASCII("roll:<i>:<k>"))`` for k = 0, 1, 2, ...; `i` and
   `k` are written in decimal without leading zeros (``roll:0:0``, ``roll:12:0``).
5. **Faces**: the roll's dice (the count of n-sided dice its key names, see `DiceSpec`: two
   d6 for ``2d6-*``, one d6 for ``d6-*``, one d10/d12/d20; a game's own dice as the game
   declares them under a key of its own, e.g. two d6) are taken in order from that stream, one
   byte at a time: a byte ``b`` is *rejected* when ``b >= 256 - (256 % n)`` (the largest
   multiple of n not above 256: 252 for d6 and d12, 250 for d10, 240 for d20), otherwise the
   face is ``b % n + 1``. Rejection keeps every face exactly equally likely.
6. **Shift**: the faces of a shift roll are judged as any roll (`companion.scrambler.dice.judge`);
   a game's other dice are read, not judged.

    >>> seed = bytes(range(32))
    >>> commitment(seed)
    '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'
    >>> derive_rolls(seed, Trigger.TWO_D6_DOUBLES, 3)
    [(5, 2), (6, 4), (3, 1)]
    >>> verify(seed.hex(), commitment(seed), [{"trigger": "2d6-doubles", "dice": [5, 2]}]).ok
    True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from companion.rules.rulesets import Trigger
from companion.scrambler.dice import is_shift, shape, spec_of

#: The name of the derivation above, recorded with every hand so that a later change of
#: scheme cannot be confused with this one.
SCHEME = "sabacc-hmac-sha256-v1"
SEED_BYTES = 32
#: The shift triggers' names: a recorded roll of one of them is judged again (step 6).
_TRIGGERS = frozenset(t.value for t in Trigger)


def new_seed() -> bytes:
    """A fresh secret seed from the operating system's random source."""
    return secrets.token_bytes(SEED_BYTES)


def _seed_bytes(seed: bytes | str) -> bytes:
    """The raw seed from bytes or its hex text (raises ValueError for anything else)."""
    raw = bytes.fromhex(seed.strip()) if isinstance(seed, str) else bytes(seed)
    if len(raw) != SEED_BYTES:
        raise ValueError(f"a seed is {SEED_BYTES} bytes ({2 * SEED_BYTES} hex digits)")
    return raw


def commitment(seed: bytes | str) -> str:
    """The published commitment of `seed`: SHA-256 of its raw bytes, in hex."""
    return hashlib.sha256(_seed_bytes(seed)).hexdigest()


def derive_dice(seed: bytes | str, index: int, trigger: Any) -> tuple[int, ...]:
    """The faces of the hand's roll number `index` (from 0) thrown for `trigger` (a `DiceSpec`,
    a `Trigger` or a dice key)."""
    count, sides = shape(trigger)
    if count == 0:
        return ()
    key = _seed_bytes(seed)
    limit = 256 - 256 % sides  # bytes at or above it are rejected (step 5)
    faces: list[int] = []
    block = 0
    while True:  # the byte stream of step 4, one 32-byte block at a time
        for byte in hmac.digest(key, b"roll:%d:%d" % (index, block), "sha256"):
            if byte < limit:
                faces.append(byte % sides + 1)
                if len(faces) == count:
                    return tuple(faces)
        block += 1


def derive_rolls(
    seed: bytes | str, trigger: Any, count: int, start: int = 0
) -> list[tuple[int, ...]]:
    """The faces of `count` consecutive rolls for `trigger`, from roll number `start`."""
    return [derive_dice(seed, i, trigger) for i in range(start, start + count)]


class SeededRoller:
    """A `Roller` whose rolls are derived from a committed secret seed, one seed per hand.

    The owner publishes `commitment` at the start of a hand, rolls with `dice(trigger)`, and
    after the hand publishes `reveal()` and calls `new_hand()` for the next one. A roll whose
    command the table refused was never shown: `discard()` takes it back, so that the hand's
    recorded rolls stay numbered without gaps::

        >>> r = SeededRoller()
        >>> published = r.commitment
        >>> faces = r.dice(Trigger.TWO_D6_DOUBLES)
        >>> record = r.record()
        >>> seed = r.reveal()
        >>> verify(seed, published, record["rolls"]).ok
        True
        >>> r.new_hand() != published
        True

    A roll asked for after `reveal()` (there should be none between hands) starts a fresh,
    unpublished seed rather than rolling predictably from the revealed one.
    Thread-safe: the GPIO button, the box and the screen may roll from different threads.
    """

    def __init__(self, seed: bytes | str | None = None):
        self._lock = threading.Lock()
        self._seed = _seed_bytes(seed) if seed is not None else new_seed()
        self._rolls: list[dict[str, Any]] = []
        self._revealed = False

    @property
    def commitment(self) -> str:
        """The commitment of the current hand's seed (publish it before the hand)."""
        return commitment(self._seed)

    @property
    def index(self) -> int:
        """The number the next dice roll of this hand will have."""
        return len(self._rolls)

    def dice(self, trigger: Any) -> tuple[int, ...]:
        """The next roll's faces for `trigger` (a `DiceSpec`, a `Trigger` or a dice key; empty
        for the timer, which takes no index)."""
        spec = spec_of(trigger)
        with self._lock:
            if self._revealed:
                self._seed, self._rolls, self._revealed = new_seed(), [], False
            if spec is None or spec.count == 0:
                return ()
            faces = derive_dice(self._seed, len(self._rolls), spec)
            self._rolls.append({"index": len(self._rolls), "trigger": spec.key,
                                "dice": list(faces)})
            return faces

    def discard(self) -> None:
        """Take back the latest roll (its command was refused, so no one saw it)."""
        with self._lock:
            if self._rolls:
                self._rolls.pop()

    def record(self) -> dict[str, Any]:
        """The hand's audit record so far: scheme, commitment, rolls (and the seed if revealed)."""
        with self._lock:
            out = {"scheme": SCHEME, "commitment": commitment(self._seed),
                   "rolls": [dict(r) for r in self._rolls]}
            if self._revealed:
                out["seed"] = self._seed.hex()
            return out

    def to_json(self) -> dict[str, Any]:
        """The roller's whole state, seed included: keep it private (server side), so that the
        hand's seed survives a restart and can still be revealed."""
        with self._lock:
            return {"scheme": SCHEME, "seed": self._seed.hex(), "revealed": self._revealed,
                    "rolls": [dict(r) for r in self._rolls]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "SeededRoller":
        """A roller restored from `to_json` (it goes on with the same hand)."""
        roller = cls(data["seed"])
        roller._rolls = [dict(r) for r in data.get("rolls", [])]
        roller._revealed = bool(data.get("revealed", False))
        return roller

    def reveal(self) -> str:
        """End the hand's rolling and return its seed (hex) for publication."""
        with self._lock:
            self._revealed = True
            return self._seed.hex()

    def new_hand(self, seed: bytes | str | None = None) -> str:
        """Draw a fresh seed for the next hand and return its commitment."""
        with self._lock:
            self._seed = _seed_bytes(seed) if seed is not None else new_seed()
            self._rolls = []
            self._revealed = False
            return commitment(self._seed)


@dataclass
class Verification:
    """The outcome of checking a revealed hand: `ok`, and what did not match."""

    ok: bool
    problems: list[str] = field(default_factory=list)
    rolls: list[dict[str, Any]] = field(default_factory=list)  # the recomputed rolls

    def __bool__(self) -> bool:
        return self.ok


#: A recorded roll's mark for dice the host entered by hand, and what `verify` says of it.
BY_HAND = "by_hand"
HAND_WORDS = "rolled by hand, not from the seed"


def verify(
    seed: bytes | str,
    published: str,
    rolls: Iterable[Mapping[str, Any]] = (),
    face: int | None = None,
) -> Verification:
    """Check a revealed `seed` against its `published` commitment and the recorded `rolls`.

    Each recorded roll is a mapping with ``trigger`` and ``dice`` (as `Roll.to_json` or
    `SeededRoller.record` write them) and optionally ``index`` and ``shift``. Rolls without
    dice (the timer) are skipped; a roll marked ``by_hand`` (dice the host entered) takes no
    number and is a problem: "rolled by hand, not from the seed". When a roll has ``shift``, the recomputed faces are judged
    too (with the roll's own ``face``, else `face`, else the trigger's default face).
    """
    problems: list[str] = []
    recomputed: list[dict[str, Any]] = []
    try:
        raw = _seed_bytes(seed)
    except ValueError as exc:
        return Verification(False, [f"the seed is not valid: {exc}"])
    published = str(published).strip().lower()
    if commitment(raw) != published:
        problems.append(
            f"the seed does not match the commitment: SHA-256(seed) is {commitment(raw)}, "
            f"the published commitment is {published}"
        )
    index = 0
    for n, rec in enumerate(rolls):
        spec = spec_of(str(rec.get("trigger")))
        if spec is None:
            problems.append(f"roll {n}: unknown trigger {rec.get('trigger')!r}")
            continue
        if spec.count == 0:
            continue
        key = spec.key
        if rec.get(BY_HAND):
            # The host entered these dice: the roller drew nothing, so they take no number.
            problems.append(f"roll {n} ({key}): dice {list(rec.get('dice') or ())} "
                            f"{HAND_WORDS}")
            continue
        if "index" in rec and rec["index"] != index:
            problems.append(f"roll {n}: recorded as roll number {rec['index']}, expected {index}")
        faces = derive_dice(raw, index, spec)
        recorded = tuple(rec.get("dice") or ())
        recomputed.append({"index": index, "trigger": key, "dice": list(faces)})
        if recorded != faces:
            problems.append(
                f"roll {index} ({key}): recorded dice {list(recorded)}, "
                f"the seed gives {list(faces)}"
            )
        elif spec.shifts and key in _TRIGGERS and "shift" in rec and bool(rec["shift"]) != is_shift(
            Trigger(key), faces, rec.get("face") or face
        ):
            problems.append(f"roll {index} ({key}): recorded shift={rec['shift']} "
                            f"does not follow from the dice {list(faces)}")
        index += 1
    return Verification(not problems, problems, recomputed)


def hand_records(log: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each hand's audit record (scheme, commitment, seed or None, rolls) from a table's log:
    entries as the API's `/log` gives them (`type`, `body`, `events`, `undone_by`) — what
    `sabacc-companion verify --record` reads, one hand at a time."""
    hands: list[dict[str, Any]] = []
    for e in log:
        if e.get("undone_by") is not None or e.get("type") == "undo":
            continue
        body = e.get("body") or {}
        if e.get("type") == "start_hand":
            hands.append({"scheme": SCHEME, "commitment": body.get("seed_commitment"),
                          "seed": None, "rolls": []})
        elif hands and e.get("type") == "roll" and body.get("dice"):
            for ev in e.get("events") or ():
                if ev.get("type") == "rolled":
                    rec = {"trigger": ev["roll"]["trigger"], "dice": list(body["dice"])}
                    if ev["roll"].get(BY_HAND):
                        rec[BY_HAND] = True
                    hands[-1]["rolls"].append(rec)
        elif hands and e.get("type") == "reveal_seed":
            hands[-1]["seed"] = body.get("seed")
    return hands


def verify_chain(log: Iterable[Mapping[str, Any]]) -> Verification:
    """Check every hand of a table's log: each finished hand's seed is revealed, matches its
    commitment and gives its rolls, and no two hands share a commitment (the rules of
    docs/DATA-SAFETY.md). A last hand still running may be unrevealed."""
    hands = hand_records(log)
    problems: list[str] = []
    seen: dict[str, int] = {}
    for n, hand in enumerate(hands, 1):
        published = hand["commitment"]
        if published is None:
            problems.append(f"hand {n}: no seed commitment")
            continue
        if published in seen:
            problems.append(f"hand {n}: the commitment of hand {seen[published]} again")
        seen.setdefault(published, n)
        if hand["seed"] is None:
            if n < len(hands):
                problems.append(f"hand {n}: its seed was never revealed")
            continue
        outcome = verify(hand["seed"], published, hand["rolls"])
        problems += [f"hand {n}: {p}" for p in outcome.problems]
    return Verification(not problems, problems)
