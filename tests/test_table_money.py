"""The money of a hand as the table records and tells it (issue 28): Spike's junk penalty in
either phase, the log's words for where a fee went, the evening summary's "Put in", "Took out"
and net reconciled, and a bet, raise or call of a whole stack told as all-in."""

from __future__ import annotations

import csv
import io

from companion.server.host_pages import event_words
from companion.table.engine import HOST, Table

NAMES = ("Lando", "Han", "Chewie")


def spike_table(penalty: int = 2, stack: int = 30) -> Table:
    """A Spike table with a junk penalty and three seats (Lando, Han, Chewie), each bought in."""
    t = Table.create("JUNK", {"rules": {"preset": "spike", "junk_penalty": penalty}})
    for i, name in enumerate(NAMES):
        t.apply({"type": "join", "name": name}, None)
        t.apply({"type": "buy_in", "amount": stack}, f"s{i + 1}")
    return t


def test_spike_junking_pays_the_junk_penalty_into_the_game_pot_in_the_turn_phase_as_in_the_betting_phase():
    """RULES-SPIKE.md: the junk penalty goes into the game pot whenever a player junks."""
    t = spike_table(penalty=2)
    t.apply({"type": "start_hand"}, HOST)  # antes: 1 to the game pot, 2 to the sabacc pot each
    first, second, third = t.to_json()["hand"]["players"]
    events = t.apply({"type": "draw", "action": "junk"}, first)  # the turn phase
    view = t.view(None)
    stacks = {s["seat"]: s["stack"] for s in view["seats"]}
    assert stacks[first] == 30 - 3 - 2
    assert view["hand"]["hand_pot"] == 3 + 2 and view["sabacc_pot"] == 6
    folded = next(e for e in events if e["type"] == "folded")
    assert folded["fee"] == 2
    for sid in (second, third):
        t.apply({"type": "draw", "action": "stand"}, sid)
    t.apply({"type": "bet", "amount": 1}, second)
    t.apply({"type": "fold"}, third)  # the betting phase: junks, pays the same penalty
    s = t.to_json()
    # Han takes the game pot uncontested: the antes, his bet and both penalties.
    assert s["seats"][second]["stack"] == 30 - 3 - 1 + (3 + 1 + 2 + 2)
    assert s["seats"][third]["stack"] == 30 - 3 - 2
    assert s["sabacc_pot"] == 6  # no penalty went into the sabacc pot
    assert t.credits() == 90


def test_spike_a_junk_with_an_empty_stack_pays_no_penalty():
    t = spike_table(penalty=2)
    t.apply({"type": "start_hand"}, HOST)
    first = t.to_json()["hand"]["players"][0]
    t.apply({"type": "adjust", "seat": first, "amount": -27, "reason": "all in"}, HOST)
    events = t.apply({"type": "draw", "action": "junk"}, first)
    assert next(e for e in events if e["type"] == "folded")["fee"] == 0
    assert t.to_json()["seats"][first]["stack"] == 0


def test_the_log_says_a_junk_penalty_goes_to_the_game_pot_and_a_fold_fee_to_the_sabacc_pot():
    t = spike_table(penalty=2)
    t.apply({"type": "start_hand"}, HOST)
    first = t.to_json()["hand"]["players"][0]
    folded = next(e for e in t.apply({"type": "draw", "action": "junk"}, first) if e["type"] == "folded")
    words = event_words(folded, {"s1": "Lando", "s2": "Han", "s3": "Chewie"})
    assert words is not None and "paying 2 to the game pot" in words and "sabacc" not in words

    weg = Table.create("FOLD", {"rules": "weg"})
    for i, name in enumerate(NAMES[:2]):
        weg.apply({"type": "join", "name": name}, None)
        weg.apply({"type": "buy_in", "amount": 20}, f"s{i + 1}")
    weg.apply({"type": "start_hand"}, HOST)
    turn = weg.view(None)["hand"]["turn"]
    weg.apply({"type": "bet", "amount": 1}, turn)
    other = next(sid for sid in ("s1", "s2") if sid != turn)
    folded = next(e for e in weg.apply({"type": "fold"}, other) if e["type"] == "folded")
    assert event_words(folded, {"s1": "Lando", "s2": "Han"}).endswith("paying 1 to the sabacc pot")
    assert weg.to_json()["sabacc_pot"] == 2 + 1


# -- the evening's summary: put in, took out, net --------------------------------------------------

def _client_host(client, rules, **kw):
    from evening_script import Host

    def post(path, body, token):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = client.post(path, json=body, headers=headers) if body is not None else client.get(path, headers=headers)
        return r.status_code, r.get_json()
    return Host(post, rules, **kw)


