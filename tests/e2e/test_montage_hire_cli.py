"""9.2D Hire from the command line: hiring an Actor for one Subplot writes that Subplot in
stasis for the Director; hiring one to accompany writes none; bad hires write nothing."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_refused, head, new_campaign

MARA = "Mara Voss"
# Grim (N2 H3) with a complete web: at HARD his Bond is Mara and his Grudge Tobias.
GRIM = (
    *("actor", "create", "Grim", "--primary", "fight", "--secondary", "move", "--pips", "2,3"),
    *("--bond", "N=Tobias", "--bond", "H=Mara", "--grudge", "N=Mara", "--grudge", "H=Tobias"),
)
HIRE = ("montage", "scene", "hire", "--lead", "Mara", "--outcome", "success")


def ok(result):
    assert result.code == 0, result
    return result


@pytest.fixture
def hiring(run):
    """The campaign, Grim, an Episode with its Montage running, and Mara holding 1 HARD Money."""
    new_campaign(run)
    ok(run(*GRIM))
    ok(run("episode", "start", "Night"))
    ok(run("prop", "gain", "Mara", "Money:HARD"))
    ok(run("montage", "start"))
    return run


def test_a_hire_for_one_subplot_writes_it_in_stasis_at_the_power_paid(hiring):
    run = hiring
    shot = ok(run(*HIRE, "--claim", "Mara,hire=grim,subplot=HARD", "--event", "70", "--bounty", "3", "--json")).json()
    assert [(f["type"], f["visibility"]) for f in shot["facts"]] == [
        ("MontageSceneShot", "public"),
        ("HiredSubplotWritten", "director"),
    ]
    subplot = shot["facts"][1]["fact"]["subplot"]
    assert (subplot["plotter"], subplot["power"], subplot["hired_by"], subplot["power_roll"]) == (
        "Grim",
        "HARD",
        MARA,
        None,
    )
    # Phase 2 on as any Subplot: a Harm Event (70), Mara is his Ally at HARD (a bounty of 3), Tobias his Target.
    assert (subplot["event"], subplot["approach"], subplot["target"]["name"]) == ("harm", "ask_star", "Tobias Quell")
    listed = ok(run("subplot", "list", "--json")).json()["subplots"]
    assert [(p["number"], p["status"], p.get("hired_by")) for p in listed] == [(1, "stasis", MARA)]
    assert "hired by Mara Voss" in listed[0]["plan"]
    assert ok(run("--as", MARA, "subplot", "list", "--json")).json()["subplots"] == []
    star_log = ok(run("--as", MARA, "log", "--json")).out
    assert "HiredSubplotWritten" not in star_log
    assert "Mara Voss: hired Grim for one HARD Subplot" in star_log  # the Actor as the world names them
    # Audit decides the scene again, the Subplot with it.
    assert ok(run("audit", "--all", "--json")).json()["ok"] is True


def test_a_hire_to_accompany_writes_no_subplot(hiring):
    run = hiring
    shot = ok(run(*HIRE, "--claim", "Mara,hire=Grim,accompany=HARD", "--json")).json()
    assert [f["type"] for f in shot["facts"]] == ["MontageSceneShot", "HirelingEngaged"]
    assert shot["facts"][0]["fact"]["scene"]["hired"] == [{"actor": "Grim", "power": "HARD", "accompany": True}]
    assert ok(run("subplot", "list", "--json")).json()["subplots"] == []


@pytest.mark.parametrize(
    ("claim", "code", "needle"),
    [
        ("Mara,hire=Nobody,subplot=HARD", 1, "no Actor called 'Nobody'"),
        ("Mara,hire=Grim,subplot=FORMIDABLE", 1, "Grim is HARD: a FORMIDABLE Subplot is above their Power Level"),
        ("Mara,hire=Grim", 2, "hire=NAME) and subplot=LEVEL or accompany=LEVEL"),
        ("Mara,hire=Grim,subplot=HARD,accompany=HARD", 2, "for one Subplot (subplot=LEVEL) or to accompany"),
        ("Mara,hire=Grim,subplot=HARDEST", 2, "not on the Difficulty ladder"),
        ("Mara,hire=Grim,subplot=HARD,quality=NORMAL", 1, "Hire here needs Money of HARD Quality or better"),
    ],
)
def test_bad_hires_are_refused_and_write_nothing(hiring, claim, code, needle):
    run = hiring
    before = head(run)
    assert_refused(run(*HIRE, "--claim", claim), code, needle)
    assert head(run) == before


def test_an_actor_with_a_subplot_unresolved_cannot_be_hired_for_another(hiring):
    run = hiring
    ok(
        run(
            "subplot",
            "generate",
            "--plotter",
            "Grim",
            "--pre-production",
            "--power-level-dice",
            "2,2,3",
            "--event",
            "10",
            "--bounty",
            "4",
        )
    )
    before = head(run)
    assert_refused(run(*HIRE, "--claim", "Mara,hire=Grim,subplot=HARD"), 1, "Grim already has Subplot 1 unresolved")
    assert head(run) == before


def hard_money(run) -> int:
    props = ok(run("sheet", "Mara", "--json")).json()["star"]["props"]
    return sum(p["count"] for p in props if (p["type"], p["quality"]) == ("Money", "HARD"))


def test_a_hireling_provides_automatic_partial_successes_for_money_of_their_tier(hiring):
    run = hiring
    shot = ok(run(*HIRE, "--claim", "Mara,hire=Grim,accompany=HARD", "--json")).json()
    assert [f["type"] for f in shot["facts"]] == ["MontageSceneShot", "HirelingEngaged"]
    ok(run("prop", "gain", "Mara", "Money:HARD"))
    assert hard_money(run) == 1
    before = head(run)
    # Above the hire, with no hire of that Actor, or for another Star from Mara's keyboard: refused, nothing written.
    assert_refused(run("actor", "hireling", "Grim", "Mara", "--difficulty", "FORMIDABLE"), 1, "at most HARD")
    assert_refused(run("actor", "hireling", "Grim", "Tobias", "--difficulty", "HARD"), 1, "Grim does not accompany")
    assert_refused(run("actor", "hireling", "Grim", "Mara", "--difficulty", "HARDEST"), 2, "not on the Difficulty")
    assert_refused(
        run("--as", "Tobias Quell", "actor", "hireling", "Grim", "Mara", "--difficulty", "HARD"),
        1,
        "cannot record for Mara Voss",
    )
    assert head(run) == before
    lock = ("actor", "hireling", "Grim", "Mara", "--difficulty", "HARD", "--task", "picks the vault lock")
    done = run(*lock, "--command-id", "grim-lock-1", "--json")
    [fact] = ok(done).json()["facts"]
    assert (fact["type"], fact["visibility"]) == ("HirelingPartialSucceeded", "public")
    assert (fact["fact"]["money"], fact["fact"]["task"]) == ("HARD", "picks the vault lock")
    assert "1 Consequence at HARD due" in fact["summary"]
    assert hard_money(run) == 0
    # The same command id again records nothing more; without Money a second one is refused.
    after = head(run)
    ok(run(*lock, "--command-id", "grim-lock-1"))
    assert head(run) == after
    assert_refused(run("actor", "hireling", "Grim", "Mara", "--difficulty", "HARD"), 1, "Mara Voss has no HARD Money")
    assert head(run) == after
    assert "Grim gives Mara Voss an automatic Partial Success at HARD" in ok(run("--as", MARA, "log")).out
    assert ok(run("audit", "--all", "--json")).json()["ok"] is True
