"""A table whose hands were played with two decks (issue 28, item 1): classic Sabacc, then
Corellian Spike by dealer's choice. The history page names each hand's cards with the deck that
hand was played with, and its kinds of hand in that game's words."""

from __future__ import annotations

from evening_script import Host
from test_evening import client_post


def spike_showdown_hand(host: Host, cards: dict[str, list[str]]) -> None:
    """A Spike hand played quietly by the host for every seat: three rounds of stand, check and
    the spike dice (no match), then the reveal of `cards` (seat -> codes)."""
    host.do("start_hand")
    for _ in range(3):
        h = host.state()["hand"]
        order = [p["seat"] for p in h["players"]]
        for sid in order:
            host.do("draw", seat=sid, action="stand")
        for sid in order:
            host.do("check", seat=sid)
        host.do("roll", dice=[1, 2])
    for sid, codes in cards.items():
        host.do("reveal", seat=sid, cards=codes)
    assert host.state()["hand"]["stage"] == "settled"


def test_item1_the_history_names_each_hand_with_its_own_deck(client):
    host = Host(client_post(client), "classic")
    host.classic_demise_hand()  # Lando's 10 of Flasks and 9 of Staves, Han's 10 of Coins and 9 of Sabers
    host.do("change_rules", rules="spike")
    spike_showdown_hand(host, {"s1": ["+4", "-4"], "s2": ["+3", "+1"], "s3": ["sylop", "-2"]})

    got = client.get(f"/t/{host.code}/history")
    assert got.status_code == 200
    page = got.get_data(as_text=True)
    # Hand 1, classic: the classic deck's names and kinds.
    assert "10 of Flasks, 9 of Staves" in page and "10 of Coins, 9 of Sabers" in page
    # Hand 2, Spike: Spike's card names ("−4", "Sylop") and its named hands.
    assert "+4, \u22124" in page and "Sylop, \u22122" in page
    assert "Sabacc with a pair" in page and "Nulrhek" in page
