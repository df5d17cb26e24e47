"""`showrunner spend` and `showrunner regain`: Influence outside a check."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from . import completion
from .options import JsonOption, writes
from .safe_text import markup
from .session import print_json, session, stdout_console

if TYPE_CHECKING:
    from ..ledger.service import BranchRef, CommandResult
    from .session import Session


class PoolChoice(StrEnum):
    grit = "grit"
    retake = "retake"
    spotlight = "spotlight"
    plot_armor = "plot_armor"
    preparation = "preparation"


StarArg = Annotated[str, typer.Argument(help="The Star's name (or the start of it).", autocompletion=completion.stars)]
PoolArg = Annotated[PoolChoice, typer.Argument(help="Which Influence pool.")]
AmountOpt = Annotated[int, typer.Option("--amount", "-n", min=1, help="How many points.")]
ReasonOpt = Annotated[str, typer.Option("--reason", help="What it was for, shown in the log.")]


@writes
def spend(
    ctx: typer.Context,
    star: StarArg,
    pool: PoolArg,
    amount: AmountOpt = 1,
    push: Annotated[
        bool, typer.Option("--push", help="Push Your Limits: pay what the pool lacks by exhausting icons.")
    ] = False,
    reason: ReasonOpt = "",
    as_json: JsonOption = False,
) -> None:
    """Spend Influence from a Star's pool; an empty pool needs --push.

    Examples: showrunner spend Mara grit  ·  showrunner spend Mara plot_armor --push
    """
    s = session(ctx)
    ref = s.target()
    s.check_acting_for(ref, star)
    result = s.ledger.run(
        ref,
        "spend",
        {"star": star, "pool": pool.value, "amount": amount, "push": push, "reason": reason},
        by=s.recorded_by(ref),
    )
    _report(s, ref, result, as_json)


@writes
def regain(
    ctx: typer.Context,
    star: StarArg,
    pool: PoolArg,
    amount: AmountOpt = 1,
    reason: ReasonOpt = "",
    as_json: JsonOption = False,
) -> None:
    """Regain Influence up to the pool's maximum; the excess overflows to the Ensemble Pool.

    Example: showrunner regain Tobias retake --reason "Hit the Mark"
    """
    s = session(ctx)
    ref = s.target()
    s.check_acting_for(ref, star)
    result = s.ledger.run(
        ref, "regain", {"star": star, "pool": pool.value, "amount": amount, "reason": reason}, by=s.recorded_by(ref)
    )
    _report(s, ref, result, as_json)


def _report(s: Session, ref: BranchRef, result: CommandResult, as_json: bool) -> None:
    event = result.events[-1]
    if as_json:
        print_json(
            {
                "branch": ref.branch.name,
                "events": [e.version for e in result.events],
                "type": event.type_name,
                "outcome": event.fact.model_dump(mode="json"),
                "summary": event.fact.summary(),
            }
        )
        return
    stdout_console().print(f"#{event.version} {markup(event.fact.summary())}")


def register(root: typer.Typer) -> None:
    root.command("spend")(spend)
    root.command("regain")(regain)
