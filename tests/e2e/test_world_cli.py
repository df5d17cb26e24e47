"""The world from the command line: a Writer's Room turn, a Reveal on-screen, an Action Sequence
against a Threat with `check --against`, bad input refused with nothing written, and Subplots in
stasis that no Star's view can see.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import assert_refused, head, log_events, new_campaign

MARA = "Mara Voss"
SHORE = (
    "actor",
    "create",
    "Lady Shore",
    "--primary",
    "impress",
    "--secondary",
    "talk",
    "--pips",
    "3",
    "--bond",
    "N=Mara",
    "--grudge",
    "N=Mara",
    "--slot",
    "5",
)
# Lady Shore plots at NORMAL (3d6 1,1,2), an Aid Event (10), asks Mara for help (4 Props) and
# calls a Gambit on her in person: words only the Director may see before the Reveal.
SUBPLOT_DICE = ("--power-level-dice", "1,1,2", "--event", "10", "--bounty", "4")
SECRETS = (
    "SubplotGenerated",
    "stasis",
    "Gambit",
    "bounty",
    "asks the Star",
    "confronts in person",
    "ask_star",
    "in_person",
    "event_roll",
    "power_roll",
)


def ok(result):
    assert result.code == 0, result
    return result


def bad_take(run, times: int = 1) -> None:
    """A table-dice Highlight with a Bad Take: the Director gains 1 Studio Note each."""
    for _ in range(times):
        ok(run("check", "Mara", "fight", "-d", "NORMAL", "--action", "6,6,2", "--script", "1,1"))


def world(run) -> None:
    """#1-#3 the campaign and its Stars, #4 Lady Shore on the roster."""
    new_campaign(run)
    ok(run(*SHORE))


def test_a_writers_room_turn_and_a_reveal_on_screen(run):
    world(run)
    written = ok(run("subplot", "pre-production", *SUBPLOT_DICE, "--json")).json()
    assert [(f["type"], f["visibility"]) for f in written["facts"]] == [("SubplotGenerated", "director")]
    assert written["facts"][0]["fact"]["cost"] == 0
    listed = ok(run("subplot", "list", "--json")).json()["subplots"]
    assert [(p["number"], p["status"], p["plotter"]) for p in listed] == [(1, "stasis", "Lady Shore")]
    assert ok(run("actor", "show", "Lady Shore", "--json")).json()["actor"]["power"]["pips"] == [3]

    bad_take(run, 2)  # 2 Studio Notes: the Writer's Turn spends 1
    turn = ok(run("oracle", "writers-turn", "1", "--json")).json()
    assert [(f["type"], f["visibility"]) for f in turn["facts"]] == [
        ("WritersTurnTaken", "director"),
        ("SubplotRevealed", "public"),
    ]
    assert ok(run("actor", "show", "Lady Shore", "--json")).json()["actor"]["power"]["pips"] == [4]
    revealed = ok(run("--as", MARA, "subplot", "list", "--json")).json()["subplots"]
    assert [(p["number"], p["status"]) for p in revealed] == [(1, "revealed")]
    assert "Gambit" in " ".join(revealed[0]["effects_text"])
    cast = ok(run("--as", MARA, "cast", "--json")).json()
    assert cast["subplots"] == [{"number": 1, "plotter": "Lady Shore", "status": "revealed"}]
    assert ok(run("subplot", "resolve", "1")).out.startswith("#")

    # The next turn rolls on the roster: an empty slot is Unlocked, for the Director's eyes only.
    bad_take(run, 3)  # 1 + 3 = 4 Studio Notes? (1 left after the turn) -> budget 2
    notes = ok(run("replay", "--to", str(head(run)["version"]), "--json")).json()["state"]["studio_notes"]
    assert notes == 4
    turn = ok(run("oracle", "writers-turn", "roll", "roll", "--roster-die", "40,41", "--json")).json()
    assert [f["fact"].get("outcome") for f in turn["facts"][1:]] == ["slot_unlocked", "slot_unlocked"]
    assert [p["state"] for p in ok(run("cast", "--json")).json()["roster"]] == ["filled", "unlocked", "unlocked"]
    assert [p["state"] for p in ok(run("--as", MARA, "cast", "--json")).json()["roster"]] == ["filled"]


