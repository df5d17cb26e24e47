"""`campaign new --sfx`: the SFX Budget named, No Magic's Channel refused, a bad name refused."""

from __future__ import annotations

from tests.e2e.conftest import EXAMPLES, assert_refused


def test_a_no_magic_show_refuses_a_channel_check_in_one_line(run):
    assert run("campaign", "new", "Precinct 9", "--sfx", "no-magic").code == 0
    assert run("star", "add", "--file", EXAMPLES / "star-mara.toml").code == 0
    before = run("head", "--json").json()
    refused = run("check", "Mara", "channel", "-d", "NORMAL", "--action", "5,2", "--script", "6,6")
    assert_refused(refused, 1, "No Magic: the Channel Ability does not exist")
    assert run("head", "--json").json() == before


def test_an_sfx_budget_that_is_not_one_is_refused_and_no_campaign_is_made(run):
    assert_refused(run("campaign", "new", "Precinct 9", "--sfx", "lasers"), 2, "--sfx: 'lasers' is not an SFX Budget")
    assert run("campaign", "list", "--json").json()["campaigns"] == []


def test_a_low_magic_show_rolls_its_first_random_channel_again_and_the_audit_agrees(run):
    """Chapter 1 Step 2B, Low Magic: "The first time Channel is randomly rolled for any reason,
    re-roll it once". The first Actor's Channel (a 1) is rolled again; the second one's stands."""
    assert run("campaign", "new", "Precinct 9", "--sfx", "low-magic").code == 0
    assert run("actor", "create", "Vex", "--ability-dice", "1,4,3", "--pips", "3").code == 0
    assert run("actor", "create", "Wren", "--ability-dice", "1,3", "--pips", "3").code == 0
    actors = {a["name"]: (a["primary"], a["secondary"]) for a in run("cast", "--json").json()["actors"]}
    assert actors == {"Vex": ("impress", "fight"), "Wren": ("channel", "fight")}
    payloads = [run("show", str(n), "--json").json()["event"]["payload"] for n in (2, 3)]
    assert [p.get("channel_rerolled") for p in payloads] == [True, None]
    assert run("audit", "--all").code == 0
