"""Choosing and opening the event store: core eventsourcing SQLite or PostgreSQL.

Measured problems this module exists for: a fresh PostgreSQL database crashes
concurrent table creation, so creation is serialised with an advisory lock; a
lock held by another writer must end in a clear "busy", never a hang, so both
backends get a lock timeout.

A database is looked at before the library touches it (the library turns a file into
WAL mode and creates its tables as it connects): a read finds a ledger there or says
there is none, and a file that is damaged, not SQLite, or another program's, is refused
before anything is written to it. The SQLite file is created readable by its owner
alone: it holds the Director's private notes.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, unquote, urlsplit
from uuid import UUID

from eventsourcing.persistence import AggregateRecorder, DatabaseError, OperationalError, StoredEvent
from eventsourcing.sqlite import (
    SQLiteAggregateRecorder,
    SQLiteApplicationRecorder,
    SQLiteConnection,
    SQLiteConnectionPool,
    SQLiteCursor,
    SQLiteDatastore,
    SQLiteFactory,
)
from eventsourcing.utils import Environment, EnvType

from . import heads, registry_index
from .errors import LedgerBusy, LedgerError, SettingsError
from .read_index import Entry, index_table, insert_params, insert_statement, sqlite_create_statement
from .settings import Settings

if TYPE_CHECKING:
    import psycopg
    from eventsourcing.postgres import PostgresAggregateRecorder
    from psycopg.rows import TupleRow


class DatabaseDamaged(LedgerError):
    """SQLite found damaged pages: the file was changed outside the ledger, or the disk failed."""


class NoLedger(SettingsError):
    """No ledger at the database yet (a missing or empty SQLite file, an empty schema), and none may be made."""


def _no_ledger(where: str) -> NoLedger:
    return NoLedger(
        f"there is no ledger {where}: create a campaign with `showrunner campaign new`, "
        "or pass --db to an existing ledger"
    )


_EVENT_COLUMNS = ("originator_id", "originator_version", "topic", "state")
"""The columns of the library's `stored_events` and `stored_snapshots` tables, in order."""
_SQLITE_TABLES = ("stored_events", "stored_snapshots")
SOUND_STAMP = "SHOWRUNNER_SOUND_STAMP"
"""The file that says how this process's last write left a SQLite file found sound (data folder)."""
_DAMAGE_CODES = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def _damaged(path: Path, error: object) -> DatabaseDamaged:
    return DatabaseDamaged(
        f"the ledger file {path} is damaged ({error}); nothing was written: "
        "restore it from a backup or a `showrunner export`"
    )


