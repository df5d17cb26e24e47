"""The World model: lookups, the roster's slot states, and frozen updates."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from showrunner_ledger.domain.errors import AlreadyExists, RuleViolation, UnknownName
from showrunner_ledger.domain.showrunner.actors import Actor
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.power_dice import PowerDice
from showrunner_ledger.domain.showrunner.sequences import declare
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.threats import Threat
from showrunner_ledger.domain.showrunner.world import World


def actor(name: str, written_off: bool = False) -> Actor:
    return Actor(name=name, primary=A.WORK, secondary=A.THINK, power=PowerDice(pips=(3,)), written_off=written_off)


def test_a_new_world_is_empty_and_frozen():
    world = World()
    assert (world.actors, world.threats, world.subplots, world.sequences) == ({}, {}, (), {})
    with pytest.raises(ValidationError):
        world.actors = {}  # type: ignore[misc]


def test_slot_states_empty_unlocked_filled_written_off():
    world = World().cast(actor("Ann"), 3).cast(actor("Bo", written_off=True), 4)
    world = world.with_roster(world.roster.with_slot(9, None))
    assert [world.slot_state(n) for n in (1, 3, 4, 9)] == ["empty", "filled", "written_off", "unlocked"]


def test_casting_takes_the_next_unlocked_slot_and_never_a_filled_one():
    world = World().cast(actor("Ann"), 3)
    world = world.with_roster(world.roster.with_slot(42, None))
    assert world.cast(actor("Bo")).roster.holder(42) == "Bo"
    with pytest.raises(RuleViolation, match="slot 3 holds Ann"):
        world.cast(actor("Cy"), 3)


def test_a_written_off_actors_slot_can_be_recast():
    world = World().cast(actor("Ann", written_off=True), 3).cast(actor("Ann's Sister"), 3)
    assert world.roster.holder(3) == "Ann's Sister" and world.actor("Ann").written_off


def test_actors_and_threats_never_share_a_name():
    world = World().cast(actor("Gate"))
    with pytest.raises(AlreadyExists, match="'gate' already names"):
        world.add_threat(Threat(name="gate", kind="obstacle", power=PowerDice(pips=(2,))))
    with pytest.raises(AlreadyExists):
        world.cast(actor("GATE"))


def test_lookups_ignore_case_and_name_what_is_known():
    world = (
        World().cast(actor("Lady Shore")).add_threat(Threat(name="Gate", kind="obstacle", power=PowerDice(pips=(2,))))
    )
    assert world.actor("lady  shore").name == "Lady Shore"
    with pytest.raises(UnknownName, match="Actors: Lady Shore"):
        world.actor("Tom")
    with pytest.raises(UnknownName, match="Threats: Gate"):
        world.threat("Door")
    with pytest.raises(UnknownName, match="none has been written"):
        world.subplot(1)


def test_updates_need_an_existing_actor_or_threat():
    with pytest.raises(UnknownName):
        World().with_actor(actor("Ann"))
    with pytest.raises(UnknownName):
        World().with_threat(Threat(name="Gate", kind="obstacle", power=PowerDice(pips=(2,))))


def test_standing_means_not_destroyed_complete_or_written_off():
    world = World().cast(actor("Ann")).cast(actor("Bo", written_off=True))
    world = world.add_threat(Threat(name="Gate", kind="obstacle", power=PowerDice(), status="destroyed"))
    assert world.standing("Ann") and not world.standing("Bo") and not world.standing("Gate")


def test_running_sequences_by_goal():
    world = World().with_sequence(declare("Crack the Vault", D.EPIC, 2, {"grit": 1}))
    assert world.sequence_active("crack the vault")
    assert not world.without_sequence("Crack the vault").sequence_active("crack the vault")
    with pytest.raises(UnknownName, match="running: Crack the Vault"):
        world.sequence("rob the bank")


def test_a_world_round_trips_through_json_subplots_and_sequences_included():
    from showrunner_ledger.domain.dice import TableDice
    from showrunner_ledger.domain.showrunner.actors import Person
    from showrunner_ledger.domain.showrunner.writers_room import generate

    star = Person(name="Mara", star=True)
    shore = Actor(
        name="Lady Shore",
        primary=A.FIGHT,
        secondary=A.TALK,
        power=PowerDice(pips=(3, 4, 2)),
        bonds={D.NORMAL: star, D.HARD: star, D.FORMIDABLE: star},
        grudges={D.NORMAL: star, D.HARD: star, D.FORMIDABLE: star},
    )
    dice = TableDice({"power_level": [1, 2, 4], "event": [80], "bounty": [2], "power": [4, 1, 5]})
    world = generate(World().cast(shore, 7), dice, plotter="Lady Shore").world
    world = world.with_sequence(declare("Crack the Vault", D.EPIC, 2, {"grit": 1}))
    assert World.model_validate_json(world.model_dump_json()) == world
