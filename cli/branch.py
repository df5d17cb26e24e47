"""`showrunner branch …`: fork a campaign at any event, list, choose and compare branches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from . import completion
from .options import JsonOption, writes
from .paging import PageOption, PerPageOption, check_page, page_count, page_title
from .safe_text import markup
from .session import print_json, session, stderr_console, stdout_console

if TYPE_CHECKING:
    from uuid import UUID

    from ..ledger.integrity import Digest
    from ..ledger.registry import BranchEntry
    from .session import Session

app = typer.Typer(
    help="Fork the campaign at any event, and compare the timelines.",
    epilog="Example: showrunner branch create what-if --at 12",
    no_args_is_help=True,
)


@app.command("create")
@writes
def create(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The new branch's name.")],
    at: Annotated[int | None, typer.Option("--at", min=1, help="Fork after event N (default: the head).")] = None,
    source: Annotated[
        str | None,
        typer.Option(
            "--from", help="Branch to fork (default: the current branch).", autocompletion=completion.branches
        ),
    ] = None,
    use: Annotated[bool, typer.Option("--use/--no-use", help="Make the new branch the current one.")] = True,
    as_json: JsonOption = False,
) -> None:
    """Fork the current branch after event N. No events are copied.

    Example: showrunner branch create what-if --at 12
    """
    s = session(ctx)
    parent = s.target(source)
    ref = s.ledger.create_branch(parent, name, at=at, by=s.recorded_by(parent))
    head = s.ledger.head(ref)
    if use:
        s.remember(campaign=ref.campaign.name, branch=ref.branch.name)
    if as_json:
        print_json(
            {
                "branch": ref.branch.name,
                "parent": parent.branch.name,
                "fork_version": ref.branch.fork_version,
                "head": {"version": head.version, "hash": head.hash},
            }
        )
        return
    stdout_console().print(
        f"Created branch [bold]{ref.branch.name}[/] from {parent.branch.name} at #{ref.branch.fork_version}"
        + (" and switched to it." if use else ".")
    )


@app.command("list")
def list_(ctx: typer.Context, page: PageOption = 1, per_page: PerPageOption = 50, as_json: JsonOption = False) -> None:
    """Draw the campaign's branch tree with fork points and heads, a page at a time (by fork point).

    Examples: showrunner branch list  ·  showrunner branch list --page 2 --json
    """
    from rich.markup import escape
    from rich.tree import Tree

    s = session(ctx)
    campaign = s.ledger.campaign(s.campaign_name())
    # One read of the page's registrations: no branch is looked up again.
    shown, parents, total = s.ledger.branch_page(campaign, (page - 1) * per_page, per_page)
    check_page(page, total, per_page, "branch list")
    current = s.branch_name(campaign.name)
    heads, damaged = _heads(s, shown)
    for b in shown:
        if b.parent_id is not None and b.parent_id not in parents:
            damaged[b.id] = (
                f"the branch registry gives '{b.name}' a parent it does not hold; it was changed outside the ledger"
            )
    if as_json:
        print_json(
            {
                "campaign": campaign.name,
                "page": page,
                "pages": page_count(total, per_page),
                "total": total,
                "branches": [
                    {
                        "name": b.name,
                        "parent": parents.get(b.parent_id) if b.parent_id is not None else None,
                        "fork_version": b.fork_version if b.parent_id else None,
                        "head_version": heads[b.id].version if b.id in heads else None,
                        "head_hash": heads[b.id].hash if b.id in heads else None,
                        "current": b.name == current,
                        "damaged": damaged.get(b.id),
                    }
                    for b in shown
                ],
            }
        )
        return
    on_page = {b.id for b in shown}
    children: dict[UUID | None, list[BranchEntry]] = {}
    for b in shown:
        children.setdefault(b.parent_id, []).append(b)

    def label(b: BranchEntry) -> str:
        marker = "[bold green]* [/]" if b.name == current else ""
        fork = ""
        if b.parent_id in on_page:
            fork = f" [dim](from #{b.fork_version})[/]"
        elif b.parent_id is not None:  # its parent is on another page
            fork = f" [dim](from {escape(parents.get(b.parent_id, '?'))} #{b.fork_version})[/]"
        if b.id in damaged:
            return f"{marker}[bold]{b.name}[/]{fork} [red]damaged[/]: {escape(damaged[b.id])}"
        return f"{marker}[bold]{b.name}[/]{fork} head #{heads[b.id].version} {heads[b.id].hash[:12]}"

    def grow(node: Tree, parent_id: UUID | None) -> None:
        for b in children.get(parent_id, []):
            grow(node.add(label(b)), b.id)

    roots = [b for b in shown if b.parent_id is None or b.parent_id not in on_page]
    tree = Tree(page_title(f"[bold]{campaign.name}[/]", page, total, per_page, "branches"))
    for root in roots:
        grow(tree.add(label(root)), root.id)
    stdout_console().print(tree)
    if damaged:
        stderr_console().print("Some branches cannot be read; `showrunner verify --all` tells what was changed.")


def _heads(s: Session, branches: list[BranchEntry]) -> tuple[dict[UUID, Digest], dict[UUID, str]]:
    """Each branch's head; a branch that cannot be read is listed as damaged, not fatal to the list."""
    from ..ledger.integrity import Digest

    heads: dict[UUID, Digest] = {}
    damaged: dict[UUID, str] = {}
    for branch_id, head in s.ledger.branch_heads(branches).items():
        if isinstance(head, Digest):
            heads[branch_id] = head
        else:
            damaged[branch_id] = " ".join(str(head).split())
    return heads, damaged


