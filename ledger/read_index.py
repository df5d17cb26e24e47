"""The read index: a row per branch event saying what a reader filters on, so that `log` and
`recap` find the events they show without decoding the branch.

Each row holds an event's topic, whether a Star may see it and the Stars it is about (their
name keys), written in the transaction that writes the event. A row is written only after the
row of the event before it in its stream (or for a stream's first event), so a stream's rows
are always a run from its first event: a stream written before the index existed (or by a
version that did not write it) gets none, and a reader finds it not covered and reads the
events themselves. The index is a cache of facts in the hash chain: readers check again what
they decode, and `verify` compares every row with its event (`IndexWalk`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple
from uuid import UUID

from eventsourcing.persistence import AggregateRecorder, StoredEvent
from eventsourcing.sqlite import SQLiteAggregateRecorder

from ..domain.events import Fact
from ..domain.names import name_key
from .errors import UnreadableEvent
from .events import LedgerEvent
from .facts import BranchForked, CampaignRegistered, CampaignStarted
from .integrity import Problem
from .registry import Segment

_OPENS_A_STREAM = frozenset({CampaignStarted.topic, BranchForked.topic})
_REGISTRY_TOPICS = frozenset({CampaignRegistered.topic, "ledger/BranchRegistered"})
_SEPARATOR = "\n"  # never inside a name key, which joins a name's words with single spaces


def index_table(events_table: str) -> str:
    return f"{events_table}_index"


class Entry(NamedTuple):
    """One event's row, and whether it opens its stream (so needs no row before it)."""

    branch: UUID
    version: int
    topic: str
    public: int
    stars: str
    opens: bool


def stars_column(stars: Iterable[str]) -> str:
    """The Stars an event is about, as stored: each name key between separators ("" for none)."""
    keys = [name_key(star) for star in stars]
    return _SEPARATOR + _SEPARATOR.join(keys) + _SEPARATOR if keys else ""


def entry_of(event: LedgerEvent) -> Entry:
    return Entry(
        event.originator_id,
        event.version,
        event.topic,
        int(event.visibility == "public"),
        stars_column(event.fact.stars()),
        event.topic in _OPENS_A_STREAM,
    )


def entries_of(events: Iterable[LedgerEvent]) -> list[Entry]:
    """The rows for events about to be saved (the registry's own streams are not branches)."""
    return [entry_of(event) for event in events if event.topic not in _REGISTRY_TOPICS]


# ----------------------------------------------------------------------- SQL, per database


def sqlite_create_statement(events_table: str) -> str:
    return (
        f"CREATE TABLE IF NOT EXISTS {index_table(events_table)} ("
        "originator_id TEXT, originator_version INTEGER, topic TEXT, public INTEGER, stars TEXT, "
        "PRIMARY KEY (originator_id, originator_version)) WITHOUT ROWID"
    )


def postgres_create_statement(schema: str, events_table: str) -> str:
    return (
        f'CREATE TABLE IF NOT EXISTS "{schema}"."{index_table(events_table)}" ('
        "originator_id uuid NOT NULL, originator_version bigint NOT NULL, topic text NOT NULL, "
        "public smallint NOT NULL, stars text NOT NULL, PRIMARY KEY (originator_id, originator_version))"
    )


def insert_statement(table: str, mark: str) -> str:
    """One row, written only if it opens its stream or follows the stream's row before it."""
    m = mark
    return (
        f"INSERT INTO {table} SELECT {m}, {m}, {m}, {m}, {m} "  # noqa: S608 - the ledger's own table name
        f"WHERE {m} OR EXISTS (SELECT 1 FROM {table} WHERE originator_id = {m} AND originator_version = {m})"
    )


def insert_params(entries: Sequence[Entry], branch_id: Any) -> list[tuple[Any, ...]]:
    """`branch_id` turns a stream id into the database's own form of it."""
    return [
        (branch_id(e.branch), e.version, e.topic, e.public, e.stars, e.opens, branch_id(e.branch), e.version - 1)
        for e in entries
    ]


# ----------------------------------------------------------------------- reading


@dataclass(frozen=True)
class Filter:
    """Which events a reader wants: a Star's (public only), of some topics, about one Star."""

    public_only: bool = False
    topics: frozenset[str] = frozenset()
    star: str | None = None
    """A Star's name, compared by its name key."""