def test_an_action_sequence_against_a_threat_entirely_from_the_cli(run):
    new_campaign(run)
    ok(run("threat", "create", "Iron Warden", "--kind", "opponent", "-l", "FORMIDABLE", "--power", "4,2,3"))
    shown = ok(run("threat", "show", "iron warden", "--json")).json()
    assert shown["threat"]["power"]["pips"] == [3, 2, 4]
    assert shown["decisive_strike"] == {"difficulty": "EPIC", "opposition": 6}

    # check --against a Threat: its HARD die's 2 pips are the Opposition; a Success clears it.
    checked = ok(
        run(
            "check",
            "Mara",
            "fight",
            "-d",
            "HARD",
            "--against",
            "iron warden",
            "--action",
            "5,4,1",
            "--opposition-dice",
            "2,3",
            "--script",
            "6,6",
            "--power",
            "5",
            "--json",
        )
    ).json()
    assert checked["outcome"] == "success" and len(checked["events"]) == 2
    assert checked["threat"]["before"] == "N3 H2 F4" and checked["threat"]["after"] == "N3 H5 F3"
    # Free text still works as before.
    ok(
        run(
            "check",
            "Mara",
            "fight",
            "-d",
            "NORMAL",
            "--against",
            "a rusted gate",
            "--opposition",
            "1",
            "--action",
            "6,5,2",
            "--opposition-dice",
            "1",
            "--script",
            "6,5",
        )
    )

    ok(
        run(
            "sequence",
            "declare",
            "Bring down the Warden",
            "-d",
            "FORMIDABLE",
            "--beats",
            "2",
            "--from",
            "Mara:grit",
            "--against",
            "Iron Warden",
        )
    )
    running = ok(run("sequence", "show", "--json")).json()["sequences"]
    assert [(q["goal"], q["beat_difficulty"], q["combo"]) for q in running] == [
        ("Bring down the Warden", "HARD", {"grit": 1})
    ]
    # Setup Beat at HARD against the HARD die's 5 pips: a Success clears it (F 3 -> 2, H reset 4).
    beat = ok(
        run(
            "sequence",
            "beat",
            "bring down the warden",
            "Mara",
            "fight",
            "--action",
            "6,5,4",
            "--opposition-dice",
            "1,1,2,2,3",
            "--script",
            "2,2",
            "--power",
            "4",
            "--json",
        )
    ).json()
    assert [f["type"] for f in beat["facts"]] == ["CheckRolled", "SequenceBeatPlayed"]
    assert beat["facts"][0]["fact"]["resolution"]["request"]["opposition"] == 5
    # The Climax, rolled elsewhere: a Success at FORMIDABLE clears the top die: the Warden is defeated.
    climax = ok(run("sequence", "beat", "Bring down the Warden", "--outcome", "success", "--json")).json()
    assert climax["sequence_outcome"] == "success" and climax["payout"] == {"grit": 1}
    assert ok(run("threat", "show", "Iron Warden", "--json")).json()["threat"]["status"] == "defeated"
    assert ok(run("sequence", "show", "--json")).json()["sequences"] == []
    text = ok(run("log")).out
    assert "the Sequence ends: success" in text


