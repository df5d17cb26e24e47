"""Where the ledger keeps things. Flag, then SHOWRUNNER_* environment, then config file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from .errors import SettingsError

APP_NAME = "showrunner-ledger"
KEY_STORES = ("file", "database")


def _platform_dir(kind: str) -> Path:
    import platformdirs

    return Path(getattr(platformdirs, f"user_{kind}_dir")(APP_NAME))


@dataclass(frozen=True)
class Settings:
    db_url: str
    data_dir: Path
    config_dir: Path
    lock_timeout: int = 5
    snapshot_interval: int = 200
    key_store: str = "file"
    """Where the Director's dice seeds are kept: key files on this machine, or sealed in the database."""
    key_encryption_key: str | None = field(default=None, repr=False)
    """The database key store's key, from SHOWRUNNER_KEY_ENCRYPTION_KEY only (never a file)."""
    webhook: str | None = field(default=None, repr=False)
    """The table's chat webhook for `showrunner post`: SHOWRUNNER_WEBHOOK, or `webhook` in config.toml."""

    @classmethod
    def load(cls, db: str | None = None, environ: dict[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        data_dir = Path(env.get("SHOWRUNNER_DATA_DIR") or _platform_dir("data"))
        config_dir = Path(env.get("SHOWRUNNER_CONFIG_DIR") or _platform_dir("config"))
        config = _read_config(config_dir / "config.toml")
        db_url = db or env.get("SHOWRUNNER_DB") or _config_db(config, config_dir)
        if not db_url:
            db_url = str(data_dir / "ledger.sqlite")
        scheme = str(db_url).partition("://")[0] if "://" in str(db_url) else None
        if scheme is not None and scheme not in ("sqlite", "postgresql", "postgres"):
            raise SettingsError(
                f"unsupported database URL scheme '{scheme}': use a SQLite path, "
                "sqlite:///PATH or postgresql://USER@HOST:PORT/DB"
            )
        return cls(
            db_url=str(db_url),
            data_dir=data_dir,
            config_dir=config_dir,
            lock_timeout=_int_setting(env, config, "lock_timeout", 5),
            snapshot_interval=_int_setting(env, config, "snapshot_interval", 200),
            key_store=_key_store(env, config),
            key_encryption_key=env.get("SHOWRUNNER_KEY_ENCRYPTION_KEY") or None,
            webhook=_webhook(env, config, config_dir),
        )

    @property
    def is_postgres(self) -> bool:
        return self.db_url.startswith(("postgresql://", "postgres://"))

    @property
    def sqlite_file(self) -> Path:
        return sqlite_path(self.db_url)

    @property
    def database_key(self) -> str:
        """The database as one stable string: a resolved file path, or a URL without its password."""
        if self.is_postgres:
            parts = urlsplit(self.db_url)
            if parts.password is None:
                return self.db_url
            netloc = parts.netloc.replace(f":{parts.password}@", "@")
            return urlunsplit(parts._replace(netloc=netloc))
        return str(self.sqlite_file.resolve())


def sqlite_path(url: str) -> Path:
    """A SQLite location: a plain path (~ expanded) or sqlite:///PATH (sqlite:////abs/path)."""
    if url.startswith("sqlite:///"):
        return Path(unquote(url[len("sqlite:///") :])).expanduser()
    if url.startswith("sqlite://"):
        raise SettingsError(f"'{url}': write SQLite URLs as sqlite:///relative/path or sqlite:////absolute/path")
    return Path(url).expanduser()


def _read_config(path: Path) -> dict[str, object]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except UnicodeDecodeError as e:
        raise SettingsError(f"{path}: not valid TOML ({e}); fix or remove the file") from None
    import tomllib  # only when there is a config file: most commands have none to read

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SettingsError(f"{path}: not valid TOML ({e}); fix or remove the file") from None
    except (ValueError, RecursionError):  # a number of thousands of digits; tables nested thousands deep
        raise SettingsError(
            f"{path}: not valid TOML (a number too long or tables nested too deeply); fix or remove the file"
        ) from None


def _int_setting(env: Mapping[str, str], config: Mapping[str, object], key: str, default: int) -> int:
    raw = env.get(f"SHOWRUNNER_{key.upper()}", config.get(key, default))
    try:
        if isinstance(raw, bool) or not isinstance(raw, (int, str)):
            raise TypeError
        value = int(raw)
    except (TypeError, ValueError):
        raise SettingsError(
            f"{key} must be a whole number (got {raw!r}); check SHOWRUNNER_{key.upper()} or config.toml"
        ) from None
    if value < 1:
        raise SettingsError(f"{key} must be at least 1 (got {value})")
    return value


def _key_store(env: Mapping[str, str], config: Mapping[str, object]) -> str:
    raw = env.get("SHOWRUNNER_KEY_STORE") or config.get("key_store", "file")
    if raw not in KEY_STORES:
        raise SettingsError(
            f"key_store must be 'file' or 'database' (got {raw!r}); check SHOWRUNNER_KEY_STORE or config.toml"
        )
    return str(raw)


def _webhook(env: Mapping[str, str], config: Mapping[str, object], config_dir: Path) -> str | None:
    found = env.get("SHOWRUNNER_WEBHOOK") or config.get("webhook")
    if found is not None and not isinstance(found, str):
        raise SettingsError(f"{config_dir / 'config.toml'}: webhook must be a URL in quotes")
    return found or None


def _config_db(config: Mapping[str, object], config_dir: Path) -> str | None:
    """A relative SQLite path in config.toml is relative to the config file, not the shell."""
    db = config.get("db")
    if db is None:
        return None
    if not isinstance(db, str) or not db.strip():
        raise SettingsError(f"{config_dir / 'config.toml'}: db must be a path or a postgresql:// URL")
    if "://" in db or Path(db).expanduser().is_absolute():
        return db
    return str(config_dir / db)
