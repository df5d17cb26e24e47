"""`showrunner log`, `show` and `replay`: reading the history of a branch."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from . import completion
from .errors import Refused, UsageProblem
from .options import JsonOption
from .safe_text import markup
from .session import print_json, session, stdout_console

if TYPE_CHECKING:
    from ..ledger.registry import BranchIndex


def log(
    ctx: typer.Context,
    types: Annotated[
        list[str] | None, typer.Option("--type", "-t", help="Only events of this type (repeatable), e.g. StarJoined.")
    ] = None,
    star: Annotated[
        str | None, typer.Option("--star", "-s", help="Only events about this Star.", autocompletion=completion.stars)
    ] = None,
    page: Annotated[int, typer.Option("--page", "-p", min=1, help="Page number, counted from 1.")] = 1,
    per_page: Annotated[int, typer.Option("--per-page", "-n", min=1, max=10000, help="Events per page.")] = 50,
    as_json: JsonOption = False,
) -> None:
    """The branch's events in order, a page at a time, filtered by type and by Star.

    A Star (--as NAME) sees only public events; the Director sees everything.

    Examples: showrunner log  ·  showrunner log --type StarJoined --star Mara --page 2
    """
    from rich.table import Table

    from ..projections.log import log_page, resolve_types

    s = session(ctx)
    try:
        topics = resolve_types(types or [])
    except ValueError as e:
        raise UsageProblem(str(e)) from None
    ref = s.target()
    if star is not None:
        # An unknown Star is an error, not an empty page; "Mara" filters on "Mara Voss".
        star = s.seen(s.ledger.view(ref).state).character(star).name
    found = log_page(s.ledger, ref, director=s.is_director, topics=topics, star=star, page=page, per_page=per_page)
    shown, total, pages = found.shown, found.total, found.pages
    if as_json:
        print_json(found.as_json(ref))
        return
    counted = f"{total} event" if total == 1 else f"{total} events"
    table = Table(title=markup(f"{ref.campaign.name}/{ref.branch.name} — page {page} of {pages} ({counted})"))
    table.add_column("#", justify="right")
    table.add_column("when")
    table.add_column("type")
    table.add_column("by")
    table.add_column("what")
    branches = s.ledger.branches(ref.campaign) if any(r.instead_of for r in shown) else None
    for r in shown:
        what = markup(r.summary) + (" [dim](director only)[/]" if r.visibility == "director" else "")
        if r.instead_of is not None and branches is not None:
            what = f"[bold magenta]counterfactual[/] ({markup(instead_of_text(r.instead_of, branches))}): {what}"
        table.add_row(
            str(r.version),
            markup(r.timestamp[:19].replace("T", " ")),
            markup(r.type),
            markup(r.recorded_by, lines=False),
            what,
        )
    stdout_console().print(table)


def show(
    ctx: typer.Context,
    version: Annotated[int, typer.Argument(help="The event number on the current branch.")],
    as_json: JsonOption = False,
) -> None:
    """One event: what the log says of it, who recorded it and when, and its hash chain.

    --json prints the whole event, its payload included.

    Example: showrunner show 2 --json
    """
    from rich.panel import Panel
    from rich.table import Table

    from ..ledger.codec import document_of
    from ..projections.log import entry

    s = session(ctx)
    ref = s.target()
    event = s.ledger.event(ref, version)
    if not s.is_director and event.visibility != "public":
        raise Refused(f"event #{version} is for the Director only")
    doc = {"version": event.version, "type": event.type_name, "topic": event.topic, **document_of(event)}
    if as_json:
        print_json({"branch": ref.branch.name, "event": doc})
        return
    row = entry(event)
    card = Table.grid(padding=(0, 2))
    card.add_column(style="bold")
    card.add_column()
    for label, value in (
        ("what", row.summary),
        ("when", row.timestamp[:19].replace("T", " ") + " UTC"),
        ("by", row.recorded_by),
        ("seen by", "everyone" if row.visibility == "public" else "the Director only"),
        ("Stars", ", ".join(row.stars) or "none"),
        ("hash", row.hash),
        ("after", doc["prev_hash"]),
    ):
        card.add_row(label, markup(value))
    if event.instead_of is not None:
        text = instead_of_text(event.instead_of, s.ledger.branches(ref.campaign))
        card.add_row("[magenta]counterfactual[/]", markup(text, lines=False))
    stdout_console().print(
        Panel(
            card,
            title=markup(f"#{row.version} {row.type}", lines=False),
            subtitle=f"the whole event: showrunner show {row.version} --json",
        )
    )


def replay(
    ctx: typer.Context,
    to: Annotated[int, typer.Option("--to", min=1, help="Replay events 1..N of the current branch.")],
    as_json: JsonOption = False,
) -> None:
    """Every character sheet (and Showrunner's Ensemble) as of event N.

    Example: showrunner replay --to 3
    """
    from rich.table import Table

    from ..domain.rulesets import ruleset_of
    from .render_character import render_character

    s = session(ctx)
    ref = s.target()
    view = s.ledger.view(ref, to)
    state = s.seen(view.state)  # a Star never sees a Subplot in stasis, nor an adversary's ranks
    rules = ruleset_of(state)
    if as_json:
        print_json(
            {
                "branch": ref.branch.name,
                "as_of": view.version,
                "hash": view.head_hash,
                "pitch": state.pitch.model_dump(mode="json") if state.pitch else None,
                "ruleset": state.pitch.ruleset if state.pitch else None,
                "stars": {x.name: rules.character_document(x)["json"] for x in state.roster().values()},
                "state": state.model_dump(mode="json", exclude={"pitch"}),
            }
        )
        return
    console = stdout_console()
    title = state.pitch.title if state.pitch else ref.campaign.title
    console.rule(markup(f"{title} — {ref.branch.name} as of #{view.version}", lines=False))
    for character in state.roster().values():
        profile = rules.character_document(character)["profile"]
        console.print(render_character(profile, title_suffix=f" · #{view.version}"))
    e = getattr(state, "ensemble", None)
    if e is not None:  # Showrunner's shared pool
        ensemble = Table(title="Ensemble Pool")
        for column in ("Grit ♥", "Retake ↺", "Spotlight ☼", "Plot Armor ☠", "Preparation □"):
            ensemble.add_column(column, justify="center")
        ensemble.add_row(
            *(
                f"{getattr(e, k)}/{getattr(e, k + '_max')}"
                for k in ("grit", "retake", "spotlight", "plot_armor", "preparation")
            )
        )
        console.print(ensemble)


def instead_of_text(cited: dict[str, Any], branches: BranchIndex) -> str:
    """'instead of main #4': the parent's event a what-if's alternative stands in for."""
    from uuid import UUID

    entry = branches.branches.get(UUID(str(cited["branch"])))
    return f"instead of {entry.name if entry is not None else cited['branch']} #{cited['version']}"


def register(root: typer.Typer) -> None:
    root.command("log")(log)
    root.command("show")(show)
    root.command("replay")(replay)
