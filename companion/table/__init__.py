"""The live table: the hand engine (`engine`), chips (`chips`), and the server's ledger, owner
and registry of tables."""
