"""The ledger's encoders make their C encoder once: the text must be what `JSONEncoder.encode` gives."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showrunner_ledger.ledger.codec import stored_bytes
from showrunner_ledger.ledger.integrity import canonical_json, one_shot

SCALARS = st.none() | st.booleans() | st.integers() | st.text() | st.floats(allow_nan=False, allow_infinity=False)
DOCUMENTS = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4), max_leaves=30
)


@given(st.dictionaries(st.text(), DOCUMENTS, max_size=6))
def test_the_text_is_what_encode_gives(document):
    assert canonical_json(document) == json.dumps(
        document, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")
    assert stored_bytes(document) == json.dumps(document, separators=(",", ":")).encode()


def test_every_setting_is_kept():
    document = {"b": [1.5, float("nan"), None, True], "a": "Zoë\n\u2028\U0001f600"}
    for encoder in (
        json.JSONEncoder(),
        json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":")),
        json.JSONEncoder(indent=2),  # indented: left to `encode`
    ):
        assert one_shot(encoder)(document) == encoder.encode(document)
    with pytest.raises(ValueError, match="Out of range float"):
        canonical_json(document)
