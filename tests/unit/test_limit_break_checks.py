"""Limit Break Overloads that reach checks (Appendix D 11 Burnout, 19 Jinxed) and the Climax's
matching Ability (7.3A)."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner import progression as pg
from showrunner_ledger.domain.showrunner.check import CheckRequest, Outcome, resolve
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.sequences import SequenceError, check_climax_ability, declare, record_beat
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from tests.conftest import example_star

MARA = example_star()
FAILURE = {"action": [2, 1, 1], "script": [6, 6]}
"""Mara's Fight at NORMAL keeps 2 and 1: a Failure, not doubles."""


def with_overloads(*overloads: str) -> ShowrunnerState:
    return ShowrunnerState().with_star(MARA.model_copy(update={"overloads": overloads}))


def fight(**more) -> CheckRequest:
    return CheckRequest(star="Mara", ability="fight", difficulty="NORMAL", **more)


def test_jinxed_treats_a_failure_as_a_disaster():
    """Appendix D 19 Jinxed: "All Failures are treated as Disasters"."""
    plain = resolve(with_overloads(), fight(), TableDice(FAILURE))
    jinxed = resolve(with_overloads("jinxed"), fight(), TableDice(FAILURE))
    assert plain.outcome is Outcome.FAILURE and plain.consequences_due == 1
    assert jinxed.outcome is Outcome.DISASTER and jinxed.consequences_due == 2
    assert "Mara Voss is Jinxed (a Limit Break): the Failure is a Disaster" in [s.text for s in jinxed.steps]


def test_burnout_refuses_a_channel_check_and_leaves_the_others():
    """Appendix D 11 Burnout: "You cannot attempt to Channel"."""
    state = with_overloads("burnout")
    with pytest.raises(RuleViolation, match="has Burnout .* cannot attempt to Channel"):
        resolve(state, CheckRequest(star="Mara", ability="channel", difficulty="NORMAL"), TableDice(FAILURE))
    assert resolve(state, fight(), TableDice(FAILURE)).outcome is Outcome.FAILURE


@pytest.mark.parametrize(("roll", "overload"), [(11, "burnout"), (19, "jinxed")])
def test_a_limit_break_marks_burnout_and_jinxed_where_checks_read_them(roll, overload):
    sheet = MARA.model_copy(update={"limit": MARA.limit.model_copy(update={"marked": MARA.limit.max})})
    state = ShowrunnerState().with_star(sheet)
    dice = TableDice({"major_anomaly": [3, 4]})
    broke = pg.limit_break(state, "Mara", dice, resist=D.HARD, fixed_overload=roll)
    assert broke.state.star("Mara").overloads == (overload,)
    before = pg.limit_break(
        state, "Mara", TableDice({"major_anomaly": [3, 4]}), resist=D.HARD, fixed_overload=roll, reaches_checks=False
    )
    assert before.state.star("Mara").overloads == ()
    assert "overloads" not in MARA.model_dump(mode="json")


def test_the_climax_must_use_the_ability_matching_the_objective():
    """7.3A "The Climax Beat must use the primary Ability corresponding to the Threat or objective"."""
    sequence = declare("Disarm the bomb", D.HARD, 2, {"grit": 1}, climax_ability=A.WORK)
    check_climax_ability(sequence, A.THINK)  # a Setup Beat may use any logical Ability
    at_climax = record_beat(sequence, "success").sequence
    check_climax_ability(at_climax, A.WORK)
    with pytest.raises(SequenceError, match="must use Work, the Ability matching its objective"):
        check_climax_ability(at_climax, A.THINK)
    check_climax_ability(declare("Run", D.HARD, 2, {"grit": 1}), A.THINK)  # none named: any Ability
