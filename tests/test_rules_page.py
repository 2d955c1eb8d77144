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

from companion.games.classic.explain import explain, section
from companion.games.classic.presets import PRESETS
from companion.games.classic.options import AfterCall, Ranking, StaticField
from companion.rules.rulesets import HAND_POT, AnteRule, ShiftKind, Trigger, ruleset_from

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
    assert RANKING[rs.game_options.ranking] in s["ranking"]
    assert ("exactly 23 or exactly -23" in s["hands"]) == rs.game_options.negative_pure
    assert ("Fairy Empress:" in s["hands"]) == rs.game_options.fairy_empress
    # The scrambler and the shift kind.
    assert TRIGGER[rs.scrambler_trigger] in s["shift"]
    assert SHIFT[rs.shift_kind] in s["shift"]
    assert STATIC[rs.game_options.static_field] in s["static-field"]
    protected = "protected from a shift" in s["shift"]
    assert protected == (rs.game_options.static_field is not StaticField.NONE)
    # Calling: when, by whom, what happens between the call and the reveal.
    rounds = rs.game_options.calling.rounds_before_call
    assert (f"from round {rounds + 1} on" if rounds > 1 else "one full round") in s["calling"]
    assert ("other than the one whose turn it is" in s["calling"]) == rs.game_options.calling.not_by_turn_player
    assert ("scrambler is rolled once more" in s["calling"]) == (AfterCall.ROLL in rs.game_options.calling.after_call)
    assert ("revealed at once" in s["calling"]) == (rs.game_options.calling.after_call == (AfterCall.REVEAL,))
    # Order of play: the deal, and the dealer's rolls.
    assert f"deals each player {rs.deal_size} cards" in s["order"]
    for phase in rs.dealer_rolls_after:
        assert f"At the end of each {phase.value}" in s["order"]
    assert ("Only the player whose turn it is may open the betting" in s["order"]) == rs.game_options.only_turn_player_opens
    # Penalty amount.
    if rs.game_options.bomb_out_penalty == HAND_POT:
        assert "size of the hand pot" in s["penalties"]
    else:
        assert f"a fixed {credits(rs.game_options.bomb_out_penalty)}" in s["penalties"]


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


# -- issue 14 item 5: every ruling of RULES.md that applies, for every preset and option ---------

def _turns(rs):
    return rs.game_options.calling.not_by_turn_player  # weg/classic: the call window of a turn


def _bets_on_after_call(rs):
    return rs.game_options.calling.phase.value == "betting" and AfterCall.FINISH_PHASE in rs.game_options.calling.after_call


def _rim(rs):
    return rs.shift_kind in (ShiftKind.RIM, ShiftKind.BY_SYMBOL)


