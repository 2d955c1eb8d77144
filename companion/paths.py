"""Where the package finds its web assets, in a wheel and in a source checkout alike."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def web_dir() -> Path:
    """The `web/` folder: inside the installed package (wheel), else at the repository top."""
    for candidate in (_HERE / "web", _HERE.parent / "web"):
        if (candidate / "templates").is_dir():
            return candidate
    raise FileNotFoundError("the web/ folder (templates and static assets) is missing")


WEB_DIR = web_dir()
TEMPLATES_DIR = WEB_DIR / "templates"
STATIC_DIR = WEB_DIR / "static"
