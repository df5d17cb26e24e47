"""Every tutorial and how-to runs as written: each command, in order, against a fresh database,
with the real console script, and prints what the page shows (tests/docs/console_pages.py)."""

from __future__ import annotations

import functools
import re
import uuid
from pathlib import Path

import pytest

from tests.conftest import _drop_schema, postgres_url_or_skip

from .console_pages import RUN_PAGES, blocks
from .run_pages import report, run_page

# A page about a shared server names the reader's own (db.example.org); here it runs against a
# new schema of the test PostgreSQL, as the rest of the suite's PostgreSQL tests do.
SERVER_PAGES = {"use-postgresql.md"}
READERS_SERVER = re.compile(r"postgresql://\w+@db\.example\.org(?::5432)?/showrunner")


def _run_and_compare(page: Path, tmp_path: Path, server: str | None = None) -> None:
    rewrite = None if server is None else functools.partial(READERS_SERVER.sub, server)
    problems = report(page, run_page(page, tmp_path, rewrite=rewrite))
    assert not problems, problems


@pytest.mark.parametrize(
    "page",
    [
        pytest.param(p, marks=pytest.mark.postgres) if p.name in SERVER_PAGES else p
        for p in RUN_PAGES
        if blocks(p.read_text(encoding="utf-8"), p.name)
    ],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_page_runs_as_written(page: Path, tmp_path: Path) -> None:
    if page.name not in SERVER_PAGES:
        _run_and_compare(page, tmp_path)
        return
    base = postgres_url_or_skip()
    schema = "docs_" + uuid.uuid4().hex[:16]
    try:
        _run_and_compare(page, tmp_path, f"{base}?schema={schema}")
    finally:
        _drop_schema(base, schema)


def test_every_page_that_names_commands_runs_them() -> None:
    """A page with no console block would pass the test above by running nothing."""
    silent = [p.name for p in RUN_PAGES if not blocks(p.read_text(encoding="utf-8"), p.name)]
    assert silent == ["add-a-ruleset.md", "add-an-event-to-a-ruleset.md", "develop.md"], silent
