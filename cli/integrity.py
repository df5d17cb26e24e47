"""`showrunner head` and `showrunner verify`: the digest players keep, and the proof."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .errors import ExitCode, UsageProblem
from .options import JsonOption
from .progress import progress_bar
from .session import print_json, session, stderr_console, stdout_console

if TYPE_CHECKING:
    from ..ledger.integrity import CampaignDigest, Digest, Problem, VerifyReport
    from ..ledger.registry import CampaignEntry
    from ..ledger.verification import CampaignReport
    from .session import Session


def head(
    ctx: typer.Context,
    whole_campaign: Annotated[
        bool,
        typer.Option(
            "--campaign-digest",
            "--campaign",
            help="Print the campaign digest instead: every branch's name, fork point and head under one hash.",
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """The branch's head as VERSION:HASH, or with --campaign the digest of every branch.

    Keep a digest at the end of an episode; `verify --against` proves later that the
    log still extends it. The campaign digest (c1:VERSIONS:HASH) also catches a branch
    renamed, hidden, re-parented or cut short.

    Examples: showrunner head  ·  showrunner head --campaign
    """
    from ..ledger.verification import campaign_digest

    s = session(ctx)
    ref = s.target()
    if whole_campaign:
        digest = campaign_digest(s.ledger, ref.campaign)
        if as_json:
            print_json(
                {
                    "campaign": ref.campaign.name,
                    "versions": list(digest.versions),
                    "hash": digest.hash,
                    "digest": str(digest),
                }
            )
            return
        stdout_console().print(str(digest), highlight=False, soft_wrap=True)
        return
    branch_digest = s.ledger.head(ref)
    if as_json:
        print_json(
            {
                "campaign": ref.campaign.name,
                "branch": ref.branch.name,
                "version": branch_digest.version,
                "hash": branch_digest.hash,
                "digest": str(branch_digest),
            }
        )
        return
    stdout_console().print(str(branch_digest), highlight=False, soft_wrap=True)


def verify(
    ctx: typer.Context,
    against: Annotated[
        str | None,
        typer.Option(
            "--against",
            metavar="DIGEST",
            help="A digest kept from `showrunner head` (VERSION:HASH, this branch) or `head --campaign` "
            "(c1:…, every branch): catches a cut-off tail, a recomputed chain, a hidden or renamed branch.",
        ),
    ] = None,
    everything: Annotated[
        bool,
        typer.Option("--all", help="Every branch of every campaign in the database, and the registry."),
    ] = False,
    drop_bad_snapshots: Annotated[
        bool,
        typer.Option(
            "--drop-bad-snapshots",
            help="First delete snapshots that are misplaced or do not match their events (they are only a cache).",
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Walk the branch and its ancestry, recomputing every hash and link.

    Also checks the registry (the campaign catalog and the branch index, each against
    the branches' own first events) and every snapshot against a replay. Exits 1 and
    names the first event, registry entry or snapshot that does not hold.

    Examples: showrunner verify  ·  showrunner verify --against 42:3f9a…  ·
    showrunner verify --against c1:42.17:9b0c…  ·  showrunner verify --all
    """
    from ..ledger.integrity import CampaignDigest, Digest

    s = session(ctx)
    kept_branch: Digest | None = None
    kept_campaign: CampaignDigest | None = None
    try:
        if against is not None and CampaignDigest.looks_like(against):
            kept_campaign = CampaignDigest.parse(against)
        elif against is not None:
            kept_branch = Digest.parse(against)
    except ValueError as e:
        raise UsageProblem(str(e)) from None
    if everything and against is not None:
        raise UsageProblem("--all checks every campaign; --against names one: run them apart")
    if everything:
        _verify_all(s, drop_bad_snapshots, as_json)
    elif kept_campaign is not None:
        _verify_campaign(s, kept_campaign, drop_bad_snapshots, as_json)
    else:
        _verify_branch(s, kept_branch, drop_bad_snapshots, as_json)


def _verify_branch(s: Session, kept: Digest | None, drop: bool, as_json: bool) -> None:
    from ..ledger.verification import drop_bad_snapshots, verify_branch

    ref = s.target()
    dropped = drop_bad_snapshots(s.ledger, ref) if drop else []
    total = s.ledger.head(ref).version
    with progress_bar("Verifying", total, enabled=not as_json) as advance:
        report = verify_branch(s.ledger, ref, kept, progress=advance)
    read_models = _read_model_problem(s)
    ok = report.ok and read_models is None
    if as_json:
        print_json(
            {
                "campaign": ref.campaign.name,
                **_branch_doc(report),
                "ok": ok,
                "against": str(kept) if kept else None,
                "dropped_snapshots": dropped,
                "read_models": {"problem": _problem_doc(read_models)},
            }
        )
    else:
        _say_dropped(dropped)
        for problem in (report.problem, read_models):
            if problem is not None:
                _say_failed(problem)
        if ok:
            extra = f", and it extends the kept digest #{kept.version}" if kept else ""
            stdout_console().print(f"[green]OK[/]: {report.checked} events of {ref.branch.name} verified{extra}.")
    if not ok:
        raise typer.Exit(ExitCode.REFUSED)


