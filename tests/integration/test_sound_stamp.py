"""A SQLite file is checked page by page before a process's first write, unless it is as the
last writer left it after finding it sound: the check reads the whole file, and a command's
cost must not grow with the database."""

from __future__ import annotations

import os

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.persistence import _DurableConnectionPool


@pytest.fixture
def checks(monkeypatch) -> list[int]:
    """How many times a whole-file check ran (the real one, counted)."""
    counted: list[int] = []
    real = _DurableConnectionPool.page_damage

    def counting(self, conn):
        counted.append(1)
        return real(self, conn)

    monkeypatch.setattr(_DurableConnectionPool, "page_damage", counting)
    return counted


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_file_left_as_found_sound_is_not_checked_again(settings, checks):
    def note(text: str) -> None:
        ledger = bootstrap(settings)
        try:
            ledger.note(ledger.resolve("tide"), text)
        finally:
            ledger.close()

    first = bootstrap(settings)
    first.create_campaign(Pitch(title="Tide"))
    first.close()
    assert len(checks) == 1
    note("unchanged since: no check")
    note("still none")
    assert len(checks) == 1
    found = settings.sqlite_file.stat()
    os.utime(settings.sqlite_file, ns=(found.st_atime_ns, found.st_mtime_ns + 1_000_000))  # written by something else
    note("checked again")
    assert len(checks) == 2
    (settings.data_dir / "checked").rename(settings.data_dir / "gone")  # another data folder: no stamp
    note("checked again")
    assert len(checks) == 3
