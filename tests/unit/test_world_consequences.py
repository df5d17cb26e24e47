"""14.3's Consequences on the world, decided on given dice."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner.actors import Actor
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.power_dice import PowerDice
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.threats import Threat
from showrunner_ledger.domain.showrunner.world import Due, World
from showrunner_ledger.domain.showrunner.world_consequences import WorldConsequenceRequest, decide


def ask(kind: str, level: D = D.HARD, **more) -> WorldConsequenceRequest:
    return WorldConsequenceRequest(star="Mara Voss", kind=kind, difficulty=level, **more)


def world() -> World:
    ally = Actor(name="Grim", primary=A.FIGHT, secondary=A.TALK, power=PowerDice(pips=(4, 2)))
    return World(actors={"grim": ally}).add_threat(
        Threat(name="Warden", kind="opponent", power=PowerDice(pips=(4, 2, 3)))
    )


def test_harm_allies_clears_the_allys_die_at_the_difficulty():
    """14.3 Harm Allies: "Their Power Die equal to your check's Difficulty is cleared": Grim's
    HARD die is his top die, so clearing it defeats him."""
    after, change = decide(world(), ask("harm-allies", target="Grim"), TableDice({}))
    assert after.actor("Grim").power.pips == (4,)
    assert change.changes[0].defeated


def test_harm_allies_on_a_lower_difficulty_resets_the_die_and_takes_a_pip_above():
    after, _ = decide(world(), ask("harm-allies", D.NORMAL, target="Grim"), TableDice({"power": [5]}))
    assert after.actor("Grim").power.pips == (5, 1)


def test_boost_opposition_adds_a_pip_at_the_difficulty():
    """14.3 Boost Opposition: "Their Power Die equal to your check's Difficulty increases by 1 pip"."""
    after, _ = decide(world(), ask("boost-opposition", target="Warden"), TableDice({}))
    assert after.threat("Warden").power.pips == (4, 3, 3)


def test_a_target_without_a_die_that_high_is_worked_on_its_top_die():
    after, _ = decide(world(), ask("boost-opposition", D.EPIC, target="Grim"), TableDice({}))
    assert after.actor("Grim").power.pips == (4, 3)


def test_harm_allies_is_for_a_friendly_actor_not_a_threat():
    with pytest.raises(RuleViolation, match="Warden is a Threat"):
        decide(world(), ask("harm-allies", target="Warden"), TableDice({}))


def test_a_new_threat_enters_at_the_difficulty():
    """14.3 New Threat: "Their starting Power Level is equal to the failed check's Difficulty"."""
    after, change = decide(world(), ask("new-threat", target="Rockslide"), TableDice({"power": [3, 2]}))
    assert after.threat("Rockslide").power.top is D.HARD and after.threat("Rockslide").kind == "obstacle"
    assert change.threat is not None and change.threat.power.pips == (2, 3)


@pytest.mark.parametrize(("level", "dice"), [(D.NORMAL, 3), (D.EPIC, 6), (D.MYTHIC, 18)])
def test_a_narrative_complication_adds_the_size_in_opposition_dice_to_the_next_check(level, dice):
    after, change = decide(world(), ask("complication", level), TableDice({}))
    assert change.complication == dice and after.complications == {"mara voss": dice}


def test_a_world_consequence_needs_its_target():
    with pytest.raises(RuleViolation, match="boost-opposition needs --target"):
        decide(world(), ask("boost-opposition"), TableDice({}))


def test_settling_ticks_off_the_oldest_dues_at_that_difficulty():
    dues = (
        Due(star="Mara Voss", difficulty=D.HARD, count=1, why="a"),
        Due(star="Mara Voss", difficulty=D.NORMAL, count=1, why="b"),
        Due(star="Mara Voss", difficulty=D.HARD, count=2, why="c"),
    )
    after, ticked = World().with_dues(dues).settle("mara voss", D.HARD, 2)
    assert ticked == 2
    assert [(d.why, d.count) for d in after.dues] == [("b", 1), ("c", 1)]
    assert World().settle("Mara Voss", D.HARD, 1)[1] == 0


def test_a_world_without_dues_or_complications_dumps_as_before():
    assert set(World().model_dump(mode="json")) == {"roster", "actors", "threats", "subplots", "sequences"}
