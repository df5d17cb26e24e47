"""What the progression commands share: parsing Prop Types, Paths and pools, the Star a
command records for, running a ledger command with table-dice flag names in its errors, and
reading the Ensemble.

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Annotated, Any

import typer

from . import choices, completion
from .dice_flags import CHECK_FACES, keep_pair, with_flags
from .errors import UsageProblem
from .world_common import report

if TYPE_CHECKING:
    from ..domain.showrunner.state import EnsemblePool
    from ..ledger.service import BranchRef, Ledger

PATHS = "training, persistence, talent, destiny"
POOLS = "grit, retake, spotlight, plot_armor, preparation"

StarArg = Annotated[
    str, typer.Argument(help="The Star (any case, or the start of the name).", autocompletion=completion.stars)
]
Reason = Annotated[str, typer.Option("--reason", help="What it was for, shown in the log.")]
Count = Annotated[int, typer.Option("--count", "-n", min=1, help="How many.")]
Outcome = Annotated[
    str | None,
    typer.Option(
        "--outcome",
        metavar="RESULT",
        help="The check's result, rolled at the table away from the ledger: highlight, success, partial, failure or disaster (no check is recorded).",
    ),
]
CHECK_FLAGS = {purpose: CHECK_FACES[purpose][0] for purpose in ("action", "opposition", "script", "anomaly")}
"""The table dice of a check a progression command rolls (a Montage's, a Relationship's)."""


def prop_type(flag: str, value: str) -> Any:
    """A Prop Type alone (a NORMAL Prop)."""
    if ":" in value:
        raise UsageProblem(f"{flag}: name a Prop Type only, like Rations (it is a NORMAL Prop)")
    return choices.prop(flag, value)[0]


def path(flag: str, value: str) -> Any:
    from ..domain.showrunner.sheet import CareerPath

    try:
        return CareerPath(value)
    except ValueError:
        raise UsageProblem(f"{flag}: '{value}' is not a Career Path ({PATHS})") from None


def pool(flag: str, value: str) -> str:
    wanted = value.strip().lower().replace("-", "_").replace(" ", "_")
    if wanted not in POOLS.split(", "):
        raise UsageProblem(f"{flag}: '{value}' is not an Influence pool ({POOLS})")
    return wanted


def ability(flag: str, value: str) -> Any:
    from ..domain.showrunner.sheet import AbilityName

    try:
        return AbilityName(value)
    except ValueError:
        raise UsageProblem(f"{flag}: '{value}' is not an Ability ({choices.ABILITIES})") from None


def outcome(flag: str, value: str | None) -> Any:
    from ..domain.showrunner.check import Outcome as Result

    if value is None:
        return None
    try:
        return Result(value.strip().lower().replace(" ", "_").replace("partial_success", "partial"))
    except ValueError:
        raise UsageProblem(
            f"{flag}: '{value}' is not a result (highlight, success, partial, failure, disaster)"
        ) from None


def check_options(specialty: list[str] | None, grit: int, keep: str | None, push: bool) -> Any:
    """The spends and choices of a check a command rolls; its Ability, Difficulty and Opposition come from the rules."""
    from ..domain.showrunner.check import CheckRequest

    return CheckRequest(
        star="-",
        ability="think",
        difficulty="NORMAL",
        specialties=tuple(specialty or ()),
        grit=grit,
        keep=keep_pair(keep) if keep is not None else None,
        push=push,
    )


def recording(ctx: typer.Context, star: str | None = None) -> tuple[Any, Any, str]:
    """The session, the branch, and who records: a Star at the keyboard records only for their own sheet."""
    from .session import session

    s = session(ctx)
    ref = s.target()
    if star is not None:
        s.check_acting_for(ref, star)
    return s, ref, s.recorded_by(ref)


def director(s: Any, what: str) -> None:
    from .world_common import director_only

    director_only(s, what)


def record(
    ref: Any, call: Callable[[], Any], as_json: bool, flags: Mapping[str, str] | None = None, **extra: Any
) -> Any:
    """Run one ledger command and report every event it recorded."""
    from ..domain.errors import InvalidDice

    try:
        result = call()
    except InvalidDice as e:
        raise with_flags(e, flags or {}) from None
    report(ref, result, as_json, **extra)
    return result


def ensemble_of(ledger: "Ledger", ref: "BranchRef", at: int | None = None) -> "EnsemblePool":
    """The Ensemble Sheet of the branch (as of event `at`)."""
    from ..domain.errors import RuleViolation
    from ..domain.showrunner.state import ShowrunnerState

    state = ledger.view(ref, at).state
    if not isinstance(state, ShowrunnerState):
        raise RuleViolation("Props, Montages, Bonds, Careers and the Ensemble belong to Showrunner campaigns")
    return state.ensemble