def _is_damage(error: BaseException) -> bool:
    cause = error if isinstance(error, sqlite3.Error) else error.__cause__
    code = getattr(cause, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in _DAMAGE_CODES


class _DamageNamingConnection(SQLiteConnection):
    """A damaged page ends the command with one line naming the file, not a library traceback."""

    def __init__(self, sqlite_conn: sqlite3.Connection, max_age: float | None, pool: _DurableConnectionPool) -> None:
        super().__init__(sqlite_conn=sqlite_conn, max_age=max_age)
        self._pool = pool

    @contextmanager
    def transaction(self, *, commit: bool) -> Iterator[SQLiteCursor]:
        try:
            if commit:
                self._pool.check_before_writing(self._sqlite_conn)
            with super().transaction(commit=commit) as cursor:
                yield cursor
            if commit:
                self._pool.wrote = True
        except DatabaseError as e:
            if _is_damage(e):
                raise _damaged(self._pool.path, e.__cause__ or e) from None
            raise


class _DurableConnectionPool(SQLiteConnectionPool):
    def __init__(self, *, db_name: str, lock_timeout: int | None, stamp_file: Path | None = None) -> None:
        super().__init__(db_name=db_name, lock_timeout=lock_timeout)
        self.path = Path(self.db_name)
        self._sound = False
        self._stamp_file = stamp_file
        self.wrote = False

    def _stamp(self) -> str:
        """The file (and its WAL) as the file system sees it: any write by anyone changes it."""
        parts = []
        for name in (self.path, Path(f"{self.path}-wal")):
            try:
                found = name.stat()
            except FileNotFoundError:
                parts.append("-")
                continue
            # An empty WAL holds nothing: a connection opening the file makes one.
            empty = found.st_size == 0 and name != self.path
            parts.append("-" if empty else f"{found.st_dev}:{found.st_ino}:{found.st_size}:{found.st_mtime_ns}")
        return " ".join(parts)

    def close(self) -> None:
        super().close()
        # The file as this process leaves it, after writes to a file it found sound: the next
        # process to write finds it unchanged since and need not check every page again (the
        # check reads the whole file: 350 ms before each write at 1,000 campaigns). A change by
        # anything else, an edit or a damaged disk's write, changes the stamp.
        if self._sound and self.wrote and self._stamp_file is not None:
            with suppress(OSError):
                self._stamp_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                tmp = self._stamp_file.with_suffix(".tmp")
                tmp.write_text(self._stamp(), encoding="utf-8")
                os.replace(tmp, self._stamp_file)

    def _unchanged_since_found_sound(self) -> bool:
        if self._stamp_file is None:
            return False
        try:
            return self._stamp_file.read_text(encoding="utf-8") == self._stamp()
        except OSError:
            return False

    def _create_connection(self) -> SQLiteConnection:
        connection = super()._create_connection()
        # WAL with FULL sync: a committed command survives a power cut, not just a crash.
        connection._sqlite_conn.execute("PRAGMA synchronous=FULL")
        return _DamageNamingConnection(connection._sqlite_conn, self.max_age, self)

    def check_before_writing(self, conn: sqlite3.Connection) -> None:
        """Once per process, before its first write: SQLite would add rows to a damaged file as
        long as they touch no damaged page. Paid by writing commands only."""
        if self._sound:
            return
        if self._unchanged_since_found_sound():
            self._sound = True
            return
        damage = self.page_damage(conn)
        if damage is not None:
            raise damage
        self._sound = True

    def page_damage(self, conn: sqlite3.Connection) -> DatabaseDamaged | None:
        """SQLite's own check of every page of the file (about 2 ms a MB): the damage, or None."""
        try:
            found = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
        except sqlite3.Error as e:
            if _is_damage(e):
                return _damaged(self.path, e)
            raise OperationalError(e) from e  # as the library reports it: "busy" is recognised
        if found == ["ok"]:
            return None
        detail = next((line for line in found if not line.startswith("***")), found[0])
        return _damaged(self.path, " ".join(detail.split()))


class _StreamReadingRecorder(SQLiteAggregateRecorder):
    """The library's recorder, reading a stream's rows as plain tuples: its own reading makes a
    name-indexed row and parses the stream's id again for each one, a third of a replay's read."""

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        if not isinstance(originator_id, UUID) or self.datastore.originator_id_type != "uuid":
            return super().select_events(originator_id, gt=gt, lte=lte, desc=desc, limit=limit)
        statement = f"SELECT originator_version, topic, state FROM {self.events_table_name} WHERE originator_id=? "  # noqa: S608 - the library's own table name
        params: list[object] = [originator_id.hex]
        if gt is not None:
            statement += "AND originator_version>? "
            params.append(gt)
        if lte is not None:
            statement += "AND originator_version<=? "
            params.append(lte)
        statement += "ORDER BY originator_version " + ("DESC " if desc else "ASC ")
        if limit is not None:
            statement += "LIMIT ? "
            params.append(limit)
        with self.datastore.transaction(commit=False) as c:
            cursor = c.sqlite_cursor
            cursor.row_factory = None
            cursor.execute(statement, params)
            # Every row is of the stream asked for: its id is the one given.
            return [StoredEvent(originator_id, version, topic, state) for version, topic, state in cursor.fetchall()]


class SQLiteLedgerRecorder(_StreamReadingRecorder, SQLiteApplicationRecorder):
    """Saves a command's events with what readers keep beside them, in the one transaction: the
    read index's rows (ledger/read_index.py), the registry index's (ledger/registry_index.py)
    and the head the command leaves (ledger/heads.py)."""

    def __init__(self, datastore: SQLiteDatastore, events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name)
        self._index_made = False
        self._registry_made = False
        self._heads_made = False

    def construct_create_table_statements(self) -> list[str]:
        return [
            *super().construct_create_table_statements(),
            sqlite_create_statement(self.events_table_name),
            *registry_index.create_statements(self.events_table_name),
            *heads.CREATE,
        ]

    def _insert_events(
        self,
        c: SQLiteCursor,
        stored_events: Sequence[StoredEvent],
        *,
        read_index: Sequence[Entry] = (),
        registry: registry_index.Rows = registry_index.NO_ROWS,
        head: heads.Head | None = None,
        **kwargs: Any,
    ) -> Sequence[int] | None:
        ids = super()._insert_events(c, stored_events, **kwargs)
        if registry:
            if not self._registry_made:  # a database written before the registry index
                for statement in registry_index.create_statements(self.events_table_name):
                    c.execute(statement)
                self._registry_made = True
            registry_index.insert(c, self.events_table_name, registry, "?")
        if read_index:
            if not self._index_made:  # a database written before the index: from now on it has one
                c.execute(sqlite_create_statement(self.events_table_name))
                self._index_made = True
            statement = insert_statement(index_table(self.events_table_name), "?")
            c.executemany(statement, insert_params(read_index, lambda stream: stream.hex))
        if head is not None:
            self._write_head(c, head)
        return ids

    def _write_head(self, c: SQLiteCursor, head: heads.Head) -> None:
        if not self._heads_made:  # a ledger written before heads were kept keeps them from now on
            heads.create(c)
            self._heads_made = True
        try:
            heads.write(c, head)
        except sqlite3.OperationalError as e:
            if "no such table" not in str(e):
                raise
            heads.create(c)  # dropped while this process ran: SQLite's transaction goes on
            heads.write(c, head)


class DurableSQLiteFactory(SQLiteFactory):
    aggregate_recorder_class = _StreamReadingRecorder
    application_recorder_class = SQLiteLedgerRecorder

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        old = self.datastore.pool
        stamp = self.env.get(SOUND_STAMP)
        self.datastore.pool = _DurableConnectionPool(
            db_name=old.db_name, lock_timeout=old.lock_timeout, stamp_file=Path(stamp) if stamp else None
        )
        old.close()


def environment(settings: Settings, *, create: bool = True) -> dict[str, str]:
    """The library's settings for this database; with create=False there must be a ledger there."""
    if settings.is_postgres:
        return _postgres_environment(settings.db_url, settings.lock_timeout)
    path = settings.sqlite_file
    if path.exists() and path.is_dir():
        raise SettingsError(f"{path} is a directory; --db wants a database file or URL")
    found = _sqlite_ledger(path, settings.lock_timeout)
    if not create and found != "ledger":
        raise _no_ledger(f"at {path}" + ("" if found == "missing" else " (the file holds no ledger yet)"))
    if found == "missing":
        _create_private_file(path)
    key = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:32]
    env = {
        SOUND_STAMP: str(settings.data_dir / "checked" / key),
        "PERSISTENCE_MODULE": f"{__name__}:DurableSQLiteFactory",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": str(settings.lock_timeout),
        "IS_SNAPSHOTTING_ENABLED": "y",
    }
    if found == "ledger":
        env["CREATE_TABLE"] = "n"
    return env


