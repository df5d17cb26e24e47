"""Snapshots are a cache: a view loaded from one equals a full replay, and a bad one is ignored."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from uuid import UUID

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.showrunner.ladder import Difficulty
from showrunner_ledger.domain.showrunner.sheet import HeroProp, Influence, Relationship, StarSheet
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.streams import BranchSnapshot, fold_campaign
from tests.conftest import example_star, make_settings

POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")
INTERVAL = 5
FORK = 7


def sheet(name: str) -> StarSheet:
    return StarSheet(name=name, influence={k: {"current": 1, "max": 2} for k in POOLS})


def set_snapshot_states(ledger: Ledger, db_url: str, data: bytes) -> int:
    """Overwrite the state of every stored snapshot, behind the ledger's back."""
    # SQLite calls the table stored_snapshots; PostgreSQL prefixes the application name.
    table = ledger.app.snapshots.recorder.events_table_name
    if db_url.startswith("postgresql://"):
        import psycopg
        from psycopg import sql

        parts = urlsplit(db_url)
        schema = parse_qs(parts.query)["schema"][0]
        with psycopg.connect(parts._replace(query="").geturl(), autocommit=True) as conn:
            cur = conn.execute(
                sql.SQL("UPDATE {}.{} SET state = %s").format(sql.Identifier(schema), sql.Identifier(table)),
                (data,),
            )
            return cur.rowcount
    import sqlite3

    conn = sqlite3.connect(db_url)
    try:
        with conn:
            return conn.execute(f"UPDATE {table} SET state = ?", (data,)).rowcount
    finally:
        conn.close()


@pytest.fixture
def snap_ledger(db_url: str, tmp_path: Path) -> Iterator[Ledger]:
    instance = bootstrap(make_settings(db_url, tmp_path, SHOWRUNNER_SNAPSHOT_INTERVAL=str(INTERVAL)))
    yield instance
    instance.close()


@pytest.fixture
def story(snap_ledger: Ledger):
    """main: #1 started, #2 Mara, #3..#13 eleven more Stars; 'alt' forks at #7 and adds 15 Stars."""
    ledger = snap_ledger
    entry = ledger.create_campaign(Pitch(title="Snapshots"))
    main = ledger.resolve(entry)
    ledger.add_character(main, example_star())
    for i in range(11):
        ledger.add_character(main, sheet(f"Main {i}"))
    alt = ledger.create_branch(main, "alt", at=FORK)
    for i in range(15):
        ledger.add_character(alt, sheet(f"Alt {i}"))
    return ledger, main, alt


def replay(ledger: Ledger, ref, at: int | None = None) -> ShowrunnerState:
    state = ShowrunnerState()
    for event in ledger.events(ref, upto=at):
        state = fold_campaign(state, event.fact)
    return state


def snapshot_versions(ledger: Ledger, branch_id: UUID) -> list[int]:
    return [s.originator_version for s in ledger.app.snapshots.recorder.select_events(branch_id)]


