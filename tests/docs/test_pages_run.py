"""Every tutorial and how-to runs as written: each command, in order, against a fresh database,
with the real console script, and prints what the page shows (tests/docs/console_pages.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .console_pages import RUN_PAGES, blocks
from .run_pages import report, run_page

# Pages whose prose is being rewritten with dice v2: they are parsed like every page, but their
# commands do not run until that rewrite lands with pages that match it.
SKIPPED = {
    "audit-a-disputed-roll.md": "rewritten with dice v2",
    # Its commands name a server of the reader's (db.example.org): none runs here as written.
    "use-postgresql.md": "needs the reader's PostgreSQL server",
    # Not yet converted: their examples roll ledger dice (or loop and exit in the shell), so what
    # they show depends on the roll; they are to move to table dice before they run here.
    "apply-consequences.md": "ledger dice in its examples",
    "run-a-montage.md": "ledger dice in its examples",
    "run-an-action-sequence.md": "ledger dice in its examples",
    "run-a-writers-room-turn.md": "ledger dice in its examples",
    "episode-to-recap.md": "ledger dice in its examples",
    "retry-a-command-safely.md": "a shell loop that exits",
}


@pytest.mark.parametrize("page", RUN_PAGES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_page_runs_as_written(page: Path, tmp_path: Path) -> None:
    if page.name in SKIPPED:
        pytest.skip(f"{page.name}: {SKIPPED[page.name]}")
    found = blocks(page.read_text(encoding="utf-8"), page.name)
    if not found:
        pytest.skip(f"{page.name} runs no command")
    results = run_page(page, tmp_path)
    problems = report(page, results)
    assert not problems, problems
