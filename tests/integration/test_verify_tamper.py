"""`verify` names the first event that does not hold, after tampering with the tables directly."""

from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from urllib.parse import parse_qs, urlsplit
from uuid import UUID

import pytest

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.showrunner.sheet import StarSheet
from showrunner_ledger.ledger.codec import fields_for_hash
from showrunner_ledger.ledger.errors import UnreadableEvent
from showrunner_ledger.ledger.integrity import GENESIS_HASH, Digest, chain_hash
from showrunner_ledger.ledger.read_index import index_table
from showrunner_ledger.ledger.verification import verify_branch
from tests.conftest import example_star

POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")


def sheet(name: str) -> StarSheet:
    return StarSheet(name=name, influence={k: {"current": 1, "max": 2} for k in POOLS})


class RawEvents:
    """The stored events table, read and written behind the ledger's back.

    SQLite keeps originator_id as 32 hex digits in `stored_events`; PostgreSQL as a
    uuid in `<application>_events` inside the test's schema. The names come from the
    recorder, not from guesses.
    """

    def __init__(self, ledger, db_url: str) -> None:
        self.table = ledger.app.recorder.events_table_name
        self.index = index_table(self.table)
        self.postgres = db_url.startswith("postgresql://")
        self.url = db_url

    @contextmanager
    def _cursor(self):
        if self.postgres:
            import psycopg

            parts = urlsplit(self.url)
            schema = parse_qs(parts.query)["schema"][0]
            with psycopg.connect(parts._replace(query="").geturl(), autocommit=True) as conn:
                conn.execute(psycopg.sql.SQL("SET search_path TO {}").format(psycopg.sql.Identifier(schema)))
                yield _PgCursor(conn)
        else:
            conn = sqlite3.connect(self.url)
            try:
                with conn:
                    yield conn
            finally:
                conn.close()

    def _id(self, branch: UUID):
        return branch if self.postgres else branch.hex

    def rows(self, branch: UUID) -> list[tuple[int, str, bytes]]:
        with self._cursor() as cur:
            found = cur.execute(
                f"SELECT originator_version, topic, state FROM {self.table} "
                "WHERE originator_id = ? ORDER BY originator_version",
                (self._id(branch),),
            ).fetchall()
        return [(v, t, bytes(s)) for v, t, s in found]

    def state(self, branch: UUID, version: int) -> bytes:
        return next(s for v, _, s in self.rows(branch) if v == version)

    def set_state(self, branch: UUID, version: int, state: bytes) -> None:
        with self._cursor() as cur:
            changed = cur.execute(
                f"UPDATE {self.table} SET state = ? WHERE originator_id = ? AND originator_version = ?",
                (state, self._id(branch), version),
            ).rowcount
        assert changed == 1

    def delete(self, branch: UUID, *versions: int) -> None:
        with self._cursor() as cur:
            for version in versions:
                changed = cur.execute(
                    f"DELETE FROM {self.table} WHERE originator_id = ? AND originator_version = ?",
                    (self._id(branch), version),
                ).rowcount
                assert changed == 1
                # As a forger who knows the ledger's tables: the read index would tell (verify).
                cur.execute(
                    f"DELETE FROM {self.index} WHERE originator_id = ? AND originator_version = ?",
                    (self._id(branch), version),
                )

    def forget_index(self, branch: UUID) -> None:
        """The stream's read index rows, gone: its events are read as if written before the index."""
        with self._cursor() as cur:
            cur.execute(f"DELETE FROM {self.index} WHERE originator_id = ?", (self._id(branch),))


class _PgCursor:
    """sqlite3's `?` placeholders on a psycopg connection, so both backends share the SQL."""

    def __init__(self, conn) -> None:
        self.conn = conn

    def execute(self, query: str, params=()):
        return self.conn.execute(query.replace("?", "%s"), params)


def edit(raw: RawEvents, branch: UUID, version: int, old: bytes, new: bytes) -> None:
    """Replace `old`, found once in the event's envelope and payload (its command record, which
    may repeat the payload's words, is left alone)."""
    state = raw.state(branch, version)
    head, marker, record = state.partition(b',"command":')
    assert head.count(old) == 1, (old, state)
    raw.set_state(branch, version, head.replace(old, new) + marker + record)


@pytest.fixture
def raw(ledger, db_url) -> RawEvents:
    return RawEvents(ledger, db_url)