class DecodeCounter:
    """Counts events the mapper decodes: how much of the log a read replayed."""

    def __init__(self, ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        original = ledger.app.mapper.to_fact

        def counting(stored):
            self.calls += 1
            return original(stored)

        monkeypatch.setattr(ledger.app.mapper, "to_fact", counting)

    def __call__(self, read):
        self.calls = 0
        result = read()
        return result, self.calls


def test_snapshots_are_taken_every_interval(story):
    ledger, main, alt = story
    assert ledger.head(main).version == 13
    assert ledger.head(alt).version == FORK + 1 + 15 == 23
    assert snapshot_versions(ledger, main.branch.id) == [5, 10]
    # The branch's own snapshots start above its fork point (#8 is BranchForked).
    assert snapshot_versions(ledger, alt.branch.id) == [10, 15, 20]
    for stored in ledger.app.snapshots.recorder.select_events(alt.branch.id):
        snapshot = BranchSnapshot.load(stored.state)
        assert snapshot.version == stored.originator_version
        assert snapshot.head_hash == ledger.event(alt, snapshot.version).hash
        assert snapshot.state == replay(ledger, alt, snapshot.version)


def test_view_from_snapshot_equals_full_replay(story, monkeypatch):
    ledger, main, alt = story
    count = DecodeCounter(ledger, monkeypatch)

    # At the head: loaded from the nearest snapshot, then only the tail.
    view, decoded = count(lambda: ledger.view(main))
    assert (view.version, decoded) == (13, 3)  # snapshot #10, then #11..#13
    assert view.state == replay(ledger, main)
    assert view.head_hash == ledger.head(main).hash

    view, decoded = count(lambda: ledger.view(alt))
    assert (view.version, decoded) == (23, 3)  # the branch's snapshot #20
    assert view.state == replay(ledger, alt)
    assert len(view.state.stars) == 1 + 5 + 15  # Mara, Main 0-4, Alt 0-14

    expected_tail = {
        # version on alt: events decoded after the nearest usable snapshot
        5: 0,  # main's snapshot #5 is exactly it
        6: 1,  # main's #5, below the fork
        7: 2,  # main's #5 (main's #10 is past the fork point: not alt's history)
        9: 4,  # no alt snapshot at or below #9: main's #5, then #6 #7 (main) and #8 #9 (alt)
        10: 0,  # alt's own #10
        14: 4,
        15: 0,
        22: 2,
    }
    for at, tail in expected_tail.items():
        view, decoded = count(partial(ledger.view, alt, at=at))
        assert view.version == at
        assert decoded == tail, f"view(alt, at={at}) replayed {decoded} events"
        assert view.state == replay(ledger, alt, at), at
        assert view.head_hash == ledger.event(alt, at).hash

    # Every version of both branches, whatever snapshot it starts from.
    for ref in (main, alt):
        for at in range(1, ledger.head(ref).version + 1):
            assert ledger.view(ref, at=at).state == replay(ledger, ref, at), (ref.branch.name, at)
    # main's #10 snapshot is not used for alt, and alt's states never leak into main.
    assert ledger.view(main, at=10).state != ledger.view(alt, at=10).state
    assert "alt 0" not in ledger.view(main).state.stars
    assert "main 5" not in ledger.view(alt).state.stars


def test_commands_after_a_snapshot_see_the_full_state(story):
    ledger, main, alt = story
    from showrunner_ledger.domain.errors import AlreadyExists

    # Mara joined at #2, long before main's and alt's newest snapshots.
    for ref in (main, alt):
        with pytest.raises(AlreadyExists):
            ledger.add_character(ref, sheet("Mara Voss"))
    # Command ids recorded before a snapshot are still remembered after it.
    first = ledger.add_character(main, sheet("Late"), command_id="late-1")
    for i in range(6):
        ledger.add_character(main, sheet(f"Later {i}"))
    assert snapshot_versions(ledger, main.branch.id) == [5, 10, 15, 20]
    again = ledger.add_character(main, sheet("Late"), command_id="late-1")
    assert again.replayed and again.first_version == first.first_version == 14


@pytest.mark.parametrize(
    "junk",
    [
        b"\x00\xff\xfe not a snapshot \x80",
        b'{"version": 10, "head_hash": "x"',
        b'{"version": "ten", "head_hash": 1, "recent_commands": [], "state": 5}',
    ],
    ids=["binary", "truncated-json", "wrong-shape"],
)
def test_corrupted_snapshot_is_ignored(story, db_url, junk, monkeypatch):
    ledger, main, alt = story
    expected = {
        (ref.branch.name, at): replay(ledger, ref, at)
        for ref in (main, alt)
        for at in (None, 5, 6, 10, 12, ledger.head(ref).version)
        if at is None or at <= ledger.head(ref).version
    }
    assert set_snapshot_states(ledger, db_url, junk) == 5  # main #5 #10, alt #10 #15 #20

    count = DecodeCounter(ledger, monkeypatch)
    view, decoded = count(lambda: ledger.view(main))
    assert decoded == 13  # every snapshot is unusable: a full replay
    assert view.state == expected[("main", None)]
    for (name, at), state in expected.items():
        ref = main if name == "main" else alt
        assert ledger.view(ref, at=at).state == state, (name, at)
    # Commands still work on top of the full replay.
    result = ledger.add_character(alt, sheet("After Corruption"))
    assert result.first_version == 24
    assert "after corruption" in ledger.view(alt).state.stars


def test_snapshot_state_comes_back_typed(story, monkeypatch):
    ledger, main, alt = story
    count = DecodeCounter(ledger, monkeypatch)
    view, decoded = count(lambda: ledger.view(alt, at=10))
    assert decoded == 0  # entirely from alt's snapshot #10
    state = view.state
    assert isinstance(state, ShowrunnerState)
    assert isinstance(state.pitch, Pitch) and state.pitch.title == "Snapshots"
    assert state.stars and all(isinstance(s, StarSheet) for s in state.stars.values())
    mara = state.star("Mara Voss")
    assert mara == example_star()
    assert isinstance(mara.influence, Influence)
    assert isinstance(mara.hero_props[0], HeroProp)
    bond = mara.bonds[0]
    assert isinstance(bond, Relationship)
    assert bond.tier is Difficulty("H")
    assert isinstance(bond.exhausted, frozenset)
    assert all(isinstance(d, Difficulty) for d in bond.exhausted)

    # And straight from the stored row.
    row = ledger.app.snapshots.recorder.select_events(alt.branch.id, lte=10, desc=True, limit=1)[0]
    snapshot = BranchSnapshot.load(row.state)
    assert all(isinstance(s, StarSheet) for s in snapshot.state.stars.values())
    assert snapshot.state == state