def _create_private_file(path: Path) -> None:
    """An empty file only its owner may read; SQLite gives its -wal and -shm files the same mode."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with suppress(FileExistsError):  # another process created it a moment ago: SQLite opens it as it is
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _sqlite_ledger(path: Path, lock_timeout: int) -> str:
    """ "missing", "empty" (no ledger tables yet) or "ledger"; refuses a file that cannot hold one.

    Read through a read-only connection, so that looking never changes the file.
    """
    if not path.exists():
        return "missing"
    if not _looks_like_sqlite(path):
        raise SettingsError(f"{path} is not a SQLite database; pass another --db")
    if path.stat().st_size == 0:
        return "empty"
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=lock_timeout)
        try:
            columns = {t: tuple(row[1] for row in conn.execute(f"PRAGMA table_info({t})")) for t in _SQLITE_TABLES}
            ours = [t for t in _SQLITE_TABLES if columns[t]]
            held = any(conn.execute(f"SELECT 1 FROM {t} LIMIT 1").fetchone() for t in ours)  # noqa: S608 - fixed names
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        if _is_damage(e):
            raise _damaged(path, e) from None
        if is_busy_error(e):
            raise LedgerBusy("the database is busy (locked by another writer); try again") from None
        raise SettingsError(f"cannot read {path} ({e}); pass another --db") from None
    for table in ours:
        if columns[table] != _EVENT_COLUMNS:
            raise SettingsError(
                f"{path} is another program's SQLite database: its {table} table has the columns "
                f"{', '.join(columns[table])}, not a ledger's; pass another --db"
            )
    if len(ours) == len(_SQLITE_TABLES):
        return "ledger"
    if held:
        # The ledger creates both tables before it writes a row: one alone, holding rows, is another program's.
        raise SettingsError(
            f"{path} is another program's SQLite database ({ours[0]} without {_twin(ours[0])}), not a ledger; pass another --db"
        )
    return "empty"


def _twin(table: str) -> str:
    return next(t for t in _SQLITE_TABLES if t != table)


def _looks_like_sqlite(path: Path) -> bool:
    with path.open("rb") as f:
        header = f.read(16)
    return header == b"" or header == b"SQLite format 3\x00"


def _postgres_environment(url: str, lock_timeout: int) -> dict[str, str]:
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    dbname = parts.path.lstrip("/")
    if not dbname:
        raise SettingsError(f"'{url}' names no database: postgresql://USER@HOST:PORT/DBNAME")
    env = {
        "PERSISTENCE_MODULE": f"{__package__}.postgres_store:BoundedPostgresFactory",
        "POSTGRES_DBNAME": unquote(dbname),
        "POSTGRES_HOST": parts.hostname or "localhost",
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": unquote(parts.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
        "POSTGRES_LOCK_TIMEOUT": str(lock_timeout),
        "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": str(max(lock_timeout * 2, 10)),
        "POSTGRES_CONNECT_TIMEOUT": str(max(lock_timeout, 5)),
        "POSTGRES_POOL_SIZE": "2",
        "POSTGRES_MAX_OVERFLOW": "2",
        "IS_SNAPSHOTTING_ENABLED": "y",
    }
    if "schema" in query:
        env["POSTGRES_SCHEMA"] = query["schema"][0]
    return env


# Any fixed 64-bit number: every ledger process agrees on it.
INIT_LOCK_KEY = 0x5348_4F57_5255_4E00 & 0x7FFF_FFFF_FFFF_FFFF


@contextmanager
def initialisation_lock(settings: Settings, tables: tuple[str, ...], *, create: bool = True) -> Iterator[bool]:
    """Yield whether the ledger's tables already exist; if not, hold the creation lock.

    PostgreSQL races concurrent table creation, so creators take an advisory lock. Once
    the tables exist nobody creates them again: re-running CREATE INDEX IF NOT EXISTS
    would take a SHARE lock and queue every start behind the writers. With create=False
    there must be a ledger already: nothing is created, not even the schema.
    """
    if not settings.is_postgres:
        yield False
        return
    import psycopg
    from psycopg import sql

    env = _postgres_environment(settings.db_url, settings.lock_timeout)
    schema = env.get("POSTGRES_SCHEMA", "public")
    try:
        conn = psycopg.connect(
            dbname=env["POSTGRES_DBNAME"],
            host=env["POSTGRES_HOST"],
            port=env["POSTGRES_PORT"],
            user=env["POSTGRES_USER"],
            password=env["POSTGRES_PASSWORD"] or None,
            connect_timeout=int(env["POSTGRES_CONNECT_TIMEOUT"]),
            autocommit=True,
        )
    except psycopg.OperationalError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise SettingsError(f"cannot connect to PostgreSQL at {redacted(settings.db_url)}: {first}") from None
    with conn:
        if _tables_exist(conn, schema, tables):
            conn.close()
            yield True
            return
        if not create:
            raise _no_ledger(f"in {redacted(settings.db_url)}")
        # Creation by others takes well under a second each; a stuck creator must still
        # end in "busy", not a hang.
        conn.execute(sql.SQL("SET lock_timeout = {}").format(sql.Literal(f"{max(settings.lock_timeout, 30)}s")))
        try:
            conn.execute("SELECT pg_advisory_lock(%s)", (INIT_LOCK_KEY,))
        except psycopg.errors.LockNotAvailable:
            raise LedgerBusy("another process is creating the ledger's tables; try again") from None
        try:
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
            yield _tables_exist(conn, schema, tables)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (INIT_LOCK_KEY,))


def _tables_exist(conn: psycopg.Connection[TupleRow], schema: str, tables: tuple[str, ...]) -> bool:
    """Whether every table is there; a table of that name with other columns is another program's."""
    columns: dict[str, set[str]] = {}
    rows = conn.execute(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = %s AND table_name = ANY(%s)",
        (schema, list(tables)),
    ).fetchall()
    for table, column in rows:
        columns.setdefault(table, set()).add(column)
    for table, found in sorted(columns.items()):
        if not set(_EVENT_COLUMNS) <= found:
            raise SettingsError(
                f"the table {schema}.{table} in {conn.info.dbname} belongs to another program (columns: "
                f"{', '.join(sorted(found))}); pass another --db, or another ?schema="
            )
    return len(columns) == len(tables)


