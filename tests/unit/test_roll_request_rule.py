"""ledger/requests.py: the event after a roll asked for, held to the request as the standalone
verifiers hold it (docs/reference/ledger-format.md, "Rolls asked for")."""

from __future__ import annotations

from typing import Any

import pytest

from showrunner_ledger.ledger.requests import unsettled

ASKED = {
    "command": "ability-check",
    "input": {"star": "Mara Voss", "push": False},
    "entropy": "e" * 32,
    "by": "Mara Voss",
}


def _roll(**changes: Any) -> dict[str, Any]:
    doc = {
        "recorded_by": "Mara Voss",
        "command": {"name": "ability-check", "input": {"star": "Mara Voss", "push": False}},
        "payload": {"roll_number": 3, "dice_commitment": "c" * 64, "dice_entropy": "e" * 32},
    }
    return doc | changes


def test_the_roll_asked_for_settles_it() -> None:
    assert unsettled(ASKED, "showrunner/CheckRolled", _roll()) is None


@pytest.mark.parametrize(
    ("doc", "says"),
    [
        (
            _roll(command={"name": "ability-check", "input": {"star": "Mara Voss", "push": 0}}),
            "not the command and input",
        ),
        (_roll(command={"name": "other", "input": ASKED["input"]}), "not the command and input"),
        (_roll(recorded_by="director"), "not as 'Mara Voss' who asked"),
        (_roll(payload={"roll_number": 3, "dice_commitment": "c" * 64, "dice_entropy": "x" * 32}), "other entropy"),
    ],
)
def test_anything_else_does_not(doc: dict[str, Any], says: str) -> None:
    """An input equal only to Python's == (0 for false) is another input: it hashes otherwise."""
    why = unsettled(ASKED, "showrunner/CheckRolled", doc)
    assert why is not None and says in why