#: This test's own reading of RULES.md's rulings (both "Rulings added ..." sections and the
#: rulings on the texts): (the ruling, whether it applies to a rule set, words the page must say).
RULINGS = [
    ("levels only folded players reached go to the sabacc pot", lambda rs: True,
     "only players who later folded reached"),
    ("the sabacc pot goes to the best hand on the table", lambda rs: True, "best hand on the table"),
    ("a player who committed nothing plays for the level-0 main pot", lambda rs: True,
     "put nothing in plays for the empty main pot"),
    ("a penalty of 0 is not listed", lambda rs: True, "A penalty of 0 credits is not listed"),
    ("a penalty the cap reduces to 0 is listed with its shortfall", lambda rs: True,
     "one the cap reduces to 0 is listed with its shortfall"),
    ("the caller cannot fold", lambda rs: True, "The caller cannot fold"),
    ("where betting goes on after a call the caller bets like anyone", _bets_on_after_call,
     "the caller checks, calls, raises or goes all-in like anyone else"),
    ("folding until the turn's roll", lambda rs: rs.game_options.fold_until_roll, "until that turn's roll"),
    ("an all-in player cannot fold, offered or sent by hand", lambda rs: True,
     "all-in has nothing to fold for and cannot fold, whether the button is offered or the "
     "command is sent by hand"),
    ("the draw closes the call window", _turns, "the draw itself closes it"),
    ("a folded turn player still rolls", _turns, "folded in their own turn still rolls"),
    ("a folded turn player's window closes as soon as the next player acts", _turns,
     "closes as soon as the next player acts (or on a tap from them or the host)"),
    ("any other player may call while it is open", _turns, "may call while it is open"),
    ("pagat's call window is open to everyone still in the hand",
     lambda rs: rs.game_options.calling.phase.value == "betting",
     "call window open to every player still in the hand, all-in players included"),
    ("static field timing", lambda rs: rs.game_options.static_field is StaticField.FREE,
     "in your turn or out of it, until the hand is called"),
    ("static field timing", lambda rs: rs.game_options.static_field is StaticField.ONE_CHANGE_PER_TURN,
     "until the next player acts or the dice phase begins"),
    ("static field timing", lambda rs: rs.game_options.static_field is StaticField.ONE_IN_ONE_OUT_PLAY_ROUND,
     "also after your draw, until your roll"),
    ("Corellia Run's set-aside cards are refused everywhere", lambda rs: rs.game_options.corellia_run,
     "refused wherever a card is entered: the static field, the reveal and the sudden demise"),
    ("Corellia Run's deck holds 62", lambda rs: rs.game_options.corellia_run, "the deck holds 62 cards"),
    ("the rim shift's picker", _rim, "the nearest player to their right who is still in the hand"),
    ("Force Sabacc's side is declared once", lambda rs: rs.game_options.force_sabacc,
     "declares their side once, when they first sit down, before their first hand"),
    ("the host corrects a side only before the first hand", lambda rs: rs.game_options.force_sabacc,
     "the host may correct it before that first hand"),
    ("a stake counts toward the bet", lambda rs: True,
     "counts toward the player's bet in the current betting round"),
    ("a stake is a bet, call or raise in the player's turn", lambda rs: True,
     "a bet, call or raise of its value, made in the player's own turn to bet"),
    ("the bet limit and the order of betting apply to a stake", lambda rs: True,
     "apply to it exactly as to credits; a stake that would break them is refused"),
    ("2d6-spike shifts only on a double 1", lambda rs: rs.scrambler_trigger is Trigger.TWO_D6_ONE_FACE,
     "only a double 1 shifts"),
    ("d10/d12/d20 shift on the highest face",
     lambda rs: rs.scrambler_trigger in (Trigger.D10, Trigger.D12, Trigger.D20) and not rs.trigger_face,
     "the shifting face is the die's highest"),
    ("Holodex chip sets add up to the buy-in", lambda rs: rs.buy_in in (500, 1000),
     lambda rs: f"= {rs.buy_in}."),
    ("undo after the seed is revealed", lambda rs: True,
     "that hand's play can no longer be undone, and corrections after that are adjustments"),
    ("an undone roll comes back identical", lambda rs: True,
     "a roll that is undone comes back identical when the dice are rolled again"),
    ("the n-th roll is the seed's n-th roll", lambda rs: True,
     "the n-th roll of a hand that stands is always the seed's n-th roll"),
    ("001's chip table", lambda rs: True, "20 × 5 + 4 × 50 + 2 × 100 = 500"),
    ("001's rounds before a call", lambda rs: True, "uses two"),
    ("the 78-card deck is a proposal", lambda rs: True, "78-card deck"),
    ("the end of a session splits or carries the sabacc pot", lambda rs: True,
     "split equally among the players still seated, odd credits one each from the dealer's left"),
]
OPTION_SETS = [{}, {"force_sabacc": True}, {"corellia_run": True}, {"holdem": True},
               {"shift_kind": "rim"}, {"shift_kind": "by-symbol"}, {"bet_limit": 4},
               {"scrambler_trigger": "2d6-spike"}, {"scrambler_trigger": "d12"},
               {"house_dealer": True, "bomb_out_penalty": 5}]


def rendered_text(app, rs) -> str:
    """A table's own rules page for `rs` (the same macro as /rules), as its visible text."""
    source = '{% from "partials/rules.html" import rules_sections %}{{ rules_sections(rs, 3) }}'
    with app.test_request_context("/"):
        out = render_template_string(source, rs=rs)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", out)))


@pytest.mark.parametrize("name", list(PRESETS))
def test_item5_every_ruling_of_rules_md_is_on_the_page_for_every_preset(app, client, name):
    pages = {"/rules": " ".join(page_sections(client, name).values())}
    for options in OPTION_SETS:
        rs = ruleset_from({"preset": name, **options})
        pages[repr(options)] = rendered_text(app, rs)
        for ruling, applies, words in RULINGS:
            if applies(rs):
                words = words(rs) if callable(words) else words
                assert words in pages[repr(options)], f"{name} {options}: {ruling!r} not on the page"
                if options == {}:
                    assert words in pages["/rules"], f"/rules?preset={name}: {ruling!r}"
