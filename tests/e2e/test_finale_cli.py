"""The Finale from the command line: a Finale played to The End, bad input refused in one line
with nothing written (outside the last Episode, after The End, a Star acting as Director), and the
Director-only facts of the World's turn kept from every Star's view."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_refused, fingerprint, head, new_campaign

MARA = "Mara Voss"
TOBIAS = "Tobias Quell"
SECRET_TOPICS = ("FinaleSubplotMaximized", "FinaleTurnPassed", "maximized from")


def ok(result):
    assert result.code == 0, result
    return result


def a_season_at_its_last_episode(run) -> None:
    """Grim (NORMAL) and Lady Shore (FORMIDABLE), whose Subplot in stasis is a HARD Harm Scheme on
    Tobias in person; a Bad Take's Studio Note; Episode 1 running."""
    new_campaign(run)
    ok(
        run(
            "actor",
            "create",
            "Grim",
            "--primary",
            "fight",
            "--secondary",
            "move",
            "--pips",
            "4",
            "--bond",
            "N=Mara",
            "--grudge",
            "N=Mara",
        )
    )
    ok(
        run(
            "actor",
            "create",
            "Lady Shore",
            *("--primary", "impress", "--secondary", "talk", "--pips", "3,2,4"),
            *("--bond", "N=Mara", "--bond", "H=Tobias", "--bond", "F=Grim"),
            *("--grudge", "N=Mara", "--grudge", "H=Tobias", "--grudge", "F=Grim"),
        )
    )
    ok(
        run(
            "subplot",
            "generate",
            *("--plotter", "Lady Shore", "--pre-production"),
            *("--power-level-dice", "1,1,2", "--event", "60", "--bounty", "4", "--power", "3,3,3"),
        )
    )
    ok(run("check", "Mara", "fight", "-d", "NORMAL", "--action", "6,6,2", "--script", "1,1"))  # a Bad Take
    ok(run("episode", "start", "The Last Tide"))


def test_a_finale_played_from_the_cli_to_the_end(run):
    a_season_at_its_last_episode(run)
    ok(run("finale", "begin"))
    # Mara against Grim's NORMAL die (4 pips): 6,5 survive the 4 Opposition Dice, a Success.
    harm = ok(
        run(
            "finale",
            "scene",
            "Mara",
            "fight",
            *("--against", "Grim", "--harm", "--declare", "I end Grim's reign"),
            *("--action", "6,5,1", "--opposition-dice", "1,2,3,4", "--script", "2,3", "--json"),
        )
    ).json()
    resolved = harm["facts"][-1]
    assert resolved["type"] == "FinalSceneResolved"
    assert resolved["fact"]["scene"]["difficulty"] == "NORMAL" and resolved["fact"]["actor"]["written_off"]
    ok(run("finale", "turn", "Mara", "--pass"))

    ok(run("finale", "scene", "Tobias", "--world", "-d", "HARD", "--outcome", "success", "--declare", "I retire"))
    turned = ok(run("finale", "turn", "Tobias", "--json")).json()["facts"]
    assert [f["type"] for f in turned] == ["FinaleSubplotMaximized", "SubplotRevealed", "FinalActPlayed"]
    assert turned[2]["fact"]["gambit"]["level"] == "FORMIDABLE"
    assert_refused(run("finale", "end"), 1, "Tobias Quell must first resist Lady Shore's FORMIDABLE Gambit")
    resisted = ok(run("finale", "resist", "Tobias", "--outcome", "failure", "--json")).json()["facts"][-1]
    assert resisted["fact"]["damage"] == 5  # a FORMIDABLE Consequence: 5 Plot Armor
    shown = ok(run("finale", "show", "--json")).json()["finale"]
    assert shown["owing"] == [] and shown["gambits"] == [] and len(shown["scenes"]) == 2
    assert ok(run("finale", "end")).out.startswith("#")
    assert ok(run("finale", "show", "--json")).json()["finale"]["ended"] is True
    assert "The End" in ok(run("log")).out


def test_a_finale_outside_the_last_episode_is_refused_and_writes_nothing(run, home):
    new_campaign(run)
    before = fingerprint(run, home)
    assert_refused(
        run("finale", "scene", "Mara", "--world", "-d", "HARD", "--outcome", "success"), 1, "no Finale is running"
    )
    assert_refused(run("finale", "begin"), 1, "the season's last Episode and none is running")
    assert fingerprint(run, home) == before
    ok(run("episode", "start", "The Last Tide"))
    ok(run("finale", "begin"))
    ok(run("episode", "end", "--no-cliffhanger"))
    at = head(run)
    assert_refused(
        run("finale", "scene", "Mara", "--world", "-d", "HARD", "--outcome", "success"), 1, "belongs to Episode 1"
    )
    assert_refused(run("finale", "begin"), 1, "a Show has one Finale")
    assert head(run) == at


