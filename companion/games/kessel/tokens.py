"""Kessel Sabacc's 16 shift tokens as data (RULES-KESSEL.md K28–K36).

Each token says what a player enters when playing it, what the companion does (in words, for
the rules page, the reference card and the log), how long it lasts, and the flags the table
checks: a target (K30), a target who must be in stand, whether Immunity protects from it (K32)
and whether it changes how hands are judged (K33)::

    >>> len(TOKENS), TOKEN_BY_CODE["target_audit"].amount, TOKEN_BY_CODE["target_audit"].target_in_stand
    (16, 3, True)
    >>> [t.code for t in TOKENS if t.judging]
    ['major_fraud', 'cook_the_books', 'markdown', 'prime_sabacc']
"""

from __future__ import annotations

from dataclasses import dataclass

#: How long a token's effect lasts, in the rules' words.
THIS_TURN, AT_ONCE, UNTIL_REVEAL, NEXT_ACTION = "this turn", "at once", "until the reveal", "their next action"
#: How many tokens each player holds for the whole game (K28).
TOKENS_EACH = 3


@dataclass(frozen=True)
class Token:
    """One shift token (K35)."""

    code: str  # its code in the API ("general_tariff")
    name: str  # its name (Wookieepedia's)
    does: str  # what the companion does, in words
    lasts: str
    entered: str = ""  # what the player enters when playing it ("" nothing, "target", "value", ...)
    target: bool = False  # aimed at a chosen player (K30)
    target_in_stand: bool = False  # the target must be in stand (Target Audit)
    protected: bool = False  # Immunity protects other players from it (K32)
    judging: bool = False  # changes how hands are judged; lasts until the reveal (K33)
    amount: int = 0  # the chips it moves or makes a player pay
    who_pays: str = ""  # "target", "others", "others_in_stand": who pays `amount` (K31)


#: The 16 tokens, in the rules' order (K35).
TOKENS: tuple[Token, ...] = (
    Token("free_draw", "Free Draw", "this turn's draw costs nothing; a player with no stock may draw", THIS_TURN),
    Token("refund", "Refund", "moves 2 chips from the player's invested pile to their stock (fewer if fewer "
          "are invested)", AT_ONCE, amount=2),
    Token("extra_refund", "Extra Refund", "moves 3 chips from the player's invested pile to their stock "
          "(fewer if fewer are invested)", AT_ONCE, amount=3),
    Token("embezzlement", "Embezzlement", "from every other player with at least 1 chip invested, 1 chip "
          "from their invested pile into the player's invested pile", AT_ONCE, protected=True, amount=1),
    Token("major_fraud", "Major Fraud", "Impostors are 6, and no dice are rolled for them", UNTIL_REVEAL,
          judging=True),
    Token("cook_the_books", "Cook the Books", "reverses the order of Sabaccs (6 best, 1 worst); Pure Sabacc "
          "stays first; other hands are unchanged", UNTIL_REVEAL, judging=True),
    Token("markdown", "Markdown", "a Sylop is 0 instead of copying; two Sylops are still Pure Sabacc",
          UNTIL_REVEAL, judging=True),
    Token("prime_sabacc", "Prime Sabacc", "the scrambler rolls two dice and the player chooses one value; any "
          "Sabacc of that value ranks just under Pure Sabacc", UNTIL_REVEAL, entered="value", judging=True),
    Token("general_tariff", "General Tariff", "every other player pays 1", AT_ONCE, protected=True, amount=1,
          who_pays="others"),
    Token("target_tariff", "Target Tariff", "the target pays 2", AT_ONCE, entered="target", target=True,
          protected=True, amount=2, who_pays="target"),
    Token("general_audit", "General Audit", "every other player in stand pays 2", AT_ONCE, protected=True,
          amount=2, who_pays="others_in_stand"),
    Token("target_audit", "Target Audit", "the target, who must be in stand, pays 3", AT_ONCE, entered="target",
          target=True, target_in_stand=True, protected=True, amount=3, who_pays="target"),
    Token("embargo", "Embargo", "the next player to act this round must stand; they may still play a token "
          "first", NEXT_ACTION, protected=True),
    Token("immunity", "Immunity", "until the reveal, no other player's token takes this player's chips, "
          "forces them to stand or touches their cards", UNTIL_REVEAL),
    Token("exhaustion", "Exhaustion", "the target puts both cards face up on the discard piles and draws "
          "the top card of each draw pile, free", AT_ONCE, entered="target, then the two cards they discard",
          target=True, protected=True),
    Token("direct_transaction", "Direct Transaction", "the player and the target swap their two cards, face "
          "down", AT_ONCE, entered="target", target=True, protected=True),
)
TOKEN_BY_CODE: dict[str, Token] = {t.code: t for t in TOKENS}
#: The effects that last until the reveal and change the judging, by their token's code.
JUDGING = tuple(t.code for t in TOKENS if t.judging)
