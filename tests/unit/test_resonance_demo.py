"""The demo script and the docs of the d4 Resonance ruleset stay true to the code."""

from __future__ import annotations

import ast
import functools
import re
import shlex
from pathlib import Path

from showrunner_ledger.domain.resonance.ruleset import RESONANCE

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "domain" / "resonance" / "examples" / "demo.txt"


def _options(fields, dice) -> set[str]:
    names = set()
    for name, info in fields.items():
        flag = name.replace("_", "-")
        names.add(f"--{flag}")
        if info.annotation is bool:
            names.add(f"--no-{flag}")
    return names | {f"--{p.replace('_', '-')}" for p in dice}


def _lines() -> list[list[str]]:
    return [
        shlex.split(line)
        for line in DEMO.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def test_the_demo_starts_a_resonance_campaign_and_adds_the_example_characters():
    lines = _lines()
    assert lines[0][:2] == ["campaign", "new"] and lines[0][-2:] == ["--ruleset", "resonance"]
    added = [line[-1] for line in lines if line[:2] == ["star", "add"]]
    assert added == ["{examples}/kestrel.toml", "{examples}/orrin.json"]
    for path in added:
        assert (DEMO.parent / path.removeprefix("{examples}/")).is_file()
    for needed in (
        ["branch", "create", "what-if"],
        ["seed", "reveal"],
        ["verify"],
        ["audit", "--all", "--verify-dice"],
    ):
        assert any(line[: len(needed)] == needed for line in lines), needed


def test_every_check_and_action_line_uses_only_the_rulesets_options():
    check_options = _options(RESONANCE.check_input.model_fields, RESONANCE.table_dice)
    seen_actions = set()
    for line in _lines():
        if line[0] == "check":
            allowed, rest = check_options, line[2:]
        elif line[0] == "resonance":
            action = RESONANCE.actions[line[1]]
            seen_actions.add(line[1])
            allowed = _options(action.input.model_fields, action.table_dice)
            rest = line[3:] if "character" in action.input.model_fields else line[2:]
        else:
            continue
        given = {word for word in rest if word.startswith("--")}
        assert given <= allowed, (line, given - allowed)
    assert {"adversary", "initiative", "front", "move", "use-kit", "harm", "scene-end"} <= seen_actions


@functools.cache  # a file is cited many times: parse it once
def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def test_every_reading_in_the_rules_doc_is_pinned_by_a_test_that_exists():
    whole = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    text = whole.split("## The d4 Resonance ruleset", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith(("| rule", "| ---"))]
    assert len(rows) >= 20
    missing = []
    for row in rows:
        cited = re.findall(r"`(tests/[\w/]+\.py)::(test_\w+)`|`::(test_\w+)`", row)
        assert cited, f"a reading cites no test: {row[:80]}"
        current = None
        for file, name, short in cited:
            current = REPO / file if file else current
            assert current is not None, row[:80]
            if not current.exists() or (name or short) not in _tests_in(current):
                missing.append(f"{current.relative_to(REPO)}::{name or short}")
    assert missing == []


def test_the_reference_doc_shows_every_action_and_check_option():
    text = (REPO / "docs" / "reference" / "ruleset-resonance.md").read_text(encoding="utf-8")
    for name in RESONANCE.actions:
        assert f"showrunner resonance {name}" in text, name
    for field in RESONANCE.check_input.model_fields:
        if field != "character":
            assert f"--{field.replace('_', '-')}" in text, field
