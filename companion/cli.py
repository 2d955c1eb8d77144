"""The `sabacc-companion` command: `serve`, and the subcommands other modules add.

Each module in `COMMANDS` has `register(subparsers)`, which adds its subcommand and sets
`func` (called with the parsed arguments, returning the exit status).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

from companion import __version__

COMMANDS = (
    "companion.serve",
    "companion.scrambler.cli",
    "companion.bench",
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="sabacc-companion", description="The Sabacc table companion."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
