"""The test vectors shipped with docs/reference/ledger-format.md are what the ledger makes today.

They are made again here, by the real ledger with the same clock, ids and seeds, and compared
byte for byte: a change to the format cannot leave the document's vectors behind.
`UPDATE_VECTORS=1 pytest tests/integration/test_format_vectors.py` writes them instead.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from showrunner_ledger.ledger.facts import branch_fact_types
from tests.format_vectors import FILES, VECTORS, make_vectors


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


def test_the_vectors_hold_what_the_document_promises() -> None:
    expected = json.loads((VECTORS / "expected.json").read_text(encoding="utf-8"))
    assert [e["version"] for e in expected["events"]] == list(range(1, len(expected["events"]) + 1))
    assert any(not e["canonical"].isascii() for e in expected["events"])  # UTF-8 text in canonical JSON
    assert len(expected["forks"]) == 1
    assert len(expected["seeds"]) == 2 and all(s["opens"] for s in expected["seeds"])
    proven = [r for r in expected["rolls"] if "dice" in r]
    assert len({r["branch"] for r in proven}) == 2  # a ledger roll on each branch, each with its seed
    assert any(r["dice_commitment"] is None for r in expected["rolls"])  # and a table roll
    assert {d["sides"] for d in expected["rejection_sampling"]} == {6, 10, 20}
    star = [json.loads(line) for line in (VECTORS / "export-star.jsonl").read_text(encoding="utf-8").splitlines()]
    assert any(line.get("redacted") for line in star[1:])


def test_every_roll_record_keeps_its_dice_where_the_document_says() -> None:
    """ledger-format.md: a roll record's dice are at `rolls`, or at `resolution.rolls`; never both."""
    for topic, cls in branch_fact_types().items():
        if "roll_number" not in cls.model_fields:
            continue
        assert "dice_commitment" in cls.model_fields, topic
        resolution = cls.model_fields.get("resolution")
        nested = resolution is not None and "rolls" in getattr(resolution.annotation, "model_fields", {})
        assert ("rolls" in cls.model_fields) != nested, topic
