"""The ledger's own exceptions. Library errors are converted into these at the service edge."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .service import CommandResult


class LedgerError(Exception):
    """Something the ledger refuses; the message says what and what to do."""


class CampaignNotFound(LedgerError):
    pass


class CampaignExists(LedgerError):
    pass


class BranchNotFound(LedgerError):
    pass


class BranchExists(LedgerError):
    pass


class InvalidName(LedgerError, ValueError):
    """A campaign or branch name that does not follow the naming rule (a usage error)."""


class EventNotFound(LedgerError):
    pass


class NoCampaignSelected(LedgerError):
    pass


class LedgerBusy(LedgerError):
    """Another writer held the database past the lock timeout: try again."""


class CommandConflict(LedgerError):
    """Other writers kept changing the branch; the command was retried and gave up."""


class BadImport(LedgerError):
    """An export file that cannot be imported as it is; nothing was written."""


class SettingsError(LedgerError):
    pass


class HiddenFromStar(LedgerError):
    """A Star's command the rules decide on facts only the Director sees: the Director records it."""


class RegistryDamaged(LedgerError):
    """The registry of campaigns or branches does not hold together: it was changed outside the ledger."""


class UnreadableEvent(LedgerError):
    """A stored event that cannot be decoded: the log was damaged outside the ledger."""


class RollPending(LedgerError):
    """A Star's roll was asked for and not yet rolled: it holds the branch until it is rolled or withdrawn."""


class RollAskedFor(Exception):  # noqa: N818 - it names what happened; not an error, a result
    """A Star's command that rolls ledger dice, recorded as a request where the Director's key
    file is not: `result` holds the RollRequested event; the Director's machine rolls it."""

    def __init__(self, result: CommandResult, message: str) -> None:
        super().__init__(message)
        self.result = result
