"""The distribution: a plain wheel ships the web assets, and the console script works."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(REPO)],
        check=True,
    )
    (whl,) = out.glob("sabacc_companion-*.whl")
    return whl


def shipped_files(web: Path) -> set[str]:
    """The files of `web` a wheel must ship: what the repository holds, not what an earlier
    run left in the tree (`__pycache__/` of a script a test ran, such as make_icons.py)."""
    return {
        "companion/web/" + p.relative_to(web).as_posix()
        for p in web.rglob("*")
        if p.is_file() and p.name != ".keep" and "__pycache__" not in p.parts
        and p.suffix not in (".pyc", ".pyo")
    }


def test_item11_packaging_does_not_depend_on_pycache_left_by_earlier_runs(tmp_path):
    web = tmp_path / "web"
    (web / "static" / "icons" / "__pycache__").mkdir(parents=True)
    (web / "static" / "icons" / "make_icons.py").write_text("")
    (web / "static" / "icons" / "__pycache__" / "make_icons.cpython-311.pyc").write_bytes(b"")
    assert shipped_files(web) == {"companion/web/static/icons/make_icons.py"}


def test_wheel_ships_every_template_and_static_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = shipped_files(REPO / "web")
    assert expected, "web/ holds no files"
    assert expected <= names, f"missing from the wheel: {sorted(expected - names)[:5]}"


def test_wheel_declares_the_console_script(wheel):
    with zipfile.ZipFile(wheel) as z:
        entry = next(n for n in z.namelist() if n.endswith("entry_points.txt"))
        text = z.read(entry).decode()
    assert "sabacc-companion = companion.cli:main" in text


def test_wheel_ships_the_games_and_declares_them_as_plug_ins(wheel):
    """The games are found through their entry points once installed (companion.games.registry):
    the wheel holds every game package and declares each in the group."""
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        entry = next(n for n in z.namelist() if n.endswith("entry_points.txt"))
        text = z.read(entry).decode()
    games = [p.parent.name for p in (REPO / "companion" / "games").glob("*/__init__.py")]
    assert {"classic", "spike"} <= set(games)
    for game in games:
        assert f"companion/games/{game}/__init__.py" in names
        assert f"{game} = companion.games.{game}:GAME" in text
    assert "[sabacc_companion.games]" in text
    assert {"companion/games/api.py", "companion/games/registry.py"} <= names
