"""The print-and-play decks without a browser: what is printed, where, and from which data."""

from __future__ import annotations

import math
import re
from urllib.parse import quote

import pytest

from companion.decks.art import NEGATIVE_INK, POSITIVE_INK, back_svg, face_svg, mark
from companion.decks.reference import reference, section_text, summary
from companion.decks.sheets import CARD_H, CARD_W, COLUMNS, PAPERS, ROWS, cut_marks, origin, sheets, slot
from companion.decks.source import deck_cards, named_hands, printed, reference_presets, rule_sets, value_text
from companion.games.classic.cards import CARDS, CORELLIA_SET_ASIDE, DECK
from companion.games import registry
from companion.games.classic.explain import RANKING_WORDS, SHIFT_WORDS, explain
from companion.games.classic.presets import PRESETS
from companion.rules.rulesets import RULE_SETS, RuleSet


def test_a_face_names_its_card_inks_a_signed_value_and_marks_the_set_aside_cards():
    # (Once companion/decks/art.py's own examples: the art names no game's cards now.)
    svg = face_svg("sabacc", "co7")
    assert svg.startswith("<svg") and 'aria-label="7 of Coins, 7"' in svg
    assert ">+7<" in face_svg("spike", "+7") and POSITIVE_INK in face_svg("spike", "+7")
    assert ("Corellia Run" in face_svg("sabacc", "star"), "Corellia Run" in face_svg("sabacc", "idiot")) == (True, False)
    assert mark("spike", deck_cards("spike")[-1]) == "ring"  # the zero card of a signed deck


def test_the_built_in_decks_and_reference_cards_as_the_print_modules_once_showed_them():
    # (Once the examples of companion/decks/source.py, reference.py and sheets.py.)
    assert (len(printed(deck_cards("spike"))), deck_cards("spike")[-1].name, deck_cards("spike")[0].staves) == \
        (62, "Sylop", ("circle", "triangle", "square"))
    assert [(h.kind, h.example) for h in named_hands("spike")][:2] == \
        [("Pure Sabacc", ("sylop", "sylop")), ("Full Sabacc", ("sylop", "+10", "+10", "-10", "-10"))]
    assert [s.key for s in reference("classic")] == ["hands", "named-hands", "ranking", "your-turn", "shift"]
    assert [s.key for s in reference("spike")] == ["hands", "named-hands", "your-turn", "dice"]
    assert reference("spike")[1].points[4] == "Yee-Haa: Sylop, +1, −1"
    assert reference("spike")[2].points[4] == \
        "Swap with the discard pile: take the discard pile's top card and discard 1 card; fee 2 credits."
    assert ([len(s.fronts) for s in sheets("sabacc")][-1], len(sheets("sabacc")), len(sheets("spike"))) == (4, 9, 7)


def test_the_classic_deck_prints_every_copy_of_every_card_in_deck_order():
    codes = [c.code for c, _ in printed(deck_cards("sabacc"))]
    assert codes == list(DECK)
    assert len(codes) == 76


def test_the_spike_deck_prints_62_cards_three_staves_a_value_and_two_sylops():
    cards = printed(deck_cards("spike"))
    assert len(cards) == 62
    values = sorted(c.value for c, _ in cards)
    assert values == sorted([v for v in range(-10, 11) if v for _ in range(3)] + [0, 0])
    for c, copy in cards:
        if c.value:  # each copy of a value in its own stave, as the deck value names them
            assert mark("spike", c, copy) == ("circle", "triangle", "square")[copy]
            assert f'<g transform="translate(100 180) scale(32)" fill="{"#1b7a34" if c.value > 0 else "#c0262d"}">' \
                   in face_svg("spike", c.code, copy=copy)
        else:
            assert mark("spike", c, copy) == "ring"  # a signed deck's zero card: the ring


@pytest.mark.parametrize("code,ink", [("+7", POSITIVE_INK), ("-7", NEGATIVE_INK), ("+10", POSITIVE_INK)])
def test_spike_values_are_large_signed_green_positive_and_red_negative(code, ink):
    svg = face_svg("spike", code)
    value = value_text(int(code), signed=True)
    assert re.search(rf'font-size="210"[^>]*fill="{ink}"[^>]*>{re.escape(value)}<', svg)


