"""The `sabacc-companion` command: `serve`, and the subcommands other modules add.

Each module in `COMMANDS` has `register(subparsers)`, which adds its subcommands and sets
`func` (called with the parsed arguments, returning the exit status). A command line that
names a command imports only the module of that command: `serve` starts without the
benchmark's and the scrambler tools' modules (half a megabyte on a Pi Zero); any other
command line (`--help`, `--version`, a mistyped command) lists them all::

    >>> argv = ["serve", "--port", "8080"]
    >>> build_parser(argv).parse_args(argv).port
    8080
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

from companion import __version__

#: Every command's name -> the module that registers it (a module may register several).
COMMANDS = {
    "serve": "companion.serve",
    "scrambler": "companion.scrambler.cli",
    "verify": "companion.scrambler.cli",
    "bench": "companion.bench",
}


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser with every registered subcommand; with `argv` (a command line
    without the program's name) that starts with a command, with that command's only."""
    parser = argparse.ArgumentParser(
        prog="sabacc-companion", description="The Sabacc table companion."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    named = COMMANDS.get(argv[0]) if argv else None
    for name in dict.fromkeys([named] if named else COMMANDS.values()):
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(argv).parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
