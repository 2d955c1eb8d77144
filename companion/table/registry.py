"""All the tables of one server: their owners, their join codes, and the scrambler's table.

The registry opens the ledger in `DATA_DIR/tables.sqlite3`, loads every table on start, and
creates new ones with a fresh join code. `init_app(app)` attaches it to the Flask app;
other parts of the program find it with `registry_for(app)`::

    reg = registry_for(app)
    owner = reg.scrambler_table()   # the table the GPIO button / USB box rolls for
    if owner is not None:
        owner.submit({"type": "roll"}, actor="scrambler")
"""

from __future__ import annotations

import logging
import secrets
import threading
from pathlib import Path
from typing import Any, Callable

from flask import Flask, current_app

from companion.scrambler.dice import Roller, SoftwareRoller
from companion.table.ledger import Ledger
from companion.refusal import Refused
from companion.table.owner import SCRAMBLER, TableOwner

log = logging.getLogger(__name__)

#: Join-code letters: none that look like a digit or each other on a phone screen
#: (no B/8, G/6, I/1/L, O/0/Q, S/5, Z/2).
CODE_LETTERS = "ACDEFHJKMNPRTUVWXY"
CODE_LENGTH = 5  # 18**5 ≈ 1.9 million codes: plenty for one evening, short to type

LEDGER_FILE = "tables.sqlite3"
_SCRAMBLER_KEY = "scrambler_table"


def new_code() -> str:
    """A random join code such as "KMXTR"."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def normal_code(code: str) -> str | None:
    """`code` as stored (upper case), or None if it cannot be a join code."""
    code = code.strip().upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_LETTERS for c in code):
        return None
    return code


def _engine_table() -> type:
    from companion.table.engine import Table

    return Table


class Registry:
    """Every table of the server, each with its one `TableOwner`."""

    def __init__(
        self,
        data_dir: str | Path,
        table_class: type | None = None,
        roller_factory: Callable[[], Roller] = SoftwareRoller,
    ):
        self.ledger = Ledger(Path(data_dir) / LEDGER_FILE)
        self.table_class = table_class or _engine_table()
        # Pluggable: the scrambler can install a seeded, verifiable roller per table.
        self.roller_factory = roller_factory
        self._lock = threading.Lock()
        self._owners: dict[str, TableOwner] = {}
        for code in self.ledger.table_codes():
            try:
                self._owners[code] = TableOwner(code, self.ledger, self.table_class, roller_factory())
            except Exception:  # one broken table must not keep the others from opening
                log.exception("table %s could not be loaded", code)

    def create(self, settings: dict[str, Any]) -> tuple[TableOwner, str]:
        """Create a table from `settings`; returns its owner and the host token.
        Raises `Refused` (422) if the engine refuses the settings."""
        with self._lock:
            for _ in range(100):
                code = new_code()
                if code in self._owners:
                    continue
                try:
                    owner, host_token = TableOwner.create(
                        code, settings, self.ledger, self.table_class, self.roller_factory()
                    )
                except KeyError:
                    continue
                self._owners[code] = owner
                return owner, host_token
        raise Refused(503, "no free table code; try again", None)

    def get(self, code: str) -> TableOwner | None:
        """The owner of table `code` (any case), or None."""
        norm = normal_code(code) if isinstance(code, str) else None
        return self._owners.get(norm) if norm else None

    def owners(self) -> list[TableOwner]:
        """Every table's owner, oldest first."""
        return list(self._owners.values())

    # -- the scrambler's table ------------------------------------------------------------

    @property
    def scrambler_code(self) -> str | None:
        """The code of the table the scrambler (GPIO button, USB box) rolls for, or None."""
        code = self.ledger.get_meta(_SCRAMBLER_KEY)
        return code if code in self._owners else None

    def bind_scrambler(self, code: str | None) -> None:
        """Bind the scrambler to table `code` (None: to no table). Survives a restart."""
        if code is not None and code not in self._owners:
            raise Refused(404, f"there is no table {code}", "code")
        self.ledger.set_meta(_SCRAMBLER_KEY, code)

    def scrambler_table(self) -> TableOwner | None:
        """The owner of the table the scrambler is bound to; with a single table, that one."""
        code = self.scrambler_code
        if code is not None:
            return self._owners[code]
        owners = self.owners()
        return owners[0] if len(owners) == 1 else None

    def scrambler_submit(self, entry: dict[str, Any]):
        """Submit `entry` (e.g. `{"type": "roll"}`) as the scrambler to the table it is bound
        to: the `send` of the scrambler hub. Raises `Refused` (409) when it serves no table.

            Scrambler.from_settings(settings, send=registry.scrambler_submit).start()
        """
        owner = self.scrambler_table()
        if owner is None:
            raise Refused(409, "the scrambler is not bound to a table", None)
        return owner.submit(entry, SCRAMBLER)

    def close(self) -> None:
        """Tell every listener goodbye and close the ledger."""
        for owner in self.owners():
            owner.close()
        self.ledger.close()


def init_app(app: Flask) -> Registry:
    """Open the registry on `app.config["DATA_DIR"]` and attach it to `app`."""
    reg = Registry(
        app.config["DATA_DIR"],
        table_class=app.config.get("TABLE_CLASS"),
        roller_factory=app.config.get("ROLLER_FACTORY") or SoftwareRoller,
    )
    app.extensions["tables"] = reg
    return reg


def registry_for(app: Flask | None = None) -> Registry:
    """The registry of `app` (default: the current app)."""
    return (app or current_app).extensions["tables"]