def test_only_corellia_runs_set_aside_cards_carry_the_mark():
    marked = {c.code for c in deck_cards("sabacc") if "Corellia Run" in face_svg("sabacc", c.code)}
    assert marked == set(CORELLIA_SET_ASIDE)


def test_tarot_names_are_printed_as_an_option():
    assert "Knight of Swords" in face_svg("sabacc", "sa12", tarot=True)
    assert "Commander of Sabers" in face_svg("sabacc", "sa12")


def test_nine_cards_a_sheet_and_the_back_sheet_mirrors_the_columns():
    for paper in PAPERS.values():
        for deck in ("sabacc", "spike"):
            got = sheets(deck, paper)
            assert len(got) == math.ceil(len(printed(deck_cards(deck))) / 9)
            for sheet in got:
                for i, (front, back) in enumerate(zip(sheet.fronts, sheet.backs)):
                    assert (front.x, front.y) == slot(paper, i)
                    # Flipped on the long edge, the back lands exactly behind its face.
                    assert round(paper.width - back.x - CARD_W, 2) == front.x and back.y == front.y
    last = sheets("sabacc")[-1]
    assert [b.x for b in last.backs] == [136.5, 73.5, 10.5, 136.5]


def test_the_cards_fit_the_paper_and_the_cut_marks_lie_in_its_margins_on_card_edges():
    for paper in PAPERS.values():
        x0, y0 = origin(paper)
        x1, y1 = x0 + COLUMNS * CARD_W, y0 + ROWS * CARD_H
        assert 0 < x0 and x1 < paper.width and 0 < y0 and y1 < paper.height
        edges_x = {round(x0 + i * CARD_W, 2) for i in range(COLUMNS + 1)}
        edges_y = {round(y0 + j * CARD_H, 2) for j in range(ROWS + 1)}
        for ax, ay, bx, by in cut_marks(paper):
            assert 0 <= min(ax, bx) and max(ax, bx) <= paper.width and 0 <= min(ay, by) and max(ay, by) <= paper.height
            if ax == bx:  # vertical: on a column edge, above or below the cards
                assert ax in edges_x and (max(ay, by) < y0 or min(ay, by) > y1)
            else:
                assert ay in edges_y and (max(ax, bx) < x0 or min(ax, bx) > x1)
        assert len(cut_marks(paper)) == 2 * (COLUMNS + 1) + 2 * (ROWS + 1)


def test_the_face_route_serves_the_very_svg_the_sheets_print(client):
    for deck, code in (("sabacc", "co7"), ("sabacc", "evil-one"), ("spike", "-3"), ("spike", "sylop")):
        served = client.get(f"/cards/{deck}/{code}.svg".replace("+", "%2B"))
        assert served.status_code == 200 and served.mimetype == "image/svg+xml"
        assert served.get_data(as_text=True) == face_svg(deck, code)
        assert face_svg(deck, code) in client.get(f"/decks/{deck}").get_data(as_text=True)
    assert client.get("/cards/spike/back.svg").get_data(as_text=True) == back_svg("spike")
    assert client.get("/cards/spike/%2B7.svg").get_data(as_text=True) == face_svg("spike", "+7")


def test_the_pickers_deck_names_where_its_faces_are(client):
    deck = client.get("/api/v1/cards").get_json()
    assert deck["faces"] == "/cards/sabacc/{code}.svg"
    for c in deck["cards"]:
        assert client.get(deck["faces"].replace("{code}", c["code"])).status_code == 200
    spike = client.get("/api/v1/cards?deck=spike").get_json()
    assert spike["faces"] == "/cards/spike/{code}.svg"
    for c in spike["cards"]:  # as the picker asks: the code URL-encoded ("+7" is "%2B7")
        face = client.get(spike["faces"].replace("{code}", quote(c["code"], safe="")))
        assert face.get_data(as_text=True) == face_svg("spike", c["code"])


@pytest.mark.parametrize("path", ["/decks/uno", "/decks/classic", "/decks/sabacc?paper=a3", "/cards/sabacc/sa16.svg",
                                  "/cards/uno/sa1.svg", "/decks/reference/poker", "/decks/spike/summary?paper=x"])
