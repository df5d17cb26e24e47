"""How events become stored bytes and back: the mapper eventsourcing is given.

eventsourcing's own mapper expects its dataclass events and module-path topics;
ours stores pydantic facts under explicit topics and runs each fact's upcasters.
"""

from __future__ import annotations

import functools
import json
from typing import Any, NotRequired, cast
from uuid import UUID

from eventsourcing.persistence import Mapper, StoredEvent, Transcoder
from pydantic import TypeAdapter, ValidationError
from pydantic_core import from_json
from typing_extensions import TypedDict  # pydantic wants it on Python < 3.12

from ..domain.events import Fact, fact_class
from .errors import UnreadableEvent
from .events import LedgerEvent
from .integrity import hashed_fields, one_shot


class _UnusedTranscoder(Transcoder):
    """The mapper writes canonical JSON itself; eventsourcing still wants a transcoder."""

    def encode(self, obj: Any) -> bytes:  # pragma: no cover - never called
        raise NotImplementedError

    def decode(self, data: bytes) -> Any:  # pragma: no cover - never called
        raise NotImplementedError


def document_of(event: LedgerEvent, payload: dict[str, Any] | None = None) -> dict[str, Any]:
    """The event as stored (minus the columns that hold branch, version and topic).

    `payload`: the fact's JSON dump when the caller made it already (for the hash)."""
    return stored_document(
        campaign=str(event.campaign_id),
        schema=type(event.fact).schema_version,
        timestamp=event.timestamp.isoformat(),
        recorded_by=event.recorded_by,
        visibility=event.visibility,
        command_id=event.command_id,
        prev_hash=event.prev_hash,
        hash=event.hash,
        payload=event.fact.model_dump(mode="json") if payload is None else payload,
        command=event.command,
    )


def stored_document(
    *,
    campaign: str,
    schema: int,
    timestamp: str,
    recorded_by: str,
    visibility: str,
    command_id: str,
    prev_hash: str,
    hash: str,
    payload: dict[str, Any],
    command: dict[str, Any] | None,
) -> dict[str, Any]:
    """The stored document from its envelope's fields as text (`document_of`, or a stream
    recording an event, which has them already)."""
    document = {
        "campaign": campaign,
        "schema": schema,
        "timestamp": timestamp,
        "recorded_by": recorded_by,
        "visibility": visibility,
        "command_id": command_id,
        "prev_hash": prev_hash,
        "hash": hash,
        "payload": payload,
    }
    if command is not None:
        document["command"] = command
    return document


_stored_text = one_shot(json.JSONEncoder(separators=(",", ":")))


def stored_bytes(document: dict[str, Any]) -> bytes:
    """The stored form of a document: compact JSON, ASCII-escaped, keys in document order."""
    return _stored_text(document).encode()


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


def _parsed(data: bytes) -> object:
    """The JSON value of `data`, as `json.loads` reads it."""
    try:
        # pydantic's parser (the one the one-pass read validates with) reads a document in half
        # the time, to the same values; what it refuses (a byte-order mark, UTF-16, a lone
        # surrogate) `json.loads` reads, or refuses in its own words.
        return from_json(data)
    except ValueError:
        return json.loads(data)


def decode_document(stored: StoredEvent) -> dict[str, Any]:
    try:
        doc = _parsed(stored.state)
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
        envelope = _envelope({**doc, "campaign": UUID(doc["campaign"])})  # read first: a missing field is named first
        return LedgerEvent(
            originator_id=branch, originator_version=version, **envelope, fact=cls.model_validate(payload)
        )
    except (KeyError, TypeError, ValueError, ValidationError) as e:
        if isinstance(e, UnreadableEvent):
            raise
        first = str(e).splitlines()[0]
        raise UnreadableEvent(
            f"event #{version} ({topic}) does not match its schema ({first}); "
            "the stored log was changed outside the ledger"
        ) from None


def stored_event(event: LedgerEvent) -> StoredEvent:
    return StoredEvent(event.originator_id, event.originator_version, event.topic, stored_bytes(document_of(event)))


_ENVELOPE = {
    "campaign": "campaign_id",
    "timestamp": "timestamp",
    "recorded_by": "recorded_by",
    "visibility": "visibility",
    "command_id": "command_id",
    "prev_hash": "prev_hash",
    "hash": "hash",
}
"""The stored document's envelope keys, and the LedgerEvent field each is read into."""


