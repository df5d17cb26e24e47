"""`showrunner timeline`: the branch tree with Episodes, Scenes and key events; the HTML page."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from tests.e2e.conftest import Runner, assert_refused
from tests.e2e.recap_story import Story, golden, hidden_events, play_story, reader


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Story:
    return play_story(tmp_path_factory)


@pytest.fixture
def read(run: Runner, played: Story) -> Runner:
    return reader(run, played)


def test_golden_timeline(read: Runner) -> None:
    result = read("timeline")
    assert result.code == 0, result
    golden("timeline.txt", result.out)


def test_golden_director_timeline(read: Runner) -> None:
    result = read("timeline", "--director", "--min-weight", "10")
    assert result.code == 0, result
    golden("timeline-director.txt", result.out)


def test_the_picture(read: Runner) -> None:
    lines = read("timeline").out.splitlines()
    assert lines[0].startswith("● main")
    fork = next(i for i, line in enumerate(lines) if "what-if leaves main after #15" in line)
    assert lines[fork].startswith("├─╮")
    # The fork's own events run down its lane, then main goes on.
    assert lines[fork + 1].startswith("│ * #17") and "Perfect Take" in lines[fork + 1]
    assert any(line.startswith("│ ╵ what-if at #19") for line in lines)
    assert any("▶ Episode 2 “Salt and Static”" in line for line in lines)
    assert any("▸ Scene 2 at the Drowned Market: get out alive" in line for line in lines)
    assert lines[-1].startswith("╵ main at #22")


def test_the_html_page_is_self_contained_and_draws_the_same_picture(read: Runner, tmp_path: Path) -> None:
    page_file = tmp_path / "timeline.html"
    result = read("timeline", "--html", page_file)
    assert result.code == 0, result
    page = page_file.read_text(encoding="utf-8")
    golden("timeline.html", page)
    assert page.startswith("<!DOCTYPE html>")
    # Nothing to fetch: no link, script, image, font or URL of any kind.
    for needle in ("http://", "https://", "<script", "<link", "src=", "url(", "@import"):
        assert needle not in page, needle
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    for line in result.out.splitlines():
        picture = line.replace("  (current)", "")
        assert picture in text, picture


def test_timeline_json(read: Runner) -> None:
    doc = read("timeline", "--json").json()
    assert [b["name"] for b in doc["branches"]] == ["main", "what-if"]
    assert doc["branches"][1] == {"name": "what-if", "parent": "main", "fork_version": 15}
    kinds = {r["kind"] for r in doc["rows"]}
    assert {"opening", "season", "episode", "scene", "episode-end", "decisive", "fork", "head"} <= kinds


def test_no_director_only_event_in_the_timeline(read: Runner, played: Story, tmp_path: Path) -> None:
    page_file = tmp_path / "t.html"
    for who in ((), ("--as", "Tobias")):
        result = read(*who, "timeline", "--min-weight", "0", "--html", page_file)
        assert result.code == 0, result
        page = page_file.read_text(encoding="utf-8")
        for event in hidden_events(played):
            for shown in (result.out, page):
                assert event["summary"] not in shown
                assert not re.search(rf"#{event['version']}\b", shown)
    director = read("timeline", "--director", "--min-weight", "0")
    assert "(Director only)" in director.out


def test_bad_timeline_input(read: Runner, tmp_path: Path) -> None:
    assert_refused(read("--as", "Tobias", "timeline", "--director"), 1, "only the Director")
    assert_refused(read("timeline", "--html", tmp_path / "missing" / "t.html"), 1, "does not exist")
    assert_refused(read("timeline", "--min-weight", "-1"), 2, "--min-weight")
