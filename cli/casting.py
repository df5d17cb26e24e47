"""`showrunner star create` and `showrunner star casting …`: Casting a Star (Chapters 2-4), and
`showrunner advance`, the Advance of play.

`star create NAME` at a terminal walks every step with prompts; with flags, or off a terminal,
it starts Casting (and takes the Heritage) and each step is a `star casting STEP` command.
Every table roll is a ledger roll, or table dice typed in with the step's flags.

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

import sys
from collections.abc import Mapping
from typing import Annotated, Any, TypeAlias

import typer

from .check_options import Grit, Keep, Push, Specialty
from .choices import ability, difficulty, prop
from .dice_flags import faces_option, parse_faces, with_flags
from .errors import UsageProblem
from .options import JsonOption, writes
from .progress_common import CHECK_FLAGS, Reason, StarArg, check_options, path, record, recording
from .session import print_json, stderr_console, stdout_console
from .world_common import ActionFaces as CheckActionFaces
from .world_common import OppositionFaces as CheckOppositionFaces
from .world_common import PowerFaces as MovePowerFaces
from .world_common import ScriptFaces as CheckScriptFaces
from .world_common import check_faces, report

casting_app = typer.Typer(
    help="Casting (Chapters 2-4), one step at a time: Heritage, Social Class, Parents, Siblings, "
    "Starting Age, the Life Stages, Wardrobe, and joining the Show.",
    epilog="Example: showrunner star casting social-class 'Ada Quill' --roll 4 --money 3",
    no_args_is_help=True,
)

NameArg = Annotated[
    str, typer.Argument(metavar="STAR", help="The Star in Casting (any case, or the start of the name).")
]
MoneyFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--money", "The Starting Money's d6 (as many as the Social Class gives).")
]
LostParentRollFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--lost-parent-roll", "The Lost Parent d10s.")
]
SecondaryRollFaces: TypeAlias = Annotated[
    list[str] | None,
    faces_option("--secondary-roll", "A new antagonist's Secondary Ability d10 (re-rolled on its Primary)."),
]
PowerFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--power", "The antagonist's Power Dice pips, top die first.")
]
OrphanStatusRollFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--orphan-status-roll", "The Orphan Status d10.")
]
AgesFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--ages", "Each sibling's age d10 (1-5 older, 6-10 younger).")
]
RandomAbilityFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--random-ability", "An older Star's d10 for the Scar's random Ability.")
]
PackFaces: TypeAlias = Annotated[list[str] | None, faces_option("--pack", "Pack Your Bags' d6.")]
DilemmaFaces: TypeAlias = Annotated[list[str] | None, faces_option("--dilemma", "Act I: the Dilemma d10.")]
ActionFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--action", "The Action Dice of both checks, the Rival's Move first.")
]
OppositionDiceFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--opposition-dice", "The Opposition Dice of both checks, in order.")
]
ScriptFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--script", "The Script Dice of both checks (2 each), in order.")
]
RollFaces: TypeAlias = Annotated[list[str] | None, faces_option("--roll", "The d10 of the step's table.")]
AGES = "youth, teen, young_adult, adult, mature_adult"
PATHS = "training, persistence, talent, destiny"


def _split(flag: str, value: str, parts: int, shape: str) -> list[str]:
    found = [p.strip() for p in value.split(",")]
    if len(found) != parts or not all(found):
        raise UsageProblem(f"{flag}: '{value}' is not {shape}")
    return found


def _pair(flag: str, value: str) -> tuple[Any, str]:
    """ABILITY=NAME -> (Ability, name)."""
    where, sep, name = value.partition("=")
    if not sep or not name.strip():
        raise UsageProblem(f"{flag}: '{value}' is not ABILITY=NAME (e.g. fight=Swordplay)")
    return ability(where.strip(), flag), name.strip()


def _state(s: Any, ref: Any) -> Any:
    return s.ledger.view(ref).state


def _status(state: Any, star: str) -> dict[str, Any]:
    from ..domain.showrunner.casting import casting_of, next_step

    record = casting_of(state, star)
    step = next_step(record)
    return {
        "star": record.sheet.name,
        "done": [d.value for d in record.done],
        "next": "settle" if record.owed else (step.value if step else None),
        "owed": [o.model_dump(mode="json", exclude_none=True) for o in record.owed],
        "life_stages": record.life_stages,
        "stages_done": record.stages_done,
        "decade": f"-{record.decade}Y" if record.decade else None,
    }


def _hint(status: Mapping[str, Any]) -> None:
    owed = status["owed"]
    if owed:
        listed = ", ".join(
            o["kind"].replace("_", " ") + (f" in {o['ability']}" if "ability" in o else "") for o in owed
        )
        stderr_console().print(f"Owed: {listed}. Next: showrunner star casting settle …", markup=False, highlight=False)
    elif status["next"]:
        stderr_console().print(
            f"Next: showrunner star casting {status['next']} '{status['star']}' …", markup=False, highlight=False
        )


def _step(
    ctx: typer.Context,
    command: str,
    request: Any,
    as_json: bool,
    faces: Mapping[str, list[int]] | None = None,
    flags: Mapping[str, str] | None = None,
) -> Any:
    """Record one step, print its facts, and say what comes next."""
    from ..domain.errors import InvalidDice

    s, ref, by = recording(ctx)
    try:
        result = s.ledger.run(ref, command, request, faces=faces or None, by=by)
    except InvalidDice as e:
        raise with_flags(e, flags or {}) from None
    state = _state(s, ref)
    star = request.star
    status = _status(state, star) if command != "casting-join" else {"star": star, "next": None, "owed": []}
    report(ref, result, as_json, casting=status)
    if not as_json:
        _hint(status)
    return result


# ------------------------------------------------------------------ star create


@writes
def create(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(metavar="NAME", help="The new Star's name.")],
    player: Annotated[str | None, typer.Option("--player", help="Who plays the Star.")] = None,
    concept: Annotated[str | None, typer.Option("--concept", help="A concept; else the Archetype of Wardrobe.")] = None,
    acclaim_path: Annotated[
        str,
        typer.Option("--acclaim-path", help=f"Where the Acclaim of Casting's Bonds and Grudges goes first: {PATHS}."),
    ] = "training",
    heritage: Annotated[
        str | None, typer.Option("--heritage", help="2.1 Heritage: a sample one (Wood Elf, Vampire, …) or your own.")
    ] = None,
    specialty_in: Annotated[
        str | None,
        typer.Option("--specialty-in", metavar="A,B", help="The Abilities of the Heritage's Specialties (+2, +1)."),
    ] = None,
    scar_in: Annotated[
        str | None, typer.Option("--scar-in", metavar="A,B", help="The Abilities of the Heritage's Scars (-2, -1).")
    ] = None,
    interactive: Annotated[
        bool | None,
        typer.Option("--interactive/--no-interactive", help="Walk every step with prompts (default: at a terminal)."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Cast a new Star through the book's Casting (Chapters 2-4), from the Heritage to joining the Show.

    The steps: Heritage, Social Class, Parents, Siblings, Starting Age, the Life Stages, Getting into Wardrobe, joining. At a terminal it walks every step with prompts, rolling ledger dice or asking for table dice. Otherwise it starts Casting (and takes the Heritage when --heritage is given); each further step is a `showrunner star casting STEP` command, each roll a recorded, provable roll.

    Examples: showrunner star create 'Ada Quill' --player Jo
     ·  showrunner star create 'Ada Quill' --heritage 'Wood Elf' --specialty-in move,work --scar-in impress,endure
     ·  showrunner star casting social-class Ada --roll 4 --money 3
    """
    from ..domain.showrunner.commands.casting import CastingStart

    walk = interactive if interactive is not None else (sys.stdin.isatty() and sys.stdout.isatty() and not as_json)
    if heritage is not None and (specialty_in is None or scar_in is None):
        raise UsageProblem("--heritage needs --specialty-in A,B and --scar-in A,B: the Abilities they go under")
    chosen_path = path("--acclaim-path", acclaim_path)
    chosen = None
    if heritage is not None:
        assert specialty_in is not None and scar_in is not None
        chosen = _heritage_request(name, heritage, specialty_in, scar_in, None, None, None, None, None, None)
    started = CastingStart(star=name, player=player, concept=concept, acclaim_path=chosen_path, heritage=chosen)
    if walk:
        from ..ledger.command_ids import current_command
        from .casting_walk import walk_casting

        given = current_command()
        if given is not None and given.id is not None:
            raise UsageProblem("--command-id names one command, and the walk records one per step: leave it out")
        walk_casting(ctx, started)
        return
    _step(ctx, "casting-start", started, as_json)


