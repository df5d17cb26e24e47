"""The bytes the ledger stores and the hashes it chains are forever: pinned here for a few events.

Recording encodes each payload once for the hash and the stored document, and reading checks a
document from its bytes in one pass; both must keep to what was written before them.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID

from showrunner_ledger.domain.campaign import CampaignState
from showrunner_ledger.domain.showrunner.events import InfluenceSpent, StarJoined
from showrunner_ledger.domain.showrunner.influence import Spent
from showrunner_ledger.domain.showrunner.starfile import parse_star_file
from showrunner_ledger.ledger.codec import FactMapper, decode_document, event_from_document, stored_event
from showrunner_ledger.ledger.facts import NoteRecorded
from showrunner_ledger.ledger.streams import Stream

STAR = Path(__file__).resolve().parents[2] / "docs" / "examples" / "star-mara.toml"

# (hash, SHA-256 of the stored document, its length), as recorded before this test was written.
PINNED = [
    (
        "7d0fa698d9c2de022da6f80d6f546efe5ddd785c5041d14c4b2d3454da3f94f2",
        "cb8e5873a011a2ce8c721824b1ada0570ec4d33e9e7b0b7e272dc36397de0f5d",
        414,
    ),
    (
        "72be9939525eb6c00a966ecf679ef415570abdc478e9d24aaf6c2db6a4bbb5fa",
        "d2ecd5495f975bfecbcff113289f7536d5375987fc7853c82071a0304854ab78",
        3027,
    ),
    (
        "212cbbed52e2343569ff308f0560bfbc693ac403eeb6660ce9e0da6ceee5b7c8",
        "a6d5fc063dc2aa992da43006e0097c06bcbfc6e7d06c37ac00a83963adbaa39e",
        459,
    ),
]
NOTE_STORED = (
    b'{"campaign":"00000000-0000-0000-0000-000000000002","schema":1,'
    b'"timestamp":"2024-05-06T07:08:09.123456+00:00","recorded_by":"director","visibility":"public",'
    b'"command_id":"c0ffee","prev_hash":"' + b"0" * 64 + b'",'
    b'"hash":"7d0fa698d9c2de022da6f80d6f546efe5ddd785c5041d14c4b2d3454da3f94f2",'
    b'"payload":{"text":"Sc\\u00e8ne 1: the crew slips past \\u2014 \\u201cquietly\\u201d."}}'
)


def recorded() -> Stream[CampaignState]:
    star = parse_star_file(STAR.read_bytes(), source=STAR.name)
    stream = Stream(UUID(int=1), UUID(int=2), lambda state, fact: state, CampaignState())
    facts = [
        NoteRecorded(text="Scène 1: the crew slips past — “quietly”."),
        StarJoined(sheet=star),
        InfluenceSpent(spent=Spent(star=star.name, pool="grit", amount=1, from_pool=1, exhausted=0), reason="a parry"),
    ]
    timestamp = datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=UTC)
    for i, fact in enumerate(facts):
        command = {"name": "x", "input": {"n": i}} if i == 1 else None
        stream.record(fact, recorded_by="director", command_id="c0ffee", timestamp=timestamp, command=command)
    return stream


def test_recorded_events_store_and_hash_as_they_always_did():
    stream = recorded()
    assert stream.rows[0].state == NOTE_STORED
    found = [
        (e.hash, hashlib.sha256(r.state).hexdigest(), len(r.state))
        for e, r in zip(stream.pending, stream.rows, strict=True)
    ]
    assert found == PINNED
    # An event saved from elsewhere (an import) is encoded alike.
    assert [stored_event(e) for e in stream.pending] == stream.rows


def test_reading_from_the_bytes_gives_what_reading_the_old_way_gives():
    stream = recorded()
    mapper = FactMapper()
    for event, row in zip(stream.pending, stream.rows, strict=True):
        old_way = event_from_document(row.originator_id, row.originator_version, row.topic, decode_document(row))
        assert mapper.to_domain_event(row) == old_way == event
        assert mapper.to_fact(row) == (event.fact, event.hash, event.command_id)
        assert mapper.to_fact_decoded(row, decode_document(row)) == mapper.to_fact(row)
