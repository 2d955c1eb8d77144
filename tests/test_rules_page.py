"""The rules page states each rule set's values, and every ruling a player could argue about.

The expected words below are this test's own reading of RULES.md (e.g. a `highest` ranking
must say "the higher total wins"); the numbers come from the RuleSet under test, so a preset
that changes, or an option set through `ruleset_from`, must change the page with it.
"""

from __future__ import annotations

import html
import re

import pytest
from flask import render_template_string

from companion.rules.explain import explain, section
from companion.rules.rulesets import (
    HAND_POT,
    PRESETS,
    AfterCall,
    AnteRule,
    Ranking,
    ShiftKind,
    StaticField,
    Trigger,
    ruleset_from,
)

RANKING = {
    Ranking.HIGHEST: "the higher total wins",
    Ranking.CLOSEST_POSITIVE: "at equal distance the positive total wins",
    Ranking.CLOSEST_NEGATIVE: "at equal distance the negative total wins",
}
SHIFT = {ShiftKind.CORE: "core shift", ShiftKind.RIM: "rim shift", ShiftKind.WILD: "wild shift"}
TRIGGER = {
    Trigger.TWO_D6_DOUBLES: "any double",
    Trigger.D6_LOW: "a 1, 2 or 3 causes a shift",
    Trigger.D6_HIGH: "a 4, 5 or 6 causes a shift",
}
STATIC = {
    StaticField.NONE: "no static field",
    StaticField.FREE: "as many as you like",
    StaticField.ONE_CHANGE_PER_TURN: "by one card",
    StaticField.ONE_IN_ONE_OUT_PLAY_ROUND: "play round only",
}


def page_sections(client, preset: str) -> dict[str, str]:
    """The rendered rules page as {section key: its visible text}."""
    resp = client.get(f"/rules?preset={preset}")
    assert resp.status_code == 200
    body = resp.get_data(as_text=True)
    out = {}
    for key, inner in re.findall(r'<section [^>]*data-section="([^"]+)"[^>]*>(.*?)</section>', body, re.S):
        text = html.unescape(re.sub(r"<[^>]+>", " ", inner))
        out[key] = re.sub(r"\s+", " ", text).strip()
    return out


def credits(n: int) -> str:
    return f"{n} credit" + ("" if n == 1 else "s")


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_page_states_the_values_of_each_preset(client, name):
    rs = PRESETS[name]
    s = page_sections(client, name)
    # Bet limit, ante and where it goes, fold fee, buy-in.
    if rs.bet_limit is None:
        assert "no limit" in s["money"]
    else:
        assert f"at most {credits(rs.bet_limit)}" in s["money"]
    assert f"puts {credits(rs.ante)} into the hand pot" in s["money"]
    only_when_empty = "only while the sabacc pot is empty" in s["money"]
    assert only_when_empty == (rs.ante_rule is AnteRule.SABACC_POT_WHEN_EMPTY)
    assert f"fold fee of {credits(rs.fold_fee)}" in s["money"]
    assert (f"Buy-in: {credits(rs.buy_in)}" in s["money"]) if rs.buy_in else ("Buy-in: free" in s["money"])
    # Ranking words, Pure Sabacc at -23, the Fairy Empress.
    assert RANKING[rs.ranking] in s["ranking"]
    assert ("exactly 23 or exactly -23" in s["hands"]) == rs.negative_pure
    assert ("Fairy Empress:" in s["hands"]) == rs.fairy_empress
    # The scrambler and the shift kind.
    assert TRIGGER[rs.scrambler_trigger] in s["shift"]
    assert SHIFT[rs.shift_kind] in s["shift"]
    assert STATIC[rs.static_field] in s["static-field"]
    protected = "protected from a shift" in s["shift"]
    assert protected == (rs.static_field is not StaticField.NONE)
    # Calling: when, by whom, what happens between the call and the reveal.
    rounds = rs.calling.rounds_before_call
    assert (f"from round {rounds + 1} on" if rounds > 1 else "one full round") in s["calling"]
    assert ("other than the one whose turn it is" in s["calling"]) == rs.calling.not_by_turn_player
    assert ("scrambler is rolled once more" in s["calling"]) == (AfterCall.ROLL in rs.calling.after_call)
    assert ("revealed at once" in s["calling"]) == (rs.calling.after_call == (AfterCall.REVEAL,))
    # Order of play: the deal, and the dealer's rolls.
    assert f"deals each player {rs.deal_size} cards" in s["order"]
    for phase in rs.dealer_rolls_after:
        assert f"At the end of each {phase.value}" in s["order"]
    assert ("Only the player whose turn it is may open the betting" in s["order"]) == rs.only_turn_player_opens
    # Penalty amount.
    if rs.bomb_out_penalty == HAND_POT:
        assert "size of the hand pot" in s["penalties"]
    else:
        assert f"a fixed {credits(rs.bomb_out_penalty)}" in s["penalties"]


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_page_states_every_ruling_a_player_could_argue_about(client, name):
    s = page_sections(client, name)
    everything = " ".join(s.values())
    rulings = {
        "deck": ["76 cards", "two copies", "The Star -17", "Knight", "more copies of a card than the deck has"],
        "hands": ["Idiot's Array: exactly three cards", "Bomb out: a total over 23, under -23, or exactly 0"],
        "settling": ["only players who put in at least that much and did not fold", "goes back to that player",
                     "If everyone else folded", "cannot win the sabacc pot", "moves to the sabacc pot"],
        "sudden-demise": ["one more card", "pays no bomb-out penalty", "seat order, starting from the dealer's left",
                          "never a second sudden demise", "other players that did not bomb out"],
        "sabacc-pot": ["never divided between side pots", "nobody wins the sabacc pot", "all of it"],
        "penalties": ["every player who bombed out at the reveal", "caller if the caller wins no share",
                      "more than one penalty", "stack plus what they receive", "shortfall"],
        "everyone-bombs-out": ["hand pot moves to the sabacc pot", "as it stood at the reveal"],
        "rulings": ["20 × 5 + 4 × 50 + 2 × 100 = 500", "20 × 10 + 8 × 50 + 4 × 100 = 1000", "uses two",
                    "78-card deck"],
        "money": ["all-in", "side pot", "junk pile"],
        "corners": ["only players who later folded reached", "goes back to that player even if they bombed out",
                    "one card, used for each", "even in a hand where no pot was contested",
                    "pays no penalty at the reveal"],
        "static-field": [],
        "shift": ["as many cards as before"],
    }
    for key, phrases in rulings.items():
        for phrase in phrases:
            assert phrase in s[key], f"{name}: section {key} does not say {phrase!r}"
    assert "Plutt" in everything


