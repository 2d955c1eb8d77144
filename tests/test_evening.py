"""Issue 18's evening, through the API: dealer's choice between hands and the cash-out, and the
export read back and checked against the ledger (the table rebuilt from its entries)."""

from __future__ import annotations

import csv
import io

from companion.table.engine import Table
from companion.table.registry import registry_for
from evening_script import Host


def client_post(client):
    """`post(path, body, token)` for evening_script.Host over Flask's test client."""
    def post(path, body, token):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = client.post(path, json=body, headers=headers) if body is not None else client.get(path, headers=headers)
        return r.status_code, r.get_json()
    return post


def replayed(app, code: str) -> Table:
    """The table as its ledger says: snapshot 0 and every entry that stands, applied again."""
    owner = registry_for(app).get(code)
    first = owner.ledger.snapshot(code, before=1)
    table = Table.from_json(first.state)
    for e in owner.ledger.entries(code, after=first.seq):
        if e.applies:
            table.apply(dict(e.body), e.actor)
    return table


def play_evening(host: Host) -> None:
    """Three hands of weg, the switch to classic, two more hands (one a sudden demise), the
    cash-out with the sabacc pot split."""
    for bettor in ("s2", "s3", "s1"):
        host.folded_hand(bettor)
    host.do("change_rules", rules="classic")
    host.classic_demise_hand()
    host.folded_hand("s2")
    host.do("end_session", sabacc_pot="split")


def test_whole_evening_export_is_checked_against_the_ledger(app, client):
    host = Host(client_post(client), "weg")
    play_evening(host)
    table = replayed(app, host.code)
    session = table.session()
    assert [h["game"] for h in session["hands"]] == ["West End Games (1989)"] * 3 + ["Classic Sabacc v1.01"] * 2
    assert session["ended"] and session["sabacc_pot"] == 0

    got = client.get(f"/t/{host.code}/export.csv")
    assert got.status_code == 200 and got.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(got.get_data(as_text=True))))
    assert len(rows) == 5 * 3  # every hand, every player
    after = {r["hand"]: r for r in session["stack_history"]}
    for r in rows:
        hand = next(h for h in session["hands"] if h["hand"] == int(r["hand"]))
        assert r["game"] == hand["game"]
        assert int(r["payout"]) == hand["payouts"][r["seat"]]
        assert int(r["stack_after"]) == after[int(r["hand"])]["stacks"][r["seat"]]
        assert int(r["sabacc_pot_after"]) == after[int(r["hand"])]["sabacc_pot"]
    standings = {x["seat"]: x for x in session["standings"]}
    for sid, x in standings.items():
        nets = sum(int(r["net"]) for r in rows if r["seat"] == sid)
        # every hand's net, the buy-in and the share of the sabacc pot make the final stack
        assert x["bought_in"] + nets + x["sabacc_share"] == x["stack"], sid
    assert sum(x["sabacc_share"] for x in standings.values()) == after[5]["sabacc_pot"]
    assert sum(x["stack"] for x in standings.values()) == 3 * 50  # nothing left unowned
    demise = [r for r in rows if r["hand"] == "4" and "sudden demise" in r["why"]]
    assert len(demise) == 2 and any("27, bombed out" in r["why"] for r in demise)

    page = client.get(f"/t/{host.code}/summary").get_data(as_text=True)
    assert "Final standings" in page and "Hands 1–3: West End Games (1989)" in page
    assert "Hands 4–5: Classic Sabacc v1.01" in page


def test_the_cash_out_can_carry_the_sabacc_pot_to_the_next_table(client):
    host = Host(client_post(client), "weg", names=("Lando", "Han"))
    host.folded_hand("s2")
    host.do("end_session", sabacc_pot="carry")
    state = host.state()
    assert state["carried_sabacc_pot"] == 3 and state["sabacc_pot"] == 0
    nxt = client.post("/api/v1/tables", json={"rules": "weg", "sabacc_pot": 3}).get_json()
    assert nxt["state"]["sabacc_pot"] == 3
    bad = client.post("/api/v1/tables", json={"rules": "weg", "sabacc_pot": -1})
    assert bad.status_code == 422 and bad.get_json()["field"] == "sabacc_pot"


def test_a_spreadsheet_formula_in_a_name_is_not_run_from_the_export(client):
    host = Host(client_post(client), "weg", names=("=1+1", "Han"))
    host.folded_hand("s2")
    text = client.get(f"/t/{host.code}/export.csv").get_data(as_text=True)
    assert "'=1+1" in text and "\n=1+1" not in text and ",=1+1" not in text
