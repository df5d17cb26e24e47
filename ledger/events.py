"""The event envelope: a domain fact at its place in a stream, with its hash chain.

A stored event is a *fact* (`domain.events.Fact`, a frozen pydantic payload named in
the past tense) inside an *envelope* (position, time, author, visibility, command id,
hash chain).
"""

from __future__ import annotations

from datetime import datetime
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

    @property
    def version(self) -> int:
        return self.originator_version

    @property
    def topic(self) -> str:
        return self.fact.topic

    @property
    def type_name(self) -> str:
        return type(self.fact).__name__
