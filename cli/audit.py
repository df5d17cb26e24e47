"""`showrunner audit`: re-judge a recorded roll of any ruleset, and prove (or flag) its dice.

The re-judgement replays the recorded faces through the engine against the sheet as it
stood at the event before the check, and compares every decision with the record. The
dice are then either table dice (typed in: they can only be flagged), ledger dice whose
seed is not revealed yet, ledger dice re-derived from the revealed seed and verified,
or a MISMATCH naming the roll and the faces that differ.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .errors import ExitCode, UsageProblem
from .options import JsonOption
from .progress import progress_bar
from .session import print_json, print_json_streaming, session, stdout_console

if TYPE_CHECKING:
    from collections.abc import Iterator

    from rich.text import Text

    from ..ledger.audit import Audit

STATUS_TEXT = {
    "table": "table dice: typed in from physical dice, cannot be proven, only flagged",
    "unrevealed": "ledger dice: the seed is not revealed yet, so they cannot be re-derived (`showrunner seed reveal`)",
    "verified": "ledger dice: verified, every face re-derived from the revealed seed",
    "mismatch": "ledger dice: MISMATCH with the revealed seed",
}
STATUS_SHORT = {
    "table": "table",
    "unrevealed": "ledger: seed not revealed",
    "verified": "ledger: verified",
    "mismatch": "ledger: MISMATCH",
}


def audit(
    ctx: typer.Context,
    version: Annotated[
        int | None, typer.Argument(help="The check's event number on the current branch.", min=1)
    ] = None,
    all_checks: Annotated[bool, typer.Option("--all", help="Audit every check of the branch.")] = False,
    verify_dice: Annotated[
        bool, typer.Option("--verify-dice", help="Also require every ledger roll to be provable (its seed revealed).")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Re-judge a recorded check and say whether it MATCHES the record; prove its dice.

    Shows the roll in its ruleset's terms against the state as of the event before (for
    Showrunner: how the pools were built, every step, the outcome and the rewards). Exits 1 if anything differs from the record, if a ledger
    die differs from the one derived from the revealed seed, or (with --verify-dice) if a
    ledger roll cannot be proven yet. Table dice are flagged, never counted as proven.

    Examples: showrunner audit 12  ·  showrunner audit --all --verify-dice
    """
    if (version is None) == (not all_checks):
        raise UsageProblem("give a check's event number, or --all (not both)")
    s = session(ctx)
    ref = s.target()
    if all_checks:
        _audit_all(s, ref, verify_dice=verify_dice, as_json=as_json)
    else:
        assert version is not None
        _audit_one(s, ref, version, verify_dice=verify_dice, as_json=as_json)


# ----------------------------------------------------------------------- one check


def _audit_one(s: Any, ref: Any, version: int, *, verify_dice: bool, as_json: bool) -> None:
    from ..projections.audit import audit_report, failures, readable_audit

    found = readable_audit(s.ledger, ref, version, director=s.is_director)
    failed = failures(found, verify_dice)
    if as_json:
        print_json(audit_report(ref, found, verify_dice=verify_dice))
    else:
        stdout_console().print(render_audit(found, verify_dice=verify_dice))
    if failed:
        sys.stderr.write(f"showrunner: audit of #{version} FAILED: {failed[0]}\n")
        raise typer.Exit(ExitCode.REFUSED)