def test_a_cast_view_and_actors_rolled_with_table_dice(run):
    world(run)
    ok(
        run(
            "actor",
            "create",
            "Grim",
            "--concept",
            "dockside enforcer",
            "--ability-dice",
            "3,3,4",
            "--power-level-dice",
            "1,2,5",
            "--power",
            "4,2",
            "--bond",
            "H=Lady Shore",
        )
    )
    cast = ok(run("cast", "--json")).json()
    assert [(r["slot"], r["actor"]) for r in cast["roster"]] == [(1, "Grim"), (5, "Lady Shore")]
    grim = next(a for a in cast["actors"] if a["name"] == "Grim")
    assert (grim["primary"], grim["secondary"], grim["power_dice"]) == ("fight", "impress", "N2 H4")
    shore = next(a for a in cast["actors"] if a["name"] == "Lady Shore")
    assert shore["bonds"] == {"NORMAL": {"name": MARA, "star": True}}
    table = ok(run("cast")).out
    assert "Lady Shore" in table and "N Mara Voss ★" in table
    clash = ok(run("actor", "contest", "Grim", "Lady Shore", "-d", "NORMAL", "--json")).json()
    assert (clash["pips"], clash["winner"]) == ([2, 3], "Lady Shore")


def test_a_check_to_aid_an_actor_from_the_cli(run):
    world(run)
    aided = ok(
        run(
            "check",
            "Mara",
            "fight",
            "-d",
            "NORMAL",
            "--against",
            "lady shore",
            "--aid",
            "--action",
            "6,5,1",
            "--opposition-dice",
            "1,1,2",
            "--script",
            "1,1",
            "--json",
        )
    ).json()
    assert aided["outcome"] == "success" and aided["threat"]["before"] == "N3" and aided["threat"]["after"] == "N4"
    assert "check to aid" in aided["threat"]["summary"]
    assert ok(run("actor", "show", "Lady Shore", "--json")).json()["actor"]["power"]["pips"] == [4]
    # A Star rolls her own aid; the Director cannot make it for her under another name.
    ok(
        run(
            "--as",
            MARA,
            "check",
            "Mara",
            "fight",
            "-d",
            "NORMAL",
            "--against",
            "Lady Shore",
            "--aid",
            "--action",
            "6,5,1",
            "--opposition-dice",
            "1,1,2,2",
            "--script",
            "1,1",
        )
    )


def test_an_actors_bond_and_grudge_move_from_the_cli(run):
    world(run)
    ok(run("actor", "create", "Grim", "--primary", "fight", "--secondary", "move", "--pips", "2,5"))
    moved = ok(run("actor", "tie", "grim", "--bond", "Mara", "--json")).json()
    assert [f["type"] for f in moved["facts"]] == ["ActorTieChanged"]
    assert moved["kind"] == "bond" and moved["slots"] == {"NORMAL": {"name": MARA, "star": True}}
    assert moved["facts"][0]["summary"] == "Grim's Bond with Mara Voss enters at NORMAL"
    ok(run("actor", "tie", "Grim", "--bond", "Mara Voss", "--to", "HARD"))
    ok(run("actor", "tie", "Grim", "--grudge", "Lady Shore"))
    grim = ok(run("actor", "show", "Grim", "--json")).json()["actor"]
    assert grim["bonds"] == {"HARD": {"name": MARA, "star": True}}
    assert grim["grudges"] == {"NORMAL": {"name": "Lady Shore", "star": False}}
    assert "Grim's Grudge with Lady Shore enters at NORMAL" in ok(run("log")).out


def test_a_strike_and_a_beat_take_the_before_roll_options_of_check(run):
    new_campaign(run)
    ok(run("threat", "create", "Sentinel", "--kind", "obstacle", "-l", "HARD", "--pips", "2,3"))
    # At FORMIDABLE against 3 + 1 Opposition Dice; Swords (rank 2) and 1 Grit make 3 + 2 + 1 Action Dice.
    struck = ok(
        run(
            "threat",
            "strike",
            "Sentinel",
            "Mara",
            "fight",
            "-s",
            "Swords",
            "--grit",
            "1",
            "--keep",
            "6,5",
            "--action",
            "6,5,4,3,2,1",
            "--opposition-dice",
            "1,1,2,3",
            "--script",
            "2,3",
            "--json",
        )
    ).json()
    request = struck["facts"][0]["fact"]["resolution"]["request"]
    assert (request["specialties"], request["grit"], request["keep"]) == (["Swords"], 1, [6, 5])
    assert struck["facts"][1]["fact"]["effect"]["status"] == "destroyed"
    assert ok(run("sheet", "Mara", "--json")).json()["star"]["influence"]["grit"]["current"] == 2

    ok(run("sequence", "declare", "Cross the river", "-d", "HARD", "--beats", "2", "--from", "Tobias:grit"))
    # Setup Beat at NORMAL: Move 1, Footwork 1 and 1 Preparation spent as a Prop make 3 Action Dice.
    beat = ok(
        run(
            "sequence",
            "beat",
            "Cross the river",
            "Mara",
            "move",
            "-s",
            "Footwork",
            "--preparation",
            "1",
            "--action",
            "6,5,2",
            "--script",
            "6,6",
            "--json",
        )
    ).json()
    request = beat["facts"][0]["fact"]["resolution"]["request"]
    assert (request["specialties"], request["preparation"]) == (["Footwork"], 1)
    assert beat["facts"][1]["fact"]["recorded"]["beat"]["star"] == MARA


