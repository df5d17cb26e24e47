"""The Showrunner facts' own recap lines: what a Highlight, a Disaster or a big spend says."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.showrunner.check import CheckRequest, resolve
from showrunner_ledger.domain.showrunner.consequences import ConsequenceRequest
from showrunner_ledger.domain.showrunner.consequences import decide as decide_consequence
from showrunner_ledger.domain.showrunner.effects import WrittenOff
from showrunner_ledger.domain.showrunner.events import (
    CheckAbandoned,
    CheckRolled,
    ConsequenceSuffered,
    InfluenceRegained,
    InfluenceSpent,
    StarJoined,
)
from showrunner_ledger.domain.showrunner.influence import Regained, Spent
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.ledger.facts import BranchForked, CampaignStarted, NoteRecorded, SeedCommitted
from tests.conftest import example_star

MARA = example_star()


def state() -> ShowrunnerState:
    return ShowrunnerState().with_star(MARA)


def rolled(faces: dict[str, list[int]], **fields) -> CheckRolled:
    request = CheckRequest(**{"star": "Mara", "ability": "fight", "difficulty": "HARD", **fields})
    dice = TableDice(faces)
    resolution = resolve(state(), request, dice)
    return CheckRolled(resolution=resolution, roll_number=1)


@pytest.mark.parametrize(
    "faces, fields, weight, kind, text",
    [
        (
            {"action": [6, 6, 5], "script": [6, 6]},
            {},
            100,
            "highlight",
            "Mara Voss pulled off a Highlight with a Perfect Take on a HARD Fight check.",
        ),
        (
            {"action": [6, 6, 5], "script": [1, 2]},
            {},
            100,
            "highlight",
            "Mara Voss pulled off a Highlight on a HARD Fight check.",
        ),
        (
            {"action": [1, 1, 2], "script": [3, 4]},
            {"keep": (1, 1)},
            100,
            "disaster",
            "Disaster: Mara Voss's HARD Fight check went badly wrong.",
        ),
        (
            {"action": [5, 4, 2], "script": [5, 4]},
            {},
            100,
            "perfect-take",
            "Mara Voss nailed a Perfect Take: Success on a HARD Fight check.",
        ),
        ({"action": [1, 2, 3], "script": [5, 6]}, {}, 50, "failure", "Mara Voss failed a HARD Fight check."),
        ({"action": [5, 4, 2], "script": [1, 1]}, {}, 10, "success", "Mara Voss succeeded at a HARD Fight check."),
        (
            {"action": [5, 1, 2], "script": [3, 3]},
            {},
            10,
            "partial",
            "Mara Voss partly succeeded at a HARD Fight check.",
        ),
    ],
)
def test_check_lines(faces, fields, weight, kind, text):
    line = rolled(faces, **fields).recap()
    assert (line.weight, line.kind, line.text) == (weight, kind, text)


def test_a_check_with_plot_armor_is_at_least_notable():
    fact = rolled({"action": [5, 4, 2], "script": [1, 1], "scar_slot": [3]}, plot_armor=True)
    line = fact.recap()
    assert line.weight == 50 and line.text.endswith("spending Plot Armor.")


def test_spends():
    big = InfluenceSpent(
        spent=Spent(star="Mara Voss", pool="spotlight", amount=1, from_pool=0, exhausted=1), reason="Claiming the scene"
    )
    assert big.recap().model_dump(include={"weight", "kind", "text"}) == {
        "weight": 50,
        "kind": "spend",
        "text": "Mara Voss spent 1 Spotlight, pushing their limits (Claiming the scene).",
    }
    armor = InfluenceSpent(spent=Spent(star="Mara Voss", pool="plot_armor", amount=1, from_pool=1, exhausted=0))
    assert armor.recap().weight == 50
    routine = InfluenceSpent(spent=Spent(star="Mara Voss", pool="grit", amount=1, from_pool=1, exhausted=0))
    assert routine.recap() is None
    assert InfluenceSpent(spent=routine.spent, reason="Forcing the floodgate").recap().weight == 10
    regained = Regained(star="Tobias Quell", pool="grit", amount=1, kept=1, to_ensemble=0, lost=0)
    assert InfluenceRegained(regained=regained).recap() is None
    assert (
        InfluenceRegained(regained=regained, reason="A quiet moment").recap().text
        == "Tobias Quell regained 1 Grit (A quiet moment)."
    )


def test_consequences_and_being_written_off():
    s = state()
    request = ConsequenceRequest(star="Mara", kind="grit-loss", difficulty="NORMAL")
    plain = ConsequenceSuffered(resolution=decide_consequence(s, request, TableDice({})))
    assert plain.recap().model_dump(include={"weight", "kind", "text"}) == {
        "weight": 10,
        "kind": "consequence",
        "text": "Mara Voss suffered Grit Loss at NORMAL.",
    }
    scarred = ConsequenceRequest(star="Mara", kind="grit-loss", difficulty="GODLIKE", push=True, ability="fight")
    resolution = decide_consequence(s, scarred, TableDice({"scar_slot": [3, 4, 5, 6, 7, 8, 9, 10]}))
    line = ConsequenceSuffered(resolution=resolution, roll_number=1).recap()
    assert (line.weight, line.text) == (50, "Mara Voss suffered Grit Loss at GODLIKE, and carries a new Scar.")
    gone = plain.resolution.model_copy(update={"effects": (*plain.resolution.effects, WrittenOff(star="Mara Voss"))})
    line = ConsequenceSuffered(resolution=gone).recap()
    assert (line.weight, line.kind, line.text) == (100, "written-off", "Mara Voss was written off the Show.")


def test_other_lines():
    assert StarJoined(sheet=MARA).recap().text == "Mara Voss joined the cast."
    abandoned = CheckAbandoned(
        request=CheckRequest(star="Mara Voss", ability="fight", difficulty="HARD"), rolls=(), roll_number=1
    )
    assert abandoned.recap().text == "Mara Voss walked away from a HARD Fight check after seeing the dice."
    assert NoteRecorded(text="The vault door groans").recap().model_dump(include={"weight", "kind", "text"}) == {
        "weight": 50,
        "text": "The vault door groans",
        "kind": "note",
    }
    # The ledger's bookkeeping says nothing in a recap.
    assert SeedCommitted(commitment="0" * 64).recap() is None
    assert (
        BranchForked(
            name="b",
            parent_branch_id="00000000-0000-0000-0000-000000000001",
            parent_name="main",
            fork_version=3,
            parent_hash="0" * 64,
        ).recap()
        is None
    )
    assert CampaignStarted.recap is not None
