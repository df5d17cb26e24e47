"""A newcomer's first hour: what `--help`, `--version`, the demo, `show`, the lists and a check
print, read as a first-time reader reads them."""

from __future__ import annotations

import re
import shlex
from importlib.metadata import version
from typing import Any

from tests.e2e.conftest import assert_refused


def test_version(run: Any) -> None:
    result = run("--version", db=None)
    assert (result.code, result.out) == (0, f"showrunner-ledger {version('showrunner-ledger')}\n")


def test_help_names_every_row(run: Any) -> None:
    out = run("--help", db=None).out
    rows = [line for line in out.splitlines() if line.startswith("│ ") and "Commands" not in line]
    commands = out[out.index("Commands") :]
    for name in ("pool", "resonance", "cast"):
        assert re.search(rf"^│ {name} +\S", commands, re.M), name
    # A row's description never starts a line with a blank name unless it goes on the row before.
    blank = [line for line in rows if re.match(r"^│ {2,}\S", line)]
    for line in blank:
        before = rows[rows.index(line) - 1]
        assert not before.rstrip(" │").endswith("."), (before, line)


def test_episode_end_without_a_terminal_keeps_the_cliffhanger(run: Any, played: Any) -> None:
    assert run("episode", "start", "The Flooded Vault").code == 0
    assert_refused(run("episode", "end"), 2, "no Cliffhanger given", "--no-cliffhanger")
    assert_refused(run("episode", "end", "--cliffhanger", "x", "--no-cliffhanger"), 2, "give one of them")
    ended = run("episode", "end", "--cliffhanger", "The fleet is in the bay", "--json")
    assert ended.code == 0 and ended.json()["cliffhanger"] == "The fleet is in the bay"


def test_lists_have_no_unnamed_column_and_count_in_words(run: Any, played: Any) -> None:
    for args in (("star", "list"), ("campaign", "list")):
        header = next(line for line in run(*args).out.splitlines() if line.startswith("┃"))
        assert all(cell.strip() for cell in header.strip("┃").split("┃")), header
    assert "(1 event)" in run("log", "--per-page", "1", "--type", "CampaignStarted").out


def test_show_is_a_card(run: Any, played: Any) -> None:
    out = run("show", "5").out
    assert "Mara Voss spent 1 Grit (Forcing the floodgate)" in out
    assert "{" not in out and len(out.splitlines()) < 15, out
    assert run("show", "5", "--json").json()["event"]["payload"]


def test_rewards_and_kept_pairs_in_words(run: Any, played: Any) -> None:
    out = run(
        "check", "Mara", "fight", "-d", "HARD", "-s", "Swords", "-o", "2",
        "--action", "1,4,5,6,2", "--opposition-dice", "1,5", "--script", "4,2", "--no-input",
    ).out  # fmt: skip
    assert "Kept        6 and 4" in out
    assert "Mara Voss: no Retake gained; 1 not kept (Retake was full" in out
    assert "+0 Retake" not in out


def test_the_demo_piped_opens_closes_and_keeps_lines_whole(cli: Any) -> None:
    result = cli("demo", db=None, env={"COLUMNS": "80"})
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].startswith("The Showrunner demo: a throwaway campaign played in")
    assert lines[-1].startswith("Next: play your own campaign")
    commands = [line[2:] for line in lines if line.startswith("$ ")]
    assert commands and all("…" not in c and shlex.split(c)[0] == "showrunner" for c in commands)
    assert "keep it private" not in result.out + result.err
    assert re.search(r"keys/[0-9a-f-]{36}\.seed$", result.err, re.M), result.err
