"""Limit Break Overloads that reach checks (Appendix D 11 Burnout, 19 Jinxed) and the Climax's
matching Ability (7.3A)."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import AlreadyExists, RuleViolation
from showrunner_ledger.domain.ruleset import RollContext
from showrunner_ledger.domain.showrunner import progression as pg
from showrunner_ledger.domain.showrunner.check import CheckRequest, Outcome, resolve
from showrunner_ledger.domain.showrunner.commands import COMMANDS
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.sequences import SequenceError, check_climax_ability, declare, record_beat
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.showrunner.world_events import ActorCreated, PossessorEmpowered
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


def broken_limit(state: ShowrunnerState, faces: dict[str, list[int]], **asked) -> tuple[ShowrunnerState, list]:
    """The limit-break command decided on table dice (every face used), and its facts applied."""
    action = COMMANDS["limit-break"]
    request = {"star": "Mara", "resist": "HARD", "ability_d10": "alphabetical", **asked}
    dice = TableDice(faces)
    facts = list(action.decide(state, action.input.model_validate(request), RollContext.of(dice)))
    dice.check_all_used()
    for fact in facts:
        state = fact.apply(state)
    return state, facts


def full_limit() -> ShowrunnerState:
    sheet = MARA.model_copy(update={"limit": MARA.limit.model_copy(update={"marked": MARA.limit.max})})
    return ShowrunnerState().with_star(sheet)


def test_possession_casts_a_powerful_hostile_actor_then_empowers_it():
    """Appendix D 12 Possession: "A powerful, hostile Actor is added to the Supporting Cast …
    the possessing Actor gains one Power Level each time Possession is rolled"."""
    actor_dice = {"ability": [3, 4], "power_level": [1, 3, 2], "power": [3, 2, 4]}
    state, facts = broken_limit(
        full_limit(), {"major_anomaly": [3, 4], **actor_dice}, fixed_overload=12, possessor="The Brass Ghost"
    )
    created = facts[1]
    assert isinstance(created, ActorCreated) and len(facts) == 2
    ghost = state.world.actor("The Brass Ghost")
    assert ghost.power.top is D.FORMIDABLE  # 3d6 keeping the highest (3): FORMIDABLE
    assert ghost.grudges[D.NORMAL].name == "Mara Voss" and ghost.grudges[D.NORMAL].star
    assert state.star("Mara").possessor == "The Brass Ghost"
    assert created.spec.scale == "powerful"

    again, facts = broken_limit(state, {"major_anomaly": [3, 4], "power": [4]}, fixed_overload=12)
    empowered = facts[1]
    assert isinstance(empowered, PossessorEmpowered) and len(facts) == 2
    assert again.world.actor("The Brass Ghost").power.top is D.EPIC
    assert empowered.rejudge(state) is None


def test_a_possessor_name_already_taken_is_refused_before_any_die():
    with pytest.raises(AlreadyExists, match="is a Star of this campaign"):
        broken_limit(full_limit(), {}, fixed_overload=12, possessor="Mara Voss")


def test_no_possession_no_actor():
    state, facts = broken_limit(full_limit(), {"major_anomaly": [3, 4]}, fixed_overload=6)
    assert len(facts) == 1 and not state.world.actors and state.star("Mara").possessor is None
