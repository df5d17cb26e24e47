"""`showrunner bond` and `showrunner grudge`: relationships in eight Tiers (Chapter 10.1, 10.2).
Add one at the end of an Episode, Trade one for a check one step lower (inside a check:
`check … --trade bond:NAME`; here: for an Action Sequence or a check rolled away from the
ledger), and resolve one with a Think check. Every box marked: it Advances, with 1 Acclaim.

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

from typing import TYPE_CHECKING, Annotated

import typer

from .check_options import Grit, Keep, Push, Specialty
from .choices import difficulty
from .errors import UsageProblem
from .options import JsonOption, writes
from .progress_common import (
    CHECK_FLAGS,
    Outcome,
    Reason,
    StarArg,
    check_options,
    outcome,
    path,
    record,
    recording,
)
from .world_common import ActionFaces, OppositionFaces, ScriptFaces

if TYPE_CHECKING:
    from ..domain.showrunner.relationships import Kind

WithArg = Annotated[str, typer.Argument(metavar="WITH", help="The Star or Actor the relationship is with.")]


def _other(value: str | None) -> "tuple[Kind, str] | None":
    if value is None:
        return None
    kind, sep, name = value.partition(":")
    kind, name = kind.strip().lower(), name.strip()
    if sep and name and kind == "bond":
        return "bond", name
    if sep and name and kind == "grudge":
        return "grudge", name
    raise UsageProblem(f"--other: '{value}' is not bond:NAME or grudge:NAME")


def build(kind: "Kind") -> typer.Typer:
    title = kind.title()
    app = typer.Typer(
        help=f"{title}s (10.1, 10.2): add at the end of an Episode, Trade, resolve.",
        epilog=f"Example: showrunner {kind} trade Mara 'Captain Ilse' -d HARD",
        no_args_is_help=True,
    )

    @app.command("add")
    @writes
    def add(ctx: typer.Context, star: StarArg, name: WithArg, as_json: JsonOption = False) -> None:
        from ..domain.showrunner.commands.relationships import Relationship

        s, ref, by = recording(ctx, star)
        added = Relationship(star=star, kind=kind, name=name)
        record(ref, lambda: s.ledger.run(ref, "relationship-add", added, by=by), as_json)

    add.__doc__ = (
        f"At the end of an Episode, a new {title} at N (one new Bond OR Grudge per Star per Episode).\n\n"
        f"    Example: showrunner {kind} add Mara 'The Harbourmaster'"
    )

    @app.command("trade")
    @writes
    def trade(
        ctx: typer.Context,
        star: StarArg,
        name: WithArg,
        level: Annotated[
            str,
            typer.Option(
                "--difficulty",
                "-d",
                help="The Difficulty of the check (or the Sequence's ultimate Difficulty): its Tier's ◇ is exhausted.",
            ),
        ],
        acclaim: Annotated[
            str | None,
            typer.Option(
                "--acclaim",
                metavar="PATH",
                help="When the Trade completes the track: the Career Path for its 1 Acclaim.",
            ),
        ] = None,
        reason: Reason = "",
        as_json: JsonOption = False,
    ) -> None:
        from ..domain.showrunner.commands.relationships import RelationshipTrade

        chosen = difficulty("--difficulty", level)
        career = path("--acclaim", acclaim) if acclaim is not None else None
        s, ref, by = recording(ctx, star)
        traded = RelationshipTrade(
            star=star, kind=kind, name=name, difficulty=chosen, acclaim_path=career, reason=reason
        )
        record(ref, lambda: s.ledger.run(ref, "relationship-trade", traded, by=by), as_json)

    trade.__doc__ = (
        f"Trade the {title} outside a check: exhaust the ◇ of the Difficulty's Tier, roll one step lower.\n\n"
        f"    Example: showrunner {kind} trade Mara 'Captain Ilse' -d HARD --reason 'the harbour chase'"
    )

    @app.command("resolve")
    @writes
    def resolve(
        ctx: typer.Context,
        star: StarArg,
        name: WithArg,
        new_with: Annotated[
            str | None,
            typer.Option("--new-with", metavar="NAME", help="A Highlight shifts the focus to this Star or Actor."),
        ] = None,
        other: Annotated[
            str | None,
            typer.Option(
                "--other",
                metavar="bond:NAME|grudge:NAME",
                help="A Disaster lowers this other Bond or Grudge by one Tier.",
            ),
        ] = None,
        forgotten: Annotated[
            int | None,
            typer.Option(
                "--written-off-episodes",
                min=0,
                metavar="N",
                help="The other was written off N Episodes ago: the Difficulty is 1+N steps lower.",
            ),
        ] = None,
        result: Outcome = None,
        specialty: Specialty = None,
        grit: Grit = 0,
        keep: Keep = None,
        push: Push = False,
        action_faces: ActionFaces = None,
        opposition_faces: OppositionFaces = None,
        script_faces: ScriptFaces = None,
        as_json: JsonOption = False,
    ) -> None:
        from ..domain.showrunner.commands.relationships import RelationshipResolve
        from .world_common import check_faces

        given = outcome("--outcome", result)
        faces = check_faces(action_faces, opposition_faces, script_faces, None)
        s, ref, by = recording(ctx, star)
        resolved = RelationshipResolve(
            star=star,
            kind=kind,
            name=name,
            check=check_options(specialty, grit, keep, push),
            outcome=given,
            new_with=new_with,
            other=_other(other),
            episodes_since_written_off=forgotten,
        )
        record(
            ref,
            lambda: s.ledger.run(ref, "relationship-resolve", resolved, faces=faces or None, by=by),
            as_json,
            CHECK_FLAGS,
        )

    resolve.__doc__ = (
        f"At the end of an Episode, a Think check to resolve the {title} (Difficulty its Tier, Opposition "
        "its Tiers exhausted); Highlight shifts it, Success removes it, Partial lowers it, Failure keeps it, "
        f"Disaster lowers another.\n\n    Example: showrunner {kind} resolve Mara 'Lord Aubrec'"
    )
    return app


bond_app = build("bond")
grudge_app = build("grudge")
