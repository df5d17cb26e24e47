"""Ready for the Show (4.1 Step 4, 4.2 Step 3): the Inciting Incident that brings the joined Cast
together against the Season's antagonist, and the Founders' Boons."""

from __future__ import annotations

from typing import Any

import pytest

from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.ruleset import RollContext
from showrunner_ledger.domain.showrunner.casting_events import FoundersBoonsGranted, IncitingIncidentPlayed
from showrunner_ledger.domain.showrunner.commands import COMMANDS
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.sheet import CareerPath
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.showrunner.world_events import ActorCreated
from tests.conftest import example_star


class Counting:
    """Dice showing 3, 4, 5, … in turn, wrapping within their sides (the Dilemma d10 shows 3: Training)."""

    source = "table"

    def __init__(self) -> None:
        self.next = 3

    def roll(self, purpose: str, count: int, sides: int = 6) -> list[int]:
        faces = []
        for _ in range(count):
            faces.append((self.next - 1) % sides + 1)
            self.next += 1
        return faces


def decide(state: ShowrunnerState, name: str, request: dict[str, Any]) -> tuple[ShowrunnerState, list[Any]]:
    action = COMMANDS[name]
    roll = RollContext.of(Counting()) if action.rolls else None  # type: ignore[arg-type]
    facts = list(action.decide(state, action.input.model_validate(request), roll))
    for fact in facts:
        state = fact.apply(state)
    return state, facts


def cast_of_two() -> ShowrunnerState:
    return ShowrunnerState().with_star(example_star()).with_star(example_star("star-tobias.json"))


INCITING = {
    "ally": {"name": "Captain Ilse", "primary": "impress"},
    "antagonist": {"name": "The Drowned Duke", "primary": "fight", "power_level": "HARD"},
    "specialties": [["mara", "Rousing Speech"], ["tobias", "Command"]],
}


def test_the_inciting_incident_connects_every_star_and_raises_the_antagonist_for_two_stars():
    before = cast_of_two()
    state, facts = decide(before, "casting-inciting-incident", INCITING)
    played, created = facts
    assert isinstance(played, IncitingIncidentPlayed) and isinstance(created, ActorCreated)
    assert played.antagonist_level is D.LEGENDARY and created.actor.power_level is D.LEGENDARY
    assert state.antagonist == "The Drowned Duke" and "the drowned duke" in state.world.actors
    for name in ("Mara", "Tobias"):
        sheet, old = state.star(name), before.star(name)
        assert any(g.with_ == "The Drowned Duke" for g in sheet.grudges)
        assert any(b.with_ == "Captain Ilse" for b in sheet.bonds)
        assert sheet.abilities[A.FIGHT].conditions == old.abilities[A.FIGHT].conditions + 1
        assert sheet.influence.retake.max == old.influence.retake.max + 1  # the Dilemma's Training Advance
    assert "Rousing Speech" in [s.name for s in state.star("Mara").abilities[A.IMPRESS].slots.values()]


def test_the_inciting_incident_is_played_once_after_every_star_has_joined():
    state, _ = decide(cast_of_two(), "casting-inciting-incident", INCITING)
    with pytest.raises(RuleViolation, match="was played: The Drowned Duke"):
        decide(state, "casting-inciting-incident", INCITING)
    waiting, _ = decide(cast_of_two(), "casting-start", {"star": "Ada Quill"})
    with pytest.raises(RuleViolation, match=r"once every Star has joined \(still in Casting: Ada Quill\)"):
        decide(waiting, "casting-inciting-incident", INCITING)


def test_every_star_names_a_specialty_and_an_actor_too_weak_is_refused():
    with pytest.raises(RuleViolation, match="Slot Rule.*Tobias Quell"):
        decide(cast_of_two(), "casting-inciting-incident", {**INCITING, "specialties": [["mara", "Rousing Speech"]]})
    state, _ = decide(
        cast_of_two(), "actor-create", {"name": "The Drowned Duke", "primary": "fight", "power_level": "HARD"}
    )
    with pytest.raises(RuleViolation, match="is HARD and the Cast's antagonist must be LEGENDARY at least"):
        decide(state, "casting-inciting-incident", INCITING)


def test_the_founders_boons_give_a_synergy_and_a_normal_home_base_once():
    state, (fact,) = decide(
        cast_of_two(), "casting-founders-boons", {"benefit": "+1 Grit", "home": "The Lantern", "kind": "a barge"}
    )
    assert isinstance(fact, FoundersBoonsGranted)
    assert state.ensemble.benefits == ("+1 Grit",)
    assert [(h.name, h.quality.value, h.kind) for h in state.ensemble.holdings] == [
        ("The Lantern", "NORMAL", "a barge")
    ]
    with pytest.raises(RuleViolation, match="once: this Ensemble has them"):
        decide(state, "casting-founders-boons", {"benefit": "+1 Retake", "home": "A Second Home"})


def test_the_dilemmas_path_is_the_career_advance_of_the_inciting_incident():
    before = cast_of_two().star("Mara").career.get(CareerPath.TRAINING)
    state, facts = decide(cast_of_two(), "casting-inciting-incident", INCITING)
    assert facts[0].rolls[0].faces == (3,) and "Dilemma d10 3: Training" in facts[0].lines
    assert state.star("Mara").career[CareerPath.TRAINING].minor == (before.minor if before else 0) + 1
