"""What the network drills share: the real `serve` in its own process, with one table and one
seated phone. (A module they import, not a conftest: the tests import the top-level conftest by
name.)"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.bench.clients import JsonClient
from companion.bench.server import ServerProcess


@dataclass
class SeatedTable:
    """A table on the served companion: its code, the host token and Lando's seat token, and
    the phone's JSON client that made them."""

    phone: JsonClient
    code: str
    host: str
    seat: str


@pytest.fixture
def server(tmp_path):
    """`sabacc-companion serve` on a free loopback port, stopped after the test."""
    srv = ServerProcess(tmp_path / "data").start()
    yield srv
    srv.stop()


@pytest.fixture
def seated(server) -> SeatedTable:
    """A weg table on `server` with Lando seated: the real table, made from the host's link
    (with the owner token `serve` keeps in its data folder), as at a real evening; a guest's
    table has an entry rate of its own that the drills' host would meet."""
    phone = JsonClient(server.port, timeout=10)
    owner = (Path(server.data) / "owner-token").read_text(encoding="ascii").strip()
    status, created, _ = phone.call("POST", "/api/v1/tables", {"rules": "weg"}, owner)
    assert status == 201, created
    status, joined, _ = phone.call("POST", f"/api/v1/tables/{created['code']}/join", {"name": "Lando"})
    assert status == 201, joined
    return SeatedTable(phone, created["code"], created["host_token"], joined["token"])
