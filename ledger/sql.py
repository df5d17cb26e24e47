"""An SQLAlchemy engine on the ledger's own database, for the tables kept beside eventsourcing's
(the roll index, the shared table's identities, its server keys and its posts to the chat).

SQLAlchemy is imported here, so import this module only when one of those tables is needed:
it costs about 0.3 s, which `showrunner --help` and every other command must not pay.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, unquote, urlsplit

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

if TYPE_CHECKING:
    from .settings import Settings


def engine_for(settings: Settings) -> sa.Engine:
    """An engine on the ledger's own database: the same SQLite file, or the same PostgreSQL schema."""
    if settings.is_postgres:
        parts = urlsplit(settings.db_url)
        schema = parse_qs(parts.query).get("schema", [None])[0]
        url = sa.URL.create(
            "postgresql+psycopg",
            username=unquote(parts.username or "postgres"),
            password=unquote(parts.password) if parts.password else None,
            host=parts.hostname or "localhost",
            port=parts.port or 5432,
            database=unquote(parts.path.lstrip("/")),
        )
        engine = sa.create_engine(
            url,
            connect_args={
                "connect_timeout": max(settings.lock_timeout, 5),
                # As for the events: a lock held by another writer ends in "busy", never a hang.
                "options": f"-c lock_timeout={settings.lock_timeout}s",
            },
            poolclass=sa.NullPool,
        )
        if schema:
            # The tables are declared without a schema; every statement, DDL included,
            # is rendered in the ledger's schema (quoted properly, whatever its name).
            engine = engine.execution_options(schema_translate_map={None: schema})
        return engine
    path = settings.sqlite_file.expanduser().resolve()
    return sa.create_engine(
        sa.URL.create("sqlite", database=str(path)),
        connect_args={"timeout": settings.lock_timeout},
        poolclass=sa.NullPool,
    )


def create_tables(engine: sa.Engine, metadata: sa.MetaData) -> None:
    """Create `metadata`'s tables if missing; processes racing to create them all end with them made."""
    for attempt in range(5):
        try:
            with engine.begin() as conn:
                metadata.create_all(conn, checkfirst=True)
            return
        except (sa_exc.ProgrammingError, sa_exc.IntegrityError, sa_exc.OperationalError):
            # Two processes created the tables at once: the other one won, look again.
            if attempt == 4:
                raise
            time.sleep(random.uniform(0.01, 0.05))
