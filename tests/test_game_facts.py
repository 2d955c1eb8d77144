"""A game's facts in the views (docs/games.md "Facts"), through the HTTP API: what Kessel's,
Coruscant Shift's, classic's and Spike's views give the pages to show (the piles' tops, the
chips, the effects in force, a seat's own tokens; the target and the selection counts; the
static fields; the discard pile's top card), and that a seat's own facts reach no
other viewer: every other seat's view, the host's and a spectator's are read for them."""

from __future__ import annotations

import json

import pytest

from companion.games.coruscant.cards import target_words
from companion.games.kessel.tokens import TOKEN_BY_CODE
from conftest import ClientApi as Api


@pytest.fixture
def api(client):
    return Api(client)


class Table:
    """A table of three seats bought in (for `amount` where the game's buy-in is free): its
    code, the host's token, each seat's token."""

    def __init__(self, api: Api, rules, amount=None):
        self.api = api
        made = api.post("/api/v1/tables", {"rules": rules}, status=201)
        self.code, self.host = made["code"], made["host_token"]
        self.token: dict[str, str] = {}
        for name in ("Kay", "Lando", "Vel"):
            joined = api.post(f"/api/v1/tables/{self.code}/join", {"name": name}, status=201)
            self.token[joined["seat"]] = joined["token"]
            self.act(joined["seat"], {"type": "buy_in", **({"amount": amount} if amount else {})})

    def act(self, seat, body, status=200):
        token = self.host if seat == "host" else self.token[seat]
        return self.api.post(f"/api/v1/tables/{self.code}/commands", body, token, status)

    def view(self, seat=None):
        token = self.host if seat == "host" else self.token[seat] if seat else None
        return self.api.get(f"/api/v1/tables/{self.code}", token)["state"]


def facts(items):
    """`[fact, ...]` as {key: value} (every key once in these tests)."""
    out = {f["key"]: f["value"] for f in items}
    assert len(out) == len(items)
    return out


def test_kessel_facts_and_a_seats_tokens_seen_by_that_seat_only(api):
    t = Table(api, {"preset": "kessel", "chips": 6})
    t.act("host", {"type": "start_hand"})
    mine = {"s1": ["free_draw", "refund", "markdown"], "s2": ["embargo", "immunity", "general_tariff"],
            "s3": ["cook_the_books", "embezzlement", "general_audit"]}
    for sid, tokens in mine.items():
        t.act(sid, {"type": "choose_tokens", "tokens": tokens})
    # Each seat's own facts: its tokens, by name, in its own view.
    for sid, tokens in mine.items():
        assert facts(t.view(sid)["you"]["facts"]) == {"my_tokens": ", ".join(TOKEN_BY_CODE[c].name for c in tokens)}
    dealer = t.view()["hand"]["game"]["dealer"]
    t.act("host", {"type": "turn_up", "sand": "s4", "blood": "b6", "seat": dealer})
    table = facts(t.view()["hand"]["facts"]["table"])
    assert table["discards"] == "Sand 4 · Blood 6"
    # 22 of each family, less one dealt to each of the three players and the one turned up.
    assert table["draw_piles"] == "Sand 18 · Blood 18"
    # The last seat deals (no dealer set), the first starts: s1 plays Markdown (a judging
    # token, in force until the reveal), then draws from the sand draw pile and discards: a chip
    # leaves its stock for its invested pile (K9).
    starter = t.view()["hand"]["game"]["to_act"]
    assert starter == "s1"
    t.act(starter, {"type": "play_token", "token": "markdown"})
    t.act(starter, {"type": "draw_card", "pile": "sand_draw", "keep": False, "discard": "s2"})
    v = t.view()
    seats = v["hand"]["facts"]["seats"]
    assert facts(seats[starter]) == {"stock": 5, "invested": 1, "tokens": 2}
    assert all(facts(seats[o])["stock"] == 6 for o in mine if o != starter)
    table = facts(v["hand"]["facts"]["table"])
    assert (table["discards"], table["draw_piles"]) == ("Sand 2 · Blood 6", "Sand 17 · Blood 18")
    assert table["effect_markdown"].startswith("Markdown: a Sylop is 0")
    # The next seat plays Immunity, then draws the blood discard pile's top and puts it back:
    # no card entered.
    nxt = v["hand"]["game"]["to_act"]
    assert "immunity" in mine[nxt]
    t.act(nxt, {"type": "play_token", "token": "immunity"})
    name = {p["seat"]: p["name"] for p in t.view()["seats"]}[nxt]
    assert facts(t.view()["hand"]["facts"]["table"])["effect_immunity"] == f"Immunity: {name}"
    t.act(nxt, {"type": "draw_card", "pile": "blood_discard", "keep": False})
    v = t.view()
    assert facts(v["hand"]["facts"]["table"])["discards"] == "Sand 2 · Blood 6"
    assert facts(v["hand"]["facts"]["seats"][nxt]) == {"stock": 5, "invested": 1, "tokens": 2}
    assert facts(v["hand"]["facts"]["table"])["effect_markdown"]  # still in force, until the reveal

    # No other viewer reads a seat's unplayed tokens: their names appear nowhere in another
    # seat's view, the host's or a spectator's (the tokens' codes are also the keys of the
    # effects in force, so the names are what is looked for), and only a seat's own view has
    # its own facts.
    played = {p["token"] for p in v["hand"]["game"]["played"]}
    for sid, tokens in mine.items():
        secrets = [TOKEN_BY_CODE[c].name for c in tokens if c not in played]
        assert secrets
        for viewer in [*(o for o in mine if o != sid), "host", None]:
            seen = t.view(viewer)
            text = json.dumps(seen)
            assert [w for w in secrets if w in text] == [], f"{viewer or 'a spectator'} reads {sid}'s tokens"
            assert "you" not in seen or seen["you"]["seat"] == viewer


