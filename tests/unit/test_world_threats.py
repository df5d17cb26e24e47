"""Threats (12.1): a check's outcome wears down Opponents and Obstacles, builds Projects, and strikes decisively."""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation, UnknownName
from showrunner_ledger.domain.showrunner.actors import Actor
from showrunner_ledger.domain.showrunner.check import Outcome
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.power_dice import PowerDice
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.threats import (
    Threat,
    as_outcome,
    check_actor,
    check_against,
    check_threat,
    decisive_strike,
    new_threat,
    strike_decisively,
)
from showrunner_ledger.domain.showrunner.world import World


def threat(kind: str, *pips: int, name: str = "Spider Tank") -> Threat:
    return Threat(name=name, kind=kind, power=PowerDice(pips=pips))


def actor(name: str, *pips: int) -> Actor:
    return Actor(name=name, primary=A.FIGHT, secondary=A.MOVE, power=PowerDice(pips=pips))


def power_faces(*faces: int) -> TableDice:
    return TableDice({"power": faces})


def test_a_threat_enters_with_its_dice_rolled_from_the_top():
    dice = power_faces(4, 2, 5)
    tank = new_threat("Spider Tank", "opponent", D.FORMIDABLE, dice)
    assert tank.power == PowerDice(pips=(5, 2, 4)) and tank.status == "active"
    dice.check_all_used()


@pytest.mark.parametrize(
    ("label", "outcome"),
    [
        ("success", "success"),
        ("Partial Success", "partial"),
        ("HIGHLIGHT", "highlight"),
        (Outcome.DISASTER, "disaster"),
    ],
)
def test_outcomes_are_read_from_their_labels(label, outcome):
    assert as_outcome(label) == outcome


def test_an_unknown_outcome_is_refused_with_the_five_names():
    with pytest.raises(RuleViolation, match="highlight, success, partial, failure or disaster"):
        as_outcome("win")


# --- wearing down (12.1E)


@pytest.mark.parametrize("outcome", ["success", "partial"])
def test_success_or_partial_clears_the_die_at_the_checks_difficulty(outcome):
    dice = power_faces(3)
    after, effect = check_threat(threat("obstacle", 4, 5, 2), outcome, D.HARD, dice)
    assert after.power == PowerDice(pips=(4, 3, 1))
    assert effect.level is D.HARD
    assert effect.consequences == (1 if outcome == "partial" else 0)
    dice.check_all_used()


def test_a_highlight_clears_the_die_one_step_higher():
    after, effect = check_threat(threat("opponent", 4, 5, 2), "highlight", D.HARD, None)
    assert effect.level is D.FORMIDABLE
    assert after.power == PowerDice(pips=(4, 5)) and after.status == "defeated"


@pytest.mark.parametrize(("outcome", "consequences"), [("failure", 1), ("disaster", 2)])
def test_failure_and_disaster_leave_the_dice(outcome, consequences):
    tank = threat("opponent", 4, 5, 2)
    after, effect = check_threat(tank, outcome, D.HARD, None)
    assert after == tank and effect.change is None
    assert (effect.consequences, effect.consequence_difficulty) == (consequences, D.HARD)


def test_clearing_the_top_die_defeats_and_the_last_die_destroys():
    after, effect = check_threat(threat("opponent", 4, 5), "success", D.HARD, None)
    assert after.status == effect.status == "defeated"
    after, effect = check_threat(after, "success", D.NORMAL, None)
    assert after.status == "destroyed" and after.power == PowerDice()


def test_a_highlight_above_the_top_die_destroys():
    """12.1E: "they are HARD and should clear an EPIC die" (here a FORMIDABLE Highlight on a HARD Threat)."""
    after, _ = check_threat(threat("obstacle", 4, 5), "highlight", D.HARD, None)
    assert after.status == "destroyed"


def test_a_destroyed_threat_takes_no_more_checks():
    gone = threat("obstacle", 4).model_copy(update={"status": "destroyed"})
    with pytest.raises(RuleViolation, match="destroyed"):
        check_threat(gone, "success", D.NORMAL, None)


def test_the_original_difficulty_is_never_easy():
    with pytest.raises(RuleViolation, match="never set to EASY"):
        check_threat(threat("obstacle", 4), "success", D.EASY, None)


