"""12.1I from the command line: a Star's check moves an Actor's Bond or Grudge one slot up or
down, at the Difficulty of its slot against the Actor's pips there; bad input writes nothing."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_refused, head, new_campaign

MARA, TOBIAS = "Mara Voss", "Tobias Quell"
# A Success at HARD against Grim's 3 pips there: the 1 is blocked, 6 and 5 both reach 4.
HARD_SUCCESS = ("--action", "6,5,1", "--opposition-dice", "1,2,3", "--script", "1,1")
HARD_FAILURE = ("--action", "3,2,1", "--opposition-dice", "1,2,3", "--script", "1,1")
NORMAL_SUCCESS = ("--action", "6,5,1", "--opposition-dice", "1,2", "--script", "1,1")


def ok(result):
    assert result.code == 0, result
    return result


@pytest.fixture
def grim(run):
    """#1-#3 the campaign; Grim (N2 H3) holds Mara at HARD and Tobias at NORMAL as Bonds."""
    new_campaign(run)
    ok(run("actor", "create", "Grim", "--primary", "fight", "--secondary", "move", "--pips", "2,3"))
    ok(run("actor", "tie", "Grim", "--bond", "Mara", "--to", "HARD"))
    ok(run("actor", "tie", "Grim", "--bond", "Tobias"))
    return run


def bonds(run) -> dict[str, str]:
    shown = ok(run("actor", "show", "Grim", "--json")).json()["actor"]["bonds"]
    return {level: person["name"] for level, person in shown.items()}


def test_a_success_moves_the_bond_down_a_slot_swapping_with_its_holder(grim):
    run = grim
    moved = ok(run("actor", "manipulate", "Grim", "Mara", "fight", "--bond", "Mara", "--down", *HARD_SUCCESS, "--json"))
    document = moved.json()
    assert [f["type"] for f in document["facts"]] == ["CheckRolled", "ActorTieSwayed"]
    check = document["facts"][0]["fact"]["resolution"]
    assert (check["request"]["difficulty"], check["request"]["opposition"], check["outcome"]) == ("HARD", 3, "success")
    assert document["moved"] is True
    assert document["facts"][1]["summary"] == (
        f"{MARA} moves Grim's Bond with {MARA} down to NORMAL (from HARD); {TOBIAS} moves to HARD"
    )
    assert bonds(run) == {"NORMAL": MARA, "HARD": TOBIAS}

    # At NORMAL, the next move down takes Mara out of Grim's web; her own Star may make it.
    ok(run("--as", MARA, "actor", "manipulate", "Grim", "Mara", "fight", "--bond", "Mara", "--down", *NORMAL_SUCCESS))
    assert bonds(run) == {"HARD": TOBIAS}


def test_a_failure_rolls_the_check_and_leaves_the_tie(grim):
    run = grim
    document = ok(
        run("actor", "manipulate", "Grim", "Mara", "fight", "--bond", "Mara", "--down", *HARD_FAILURE, "--json")
    ).json()
    assert [f["type"] for f in document["facts"]] == ["CheckRolled"] and document["moved"] is False
    assert bonds(run) == {"NORMAL": TOBIAS, "HARD": MARA}


def test_a_success_moves_a_bond_up(grim):
    run = grim
    ok(run("actor", "manipulate", "Grim", "Mara", "fight", "--bond", "Tobias", "--up", *NORMAL_SUCCESS))
    assert bonds(run) == {"NORMAL": MARA, "HARD": TOBIAS}


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (("--bond", "Mara", "--up", *HARD_SUCCESS), 1, "is in the top slot (HARD, Grim's Power Level)"),
        (("--grudge", "Mara", "--down", *HARD_SUCCESS), 1, "Grim holds no Grudge with Mara Voss"),
        (("--bond", "Mara", "--up", "--down"), 2, "--up or --down"),
        (("--down",), 2, "--bond NAME or --grudge NAME"),
        (("--bond", "Mara", "--down", "--action", "6,5,1", "--opposition-dice", "1,2"), 1, "--opposition-dice"),
    ],
)
def test_bad_input_is_refused_and_writes_nothing(grim, args, code, needle):
    run = grim
    before = head(run)
    assert_refused(run("actor", "manipulate", "Grim", "Mara", "fight", *args), code, needle)
    assert head(run) == before


def test_the_real_script_audits_the_move(cli):
    new_campaign(cli)
    ok(cli("actor", "create", "Grim", "--primary", "fight", "--secondary", "move", "--pips", "2,3"))
    ok(cli("actor", "tie", "Grim", "--grudge", "Tobias"))
    ok(cli("actor", "manipulate", "Grim", "Mara", "fight", "--grudge", "Tobias", "--up"))
    audited = ok(cli("audit", "--all", "--json")).json()
    assert audited["ok"] is True and [a["type"] for a in audited["audits"]][-1] == "CheckRolled"
