"""PostgreSQL through eventsourcing's core module, with lock waits that end in "busy".

Two problems with the library's defaults, measured in tests/integration/test_concurrency.py:
- its lock timeout is set only around the insert's table lock, so a read waits forever
  behind an ACCESS EXCLUSIVE lock (DDL, VACUUM FULL, `LOCK TABLE`): a hang;
- it retries every OperationalError 10 times, 0.2 s apart, a lock timeout included, so
  "busy" arrives after ten lock timeouts (12 s for a 1 s timeout, 52 s for 5 s).
Here every statement on every pooled connection gets the lock timeout, and a lock
timeout ends at once in `LedgerBusy`; other operational errors (a dropped pooled
connection) are still retried as the library does.

A third: the library locks the whole events table (EXCLUSIVE, then NOTIFY) on every insert,
so that notification ids are handed out in commit order; writers to different campaigns
then wait for each other. Here writers take no table lock: two saves to one stream still
meet at the (originator_id, originator_version) primary key, and the one reader that tails
notification ids (the roll index) asks for a head below which nothing can still commit
(`max_notification_id`). docs/explanation/scale.md has the reasoning and the measurements.

A module of its own, named by PERSISTENCE_MODULE, so that SQLite users never pay for
importing psycopg (about 0.2 s).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from typing import Any, cast

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import (
    PostgresAggregateRecorder,
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresFactory,
)
from eventsourcing.utils import Environment, EnvType
from psycopg import Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL, Identifier

from . import registry_index
from .errors import LedgerBusy
from .persistence import INIT_LOCK_KEY, is_busy_error
from .read_index import Entry, index_table, insert_params, insert_statement, postgres_create_statement

_ATTEMPTS, _WAIT = 10, 0.2  # the library's own retry policy, kept for all but "busy"


def _busy_ends_at_once(method: Callable[..., Any]) -> Callable[..., Any]:
    inner = getattr(method, "__wrapped__", method)  # without the library's retry decorator

    @functools.wraps(inner)
    def call(*args: Any, **kwargs: Any) -> Any:
        for attempt in range(1, _ATTEMPTS + 1):
            try:
                return inner(*args, **kwargs)
            except (InterfaceError, OperationalError) as e:
                if is_busy_error(e):
                    raise LedgerBusy(
                        "the database is busy (a lock was held past the lock timeout); try again"
                    ) from None
                if attempt == _ATTEMPTS:
                    raise
                time.sleep(_WAIT)
        raise AssertionError("unreachable")

    return call


class BoundedAggregateRecorder(PostgresAggregateRecorder):
    insert_events = _busy_ends_at_once(PostgresAggregateRecorder.insert_events)
    select_events = _busy_ends_at_once(PostgresAggregateRecorder.select_events)


# One INSERT per this many events. The library sends a whole save as one array parameter
# inside a psycopg pipeline, and a parameter of several MB there never gets its reply
# (measured: 12 MB and up hang; thirty 1 MB statements in one transaction do not).
_CHUNK = 500


class BoundedApplicationRecorder(PostgresApplicationRecorder):
    insert_events = _busy_ends_at_once(PostgresApplicationRecorder.insert_events)
    select_events = _busy_ends_at_once(PostgresApplicationRecorder.select_events)
    select_notifications = _busy_ends_at_once(PostgresApplicationRecorder.select_notifications)

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        self._chunked_ids: dict[int, list[int]] = {}
        self._index_made = False
        self._registry_made = False
        schema = datastore.schema or "public"
        for statement in [
            postgres_create_statement(schema, events_table_name),
            *registry_index.create_statements(events_table_name, schema=schema),
        ]:
            self.sql_create_statements.append(SQL(statement))  # type: ignore[arg-type]  # a statement built from the ledger's own names
        # No table lock and no NOTIFY on insert (nothing here LISTENs; a NOTIFY would
        # serialise commits on the server's notification queue). The lock timeout is set
        # on every pooled connection already.
        self.lock_table_statements = []
        self._settled_head_statements = [
            # SHARE conflicts with the ROW EXCLUSIVE lock every INSERT holds until its
            # transaction ends: granted once every insert begun before it has committed
            # or rolled back, and inserts begun after it wait (only for this one query).
            SQL("LOCK TABLE {0}.{1} IN SHARE MODE").format(
                Identifier(datastore.schema or "public"), Identifier(events_table_name)
            ),
            self.max_notification_id_statement,
        ]

    def _notify_channel(self, curs: Cursor[DictRow]) -> None:
        pass

    @_busy_ends_at_once
    def max_notification_id(self) -> int | None:
        """The settled head: every notification up to it has committed, and none below it is still to come.

        Ids come from a sequence when a row is inserted, so without a table lock a lower id can
        commit after a higher one. The roll index reads up to this head and records it as its
        position; reading the plain MAX(notification_id) could skip an event still committing."""
        with self.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:
            for statement in self._settled_head_statements:
                curs.execute(statement)
            row = curs.fetchone()
            assert row is not None
            return cast("int | None", row["max"])

    def _insert_stored_events(
        self,
        curs: Cursor[DictRow],
        stored_events: Sequence[StoredEvent],
        *,
        read_index: Sequence[Entry] = (),
        registry: registry_index.Rows = registry_index.NO_ROWS,
        **kwargs: Any,
    ) -> None:
        self._insert_chunked(curs, stored_events, **kwargs)
        if registry:
            schema = self.datastore.schema or "public"
            with curs.connection.cursor() as registry_curs:
                if not self._registry_made:
                    # A database written before the registry index gets it now. Looked for first:
                    # CREATE INDEX IF NOT EXISTS would take a SHARE lock even where the index is,
                    # and two writers holding it would each wait for the other's insert.
                    registry_curs.execute(
                        "SELECT count(*) AS n FROM pg_indexes WHERE schemaname = %s AND indexname = %s",
                        (schema, registry_index.forks_index(self.events_table_name)),
                    )
                    row: Any = registry_curs.fetchone()
                    if not (row["n"] if isinstance(row, dict) else row[0]):
                        for statement in registry_index.create_statements(self.events_table_name, schema=schema):
                            registry_curs.execute(SQL(statement))
                    self._registry_made = True
                registry_index.insert(registry_curs, self.events_table_name, registry, "%s", schema=schema)
        if read_index:
            schema = self.datastore.schema or "public"
            table = f'"{schema}"."{index_table(self.events_table_name)}"'
            # A cursor of its own: the library reads the events' notification ids from `curs` next.
            with curs.connection.cursor() as index_curs:
                if not self._index_made:
                    self._make_index(index_curs, schema)
                index_curs.executemany(
                    SQL(insert_statement(table, "%s")), insert_params(read_index, lambda stream: stream)
                )

    def _make_index(self, curs: Cursor[DictRow], schema: str) -> None:
        """A database written before the index gets one, made by one writer at a time.

        Checked first: the lock is taken only while the table is missing, once per database."""
        table = f'"{schema}"."{index_table(self.events_table_name)}"'
        curs.execute("SELECT to_regclass(%s) IS NOT NULL AS made", (table,))
        row = curs.fetchone()
        if row is None or not row["made"]:
            curs.execute("SELECT pg_advisory_xact_lock(%s)", (INIT_LOCK_KEY,))
            curs.execute(SQL(postgres_create_statement(schema, self.events_table_name)))
        self._index_made = True

    def _insert_chunked(self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent], **kwargs: Any) -> None:
        if len(stored_events) <= _CHUNK:
            super()._insert_stored_events(curs, stored_events, **kwargs)
            return
        ids: list[int] = []
        for start in range(0, len(stored_events), _CHUNK):
            chunk = stored_events[start : start + _CHUNK]
            rows = [
                self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state) for e in chunk
            ]
            curs.execute(query=self.insert_events_statement, params=(rows,))
            ids.extend(row["notification_id"] for row in curs.fetchall())  # a sync per chunk
        # The library asks for the ids right after this call, with the same cursor.
        self._chunked_ids[id(curs)] = ids

    def _fetch_ids_after_insert_events(
        self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        ids = self._chunked_ids.pop(id(curs), None)
        if ids is not None:
            return ids
        return super()._fetch_ids_after_insert_events(curs, stored_events, **kwargs)


class BoundedPostgresFactory(PostgresFactory):
    aggregate_recorder_class = BoundedAggregateRecorder
    application_recorder_class = BoundedApplicationRecorder

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        # The pool is not open yet: each connection it makes gets the lock timeout for
        # every statement (reads and table creation too), not only the insert's lock.
        timeout_ms = int(self.datastore.lock_timeout) * 1000
        if timeout_ms > 0:
            connect_kwargs = self.datastore.pool.kwargs
            assert isinstance(connect_kwargs, dict), "the library gives its pool a dict of connection arguments"
            connect_kwargs["options"] = f"-c lock_timeout={timeout_ms}"
