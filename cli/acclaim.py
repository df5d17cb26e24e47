"""`showrunner acclaim`: Acclaim on the four Career Paths, completing a Path for one of its two
choices, Awards Season and the Awards' once-per-Episode powers (Chapter 11); and `showrunner xp`
and `showrunner limit-break` (XP in pencil or pen, Appendix D).

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

from typing import Annotated, Any, TypeAlias

import typer

from .choices import difficulty
from .dice_flags import faces_option, parse_faces
from .errors import UsageProblem
from .options import JsonOption, writes
from .progress_common import PATHS, Reason, StarArg, ability, path, record, recording

app = typer.Typer(
    help="Acclaim and the Career Paths, Awards Season and Awards (11).",
    epilog="Example: showrunner acclaim complete Mara training --choice actor",
    no_args_is_help=True,
)
PathArg = Annotated[str, typer.Argument(metavar="PATH", help=f"The Career Path: {PATHS}.")]
AWARDS = "artisan, method_actor, luminary, icon"
MASTERIES = "retake, grit, spotlight, plot_armor, prop, hero_prop, preparation, limit, relationship"

PathDie: TypeAlias = Annotated[
    list[str] | None, faces_option("--die", "The d6 of Innate Aptitude or Backstory Rewrites.")
]
OverloadFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--overload", "The 2d10 of the Internal Overload table, in order.")
]
MajorAnomalyFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--major-anomaly", "The 2d10 of the Major Anomaly table, in order.")
]
TimesFaces: TypeAlias = Annotated[list[str] | None, faces_option("--times", "Broken: the d6 of how many Conditions.")]
RandomAbilityFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--random-ability", "The d10s of random Abilities, in order.")
]
ScarSlotFaces: TypeAlias = Annotated[list[str] | None, faces_option("--scar-slot", "Scarred: the d10 slot rolls.")]
ChaosFaces: TypeAlias = Annotated[list[str] | None, faces_option("--anomaly", "Chaos: the d100 regular Anomalies.")]
PossessorAbilityFaces: TypeAlias = Annotated[
    list[str] | None,
    faces_option("--possessor-ability-dice", "Possession: the d10s of the possessing Actor's two Abilities."),
]
PossessorLevelFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--possessor-level-dice", "Possession: the 3d6 of its Power Level (highest kept).")
]
PossessorPowerFaces: TypeAlias = Annotated[
    list[str] | None,
    faces_option("--possessor-power", "Possession: the d6 pips of its Power Dice (or its new top die)."),
]


@app.command("mark")
@writes
def mark(
    ctx: typer.Context,
    star: StarArg,
    on: PathArg,
    amount: Annotated[int, typer.Option("--amount", "-n", min=1, help="How much Acclaim.")] = 1,
    reason: Reason = "",
    as_json: JsonOption = False,
) -> None:
    """Mark Acclaim on a Path (the Post-Show's Acclaim, a relationship with every Tier used, …).

    Example: showrunner acclaim mark Mara training --reason "Post-Show"
    """
    from ..domain.showrunner.commands.career import Acclaim

    chosen = path("PATH", on)
    s, ref, by = recording(ctx, star)
    marked = Acclaim(star=star, path=chosen, amount=amount, reason=reason)
    record(ref, lambda: s.ledger.run(ref, "acclaim-mark", marked, by=by), as_json)


def _choice(chosen: Any, choice: str, learn: str | None, abilities: str | None, rewrites: list[str] | None) -> Any:
    from ..domain.showrunner import path_choices

    if choice == "actor":
        if learn or abilities or rewrites:
            raise UsageProblem(
                "the Actor's Choice advances the Path's Influence: it takes no --learn, --abilities or --rewrite"
            )
        return path_choices.ActorsChoice()
    if choice != "character":
        raise UsageProblem(f"--choice: '{choice}' is not actor or character")
    kind = chosen.value
    if kind == "training":
        if learn is None:
            raise UsageProblem("Training's Character's Choice learns a skill: --learn ABILITY:SLOT[:SPECIALTY]")
        parts = learn.split(":", 2)
        if len(parts) < 2 or not parts[1].strip().isdigit():
            raise UsageProblem(f"--learn: '{learn}' is not ABILITY:SLOT[:SPECIALTY]")
        return path_choices.LearnSkill(
            ability=ability("--learn", parts[0].strip()),
            slot=int(parts[1]),
            specialty=parts[2].strip() if len(parts) > 2 and parts[2].strip() else None,
        )
    if kind == "persistence":
        return path_choices.ExpandKit()
    if kind == "talent":
        if not abilities:
            raise UsageProblem(
                "Talent's Character's Choice is Innate Aptitude: --abilities a,b,… (1 permanent XP each, 1d6 of them)"
            )
        return path_choices.InnateAptitude(
            abilities=tuple(ability("--abilities", a.strip()) for a in abilities.split(",") if a.strip())
        )
    if not rewrites:
        raise UsageProblem(
            "Destiny's Character's Choice is Backstory Rewrites: --rewrite clear:ABILITY or soften:ABILITY:SLOT (repeatable)"
        )
    made = []
    for value in rewrites:
        what, _, rest = value.partition(":")
        name, _, slot = rest.partition(":")
        if what not in ("clear", "soften") or not name:
            raise UsageProblem(f"--rewrite: '{value}' is not clear:ABILITY or soften:ABILITY:SLOT")
        made.append(
            path_choices.Rewrite(
                what="clear_conditions" if what == "clear" else "soften_scar",
                ability=ability("--rewrite", name),
                slot=int(slot) if slot.isdigit() else None,
            )
        )
    return path_choices.BackstoryRewrites(rewrites=tuple(made))


@app.command("complete")
@writes
def complete(
    ctx: typer.Context,
    star: StarArg,
    on: PathArg,
    choice: Annotated[
        str, typer.Option("--choice", help="actor (advance the Path's Influence) or character (the Path's own reward).")
    ],
    learn: Annotated[
        str | None,
        typer.Option(
            "--learn", metavar="ABILITY:SLOT[:SPECIALTY]", help="Training: +1 Specialty (a new one needs its name)."
        ),
    ] = None,
    abilities: Annotated[
        str | None,
        typer.Option(
            "--abilities", metavar="A,B,…", help="Talent: the Abilities for 1d6 permanent XP, one each, in order."
        ),
    ] = None,
    rewrite: Annotated[
        list[str] | None,
        typer.Option(
            "--rewrite",
            metavar="clear:ABILITY|soften:ABILITY:SLOT",
            help="Destiny: the rewrites, in order; 1d6 of them are made (repeatable).",
        ),
    ] = None,
    die: PathDie = None,
    as_json: JsonOption = False,
) -> None:
    """Complete a full Path: its reward, a Minor Milestone (every third a Major Milestone, which
    grows the Ensemble Pool; the second Major Milestone is a nomination for Awards Season).

    Example: showrunner acclaim complete Mara training --choice character --learn fight:3:Feints
    """
    from ..domain.showrunner.commands.career import PathCompletion

    chosen = path("PATH", on)
    made = _choice(chosen, choice.strip().lower(), learn, abilities, rewrite)
    purpose = {"innate_aptitude": "innate_aptitude", "backstory_rewrites": "backstory_rewrites"}.get(made.kind, "die")
    faces = parse_faces({purpose: ("--die", die, 6)})
    s, ref, by = recording(ctx, star)
    completed = PathCompletion(star=star, path=chosen, choice=made)
    record(
        ref,
        lambda: s.ledger.run(ref, "acclaim-complete", completed, faces=faces or None, by=by),
        as_json,
        {"innate_aptitude": "--die", "backstory_rewrites": "--die"},
    )


@app.command("awards-season")
@writes
def awards_season(
    ctx: typer.Context,
    star: StarArg,
    on: PathArg,
    award: Annotated[str | None, typer.Option("--award", help=f"The Path's Award: {AWARDS}.")] = None,
    mastery: Annotated[str | None, typer.Option("--mastery", help=f"A Mastery: {MASTERIES}.")] = None,
    master: Annotated[
        str | None,
        typer.Option("--master-ability", metavar="ABILITY", help="An Ability becomes Mastered (⇧, +1 base die)."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Awards Season: a nomination (two Major Milestones on the Path) won as its Award (once ever)
    or a Mastery (each once).

    Example: showrunner acclaim awards-season Tobias persistence --award method_actor
    """
    from ..domain.showrunner.commands.career import Nomination
    from ..domain.showrunner.sheet import Award, Mastery

    if sum(x is not None for x in (award, mastery, master)) != 1:
        raise UsageProblem("choose one: --award, --mastery or --master-ability")
    chosen = path("PATH", on)
    try:
        won_award = Award(award) if award is not None else None
        won_mastery = Mastery(mastery) if mastery is not None else None
    except ValueError:
        raise UsageProblem(f"unknown Award or Mastery (Awards: {AWARDS}; Masteries: {MASTERIES})") from None
    mastered = ability("--master-ability", master) if master is not None else None
    s, ref, by = recording(ctx, star)
    won = Nomination(star=star, path=chosen, award=won_award, mastery=won_mastery, ability=mastered)
    record(ref, lambda: s.ledger.run(ref, "acclaim-awards-season", won, by=by), as_json)


@app.command("use-award")
@writes
def use_award(
    ctx: typer.Context,
    star: StarArg,
    award: Annotated[str, typer.Argument(help=f"The Award: {AWARDS}.")],
    note: Annotated[str, typer.Option("--note", help="What it was used for.")] = "",
    as_json: JsonOption = False,
) -> None:
    """Use an Award's power, once per Episode (the Method Actor's Flashback: `prop flashback --award`).

    Example: showrunner acclaim use-award Mara luminary --note "the duel on the quay"
    """
    from ..domain.showrunner.commands.career import AwardUse
    from ..domain.showrunner.sheet import Award

    try:
        chosen = Award(award)
    except ValueError:
        raise UsageProblem(f"'{award}' is not an Award ({AWARDS})") from None
    s, ref, by = recording(ctx, star)
    used = AwardUse(star=star, award=chosen, note=note)
    record(ref, lambda: s.ledger.run(ref, "acclaim-use-award", used, by=by), as_json)


@writes
def xp(
    ctx: typer.Context,
    star: StarArg,
    amount: Annotated[int, typer.Argument(min=1, help="How much XP.")],
    on_ability: Annotated[str | None, typer.Option("--ability", "-a", help="The Ability.")] = None,
    hero_prop: Annotated[str | None, typer.Option("--hero-prop", metavar="NAME", help="The Hero Prop.")] = None,
    pen: Annotated[
        bool, typer.Option("--pen", help="Permanent XP, marked in pen: kept when the track clears.")
    ] = False,
    reason: Reason = "",
    as_json: JsonOption = False,
) -> None:
    """Mark XP on an Ability or a Hero Prop and cross every milestone it fills (a check settles its own).

    Example: showrunner xp Mara 2 --ability fight --reason "Train"
    """
    from ..domain.showrunner.commands.xp import XP

    if (on_ability is None) == (hero_prop is None):
        raise UsageProblem("name one of --ability or --hero-prop")
    chosen = ability("--ability", on_ability) if on_ability is not None else None
    s, ref, by = recording(ctx, star)
    marked = XP(star=star, amount=amount, ability=chosen, hero_prop=hero_prop, permanent=pen, reason=reason)
    record(ref, lambda: s.ledger.run(ref, "xp", marked, by=by), as_json)


LIMIT_FLAGS = {
    "overload": "--overload",
    "major_anomaly": "--major-anomaly",
    "overload_times": "--times",
    "random_ability": "--random-ability",
    "scar_slot": "--scar-slot",
    "anomaly": "--anomaly",
    "ability": "--possessor-ability-dice",
    "power_level": "--possessor-level-dice",
    "power": "--possessor-power",
}


@writes
def limit_break(
    ctx: typer.Context,
    star: StarArg,
    resist: Annotated[str, typer.Option("--resist", "-r", help="The Difficulty to resist the Anomaly's side-effects.")],
    overload: Annotated[
        int | None,
        typer.Option("--fixed-overload", min=3, max=20, help="The table always suffers this Internal Overload."),
    ] = None,
    anomaly_entry: Annotated[
        int | None, typer.Option("--fixed-anomaly", min=3, max=20, help="The table always suffers this Major Anomaly.")
    ] = None,
    overload_dice: OverloadFaces = None,
    major: MajorAnomalyFaces = None,
    times: TimesFaces = None,
    random_ability: RandomAbilityFaces = None,
    scar_slot: ScarSlotFaces = None,
    anomaly: ChaosFaces = None,
    possessor: Annotated[
        str | None,
        typer.Option(
            "--possessor",
            metavar="NAME",
            help="Possession: the name of the hostile Actor cast should it be rolled (default: STAR's Possessor).",
        ),
    ] = None,
    possessor_abilities: PossessorAbilityFaces = None,
    possessor_level: PossessorLevelFaces = None,
    possessor_power: PossessorPowerFaces = None,
    as_json: JsonOption = False,
) -> None:
    """A Limit Break (Appendix D): an Internal Overload marked on the sheet in pen and a Major Anomaly.

    A Possession (12) casts a powerful, hostile Actor into the Supporting Cast, with a Grudge
    with the Star, the first time; each one after gives that Actor one more Power Level.

    Examples:
      showrunner limit-break Tobias --resist HARD --overload 3,4 --major-anomaly 5,5
      showrunner limit-break Tobias --resist HARD --fixed-overload 12 --possessor "The Brass Ghost"
    """
    from ..domain.showrunner.commands.xp import LimitBreak

    level = difficulty("--resist", resist)
    faces = parse_faces(
        {
            "overload": ("--overload", overload_dice, 10),
            "major_anomaly": ("--major-anomaly", major, 10),
            "overload_times": ("--times", times, 6),
            "random_ability": ("--random-ability", random_ability, 10),
            "scar_slot": ("--scar-slot", scar_slot, 10),
            "anomaly": ("--anomaly", anomaly, 100),
            "ability": ("--possessor-ability-dice", possessor_abilities, 10),
            "power_level": ("--possessor-level-dice", possessor_level, 6),
            "power": ("--possessor-power", possessor_power, 6),
        }
    )
    s, ref, by = recording(ctx, star)
    broken = LimitBreak(
        star=star,
        resist=level,
        fixed_overload=overload,
        fixed_anomaly=anomaly_entry,
        ability_d10="alphabetical",
        possessor=possessor,
    )
    record(ref, lambda: s.ledger.run(ref, "limit-break", broken, faces=faces or None, by=by), as_json, LIMIT_FLAGS)


def register(root: typer.Typer) -> None:
    root.command("xp")(xp)
    root.command("limit-break")(limit_break)
