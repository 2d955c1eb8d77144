"""The hardware folder: schematics that render and match the pins the software uses, a bill
of materials that lists every part drawn, and a systemd unit that systemd accepts."""

from __future__ import annotations

import configparser
import re
import runpy
import shlex
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HARDWARE = ROOT / "hardware"
UNIT = HARDWARE / "pi" / "sabacc-companion.service"
FIRMWARE_SETTINGS = runpy.run_path(str(ROOT / "firmware" / "settings.py"))
SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> dict[str, Path]:
    """Run the schematics script as a user would, into a fresh folder."""
    out = tmp_path_factory.mktemp("schematics")
    result = subprocess.run([sys.executable, str(HARDWARE / "schematics.py"), "--out", str(out)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return {p.name: p for p in out.glob("*.svg")}


def texts(svg: Path) -> str:
    """All the text an SVG shows, joined."""
    root = ET.parse(svg).getroot()
    return " ".join("".join(t.itertext()) for t in root.iter(f"{SVG_NS}text"))


def test_the_script_draws_both_schematics_as_svg(drawn):
    assert set(drawn) == {"pi-scrambler.svg", "pico-box.svg"}
    for svg in drawn.values():
        root = ET.parse(svg).getroot()  # well-formed XML, or this raises
        assert root.tag == f"{SVG_NS}svg"
        strokes = list(root.iter(f"{SVG_NS}path")) + list(root.iter(f"{SVG_NS}polyline"))
        assert len(strokes) > 15, f"{svg.name} draws almost nothing"
        assert svg.stat().st_size > 4000


def test_the_committed_schematics_are_the_scripts_output(drawn):
    for name, svg in drawn.items():
        assert (HARDWARE / name).read_bytes() == svg.read_bytes(), (
            f"hardware/{name} is stale: run .venv/bin/python hardware/schematics.py")


def test_the_pi_schematic_uses_the_companions_default_bcm_pins(drawn):
    from companion.scrambler.gpio import GpioPins

    shown = texts(drawn["pi-scrambler.svg"])
    pins = GpioPins()
    for bcm in (pins.button, pins.led, pins.buzzer):
        assert f"BCM{bcm} " in shown
    for label in ("GND", "5V", "330 Ω", "1 kΩ", "1N4148", "BC337", "push button", "LED"):
        assert label in shown


def test_the_pico_schematic_uses_the_firmwares_pins(drawn):
    shown = texts(drawn["pico-box.svg"])
    for key in ("BUTTON_PIN", "LED_PIN", "BUZZER_PIN"):
        assert f"GP{FIRMWARE_SETTINGS[key]} " in shown
    for label in ("GND", "330 Ω", "100 Ω", "piezo", "push button", "USB"):
        assert label in shown


def test_the_bill_of_materials_lists_every_part_in_the_schematics():
    bom = (HARDWARE / "BOM.md").read_text()
    for part in ("Raspberry Pi Pico", "Zero 2 W", "330 Ω", "1 kΩ", "100 Ω", "1N4148", "BC337",
                 "2N2222", "active buzzer", "piezo", "push button", "LED"):
        assert part in bom, part


def test_the_wiring_doc_computes_the_led_current_it_recommends():
    wiring = (HARDWARE / "WIRING.md").read_text()
    # (3.3 V - 2.0 V) / 330 ohm, to one decimal in mA
    assert f"{(3.3 - 2.0) / 330 * 1000:.1f} mA" in wiring
    assert f"{(3.3 - 0.7) / 1000 * 1000:.1f} mA" in wiring  # the transistor's base current


def read_unit() -> configparser.ConfigParser:
    unit = configparser.ConfigParser(strict=True, interpolation=None)
    unit.optionxform = str  # systemd keys are case-sensitive
    unit.read_string(UNIT.read_text())
    return unit


def test_the_unit_starts_after_the_network_and_restarts_on_failure():
    unit = read_unit()
    assert "network-online.target" in unit["Unit"]["After"].split()
    assert "network-online.target" in unit["Unit"]["Wants"].split()
    assert unit["Service"]["Restart"] == "on-failure"
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_the_unit_runs_as_its_own_user_with_its_state_directory():
    service = read_unit()["Service"]
    assert service["User"] not in ("", "root")
    assert {"gpio", "dialout"} <= set(service["SupplementaryGroups"].split())
    assert service["StateDirectory"] == "sabacc-companion"
    # the pin factory is left to gpiozero's own choice on the Pi
    assert "GPIOZERO_PIN_FACTORY" not in service.get("Environment", "")
    assert "EnvironmentFile" not in service


def test_the_units_command_is_a_valid_serve_command_using_the_state_directory():
    from companion.cli import build_parser

    argv = shlex.split(read_unit()["Service"]["ExecStart"])
    assert argv[0].endswith("/bin/sabacc-companion")
    args = build_parser().parse_args(argv[1:])
    assert args.command == "serve"
    assert str(args.data) == "/var/lib/sabacc-companion"


def test_the_install_guides_drop_in_command_is_a_valid_serve_command_with_other_pins():
    from companion.cli import build_parser

    guide = (ROOT / "hardware" / "pi" / "INSTALL.md").read_text()
    commands = re.findall(r"^#\s+ExecStart=(/\S+ .+)$", guide, flags=re.M)
    assert commands, "the guide shows no drop-in ExecStart"
    argv = shlex.split(commands[0])
    assert argv[0] == shlex.split(read_unit()["Service"]["ExecStart"])[0]  # the same program
    args = build_parser().parse_args(argv[1:])
    assert (args.command, args.pins, args.tonal) == ("serve", (5, 6, 13), True)
    assert str(args.data) == "/var/lib/sabacc-companion"


def test_the_unit_caps_memory_for_a_pi_zero_2_w():
    service = read_unit()["Service"]
    limit = service["MemoryMax"]
    assert limit.endswith("M")
    # enough for the companion (~90 MB), and leaves most of the Zero's 512 MB to the system
    assert 128 <= int(limit[:-1]) <= 256


def test_the_unit_allows_more_tasks_than_the_server_starts_threads():
    from companion.serve import SERVER_THREADS

    tasks = read_unit()["Service"].get("TasksMax", "infinity")
    # waitress's pool plus the companion's other threads (about 140 at rest)
    assert tasks == "infinity" or int(tasks) >= 2 * SERVER_THREADS + 64


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_accepts_the_unit(tmp_path):
    """`systemd-analyze verify` with the executable put where the unit expects it."""
    exe = tmp_path / "sabacc-companion"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text().replace("/opt/sabacc-companion/venv/bin/sabacc-companion",
                                             str(exe)))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)],
                            capture_output=True, text=True, timeout=60)
    # verify exits 0 even for unknown keys or bad values; those are reported on stderr
    assert result.returncode == 0 and str(unit) not in result.stderr, result.stderr
    assert "sabacc-companion.service" not in result.stderr, result.stderr
