"""A character made in this process equals the character read back from its event's JSON.

The ledger keeps what a command folded (snapshots, the kept head a `sheet` reads) and `verify`
compares it with a replay of the stored events: a model that came back different from its own
dump would show as a forged cache.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from showrunner_ledger.domain.rulesets import all_rulesets
from showrunner_ledger.domain.showrunner.sheet import StarSheet

POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")


def _read_back(model: BaseModel) -> BaseModel:
    return type(model).model_validate_json(model.model_dump_json())


@pytest.mark.parametrize("rules", all_rulesets(), ids=lambda r: r.name)
def test_every_example_character_reads_back_as_itself(rules) -> None:
    examples = Path(__import__(rules.package, fromlist=["_"]).__file__).parent / "examples"
    files = [p for p in sorted(examples.iterdir()) if p.suffix in rules.character_files]
    assert files, f"{rules.name} ships no example character"
    for path in files:
        character = rules.parse_character(path.read_bytes(), path.name)
        assert _read_back(character) == character
        assert rules.character_document(_read_back(character)) == rules.character_document(character)


def test_a_star_made_without_abilities_or_paths_has_them_all_as_read_back() -> None:
    made = StarSheet(name="Bo", influence={k: {"current": 1, "max": 2} for k in POOLS})
    assert len(made.abilities) == 10 and len(made.acclaim) == 4
    assert _read_back(made) == made