def test_what_is_no_deck_card_paper_or_preset_is_not_found(client, path):
    assert client.get(path).status_code == 404


def test_the_reference_card_is_the_rule_sets_own_words():
    assert {"classic", "spike", "spike-book"} <= set(rule_sets())  # every game with turn actions
    for name, rs in rule_sets().items():
        card = reference(name)
        rules = {s.key: s for s in registry.game_of(name).explain(rs)}
        assert section_text(card, "hands") == rules["hands"].text()
        turn = section_text(card, "your-turn")
        assert all(rs.phase_name(pr.phase) in turn for pr in rs.turn_phases)
        assert [p.split(":")[0] for p in [s for s in card if s.key == "your-turn"][0].points] == \
            [a.button for a in rs.actions]
        for key in ("ranking", "shift", "dice"):  # printed as the rules page says them
            assert section_text(card, key) == (rules[key].text() if key in rules else "")
    for name, rs in PRESETS.items():
        card = reference(name)
        assert RANKING_WORDS[rs.game_options.ranking] in section_text(card, "ranking")
        assert SHIFT_WORDS[rs.shift_kind] in section_text(card, "shift")
        assert "Trade a card: take 1 card from the draw pile and discard 1 card." in section_text(card, "your-turn")
    assert "Sabacc Shift" in section_text(reference("spike"), "dice")
    swap = "Swap with the discard pile: take the discard pile's top card and discard 1 card"
    assert swap + "; fee 2 credits." in section_text(reference("spike"), "your-turn")
    assert swap + "." in section_text(reference("spike-book"), "your-turn")  # no fees there


def test_spikes_reference_card_names_every_hand_with_an_example_its_ranking_judges_so():
    rs = RULE_SETS["spike"]
    names = {c.name: c.code for c in deck_cards("spike")}
    hands = [s for s in reference("spike") if s.key == "named-hands"][0].points
    assert [h.split(":")[0] for h in hands] == [w for k, w in rs.hands.kinds if k not in ("folded", "conceded")]
    for line in hands:
        words, example = line.split(": ")
        judged = rs.hands.evaluate(rs, [names[n] for n in example.split(", ")])
        assert rs.hands.words(judged.kind) == words
    book = [s for s in reference("spike-book") if s.key == "named-hands"][0].points
    assert len(book) == 13 and not any(h.startswith("Prime Sabacc") for h in book)  # no Prime there
    # A reference card for every preset whose rules have a hand ranking and turn actions (a
    # RuleSet), and for every preset whose game names its card's sections (Game.reference).
    assert set(reference_presets()) == {n for n, r in RULE_SETS.items() if isinstance(r, RuleSet)} | {
        n for n in RULE_SETS if registry.game_of(n).reference}


def test_a_preset_without_a_reference_card_is_not_offered_one_and_its_decks_summary_prints(client):
    without = [n for n, r in registry.presets().items() if n not in reference_presets()]
    assert "coruscant" not in without and "kessel" not in without  # their games name their cards' sections
    index = client.get("/decks").get_data(as_text=True)
    assert "/decks/reference/classic?paper=a4" in index and client.get("/decks/reference/classic").status_code == 200
    for name in without:
        assert client.get(f"/decks/reference/{name}").status_code == 404
        assert f"/decks/reference/{name}?" not in index
    # Every deck's one-page summary prints, titled by its game's default preset.
    for deck, game in ((d, g) for g in registry.games().values() for d in g.decks):
        page = client.get(f"/decks/{deck}/summary")
        assert page.status_code == 200, deck
        title = game.presets[game.default_preset()].title
        assert f"{title}" in page.get_data(as_text=True).replace("&#39;", "'"), deck
        assert f"/decks/{deck}/summary?paper=a4" in index


def test_classics_reference_card_shows_its_special_hands_with_examples():
    hands = [s for s in reference("holodex") if s.key == "named-hands"][0].points
    assert list(hands[:3]) == ["Idiot's Array: The Idiot, 2 of Sabers, 3 of Sabers", "Pure Sabacc: 8 of Sabers, Ace of Sabers",
                         "Fairy Empress: Queen of Air and Darkness, Queen of Air and Darkness"]
    assert not any("Fairy" in h for h in [s for s in reference("classic") if s.key == "named-hands"][0].points)


