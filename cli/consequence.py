"""`showrunner consequence`: a Consequence (Section 14.3) on a Star's sheet."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from . import choices, completion
from .errors import UsageProblem
from .options import JsonOption, writes
from .session import print_json, session, stdout_console


class KindChoice(StrEnum):
    grit_loss = "grit-loss"
    conditions = "conditions"
    wear = "wear"
    depletion = "depletion"
    limit = "limit"


@writes
def consequence(
    ctx: typer.Context,
    star: Annotated[str, typer.Argument(help="The Star's name (or the start of it).", autocompletion=completion.stars)],
    kind: Annotated[
        KindChoice, typer.Argument(help="Which Consequence: grit-loss, conditions, wear, depletion or limit.")
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
    as_json: JsonOption = False,
) -> None:
    """Record a Consequence on a Star's sheet, sized by the check's original Difficulty.

    grit-loss follows the Final Defense: current Grit first; with --push, Grit icons
    (only if they cover all the rest); else 1 Plot Armor absorbs any remainder, rolling a
    Scar under --ability (unless Plot Armor Mastery); with no Plot Armor and no icon to
    push, the Character is Written Off. Grit Mastery takes 1 less per Grit Loss.
    conditions, wear (+1 Asset XP each; Wear past the last box is lost), depletion (Props
    lost; fewer held means all of them) and limit (past the track: a Limit Break) mark
    the size in full. Dice: ledger dice, unless faces are given (--scar-slot, --anomaly).

    Examples:
      showrunner consequence Mara grit-loss -d HARD --ability fight
      showrunner consequence Mara grit-loss -d HARD --push
      showrunner consequence Tobias conditions -d FORMIDABLE --ability channel --count 2
      showrunner consequence Mara wear -d NORMAL --hero-prop "Father's Rapier"
      showrunner consequence Mara depletion -d EPIC --prop Medicine
      showrunner consequence Tobias limit -d NORMAL --anomaly 12 --anomaly 77 --anomaly 3
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
    ability_name = None
    if ability is not None:
        try:
            ability_name = AbilityName(ability)
        except ValueError:
            raise UnknownName(f"unknown Ability '{ability}' (Abilities: {choices.ABILITIES})") from None
    prop_choice = PropChoice.parse(prop) if prop is not None else None
    consequence_kind = ConsequenceKind(kind.value)
    problem = option_problem(
        consequence_kind, {"ability": ability_name, "hero_prop": hero_prop, "prop": prop_choice, "push": push}
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
        },
        faces=faces or None,
        by=s.recorded_by(ref),
    )
    event = result.events[-1]
    suffered = event.fact
    assert isinstance(suffered, ConsequenceSuffered)
    resolution = suffered.resolution
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
            }
        )
        return
    console = stdout_console()
    console.print(f"#{event.version} {event.fact.summary()}", markup=False, highlight=False, soft_wrap=True)
    for step in resolution.steps:
        console.print(f"  · {step.text}", markup=False, highlight=False, soft_wrap=True)


def register(root: typer.Typer) -> None:
    root.command("consequence")(consequence)