class _Dialect:
    def __init__(self, recorder: AggregateRecorder) -> None:
        database: Any = recorder  # SQLite's or PostgreSQL's (ledger/persistence.py opens no other)
        self.datastore: Any = database.datastore
        table = index_table(database.events_table_name)
        if isinstance(database, SQLiteAggregateRecorder):
            self.sqlite = True
            self.table, self.name = table, table
            self.mark = "?"
        else:
            self.sqlite = False
            schema = self.datastore.schema or "public"
            self.table, self.name = f'"{schema}"."{table}"', f"{schema}.{table}"
            self.mark = "%s"

    def stream(self, stream_id: UUID) -> object:
        return stream_id.hex if self.sqlite else stream_id

    def contains(self, column: str) -> str:
        return f"instr({column}, {self.mark}) > 0" if self.sqlite else f"strpos({column}, {self.mark}) > 0"

    def query(self, statement: str, params: Sequence[object]) -> list[Any]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(statement, params)
            return list(cursor.fetchall())

    def exists(self) -> bool:
        if self.sqlite:
            found = self.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", [self.name])
            return bool(found)
        return self.query("SELECT to_regclass(%s) AS t", [self.name])[0]["t"] is not None


@dataclass(frozen=True)
class _Range:
    stream: UUID
    after: int
    upto: int


class EventIndex:
    """A branch's index, every event from #1 to its head covered; events read by their versions."""

    def __init__(self, dialect: _Dialect, ranges: Sequence[_Range], read: Any) -> None:
        self._db = dialect
        self._ranges = ranges
        self._read = read
        self.head = ranges[-1].upto if ranges else 0

    def _where(self, part: _Range, wanted: Filter, after: int, upto: int | None) -> tuple[str, list[object]]:
        m = self._db.mark
        lo, hi = max(after, part.after), part.upto if upto is None else min(upto, part.upto)
        clauses = [f"originator_id = {m}", f"originator_version > {m}", f"originator_version <= {m}"]
        params: list[object] = [self._db.stream(part.stream), lo, hi]
        if wanted.public_only:
            clauses.append("public = 1")
        if wanted.topics:
            clauses.append(f"topic IN ({', '.join(m for _ in wanted.topics)})")
            params.extend(sorted(wanted.topics))
        if wanted.star is not None:
            clauses.append(self._db.contains("stars"))
            params.append(stars_column([wanted.star]))
        return " AND ".join(clauses), params

    def _parts(self, after: int, upto: int | None, *, desc: bool) -> list[_Range]:
        parts = [p for p in self._ranges if p.upto > after and (upto is None or p.after < upto)]
        return parts[::-1] if desc else parts

    def count(self, wanted: Filter, *, after: int = 0, upto: int | None = None) -> int:
        return sum(
            self._count(*self._where(part, wanted, after, upto)) for part in self._parts(after, upto, desc=False)
        )

    def _count(self, where: str, params: list[object]) -> int:
        rows = self._db.query(f"SELECT count(*) AS n FROM {self._db.table} WHERE {where}", params)  # noqa: S608 - built from fixed clauses
        return int(rows[0]["n"])

    def versions(
        self,
        wanted: Filter,
        *,
        after: int = 0,
        upto: int | None = None,
        offset: int = 0,
        limit: int | None = None,
        desc: bool = False,
    ) -> list[int]:
        """The versions of the wanted events in (after, upto], in order (or from the last, `desc`)."""
        found: list[int] = []
        for part in self._parts(after, upto, desc=desc):
            if limit is not None and len(found) >= limit:
                break
            where, params = self._where(part, wanted, after, upto)
            if offset:
                held = self._count(where, params)
                if offset >= held:
                    offset -= held
                    continue
            more = None if limit is None else limit - len(found)
            statement = (
                f"SELECT originator_version AS v FROM {self._db.table} WHERE {where} "  # noqa: S608 - built from fixed clauses
                f"ORDER BY originator_version {'DESC' if desc else 'ASC'} LIMIT {self._db.mark} OFFSET {self._db.mark}"
            )
            params += [(-1 if more is None else more) if self._db.sqlite else more, offset]
            found += [int(row["v"]) for row in self._db.query(statement, params)]
            offset = 0
        return found

    def last(self, wanted: Filter, *, after: int = 0, upto: int | None = None) -> int | None:
        found = self.versions(wanted, after=after, upto=upto, limit=1, desc=True)
        return found[0] if found else None

    def events(self, versions: Iterable[int]) -> Iterator[LedgerEvent]:
        """The events at these versions (ascending), read a run of consecutive versions at a time."""
        runs: list[list[int]] = []
        for version in versions:
            if runs and runs[-1][1] == version - 1:
                runs[-1][1] = version
            else:
                runs.append([version, version])
        for first, last in runs:
            yield from self._read(first - 1, last)


