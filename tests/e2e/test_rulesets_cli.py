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


def test_a_combat_keeps_whose_turn_it_is_on_the_command_line(run: Runner) -> None:
    resonance_campaign(run)
    # Kestrel and Orrin tie at Speed 3; Kestrel rolls 4, Orrin 1.
    began = run("resonance", "initiative", "--combatant", "Kestrel", "--combatant", "Orrin", "--initiative", "4,1")
    assert began.code == 0, began
    assert run("resonance", "front", "--front", "the gate", "--combatant", "Kestrel", "--combatant", "Orrin").code == 0
    before = head(run)
    lore = ("--skill", "Lore", "--challenge", "1", "--challenge-dice", "2", "--dice", "1,1,4")
    assert_refused(
        run("check", "Orrin", *lore), 1, "it is Kestrel Vane's turn: Orrin Marsh cannot roll a check out of turn"
    )
    assert_refused(run("resonance", "end-turn", "Orrin"), 1, "it is Kestrel Vane's turn: Orrin Marsh cannot end it")
    assert head(run) == before
    stealth = ("--skill", "Stealth", "--challenge", "1", "--challenge-dice", "2", "--dice", "3,4")
    checked = run("check", "Kestrel", *stealth, "--json")
    assert checked.code == 0, checked
    assert checked.json()["events"][0]["fact"]["turn"] == {"round": 1, "combatant": "Kestrel Vane", "supporters": []}
    before = head(run)
    assert_refused(run("check", "Kestrel", *stealth), 1, "Kestrel Vane has already used this turn's Check or Ability")
    assert head(run) == before
    ended = run("resonance", "end-turn", "Kestrel", "--json")
    assert ended.code == 0, ended
    [event] = ended.json()["events"]
    assert (event["type"], event["summary"]) == ("TurnEnded", "Kestrel Vane's turn ended; Orrin Marsh's turn, round 1")
    shown = run("resonance", "combat", "--json").json()["combat"]
    assert (shown["round"], shown["turn"]) == (1, "Orrin Marsh")
    assert [(c["name"], c["front"], c["turn"], c["check_used"]) for c in shown["order"]] == [
        ("Kestrel Vane", "the gate", False, False),
        ("Orrin Marsh", "the gate", True, False),
    ]
    # A Star ends their own turn; a new round begins with Kestrel's.
    assert run("--as", "Orrin Marsh", "resonance", "end-turn", "Orrin").code == 0
    assert "Orrin Marsh's turn ended; Kestrel Vane's turn, round 2" in run("log").out
    assert "Combat, round 2: Kestrel Vane's turn" in run("--as", "Orrin Marsh", "resonance", "combat").out
    assert run("resonance", "combat-end").code == 0
    # Outside combat, no turns: Orrin rolls again and again.
    assert run("check", "Orrin", *lore).code == 0
    assert run("check", "Orrin", *lore).code == 0
    assert_refused(run("resonance", "end-turn", "Orrin"), 1, "no combat is under way")
    assert run("resonance", "combat", "--json").json()["combat"] is None


def test_several_opponents_and_an_arcs_end_on_the_command_line(run: Runner) -> None:
    resonance_campaign(run)
    assert run("resonance", "adversary", "Gate Warden", "--skill", "Agility=2").code == 0
    opposed = run(
        "check",
        "Kestrel",
        "--skill",
        "Stealth",
        "--opposed-by",
        "Orrin",
        "--opposed-skill",
        "Lore",
        "--also-opposed-by",
        "Gate Warden=Agility",
        "--opposed-dice",
        "1,1,1,4,4",
        "--dice",
        "3,4",
        "--json",
    )
    assert opposed.code == 0, opposed
    r = opposed.json()["events"][0]["fact"]["resolution"]
    assert (r["difficulty"], r["success"], r["resonance"]) == (2, True, 5)
    assert [(o["opponent"], o["difficulty"], o["success"], o["dissonance"]) for o in r["others"]] == [
        ("Gate Warden", 8, False, 1)
    ]
    before = head(run)
    assert_refused(run("resonance", "scene-end", "--arc"), 1, "Arc 1 has held 1 Scene(s)")
    trade = ("--trade", "Kestrel=Climber's Kit>Healer's Kit")
    assert_refused(run("resonance", "scene-end", *trade), 1, "trading Kits 1 for 1 comes with an Arc's end")
    assert head(run) == before
    assert run("resonance", "scene-end").code == 0
    assert run("resonance", "scene-end").code == 0
    ended = run("resonance", "scene-end", "--arc", *trade, "--json")
    assert ended.code == 0, ended
    end = ended.json()["events"][0]["fact"]["end"]
    assert (end["arc_scenes"], end["trades"][0]["taken"]["name"]) == (3, "Healer's Kit")
    kits = run("sheet", "Kestrel", "--json").json()["star"]["kits"]
    assert [k["name"] for k in kits] == ["Healer's Kit", "Weapon Enchantment Kit"]


def test_a_further_opponents_roll_is_supported_on_the_command_line(run: Runner) -> None:
    resonance_campaign(run)
    for name, skill in (("Gate Warden", "Agility=2"), ("Tess", "Agility=1")):
        assert run("resonance", "adversary", name, "--skill", skill).code == 0
    against = ("--opposed-by", "Gate Warden", "--opposed-skill", "Agility", "--also-opposed-by", "Tess=Agility")
    before = head(run)
    assert_refused(
        run("check", "Kestrel", "--skill", "Stealth", *against, "--also-opposed-support", "Gate Warden=Orrin"),
        1,
        "Gate Warden is not one of the further opponents",
    )
    assert_refused(
        run("check", "Kestrel", "--skill", "Stealth", *against, "--also-opposed-support", "Tess=Kestrel"),
        1,
        "Kestrel Vane cannot Support the roll against their own check",
    )
    assert head(run) == before
    supported = run(
        "check",
        "Kestrel",
        "--skill",
        "Stealth",
        *against,
        "--also-opposed-support",
        "Tess=Orrin",
        "--opposed-dice",
        "1,1,4,4",
        "--dice",
        "3,4",
        "--json",
    )
    assert supported.code == 0, supported
    [tess] = supported.json()["events"][0]["fact"]["resolution"]["others"]
    assert (tess["supporter"], tess["faces"], tess["difficulty"], tess["success"]) == ("Orrin Marsh", [4, 4], 8, False)
    assert run("verify").code == 0
    audited = run("audit", str(head(run)[0]), "--json").json()["audit"]
    assert any("+1 (Supported by Orrin Marsh)" in line for line in audited["explain"]), audited
