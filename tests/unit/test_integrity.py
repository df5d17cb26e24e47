"""The hash chain's pieces: digests as players keep them, the link hash, canonical JSON."""

from __future__ import annotations

import codecs
import hashlib
import json
import re
import uuid

import pytest
from eventsourcing.persistence import StoredEvent
from hypothesis import given
from hypothesis import strategies as st

from showrunner_ledger.ledger.codec import decode_document
from showrunner_ledger.ledger.errors import UnreadableEvent
from showrunner_ledger.ledger.integrity import (
    GENESIS_HASH,
    HASH_TAG,
    Digest,
    canonical_json,
    chain_hash,
    hashed_fields,
)

HASH = "3f9a" + "0123456789abcdef" * 3 + "cafe" + "beef" + "f00d"
assert len(HASH) == 64


def fields(**overrides):
    base = dict(
        campaign="05493cfa-2bfd-4ce2-b88c-f9c9657a6ad5",
        branch="36ed1d31-62cd-48b3-b284-6b3bcaf75144",
        version=12,
        topic="showrunner/StarJoined",
        schema=1,
        timestamp="2025-03-01T20:15:00+00:00",
        recorded_by="director",
        visibility="public",
        command_id="c-1",
        payload={"sheet": {"name": "Mara Voss", "trinkets": ["glove"]}},
    )
    base.update(overrides)
    return hashed_fields(**base)


# ------------------------------------------------------------------ Digest


@pytest.mark.parametrize(
    "text, version",
    [
        (f"12:{HASH}", 12),
        (f"12:{HASH.upper()}", 12),
        (f"  7:{HASH}\n", 7),
        (f"0:{GENESIS_HASH}", 0),
        (f"100000:{HASH}", 100000),
    ],
)
def test_digest_parse_accepts(text, version):
    digest = Digest.parse(text)
    assert digest == Digest(version, HASH if "0:0000" not in text else GENESIS_HASH)
    assert digest.hash == digest.hash.lower()
    assert Digest.parse(str(digest)) == digest


def test_digest_str_round_trip():
    assert str(Digest(12, HASH)) == f"12:{HASH}"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "12",
        HASH,
        f"12-{HASH}",
        f":{HASH}",
        f"twelve:{HASH}",
        f"-1:{HASH}",
        f"1.5:{HASH}",
        f"12:{HASH[:-1]}",
        f"12:{HASH}0",
        f"12:{HASH[:-1]}g",
        f"12:{HASH[:32]} {HASH[33:]}",
        f"12:{HASH}:extra",
        "12:",
        f"\u0661\u0662:{HASH}",  # Arabic-Indic digits: isdigit() but not a version
        f"\u00b2:{HASH}",
    ],
)
def test_digest_parse_rejects(text):
    with pytest.raises(ValueError) as err:
        Digest.parse(text)
    message = str(err.value)
    assert "VERSION:HASH" in message
    assert f"'{text}'" in message


# ------------------------------------------------------------------ chain_hash


def test_chain_hash_is_the_documented_formula():
    expected = hashlib.sha256(HASH_TAG + HASH.encode() + canonical_json(fields())).hexdigest()
    assert chain_hash(HASH, fields()) == expected
    assert HASH_TAG.endswith(b"\x00")


def test_chain_hash_is_deterministic():
    first = chain_hash(GENESIS_HASH, fields())
    assert first == chain_hash(GENESIS_HASH, fields())
    assert len(first) == 64 and all(c in "0123456789abcdef" for c in first)
    # Key order in the input does not matter: the JSON is canonical.
    reordered = dict(reversed(list(fields().items())))
    assert chain_hash(GENESIS_HASH, reordered) == first


@pytest.mark.parametrize(
    "change",
    [
        {"campaign": "15493cfa-2bfd-4ce2-b88c-f9c9657a6ad5"},
        {"branch": "46ed1d31-62cd-48b3-b284-6b3bcaf75144"},
        {"version": 13},
        {"topic": "showrunner/StarLeft"},
        {"schema": 2},
        {"timestamp": "2025-03-01T20:15:01+00:00"},
        {"recorded_by": "jo"},
        {"visibility": "director"},
        {"command_id": "c-2"},
        {"payload": {"sheet": {"name": "Mora Voss", "trinkets": ["glove"]}}},
        {"payload": {"sheet": {"name": "Mara Voss", "trinkets": ["glove", "ring"]}}},
        {"payload": {"sheet": {"name": "Mara Voss", "trinkets": []}}},
    ],
    ids=lambda change: next(iter(change)),
)
def test_chain_hash_changes_with_every_field(change):
    assert chain_hash(GENESIS_HASH, fields(**change)) != chain_hash(GENESIS_HASH, fields())


def test_chain_hash_changes_with_the_previous_hash():
    base = chain_hash(GENESIS_HASH, fields())
    assert chain_hash(HASH, fields()) != base
    assert chain_hash("0" * 63 + "1", fields()) != base


def test_hashed_fields_cover_every_documented_field():
    assert set(fields()) == {
        "campaign",
        "branch",
        "version",
        "topic",
        "schema",
        "timestamp",
        "recorded_by",
        "visibility",
        "command_id",
        "payload",
    }


# ------------------------------------------------------------------ canonical JSON


def test_canonical_json_sorts_keys_without_spaces():
    document = {"b": 1, "a": {"d": [1, 2, {"z": None, "y": True}], "c": "x y"}}
    assert canonical_json(document) == b'{"a":{"c":"x y","d":[1,2,{"y":true,"z":null}]},"b":1}'


def test_canonical_json_is_utf8_not_escaped():
    assert canonical_json({"name": "Zoë ⛉"}) == '{"name":"Zoë ⛉"}'.encode()
    assert json.loads(canonical_json({"name": "Zoë ⛉"})) == {"name": "Zoë ⛉"}


def test_canonical_json_refuses_nan():
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})


# ------------------------------------------------------------------ reading a stored document

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def stored_row(state: bytes) -> StoredEvent:
    return StoredEvent(uuid.uuid4(), 7, "ledger/NoteRecorded", state)


@given(document=st.dictionaries(st.text(), JSON_VALUES, max_size=6), ascii_only=st.booleans())
def test_a_document_is_read_to_the_values_json_loads_reads(document, ascii_only):
    """The chain is recomputed from what is read: a value read otherwise would break a hash."""
    state = json.dumps(document, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    read = decode_document(stored_row(state))
    assert read == json.loads(state) and repr(read) == repr(json.loads(state))


@pytest.mark.parametrize(
    "state",
    [codecs.BOM_UTF8 + b'{"a":1}', '{"a":1}'.encode("utf-16"), b'{"a":"\\ud800"}'],
    ids=["byte-order mark", "utf-16", "lone surrogate"],
)
def test_a_document_only_json_loads_reads_is_still_read(state):
    assert decode_document(stored_row(state)) == json.loads(state)


@pytest.mark.parametrize("state", [b'{"a":1,}', b"[1]", b'{"a":"\xff"}', b""])
def test_a_document_json_loads_refuses_is_unreadable_in_its_words(state):
    try:
        json.loads(state)
        expected = "not a JSON object"
    except ValueError as e:
        expected = str(e)
    with pytest.raises(UnreadableEvent, match=re.escape(f"event #7 cannot be read ({expected})")):
        decode_document(stored_row(state))
