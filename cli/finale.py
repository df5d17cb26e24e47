"""`showrunner finale`: the Series Finale (Chapter 15). Final Scenes against an Actor or the World,
Ultimate Stakes, the World's turn with a Maximized Subplot and its Final Act, and The End.

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

from typing import TYPE_CHECKING, Annotated, Any

import typer

from . import choices
from .dice_flags import recording
from .errors import UsageProblem
from .options import JsonOption, writes
from .safe_text import markup
from .session import print_json, session, stdout_console
from .world_common import CheckOptions, check_flags, check_options, director_only, report

if TYPE_CHECKING:
    from ..domain.showrunner.finale import Finale

app = typer.Typer(
    help="The Series Finale: Final Scenes, Ultimate Stakes, Maximized Subplots, The End (Chapter 15).",
    epilog="Example: showrunner finale scene Mara fight --against 'Lady Shore' --harm",
    no_args_is_help=True,
)

OutcomeOption = Annotated[
    str | None,
    typer.Option(
        "--outcome",
        help="Played as a dedicated Action Sequence (needed above EPIC): the Climax's outcome "
        "(highlight, success, partial, failure, disaster) instead of a check.",
    ),
]


def _outcome(value: str | None, check: CheckOptions, ability: str | None) -> Any:
    """The Action Sequence's outcome, refused beside the options of a check that is not rolled."""
    if value is None:
        if ability is None:
            raise UsageProblem("name the ABILITY rolled, or give the Action Sequence's --outcome")
        return None
    from ..domain.showrunner.check import Outcome

    given = check.given_for_a_roll()
    if ability is not None or given:
        extra = f"ABILITY {ability}" if ability is not None else ", ".join(given)
        raise UsageProblem(f"--outcome records an Action Sequence's Climax: drop {extra}")
    try:
        return Outcome(value.strip().lower().replace("partial success", "partial"))
    except ValueError:
        raise UsageProblem(
            f"unknown outcome '{value}' (outcomes: highlight, success, partial, failure, disaster)"
        ) from None


