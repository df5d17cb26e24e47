"""A snapshot is a cache outside the hash chain: verify replays the events to check it."""

from __future__ import annotations

from pathlib import Path

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.verification import drop_bad_snapshots, verify_branch

from ..conftest import example_star, make_settings


@pytest.fixture
def snapshotting(db_url: str, tmp_path: Path):
    ledger = bootstrap(make_settings(db_url, tmp_path, SHOWRUNNER_SNAPSHOT_INTERVAL="5"))
    campaign = ledger.create_campaign(Pitch(title="Snapshots"))
    ref = ledger.resolve(campaign.name)
    ledger.add_character(ref, example_star())
    for n in range(12):
        ledger.note(ref, f"beat {n}")
    yield ledger, ref
    ledger.close()


def _forge_first_snapshot(ledger: Ledger, ref) -> int:
    recorder = ledger.app.snapshots.recorder
    stored = recorder.select_events(ref.branch.id, limit=1)[0]
    forged = stored.state.replace(b"Mara Voss", b"Forged Vos")
    assert forged != stored.state
    table = recorder.events_table_name
    with recorder.datastore.transaction(commit=True) as cursor:
        if hasattr(recorder.datastore, "schema"):
            cursor.execute(
                f'UPDATE "{recorder.datastore.schema}"."{table}" SET state = %s '
                "WHERE originator_id = %s AND originator_version = %s",
                (forged, ref.branch.id, stored.originator_version),
            )
        else:
            cursor.execute(
                f"UPDATE {table} SET state = ? WHERE originator_id = ? AND originator_version = ?",
                (forged, ref.branch.id.hex, stored.originator_version),
            )
    return stored.originator_version


def test_clean_snapshots_verify(snapshotting) -> None:
    ledger, ref = snapshotting
    assert len(ledger.app.snapshots.recorder.select_events(ref.branch.id)) == 2
    assert verify_branch(ledger, ref).ok


def test_a_forged_snapshot_is_named_and_can_be_dropped(snapshotting) -> None:
    ledger, ref = snapshotting
    version = _forge_first_snapshot(ledger, ref)
    # The forged cache is what a load would show ...
    assert _names(ledger, ref, version) == ["Forged Vos"]
    report = verify_branch(ledger, ref)
    assert not report.ok
    assert report.problem.version == version
    assert "snapshot" in report.problem.message and "--drop-bad-snapshots" in report.problem.message

    assert drop_bad_snapshots(ledger, ref) == [version]
    assert verify_branch(ledger, ref).ok
    assert _names(ledger, ref, version) == ["Mara Voss"]
    remaining = [s.originator_version for s in ledger.app.snapshots.recorder.select_events(ref.branch.id)]
    assert remaining == [10]


def _names(ledger: Ledger, ref, version: int) -> list[str]:
    return [sheet.name for sheet in ledger.view(ref, at=version).state.stars.values()]
