"""A season of progression from the command line: Props, a check with a Trade, a
Career Path completed, a Montage Sequence, the Ensemble Pool spent with consent, an Award won
at Awards Season, Ensemble XP to a new Level; every refusal of the issue is one line on stderr,
a non-zero exit and nothing written; `sheet --json` and `ensemble show --json` show the tracks.
"""

from __future__ import annotations

from tests.e2e.conftest import assert_refused, head, log_events, new_campaign

MARA, TOBIAS = "Mara Voss", "Tobias Quell"


def ok(result):
    assert result.code == 0, result
    return result


def refused(run, needle: str, *args: object) -> None:
    before = head(run)
    assert_refused(run(*args), 1, needle)
    assert head(run) == before


def star(run, name: str) -> dict:
    return ok(run("sheet", name, "--json")).json()["star"]


def fill_and_complete(run, name: str, path: str, cost: int, choice: str = "character") -> None:
    have = star(run, name)["acclaim"][path]
    if cost > have:
        ok(run("acclaim", "mark", name, path, "-n", cost - have, "--reason", "Post-Show"))
    ok(run("acclaim", "complete", name, path, "--choice", choice))


def test_a_season_of_progression_from_the_cli(run):
    new_campaign(run)
    ok(run("episode", "start", "The Flooded Vault"))

    gained = ok(run("prop", "gain", "Mara", "Goods", "-n", "2", "--json")).json()
    assert gained["facts"][0]["type"] == "PropsGained" and gained["facts"][0]["fact"]["lines"] == ["2 in hand"]
    ok(run("prop", "trinket", "Mara", "A brass key"))

    # A Trade inside a check: the Bond with Captain Ilse at HARD is rolled at NORMAL and Advances.
    traded = ok(
        run(
            "check",
            "Mara",
            "fight",
            "-d",
            "HARD",
            "--trade",
            "bond:Captain Ilse",
            "--action",
            "5,4,1",
            "--script",
            "1,1",
            "--json",
        )
    ).json()
    assert traded["difficulty"]["effective"] == "NORMAL" and traded["outcome"] == "success"
    refused(run, "Difficulty Limit", "bond", "trade", "Mara", "Pell the fence", "-d", "HARD")
    refused(
        run,
        "Difficulty Limit",
        "check",
        "Mara",
        "fight",
        "-d",
        "EPIC",
        "--trade",
        "grudge:Lord Aubrec",
        "--action",
        "5,4,1",
        "--script",
        "1,1",
    )
    ok(run("acclaim", "complete", "Mara", "training", "--choice", "actor"))
    # Hitting the Mark fills Move's next milestone: it is crossed in an event of its own, right after.
    moved = ok(run("check", "Mara", "move", "-d", "NORMAL", "--action", "5", "--script", "5,1", "--json")).json()
    assert moved["milestones"]["lines"] == ["Mara Voss: Move reached ○"]

    # A Montage: Practice led by Mara, her check rolled with the scene, Money paid for Retakes.
    ok(run("montage", "start"))
    shot = ok(
        run(
            "montage",
            "scene",
            "practice",
            "--lead",
            "Mara",
            "--ability",
            "fight",
            "--claim",
            "Mara,prop=Money",
            "--action",
            "6,5,2",
            "--opposition-dice",
            "1",
            "--script",
            "1,3",
            "--benefit",
            "3",
            "--json",
        )
    ).json()
    assert [f["type"] for f in shot["facts"]] == ["CheckRolled", "MontageSceneShot"]
    assert ok(run("montage", "show", "--json")).json()["next_opposition"] == 2
    ok(run("ensemble", "stock", "Tobias", "Materials", "-n", "2"))
    ok(run("ensemble", "take", "Tobias", "Materials"))
    ok(run("montage", "stop"))
    refused(run, "once per Episode", "montage", "start")
    refused(run, "only during a Montage", "ensemble", "take", "Tobias", "Materials")

    # The Ensemble Pool: no consent recorded, nothing spent.
    refused(run, "consent", "ensemble", "spend", "Mara", "grit", "--present", "Tobias")
    ok(run("ensemble", "spend", "Mara", "grit", "--present", "Tobias", "--consent", "Tobias"))

    # Tobias: six Paths of Persistence, two Major Milestones, a nomination won as the Method Actor's Award.
    for _ in range(6):
        fill_and_complete(run, "Tobias", "persistence", 4)
    ok(run("acclaim", "awards-season", "Tobias", "persistence", "--award", "method_actor"))
    ok(run("prop", "flashback", "Tobias", "resource_trade", "--award"))
    refused(run, "once per Episode", "acclaim", "use-award", "Tobias", "method_actor")
    for _ in range(6):
        fill_and_complete(run, "Tobias", "persistence", 3)  # the Award's Path costs 1 less
    refused(
        run, "already won this Award", "acclaim", "awards-season", "Tobias", "persistence", "--award", "method_actor"
    )
    ok(run("acclaim", "awards-season", "Tobias", "persistence", "--mastery", "prop"))

    ok(run("episode", "end", "--cliffhanger", "The lights go out"))
    ok(run("grudge", "add", "Mara", "The Harbourmaster"))
    ok(run("ensemble", "xp", "--entertaining", "--premise"))
    refused(run, "once per Episode", "ensemble", "xp", "--entertaining", "--premise")
    ok(run("episode", "start"))
    ok(run("episode", "end", "--no-cliffhanger"))
    grown = ok(
        run("ensemble", "xp", "--entertaining", "--no-premise", "--benefit", "Shared Spotlight", "--json")
    ).json()
    assert grown["facts"][0]["fact"]["levels"] == [2]

    # Every sheet rebuilt from the log shows it.
    mara, tobias = star(run, "Mara"), star(run, "Tobias")
    ilse = next(b for b in mara["bonds"] if b["with"] == "Captain Ilse")
    assert (ilse["tier"], ilse["exhausted"]) == ("FORMIDABLE", [])
    assert mara["career"]["training"]["minor"] == 1 and mara["in_hand"] == [
        {"type": "Goods", "quality": "NORMAL", "count": 2}
    ]
    assert "A brass key" in mara["trinkets"] and mara["grudges"][-1]["with"] == "The Harbourmaster"
    assert tobias["awards"] == ["method_actor"] and tobias["masteries"] == ["prop"]
    assert tobias["awards_used"] == {"method_actor": 1} and tobias["stuff_ticks"] == 12
    ensemble = ok(run("ensemble", "show", "--json")).json()["ensemble"]
    assert (ensemble["level"], ensemble["xp"], ensemble["benefits"]) == (2, 0, ["Shared Spotlight"])
    assert ensemble["pool"]["grit"]["max"] == 5 and ensemble["montage_episode"] == 1
    text = ok(run("sheet", "Tobias")).out
    assert "Method Actor (used in Episode 1)" in text and "Progress" in text
    assert "Level 2" in ok(run("ensemble", "show")).out
    topics = {e["type"] for e in log_events(run)}
    assert {
        "MontageStarted",
        "MontageSceneShot",
        "MontageStopped",
        "CareerPathCompleted",
        "AwardsSeasonHeld",
        "EnsembleXPGained",
        "EnsembleInfluenceSpent",
        "RelationshipAdded",
    } <= topics


