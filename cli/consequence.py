"""`showrunner consequence`: a Consequence (Section 14.3) on a Star's sheet or on the world."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from . import choices, completion
from .dice_flags import faces_option, parse_faces, recording
from .errors import UsageProblem
from .options import JsonOption, writes
from .session import print_json, session, stdout_console
from .world_common import director_only

if TYPE_CHECKING:
    from ..domain.showrunner.ladder import Difficulty


class KindChoice(StrEnum):
    grit_loss = "grit-loss"
    conditions = "conditions"
    wear = "wear"
    depletion = "depletion"
    limit = "limit"
    harm_allies = "harm-allies"
    boost_opposition = "boost-opposition"
    new_threat = "new-threat"
    subplot = "subplot"
    complication = "complication"


WORLD_KINDS = ("harm-allies", "boost-opposition", "new-threat", "subplot", "complication")


@writes
def consequence(
    ctx: typer.Context,
    star: Annotated[str, typer.Argument(help="The Star's name (or the start of it).", autocompletion=completion.stars)],
    kind: Annotated[
        KindChoice,
        typer.Argument(
            help="Which Consequence: on the sheet grit-loss, conditions, wear, depletion or limit; on the world "
            "harm-allies, boost-opposition, new-threat, subplot or complication."
        ),
    ],
    difficulty: Annotated[
        str,
        typer.Option(
            "--difficulty",
            "-d",
            help="The check's original, unmodified Difficulty: it sets the size (EASY 2 … EPIC 6; above EPIC, several EPIC Consequences).",
        ),
    ],
    count: Annotated[
        int,
        typer.Option("--count", "-n", min=1, help="How many Consequences of this kind (a Disaster may call for 2)."),
    ] = 1,
    ability: Annotated[
        str | None,
        typer.Option(
            "--ability",
            "-a",
            help="conditions: the Ability rolled, where they are marked. grit-loss: where a Plot Armor Scar lands.",
        ),
    ] = None,
    hero_prop: Annotated[
        str | None, typer.Option("--hero-prop", help="wear: the Hero Prop that takes the Wear.")
    ] = None,
    holding: Annotated[
        str | None,
        typer.Option(
            "--holding", help="wear: a Holding the Scene directly involves, which takes Wear instead of the Hero Prop."
        ),
    ] = None,
    holding_wear: Annotated[
        int | None,
        typer.Option(
            "--holding-wear", min=1, help="wear: how much of the Wear the --holding takes (all of it by default)."
        ),
    ] = None,
    prop: Annotated[
        str | None,
        typer.Option(
            "--prop", help="depletion: TYPE or TYPE:QUALITY lost (without a Quality, the lowest Qualities go first)."
        ),
    ] = None,
    push: Annotated[
        bool,
        typer.Option(
            "--push", help="grit-loss: Push Your Limits, exhausting Grit icons (or a Plot Armor icon, permanently)."
        ),
    ] = False,
    scar_slot: Annotated[
        list[int] | None,
        typer.Option(
            "--scar-slot",
            help="Table dice: the d10 for a Plot Armor Scar's slot (repeat for re-rolls onto a Specialty).",
        ),
    ] = None,
    anomaly: Annotated[
        list[int] | None, typer.Option("--anomaly", help="Table dice: a d100 Anomaly for each Limit taken (repeat).")
    ] = None,
    icon: Annotated[
        bool,
        typer.Option("--icon", help="The Icon's Award negates this Consequence (once per Episode, 11.2)."),
    ] = False,
    target: Annotated[
        str | None,
        typer.Option(
            "--target",
            help="harm-allies: the friendly Actor; boost-opposition: the hostile Actor or Threat; new-threat: its name.",
        ),
    ] = None,
    threat_kind: Annotated[str, typer.Option("--threat-kind", help="new-threat: obstacle or opponent.")] = "obstacle",
    subplot: Annotated[
        int | None, typer.Option("--subplot", help="subplot: the number of a Subplot in stasis, at or below -d.")
    ] = None,
    power: Annotated[
        list[str] | None,
        faces_option("--power", "Table dice: the Power Dice faces a world Consequence rolls (new-threat, a clear)."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Record a Consequence on a Star's sheet or on the world, sized by the check's original Difficulty.

    grit-loss follows the Final Defense: current Grit first; with --push, Grit icons
    (only if they cover all the rest); else 1 Plot Armor absorbs any remainder, rolling a
    Scar under --ability (unless Plot Armor Mastery); with no Plot Armor and no icon to
    push, the Character is Written Off. Grit Mastery takes 1 less per Grit Loss.
    conditions, wear (+1 Asset XP each; Wear past the last box is lost; with --holding a
    Holding in the Scene takes --holding-wear of it, or all, instead of the Hero Prop, earning
    no XP, up to its Quality's number of boxes), depletion (Props
    lost; fewer held means all of them) and limit (past the track: a Limit Break) mark
    the size in full. Dice: ledger dice, unless faces are given (--scar-slot, --anomaly).
    On the world: harm-allies clears the friendly Actor's die at -d; boost-opposition adds a
    pip to the hostile Actor's or Threat's; new-threat brings in an Obstacle or Opponent at -d;
    subplot Reveals a Subplot in stasis at or below -d, free; complication gives the Star's next
    check as many extra Opposition Dice as the size. Each ticks off a Consequence the Star owed
    at that Difficulty (a Beat's or a check's `ConsequencesDue`).

    Examples:
      showrunner consequence Mara grit-loss -d HARD --ability fight
      showrunner consequence Mara grit-loss -d HARD --push
      showrunner consequence Tobias conditions -d FORMIDABLE --ability channel --count 2
      showrunner consequence Mara wear -d NORMAL --hero-prop "Father's Rapier"
      showrunner consequence Mara wear -d HARD --holding "The Drowned Lighthouse" --holding-wear 1 --hero-prop "Father's Rapier"
      showrunner consequence Mara depletion -d EPIC --prop Medicine
      showrunner consequence Tobias limit -d NORMAL --anomaly 12 --anomaly 77 --anomaly 3
      showrunner consequence Mara boost-opposition -d HARD --target "Iron Warden"
      showrunner consequence Mara new-threat -d HARD --target "Rockslide" --power 3,2
      showrunner consequence Mara complication -d NORMAL
      showrunner consequence Mara grit-loss -d EPIC --icon
    """
    from ..domain.errors import UnknownName
    from ..domain.showrunner.consequences import ConsequenceKind, PropChoice, option_problem
    from ..domain.showrunner.events import ConsequenceSuffered
    from ..domain.showrunner.ladder import Difficulty
    from ..domain.showrunner.sheet import AbilityName

    # Everything that needs no database is checked first: a bad line writes nothing.
    try:
        chosen = Difficulty(difficulty)
    except ValueError:
        raise UsageProblem(f"--difficulty: '{difficulty}' is not on the ladder ({choices.ladder()})") from None
    if kind.value in WORLD_KINDS:
        sheet_only = {
            "--ability": ability,
            "--hero-prop": hero_prop,
            "--holding": holding,
            "--holding-wear": holding_wear,
            "--prop": prop,
            "--push": push or None,
            "--icon": icon or None,
        }
        given = [
            flag for flag, value in {**sheet_only, "--scar-slot": scar_slot, "--anomaly": anomaly}.items() if value
        ]
        if given:
            raise UsageProblem(f"{', '.join(given)} does not apply to {kind.value}, a Consequence on the world")
        _world(ctx, star, kind.value, chosen, count, target, threat_kind, subplot, power, as_json)
        return
    if target is not None or subplot is not None or power:
        raise UsageProblem(f"--target, --subplot and --power apply to a Consequence on the world, not {kind.value}")
    ability_name = None
    if ability is not None:
        try:
            ability_name = AbilityName(ability)
        except ValueError:
            raise UnknownName(f"unknown Ability '{ability}' (Abilities: {choices.ABILITIES})") from None
    prop_choice = PropChoice.parse(prop) if prop is not None else None
    consequence_kind = ConsequenceKind(kind.value)
    problem = option_problem(
        consequence_kind,
        {
            "ability": ability_name,
            "hero_prop": hero_prop,
            "prop": prop_choice,
            "push": push,
            "holding": holding,
            "holding_wear": holding_wear,
        },
    )
    if problem is not None:
        raise UsageProblem(problem)
    faces = {purpose: list(values) for purpose, values in (("scar_slot", scar_slot), ("anomaly", anomaly)) if values}

    s = session(ctx)
    ref = s.target()
    s.check_acting_for(ref, star)
    result = s.ledger.run(
        ref,
        "consequence",
        {
            "star": star,
            "kind": consequence_kind,
            "difficulty": chosen,
            "count": count,
            "ability": ability_name,
            "hero_prop": hero_prop,
            "prop": prop_choice,
            "push": push,
            "holding": holding,
            "holding_wear": holding_wear,
            "icon": icon or None,
        },
        faces=faces or None,
        by=s.recorded_by(ref),
    )
    event = next(e for e in result.events if isinstance(e.fact, ConsequenceSuffered))
    suffered = event.fact
    assert isinstance(suffered, ConsequenceSuffered)
    resolution = suffered.resolution
    ticked = [e for e in result.events if e is not event]
    if as_json:
        print_json(
            {
                "branch": ref.branch.name,
                "events": [e.version for e in result.events],
                "type": event.type_name,
                "outcome": event.fact.model_dump(mode="json"),
                "steps": [step.text for step in resolution.steps],
                "written_off": resolution.written_off,
                "summary": event.fact.summary(),
                "settled": [e.fact.model_dump(mode="json") for e in ticked],
            }
        )
        return
    console = stdout_console()
    console.print(f"#{event.version} {event.fact.summary()}", markup=False, highlight=False, soft_wrap=True)
    for step in resolution.steps:
        console.print(f"  · {step.text}", markup=False, highlight=False, soft_wrap=True)
    for e in ticked:
        console.print(f"#{e.version} {e.fact.summary()}", markup=False, highlight=False, soft_wrap=True)


