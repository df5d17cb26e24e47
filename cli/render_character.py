"""A character sheet of any ruleset: Showrunner's own layout, or the ruleset's sections as tables."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..domain.campaign import Named
    from ..domain.ruleset import Ruleset


def character_json(character: Named) -> dict[str, Any]:
    """A character for --json: whatever the ruleset, its character is a pydantic model."""
    from pydantic import BaseModel

    assert isinstance(character, BaseModel)
    return character.model_dump(mode="json")


def render_character(rules: Ruleset, character: Any, *, title_suffix: str = "") -> Any:
    from rich.console import Group
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    from ..domain.showrunner.sheet import StarSheet
    from .render_sheet import render_star_sheet
    from .safe_text import markup, plain

    if isinstance(character, StarSheet):
        return render_star_sheet(character, title_suffix=title_suffix)
    blocks: list[Any] = []
    sections = rules.sheet(character) if rules.sheet is not None else ()
    for section in sections:
        table = Table(title=section.title, show_header=False, title_justify="left", expand=True)
        table.add_column("", style="bold")
        table.add_column("")
        for label, value in section.rows:
            table.add_row(Text(plain(label, lines=False)), Text(plain(value)))
        blocks.append(table)
    if not blocks:  # a ruleset without a sheet layout: its fields as they are
        table = Table(show_header=False, expand=True)
        for key, value in character.model_dump(mode="json").items():
            table.add_row(Text(plain(key, lines=False)), Text(plain(str(value))))
        blocks.append(table)
    return Panel(
        Group(*blocks),
        title=f"[bold]{markup(character.name, lines=False)}[/]{markup(title_suffix)}",
        title_align="left",
    )