def _verdict(found: Audit, *, verify_dice: bool, matched: str) -> list[Any]:
    from rich.text import Text

    from ..projections.audit import proof_lines, status_of

    status = status_of(found)
    verdict: list[Any] = []
    if found.matches:
        verdict.append(Text.assemble(("MATCHES", "bold green"), f" the record: {matched}"))
    else:
        verdict.append(Text.assemble(("MISMATCH", "bold red"), f" with the record: {found.problem}"))
    dice_style = {"verified": "green", "mismatch": "bold red", "unrevealed": "yellow", "table": "yellow"}[status]
    verdict.append(
        Text.assemble(
            ("Dice", "bold"), f" (roll #{found.fact.roll_number}{_derived(found)}): ", (STATUS_TEXT[status], dice_style)
        )
    )
    if found.fact.dice_entropy is not None:
        verdict.append(Text(f"  entropy given for the roll: {found.fact.dice_entropy}", style="dim"))
    if found.replayed is not None:
        verdict.append(Text(f"  faces {found.replayed}, proven as that roll is", style="dim"))
    for line in proof_lines(found):
        verdict.append(Text(f"  {line}", style="bold red"))
    if verify_dice and status == "unrevealed":
        verdict.append(Text("  --verify-dice: this roll is not provable yet", style="bold red"))
    return verdict


def _derived(found: Audit) -> str:
    from ..projections.audit import derivation

    version = derivation(found)
    return "" if version is None else f", dice {version}"


def render_audit(found: Audit, *, verify_dice: bool) -> Any:
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    from ..domain.showrunner.check_json import effect_line
    from ..domain.showrunner.events import CheckAbandoned, CheckRolled
    from ..domain.showrunner.state import ShowrunnerState
    from .render_check import render_check

    event = found.event
    fact = found.fact
    who = f"recorded by {event.recorded_by} at {event.timestamp.isoformat()[:19].replace('T', ' ')}"
    if isinstance(fact, CheckAbandoned):  # rolls, but no outcome
        verdict = _verdict(
            found, verify_dice=verify_dice, matched="the engine asks for exactly the recorded rolls before the choice"
        )
        request = fact.request
        lines = [
            Text(
                f"{request.star} abandoned a {request.ability.value.title()} check at {request.difficulty.value} after the roll; {who}."
            ),
            Text(
                f"Re-run up to the choice against the sheet as of #{event.version - 1}, the engine asks for exactly these rolls:"
            ),
        ]
        for r in fact.rolls:
            lines.append(Text(f"  {r.purpose} d{r.sides}: {','.join(map(str, r.faces))}"))
        if fact.effects:
            lines.append(Text("Spent before walking away, and kept spent:"))
            lines += [Text(f"  • {effect_line(e)}") for e in fact.effects]
        return Panel(
            Group(*lines, Text(""), *verdict),
            title=Text(f"Audit of #{event.version} · CheckAbandoned"),
            title_align="left",
        )
    if isinstance(fact, CheckRolled):
        verdict = _verdict(
            found,
            verify_dice=verify_dice,
            matched="every die, block, pair, outcome, mark and effect re-judged the same",
        )
        before = found.before
        assert isinstance(before, ShowrunnerState)  # a Showrunner check is made on a Showrunner campaign
        rejudged = fact.rejudged(before)[0]
        shown = rejudged or fact.resolution
        what = "re-judged" if rejudged is not None else "as recorded (the engine could not re-judge it)"
        title = f"Audit of #{event.version} · {shown.star} · {shown.request.ability.value.title()} at {shown.original_difficulty.value}"
        note = f"Pools from the sheet as of #{event.version - 1}; steps and effects {what}; {who}."
        return Group(render_check(shown, title=title, footer=f"event #{event.version}", pools_note=note), *verdict)
    verdict = _verdict(
        found,
        verify_dice=verify_dice,
        matched="re-judged from the recorded inputs and dice, every decision is the same",
    )
    lines = [
        Text(f"{fact.summary()}; {who}.", style="bold"),
        Text(f"Re-judged against the state as of #{event.version - 1}:"),
    ]
    lines += [Text(f"  {line}") for line in fact.explain()]
    lines += [
        Text(f"  {r.purpose} d{r.sides}: {','.join(map(str, r.faces))}", style="dim") for r in fact.recorded_rolls()
    ]
    return Panel(
        Group(*lines, Text(""), *verdict),
        title=Text(f"Audit of #{event.version} · {event.type_name}"),
        title_align="left",
    )