def _world(
    ctx: typer.Context,
    star: str,
    kind: str,
    chosen: Difficulty,
    count: int,
    target: str | None,
    threat_kind: str,
    subplot: int | None,
    power: list[str] | None,
    as_json: bool,
) -> None:
    from ..domain.showrunner.world_consequences import WorldConsequenceRequest, option_problem

    if threat_kind not in ("obstacle", "opponent"):
        raise UsageProblem(f"--threat-kind: '{threat_kind}' is not obstacle or opponent")
    asked = WorldConsequenceRequest.model_validate(
        {
            "star": star,
            "kind": kind,
            "difficulty": chosen,
            "count": count,
            "target": target,
            "threat_kind": threat_kind,
            "subplot": subplot,
        }
    )
    problem = option_problem(asked)
    if problem is not None:
        raise UsageProblem(problem)
    s = session(ctx)
    ref = s.target()
    director_only(s, "records a Consequence on the world")
    faces = parse_faces({"power": ("--power", power, 6)})
    result = recording(
        lambda: s.ledger.run(ref, "world-consequence", asked, faces=faces or None, by=s.recorded_by(ref)),
        {"power": "--power"},
    )
    if as_json:
        print_json(
            {
                "branch": ref.branch.name,
                "events": [e.version for e in result.events],
                "facts": [{"type": e.type_name, "fact": e.fact.model_dump(mode="json")} for e in result.events],
                "summary": result.events[0].fact.summary(),
            }
        )
        return
    console = stdout_console()
    for e in result.events:
        console.print(f"#{e.version} {e.fact.summary()}", markup=False, highlight=False, soft_wrap=True)


def register(root: typer.Typer) -> None:
    root.command("consequence")(consequence)
