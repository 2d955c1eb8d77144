"""The players' pages of a live table: join, the player page (a phone) and the table display.

- `GET /t/<code>/join`  a name, a seat: no account. The phone keeps the seat token it is given
  (localStorage, per table code), so a reload or a dropped Wi-Fi comes back to the same seat.
- `GET /join/<code>`    the address in the API's QR code: sends the phone on to the join page.
- `GET /t/<code>/seat`  the player page: my stack, the pots, whose turn, my legal actions only.
- `GET /t/<code>/display` the table display (a TV or tablet): pots, seats, the cards each keeps, the
  last actions, the join QR (inline SVG made here, no script) and the shift announcement.

The pages are shells: `web/static/js/player.js` and `display.js` fill them from the table's
state and keep them live over its event stream (`web/static/js/live.js`). Everything a player
typed reaches the page through Jinja's autoescape or `textContent`, never as HTML.
"""

from __future__ import annotations


from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from markupsafe import Markup

from companion.server import qr
from companion.server.addresses import phone_base_url
from companion.table.owner import TableOwner
from companion.table.registry import registry_for

bp = Blueprint("play_pages", __name__)


def _table(code: str) -> TableOwner:
    """The owner of table `code` (any case), or a 404 page."""
    owner = registry_for().get(code)
    if owner is None:
        abort(Response(render_template("play/no_table.html", code=code), 404))
    return owner


def join_page_url(code: str) -> str:
    """The full address of table `code`'s join page (what its QR code holds)."""
    return f"{phone_base_url()}t/{code}/join"


def qr_svg(url: str) -> Markup:
    """The QR code of `url` as inline SVG. Made from our own URL only (no user text), so it is
    safe to mark as markup; inline SVG needs neither a script nor a second request."""
    return Markup(qr.qr_svg(url, 'role="img" aria-label="QR code of the join address" class="qr"'))


def _context(owner: TableOwner) -> dict:
    _, state = owner.view(None)
    return {"code": owner.code, "state": state, "rules": state["rules"], "deck_name": state["rules"].get("deck") or "",
            "game_name": state["game"]}  # one view: the deck and the game the stream's views are compared with


def _page_table(code: str) -> TableOwner:
    """The table a page of this blueprint is about; a code typed in another case (codes are
    case-insensitive) is sent on to the same page under the table's own code."""
    owner = _table(code)
    endpoint = request.endpoint  # this page's own (set for every request a view serves)
    if owner.code != code and endpoint is not None:
        abort(redirect(url_for(endpoint, code=owner.code)))
    return owner


@bp.get("/join/<code>")
@bp.get("/t/<code>")
def join_redirect(code: str):
    """The API's QR address and a table's short address: on to its join page (which sends a
    seated phone on to its seat)."""
    return redirect(url_for(".join", code=_table(code).code))


@bp.get("/t/<code>/join")
def join(code: str):
    """Take a seat at table `code`: a name, nothing else."""
    owner = _page_table(code)
    return render_template("play/join.html", **_context(owner))


@bp.get("/t/<code>/seat")
def seat(code: str):
    """The player page of the seat whose token this phone holds."""
    owner = _page_table(code)
    return render_template("play/player.html", **_context(owner))


@bp.get("/t/<code>/display")
def display(code: str):
    """The table display for a TV or tablet in the middle of the table."""
    owner = _page_table(code)
    url = join_page_url(owner.code)
    return render_template("play/display.html", join_url=url, qr=qr_svg(url), **_context(owner))
