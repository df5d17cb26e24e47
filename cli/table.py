"""`showrunner table`: a group's table files for the tables the book names but does not print.

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

from pathlib import Path
from typing import Annotated

import typer

from .dice_flags import faces_option, parse_faces, recording
from .errors import UsageProblem
from .options import JsonOption, writes
from .progress_common import Reason
from .session import print_json, session, stdout_console
from .world_common import director_only, report

app = typer.Typer(
    help="Table files: a table the book names but does not print (Set Design, Anomalies, Event, …), loaded and rolled on.",
    epilog="Example: showrunner table load lost-parent.toml",
    no_args_is_help=True,
)
TableFaces = Annotated[list[str] | None, faces_option("--die", "Table dice: the face of the table's die.")]


def _table_name(name: str) -> str:
    from ..domain.showrunner.table_files import TableName

    try:
        return TableName(name.strip().lower()).value
    except ValueError:
        known = ", ".join(t.value for t in TableName)
        raise UsageProblem(f"'{name}' is not a table the book names without printing ({known})") from None


@app.command("load")
@writes
def load(
    ctx: typer.Context,
    file: Annotated[
        Path,
        typer.Argument(exists=True, dir_okay=False, help="A TOML table file: see docs/reference/table-file.md."),
    ],
    as_json: JsonOption = False,
) -> None:
    """Load a table file into the campaign: its rows go on the ledger (`TableLoaded`), and every
    roll the ledger makes on that table takes its row's text. The Random Archetype table
    (`archetype`) has a row for every Primary/Secondary pair, read by `actor create` and
    `star casting wardrobe`. Loading the same table again replaces it. A bad file is refused
    with one line; nothing is written.

    Example: showrunner table load lost-parent.toml
    """
    from ..domain.showrunner.table_files import parse_table_file

    table = parse_table_file(file.read_bytes(), source=file.name)
    s = session(ctx)
    director_only(s, "loads table files")
    ref = s.target()
    result = s.ledger.run(ref, "table-load", table, by=s.recorded_by(ref))
    report(ref, result, as_json)


@app.command("roll")
@writes
def roll(
    ctx: typer.Context,
    table: Annotated[str, typer.Argument(help="The loaded table to roll on, e.g. set-design.")],
    die: TableFaces = None,
    reason: Reason = "",
    as_json: JsonOption = False,
) -> None:
    """Roll the table's die on a loaded table and record the face and its row (`TableRolled`).

    Example: showrunner table roll set-design --reason "Where the heist begins"
    """
    from ..domain.showrunner.commands.tables import TableRoll

    name = _table_name(table)
    faces = parse_faces({"table": ("--die", die, 100)})
    s = session(ctx)
    director_only(s, "rolls on table files")
    ref = s.target()
    asked = TableRoll.model_validate({"table": name, "reason": reason})
    result = recording(
        lambda: s.ledger.run(ref, "table-roll", asked, faces=faces or None, by=s.recorded_by(ref)), {"table": "--die"}
    )
    report(ref, result, as_json)


@app.command("show")
def show(
    ctx: typer.Context,
    table: Annotated[str | None, typer.Argument(help="One loaded table; every loaded table when left out.")] = None,
    as_json: JsonOption = False,
) -> None:
    """The table files loaded into the campaign, with every row.

    Example: showrunner table show lost-parent --json
    """
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from ..domain.errors import RuleViolation
    from ..domain.showrunner.state import ShowrunnerState

    s = session(ctx)
    ref = s.target()
    state = s.ledger.view(ref).state
    if not isinstance(state, ShowrunnerState):
        raise RuleViolation("table files belong to Showrunner campaigns")
    loaded = list(state.tables.values())
    if table is not None:
        name = _table_name(table)
        loaded = [t for t in loaded if t.table.value == name]
        if not loaded:
            raise RuleViolation(f"no {name} table is loaded (table load FILE)")
    if as_json:
        print_json({"branch": ref.branch.name, "tables": [t.model_dump(mode="json") for t in loaded]})
        return
    console = stdout_console()
    if not loaded:
        console.print("No table file is loaded.")
    for each in loaded:
        read_by = "Primary/Secondary" if each.table.keyed else f"d{each.die}"
        title = f"{each.table.label} · {read_by}" + (f" · {each.title}" if each.title else "")
        grid = Table(title=Text(title), box=box.SIMPLE_HEAD)
        grid.add_column("abilities" if each.table.keyed else "roll", justify="right")
        grid.add_column("row")
        for key, text in [(p.key, p.text) for p in each.pairs or ()] or [(r.faces, r.text) for r in each.rows]:
            grid.add_row(key, Text(text))
        console.print(grid)