@app.command("begin")
@writes
def begin(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """Begin the Series Finale once the season's final climax is resolved: the Episode running now
    becomes the season's last, and every Finale command runs in it alone. The Director's call.

    Example: showrunner finale begin
    """
    from ..domain.showrunner.commands.finale import FinaleBegin

    s = session(ctx)
    director_only(s, "begins the Finale")
    ref = s.target()
    result = s.ledger.run(ref, "finale-begin", FinaleBegin(), by=s.recorded_by(ref))
    report(ref, result, as_json)


@app.command("scene")
@check_options
@writes
def scene(
    ctx: typer.Context,
    star: Annotated[str, typer.Argument(help="The Star whose Final Scene it is.")],
    ability: Annotated[str | None, typer.Argument(help="The Ability rolled (leave out with --outcome).")] = None,
    against: Annotated[
        str | None, typer.Option("--against", help="The Actor the Final Scene targets (its Power Level is the DT).")
    ] = None,
    aid: Annotated[bool, typer.Option("--aid", help="Against an Actor: a success raises their Power Level.")] = False,
    harm: Annotated[bool, typer.Option("--harm", help="Against an Actor: a success eliminates them.")] = False,
    world: Annotated[
        bool, typer.Option("--world", help="A declaration against the World: the Director sets --difficulty.")
    ] = False,
    difficulty: Annotated[
        str | None, typer.Option("--difficulty", "-d", help="Against the World: the Difficulty the Director sets.")
    ] = None,
    opposition: Annotated[
        int, typer.Option("--opposition", min=0, help="Against the World: the Opposition Dice the Director sets.")
    ] = 0,
    declaration: Annotated[str, typer.Option("--declare", help="The Final Scene as the Star declares it.")] = "",
    outcome: OutcomeOption = None,
    as_json: JsonOption = False,
    *,
    check: CheckOptions,
) -> None:
    """A Final Scene (15.1): one high-stakes check. Against an Actor the Difficulty is their Power
    Level, opposed by their pips there: a success with --aid raises them one Power Level for good,
    with --harm eliminates them. Against the World the Director sets the Difficulty. Ultimate
    Stakes (15.2): Grit is bypassed; each Consequence is Plot Armor damage of the Grit amount
    (a Disaster's: doubled). Takes the before-roll options of `check`.

    Example: showrunner finale scene Mara fight --against 'Lady Shore' --harm --declare 'I end her reign'
    """
    from ..domain.showrunner.commands.finale import FinalSceneInput

    if world == (against is not None):
        raise UsageProblem("a Final Scene is --against ACTOR or --world: give one")
    if aid and harm:
        raise UsageProblem("--aid or --harm: a Final Scene does one")
    given = _outcome(outcome, check, ability)
    s = session(ctx)
    ref = s.target()
    name = s.ledger.view(ref).state.character(star).name
    s.check_acting_for(ref, name)
    asked = FinalSceneInput(
        star=name,
        declaration=declaration,
        actor=against,
        intent="aid" if aid else ("harm" if harm else None),
        difficulty=choices.difficulty("--difficulty", difficulty) if difficulty is not None else None,
        opposition=opposition,
        request=None if given is not None else check.request(name, ability or ""),
        outcome=given,
    )
    faces = check.faces()
    result = recording(
        lambda: s.ledger.run(ref, "finale-scene", asked, faces=faces or None, by=s.recorded_by(ref)), check_flags()
    )
    report(ref, result, as_json)


@app.command("turn")
@writes
def turn(
    ctx: typer.Context,
    star: Annotated[str, typer.Argument(help="The Star whose Final Scene the World answers.")],
    subplot: Annotated[
        int | None, typer.Option("--subplot", help="The Subplot to Reveal (default: the first in the book's order).")
    ] = None,
    pass_turn: Annotated[bool, typer.Option("--pass", help="Spend no Studio Note: the Final Scene stands.")] = False,
    power: Annotated[
        list[str] | None,
        typer.Option("--power", help="Table dice: the d6s the Reveal and the Final Act re-roll, in order."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """The World turns (15.3): right after a Star's Final Scene the Director may spend one Studio
    Note to Reveal one Subplot in stasis, in the book's order: a Scheme targeting the Star, else
    one asking the Star for help, else a Scheme targeting one of the Star's Bonds. Its Power is
    maximized to its Plotter's Power Level, and its Final Act plays: a Harm event towards the Star
    calls a Gambit (`finale resist`), an Aid event grants Plot Armor, and otherwise the Event falls
    on the Plotter (Harm: eliminated; Aid: one Power Level up). Director only.

    Example: showrunner finale turn Mara
    """
    from ..domain.showrunner.commands.finale import FinaleTurn
    from .dice_flags import parse_faces

    s = session(ctx)
    director_only(s, "turns the World in the Finale")
    ref = s.target()
    faces = parse_faces({"power": ("--power", power, 6)})
    asked = FinaleTurn(star=s.ledger.view(ref).state.character(star).name, subplot=subplot, pass_turn=pass_turn)
    result = recording(
        lambda: s.ledger.run(ref, "finale-turn", asked, faces=faces or None, by=s.recorded_by(ref)),
        {"power": "--power"},
    )
    report(ref, result, as_json)


@app.command("resist")
@check_options
@writes
def resist(
    ctx: typer.Context,
    star: Annotated[str, typer.Argument(help="The Star resisting the Gambit.")],
    ability: Annotated[str | None, typer.Argument(help="The Ability rolled (leave out with --outcome).")] = None,
    outcome: OutcomeOption = None,
    as_json: JsonOption = False,
    *,
    check: CheckOptions,
) -> None:
    """Resist the Gambit a Final Act called (15.3), at the Plotter's Power Level against their pips
    there. Each Consequence is Plot Armor damage (15.2). Takes the before-roll options of `check`.

    Example: showrunner finale resist Mara endure --grit 1
    """
    from ..domain.showrunner.commands.finale import FinaleResist

    given = _outcome(outcome, check, ability)
    s = session(ctx)
    ref = s.target()
    name = s.ledger.view(ref).state.character(star).name
    s.check_acting_for(ref, name)
    asked = FinaleResist(
        star=name, request=None if given is not None else check.request(name, ability or ""), outcome=given
    )
    faces = check.faces()
    result = recording(
        lambda: s.ledger.run(ref, "finale-resist", asked, faces=faces or None, by=s.recorded_by(ref)), check_flags()
    )
    report(ref, result, as_json)


@app.command("finish")
@writes
def finish(
    ctx: typer.Context,
    star: Annotated[str, typer.Argument(help="The Star who is finished.")],
    as_json: JsonOption = False,
) -> None:
    """A Star declares their epilogue finished (15.4): they need no (further) Final Scene for The End.

    Example: showrunner finale finish Mara
    """
    from ..domain.showrunner.commands.finale import FinaleFinish

    s = session(ctx)
    ref = s.target()
    name = s.ledger.view(ref).state.character(star).name
    s.check_acting_for(ref, name)
    result = s.ledger.run(ref, "finale-finish", FinaleFinish(star=name), by=s.recorded_by(ref))
    report(ref, result, as_json)


@app.command("end")
@writes
def end(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """The End (15.4): once every Star still on the Show has played a Final Scene or declared they
    are finished, and no Gambit waits. Roll credits. Director only.

    Example: showrunner finale end
    """
    from ..domain.showrunner.commands.finale import FinaleEnd

    s = session(ctx)
    director_only(s, "calls The End")
    ref = s.target()
    result = s.ledger.run(ref, "finale-end", FinaleEnd(), by=s.recorded_by(ref))
    report(ref, result, as_json)


def finale_json(finale: "Finale | None", owing: list[str]) -> dict[str, Any]:
    if finale is None:
        return {
            "running": False,
            "episode": None,
            "scenes": [],
            "finished": [],
            "turn_for": None,
            "gambits": [],
            "owing": owing,
            "ended": False,
        }
    return {
        "running": not finale.ended,
        "episode": finale.episode,
        "scenes": [sc.model_dump(mode="json") for sc in finale.scenes],
        "finished": list(finale.finished),
        "turn_for": finale.turn_for,
        "gambits": [g.model_dump(mode="json") for g in finale.gambits],
        "owing": owing,
        "ended": finale.ended,
    }


@app.command("show")
def show(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """The Finale as it stands: its Episode, the Final Scenes played, the Gambits waiting, and the
    Stars The End still waits for.

    Example: showrunner finale show --json
    """
    from rich.table import Table

    from ..domain.showrunner.finale import Finale, still_owing
    from ..domain.showrunner.state import ShowrunnerState

    s = session(ctx)
    ref = s.target()
    state = s.seen(s.ledger.view(ref).state)
    if not isinstance(state, ShowrunnerState):
        raise UsageProblem("only a Showrunner campaign has a Finale")
    finale = state.finale
    assert finale is None or isinstance(finale, Finale)
    owing = still_owing(finale, state.stars) if finale is not None else [st.name for st in state.stars.values()]
    if as_json:
        print_json({"branch": ref.branch.name, "finale": finale_json(finale, owing)})
        return
    console = stdout_console()
    if finale is None:
        console.print("No Finale yet: `showrunner finale begin` in the season's last Episode.", highlight=False)
        return
    state_words = "The End" if finale.ended else "running"
    console.print(f"The Finale · Episode {finale.episode} · {state_words}", highlight=False)
    table = Table(title="Final Scenes")
    for column in ("#", "Star", "against", "DT", "outcome", "Plot Armor damage"):
        table.add_column(column)
    for sc in finale.scenes:
        against = f"{sc.actor} ({sc.intent})" if sc.actor else "the World"
        table.add_row(
            str(sc.number),
            markup(sc.star, lines=False),
            markup(against, lines=False),
            sc.difficulty.value,
            sc.outcome.label,
            str(sc.plot_armor_damage),
        )
    console.print(table)
    for g in finale.gambits:
        console.print(f"Gambit waiting: {g.star} against {g.by} at {g.level.value}", markup=False, highlight=False)
    if not finale.ended:
        left = ", ".join(owing) or "no one"
        console.print(f"The End waits for: {left}", markup=False, highlight=False)