def test_bad_input_is_a_usage_error_and_writes_nothing(run):
    new_campaign(run)
    before = head(run)
    assert_refused(run("check", "Mara", "fight", "-d", "H", "--trade", "Ilse"), 2, "--trade")
    assert_refused(run("montage", "scene", "dance", "--lead", "Mara"), 2, "not a Montage Action")
    assert_refused(run("prop", "gain", "Mara", "Gizmos"), 2, "not a Prop Type")
    assert_refused(run("acclaim", "mark", "Mara", "fame"), 2, "not a Career Path")
    assert_refused(run("montage", "start"), 1, "during an Episode")
    assert head(run) == before


def test_every_command_has_an_example_in_its_help(run):
    for group, commands in {
        "prop": ("gain", "spend", "pack", "trinket", "prepare", "flashback", "random"),
        "montage": ("start", "scene", "stop", "show"),
        "bond": ("add", "trade", "resolve"),
        "grudge": ("add", "trade", "resolve"),
        "acclaim": ("mark", "complete", "awards-season", "use-award"),
        "ensemble": ("show", "spend", "stock", "take", "holding", "xp"),
    }.items():
        for command in commands:
            assert "Example" in ok(run(group, command, "--help")).out, (group, command)
    for command in ("xp", "limit-break"):
        assert "Example" in ok(run(command, "--help")).out


def test_a_possession_casts_its_actor_and_a_second_one_empowers_it(run):
    """Appendix D 12 Possession, with table dice: the hostile Actor joins the Supporting Cast."""
    new_campaign(run)
    refused(
        run,
        "'Mara Voss' is a Star of this campaign",
        "limit-break",
        "Tobias",
        "-r",
        "HARD",
        "--fixed-overload",
        "12",
        "--possessor",
        "Mara Voss",
        "--major-anomaly",
        "3,4",
    )
    dice = ["--major-anomaly", "3,4", "--possessor-ability-dice", "3,4", "--possessor-level-dice", "1,3,2"]
    ok(
        run(
            "limit-break",
            "Tobias",
            "-r",
            "HARD",
            "--fixed-overload",
            "12",
            "--possessor",
            "The Brass Ghost",
            *dice,
            "--possessor-power",
            "3,2,4",
        )
    )
    ghost = next(a for a in ok(run("cast", "--json")).json()["actors"] if a["name"] == "The Brass Ghost")
    assert (ghost["primary"], ghost["secondary"], ghost["power_dice"]) == ("fight", "impress", "N4 H2 F3")
    assert star(run, TOBIAS)["possessor"] == "The Brass Ghost"
    out = ok(
        run(
            "limit-break",
            "Tobias",
            "-r",
            "HARD",
            "--fixed-overload",
            "12",
            "--major-anomaly",
            "3,4",
            "--possessor-power",
            "5",
        )
    ).out
    assert "The Brass Ghost, who possesses Tobias Quell, gains one Power Level" in out
    ghost = next(a for a in ok(run("cast", "--json")).json()["actors"] if a["name"] == "The Brass Ghost")
    assert ghost["power_dice"] == "N4 H2 F3 E5"
    assert ok(run("audit", "--all")).code == 0
    assert ok(run("verify")).code == 0
