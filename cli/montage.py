"""`showrunner montage`: a Montage Sequence (Chapter 9): start it once per Episode, shoot its
scenes (each a Montage Action led by one Star's check against growing Opposition, its benefits
claimed and paid for), and stop it for the Mastery benefits.

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

import json
from typing import Annotated, Any, NamedTuple, TypeAlias

import typer

from . import choices
from .check_options import Grit, Keep, Push, Specialty
from .choices import difficulty, prop
from .dice_flags import faces_option, parse_faces
from .errors import UsageProblem
from .options import JsonOption, writes
from .progress_common import (
    CHECK_FLAGS,
    Outcome,
    ability,
    check_options,
    ensemble_of,
    outcome,
    prop_type,
    record,
    recording,
)
from .world_common import ActionFaces, AnomalyFaces, OppositionFaces, ScriptFaces

app = typer.Typer(
    help="A Montage Sequence (9): start it once per Episode, shoot its scenes, stop it.",
    epilog="Example: showrunner montage scene practice --lead Mara --ability fight --claim 'Mara,prop=Money'",
    no_args_is_help=True,
)
ACTIONS = (
    "practice",
    "rest",
    "inspire",
    "motivate",
    "meditate",
    "plan",
    "heal",
    "design",
    "repair",
    "improve",
    "recycle",
    "refine",
    "assemble",
    "craft",
    "upgrade",
    "shop",
    "hire",
    "scavenge",
    "train",
    "employment",
)
CLAIM_HELP = (
    "Who benefits and what they pay (repeatable, in priority order: a Partial Success pays only the first). "
    "STAR or 'ensemble' (an Influence Montage refreshing the shared pool), then comma-separated key=value: "
    "payer=STAR|ensemble (the Ensemble Backpack), prop=TYPE (Practice), quality=Q, hero_prop=NAME, "
    "abilities=a+b (Train, Heal), convert=Q, into=TYPE, at_most=N, extra_props=N (Design), "
    "hire=ACTOR with subplot=LEVEL (for one Subplot of that Power) or accompany=LEVEL (the highest Difficulty they face). "
    "Or a JSON object with the fields of a claim (design, purchases, buy_hero_prop, buy_tier, buy_holding, hire)."
)
FLAGS = {**CHECK_FLAGS, "montage_benefit": "--benefit", "event": "--event", "bounty": "--bounty", "power": "--power"}

BenefitFaces: TypeAlias = Annotated[
    list[str] | None, faces_option("--benefit", "The d6s of the benefits, claim by claim (2 each on a Highlight).")
]
HiredEvent: TypeAlias = Annotated[
    list[str] | None, faces_option("--event", "Hire: the d100 Event of each hired Subplot (01-50 Aid, 51-100 Harm).")
]
HiredBounty: TypeAlias = Annotated[
    list[str] | None, faces_option("--bounty", "Hire: the d6s of Props in a hired Subplot's bounty for a Star.")
]
HiredPower: TypeAlias = Annotated[
    list[str] | None,
    faces_option("--power", "Hire: the d6s of a hired Subplot's minion and of the dice its Reveal re-rolls."),
]


@app.command("start")
@writes
def start(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """Begin the Episode's Montage Sequence (once per Episode; one a Disaster ended does not count).

    Example: showrunner montage start
    """
    s, ref, by = recording(ctx)
    record(ref, lambda: s.ledger.run(ref, "montage-start", {}, by=by), as_json)


def _claim(value: str) -> Any:
    from pydantic import ValidationError

    from ..domain.showrunner.ladder import Difficulty, Quality
    from ..domain.showrunner.montage_claims import Claim

    text = value.strip()
    if text.startswith("{"):
        try:
            return Claim.model_validate(json.loads(text))
        except (ValueError, ValidationError) as e:
            raise UsageProblem(f"--claim: not a claim ({' '.join(str(e).split())[:160]})") from None
        except RecursionError:
            raise UsageProblem("--claim: not a claim (nested too deeply)") from None
    who, *pairs = [part.strip() for part in text.split(",")]
    if not who:
        raise UsageProblem("--claim: name the Star who benefits (or 'ensemble')")
    fields: dict[str, Any] = {"beneficiary": who}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep:
            raise UsageProblem(f"--claim: '{pair}' is not key=value")
        if key == "payer":
            fields["payer"] = raw.strip()
        elif key in ("prop", "prop_type"):
            fields["prop_type"] = prop_type("--claim prop", raw)
        elif key in ("quality", "convert"):
            fields[key] = choices.quality(f"--claim {key}", raw.strip())
        elif key == "into":
            fields["into"] = prop("--claim into", raw)[0]
        elif key == "hero_prop":
            fields["hero_prop"] = raw.strip()
        elif key == "abilities":
            fields["abilities"] = tuple(ability("--claim abilities", a.strip()) for a in raw.split("+") if a.strip())
        elif key == "hire":
            fields["hire"] = {**fields.get("hire", {}), "actor": raw.strip()}
        elif key in ("subplot", "accompany"):
            if "power" in fields.get("hire", {}):
                raise UsageProblem(
                    "--claim: a hire is for one Subplot (subplot=LEVEL) or to accompany (accompany=LEVEL)"
                )
            level = difficulty(f"--claim {key}", raw.strip())
            fields["hire"] = {**fields.get("hire", {}), "power": level, "accompany": key == "accompany"}
        elif key in ("at_most", "extra_props"):
            if not raw.strip().isdigit():
                raise UsageProblem(f"--claim {key}: '{raw}' is not a number")
            fields[key] = int(raw)
        else:
            raise UsageProblem(
                f"--claim: unknown key '{key}' (payer, prop, quality, hero_prop, abilities, convert, into, at_most, "
                "extra_props, hire, subplot, accompany; or JSON)"
            )
    hire = fields.get("hire")
    if hire is not None:
        if "actor" not in hire or "power" not in hire:
            raise UsageProblem("--claim: a hire names the Actor (hire=NAME) and subplot=LEVEL or accompany=LEVEL")
        if "quality" not in fields and hire["power"].rank <= Difficulty.EPIC.rank:
            # 9.2D: the hire is paid with 1 Money of the Subplot's Power (or the Difficulty faced).
            fields["quality"] = Quality(hire["power"].value)
    return Claim(**fields)


ClaimOption = Annotated[list[str] | None, typer.Option("--claim", metavar="STAR[,key=value…]|JSON", help=CLAIM_HELP)]
SceneAbility = Annotated[
    str | None,
    typer.Option("--ability", "-a", help="The Ability of an action any Ability may lead (Practice, Employment)."),
]
TierOption = Annotated[
    str | None,
    typer.Option(
        "--tier", metavar="QUALITY", help="Repair and Improve: the Hero Props' Tier; Upgrade: the new Quality."
    ),
]


@app.command("scene")
@writes
def scene(
    ctx: typer.Context,
    action: Annotated[str, typer.Argument(help="The Montage Action: " + ", ".join(ACTIONS) + ".")],
    lead: Annotated[str, typer.Option("--lead", "-l", help="The Star who leads the scene and rolls its check.")],
    claim: ClaimOption = None,
    with_ability: SceneAbility = None,
    tier: TierOption = None,
    result: Outcome = None,
    specialty: Specialty = None,
    grit: Grit = 0,
    keep: Keep = None,
    push: Push = False,
    action_faces: ActionFaces = None,
    opposition_faces: OppositionFaces = None,
    script_faces: ScriptFaces = None,
    anomaly: AnomalyFaces = None,
    benefit: BenefitFaces = None,
    event: HiredEvent = None,
    bounty: HiredBounty = None,
    power: HiredPower = None,
    as_json: JsonOption = False,
) -> None:
    """Shoot one Montage scene: the lead's check (1 Opposition Die for the first scene, 2 for the
    second, …), then each claim pays its Prop for 1d6 of the benefit (2d6 on a Highlight).

    Example: showrunner montage scene practice --lead Mara --ability fight --claim 'Mara,prop=Money'
    """
    from ..domain.showrunner.commands.montage import MontageScene

    parts = _scene_parts(action, claim, with_ability, tier, result, specialty, grit, keep, push)
    faces = _faces(action_faces, opposition_faces, script_faces, anomaly, benefit, event, bounty, power)
    if parts.outcome is not None and (specialty or grit or keep or push or any(p in faces for p in CHECK_FLAGS)):
        raise UsageProblem("--outcome gives the check's result: its spends and dice flags have nothing to roll")
    s, ref, by = recording(ctx, lead)
    shot = MontageScene(lead=lead, **parts._asdict())
    record(ref, lambda: s.ledger.run(ref, "montage-scene", shot, faces=faces or None, by=by), as_json, FLAGS)


class _SceneParts(NamedTuple):
    action: Any
    claims: tuple[Any, ...]
    tier: Any
    ability: Any
    check: Any
    outcome: Any


def _scene_parts(
    action: str,
    claim: list[str] | None,
    with_ability: str | None,
    tier: str | None,
    result: str | None,
    specialty: list[str] | None,
    grit: int,
    keep: str | None,
    push: bool,
) -> _SceneParts:
    """What a Montage Action asks, checked before the ledger is opened."""
    from ..domain.showrunner.vocabulary import MontageAction

    try:
        chosen = MontageAction(action.strip().lower())
    except ValueError:
        raise UsageProblem(f"'{action}' is not a Montage Action ({', '.join(ACTIONS)})") from None
    return _SceneParts(
        action=chosen,
        claims=tuple(_claim(c) for c in claim or []),
        tier=choices.quality("--tier", tier) if tier is not None else None,
        ability=ability("--ability", with_ability) if with_ability is not None else None,
        check=check_options(specialty, grit, keep, push),
        outcome=outcome("--outcome", result),
    )


def _faces(
    action_faces: list[str] | None,
    opposition_faces: list[str] | None,
    script_faces: list[str] | None,
    anomaly: list[str] | None,
    benefit: list[str] | None,
    event: list[str] | None = None,
    bounty: list[str] | None = None,
    power: list[str] | None = None,
) -> dict[str, list[int]]:
    return parse_faces(
        {
            "action": ("--action", action_faces, 6),
            "opposition": ("--opposition-dice", opposition_faces, 6),
            "script": ("--script", script_faces, 6),
            "anomaly": ("--anomaly", anomaly, 100),
            "montage_benefit": ("--benefit", benefit, 6),
            "event": ("--event", event, 100),
            "bounty": ("--bounty", bounty, 6),
            "power": ("--power", power, 6),
        }
    )


@app.command("flashback")
@writes
def flashback(
    ctx: typer.Context,
    action: Annotated[str, typer.Argument(help="The Montage Action: " + ", ".join(ACTIONS) + ".")],
    lead: Annotated[
        str, typer.Option("--lead", "-l", help="The Star whose Flashback it is: they lead it and roll its check.")
    ],
    claim: ClaimOption = None,
    with_ability: SceneAbility = None,
    tier: TierOption = None,
    award: Annotated[
        bool,
        typer.Option("--award", help="Paid by the Method Actor's Award (once per Episode) instead of Preparation."),
    ] = False,
    bonus: Annotated[
        str | None,
        typer.Option(
            "--bonus",
            metavar="TYPE",
            help="Mastered Preparation: the Type of the free NORMAL Prop (it must fit in the Backpack).",
        ),
    ] = None,
    result: Outcome = None,
    specialty: Specialty = None,
    grit: Grit = 0,
    keep: Keep = None,
    push: Annotated[
        bool,
        typer.Option("--push", help="Push Your Limits: pay the Preparation or the check's spends by exhausting icons."),
    ] = False,
    action_faces: ActionFaces = None,
    opposition_faces: OppositionFaces = None,
    script_faces: ScriptFaces = None,
    anomaly: AnomalyFaces = None,
    benefit: BenefitFaces = None,
    as_json: JsonOption = False,
) -> None:
    """A Flashback that performs a single Montage Action (8.1E): 1 Preparation (or the Method
    Actor's Award), then the lead's check against 1 Opposition Die, as a Montage's first scene,
    and the claims it pays. The Episode's Montage Sequence is neither opened nor spent.

    Example: showrunner montage flashback practice --lead Mara --ability fight --claim 'Mara,prop=Money'
    """
    from ..domain.showrunner.commands.flashbacks import FlashbackMontage

    parts = _scene_parts(action, claim, with_ability, tier, result, specialty, grit, keep, push)
    faces = _faces(action_faces, opposition_faces, script_faces, anomaly, benefit)
    if parts.outcome is not None and (specialty or grit or keep or any(p in faces for p in CHECK_FLAGS)):
        raise UsageProblem("--outcome gives the check's result: its spends and dice flags have nothing to roll")
    extra = prop_type("--bonus", bonus) if bonus is not None else None
    s, ref, by = recording(ctx, lead)
    cut = FlashbackMontage(star=lead, bonus_type=extra, award=award, push=push, **parts._asdict())
    record(ref, lambda: s.ledger.run(ref, "flashback-montage", cut, faces=faces or None, by=by), as_json, FLAGS)


@app.command("stop")
@writes
def stop(
    ctx: typer.Context,
    free_prop: Annotated[
        list[str] | None,
        typer.Option(
            "--free-prop", metavar="STAR=TYPE", help="Prop Mastery: the Type of a Star's free NORMAL Prop (repeatable)."
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Stop the Montage Sequence: every Star gains the benefit of each Mastery they hold.

    Example: showrunner montage stop --free-prop 'Mara=Rations'
    """
    from ..domain.showrunner.commands.montage import MontageStop

    choices = {}
    for value in free_prop or []:
        star, sep, kind = value.partition("=")
        if not sep or not star.strip():
            raise UsageProblem(f"--free-prop: '{value}' is not STAR=TYPE")
        choices[star.strip()] = prop_type("--free-prop", kind.strip())
    s, ref, by = recording(ctx)
    stopped = MontageStop(prop_choices=choices)
    record(ref, lambda: s.ledger.run(ref, "montage-stop", stopped, by=by), as_json)


@app.command("show")
def show(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """The Montage Sequence in progress: its Episode, its scenes and the Opposition of the next.

    Example: showrunner montage show --json
    """
    from rich.table import Table

    from .safe_text import markup
    from .session import print_json, stdout_console

    s, ref, _ = recording(ctx)
    pool = ensemble_of(s.ledger, ref)
    sequence = pool.montage
    if as_json:
        print_json(
            {
                "branch": ref.branch.name,
                "montage_episode": pool.montage_episode,
                "montage": sequence.model_dump(mode="json") if sequence is not None else None,
                "next_opposition": len(sequence.scenes) + 1 if sequence is not None else None,
            }
        )
        return
    console = stdout_console()
    if sequence is None:
        done = f"; the Cast shot one in Episode {pool.montage_episode}" if pool.montage_episode else ""
        console.print(f"No Montage Sequence is running{done}.")
        return
    table = Table(
        title=f"Montage Sequence · Episode {sequence.episode} · next scene faces {len(sequence.scenes) + 1} Opposition"
    )
    for column in ("#", "Action", "Lead", "Difficulty", "Opposition", "Result", "Benefits"):
        table.add_column(column)
    for shot in sequence.scenes:
        table.add_row(
            str(shot.number),
            shot.action.value.title(),
            markup(shot.lead, lines=False),
            shot.difficulty.value,
            str(shot.opposition),
            shot.outcome.label,
            markup("\n".join(shot.lines)),
        )
    console.print(table)
