"""Where the ledger keeps things, and what it refuses to open."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from showrunner_ledger.ledger import persistence
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.errors import SettingsError
from showrunner_ledger.ledger.settings import Settings
from tests.conftest import make_settings


@pytest.fixture
def home(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "config").mkdir()
    return {"SHOWRUNNER_DATA_DIR": str(tmp_path / "data"), "SHOWRUNNER_CONFIG_DIR": str(tmp_path / "config")}


def write_config(home: dict[str, str], text: str) -> Path:
    path = Path(home["SHOWRUNNER_CONFIG_DIR"]) / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_db_precedence(home):
    write_config(home, 'db = "/from/config.sqlite"\n')
    env = {**home, "SHOWRUNNER_DB": "/from/env.sqlite"}
    assert Settings.load(db="/from/flag.sqlite", environ=env).db_url == "/from/flag.sqlite"
    assert Settings.load(environ=env).db_url == "/from/env.sqlite"
    assert Settings.load(environ=home).db_url == "/from/config.sqlite"
    # An empty SHOWRUNNER_DB is as good as none.
    assert Settings.load(environ={**home, "SHOWRUNNER_DB": ""}).db_url == "/from/config.sqlite"
    Path(home["SHOWRUNNER_CONFIG_DIR"], "config.toml").unlink()
    assert Settings.load(environ=home).db_url == str(Path(home["SHOWRUNNER_DATA_DIR"]) / "ledger.sqlite")


def test_default_dirs_come_from_platformdirs(tmp_path, monkeypatch):
    import platformdirs

    asked = []

    def fake(kind):
        def where(app):
            asked.append((kind, app))
            return str(tmp_path / kind)

        return where

    monkeypatch.setattr(platformdirs, "user_data_dir", fake("data"))
    monkeypatch.setattr(platformdirs, "user_config_dir", fake("config"))
    settings = Settings.load(environ={})
    assert settings.data_dir == tmp_path / "data"
    assert settings.config_dir == tmp_path / "config"
    assert settings.db_url == str(tmp_path / "data" / "ledger.sqlite")
    assert sorted(asked) == [("config", "showrunner-ledger"), ("data", "showrunner-ledger")]


def test_integer_settings_precedence(home):
    assert Settings.load(environ=home).lock_timeout == 5
    assert Settings.load(environ=home).snapshot_interval == 200
    write_config(home, "lock_timeout = 9\nsnapshot_interval = 50\n")
    assert Settings.load(environ=home).lock_timeout == 9
    assert Settings.load(environ=home).snapshot_interval == 50
    env = {**home, "SHOWRUNNER_LOCK_TIMEOUT": "3", "SHOWRUNNER_SNAPSHOT_INTERVAL": "7"}
    assert Settings.load(environ=env).lock_timeout == 3
    assert Settings.load(environ=env).snapshot_interval == 7


def test_malformed_config_names_the_file(home):
    path = write_config(home, 'db = "unterminated\n')
    with pytest.raises(SettingsError) as err:
        Settings.load(environ=home)
    assert str(path) in str(err.value)
    assert "not valid TOML" in str(err.value)
    # Even an explicit --db does not hide a broken config file.
    with pytest.raises(SettingsError):
        Settings.load(db="/x.sqlite", environ=home)


def test_config_that_is_not_utf8_names_the_file(home):
    path = Path(home["SHOWRUNNER_CONFIG_DIR"]) / "config.toml"
    path.write_bytes(b'db = "\xff\xfe"\n')
    with pytest.raises(SettingsError) as err:
        Settings.load(environ=home)
    assert str(path) in str(err.value)


@pytest.mark.parametrize("raw", ["soon", "", "2.5", "five"])
def test_non_integer_lock_timeout_is_refused(home, raw):
    with pytest.raises(SettingsError) as err:
        Settings.load(environ={**home, "SHOWRUNNER_LOCK_TIMEOUT": raw})
    assert "lock_timeout must be a whole number" in str(err.value)
    assert repr(raw) in str(err.value)
    assert "SHOWRUNNER_LOCK_TIMEOUT" in str(err.value)


def test_non_integer_setting_in_config_is_refused(home):
    write_config(home, 'snapshot_interval = "often"\n')
    with pytest.raises(SettingsError, match="snapshot_interval must be a whole number"):
        Settings.load(environ=home)


@pytest.mark.parametrize("raw", ["0", "-3"])
def test_lock_timeout_below_one_is_refused(home, raw):
    with pytest.raises(SettingsError, match="lock_timeout must be at least 1"):
        Settings.load(environ={**home, "SHOWRUNNER_LOCK_TIMEOUT": raw})


def test_is_postgres(home):
    assert Settings.load(db="postgresql://u@h/db", environ=home).is_postgres
    assert Settings.load(db="postgres://u@h/db", environ=home).is_postgres
    assert not Settings.load(db="/tmp/postgresql.sqlite", environ=home).is_postgres
    assert not Settings.load(db="sqlite:///tmp/x.sqlite", environ=home).is_postgres


# ------------------------------------------------------------------ persistence


def test_sqlite_environment(tmp_path, home):
    path = tmp_path / "nested" / "dir" / "ledger.sqlite"
    env = persistence.environment(Settings.load(db=str(path), environ={**home, "SHOWRUNNER_LOCK_TIMEOUT": "4"}))
    assert env["SQLITE_DBNAME"] == str(path)
    assert env["SQLITE_LOCK_TIMEOUT"] == "4"
    assert env["IS_SNAPSHOTTING_ENABLED"] == "y"
    assert path.parent.is_dir()  # created for the new database
    url_env = persistence.environment(Settings.load(db=f"sqlite:///{path}", environ=home))
    assert url_env["SQLITE_DBNAME"] == str(path)


def test_sqlite_url_with_two_slashes_is_refused(home):
    with pytest.raises(SettingsError, match="sqlite:///relative/path or sqlite:////absolute/path"):
        persistence.environment(Settings.load(db="sqlite://ledger.sqlite", environ=home))


def test_directory_as_db_is_refused(tmp_path, home):
    with pytest.raises(SettingsError) as err:
        persistence.environment(Settings.load(db=str(tmp_path), environ=home))
    assert str(err.value) == f"{tmp_path} is a directory; --db wants a database file or URL"
    with pytest.raises(SettingsError, match="is a directory"):
        bootstrap(Settings.load(db=str(tmp_path), environ=home))


def test_non_sqlite_file_as_db_is_refused(tmp_path, home):
    notes = tmp_path / "notes.txt"
    notes.write_text("Session 3: the heist goes wrong.\n" * 10)
    before = notes.read_bytes()
    with pytest.raises(SettingsError) as err:
        persistence.environment(Settings.load(db=str(notes), environ=home))
    assert str(err.value) == f"{notes} is not a SQLite database; pass another --db"
    with pytest.raises(SettingsError, match="is not a SQLite database"):
        bootstrap(Settings.load(db=str(notes), environ=home))
    assert notes.read_bytes() == before  # untouched


def test_existing_or_empty_sqlite_file_is_accepted(tmp_path, home):
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    assert persistence.environment(Settings.load(db=str(empty), environ=home))["SQLITE_DBNAME"] == str(empty)
    real = tmp_path / "real.sqlite"
    sqlite3.connect(real).execute("CREATE TABLE t (x)").connection.close()
    assert persistence.environment(Settings.load(db=str(real), environ=home))["SQLITE_DBNAME"] == str(real)


@pytest.mark.parametrize(
    "url", ["postgresql://postgres@127.0.0.1:54320", "postgresql://postgres@127.0.0.1:54320/", "postgres://h/?schema=x"]
)
def test_postgres_url_without_a_database_is_refused(home, url):
    with pytest.raises(SettingsError) as err:
        persistence.environment(Settings.load(db=url, environ=home))
    assert f"'{url}' names no database" in str(err.value)


def test_postgres_environment(home):
    env = persistence.environment(
        Settings.load(db="postgresql://al%40ice:s3cret@db.example:6543/show%20db?schema=t_1", environ=home)
    )
    # eventsourcing's core PostgreSQL module, or a factory built on it.
    from eventsourcing.postgres import PostgresFactory
    from eventsourcing.utils import resolve_topic

    module, _, factory = env["PERSISTENCE_MODULE"].partition(":")
    if factory:
        assert issubclass(resolve_topic(env["PERSISTENCE_MODULE"]), PostgresFactory)
    else:
        assert module == "eventsourcing.postgres"
    assert env["POSTGRES_DBNAME"] == "show db"
    assert env["POSTGRES_HOST"] == "db.example"
    assert env["POSTGRES_PORT"] == "6543"
    assert env["POSTGRES_USER"] == "al@ice"
    assert env["POSTGRES_PASSWORD"] == "s3cret"
    assert env["POSTGRES_SCHEMA"] == "t_1"
    assert env["POSTGRES_LOCK_TIMEOUT"] == "5"  # never wait forever
    defaults = persistence.environment(Settings.load(db="postgresql://h/db", environ=home))
    assert (defaults["POSTGRES_PORT"], defaults["POSTGRES_USER"]) == ("5432", "postgres")
    assert "POSTGRES_SCHEMA" not in defaults


def test_closed_postgres_port_is_a_clear_error(tmp_path):
    settings = make_settings("postgresql://postgres:hunter2@127.0.0.1:1/showrunner", tmp_path)
    started = time.monotonic()
    with pytest.raises(SettingsError) as err:
        bootstrap(settings)
    assert time.monotonic() - started < 5
    message = str(err.value)
    assert message.startswith("cannot connect to PostgreSQL at postgresql://postgres:***@127.0.0.1:1/showrunner")
    assert "hunter2" not in message


def test_bootstrap_opens_a_working_ledger(settings):
    ledger = bootstrap(settings)
    try:
        assert ledger.campaigns() == []
        assert ledger.snapshot_interval == settings.snapshot_interval
        assert ledger.keys.directory == settings.data_dir / "keys"
    finally:
        ledger.close()


def test_relative_db_in_config_is_relative_to_the_config_folder(home):
    write_config(home, 'db = "campaigns/table.sqlite"\n')
    expected = Path(home["SHOWRUNNER_CONFIG_DIR"]) / "campaigns" / "table.sqlite"
    assert Settings.load(environ=home).db_url == str(expected)
    write_config(home, 'db = "postgresql://gm@localhost/table"\n')
    assert Settings.load(environ=home).db_url == "postgresql://gm@localhost/table"


@pytest.mark.parametrize("text", ["lock_timeout = 2.9", "snapshot_interval = true", "db = 3"])
def test_loose_values_in_config_are_refused(home, text):
    write_config(home, text + "\n")
    with pytest.raises(SettingsError):
        Settings.load(environ=home)


def test_unknown_url_schemes_are_refused(home):
    with pytest.raises(SettingsError, match="unsupported database URL scheme 'mysql'"):
        Settings.load(db="mysql://localhost/x", environ=home)


def test_a_home_relative_path_is_expanded(home, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    settings = Settings.load(db="~/table.sqlite", environ=home)
    assert settings.sqlite_file == tmp_path / "table.sqlite"


def test_the_database_key_hides_the_password_and_resolves_paths(home, tmp_path, monkeypatch):
    url = "postgresql://gm:s3cret@db.example:5433/table?schema=s"
    assert Settings.load(db=url, environ=home).database_key == "postgresql://gm@db.example:5433/table?schema=s"
    monkeypatch.chdir(tmp_path)
    relative = Settings.load(db="x.sqlite", environ=home).database_key
    absolute = Settings.load(db=str(tmp_path / "x.sqlite"), environ=home).database_key
    assert relative == absolute == str((tmp_path / "x.sqlite").resolve())


def test_reading_commands_do_not_create_a_ledger(tmp_path, home):
    missing = tmp_path / "typo.sqlite"
    with pytest.raises(SettingsError, match="there is no ledger at"):
        bootstrap(Settings.load(db=str(missing), environ=home), create=False)
    assert not missing.exists()


def test_key_store_precedence_and_the_key_only_from_the_environment(home):
    assert Settings.load(environ=home).key_store == "file"
    write_config(home, 'key_store = "database"\nkey_encryption_key = "in-a-file"\n')
    from_config = Settings.load(environ=home)
    assert from_config.key_store == "database" and from_config.key_encryption_key is None
    env = {**home, "SHOWRUNNER_KEY_STORE": "file", "SHOWRUNNER_KEY_ENCRYPTION_KEY": "from-env"}
    assert Settings.load(environ=env).key_store == "file"
    assert Settings.load(environ=env).key_encryption_key == "from-env"
    assert "from-env" not in repr(Settings.load(environ=env))  # never printed with the settings
    write_config(home, 'key_store = "vault"\n')
    with pytest.raises(SettingsError, match="key_store must be 'file' or 'database'"):
        Settings.load(environ=home)
