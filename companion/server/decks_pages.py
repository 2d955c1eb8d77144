"""The print-and-play decks: `/decks` and the card faces the phones' pickers show.

- `GET /decks`: what can be printed, and how to print and cut it.
- `GET /decks/<deck>?paper=a4|letter&tarot=1`: a deck's sheets, each front followed by its
  mirrored back (long-edge duplex); `tarot=1` prints the tarot names (where the deck has them).
- `GET /decks/<deck>/summary?paper=...`: the game's one-page rules summary.
- `GET /decks/<deck>/<key>?paper=...`: what the deck's game prints beside it (`Game.printables`:
  its tokens as cards, its dice as cube nets), nine a sheet.
- `GET /decks/reference/<preset>?paper=...`: a player's reference card for a preset, a page.
- `GET /cards/<deck>/<code>.svg`: one card's face, the very SVG the sheets print.

Everything is drawn here from the rules' own data (`companion.decks`): no image files, no
fonts or scripts from anywhere else.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request

from companion.decks.art import back_svg, card, face_svg
from companion.decks.reference import reference, summary
from companion.decks.sheets import CARD_H, CARD_W, PAPERS, PER_SHEET, Paper, cut_marks, printable_sheets, sheets
from companion.games import registry
from companion.decks.source import PrintedDeck, deck_cards, printables, printed, printed_decks, reference_presets

bp = Blueprint("decks_pages", __name__)


def _paper() -> Paper:
    """The `paper` asked for (A4 by default); any other value is no page of ours."""
    paper = PAPERS.get(request.args.get("paper", "a4"))
    if paper is None:
        abort(404)
    return paper


def _deck(name: str) -> PrintedDeck:
    deck = printed_decks().get(name)
    if deck is None:
        abort(404)
    return deck


@bp.get("/decks")
def index():
    """What can be printed: each deck on either paper, its rules summary, the reference cards."""
    decks = []
    for d in printed_decks().values():
        count = len(printed(deck_cards(d.name)))
        decks.append({"deck": d, "count": count, "sheets": -(-count // PER_SHEET),
                      "preview": [face_svg(d.name, code) for code in registry.decks()[d.name].preview],
                      "tarot": any(c.tarot != c.name for c in deck_cards(d.name)),
                      "printables": list(printables(d.name).values())})
    return render_template("decks/index.html", decks=decks, papers=PAPERS,
                           presets=reference_presets(), card_size=(CARD_W, CARD_H))


@bp.get("/decks/<name>")
def deck_sheets(name: str):
    """A deck's print-ready sheets: fronts, each followed by its backs."""
    deck, paper = _deck(name), _paper()
    tarot = request.args.get("tarot") == "1"
    return render_template("decks/sheets.html", deck=deck, paper=paper, tarot=tarot,
                           sheets=sheets(name, paper, tarot=tarot), marks=cut_marks(paper))


@bp.get("/decks/<name>/summary")
def deck_summary(name: str):
    """The one-page rules summary of the game a deck is for."""
    deck, paper = _deck(name), _paper()
    # Titled by the preset's own words: every game's preset has them, reference card or not.
    return render_template("decks/summary.html", deck=deck, paper=paper,
                           title=registry.presets()[deck.game_preset].title,
                           sections=summary(deck.game_preset))


@bp.get("/decks/<name>/<key>")
def deck_printables(name: str, key: str):
    """What a deck's game prints beside it under `key` (its tokens, its dice as nets)."""
    deck, paper = _deck(name), _paper()
    extra = printables(name).get(key)
    if extra is None:
        abort(404)
    return render_template("decks/sheets.html", deck=deck, paper=paper, tarot=False, title=extra.title,
                           sheets=printable_sheets(name, key, paper), marks=cut_marks(paper))


@bp.get("/decks/reference/<preset>")
def reference_card(preset: str):
    """A player's reference card for `preset`: hand ranking, turn actions, shifts; one page."""
    paper = _paper()
    presets = reference_presets()
    if preset not in presets:
        abort(404)
    return render_template("decks/reference.html", paper=paper, preset=preset,
                           title=presets[preset], sections=reference(preset))


@bp.get("/cards/<deck>/<code>.svg")
def card_face(deck: str, code: str):
    """One card's face as SVG (`?tarot=1`: its tarot name); `back` is the deck's back."""
    _deck(deck)
    if code == "back":
        svg = back_svg(deck)
    else:
        try:
            card(deck, code)
        except KeyError:
            abort(404)
        svg = face_svg(deck, code, tarot=request.args.get("tarot") == "1")
    response = Response(svg, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response