def _spike_hand_with_fees_a_junk_and_a_shown_sabacc(host) -> tuple[str, str, str]:
    """Spike (junk penalty 1): Lando swaps (fee 2), Han keeps and discards another (fee 1),
    Chewie junks (penalty 1); Lando bets 2 and Han junks (penalty 1): Lando takes the game pot
    and shows +7 −7 for the sabacc pot. (Named by their place from the dealer's left.)"""
    host.do("start_hand")
    first, second, third = (p["seat"] for p in host.state()["hand"]["players"])
    host.do("draw", seat=first, action="swap", card="+2")
    host.do("draw", seat=second, action="gain_keep_discard", card="-6")
    host.do("draw", seat=third, action="junk")
    host.do("bet", seat=first, amount=2)
    host.do("fold", seat=second)
    host.do("show", seat=first, cards=["+7", "-7"])
    return first, second, third


def _summary_rows(page: str) -> list[tuple[int, str, int, int, int, int]]:
    """(hand, seat, put in, took out, net, stack after) of each row of the summary's hands."""
    import re

    rows = []
    for no, table in re.findall(r'<table class="payouts summary-hand" data-hand="(\d+)">(.*?)</table>', page, re.S):
        for seat, put, took, net, after in re.findall(
                r'<tr data-seat="(s\d+)">.*?sum-put-in">(-?\d+)<.*?sum-took-out">(-?\d+)<'
                r'.*?sum-net">([+-]?\d+)<.*?<td class="num">(\d+)</td>', table, re.S):
            rows.append((int(no), seat, int(put), int(took), int(net), int(after)))
    return rows


def _reconciles(client, host, first_stack: int) -> list[tuple[int, str, int, int, int, int]]:
    """Every row of the summary page and of the CSV: took out − put in = net = the change of
    the stack over the hand."""
    page = client.get(f"/t/{host.code}/summary").get_data(as_text=True)
    rows = _summary_rows(page)
    assert rows
    before: dict[str, int] = {}
    for no, seat, put, took, net, after in rows:
        assert put >= 0 and took >= 0, (no, seat)
        assert took - put == net, (no, seat, put, took, net)
        assert after - before.get(seat, first_stack) == net, (no, seat)
        before[seat] = after
    text = client.get(f"/t/{host.code}/export.csv").get_data(as_text=True)
    for r in csv.DictReader(io.StringIO(text)):
        assert int(r["took_out"]) - int(r["put_in"]) == int(r["net"]), r
    return rows


def test_the_summary_put_in_and_took_out_reconcile_with_the_net_at_a_spike_table(client):
    host = _client_host(client, {"preset": "spike", "junk_penalty": 1}, stack=30)
    first, second, third = _spike_hand_with_fees_a_junk_and_a_shown_sabacc(host)
    rows = {seat: (put, took, net) for _, seat, put, took, net, _ in _reconciles(client, host, 30)}
    # The first: antes 1 + 2, the swap's fee 2 and the bet 2; takes the game pot (3 antes,
    # 2 + 1 fees, 1 + 1 penalties, the bet 2 = 10) and the sabacc pot (3 × 2 = 6).
    assert rows[first] == (7, 16, 9)
    assert rows[second] == (3 + 1 + 1, 0, -5)  # antes, the fee, the junk penalty
    assert rows[third] == (3 + 1, 0, -4)  # antes, the junk penalty in the turn phase
    # The hand's own record (the history, the phones) says the same net, the sabacc pot shown for included.
    assert host.state()["hands"][-1]["settlement"]["net"] == {first: 9, second: -5, third: -4}


def test_the_summary_put_in_and_took_out_reconcile_with_the_net_at_a_classic_table(client):
    host = _client_host(client, "classic", names=("Lando", "Han", "Chewie"), stack=50)
    host.classic_demise_hand()  # antes into both pots, a fold fee, a bomb-out penalty
    host.folded_hand("s2")
    rows = _reconciles(client, host, 50)
    bombed = [r for r in rows if r[0] == 1 and r[3] == 0 and r[2] > 2]
    assert bombed, rows  # the bombed-out caller put in the antes and the penalty


def test_the_rules_page_says_why_the_next_player_is_offered_their_move_in_a_folded_turn_players_call_window(client):
    """Issue 28 item 16: the offer of the next turn's moves while a folded turn player's call
    window is open is right (the third-round ruling); the rules page says why."""
    import html

    for preset in ("weg", "classic"):
        page = html.unescape(client.get(f"/rules?preset={preset}").get_data(as_text=True))
        assert "the next player is already offered the moves of their own turn" in page, preset
        assert "making one closes the window first" in page, preset
