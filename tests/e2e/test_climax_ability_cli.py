"""7.3A from the command line: a Sequence declared with the Ability its objective calls for
refuses a Climax rolled with another, in one line, with nothing written."""

from __future__ import annotations

from tests.e2e.conftest import assert_refused, head, new_campaign

GOAL = "Disarm the bomb"
DECLARE = ("sequence", "declare", GOAL, "-d", "HARD", "--beats", "2", "--from", "Mara:grit", "--climax-ability")


def ok(result):
    assert result.code == 0, result
    return result


def test_the_climax_is_rolled_with_the_ability_matching_its_objective(run):
    new_campaign(run)
    ok(run(*DECLARE, "fight"))
    assert ok(run("sequence", "show", GOAL, "--json")).json()["sequences"][0]["climax_ability"] == "fight"
    ok(run("sequence", "beat", GOAL, "--outcome", "success"))
    before = head(run)
    assert_refused(run("sequence", "beat", GOAL, "Mara", "think"), 1, "the Climax of 'Disarm the bomb' must use Fight")
    assert head(run) == before
    climax = ("sequence", "beat", GOAL, "Mara", "fight", "--action", "5,2,1", "--opposition-dice", "1,1")
    ok(run(*climax, "--script", "6,6"))


def test_a_climax_ability_that_is_not_an_ability_is_refused(run):
    new_campaign(run)
    before = head(run)
    assert_refused(run(*DECLARE, "luck"), 2, "--climax-ability: 'luck' is not an Ability")
    assert head(run) == before
