"""Hands of a whole evening, played through the table API as the host acting for each seat
(shared by tests/test_evening.py and the browser tests of issue 18).

`Host(post)` wraps a `post(path, body, token) -> (status, body)` function (Flask's test client
or urllib against a live server). Seats: s1 Lando, s2 Han, s3 Chewie (join order)."""

from __future__ import annotations

from typing import Any, Callable

Post = Callable[[str, dict[str, Any] | None, str | None], tuple[int, dict[str, Any]]]


class Host:
    """A table made and run by the host through the API."""

    def __init__(self, post: Post, rules: Any, names: tuple[str, ...] = ("Lando", "Han", "Chewie"),
                 stack: int = 50, **settings: Any):
        self.post = post
        status, body = post("/api/v1/tables", {"rules": rules, **settings}, None)
        assert status == 201, body
        self.code, self.token = body["code"], body["host_token"]
        self.seats: dict[str, dict[str, str]] = {}
        for name in names:
            status, body = post(f"/api/v1/tables/{self.code}/join", {"name": name}, None)
            assert status == 201, body
            self.seats[body["seat"]] = {"name": name, "token": body["token"]}
        for sid in self.seats:
            self.do("buy_in", seat=sid, amount=stack)

    def do(self, typ: str, **fields: Any) -> dict[str, Any]:
        """One command as the host (for a seat when `seat` is given); must be accepted."""
        status, body = self.post(f"/api/v1/tables/{self.code}/commands", {"type": typ, **fields}, self.token)
        assert status == 200, (typ, fields, body)
        return body

    def state(self) -> dict[str, Any]:
        status, body = self.post(f"/api/v1/tables/{self.code}", None, self.token)
        assert status == 200, body
        return body["state"]

    def folded_hand(self, bettor: str, amount: int = 2) -> None:
        """A hand everyone but `bettor` folds: it bets, the others fold in turn."""
        self.do("start_hand")
        h = self.state()["hand"]
        while h and h["stage"] != "settled":
            to_act = h["to_act"]
            if to_act == bettor and h["current_bet"] == 0:
                self.do("bet", seat=bettor, amount=amount)
            elif to_act is not None and to_act != bettor:
                self.do("fold", seat=to_act)
            else:  # the bettor's own turn with a bet standing: the others fold out of turn
                other = next(p["seat"] for p in h["players"] if p["seat"] != bettor and not p["folded"])
                self.do("fold", seat=other)
            h = self.state()["hand"]

    def classic_demise_hand(self) -> None:
        """classic, two players (Lando s1 deals; Han s2 first): both check and stand, Lando
        calls; 19 against 19 goes to a sudden demise: Lando's 2 of Sabers makes 21, Han's 8 of
        Coins makes 27 (bombed out). The host enters the dice (1, 2: no shift)."""
        roll = {"dice": [1, 2]}
        self.do("start_hand")
        h = self.state()["hand"]
        first, second = h["players"][0]["seat"], h["players"][1]["seat"]
        for extra_player in h["players"][2:]:  # the others fold at once: a hand of two
            self.do("fold", seat=extra_player["seat"])
        for typ, seat, extra in [("check", first, {}), ("roll", None, roll), ("draw", first, {"action": "stand"}),
                                 ("check", second, {}), ("roll", None, roll), ("draw", second, {"action": "stand"}),
                                 ("check", first, {}), ("roll", None, roll), ("call_hand", second, {}),
                                 ("reveal", second, {"cards": ["co10", "sa9"]}),
                                 ("reveal", first, {"cards": ["fl10", "st9"]}),
                                 ("demise_card", second, {"card": "sa2"}),
                                 ("demise_card", first, {"card": "co8"})]:
            self.do(typ, **extra, **({"seat": seat} if seat else {}))
