"""The deck and card codes (RULES.md "The deck")."""

from __future__ import annotations

import pytest

from companion.games.classic.cards import (
    CARDS,
    DECK,
    SUITS,
    TooManyCopies,
    UnknownCard,
    card,
    check_copies,
    display_name,
    normalize,
    total,
)


def test_the_deck_has_76_cards():
    assert len(DECK) == 76


def test_each_suit_holds_one_copy_of_ranks_1_to_15():
    for suit in ("sa", "st", "fl", "co"):
        for rank in range(1, 16):
            c = CARDS[f"{suit}{rank}"]
            assert (c.value, c.copies, c.is_face) == (rank, 1, False)
    assert [s.name for s in SUITS] == ["Sabers", "Staves", "Flasks", "Coins"]


@pytest.mark.parametrize(
    "code, value",
    [
        ("idiot", 0),
        ("queen", -2),
        ("endurance", -8),
        ("balance", -11),
        ("demise", -13),
        ("moderation", -14),
        ("evil-one", -15),
        ("star", -17),
    ],
)
def test_face_cards_have_two_copies_and_their_values(code, value):
    assert (card(code).value, card(code).copies, card(code).is_face) == (value, 2, True)
    assert DECK.count(code) == 2


def test_named_ranks_12_to_15_are_commander_mistress_master_ace():
    assert [display_name(f"co{r}") for r in (12, 13, 14, 15)] == [
        "Commander of Coins",
        "Mistress of Coins",
        "Master of Coins",
        "Ace of Coins",
    ]


def test_codes_are_case_insensitive_on_input_and_lower_case_on_output():
    assert normalize(" CO7 ") == "co7"
    assert normalize("Evil-One") == "evil-one"


@pytest.mark.parametrize("bad", ["sa0", "sa16", "co", "joker", "", 7, None])
def test_an_unknown_card_is_refused(bad):
    with pytest.raises(UnknownCard):
        card(bad)


def test_two_copies_of_a_suited_card_are_too_many():
    with pytest.raises(TooManyCopies) as err:
        check_copies(["sa7", "co1", "sa7"])
    assert (err.value.code, err.value.count, err.value.copies) == ("sa7", 2, 1)


def test_three_idiots_are_too_many_but_two_are_fine():
    check_copies(["idiot", "idiot"])
    with pytest.raises(TooManyCopies):
        check_copies(["idiot", "idiot", "idiot"])


@pytest.mark.parametrize(
    "code, tarot",
    [
        ("sa11", "Page of Swords"),
        ("st12", "Knight of Wands"),
        ("fl13", "Queen of Cups"),
        ("co14", "King of Pentacles"),
        ("co15", "Ace of Pentacles"),
        ("idiot", "The Fool"),
        ("queen", "The High Priestess"),
        ("endurance", "Strength"),
        ("balance", "Justice"),
        ("demise", "Death"),
        ("moderation", "Temperance"),
        ("evil-one", "The Devil"),
        ("star", "The Star"),
    ],
)
def test_tarot_aliases_for_display(code, tarot):
    assert display_name(code, tarot=True) == tarot


def test_total_is_the_plain_sum():
    # 7 + 11 - 17 = 1
    assert total(["co7", "sa11", "star"]) == 1