def test_a_sequence_pays_out_and_records_the_consequences_due(run):
    new_campaign(run)
    ok(
        run(
            "sequence",
            "declare",
            "Cross the river",
            "-d",
            "FORMIDABLE",
            "--beats",
            "3",
            "--from",
            "Mara:grit",
            "--from",
            "Tobias:retake",
        )
    )
    # Setup Beat 1 rolled by Mara at NORMAL: 5,2 is a Partial: one NORMAL Consequence due for her.
    beat = ok(
        run("sequence", "beat", "Cross the river", "Mara", "fight", "--action", "5,2,1", "--script", "6,6", "--json")
    ).json()
    assert [f["type"] for f in beat["facts"]] == ["CheckRolled", "SequenceBeatPlayed", "ConsequencesDue"]
    assert beat["consequences_due"] == [{"stars": [MARA], "count": 1, "difficulty": "NORMAL"}]
    text = ok(run("sequence", "beat", "Cross the river", "--outcome", "success")).out
    # The Climax, a Partial: the Combo Pool's Grit goes to Mara, its Retake to Tobias; both owe one.
    climax = run("sequence", "beat", "Cross the river", "--outcome", "partial")
    assert climax.code == 0, climax
    assert "Mara Voss regained 1 Grit (Combo Pool payout of 'Cross the river')" in climax.out
    assert "Tobias Quell regained 1 Retake (Combo Pool payout of 'Cross the river')" in climax.out
    assert "1 Consequence at FORMIDABLE each due for Mara Voss, Tobias Quell" in climax.out
    assert "showrunner consequence 'Tobias Quell' grit-loss -d FORMIDABLE --ability ABILITY" in climax.out
    assert "record it with `showrunner regain`" not in climax.out + text
    due = log_events(run, "--type", "ConsequencesDue")
    assert [e["visibility"] for e in due] == ["public", "public"]
    assert ok(run("sheet", "Tobias", "--json")).json()["star"]["influence"]["retake"]["current"] == 1  # 1 - 1 + 1


