"""The pages: they answer, say what they must, reference only assets that exist, and fetch
nothing from outside the box; the deck endpoint is the card picker's one source of truth."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlparse

import pytest
from flask import render_template_string

from companion.paths import STATIC_DIR, WEB_DIR
from companion.games.classic.cards import CARDS, DECK
from companion.games.classic.presets import PRESETS

PAGES = ["/", "/calculator", "/rules", *(f"/rules?preset={name}" for name in PRESETS)]


class Refs(HTMLParser):
    """Collects every URL a page refers to, and every <script> and event-handler attribute."""

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []
        self.scripts: list[dict] = []
        self.handlers: list[str] = []
        self.ids: list[str] = []
        self.labels_for: list[str] = []
        self.controls: list[dict] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for name in ("src", "href", "action"):
            if a.get(name):
                self.urls.append(a[name])
        if tag == "script":
            self.scripts.append(a)
        self.handlers += [k for k in a if k.startswith("on")]
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "label" and "for" in a:
            self.labels_for.append(a["for"])
        if tag in ("input", "select", "textarea"):
            self.controls.append(a)


def refs(html: str) -> Refs:
    parser = Refs()
    parser.feed(html)
    return parser


@pytest.mark.parametrize("path", PAGES)
def test_every_page_answers_with_the_site_stylesheet_and_no_inline_script(client, path):
    resp = client.get(path)
    assert resp.status_code == 200
    assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
    page = refs(resp.get_data(as_text=True))
    assert "/static/css/app.css" in page.urls
    assert page.handlers == [], "event handlers must be attached from static JS"
    for script in page.scripts:
        assert script.get("src", "").startswith("/static/"), "no inline scripts under the CSP"
    assert len(page.ids) == len(set(page.ids)), "duplicate ids break labels"


@pytest.mark.parametrize("path", PAGES)
def test_every_asset_a_page_refers_to_exists(client, path):
    page = refs(client.get(path).get_data(as_text=True))
    for url in page.urls:
        if url.startswith("#") or url.startswith("data:"):
            continue  # in-page anchors; the empty data: favicon that stops a /favicon.ico 404
        parsed = urlparse(url)
        assert not parsed.scheme and not parsed.netloc, f"{url} leaves the companion"
        target = urljoin(path, url)
        resp = client.get(target)
        resp.close()  # static files are streamed from disk
        assert resp.status_code == 200, target


def test_every_module_a_script_imports_exists(client):
    # ES modules import each other by relative path; a missing one would break the page only
    # in the browser.
    for js in (STATIC_DIR / "js").glob("*.js"):
        for target in re.findall(r'^import .* from "(\./[^"]+)";$', js.read_text(), re.M):
            assert (js.parent / target).is_file(), f"{js.name} imports missing {target}"
            resp = client.get(f"/static/js/{target[2:]}")
            resp.close()
            assert resp.status_code == 200


def test_nothing_under_web_points_outside_the_companion():
    files = [p for p in WEB_DIR.rglob("*") if p.is_file()]
    assert files, "web/ is empty"
    for p in files:
        if p.suffix in (".png", ".ico", ".woff2"):
            continue
        # An XML namespace (xmlns="http://www.w3.org/2000/svg") names, it fetches nothing.
        text = re.sub(r"""xmlns(:\w+)?=["'][^"']*["']""", "", p.read_text(errors="replace"))
        assert not re.search(r"https?://", text), f"{p} names an outside URL"
        assert not re.search(r"""(src|href)=["']//|url\(\s*["']?//|@import""", text), f"{p} loads from elsewhere"


def test_scripts_never_parse_data_as_html():
    # Player names are untrusted: JS builds the DOM with textContent only.
    for js in (STATIC_DIR / "js").glob("*.js"):
        text = js.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in text, f"{js.name} uses {sink}"


def test_home_explains_the_companion_and_links_to_calculator_and_rules(client):
    html = client.get("/").get_data(as_text=True)
    assert "Sabacc table companion" in html
    assert 'href="/calculator"' in html
    for name in PRESETS:
        assert f'href="/rules?preset={name}"' in html
    assert 'id="start-table"' in html  # where a live table is started
    if "host_pages.start" in client.application.view_functions:
        assert 'href="/host">Start a table</a>' in html


def test_calculator_offers_every_preset_with_its_summary_and_says_the_dealer_is_last(client):
    html = client.get("/calculator").get_data(as_text=True)
    for name, rs in PRESETS.items():
        assert f'<option value="{name}"' in html
        assert rs.summary.replace("'", "&#39;") in html
    assert "The dealer is last." in html
    assert "Bomb-out penalty" in html
    page = refs(html)
    # Every control outside the player template has a label pointing at it (the template's
    # labels are tied to their inputs by calculator.js, which gives them unique ids).
    outside_template = html.split('<template id="player-template">')[0]
    for control in refs(outside_template).controls:
        if control.get("type") in ("radio", "checkbox"):
            continue  # wrapped in their <label>
        assert control.get("id") in page.labels_for, control


def test_unknown_preset_on_the_rules_page_is_a_404_that_does_not_echo_it(client):
    resp = client.get("/rules?preset=<script>alert(1)</script>")
    assert resp.status_code == 404
    assert b"<script>alert(1)" not in resp.data


def test_deck_endpoint_serves_the_76_card_deck_from_companion_rules(client):
    deck = client.get("/api/v1/cards").get_json()
    assert [c["code"] for c in deck["cards"]] == list(CARDS)
    assert sum(c["copies"] for c in deck["cards"]) == len(DECK) == 76
    by_code = {c["code"]: c for c in deck["cards"]}
    assert by_code["evil-one"] == {
        "code": "evil-one", "value": -15, "copies": 2, "name": "The Evil One",
        "tarot": "The Devil", "suit": None,
    }
    assert by_code["sa12"]["tarot"] == "Knight of Swords" and by_code["sa12"]["suit"] == "sa"
    assert [s["name"] for s in deck["suits"]] == ["Sabers", "Staves", "Flasks", "Coins"]
    assert "/api/v1/cards" in client.get("/api/v1/openapi.json").get_json()["paths"]


def test_base_template_gives_later_pages_title_header_main_and_scripts_blocks(app):
    source = (
        '{% extends "base.html" %}'
        "{% block title %}Table 7{% endblock %}"
        "{% block header %}<h1>Seat 3</h1>{% endblock %}"
        "{% block main %}<p>{{ name }}</p>{% endblock %}"
        '{% block scripts %}<script type="module" src="/static/js/player.js"></script>{% endblock %}'
    )
    with app.test_request_context("/table/7"):
        html = render_template_string(source, name="<b>Han</b>")
    assert "<title>Table 7</title>" in html
    assert "<h1>Seat 3</h1>" in html
    assert "<p>&lt;b&gt;Han&lt;/b&gt;</p>" in html  # autoescaped
    assert html.index('src="/static/js/player.js"') > html.index("</main>")


def test_card_picker_partial_marks_a_labelled_group_for_cardpicker_js(app):
    source = (
        '{% from "partials/cardpicker.html" import card_picker %}'
        '{{ card_picker("reveal", label, max=3, field="players[0].cards") }}'
    )
    with app.test_request_context("/"):
        html = render_template_string(source, label='Cards of <i>"Han"</i>')
    assert 'id="reveal"' in html and 'role="group"' in html
    assert 'data-max="3"' in html and 'data-field="players[0].cards"' in html
    assert 'aria-label="Cards of &lt;i&gt;&#34;Han&#34;&lt;/i&gt;"' in html
