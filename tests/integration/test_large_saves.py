"""A command or an import of many MB returns, on every backend.

PostgreSQL once took a whole save as one array parameter in a pipeline, and a save of
several MB never got its reply; saves are now sent in chunks within one transaction.
"""

from __future__ import annotations

import threading

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.facts import NoteRecorded
from showrunner_ledger.ledger.transfer import export_lines, import_lines
from showrunner_ledger.ledger.verification import verify_branch

from ..conftest import make_settings

EVENTS = 12_000
TEXT = "x" * 1000  # about 1.1 KB stored per event: some 13 MB in one save


def within(seconds: float, work):
    """Run work in a daemon thread; fail (instead of hanging the suite) if it does not return."""
    box: dict = {}

    def run() -> None:
        try:
            box["value"] = work()
        except BaseException as e:  # handed back to the test
            box["error"] = e

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"no reply within {seconds} s")
    if "error" in box:
        raise box["error"]
    return box["value"]


def test_a_command_of_many_megabytes_returns(ledger):
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Big")).name)
    result = within(
        120, lambda: ledger.execute(ref, lambda state: [NoteRecorded(text=f"{TEXT}{i}") for i in range(EVENTS)])
    )
    assert (result.first_version, result.last_version) == (2, EVENTS + 1)
    assert ledger.head(ref).version == EVENTS + 1
    assert verify_branch(ledger, ref).ok


def test_an_import_of_many_megabytes_returns(ledger, db_url, tmp_path):
    source = bootstrap(make_settings(str(tmp_path / "source.sqlite"), tmp_path / "source"))
    ref = source.resolve(source.create_campaign(Pitch(title="Big")).name)
    source.execute(ref, lambda state: [NoteRecorded(text=f"{TEXT}{i}") for i in range(EVENTS)])
    lines = list(export_lines(source, ref))
    source.close()
    imported = within(120, lambda: import_lines(ledger, lines))
    assert imported.events == EVENTS + 1
    target = ledger.resolve(imported.campaign)
    assert ledger.head(target).version == EVENTS + 1
