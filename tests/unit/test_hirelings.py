"""9.2D Hire, Alternate Benefit: "Hire them to accompany you for 1 Money of the maximum Difficulty
they will face for you. It then costs 1 additional Money of the Difficulty's Tier per automatic
Partial Success they provide during an Episode." """

from __future__ import annotations

import pytest

from showrunner_ledger.domain.errors import RuleViolation, UnknownName
from showrunner_ledger.domain.showrunner.commands import COMMANDS
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.ladder import Quality
from showrunner_ledger.domain.showrunner.sheet import Prop, PropType
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.showrunner.world import Due
from showrunner_ledger.domain.showrunner.world_events import HirelingEngaged, HirelingPartialSucceeded

from .test_montage_hire import grim, hire, montage


def accompanied(most: str = "HARD", **money: int) -> ShowrunnerState:
    """Ada has hired Grim to accompany her up to `most`, then holds `money` (Quality=count) Money."""
    state = montage(grim(), money=most)
    for fact in hire(state, {"actor": "Grim", "power": most, "accompany": True}):
        state = fact.apply(state)
    props = [Prop(type=PropType.MONEY, quality=Quality(q), count=n) for q, n in money.items()]
    return state.with_star(state.star("Ada").model_copy(update={"props": props}))


def provide(state: ShowrunnerState, difficulty: str, actor: str = "Grim", star: str = "Ada", task: str | None = None):
    action = COMMANDS["actor-hireling"]
    asked = action.input.model_validate({"actor": actor, "star": star, "difficulty": difficulty, "task": task})
    return action.decide(state, asked, None)


def test_a_hire_to_accompany_engages_the_actor_up_to_the_difficulty_paid():
    state = montage(grim())
    shot, engaged = hire(state, {"actor": "grim", "power": "HARD", "accompany": True})
    assert isinstance(engaged, HirelingEngaged)
    assert (engaged.star, engaged.actor, engaged.most) == ("Ada", "Grim", D.HARD)
    after = engaged.apply(shot.apply(state))
    assert after.world.hireling("ada", "GRIM").most is D.HARD
    assert after.star("Ada").props == []  # the hire's 1 HARD Money
    # Hired again at NORMAL: the same hireling, the new maximum.
    again = HirelingEngaged(star="Ada", actor="Grim", most=D.NORMAL).apply(after)
    assert [(h.actor, h.most) for h in again.world.hirelings] == [("Grim", D.NORMAL)]


def test_each_automatic_partial_success_costs_one_money_of_its_tier_and_brings_a_consequence():
    state = accompanied("HARD", HARD=2, NORMAL=1)
    [fact] = provide(state, "HARD", task="picks the vault lock")
    assert isinstance(fact, HirelingPartialSucceeded)
    assert (fact.star, fact.actor, fact.difficulty, fact.money) == ("Ada", "Grim", D.HARD, Quality.HARD)
    after = fact.apply(state)
    assert [(p.quality, p.count) for p in after.star("Ada").props] == [(Quality.HARD, 1), (Quality.NORMAL, 1)]
    assert after.world.dues == (Due(star="Ada", difficulty=D.HARD, count=1, why="Grim's automatic Partial Success"),)
    assert after.world.hireling("Ada", "Grim").provided == 1
    assert "for 1 HARD Money: 1 Consequence at HARD due" in fact.summary()
    # Below the maximum, the Tier of the check's own Difficulty is paid; EASY, below the Tiers, in NORMAL.
    [normal] = provide(after, "NORMAL")
    assert normal.money is Quality.NORMAL
    [easy] = provide(accompanied("HARD", NORMAL=1), "EASY")
    assert easy.money is Quality.NORMAL


@pytest.mark.parametrize(
    ("state", "difficulty", "actor", "star", "error", "needle"),
    [
        (accompanied("HARD", FORMIDABLE=1), "FORMIDABLE", "Grim", "Ada", RuleViolation, "at most HARD"),
        (accompanied("HARD", NORMAL=1), "HARD", "Grim", "Ada", RuleViolation, "Ada has no HARD Money"),
        (montage(grim()), "NORMAL", "Grim", "Ada", RuleViolation, "Grim does not accompany Ada"),
        (accompanied("HARD", HARD=1), "HARD", "Nobody", "Ada", UnknownName, "no Actor called 'Nobody'"),
    ],
    ids=["above-the-hire", "no-money", "no-hire", "no-actor"],
)
def test_a_partial_success_the_hire_does_not_cover_is_refused(state, difficulty, actor, star, error, needle):
    with pytest.raises(error, match=needle):
        provide(state, difficulty, actor=actor, star=star)


def test_a_written_off_hireling_provides_nothing():
    state = accompanied("HARD", HARD=1)
    gone = state.world.actor("Grim").model_copy(update={"written_off": True})
    state = state.model_copy(update={"world": state.world.model_copy(update={"actors": {"grim": gone}})})
    with pytest.raises(RuleViolation, match="Grim has been written off"):
        provide(state, "HARD")


def test_a_world_without_hirelings_dumps_as_before():
    assert "hirelings" not in montage(grim()).world.model_dump(mode="json")
    assert "hirelings" in accompanied("HARD").world.model_dump(mode="json")
