"""projections/ returns data: Markdown, HTML and the terminal are written in cli/ (render_*.py).

A read model that formats would tie every face to one way of showing it, and would have to
reach for the CLI's escaping: what it may not import (projections never import cli) is the
first sign, the renderers themselves (a `*_markdown` or `*_html` function, a page's markup,
a drawing or escaping library) the second.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FORMATTING_LIBRARIES = {"html", "markdown", "rich", "typer"}
RENDERER_SUFFIXES = ("_markdown", "_html", "_md")
MARKUP = ("<!DOCTYPE", "<html", "<div", "<span", "<style", "| --- |")


def _imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules an import names, relative ones spelled from the installed package."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level == 0:
        return [node.module or ""]
    if node.level == 1:
        return []  # another projections module
    # `from ..cli import x`, `from .. import cli`: out of projections/ into a sibling folder.
    return [f"showrunner_ledger.{node.module}"] if node.module else [f"showrunner_ledger.{a.name}" for a in node.names]


def _formatting_import(name: str) -> bool:
    return name.split(".")[0] in FORMATTING_LIBRARIES or f"{name}.".startswith("showrunner_ledger.cli.")


def formatting_in(source: str) -> list[str]:
    """What in a projections/ module's source renders text for a reader, sorted."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found += [f"imports {name}" for name in _imported(node) if _formatting_import(name)]
        elif isinstance(node, ast.FunctionDef) and node.name.endswith(RENDERER_SUFFIXES):
            found.append(f"renderer {node.name}()")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [f"markup {tag!r}" for tag in MARKUP if tag in node.value]
            if _formatting_import(node.value):  # a module named to import_module
                found.append(f"imports {node.value}")
    return sorted(found)


def test_projections_hold_no_renderer():
    files = sorted((REPO / "projections").glob("*.py"))
    assert len(files) >= 5
    offenders = {path.name: findings for path in files if (findings := formatting_in(path.read_text(encoding="utf-8")))}
    assert not offenders, f"projections/ returns data; render it in cli/: {offenders}"


def test_the_check_finds_a_renderer():
    source = (
        "import html\n"
        "from rich.text import Text\n"
        "from ..cli.safe_text import plain\n"
        "from .. import cli\n"
        "from .log import visible\n"
        "from ..ledger.events import LedgerEvent\n"
        "def loader():\n"
        "    return __import__('importlib').import_module('showrunner_ledger.cli.recap')\n"
        "def recap_markdown(recap):\n"
        "    return '| --- | --- |'\n"
        "def timeline_html(rows):\n"
        "    return '<!DOCTYPE html>\\n<div class=\"row\">'\n"
    )
    assert formatting_in(source) == sorted(
        [
            "imports html",
            "imports rich.text",
            "imports showrunner_ledger.cli.safe_text",
            "imports showrunner_ledger.cli",
            "imports showrunner_ledger.cli.recap",
            "renderer recap_markdown()",
            "renderer timeline_html()",
            "markup '| --- |'",
            "markup '<!DOCTYPE'",
            "markup '<div'",
        ]
    )


def test_the_data_the_renderers_draw_passes():
    source = (
        "from .log import visible\ndef timeline_rows(tracks):\n    return [Row('main', 0, 'head', 3, 'main at #3')]\n"
    )
    assert formatting_in(source) == []
