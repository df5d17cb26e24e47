"""`showrunner demo`, the README's two commands, and `--help` on every command."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import typer

from showrunner_ledger.cli.demo import _script
from showrunner_ledger.cli.main import app
from tests.e2e.conftest import REPO, assert_refused

GROUPS = ("campaign", "star", "branch", "seed")
STEP = r"\$ showrunner (\S+(?: (?:new|add|create|diff|use|reveal))?)"
# The demo's steps, as its script lists them ("branch diff", "spend", ...).
DEMO_COMMANDS = [
    " ".join(argv[2:4]) if argv[2] in GROUPS else argv[2]
    for argv in _script("showrunner_ledger.domain.showrunner", Path("demo.sqlite"), Path("cast"))
]
# What the demo must show, in this order.
SHOWN = [
    "campaign new",
    "star add",
    "spend",
    "check",
    "regain",
    "sheet",
    "log",
    "replay",
    "audit",
    "branch create",
    "branch diff",
    "seed reveal",
    "head",
    "verify",
]
# Where the steps whose output the tests read stand in the script.
LOG, REPLAY, DIFF = (DEMO_COMMANDS.index(name) for name in ("log", "replay", "branch diff"))


def test_the_demo_shows_the_whole_flow_in_order() -> None:
    positions = [DEMO_COMMANDS.index(step) for step in SHOWN]
    assert positions == sorted(positions), DEMO_COMMANDS
    assert DEMO_COMMANDS.count("star add") == 2
    assert "--private" in [
        a for argv in _script("showrunner_ledger.domain.showrunner", Path("demo.sqlite"), Path("cast")) for a in argv
    ]


def _command_paths() -> list[tuple[str, ...]]:
    """Every command and group under `showrunner`, found from the CLI itself."""
    paths: list[tuple[str, ...]] = []

    def walk(command, prefix: tuple[str, ...]) -> None:
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            paths.append((*prefix, name))
            walk(sub, (*prefix, name))

    walk(typer.main.get_command(app), ())
    return paths


@pytest.fixture
def tmpdir_env(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A TMPDIR of the test's own, to see that the demo cleans up after itself."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    return folder, {"TMPDIR": str(folder)}


def test_demo_with_the_real_script(cli, home: Path, tmpdir_env) -> None:
    tmp, env = tmpdir_env
    result = cli("demo", db=None, env=env)
    assert result.code == 0, result
    out = result.out
    # Every step is announced, in order.
    steps = re.findall(STEP, out)
    assert steps == DEMO_COMMANDS
    # The sheet, the log, the checks and their audits, the replay, the fork, the diff,
    # the reveal that proves the ledger dice, the digest and verify.
    # 11 events before the sheet, 12 when the ledger-dice check filled a milestone (crossed in its save).
    logged = int(re.search(r"neon-harbor/main — page 1 of 1 \((\d+) events\)", out).group(1))
    assert logged in (11, 12)
    assert f"Star Profile · main #{logged}" in out and "Mara Voss" in out
    assert "The harbourmaster is the informant (director only)" in out
    assert "Neon Harbor — main as of #6" in out
    assert "MATCHES the record" in out
    assert "Created branch what-if from main at #6 and switched to it." in out
    assert re.search(r"main and what-if share events #1 to #6 \(hash [0-9a-f]{12}\)", out)
    assert re.search(r"Sheet differences \(\d+\)", out)
    assert "OK: every roll MATCHES the record and every ledger roll is proven." in out
    assert re.search(rf"^{logged + 2}:[0-9a-f]{{64}}$", out, re.MULTILINE)  # after the reveal's two events
    assert f"OK: {logged + 2} events of main verified." in out
    # The user's folders are untouched, and the throwaway campaign is gone.
    assert list((home / "data").iterdir()) == []
    assert list((home / "config").iterdir()) == []
    assert list(tmp.iterdir()) == []


def test_demo_json(cli, home: Path, tmpdir_env) -> None:
    tmp, env = tmpdir_env
    result = cli("demo", "--json", db=None, env=env)
    assert result.code == 0, result
    doc = result.json()  # one JSON document: the steps' own documents are inside it
    assert set(doc) == {"steps", "kept"}
    assert doc["kept"] is None
    steps = doc["steps"]
    assert [re.match(STEP.replace("\\$ ", ""), s["command"]).group(1) for s in steps] == DEMO_COMMANDS
    assert [s["exit_code"] for s in steps] == [0] * len(DEMO_COMMANDS)
    assert steps[-1]["output"]["ok"] is True
    logged = steps[LOG]["output"]["total"]
    assert logged == 11 + sum(e["type"] == "MilestonesReached" for e in steps[LOG]["output"]["events"])
    assert steps[-1]["output"]["checked"] == logged + 2
    assert steps[-2]["output"]["digest"] == f"{logged + 2}:{steps[-1]['output']['head']['hash']}"
    assert steps[REPLAY]["output"]["as_of"] == 6
    assert steps[DIFF]["output"]["divergence"]["version"] == 6
    assert list((home / "data").iterdir()) == []
    assert list((home / "config").iterdir()) == []
    assert list(tmp.iterdir()) == []


def test_demo_keep_leaves_a_campaign_to_explore(cli, tmp_path: Path) -> None:
    keep = tmp_path / "demo-campaign"
    result = cli("demo", "--keep", keep, db=None)
    assert result.code == 0, result
    assert (keep / "demo.sqlite").is_file()
    hint = re.search(r"try `(showrunner [^`]+)`", " ".join(result.out.split()))
    assert hint, result.out
    argv = shlex.split(hint.group(1))[1:]
    # The hint works from the user's own settings, not the demo's.
    explored = cli(*argv, "--json", db=None)
    assert explored.code == 0, explored
    assert explored.json()["total"] in (13, 14)  # main after the seed reveal (14: a milestone was crossed)
    assert_refused(cli("demo", "--keep", keep, db=None), 1, "is not empty", "--keep")


def _readme_blocks() -> dict[str, list[list[str]]]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks: dict[str, list[list[str]]] = {}
    for marker in ("demo-command", "test-command"):
        section = re.search(rf"<!-- {marker} -->\n(.*?)<!-- /{marker} -->", text, re.DOTALL)
        assert section, f"README.md has no <!-- {marker} --> ... <!-- /{marker} --> section"
        fences = re.findall(r"```[a-z]*\n(.*?)```", section.group(1), re.DOTALL)
        blocks[marker] = [[line for line in fence.splitlines() if line.strip()] for fence in fences]
    return blocks


def test_readme_has_exactly_the_two_commands() -> None:
    blocks = _readme_blocks()
    assert [len(fences) for fences in blocks.values()] == [1, 1]
    (demo,), (tests,) = blocks["demo-command"], blocks["test-command"]
    assert len(demo) == 1 and len(tests) == 1, (demo, tests)
    assert demo[0].endswith("showrunner demo")
    assert "pip install ." in demo[0]
    assert tests[0].endswith("pytest -n auto"), "the tests run on every core (pytest-xdist)"
    assert "pip install -e '.[test]'" in tests[0]
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert text.count("<!-- demo-command -->") == 1 and text.count("<!-- test-command -->") == 1


def test_top_level_help_with_the_real_script(cli) -> None:
    result = cli("--help", db=None)
    assert result.code == 0, result
    assert "Usage: showrunner" in result.out
    assert "Example" in result.out
    for command in (
        "campaign",
        "star",
        "branch",
        "sheet",
        "log",
        "show",
        "replay",
        "spend",
        "regain",
        "note",
        "head",
        "verify",
        "export",
        "import",
        "demo",
    ):
        assert re.search(rf"│ {command}\s", result.out), command


@pytest.mark.parametrize("path", _command_paths(), ids=" ".join)
def test_every_command_has_help_with_an_example(run, path: tuple[str, ...]) -> None:
    result = run(*path, "--help", db=None)
    assert result.code == 0, result
    assert f"Usage: showrunner {' '.join(path)}" in result.out
    assert "Example" in result.out, result.out


def test_the_command_paths_cover_every_command() -> None:
    names = {" ".join(p) for p in _command_paths()}
    assert {
        "campaign new",
        "campaign list",
        "campaign use",
        "star add",
        "star list",
        "sheet",
        "branch create",
        "branch list",
        "branch use",
        "branch diff",
        "log",
        "show",
        "replay",
        "head",
        "verify",
        "export",
        "import",
        "spend",
        "regain",
        "note",
        "demo",
    } <= names
