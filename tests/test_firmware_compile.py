"""The CI gate for the firmware: every file compiles with mpy-cross (MicroPython's compiler)
and imports only modules MicroPython on the Pico has."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"
FILES = sorted(FIRMWARE.glob("*.py"))
MPY_CROSS = shutil.which("mpy-cross", path=str(Path(sys.executable).parent)) or shutil.which(
    "mpy-cross")

#: What the firmware may import: MicroPython built-ins on the rp2 port, and its own modules.
MICROPYTHON_MODULES = {"machine", "math", "os", "select", "sys", "time"}
OWN_MODULES = {p.stem for p in FILES}


def compile_mpy(source: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    out = tmp_path / (source.stem + ".mpy")
    return subprocess.run([MPY_CROSS, "-o", str(out), str(source)],
                          capture_output=True, text=True, timeout=30)


def test_the_firmware_has_its_modules():
    assert {"main", "board", "protocol", "buttons", "modes", "settings"} <= OWN_MODULES


@pytest.mark.parametrize("source", FILES, ids=[p.name for p in FILES])
def test_every_firmware_file_compiles_with_mpy_cross(source, tmp_path):
    result = compile_mpy(source, tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / (source.stem + ".mpy")).read_bytes()[:1] == b"M"  # an .mpy header


def test_mpy_cross_rejects_syntax_micropython_lacks(tmp_path):
    """The gate has teeth: a `match` statement (CPython 3.10+) does not compile."""
    bad = tmp_path / "bad.py"
    bad.write_text("match 1:\n    case 1:\n        pass\n")
    assert compile_mpy(bad, tmp_path).returncode != 0


@pytest.mark.parametrize("source", FILES, ids=[p.name for p in FILES])
def test_firmware_imports_only_what_micropython_has(source):
    """mpy-cross cannot see imports of CPython-only modules (dataclasses, typing...)."""
    imported = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported <= MICROPYTHON_MODULES | OWN_MODULES, imported
