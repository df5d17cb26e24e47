"""The SQLite recorder reads a stream's rows itself (as plain tuples): it must give what the library gives."""

from __future__ import annotations

import itertools
from pathlib import Path

from eventsourcing.sqlite import SQLiteAggregateRecorder

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.facts import NoteRecorded

from ..conftest import make_settings


def test_rows_read_are_the_rows_the_library_reads(tmp_path: Path):
    ledger = bootstrap(make_settings(str(tmp_path / "ledger.sqlite"), tmp_path, SHOWRUNNER_SNAPSHOT_INTERVAL="5"))
    try:
        ref = ledger.resolve(ledger.create_campaign(Pitch(title="Rows")).name)
        ledger.execute(ref, lambda state: [NoteRecorded(text=f"line {i}") for i in range(30)])
        for i in range(6):  # one command each: snapshots every 5 events
            ledger.note(ref, f"one more {i}")
        for recorder in (ledger.app.recorder, ledger.snapshot_recorder):
            stream = ref.branch.id
            assert type(recorder).select_events is not SQLiteAggregateRecorder.select_events
            for gt, lte, desc, limit in itertools.product((None, 0, 5), (None, 12, 40), (False, True), (None, 1, 7)):
                ours = recorder.select_events(stream, gt=gt, lte=lte, desc=desc, limit=limit)
                theirs = SQLiteAggregateRecorder.select_events(recorder, stream, gt=gt, lte=lte, desc=desc, limit=limit)
                assert ours == theirs
                assert recorder.select_events(stream.hex, gt=gt, lte=lte, desc=desc, limit=limit) == theirs
        assert len(ledger.app.recorder.select_events(ref.branch.id)) == 37
        assert len(ledger.snapshot_recorder.select_events(ref.branch.id)) > 1
    finally:
        ledger.close()
