"""The play pages as the server renders them: addresses, the join QR code, escaping, no script.

The pages' behaviour in a browser is in test_play_browser.py; these check what any client
(a phone that has not run a line of JavaScript yet) receives.
"""

from __future__ import annotations

import re

import qrcode
import qrcode.image.svg
import pytest

from companion.server.qr import dark_modules


def modules_qrcode_draws(url: str) -> set[tuple[int, int]]:
    """The dark modules of qrcode's own SVG of `url` (its path factory: one `Mx,yHx+1V..z` a
    module): what the page's code must draw, module for module."""
    svg = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2).to_string(encoding="unicode")
    return {(int(x), int(y)) for x, y in re.findall(r"M(\d+),(\d+)H", svg)}


def page_qr(html: str) -> str:
    """The inline QR code's SVG in a page."""
    return re.search(r'<svg [^>]*class="qr".*?</svg>', html, re.S).group(0)


@pytest.fixture
def table(client):
    """A weg table with Lando seated; returns its code."""
    resp = client.post("/api/v1/tables", json={"rules": "weg"})
    assert resp.status_code == 201
    code = resp.get_json()["code"]
    assert client.post(f"/api/v1/tables/{code}/join", json={"name": "Lando"}).status_code == 201
    return code


def test_the_display_shows_a_qr_code_of_the_join_page_and_its_address(client, table):
    html = client.get(f"/t/{table}/display").get_data(as_text=True)
    url = f"http://localhost/t/{table}/join"
    assert f'<span class="d-url" id="d-join-url">{url}</span>' in html
    # The inline QR code draws exactly the modules of qrcode's code of that address.
    assert dark_modules(page_qr(html)) == modules_qrcode_draws(url)
    assert 'role="img" aria-label="QR code of the join address"' in html


def test_the_api_qr_address_and_a_lower_case_code_lead_to_the_join_page(client, table):
    resp = client.get(f"/join/{table.lower()}")
    assert resp.status_code == 302 and resp.headers["Location"].endswith(f"/t/{table}/join")
    resp = client.get(f"/t/{table.lower()}/seat")
    assert resp.status_code == 302 and resp.headers["Location"].endswith(f"/t/{table}/seat")
    resp = client.get(f"/t/{table}")
    assert resp.status_code == 302 and resp.headers["Location"].endswith(f"/t/{table}/join")


@pytest.mark.parametrize("path", ["/t/{}/join", "/t/{}/seat", "/t/{}/display", "/join/{}"])
def test_an_unknown_table_is_a_404_page_in_words(client, path):
    resp = client.get(path.format("KMXTR"))
    assert resp.status_code == 404
    assert resp.mimetype == "text/html"
    assert "There is no table with that code" in resp.get_data(as_text=True)


def test_a_name_that_is_markup_is_escaped_on_every_page(client, table):
    name = '<b onclick="x()">Han</b>'
    assert client.post(f"/api/v1/tables/{table}/join", json={"name": name}).status_code == 201
    for page in ("join", "display"):
        html = client.get(f"/t/{table}/{page}").get_data(as_text=True)
        assert "&lt;b onclick=&#34;x()&#34;&gt;Han&lt;/b&gt;" in html, page
        assert "<b onclick" not in html, page


@pytest.mark.parametrize("page", ["join", "seat", "display"])
def test_pages_load_their_script_from_a_file_only(client, table, page):
    resp = client.get(f"/t/{table}/{page}")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert scripts and all(re.search(r'src="/static/js/(player|display|pwa)\.js"', s) for s in scripts)
    assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
    assert 'data-code="%s"' % table in html


def test_the_player_page_links_the_tables_other_pages(client, table):
    html = client.get(f"/t/{table}/seat").get_data(as_text=True)
    for href in (f"/t/{table}/rules", f"/t/{table}/display", f"/t/{table}/history"):
        assert f'href="{href}"' in html


@pytest.mark.parametrize("asked_at", ["http://localhost:8023/", "http://127.0.0.1:8023/", "http://[::1]:8023/"])
def test_a_display_on_the_servers_own_screen_puts_the_lan_address_in_its_qr_code(app, client, table, asked_at):
    # The TV on the Pi's HDMI port opens the display at localhost; phones cannot reach that,
    # so the QR code and the address under it are the LAN address `serve` printed.
    app.config["PHONE_URL"] = "http://192.168.4.1:8023/"
    html = client.get(f"/t/{table}/display", base_url=asked_at).get_data(as_text=True)
    assert f'id="d-join-url">http://192.168.4.1:8023/t/{table}/join</span>' in html
    assert dark_modules(page_qr(html)) == modules_qrcode_draws(f"http://192.168.4.1:8023/t/{table}/join")


def test_a_display_opened_by_name_keeps_the_name_in_its_qr_code(app, client, table):
    app.config["PHONE_URL"] = "http://192.168.4.1:8023/"
    html = client.get(f"/t/{table}/display", base_url="http://sabacc.local:8023/").get_data(as_text=True)
    assert f'id="d-join-url">http://sabacc.local:8023/t/{table}/join</span>' in html
    assert dark_modules(page_qr(html)) == modules_qrcode_draws(f"http://sabacc.local:8023/t/{table}/join")


def test_a_table_created_on_the_servers_own_screen_gets_the_lan_join_address(app, client):
    # The host creates the table from a browser on the Pi itself (localhost): the join
    # address the API hands back, and its QR code, must be the one phones can reach.
    app.config["PHONE_URL"] = "http://192.168.4.1:8023/"
    resp = client.post("/api/v1/tables", json={"rules": "classic"}, base_url="http://localhost:8023/")
    assert resp.status_code == 201
    code = resp.get_json()["code"]
    assert resp.get_json()["join_url"] == f"http://192.168.4.1:8023/join/{code}"