def test_the_rules_summary_follows_the_rule_set(client):
    text = " ".join(s.text() for s in summary("classic"))
    assert "76 cards" in text and RANKING_WORDS[PRESETS["classic"].game_options.ranking] in text
    page = client.get("/decks/sabacc/summary").get_data(as_text=True)
    assert "Commander 12" in page


def test_the_host_start_page_links_the_decks(client):
    assert 'href="/decks"' in client.get("/host").get_data(as_text=True)


def test_every_classic_face_names_its_card_and_value():
    for c in CARDS.values():
        svg = face_svg("sabacc", c.code)
        assert f">{value_text(c.value)}<" in svg and c.name.split(" ")[-1] in svg


#: A rule set playing a deck the print code has never heard of, registered before anything
#: imports the decks (as a game found at start would be), then the site started and its
#: deck pages asked for. Prints what the pages answered, as JSON.
_NEW_DECK_SCRIPT = r'''
import dataclasses, json, sys
from companion.rules.cards import Card
from companion.rules.decks import Deck, Group
from companion.games import registry
cards = {f"{v:+d}": Card(f"{v:+d}", v, 3, f"{v:+d}", f"{v:+d}", short=f"{v:+d}")
         for v in (*range(1, 7), *range(-6, 0))}
cards["sylop"] = Card("sylop", 0, 2, "Sylop", "Sylop", short="Sylop")
deck = Deck("holotable", "the 38-card Holotable deck", cards,
            (Group("plus", "Positive", tuple(c for c in cards if cards[c].value > 0)),
             Group("minus", "Negative", tuple(c for c in cards if cards[c].value < 0)),
             Group("sylop", "Sylops", ("sylop",))), "value")
spike = registry.games()["spike"]
rs = dataclasses.replace(spike.presets["spike"], name="holotable", title="Holotable Sabacc", deck=deck)
registry.register(dataclasses.replace(spike, name="holotable", title="Holotable Sabacc", presets={"holotable": rs},
                                      rules_from=lambda spec, field="rules": rs, decks={"holotable": deck}, default=""))
from companion.decks.source import DECKS                     # raised KeyError here
from companion.server.app import create_app
client = create_app({"TESTING": True, "DATA_DIR": sys.argv[1]}).test_client()
out = {"deck": dataclasses.asdict(DECKS["holotable"])}
for path in ("/decks", "/decks/holotable", "/decks/holotable/summary", "/cards/holotable/back.svg",
             "/cards/holotable/+6.svg", "/cards/sabacc/back.svg", "/cards/spike/back.svg"):
    r = client.get(path)
    out[path] = [r.status_code, r.get_data(as_text=True)]
print(json.dumps(out))
'''


def test_a_rule_set_with_a_deck_of_its_own_starts_the_site_and_prints_that_deck(tmp_path):
    """A new game's deck has no entry in any table of the print code: the site still starts,
    and the deck is printed with a title and a back drawn from its own data."""
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", _NEW_DECK_SCRIPT, str(tmp_path / "data")],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout)
    # Named and summarised as the one rule set that plays it; its values printed signed.
    assert got["deck"] == {"name": "holotable", "title": "Holotable Sabacc", "game_preset": "holotable", "signed": True}
    status, index = got["/decks"]
    assert status == 200 and "Holotable Sabacc" in index and "/decks/holotable" in index
    status, sheets_page = got["/decks/holotable"]
    assert status == 200 and sheets_page.count('class="card-face deck-holotable"') == 38
    assert got["/decks/holotable/summary"][0] == 200
    status, back = got["/cards/holotable/back.svg"]
    assert status == 200 and back.startswith("<svg") and ">HOLOTABLE<" in back
    assert 'aria-label="Holotable Sabacc card back"' in back
    status, face = got["/cards/holotable/+6.svg"]
    assert status == 200 and ">+6<" in face and POSITIVE_INK in face
    # The decks the print code was drawn for keep their own backs.
    assert ">SABACC<" in got["/cards/sabacc/back.svg"][1] and ">SPIKE<" in got["/cards/spike/back.svg"][1]
