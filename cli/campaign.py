"""`showrunner campaign …`: create, list and choose campaigns."""

from __future__ import annotations

from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from . import completion
from .errors import Refused, UsageProblem
from .options import JsonOption, writes
from .paging import PageOption, PerPageOption, check_page, page_count, page_title
from .safe_text import markup
from .session import print_json, session, stderr_console, stdout_console

if TYPE_CHECKING:
    from ..ledger.registry import CampaignEntry

# What `campaign new` says of the key file it made: the demo's is deleted with the demo.
KEY_FILE_NOTE: ContextVar[str] = ContextVar("key_file_note", default="keep it private")

app = typer.Typer(
    help="Create, list and choose campaigns.",
    epilog='Example: showrunner campaign new "Neon Harbor"',
    no_args_is_help=True,
)


@app.command("new")
@writes
def new(
    ctx: typer.Context,
    title: Annotated[str, typer.Argument(help="The show's title.")],
    high_concept: Annotated[str, typer.Option("--high-concept", help="The one-line pitch.")] = "",
    premise: Annotated[str, typer.Option("--premise", help="What the show is about.")] = "",
    sfx_budget: Annotated[int, typer.Option("--sfx-budget", min=0, help="The show's SFX budget.")] = 0,
    sfx: Annotated[
        str | None,
        typer.Option(
            "--sfx",
            metavar="BUDGET",
            help="What Channel is in this show (1 Step 2B): high-magic, low-magic, superpowers, psionics, unknown "
            "or no-magic (no Channel: never rolled, and re-rolled on random Ability rolls).",
        ),
    ] = None,
    ruleset: Annotated[
        str,
        typer.Option(
            "--ruleset",
            help="The rules the campaign is played by (`showrunner ruleset list`).",
            autocompletion=completion.rulesets,
        ),
    ] = "showrunner",
    name: Annotated[
        str | None, typer.Option("--name", help="Short name used on the command line (default: from the title).")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Create a campaign, commit a fresh dice seed, and make it the current campaign.

    The seed's SHA-256 commitment goes into event #1; the seed itself stays in a
    Director key file (owner-only) in the data folder.

    Examples: showrunner campaign new "Neon Harbor" --high-concept "Heists in a drowned city"
     ·  showrunner campaign new "The Ninth Bell" --ruleset resonance
     ·  showrunner campaign new "Precinct 9" --sfx no-magic
    """
    from ..domain.campaign import Pitch
    from ..domain.rulesets import ruleset as known_ruleset
    from ..ledger.seeds import FileKeyStore

    s = session(ctx)
    if not s.is_director:
        raise Refused("only the Director creates campaigns (drop --as)")
    known_ruleset(ruleset)
    budgets = ("high-magic", "low-magic", "superpowers", "psionics", "unknown", "no-magic")
    if sfx is not None and sfx.strip().lower() not in budgets:
        raise UsageProblem(f"--sfx: '{sfx}' is not an SFX Budget ({', '.join(budgets)})")
    s.may_create = True
    entry = s.ledger.create_campaign(
        Pitch.model_validate(
            {
                "title": title,
                "high_concept": high_concept,
                "premise": premise,
                "sfx_budget": sfx_budget,
                "ruleset": ruleset,
                "sfx": sfx.strip().lower() if sfx is not None else None,
            }
        ),
        name=name,
        by="director",
    )
    s.remember(campaign=entry.name)
    ref = s.ledger.resolve(entry)
    head = s.ledger.head(ref)
    key_file = s.ledger.keys.where(entry.id)
    if as_json:
        print_json(
            {
                "campaign": _campaign_doc(entry),
                "branch": "main",
                "head": {"version": head.version, "hash": head.hash},
                "key_file": str(key_file),
            }
        )
        return
    stdout_console().print(f"Created campaign [bold]{entry.name}[/] ({markup(entry.title)}) on branch main.")
    stderr_console().print(
        f"[dim]Director key file ({KEY_FILE_NOTE.get()}): {markup(_home_relative(Path(key_file)) if isinstance(s.ledger.keys, FileKeyStore) else key_file)}[/]",
        soft_wrap=True,
    )


def _home_relative(path: Path) -> str:
    """The path as a reader types it: `~/…` under the home folder."""
    try:
        return "~/" + path.resolve().relative_to(Path.home().resolve()).as_posix()
    except (ValueError, RuntimeError):
        return str(path)


@app.command("list")
def list_(ctx: typer.Context, page: PageOption = 1, per_page: PerPageOption = 50, as_json: JsonOption = False) -> None:
    """List the campaigns in the database by name, a page at a time; the current one is marked.

    Examples: showrunner campaign list --json  ·  showrunner campaign list --page 2 --per-page 100
    """
    from rich.table import Table

    s = session(ctx)
    campaigns, total = s.ledger.campaign_page((page - 1) * per_page, per_page) if s.has_ledger() else ([], 0)
    check_page(page, total, per_page, "campaign list")
    current = s.current_campaign_name()
    if as_json:
        print_json(
            {
                "page": page,
                "pages": page_count(total, per_page),
                "total": total,
                "campaigns": [{**_campaign_doc(c), "current": c.name == current} for c in campaigns],
            }
        )
        return
    if not campaigns:
        stderr_console().print("No campaigns yet: create one with `showrunner campaign new TITLE`.")
        return
    table = Table(title=page_title("Campaigns", page, total, per_page, "campaigns"))
    for column in ("current", "name", "title", "ruleset", "id"):
        table.add_column(column, justify="center" if column == "current" else "left")
    for c in campaigns:
        table.add_row(
            "*" if c.name == current else "", c.name, markup(c.title, lines=False), markup(c.ruleset), c.id.hex[:8]
        )
    stdout_console().print(table)


@app.command("use")
def use(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Campaign name or id prefix.", autocompletion=completion.campaigns)],
    as_json: JsonOption = False,
) -> None:
    """Make a campaign the current one for this database.

    Example: showrunner campaign use neon-harbor
    """
    s = session(ctx)
    entry = s.ledger.campaign(name)
    s.remember(campaign=entry.name)
    if as_json:
        print_json({"campaign": _campaign_doc(entry)})
        return
    stdout_console().print(f"Now using campaign [bold]{entry.name}[/] ({markup(entry.title)}).")


def _campaign_doc(entry: CampaignEntry) -> dict[str, Any]:
    return {"name": entry.name, "title": entry.title, "ruleset": entry.ruleset, "id": str(entry.id)}
