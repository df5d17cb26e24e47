"""`showrunner star create` and `star casting …` through the console script: a whole Casting
with flags and typed table dice, `--json`, one-line refusals that write nothing, `audit` and
`verify` of its rolls, `advance`, and the walk at a terminal (a pseudo-terminal)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import new_campaign
from tests.e2e.test_check_interactive import Terminal

ADA = "Ada Quill"
PARENTS = ("--parent", "Wren,Ranger,sense,move", "--parent", "Oak,Carpenter,work,think")


def ok(run: Any, *args: object) -> Any:
    result = run(*args)
    assert result.code == 0, result
    return result


def head(run: Any) -> int:
    return run("head", "--json").json()["version"]


def cast_ada(run: Any) -> None:
    """Ada Quill, a Wood Elf of the Lower Class, raised by both parents, a Teen: two Life Stages."""
    ok(run, "campaign", "new", "Casting Call")
    ok(
        run,
        "star",
        "create",
        ADA,
        "--player",
        "Jo",
        "--heritage",
        "Wood Elf",
        "--specialty-in",
        "move,work",
        "--scar-in",
        "impress,endure",
    )
    ok(run, "star", "casting", "social-class", "Ada", "--roll", "4", "--money", "3")
    ok(
        run,
        "star",
        "casting",
        "settle",
        "Ada",
        "--hero-prop",
        "Grandmother's Bow=Never misses at dusk",
        "--hero-prop",
        "Grandmother's Bow",
        "--career",
        "training",
        "--career",
        "persistence",
        "--family-bond",
        "Wren",
        "--family-bond",
        "Tam",
        "--family-grudge",
        "Uncle Vask",
    )
    ok(run, "star", "casting", "parents", "Ada", *PARENTS, "--roll", "2")
    ok(
        run,
        "star",
        "casting",
        "settle",
        "Ada",
        "--specialty",
        "sense=Tracking",
        "--specialty",
        "sense=Tracking",
        "--specialty",
        "move=Climbing",
        "--specialty",
        "work=Joinery",
        "--specialty",
        "work=Joinery",
        "--specialty",
        "think=Woodlore",
    )
    ok(run, "star", "casting", "siblings", "Ada", "--name", "Tam", "--roll", "2", "--ages", "3,8")
    ok(run, "star", "casting", "starting-age", "Ada", "teen")
    ok(run, "star", "casting", "settle", "Ada", "--mastery", "grit")
    for stage in (1, 2):
        ok(
            run,
            "star",
            "casting",
            "develop",
            "Ada",
            "--ability",
            "sense",
            "--specialty",
            "Keen Eyes",
            "--hero-prop",
            "Grandmother's Bow",
            "--prop-type",
            "Ammo",
            "--pack",
            "5",
        )
        # The Rival's Move: Fight, no dice; the Character's Move: Sense, one die.
        ok(
            run,
            "star",
            "casting",
            "encounter",
            "Ada",
            "--ally",
            "Elves,channel,HARD",
            "--rival",
            f"Rival {stage},fight,HARD",
            "--ally-specialty",
            "Old Songs",
            "--move-ability",
            "sense",
            "--dilemma",
            "3",
            "--action",
            "5",
            "--script",
            "6,6,5,1",
        )


def test_star_create_help_names_heritage_and_shows_examples(run):
    result = run("star", "create", "--help")
    assert result.code == 0 and "Heritage" in result.out and "showrunner star create 'Ada Quill'" in result.out
    assert "heritage" in run("star", "casting", "--help").out


def test_a_whole_casting_with_flags_ends_in_the_star_joining(run):
    cast_ada(run)
    result = ok(
        run,
        "star",
        "casting",
        "wardrobe",
        "Ada",
        "--look",
        "Green cloak",
        "--mannerism",
        "Hums",
        "--agenda",
        "Find the lost grove",
        "--archetype",
        "Scout",
        "--secondary",
        "work",
        "--trinket",
        "An acorn",
        "--json",
    )
    document = result.json()
    assert document["casting"]["next"] == "join" and document["facts"][0]["type"] == "WardrobeFinished"
    built = document["facts"][0]["fact"]["record"]["sheet"]
    joined = ok(run, "star", "casting", "join", "Ada", "--json").json()
    assert [f["type"] for f in joined["facts"]] == ["CastingCompleted", "StarJoined"]
    sheet = ok(run, "sheet", "Ada", "--json").json()["star"]
    assert sheet == built and sheet["concept"] == "Scout" and sheet["trinkets"] == ["An acorn"]
    assert [p["name"] for p in sheet["hero_props"]] == ["Grandmother's Bow"]
    assert ok(run, "star", "list", "--json").json()["stars"][0]["name"] == ADA
    # Ready for the Show: one Star, so the antagonist plays at EPIC at least.
    incident = ok(
        run,
        "star",
        "casting",
        "inciting-incident",
        "--ally",
        "Elves,channel",
        "--antagonist",
        "The Ash King,fight,HARD",
        "--specialty",
        "Ada=Rally",
        "--dilemma",
        "10",
        "--secondary-roll",
        "5",
        "--power",
        "3,4,2,5",
        "--json",
    ).json()
    assert [f["type"] for f in incident["facts"]] == ["IncitingIncidentPlayed", "ActorCreated"]
    assert incident["facts"][0]["fact"]["antagonist_level"] == "EPIC"
    assert ok(run, "actor", "show", "The Ash King", "--json").json()["actor"]["power_level"] == "EPIC"
    ok(run, "star", "casting", "founders-boons", "--benefit", "+1 Grit for every Star", "--home", "The Hollow Oak")
    assert ok(run, "ensemble", "show", "--json").json()["ensemble"]["holdings"][0]["name"] == "The Hollow Oak"
    # Every rolling step audits against the record; the chain verifies.
    audit = run("audit", "--all")
    assert audit.code == 0 and "every roll MATCHES" in audit.out, audit
    assert run("verify").code == 0


def test_each_step_says_what_comes_next(run):
    ok(run, "campaign", "new", "Casting Call")
    created = ok(run, "star", "create", ADA, "--json").json()
    assert created["casting"] == {
        "star": ADA,
        "done": ["started"],
        "next": "social-class",
        "owed": [],
        "life_stages": 0,
        "stages_done": 0,
        "decade": None,
    }
    step = ok(run, "star", "casting", "social-class", "Ada", "--roll", "1")
    assert step.out.startswith("#3 Ada Quill in Casting, Social Class: d10 1: Untouchable")
    assert "Next: showrunner star casting settle" in step.err
    status = ok(run, "star", "casting", "status", "Ada", "--json").json()
    assert [o["kind"] for o in status["owed"]].count("career") == 4


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (
            ("star", "casting", "parents", "Ada", *PARENTS),
            1,
            "Ada Quill's Casting is at 'social-class', not parents: 'social-class' comes first",
        ),
        (
            (
                "star",
                "casting",
                "heritage",
                "Ada",
                "Dragonborn",
                "--specialty-in",
                "fight,work",
                "--scar-in",
                "talk,move",
            ),
            1,
            "'Dragonborn' is not a sample Heritage",
        ),
        (("star", "casting", "social-class", "Ada", "--roll", "11"), 2, "--roll: 11 is not a d10 face (1-10)"),
        (
            ("star", "casting", "social-class", "Ada", "--roll", "7"),
            1,
            "the roll needs 2 money dice but 0 were given (--money)",
        ),
        (("star", "casting", "settle", "Ada", "--career", "training"), 1, "Ada Quill owes no career"),
        (("star", "casting", "join", "Ada"), 1, "not join"),
        (("star", "create", ADA), 1, "Ada Quill is already in Casting"),
        (("star", "casting", "social-class", "Zed"), 1, "no Star called 'Zed' is in Casting"),
        (
            (
                "star",
                "casting",
                "encounter",
                "Ada",
                "--ally",
                "Elves",
                "--rival",
                "X,fight",
                "--ally-specialty",
                "S",
                "--move-ability",
                "sense",
            ),
            2,
            "--ally: 'Elves' is not NAME,PRIMARY[,POWER LEVEL]",
        ),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(run, args, code, message):
    ok(run, "campaign", "new", "Casting Call")
    ok(run, "star", "create", ADA)
    before = head(run)
    result = run(*args)
    assert result.code == code, result
    assert len(result.err_lines) == 1 and message in result.err, result.err
    assert head(run) == before


def test_a_second_join_is_refused(run):
    new_campaign(run)  # Mara Voss and Tobias Quell joined from their files
    result = run("star", "create", "Mara Voss")
    assert result.code == 1 and "already" in result.err and len(result.err_lines) == 1


def test_advance_jumps_an_ability_to_its_next_milestone(run):
    new_campaign(run)
    before = ok(run, "sheet", "Mara", "--json").json()["star"]["abilities"]["fight"]
    result = ok(run, "advance", "Mara", "--ability", "fight", "--reason", "the Director's reward", "--json").json()
    assert result["facts"][0]["type"] == "Advanced"
    after = ok(run, "sheet", "Mara", "--json").json()["star"]["abilities"]["fight"]
    assert after["xp"] == before["xp"] and after["advances"] > 0
    both = run("advance", "Mara", "--ability", "fight", "--bond", "Ilse")
    assert both.code == 2 and "name one of --ability, --hero-prop, --bond or --grudge" in both.err


# ------------------------------------------------------------------ at a terminal

pytestmark_pty = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")

# (what the prompt says, what the player types), in the walk's order: table dice typed in.
WALK = [
    (r"Roll ledger dice, or type table dice\? \[ledger\]: ", "table"),
    (r"Heritage \(2\.1, optional: a sample, one of your own, or Enter for none\): ", ""),
    (r"Social Class \(d10 faces\), 1: ", "10"),  # Upper Class: 3d6 Money, 4 Hero Prop Advances, 3 family Grudges
    (r"Starting Money \(d6 faces\), 3: ", "1,2,3"),
    (r"Hero Prop Advance: .*: ", "Cane"),
    (r"Its first Power: ", "Hides a blade"),
    (r"Hero Prop Advance: .*: ", "Cane"),
    (r"Hero Prop Advance: .*: ", "Cane"),
    (r"Hero Prop Advance: .*: ", "Cane"),
    (r"A family member you have a Grudge with: ", "Uncle Vask"),
    (r"A family member you have a Grudge with: ", "Aunt Mire"),
    (r"A family member you have a Grudge with: ", "Cousin Pell"),
    (r"Parent 1 \(main guardian\): name: ", "Mother Hale"),
    (r"Archetype .*: ", "Smith"),
    (r"Primary Ability: ", "work"),
    (r"Secondary Ability: ", "talk"),
    (r"Parent 2 \(other parent\): name: ", "Father Hale"),
    (r"Archetype .*: ", "Sailor"),
    (r"Primary Ability: ", "travel"),
    (r"Secondary Ability: ", "endure"),
    (r"Parental Status \(d10 faces\), 1: ", "8"),  # a single parent: 2 Work, 1 Talk; one Lost Parent roll
    (r"Lost Parent \(d10 faces\), 1: ", "4"),
    (r"Specialty in Work: ", "Smithing"),
    (r"Specialty in Work: ", "Smithing"),
    (r"Specialty in Talk: ", "Haggling"),
    (r"Siblings \(d10 faces\), 1: ", "1"),
    (r"Each sibling's age \(d10 faces\), 1: ", "6"),
    (r"Siblings' names, comma-separated \(optional\): ", "Little Bo"),
    (r"Starting Age .* \[young_adult\]: ", "youth"),
    (r"Path Mastery .*: ", "grit"),
    (r"Path Mastery .*: ", "retake"),
    (r"Gear Up: Hero Prop \(Cane; .*\): ", "Cane"),
    (r"Hone Your Skills: Ability: ", "work"),
    (r"The Slot Rule: its Specialty: ", "Smithing"),
    (r"Pack Your Bags: Prop Type \[Gear\]: ", "Materials"),
    (r"Pack Your Bags \(d6 faces\), 1: ", "4"),
    (r"Ally: name: ", "Mother Hale"),
    (r"Ally: Primary Ability: ", "work"),
    (r"Ally: Power Level \[NORMAL\]: ", "HARD"),
    (r"Rival: name: ", "Guildmaster Orr"),
    (r"Rival: Primary Ability: ", "fight"),
    (r"Rival: Power Level \[NORMAL\]: ", "HARD"),
    (r"aid the Ally or harm the Rival\? \[harm\]: ", "aid"),
    (r"a Specialty in the Ally's Primary Ability: ", "Smithing"),
    (r"Act III: your Ability: ", "work"),
    (r"Act III: Difficulty \[NORMAL\]: ", "HARD"),
    (r"Dilemma \(d10 faces\), 1: ", "8"),
    (r"Action Dice of both checks, the Rival's Move first \(d6 faces\): ", "5"),  # Fight: none; Work: one
    (r"Script Dice of both checks \(d6 faces\), 4: ", "6,6,5,2"),
    (r"Wardrobe: Look: ", "Burn scars on the forearms"),
    (r"Mannerism: ", "Taps the anvil twice"),
    (r"Agenda: ", "Buy back the forge"),
    (r"Archetype \(Primary x Secondary on your table\): ", "Artisan"),
    (r"Primary Ability \(blank: the most Advanced\): ", ""),
    (r"Secondary Ability \(blank: the next\): ", ""),
    (r"Trinkets, comma-separated \(optional\): ", "A bent nail"),
]


@pytestmark_pty
def test_star_create_at_a_terminal_walks_every_step(run, db: str, home: Path):
    ok(run, "campaign", "new", "Casting Call")
    t = Terminal(("star", "create", "Nell Hale", "--player", "Sam"), db=db, home=home)
    try:
        for prompt, answer in WALK:
            t.expect(prompt.rstrip())
            t.send(answer + "\r")
        t.expect(r"StarJoined|joined the cast")
        code, err = t.finish()
    finally:
        t.close()
    assert (code, err) == (0, ""), repr(err)
    sheet = ok(run, "sheet", "Nell", "--json").json()["star"]
    assert sheet["player"] == "Sam" and sheet["concept"] == "Artisan"
    assert sheet["abilities"]["work"]["mastered"] and sheet["abilities"]["talk"]["mastered"]
    assert sheet["masteries"] == ["retake", "grit"]
    assert ok(run, "audit", "--all").code == 0


@pytestmark_pty
def test_the_walk_stops_where_the_production_schedule_waits_for_another_star(run, db: str, home: Path):
    ok(run, "campaign", "new", "Casting Call")
    ok(run, "star", "create", ADA)
    ok(run, "star", "casting", "social-class", "Ada", "--roll", "1")
    ok(
        run,
        "star",
        "casting",
        "settle",
        "Ada",
        "--hero-prop",
        "Bow=Sings",
        "--career",
        "training",
        "--career",
        "training",
        "--career",
        "talent",
        "--career",
        "talent",
        "--family-bond",
        "Wren",
        "--family-bond",
        "Oak",
        "--family-bond",
        "Tam",
    )
    ok(
        run,
        "star",
        "casting",
        "parents",
        "Ada",
        *PARENTS,
        "--roll",
        "10",
        "--lost-parent-roll",
        "1,2",
        "--orphan-status-roll",
        "3",
    )
    ok(run, "star", "casting", "siblings", "Ada", "--roll", "1", "--ages", "1")
    ok(run, "star", "casting", "starting-age", "Ada", "teen")  # two Life Stages, from -20Y
    ok(run, "star", "casting", "settle", "Ada", "--mastery", "grit")
    origins = WALK[: next(i for i, (_, answer) in enumerate(WALK) if answer == "retake") + 1]  # Nell: a Youth, at -10Y
    t = Terminal(("star", "create", "Nell Hale"), db=db, home=home)
    try:
        for prompt, answer in origins:
            t.expect(prompt.rstrip())
            t.send(answer + "\r")
        code, err = t.finish()
    finally:
        t.close()
    assert code == 0
    assert "The clock is at -20Y: Ada Quill's Life Stage comes first" in err
    assert ok(run, "star", "casting", "status", "Nell", "--json").json()["next"] == "develop"


def test_the_inciting_incidents_moves_for_a_cast_of_one(run, home) -> None:
    """4.1 Step 4 for a one-Star show: the Rival's Move and the Character's Move as checks, each
    decided again by the audit; a Move outside the rules writes nothing."""
    from tests.e2e.conftest import MARA_FILE, assert_refused, fingerprint

    ok(run, "campaign", "new", "One Star Show")
    ok(run, "star", "add", "--file", MARA_FILE)
    incite = ["--ally", "Captain Ilse,impress", "--antagonist", "The Drowned Duke,fight", "--specialty", "Mara=Rally"]
    ok(
        run,
        "star",
        "casting",
        "inciting-incident",
        *incite,
        "--dilemma",
        "3",
        "--secondary-roll",
        "4",
        "--power",
        "2,3,2,4",
    )
    gambit = ok(run, "star", "casting", "rivals-move", "Mara", "--action", "6,6,2", "--script", "6,1", "--json")
    checked = gambit.json()["facts"][0]["fact"]["resolution"]["request"]
    assert (checked["ability"], checked["difficulty"]) == ("fight", "EPIC")
    before = fingerprint(run, home)
    refused = run("star", "casting", "characters-move", "Mara", "-a", "fight", "-d", "LEGENDARY")
    assert_refused(refused, 1, "the Character's Move is NORMAL up to The Drowned Duke's Power Level EPIC")
    assert fingerprint(run, home) == before
    move = ok(
        run,
        "star",
        "casting",
        "characters-move",
        "Mara",
        "--harm",
        "-a",
        "fight",
        "-d",
        "NORMAL",
        "--action",
        "6,6,5",
        "--opposition-dice",
        "1,1,1,1",
        "--script",
        "6,2",
        "--power",
        "3",
    )
    assert "The Drowned Duke" in move.out and "Grudge" in move.out
    assert run("audit", "--all").code == 0
    assert run("verify").code == 0