def test_a_final_scene_after_the_end_is_refused_and_writes_nothing(run):
    new_campaign(run)
    ok(run("episode", "start", "The Last Tide"))
    ok(run("finale", "begin"))
    assert_refused(run("finale", "end"), 1, "Mara Voss, Tobias Quell have performed no Final Scene")
    ok(run("finale", "scene", "Mara", "--world", "-d", "HARD", "--outcome", "highlight"))
    ok(run("finale", "finish", "Tobias"))
    ok(run("finale", "end"))
    at = head(run)
    assert_refused(
        run("finale", "scene", "Mara", "--world", "-d", "HARD", "--outcome", "success"), 1, "The End has been recorded"
    )
    assert_refused(run("finale", "finish", "Mara"), 1, "The End has been recorded")
    assert head(run) == at


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (
            ("finale", "scene", "Mara", "fight", "--world", "--against", "Grim", "--harm"),
            2,
            "--against ACTOR or --world",
        ),
        (("finale", "scene", "Mara", "--world", "-d", "HARD"), 2, "name the ABILITY rolled"),
        (
            ("finale", "scene", "Mara", "fight", "--world", "-d", "HARD", "--outcome", "success"),
            2,
            "drop ABILITY fight",
        ),
        (("finale", "scene", "Mara", "--world", "-d", "HARD", "--outcome", "win"), 2, "unknown outcome 'win'"),
        (("finale", "scene", "Mara", "--world", "-d", "EASY", "--outcome", "success"), 2, "EASY is not"),
        (("finale", "scene", "Nobody", "--world", "-d", "HARD", "--outcome", "success"), 1, "unknown Star 'Nobody'"),
        (("finale", "turn", "Mara"), 1, "no Final Scene waits for it"),
        (("finale", "resist", "Mara", "--outcome", "failure"), 1, "no Gambit waits for Mara Voss"),
    ],
)
def test_bad_finale_input_is_one_line_and_writes_nothing(run, args, code, needle):
    new_campaign(run)
    ok(run("episode", "start", "The Last Tide"))
    ok(run("finale", "begin"))
    at = head(run)
    assert_refused(run(*args), code, needle)
    assert head(run) == at


def test_a_star_acting_as_director_is_refused(run):
    new_campaign(run)
    ok(run("episode", "start", "The Last Tide"))
    at = head(run)
    assert_refused(run("--as", MARA, "finale", "begin"), 1, "only the Director begins the Finale")
    ok(run("finale", "begin"))
    at = head(run)
    assert_refused(run("--as", MARA, "finale", "turn", "Mara"), 1, "only the Director turns the World")
    assert_refused(run("--as", MARA, "finale", "end"), 1, "only the Director calls The End")
    assert_refused(
        run("--as", MARA, "finale", "scene", "Tobias", "--world", "-d", "HARD", "--outcome", "success"),
        1,
        "Mara Voss cannot record for Tobias Quell",
    )
    assert_refused(run("--as", MARA, "finale", "finish", "Tobias"), 1, "cannot record for Tobias Quell")
    assert head(run) == at
    ok(run("--as", MARA, "finale", "scene", "Mara", "--world", "-d", "HARD", "--outcome", "success"))


def test_director_only_finale_facts_do_not_reach_a_star(run, tmp_path):
    a_season_at_its_last_episode(run)
    ok(run("finale", "begin"))
    ok(run("finale", "scene", "Mara", "--against", "Grim", "--harm", "--outcome", "success"))
    ok(run("finale", "turn", "Mara", "--pass"))
    ok(run("finale", "scene", "Tobias", "--world", "-d", "HARD", "--outcome", "success"))
    ok(run("finale", "turn", "Tobias"))
    director = ok(run("log", "--json")).out
    assert all(secret in director for secret in ("FinaleSubplotMaximized", "FinaleTurnPassed"))
    export = tmp_path / "star.jsonl"
    for star in (MARA, TOBIAS):
        seen = [
            ok(run("--as", star, "log", "--json")).out,
            ok(run("--as", star, "log")).out,
            ok(run("--as", star, "recap")).out,
            ok(run("--as", star, "timeline", "--min-weight", "0")).out,
            ok(run("--as", star, "finale", "show", "--json")).out,
        ]
        ok(run("--as", star, "export", "--output", export))
        seen.append(export.read_text(encoding="utf-8"))
        for text in seen:
            assert not [s for s in SECRET_TOPICS if s in text], star
    # What the Star does see: the Reveal at the maximized Power, and the Gambit it calls.
    public = ok(run("--as", TOBIAS, "log")).out
    assert "Subplot 1 revealed" in public and "FORMIDABLE Gambit" in public


def test_the_finale_is_a_command_of_the_console_script(cli):
    shown = cli("--help")
    assert shown.code == 0 and "finale" in shown.out
    finale = cli("finale", "--help")
    assert finale.code == 0
    for command in ("begin", "scene", "turn", "resist", "finish", "end", "show"):
        assert command in finale.out
    refused = cli("finale", "begin")
    assert refused.code != 0 and refused.err.count("\n") == 1 and refused.out == ""


def test_a_consequence_during_the_finale_is_plot_armor_damage(run):
    new_campaign(run)
    ok(run("episode", "start", "The Last Tide"))
    ok(run("finale", "begin"))
    before = ok(run("sheet", "Mara", "--json")).json()["star"]["influence"]
    ok(run("consequence", "Mara", "grit-loss", "-d", "EASY"))
    after = ok(run("sheet", "Mara", "--json")).json()["star"]["influence"]
    assert after["grit"] == before["grit"]  # Grit is bypassed
    assert after["plot_armor"]["current"] == before["plot_armor"]["current"] - 2  # EASY: 2 Plot Armor


def test_the_finale_belongs_to_showrunner_campaigns(run):
    ok(run("campaign", "new", "The Lantern", "--ruleset", "pool"))
    at = head(run)
    assert_refused(run("finale", "begin"), 1, "Finales belong to Showrunner campaigns")
    assert_refused(run("finale", "show"), 2, "only a Showrunner campaign has a Finale")
    assert head(run) == at
