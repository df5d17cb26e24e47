"""The d10 Pool: "the GM calls for a roll" and "the GM owns the call" on Luck. A player's check or
Luck roll is asked for and the Director's machine rolls it, even on the Director's own device;
a player types no faces. Bad input writes nothing."""

from __future__ import annotations

from tests.e2e.conftest import assert_refused
from tests.e2e.test_rulesets_cli import head, pool_campaign

CHECK = ("check", "Ines", "--stat", "agility", "--dc", "6")


def test_a_players_check_and_luck_are_asked_for_and_the_director_rolls_them(run):
    pool_campaign(run)
    asked = run("--as", "Ines", *CHECK, "--json")  # on the Director's own device, key file and all
    assert asked.code == 3, asked
    assert "roll is asked for" in asked.err and asked.json()["asked_for"]["by"].startswith("Ines")
    rolled = run("dice", "resolve", "--json")
    assert rolled.code == 0, rolled
    assert [f["type"] for f in rolled.json()["facts"]] == ["PoolCheckRolled"]
    luck = run("--as", "Ines", "pool", "luck", "Ines")
    assert luck.code == 3, luck
    assert run("dice", "resolve").code == 0
    # The Director rolls at once, as ever.
    assert run(*CHECK, "--pool", "7,1,3,9").code == 0


def test_a_players_typed_faces_are_refused_and_nothing_is_written(run):
    pool_campaign(run)
    before = head(run)
    refused = run("--as", "Ines", *CHECK, "--pool", "7,1,3,9")
    assert_refused(refused, 1, "every roll is the Director's call")
    assert head(run) == before
