"""The `sabacc-companion` command line: each command found by its name, and a command that
imports only its own module."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from companion.cli import COMMANDS, build_parser, main


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    return {name for a in parser._actions if isinstance(a, argparse._SubParsersAction) for name in a.choices}


def test_every_command_a_module_registers_is_named_in_commands():
    """A command missing from `COMMANDS` would be an "invalid choice" when named first."""
    assert _commands(build_parser()) == set(COMMANDS)
    for name in COMMANDS:
        assert name in _commands(build_parser([name]))


def test_a_mistyped_command_lists_every_command(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["serv"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'serv'" in err and all(name in err for name in COMMANDS)


def test_serve_starts_without_the_other_commands_modules():
    """`serve` imports neither the benchmark nor the scrambler tools (a fresh interpreter: this
    one has imported them already)."""
    code = ("import json, sys\nfrom companion.cli import build_parser\n"
            "build_parser(['serve']).parse_args(['serve', '--port', '8080'])\n"
            "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout))
    others = {m for name, m in COMMANDS.items() if m != COMMANDS["serve"]}
    assert COMMANDS["serve"] in loaded and others and not others & loaded
