"""Actors (Appendix A), their relationships (12.1I), Actor vs Actor (12.1J) and the roster."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import InvalidDice, RuleViolation, UnknownName
from showrunner_ledger.domain.showrunner.actors import (
    Actor,
    Person,
    Roster,
    advance_tie,
    contest,
    detail_count,
    power_level_from,
    relationship_difficulty,
    roll_actor,
    set_tie,
)
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.power_dice import PowerDice
from showrunner_ledger.domain.showrunner.sheet import AbilityName as A


def actor(name: str, *pips: int, bonds=None, grudges=None, **extra) -> Actor:
    return Actor(
        name=name,
        primary=A.FIGHT,
        secondary=A.TALK,
        power=PowerDice(pips=pips),
        bonds=bonds or {},
        grudges=grudges or {},
        **extra,
    )


def who(name: str, star: bool = False) -> Person:
    return Person(name=name, star=star)


# --- Power Level: 3d6


@pytest.mark.parametrize(
    ("faces", "scale", "level"),
    [
        ((2, 5, 3), "typical", D.FORMIDABLE),  # the middle die, 3
        ((2, 5, 3), "minor", D.HARD),  # the lowest, 2
        ((2, 5, 3), "powerful", D.LEGENDARY),  # the highest, 5
        ((4, 1, 4), "typical", D.LEGENDARY),  # middle 4, doubles +1
        ((1, 1, 1), "typical", D.FORMIDABLE),  # triples +2
        ((6, 6, 6), "typical", D.GODLIKE),  # 6 + 2 = 8, the top of the ladder
        ((6, 6, 1), "typical", D.ASCENDANT),
        ((2, 2, 6), "minor", D.FORMIDABLE),  # lowest 2, doubles +1
        ((1, 3, 6), "typical", D.FORMIDABLE),
    ],
)
def test_power_level_is_the_middle_die_with_doubles_and_triples(faces, scale, level):
    assert power_level_from(faces, scale).level is level


def test_a_power_level_needs_exactly_three_d6():
    with pytest.raises(InvalidDice, match="3d6"):
        power_level_from((3, 4))
    with pytest.raises(InvalidDice):
        power_level_from((3, 4, 7))


# --- rolling and giving Actors


def test_an_actor_is_rolled_in_the_books_order():
    """d10 Primary 3 (Fight), d10 Secondary 3 again is rolled once more: 7 (Talk); 3d6 1,2,2 is
    HARD +1 for the doubles, FORMIDABLE; its three dice roll 4, 2, 5 from the top."""
    dice = TableDice({"ability": [3, 3, 7], "power_level": [1, 2, 2], "power": [4, 2, 5]})
    rolled = roll_actor("Captain Vex", dice, concept="rebel leader", agenda="free the moon")
    assert (rolled.primary, rolled.secondary) == (A.FIGHT, A.TALK)
    assert rolled.power_level is D.FORMIDABLE
    assert rolled.power == PowerDice(pips=(5, 2, 4))
    assert (rolled.concept, rolled.agenda) == ("rebel leader", "free the moon")
    dice.check_all_used()


def test_what_is_given_is_not_rolled():
    dice = TableDice({"power": [3, 3]})
    given = roll_actor(
        "Tom",
        dice,
        primary=A.WORK,
        secondary=A.SENSE,
        power_level=D.HARD,
        specialties=("Locks",),
        scars=("Gambler",),
        bonds={D.NORMAL: who("Mara", star=True)},
    )
    assert (given.primary, given.secondary, given.power_level) == (A.WORK, A.SENSE, D.HARD)
    assert given.specialties == ("Locks",) and given.scars == ("Gambler",)
    dice.check_all_used()


def test_a_scaled_actor_takes_the_lowest_or_highest_die():
    dice = TableDice({"power_level": [2, 5, 3], "power": [1, 1]})
    minor = roll_actor("Clerk", dice, primary=A.TALK, secondary=A.THINK, scale="minor")
    assert minor.power_level is D.HARD
    dice.check_all_used()


def test_an_actors_two_abilities_differ():
    with pytest.raises(RuleViolation, match="must differ"):
        roll_actor("Tom", TableDice({}), primary=A.WORK, secondary=A.WORK)
    with pytest.raises(ValidationError, match="both Fight"):
        Actor(name="Tom", primary=A.FIGHT, secondary=A.FIGHT, power=PowerDice(pips=(1,)))


def test_only_a_written_off_actor_has_no_power_dice():
    with pytest.raises(ValidationError, match="no Power Dice"):
        actor("Tom")
    gone = actor("Tom", written_off=True)
    with pytest.raises(RuleViolation, match="written off"):
        gone.power_level  # noqa: B018


def test_an_actor_holds_no_tie_with_themselves_and_no_easy_slot():
    with pytest.raises(ValidationError, match="themselves"):
        actor("Tom", 3, bonds={D.NORMAL: who("tom")})
    with pytest.raises(ValidationError, match="no EASY slot"):
        actor("Tom", 3, grudges={D.EASY: who("Ann")})
    # A Star who shares the Actor's name is someone else.
    assert actor("Tom", 3, bonds={D.NORMAL: who("Tom", star=True)}).bonds[D.NORMAL].star


def test_one_bond_and_one_grudge_slot_per_power_level():
    vex = actor("Vex", 2, 3, 4, bonds={D.NORMAL: who("Ann"), D.FORMIDABLE: who("Bo")}, grudges={D.HARD: who("Cy")})
    assert vex.missing_ties() == ("Bond at HARD", "Grudge at NORMAL", "Grudge at FORMIDABLE")


@pytest.mark.parametrize(
    ("level", "details"),
    [(D.NORMAL, 1), (D.HARD, 1), (D.FORMIDABLE, 2), (D.EPIC, 2), (D.LEGENDARY, 2), (D.MYTHIC, 3), (D.GODLIKE, 3)],
)
def test_detail_count_by_power_level(level, details):
    assert detail_count(level) == details


# --- relationships


def test_advancing_a_tie_swaps_with_the_slot_above():
    vex = actor("Vex", 2, 3, 4, grudges={D.NORMAL: who("Ann"), D.HARD: who("Bo"), D.FORMIDABLE: who("Cy")})
    moved = advance_tie(vex, "grudge", who("Ann"))
    assert moved.grudges == {D.NORMAL: who("Bo"), D.HARD: who("Ann"), D.FORMIDABLE: who("Cy")}


def test_advancing_to_a_level_jumps_there_and_never_moves_down():
    vex = actor("Vex", 2, 3, 4, bonds={D.NORMAL: who("Ann"), D.HARD: who("Bo"), D.FORMIDABLE: who("Cy")})
    assert advance_tie(vex, "bond", who("Ann"), D.FORMIDABLE).bonds[D.FORMIDABLE] == who("Ann")
    assert advance_tie(vex, "bond", who("Cy"), D.HARD) == vex


def test_a_new_tie_starts_at_normal_and_displaces_who_was_there():
    vex = actor("Vex", 2, 3, grudges={D.NORMAL: who("Ann"), D.HARD: who("Bo")})
    assert advance_tie(vex, "grudge", who("Zed")).grudges == {D.NORMAL: who("Zed"), D.HARD: who("Bo")}


def test_a_tie_stops_at_the_actors_power_level():
    vex = actor("Vex", 2, 3, bonds={D.NORMAL: who("Ann"), D.HARD: who("Bo")})
    assert advance_tie(vex, "bond", who("Ann"), D.MYTHIC).bonds == {D.NORMAL: who("Bo"), D.HARD: who("Ann")}
    assert advance_tie(vex, "bond", who("Bo")) == vex


def test_setting_a_tie_refuses_what_advancing_would_cap_or_leave_unmoved():
    """`actor tie`: one slot per Power Level, NORMAL up; a tie only moves up; nothing silently capped."""
    vex = actor("Vex", 2, 3, bonds={D.NORMAL: who("Ann"), D.HARD: who("Bo")})
    assert set_tie(vex, "bond", who("Ann")) == advance_tie(vex, "bond", who("Ann"))
    assert set_tie(vex, "grudge", who("Mara", star=True), D.HARD).grudges == {D.HARD: who("Mara", star=True)}
    with pytest.raises(
        RuleViolation,
        match="Vex is HARD: Bond slots run from NORMAL to HARD, one per Power Level; there is no EPIC slot",
    ):
        set_tie(vex, "bond", who("Ann"), D.EPIC)
    with pytest.raises(RuleViolation, match="already in the top slot"):
        set_tie(vex, "bond", who("Bo"))
    with pytest.raises(RuleViolation, match="at HARD: a tie only moves up, not to NORMAL"):
        set_tie(vex, "bond", who("Bo"), D.NORMAL)
    with pytest.raises(RuleViolation, match="with themselves"):
        set_tie(vex, "grudge", who("vex"))
    with pytest.raises(RuleViolation, match="written off"):
        set_tie(actor("Gone", written_off=True), "bond", who("Ann"))


def test_moving_a_bond_or_grudge_is_a_check_at_its_current_level():
    vex = actor("Vex", 2, 3, bonds={D.HARD: who("Bo")})
    assert relationship_difficulty(vex, "bond", "bo") is D.HARD
    with pytest.raises(UnknownName, match="no Grudge with Bo"):
        relationship_difficulty(vex, "grudge", "Bo")


# --- Actor vs Actor


def test_the_actor_with_more_pips_at_the_difficulty_wins():
    result = contest(actor("Ann", 2, 5), actor("Bo", 6, 3), D.HARD)
    assert (result.pips, result.winner) == ((5, 3), "Ann")


def test_a_tie_loses_both_and_a_missing_die_counts_0():
    assert contest(actor("Ann", 2, 5), actor("Bo", 6, 5), D.HARD).winner is None
    assert contest(actor("Ann", 2), actor("Bo", 6, 1), D.HARD).winner == "Bo"


# --- the roster


def test_the_next_free_slot_is_the_lowest_unlocked_then_the_lowest_empty():
    roster = Roster(slots={1: "Ann", 40: None, 7: None})
    assert roster.next_free() == 7
    assert Roster(slots={1: "Ann", 2: "Bo"}).next_free() == 3
    assert roster.slot_of("ann") == 1 and roster.slot_of("Cy") is None


def test_a_full_roster_has_no_free_slot():
    full = Roster(slots={n: f"A{n}" for n in range(1, 101)})
    with pytest.raises(RuleViolation, match="all 100 roster slots"):
        full.next_free()
    with pytest.raises(ValidationError):
        Roster(slots={101: "Zed"})
