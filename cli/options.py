"""Options shared by every command."""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout instead of tables.")]


def _command_id(value: str | None) -> str | None:
    from ..ledger.command_ids import InvalidCommandId, check_command_id

    if value is None:
        return None
    try:
        return check_command_id(value)
    except InvalidCommandId as e:
        raise typer.BadParameter(str(e)) from None


CommandIdOption = Annotated[
    str | None,
    typer.Option(
        "--command-id",
        metavar="ID",
        envvar="SHOWRUNNER_COMMAND_ID",
        show_envvar=True,
        callback=_command_id,
        help="Run this once: a retry with the same ID and the same input records nothing new "
        "and reports the first record; other input under the same ID is refused.",
    ),
]

_GIVEN = "command_id_given"


def writes(command: Callable[..., Any]) -> Callable[..., Any]:
    """A command that records: it takes `--command-id`, and the ledger commands it runs record
    under that id. A replay says so on stderr (and `"replayed": true` in its `--json`)."""
    signature = inspect.signature(command, eval_str=True)
    parameters = [
        *signature.parameters.values(),
        inspect.Parameter(_GIVEN, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=CommandIdOption),
    ]

    @functools.wraps(command)
    def recording(*args: Any, **kwargs: Any) -> Any:
        from ..ledger.command_ids import given_command_id

        with given_command_id(kwargs.pop(_GIVEN)) as given:
            result = command(*args, **kwargs)
        if given.replayed is not None:
            first, last = given.replayed
            where = f"#{first}" if first == last else f"#{first}-#{last}"
            sys.stderr.write(
                f"showrunner: command id '{given.id}' was already recorded as {where}; nothing new was recorded\n"
            )
        return result

    recording.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]  # inspect.signature (so typer) reads it; a function's type does not declare it
    recording.__annotations__ = {p.name: p.annotation for p in parameters}
    return recording
