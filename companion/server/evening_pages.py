"""The evening's record: the export of a session (a CSV of every hand, and a printable summary
page with the final standings, the chips each player hands back and which game each hand was).

- `GET /t/<code>/export.csv`: one row per player per settled hand: the game, the dealer, what
  the player committed to the hand pot, the payout, what they put in and took out (antes to
  both pots, bets, fees and penalties: `outcome.money`, so took_out − put_in = net), the net,
  the stack after the hand, and why the hand won or lost. The sums of `net` per player and the `stack_after` of the last hand agree with the
  ledger (the whole-evening test reads it back).
- `GET /t/<code>/summary`: the printable summary page.

Both read only what is public (settled hands are face up; nothing hidden is in a history row).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Blueprint, Response, render_template

from companion.server.host_pages import owner_or_404, sabacc_pot_seen, seat_names, standings_and_note
from companion.table.outcome import game_runs, money

bp = Blueprint("evening_pages", __name__)

#: The export's columns, in order.
CSV_COLUMNS = ("hand", "game", "dealer", "seat", "name", "committed", "payout", "put_in", "took_out",
               "net", "stack_after", "sabacc_pot_after", "status", "why")


def hand_rows(session: dict[str, Any], folded: str = "folded") -> list[dict[str, Any]]:
    """One row per player per settled hand (the CSV's rows; the summary groups them); a player
    who dropped out is `folded` in the words of the table's game (its `words.folded`)."""
    names = seat_names(session)
    after = {row["hand"]: row for row in session["stack_history"]}
    out = []
    for h in session["hands"]:
        s = h.get("settlement") or {}
        committed, payouts = s.get("committed") or {}, h.get("payouts") or {}
        why = {x["name"]: x.get("why", "") for x in s.get("hands") or []}
        if s.get("status") == "conceded":
            why = {sid: f"everyone else {folded}" if sid == s.get("winner") else folded for sid in h["players"]}
        stacks = after.get(h["hand"], {})
        for sid in h["players"]:
            # Put in, took out and the net: one reckoning (outcome.money), so they reconcile.
            cash = money({**s, "payouts": payouts}, sid) if s else {"put_in": "", "took_out": "", "net": ""}
            out.append({
                "hand": h["hand"], "game": h.get("game", ""), "dealer": names.get(h["dealer"], "the house"),
                "seat": sid, "name": names.get(sid, sid),
                "committed": committed.get(sid, ""), "payout": payouts.get(sid, ""),
                "put_in": cash["put_in"], "took_out": cash["took_out"], "net": cash["net"], "stack_after": stacks.get("stacks", {}).get(sid, ""),
                "sabacc_pot_after": stacks.get("sabacc_pot", ""), "status": h.get("status") or "",
                "why": why.get(sid, ""),
            })
    return out


def _csv_cell(v: Any) -> Any:
    """A cell that a spreadsheet will not run as a formula (a name typed as "=1+1")."""
    return "'" + v if isinstance(v, str) and v[:1] in ("=", "+", "-", "@") else v


@bp.get("/t/<code>/export.csv")
def export_csv(code: str):
    """Every settled hand of the session, one row per player, as CSV."""
    owner = owner_or_404(code)
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    w.writeheader()
    for row in hand_rows(owner.table.session(), owner.table.rules.words.folded):
        w.writerow({k: _csv_cell(v) for k, v in row.items()})
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="sabacc-{owner.code}.csv"'})


@bp.get("/t/<code>/summary")
def summary(code: str):
    """The session on one printable page: final standings, the games, every hand."""
    owner = owner_or_404(code)
    session = owner.table.session()
    rows = hand_rows(session, owner.table.rules.words.folded)
    hands: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        hands.setdefault(r["hand"], []).append(r)
    rows, note = standings_and_note(session)
    return render_template("host/summary.html", code=owner.code, session=session,
                           standings=rows, odd_credits=note, sabacc_pot=sabacc_pot_seen(session),
                           runs=game_runs(session), hands=hands)
