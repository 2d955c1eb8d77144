"""Sabacc table companion: the rules engine, the live table, the scrambler and the web site."""

__version__ = "0.1.0"
