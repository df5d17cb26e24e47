"""`showrunner actor`: the Supporting Cast (Appendix A), given whole or rolled, on the d100 roster.

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

from typing import TYPE_CHECKING, Annotated, Any, TypeAlias

import typer

from . import choices
from .choices import difficulty
from .dice_flags import faces_option, parse_faces, recording
from .errors import UsageProblem
from .options import JsonOption, writes
from .safe_text import markup
from .session import print_json, session, stdout_console
from .world_common import CheckOptions, check_flags, check_options, director_only, report, stars_view, world_of

if TYPE_CHECKING:
    from ..domain.campaign import CampaignState
    from ..domain.showrunner.actors import Actor, TieKind, Ties
    from ..domain.showrunner.sheet import AbilityName

app = typer.Typer(
    help="The Supporting Cast: Actors on the d100 roster (Appendix A).",
    epilog="Example: showrunner actor create Grim --primary fight --secondary impress --pips 3,4",
    no_args_is_help=True,
)

AbilityDice: TypeAlias = Annotated[
    list[str] | None, faces_option("--ability-dice", "The d10s naming the Primary and Secondary Abilities, in order.")
]
PowerLevelDice: TypeAlias = Annotated[
    list[str] | None, faces_option("--power-level-dice", "The 3d6 of the Power Level.")
]
PowerFaces: TypeAlias = Annotated[
    list[str] | None,
    faces_option("--power", "The d6 pips of the Power Dice, highest die first (a 6 below the top re-rolls)."),
]
FLAGS = {"ability": "--ability-dice", "power_level": "--power-level-dice", "power": "--power"}


def _ability(flag: str, value: str | None) -> "AbilityName | None":
    return None if value is None else choices.ability(value, flag)


def _ties(flag: str, values: list[str] | None, state: "CampaignState") -> "Ties":
    from ..domain.errors import UnknownName
    from ..domain.showrunner.actors import Person

    ties: Ties = {}
    for value in values or []:
        level_text, sep, name = value.partition("=")
        if not sep or not name.strip():
            raise UsageProblem(f"{flag} takes LEVEL=NAME, like H=Grim or NORMAL='Mara Voss' (got '{value}')")
        level = difficulty(flag, level_text.strip())
        try:
            person = Person(name=state.character(name.strip()).name, star=True)
        except UnknownName:
            person = Person(name=name.strip())
        ties[level] = person
    return ties


@app.command("create")
@writes
def create(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The Actor's name (never shared with a Star or a Threat).")],
    concept: Annotated[str, typer.Option("--concept", help="Who they are, in a few words.")] = "",
    primary: Annotated[
        str | None,
        typer.Option("--primary", help=f"Primary Ability ({choices.ABILITIES}); rolled on a d10 if not given."),
    ] = None,
    secondary: Annotated[
        str | None,
        typer.Option(
            "--secondary", help="Secondary Ability; rolled if not given (a repeat of the Primary is rolled again)."
        ),
    ] = None,
    power_level: Annotated[
        str | None,
        typer.Option("--power-level", "-l", help="Power Level, NORMAL to GODLIKE; rolled on 3d6 if not given."),
    ] = None,
    pips: Annotated[
        str | None,
        typer.Option(
            "--pips",
            metavar="P,P,…",
            help="The Power Dice given whole, NORMAL first, e.g. 3,4 (a HARD Actor): nothing is rolled for them.",
        ),
    ] = None,
    scale: Annotated[
        str,
        typer.Option(
            "--scale",
            help="Scaled Power for a rolled Power Level: typical (middle die), minor (lowest) or powerful (highest).",
        ),
    ] = "typical",
    slot: Annotated[
        int | None,
        typer.Option(
            "--slot", min=1, max=100, help="The roster slot (default: the next Unlocked, else the lowest empty)."
        ),
    ] = None,
    specialty: Annotated[list[str] | None, typer.Option("--specialty", "-s", help="A Specialty (repeatable).")] = None,
    scar: Annotated[list[str] | None, typer.Option("--scar", help="A Scar (repeatable).")] = None,
    agenda: Annotated[str, typer.Option("--agenda", help="What they want.")] = "",
    bond: Annotated[
        list[str] | None,
        typer.Option(
            "--bond",
            metavar="LEVEL=NAME",
            help="A Bond slot, e.g. H=Grim (a Star's name makes it a Star's slot; repeatable).",
        ),
    ] = None,
    grudge: Annotated[
        list[str] | None,
        typer.Option("--grudge", metavar="LEVEL=NAME", help="A Grudge slot, e.g. N='Mara Voss' (repeatable)."),
    ] = None,
    ability_dice: AbilityDice = None,
    power_level_dice: PowerLevelDice = None,
    power: PowerFaces = None,
    as_json: JsonOption = False,
) -> None:
    """Cast an Actor into the Supporting Cast: what is not given is rolled (Appendix A). With the
    group's Random Archetype table file loaded (`table load`), the Actor's Archetype is its row
    at the two Abilities.

    Example: showrunner actor create Grim --primary fight --secondary impress --pips 3,4 --bond N='Mara Voss' --grudge N=Baron --slot 12
    """
    from ..domain.showrunner.actors import ActorSpec

    if scale not in ("typical", "minor", "powerful"):
        raise UsageProblem(f"--scale: '{scale}' is not typical, minor or powerful")
    level = difficulty("--power-level", power_level) if power_level is not None else None
    given_pips = None
    if pips is not None:
        given_pips = tuple(parse_faces({"pips": ("--pips", [pips], 6)})["pips"])
        if not given_pips:
            raise UsageProblem("--pips needs at least one die, like 3 or 3,4")
    faces = parse_faces(
        {
            "ability": ("--ability-dice", ability_dice, 10),
            "power_level": ("--power-level-dice", power_level_dice, 6),
            "power": ("--power", power, 6),
        }
    )
    s = session(ctx)
    director_only(s, "casts Actors")
    ref = s.target()
    state = s.ledger.view(ref).state
    spec = ActorSpec(
        name=name,
        concept=concept,
        scale=scale,
        primary=_ability("--primary", primary),
        secondary=_ability("--secondary", secondary),
        power_level=level,
        pips=given_pips,
        specialties=tuple(specialty or ()),
        scars=tuple(scar or ()),
        agenda=agenda,
        bonds=_ties("--bond", bond, state),
        grudges=_ties("--grudge", grudge, state),
        slot=slot,
    )
    result = recording(
        lambda: s.ledger.run(ref, "actor-create", spec, faces=faces or None, by=s.recorded_by(ref)), FLAGS
    )
    report(ref, result, as_json)


def actor_json(actor: "Actor", slot: int | None) -> dict[str, Any]:
    data = actor.model_dump(mode="json")
    return {
        **data,
        "slot": slot,
        "power_level": actor.power.top.value if actor.power.top else None,
        "power_dice": actor.power.describe(),
    }


def ties_text(ties: "Ties") -> str:
    return ", ".join(f"{level.letter} {p.name}{' ★' if p.star else ''}" for level, p in ties.items()) or "—"


@app.command("list")
def list_(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """The Actors of the Supporting Cast, in roster order (written-off ones included).

    Example: showrunner actor list --json
    """
    from rich.table import Table

    s = session(ctx)
    ref = s.target()
    w = stars_view(world_of(s.ledger, ref), s.is_director)
    actors = sorted(w.actors.values(), key=lambda a: (w.roster.slot_of(a.name) or 101, a.name))
    if as_json:
        print_json({"branch": ref.branch.name, "actors": [actor_json(a, w.roster.slot_of(a.name)) for a in actors]})
        return
    table = Table(title=f"Supporting Cast · {ref.branch.name}")
    for column in ("slot", "name", "level", "Power Dice", "Abilities", "Bonds", "Grudges", ""):
        table.add_column(column)
    for a in actors:
        slot = w.roster.slot_of(a.name)
        table.add_row(
            str(slot or "—"),
            markup(a.name, lines=False),
            a.power.top.value if a.power.top else "—",
            a.power.describe(),
            f"{a.primary.value.title()}/{a.secondary.value.title()}",
            markup(ties_text(a.bonds)),
            markup(ties_text(a.grudges)),
            "WRITTEN OFF" if a.written_off else "",
        )
    stdout_console().print(table)


@app.command("show")
def show(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The Actor's name (any case).")],
    as_json: JsonOption = False,
) -> None:
    """One Actor: Power Dice, Abilities, Bonds and Grudges.

    Example: showrunner actor show Grim
    """
    from rich.table import Table

    s = session(ctx)
    ref = s.target()
    w = stars_view(world_of(s.ledger, ref), s.is_director)
    a = w.actor(name)
    slot = w.roster.slot_of(a.name)
    if as_json:
        print_json({"branch": ref.branch.name, "actor": actor_json(a, slot)})
        return
    grid = Table.grid(padding=(0, 2))
    rows = [
        ("Concept", a.concept or "—"),
        ("Roster slot", str(slot or "—")),
        ("Power Level", a.power.top.value if a.power.top else "—"),
        ("Power Dice", a.power.describe()),
        ("Abilities", f"{a.primary.value.title()} (Primary), {a.secondary.value.title()} (Secondary)"),
        *([("Archetype", f"{a.archetype} (the Random Archetype table's row)")] if a.archetype else []),
        ("Specialties", ", ".join(a.specialties) or "—"),
        ("Scars", ", ".join(a.scars) or "—"),
        ("Agenda", a.agenda or "—"),
        ("Bonds", ties_text(a.bonds)),
        ("Grudges", ties_text(a.grudges)),
    ]
    if a.written_off:
        rows.append(("Status", "WRITTEN OFF"))
    for label, value in rows:
        grid.add_row(f"[bold]{label}[/]", markup(value))
    console = stdout_console()
    console.print(f"[bold]{markup(a.name, lines=False)}[/]", highlight=False)
    console.print(grid)


@app.command("contest")
@writes
def contest(
    ctx: typer.Context,
    first: Annotated[str, typer.Argument(help="One Actor.")],
    second: Annotated[str, typer.Argument(help="The other Actor.")],
    level: Annotated[
        str, typer.Option("--difficulty", "-d", help="The Difficulty of the clash: the die whose pips are compared.")
    ],
    as_json: JsonOption = False,
) -> None:
    """Actor against Actor off-screen (12.1J): no dice; the higher pips on the die at the
    Difficulty win, a tie loses both (an Actor without that die counts 0).

    Example: showrunner actor contest Grim Baron -d HARD
    """
    from ..domain.showrunner.commands.actors import ActorContest
    from ..domain.showrunner.world_events import ActorsContested

    chosen = difficulty("--difficulty", level)
    s = session(ctx)
    director_only(s, "plays out clashes between Actors")
    ref = s.target()
    asked = ActorContest(first=first, second=second, difficulty=chosen)
    result = s.ledger.run(ref, "actor-contest", asked, by=s.recorded_by(ref))
    fact = result.events[-1].fact
    assert isinstance(fact, ActorsContested)
    report(ref, result, as_json, winner=fact.winner, pips=list(fact.pips))


@app.command("tie")
@writes
def tie(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The Actor whose Bond or Grudge moves.")],
    bond: Annotated[
        str | None,
        typer.Option("--bond", metavar="NAME", help="The Star or Actor of the Bond that moves (or a new Bond)."),
    ] = None,
    grudge: Annotated[
        str | None,
        typer.Option("--grudge", metavar="NAME", help="The Star or Actor of the Grudge that moves (or a new Grudge)."),
    ] = None,
    to: Annotated[
        str | None,
        typer.Option(
            "--to",
            metavar="LEVEL",
            help="The slot reached (default: one slot up; a new tie enters at NORMAL). Never above the Actor's Power Level.",
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Move an Actor's Bond or Grudge up a slot, or to --to (12.1I): the person who held that slot
    swaps down into the old one (for a new tie, they leave the web). One slot of each per Power
    Level, NORMAL up: a slot above the Actor's Power Level is refused, and a tie never moves down.

    Example: showrunner actor tie Grim --bond 'Mara Voss' --to HARD
    """
    from ..domain.showrunner.commands.actors import ActorTie
    from ..domain.showrunner.world_events import ActorTieChanged

    if (bond is None) == (grudge is None):
        raise UsageProblem("give the tie that moves: --bond NAME or --grudge NAME (one of them)")
    level = difficulty("--to", to) if to is not None else None
    s = session(ctx)
    director_only(s, "moves an Actor's Bonds and Grudges")
    ref = s.target()
    kind: TieKind = "bond" if bond is not None else "grudge"
    asked = ActorTie(actor=name, kind=kind, person=bond or grudge or "", to=level)
    result = s.ledger.run(ref, "actor-tie", asked, by=s.recorded_by(ref))
    fact = result.events[-1].fact
    assert isinstance(fact, ActorTieChanged)
    report(ref, result, as_json, kind=kind, slots=actor_json(fact.actor, None)[kind + "s"])


