"""`showrunner recap`: "Previously On…", read from the log, safe to read aloud."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from . import completion
from .errors import Refused, UsageProblem
from .safe_text import markup, plain
from .session import print_json, session, stdout_console

if TYPE_CHECKING:
    from rich.text import Text

    from ..projections.recap import Beat, Comparison, Recap


class Format(StrEnum):
    rich = "rich"
    md = "md"
    json = "json"


def recap(
    ctx: typer.Context,
    episode: Annotated[
        int | None,
        typer.Option("--episode", "-e", min=1, help="Recap Episode N (default: the last Episode that ended)."),
    ] = None,
    since: Annotated[
        int | None, typer.Option("--since", min=1, help="Recap Episodes N to the last, as one story.")
    ] = None,
    season: Annotated[int | None, typer.Option("--season", min=1, help="Recap the whole of Season N.")] = None,
    compare: Annotated[
        tuple[str, str] | None,
        typer.Option(
            "--compare",
            metavar="A B",
            help="Tell two branches side by side from where they part.",
            autocompletion=completion.branches,
        ),
    ] = None,
    director: Annotated[
        bool, typer.Option("--director", help="Include Director-only events (marked). Not for reading aloud.")
    ] = False,
    max_lines: Annotated[
        int,
        typer.Option(
            "--max-lines",
            "-n",
            min=1,
            max=1000,
            help="At most this many lines between the opening and the Cliffhanger.",
        ),
    ] = 12,
    chronological: Annotated[
        bool, typer.Option("--chronological", help="Tell the chosen lines in log order instead of heaviest first.")
    ] = False,
    fmt: Annotated[
        Format,
        typer.Option("--format", "-f", help="rich (terminal), md (Markdown) or json (with the event citations)."),
    ] = Format.rich,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON document on stdout (same as --format json).")
    ] = False,
) -> None:
    """ "Previously On…": the last Episode's beats, heaviest first, ending on the Cliffhanger.

    Every line cites the events it comes from (#12, #13); the same log always gives the
    same text. Nothing Director-only is included unless the Director asks (--director).
    On a fork, the recap says where it left its parent and what went differently since.

    Examples: showrunner recap  ·  showrunner recap --episode 2 --format md  ·  showrunner recap --compare main what-if
    """
    from ..projections.recap import ForkContext, build_comparison, build_recap

    s = session(ctx)
    if as_json:
        fmt = Format.json
    chosen = [
        name for name, value in (("--episode", episode), ("--since", since), ("--season", season)) if value is not None
    ]
    if compare is not None and any(part is None for part in compare):
        compare = None
    if len(chosen) > 1:
        raise UsageProblem(f"{' and '.join(chosen)} cannot be combined: give one of --episode, --since, --season")
    if compare is not None and chosen:
        raise UsageProblem(f"--compare tells two whole timelines from where they part; leave out {chosen[0]}")
    if director and not s.is_director:
        raise Refused("only the Director can include Director-only events (--director)")
    if compare is not None:
        from ..projections.diff import divergence_version

        ref_a, ref_b = s.target(compare[0]), s.target(compare[1])
        split = divergence_version(
            ref_a.segments, ref_b.segments, s.ledger.head(ref_a).version, s.ledger.head(ref_b).version
        )
        comparison = build_comparison(
            list(s.ledger.events(ref_a)),
            list(s.ledger.events(ref_b)),
            campaign=ref_a.campaign.name,
            a=ref_a.branch.name,
            b=ref_b.branch.name,
            divergence=split,
            director=director,
            max_lines=max_lines,
            chronological=chronological,
        )
        _print_comparison(comparison, fmt)
        return
    ref = s.target()
    fork = None
    if ref.parent_name is not None:
        parent = s.ledger.resolve(ref.campaign, ref.parent_name)
        fork_version = ref.branch.fork_version
        fork = ForkContext(ref.parent_name, fork_version, list(s.ledger.events(parent, after=fork_version)))
    scope = None
    if episode is None and since is None and season is None:
        from ..ledger.read_index import event_index
        from ..projections.recap_scope import last_episode_scope

        index = event_index(s.ledger, ref)
        scope = last_episode_scope(index, director=director) if index is not None else None
    told = build_recap(
        lambda after, upto: s.ledger.events(ref, after=after, upto=upto),
        campaign=ref.campaign.name,
        branch=ref.branch.name,
        director=director,
        episode=episode,
        since=since,
        season=season,
        max_lines=max_lines,
        chronological=chronological,
        fork=fork,
        scope=scope,
    )
    _print_recap(told, fmt)


# ----------------------------------------------------------------------- output


def _line(beat: Beat, director: bool, prefix: str = "", style: str = "") -> Text:
    from rich.text import Text

    from .render_recap import citation_text

    text = Text(prefix, style="bold") if prefix else Text()
    text.append(plain(beat.text), style=style)
    if director and beat.director_only:
        text.append("  (Director only)", style="bold red")
    if beat.cites:
        text.append("  " + citation_text(beat), style="dim")
    return text


def _print_recap(told: Recap, fmt: Format) -> None:
    from .render_recap import recap_markdown, scope_heading

    if fmt is Format.json:
        print_json(told.as_json())
        return
    if fmt is Format.md:
        typer.echo(recap_markdown(told), nl=False)
        return
    from rich.text import Text

    console = stdout_console()
    console.print(Text(plain(f"{told.title}: {told.scope.label}", lines=False), style="bold"))
    console.print(
        Text(plain(f"{told.campaign} · branch {told.branch} · {scope_heading(told.scope)}", lines=False), style="dim")
    )
    if told.director:
        console.print(Text("Director's copy: lines marked (Director only) are not for the Stars.", style="bold red"))
    console.print()
    console.print(_line(told.opening, told.director, style="italic"))
    if told.fork is not None:
        f = told.fork
        fork_text = Text(plain(f.text), style="magenta")
        if f.cites:
            fork_text.append("  [" + ", ".join(f"#{c.version}" for c in f.cites) + "]", style="dim")
        console.print(fork_text)
        if f.here:
            console.print(Text("Since then, on this timeline:"))
            for beat in f.here:
                console.print(_line(beat, told.director, prefix="  ◦ "))
        if f.there:
            console.print(Text(plain(f"Meanwhile, on '{f.parent}':", lines=False)))
            for beat in f.there:
                console.print(_line(beat, told.director, prefix="  ◦ "))
    console.print()
    for beat in told.beats:
        console.print(_line(beat, told.director, prefix="• "))
    if not told.beats:
        console.print(Text("• Nothing of note happened."))
    if told.omitted:
        console.print(
            Text(
                f"({told.omitted} lesser moment{'s' if told.omitted != 1 else ''} left out; --max-lines shows more)",
                style="dim",
            )
        )
    if told.cliffhanger is not None:
        console.print()
        console.print(_line(told.cliffhanger, told.director, prefix="Cliffhanger: ", style="bold"))


def _print_comparison(c: Comparison, fmt: Format) -> None:
    from .render_recap import comparison_markdown

    if fmt is Format.json:
        print_json(c.as_json())
        return
    if fmt is Format.md:
        typer.echo(comparison_markdown(c), nl=False)
        return
    from rich.table import Table
    from rich.text import Text

    console = stdout_console()
    shared = f"#1 to #{c.divergence}" if c.divergence else "no event"
    console.print(Text(plain(f"Two timelines of {c.title}", lines=False), style="bold"))
    console.print(Text(plain(f"{c.campaign} · {c.a.branch} and {c.b.branch} share {shared}", lines=False), style="dim"))
    console.print()
    console.print(_line(c.opening, c.director, style="italic"))
    table = Table(show_lines=True)
    table.add_column(markup(f"{c.a.branch} (to #{c.a.head})", lines=False), ratio=1)
    table.add_column(markup(f"{c.b.branch} (to #{c.b.head})", lines=False), ratio=1)
    for i in range(max(len(c.a.beats), len(c.b.beats))):
        left = _line(c.a.beats[i], c.director) if i < len(c.a.beats) else Text("")
        right = _line(c.b.beats[i], c.director) if i < len(c.b.beats) else Text("")
        table.add_row(left, right)
    if c.a.cliffhanger or c.b.cliffhanger:
        table.add_row(
            _line(c.a.cliffhanger, c.director, prefix="Cliffhanger: ") if c.a.cliffhanger else Text("—"),
            _line(c.b.cliffhanger, c.director, prefix="Cliffhanger: ") if c.b.cliffhanger else Text("—"),
        )
    if not table.rows:
        table.add_row(Text("Nothing of note since."), Text("Nothing of note since."))
    console.print(table)


def register(root: typer.Typer) -> None:
    root.command("recap")(recap)