def event_index(ledger: Any, ref: Any) -> EventIndex | None:
    """The branch's index if it covers every event of the branch up to its head, else None.

    `ledger` is a `Ledger` and `ref` a `BranchRef` (ledger/service.py imports this module)."""
    dialect = _Dialect(ledger.app.recorder)
    if not dialect.exists():
        return None
    head = ledger.head(ref).version
    segments: Sequence[Segment] = ref.segments
    ranges = [
        _Range(s.branch_id, s.after, min(head, s.upto) if s.upto is not None else head)
        for s in segments
        if s.after < head
    ]
    for part in ranges:
        # A stream's rows run from its first event: the last one it needs covers all of them.
        found = dialect.query(
            f"SELECT 1 AS one FROM {dialect.table} WHERE originator_id = {dialect.mark} AND originator_version = {dialect.mark}",  # noqa: S608 - the ledger's own table name
            [dialect.stream(part.stream), part.upto],
        )
        if not found:
            return None
    return EventIndex(dialect, ranges, lambda after, upto: ledger.events(ref, after=after, upto=upto))


# ----------------------------------------------------------------------- verify


class IndexWalk:
    """`verify`'s check of the index along its one walk of the branch: every row of the branch's
    streams is what its event says (topic, visibility, Stars), sits where an event is, and follows
    no gap (a reader would miss the events in it). The walk hands each event as it comes, with its
    fact decoded once for every check that needs it."""

    def __init__(self, ledger: Any, ref: Any) -> None:
        dialect = _Dialect(ledger.app.recorder)
        self._dialect = dialect if dialect.exists() else None
        self._segments: list[Segment] = list(ref.segments)
        self._at = -1  # the segment being walked
        self._rows: Iterator[Any] = iter(())
        self.found: Problem | None = None
        self._unreadable: Exception | None = None

    def check(self, stored: StoredEvent, visibility: object, fact: Callable[[], tuple[Fact, str, str]]) -> None:
        """The next event of the walk, in order: its visibility as stored, and its fact (with its
        hash and command id, as the walk decodes them)."""
        if self._dialect is None or self.found is not None or self._unreadable is not None:
            return
        version = stored.originator_version
        while not self._in_segment(stored):
            if self._at >= len(self._segments):
                return  # not an event of the branch's streams: the chain check names it
            self._leave_segment()
            if self.found is not None:
                return
        row = next(self._rows, None)
        if row is None:
            return  # the stream's rows ended: its later events are read from the events themselves
        if int(row["v"]) != version:
            self.found = _misplaced(int(row["v"]), f"event #{version}")
            return
        try:
            stars = stars_column(fact()[0].stars())
        except UnreadableEvent as e:
            self._unreadable = e
            return
        if (row["topic"], int(row["public"]), row["stars"]) != (stored.topic, int(visibility == "public"), stars):
            self.found = Problem(
                version, f"the read index does not match event #{version}: it was changed outside the ledger"
            )

    def problem(self) -> Problem | None:
        """Once the walk has reached the head: the first row found wrong, or a row past the events."""
        while self.found is None and self._unreadable is None and self._at < len(self._segments):
            self._leave_segment()
        if self._unreadable is not None:
            raise self._unreadable
        return self.found

    def _in_segment(self, stored: StoredEvent) -> bool:
        if self._at < 0 or self._at >= len(self._segments):
            return False
        segment = self._segments[self._at]
        version = stored.originator_version
        return (
            _stream_id(stored.originator_id) == segment.branch_id
            and version > segment.after
            and (segment.upto is None or version <= segment.upto)
        )

    def _leave_segment(self) -> None:
        """Past the segment's events: a row left over lists an event that is not there."""
        left = next(self._rows, None)
        if left is not None:
            self.found = _misplaced(int(left["v"]), "no more events")
            return
        self._at += 1
        if self._dialect is not None and self._at < len(self._segments):
            self._rows = _paged_rows(self._dialect, self._segments[self._at])


def _misplaced(version: int, instead: str) -> Problem:
    return Problem(
        version,
        f"the read index lists event #{version} where the branch has {instead}: it was changed outside the ledger",
    )


def _stream_id(value: UUID | str) -> UUID:
    return value if isinstance(value, UUID) else UUID(str(value))


_PAGE = 2000


def _paged_rows(dialect: _Dialect, segment: Segment) -> Iterator[Any]:
    """The stream's index rows from its first event in the segment (a stream written before the index has none)."""
    m, after = dialect.mark, segment.after
    while True:
        statement = (
            f"SELECT originator_version AS v, topic, public, stars FROM {dialect.table} "  # noqa: S608 - the ledger's own table name
            f"WHERE originator_id = {m} AND originator_version > {m} "
            + ("" if segment.upto is None else f"AND originator_version <= {segment.upto:d} ")
            + f"ORDER BY originator_version LIMIT {_PAGE:d}"
        )
        page = dialect.query(statement, [dialect.stream(segment.branch_id), after])
        yield from page
        if len(page) < _PAGE:
            return
        after = int(page[-1]["v"])
