"""How events become stored bytes and back: the mapper eventsourcing is given.

eventsourcing's own mapper expects its dataclass events and module-path topics;
ours stores pydantic facts under explicit topics and runs each fact's upcasters.
"""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Mapper, StoredEvent, Transcoder
from pydantic import ValidationError

from ..domain.events import fact_class
from .errors import UnreadableEvent
from .events import LedgerEvent
from .integrity import hashed_fields


class _UnusedTranscoder(Transcoder):
    """The mapper writes canonical JSON itself; eventsourcing still wants a transcoder."""

    def encode(self, obj: Any) -> bytes:  # pragma: no cover - never called
        raise NotImplementedError

    def decode(self, data: bytes) -> Any:  # pragma: no cover - never called
        raise NotImplementedError


def document_of(event: LedgerEvent) -> dict[str, Any]:
    """The event as stored (minus the columns that hold branch, version and topic)."""
    return {
        "campaign": str(event.campaign_id),
        "schema": type(event.fact).schema_version,
        "timestamp": event.timestamp.isoformat(),
        "recorded_by": event.recorded_by,
        "visibility": event.visibility,
        "command_id": event.command_id,
        "prev_hash": event.prev_hash,
        "hash": event.hash,
        "payload": event.fact.model_dump(mode="json"),
        **({} if event.command is None else {"command": event.command}),
    }


def fields_for_hash(branch: UUID | str, version: int, topic: str, doc: dict[str, Any]) -> dict[str, object]:
    return hashed_fields(
        campaign=doc["campaign"],
        branch=str(branch),
        version=version,
        topic=topic,
        schema=doc["schema"],
        timestamp=doc["timestamp"],
        recorded_by=doc["recorded_by"],
        visibility=doc["visibility"],
        command_id=doc["command_id"],
        payload=doc["payload"],
        command=doc.get("command"),
    )


def decode_document(stored: StoredEvent) -> dict[str, Any]:
    try:
        doc = json.loads(stored.state)
        if not isinstance(doc, dict):
            raise ValueError("not a JSON object")
        return doc
    except (ValueError, UnicodeDecodeError) as e:
        raise UnreadableEvent(
            f"event #{stored.originator_version} cannot be read ({e}); the stored log was changed outside the ledger"
        ) from None


def event_from_document(branch: UUID, version: int, topic: str, doc: dict[str, Any]) -> LedgerEvent:
    try:
        cls = fact_class(topic)
    except KeyError:
        raise UnreadableEvent(
            f"event #{version} has the topic {topic!r}, which this version of "
            "showrunner-ledger does not know; upgrade showrunner-ledger"
        ) from None
    try:
        stored_schema = int(doc["schema"])
        if stored_schema > cls.schema_version:
            raise UnreadableEvent(
                f"event #{version} ({topic}) was written with schema v{stored_schema}, "
                f"newer than this version's v{cls.schema_version}; upgrade showrunner-ledger"
            )
        payload = cls.upcast(doc["payload"], stored_schema)
        return LedgerEvent(
            originator_id=branch,
            originator_version=version,
            campaign_id=UUID(doc["campaign"]),
            timestamp=doc["timestamp"],
            recorded_by=doc["recorded_by"],
            visibility=doc["visibility"],
            command_id=doc["command_id"],
            prev_hash=doc["prev_hash"],
            hash=doc["hash"],
            fact=cls.model_validate(payload),
            command=doc.get("command"),
        )
    except (KeyError, TypeError, ValueError, ValidationError) as e:
        if isinstance(e, UnreadableEvent):
            raise
        first = str(e).splitlines()[0]
        raise UnreadableEvent(
            f"event #{version} ({topic}) does not match its schema ({first}); "
            "the stored log was changed outside the ledger"
        ) from None


class FactMapper(Mapper[UUID]):
    def __init__(self) -> None:
        super().__init__(transcoder=_UnusedTranscoder())

    def to_stored_event(self, domain_event: LedgerEvent) -> StoredEvent:  # type: ignore[override]  # the ledger saves only LedgerEvents, never the library's own events
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=domain_event.topic,
            state=json.dumps(document_of(domain_event), separators=(",", ":")).encode(),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> LedgerEvent:
        branch = stored_event.originator_id
        branch = branch if isinstance(branch, UUID) else UUID(str(branch))
        return event_from_document(
            branch, stored_event.originator_version, stored_event.topic, decode_document(stored_event)
        )
