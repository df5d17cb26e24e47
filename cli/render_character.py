"""A character sheet of any ruleset, drawn from its document (`Ruleset.character_document`):
Showrunner's Star Profile in its own layout, any other ruleset's sections as tables."""

from __future__ import annotations

from typing import Any


def render_character(profile: dict[str, Any], *, title_suffix: str = "") -> Any:
    from rich.console import Group
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    from .safe_text import markup, plain

    if profile["layout"] == "star-profile":
        from .render_sheet import render_star_sheet

        return render_star_sheet(profile, title_suffix=title_suffix)
    blocks: list[Any] = []
    for section in profile["sections"]:
        table = Table(title=section["title"], show_header=False, title_justify="left", expand=True)
        table.add_column("", style="bold")
        table.add_column("")
        for label, value in section["rows"]:
            table.add_row(Text(plain(label, lines=False)), Text(plain(value)))
        blocks.append(table)
    return Panel(
        Group(*blocks),
        title=f"[bold]{markup(profile['name'], lines=False)}[/]{markup(title_suffix)}",
        title_align="left",
    )