def _verify_campaign(s: Session, kept: CampaignDigest, drop: bool, as_json: bool) -> None:
    from ..ledger.verification import verify_campaign

    campaign = s.ledger.campaign(s.campaign_name())
    dropped = _drop_in_campaign(s, campaign) if drop else []
    with progress_bar("Verifying", _events_in(s, campaign), enabled=not as_json) as advance:
        report = verify_campaign(s.ledger, campaign, kept, progress=advance)
    read_models = _read_model_problem(s)
    ok = report.ok and read_models is None
    if as_json:
        print_json(
            {
                **_campaign_doc(report),
                "ok": ok,
                "against": str(kept),
                "dropped_snapshots": dropped,
                "read_models": {"problem": _problem_doc(read_models)},
            }
        )
    else:
        _say_dropped(dropped)
        _say_campaign(report)
        if read_models is not None:
            _say_failed(read_models)
        if ok:
            stdout_console().print(
                f"[green]OK[/]: every branch of {campaign.name} verified, and the campaign extends the kept digest."
            )
    if not ok:
        raise typer.Exit(ExitCode.REFUSED)


def _verify_all(s: Session, drop: bool, as_json: bool) -> None:
    from ..ledger.verification import verify_catalog, verify_everything

    campaigns = s.ledger.campaigns() if verify_catalog(s.ledger)[1] is None else []
    dropped = {c.name: _drop_in_campaign(s, c) for c in campaigns} if drop else {}
    total = sum(_events_in(s, c) for c in campaigns)
    with progress_bar("Verifying", total, enabled=not as_json) as advance:
        report = verify_everything(s.ledger, progress=advance)
    read_models = _read_model_problem(s)
    ok = report.ok and read_models is None
    if as_json:
        print_json(
            {
                "ok": ok,
                "storage": {"problem": _problem_doc(report.storage_problem)},
                "read_models": {"problem": _problem_doc(read_models)},
                "catalog": {"checked": report.catalog_checked, "problem": _problem_doc(report.catalog_problem)},
                "campaigns": [
                    {**_campaign_doc(c), "dropped_snapshots": dropped.get(c.campaign, [])} for c in report.campaigns
                ],
            }
        )
    else:
        for name, versions in dropped.items():
            _say_dropped(versions, name)
        for problem in (report.storage_problem, report.catalog_problem):
            if problem is not None:
                _say_failed(problem)
        for campaign in report.campaigns:
            _say_campaign(campaign)
        if read_models is not None:
            _say_failed(read_models)
        if ok:
            events = sum(b.checked for c in report.campaigns for b in c.branches)
            branches = sum(len(c.branches) for c in report.campaigns)
            stdout_console().print(
                f"[green]OK[/]: the registry, {len(report.campaigns)} campaign(s), {branches} branch(es) "
                f"and {events} events verified."
            )
    if not ok:
        raise typer.Exit(ExitCode.REFUSED)


def _read_model_problem(s: Session) -> Problem | None:
    """The SQL read models (the roll index of `dice stats`) against the log they are built from."""
    from ..ledger.integrity import Problem
    from ..projections import roll_index  # SQLAlchemy: paid by verify, not by every command

    engine = roll_index.engine_for(s.settings)
    try:
        message = roll_index.check(s.ledger, engine)
    finally:
        engine.dispose()
    return Problem(0, message, "read-model") if message is not None else None


def _events_in(s: Session, campaign: CampaignEntry) -> int:
    from ..ledger.errors import LedgerError

    try:
        index = s.ledger.branches(campaign)
        return sum(s.ledger.head(s.ledger.ref_in(campaign, index, b)).version for b in index.branches.values())
    except LedgerError:
        return 0  # the verification itself names what is damaged


def _drop_in_campaign(s: Session, campaign: CampaignEntry) -> list[str]:
    from ..ledger.errors import LedgerError
    from ..ledger.verification import drop_bad_snapshots

    dropped = []
    try:
        index = s.ledger.branches(campaign)
        for entry in index.branches.values():
            ref = s.ledger.ref_in(campaign, index, entry)
            dropped += [f"{entry.name}#{v}" for v in drop_bad_snapshots(s.ledger, ref)]
    except LedgerError:
        pass  # a damaged registry or branch: verification reports it
    return dropped


def _problem_doc(problem: Problem | None) -> dict[str, Any] | None:
    return {"version": problem.version, "scope": problem.scope, "message": problem.message} if problem else None


def _branch_doc(report: VerifyReport) -> dict[str, Any]:
    return {
        "branch": report.branch,
        "ok": report.ok,
        "checked": report.checked,
        "head": {"version": report.head.version, "hash": report.head.hash},
        "problem": _problem_doc(report.problem),
    }


def _campaign_doc(report: CampaignReport) -> dict[str, Any]:
    return {
        "campaign": report.campaign,
        "ok": report.ok,
        "digest": str(report.digest) if report.digest else None,
        "registry": {"checked": report.registry.checked, "problem": _problem_doc(report.registry.problem)},
        "branches": [_branch_doc(b) for b in report.branches],
        "problem": _problem_doc(report.problem),
    }


def _say_campaign(report: CampaignReport) -> None:
    problems = [report.registry.problem, report.problem]
    problems += [b.problem for b in report.branches]
    for problem in problems:
        if problem is not None:
            _say_failed(problem)


def _say_failed(problem: Problem) -> None:
    from rich.markup import escape

    where = f" at event #{problem.version}" if problem.scope == "event" else ""
    # soft_wrap: one line per problem on stderr whatever the terminal's width.
    stderr_console().print(f"[red]FAILED[/]{where}: {escape(problem.message)}", soft_wrap=True, highlight=False)


def _say_dropped(versions: Sequence[int | str], campaign: str | None = None) -> None:
    if versions:
        where = f" in {campaign}" if campaign else ""
        stderr_console().print(
            f"Dropped bad snapshots{where} at " + ", ".join(f"#{v}" if isinstance(v, int) else v for v in versions)
        )


def register(root: typer.Typer) -> None:
    root.command("head")(head)
    root.command("verify")(verify)