def _heritage_request(
    star: str,
    heritage: str,
    specialty_in: str,
    scar_in: str,
    specialties: str | None,
    scars: str | None,
    bond: str | None,
    grudge: str | None,
    bond_face: str | None,
    grudge_face: str | None,
) -> Any:
    from ..domain.showrunner.commands.casting import CastingHeritage

    return CastingHeritage(
        star=star,
        heritage=heritage,
        specialty_abilities=tuple(
            ability(a, "--specialty-in") for a in _split("--specialty-in", specialty_in, 2, "A,B")
        ),
        scar_abilities=tuple(ability(a, "--scar-in") for a in _split("--scar-in", scar_in, 2, "A,B")),
        specialties=tuple(_split("--specialties", specialties, 2, "two names, A,B")) if specialties else None,
        scars=tuple(_split("--scars", scars, 2, "two names, A,B")) if scars else None,
        bond=bond,
        grudge=grudge,
        bond_face=bond_face,
        grudge_face=grudge_face,
    )


# ------------------------------------------------------------------ star casting STEP


@casting_app.command("status")
def status(ctx: typer.Context, star: NameArg, as_json: JsonOption = False) -> None:
    """Where a Star's Casting is: the steps done, the choices owed, the step that comes next.

    Example: showrunner star casting status Ada --json
    """
    from rich.table import Table

    from ..domain.showrunner.state import ShowrunnerState
    from .session import session

    s = session(ctx)
    ref = s.target()
    state = s.seen(_state(s, ref))
    if not isinstance(state, ShowrunnerState):
        raise UsageProblem(
            f"campaign '{ref.campaign.name}' plays {ref.campaign.ruleset}: only a Showrunner campaign casts "
            "its Stars with Casting; add a character with `star add --file`"
        )
    found = _status(state, star)
    if as_json:
        from ..domain.showrunner.casting import casting_of

        print_json({**found, "cast": [m.model_dump(mode="json") for m in casting_of(state, star).cast]})
        return
    table = Table(title=f"{found['star']} in Casting")
    table.add_column("")
    table.add_column("")
    table.add_row("done", ", ".join(found["done"]))
    table.add_row("next", found["next"] or "")
    table.add_row(
        "owed", ", ".join(o["kind"] + (f" ({o['ability']})" if "ability" in o else "") for o in found["owed"])
    )
    table.add_row("Life Stages", f"{found['stages_done']} of {found['life_stages']}")
    stdout_console().print(table)


