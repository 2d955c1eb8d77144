"""Verifiable rolls: the commitment binds the seed, the rolls follow from the seed exactly as the
module documents (recomputed here from the written scheme), and tampering is caught."""

from __future__ import annotations

import hashlib
import hmac
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from conftest import examples

from companion.rules.rulesets import Trigger
from companion.scrambler.dice import DICE
from companion.scrambler.seed import (
    SCHEME,
    SeededRoller,
    commitment,
    derive_dice,
    derive_rolls,
    verify,
)

DICE_TRIGGERS = list(DICE)
seeds = st.binary(min_size=32, max_size=32)


def spec_faces(seed: bytes, index: int, count: int, sides: int) -> list[int]:
    """The scheme as its docstring states it, written out independently of the module."""
    stream = b"".join(
        hmac.new(seed, f"roll:{index}:{k}".encode(), hashlib.sha256).digest() for k in range(4))
    limit = (256 // sides) * sides
    return [b % sides + 1 for b in stream if b < limit][:count]


def test_commitment_is_sha256_of_the_raw_seed_bytes():
    # The SHA-256 test vector of the 32 bytes 00..1f.
    assert commitment(bytes(range(32))) == (
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd")
    assert commitment(bytes(range(32)).hex()) == commitment(bytes(range(32)))


def test_known_answer_for_the_first_rolls_of_a_fixed_seed():
    # HMAC-SHA256(00..1f, "roll:0:0") starts 10 0d: 16 % 6 + 1 = 5, 13 % 6 + 1 = 2.
    assert derive_rolls(bytes(range(32)), Trigger.TWO_D6_DOUBLES, 3) == [(5, 2), (6, 4), (3, 1)]


@settings(max_examples=examples(60))
@given(seeds, st.integers(0, 500), st.sampled_from(DICE_TRIGGERS))
def test_rolls_follow_the_documented_derivation(seed, index, trigger):
    count, sides = DICE[trigger]
    assert list(derive_dice(seed, index, trigger)) == spec_faces(seed, index, count, sides)


def _seed_whose_first_byte_is_rejected_for_d6() -> bytes:
    for n in range(100_000):
        seed = n.to_bytes(32, "big")
        if hmac.new(seed, b"roll:0:0", hashlib.sha256).digest()[0] >= 252:
            return seed
    raise AssertionError("no such seed found")


def test_bytes_above_the_last_whole_multiple_are_rejected_not_wrapped():
    seed = _seed_whose_first_byte_is_rejected_for_d6()
    block = hmac.new(seed, b"roll:0:0", hashlib.sha256).digest()
    assert block[0] >= 252  # plain modulo would have used it (and favoured faces 1-4)
    first_accepted = next(b for b in block if b < 252)
    assert derive_dice(seed, 0, Trigger.D6_LOW) == (first_accepted % 6 + 1,)


def test_each_roll_index_gives_its_own_dice():
    rolls = derive_rolls("ab" * 32, Trigger.D20, 200)
    assert {f for (f,) in rolls} == set(range(1, 21))  # every face turns up in 200 rolls


def test_seeded_roller_rolls_what_the_seed_derives_and_records_them():
    r = SeededRoller("cd" * 32)
    got = [r.dice(Trigger.TWO_D6_DOUBLES), r.dice(Trigger.D12), r.dice(Trigger.D6_HIGH)]
    assert got == [derive_dice("cd" * 32, 0, Trigger.TWO_D6_DOUBLES),
                   derive_dice("cd" * 32, 1, Trigger.D12),
                   derive_dice("cd" * 32, 2, Trigger.D6_HIGH)]
    rec = r.record()
    assert rec["scheme"] == SCHEME and "seed" not in rec  # not revealed before the hand ends
    assert [x["dice"] for x in rec["rolls"]] == [list(g) for g in got]


def test_the_timer_takes_no_roll_index():
    r = SeededRoller("cd" * 32)
    assert r.dice(Trigger.TIMER) == ()
    assert r.dice(Trigger.D10) == derive_dice("cd" * 32, 0, Trigger.D10)


def test_a_refused_roll_is_discarded_and_the_next_roll_takes_its_number():
    r = SeededRoller("cd" * 32)
    first = r.dice(Trigger.D20)
    r.discard()
    assert r.index == 0 and r.dice(Trigger.D20) == first


def test_every_hand_gets_a_fresh_seed_and_commitment():
    r = SeededRoller()
    commitments = {r.commitment}
    for _ in range(20):
        r.reveal()
        commitments.add(r.new_hand())
    assert len(commitments) == 21


def test_a_hand_verifies_end_to_end_after_the_reveal():
    r = SeededRoller()
    published = r.new_hand()
    for t in (Trigger.TWO_D6_DOUBLES, Trigger.TIMER, Trigger.D6_LOW, Trigger.TWO_D6_ONE_FACE):
        r.dice(t)
    seed = r.reveal()
    record = r.record()
    assert record["seed"] == seed and record["commitment"] == published
    result = verify(seed, published, record["rolls"])
    assert result.ok and result.problems == [] and len(result.rolls) == 3


def test_no_roll_after_the_reveal_comes_from_the_revealed_seed():
    r = SeededRoller("cd" * 32)
    r.dice(Trigger.D20)
    r.reveal()
    r.dice(Trigger.D20)
    assert r.commitment != commitment("cd" * 32)


def test_verify_rejects_a_seed_that_does_not_match_the_commitment():
    result = verify("00" * 32, commitment("01" * 32), [])
    assert not result.ok and "does not match the commitment" in result.problems[0]


@given(seeds, st.integers(0, 5), st.sampled_from(DICE_TRIGGERS), st.data())
def test_verify_catches_any_changed_die(seed, n, trigger, data):
    rolls = [{"trigger": trigger.value, "dice": list(d)} for d in derive_rolls(seed, trigger, n + 1)]
    _, sides = DICE[trigger]
    die = data.draw(st.integers(0, len(rolls[n]["dice"]) - 1))
    new = data.draw(st.integers(1, sides).filter(lambda f: f != rolls[n]["dice"][die]))
    rolls[n]["dice"][die] = new
    result = verify(seed, commitment(seed), rolls)
    assert not result.ok and f"roll {n} " in result.problems[0]


def test_verify_catches_a_dropped_roll():
    seed = "ef" * 32
    rolls = [{"trigger": "d20", "dice": list(d)} for d in derive_rolls(seed, Trigger.D20, 4)]
    del rolls[1]
    assert not verify(seed, commitment(seed), rolls).ok


def test_verify_checks_a_recorded_shift_against_the_dice():
    seed = "ef" * 32
    (faces,) = derive_rolls(seed, Trigger.D6_HIGH, 1)
    honest = {"trigger": "d6-high", "dice": list(faces), "shift": faces[0] >= 4}
    assert verify(seed, commitment(seed), [honest]).ok
    assert not verify(seed, commitment(seed), [dict(honest, shift=not honest["shift"])]).ok


def test_verify_reports_a_malformed_seed_instead_of_raising():
    result = verify("not hex", "00" * 32, [])
    assert not result.ok and "not valid" in result.problems[0]


def test_seeded_roller_numbers_rolls_from_many_threads_without_gaps():
    r = SeededRoller("12" * 32)

    def roll_many():
        for _ in range(200):
            r.dice(Trigger.D6_LOW)

    threads = [threading.Thread(target=roll_many) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rec = r.record()
    assert [x["index"] for x in rec["rolls"]] == list(range(800))
    assert verify("12" * 32, rec["commitment"], rec["rolls"]).ok


@pytest.mark.parametrize("bad", ["", "ab", "zz" * 32, "00" * 31])
def test_a_seed_must_be_32_bytes_of_hex(bad):
    with pytest.raises(ValueError):
        SeededRoller(bad)


def test_the_documented_examples_hold():
    import doctest

    import companion.scrambler.seed as seed_module
    import companion.scrambler.simulate as simulate_module

    for module in (seed_module, simulate_module):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_a_restored_roller_goes_on_with_the_same_hand():
    r = SeededRoller()
    published = r.commitment
    first = r.dice(Trigger.D12)
    again = SeededRoller.from_json(r.to_json())
    second = again.dice(Trigger.D12)
    rec = again.record()
    assert rec["commitment"] == published and [x["dice"] for x in rec["rolls"]] == [
        list(first), list(second)]
    assert verify(again.reveal(), published, rec["rolls"]).ok
