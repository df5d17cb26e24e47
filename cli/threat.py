"""`showrunner threat`: Opponents, Obstacles and Projects with Power Dice (Chapter 12.1), and the
Decisive Strike. A check against one is `showrunner check STAR ABILITY -d D --against NAME`.

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias

import typer

from .choices import difficulty
from .dice_flags import faces_option, parse_faces, recording
from .errors import UsageProblem
from .options import JsonOption, writes
from .safe_text import markup
from .session import print_json, session, stdout_console
from .world_common import CheckOptions, check_flags, check_options, director_only, report, world_of

if TYPE_CHECKING:
    from ..domain.showrunner.threats import Threat
    from ..domain.showrunner.world_events import ThreatChecked

app = typer.Typer(
    help="Threats: Opponents, Obstacles and Projects with Power Dice (12.1).",
    epilog="Example: showrunner threat create 'Iron Warden' --kind opponent -l FORMIDABLE",
    no_args_is_help=True,
)

RolledPips: TypeAlias = Annotated[
    list[str] | None,
    faces_option(
        "--power", "The d6 pips rolled, highest die first (a 6 below the top adds a pip above and is re-rolled)."
    ),
]


class Kind(StrEnum):
    opponent = "opponent"
    obstacle = "obstacle"
    project = "project"


@app.command("create")
@writes
def create(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The Threat's name (never shared with an Actor or a Star).")],
    kind: Annotated[Kind, typer.Option("--kind", "-k", help="opponent, obstacle or project.")],
    level: Annotated[
        str,
        typer.Option(
            "--power-level", "-l", help="Power Level, NORMAL to GODLIKE: one Power Die per level from NORMAL up."
        ),
    ],
    pips: Annotated[
        str | None,
        typer.Option("--pips", metavar="P,P,…", help="The pips given at the table, NORMAL first, instead of rolled."),
    ] = None,
    power: RolledPips = None,
    as_json: JsonOption = False,
) -> None:
    """A Threat enters the story with its Power Dice, rolled top down (12.1B) or given.

    Example: showrunner threat create 'Iron Warden' --kind opponent -l FORMIDABLE --power 4,2,3
    """
    from ..domain.showrunner.commands.threats import ThreatCreate

    chosen = difficulty("--power-level", level)
    given = tuple(parse_faces({"pips": ("--pips", [pips], 6)})["pips"]) if pips is not None else None
    faces = parse_faces({"power": ("--power", power, 6)})
    if given is not None and faces:
        raise UsageProblem("give the pips with --pips or roll them with --power, not both")
    s = session(ctx)
    director_only(s, "brings in Threats")
    ref = s.target()
    asked = ThreatCreate(name=name, kind=kind.value, level=chosen, pips=given)
    result = recording(
        lambda: s.ledger.run(ref, "threat-create", asked, faces=faces or None, by=s.recorded_by(ref)),
        {"power": "--power"},
    )
    report(ref, result, as_json)


def threat_json(threat: "Threat") -> dict[str, Any]:
    return {
        **threat.model_dump(mode="json"),
        "power_level": threat.power.top.value if threat.power.top else None,
        "power_dice": threat.power.describe(),
    }


@app.command("list")
def list_(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """Every Threat of the branch with its Power Dice and status.

    Example: showrunner threat list
    """
    from rich.table import Table

    s = session(ctx)
    ref = s.target()
    threats = sorted(world_of(s.ledger, ref).threats.values(), key=lambda t: t.name)
    if as_json:
        print_json({"branch": ref.branch.name, "threats": [threat_json(t) for t in threats]})
        return
    table = Table(title=f"Threats · {ref.branch.name}")
    for column in ("name", "kind", "level", "Power Dice", "status"):
        table.add_column(column)
    for t in threats:
        table.add_row(
            markup(t.name, lines=False), t.kind, t.power.top.value if t.power.top else "—", t.power.describe(), t.status
        )
    stdout_console().print(table)


@app.command("show")
def show(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The Threat's name (any case).")],
    as_json: JsonOption = False,
) -> None:
    """One Threat: its Power Dice, the Opposition each Difficulty faces, and its Decisive Strike.

    Example: showrunner threat show 'Iron Warden' --json
    """
    from rich.table import Table

    from ..domain.errors import RuleViolation
    from ..domain.showrunner.power_dice import decisive_strike_difficulty, decisive_strike_opposition

    s = session(ctx)
    ref = s.target()
    t = world_of(s.ledger, ref).threat(name)
    try:
        strike: dict[str, Any] | None = {
            "difficulty": decisive_strike_difficulty(t.power).value,
            "opposition": decisive_strike_opposition(t.power),
        }
    except RuleViolation:
        strike = None
    if as_json:
        print_json({"branch": ref.branch.name, "threat": threat_json(t), "decisive_strike": strike})
        return
    table = Table(title=markup(f"{t.name} · {t.kind} · {t.status}", lines=False))
    table.add_column("die")
    table.add_column("pips = Opposition Dice", justify="right")
    for level, pip in zip(t.power.levels, t.power.pips, strict=True):
        table.add_row(level.value, str(pip))
    console = stdout_console()
    console.print(table)
    if strike and t.kind != "project":
        console.print(
            f"Decisive Strike: {strike['difficulty']} against {strike['opposition']} Opposition Dice", highlight=False
        )


@app.command("strike")
@check_options
@writes
def strike(
    ctx: typer.Context,
    target: Annotated[str, typer.Argument(help="The Opponent, Obstacle or Actor struck.")],
    star: Annotated[str, typer.Argument(help="The Star making the strike.")],
    ability: Annotated[str, typer.Argument(help="The Ability rolled.")],
    as_json: JsonOption = False,
    *,
    check: CheckOptions,
) -> None:
    """A Decisive Strike (12.1G): one check one step above the top die, against its pips plus one
    per die below. Success or Highlight destroys the target; anything less leaves its dice.
    Takes the before-roll options of `check`.

    Example: showrunner threat strike Sentinel Mara fight --grit 1 --action 6,5,1,2 --opposition-dice 1,1,2,3 --script 2,3
    """
    from ..domain.showrunner.commands.threats import ThreatCheck

    request = check.request(star, ability)
    faces = check.faces()
    s = session(ctx)
    ref = s.target()
    name = s.ledger.view(ref).state.character(star).name
    s.check_acting_for(ref, name)
    asked = ThreatCheck(
        request=request.model_copy(update={"star": name}), target=target, decisive=True, records_due=True
    )
    result = recording(
        lambda: s.ledger.run(ref, "threat-check", asked, faces=faces or None, by=s.recorded_by(ref)),
        check_flags(),
    )
    report(ref, result, as_json)


def effect_json(fact: "ThreatChecked") -> dict[str, Any]:
    """What a ThreatChecked did, for `check --json`."""
    return {
        "target": fact.target,
        "outcome": fact.outcome,
        "status": fact.effect.status,
        "level": fact.effect.level.value if fact.effect.level else None,
        "before": fact.effect.change.before.describe() if fact.effect.change else None,
        "after": fact.effect.change.after.describe() if fact.effect.change else None,
        "steps": list(fact.effect.change.steps) if fact.effect.change else [],
        "summary": fact.summary(),
    }
