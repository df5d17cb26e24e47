"""`showrunner subplot`: the Writer's Room (Chapter 13). A Subplot is written in stasis, seen by
the Director alone, and changes nothing until `subplot reveal N` brings it on-screen.

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

from typing import Annotated, Any, NamedTuple, TypeAlias

import typer

from .choices import ability
from .dice_flags import faces_option, parse_faces, recording
from .options import JsonOption, writes
from .safe_text import markup
from .session import print_json, session, stdout_console
from .world_common import director_only, option_group, report, stars_view, world_of

app = typer.Typer(
    help="The Writer's Room: Subplots in stasis, Revealed, resolved (Chapter 13).",
    epilog="Example: showrunner subplot generate --plotter 'Lady Shore'",
    no_args_is_help=True,
)

FLAGS = {
    "plotter": "--roster-die",
    "power_level": "--power-level-dice",
    "event": "--event",
    "bounty": "--bounty",
    "power": "--power",
}
RosterDie: TypeAlias = Annotated[
    list[str] | None, faces_option("--roster-die", "The d100 rolled on the Supporting Cast Roster for the Plotter.")
]
PowerLevelDice: TypeAlias = Annotated[
    list[str] | None, faces_option("--power-level-dice", "The 3d6 of the Subplot's Power.")
]
EventDie: TypeAlias = Annotated[list[str] | None, faces_option("--event", "The d100 Event (01-50 Aid, 51-100 Harm).")]
BountyDice: TypeAlias = Annotated[list[str] | None, faces_option("--bounty", "The d6s of Props in a Star's bounty.")]
PowerDice: TypeAlias = Annotated[
    list[str] | None,
    faces_option("--power", "The d6s of a minion's pips and of the dice the Reveal re-rolls, in order."),
]


def writers_faces(roster: Any, power_level: Any, event: Any, bounty: Any, power: Any) -> dict[str, list[int]]:
    return parse_faces(
        {
            "plotter": ("--roster-die", roster, 100),
            "power_level": ("--power-level-dice", power_level, 6),
            "event": ("--event", event, 100),
            "bounty": ("--bounty", bounty, 6),
            "power": ("--power", power, 6),
        }
    )


class WritersDice(NamedTuple):
    """The table dice of a command that may write Subplots (`writers_dice`)."""

    roster_die: list[str] | None = None
    power_level_dice: list[str] | None = None
    event: list[str] | None = None
    bounty: list[str] | None = None
    power: list[str] | None = None

    def faces(self) -> dict[str, list[int]]:
        return writers_faces(*self)


writers_dice = option_group(WritersDice, (RosterDie, PowerLevelDice, EventDie, BountyDice, PowerDice), "dice")


@app.command("generate")
@writers_dice
@writes
def generate(
    ctx: typer.Context,
    plotter: Annotated[
        str | None, typer.Option("--plotter", help="Choose the Plotter instead of rolling on the roster.")
    ] = None,
    pre_production: Annotated[
        bool, typer.Option("--pre-production", help="Written in Pre-Production: free (otherwise 1 Studio Note).")
    ] = False,
    as_json: JsonOption = False,
    *,
    dice: WritersDice,
) -> None:
    """Write a Subplot through the four phases (13.2): Plotter, Power, Ally, Target. It waits in
    stasis, seen by the Director alone. A roll on an empty slot Unlocks it; a repeat Plotter marks
    their waiting Subplot for a free Reveal. Costs 1 Studio Note (free in Pre-Production).

    Example: showrunner subplot generate --plotter 'Lady Shore' --power-level-dice 1,1,2 --event 10 --bounty 4
    """
    from ..domain.showrunner.commands.writers_room import SubplotGenerate

    faces = dice.faces()
    s = session(ctx)
    director_only(s, "writes Subplots")
    ref = s.target()
    asked = SubplotGenerate(plotter=plotter, pre_production=pre_production)
    result = recording(
        lambda: s.ledger.run(ref, "subplot-generate", asked, faces=faces or None, by=s.recorded_by(ref)), FLAGS
    )
    report(ref, result, as_json)


@app.command("pre-production")
@writes
def pre_production(
    ctx: typer.Context,
    power_level_dice: PowerLevelDice = None,
    event: EventDie = None,
    bounty: BountyDice = None,
    power: PowerDice = None,
    as_json: JsonOption = False,
) -> None:
    """Pre-Production (4.3 Step 2): one free Subplot for every active Actor with none unresolved, in roster order.

    Example: showrunner subplot pre-production --json
    """
    from ..domain.showrunner.commands.writers_room import PreProduction

    faces = writers_faces(None, power_level_dice, event, bounty, power)
    s = session(ctx)
    director_only(s, "writes Subplots")
    ref = s.target()
    result = recording(
        lambda: s.ledger.run(
            ref, "subplot-pre-production", PreProduction(), faces=faces or None, by=s.recorded_by(ref)
        ),
        FLAGS,
    )
    report(ref, result, as_json)


@app.command("reveal")
@writes
def reveal(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(help="The Subplot's number (`subplot list`).")],
    cliffhanger: Annotated[
        bool, typer.Option("--cliffhanger", help="The Episode's cliffhanger Reveal: free (16.2).")
    ] = False,
    power: PowerDice = None,
    as_json: JsonOption = False,
) -> None:
    """Reveal a Subplot on-screen: every effect it holds applies now, once (pips, Bonds and
    Grudges, a minion, a bounty). Costs 1 Studio Note (free if marked, or the cliffhanger).

    Example: showrunner subplot reveal 1
    """
    from ..domain.showrunner.commands.writers_room import SubplotReveal

    faces = writers_faces(None, None, None, None, power)
    s = session(ctx)
    director_only(s, "reveals Subplots")
    ref = s.target()
    asked = SubplotReveal(number=number, cliffhanger=cliffhanger)
    result = recording(
        lambda: s.ledger.run(ref, "subplot-reveal", asked, faces=faces or None, by=s.recorded_by(ref)), FLAGS
    )
    report(ref, result, as_json)


@app.command("resolve")
@writes
def resolve(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(help="The Revealed Subplot's number.")],
    as_json: JsonOption = False,
) -> None:
    """Mark a Revealed Subplot resolved: its Plotter may have another.

    Example: showrunner subplot resolve 1
    """
    from ..domain.showrunner.commands.writers_room import SubplotResolve

    s = session(ctx)
    director_only(s, "resolves Subplots")
    ref = s.target()
    report(ref, s.ledger.run(ref, "subplot-resolve", SubplotResolve(number=number), by=s.recorded_by(ref)), as_json)


FORM_FLAGS = {"scheme": "--scheme-dice", "favor": "--favor-die", "ability": "--ability-die", "form": "--form-die"}
SchemeDice: TypeAlias = Annotated[
    list[str] | None, faces_option("--scheme-dice", "The 2d10 naming two Abilities (1 Channel … 10 Work).")
]
FavorDie: TypeAlias = Annotated[
    list[str] | None,
    faces_option("--favor-die", "The d10 choosing the Ability: 1-4 Primary, 5-7 Secondary, 8-10 random."),
]
AbilityDie: TypeAlias = Annotated[
    list[str] | None, faces_option("--ability-die", "The d10 of the random Ability (after a favour die of 8-10).")
]
FormDie: TypeAlias = Annotated[list[str] | None, faces_option("--form-die", "The d10 on the Ability's table: its row.")]


def fill_form(ctx: typer.Context, name: str, asked: Any, faces: dict[str, list[int]], as_json: bool) -> None:
    from ..domain.showrunner.world_events import SubplotFormFilled

    s = session(ctx)
    director_only(s, "fills in a Subplot's forms")
    ref = s.target()
    result = recording(lambda: s.ledger.run(ref, name, asked, faces=faces or None, by=s.recorded_by(ref)), FORM_FLAGS)
    fact = result.events[-1].fact
    assert isinstance(fact, SubplotFormFilled)
    report(ref, result, as_json, form=fact.form.model_dump(mode="json"))


@app.command("scheme")
@writes
def scheme(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(help="The Subplot's number (`subplot list`).")],
    choice: Annotated[
        str | None,
        typer.Option(
            "--choice",
            metavar="ABILITY",
            help="When the 2d10 name neither the Primary nor the Secondary: which of the two named (default the first die's).",
        ),
    ] = None,
    scheme_dice: SchemeDice = None,
    form_die: FormDie = None,
    as_json: JsonOption = False,
) -> None:
    """Fill in the form a Subplot's Scheme takes (Appendix F): 2d10 name two Abilities, the
    Plotter's Primary wins if named, then the Secondary, then the choice; 1d10 gives the row of
    that Ability's table. Once per Subplot; Director-only while the Subplot is in stasis.

    Example: showrunner subplot scheme 1 --scheme-dice 3,7 --form-die 4
    """
    from ..domain.showrunner.commands.writers_room import SubplotScheme

    faces = parse_faces({"scheme": ("--scheme-dice", scheme_dice, 10), "form": ("--form-die", form_die, 10)})
    picked = ability(choice, "--choice") if choice is not None else None
    fill_form(ctx, "subplot-scheme", SubplotScheme(number=number, choice=picked), faces, as_json)


@app.command("favor")
@writes
def favor(
    ctx: typer.Context,
    number: Annotated[int, typer.Argument(help="The Subplot's number (`subplot list`).")],
    favor_die: FavorDie = None,
    ability_die: AbilityDie = None,
    form_die: FormDie = None,
    as_json: JsonOption = False,
) -> None:
    """Fill in how a Subplot's Plotter Curries Favor with the Ally (Appendix G): 1d10 picks the
    Ability (1-4 Primary, 5-7 Secondary, 8-10 a random one on another d10), 1d10 gives the row.
    Only a Subplot whose approach is Curry Favor; once; Director-only while it is in stasis.

    Example: showrunner subplot favor 2 --favor-die 6 --form-die 3
    """
    from ..domain.showrunner.commands.writers_room import SubplotFavor

    faces = parse_faces(
        {
            "favor": ("--favor-die", favor_die, 10),
            "ability": ("--ability-die", ability_die, 10),
            "form": ("--form-die", form_die, 10),
        }
    )
    fill_form(ctx, "subplot-favor", SubplotFavor(number=number), faces, as_json)


@app.command("list")
def list_(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """The Subplots: the Director sees those in stasis too; a Star only those Revealed.

    Example: showrunner subplot list --json
    """
    from rich.table import Table

    from ..domain.showrunner.world_events import effect_words, form_words, subplot_words

    s = session(ctx)
    ref = s.target()
    w = stars_view(world_of(s.ledger, ref), s.is_director)
    if as_json:
        print_json(
            {
                "branch": ref.branch.name,
                "subplots": [
                    {
                        **p.model_dump(mode="json"),
                        "plan": subplot_words(p),
                        "effects_text": [effect_words(e) for e in p.effects],
                    }
                    for p in w.subplots
                ],
            }
        )
        return
    table = Table(title=f"Subplots · {ref.branch.name}")
    for column in ("#", "status", "Plotter", "Power", "plan", "effects"):
        table.add_column(column)
    for p in w.subplots:
        status = p.status + (" (free Reveal)" if p.free_reveal and p.status == "stasis" else "")
        table.add_row(
            str(p.number),
            status,
            markup(p.plotter, lines=False),
            p.power.value,
            markup(
                "; ".join(
                    [
                        subplot_words(p),
                        *(
                            f"{label}: {form_words(form)}"
                            for label, form in (("Scheme", p.scheme_form), ("Favor", p.favor_form))
                            if form
                        ),
                    ]
                )
            ),
            markup("; ".join(effect_words(e) for e in p.effects)),
        )
    stdout_console().print(table)
