"""Exit codes and the one table that turns exceptions into a line on stderr."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    REFUSED = 1  # the rules or the data say no
    USAGE = 2  # the command line or the settings are wrong
    ASKED = 3  # a Star's roll was recorded as a request: the Director's machine rolls it
    BUSY = 75  # EX_TEMPFAIL: a lock was held past the timeout; try again
    INTERRUPTED = 130


class Refused(Exception):
    """Raised by commands for a refusal that no lower layer names (exit 1)."""


class UsageProblem(Exception):
    """Raised by commands for a bad combination of options (exit 2)."""


def classify(error: BaseException) -> tuple[ExitCode, str] | None:
    """The exit code and message for a known error; None for a bug."""
    # Imported here: the table must not make `showrunner --help` pay for the ledger.
    from ..domain.errors import DomainError
    from ..ledger.errors import InvalidName, LedgerBusy, LedgerError, RollAskedFor, SettingsError

    table: list[tuple[type[BaseException], ExitCode]] = [
        (RollAskedFor, ExitCode.ASKED),
        (LedgerBusy, ExitCode.BUSY),
        (SettingsError, ExitCode.USAGE),
        (InvalidName, ExitCode.USAGE),
        (UsageProblem, ExitCode.USAGE),
        (LedgerError, ExitCode.REFUSED),
        (DomainError, ExitCode.REFUSED),
        (Refused, ExitCode.REFUSED),
        (FileNotFoundError, ExitCode.REFUSED),
        (IsADirectoryError, ExitCode.REFUSED),
        (PermissionError, ExitCode.REFUSED),
    ]
    for kind, code in table:
        if isinstance(error, kind):
            return code, _one_line(error)
    from pydantic import ValidationError

    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return ExitCode.REFUSED, _shown(f"{where}: {first['msg']}" if where else first["msg"])
    if isinstance(error, UnicodeDecodeError):
        return ExitCode.REFUSED, f"the file is not UTF-8 text (byte {error.start})"
    return None


def _one_line(error: BaseException) -> str:
    if isinstance(error, OSError) and error.filename is not None:
        return _shown(f"{error.filename}: {error.strerror or error}")
    text = _shown(" ".join(str(error).split()))
    return text or type(error).__name__


def _shown(message: str) -> str:
    # A message may quote what was typed or recorded: it must not move the cursor or reorder the line.
    from .safe_text import plain

    return plain(message, lines=False)
