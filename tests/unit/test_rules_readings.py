"""Readings of the rulebook that no other test pins, and the promise that docs/rules.md keeps."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

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
