"""The aggregate: one stream of events with its folded state and its hash chain.

A `Stream` checks nothing itself: the domain decides which facts follow from a
command, and the stream records them, chaining each to the one before.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Protocol, TypedDict, TypeVar
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from pydantic import BaseModel, ConfigDict, SerializeAsAny

from ..domain.campaign import CampaignState
from ..domain.errors import DomainError
from ..domain.events import Fact, Visibility
from ..domain.rulesets import ruleset
from .codec import stored_bytes, stored_document
from .events import LedgerEvent
from .integrity import GENESIS_HASH, chain_hash, hashed_fields

S = TypeVar("S")

# How many recent command ids a stream remembers, to record a retried command once: enough
# for a reply lost in transit. An id the caller gave is found beyond it (ledger/command_ids.py).
COMMAND_MEMORY = 512


class Stamp(TypedDict):
    """What every event one command records carries alike: `Stream.record`'s envelope arguments."""

    recorded_by: str
    command_id: str
    timestamp: datetime


class Unsaved(Protocol):
    """What `Ledger.save_streams` saves: a stream's pending events, as rows, in one transaction."""

    @property
    def id(self) -> UUID: ...

    @property
    def version(self) -> int: ...

    pending: list[LedgerEvent]

    def collect_rows(self) -> list[StoredEvent]: ...


@dataclass
class Stream(Generic[S]):
    id: UUID
    campaign_id: UUID
    fold: Callable[[S, Fact], S]
    state: S
    version: int = 0
    head_hash: str = GENESIS_HASH
    recent_commands: dict[str, tuple[int, int]] = field(default_factory=dict)
    pending: list[LedgerEvent] = field(default_factory=list)
    rows: list[StoredEvent] = field(default_factory=list)
    """The pending events as they will be stored, encoded as they were recorded."""
    _ids: tuple[str, str] | None = field(default=None, init=False, repr=False, compare=False)
    _stamp: tuple[datetime, str] | None = field(default=None, init=False, repr=False, compare=False)

    def record(
        self,
        fact: Fact,
        *,
        recorded_by: str,
        command_id: str,
        timestamp: datetime,
        visibility: Visibility | None = None,
        command: dict[str, Any] | None = None,
    ) -> LedgerEvent:
        version = self.version + 1
        chosen_visibility = visibility or fact.default_visibility
        campaign, branch = self._spelled_ids()
        when = self._isoformat(timestamp)
        # One dump of the payload serves the hash and the stored document.
        payload = fact.model_dump(mode="json")
        fields = hashed_fields(
            campaign=campaign,
            branch=branch,
            version=version,
            topic=fact.topic,
            schema=fact.schema_version,
            timestamp=when,
            recorded_by=recorded_by,
            visibility=chosen_visibility,
            command_id=command_id,
            payload=payload,
            command=command,
        )
        prev_hash, hash_ = self.head_hash, chain_hash(self.head_hash, fields)
        event = LedgerEvent(
            originator_id=self.id,
            originator_version=version,
            campaign_id=self.campaign_id,
            timestamp=timestamp,
            recorded_by=recorded_by,
            visibility=chosen_visibility,
            command_id=command_id,
            prev_hash=prev_hash,
            hash=hash_,
            fact=fact,
            command=command,
        )
        self.advance(version, fact, hash_, command_id)
        self.pending.append(event)
        document = stored_document(
            campaign=campaign,
            schema=fact.schema_version,
            timestamp=when,
            recorded_by=recorded_by,
            visibility=chosen_visibility,
            command_id=command_id,
            prev_hash=prev_hash,
            hash=hash_,
            payload=payload,
            command=command,
        )
        self.rows.append(StoredEvent(self.id, version, fact.topic, stored_bytes(document)))
        return event

    def _spelled_ids(self) -> tuple[str, str]:
        """The campaign's and the stream's ids as every event recorded on the stream spells them."""
        if self._ids is None:
            self._ids = (str(self.campaign_id), str(self.id))
        return self._ids

    def _isoformat(self, timestamp: datetime) -> str:
        """`timestamp` as the events of one command spell it, worked out once for them all."""
        if self._stamp is None or self._stamp[0] is not timestamp:
            self._stamp = (timestamp, timestamp.isoformat())
        return self._stamp[1]

    def copy(self) -> Stream[S]:
        """A stream to record on, leaving this one as it is (its state is frozen; the rest is copied)."""
        copied = Stream(
            self.id,
            self.campaign_id,
            self.fold,
            self.state,
            self.version,
            self.head_hash,
            dict(self.recent_commands),
        )
        copied._ids = self._ids
        return copied

    def advance(self, version: int, fact: Fact, hash_: str, command_id: str) -> None:
        """Fold in the event at `version`: its fact, and its hash and command id for the chain."""
        self.state = self.fold(self.state, fact)
        self.version = version
        self.head_hash = hash_
        recent = self.recent_commands
        span = recent.pop(command_id, None)
        recent[command_id] = (version if span is None else span[0], version)
        while len(recent) > COMMAND_MEMORY:
            del recent[next(iter(recent))]

    def collect_rows(self) -> list[StoredEvent]:
        """The pending events' rows, for one save; the stream has none pending after."""
        rows, self.rows, self.pending = self.rows, [], []
        return rows


def fold_campaign(state: CampaignState, fact: Fact) -> CampaignState:
    apply = getattr(fact, "apply", None)
    folded = apply(state) if apply is not None else state
    if state.pending_roll is not None and folded.pending_roll is state.pending_roll:
        # A roll asked for holds the branch for one event: the next is its roll or its
        # withdrawal (audit holds it to that), after which nothing is pending.
        folded = folded.model_copy(update={"pending_roll": None})
    return folded


class BranchSnapshot(BaseModel):
    """A typed snapshot: the state comes back as its ruleset's model, not as dicts."""

    model_config = ConfigDict(frozen=True)

    version: int
    head_hash: str
    recent_commands: dict[str, tuple[int, int]]
    state: SerializeAsAny[CampaignState]

    @classmethod
    def load(cls, data: bytes | str) -> BranchSnapshot:
        """Read a stored snapshot; ValueError if it is not one this code can read."""
        raw = json.loads(data)
        try:
            state_type = ruleset(raw["state"]["pitch"]["ruleset"]).state_type
        except (KeyError, TypeError, DomainError) as e:
            raise ValueError(f"not a branch snapshot: {e}") from None
        return cls(
            version=raw.get("version"),
            head_hash=raw.get("head_hash"),
            recent_commands=raw.get("recent_commands"),
            state=state_type.model_validate(raw["state"]),
        )

    @classmethod
    def of(cls, stream: Stream[CampaignState]) -> BranchSnapshot:
        return cls(
            version=stream.version,
            head_hash=stream.head_hash,
            recent_commands=stream.recent_commands,
            state=stream.state,
        )
