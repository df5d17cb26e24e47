"""The d10 Pool rules as pure functions: DCs, counting successes and 1s, degrees, criticals,
contests and Luck, with the rulebook's own claims checked by exact probabilities."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.pool.rules import (
    DC_NAMES,
    Degree,
    check_dc,
    check_required,
    contest_winner,
    count,
    dc_name,
    degree,
    luck_holds,
    needed,
)

faces_st = st.lists(st.integers(1, 10), min_size=1, max_size=20)
dc_st = st.integers(3, 10)
need_st = st.integers(1, 6)


# ----------------------------------------------------------------- the DC ladder


@pytest.mark.parametrize(
    "dc, name",
    [
        (3, "easy"),
        (4, "easy"),
        (5, "average"),
        (6, "average"),
        (7, "demanding"),
        (8, "hard"),
        (9, "very hard"),
        (10, "near-impossible"),
    ],
)
def test_dc_names_follow_the_book(dc, name):
    assert dc_name(dc) == name
    check_dc(dc)  # every named DC is accepted


def test_the_ladder_has_exactly_the_dcs_3_to_10():
    assert sorted(DC_NAMES) == list(range(3, 11))


@pytest.mark.parametrize("dc", [-1, 0, 1, 2, 11, 12, 100])
def test_a_dc_outside_3_to_10_is_refused_naming_the_ladder(dc):
    with pytest.raises(RuleViolation) as refused:
        check_dc(dc)
    message = str(refused.value)
    assert f"DC {dc} is not a DC of this game" in message
    assert "near-impossible 10" in message and "easy 3-4" in message
    with pytest.raises(RuleViolation):
        count([5, 6], dc)


@pytest.mark.parametrize("required", [1, 2, 3])
def test_one_to_three_successes_may_be_required(required):
    check_required(required)
    assert needed(required, critical=False) == required


@pytest.mark.parametrize("required", [0, -1, 4, 7])
def test_other_requirements_are_refused(required):
    with pytest.raises(RuleViolation, match=f"requires 1 to 3 successes .*not {required}"):
        check_required(required)


@pytest.mark.parametrize("required, doubled", [(1, 2), (2, 4), (3, 6)])
def test_a_critical_roll_doubles_the_successes_required(required, doubled):
    assert needed(required, critical=True) == doubled


# ----------------------------------------------------------------- counting


def test_each_die_at_or_above_the_dc_is_a_success_and_each_1_cancels_one():
    c = count([10, 7, 6, 3, 1, 2], 7)
    assert (c.successes, c.ones, c.net, c.kept) == (2, 1, 1, 1)
    c = count([10, 7, 6, 3, 1, 2], 6)
    assert (c.successes, c.ones, c.net) == (3, 1, 2)


def test_a_die_exactly_on_the_dc_succeeds_and_one_below_does_not():
    assert count([8], 8).successes == 1
    assert count([7], 8).successes == 0


def test_net_may_fall_below_zero_but_kept_successes_do_not():
    c = count([1, 1, 1, 9], 6)
    assert (c.net, c.kept) == (-2, 0)


def test_a_face_outside_the_d10_is_refused():
    with pytest.raises(RuleViolation, match="11 is not a d10 face"):
        count([3, 11], 6)


# ----------------------------------------------------------------- degrees (the book's four)


def test_plenty_of_successes_is_more_than_needed():
    c = count([9, 8, 7, 2], 6)  # 3 successes, need 1
    assert degree(c, 1) is Degree.PLENTY
    assert Degree.PLENTY.meaning == "it goes as well as it could"


def test_just_enough_is_exactly_what_was_needed():
    assert degree(count([9, 8, 1, 2], 6), 1) is Degree.JUST_ENOUGH  # 2 − 1 = 1
    assert Degree.JUST_ENOUGH.meaning == "success, with a wrinkle"


def test_no_successes_and_no_1s_is_just_short_not_a_botch():
    c = count([2, 3, 5, 4], 6)
    assert (c.successes, c.ones) == (0, 0)
    assert degree(c, 1) is Degree.JUST_SHORT


def test_some_successes_but_fewer_than_needed_is_just_short():
    assert degree(count([9, 2, 2], 6), 2) is Degree.JUST_SHORT


def test_1s_that_take_all_the_successes_are_a_botch():
    assert degree(count([9, 1, 4], 6), 1) is Degree.BOTCH  # 1 − 1 = 0
    assert degree(count([9, 8, 1, 1, 1], 6), 1) is Degree.BOTCH  # 2 − 3 < 0


def test_a_1_with_no_successes_at_all_is_a_botch():
    assert degree(count([1, 4, 5], 6), 1) is Degree.BOTCH


def test_1s_that_leave_some_successes_are_not_a_botch_even_when_short():
    # need 3, net 1: short, but the 1s did not take everything
    assert degree(count([9, 9, 1], 6), 3) is Degree.JUST_SHORT


def test_a_critical_roll_that_would_have_been_enough_falls_short():
    c = count([9, 3, 2], 6)  # net 1
    assert degree(c, needed(1, critical=False)) is Degree.JUST_ENOUGH
    assert degree(c, needed(1, critical=True)) is Degree.JUST_SHORT


def test_only_plenty_and_just_enough_succeed():
    assert [d for d in Degree if d.succeeded] == [Degree.PLENTY, Degree.JUST_ENOUGH]


# ----------------------------------------------------------------- properties


@given(faces_st, dc_st, need_st)
def test_a_botch_always_has_a_1_and_no_net_success(faces, dc, need):
    c = count(faces, dc)
    if degree(c, need) is Degree.BOTCH:
        assert c.ones >= 1
        assert c.net <= 0
        assert 1 in faces


@given(faces_st, dc_st)
def test_successes_never_exceed_the_pool(faces, dc):
    c = count(faces, dc)
    assert 0 <= c.successes <= len(faces)
    assert 0 <= c.kept <= len(faces)
    assert c.successes + c.ones <= len(faces)


@given(faces_st, faces_st, dc_st, need_st)
def test_the_degree_is_monotone_in_the_net(a, b, dc, need):
    ca, cb = count(a, dc), count(b, dc)
    if ca.net < cb.net:
        assert degree(ca, need).rank <= degree(cb, need).rank


@given(faces_st, dc_st, need_st)
def test_success_is_exactly_a_net_at_or_above_the_need(faces, dc, need):
    c = count(faces, dc)
    assert degree(c, need).succeeded == (c.net >= need)


@given(faces_st, dc_st, need_st)
def test_a_roll_without_1s_never_botches(faces, dc, need):
    c = count([f for f in faces if f != 1] or [2], dc)
    assert degree(c, need) is not Degree.BOTCH


# ----------------------------------------------------------------- the book's claims about pools


def _chance(pool: int, dc: int, wanted: Degree, need: int = 1) -> Fraction:
    """The exact chance of a degree, summing over how many dice are 1s, successes and the rest."""
    p_one, p_hit = Fraction(1, 10), Fraction(11 - dc, 10)
    p_other = 1 - p_one - p_hit
    total = Fraction(0)
    for ones in range(pool + 1):
        for hits in range(pool - ones + 1):
            others = pool - ones - hits
            faces = [1] * ones + [dc] * hits + [2] * others
            if degree(count(faces, dc), need) is wanted:
                total += comb(pool, ones) * comb(pool - ones, hits) * p_one**ones * p_hit**hits * p_other**others
    return total


def test_more_dice_mean_fewer_botches_from_three_dice_up_at_an_average_dc():
    chances = [_chance(n, 6, Degree.BOTCH) for n in range(3, 13)]
    assert all(later < earlier for earlier, later in pairwise(chances))


def test_one_die_botches_only_on_a_1_and_two_dice_botch_more_often():
    assert _chance(1, 6, Degree.BOTCH) == Fraction(1, 10)
    assert _chance(2, 6, Degree.BOTCH) == Fraction(19, 100)


def test_at_dc_10_a_1_is_as_likely_as_a_success_so_big_pools_botch_more():
    # The rules as written: every die is as likely to cancel as to succeed. Not smoothed over.
    assert _chance(12, 10, Degree.BOTCH) > _chance(4, 10, Degree.BOTCH)


def test_high_ability_means_high_reliability():
    assert _chance(8, 7, Degree.PLENTY) + _chance(8, 7, Degree.JUST_ENOUGH) > _chance(3, 7, Degree.PLENTY) + _chance(
        3, 7, Degree.JUST_ENOUGH
    )


# ----------------------------------------------------------------- contests and Luck


def test_the_side_with_more_successes_wins_a_contest():
    assert contest_winner(count([9, 9], 6), count([9, 2], 6)) == "attacker"
    assert contest_winner(count([9, 2], 6), count([9, 9], 6)) == "defender"


def test_a_tie_goes_to_the_defender():
    assert contest_winner(count([9, 2], 6), count([7, 3], 6)) == "defender"


def test_two_botches_are_a_tie_of_nothing_and_go_to_the_defender():
    assert contest_winner(count([1, 2], 6), count([1, 1, 1, 9], 6)) == "defender"


@given(faces_st, faces_st, dc_st)
def test_the_attacker_wins_only_by_beating_the_defender(a, d, dc):
    ca, cd = count(a, dc), count(d, dc)
    assert (contest_winner(ca, cd) == "attacker") == (ca.kept > cd.kept)


@pytest.mark.parametrize(
    "face, luck, lucky", [(1, 5, True), (5, 5, True), (6, 5, False), (10, 9, False), (10, 10, True), (1, 0, False)]
)
def test_luck_holds_on_a_d10_at_or_under_luck(face, luck, lucky):
    assert luck_holds(face, luck) is lucky


def test_luck_5_is_a_coin_flip():
    assert sum(luck_holds(face, 5) for face in range(1, 11)) == 5
