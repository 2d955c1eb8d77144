"""The rules engine: the deck, rule sets as data, hand evaluation and settlement."""
