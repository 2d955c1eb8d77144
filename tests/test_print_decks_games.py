"""Print and play for the games played to a winner (issues 30 and 31): Kessel's 44 cards and 16
shift tokens, Coruscant Shift's 62 cards and its two dice as cube nets, and a reference card for
each, on A4 and Letter, read from the pages the site serves."""

from __future__ import annotations

import re
from collections import Counter
from html import unescape

import pytest

from companion.decks.art import face_svg
from companion.games.coruscant.cards import CORUSCANT_DECK, GOLD, INKS, SILVER, signed, suit_of
from companion.games.kessel.cards import KESSEL_DECK, family
from companion.games.kessel.tokens import TOKENS

PAPERS = ("a4", "letter")


def _fronts(page: str) -> list[list[str]]:
    """The names of the cards on each front sheet of a sheets page, sheet by sheet."""
    sheets = re.findall(r'data-side="fronts"(.*?)</section>', page, re.S)
    return [[unescape(n) for n in re.findall(r'data-name="([^"]*)"', s)] for s in sheets]


def _backs(page: str) -> list[int]:
    """How many backs each back sheet of a sheets page holds."""
    return [s.count('class="card"') for s in re.findall(r'data-side="backs"(.*?)</section>', page, re.S)]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("deck", [KESSEL_DECK, CORUSCANT_DECK], ids=lambda d: d.name)
def test_every_card_of_the_deck_prints_as_often_as_the_deck_holds_it_nine_a_sheet(client, deck, paper):
    page = client.get(f"/decks/{deck.name}?paper={paper}").get_data(as_text=True)
    sheets = _fronts(page)
    by_name = {c.name: c.code for c in deck.cards.values()}
    printed = Counter(by_name[n] for s in sheets for n in s)
    assert printed == {c.code: c.copies for c in deck.cards.values()}
    assert sum(printed.values()) == {"kessel": 44, "coruscant": 62}[deck.name]
    assert all(len(s) == 9 for s in sheets[:-1]) and 0 < len(sheets[-1]) <= 9
    assert _backs(page) == [len(s) for s in sheets]  # a back behind every card


def test_kessels_families_print_in_their_own_ink_and_mark_and_an_impostor_says_so():
    sand, blood = face_svg("kessel", "s4"), face_svg("kessel", "b4")
    assert family("s4") == "sand" and family("b4") == "blood"
    (sand_ink,), (blood_ink,) = ({g.ink for g in KESSEL_DECK.groups if g.key == f} for f in ("sand", "blood"))
    assert sand_ink in sand and blood_ink not in sand and blood_ink in blood
    impostor = face_svg("kessel", "bi")
    assert ">Impostor<" in impostor and 'aria-label="Blood Impostor, Impostor"' in impostor
    assert ">Sylop<" in face_svg("kessel", "ss")


@pytest.mark.parametrize("code", ["ci+7", "tr-3", "sq+10", "sylop"])
def test_coruscants_cards_print_their_signed_value_in_their_suits_ink(code):
    svg = face_svg("coruscant", code)
    card = CORUSCANT_DECK.card(code)
    assert INKS[suit_of(code) or "sylop"] in svg
    assert f">{card.short}<" in svg and (card.value == 0 or f">{signed(card.value)}<" in svg)


@pytest.mark.parametrize("paper", PAPERS)
def test_the_16_shift_tokens_print_as_cards_with_their_words_and_backs(client, paper):
    page = client.get(f"/decks/kessel/tokens?paper={paper}").get_data(as_text=True)
    sheets = _fronts(page)
    assert [len(s) for s in sheets] == [9, 7]
    assert Counter(n for s in sheets for n in s) == {t.name: 1 for t in TOKENS}
    assert _backs(page) == [9, 7]
    words = unescape(page)
    for t in TOKENS:  # each token says what it does, on its face
        assert f'aria-label="{t.name}: {t.does}"' in words


@pytest.mark.parametrize("paper", PAPERS)
def test_the_gold_and_silver_dice_print_as_cube_nets_with_their_faces(client, paper):
    page = client.get(f"/decks/coruscant/dice?paper={paper}").get_data(as_text=True)
    assert _fronts(page) == [["Gold die", "Silver die"]]
    assert _backs(page) == []  # a net is folded: no back sheet
    words = unescape(page)
    gold = f'aria-label="Gold die: {", ".join(signed(f) for f in GOLD.faces)}"'
    silver = f'aria-label="Silver die: {", ".join(f.capitalize() for f in SILVER.faces)}"'
    assert gold in words and silver in words
    assert "0, 0, +5, \u22125, +10, \u221210" in gold
    net = re.search(r'<svg[^>]*class="die-net"[^>]*aria-label="Silver die.*?</svg>', words, re.S)
    assert net and net.group(0).count("stroke-dasharray") == 6  # six faces, each folded on its edges


def test_the_decks_page_links_each_games_printables_and_what_a_game_lacks_is_not_found(client):
    index = client.get("/decks").get_data(as_text=True)
    for paper in PAPERS:
        assert f"/decks/kessel/tokens?paper={paper}" in index and f"/decks/coruscant/dice?paper={paper}" in index
    for path in ("/decks/kessel/dice", "/decks/coruscant/tokens", "/decks/sabacc/tokens", "/decks/kessel/tokens?paper=a3"):
        assert client.get(path).status_code == 404, path


@pytest.mark.parametrize("paper", PAPERS)
def test_each_game_has_a_reference_card_with_its_ranking_its_tokens_or_its_dice(client, paper):
    kessel = client.get(f"/decks/reference/kessel?paper={paper}")
    assert kessel.status_code == 200
    text = unescape(kessel.get_data(as_text=True))
    assert 'data-section="hands"' in text and 'data-section="tokens"' in text
    assert all(t.name in text for t in TOKENS)
    coruscant = client.get(f"/decks/reference/coruscant-starcruiser?paper={paper}")
    assert coruscant.status_code == 200
    text = unescape(coruscant.get_data(as_text=True))
    assert 'data-section="dice"' in text and 'data-section="judging"' in text
    index = client.get("/decks").get_data(as_text=True)
    assert f"/decks/reference/kessel?paper={paper}" in index
    assert f"/decks/reference/coruscant?paper={paper}" in index
