"""`showrunner head` and `showrunner verify`: the digest players keep, and the proof."""

from __future__ import annotations

from typing import Annotated

import typer

from .errors import ExitCode, UsageProblem
from .options import JsonOption
from .progress import progress_bar
from .session import print_json, session, stderr_console, stdout_console


def head(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """The branch's head: its last event number and hash, as VERSION:HASH.

    Keep this digest at the end of an episode; `verify --against` proves later
    that the log still extends it.

    Example: showrunner head
    """
    s = session(ctx)
    ref = s.target()
    digest = s.ledger.head(ref)
    if as_json:
        print_json({"campaign": ref.campaign.name, "branch": ref.branch.name, "version": digest.version, "hash": digest.hash, "digest": str(digest)})
        return
    stdout_console().print(str(digest), highlight=False, soft_wrap=True)


def verify(
    ctx: typer.Context,
    against: Annotated[
        str | None,
        typer.Option("--against", metavar="VERSION:HASH", help="A digest kept from `showrunner head`: catches a cut-off tail or a recomputed chain."),
    ] = None,
    drop_bad_snapshots: Annotated[
        bool,
        typer.Option("--drop-bad-snapshots", help="First delete snapshots that do not match their events (they are only a cache)."),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Walk the branch and its ancestry, recomputing every hash and link.

    Then replays the events to check every snapshot (a cache outside the chain).
    Exits 1 and names the first event or snapshot that does not hold.

    Examples: showrunner verify  ·  showrunner verify --against 42:3f9a…
    """
    from ..ledger.integrity import Digest

    s = session(ctx)
    try:
        kept = Digest.parse(against) if against is not None else None
    except ValueError as e:
        raise UsageProblem(str(e)) from None
    ref = s.target()
    dropped = s.ledger.drop_bad_snapshots(ref) if drop_bad_snapshots else []
    total = s.ledger.head(ref).version
    with progress_bar("Verifying", total, enabled=not as_json) as advance:
        report = s.ledger.verify(ref, kept, progress=advance)
    if as_json:
        print_json(
            {
                "campaign": ref.campaign.name,
                "branch": ref.branch.name,
                "ok": report.ok,
                "checked": report.checked,
                "head": {"version": report.head.version, "hash": report.head.hash},
                "against": str(kept) if kept else None,
                "dropped_snapshots": dropped,
                "problem": {"version": report.problem.version, "message": report.problem.message} if report.problem else None,
            }
        )
    else:
        if dropped:
            stderr_console().print("Dropped bad snapshots at " + ", ".join(f"#{v}" for v in dropped))
        if report.ok:
            extra = f", and it extends the kept digest #{kept.version}" if kept else ""
            stdout_console().print(f"[green]OK[/]: {report.checked} events of {ref.branch.name} verified{extra}.")
        else:
            # soft_wrap: one line on stderr whatever the terminal's width.
            stderr_console().print(f"[red]FAILED[/] at event #{report.problem.version}: {report.problem.message}", soft_wrap=True)
    if not report.ok:
        raise typer.Exit(ExitCode.REFUSED)


def register(root: typer.Typer) -> None:
    root.command("head")(head)
    root.command("verify")(verify)