@app.command("manipulate")
@check_options
@writes
def manipulate(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The Actor whose Bond or Grudge moves.")],
    star: Annotated[str, typer.Argument(help="The Star making the check.")],
    ability: Annotated[str, typer.Argument(help="The Ability rolled.")],
    bond: Annotated[
        str | None, typer.Option("--bond", metavar="NAME", help="The Star or Actor of the Bond that moves.")
    ] = None,
    grudge: Annotated[
        str | None, typer.Option("--grudge", metavar="NAME", help="The Star or Actor of the Grudge that moves.")
    ] = None,
    up: Annotated[bool, typer.Option("--up", help="Move it one slot up.")] = False,
    down: Annotated[bool, typer.Option("--down", help="Move it one slot down (from NORMAL: out of the web).")] = False,
    as_json: JsonOption = False,
    *,
    check: CheckOptions,
) -> None:
    """A Star manipulates an Actor's relationship (12.1I): one check at the Difficulty of the
    Bond or Grudge's current slot, against the Actor's pips there. On a Partial Success or better
    it moves one slot up or down, swapping with whoever held that slot; below NORMAL it leaves
    the web. Takes the before-roll options of `check`.

    Example: showrunner actor manipulate Grim Mara talk --grudge 'Mara Voss' --down --action 5,4,1 --script 2,3
    """
    from ..domain.showrunner.commands.actors import ActorManipulate

    if (bond is None) == (grudge is None):
        raise UsageProblem("give the tie that moves: --bond NAME or --grudge NAME (one of them)")
    if up == down:
        raise UsageProblem("give the way it moves: --up or --down (one of them)")
    request = check.request(star, ability)
    faces = check.faces()
    s = session(ctx)
    ref = s.target()
    acting = s.ledger.view(ref).state.character(star).name
    s.check_acting_for(ref, acting)
    kind: TieKind = "bond" if bond is not None else "grudge"
    asked = ActorManipulate(
        request=request.model_copy(update={"star": acting}),
        actor=name,
        kind=kind,
        person=bond or grudge or "",
        direction="up" if up else "down",
    )
    result = recording(
        lambda: s.ledger.run(ref, "actor-manipulate", asked, faces=faces or None, by=s.recorded_by(ref)),
        check_flags(),
    )
    moved = [e.fact for e in result.events if e.type_name == "ActorTieSwayed"]
    report(ref, result, as_json, moved=bool(moved))


