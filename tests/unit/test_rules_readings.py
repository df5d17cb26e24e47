"""Readings of the rulebook that no other test pins, and the promise that docs/rules.md keeps."""

from __future__ import annotations

import ast
import functools
import os
import re
from pathlib import Path

import pytest

from showrunner_ledger.domain.showrunner.state import EnsemblePool, ShowrunnerState

REPO = Path(__file__).resolve().parents[2]
POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")


def test_the_ensemble_pool_starts_with_one_of_each_at_maximum_one() -> None:
    ensemble = ShowrunnerState().ensemble
    assert ensemble == EnsemblePool()
    assert {p: getattr(ensemble, p) for p in POOLS} == dict.fromkeys(POOLS, 1)
    assert {p: getattr(ensemble, f"{p}_max") for p in POOLS} == dict.fromkeys(POOLS, 1)


@functools.cache  # a file is cited many times: parse it once
def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def test_every_test_named_in_rules_md_exists() -> None:
    """Each reading in docs/rules.md cites tests; a renamed or deleted test breaks the promise."""
    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    cited = re.findall(r"`(tests/[\w/]+\.py)::(test_\w+)`|`::(test_\w+)`", text)
    assert cited, "docs/rules.md cites no tests"
    missing = []
    current_file: Path | None = None
    for file, name, short in cited:
        if file:
            current_file = REPO / file
        assert current_file is not None, f"`::{short}` appears before any file in docs/rules.md"
        wanted = name or short
        if not current_file.exists() or wanted not in _test_names(current_file):
            missing.append(f"{current_file.relative_to(REPO)}::{wanted}")
    assert missing == []


def test_plot_armor_is_pushed_like_any_other_pool() -> None:
    from showrunner_ledger.domain.showrunner.influence import apply_spend, decide_spend
    from showrunner_ledger.domain.showrunner.sheet import Pool

    from ..conftest import example_star

    state = ShowrunnerState().with_star(example_star())  # Mara: Plot Armor 2/2, 1 exhausted
    spent = decide_spend(state, "Mara", "plot_armor", 3, push=True)
    assert (spent.from_pool, spent.exhausted) == (2, 1)
    after = apply_spend(state, spent)
    assert after.star("Mara").influence.plot_armor == Pool(current=0, max=1, exhausted=2)


def test_a_backstory_rewrite_never_marks_a_permanent_condition() -> None:
    """11.1D "trace another Condition X in pen" adds a box (docs/rules.md): no ✘ is locked in pen."""
    from showrunner_ledger.domain.dice import TableDice
    from showrunner_ledger.domain.showrunner import career as cr
    from showrunner_ledger.domain.showrunner.sheet import AbilityName, CareerPath, StarSheet

    influence = {p: {"current": 1, "max": 2} for p in POOLS}
    sheet = StarSheet.model_validate(
        {
            "name": "Ada",
            "influence": influence,
            "acclaim": {"destiny": cr.PATH_COST[CareerPath.DESTINY]},
            "abilities": {"fight": {"conditions": 3}},
        }
    )
    rewrites = cr.BackstoryRewrites(rewrites=(cr.Rewrite(what="clear_conditions", ability=AbilityName.FIGHT),))
    state = ShowrunnerState().with_star(sheet)
    after = cr.complete_path(state, "Ada", CareerPath.DESTINY, rewrites, TableDice({"backstory_rewrites": [6]}))
    fight = after.state.star("Ada").abilities[AbilityName.FIGHT]
    assert (fight.conditions, fight.locked_conditions) == (0, 0)


# ------------------------------------------------------------------ the Coverage table

COVERAGE_STATUSES = {"implemented", "partly", "reading", "not printed", "table's own", "planned"}

