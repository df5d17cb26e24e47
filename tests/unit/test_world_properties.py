"""Properties of the world's rules, over many dice: pips stay on the die, cascades end, Power Levels
stay on the ladder, and a Subplot is revealed once."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.showrunner.actors import Actor, Person, power_level_from
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.power_dice import PowerDice, add_pip, clear, roll_power_dice
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A
from showrunner_ledger.domain.showrunner.world import World
from showrunner_ledger.domain.showrunner.writers_room import AlreadyRevealed, generate, reveal

LEVELS = [level for level in D if level is not D.EASY]
pips = st.lists(st.integers(1, 6), min_size=1, max_size=8).map(tuple)
levels = st.sampled_from(LEVELS)
# Faces end in a run of non-6s, so every exploding roll is sure to stop.
rolls = st.lists(st.integers(1, 6), max_size=40).map(lambda faces: [*faces, *[1] * 16])


def power_dice(faces: list[int]) -> TableDice:
    return TableDice({"power": faces})


@given(pips, levels, rolls)
def test_a_clear_keeps_every_die_between_1_and_6_and_loses_at_most_the_top_die(before, level, faces):
    change = clear(PowerDice(pips=before), level, power_dice(faces))
    after = change.after.pips
    assert all(1 <= pip <= 6 for pip in after)
    assert len(before) - 1 <= len(after) <= len(before)
    assert change.destroyed == (not after or level.rank > len(before))


@given(pips, levels, rolls)
def test_a_clear_cascade_ends_within_one_reset_per_die(before, level, faces):
    change = clear(PowerDice(pips=before), level, power_dice(faces))
    resets = [step for step in change.steps if step.endswith(tuple(f"reset to {n}" for n in range(1, 7)))]
    assert len(resets) <= len(before)


@given(pips, levels, rolls)
def test_adding_a_pip_keeps_every_die_between_1_and_6_and_never_loses_a_die(before, level, faces):
    after = add_pip(PowerDice(pips=before), level, power_dice(faces)).after.pips
    assert all(1 <= pip <= 6 for pip in after) and len(after) == len(before)


@given(levels, rolls)
def test_starting_pips_give_one_die_per_level_each_between_1_and_6(level, faces):
    rolled = roll_power_dice(level, power_dice(faces))
    assert rolled.top is level and all(1 <= pip <= 6 for pip in rolled.pips)


@given(st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)))
def test_a_power_level_from_3d6_is_always_on_the_ladder_and_scaling_orders_it(faces):
    minor, typical, powerful = (power_level_from(faces, scale).level for scale in ("minor", "typical", "powerful"))
    assert {minor, typical, powerful} <= set(LEVELS)
    assert minor.rank <= typical.rank <= powerful.rank


def _plotter_world() -> World:
    rival = Person(name="Rival")
    ties = {level: rival for level in LEVELS[:3]}
    shore = Actor(
        name="Lady Shore", primary=A.FIGHT, secondary=A.TALK, power=PowerDice(pips=(3, 4, 2)), bonds=ties, grudges=ties
    )
    other = Actor(name="Rival", primary=A.MOVE, secondary=A.SENSE, power=PowerDice(pips=(5, 1, 6)))
    return World().cast(shore).cast(other)


@given(st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)), st.integers(1, 100), rolls)
def test_a_subplot_is_revealed_once_and_reveals_the_same_from_the_same_world(power, event, faces):
    dice = TableDice({"power_level": power, "event": [event], "power": faces})
    written = generate(_plotter_world(), dice, plotter="Lady Shore").world
    once = reveal(written, 1)
    assert once == reveal(written, 1)
    with pytest.raises(AlreadyRevealed):
        reveal(once, 1)
