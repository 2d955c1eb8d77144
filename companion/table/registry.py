"""All the tables of one server: their owners, their join codes, and the scrambler's table.

The registry opens the ledger in `DATA_DIR/tables.sqlite3`, loads every table on start, and
creates new ones with a fresh join code. A table that cannot be loaded, or a ledger file that
is not a database any more, does not stop the others: it is listed in `damaged` (and the
damaged file moved to `DATA_DIR/damaged/`), see docs/DATA-SAFETY.md. Binding the physical
scrambler needs the server's owner token (`DATA_DIR/owner-token`, printed by `serve`) or the
host token of the table the scrambler serves now. `init_app(app)` attaches it to the Flask app;
other parts of the program find it with `registry_for(app)`::

    reg = registry_for(app)
    owner = reg.scrambler_table()   # the table the GPIO button / USB box rolls for
    if owner is not None:
        owner.submit({"type": "roll"}, actor="scrambler")
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from flask import Flask, current_app

from companion.scrambler.dice import Roller, SoftwareRoller
from companion.table.ledger import Ledger, is_damaged
from companion.refusal import Refused
from companion.table.owner import HOST, SCRAMBLER, TableOwner, token_hash

if TYPE_CHECKING:  # for the annotations only: the engine is imported where a table is made
    from companion.table.engine import Table

log = logging.getLogger(__name__)

#: Join-code letters: none that look like a digit or each other on a phone screen
#: (no B/8, G/6, I/1/L, O/0/Q, S/5, Z/2).
CODE_LETTERS = "ACDEFHJKMNPRTUVWXY"
CODE_LENGTH = 5  # 18**5 ≈ 1.9 million codes: plenty for one evening, short to type

LEDGER_FILE = "tables.sqlite3"
OWNER_TOKEN_FILE = "owner-token"
DAMAGED_DIR = "damaged"
#: The table the scrambler is bound to (only ever set with the owner token's authority).
_SCRAMBLER_KEY = "scrambler_bound"
#: Where earlier versions kept it, also when the first table took it by being first: dropped on
#: start, so that a guest's table never keeps the scrambler after a restart.
_OLD_SCRAMBLER_KEY = "scrambler_table"
#: Per table: who made it (the client's address) and whether with the owner token.
_ORIGIN_KEY = "table_origin:"
#: The party of the owner's tables (`Registry.party`).
OWNER_PARTY = "owner"

#: Tables one server keeps at most (docs/DATA-SAFETY.md): an evening needs a handful; each open
#: table costs memory and start-up time, so a flood of creations is refused beyond this.
MAX_TABLES = 200


class DataFolderError(Exception):
    """The data folder cannot be used (missing and not creatable, read-only): the message
    says which folder and why, for `serve` to print instead of a traceback."""


LOCK_FILE = "LOCK"


def hold_data_folder(data_dir: str | Path):
    """Make sure `data_dir` exists and is writable, and lock it for this server's whole life:
    returns the open LOCK file (keep it; closing it, or the process dying even by kill -9,
    releases the lock). Raises `DataFolderError` saying why in words: the folder cannot be
    made or written, or another server holds it (two servers on one folder would each serve
    its own stale copy of the tables)."""
    import fcntl

    folder = Path(data_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataFolderError(
            f"the data folder {folder} does not exist and cannot be created "
            f"({exc.strerror or exc}); give serve a folder it can write with --data") from None
    path = folder / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise DataFolderError(
            f"the data folder {folder} cannot be written ({exc.strerror or exc}): it is read-only "
            "or not yours; give serve a folder it can write with --data") from None
    lock = os.fdopen(fd, "r+", encoding="ascii")
    try:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = lock.read().strip() or "unknown"
        lock.close()
        raise DataFolderError(
            f"another sabacc-companion serve (process {holder}) is already using the data folder "
            f"{folder}; two servers on one folder would serve stale tables to each other. Stop "
            "it first, or give this one another folder with --data") from None
    try:
        lock.truncate(0)
        lock.write(f"{os.getpid()}\n")
        lock.flush()
    except OSError as exc:
        lock.close()
        raise DataFolderError(f"the data folder {folder} cannot be written ({exc.strerror or exc})") from None
    return lock


def owner_token(data_dir: str | Path) -> str:
    """The server's owner token, kept in `DATA_DIR/owner-token` (mode 0600; made on first use).
    Whoever started `serve` reads it in the terminal; it binds the physical scrambler."""
    path = Path(data_dir) / OWNER_TOKEN_FILE
    try:
        text = path.read_text(encoding="ascii").strip()
        if len(text) >= 20:
            return text
    except (OSError, UnicodeError):
        pass
    token = secrets.token_urlsafe(24)
    tmp = path.with_name(f".{OWNER_TOKEN_FILE}.{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(token + "\n")
    os.replace(tmp, path)
    return token


def new_code() -> str:
    """A random join code such as "KMXTR"."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def normal_code(code: str) -> str | None:
    """`code` as stored (upper case), or None if it cannot be a join code."""
    code = code.strip().upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_LETTERS for c in code):
        return None
    return code