def _envelope(doc: dict[str, Any]) -> dict[str, Any]:
    """A stored document's envelope, as `LedgerEvent`'s fields."""
    return {field: doc[key] for key, field in _ENVELOPE.items()} | {"command": doc.get("command")}


@functools.cache
def _document_validator(cls: type[Fact]) -> Any:
    """The stored document of a `cls` event at its current schema, checked from the bytes in one
    pass: the envelope as `LedgerEvent` types it, and the payload as `cls`. About as fast as
    `json.loads` alone, where reading into dicts, then validating, then building the envelope took
    four times as long. The validator itself, not its adapter: a replay calls it once per event."""
    # Typed as LedgerEvent types the same fields (taken from it, not named again: under a
    # patched clock, `datetime` here may not be the class LedgerEvent was built with).
    envelope = {name: LedgerEvent.model_fields[field].annotation for name, field in _ENVELOPE.items()}
    # Made per fact class, its payload typed as `cls`: out of a type checker's sight.
    document = cast(Any, TypedDict)(
        "StoredDocument",
        {
            **envelope,
            "schema": int,
            "payload": cls,
            "command": NotRequired[dict[str, Any] | None],  # as LedgerEvent.command
        },
    )
    return TypeAdapter[dict[str, Any]](document).validator


def read_document(stored: StoredEvent) -> dict[str, Any] | None:
    """The stored document, its payload validated into its fact, when it is at its fact's current
    schema and valid as it stands; None otherwise: `event_from_document` then reads it as it
    always did, upcasting an older payload and naming what is wrong with a damaged one."""
    try:
        doc = _document_validator(fact_class(stored.topic)).validate_json(stored.state)
    except (KeyError, ValidationError):
        return None
    return _at_current_schema(doc)


def read_decoded(topic: str, decoded: dict[str, Any]) -> dict[str, Any] | None:
    """`read_document` of a document already decoded from its JSON, for a reader that needed its
    values first (`verify` hashes them): the same checks, validated from the decoded values."""
    try:
        doc = _document_validator(fact_class(topic)).validate_python(decoded)
    except (KeyError, ValidationError):
        return None
    return _at_current_schema(doc)


def _at_current_schema(doc: dict[str, Any]) -> dict[str, Any] | None:
    return doc if doc["schema"] == type(doc["payload"]).schema_version else None


class FactMapper(Mapper[UUID]):
    def __init__(self) -> None:
        super().__init__(transcoder=_UnusedTranscoder())

    def to_stored_event(self, domain_event: LedgerEvent) -> StoredEvent:  # type: ignore[override]  # the ledger saves only LedgerEvents, never the library's own events
        return stored_event(domain_event)

    def to_fact(self, stored_event: StoredEvent) -> tuple[Fact, str, str]:
        """What folding a stored event needs, checked as `to_domain_event` checks it: its fact,
        hash and command id (building the whole envelope took a third of a replay)."""
        doc = read_document(stored_event)
        if doc is None:
            event = self.to_domain_event(stored_event)
            return event.fact, event.hash, event.command_id
        return doc["payload"], doc["hash"], doc["command_id"]

    def to_fact_decoded(self, stored_event: StoredEvent, decoded: dict[str, Any]) -> tuple[Fact, str, str]:
        """`to_fact` of a stored event whose document `decoded` was decoded already: its JSON is
        not parsed a second time."""
        doc = read_decoded(stored_event.topic, decoded)
        if doc is None:
            branch = stored_event.originator_id
            event = event_from_document(
                branch if isinstance(branch, UUID) else UUID(str(branch)),
                stored_event.originator_version,
                stored_event.topic,
                decoded,
            )
            return event.fact, event.hash, event.command_id
        return doc["payload"], doc["hash"], doc["command_id"]

    def to_domain_event(self, stored_event: StoredEvent) -> LedgerEvent:
        branch = stored_event.originator_id
        branch = branch if isinstance(branch, UUID) else UUID(str(branch))
        doc = read_document(stored_event)
        if doc is None:
            return event_from_document(
                branch, stored_event.originator_version, stored_event.topic, decode_document(stored_event)
            )
        return LedgerEvent(
            originator_id=branch,
            originator_version=stored_event.originator_version,
            **_envelope(doc),
            fact=doc["payload"],
        )
