"""`showrunner timeline`: Episodes, Scenes and key events along the branch tree."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .errors import Refused
from .options import JsonOption
from .safe_text import markup, plain
from .session import print_json, session, stderr_console, stdout_console

STYLES = {
    "branch": "bold",
    "head": "dim italic",
    "fork": "magenta",
    "opening": "bold",
    "season": "bold yellow",
    "season-end": "yellow",
    "episode": "bold blue",
    "episode-end": "blue",
    "scene": "green",
    "decisive": "bold",
    "beat": "",
}


def timeline(
    ctx: typer.Context,
    html_file: Annotated[
        Path | None,
        typer.Option(
            "--html", metavar="FILE", help="Also write the picture as a self-contained HTML page.", dir_okay=False
        ),
    ] = None,
    director: Annotated[bool, typer.Option("--director", help="Include Director-only events (marked).")] = False,
    min_weight: Annotated[
        int,
        typer.Option(
            "--min-weight",
            min=0,
            help="Show events whose recap line weighs at least this (100 decisive, 50 notable, 10 routine).",
        ),
    ] = 50,
    as_json: JsonOption = False,
) -> None:
    """Draw the campaign's Episodes, Scenes and key events along its branch tree, like `git log --graph`.

    Every branch of the campaign is drawn; a fork opens a lane where it leaves its parent.

    Examples: showrunner timeline  ·  showrunner timeline --html timeline.html
    """
    from rich.text import Text

    from ..projections.timeline import campaign_timeline
    from .private_files import private_file
    from .render_timeline import number_width, parts, timeline_html

    s = session(ctx)
    if director and not s.is_director:
        raise Refused("only the Director can include Director-only events (--director)")
    current = s.target()
    found = campaign_timeline(s.ledger, current, director=director, min_weight=min_weight)
    rows, title = found.rows, found.title
    if html_file is not None:
        page = timeline_html(rows, campaign=current.campaign.name, title=title, director=director)
        try:
            with private_file(html_file) as f:
                f.write(page)
        except IsADirectoryError:
            raise Refused(f"{html_file} is a folder; give a file name for --html") from None
        except FileNotFoundError:
            raise Refused(f"{html_file}: its folder does not exist") from None
    if as_json:
        print_json({**found.as_json(), "html": str(html_file) if html_file is not None else None})
        return
    console = stdout_console()
    width = number_width(rows)
    for row in rows:
        lanes, number, mark, text = parts(row, width)
        line = Text(lanes, style="dim")
        line.append(number, style="dim")
        line.append(mark, style="yellow" if row.kind == "decisive" else "")
        line.append(plain(text, lines=False), style=STYLES.get(row.kind, ""))
        if row.director_only:
            line.append("  (Director only)", style="bold red")
        if row.kind in ("branch", "head") and row.branch == current.branch.name:
            line.append("  (current)", style="dim")
        console.print(line, highlight=False, soft_wrap=True)
    if html_file is not None:
        stderr_console().print(f"Wrote {markup(str(html_file), lines=False)}")


def register(root: typer.Typer) -> None:
    root.command("timeline")(timeline)
