"""`sabacc-companion serve`: run the site under waitress and show phones where to go."""

from __future__ import annotations

import argparse
import io
import logging
import socket
import sys
from pathlib import Path
from typing import TextIO

import qrcode
import waitress

from companion.server import create_app

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 8023
# Every open event stream holds one waitress thread (FIELD-NOTES): room for ten phones, a
# table display and spectators at a few tables, with headroom for ordinary requests.
SERVER_THREADS = 64

log = logging.getLogger("companion")


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
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    args.data.mkdir(parents=True, exist_ok=True)
    app = create_app({"DATA_DIR": str(args.data.resolve())})
    server = waitress.create_server(
        app, host=args.host, port=args.port, threads=SERVER_THREADS, channel_timeout=30
    )
    print_banner(phone_url(args.host, server.effective_port), sys.stdout)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0
