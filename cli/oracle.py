"""`showrunner oracle`: the Solorunner (Chapter 14): the Oracle's Yes/No answers, the
Consequence Menu, and the Writer's Turn.

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

from typing import TYPE_CHECKING, Annotated, TypeAlias

import typer

from .choices import difficulty
from .dice_flags import faces_option, parse_faces, recording
from .errors import UsageProblem
from .options import JsonOption, writes
from .session import session
from .subplot import FLAGS as SUBPLOT_FLAGS
from .subplot import WritersDice, writers_dice
from .world_common import director_only, report

if TYPE_CHECKING:
    from ..domain.showrunner.solorunner import PlanStep

app = typer.Typer(
    help="Solorunner: the Oracle, the Consequence Menu and the Writer's Turn (Chapter 14).",
    epilog="Example: showrunner oracle ask 'Is the harbourmaster lying?' -d HARD",
    no_args_is_help=True,
)

OracleDice: TypeAlias = Annotated[list[str] | None, faces_option("--oracle", "The 2d6 of the Oracle, e.g. 5,3.")]
MenuDice: TypeAlias = Annotated[list[str] | None, faces_option("--menu", "The 2d10 on the Consequence Menu, e.g. 5,7.")]


@app.command("ask")
@writes
def ask(
    ctx: typer.Context,
    question: Annotated[str, typer.Argument(help="A Yes/No question.")],
    level: Annotated[
        str, typer.Option("--difficulty", "-d", help="EASY (extremely likely) to EPIC (extremely unlikely).")
    ] = "NORMAL",
    oracle: OracleDice = None,
    as_json: JsonOption = False,
) -> None:
    """Ask the Oracle (14.2): 2d6 judged like two Result Dice; Yes, and… to No, and….

    Example: showrunner oracle ask 'Is the harbourmaster lying?' -d HARD
    """
    from ..domain.showrunner.commands.solorunner import OracleQuestion
    from ..domain.showrunner.world_events import OracleAnswered

    chosen = difficulty("--difficulty", level, easy=True)
    faces = parse_faces({"oracle": ("--oracle", oracle, 6)})
    s = session(ctx)
    ref = s.target()
    asked = OracleQuestion(question=question, difficulty=chosen)
    result = recording(
        lambda: s.ledger.run(ref, "oracle-ask", asked, faces=faces or None, by=s.recorded_by(ref)),
        {"oracle": "--oracle"},
    )
    fact = result.events[-1].fact
    assert isinstance(fact, OracleAnswered)
    report(ref, result, as_json, answer=fact.answer)


@app.command("menu")
@writes
def menu(
    ctx: typer.Context,
    level: Annotated[
        str,
        typer.Option("--difficulty", "-d", help="The failed check's original Difficulty: it sizes the Consequences."),
    ],
    disaster: Annotated[bool, typer.Option("--disaster", help="A Disaster: both options apply.")] = False,
    menu_dice: MenuDice = None,
    as_json: JsonOption = False,
) -> None:
    """Roll on the Consequence Menu (14.3): 2d10 name two options; pick one, or both on a Disaster.

    Example: showrunner oracle menu -d HARD --disaster
    """
    from ..domain.showrunner.commands.solorunner import ConsequenceMenu
    from ..domain.showrunner.world_events import ConsequenceMenuRolled

    chosen = difficulty("--difficulty", level, easy=True)
    faces = parse_faces({"menu": ("--menu", menu_dice, 10)})
    s = session(ctx)
    ref = s.target()
    asked = ConsequenceMenu(difficulty=chosen, disaster=disaster)
    result = recording(
        lambda: s.ledger.run(ref, "oracle-menu", asked, faces=faces or None, by=s.recorded_by(ref)),
        {"menu": "--menu"},
    )
    fact = result.events[-1].fact
    assert isinstance(fact, ConsequenceMenuRolled)
    report(ref, result, as_json, options=[o.model_dump() for o in fact.options])
    if not as_json:
        from .session import stdout_console

        for option in fact.options:
            stdout_console().print(f"  {option.number}. {option.name}: {option.text}", highlight=False)


@app.command("scene-goal")
@writes
def scene_goal(
    ctx: typer.Context,
    goal: Annotated[list[str] | None, faces_option("--goal", "The d6, typed in.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Roll the d6 naming an uncertain scene's goal (14.1A): Scheme 1-2, Curry Favor 3-4, Event 5-6.

    Example: showrunner oracle scene-goal --goal 4
    """
    from ..domain.showrunner.commands.solorunner import SoloRoll

    faces = parse_faces({"goal": ("--goal", goal, 6)})
    s = session(ctx)
    ref = s.target()
    result = recording(
        lambda: s.ledger.run(ref, "oracle-scene-goal", SoloRoll(), faces=faces or None, by=s.recorded_by(ref)),
        {"goal": "--goal"},
    )
    report(ref, result, as_json, goal=getattr(result.events[-1].fact, "goal", None))


@app.command("studio-note")
@writes
def studio_note(
    ctx: typer.Context,
    solo_note: Annotated[list[str] | None, faces_option("--solo-note", "The d10, typed in.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Roll the solo d10 against the Studio Notes pooled (5.2.2): below them, one is spent on the
    check (`check --studio-note`).

    Example: showrunner oracle studio-note --solo-note 2
    """
    from ..domain.showrunner.commands.solorunner import SoloRoll

    faces = parse_faces({"solo_note": ("--solo-note", solo_note, 10)})
    s = session(ctx)
    ref = s.target()
    director_only(s, "rolls for the Studio Notes")
    result = recording(
        lambda: s.ledger.run(ref, "oracle-studio-note", SoloRoll(), faces=faces or None, by=s.recorded_by(ref)),
        {"solo_note": "--solo-note"},
    )
    report(ref, result, as_json, spends=getattr(result.events[-1].fact, "spends", None))


@app.command("writers-turn")
@writers_dice
@writes
def writers_turn(
    ctx: typer.Context,
    steps: Annotated[
        list[str],
        typer.Argument(
            help="The plan, in order: 'roll' rolls a Subplot (1 Studio Note), a number Reveals that Subplot (1, or 0 if marked free)."
        ),
    ],
    as_json: JsonOption = False,
    *,
    dice: WritersDice,
) -> None:
    """The Writer's Turn (14.1B): the world spends exactly half the Studio Notes, rounded down, on
    rolling Subplots and Revealing them. Rolled Subplots stay in stasis (Director-only).

    Example: showrunner oracle writers-turn roll 1
    """
    from ..domain.showrunner.commands.solorunner import WritersTurnPlan

    plan: list[PlanStep] = []
    for step in steps:
        word = step.strip().lower()
        if word == "roll":
            plan.append("roll")
        elif word.isdigit() and int(word) >= 1:
            plan.append(int(word))
        else:
            raise UsageProblem(f"a Writer's Turn step is 'roll' or a Subplot's number, not '{step}'")
    faces = dice.faces()
    s = session(ctx)
    director_only(s, "takes the Writer's Turn")
    ref = s.target()
    asked = WritersTurnPlan(plan=tuple(plan))
    result = recording(
        lambda: s.ledger.run(ref, "oracle-writers-turn", asked, faces=faces or None, by=s.recorded_by(ref)),
        SUBPLOT_FLAGS,
    )
    report(ref, result, as_json)
