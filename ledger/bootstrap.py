"""The composition root: the one place that builds a `Ledger`, for the CLI and for tests."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from eventsourcing.persistence import PersistenceError

from .dice import new_entropy
from .errors import LedgerBusy, SettingsError
from .persistence import environment, initialisation_lock, is_busy_error, redacted
from .seeds import FileKeyStore, KeyStore
from .service import Ledger, LedgerApplication
from .settings import Settings


def bootstrap(
    settings: Settings | None = None,
    *,
    clock: Callable[[], datetime] | None = None,
    entropy: Callable[[], str] = new_entropy,
    create: bool = True,
) -> Ledger:
    """Open the ledger; with create=False a missing SQLite file is an error, not a new ledger.

    `entropy` gives ledger dice their entropy when a command is given none (dice v2)."""
    settings = settings or Settings.load()
    env = environment(settings, create=create)
    prefix = LedgerApplication.name.lower()
    try:
        with initialisation_lock(settings, (f"{prefix}_events", f"{prefix}_snapshots"), create=create) as tables_exist:
            if tables_exist:
                env["CREATE_TABLE"] = "n"
            app = LedgerApplication(env=env)
    except PersistenceError as e:
        if is_busy_error(e):
            raise LedgerBusy("the database is busy (locked by another writer); try again") from None
        raise SettingsError(f"cannot open the database {redacted(settings.db_url)}: {e}") from None
    return Ledger(
        app,
        keys=key_store(settings, app),
        clock=clock,
        entropy=entropy,
        snapshot_interval=settings.snapshot_interval,
    )


def key_store(settings: Settings, app: LedgerApplication) -> KeyStore:
    """The Director's seeds: key files by default, or sealed in the ledger database (several machines)."""
    if settings.key_store == "database":
        from .key_store import DatabaseKeyStore  # cryptography only for those who use it

        return DatabaseKeyStore(app.recorder, settings.key_encryption_key)
    return FileKeyStore(settings.data_dir / "keys")
