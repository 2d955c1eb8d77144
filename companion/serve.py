"""`sabacc-companion serve`: run the site under waitress (`companion.server.front`) and show
phones where to go."""

from __future__ import annotations

import argparse
import ctypes
import gc
import io
import logging
import signal
import socket
import sys
from pathlib import Path
from typing import TextIO

import qrcode

from companion.scrambler.seed import SeededRoller
from companion.server import create_app, front
from companion.server.limits import PRODUCTION, Limits

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 8023
# Sizing. Every open event stream holds one waitress thread for as long as it is open
# (FIELD-NOTES), so streams and action requests share the thread pool:
# - MAX_STREAMS: streams with a seat's or the host's token open at once on the whole server (a
#   few tables of up to 12 phones and their hosts; the benchmark opens 9). The seats' own pool:
#   spectators cannot take it (companion.server.events).
# - MAX_SPECTATOR_STREAMS: token-less streams (guests watching, the display, the audit page; the
#   benchmark opens 41). One address holds at most a few of them.
# - SERVER_THREADS = both pools + 32: even with every stream open, 32 threads stay free for
#   action requests (20 clients acting at once in the reliability drill, with room to spare), so
#   a stream can never starve an action. An idle Python thread costs little memory (~100 KB RSS).
# - Connections, deadlines and shares per address: companion.server.front (CONNECTION_LIMIT,
#   HEADER_TIMEOUT_S, SEND_TIMEOUT_S, PER_ADDRESS_CONNECTIONS); rates: companion.server.limits.
# - HEARTBEAT_S: a `: ping` every 5 s; a client that is gone fails the write and its stream
#   (and thread) is freed within that time (a clean close is seen sooner: within 0.5 s, as
#   waitress keeps reading the connection while the stream runs). Keep it well below
#   front.CHANNEL_TIMEOUT_S.
MAX_STREAMS = 96
MAX_SPECTATOR_STREAMS = 48
SERVER_THREADS = MAX_STREAMS + MAX_SPECTATOR_STREAMS + 32
CONNECTION_LIMIT = front.CONNECTION_LIMIT
HEARTBEAT_S = 5.0
#: The limits per client (None: no limits; only drills that play faster than people set it).
LIMITS: Limits | None = PRODUCTION

log = logging.getLogger("companion")

#: glibc's malloc arenas for the server (its default allows 8 per core). The server's threads
#: allocate one at a time anyway (Python's interpreter lock), so more arenas only spread its
#: heap: with 2, the benchmark's 50 open streams hold 2.5 MB less (docs/PERFORMANCE.md).
MALLOC_ARENAS = 2
#: `mallopt`'s parameter for the arena cap (glibc's malloc.h).
M_ARENA_MAX = -8


def cap_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Ask the C library's malloc to use at most `arenas` arenas (before the server's threads
    start). True when it took the setting (glibc); False where there is no such setting."""
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the C library this process runs on
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(M_ARENA_MAX, arenas))


def lan_address() -> str:
    """The address other devices on the local network reach this machine at.

    Opening a UDP socket towards a private address sends nothing; it only asks the kernel
    which interface it would use. Without any network, fall back to the loopback address.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def phone_url(host: str, port: int) -> str:
    """The URL to print and encode in the QR code for `serve --host host --port port`."""
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    return f"http://{shown}:{port}/"


def print_banner(url: str, out: TextIO) -> None:
    """Print the URL phones should open and the same URL as a QR code in the terminal."""
    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    buf = io.StringIO()
    # tty=True fails when stdout is not a terminal (FIELD-NOTES); plain ASCII always works.
    qr.print_ascii(out=buf, invert=True)
    out.write(f"\nSabacc companion: phones open {url}\n\n{buf.getvalue()}\n")
    out.flush()


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `serve` subcommand."""
    p = sub.add_parser("serve", help="run the companion's web site")
    p.add_argument("--host", default=DEFAULT_HOST, help="address to listen on (default %(default)s)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default %(default)s)")
    p.add_argument(
        "--data", type=Path, default=Path("data"), help="folder for the table database (default ./data)"
    )
    g = p.add_argument_group("scrambler", "the physical shift scrambler (without one, phones roll on screen)")
    g.add_argument(
        "--gpio", choices=("auto", "off"), default="auto",
        help="button/LED/buzzer on the Pi's GPIO: auto uses them when the machine has GPIO (default)",
    )
    g.add_argument(
        "--pins", type=_pins, default=(17, 27, 22), metavar="BUTTON,LED,BUZZER",
        help="BCM pin numbers (default 17,27,22)",
    )
    g.add_argument("--tonal", action="store_true", help="the buzzer is a passive piezo (TonalBuzzer)")
    g.add_argument(
        "--serial", default="auto", metavar="auto|off|PATH",
        help="the USB scrambler box: auto finds a Pico by USB ID 2E8A:0005 (default), or a device path",
    )
    g.add_argument(
        "--long-press", choices=("timer", "roll", "none"), default="timer",
        help="what holding the button does (default: start/stop the random timer)",
    )
    p.set_defaults(func=run)


def _pins(text: str) -> tuple[int, int, int]:
    try:
        button, led, buzzer = (int(n) for n in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("give three BCM numbers: BUTTON,LED,BUZZER") from None
    return button, led, buzzer


def scrambler_settings(args: argparse.Namespace) -> dict:
    """The scrambler hub's settings from the command line."""
    button, led, buzzer = args.pins
    return {
        "gpio": None if args.gpio == "off" else
        {"button": button, "led": led, "buzzer": buzzer, "tonal": args.tonal},
        "serial": None if args.serial == "off" else args.serial,
        "long_press": args.long_press,
    }


