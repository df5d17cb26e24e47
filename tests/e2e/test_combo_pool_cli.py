"""7.2 The Combo Pool from the command line: a Beat's gains enter it, `--from-combo` pays a Beat's
spends from it, `--payout` splits it, and bad input is refused in one line with nothing written."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_refused, head, new_campaign

GOAL = "Cross the river"


def ok(result):
    assert result.code == 0, result
    return result


def declared(run) -> None:
    new_campaign(run)
    ok(run("sequence", "declare", GOAL, "-d", "HARD", "--beats", "3", "--from", "Mara:grit", "--from", "Tobias:grit"))


def combo(run) -> dict[str, int]:
    return ok(run("sequence", "show", GOAL, "--json")).json()["sequences"][0]["combo"]


def test_a_beat_gains_into_and_spends_from_the_combo_pool_and_the_cast_splits_the_payout(run):
    declared(run)
    grit = ok(run("sheet", "Mara", "--json")).json()["star"]["influence"]["grit"]["current"]
    # Setup Beat 1: Mara pays 1 Grit from the Combo Pool for a 4th Action Die and Hits the Mark.
    beat = ok(
        run(
            "sequence", "beat", GOAL, "Mara", "fight", "--grit", "1", "--from-combo",
            "--action", "5,2,1,1", "--script", "5,6", "--json",
        )
    ).json()  # fmt: skip
    steps = [s["text"] for s in beat["facts"][0]["fact"]["resolution"]["steps"]]
    assert "spent 1 Grit from the Combo Pool of 'Cross the river': +1 Action Dice" in steps
    assert "1 Retake into the Combo Pool of 'Cross the river': Hit the Mark" in steps
    assert combo(run) == {"grit": 2, "retake": 1}
    assert ok(run("sheet", "Mara", "--json")).json()["star"]["influence"]["grit"]["current"] == grit
    ok(run("sequence", "beat", GOAL, "--outcome", "success"))
    # The Climax: the Cast gives the Retake to Tobias; the Grit is dealt in turn to Mara and Tobias.
    climax = ok(run("sequence", "beat", GOAL, "--outcome", "success", "--payout", "Tobias:retake", "--json")).json()
    paid = [(p["star"], p["pool"], p["amount"]) for p in climax["paid_out"]]
    assert paid == [("Tobias Quell", "retake", 1), ("Mara Voss", "grit", 1), ("Tobias Quell", "grit", 1)]
    assert climax["paid_to_ensemble"] == []


def test_the_cast_gives_part_of_the_payout_to_the_ensemble_pool(run):
    declared(run)
    ok(run("sequence", "beat", GOAL, "--outcome", "success"))
    ok(run("sequence", "beat", GOAL, "--outcome", "success"))
    text = ok(run("sequence", "beat", GOAL, "--outcome", "success", "--payout", "ensemble:grit:2")).out
    # The Ensemble Pool starts full: the 2 Grit given it are lost.
    assert "The Combo Pool of 'Cross the river' pays 0 Grit to the Ensemble Pool (2 lost" in text


@pytest.mark.parametrize(
    "args, code, needle",
    [
        (
            ("sequence", "beat", GOAL, "Mara", "fight", "--from-combo", "--preparation", "1", "--action", "5,2,1,1"),
            1,
            "the Combo Pool of 'Cross the river' holds 0 Preparation and the Beat spends 1: leave out --from-combo",
        ),
        (
            ("sequence", "beat", GOAL, "--outcome", "success", "--payout", "Mara:grit"),
            1,
            "pays out after its Climax (Beat 3); give --payout with that Beat, not Beat 1",
        ),
        (("sequence", "beat", GOAL, "--outcome", "success", "--payout", "Mara"), 2, "--payout takes STAR:POOL[:N]"),
        (("sequence", "beat", GOAL, "--outcome", "success", "--payout", "Mara:gold"), 2, "'gold' is not an Influence"),
        (("sequence", "beat", GOAL, "--outcome", "success", "--from-combo"), 2, "give no --from-combo"),
    ],
)
def test_bad_combo_input_is_refused_and_writes_nothing(run, args, code, needle):
    declared(run)
    before = head(run)
    assert_refused(run(*args), code, needle)
    assert head(run) == before
