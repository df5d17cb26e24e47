"""The event envelope: a domain fact at its place in a stream, with its hash chain.

A stored event is a *fact* (`domain.events.Fact`, a frozen pydantic payload named in
the past tense) inside an *envelope* (position, time, author, visibility, command id,
hash chain, the command that recorded it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from pydantic import BaseModel, ConfigDict, SerializeAsAny

from ..domain.events import Fact, Visibility


class LedgerEvent(BaseModel):
    """One immutable event in one stream. Its version is its address (`#128`)."""

    model_config = ConfigDict(frozen=True)

    originator_id: UUID
    originator_version: int
    campaign_id: UUID
    timestamp: datetime
    recorded_by: str
    visibility: Visibility
    command_id: str
    prev_hash: str
    hash: str
    fact: SerializeAsAny[Fact]
    command: dict[str, Any] | None = None
    """The command that recorded this event, as `{"name": ..., "input": {...}}` (and `"walked_away":
    true` when its chooser left after the roll), on one event of each command run through
    `Ledger.run`: the first, or the first Director-only one when the command recorded any, so a
    Star never reads the input of a command whose results were hidden from them."""

    @property
    def version(self) -> int:
        return self.originator_version

    @property
    def topic(self) -> str:
        return self.fact.topic

    @property
    def type_name(self) -> str:
        return type(self.fact).__name__

    @property
    def instead_of(self) -> dict[str, Any] | None:
        """On a what-if's alternative: the event it stands in for, `{"branch", "version", "hash"}`."""
        mark = (self.command or {}).get(COUNTERFACTUAL)
        return mark.get("instead_of") if isinstance(mark, dict) else None


REPLAYED = "replayed"
"""The command record's mark on a replayed command: the source event it replays."""
COUNTERFACTUAL = "counterfactual"
"""The command record's mark on a what-if's alternative: the source event it stands in for."""


def command_record(
    name: str, given: BaseModel, *, walked_away: bool = False, marks: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """What `LedgerEvent.command` holds: enough to decide the command again (`audit`), and, for a
    command recorded by a replay, what it replays or stands for (ledger/replay.py's `marks`)."""
    record: dict[str, Any] = {"name": name, "input": given.model_dump(mode="json")}
    if walked_away:
        record["walked_away"] = True
    if marks:
        record.update(marks)
    return record


def command_record_at(visibilities: Sequence[Visibility]) -> int:
    """Which of a command's events carries its record: the first Director-only one, else the first."""
    return next((i for i, visibility in enumerate(visibilities) if visibility == "director"), 0)
