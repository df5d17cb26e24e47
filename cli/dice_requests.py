"""`showrunner dice pending|resolve|withdraw`: rolls a Star asked for from their own device.

A Star whose device has no Director key file (a CLI per player over a shared PostgreSQL)
cannot derive ledger dice; the command is recorded as a request instead, with entropy made on
the Star's device, and the Director's machine rolls it. Until then the branch waits: its next
event must be that roll or its withdrawal (docs/explanation/fair-dice.md).
"""

from __future__ import annotations

import json
from typing import Any

import typer

from .errors import Refused
from .options import JsonOption, writes
from .session import print_json, session, stdout_console
from .world_common import report


def add_to(app: typer.Typer) -> None:
    app.command("pending")(pending)
    app.command("resolve")(writes(resolve))
    app.command("withdraw")(writes(withdraw))


def pending(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """The roll a Star asked for on this branch and the Director has not rolled yet, if any.

    Example: showrunner dice pending --json
    """
    s = session(ctx)
    ref = s.target()
    view = s.ledger.view(ref)
    asked = view.state.pending_roll
    document: dict[str, Any] = {"campaign": ref.campaign.name, "branch": ref.branch.name, "pending": None}
    if asked is not None:
        document["pending"] = {
            "event": view.version,
            "by": asked.by,
            "command": asked.command,
            "input": asked.input,
            "entropy": asked.entropy,
        }
    if as_json:
        print_json(document)
        return
    console = stdout_console()
    if asked is None:
        console.print(f"No roll is waiting on {ref.campaign.name}/{ref.branch.name}.", highlight=False)
        return
    # What was asked, without the input's empty defaults (every flag not given): --json has them all.
    given = {key: value for key, value in asked.input.items() if value not in (None, False, 0, "", [], {})}
    console.print(
        f"#{view.version} {asked.by} asked for a roll: {asked.command} {json.dumps(given, ensure_ascii=False)}",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    console.print(f"    entropy {asked.entropy}", markup=False, highlight=False, soft_wrap=True)
    console.print(
        "The Director rolls it with `showrunner dice resolve`; it can be withdrawn with `showrunner dice withdraw`.",
        highlight=False,
    )


def resolve(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """Director only: roll the roll a Star asked for, on this machine (it holds the key file).

    The command, its input and the Star's entropy are the ones the request recorded; the
    result is recorded as the Star's, as if they had rolled at this keyboard.

    Example: showrunner dice resolve
    """
    s = session(ctx)
    if not s.is_director:
        raise Refused("only the Director's machine can roll a roll asked for (drop --as)")
    ref = s.target()
    result = s.ledger.resolve_roll(ref)
    report(ref, result, as_json)


def withdraw(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """Withdraw the roll asked for on this branch, unrolled: the Star who asked, or the Director.

    Example: showrunner --as Mara dice withdraw
    """
    s = session(ctx)
    ref = s.target()
    result = s.ledger.withdraw_roll(ref, by=s.recorded_by(ref))
    report(ref, result, as_json)