def redacted(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@")
    return url


def is_busy_error(error: BaseException) -> bool:
    """A lock held past the timeout, on either backend (the wording is all they share)."""
    text = f"{error} {error.__cause__ or ''}".lower()
    return any(marker in text for marker in _BUSY_MARKERS)


_BUSY_MARKERS = (
    "database is locked",  # SQLite, after its busy timeout
    "lock timeout",  # PostgreSQL lock_timeout
    "canceling statement due to lock",
    "locknotavailable",
)


def database_recorder(recorder: AggregateRecorder) -> SQLiteAggregateRecorder | PostgresAggregateRecorder:
    """The recorder as the database it writes to, for the statements the library has none for."""
    if isinstance(recorder, SQLiteAggregateRecorder):
        return recorder
    # Imported only here: SQLite users never pay for importing psycopg.
    from eventsourcing.postgres import PostgresAggregateRecorder

    if isinstance(recorder, PostgresAggregateRecorder):
        return recorder
    raise TypeError(f"{type(recorder).__name__} stores events in neither SQLite nor PostgreSQL")


def delete_snapshot(recorder: AggregateRecorder, stream_id: UUID, version: int) -> None:
    """Remove one snapshot row. Snapshots are a cache; the library offers no delete."""
    database = database_recorder(recorder)
    table = database.events_table_name
    if isinstance(database, SQLiteAggregateRecorder):
        with database.datastore.transaction(commit=True) as cursor:
            cursor.execute(
                f"DELETE FROM {table} WHERE originator_id = ? AND originator_version = ?",  # noqa: S608 - the library's own table name
                (stream_id.hex, version),
            )
        return
    from psycopg import sql

    schema = database.datastore.schema or "public"
    statement = sql.SQL("DELETE FROM {}.{} WHERE originator_id = %s AND originator_version = %s").format(
        sql.Identifier(schema), sql.Identifier(table)
    )
    with database.datastore.transaction(commit=True) as cursor:
        cursor.execute(statement, (stream_id, version))


def storage_damage(recorder: AggregateRecorder) -> str | None:
    """SQLite's own check of every page of the file, for `verify`: a damaged page no event read
    touches is still damage. None when sound, and on PostgreSQL (which checks its own pages)."""
    if not isinstance(recorder, SQLiteAggregateRecorder):
        return None
    pool = recorder.datastore.pool
    if not isinstance(pool, _DurableConnectionPool):
        return None
    try:
        with closing(sqlite3.connect(f"{pool.path.resolve().as_uri()}?mode=ro", uri=True)) as conn:
            damage = pool.page_damage(conn)
    except sqlite3.Error as e:  # the file could not even be opened
        damage = _damaged(pool.path, e)
    except OperationalError as e:
        if is_busy_error(e):
            raise LedgerBusy("the database is busy (locked by another writer); try again") from None
        raise
    return str(damage) if damage is not None else None