def start_scrambler(app, args: argparse.Namespace):
    """Start the physical scrambler and link it to the table it is bound to.

    Presses go to the registry's `scrambler_submit` (the bound table's owner, as the
    scrambler); every roll of that table is shown on the LED and buzzer. Returns the hub and
    the link, or (None, None) when the server holds no tables registry.
    """
    from companion.scrambler.hub import Scrambler
    from companion.scrambler.link import TableLink

    tables = app.extensions.get("tables")
    if tables is None:
        return None, None
    hub = Scrambler.from_settings(scrambler_settings(args), send=tables.scrambler_submit).start()
    app.extensions["scrambler"] = hub
    if hub.on_screen:
        log.info("no physical scrambler attached yet: phones and the display roll on screen")
    return hub, TableLink(tables, hub).start()


def hold_data(folder: Path, err: TextIO):
    """The data folder's lock for this server's life (see `registry.hold_data_folder`), or None
    after printing why the folder cannot be used (a second server, read-only, missing)."""
    from companion.table.registry import DataFolderError, hold_data_folder

    try:
        return hold_data_folder(folder)
    except DataFolderError as exc:
        err.write(f"sabacc-companion serve: {exc}\n")
        err.flush()
        return None


def host_link(url: str, token: str) -> str:
    """The host's link: the host page with the owner token in its fragment (never sent to the
    server in the address, nor kept in any log); a table made from it is the owner's."""
    return f"{url.rstrip('/')}/host#owner={token}"


def print_owner_notes(tables, out: TextIO, url: str | None = None) -> None:
    """After the banner: the host's link carrying the owner token (a table made from it is the
    owner's: it takes the scrambler, and its seats come first), the owner token itself, and
    every damaged table, in words (they are also in the log and on /api/v1/health)."""
    if tables is None:
        return
    token = tables.owner_secret
    if token:
        if url:
            out.write(f"Host: open {host_link(url, token)} to make the real table (it binds the "
                      "scrambler; keep this link to yourself)\n")
        out.write(f"Owner token (binds the table's physical scrambler; keep it to yourself): {token}\n"
                  f"  (kept in {tables.data_dir / 'owner-token'})\n")
    for d in getattr(tables, "damaged", []):
        out.write(f"DAMAGED: {d['words']}\n")
    out.flush()


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted (Ctrl-C or SIGTERM), then shut down cleanly: tell every event
    stream goodbye so its thread ends, let running requests finish, close the ledger."""
    from companion.table.registry import DataFolderError

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    cap_malloc_arenas()
    data_lock = hold_data(args.data, sys.stderr)  # held until this process ends
    if data_lock is None:
        return 2
    try:
        app = create_app(
            {
                "DATA_DIR": str(args.data.resolve()),
                "MAX_STREAMS": MAX_STREAMS,
                "MAX_SPECTATOR_STREAMS": MAX_SPECTATOR_STREAMS,
                "LIMITS": LIMITS,
                "SSE_HEARTBEAT_S": HEARTBEAT_S,
                # Verifiable dice: each hand's rolls come from a committed seed, revealed after it.
                "ROLLER_FACTORY": SeededRoller,
            }
        )
    except DataFolderError as exc:
        sys.stderr.write(f"sabacc-companion serve: {exc}\n")
        data_lock.close()
        return 2
    try:
        # waitress, with the header and send deadlines and the share per address (front.py).
        server = front.make_server(app, args.host, args.port, threads=SERVER_THREADS)
    except BaseException:
        data_lock.close()  # a port in use: the folder's lock goes with the failed start
        raise
    url = phone_url(args.host, server.effective_port)
    # Pages asked for at localhost (the display on the Pi's own screen) put this address in
    # their QR codes instead: phones cannot reach the Pi's loopback.
    app.config["PHONE_URL"] = url
    tables = app.extensions.get("tables")
    hub, link = start_scrambler(app, args)

    def stop(signum, frame):
        # Streams block waiting for the next event: wake them with a goodbye first, or
        # waitress would wait for their threads in vain. KeyboardInterrupt ends server.run().
        if tables is not None:
            for owner in tables.owners():
                owner.close()
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print_banner(url, sys.stdout)
    print_owner_notes(tables, sys.stdout, url)
    # What is loaded by now (the code of every module and game, the tables' rules) lives as
    # long as the process: out of the garbage collector's passes, which would otherwise walk
    # all of it again and again while tables are played (a fifth of an action's CPU time).
    gc.freeze()
    try:
        server.run()  # returns after the interrupt, once the worker threads have finished
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        if link is not None:
            link.close()
            hub.close()
        if tables is not None:
            tables.ledger.close()
        data_lock.close()
    log.info("stopped")
    return 0
