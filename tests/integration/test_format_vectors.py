"""The test vectors shipped with docs/reference/ledger-format.md are what the ledger makes today.

They are made again here, by the real ledger with the same clock, ids and seeds, and compared
byte for byte: a change to the format cannot leave the document's vectors behind.
`UPDATE_VECTORS=1 pytest tests/integration/test_format_vectors.py` writes them instead.

The set made before dice v2 (docs/verify/vectors/v1/) is not made again: the ledger makes v2 rolls
now. It is held to what the code computes, value by value, so that rolls recorded by earlier
versions keep proving.
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from pathlib import Path
from typing import Any

import pytest

from showrunner_ledger.ledger.codec import fields_for_hash
from showrunner_ledger.ledger.dice import derive_face
from showrunner_ledger.ledger.facts import branch_fact_types
from showrunner_ledger.ledger.integrity import GENESIS_HASH, canonical_json, chain_hash
from showrunner_ledger.ledger.seeds import commitment
from showrunner_ledger.ledger.verification import CAMPAIGN_TAG
from tests.format_vectors import FILES, VECTORS, VECTORS_V1, make_vectors
from tests.verify_exports import read_lines


def test_the_shipped_vectors_are_what_the_ledger_makes(tmp_path: Path) -> None:
    made = make_vectors(tmp_path)
    if os.environ.get("UPDATE_VECTORS", "") not in ("", "0"):
        VECTORS.mkdir(parents=True, exist_ok=True)
        for name, text in made.items():
            (VECTORS / name).write_text(text, encoding="utf-8")
    for name in FILES:
        path = VECTORS / name
        assert path.exists(), f"{path} is missing: run this test with UPDATE_VECTORS=1 once and review it"
        assert made[name] == path.read_text(encoding="utf-8"), f"{name} is not what the ledger makes today"


def _expected(folder: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    return loaded


@pytest.mark.parametrize(("folder", "derivation"), [(VECTORS, "v2"), (VECTORS_V1, "v1")], ids=["v2", "v1"])
def test_each_set_holds_what_the_document_promises(folder: Path, derivation: str) -> None:
    expected = _expected(folder)
    assert [e["version"] for e in expected["events"]] == list(range(1, len(expected["events"]) + 1))
    assert any(not e["canonical"].isascii() for e in expected["events"])  # UTF-8 text in canonical JSON
    assert len(expected["forks"]) == 1
    assert len(expected["seeds"]) == 2 and all(s["opens"] for s in expected["seeds"])
    proven = [r for r in expected["rolls"] if "dice" in r]
    assert {r["derivation"] for r in proven} == {derivation}
    assert len({r["branch"] for r in proven}) == 2  # a ledger roll on each branch, each with its seed
    assert any(r["dice_commitment"] is None for r in expected["rolls"])  # and a table roll
    assert {d["sides"] for d in expected["rejection_sampling"]} >= {6, 10, 20}
    star = read_lines(folder / "export-star.jsonl")
    assert any(line.get("redacted") for line in star[1:])


def test_the_v2_set_holds_typed_and_made_entropy_and_rolls_asked_for() -> None:
    expected = _expected(VECTORS)
    assert expected["tags"]["dice_v2"] == "showrunner-ledger/dice/v2"
    entropies = [r["entropy"] for r in expected["rolls"] if r["derivation"] == "v2"]
    assert "Mara's lucky phrase: sardines at dawn" in entropies  # typed, recorded stripped
    assert sum(len(e) == 32 and set(e) <= set("0123456789abcdef") for e in entropies) >= 2  # made by the device
    settled = {r["settled_by"]["topic"]: r for r in expected["requests"]}
    assert set(settled) == {"showrunner/CheckRolled", "ledger/RollRequestWithdrawn"}  # one rolled, one withdrawn
    rolled = next(
        r for r in expected["rolls"] if r["version"] == settled["showrunner/CheckRolled"]["settled_by"]["version"]
    )
    assert rolled["entropy"] == settled["showrunner/CheckRolled"]["entropy"] and "dice" in rolled
    assert {d["derivation"] for d in expected["rejection_sampling"]} == {"v1", "v2"}


def test_the_v1_set_is_still_what_the_code_computes() -> None:
    """Rolls recorded before dice v2 keep proving: every hash, the chain, the fork link, the
    campaign digest, every seed and every v1 die of the frozen set, computed again."""
    expected = _expected(VECTORS_V1)
    lines = read_lines(VECTORS_V1 / "export.jsonl")
    prev = GENESIS_HASH
    for event, vector in zip(lines[1:], expected["events"], strict=True):
        stored = {k: v for k, v in event.items() if k not in ("branch", "version", "topic")}
        fields = fields_for_hash(event["branch"], event["version"], event["topic"], stored)
        assert canonical_json(fields).decode("utf-8") == vector["canonical"]
        assert vector["prev_hash"] == event["prev_hash"] == prev
        prev = chain_hash(prev, fields)
        assert prev == vector["hash"] == event["hash"]
    assert expected["head"] == f"{len(lines) - 1}:{prev}"
    (fork,) = expected["forks"]
    assert fork["parent_hash"] == expected["events"][fork["fork_version"] - 1]["hash"]
    document = expected["campaign_digest"]["canonical"].encode("utf-8")
    assert expected["campaign_digest"]["digest"].endswith(":" + hashlib.sha256(CAMPAIGN_TAG + document).hexdigest())
    for seed in expected["seeds"]:
        assert commitment(bytes.fromhex(seed["seed"])) == seed["commitment"]
    seeds = {s["commitment"]: bytes.fromhex(s["seed"]) for s in expected["seeds"]}
    dice = [(r, seeds[r["dice_commitment"]], die) for r in expected["rolls"] for die in r.get("dice", ())]
    dice += [(die, bytes.fromhex(die["seed"]), die) for die in expected["rejection_sampling"]]
    for record, seed, die in dice:
        face = derive_face(
            seed, uuid.UUID(record["branch"]), record["roll_number"], die["purpose"], die["index"], die["sides"]
        )
        assert face == die["face"]
    assert len(dice) > 10


def test_every_roll_record_keeps_its_dice_where_the_document_says() -> None:
    """ledger-format.md: a roll record's dice are at `rolls`, or at `resolution.rolls`; never both."""
    for topic, cls in branch_fact_types().items():
        if "roll_number" not in cls.model_fields:
            continue
        assert "dice_commitment" in cls.model_fields, topic
        resolution = cls.model_fields.get("resolution")
        nested = resolution is not None and "rolls" in getattr(resolution.annotation, "model_fields", {})
        assert ("rolls" in cls.model_fields) != nested, topic
