"""`showrunner note`: narration in the log, or a Director's private note."""

from __future__ import annotations

from typing import Annotated

import typer

from .errors import Refused
from .options import JsonOption, writes
from .session import print_json, session, stdout_console


@writes
def note(
    ctx: typer.Context,
    text: Annotated[str, typer.Argument(help="The note.")],
    private: Annotated[
        bool, typer.Option("--private", help="Director only: no Star's log or export shows it.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Record a line of narration, or (Director only) a private note.

    Example: showrunner note --private "The harbourmaster is the informant"
    """
    s = session(ctx)
    if private and not s.is_director:
        raise Refused("only the Director can record private notes")
    if not text.strip():
        raise Refused("a note needs some text")
    ref = s.target()
    result = s.ledger.note(ref, text.strip(), private=private, by=s.recorded_by(ref))
    event = result.events[-1]
    if as_json:
        print_json({"branch": ref.branch.name, "version": event.version, "visibility": event.visibility})
        return
    stdout_console().print(f"#{event.version} noted" + (" (Director only)" if private else ""))


def register(root: typer.Typer) -> None:
    root.command("note")(note)