# --- advancing Projects (12.1H)


def test_a_project_gains_a_pip_on_success_or_partial():
    bridge = threat("project", 2, 3, name="Bridge")
    after, effect = check_threat(bridge, "partial", D.NORMAL, None)
    assert after.power == PowerDice(pips=(3, 3)) and effect.consequences == 1


def test_a_project_highlight_adds_the_pip_one_step_higher():
    after, _ = check_threat(threat("project", 2, 3, 1, name="Army"), "highlight", D.NORMAL, None)
    assert after.power == PowerDice(pips=(2, 4, 1))


def test_a_project_die_reaching_6_rerolls_and_carries():
    dice = power_faces(2)
    after, _ = check_threat(threat("project", 5, 3, name="Bridge"), "success", D.NORMAL, dice)
    assert after.power == PowerDice(pips=(2, 4))
    dice.check_all_used()


def test_a_project_whose_top_die_reaches_6_is_complete():
    after, effect = check_threat(threat("project", 2, 5, name="Bridge"), "success", D.HARD, None)
    assert after.status == effect.status == "complete"
    with pytest.raises(RuleViolation, match="complete"):
        check_threat(after, "success", D.HARD, None)


# --- Actors as targets (12.1D)


def test_a_check_against_an_actor_clears_and_one_to_aid_adds_a_pip():
    cleared, _ = check_actor(actor("Baron", 3, 4), "success", D.NORMAL, power_faces(5))
    assert cleared.power == PowerDice(pips=(5, 3))
    aided, _ = check_actor(actor("Baron", 3, 4), "success", D.NORMAL, None, aid=True)
    assert aided.power == PowerDice(pips=(4, 4))


def test_an_actor_destroyed_is_written_off():
    gone, effect = check_actor(actor("Baron", 3), "success", D.NORMAL, None)
    assert gone.written_off and effect.status == "destroyed"
    with pytest.raises(RuleViolation, match="written off"):
        check_actor(gone, "success", D.NORMAL, None)


# --- Decisive Strike (12.1G)


def test_a_decisive_strike_success_destroys_at_once():
    effect = decisive_strike(PowerDice(pips=(1, 2)), "Gate", "success")
    assert effect.status == "destroyed" and effect.consequences == 0


@pytest.mark.parametrize(("outcome", "consequences"), [("partial", 1), ("failure", 1), ("disaster", 2)])
def test_a_failed_decisive_strike_keeps_the_dice_and_costs_at_the_elevated_difficulty(outcome, consequences):
    effect = decisive_strike(PowerDice(pips=(1, 2)), "Gate", outcome)
    assert effect.status == "active"
    assert (effect.consequences, effect.consequence_difficulty) == (consequences, D.FORMIDABLE)


# --- in the world


def test_check_against_finds_a_threat_or_an_actor_by_name():
    world = World().add_threat(threat("obstacle", 4, 5, name="Gate")).cast(actor("Baron", 3, 4))
    world, _ = check_against(world, "gate", "success", D.HARD, None)
    assert world.threat("Gate").status == "defeated"
    world, _ = check_against(world, "Baron", "success", D.NORMAL, None, aid=True)
    assert world.actor("Baron").power == PowerDice(pips=(4, 4))
    with pytest.raises(RuleViolation, match="only an Actor is aided"):
        check_against(world, "Gate", "success", D.NORMAL, None, aid=True)
    with pytest.raises(UnknownName, match="known: Baron, Gate"):
        check_against(world, "Nobody", "success", D.NORMAL, None)


def test_strike_decisively_writes_off_a_threat_or_an_actor():
    world = World().add_threat(threat("opponent", 4, 5, name="Tank")).cast(actor("Baron", 3, 4))
    world, _ = strike_decisively(world, "Tank", "highlight")
    world, _ = strike_decisively(world, "Baron", "success")
    assert world.threat("Tank").status == "destroyed" and world.actor("Baron").written_off
    with pytest.raises(RuleViolation, match="already destroyed"):
        strike_decisively(world, "Tank", "success")


def test_a_project_cannot_be_struck_decisively():
    world = World().add_threat(threat("project", 2, name="Bridge"))
    with pytest.raises(RuleViolation, match="Project"):
        strike_decisively(world, "Bridge", "success")
