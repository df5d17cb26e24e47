"""`showrunner recap`: "Previously On…", read from the log, safe to read aloud."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from . import completion
from .errors import Refused, UsageProblem
from .safe_text import markup, plain
from .session import print_json, session, stderr_console, stdout_console

if TYPE_CHECKING:
    from ..projections.recap import Comparison, Recap
    from ..projections.recap_story import Sentence


class Format(StrEnum):
    rich = "rich"
    md = "md"
    json = "json"
    html = "html"


class Length(StrEnum):
    short = "short"
    standard = "standard"
    long = "long"


def recap(
    ctx: typer.Context,
    episode: Annotated[
        int | None,
        typer.Option("--episode", "-e", min=1, help="Recap Episode N (default: the last Episode that ended)."),
    ] = None,
    since: Annotated[
        int | None, typer.Option("--since", min=1, help="Recap Episodes N to the last, as one story.")
    ] = None,
    season: Annotated[
        int | None, typer.Option("--season", min=1, help="Recap the whole of Season N, Episode by Episode.")
    ] = None,
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
    length: Annotated[
        Length,
        typer.Option("--length", "-l", help="short, standard or long: about 3, 6 or 12 beats (of each Episode told)."),
    ] = Length.standard,
    max_lines: Annotated[
        int | None,
        typer.Option(
            "--max-lines", "-n", min=1, max=1000, help="Exactly this many beats at most (instead of --length)."
        ),
    ] = None,
    fmt: Annotated[
        Format,
        typer.Option(
            "--format",
            "-f",
            help="rich (terminal), md (Markdown), json (each sentence with its citations) or html (a card).",
        ),
    ] = Format.rich,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON document on stdout (same as --format json).")
    ] = False,
    plain_text: Annotated[
        bool, typer.Option("--plain", help="Only the words to read aloud: no citations, no heading line.")
    ] = False,
    speak: Annotated[
        Path | None,
        typer.Option(
            "--speak",
            metavar="FILE",
            help="Also speak the recap into FILE (a WAV file), with espeak-ng.",
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """ "Previously On…": the last Episode told as a story to read aloud, ending on the Cliffhanger.

    The heaviest beats are chosen, then told in the order they happened, Scene by Scene. Every
    sentence cites the events it comes from (in the margin, or footnotes in Markdown); the same
    log always gives the same words. Nothing Director-only is included unless the Director asks
    (--director). On a fork, the recap says where it left its parent and what went differently.

    Examples: showrunner recap  ·  showrunner recap --length short --plain  ·  showrunner recap --compare main what-if
    """
    from ..projections.recap import branch_recap, build_comparison

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
    if plain_text and fmt is Format.json:
        raise UsageProblem("--plain leaves the citations out, and JSON always carries them: leave out one of the two")
    if speak is not None and compare is not None:
        raise UsageProblem("--speak speaks one recap; leave out --compare")
    speaker = espeak() if speak is not None else None
    if director and not s.is_director:
        raise Refused("only the Director can include Director-only events (--director)")
    if compare is not None:
        from ..projections.diff import divergence_version

        if fmt is Format.html:
            raise UsageProblem("--compare has no HTML card; use --format rich, md or json")
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
            branch_ids=(str(ref_a.branch.id), str(ref_b.branch.id)),
            length=length.value,
            max_lines=max_lines,
        )
        _print_comparison(comparison, fmt, not plain_text)
        return
    told = branch_recap(
        s.ledger,
        s.target(),
        director=director,
        episode=episode,
        since=since,
        season=season,
        length=length.value,
        max_lines=max_lines,
    )
    if speak is not None and speaker is not None:
        from .render_recap import spoken_text

        speak_into(speaker, spoken_text(told), speak)
    _print_recap(told, fmt, not plain_text)
    if speak is not None:
        from rich.text import Text

        stderr_console().print(Text(plain(f"spoke the recap into {speak}", lines=False)))


# ----------------------------------------------------------------------- speech


def espeak() -> str:
    """The espeak-ng program, or a refusal that says how to get it."""
    import shutil

    found = shutil.which("espeak-ng")
    if found is None:
        raise Refused("--speak needs espeak-ng, which is not installed (Debian: apt-get install espeak-ng)")
    return found


def speak_into(program: str, text: str, target: Path) -> None:
    """Speak `text` into the WAV file `target`: written beside it, then moved in place, so a
    failure leaves nothing behind."""
    import os
    import subprocess
    import tempfile

    folder = target.resolve().parent
    if not folder.is_dir():
        raise Refused(f"{target}: there is no folder {folder} to write it in")
    handle, partial = tempfile.mkstemp(prefix=".recap-", suffix=".wav", dir=folder)
    os.close(handle)
    try:
        done = subprocess.run(
            [program, "-w", partial, "--stdin"], input=text.encode("utf-8"), capture_output=True, check=False
        )
        if done.returncode != 0 or os.path.getsize(partial) == 0:
            problem = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise Refused(f"espeak-ng could not speak the recap ({problem[-1] if problem else done.returncode})")
        os.replace(partial, target)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)


# ----------------------------------------------------------------------- output


def _print_recap(told: Recap, fmt: Format, citations: bool) -> None:
    from .render_recap import margin, recap_markdown, scope_heading

    if fmt is Format.json:
        print_json(told.as_json())
        return
    if fmt is Format.md:
        typer.echo(recap_markdown(told, citations=citations), nl=False)
        return
    if fmt is Format.html:
        from .render_recap_html import recap_html

        typer.echo(recap_html(told, citations=citations), nl=False)
        return
    from rich.table import Table
    from rich.text import Text

    console = stdout_console()
    console.print(Text(plain(f"{told.title}: {told.scope.label}", lines=False), style="bold"))
    if citations:
        console.print(
            Text(
                plain(f"{told.campaign} · branch {told.branch} · {scope_heading(told.scope)}", lines=False), style="dim"
            )
        )
    if told.director:
        console.print(
            Text("Director's copy: sentences marked (Director only) are not for the Stars.", style="bold red")
        )
    console.print()
    if not citations:
        from .render_recap import read_aloud

        for i, words in enumerate(read_aloud(told)):
            if i:
                console.print()
            console.print(Text(" ".join(plain(t) for t in words), style="italic" if i == 0 else ""))
        return
    page = Table.grid(padding=(0, 2), expand=True)
    page.add_column(ratio=1)
    page.add_column(justify="right", no_wrap=True, style="dim")

    def said(sentence: Sentence, style: str = "") -> None:
        note = Text(margin(sentence))
        if told.director and sentence.director_only:
            note = Text("Director only ", style="bold red") + note
        page.add_row(Text(plain(sentence.text), style=style), note)

    said(told.story.opening, "italic")
    if told.fork is not None and told.fork.story:
        page.add_row("", "")
        for sentence in told.fork.story:
            said(sentence, "magenta")
    for paragraph in told.story.paragraphs:
        page.add_row("", "")
        if paragraph.heading:
            page.add_row(Text(plain(paragraph.heading, lines=False), style="bold underline"), "")
        for sentence in paragraph.sentences:
            said(sentence)
    if not told.story.paragraphs:
        page.add_row("", "")
        page.add_row(Text("Nothing of note happened."), "")
    if told.story.ending is not None:
        page.add_row("", "")
        said(told.story.ending, "bold")
    console.print(page)
    if told.omitted:
        from .render_recap import left_out

        console.print()
        console.print(Text(f"({left_out(told.omitted)})", style="dim"))


def _print_comparison(c: Comparison, fmt: Format, citations: bool) -> None:
    from .render_recap import comparison_markdown, margin, sides

    if fmt is Format.json:
        print_json(c.as_json())
        return
    if fmt is Format.md:
        typer.echo(comparison_markdown(c, citations=citations), nl=False)
        return
    from rich.table import Table
    from rich.text import Text

    console = stdout_console()
    shared = f"#1 to #{c.divergence}" if c.divergence else "no event"
    console.print(Text(plain(f"Two timelines of {c.title}", lines=False), style="bold"))
    if citations:
        console.print(
            Text(plain(f"{c.campaign} · {c.a.branch} and {c.b.branch} share {shared}", lines=False), style="dim")
        )
    console.print()
    console.print(Text(plain(c.opening.text), style="italic"))
    table = Table(show_lines=True)
    told = sides(c)
    for heading, _ in told:
        table.add_column(markup(heading, lines=False), ratio=1)
        if citations:
            table.add_column("", no_wrap=True, style="dim")

    def cells(story: Sequence[Sentence], i: int) -> list[Text]:
        if i >= len(story):
            return [Text(""), Text("")][: 2 if citations else 1]
        sentence = story[i]
        note = Text(margin(sentence))
        if c.director and sentence.director_only:
            note = Text("Director only ", style="bold red") + note
        return [Text(plain(sentence.text)), note][: 2 if citations else 1]

    rows = max(len(story) for _, story in told)
    for i in range(rows):
        table.add_row(*cells(told[0][1], i), *cells(told[1][1], i))
    if not rows:
        nothing = [Text("Nothing of note since."), Text("")][: 2 if citations else 1]
        table.add_row(*nothing, *nothing)
    console.print(table)


def register(root: typer.Typer) -> None:
    root.command("recap")(recap)