def _engine_table() -> type[Table]:
    from companion.table.engine import Table

    return Table


class Registry:
    """Every table of the server, each with its one `TableOwner`."""

    def __init__(
        self,
        data_dir: str | Path,
        table_class: type[Table] | None = None,
        roller_factory: Callable[[], Roller] = SoftwareRoller,
    ):
        self.data_dir = Path(data_dir)
        self.table_class = table_class or _engine_table()
        # Pluggable: the scrambler can install a seeded, verifiable roller per table.
        self.roller_factory = roller_factory
        self.max_tables = MAX_TABLES
        self._lock = threading.Lock()
        self._owners: dict[str, TableOwner] = {}
        #: Tables (or the whole ledger file) that could not be opened: what, why, what was kept.
        self.damaged: list[dict[str, Any]] = []
        self.ledger = self._open_ledger()
        try:
            self._owner_token: str | None = owner_token(self.data_dir)
        except OSError as exc:
            log.warning("no owner token (%s): only the bound table's host can move the scrambler", exc)
            self._owner_token = None
        for code in self._readable_codes():
            try:
                self._owners[code] = TableOwner(code, self.ledger, self.table_class, roller_factory())
            except Exception as exc:  # one broken table must not keep the others from opening
                log.exception("table %s could not be loaded", code)
                self._damaged_table(code, exc)
        for d in self.damaged:
            log.error("DAMAGED: %s", d["words"])
        self._origins: dict[str, dict[str, Any]] = {}
        for code in self._owners:
            try:
                self._origins[code] = json.loads(self.ledger.get_meta(_ORIGIN_KEY + code) or "{}")
            except ValueError:
                self._origins[code] = {}
        if self.ledger.get_meta(_OLD_SCRAMBLER_KEY) is not None:
            log.warning("the scrambler's old binding (made without the owner token) is dropped: "
                        "bind it again with the owner token")
            try:
                self.ledger.set_meta(_OLD_SCRAMBLER_KEY, None)
            except Refused:
                pass
        self._bound = self.ledger.get_meta(_SCRAMBLER_KEY)
        self._classify()

    # -- opening, and what could not be opened ----------------------------------------------

    def _open_ledger(self) -> Ledger:
        """The ledger; a file that is not a database any more is moved to `damaged/` and a
        fresh one started (the other tables' server keeps running: better than none)."""
        path = self.data_dir / LEDGER_FILE
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DataFolderError(f"the data folder {self.data_dir} cannot be created: {exc.strerror or exc}") from None
        ledger = None
        try:
            ledger = Ledger(path)
            ledger.table_codes()  # reads the schema: a damaged header fails here
            return ledger
        except sqlite3.Error as exc:
            if ledger is not None:
                ledger.close()
            if not is_damaged(exc):
                raise DataFolderError(f"the table file {path} cannot be opened: {exc}") from None
            moved = self._set_aside(path)
            self.damaged.append({
                "code": None, "file": str(moved), "problem": f"the table file is damaged ({exc})",
                "kept": f"the damaged file was moved to {moved}; a new, empty table file was started",
                "words": f"the table file {path.name} is damaged ({exc}); it was moved to {moved} "
                         "and a new, empty one started: its tables are not served",
            })
            return Ledger(path)

    def _set_aside(self, path: Path) -> Path:
        """Move `path` (with its -wal and -shm) into `damaged/`; returns where it went."""
        folder = self.data_dir / DAMAGED_DIR
        folder.mkdir(exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = folder / f"{path.stem}-{stamp}{path.suffix}"
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(path) + suffix)
            if src.exists():
                os.replace(src, Path(str(target) + suffix))
        return target

    def _readable_codes(self) -> list[str]:
        try:
            return self.ledger.table_codes()
        except sqlite3.Error as exc:  # the list itself is unreadable: nothing to serve from it
            self.damaged.append({"code": None, "file": str(self.ledger.path),
                                 "problem": f"the list of tables cannot be read ({exc})",
                                 "kept": f"the file {self.ledger.path} is kept as it is",
                                 "words": f"the list of tables in {self.ledger.path} cannot be read ({exc})"})
            return []

    def _damaged_table(self, code: str, exc: Exception) -> None:
        why = exc.error if isinstance(exc, Refused) else f"{type(exc).__name__}: {exc}"
        kept = (f"its entries are kept, unchanged, in {self.ledger.path}; the table is not served "
                "until it is repaired")
        self.damaged.append({
            "code": code, "file": str(self.ledger.path),
            "problem": f"the table could not be loaded ({why})", "kept": kept,
            "words": f"table {code} is damaged: it could not be loaded ({why}); {kept}",
        })

    def damage(self, code: str) -> dict[str, Any] | None:
        """What is known about damaged table `code` (any case), or None."""
        norm = normal_code(code) if isinstance(code, str) else None
        return next((d for d in self.damaged if norm and d["code"] == norm), None)

    def create(self, settings: dict[str, Any], by: str | None = None,
               owner_token: bool = False) -> tuple[TableOwner, str]:
        """Create a table from `settings`; returns its owner and the host token. `by`: the
        address of the client making it; `owner_token`: made with the server's owner token
        (one of the owner's tables: it takes the scrambler when it is bound to none).
        Raises `Refused`: 422 if the engine refuses the settings, 507 when the server holds
        `max_tables` tables or its disk is nearly full (a guest's table well before the
        owner's), 503 if it could not be written."""
        with self._lock:
            if len(self._owners) >= self.max_tables:
                raise Refused(507, f"this server keeps at most {self.max_tables} tables; "
                              "no new table was made", None)
            self.ledger.check_room(table=True, guest=not owner_token)
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
                origin = {"by": by, "owner": owner_token}
                self._owners[code] = owner
                self._origins[code] = origin
                try:
                    self.ledger.set_meta(_ORIGIN_KEY + code, json.dumps(origin))
                    if owner_token and self.scrambler_code is None:
                        self.bind_scrambler(code)
                except Refused as exc:  # the table is made; only its origin is not kept
                    log.warning("table %s: its origin was not written: %s", code, exc.error)
                self._classify()
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
        code = self._bound
        return code if code in self._owners else None

    def is_priority(self, code: str) -> bool:
        """Whether table `code` is one of the owner's: bound to the scrambler, or made with the
        owner token. Its seats, host and display come first for connections, threads, streams
        and the disk (docs/SECURITY.md)."""
        return code == self._bound or bool(self._origins.get(code, {}).get("owner"))

    def token_is_priority(self, token: str) -> bool | None:
        """Whose `token` is (a seat's or the host's token, or `display:KEY`, a display's key):
        True for one of the owner's tables (the server serves those first), False for another
        table, None for no table's."""
        if token.startswith("display:"):
            key = token[8:]
            found = next((c for c, o in list(self._owners.items()) if o.is_display_key(key)), None)
        else:
            found = self.ledger.table_of_token(token_hash(token))
        return None if found is None else self.is_priority(found)

    def party(self, code: str) -> str:
        """Whose table `code` is, for sharing the stream places: `OWNER_PARTY` for the owner's
        tables, else the address that made it (its own code when that is not known)."""
        if self.is_priority(code):
            return OWNER_PARTY
        by = self._origins.get(code, {}).get("by")
        return f"made by {by}" if by else f"table {code}"

    def _classify(self) -> None:
        """Tell every table whether it is a guest's (its writes stop earlier on a full disk)."""
        for code, owner in list(self._owners.items()):
            owner.guest = not self.is_priority(code)

    @property
    def owner_secret(self) -> str | None:
        """The server's owner token (None when the data folder could not keep one): `serve`
        prints it for whoever started the server."""
        return self._owner_token

    def is_owner_token(self, token: str | None) -> bool:
        """Whether `token` is the server's owner token."""
        owner = self._owner_token
        if not token or not owner:
            return False
        return secrets.compare_digest(token.encode("utf-8", "replace"), owner.encode())

    def may_bind_scrambler(self, token: str | None) -> bool:
        """Whether `token` may move the scrambler: the server's owner token, or the host token
        of the table it serves now (bound, or the only table). A table's own host token is
        not enough: anyone on the Wi-Fi can create a table."""
        if not token or len(token) > 200:
            return False
        if self.is_owner_token(token):
            return True
        serving = self.scrambler_table()  # bound with the owner token's authority
        return serving is not None and serving.seat_for_token(token) == HOST

    def bind_scrambler(self, code: str | None) -> None:
        """Bind the scrambler to table `code` (None: to no table). Survives a restart."""
        if code is not None and code not in self._owners:
            raise Refused(404, f"there is no table {code}", "code")
        self.ledger.set_meta(_SCRAMBLER_KEY, code)
        self._bound = code
        self._classify()

    def scrambler_table(self) -> TableOwner | None:
        """The owner of the table the scrambler is bound to, or None. Never a table by being
        the first or the only one: anyone on the Wi-Fi can make the first table of a freshly
        started server (issue 15)."""
        code = self.scrambler_code
        return self._owners[code] if code is not None else None

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
    """Open the registry on `app.config["DATA_DIR"]` and attach it to `app` (`MAX_TABLES`,
    `MIN_FREE_COMMAND`, `MIN_FREE_TABLE`, `GUEST_MIN_FREE_COMMAND` and `GUEST_MIN_FREE_TABLE`
    override the limits; `FREE_SPACE_PROBE`, a callable answering free bytes, stands in for the
    disk's free space)."""
    reg = Registry(
        app.config["DATA_DIR"],
        table_class=app.config.get("TABLE_CLASS"),
        roller_factory=app.config.get("ROLLER_FACTORY") or SoftwareRoller,
    )
    reg.max_tables = int(app.config.get("MAX_TABLES", MAX_TABLES))
    if "MIN_FREE_COMMAND" in app.config:
        reg.ledger.min_free_command = int(app.config["MIN_FREE_COMMAND"])
    if "MIN_FREE_TABLE" in app.config:
        reg.ledger.min_free_table = int(app.config["MIN_FREE_TABLE"])
    for name in ("GUEST_MIN_FREE_COMMAND", "GUEST_MIN_FREE_TABLE"):
        if name in app.config:
            setattr(reg.ledger, name.lower(), int(app.config[name]))
    if app.config.get("FREE_SPACE_PROBE") is not None:
        reg.ledger.free_space_probe = app.config["FREE_SPACE_PROBE"]
    app.extensions["tables"] = reg
    return reg


def registry_for(app: Flask | None = None) -> Registry:
    """The registry of `app` (default: the current app)."""
    return (app or current_app).extensions["tables"]
