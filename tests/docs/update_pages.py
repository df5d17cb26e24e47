"""Write the real output under every command of a page whose shown output no longer matches.

    .venv/bin/python -m tests.docs.update_pages docs/how-to/fork-and-compare.md

A command whose output still matches keeps the page's lines (and their `…` trims); one that
drifted gets the whole real output, to read, trim and commit like any edit of the page.
With `--fill`, a command that shows no output gets its output written under it too.
"""

from __future__ import annotations

import functools
import os
import sys
import tempfile
import uuid
from pathlib import Path

from tests.conftest import POSTGRES_ENV, _drop_schema

from .run_pages import run_page
from .test_pages_run import READERS_SERVER, SERVER_PAGES


def update(page: Path, fill: bool = False) -> int:
    server = os.environ.get(POSTGRES_ENV)
    schema = f"docs_{uuid.uuid4().hex[:16]}"
    rewrite = None
    if page.name in SERVER_PAGES:
        if not server:
            raise SystemExit(f"{page.name} runs against PostgreSQL: set {POSTGRES_ENV}")
        rewrite = functools.partial(READERS_SERVER.sub, f"{server}?schema={schema}")
    try:
        with tempfile.TemporaryDirectory(prefix="docs-run-") as work:
            results = run_page(page, Path(work), rewrite=rewrite)
    finally:
        if rewrite is not None and server:
            _drop_schema(server, schema)
    lines = page.read_text(encoding="utf-8").splitlines()
    changed = 0
    # From the bottom up, so that the line numbers above stay true.
    for r in reversed(results):
        if r.ok and not (fill and not r.command.shown):
            continue
        start = r.command.line - 1 + len(r.command.text.splitlines())
        indent = lines[r.command.line - 1][: len(lines[r.command.line - 1]) - len(lines[r.command.line - 1].lstrip())]
        real = [indent + line if line else "" for line in r.output]
        while real and not real[-1].strip():
            real.pop()
        lines[start : start + len(r.command.shown)] = real
        changed += 1
    page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return changed


if __name__ == "__main__":
    fill = "--fill" in sys.argv
    for name in sys.argv[1:]:
        if name != "--fill":
            print(f"{name}: {update(Path(name), fill)} command(s) rewritten")
