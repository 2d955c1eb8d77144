"""`sabacc-companion scrambler simulate` and `sabacc-companion verify`, as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules.rulesets import Trigger
from companion.scrambler.seed import SeededRoller, commitment, derive_rolls

RULES_RATES = {"2d6-doubles": 1 / 6, "2d6-spike": 1 / 36, "d6-high": 1 / 2, "d6-low": 1 / 2,
               "d10": 1 / 10, "d12": 1 / 12, "d20": 1 / 20}
SEED = "a1" * 32


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("trigger", sorted(RULES_RATES))
def test_simulate_prints_one_json_object_for_every_trigger(capsys, trigger):
    code, out, _ = run(capsys, "scrambler", "simulate", "--trigger", trigger, "--rolls", "2000",
                       "--json")
    assert code == 0
    data = json.loads(out)  # exactly one JSON document
    assert data["trigger"] == trigger and data["rolls"] == 2000
    assert data["expected_rate"] == pytest.approx(RULES_RATES[trigger])
    assert 0 <= data["shifts"] <= 2000
    assert data["observed_rate"] == data["shifts"] / 2000


def test_simulate_with_a_seed_is_reproducible_and_names_its_commitment(capsys):
    args = ("scrambler", "simulate", "--trigger", "d6-low", "--rolls", "500", "--json",
            "--seed", SEED)
    first = json.loads(run(capsys, *args)[1])
    second = json.loads(run(capsys, *args)[1])
    assert first == second and first["commitment"] == commitment(SEED)
    expected = sum(f[0] <= 3 for f in derive_rolls(SEED, Trigger.D6_LOW, 500))
    assert first["shifts"] == expected


def test_simulate_by_symbol_counts_each_kind(capsys):
    code, out, _ = run(capsys, "scrambler", "simulate", "--trigger", "2d6-doubles", "--rolls",
                       "3000", "--kind", "by-symbol", "--json", "--seed", SEED)
    data = json.loads(out)
    assert set(data["kinds"]) == {"core", "rim", "wild"}
    assert sum(data["kinds"].values()) == data["shifts"]


def test_simulate_a_chosen_face(capsys):
    code, out, _ = run(capsys, "scrambler", "simulate", "--trigger", "d20", "--face", "7",
                       "--rolls", "400", "--json", "--seed", SEED)
    data = json.loads(out)
    assert data["face"] == 7 and data["shifts"] == data["faces"]["7"]


def test_simulate_refuses_a_face_the_die_does_not_have(capsys):
    code, _, err = run(capsys, "scrambler", "simulate", "--trigger", "d10", "--face", "11")
    assert code == 2 and "--face" in err


def test_simulate_refuses_the_timer(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["scrambler", "simulate", "--trigger", "timer"])
    assert exc.value.code == 2


def hand_record(tmp_path: Path, tamper=None) -> Path:
    r = SeededRoller()
    published = r.new_hand()
    for t in (Trigger.TWO_D6_DOUBLES, Trigger.TWO_D6_DOUBLES, Trigger.D12):
        r.dice(t)
    r.reveal()
    record = r.record()
    assert record["commitment"] == published
    if tamper:
        tamper(record)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record))
    return path


def test_verify_a_hand_record_file_succeeds(capsys, tmp_path):
    code, out, _ = run(capsys, "verify", "--record", str(hand_record(tmp_path)))
    assert code == 0 and "OK" in out and "3 rolls" in out


def test_verify_fails_when_a_recorded_die_was_changed(capsys, tmp_path):
    def change(record):
        d = record["rolls"][1]["dice"]
        d[0] = d[0] % 6 + 1

    code, _, err = run(capsys, "verify", "--record", str(hand_record(tmp_path, change)))
    assert code == 1 and "roll 1 (2d6-doubles)" in err


def test_verify_fails_when_the_seed_is_not_the_committed_one(capsys, tmp_path):
    path = hand_record(tmp_path)
    code, _, err = run(capsys, "verify", "--record", str(path), "--seed", "00" * 32)
    assert code == 1 and "does not match the commitment" in err


def test_verify_from_arguments(capsys):
    (a, b), (c,) = derive_rolls(SEED, "2d6-doubles", 1)[0], derive_rolls(SEED, "d20", 2)[1]
    code, out, _ = run(capsys, "verify", "--seed", SEED, "--commitment", commitment(SEED),
                       "--roll", f"2d6-doubles:{a},{b}", "--roll", f"d20:{c}", "--json")
    assert code == 0 and json.loads(out)["ok"] is True


def test_verify_explains_unusable_input(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert run(capsys, "verify", "--record", str(bad))[0] == 2
    code, _, err = run(capsys, "verify", "--seed", SEED)
    assert code == 2 and "commitment" in err
    code, _, err = run(capsys, "verify", "--seed", SEED, "--commitment", commitment(SEED),
                       "--roll", "3d6:1,2,3")
    assert code == 2 and "TRIGGER:A,B" in err


def test_the_installed_command_runs_simulate():
    exe = Path(sys.executable).with_name("sabacc-companion")
    proc = subprocess.run([str(exe), "scrambler", "simulate", "--trigger", "2d6-spike",
                           "--rolls", "100", "--json"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["expected_rate"] == pytest.approx(1 / 36)
