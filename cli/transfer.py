"""`showrunner export` and `showrunner import`: a branch's lineage as JSONL."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .errors import UsageProblem
from .options import JsonOption
from .private_files import private_file
from .progress import progress_bar
from .safe_text import markup
from .session import print_json, session, stdout_console


def export(
    ctx: typer.Context,
    output: Annotated[str, typer.Option("--output", "-o", help="File to write, or - for stdout.")],
    as_json: JsonOption = False,
) -> None:
    """Write the current branch's whole lineage as JSONL, hashes included.

    Exported by a Star (--as NAME), Director-only payloads are redacted.

    Example: showrunner export -o neon-harbor.jsonl
    """
    from ..ledger.transfer import export_lines

    if as_json and output == "-":
        raise UsageProblem("--json reports on a written file; with --output - the export itself is on stdout")
    s = session(ctx)
    ref = s.target()
    lines = export_lines(s.ledger, ref, director=s.is_director)
    count = 0
    if output == "-":
        for line in lines:
            sys.stdout.write(line + "\n")
            count += 1
        return
    path = Path(output)
    with (
        progress_bar("Exporting", s.ledger.head(ref).version, enabled=not as_json) as advance,
        private_file(path) as f,
    ):
        for line in lines:
            f.write(line + "\n")
            count += 1
            advance(count - 1)
    if as_json:
        print_json({"file": str(path), "branch": ref.branch.name, "events": count - 1, "redacted": not s.is_director})
        return
    stdout_console().print(
        f"Exported {count - 1} events of {ref.campaign.name}/{ref.branch.name} to {markup(str(path))}."
    )


def import_(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="A file written by `showrunner export`.")],
    name: Annotated[str | None, typer.Option("--name", help="Register the campaign under another name.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Recreate an exported campaign branch in this database, verifying the whole file first.

    The campaign's name, title and ruleset and every branch's name, parent and fork point
    are read from the hashed events; a header that says otherwise, a truncated or edited
    file is refused with its line number, and nothing is written.

    Example: showrunner --db other.sqlite import neon-harbor.jsonl
    """
    from ..ledger.registry import check_name
    from ..ledger.transfer import check_export, import_checked, text_lines

    if name is not None:
        check_name("campaign", name)
    lines = text_lines(file.read_bytes())
    with progress_bar("Importing", len(lines), enabled=not as_json) as advance:
        checked = check_export(lines, progress=advance)
    # The database is opened only for a file that checked out: a refused one creates nothing.
    s = session(ctx)
    s.may_create = True
    result = import_checked(s.ledger, checked, name=name)
    s.remember(campaign=result.campaign, branch=result.branch)
    if as_json:
        print_json(
            {
                "campaign": result.campaign,
                "branch": result.branch,
                "events": result.events,
                "head": {"version": result.head_version, "hash": result.head_hash},
                "verified": True,
            }
        )
        return
    stdout_console().print(
        f"Imported {result.events} events as campaign [bold]{result.campaign}[/], branch {result.branch}; "
        f"chain verified up to {result.head_version}:{result.head_hash[:12]}."
    )


def register(root: typer.Typer) -> None:
    root.command("export")(export)
    root.command("import")(import_)