@pytest.mark.parametrize(
    "args, code, needle",
    [
        (("subplot", "generate", "--plotter", "Nobody"), 1, "no Actor called 'Nobody'"),
        (("actor", "show", "Nobody"), 1, "no Actor called 'Nobody'"),
        (("actor", "contest", "Lady Shore", "Nobody", "-d", "HARD"), 1, "no Actor called 'Nobody'"),
        (("threat", "strike", "Nobody", "Mara", "fight"), 1, "no Threat or Actor called 'Nobody'"),
        (
            ("sequence", "declare", "Raid", "-d", "HARD", "--beats", "2", "--from", "Mara:grit", "--against", "Nobody"),
            1,
            "no Threat or Actor called 'Nobody'",
        ),
        (("sequence", "declare", "Raid", "-d", "HARD", "--beats", "6"), 1, "2 to 5 Beats, not 6"),
        (("sequence", "declare", "Raid", "-d", "HARD", "--beats", "1"), 1, "2 to 5 Beats, not 1"),
        (("sequence", "beat", "Raid", "--outcome", "success"), 1, "no Action Sequence is running"),
        (("subplot", "generate", "--plotter", "Lady Shore", *SUBPLOT_DICE), 1, "the Director has 0 Studio Notes"),
        (("subplot", "reveal", "3"), 1, "there is no Subplot 3"),
        (("oracle", "writers-turn", "roll"), 1, "exactly half the Studio Notes"),
        (("--as", MARA, "subplot", "generate", "--plotter", "Lady Shore"), 1, "only the Director writes Subplots"),
        (("--as", MARA, "actor", "create", "Vex"), 1, "only the Director casts Actors"),
        (("actor", "create", "Vex", "--ability-dice", "1"), 1, "--ability-dice"),
        (("actor", "create", "mara voss", "--pips", "2"), 1, "is a Star"),
        (("threat", "create", "Gate", "--kind", "obstacle", "-l", "HARD", "--power", "9"), 2, "not a d6 face"),
        (
            ("check", "Mara", "fight", "-d", "HARD", "--against", "Lady Shore", "--opposition", "2"),
            2,
            "drop --opposition",
        ),
        (("check", "Mara", "fight", "-d", "HARD", "--power", "3"), 2, "--power"),
        (("oracle", "writers-turn", "later"), 2, "'roll' or a Subplot's number"),
        (("check", "Mara", "fight", "-d", "HARD", "--aid"), 2, "--aid: name the Actor aided with --against"),
        (
            ("check", "Mara", "fight", "-d", "HARD", "--against", "a rusted gate", "--opposition", "1", "--aid"),
            2,
            "--aid: name the Actor aided",
        ),
        (("actor", "tie", "Lady Shore"), 2, "--bond NAME or --grudge NAME"),
        (("actor", "tie", "Lady Shore", "--bond", "Mara", "--grudge", "Mara"), 2, "--bond NAME or --grudge NAME"),
        (
            ("actor", "tie", "Lady Shore", "--bond", "Mara", "--to", "SOON"),
            2,
            "--to: 'SOON' is not on the Difficulty ladder",
        ),
        (
            ("actor", "tie", "Lady Shore", "--bond", "Mara", "--to", "HARD"),
            1,
            "Lady Shore is NORMAL: Bond slots run from NORMAL to NORMAL, one per Power Level; there is no HARD slot",
        ),
        (("actor", "tie", "Lady Shore", "--grudge", "Mara"), 1, "already in the top slot"),
        (("actor", "tie", "Nobody", "--grudge", "Mara"), 1, "no Actor called 'Nobody'"),
        (("actor", "tie", "Lady Shore", "--grudge", "Nobody"), 1, "no Actor is called 'Nobody'"),
        (
            ("--as", MARA, "actor", "tie", "Lady Shore", "--bond", "Tobias"),
            1,
            "only the Director moves an Actor's Bonds and Grudges",
        ),
        (
            ("threat", "strike", "Lady Shore", "Mara", "fight", "--prop", "Rocks"),
            2,
            "--prop: 'Rocks' is not a Prop Type",
        ),
        (
            ("threat", "strike", "Lady Shore", "Mara", "fight", "--scar-slot", "11"),
            2,
            "--scar-slot: 11 is not a d10 face",
        ),
        (("threat", "strike", "Lady Shore", "Mara", "fight", "--keep", "5"), 2, "--keep takes two faces"),
        (
            ("sequence", "beat", "Raid", "--outcome", "success", "--grit", "1"),
            2,
            "--outcome records a Beat without a check: give no --grit",
        ),
    ],
)
def test_bad_input_is_refused_and_writes_nothing(run, args, code, needle):
    world(run)
    before = head(run)
    assert_refused(run(*args), code, needle)
    assert head(run) == before


def test_a_second_reveal_is_refused_and_writes_nothing(run):
    world(run)
    ok(run("subplot", "pre-production", *SUBPLOT_DICE))
    ok(run("subplot", "reveal", "1", "--cliffhanger"))
    before = head(run)
    assert_refused(run("subplot", "reveal", "1", "--cliffhanger"), 1, "already been revealed")
    assert_refused(run("subplot", "reveal", "1"), 1, "already been revealed")
    assert head(run) == before


