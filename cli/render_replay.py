"""A replay's report as rich tables, or one JSON document."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .safe_text import markup
from .session import print_json, stdout_console

if TYPE_CHECKING:
    from ..projections.replay import Line, Report

OUTCOME_TEXT = {
    "alternative": "[bold magenta]counterfactual[/]",
    "same": "[green]same effects[/]",
    "other": "[yellow]other effects[/]",
    "refused": "[bold red]refused[/]",
    "not-replayed": "[dim]not replayed[/]",
}


def show_report(report: Report, *, as_json: bool) -> None:
    if as_json:
        print_json(report.as_json())
        return
    from rich.table import Table

    console = stdout_console()
    where = (
        f"a fork of '{report.source}' after #{report.fork_version}"
        if report.fork_version is not None
        else f"'{report.target}'"
    )
    state = "recorded on" if report.written else "would record on (nothing written)"
    console.print(f"Replaying '{report.source}' onto {where}: [bold]{report.target}[/] {state}")
    table = Table(title=f"Command by command ({len(report.lines)})")
    for column in ("source #", "command", "here", "what"):
        table.add_column(column)
    for line in report.lines:
        outcome = "alternative" if line.alternative else line.outcome
        here = (
            "—"
            if line.versions is None
            else f"#{line.versions[0]}" + (f"-#{line.versions[1]}" if line.versions[1] != line.versions[0] else "")
        )
        table.add_row(str(line.source_version), line.name, here, f"{OUTCOME_TEXT[outcome]} {markup(_what(line))}")
    console.print(table)
    if report.sheet_differences:
        sheets = Table(title=f"Sheets against '{report.source}' ({len(report.sheet_differences)})")
        for column in ("Star", "field", report.source, report.target):
            sheets.add_column(column)
        for c in report.sheet_differences:
            sheets.add_row(markup(c.star, lines=False), c.field, markup(_cell(c.before)), markup(_cell(c.after)))
        console.print(sheets)
    if report.stopped:
        console.print("Stopped at the first refusal (--on-conflict stop); the rest was not replayed.")


def _what(line: Line) -> str:
    if line.reason:
        return line.reason
    return "; ".join(f"{d.star} {d.field}: {_change(d.source)} there, {_change(d.here)} here" for d in line.differences)


def _change(change: tuple[Any, Any] | None) -> str:
    return "unchanged" if change is None else f"{_cell(change[0])}→{_cell(change[1])}"


def _cell(value: object) -> str:
    return "—" if value is None else str(value)
