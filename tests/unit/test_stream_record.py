"""A stream records on a copy without touching the original, and spells each command's time as its own."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from uuid import UUID

from showrunner_ledger.domain.campaign import CampaignState
from showrunner_ledger.ledger.codec import stored_event
from showrunner_ledger.ledger.facts import NoteRecorded
from showrunner_ledger.ledger.streams import Stream

T0 = datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=UTC)


def stream() -> Stream[CampaignState]:
    return Stream(UUID(int=1), UUID(int=2), lambda state, fact: state, CampaignState())


def test_a_copy_records_without_changing_the_original():
    original = stream()
    original.record(NoteRecorded(text="one"), recorded_by="director", command_id="a", timestamp=T0)
    original.collect_rows()
    copy = original.copy()
    assert (copy.version, copy.head_hash, copy.recent_commands) == (1, original.head_hash, {"a": (1, 1)})
    copy.record(NoteRecorded(text="two"), recorded_by="director", command_id="b", timestamp=T0)
    assert (original.version, original.recent_commands, original.pending, original.rows) == (1, {"a": (1, 1)}, [], [])
    assert copy.version == 2 and copy.recent_commands == {"a": (1, 1), "b": (2, 2)}


def test_each_command_time_is_spelled_as_its_own():
    recording = stream()
    times = [T0, T0, T0 + timedelta(seconds=1), datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=UTC)]
    for i, when in enumerate(times):
        recording.record(NoteRecorded(text=f"line {i}"), recorded_by="director", command_id=str(i), timestamp=when)
    stored = [json.loads(row.state)["timestamp"] for row in recording.rows]
    assert stored == [when.isoformat() for when in times]
    assert [stored_event(event) for event in recording.pending] == recording.rows
