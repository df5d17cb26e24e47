"""Choosing and opening the event store: core eventsourcing SQLite or PostgreSQL.

Measured problems this module exists for: a fresh PostgreSQL database crashes
concurrent table creation, so creation is serialised with an advisory lock; a
lock held by another writer must end in a clear "busy", never a hang, so both
backends get a lock timeout.
"""

from __future__ import annotations

from contextlib import contextmanager
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from eventsourcing.sqlite import SQLiteConnection, SQLiteConnectionPool, SQLiteFactory

from .errors import LedgerBusy, SettingsError
from .settings import Settings


class _DurableConnectionPool(SQLiteConnectionPool):
    def _create_connection(self) -> SQLiteConnection:
        connection = super()._create_connection()
        # WAL with FULL sync: a committed command survives a power cut, not just a crash.
        connection._sqlite_conn.execute("PRAGMA synchronous=FULL")
        return connection


class DurableSQLiteFactory(SQLiteFactory):
    def __init__(self, env):  # type: ignore[no-untyped-def]
        super().__init__(env)
        old = self.datastore.pool
        self.datastore.pool = _DurableConnectionPool(
            db_name=old.db_name, lock_timeout=old.lock_timeout
        )
        old.close()


def environment(settings: Settings, *, create: bool = True) -> dict[str, str]:
    if settings.is_postgres:
        return _postgres_environment(settings.db_url, settings.lock_timeout)
    path = settings.sqlite_file
    if path.exists() and path.is_dir():
        raise SettingsError(f"{path} is a directory; --db wants a database file or URL")
    if not create and not path.exists():
        raise SettingsError(
            f"there is no ledger at {path}: create a campaign with `showrunner campaign new`, "
            "or pass --db to an existing ledger"
        )
    if not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and not _looks_like_sqlite(path):
        raise SettingsError(f"{path} is not a SQLite database; pass another --db")
    return {
        "PERSISTENCE_MODULE": f"{__name__}:DurableSQLiteFactory",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": str(settings.lock_timeout),
        "IS_SNAPSHOTTING_ENABLED": "y",
    }


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
_INIT_LOCK_KEY = 0x5348_4F57_5255_4E00 & 0x7FFF_FFFF_FFFF_FFFF


@contextmanager
def initialisation_lock(settings: Settings, tables: tuple[str, ...]) -> Iterator[bool]:
    """Yield whether the ledger's tables already exist; if not, hold the creation lock.

    PostgreSQL races concurrent table creation, so creators take an advisory lock. Once
    the tables exist nobody creates them again: re-running CREATE INDEX IF NOT EXISTS
    would take a SHARE lock and queue every start behind the writers.
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
        raise SettingsError(f"cannot connect to PostgreSQL at {_redacted(settings.db_url)}: {first}") from None
    with conn:
        if _tables_exist(conn, schema, tables):
            conn.close()
            yield True
            return
        # Creation by others takes well under a second each; a stuck creator must still
        # end in "busy", not a hang.
        conn.execute(sql.SQL("SET lock_timeout = {}").format(sql.Literal(f"{max(settings.lock_timeout, 30)}s")))
        try:
            conn.execute("SELECT pg_advisory_lock(%s)", (_INIT_LOCK_KEY,))
        except psycopg.errors.LockNotAvailable:
            raise LedgerBusy("another process is creating the ledger's tables; try again") from None
        try:
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
            yield _tables_exist(conn, schema, tables)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_INIT_LOCK_KEY,))


def _tables_exist(conn, schema: str, tables: tuple[str, ...]) -> bool:  # type: ignore[no-untyped-def]
    for table in tables:
        row = conn.execute("SELECT to_regclass(%s)", (f'"{schema}"."{table}"',)).fetchone()
        if row is None or row[0] is None:
            return False
    return True


def _redacted(url: str) -> str:
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


def delete_snapshot(recorder, stream_id, version: int) -> None:  # type: ignore[no-untyped-def]
    """Remove one snapshot row. Snapshots are a cache; the library offers no delete."""
    table = recorder.events_table_name
    if hasattr(recorder.datastore, "schema"):  # PostgreSQL
        from psycopg import sql

        schema = recorder.datastore.schema or "public"
        statement = sql.SQL("DELETE FROM {}.{} WHERE originator_id = %s AND originator_version = %s").format(
            sql.Identifier(schema), sql.Identifier(table)
        )
        with recorder.datastore.transaction(commit=True) as cursor:
            cursor.execute(statement, (stream_id, version))
        return
    with recorder.datastore.transaction(commit=True) as cursor:
        cursor.execute(
            f"DELETE FROM {table} WHERE originator_id = ? AND originator_version = ?",  # noqa: S608 - the library's own table name
            (stream_id.hex, version),
        )
