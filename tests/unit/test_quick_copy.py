"""A QuickCopy model's `model_copy(update=...)` is pydantic's copy, made in one step."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from showrunner_ledger.domain.campaign import Pitch
from showrunner_ledger.domain.quick_copy import QuickCopy
from showrunner_ledger.domain.rulesets import ruleset
from showrunner_ledger.domain.showrunner.events import StarJoined

from ..conftest import example_star


def parts(model: BaseModel) -> tuple[object, ...]:
    return (
        type(model),
        model.__dict__,
        model.__pydantic_fields_set__,
        model.__pydantic_extra__,
        model.__pydantic_private__,
    )


def test_a_copy_with_changes_is_the_copy_pydantic_makes():
    state = ruleset("showrunner").new_state(pitch=Pitch(title="Heist"), dice_commitment="c")
    state = StarJoined(sheet=example_star()).apply(state)
    sheet = state.star("Mara Voss")
    grit = sheet.influence.grit
    for model, update in (
        (state, {"dice_rolls": 3}),
        (state, {"stars": {}, "studio_notes": 2}),  # a field left at its default is set now
        (sheet, {"influence": sheet.influence.model_copy(update={"grit": grit.model_copy(update={"current": 0})})}),
        (grit, {"current": grit.current - 1}),
    ):
        assert isinstance(model, QuickCopy)
        quick, slow = model.model_copy(update=update), BaseModel.model_copy(model, update=update)
        assert parts(quick) == parts(slow)
        assert quick == slow
        assert quick.__dict__ is not model.__dict__  # the original is left as it was
        assert parts(model) != parts(quick)


def test_a_copy_without_changes_or_deep_is_left_to_pydantic():
    state = ruleset("showrunner").new_state(pitch=Pitch(title="Heist"), dice_commitment="c")
    assert parts(state.model_copy()) == parts(BaseModel.model_copy(state))
    deep = state.model_copy(update={"dice_rolls": 1}, deep=True)
    assert deep.pitch is not state.pitch and deep.pitch == state.pitch
    assert deep.dice_rolls == 1


class Roomy(QuickCopy):
    model_config = ConfigDict(extra="allow")

    n: int = 0


def test_extra_fields_follow_pydantic():
    model = Roomy(n=1, other=2)
    copied = model.model_copy(update={"n": 2, "new": 3})
    assert parts(copied) == parts(BaseModel.model_copy(model, update={"n": 2, "new": 3}))
    assert copied.__pydantic_extra__ == {"other": 2, "new": 3}