# ----------------------------------------------------------------------- every check


def _audit_all(s: Any, ref: Any, *, verify_dice: bool, as_json: bool) -> None:
    from rich.table import Table
    from rich.text import Text

    from ..ledger.audit import audit_all
    from ..projections.audit import audit_document, status_of
    from ..projections.audit import failures as failures_of

    total = s.ledger.head(ref).version
    failures: list[str] = []
    counts = dict.fromkeys(("table", "unrevealed", "verified", "mismatch"), 0)
    mismatched: list[int] = []
    unproven: list[int] = []
    explained: list[str] = []

    def tally(audits: Iterator[Audit]) -> Iterator[Audit]:
        # Each audit is counted, then let go: it holds the state before its roll, and a long
        # history has many rolls.
        for a in audits:
            if not (s.is_director or a.event.visibility == "public"):
                continue
            status = status_of(a)
            counts[status] += 1
            failures.extend(failures_of(a, verify_dice))
            if not a.matches or status == "mismatch":
                mismatched.append(a.event.version)
                explained.extend(failures_of(a, False))
            if status == "unrevealed":
                unproven.append(a.event.version)
            yield a

    with progress_bar("Auditing", total, enabled=not as_json) as advance:
        audited = tally(audit_all(s.ledger, ref, progress=advance))
        if as_json:
            print_json_streaming(
                {"campaign": ref.campaign.name, "branch": ref.branch.name, "verify_dice": verify_dice},
                "audits",
                (audit_document(a) for a in audited),
                lambda: {
                    "ok": not failures,
                    "rolls": sum(counts.values()),
                    "dice": counts,
                    "mismatches": mismatched,
                    "unproven": unproven,
                    "failures": failures,
                },
            )
        else:
            rows = [_row(a) for a in audited]
    if not as_json:
        console = stdout_console()
        table = Table(title=f"{ref.campaign.name}/{ref.branch.name}: {len(rows)} roll(s) audited")
        for column in ("#", "Who", "Roll", "Re-judged", "Dice"):
            table.add_column(column, justify="right" if column == "#" else "left")
        for row in rows:
            table.add_row(*row)
        console.print(table)
        console.print(
            f"Dice: {counts['verified']} verified, {counts['unrevealed']} not provable yet (seed not revealed), "
            f"{counts['table']} table (flagged), {counts['mismatch']} MISMATCH."
        )
        if mismatched:
            console.print(Text("Mismatches:", style="bold red"))
            for line in explained:
                console.print(Text(f"  {line}"))
        if verify_dice and unproven:
            console.print(
                Text("Not provable yet (--verify-dice): " + ", ".join(f"#{v}" for v in unproven), style="bold red")
            )
        if not failures:
            extra = " and every ledger roll is proven" if verify_dice else ""
            console.print(Text(f"OK: every roll MATCHES the record{extra}.", style="green"))
    if failures:
        what = f"{len(mismatched)} mismatch(es)" if mismatched else ""
        if verify_dice and unproven:
            what += (", " if what else "") + f"{len(unproven)} ledger roll(s) not provable"
        sys.stderr.write(f"showrunner: audit FAILED: {what}; first: {failures[0]}\n")
        raise typer.Exit(ExitCode.REFUSED)


def _row(a: Audit) -> tuple[str | Text, ...]:
    """A roll's line in the table: its number, who rolled, the roll, the re-judgement, the dice."""
    from rich.text import Text

    from ..projections.audit import status_of

    status = status_of(a)
    dice_style = {"verified": "green", "mismatch": "bold red", "unrevealed": "yellow", "table": "dim"}[status]
    return (
        str(a.event.version),
        Text(a.fact.roller()),
        Text(a.fact.summary()),
        Text("MATCHES", style="green") if a.matches else Text("MISMATCH", style="bold red"),
        Text(STATUS_SHORT[status], style=dice_style),
    )


def register(root: typer.Typer) -> None:
    root.command("audit")(audit)
