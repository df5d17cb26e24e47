"""A FieldsEqual model is equal to another exactly when pydantic's equality says so, and a frozen
one still hashes as pydantic hashes it."""

from __future__ import annotations

from pydantic import BaseModel

from showrunner_ledger.domain.dice import Roll
from showrunner_ledger.domain.field_equality import FieldsEqual
from showrunner_ledger.domain.showrunner.effects import AbilityMarked, Step, WrittenOff
from showrunner_ledger.domain.showrunner.sheet import AbilityName, Pool

from ..conftest import example_star


def test_equality_is_pydantics():
    sheet = example_star()
    changed = sheet.model_copy(
        update={"influence": sheet.influence.model_copy(update={"grit": Pool(current=0, max=2)})}
    )
    step = Step(kind="rolled", text="2 Script Dice", faces=(3, 5))
    pairs = [
        (step, Step(kind="rolled", text="2 Script Dice", faces=(3, 5))),
        (step, Step(kind="rolled", text="2 Script Dice", faces=(5, 3))),
        (step, Step(kind="rolled", text="2 Script Dice", faces=(3, 5)).model_copy(update={"kind": "kept"})),
        (
            Roll(purpose="action", sides=6, faces=(1,), source="ledger"),
            Roll(purpose="action", sides=6, faces=(1,), source="table"),
        ),
        (sheet, example_star()),
        (sheet, changed),
        (AbilityMarked(star="Mara Voss", ability=AbilityName.FIGHT, xp=1), WrittenOff(star="Mara Voss")),
        (WrittenOff(star="Mara Voss"), WrittenOff(star="Mara Voss")),
        (step, "rolled"),
    ]
    for mine, theirs in pairs:
        assert isinstance(mine, FieldsEqual)
        pydantics = BaseModel.__eq__(mine, theirs)
        assert (mine == theirs) is (pydantics is not NotImplemented and pydantics)
        assert (mine != theirs) is not (mine == theirs)
    assert sum(mine == theirs for mine, theirs in pairs) == 3  # the equal ones above: the same step, sheet, effect


def test_a_frozen_model_hashes_by_its_fields():
    one, other = (
        Step(kind="kept", text="kept 5 and 3", faces=(5, 3)),
        Step(kind="kept", text="kept 5 and 3", faces=(5, 3)),
    )
    assert hash(one) == hash(other)
    assert len({one, other, Step(kind="kept", text="kept 5 and 5", faces=(5, 5))}) == 2
