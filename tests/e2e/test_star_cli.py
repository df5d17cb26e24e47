"""`showrunner star add/list` and `showrunner sheet`: Star files in, sheets out."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from showrunner_ledger.domain.showrunner.starfile import parse_star_file
from tests.e2e.conftest import MARA_FILE, TOBIAS_FILE, assert_refused, fingerprint, new_campaign

MARA = parse_star_file(MARA_FILE.read_bytes(), source=MARA_FILE.name)
TOBIAS = parse_star_file(TOBIAS_FILE.read_bytes(), source=TOBIAS_FILE.name)


def pool_cell(sheet_text: str, label: str) -> str:
    """The `current/max` cell of one Influence row of a rendered Star Profile."""
    found = re.search(rf"{label}\s+\S*\s+(\d+/\d+(?: \(\d+ exhausted\))?)", sheet_text)
    assert found, f"no {label} row in:\n{sheet_text}"
    return found.group(1)


def test_star_add_list_and_sheet_with_the_real_script(cli) -> None:
    assert cli("campaign", "new", "Neon Harbor").code == 0
    added = cli("star", "add", "--file", MARA_FILE, "--json")
    assert added.code == 0, added
    assert added.err == ""
    assert added.json() == {"star": "Mara Voss", "events": [2], "branch": "main"}
    human = cli("star", "add", "-f", TOBIAS_FILE)
    assert human.code == 0, human
    assert human.out == "Added Tobias Quell to neon-harbor/main as event #3.\n"

    listed = cli("star", "list", "--json")
    assert listed.json() == {
        "branch": "main",
        "as_of": 3,
        "stars": [
            {"name": "Mara Voss", "player": "Jo", "concept": "Disgraced duelist", "written_off": False},
            {
                "name": "Tobias Quell",
                "player": "Sam",
                "concept": "Tinkering channeler who talks to engines",
                "written_off": False,
            },
        ],
    }
    assert cli("spend", "Mara", "grit").code == 0  # #4: Grit 3/4 -> 2/4

    now = cli("sheet", "mara")  # any case, and the start of the name
    assert now.code == 0, now
    assert "Star Profile · main #4" in now.out
    assert "Mara Voss" in now.out and "Player: Jo" in now.out and "Concept: Disgraced duelist" in now.out
    assert pool_cell(now.out, "Grit") == "2/4"
    assert pool_cell(now.out, "Retake") == "2/2"
    assert pool_cell(now.out, "Spotlight") == "0/1"
    assert pool_cell(now.out, "Plot Armor") == "2/2 (1 exhausted)"
    assert pool_cell(now.out, "Preparation") == "1/1"

    before = cli("sheet", "Mara Voss", "--at", "3")
    assert "Star Profile · main #3" in before.out
    assert pool_cell(before.out, "Grit") == "3/4"

    # --json: exactly the model, as of the event asked for.
    doc = cli("sheet", "Mara", "--at", "3", "--json").json()
    assert doc == {"branch": "main", "as_of": 3, "star": MARA.model_dump(mode="json")}


def test_sheet_json_is_the_model_dump_after_a_change(run) -> None:
    new_campaign(run)
    run("spend", "Tobias", "retake")  # #4
    doc = run("sheet", "Tobias", "--json").json()
    retake = TOBIAS.influence.retake.model_copy(update={"current": 0})
    expected = TOBIAS.model_copy(update={"influence": TOBIAS.influence.model_copy(update={"retake": retake})})
    assert doc == {"branch": "main", "as_of": 4, "star": expected.model_dump(mode="json")}
    assert run("sheet", "Tobias", "--at", "3", "--json").json()["star"] == TOBIAS.model_dump(mode="json")
    assert run("sheet", "Tobias", "--at", "4", "--json").json() == doc


def test_star_list_as_of(run) -> None:
    new_campaign(run)
    assert run("star", "list", "--at", "2", "--json").json() == {
        "branch": "main",
        "as_of": 2,
        "stars": [{"name": "Mara Voss", "player": "Jo", "concept": "Disgraced duelist", "written_off": False}],
    }
    assert run("star", "list", "--at", "1", "--json").json() == {"branch": "main", "as_of": 1, "stars": []}
    table = run("star", "list", "--at", "2")
    assert "Stars as of #2" in table.out
    assert "Mara Voss" in table.out and "Tobias" not in table.out


def test_star_added_by_a_star_is_recorded_as_that_star(run) -> None:
    run("campaign", "new", "Neon Harbor")
    run("star", "add", "--file", MARA_FILE)
    assert run("--as", "mara", "star", "add", "--file", TOBIAS_FILE).code == 0
    events = run("log", "--json").json()["events"]
    assert [(e["version"], e["recorded_by"]) for e in events] == [(1, "director"), (2, "director"), (3, "Mara Voss")]


# ------------------------------------------------------------------ bad Star files


def _mara_with(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = MARA_FILE.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def _bad_files(tmp_path: Path) -> dict[str, tuple[Path, tuple[str, ...]]]:
    bad_toml = tmp_path / "broken.toml"
    bad_toml.write_text('name = "Quill"\nplayer = "Ann\n', encoding="utf-8")
    bad_json = tmp_path / "broken.json"
    bad_json.write_text('{\n  "name": "Quill",\n}\n', encoding="utf-8")
    wrong_suffix = tmp_path / "mara.yaml"
    shutil.copy(MARA_FILE, wrong_suffix)
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    return {
        "bad TOML": (bad_toml, ("broken.toml: line 2: invalid TOML",)),
        "bad JSON": (bad_json, ("broken.json: line 3: invalid JSON",)),
        "rank out of range": (
            _mara_with(
                tmp_path,
                "rank.toml",
                '1 = { specialty = "Swords", rank = 2 }',
                '1 = { specialty = "Swords", rank = 9 }',
            ),
            ("rank.toml: abilities.fight.slots.1.rank: must be between 1 and 5 (got 9)",),
        ),
        "pool over its max": (
            _mara_with(tmp_path, "pool.toml", "grit = { current = 3, max = 4 }", "grit = { current = 5, max = 4 }"),
            ("pool.toml: influence.grit: current (5) is more than max (4)",),
        ),
        "unknown key": (
            _mara_with(
                tmp_path,
                "unknown.toml",
                'concept = "Disgraced duelist"',
                'concept = "Disgraced duelist"\nfavourite_colour = "red"',
            ),
            ("unknown.toml: favourite_colour: unknown field",),
        ),
        "missing field": (
            _mara_with(tmp_path, "noname.toml", 'name = "Mara Voss"\n', ""),
            ("noname.toml: name: required field is missing",),
        ),
        "wrong suffix": (wrong_suffix, ("mara.yaml: unsupported file type", ".toml or .json")),
        "missing file": (tmp_path / "nobody.toml", ("nobody.toml", "No such file or directory")),
        "a directory": (folder, ("folder.toml",)),
    }


CASES = [
    "bad TOML",
    "bad JSON",
    "rank out of range",
    "pool over its max",
    "unknown key",
    "missing field",
    "wrong suffix",
    "missing file",
    "a directory",
]


@pytest.mark.parametrize("case", CASES)
def test_bad_star_file_is_refused_naming_the_problem(run, tmp_path: Path, home: Path, case: str) -> None:
    new_campaign(run)
    path, needles = _bad_files(tmp_path)[case]
    before = fingerprint(run, home)
    line = assert_refused(run("star", "add", "--file", path, "--json"), 1, *needles)
    if case == "pool over its max":
        assert "star add" not in line  # the message is about the file, not the command
    assert fingerprint(run, home) == before
    assert [s["name"] for s in run("star", "list", "--json").json()["stars"]] == ["Mara Voss", "Tobias Quell"]


def test_a_star_file_refused_by_the_real_script(cli, tmp_path: Path) -> None:
    assert cli("campaign", "new", "Neon Harbor").code == 0
    path = _mara_with(tmp_path, "rank.toml", "rank = 1 }\n\n[abilities.move]", "rank = 0 }\n\n[abilities.move]")
    assert_refused(
        cli("star", "add", "--file", path),
        1,
        "rank.toml: abilities.fight.slots.5.rank: must be between 1 and 5 (got 0)",
    )
    assert cli("head", "--json").json()["version"] == 1


def test_duplicate_star_is_refused(run, home: Path, tmp_path: Path) -> None:
    new_campaign(run)
    before = fingerprint(run, home)
    assert_refused(run("star", "add", "--file", MARA_FILE), 1, "a Star named 'Mara Voss' is already in this campaign")
    # The same name in another case and spacing is the same Star.
    shouting = _mara_with(tmp_path, "shout.toml", 'name = "Mara Voss"', 'name = "  MARA   voss "')
    assert_refused(run("star", "add", "--file", shouting), 1, "is already in this campaign")
    assert fingerprint(run, home) == before


def test_unknown_star_for_sheet(run, home: Path) -> None:
    new_campaign(run)
    assert_refused(run("sheet", "Nobody"), 1, "unknown Star 'Nobody' (Stars in this campaign: Mara Voss, Tobias Quell)")
    assert_refused(run("sheet", "Nobody", "--json"), 1, "unknown Star 'Nobody'")
    # Before Tobias joined, he is unknown.
    assert_refused(run("sheet", "Tobias", "--at", "2"), 1, "unknown Star 'Tobias' (Stars in this campaign: Mara Voss)")


def test_ambiguous_star_prefix(run, tmp_path: Path) -> None:
    new_campaign(run)
    quinn = _mara_with(tmp_path, "quinn.toml", 'name = "Mara Voss"', 'name = "Mara Quinn"')
    assert run("star", "add", "--file", quinn).code == 0
    assert_refused(run("sheet", "Mara"), 1, "'Mara' could be", "Mara Voss", "Mara Quinn", "give more of the name")
    assert run("sheet", "Mara V", "--json").json()["star"]["name"] == "Mara Voss"


@pytest.mark.parametrize(
    ("at", "code", "needle"),
    [
        ("0", 2, "--at"),
        ("4", 1, "branch 'main' has events #1 to #3; there is no event #4"),
        ("99", 1, "there is no event #99"),
    ],
)
def test_sheet_at_outside_the_log(run, at: str, code: int, needle: str) -> None:
    new_campaign(run)
    assert_refused(run("sheet", "Mara", "--at", at), code, needle)
    assert_refused(run("star", "list", "--at", at, "--json"), code, needle)


def test_star_add_needs_a_file(run) -> None:
    new_campaign(run)
    assert_refused(run("star", "add"), 2, "--file")