# ------------------------------------------------------------------ the stasis leak


@pytest.fixture
def in_stasis(run):
    """An Episode in which the Director writes Subplot 1 in stasis; its version."""
    world(run)
    ok(run("episode", "start", "The Flooded Vault"))
    bad_take(run)
    written = ok(run("subplot", "generate", "--plotter", "Lady Shore", *SUBPLOT_DICE, "--json")).json()
    ok(run("note", "The tide turns"))
    ok(run("episode", "end", "--cliffhanger", "The vault floods", "--skip-post-show"))
    return written["events"][0]


def star_views(run, version: int, who: str = MARA) -> dict[str, str]:
    views = {
        "log": run("--as", who, "log"),
        "log --json": run("--as", who, "log", "--json", "--per-page", "1000"),
        "sheet": run("--as", who, "sheet", "Mara"),
        "sheet --json": run("--as", who, "sheet", "Mara", "--json"),
        "replay --json": run("--as", who, "replay", "--to", str(version), "--json"),
        "replay": run("--as", who, "replay", "--to", str(version)),
        "cast --json": run("--as", who, "cast", "--json"),
        "cast": run("--as", who, "cast"),
        "subplot list --json": run("--as", who, "subplot", "list", "--json"),
        "recap": run("--as", who, "recap", "--format", "md"),
        "recap --json": run("--as", who, "recap", "--json"),
        "export": run("--as", who, "export", "--output", "-"),
        "star list --json": run("--as", who, "star", "list", "--json"),
    }
    for name, result in views.items():
        assert result.code == 0, (name, result)
    return {name: result.out for name, result in views.items()}


def test_no_star_view_shows_a_subplot_in_stasis(run, in_stasis):
    director = {
        "log": ok(run("log")).out,
        "replay --json": ok(run("replay", "--to", str(in_stasis), "--json")).out,
        "recap": ok(run("recap", "--director", "--format", "md")).out,
        "show": ok(run("show", str(in_stasis))).out,
    }
    assert "Subplot 1 written in stasis" in director["log"]  # the Director sees it, so the needles are real
    assert "asks the Star" in director["replay --json"] or "ask_star" in director["replay --json"]
    for who in (MARA, "Tobias Quell"):
        for name, out in star_views(run, in_stasis, who).items():
            for secret in SECRETS:
                assert secret not in out, (who, name, secret)
        shown = run("--as", who, "show", str(in_stasis))
        line = assert_refused(shown, 1, "for the Director only")
        assert all(secret not in line for secret in SECRETS)
    star = run("--as", MARA, "replay", "--to", str(in_stasis), "--json").json()
    assert star["state"]["world"]["subplots"] == []
    events = json.loads(run("--as", MARA, "log", "--json", "--per-page", "1000").out)["events"]
    assert in_stasis not in [e["version"] for e in events]
    assert all(e["type"] != "SubplotGenerated" for e in events)

    # Revealed, the same Subplot is on every Star's screen.
    ok(run("subplot", "reveal", "1", "--cliffhanger"))
    assert "Gambit" in ok(run("--as", MARA, "log")).out
    assert [p["status"] for p in ok(run("--as", MARA, "cast", "--json")).json()["subplots"]] == ["revealed"]


def test_the_real_script_runs_a_reveal(cli):
    new_campaign(cli)
    ok(cli(*SHORE))
    ok(cli("subplot", "pre-production", *SUBPLOT_DICE))
    assert_refused(cli("--as", MARA, "subplot", "reveal", "1"), 1, "only the Director reveals Subplots")
    revealed = ok(cli("subplot", "reveal", "1", "--cliffhanger", "--json")).json()
    assert revealed["facts"][0]["type"] == "SubplotRevealed"
    events = log_events(cli, "--type", "SubplotRevealed")
    assert [e["visibility"] for e in events] == ["public"]