@app.command("hireling")
@writes
def hireling(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The Actor hired to accompany the Star.")],
    star: Annotated[str, typer.Argument(help="The Star they accompany, who pays.")],
    level: Annotated[
        str,
        typer.Option(
            "--difficulty",
            metavar="LEVEL",
            help="The check's Difficulty, at most the one the hire paid for; 1 Money of its Tier is paid.",
        ),
    ],
    task: Annotated[str | None, typer.Option("--task", metavar="TEXT", help="What the hireling does.")] = None,
    as_json: JsonOption = False,
) -> None:
    """An Actor hired to accompany a Star (a Montage's Hire, accompany=LEVEL) provides an
    automatic Partial Success, no roll (9.2D): the Star pays 1 Money of the Difficulty's Tier
    (NORMAL for EASY), and the Partial Success's Consequence falls due for `consequence`.
    Refused above the hire's Difficulty, without the Money, or with no such hire.

    Example: showrunner actor hireling Grim Mara --difficulty HARD --task 'picks the vault lock'
    """
    from ..domain.showrunner.commands.actors import ActorHireling

    chosen = difficulty("--difficulty", level)
    s = session(ctx)
    ref = s.target()
    acting = s.ledger.view(ref).state.character(star).name
    s.check_acting_for(ref, acting)
    asked = ActorHireling(actor=name, star=acting, difficulty=chosen, task=task)
    result = s.ledger.run(ref, "actor-hireling", asked, by=s.recorded_by(ref))
    report(ref, result, as_json)
