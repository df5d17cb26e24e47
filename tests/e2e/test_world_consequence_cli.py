"""`showrunner consequence` on the world (14.3) and the Consequences kept due, through the CLI:
a check --against records what it calls for, a Consequence ticks it off, a Complication reaches
the next check, and bad input is refused in one line with nothing written."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_refused, head, new_campaign

MARA = "Mara Voss"


def ok(result):
    assert result.code == 0, result
    return result


def warden(run) -> None:
    new_campaign(run)
    ok(run("threat", "create", "Warden", "--kind", "opponent", "-l", "HARD", "--pips", "1,4"))


def test_a_check_against_a_threat_records_its_consequence_due_and_a_world_consequence_ticks_it_off(run):
    warden(run)
    # Mara's Fight at NORMAL against the Warden's 1 pip: 5 and 2 kept, a Partial: one NORMAL Consequence.
    checked = ok(
        run(
            "check", "Mara", "fight", "-d", "NORMAL", "--against", "Warden",
            "--action", "5,2,1", "--opposition-dice", "6", "--script", "6,6", "--power", "3", "--json",
        )
    ).json()  # fmt: skip
    assert checked["due"] == [{"stars": [MARA], "count": 1, "difficulty": "NORMAL"}]
    boosted = ok(run("consequence", "Mara", "boost-opposition", "-d", "NORMAL", "--target", "Warden", "--json")).json()
    assert [f["type"] for f in boosted["facts"]] == ["WorldConsequenceSuffered", "ConsequenceSettled"]
    assert boosted["facts"][1]["fact"]["left"] == 0
    shown = ok(run("threat", "show", "Warden", "--json")).json()
    # The Partial cleared NORMAL (HARD 4 → 3, NORMAL reset to 3); the Boost adds a NORMAL pip.
    assert shown["threat"]["power"]["pips"] == [4, 3]


def test_a_complication_reaches_the_next_check_and_a_new_threat_enters(run):
    warden(run)
    text = ok(run("consequence", "Mara", "complication", "-d", "NORMAL")).out
    assert "Mara Voss's next check gains 3 Opposition Dice (Narrative Complication)" in text
    check = ok(
        run("check", "Mara", "fight", "-d", "NORMAL", "--action", "5,2,1", "--opposition-dice", "6,6,6",
            "--script", "6,6", "--json")
    ).json()  # fmt: skip
    assert check["opposition"] == [6, 6, 6]
    assert {"source": "Narrative Complication", "dice": 3} in check["opposition_pool"]
    made = ok(run("consequence", "Mara", "new-threat", "-d", "HARD", "--target", "Rockslide", "--power", "3,2"))
    assert "Obstacle Rockslide enters at HARD: N2 H3" in made.out


@pytest.mark.parametrize(
    "args, code, needle",
    [
        (("consequence", "Mara", "boost-opposition", "-d", "HARD"), 2, "boost-opposition needs --target"),
        (("consequence", "Mara", "harm-allies", "-d", "HARD", "--target", "Warden"), 1, "Warden is a Threat"),
        (("consequence", "Mara", "subplot", "-d", "HARD"), 2, "subplot needs --subplot"),
        (("consequence", "Mara", "subplot", "-d", "HARD", "--subplot", "4"), 1, "there is no Subplot 4"),
        (("consequence", "Mara", "complication", "-d", "HARD", "--ability", "fight"), 2, "--ability does not apply"),
        (("consequence", "Mara", "grit-loss", "-d", "HARD", "--target", "Warden"), 2, "apply to a Consequence on"),
        (("consequence", "Mara", "new-threat", "-d", "HARD", "--target", "X", "--threat-kind", "god"), 2, "'god'"),
        (("--as", MARA, "consequence", "Mara", "complication", "-d", "HARD"), 1, "only the Director"),
    ],
)
def test_bad_world_consequence_input_is_refused_and_writes_nothing(run, args, code, needle):
    warden(run)
    before = head(run)
    assert_refused(run(*args), code, needle)
    assert head(run) == before