@pytest.fixture
def main(ledger):
    """#1 started, #2 Mara Voss, #3..#7 five more Stars."""
    ref = ledger.resolve(ledger.create_campaign(Pitch(title="Tamper")))
    ledger.add_character(ref, example_star())
    for name in ("Bo", "Cy", "Di", "Ed", "Flo"):
        ledger.add_character(ref, sheet(name))
    assert ledger.head(ref).version == 7
    return ref


def test_clean_branch_verifies(ledger, main):
    head = ledger.head(main)
    report = verify_branch(ledger, main)
    assert report.ok and report.problem is None
    assert report.checked == head.version == 7
    assert report.head == head
    assert report.branch == "main"
    for version in range(1, 8):
        kept = Digest(version, ledger.event(main, version).hash)
        assert verify_branch(ledger, main, against=kept).ok, version
    seen = []
    verify_branch(ledger, main, progress=seen.append)
    assert seen == list(range(1, 8))


def test_raw_access_sees_what_the_ledger_stored(ledger, main, raw):
    rows = raw.rows(main.branch.id)
    assert [v for v, _, _ in rows] == list(range(1, 8))
    assert json.loads(rows[0][2])["prev_hash"] == GENESIS_HASH
    assert json.loads(rows[-1][2])["hash"] == ledger.head(main).hash


def test_edited_payload_is_named(ledger, main, raw):
    edit(raw, main.branch.id, 2, b'"name":"Mara Voss"', b'"name":"Mora Voss"')
    # Still a perfectly readable event: only the hash gives it away.
    assert ledger.event(main, 2).fact.sheet.name == "Mora Voss"
    report = verify_branch(ledger, main)
    assert not report.ok
    assert report.problem.version == 2
    assert report.problem.message == (
        "event #2 (showrunner/StarJoined) does not match its hash: its content was changed"
    )
    assert report.checked == 1


def test_edited_envelope_is_named(ledger, main, raw):
    edit(raw, main.branch.id, 5, b'"recorded_by":"director"', b'"recorded_by":"someone"')
    report = verify_branch(ledger, main)
    assert report.problem.version == 5
    assert "its content was changed" in report.problem.message


def test_deleted_event_is_named(ledger, main, raw):
    raw.delete(main.branch.id, 4)
    report = verify_branch(ledger, main)
    assert not report.ok
    assert report.problem.version == 4
    assert report.problem.message == "event #4 is missing (the next stored event is #5)"
    assert report.checked == 3


def test_swapped_events_are_caught_at_the_first(ledger, main, raw):
    third, fourth = raw.state(main.branch.id, 3), raw.state(main.branch.id, 4)
    raw.set_state(main.branch.id, 3, fourth)
    raw.set_state(main.branch.id, 4, third)
    report = verify_branch(ledger, main)
    assert not report.ok
    assert report.problem.version == 3
    assert "event #3 does not link to event #2" in report.problem.message
    assert report.checked == 2


def test_cut_off_tail_needs_a_kept_digest(ledger, main, raw):
    kept = ledger.head(main)
    raw.delete(main.branch.id, 6, 7)

    plain = verify_branch(ledger, main)
    assert plain.ok, plain.problem  # nothing inside the log can tell
    assert plain.checked == 5 and plain.head.version == 5

    report = verify_branch(ledger, main, against=kept)
    assert not report.ok
    assert report.problem.version == 5
    assert report.problem.message == ("the log ends at #5 but the kept digest is at #7: events were cut off the end")
    # A digest kept before the cut still holds.
    assert verify_branch(ledger, main, against=Digest(5, plain.head.hash)).ok


def rechain(ledger, raw: RawEvents, branch: UUID, prev_hash: str = GENESIS_HASH) -> str:
    """Recompute every link of one stream from scratch, as a forger would."""
    for version, topic, state in raw.rows(branch):
        doc = json.loads(state)
        doc["prev_hash"] = prev_hash
        doc["hash"] = chain_hash(prev_hash, fields_for_hash(branch, version, topic, doc))
        raw.set_state(branch, version, json.dumps(doc, separators=(",", ":")).encode())
        prev_hash = doc["hash"]
    raw.forget_index(branch)  # else verify names the index row that still says what the event said
    return prev_hash