@pytest.mark.parametrize(
    ("options", "key", "before", "after"),
    [
        ({"bet_limit": 10}, "money", "at most 3 credits", "at most 10 credits"),
        ({"bet_limit": None}, "money", "at most 3 credits", "no limit"),
        ({"fold_fee": 2}, "money", "fold fee of 1 credit", "fold fee of 2 credits"),
        ({"ante": 5, "ante_rule": "both_pots"}, "money", "only while", "and 5 credits into the sabacc pot"),
        ({"bomb_out_penalty": 15}, "penalties", "size of the hand pot", "a fixed 15 credits"),
        ({"bomb_out_penalty": 15}, "everyone-bombs-out", "as it stood at the reveal", "the fixed 15 credits"),
        ({"ranking": "closest-negative"}, "ranking", "the higher total wins", "the negative total wins"),
        ({"negative_pure": True}, "hands", "-23 is an ordinary hand", "exactly 23 or exactly -23"),
        ({"fairy_empress": True}, "hands", "There is no Fairy Empress", "Fairy Empress: exactly two cards"),
        ({"fairy_empress": True}, "hands", None, "the Fairy Empress beats it"),
        ({"fairy_empress": True, "ranking": "closest-positive"}, "hands", None, "ordinary -23 is 23 from zero"),
        ({"shift_kind": "wild"}, "shift", "rim shift", "wild shift"),
        ({"shift_kind": "by-symbol"}, "shift", "Every shift is a rim shift", "1 or 2 a core shift"),
        ({"scrambler_trigger": "d20", "trigger_face": 7}, "shift", "1, 2 or 3", "the shifting face is 7"),
        ({"scrambler_trigger": "timer", "timer_mean_s": 90}, "shift", "one six-sided die", "on average every 90 seconds"),
        ({"static_field": "free"}, "static-field", "no static field", "as many as you like"),
        ({"pot_building_rounds": 3}, "calling", "one full round", "from round 4 on"),
        ({"holdem": True}, "static-field", None, "community card"),
        ({"holdem": True}, "variants", "No variants are in play", "Hold 'Em"),
        ({"force_sabacc": True}, "hands", None, "declares Light"),
        ({"force_sabacc": True}, "ranking", None, "judged totals"),
        ({"corellia_run": True}, "hands", "Pure Sabacc: a total", "The target is 0"),
        ({"house_dealer": True}, "order", "The deal moves", "House dealer"),
        ({"bet_limit": 10}, "variants", None, "Options changed from the preset: bet limit"),
    ],
)
def test_changing_an_option_changes_the_rules_text(options, key, before, after):
    old = section(explain(PRESETS["weg"]), key).text()
    new = section(explain(ruleset_from({"preset": "weg", **options})), key).text()
    if before is not None:
        assert before in old and before not in new
    assert after in new and after not in old


def test_rules_partial_renders_a_tables_own_rule_set(app):
    # A live table's rules page passes its RuleSet (not a preset name) to the same macro.
    rs = ruleset_from({"preset": "holodex", "bet_limit": 25, "bomb_out_penalty": 40})
    source = '{% from "partials/rules.html" import rules_sections %}{{ rules_sections(rs, 3) }}'
    with app.test_request_context("/"):
        out = render_template_string(source, rs=rs)
    assert "at most 25 credits" in out
    assert "a fixed 40 credits" in out
    assert '<h3 id="rule-penalties-h">' in out
    assert out.count("<section") == len(explain(rs))
