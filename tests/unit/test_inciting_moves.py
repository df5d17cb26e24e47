"""Acts II and III of the Inciting Incident (4.1 Step 4) for a one-Star show: the Rival's Move
(the antagonist's Gambit) and the Character's Move (aid the Ally or harm the Rival)."""

from __future__ import annotations

from typing import Any

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.ruleset import RollContext
from showrunner_ledger.domain.showrunner.commands import COMMANDS
from showrunner_ledger.domain.showrunner.events import CheckRolled
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.showrunner.world_events import ActorTieChanged, ThreatChecked
from tests.conftest import example_star
from tests.unit.test_casting_ensemble import INCITING, cast_of_two
from tests.unit.test_casting_ensemble import decide as decide_counting


def decide(state: ShowrunnerState, name: str, request: dict[str, Any], faces: dict[str, list[int]]):
    action = COMMANDS[name]
    dice = TableDice(faces)
    facts = list(action.decide(state, action.input.model_validate(request), RollContext.of(dice)))
    dice.check_all_used()
    for fact in facts:
        state = fact.apply(state)
    return state, facts


def one_star_show() -> ShowrunnerState:
    """Mara alone: the antagonist, The Drowned Duke, raised to EPIC (4.1 Step 4, 1 Star)."""
    alone = {**INCITING, "specialties": [["mara", "Rousing Speech"]]}
    state, _ = decide_counting(ShowrunnerState().with_star(example_star()), "casting-inciting-incident", alone)
    return state


def test_the_rivals_move_is_a_check_on_the_rivals_primary_ability_at_its_power_level():
    """Act II: "a Gambit with a Difficulty Target equal to the Rival's Power Level … using the
    Rival's Primary Ability"."""
    state = one_star_show()
    assert state.world.actor("The Drowned Duke").power_level is D.EPIC
    _, facts = decide(state, "casting-rivals-move", {"star": "Mara"}, {"action": [6, 6, 2], "script": [6, 1]})
    checked = facts[0]
    assert isinstance(checked, CheckRolled)
    request = checked.resolution.request
    assert (request.ability, request.difficulty, request.opposition) == (A.FIGHT, D.EPIC, 0)


def test_the_characters_move_harms_the_rivals_die_and_the_rival_gains_a_grudge():
    """Act III: a Difficulty "from NORMAL up to the Power Level of the Actor you are targeting",
    resolved "against their Power Die matching the Difficulty"; "If you chose to Harm your
    Rival, they automatically gain 1 Grudge Advance against you"."""
    state = one_star_show()
    duke = state.world.actor("The Drowned Duke")
    pips = duke.power.pips_at(D.HARD)
    faces = {"action": [6, 6, 5], "opposition": [1] * pips, "script": [6, 2], "power": [3]}
    request = {"star": "Mara", "move": "harm", "ability": "fight", "difficulty": "HARD"}
    after, facts = decide(state, "casting-characters-move", request, faces)
    assert [type(f) for f in facts[:2]] == [CheckRolled, ThreatChecked]
    tie = facts[-1]
    assert isinstance(tie, ActorTieChanged) and (tie.kind, tie.person.name) == ("grudge", "Mara Voss")
    assert after.world.actor("The Drowned Duke").tier("grudge", "Mara Voss") is not None


def test_the_characters_move_aids_only_the_ally_and_stays_within_its_power_level():
    state = one_star_show()
    move = {"star": "Mara", "move": "aid", "ability": "impress", "difficulty": "NORMAL"}
    with pytest.raises(RuleViolation, match="aid helps the Ally: name it"):
        decide(state, "casting-characters-move", move, {})
    with pytest.raises(RuleViolation, match="The Drowned Duke is not Mara Voss's Ally"):
        decide(state, "casting-characters-move", {**move, "ally": "The Drowned Duke"}, {})
    with pytest.raises(RuleViolation, match="harm is made against the Rival, The Drowned Duke"):
        decide(state, "casting-characters-move", {**move, "move": "harm", "ally": "Captain Ilse"}, {})
    with pytest.raises(RuleViolation, match="NORMAL up to The Drowned Duke's Power Level EPIC"):
        decide(state, "casting-characters-move", {**move, "move": "harm", "difficulty": "LEGENDARY"}, {})


def test_with_two_stars_the_moves_are_action_sequences_and_before_the_incident_there_is_none():
    with pytest.raises(RuleViolation, match="has not been played"):
        decide(ShowrunnerState().with_star(example_star()), "casting-rivals-move", {"star": "Mara"}, {})
    two, _ = decide_counting(cast_of_two(), "casting-inciting-incident", INCITING)
    with pytest.raises(RuleViolation, match="with 2 Stars the Inciting Incident's Moves are Action Sequences"):
        decide(two, "casting-rivals-move", {"star": "Mara"}, {})
