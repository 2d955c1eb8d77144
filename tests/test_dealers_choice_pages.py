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


def test_item10_the_audit_page_names_each_roll_with_its_own_games_dice(client):
    """Classic's scrambler rolls are numbers; Spike's dice are named by their symbols
    (RULES-SPIKE.md: Spike, Flask, Crown, Compass, Eye, Sun for faces 1-6), in the seeds
    section and in the log, also on a table that played both."""
    host = Host(client_post(client), "classic")
    host.classic_demise_hand()  # three rolls of 1 and 2
    host.do("change_rules", rules="spike")
    host.do("start_hand")
    h = host.state()["hand"]
    for sid in [p["seat"] for p in h["players"]]:
        host.do("draw", seat=sid, action="stand")
    for sid in [p["seat"] for p in h["players"]]:
        host.do("check", seat=sid)
    host.do("roll", dice=[3, 5])
    page = client.get(f"/t/{host.code}/audit").get_data(as_text=True)
    assert "dice Crown and Eye" in page  # the seeds section's list of the hand's rolls
    assert "rolls Crown and Eye (2d6-doubles): no shift" in page  # the log
    assert "dice 3 and 5" not in page and "rolls 3 and 5" not in page
    assert "dice 1 and 2" in page and "rolls 1 and 2" in page  # the classic hand's scrambler
    assert "Symbol" not in page
    # The live rows name it the same way.
    rows = client.get(f"/t/{host.code}/audit?after=1&rows=1").get_data(as_text=True)
    assert "rolls Crown and Eye" in rows and "rolls 1 and 2" in rows


def test_item10_a_spike_book_table_with_a_junk_penalty_says_it_everywhere(client):
    host = Host(client_post(client), {"preset": "spike-book", "junk_penalty": 1})
    game = "Corellian Spike (the printed rule book) (junk penalty 1)"
    assert host.state()["game"] == game
    for path in ("rules", "display", "host", "history"):
        page = client.get(f"/t/{host.code}/{path}").get_data(as_text=True)
        assert "junk penalty none" not in page, path
    assert "junk penalty 1 credit" in client.get(f"/t/{host.code}/rules").get_data(as_text=True)
    assert game in client.get(f"/t/{host.code}/display").get_data(as_text=True)
