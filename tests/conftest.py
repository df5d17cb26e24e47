"""Shared fixtures: every integration scenario runs against SQLite and PostgreSQL."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from showrunner_ledger.domain.showrunner.starfile import parse_star_file
from showrunner_ledger.ledger.bootstrap import bootstrap
from showrunner_ledger.ledger.service import Ledger
from showrunner_ledger.ledger.settings import Settings

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "docs" / "examples"
POSTGRES_ENV = "SHOWRUNNER_TEST_POSTGRES_URL"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


# Hypothesis: the same examples as ever, but no wall-clock limit. A busy machine (or the other
# workers of `-n auto`) slows a test down without making it wrong, so neither a deadline nor the
# "input generation is slow" health check may fail the suite. "ci" keeps Hypothesis's own CI
# profile (derandomized, no example database) with the same two changes. Loaded here, before any
# test module is imported, so every @settings(...) in the tests inherits it.
_UNHURRIED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("dev", settings.get_profile("default"), **_UNHURRIED)
settings.register_profile("ci", settings.get_profile("ci"), **_UNHURRIED)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if in_ci() else "dev"))


def postgres_url_or_skip() -> str:
    url = os.environ.get(POSTGRES_ENV)
    if url:
        return url
    if in_ci():
        pytest.fail(f"CI must test PostgreSQL, but {POSTGRES_ENV} is not set")
    pytest.skip(f"no PostgreSQL server: set {POSTGRES_ENV}=postgresql://USER@HOST:PORT/DB")


def _drop_schema(url: str, schema: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, or a new schema in the test PostgreSQL."""
    if request.param == "sqlite":
        yield str(tmp_path / "ledger.sqlite")
        return
    base = postgres_url_or_skip()
    schema = "t_" + uuid.uuid4().hex[:16]
    yield f"{base}?schema={schema}"
    _drop_schema(base, schema)


def make_settings(db_url: str, home: Path, **extra: str) -> Settings:
    environ = {
        "SHOWRUNNER_DATA_DIR": str(home / "data"),
        "SHOWRUNNER_CONFIG_DIR": str(home / "config"),
        **extra,
    }
    return Settings.load(db=db_url, environ=environ)


@pytest.fixture
def settings(db_url: str, tmp_path: Path) -> Settings:
    return make_settings(db_url, tmp_path)


@pytest.fixture
def ledger(settings: Settings) -> Iterator[Ledger]:
    instance = bootstrap(settings)
    yield instance
    instance.close()


def example_star(filename: str = "star-mara.toml"):
    path = EXAMPLES / filename
    return parse_star_file(path.read_bytes(), source=path.name)
