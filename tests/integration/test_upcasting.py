"""The custom mapper runs each fact's upcasters (DESIGN pitfall 1) and refuses what it cannot read."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from eventsourcing.persistence import StoredEvent

from showrunner_ledger.domain import events
from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.events import Fact
from showrunner_ledger.ledger.codec import document_of, fields_for_hash
from showrunner_ledger.ledger.errors import UnreadableEvent
from showrunner_ledger.ledger.events import LedgerEvent
from showrunner_ledger.ledger.integrity import chain_hash
from showrunner_ledger.ledger.verification import verify_branch

TOPIC = "test/Upcasted"


@pytest.fixture
def upcasted() -> Iterator[type[Fact]]:
    class Upcasted(Fact, topic=TOPIC):
        """v1 had `name`; v2 calls it `title` and adds `rank`."""

        schema_version = 2
        title: str
        rank: int

        @classmethod
        def upcast_v1_v2(cls, payload: dict[str, Any]) -> dict[str, Any]:
            payload["title"] = payload.pop("name")
            payload["rank"] = 1
            return payload

    assert events.fact_class(TOPIC) is Upcasted
    yield Upcasted
    events.forget_topic(TOPIC)
    assert TOPIC not in events.known_topics()


def document(schema: int, payload: dict[str, Any], **overrides: Any) -> dict[str, Any]:
    doc = {
        "campaign": str(uuid.uuid4()),
        "schema": schema,
        "timestamp": "2025-03-01T20:15:00+00:00",
        "recorded_by": "director",
        "visibility": "public",
        "command_id": "c-1",
        "prev_hash": "0" * 64,
        "hash": "1" * 64,
        "payload": payload,
    }
    doc.update(overrides)
    return doc


def store(ledger, topic: str, doc: dict[str, Any], *, stream: uuid.UUID | None = None, version: int = 1) -> StoredEvent:
    stream = stream or uuid.uuid4()
    ledger.app.recorder.insert_events(
        [
            StoredEvent(
                originator_id=stream,
                originator_version=version,
                topic=topic,
                state=json.dumps(doc, separators=(",", ":")).encode(),
            )
        ]
    )
    (stored,) = ledger.app.recorder.select_events(stream, gt=version - 1, lte=version)
    return stored


def test_document_shape_matches_the_codec(upcasted):
    # The hand-written v1 documents below are shaped like the codec's own output.
    event = LedgerEvent(
        originator_id=uuid.uuid4(),
        originator_version=1,
        campaign_id=uuid.uuid4(),
        timestamp="2025-03-01T20:15:00+00:00",
        recorded_by="director",
        visibility="public",
        command_id="c-1",
        prev_hash="0" * 64,
        hash="1" * 64,
        fact=upcasted(title="x", rank=2),
    )
    assert set(document_of(event)) == set(document(1, {}))
    assert document_of(event)["schema"] == 2


def test_v1_event_is_upcast_to_v2(ledger, upcasted):
    stored = store(ledger, TOPIC, document(1, {"name": "Old Name"}))
    event = ledger.app.mapper.to_domain_event(stored)
    assert type(event.fact) is upcasted
    assert event.fact.title == "Old Name"
    assert event.fact.rank == 1
    assert event.topic == TOPIC


def test_v2_event_is_read_as_is(ledger, upcasted):
    # Running the v1->v2 step on a v2 payload would fail (no `name`): it must not run.
    stored = store(ledger, TOPIC, document(2, {"title": "New", "rank": 7}))
    event = ledger.app.mapper.to_domain_event(stored)
    assert (event.fact.title, event.fact.rank) == ("New", 7)


def test_upcast_event_in_a_branch_keeps_its_hash(ledger, upcasted):
    """The hash covers the payload as stored (v1): upcasting on read never breaks the chain."""
    entry = ledger.create_campaign(Pitch(title="Old Days"))
    main = ledger.resolve(entry)
    head = ledger.head(main)
    doc = document(1, {"name": "From v1"}, campaign=str(entry.id), prev_hash=head.hash)
    doc["hash"] = chain_hash(head.hash, fields_for_hash(main.branch.id, 2, TOPIC, doc))
    store(ledger, TOPIC, doc, stream=main.branch.id, version=2)

    report = verify_branch(ledger, main)
    assert report.ok, report.problem
    assert report.checked == 2 and report.head.hash == doc["hash"]
    event = ledger.event(main, 2)
    assert type(event.fact) is upcasted and event.fact.title == "From v1"
    assert event.hash == doc["hash"]
    assert ledger.view(main).version == 2


@pytest.mark.parametrize(
    "doc",
    [document(1, {"name": "Old Name"}), document(2, {"title": "New", "rank": 7})],
    ids=["upcast", "current"],
)
def test_a_decoded_document_is_read_as_its_stored_bytes_are(ledger, upcasted, doc):
    """verify decodes each row once, for its hash, and reads the fact from what it decoded."""
    stored = store(ledger, TOPIC, doc)
    assert ledger.app.mapper.to_fact_decoded(stored, json.loads(stored.state)) == ledger.app.mapper.to_fact(stored)


def test_a_decoded_document_not_matching_its_schema_is_refused_alike(ledger, upcasted):
    stored = store(ledger, TOPIC, document(2, {"title": "No rank"}))
    with pytest.raises(UnreadableEvent) as from_bytes:
        ledger.app.mapper.to_fact(stored)
    with pytest.raises(UnreadableEvent) as decoded:
        ledger.app.mapper.to_fact_decoded(stored, json.loads(stored.state))
    assert str(decoded.value) == str(from_bytes.value)


def test_newer_schema_is_refused(ledger, upcasted):
    stored = store(ledger, TOPIC, document(3, {"title": "Future", "rank": 1, "extra": True}))
    with pytest.raises(UnreadableEvent) as err:
        ledger.app.mapper.to_domain_event(stored)
    message = str(err.value)
    assert "event #1 (test/Upcasted) was written with schema v3" in message
    assert "newer than this version's v2" in message
    assert "upgrade showrunner-ledger" in message


def test_missing_upcaster_is_refused(ledger, upcasted):
    stored = store(ledger, TOPIC, document(0, {"name": "Ancient"}))
    with pytest.raises(UnreadableEvent) as err:
        ledger.app.mapper.to_domain_event(stored)
    assert "no upcaster from v0 to v1" in str(err.value)
    assert "event #1 (test/Upcasted)" in str(err.value)


def test_payload_not_matching_schema_is_refused(ledger, upcasted):
    stored = store(ledger, TOPIC, document(2, {"title": "No rank"}))
    with pytest.raises(UnreadableEvent) as err:
        ledger.app.mapper.to_domain_event(stored)
    assert "does not match its schema" in str(err.value)


def test_unknown_topic_is_refused(ledger):
    stored = store(ledger, "test/NoSuchFact", document(1, {"anything": 1}))
    with pytest.raises(UnreadableEvent) as err:
        ledger.app.mapper.to_domain_event(stored)
    message = str(err.value)
    assert "'test/NoSuchFact'" in message
    assert "does not know" in message


def test_forgotten_topic_is_unknown_again(ledger, upcasted):
    stored = store(ledger, TOPIC, document(2, {"title": "t", "rank": 1}))
    events.forget_topic(TOPIC)
    with pytest.raises(UnreadableEvent, match="does not know"):
        ledger.app.mapper.to_domain_event(stored)
