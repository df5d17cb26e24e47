"""The read index (ledger/read_index.py): written with the events, read by `log` and `recap`, checked by `verify`."""

from __future__ import annotations

import random
from typing import Any

import pytest
from eventsourcing.sqlite import SQLiteAggregateRecorder

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.structure import (
    EpisodeEnded,
    EpisodeStarted,
    SceneEnded,
    SceneStarted,
    SeasonEnded,
    SeasonStarted,
)
from showrunner_ledger.ledger.facts import NoteRecorded
from showrunner_ledger.ledger.read_index import Filter, event_index, index_table
from showrunner_ledger.ledger.service import BranchRef, Ledger
from showrunner_ledger.ledger.verification import verify_branch
from showrunner_ledger.projections.log import visible
from showrunner_ledger.projections.recap import choose_scope, shape_of
from showrunner_ledger.projections.recap_scope import last_episode_scope

from ..conftest import example_star


def _campaign(ledger: Ledger, title: str) -> BranchRef:
    return ledger.resolve(ledger.create_campaign(Pitch(title=title)).name)


def _structure(rng: random.Random) -> Any:
    n = rng.randint(1, 3)
    return rng.choice(
        [
            SeasonStarted(number=n),
            SeasonEnded(number=n),
            EpisodeStarted(season=1, number=n),
            EpisodeEnded(season=1, number=n, cliffhanger=f"cliff {rng.random()}"),
            SceneStarted(episode=n, number=rng.randint(1, 2)),
            SceneEnded(episode=n, number=rng.randint(1, 2)),
            NoteRecorded(text="meanwhile"),
        ]
    )


def test_the_last_episode_found_from_the_index_is_the_one_the_whole_shape_gives(ledger: Ledger):
    """Any sequence of structure facts, some Director-only, recorded as they come (no rules asked)."""
    rng = random.Random(13)
    for run in range(30):
        ref = _campaign(ledger, f"Shape {run}")
        for _ in range(rng.randint(0, 24)):
            fact, seen = _structure(rng), rng.choice(["public", "public", "director"])
            ledger.execute(ref, lambda state, fact=fact, seen=seen: [(fact, seen)])
        index = event_index(ledger, ref)
        assert index is not None
        for director in (True, False):
            whole = shape_of(e for e in ledger.events(ref) if visible(e, director=director))
            assert last_episode_scope(index, director=director) == choose_scope(whole), (run, director)


def _noted(ledger: Ledger, title: str = "Indexed") -> BranchRef:
    ref = _campaign(ledger, title)
    ledger.add_character(ref, example_star())
    for n in range(9):
        ledger.note(ref, f"beat {n}", private=n % 3 == 0)
    return ref


def test_pages_of_a_filtered_log_are_the_filtered_events_cut_in_order(ledger: Ledger):
    ref = _noted(ledger)
    fork = ledger.create_branch(ref, "what-if", at=7)
    ledger.note(fork, "on the fork")
    ledger.note(fork, "a secret on the fork", private=True)
    star = example_star().name
    for branch in (ref, fork):
        index = event_index(ledger, branch)
        assert index is not None
        events = list(ledger.events(branch))
        for wanted, keep in (
            (Filter(), lambda e: True),
            (Filter(public_only=True), lambda e: e.visibility == "public"),
            (Filter(topics=frozenset({NoteRecorded.topic})), lambda e: e.topic == NoteRecorded.topic),
            (
                Filter(public_only=True, star=star.upper()),
                lambda e: e.visibility == "public" and star in e.fact.stars(),
            ),
        ):
            expected = [e.version for e in events if keep(e)]
            assert index.count(wanted) == len(expected)
            for offset, limit in ((0, 3), (3, 3), (5, 50), (len(expected), 2)):
                assert index.versions(wanted, offset=offset, limit=limit) == expected[offset : offset + limit]
            assert index.last(wanted) == (expected[-1] if expected else None)


def _sql(ledger: Ledger, statement: str, *params: object) -> None:
    recorder: Any = ledger.app.recorder
    sqlite = isinstance(recorder, SQLiteAggregateRecorder)
    table = index_table(recorder.events_table_name)
    if not sqlite:
        table = f'"{recorder.datastore.schema or "public"}"."{table}"'
    with recorder.datastore.transaction(commit=True) as cursor:
        cursor.execute(statement.format(table=table).replace("?", "?" if sqlite else "%s"), params)


def _stream(ledger: Ledger, ref: BranchRef) -> object:
    return ref.branch.id.hex if isinstance(ledger.app.recorder, SQLiteAggregateRecorder) else ref.branch.id


@pytest.mark.parametrize(
    ("change", "found"),
    [
        ("UPDATE {table} SET public = 1 WHERE originator_id = ? AND originator_version = 3", 3),
        ("UPDATE {table} SET stars = '' WHERE originator_id = ? AND originator_version = 2", 2),
        ("UPDATE {table} SET topic = 'ledger/SeasonStarted' WHERE originator_id = ? AND originator_version = 4", 4),
        ("DELETE FROM {table} WHERE originator_id = ? AND originator_version = 5", 6),
        ("INSERT INTO {table} VALUES (?, 99, 'ledger/NoteRecorded', 1, '')", 99),
    ],
)
def test_verify_names_an_index_row_changed_outside_the_ledger(ledger: Ledger, change: str, found: int):
    ref = _noted(ledger)
    assert verify_branch(ledger, ref).ok
    _sql(ledger, change, _stream(ledger, ref))
    report = verify_branch(ledger, ref)
    assert not report.ok
    assert report.problem is not None and report.problem.version == found
    assert "read index" in report.problem.message


def test_a_star_never_reads_a_director_only_event_an_index_row_calls_public(ledger: Ledger):
    ref = _noted(ledger)
    _sql(ledger, "UPDATE {table} SET public = 1 WHERE originator_id = ?", _stream(ledger, ref))
    index = event_index(ledger, ref)
    assert index is not None
    versions = index.versions(Filter(public_only=True))
    assert 3 in versions  # the changed index lists it ...
    shown = [e for e in index.events(versions) if visible(e, director=False)]
    assert [e.version for e in shown if e.visibility != "public"] == []  # ... the reader's own check drops it


def test_a_branch_written_before_the_index_is_read_from_its_events(ledger: Ledger):
    """No rows for a stream (as an earlier version wrote it): not covered, and a new event adds no row
    after the gap, so the stream stays read from its events, never from half an index."""
    ref = _noted(ledger)
    _sql(ledger, "DELETE FROM {table} WHERE originator_id = ?", _stream(ledger, ref))
    assert event_index(ledger, ref) is None
    ledger.note(ref, "written after the upgrade")
    assert event_index(ledger, ref) is None
    assert verify_branch(ledger, ref).ok
    other = _noted(ledger, "Indexed Later")  # a new campaign in the same database is indexed from its first event
    assert event_index(ledger, other) is not None