def test_coruscant_target_and_selection_counts(api):
    t = Table(api, {"preset": "coruscant-starcruiser"})
    t.act("host", {"type": "start_hand"})
    assert "target" not in facts(t.view()["hand"]["facts"]["table"])  # not rolled yet
    t.act("host", {"type": "roll", "dice": [4, 2]})
    v = t.view()
    target = v["hand"]["target"]
    table = v["hand"]["facts"]["table"]
    assert table[0] == {"key": "target", "words": "Target", "value": target_words(target["number"], target["suit"]),
                        "hint": "large"}
    t.act("s2", {"type": "select", "count": 3})
    seats = t.view()["hand"]["facts"]["seats"]
    assert seats["s2"] == [{"key": "selection", "words": "selection", "value": "3 cards", "hint": ""}]
    assert seats["s1"] == [] and seats["s3"] == []


def test_classic_static_fields_are_every_viewers_seat_facts(api):
    """The cards a player lays in the static field are public: every seat, the host and a
    spectator read them on that seat's facts, by the deck's names, until taken back."""
    t = Table(api, {"preset": "classic"}, amount=50)
    t.act("host", {"type": "start_hand"})
    t.act("s2", {"type": "static_add", "card": "sa7"})
    t.act("s2", {"type": "static_add", "card": "co1"})
    viewers = ["s1", "s2", "s3", "host", None]
    for viewer in viewers:
        seats = t.view(viewer)["hand"]["facts"]["seats"]
        assert seats == {"s2": [{"key": "static", "words": "static field", "value": "7 of Sabers, 1 of Coins", "hint": ""}]}
    t.act("s2", {"type": "static_remove", "card": "sa7"})
    t.act("s2", {"type": "static_remove", "card": "co1"})
    for viewer in viewers:
        assert t.view(viewer)["hand"]["facts"]["seats"] == {}  # an empty static field: nothing to read


def test_spike_discard_pile_top_is_a_table_fact(api):
    """Spike's face-up discard pile: before anyone enters the card turned up, the fact says it is
    still to be entered; once entered, every viewer reads it by the deck's name."""
    t = Table(api, {"preset": "spike"}, amount=50)
    t.act("host", {"type": "start_hand"})
    assert facts(t.view("s1")["hand"]["facts"]["table"]) == {"discard_top": "the top card is not entered yet"}
    t.act("host", {"type": "discard_top", "card": "-3"})
    for viewer in ("s1", "s2", "s3", "host", None):
        assert facts(t.view(viewer)["hand"]["facts"]["table"]) == {"discard_top": "\u22123"}
