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
