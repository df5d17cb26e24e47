"""Docs move with code: every topic a branch can hold is described in docs/reference/."""

from __future__ import annotations

from pathlib import Path

from showrunner_ledger.ledger.facts import branch_fact_types

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "reference"


def test_every_registered_topic_is_in_the_reference() -> None:
    text = "".join(page.read_text(encoding="utf-8") for page in sorted(REFERENCE.glob("*.md")))
    shipped = {t for t, cls in branch_fact_types().items() if cls.__module__.startswith("showrunner_ledger.")}
    assert len(shipped) > 40  # the tests' own fact classes are left out, not everything
    missing = sorted(topic for topic in shipped if f"`{topic}`" not in text)
    assert missing == [], f"describe these in docs/reference/events.md: {missing}"
