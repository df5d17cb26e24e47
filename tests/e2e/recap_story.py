"""The scripted campaign of the recap and timeline tests, played with the clock frozen.

`UPDATE_GOLDEN=1 pytest tests/e2e/test_recap_cli.py tests/e2e/test_timeline_cli.py`
rewrites the golden files under tests/golden/recap/; a normal run compares with them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from freezegun import freeze_time

from tests.e2e.conftest import MARA_FILE, TOBIAS_FILE, Runner, seed

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "recap"
PLAYED_ON = "2024-05-04 19:30:00"
CAMPAIGN = ("--campaign", "neon-harbor")


def golden(name: str, text: str) -> None:
    """Compare with tests/golden/recap/NAME (UPDATE_GOLDEN=1 writes it instead)."""
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN", "") not in ("", "0"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing: run with UPDATE_GOLDEN=1 once and review it"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"


def story(run: Runner) -> None:
    """Neon Harbor, Episode 1 played to its Post-Show, a what-if fork, Episode 2 begun.

    main:    #1 campaign  #2 Mara  #3 Tobias  #4 note  #5 Season 1  #6 Episode 1  #7 Scene 1
             #8 note  #9 Mara's Highlight (Perfect Take)  #10 private note  #11 Tobias fails
             #12 Mara spends Spotlight  #13 Tobias's Grit Loss (a Scar)  #14 Scene 1 ends
             #15 Scene 2  #16 Mara's Disaster  #17 Scene 2 ends  #18 Episode 1 ends
             #19 Post-Show  #20 Episode 2  #21 Scene 1  #22 note
    what-if: forks after #15: #16 BranchForked  #17 a Perfect Take instead  #18 Scene 2 ends
             #19 Episode 1 ends on another Cliffhanger
    """
    steps: list[tuple[Any, ...]] = [
        ("campaign", "new", "Neon Harbor", "--high-concept", "Heists in a drowned city"),
        ("star", "add", "--file", MARA_FILE),
        ("star", "add", "--file", TOBIAS_FILE),
        ("note", "The crew gathers at the Salt Lantern"),
        ("episode", "start", "The Flooded Vault"),
        (
            "scene",
            "start",
            "--location",
            "the Customs House",
            "--goal",
            "crack the flooded vault",
            "--aesthetic",
            "neon rain",
        ),
        ("note", "Black water pours through the Customs House"),
        ("check", "Mara", "fight", "-d", "HARD", "--action", "6,6,5", "--script", "6,6", "--no-input"),
        ("note", "--private", "The harbourmaster is the informant"),
        ("check", "Tobias", "talk", "-d", "HARD", "--action", "1", "--script", "4,5", "--no-input"),
        ("spend", "Mara", "spotlight", "--reason", "Claiming the scene"),
        ("consequence", "Tobias", "grit-loss", "-d", "HARD", "--ability", "talk", "--scar-slot", "3"),
        ("scene", "end"),
        ("scene", "start", "--location", "the Drowned Market", "--goal", "get out alive"),
        ("check", "Mara", "fight", "-d", "HARD", "--action", "1,1,2", "--script", "3,4", "--keep", "1,1", "--no-input"),
        ("scene", "end"),
        (
            "episode",
            "end",
            "--cliffhanger",
            "Lady Shore's fleet fills the bay",
            "--acclaim",
            "Mara=1",
            "--bond",
            "Tobias=the Harbourmaster",
            "--entertaining",
            "--no-premise",
            "--no-input",
        ),
        ("branch", "create", "what-if", "--at", "15", "--no-use"),
        (
            "--branch",
            "what-if",
            "check",
            "Mara",
            "fight",
            "-d",
            "HARD",
            "--action",
            "5,4,2",
            "--script",
            "5,4",
            "--no-input",
        ),
        ("--branch", "what-if", "scene", "end"),
        ("--branch", "what-if", "episode", "end", "--cliffhanger", "The vault was empty", "--skip-post-show"),
        ("episode", "start", "Salt and Static"),
        ("scene", "start", "--location", "the Drowned Market", "--goal", "find the informant"),
        ("note", "Tobias follows a lead"),
    ]
    for args in steps:
        result = run(*args)
        assert result.code == 0, (args, result)


class Story(NamedTuple):
    db: str
    home: Path
    events: list[dict[str, Any]]


def play_story(tmp_path_factory: pytest.TempPathFactory) -> Story:
    """Play the story once into a fresh SQLite file (for a module-scoped fixture)."""
    root = tmp_path_factory.mktemp("recap-story")
    url = str(root / "ledger.sqlite")
    with freeze_time(PLAYED_ON):
        events = seed(url, root / "home", story)
    return Story(url, root / "home", events)


def reader(run: Runner, played: Story) -> Runner:
    """Run a command against the played story (the campaign named explicitly)."""

    def call(*args: object, **kw: Any):
        return run(*CAMPAIGN, *args, db=played.db, **kw)

    return call


def hidden_events(played: Story) -> list[dict[str, Any]]:
    return [e for e in played.events if e["visibility"] == "director"]