SHOWRUNNER_SECTIONS = (
    *(f"Chapter {n}" for n in range(17)),
    *("2.1", "2.2", "2.3", "4.1", "4.2", "4.3", "5.1", "5.2", "6.1", "6.2", "6.3", "6.4"),
    *("7.1", "7.2", "7.3", "7.4", "8.1", "8.2", "9.1", "9.2", "10.1", "10.2", "10.3", "11.1", "11.2"),
    *("12.1", "13.1", "13.2", "14.1", "14.2", "14.3", "15.1", "15.2", "15.3", "15.4"),
    *("16.1", "16.2", "16.3", "16.4", "16.5"),
    *(f"Appendix {letter}" for letter in "ABCDEFG"),
)
"""Every "Chapter N", "SECTION N.M" and "Appendix X" heading the Showrunner rulebook prints."""
RESONANCE_SECTIONS = (
    "Basic Gameplay",
    "Narrative",
    "Magic in Narrative",
    "Equipment",
    "Combat",
    "Major Harms and Removal from the Narrative",
    "Arcs and Scenes",
    "Index",
)
"""The d4 Resonance rulebook's headings, in its order (it numbers none)."""
POOL_SECTIONS = (
    "Resolving a Scene",
    "Resolution",
    "Attempt does not mean success",
    "The world does not scale to you",
    "Luck",
    "The rule at the heart of it",
)
"""The d10 Pool rulebook's headings, in its order."""


def _coverage_rows() -> list[list[str]]:
    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text.split("## Coverage", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [[c.strip() for c in row.strip().strip("|").split(" | ")] for row in rows[2:]]  # past the header


def test_the_coverage_table_opens_rules_md_with_an_allowed_status_in_every_row() -> None:
    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert text.split("\n## ", 1)[1].startswith("Coverage\n")
    rows = _coverage_rows()
    assert len(rows) > 60
    assert [r for r in rows if len(r) != 4] == []
    assert [r for r in rows if r[2] not in COVERAGE_STATUSES] == []
    assert "| missing |" not in text
    # An implemented row names a test that pins it (test_every_test_named_in_rules_md_exists checks it exists).
    assert [r[1] for r in rows if r[2] == "implemented" and "::test_" not in r[3]] == []


def test_every_section_of_the_rulebooks_has_a_coverage_row() -> None:
    covered: dict[str, list[str]] = {}
    for seed, section, _, _ in _coverage_rows():
        covered.setdefault(seed, []).append(section)
    showrunner = covered["Showrunner"]
    assert [w for w in SHOWRUNNER_SECTIONS if not any(s == w or s.startswith(w + " ") for s in showrunner)] == []
    assert any(s.startswith("Appendix H") for s in showrunner)  # named by 13.2 and 14.1, never printed
    assert covered["d4 Resonance"] == list(RESONANCE_SECTIONS)
    assert covered["d10 Pool"] == list(POOL_SECTIONS)


def test_the_section_lists_are_the_rulebooks_headings() -> None:
    """Against the rulebooks themselves, where SHOWRUNNER_TEST_SEEDS names their folder."""
    folder = os.environ.get("SHOWRUNNER_TEST_SEEDS")
    if not folder:
        pytest.skip("the rulebooks are not in the repository: set SHOWRUNNER_TEST_SEEDS to their folder")
    seeds = Path(folder)
    text = next(seeds.glob("000_*.txt")).read_text(encoding="utf-8")
    found = re.findall(r"^(Chapter \d+(?!\d)|SECTION (\d+\.\d+):|Appendix [A-Z](?![a-z]))", text, re.M)
    assert sorted(dict.fromkeys(number or heading for heading, number in found)) == sorted(SHOWRUNNER_SECTIONS)
    for number, sections in (("001", RESONANCE_SECTIONS), ("002", POOL_SECTIONS)):
        book = next(seeds.glob(f"{number}_*.txt")).read_text(encoding="utf-8")
        heads = [line.strip() for line in book.splitlines()]
        # A heading is a line of its own ("Narrative in <Game Name>" names the Narrative section).
        assert [s for s in sections if not any(h == s or h.startswith(s + " in ") for h in heads)] == []