def test_recomputed_chain_needs_a_kept_digest(ledger, main, raw):
    kept = ledger.head(main)
    kept_early = Digest(1, ledger.event(main, 1).hash)
    kept_mid = Digest(4, ledger.event(main, 4).hash)
    edit(raw, main.branch.id, 2, b'"name":"Mara Voss"', b'"name":"Mora Voss"')
    new_head = rechain(ledger, raw, main.branch.id)
    assert new_head != kept.hash

    plain = verify_branch(ledger, main)
    assert plain.ok, plain.problem  # a consistent forgery
    assert plain.checked == 7 and plain.head == Digest(7, new_head)

    report = verify_branch(ledger, main, against=kept)
    assert not report.ok
    assert report.problem.version == 7
    assert report.problem.message == (
        "event #7 does not match the kept digest: the history up to it "
        "was rewritten, or the digest was kept from another branch"
    )
    mid = verify_branch(ledger, main, against=kept_mid)
    assert mid.problem is not None and mid.problem.version == 4 and "rewritten" in mid.problem.message
    # Event #1 was not touched: a digest kept there still holds.
    assert verify_branch(ledger, main, against=kept_early).ok


def test_unreadable_event_is_named(ledger, main, raw):
    raw.set_state(main.branch.id, 3, b'{"campaign": "oops", "payload": {')
    report = verify_branch(ledger, main)
    assert not report.ok
    assert report.problem.version == 3
    assert report.problem.message.startswith("event #3 cannot be read")
    assert report.checked == 2
    with pytest.raises(UnreadableEvent):
        ledger.view(main)


def test_event_without_hash_fields_is_named(ledger, main, raw):
    doc = json.loads(raw.state(main.branch.id, 3))
    del doc["hash"]
    raw.set_state(main.branch.id, 3, json.dumps(doc).encode())
    report = verify_branch(ledger, main)
    assert report.problem.version == 3
    assert report.problem.message == "event #3 lacks its hash fields"


# ------------------------------------------------------------------ branches


@pytest.fixture
def alt(ledger, main):
    """alt forks main at #4, then adds #6 and #7 of its own."""
    ref = ledger.create_branch(main, "alt", at=4)
    ledger.add_character(ref, sheet("Alt One"))
    ledger.add_character(ref, sheet("Alt Two"))
    assert verify_branch(ledger, ref).ok and verify_branch(ledger, ref).checked == 7
    return ref


def test_branch_verify_walks_the_ancestry(ledger, main, alt, raw):
    edit(raw, main.branch.id, 3, b'"name":"Bo"', b'"name":"Bq"')
    report = verify_branch(ledger, alt)
    assert not report.ok
    assert report.problem.version == 3
    assert "its content was changed" in report.problem.message
    assert report.branch == "alt"


def test_parent_events_above_the_fork_are_not_the_branch_history(ledger, main, alt, raw):
    edit(raw, main.branch.id, 6, b'"name":"Ed"', b'"name":"Eb"')
    assert verify_branch(ledger, alt).ok
    assert verify_branch(ledger, main).problem.version == 6


def test_branch_deleted_parent_event_below_the_fork(ledger, main, alt, raw):
    raw.delete(main.branch.id, 4)
    report = verify_branch(ledger, alt)
    assert report.problem.version == 4
    assert "event #4 is missing" in report.problem.message


def test_rechained_parent_breaks_the_branch_link(ledger, main, alt, raw):
    edit(raw, main.branch.id, 2, b'"name":"Mara Voss"', b'"name":"Mora Voss"')
    rechain(ledger, raw, main.branch.id)
    assert verify_branch(ledger, main).ok
    # The branch's first event still links to the parent's *old* hash at #4.
    report = verify_branch(ledger, alt)
    assert report.problem.version == 5
    assert "event #5 does not link to event #4" in report.problem.message


def test_forged_fork_point_is_named(ledger, main, alt, raw):
    """A BranchForked whose payload names another fork point, re-hashed to look consistent."""
    parent_at_4 = ledger.event(main, 4).hash
    doc = json.loads(raw.state(alt.branch.id, 5))
    assert doc["payload"]["fork_version"] == 4 and doc["payload"]["parent_hash"] == parent_at_4
    doc["payload"]["fork_version"] = 3
    doc["hash"] = chain_hash(doc["prev_hash"], fields_for_hash(alt.branch.id, 5, "ledger/BranchForked", doc))
    raw.set_state(alt.branch.id, 5, json.dumps(doc, separators=(",", ":")).encode())
    rechain_from = doc["hash"]
    for version, topic, state in raw.rows(alt.branch.id)[1:]:
        later = json.loads(state)
        later["prev_hash"] = rechain_from
        later["hash"] = chain_hash(rechain_from, fields_for_hash(alt.branch.id, version, topic, later))
        raw.set_state(alt.branch.id, version, json.dumps(later, separators=(",", ":")).encode())
        rechain_from = later["hash"]

    report = verify_branch(ledger, alt)
    assert report.problem is not None
    assert report.problem.version == 5
    assert report.problem.message == "event #5 names a fork point that is not its parent's event #4"
