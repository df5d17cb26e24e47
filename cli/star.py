"""`showrunner star …` and `showrunner sheet`: the Stars of the show."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from . import completion
from .options import JsonOption, writes
from .safe_text import markup
from .session import print_json, session, stdout_console

app = typer.Typer(
    help="Add and list the Stars (the player characters, in any ruleset) of the current campaign.",
    epilog="Example: showrunner star add --file docs/examples/star-mara.toml",
    no_args_is_help=True,
)


@app.command("add")
@writes
def add(
    ctx: typer.Context,
    file: Annotated[
        Path,
        typer.Option(
            "--file",
            "-f",
            help="A character file (.toml or .json) of the campaign's ruleset: see docs/reference/star-file.md.",
        ),
    ],
    as_json: JsonOption = False,
) -> None:
    """Add a Star (a character of the campaign's ruleset) from a TOML or JSON file to the current branch.

    A bad file is refused with one line naming the field and the problem; nothing is written.

    Examples: showrunner star add --file docs/examples/star-mara.toml
     ·  showrunner star add --file docs/examples/resonance-kestrel.toml (in a d4 Resonance campaign)
    """
    from ..domain.rulesets import ruleset

    s = session(ctx)
    ref = s.target()
    rules = ruleset(ref.campaign.ruleset)
    sheet = rules.parse_character(file.read_bytes(), file.name)
    name: str = sheet.name  # type: ignore[attr-defined]  # every ruleset's character model has a name; Ruleset.parse_character can only say BaseModel
    result = s.ledger.add_character(ref, sheet, by=s.recorded_by(ref))
    if as_json:
        print_json({"star": name, "events": [e.version for e in result.events], "branch": ref.branch.name})
        return
    stdout_console().print(
        f"Added [bold]{markup(name)}[/] to {ref.campaign.name}/{ref.branch.name} as event #{result.last_version}."
    )


@app.command("list")
def list_(
    ctx: typer.Context,
    at: Annotated[int | None, typer.Option("--at", min=1, help="As of event N.")] = None,
    as_json: JsonOption = False,
) -> None:
    """List the Stars on the current branch.

    Example: showrunner star list --at 3
    """
    from rich.table import Table

    s = session(ctx)
    view = s.ledger.view(s.target(), at)
    stars = list(s.seen(view.state).roster().values())
    if as_json:
        print_json(
            {
                "branch": view.ref.branch.name,
                "as_of": view.version,
                "stars": [
                    {
                        "name": x.name,
                        "player": getattr(x, "player", None),
                        "concept": getattr(x, "concept", None),
                        "written_off": getattr(x, "written_off", False),
                    }
                    for x in stars
                ],
            }
        )
        return
    table = Table(title=f"{view.state.character_noun}s as of #{view.version}")
    written_off = any(getattr(x, "written_off", False) for x in stars)
    for column in ("name", "player", "concept", *(["status"] if written_off else [])):
        table.add_column(column)
    for x in stars:
        table.add_row(
            *(
                markup(text, lines=False)
                for text in (x.name, getattr(x, "player", None) or "", getattr(x, "concept", None) or "")
            ),
            *((["WRITTEN OFF" if getattr(x, "written_off", False) else "in play"]) if written_off else []),
        )
    stdout_console().print(table)


def sheet(
    ctx: typer.Context,
    star: Annotated[
        str, typer.Argument(help="The Star's name (any case, or the start of it).", autocompletion=completion.stars)
    ],
    at: Annotated[int | None, typer.Option("--at", min=1, help="The sheet as of event N.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Show a Star Profile (or a character sheet of the campaign's ruleset), now or as of event N.

    Examples: showrunner sheet Mara  ·  showrunner sheet Mara --at 12 --json
    """
    from .render_character import render_character

    s = session(ctx)
    shown = s.head_character(star) if at is None else None
    if shown is None:  # not kept at the head: the events decide
        from ..domain.rulesets import ruleset_of

        ref = s.target()
        view = s.ledger.view(ref, at)
        character = s.seen(view.state).character(star)
        shown = (ref.branch.name, view.version, ruleset_of(view.state).character_document(character))
    branch, version, document = shown
    if as_json:
        print_json({"branch": branch, "as_of": version, "star": document["json"]})
        return
    stdout_console().print(render_character(document["profile"], title_suffix=f" · {branch} #{version}"))


def register(root: typer.Typer) -> None:
    root.command("sheet")(sheet)
