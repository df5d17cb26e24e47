"""The error edge: run a command tree and turn what it raises into one line on stderr.

Apart from main.py so that a command which runs other commands (the demo) uses the same
edge without importing the whole command tree it belongs to.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Protocol

import typer

from .errors import ExitCode, classify


class CommandTree(Protocol):
    """What typer builds from an app (`typer.main.get_command`): something that runs on argv."""

    def main(
        self, args: Sequence[str] | None = ..., prog_name: str | None = ..., *, standalone_mode: bool = ...
    ) -> object: ...


def run_command(command: CommandTree, argv: list[str] | None) -> int:
    """Run `command` on `argv`; return the exit code. SHOWRUNNER_DEBUG=1 lets tracebacks through."""
    debug = os.environ.get("SHOWRUNNER_DEBUG", "") not in ("", "0")
    try:
        result = command.main(args=argv, prog_name="showrunner", standalone_mode=False)
    except KeyboardInterrupt:
        sys.stderr.write("showrunner: interrupted\n")
        return ExitCode.INTERRUPTED
    except typer.Abort:
        sys.stderr.write("showrunner: aborted\n")
        return ExitCode.INTERRUPTED
    except typer.TyperException as e:  # usage errors from the parser
        if debug:
            raise
        message = e.format_message() if hasattr(e, "format_message") else str(e)
        if not message.strip():  # `showrunner` alone: the help was printed, nothing to add
            return int(getattr(e, "exit_code", ExitCode.USAGE))
        context = getattr(e, "ctx", None)
        hint = f" (see '{context.command_path} --help')" if context is not None else ""
        sys.stderr.write(f"showrunner: {' '.join(message.split())}{hint}\n")
        return int(getattr(e, "exit_code", ExitCode.USAGE))
    except Exception as e:
        known = classify(e)
        if known is None or debug:
            raise
        code, message = known
        sys.stderr.write(f"showrunner: {message}\n")
        if code == ExitCode.ASKED and "--json" in (sys.argv[1:] if argv is None else argv):
            _print_asked(e)
        return code
    return result if isinstance(result, int) else ExitCode.OK


def _print_asked(asked: BaseException) -> None:
    """The request a Star's command was recorded as, for a script that asked for `--json`."""
    from ..ledger.errors import RollAskedFor
    from ..ledger.facts import RollRequested
    from .session import print_json

    assert isinstance(asked, RollAskedFor)
    event = asked.result.events[-1]
    fact = event.fact
    assert isinstance(fact, RollRequested)
    print_json(
        {
            "asked_for": {
                "event": event.version,
                "by": fact.by,
                "command": fact.command,
                "input": fact.input,
                "entropy": fact.entropy,
            }
        }
    )