@casting_app.command("heritage")
@writes
def heritage_step(
    ctx: typer.Context,
    star: NameArg,
    heritage: Annotated[str, typer.Argument(help="A sample Heritage (Wood Elf, High Dwarf, …) or a name of your own.")],
    specialty_in: Annotated[
        str, typer.Option("--specialty-in", metavar="A,B", help="The Abilities of the two Specialties (+2, +1).")
    ],
    scar_in: Annotated[str, typer.Option("--scar-in", metavar="A,B", help="The Abilities of the two Scars (-2, -1).")],
    specialties: Annotated[
        str | None, typer.Option("--specialties", metavar="A,B", help="Your own Heritage: its two Specialties.")
    ] = None,
    scars: Annotated[
        str | None, typer.Option("--scars", metavar="A,B", help="Your own Heritage: its two Scars.")
    ] = None,
    bond: Annotated[
        str | None, typer.Option("--bond", help="Your own Heritage: the allies it has a Bond with.")
    ] = None,
    grudge: Annotated[
        str | None, typer.Option("--grudge", help="Your own Heritage: the foes it has a Grudge with.")
    ] = None,
    bond_face: Annotated[
        str | None, typer.Option("--bond-face", help="The Actor who is the face of the allies.")
    ] = None,
    grudge_face: Annotated[
        str | None, typer.Option("--grudge-face", help="The Actor who is the face of the foes.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """2.1 Heritage (optional, first): two Specialties, two Scars, a Bond and a Grudge with their face Actors.

    Example: showrunner star casting heritage Ada 'Wood Elf' --specialty-in move,work --scar-in impress,endure
    """
    chosen = _heritage_request(
        star, heritage, specialty_in, scar_in, specialties, scars, bond, grudge, bond_face, grudge_face
    )
    _step(ctx, "casting-heritage", chosen, as_json)


@casting_app.command("social-class")
@writes
def social_class(
    ctx: typer.Context,
    star: NameArg,
    roll: RollFaces = None,
    money: MoneyFaces = None,
    as_json: JsonOption = False,
) -> None:
    """2.2 Social Class: the d10, the Starting Money's d6; Hero Prop, Career and family Advances are owed (settle).

    Example: showrunner star casting social-class Ada --roll 4 --money 3
    """
    from ..domain.showrunner.commands.casting import StarInCasting

    faces = parse_faces({"social_class": ("--roll", roll, 10), "money": ("--money", money, 6)})
    flags = {"social_class": "--roll", "money": "--money"}
    _step(ctx, "casting-social-class", StarInCasting(star=star), as_json, faces, flags)


@casting_app.command("settle")
@writes
def settle(
    ctx: typer.Context,
    star: NameArg,
    specialty: Annotated[
        list[str] | None,
        typer.Option("--specialty", metavar="ABILITY=NAME", help="A Specialty (+1) owed by an Ability Advance."),
    ] = None,
    scar: Annotated[
        list[str] | None, typer.Option("--scar", metavar="ABILITY=NAME", help="A Scar owed on a random Ability.")
    ] = None,
    hero_prop: Annotated[
        list[str] | None,
        typer.Option(
            "--hero-prop",
            metavar="NAME[=POWER]",
            help="A Hero Prop Advance; a new Hero Prop is given with its first Power.",
        ),
    ] = None,
    career: Annotated[
        list[str] | None, typer.Option("--career", metavar="PATH", help=f"A Career Advance: {PATHS}.")
    ] = None,
    mastery: Annotated[
        list[str] | None, typer.Option("--mastery", help="A Path Mastery: retake, grit, spotlight or plot_armor.")
    ] = None,
    family_bond: Annotated[
        list[str] | None, typer.Option("--family-bond", metavar="NAME", help="A family Bond.")
    ] = None,
    family_grudge: Annotated[
        list[str] | None, typer.Option("--family-grudge", metavar="NAME", help="A family Grudge.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Make the choices a Casting roll left owed (any of them, in any order).

    Example: showrunner star casting settle Ada --hero-prop "Grandmother's Bow=Never misses at dusk" --career training
    """
    from ..domain.showrunner.commands.casting import CastingSettle
    from ..domain.showrunner.sheet import Mastery

    def props(value: str) -> tuple[str, str | None]:
        named, sep, power = value.partition("=")
        return named.strip(), (power.strip() or None) if sep else None

    def mastered(value: str) -> Mastery:
        try:
            return Mastery(value)
        except ValueError:
            raise UsageProblem(
                f"--mastery: '{value}' is not a Path Mastery (retake, grit, spotlight, plot_armor)"
            ) from None

    chosen = CastingSettle(
        star=star,
        specialties=tuple(_pair("--specialty", v) for v in specialty or ()),
        scars=tuple(_pair("--scar", v) for v in scar or ()),
        hero_props=tuple(props(v) for v in hero_prop or ()),
        careers=tuple(path("--career", v) for v in career or ()),
        masteries=tuple(mastered(v) for v in mastery or ()),
        family_bonds=tuple(family_bond or ()),
        family_grudges=tuple(family_grudge or ()),
    )
    _step(ctx, "casting-settle", chosen, as_json)


@casting_app.command("parents")
@writes
def parents(
    ctx: typer.Context,
    star: NameArg,
    parent: Annotated[
        list[str],
        typer.Option(
            "--parent",
            metavar="NAME,ARCHETYPE,PRIMARY,SECONDARY",
            help="A parent (twice; the main guardian first), with their Archetype's Primary and Secondary Ability.",
        ),
    ],
    lost_parent: Annotated[
        list[str] | None, typer.Option("--lost-parent", metavar="TEXT", help="The Lost Parent table's answer.")
    ] = None,
    orphan_status: Annotated[str, typer.Option("--orphan-status", help="The Orphan Status table's answer.")] = "",
    roll: RollFaces = None,
    lost_parent_roll: LostParentRollFaces = None,
    orphan_status_roll: OrphanStatusRollFaces = None,
    as_json: JsonOption = False,
) -> None:
    """2.3A Parental Status: the d10; Ability Advances from the parents' Archetypes (each owes a Specialty).

    Example: showrunner star casting parents Ada --parent "Wren,Ranger,sense,move" --parent "Oak,Carpenter,work,think" --roll 2
    """
    from ..domain.showrunner.commands.casting import CastingParents, ParentIn

    given = []
    for value in parent:
        who, archetype, primary, secondary = _split("--parent", value, 4, "NAME,ARCHETYPE,PRIMARY,SECONDARY")
        given.append(
            ParentIn(
                name=who,
                archetype=archetype,
                primary=ability(primary, "--parent"),
                secondary=ability(secondary, "--parent"),
            )
        )
    faces = parse_faces(
        {
            "parental_status": ("--roll", roll, 10),
            "lost_parent": ("--lost-parent-roll", lost_parent_roll, 10),
            "orphan_status": ("--orphan-status-roll", orphan_status_roll, 10),
        }
    )
    flags = {"parental_status": "--roll", "lost_parent": "--lost-parent-roll", "orphan_status": "--orphan-status-roll"}
    chosen = CastingParents(
        star=star, parents=tuple(given), lost_parent=tuple(lost_parent or ()), orphan_status=orphan_status
    )
    _step(ctx, "casting-parents", chosen, as_json, faces, flags)


@casting_app.command("siblings")
@writes
def siblings(
    ctx: typer.Context,
    star: NameArg,
    name: Annotated[list[str] | None, typer.Option("--name", help="A sibling's name, in the order rolled.")] = None,
    roll: RollFaces = None,
    ages: AgesFaces = None,
    as_json: JsonOption = False,
) -> None:
    """2.3B Siblings: a d10 for how many, a d10 each for their age; they join the Supporting Cast.

    Example: showrunner star casting siblings Ada --name Tam --roll 2 --ages 3,8
    """
    from ..domain.showrunner.commands.casting import CastingSiblings

    faces = parse_faces({"siblings": ("--roll", roll, 10), "sibling_age": ("--ages", ages, 10)})
    chosen = CastingSiblings(star=star, names=tuple(name or ()))
    _step(ctx, "casting-siblings", chosen, as_json, faces, {"siblings": "--roll", "sibling_age": "--ages"})


@casting_app.command("starting-age")
@writes
def starting_age(
    ctx: typer.Context,
    star: NameArg,
    age: Annotated[str | None, typer.Argument(help=f"{AGES}; left out: rolled on the d10.")] = None,
    roll: RollFaces = None,
    random_ability: RandomAbilityFaces = None,
    as_json: JsonOption = False,
) -> None:
    """3A Starting Age (chosen or d10) and its effects; it sets the Life Stages on the Production Schedule.

    Example: showrunner star casting starting-age Ada teen
    """
    from ..domain.showrunner.casting_tables import StartingAge
    from ..domain.showrunner.commands.casting import CastingAge

    chosen_age = None
    if age is not None:
        try:
            chosen_age = StartingAge(age.strip().lower().replace(" ", "_").replace("-", "_"))
        except ValueError:
            raise UsageProblem(f"'{age}' is not a Starting Age ({AGES})") from None
    faces = parse_faces(
        {"starting_age": ("--roll", roll, 10), "random_ability": ("--random-ability", random_ability, 10)}
    )
    flags = {"starting_age": "--roll", "random_ability": "--random-ability"}
    _step(ctx, "casting-starting-age", CastingAge(star=star, age=chosen_age), as_json, faces, flags)


@casting_app.command("develop")
@writes
def develop(
    ctx: typer.Context,
    star: NameArg,
    on_ability: Annotated[str, typer.Option("--ability", "-a", help="Hone Your Skills: the Ability Advanced.")],
    specialty: Annotated[str, typer.Option("--specialty", help="The Slot Rule: the Specialty (+1) it defines.")],
    hero_prop: Annotated[str, typer.Option("--hero-prop", help="Gear Up: the Hero Prop Advanced, or a new one.")],
    power: Annotated[str | None, typer.Option("--power", help="A new Hero Prop's first Power.")] = None,
    prop_type: Annotated[str, typer.Option("--prop-type", help="Pack Your Bags: the Props' Type.")] = "Gear",
    pack: PackFaces = None,
    as_json: JsonOption = False,
) -> None:
    """3 Character Development of a Life Stage: Hone Your Skills, Gear Up, Pack Your Bags (1d6 NORMAL Props).

    Example: showrunner star casting develop Ada --ability sense --specialty 'Keen Eyes' --hero-prop "Grandmother's Bow" --pack 5
    """
    from ..domain.showrunner.commands.casting import CastingDevelop

    kind, _ = prop("--prop-type", prop_type)
    chosen = CastingDevelop(
        star=star,
        ability=ability(on_ability, "--ability"),
        specialty=specialty,
        hero_prop=hero_prop,
        power=power,
        prop_type=kind,
    )
    _step(ctx, "casting-develop", chosen, as_json, parse_faces({"pack": ("--pack", pack, 6)}), {"pack": "--pack"})


def _actor(flag: str, value: str) -> Any:
    from ..domain.showrunner.commands.casting import ActorIn

    parts = [p.strip() for p in value.split(",")]
    if len(parts) not in (2, 3) or not all(parts):
        raise UsageProblem(f"{flag}: '{value}' is not NAME,PRIMARY[,POWER LEVEL]")
    level = difficulty(flag, parts[2]) if len(parts) == 3 else None
    return ActorIn(name=parts[0], primary=ability(parts[1], flag), **({"power_level": level} if level else {}))


ENCOUNTER_FLAGS = {
    "dilemma": "--dilemma",
    "action": "--action",
    "opposition": "--opposition-dice",
    "script": "--script",
}


@casting_app.command("encounter")
@writes
def encounter(
    ctx: typer.Context,
    star: NameArg,
    ally: Annotated[str, typer.Option("--ally", metavar="NAME,PRIMARY[,LEVEL]", help="The Actor the Star sides with.")],
    rival: Annotated[str, typer.Option("--rival", metavar="NAME,PRIMARY[,LEVEL]", help="The Actor the Star opposes.")],
    ally_specialty: Annotated[
        str,
        typer.Option("--ally-specialty", help="The Slot Rule: the Specialty of the Ally's Primary Ability's Advance."),
    ],
    move_ability: Annotated[str, typer.Option("--move-ability", help="Act III: the Ability of the Character's Move.")],
    harm: Annotated[bool, typer.Option("--harm/--aid", help="Act III: Harm the Rival or Aid the Ally.")] = True,
    move_difficulty: Annotated[
        str, typer.Option("--move-difficulty", help="Act III: NORMAL up to the target's Power Level.")
    ] = "NORMAL",
    rival_opposition: Annotated[
        int, typer.Option("--rival-opposition", min=0, max=20, help="Act II: Opposition Dice against the Gambit.")
    ] = 0,
    move_opposition: Annotated[
        int, typer.Option("--move-opposition", min=0, max=20, help="Act III: Opposition Dice against the Move.")
    ] = 0,
    standing_set: Annotated[
        list[str] | None, typer.Option("--set", help="A Standing Set of the acts, as the table names it.")
    ] = None,
    dilemma: DilemmaFaces = None,
    action: ActionFaces = None,
    opposition: OppositionDiceFaces = None,
    script: ScriptFaces = None,
    as_json: JsonOption = False,
) -> None:
    """3 The Encounter of a Life Stage: the Dilemma d10, the Choice, the Rival's Move (a Gambit at the Rival's Power Level, with the Rival's Primary Ability) and the Character's Move.

    Example: showrunner star casting encounter Ada --ally 'Elder Ilyra,channel,HARD' --rival 'Sheriff Kell,fight,HARD' --ally-specialty 'Old Songs' --move-ability sense
    """
    from ..domain.showrunner.commands.casting import CastingEncounter

    faces = parse_faces(
        {
            "dilemma": ("--dilemma", dilemma, 10),
            "action": ("--action", action, 6),
            "opposition": ("--opposition-dice", opposition, 6),
            "script": ("--script", script, 6),
        }
    )
    if faces and "opposition" not in faces:
        faces["opposition"] = []
    chosen = CastingEncounter(
        star=star,
        ally=_actor("--ally", ally),
        rival=_actor("--rival", rival),
        ally_specialty=ally_specialty,
        move="harm" if harm else "aid",
        move_ability=ability(move_ability, "--move-ability"),
        move_difficulty=difficulty("--move-difficulty", move_difficulty),
        rival_opposition=rival_opposition,
        move_opposition=move_opposition,
        sets=tuple(standing_set or ()),
    )
    _step(ctx, "casting-encounter", chosen, as_json, faces, ENCOUNTER_FLAGS)


@casting_app.command("wardrobe")
@writes
def wardrobe(
    ctx: typer.Context,
    star: NameArg,
    look: Annotated[str, typer.Option("--look", help="The most defining physical feature.")],
    mannerism: Annotated[str, typer.Option("--mannerism", help="A habit, a tic, a way of speaking.")],
    agenda: Annotated[str, typer.Option("--agenda", help="The driving goal as the first Episode begins.")],
    archetype: Annotated[
        str,
        typer.Option(
            "--archetype",
            help="The Archetype at Primary x Secondary on your table; left out when its table file is loaded.",
        ),
    ] = "",
    primary: Annotated[str | None, typer.Option("--primary", help="The Primary Ability, if tied.")] = None,
    secondary: Annotated[str | None, typer.Option("--secondary", help="The Secondary Ability, if tied.")] = None,
    trinket: Annotated[list[str] | None, typer.Option("--trinket", help="A Trinket for an empty slot.")] = None,
    as_json: JsonOption = False,
) -> None:
    """4.1 Getting into Wardrobe: Look, Mannerism, Agenda; the Archetype, its Abilities auto-Mastered; Trinkets.

    Example: showrunner star casting wardrobe Ada --look 'Green cloak' --mannerism Hums --agenda 'Find the grove' --archetype Scout
    """
    from ..domain.showrunner.commands.casting import CastingWardrobe

    chosen = CastingWardrobe(
        star=star,
        look=look,
        mannerism=mannerism,
        agenda=agenda,
        archetype=archetype,
        primary=ability(primary, "--primary") if primary else None,
        secondary=ability(secondary, "--secondary") if secondary else None,
        trinkets=tuple(trinket or ()),
    )
    _step(ctx, "casting-wardrobe", chosen, as_json)


@casting_app.command("join")
@writes
def join(ctx: typer.Context, star: NameArg, as_json: JsonOption = False) -> None:
    """The end of Casting: the Star joins the Show (the same StarJoined a Star file gives).

    Example: showrunner star casting join Ada
    """
    from ..domain.showrunner.commands.casting import StarInCasting

    _step(ctx, "casting-join", StarInCasting(star=star), as_json)


@casting_app.command("inciting-incident")
@writes
def inciting_incident(
    ctx: typer.Context,
    ally: Annotated[str, typer.Option("--ally", metavar="NAME,PRIMARY", help="The Actor the Cast sides with.")],
    antagonist: Annotated[
        str,
        typer.Option(
            "--antagonist", metavar="NAME,PRIMARY[,LEVEL]", help="The Actor the Cast opposes: the Season's antagonist."
        ),
    ],
    specialty: Annotated[
        list[str],
        typer.Option("--specialty", metavar="STAR=NAME", help="Each Star's Specialty in the Ally's Primary Ability."),
    ],
    dilemma: DilemmaFaces = None,
    secondary_roll: SecondaryRollFaces = None,
    power: PowerFaces = None,
    as_json: JsonOption = False,
) -> None:
    """4.1 Step 4 The Inciting Incident, once every Star has joined: the shared Dilemma (d10) and each Star's Connection; the antagonist is raised to the Cast's minimum Power Level (EPIC for 1 Star, LEGENDARY for 2, … GODLIKE for 5+) and cast as an Actor with rolled Power Dice if it is not one yet.

    The Rival's Move and the Character's Move are then played as Action Sequences (`sequence declare`), or as a check for a Cast of one.

    Example: showrunner star casting inciting-incident --ally 'Elder Ilyra,channel' --antagonist 'The Ash King,fight' --specialty Ada=Rally
    """
    from ..domain.errors import InvalidDice
    from ..domain.showrunner.commands.casting import IncitingIn

    pairs = []
    for value in specialty:
        star, sep, name = value.partition("=")
        if not sep or not star.strip() or not name.strip():
            raise UsageProblem(f"--specialty: '{value}' is not STAR=NAME")
        pairs.append((star.strip(), name.strip()))
    faces = parse_faces(
        {
            "dilemma": ("--dilemma", dilemma, 10),
            "ability": ("--secondary-roll", secondary_roll, 10),
            "power": ("--power", power, 6),
        }
    )
    asked = IncitingIn(
        ally=_actor("--ally", ally), antagonist=_actor("--antagonist", antagonist), specialties=tuple(pairs)
    )
    s, ref, by = recording(ctx)
    try:
        result = s.ledger.run(ref, "casting-inciting-incident", asked, faces=faces or None, by=by)
    except InvalidDice as e:
        raise with_flags(e, {"dilemma": "--dilemma", "ability": "--secondary-roll", "power": "--power"}) from None
    report(ref, result, as_json)


@casting_app.command("rivals-move")
@writes
def rivals_move(
    ctx: typer.Context,
    star: StarArg,
    opposition: Annotated[
        int, typer.Option("--opposition", min=0, max=20, help="Opposition Dice against the Gambit (the table's count).")
    ] = 0,
    specialty: Specialty = None,
    grit: Grit = 0,
    keep: Keep = None,
    push: Push = False,
    action_faces: CheckActionFaces = None,
    opposition_faces: CheckOppositionFaces = None,
    script_faces: CheckScriptFaces = None,
    as_json: JsonOption = False,
) -> None:
    """4.1 Step 4, Act II of the Inciting Incident for a Cast of one: the antagonist's Gambit, a check on its Primary Ability at its Power Level. With 2+ Stars it is an Action Sequence (`sequence declare`).

    Example: showrunner star casting rivals-move Ada --action 6,5,2 --script 6,1
    """
    from ..domain.showrunner.commands.inciting_moves import RivalsMove

    faces = check_faces(action_faces, opposition_faces, script_faces, None)
    s, ref, by = recording(ctx, star)
    asked = RivalsMove(star=star, opposition=opposition, check=check_options(specialty, grit, keep, push))
    record(
        ref, lambda: s.ledger.run(ref, "casting-rivals-move", asked, faces=faces or None, by=by), as_json, CHECK_FLAGS
    )


@casting_app.command("characters-move")
@writes
def characters_move(
    ctx: typer.Context,
    star: StarArg,
    move_ability: Annotated[str, typer.Option("--ability", "-a", help="The Ability of the Move.")],
    move_difficulty: Annotated[
        str, typer.Option("--difficulty", "-d", help="NORMAL up to the target's Power Level (EPIC at most).")
    ],
    harm: Annotated[bool, typer.Option("--harm/--aid", help="Harm the Rival (the antagonist) or Aid the Ally.")] = True,
    ally: Annotated[
        str | None, typer.Option("--ally", metavar="NAME", help="--aid: the Ally, an Actor the Star has a Bond with.")
    ] = None,
    specialty: Specialty = None,
    grit: Grit = 0,
    keep: Keep = None,
    push: Push = False,
    action_faces: CheckActionFaces = None,
    opposition_faces: CheckOppositionFaces = None,
    script_faces: CheckScriptFaces = None,
    power: MovePowerFaces = None,
    as_json: JsonOption = False,
) -> None:
    """4.1 Step 4, Act III of the Inciting Incident for a Cast of one: aid the Ally or harm the Rival, a check against its Power Die at the Difficulty; the Rival then gains a Grudge Advance (or the Ally a Bond Advance) toward the Star.

    Example: showrunner star casting characters-move Ada --harm -a fight -d HARD
    """
    from ..domain.showrunner.commands.inciting_moves import CharactersMove

    faces = check_faces(action_faces, opposition_faces, script_faces, power)
    s, ref, by = recording(ctx, star)
    asked = CharactersMove(
        star=star,
        move="harm" if harm else "aid",
        ability=ability(move_ability, "--ability"),
        difficulty=difficulty("--difficulty", move_difficulty),
        ally=ally,
        check=check_options(specialty, grit, keep, push),
    )
    flags = {**CHECK_FLAGS, "power": "--power"}
    record(ref, lambda: s.ledger.run(ref, "casting-characters-move", asked, faces=faces or None, by=by), as_json, flags)


@casting_app.command("founders-boons")
@writes
def founders_boons(
    ctx: typer.Context,
    benefit: Annotated[str, typer.Option("--benefit", help="Ensemble Synergy: the Ensemble Benefit every Star gets.")],
    home: Annotated[str, typer.Option("--home", help="Home Base: the Cast's Holding, at NORMAL Quality.")],
    kind: Annotated[str | None, typer.Option("--kind", help="What the Home Base is (a ship, a hideout, …).")] = None,
    as_json: JsonOption = False,
) -> None:
    """4.2 Step 3 The Founders' Boons of a Level 1 Ensemble: an Ensemble Synergy and a Home Base.

    Example: showrunner star casting founders-boons --benefit '+1 Grit for every Star' --home 'The Hollow Oak' --kind hideout
    """
    from ..domain.showrunner.commands.casting import FoundersIn

    s, ref, by = recording(ctx)
    asked = FoundersIn(benefit=benefit, home=home, kind=kind)
    report(ref, s.ledger.run(ref, "casting-founders-boons", asked, by=by), as_json)


# ------------------------------------------------------------------ showrunner advance


@writes
def advance(
    ctx: typer.Context,
    star: StarArg,
    on_ability: Annotated[str | None, typer.Option("--ability", "-a", help="The Ability.")] = None,
    hero_prop: Annotated[str | None, typer.Option("--hero-prop", metavar="NAME", help="The Hero Prop.")] = None,
    bond: Annotated[
        str | None, typer.Option("--bond", metavar="WITH", help="The Bond (a new one enters at N).")
    ] = None,
    grudge: Annotated[
        str | None, typer.Option("--grudge", metavar="WITH", help="The Grudge (a new one enters at N).")
    ] = None,
    acclaim_path: Annotated[
        str, typer.Option("--acclaim-path", help=f"Where a Bond's or Grudge's Acclaim goes: {PATHS}.")
    ] = "training",
    reason: Reason = "",
    as_json: JsonOption = False,
) -> None:
    """Advance an Ability, a Hero Prop, a Bond or a Grudge: jump to its next milestone, bypassing the XP track.

    Example: showrunner advance Mara --ability fight --reason "the Director's reward"
    """
    from ..domain.showrunner.commands.casting import AdvanceIn

    if sum(x is not None for x in (on_ability, hero_prop, bond, grudge)) != 1:
        raise UsageProblem("name one of --ability, --hero-prop, --bond or --grudge")
    s, ref, by = recording(ctx, star)
    asked = AdvanceIn(
        star=star,
        ability=ability(on_ability, "--ability") if on_ability else None,
        hero_prop=hero_prop,
        bond=bond,
        grudge=grudge,
        acclaim_path=path("--acclaim-path", acclaim_path),
        reason=reason,
    )
    report(ref, s.ledger.run(ref, "advance", asked, by=by), as_json)


def register(root: typer.Typer) -> None:
    root.command("advance")(advance)


# `star create` and `star casting` join the `star` group here, not in cli/star.py: `sheet` comes
# from that module too, and a sheet must start without loading Casting's command line.
from .star import app as star_app  # noqa: E402 - the group is completed below, once Casting is defined

star_app.command("create")(create)
star_app.add_typer(casting_app, name="casting")
