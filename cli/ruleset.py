"""`showrunner ruleset …`: the dice systems a campaign can be played by."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from . import completion
from .options import JsonOption
from .session import print_json, stdout_console

if TYPE_CHECKING:
    from ..domain.ruleset import Ruleset

app = typer.Typer(
    help="The rulesets a campaign can be played by (`campaign new --ruleset NAME`).",
    epilog="Example: showrunner ruleset list",
    no_args_is_help=True,
)


def _doc(rules: Ruleset) -> dict[str, Any]:
    return {
        "name": rules.name,
        "title": rules.title,
        "summary": rules.summary,
        "character_files": list(rules.character_files),
        "table_dice": dict(rules.table_dice),
        "actions": sorted(rules.actions),
    }


@app.command("list")
def list_(as_json: JsonOption = False) -> None:
    """List the rulesets this installation knows.

    Example: showrunner ruleset list --json
    """
    from rich.table import Table

    from ..domain.rulesets import all_rulesets

    rulesets = all_rulesets()
    if as_json:
        print_json({"rulesets": [_doc(r) for r in rulesets]})
        return
    table = Table(title="Rulesets")
    for column in ("name", "title", "what it rolls", "its own commands"):
        table.add_column(column)
    for r in rulesets:
        table.add_row(r.name, r.title, r.summary, ", ".join(f"{r.name} {a}" for a in sorted(r.actions)) or "-")
    stdout_console().print(table)


@app.command("show")
def show(
    name: Annotated[str, typer.Argument(help="The ruleset's name.", autocompletion=completion.rulesets)],
    as_json: JsonOption = False,
) -> None:
    """Show what a ruleset records: its character files, its table dice and its own commands.

    Example: showrunner ruleset show resonance
    """
    from rich.table import Table

    from ..domain.rulesets import ruleset

    rules = ruleset(name)
    if as_json:
        print_json(_doc(rules))
        return
    console = stdout_console()
    console.print(f"[bold]{rules.title}[/] ({rules.name}): {rules.summary}")
    console.print(f"Character files: {', '.join(rules.character_files)} (`showrunner star add --file F`)")
    console.print(f"Checks: `showrunner check --ruleset {rules.name} --help` lists the options")
    if rules.table_dice:
        table = Table(title="Dice of a check (typed in as faces with the check's table-dice options)")
        table.add_column("purpose")
        table.add_column("the faces of")
        for purpose, what in rules.table_dice.items():
            table.add_row(purpose, what)
        console.print(table)
    for action, spec in sorted(rules.actions.items()):
        console.print(f"  showrunner {rules.name} {action}: {spec.help.splitlines()[0]}")