@app.command("use")
def use(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The branch to make current.", autocompletion=completion.branches)],
    as_json: JsonOption = False,
) -> None:
    """Make a branch the current one for this campaign.

    Example: showrunner branch use what-if
    """
    s = session(ctx)
    ref = s.target(name)
    s.remember(campaign=ref.campaign.name, branch=ref.branch.name)
    if as_json:
        print_json({"campaign": ref.campaign.name, "branch": ref.branch.name})
        return
    stdout_console().print(f"Now on branch [bold]{ref.branch.name}[/] of {ref.campaign.name}.")


@app.command("diff")
def diff(
    ctx: typer.Context,
    a: Annotated[str, typer.Argument(help="First branch.", autocompletion=completion.branches)],
    b: Annotated[str, typer.Argument(help="Second branch.", autocompletion=completion.branches)],
    as_json: JsonOption = False,
) -> None:
    """Where two branches part, the events unique to each, and how the sheets differ.

    Example: showrunner branch diff main what-if
    """
    from rich.table import Table

    from ..projections.diff import divergence_version, sheet_changes
    from ..projections.log import entries

    s = session(ctx)
    ref_a, ref_b = s.target(a), s.target(b)
    head_a, head_b = s.ledger.head(ref_a), s.ledger.head(ref_b)
    split = divergence_version(ref_a.segments, ref_b.segments, head_a.version, head_b.version)
    split_hash = s.ledger.event(ref_a, split).hash if split else None
    only_a = list(entries(s.ledger.events(ref_a, after=split), director=s.is_director))
    only_b = list(entries(s.ledger.events(ref_b, after=split), director=s.is_director))
    changes = sheet_changes(s.seen(s.ledger.view(ref_a).state), s.seen(s.ledger.view(ref_b).state))
    if as_json:
        print_json(
            {
                "a": ref_a.branch.name,
                "b": ref_b.branch.name,
                "divergence": {"version": split, "hash": split_hash},
                "only_in_a": [e.as_json() for e in only_a],
                "only_in_b": [e.as_json() for e in only_b],
                "sheet_differences": [c.as_json() for c in changes],
            }
        )
        return
    console = stdout_console()
    console.print(
        f"[bold]{a}[/] and [bold]{b}[/] share events #1 to #{split}"
        + (f" (hash {split_hash[:12]})" if split_hash else "")
    )
    for name, rows in ((a, only_a), (b, only_b)):
        table = Table(title=f"Only in {name} ({len(rows)})")
        table.add_column("#", justify="right")
        table.add_column("type")
        table.add_column("what")
        for r in rows:
            table.add_row(str(r.version), r.type, markup(r.summary))
        console.print(table)
    table = Table(title=f"Sheet differences ({len(changes)})")
    for column in ("Star", "field", a, b):
        table.add_column(column)
    for c in changes:
        table.add_row(markup(c.star, lines=False), c.field, markup(_cell(c.before)), markup(_cell(c.after)))
    console.print(table)


def _cell(value: object) -> str:
    return "—" if value is None else str(value)


@app.command("replay")
@writes
def replay(
    ctx: typer.Context,
    source: Annotated[
        str, typer.Argument(help="The branch whose commands to replay.", autocompletion=completion.branches)
    ],
    start: Annotated[
        int | None,
        typer.Option(
            "--from", min=1, help="Its first event to replay (default: the first after the two branches part)."
        ),
    ] = None,
    onto: Annotated[
        str | None,
        typer.Option(
            "--onto",
            help="The branch to replay onto (default: the current branch).",
            autocompletion=completion.branches,
        ),
    ] = None,
    on_conflict: Annotated[
        str, typer.Option("--on-conflict", help="What a command the rules now refuse does: 'stop' or 'skip'.")
    ] = "stop",
    dry_run: Annotated[
        bool | None,
        typer.Option(
            "--dry-run/--write",
            help="Show the report without writing (--write: record without asking). Default: ask at a terminal, write otherwise.",
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Replay a range of another branch's commands onto this one, with the same input and dice faces.

    Each command is decided again on the target with the input and the faces the source recorded;
    the report says, command by command, whether it had the same effects, others, or was refused.

    Under --command-id GIVEN, its K-th command records as GIVEN/K: a retry with the same id and
    options records nothing new and reports the first record; with other options it is refused.

    Example: showrunner branch replay main --from 12 --onto what-if
    """
    from ..ledger.replay import replay_onto
    from ..projections.diff import divergence_version
    from .what_if import checked_conflict, decide_and_show, given_id

    s = session(ctx)
    ref_source, ref_onto = s.target(source), s.target(onto)
    conflict = checked_conflict(on_conflict)
    if start is None:
        head_a, head_b = s.ledger.head(ref_source), s.ledger.head(ref_onto)
        start = divergence_version(ref_source.segments, ref_onto.segments, head_a.version, head_b.version) + 1
        if start > head_a.version:
            from .errors import Refused

            raise Refused(f"branch '{source}' has no event after it parts from '{ref_onto.branch.name}'; give --from")

    def run(write: bool):  # type: ignore[no-untyped-def]
        return replay_onto(
            s.ledger, ref_source, ref_onto, start, on_conflict=conflict, write=write, command_id=given_id()
        )

    decide_and_show(s, run, dry_run, as_json)
