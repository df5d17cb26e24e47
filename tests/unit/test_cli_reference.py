"""Docs move with code: every command of `showrunner` is in docs/reference/cli.md."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer

from showrunner_ledger.cli.main import app

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")


def commands(command: Any, path: tuple[str, ...] = ()) -> Iterator[str]:
    if hasattr(command, "commands"):
        for name, sub in command.commands.items():
            yield from commands(sub, (*path, name))
    else:
        yield " ".join(path)


def documented(path: str) -> bool:
    group, _, name = path.rpartition(" ")
    shared_heading = bool(group) and f"`{group} …`" in DOCS and f"`{name}`" in DOCS  # e.g. `bond …` · `grudge …`
    return f"`{path}" in DOCS or f"showrunner {path}" in DOCS or shared_heading


def test_every_command_is_in_the_cli_reference() -> None:
    every = list(commands(typer.main.get_command(app)))
    assert len(every) > 60
    assert [path for path in every if not documented(path)] == []
