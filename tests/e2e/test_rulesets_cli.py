"""d4 Resonance and d10 Pool through the real command line: demos, refusals, hidden rolls.

Each ruleset's demo is played by the installed `showrunner` script; the refusals the
issue names are each one line on stderr, exit 1, and leave the log exactly as it was.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import Runner, assert_refused

REPO = Path(__file__).resolve().parents[2]
POOL = REPO / "domain" / "pool" / "examples"
RESONANCE = REPO / "domain" / "resonance" / "examples"


@pytest.mark.parametrize("ruleset", ["resonance", "pool"])
def test_the_demo_of_each_ruleset_plays_with_the_real_script(cli, ruleset: str) -> None:
    shown = cli("demo", "--ruleset", ruleset, "--json", db=None, timeout=300)
    assert shown.code == 0, shown.err
    steps = shown.json()["steps"]
    assert all(step["exit_code"] == 0 for step in steps)
    commands = [step["command"].split()[1] for step in steps]
    for needed in ("campaign", "star", "check", "audit", "branch", "seed", "recap", "verify"):
        assert needed in commands, needed
    audited = next(s["output"] for s in steps if s["command"].startswith("showrunner audit --all"))
    assert audited["ok"] and audited["dice"]["verified"] >= 1 and audited["dice"]["table"] >= 1
    diff = next(s["output"] for s in steps if s["command"].startswith("showrunner branch diff"))
    assert diff["sheet_differences"] or diff["only_in_b"]
    recap = next(s["output"] for s in steps if s["command"].startswith("showrunner recap"))
    assert recap["story"]["paragraphs"], recap


def pool_campaign(run: Runner) -> None:
    for args in (
        ("campaign", "new", "The Lantern", "--ruleset", "pool"),
        ("star", "add", "--file", POOL / "character-ines.toml"),
        ("star", "add", "--file", POOL / "character-brann.json"),
    ):
        assert run(*args).code == 0


def resonance_campaign(run: Runner) -> None:
    for args in (
        ("campaign", "new", "Storm Gate", "--ruleset", "resonance"),
        ("star", "add", "--file", RESONANCE / "kestrel.toml"),
        ("star", "add", "--file", RESONANCE / "orrin.json"),
    ):
        assert run(*args).code == 0


def head(run: Runner) -> tuple[int, str]:
    doc = run("head", "--json").json()
    return doc["version"], doc["hash"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (
            ("check", "Kestrel", "--skill", "Blades", "--challenge", "2", "--challenge-dice", "1,2", "--dice", "6,1,2"),
            "not a d4 face",
        ),
        (
            ("check", "Kestrel", "--skill", "Blades", "--challenge", "2", "--support", "Orrin", "--support", "Kestrel"),
            "cannot Support the same roll",
        ),
        (
            (
                "resonance",
                "harm",
                "Kestrel",
                "--harm",
                "burned",
                "--levels",
                "2",
                "--source",
                "magical",
                "--endurance",
                "5",
            ),
            "Endurance",
        ),
        (("check", "Nobody", "--skill", "Blades", "--challenge", "2"), "Nobody"),
    ],
)
def test_resonance_refusals_write_nothing(run: Runner, args: tuple[str, ...], needle: str) -> None:
    resonance_campaign(run)
    before = head(run)
    assert_refused(run(*args), 1, needle)
    assert head(run) == before


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("check", "Ines", "--stat", "agility", "--dc", "11"), "DC"),
        (("check", "Ines", "--stat", "agility", "--dc", "2"), "DC"),
        (("check", "Ines", "--stat", "agility", "--dc", "6", "--pool", "1,2,3,11"), "not a d10 face"),
        (("check", "Ines", "--stat", "agility", "--dc", "6", "--pool", "1,2"), "pool"),
        (("pool", "luck", "Ines", "--after-failure"), "no check or contest on this branch to be lucky after"),
    ],
)
def test_pool_refusals_write_nothing(run: Runner, args: tuple[str, ...], needle: str) -> None:
    pool_campaign(run)
    before = head(run)
    assert_refused(run(*args), 1, needle)
    assert head(run) == before


def test_a_hidden_pool_roll_is_the_directors_alone(run: Runner, tmp_path: Path) -> None:
    pool_campaign(run)
    hidden = run("check", "Ines", "--stat", "perception", "--dc", "8", "--hidden", "--pool", "8,1,3,9", "--json")
    assert hidden.code == 0, hidden
    version = hidden.json()["events"][0]["version"]
    assert hidden.json()["events"][0]["visibility"] == "director"
    as_ines = ("--as", "Ines Harrow")
    assert version not in [e["version"] for e in run(*as_ines, "log", "--json").json()["events"]]
    assert_refused(run(*as_ines, "audit", str(version)), 1, "Director only")
    assert_refused(run(*as_ines, "show", str(version)), 1, "Director only")
    exported = tmp_path / "ines.jsonl"
    assert run(*as_ines, "export", "-o", exported).code == 0
    lines = [json.loads(line) for line in exported.read_text().splitlines()[1:]]
    kept = next(line for line in lines if line["version"] == version)
    assert set(kept) == {"branch", "version", "campaign", "prev_hash", "hash", "redacted"}  # only the chain's links
    assert run("episode", "start", "Night One").code == 0
    again = run("check", "Ines", "--stat", "perception", "--dc", "8", "--hidden", "--pool", "8,9,3,9")
    assert again.code == 0
    public = run(*as_ines, "recap", "--json").json()
    assert "Perception" not in str(public) and "perception" not in str(public)
    director = run("recap", "--director", "--json").json()
    assert "Perception" in str(director) or "perception" in str(director)
    # The Director's own log shows it.
    assert version in [e["version"] for e in run("log", "--json").json()["events"]]


def test_check_help_follows_the_campaign_ruleset(run: Runner) -> None:
    pool_campaign(run)
    assert "--dc" in run("check", "--help").out
    assert "--challenge" in run("check", "--ruleset", "resonance", "--help").out
    for ruleset in ("pool", "resonance"):  # an example from the ruleset's own (tested) demo
        assert "Example: showrunner check " in run("check", "--ruleset", ruleset, "--help").out
    assert "--difficulty" in run("check", "--ruleset", "showrunner", "--help").out


def test_an_adversarys_ranks_are_the_directors_until_the_table_meets_them(run: Runner) -> None:
    resonance_campaign(run)
    joined = run("resonance", "adversary", "Gate Warden", "--skill", "Brawn=3", "--morale", "2", "--json")
    assert joined.code == 0, joined
    assert joined.json()["events"][0]["visibility"] == "director"
    assert "Gate Warden" in [x["name"] for x in run("star", "list", "--json").json()["stars"]]
    assert run("sheet", "Gate Warden", "--json").json()["star"]["sheet"]["skills"]["Brawn"] == 3
    as_kestrel = ("--as", "Kestrel Vane")
    assert "Gate Warden" not in [x["name"] for x in run(*as_kestrel, "star", "list", "--json").json()["stars"]]
    assert_refused(run(*as_kestrel, "sheet", "Gate Warden"), 1, "unknown character 'Gate Warden'")
    replayed = run(*as_kestrel, "replay", "--to", "4", "--json").json()
    shown = json.dumps(replayed)
    assert "Gate Warden" not in shown, shown[shown.find("Gate Warden") - 300 :][:400]
