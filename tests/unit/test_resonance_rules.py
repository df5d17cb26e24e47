"""The d4 Resonance rules as pure functions: the book's sentences, worked examples and properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from showrunner_ledger.domain.resonance.rules import (
    MAX_HARM_LEVEL,
    add_levels,
    endurance_spent,
    healed_level,
    is_major,
    judge,
    overkill_after_rejoining,
    overkill_after_scene,
    pool_size,
    standing,
    total,
    turn_order,
    two_largest,
)

d4 = st.integers(min_value=1, max_value=4)
pools = st.lists(d4, min_size=0, max_size=12)


# ------------------------------------------------------------------ checks


def test_a_check_adds_the_two_largest_dice():
    # "rolls a number of d4s equal to their rank ... and adds the 2 largest dice"
    assert two_largest([1, 4, 2, 3]) == (4, 3)
    assert total([1, 4, 2, 3]) == 7
    assert total([2, 2, 2]) == 4


def test_with_one_die_the_two_largest_is_that_die_alone():
    assert two_largest([3]) == (3,)
    assert total([3]) == 3


def test_with_no_dice_the_result_is_zero():
    assert two_largest([]) == ()
    assert total([]) == 0


@given(pools)
def test_a_d4_result_is_between_0_and_8(faces):
    result = total(faces)
    assert 0 <= result <= 8
    assert result == sum(sorted(faces)[-2:])


@given(pools, d4)
def test_one_more_die_never_lowers_the_result(faces, extra):
    assert total([*faces, extra]) >= total(faces)


def test_meeting_the_difficulty_succeeds_with_the_minimum_resonance_of_1():
    j = judge(5, 5)
    assert (j.success, j.resonance, j.dissonance) == (True, 1, 0)


def test_resonance_is_the_margin_of_success_and_dissonance_the_margin_of_failure():
    j = judge(7, 4)
    assert (j.success, j.resonance, j.dissonance) == (True, 3, 0)
    j = judge(3, 6)
    assert (j.success, j.resonance, j.dissonance) == (False, 0, 3)


@given(st.integers(0, 8), st.integers(0, 8))
def test_resonance_and_dissonance_follow_the_definitions(result, difficulty):
    j = judge(result, difficulty)
    assert j.success == (result >= difficulty)
    if j.success:
        assert j.resonance == max(1, result - difficulty) and j.resonance >= 1 and j.dissonance == 0
    else:
        assert j.dissonance == difficulty - result and j.dissonance >= 1 and j.resonance == 0


def test_support_adds_a_die_and_a_stretch_takes_one_away():
    assert pool_size(3) == 3
    assert pool_size(3, supported=True) == 4
    assert pool_size(3, stretch=True) == 2
    assert pool_size(3, supported=True, stretch=True) == 3
    assert pool_size(0, stretch=True) == 0  # never below none


# ------------------------------------------------------------------ Harms


def test_endurance_reduces_resonance_one_point_each_and_never_past_it():
    assert endurance_spent(1, 3) == 1
    assert endurance_spent(5, 2) == 2
    assert endurance_spent(0, 2) == 0


def test_harm_levels_are_cumulative():
    assert add_levels(2, 3) == (5, 0)


def test_levels_past_8_become_overkill():
    assert add_levels(6, 5) == (8, 3)
    assert add_levels(8, 1) == (8, 1)


@given(st.integers(0, MAX_HARM_LEVEL), st.integers(0, 40))
def test_every_level_lands_as_harm_or_overkill(level, levels):
    after, overkill = add_levels(level, levels)
    assert 0 <= after <= MAX_HARM_LEVEL
    assert (after - level) + overkill == levels
    assert overkill == max(0, level + levels - MAX_HARM_LEVEL)


def test_a_harm_at_morale_is_major():
    assert is_major(4, 4) and is_major(5, 4)
    assert not is_major(3, 4)
    assert not is_major(0, 0 + 1) and not is_major(0, 1)


def test_removed_by_major_harms_at_morale():
    assert standing([4, 4, 4, 4], 0, 4).removed
    assert not standing([4, 4, 4, 1], 0, 4).removed
    s = standing([2, 2], 0, 2)
    assert (s.unique, s.major, s.removed) == (2, 2, True)


def test_removed_by_unique_harms_at_twice_morale():
    s = standing([1, 1, 1, 1, 1, 1, 1, 1], 0, 4)
    assert (s.unique, s.major, s.removed) == (8, 0, True)
    assert not standing([1] * 7, 0, 4).removed


def test_overkill_counts_as_major_and_unique():
    s = standing([4, 4, 4], 1, 4)
    assert (s.unique, s.major, s.removed) == (4, 4, True)
    s = standing([1] * 6, 2, 4)
    assert (s.unique, s.major, s.removed) == (8, 2, True)


@given(st.lists(st.integers(0, 8), max_size=12), st.integers(0, 10), st.integers(1, 8))
def test_standing_follows_the_removal_sentence(levels, overkill, morale):
    s = standing(levels, overkill, morale)
    unique = sum(1 for level in levels if level > 0) + overkill
    major = sum(1 for level in levels if level >= morale and level > 0) + overkill
    assert (s.unique, s.major) == (unique, major)
    assert s.removed == (unique >= 2 * morale or major >= morale)


def test_a_scene_end_heals_one_overkill_and_an_arc_end_all():
    assert overkill_after_scene(3, arc_ends=False) == 2
    assert overkill_after_scene(0, arc_ends=False) == 0
    assert overkill_after_scene(3, arc_ends=True) == 0


def test_rejoining_keeps_overkill_and_adds_one():
    assert overkill_after_rejoining(0) == 1
    assert overkill_after_rejoining(2) == 3


def test_a_healing_potion_reduces_a_harm_by_fortitude():
    assert healed_level(5, 2) == 3
    assert healed_level(1, 3) == 0


# ------------------------------------------------------------------ turn order


def test_turn_order_is_by_speed_highest_first():
    assert turn_order([("a", 1), ("b", 3), ("c", 2)], {}) == ["b", "c", "a"]


def test_ties_are_broken_by_the_rolls_in_order():
    speeds = [("a", 2), ("b", 2), ("c", 2)]
    # first round: a 3, b 3, c 1 -> c last; second round a 1, b 4 -> b first
    assert turn_order(speeds, {"a": [3, 1], "b": [3, 4], "c": [1]}) == ["b", "a", "c"]


@given(st.lists(st.integers(0, 5), min_size=1, max_size=8))
def test_turn_order_never_puts_a_slower_combatant_first(speeds):
    named = [(f"c{i}", s) for i, s in enumerate(speeds)]
    order = turn_order(named, {})
    by_name = dict(named)
    assert [by_name[n] for n in order] == sorted(speeds, reverse=True)
