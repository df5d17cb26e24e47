"""`showrunner dice stats`: are the dice fair? Face frequencies and a chi-square test per group.

The rolls Stars ask for from their own devices (`dice pending|resolve|withdraw`) are in dice_requests.py."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer

from . import completion, dice_requests
from .options import JsonOption
from .progress import progress_bar
from .safe_text import markup
from .session import print_json, session, stdout_console

if TYPE_CHECKING:
    from rich.table import Table

    from ..projections.stats import GroupTest

app = typer.Typer(
    help="Dice: how often each face came up and whether that looks fair, and rolls Stars asked for.",
    epilog="Examples: showrunner dice stats --source table; showrunner dice pending",
    no_args_is_help=True,
)


class SourceChoice(StrEnum):
    ledger = "ledger"
    table = "table"


class ColourChoice(StrEnum):
    action = "action"
    opposition = "opposition"
    script = "script"
    other = "other"


# Faces are shown one column each up to this size; a d100 gets a summary instead.
MAX_FACE_COLUMNS = 12
_STYLE = {
    "consistent with fair dice": "green",
    "unlikely to be fair (p < 0.01)": "bold red",
    "too few rolls to say": "yellow",
}


@app.command("stats")
def stats(
    ctx: typer.Context,
    star: Annotated[
        str | None,
        typer.Option("--star", "-s", help="Only the dice this Star rolled.", autocompletion=completion.stars),
    ] = None,
    source: Annotated[
        SourceChoice | None,
        typer.Option("--source", help="Only ledger dice (derived from the seed) or table dice (typed in)."),
    ] = None,
    colour: Annotated[
        ColourChoice | None,
        typer.Option(
            "--colour",
            help="Only dice of this colour (Action includes Retake re-rolls; other: Spotlight, Anomaly, Scar slots…).",
        ),
    ] = None,
    rebuild: Annotated[
        bool, typer.Option("--rebuild", help="Drop the roll index and rebuild it from the whole log first.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Face frequencies on the current branch, by die colour, by Star and by source.

    Each group gets n, a chi-square test against fair dice, its p-value and a verdict.

    A branch counts its parent's rolls up to the fork point, then its own.

    A Star (--as NAME) does not see the dice of Director-only checks.

    Examples: showrunner dice stats  ·  showrunner dice stats --star Mara --source table --json
    """
    # SQLAlchemy costs about 0.3 s of imports: only this command pays for it.
    from ..domain.errors import DomainError
    from ..projections import roll_index
    from ..projections.stats import grouped

    s = session(ctx)
    ref = s.target()
    state = s.seen(s.ledger.view(ref).state)
    # An unknown Star is an error, not an empty table; "Mara" picks "Mara Voss".
    wanted = state.character(star).name if star is not None else None
    engine = roll_index.engine_for(s.settings)
    try:
        if rebuild:
            roll_index.drop(engine)
        behind = roll_index.backlog(s.ledger, engine)
        with progress_bar("Indexing dice", behind, enabled=not as_json) as advance:
            caught = roll_index.catch_up(s.ledger, engine, progress=lambda done, total: advance(done))
        counts = roll_index.face_counts(
            engine,
            ref.segments,
            director=s.is_director,
            source=source.value if source else None,
            colour=colour.value if colour else None,
        )
    finally:
        engine.dispose()

    # A check abandoned after the roll names its Star as typed ("mara"): use the sheet's name.
    names: dict[str, str] = {}

    def canonical(name: str) -> str:
        if name not in names:
            try:
                names[name] = state.character(name).name
            except DomainError:  # no longer a unique start of a name: keep it as recorded
                names[name] = name
        return names[name]

    counts = [c for c in counts if wanted is None or canonical(c.star) == wanted]
    by_colour = grouped(counts, lambda c: c.colour, roll_index.COLOURS)
    by_star = grouped(counts, lambda c: canonical(c.star))
    by_source = grouped(counts, lambda c: c.source, ("ledger", "table"))
    total = sum(c.count for c in counts)

    if as_json:
        print_json(
            {
                "campaign": ref.campaign.name,
                "branch": ref.branch.name,
                "as": "director" if s.is_director else s.recorded_by(ref),
                "filters": {
                    "star": wanted,
                    "source": source.value if source else None,
                    "colour": colour.value if colour else None,
                },
                "index": {
                    "position": caught.position,
                    "rebuilt": rebuild,
                    "indexed_now": {"events": caught.events, "dice": caught.dice},
                },
                "dice": total,
                "by_colour": [_group_json("colour", g) for g in by_colour],
                "by_star": [_group_json("star", g) for g in by_star],
                "by_source": [_group_json("source", g) for g in by_source],
            }
        )
        return

    console = stdout_console()
    shown = [f"Star {wanted}"] if wanted else []
    shown += [f"{source.value} dice"] if source else []
    shown += [f"{colour.value} dice"] if colour else []
    scope = markup(f" ({', '.join(shown)})", lines=False) if shown else ""
    who = "" if s.is_director else " — public checks only"
    if total == 0:
        console.print(f"No dice rolled on {ref.campaign.name}/{ref.branch.name}{scope}{who} yet.", highlight=False)
        return
    console.print(f"[bold]{total}[/] dice on {ref.campaign.name}/{ref.branch.name}{scope}{who}", highlight=False)
    for title, label, groups in (
        ("By die colour", "Colour", by_colour),
        ("By Star", "Star", by_star),
        ("By source", "Source", by_source),
    ):
        for sides in sorted({g.test.sides for g in groups}):
            console.print(_table(f"{title} — d{sides}", label, [g for g in groups if g.test.sides == sides], sides))
    notes = sorted({g.test.sides for g in by_colour + by_star + by_source if g.test.note})
    for sides in notes:
        console.print(
            f"[dim]Too few rolls to say: the chi-square test needs at least 5 rolls expected per face "
            f"({5 * sides} rolls of a d{sides}).[/]",
            highlight=False,
        )


def _group_json(key: str, group: GroupTest) -> dict[str, Any]:
    return {key: group.group, **group.test.as_json()}


def _table(title: str, label: str, groups: list[GroupTest], sides: int) -> Table:
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    table.add_column(label)
    table.add_column("n", justify="right")
    wide = sides > MAX_FACE_COLUMNS
    if wide:
        table.add_column("faces seen", justify="right")
        table.add_column("least", justify="right")
        table.add_column("most", justify="right")
    else:
        for face in range(1, sides + 1):
            table.add_column(str(face), justify="right")
    table.add_column("χ²", justify="right")
    table.add_column("p", justify="right")
    table.add_column("verdict")
    for g in groups:
        t = g.test
        if wide:
            faces = [str(sum(1 for c in t.counts if c)), str(min(t.counts)), str(max(t.counts))]
        else:
            faces = [str(c) for c in t.counts]
        p = "—" if t.p_value is None else (f"{t.p_value:.3f}" if t.p_value >= 0.001 else f"{t.p_value:.1e}")
        style = _STYLE.get(t.verdict, "red" if t.verdict.startswith("unlikely") else "")
        verdict = f"[{style}]{t.verdict}[/]" if style else t.verdict
        table.add_row(markup(g.group, lines=False), str(t.n), *faces, f"{t.chi_square:.2f}", p, verdict)
    return table


dice_requests.add_to(app)
