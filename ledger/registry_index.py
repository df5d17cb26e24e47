"""The registry index: a row per registered campaign and per registered branch, written in the
transaction that writes the registration, so that a name is found, and a list paged, with an
indexed read whatever the number of campaigns or branches.

The registrations (`CampaignRegistered`, `BranchRegistered`) stay the truth: readers check
what they use against them, and `verify` compares every row with its registration. Rows of a
registry stream are written as a run from its first entry (a row only after the row of the entry
before it), like the read index's: the catalog of a database written before the index, or a
branch index written by a version without it, is found not covered and replayed instead, and
filled in by the next registration written beside it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal, NamedTuple
from uuid import UUID

from eventsourcing.persistence import AggregateRecorder, StoredEvent
from eventsourcing.sqlite import SQLiteAggregateRecorder

from .events import LedgerEvent
from .facts import BranchRegistered, CampaignRegistered
from .registry import BranchEntry, CampaignEntry, branch_entry, campaign_entry


class CampaignRow(NamedTuple):
    name: str
    campaign_id: str
    title: str
    ruleset: str
    main_branch_id: str
    stream_id: str
    """The registry stream that holds the registration: its own, or the catalog."""
    stream_version: int

    def entry(self) -> CampaignEntry:
        return CampaignEntry(UUID(self.campaign_id), self.name, self.title, self.ruleset, UUID(self.main_branch_id))


class BranchRow(NamedTuple):
    campaign_id: str
    position: int
    """The registration's version in the campaign's branch index."""
    name: str
    branch_id: str
    parent_id: str | None
    fork_version: int

    def entry(self) -> BranchEntry:
        parent = UUID(self.parent_id) if self.parent_id is not None else None
        return BranchEntry(UUID(self.branch_id), self.name, parent, self.fork_version)


class Rows(NamedTuple):
    campaigns: Sequence[CampaignRow] = ()
    branches: Sequence[BranchRow] = ()

    def __bool__(self) -> bool:
        return bool(self.campaigns or self.branches)


NO_ROWS = Rows()


def campaign_row(entry: CampaignEntry, stream_id: UUID, version: int) -> CampaignRow:
    return CampaignRow(
        entry.name, entry.id.hex, entry.title, entry.ruleset, entry.main_branch_id.hex, stream_id.hex, version
    )


def branch_row(campaign_id: UUID, position: int, entry: BranchEntry) -> BranchRow:
    parent = entry.parent_id.hex if entry.parent_id is not None else None
    return BranchRow(campaign_id.hex, position, entry.name, entry.id.hex, parent, entry.fork_version)


def rows_of(events: Iterable[LedgerEvent]) -> Rows:
    """The rows for registrations about to be saved."""
    campaigns, branches = [], []
    for event in events:
        fact = event.fact
        if isinstance(fact, CampaignRegistered):
            campaigns.append(campaign_row(campaign_entry(fact), event.originator_id, event.version))
        elif isinstance(fact, BranchRegistered):
            branches.append(branch_row(event.originator_id, event.version, branch_entry(fact)))
    return Rows(campaigns, branches)


# ----------------------------------------------------------------------- SQL, per database


def campaigns_table(events_table: str) -> str:
    return f"{events_table}_campaigns"


def branches_table(events_table: str) -> str:
    return f"{events_table}_branches"


def create_statements(events_table: str, *, schema: str | None = None) -> list[str]:
    """The tables, on SQLite (`schema` None) or in a PostgreSQL schema."""
    integer = "INTEGER" if schema is None else "bigint"
    campaigns, branches = (
        _qualified(campaigns_table(events_table), schema),
        _qualified(branches_table(events_table), schema),
    )
    return [
        f"CREATE TABLE IF NOT EXISTS {campaigns} ("
        "name TEXT NOT NULL PRIMARY KEY, campaign_id TEXT NOT NULL UNIQUE, title TEXT NOT NULL, "
        f"ruleset TEXT NOT NULL, main_branch_id TEXT NOT NULL, stream_id TEXT NOT NULL, stream_version {integer} NOT NULL, "
        "UNIQUE (stream_id, stream_version))",
        f"CREATE TABLE IF NOT EXISTS {branches} ("
        f"campaign_id TEXT NOT NULL, position {integer} NOT NULL, name TEXT NOT NULL, branch_id TEXT NOT NULL, "
        f"parent_id TEXT, fork_version {integer} NOT NULL, PRIMARY KEY (campaign_id, position), "
        "UNIQUE (campaign_id, name), UNIQUE (campaign_id, branch_id))",
        # `branch list` pages in fork order.
        f"CREATE INDEX IF NOT EXISTS {forks_index(events_table)} ON {branches} (campaign_id, fork_version, name)",
    ]


def forks_index(events_table: str) -> str:
    """The index `branch list` pages by; made last, so its presence says the tables are there."""
    return f"{branches_table(events_table)}_forks"


def _qualified(table: str, schema: str | None) -> str:
    return table if schema is None else f'"{schema}"."{table}"'


def insert(cursor: Any, events_table: str, rows: Rows, mark: str, *, schema: str | None = None) -> None:
    """Write the rows with `cursor`, in the transaction that writes their registrations.

    A row follows the row of the entry before it in its stream, or opens the stream: a name
    already taken is a unique-key conflict, which fails the whole save."""
    m = mark
    campaigns, branches = (
        _qualified(campaigns_table(events_table), schema),
        _qualified(branches_table(events_table), schema),
    )
    if rows.campaigns:
        cursor.executemany(
            f"INSERT INTO {campaigns} SELECT {', '.join([m] * 7)} "  # noqa: S608 - the ledger's own table name
            f"WHERE {m} OR EXISTS (SELECT 1 FROM {campaigns} WHERE stream_id = {m} AND stream_version = {m})",
            [(*row, row.stream_version == 1, row.stream_id, row.stream_version - 1) for row in rows.campaigns],
        )
    if rows.branches:
        cursor.executemany(
            f"INSERT INTO {branches} SELECT {', '.join([m] * 6)} "  # noqa: S608 - the ledger's own table name
            f"WHERE {m} OR EXISTS (SELECT 1 FROM {branches} WHERE campaign_id = {m} AND position = {m})",
            [(*row, row.position == 1, row.campaign_id, row.position - 1) for row in rows.branches],
        )


# ----------------------------------------------------------------------- reading


BranchOrder = Literal["position", "fork_version, name", "name"]


class RegistryIndex:
    """The index tables of one database, read."""

    def __init__(self, recorder: AggregateRecorder) -> None:
        database: Any = recorder  # SQLite's or PostgreSQL's (ledger/persistence.py opens no other)
        self._datastore: Any = database.datastore
        events_table = database.events_table_name
        if isinstance(database, SQLiteAggregateRecorder):
            self._sqlite, self._mark, schema = True, "?", None
        else:
            self._sqlite, self._mark, schema = False, "%s", self._datastore.schema or "public"
        self._schema = schema
        self.campaigns = _qualified(campaigns_table(events_table), schema)
        self.branches = _qualified(branches_table(events_table), schema)
        self._names = (campaigns_table(events_table), branches_table(events_table))
        self._events = _qualified(events_table, schema)
        self._exists = False

    def _query(self, statement: str, params: Sequence[object] = ()) -> list[Any]:
        with self._datastore.transaction(commit=False) as cursor:
            cursor.execute(statement.replace("?", self._mark), params)
            return list(cursor.fetchall())

    def exists(self) -> bool:
        """Whether this database has the tables (once it has, it keeps them)."""
        if not self._exists:
            if self._sqlite:
                found = self._query(
                    "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)", self._names
                )
            else:
                found = self._query(
                    "SELECT count(*) AS n FROM pg_tables WHERE schemaname = ? AND tablename IN (?, ?)",
                    [self._schema, *self._names],
                )
            self._exists = int(found[0]["n"]) == len(self._names)
        return self._exists

    def registrations(self) -> list[StoredEvent]:
        """Every stored campaign registration, found by its topic, the index aside (for `verify`)."""
        found = self._query(
            f"SELECT originator_id, originator_version, topic, state FROM {self._events} WHERE topic = ?",  # noqa: S608 - the library's own table name
            [CampaignRegistered.topic],
        )
        return [
            StoredEvent(
                UUID(str(row["originator_id"])), int(row["originator_version"]), row["topic"], bytes(row["state"])
            )
            for row in found
        ]

    def last_events(self, stream_ids: Iterable[UUID]) -> dict[UUID, StoredEvent]:
        """The last stored event of each stream, in one read (a page of `branch list` needs each head)."""
        wanted = [i.hex if self._sqlite else i for i in stream_ids]
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        found = self._query(
            f"SELECT e.originator_id, e.originator_version, e.topic, e.state FROM {self._events} e "  # noqa: S608 - the library's own table name
            f"WHERE e.originator_id IN ({marks}) AND e.originator_version = "
            f"(SELECT max(originator_version) FROM {self._events} WHERE originator_id = e.originator_id)",
            wanted,
        )
        return {
            UUID(str(row["originator_id"])): StoredEvent(
                UUID(str(row["originator_id"])), int(row["originator_version"]), row["topic"], bytes(row["state"])
            )
            for row in found
        }

    # campaigns

    def campaign_row(self, where: str, params: Sequence[object]) -> CampaignRow | None:
        if not self.exists():
            return None
        found = self._query(f"SELECT * FROM {self.campaigns} WHERE {where} LIMIT 2", params)  # noqa: S608 - fixed clauses
        return _campaign(found[0]) if len(found) == 1 else None

    def campaigns_with_prefix(self, prefix: str) -> list[CampaignRow]:
        """Campaigns whose id starts with `prefix` (hex digits), at most two: one, or "several"."""
        if not self.exists() or not prefix or any(c not in "0123456789abcdef" for c in prefix):
            return []
        found = self._query(
            f"SELECT * FROM {self.campaigns} WHERE campaign_id LIKE ? ORDER BY name LIMIT 3", [prefix + "%"]
        )  # noqa: S608 - fixed clauses
        return [_campaign(row) for row in found]

    def catalog_rows_upto(self, catalog_id: UUID) -> int:
        """How many of the catalog's entries have rows (they run from its first)."""
        if not self.exists():
            return 0
        found = self._query(
            f"SELECT max(stream_version) AS v FROM {self.campaigns} WHERE stream_id = ?", [catalog_id.hex]
        )  # noqa: S608 - fixed clauses
        return int(found[0]["v"] or 0)

    def campaign_page(self, offset: int, limit: int | None) -> list[CampaignRow]:
        statement = f"SELECT * FROM {self.campaigns} ORDER BY name"  # noqa: S608 - fixed clauses
        params: list[object] = []
        if limit is not None:
            statement += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        return [_campaign(row) for row in self._query(statement, params)]

    def campaign_count(self) -> int:
        return int(self._query(f"SELECT count(*) AS n FROM {self.campaigns}")[0]["n"])  # noqa: S608 - fixed clauses

    def all_campaign_rows(self) -> list[CampaignRow]:
        return self.campaign_page(0, None) if self.exists() else []

    # branches

    def branch_rows_upto(self, campaign_id: UUID) -> int:
        """How many of the campaign's branch registrations have rows (they run from its first)."""
        if not self.exists():
            return 0
        found = self._query(f"SELECT max(position) AS v FROM {self.branches} WHERE campaign_id = ?", [campaign_id.hex])  # noqa: S608 - fixed clauses
        return int(found[0]["v"] or 0)

    def has_branch_row(self, campaign_id: UUID, position: int) -> bool:
        if not self.exists():
            return False
        found = self._query(
            f"SELECT 1 AS one FROM {self.branches} WHERE campaign_id = ? AND position = ?",  # noqa: S608 - fixed clauses
            [campaign_id.hex, position],
        )
        return bool(found)

    def branch_row(
        self, campaign_id: UUID, *, name: str | None = None, branch_id: UUID | None = None
    ) -> BranchRow | None:
        column, value = ("name", name) if name is not None else ("branch_id", branch_id.hex if branch_id else "")
        found = self._query(
            f"SELECT * FROM {self.branches} WHERE campaign_id = ? AND {column} = ?",  # noqa: S608 - fixed clauses
            [campaign_id.hex, value],
        )
        return _branch(found[0]) if found else None

    def branch_rows(
        self, campaign_id: UUID, *, offset: int = 0, limit: int | None = None, order: BranchOrder = "position"
    ) -> list[BranchRow]:
        """The campaign's rows in registration order, or by fork point then name, or by name."""
        statement = f"SELECT * FROM {self.branches} WHERE campaign_id = ? ORDER BY {order}"  # noqa: S608 - fixed clauses
        params: list[object] = [campaign_id.hex]
        if limit is not None:
            statement += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        return [_branch(row) for row in self._query(statement, params)]

    def branch_names(self, campaign_id: UUID, ids: Iterable[UUID]) -> dict[UUID, str]:
        wanted = sorted({i.hex for i in ids})
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        found = self._query(
            f"SELECT branch_id, name FROM {self.branches} WHERE campaign_id = ? AND branch_id IN ({marks})",  # noqa: S608 - fixed clauses
            [campaign_id.hex, *wanted],
        )
        return {UUID(row["branch_id"]): row["name"] for row in found}

    def branch_count(self, campaign_id: UUID) -> int:
        found = self._query(f"SELECT count(*) AS n FROM {self.branches} WHERE campaign_id = ?", [campaign_id.hex])  # noqa: S608 - fixed clauses
        return int(found[0]["n"])

    def campaigns_with_branch_rows(self) -> set[str]:
        if not self.exists():
            return set()
        return {row["campaign_id"] for row in self._query(f"SELECT DISTINCT campaign_id FROM {self.branches}")}  # noqa: S608 - fixed clauses


def _campaign(row: Any) -> CampaignRow:
    return CampaignRow(
        row["name"],
        row["campaign_id"],
        row["title"],
        row["ruleset"],
        row["main_branch_id"],
        row["stream_id"],
        int(row["stream_version"]),
    )


def _branch(row: Any) -> BranchRow:
    return BranchRow(
        row["campaign_id"],
        int(row["position"]),
        row["name"],
        row["branch_id"],
        row["parent_id"],
        int(row["fork_version"]),
    )
