"""Power Dice (Chapter 12.1): starting pips, clears and their cascade, Project pips, Decisive Strike."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import InvalidDice, RuleViolation
from showrunner_ledger.domain.showrunner.ladder import Difficulty as D
from showrunner_ledger.domain.showrunner.power_dice import (
    PowerDice,
    acting_level,
    add_die,
    add_pip,
    clear,
    decisive_strike_difficulty,
    decisive_strike_opposition,
    dice_count,
    opposition,
    roll_power_dice,
)


def power(*pips: int) -> PowerDice:
    return PowerDice(pips=pips)


def faces(*values: int) -> TableDice:
    return TableDice({"power": values})


def used_up(dice: TableDice) -> None:
    dice.check_all_used()


# --- the dice a level has


def test_a_threat_has_one_die_per_level_from_normal():
    assert [dice_count(level) for level in D if level is not D.EASY] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert roll_power_dice(D.FORMIDABLE, faces(4, 2, 5)).levels == (D.NORMAL, D.HARD, D.FORMIDABLE)


def test_easy_is_not_a_power_level():
    with pytest.raises(RuleViolation, match="EASY is not a Power Level"):
        dice_count(D.EASY)


def test_pips_run_from_1_to_6_and_there_are_at_most_eight_dice():
    for bad in ((0,), (7,), (3,) * 9):
        with pytest.raises(ValidationError):
            PowerDice(pips=bad)
    assert power(1, 6).describe() == "N1 H6"
    assert PowerDice().top is None and PowerDice().describe() == "no dice"


# --- starting pips (12.1B)


def test_starting_pips_are_rolled_from_the_highest_die_down():
    """A FORMIDABLE Threat rolling 4, 2, 5: FORMIDABLE 4, HARD 2, NORMAL 5."""
    dice = faces(4, 2, 5)
    assert roll_power_dice(D.FORMIDABLE, dice) == power(5, 2, 4)
    used_up(dice)


def test_a_6_on_a_lower_die_adds_a_pip_above_and_is_rerolled():
    dice = faces(3, 6, 6, 2)
    assert roll_power_dice(D.HARD, dice) == power(2, 5)
    used_up(dice)


def test_the_top_die_keeps_a_6():
    dice = faces(6, 1)
    assert roll_power_dice(D.HARD, dice) == power(1, 6)
    used_up(dice)


def test_a_carry_into_a_die_already_at_6_passes_upward_and_is_lost_above_the_top():
    """EPIC top rolls 6; FORMIDABLE 6 → EPIC cannot take it (lost), re-roll 6 again → lost, re-roll 3."""
    dice = faces(6, 6, 6, 3, 1, 1)
    result = roll_power_dice(D.EPIC, dice)
    assert result == power(1, 1, 3, 6)
    used_up(dice)


# --- clearing (12.1E)


def test_clearing_a_die_takes_a_pip_from_the_next_die_up_then_resets_it():
    dice = faces(3)
    change = clear(power(4, 5, 2, 2), D.HARD, dice)
    assert change.after == power(4, 3, 1, 2)
    assert not (change.defeated or change.destroyed)
    used_up(dice)


def test_a_die_reduced_to_0_is_cleared_in_turn_so_clears_cascade_upward():
    dice = faces(4, 2)  # the FORMIDABLE reset first (the cascade), then HARD's
    change = clear(power(4, 3, 1, 2), D.HARD, dice)
    assert change.after == power(4, 2, 4, 1)
    assert change.steps == (
        "cleared HARD: FORMIDABLE drops to 0",
        "cleared FORMIDABLE: EPIC drops to 1",
        "FORMIDABLE is reset to 4",
        "HARD is reset to 2",
    )
    used_up(dice)


def test_a_6_on_the_reset_roll_adds_a_pip_above_and_is_rerolled():
    dice = faces(6, 1)
    assert clear(power(2, 3, 5), D.NORMAL, dice).after == power(1, 3, 5)
    used_up(dice)


def test_a_reset_6_passes_over_a_die_at_6():
    """HARD 6 drops to 5; NORMAL's reset rolls 6 (HARD back to 6), 6 again (HARD is full: FORMIDABLE 5), then 2."""
    dice = faces(6, 6, 2)
    assert clear(power(1, 6, 4), D.NORMAL, dice).after == power(2, 6, 5)
    used_up(dice)


def test_clearing_the_top_die_removes_it_and_defeats_the_threat():
    change = clear(power(3, 4), D.HARD, None)
    assert change.after == power(3)
    assert change.defeated and not change.destroyed


def test_reducing_the_top_die_to_0_defeats_and_the_die_below_becomes_the_top_keeping_a_6():
    dice = faces(6)
    change = clear(power(3, 1), D.NORMAL, dice)
    assert change.after == power(6)
    assert change.defeated and not change.destroyed
    used_up(dice)


def test_clearing_the_last_die_destroys_the_threat():
    change = clear(power(2), D.NORMAL, None)
    assert change.after == PowerDice()
    assert change.defeated and change.destroyed


def test_a_clear_above_the_top_die_destroys_the_threat():
    """12.1E: "they are HARD and should clear an EPIC die"."""
    change = clear(power(3, 4), D.EPIC, None)
    assert change.destroyed
    assert change.after == power(3, 4)


def test_a_clear_that_must_reset_a_die_needs_dice():
    with pytest.raises(RuleViolation, match="needs a power die"):
        clear(power(3, 4), D.NORMAL, None)


def test_table_dice_short_of_a_reset_are_refused():
    with pytest.raises(InvalidDice, match="--power"):
        clear(power(3, 4, 5), D.NORMAL, TableDice({}))


# --- adding pips (12.1D, H)


def test_a_pip_is_added_to_the_die_at_the_level():
    change = add_pip(power(2, 3), D.NORMAL, None)
    assert change.after == power(3, 3) and not change.full


def test_a_die_that_reaches_6_is_rerolled_and_carries_a_pip_up():
    dice = faces(4)
    assert add_pip(power(5, 3), D.NORMAL, dice).after == power(4, 4)
    used_up(dice)


def test_a_rerolled_6_carries_another_pip():
    dice = faces(6, 2)
    assert add_pip(power(5, 3), D.NORMAL, dice).after == power(2, 5)
    used_up(dice)


def test_carries_chain_upward():
    dice = faces(1, 2)
    assert add_pip(power(5, 5, 3), D.NORMAL, dice).after == power(1, 2, 4)
    used_up(dice)


def test_the_top_die_reaching_6_is_full():
    change = add_pip(power(2, 5), D.HARD, None)
    assert change.after == power(2, 6) and change.full
    again = add_pip(change.after, D.HARD, None)
    assert again.after == power(2, 6) and again.full


def test_a_pip_above_the_top_die_is_full_and_changes_nothing():
    change = add_pip(power(2, 5), D.EPIC, None)
    assert change.full and change.after == power(2, 5)


def test_a_new_die_on_top_is_rolled_and_keeps_a_6():
    dice = faces(6)
    assert add_die(power(3), dice).after == power(3, 6)
    with pytest.raises(RuleViolation, match="GODLIKE"):
        add_die(power(*(3,) * 8), faces(1))


# --- Highlights, Opposition, Decisive Strike


def test_a_highlight_acts_one_step_higher():
    assert acting_level(D.HARD, highlight=True) is D.FORMIDABLE
    assert acting_level(D.HARD, highlight=False) is D.HARD


def test_a_die_gives_its_pips_as_opposition_and_a_missing_die_none():
    assert opposition(power(4, 5, 2), D.HARD) == 5
    assert opposition(power(4, 5, 2), D.EPIC) == 0


def test_decisive_strike_is_one_step_above_the_top_die():
    """12.1G: a HARD Obstacle requires a FORMIDABLE check; a LEGENDARY Opponent a MYTHIC Sequence."""
    assert decisive_strike_difficulty(power(1, 1)) is D.FORMIDABLE
    assert decisive_strike_difficulty(power(*(1,) * 5)) is D.MYTHIC


def test_decisive_strike_example():
    """12.1G: "A MYTHIC Threat happens to have 2 pips on its MYTHIC Power Die. Below the MYTHIC die,
    there are 5 lower-tier Power Dice … faces 7 Opposition Dice (2 pips on MYTHIC die + 5 lower-tier dice)"."""
    mythic = power(4, 5, 3, 1, 6, 2)
    assert mythic.top is D.MYTHIC
    assert decisive_strike_opposition(mythic) == 7
    assert decisive_strike_difficulty(mythic) is D.ASCENDANT


def test_a_godlike_threat_or_one_without_dice_cannot_be_struck_decisively():
    with pytest.raises(RuleViolation, match="no Difficulty above"):
        decisive_strike_difficulty(power(*(2,) * 8))
    with pytest.raises(RuleViolation, match="nothing to strike"):
        decisive_strike_opposition(PowerDice())


def test_a_highlight_at_godlike_clears_above_the_top_die_and_destroys():
    """No step lies above GODLIKE: its Highlight is "a Power Die higher than their highest" (12.1E)."""
    godlike = power(*(3,) * 8)
    assert clear(godlike, D.GODLIKE, None, highlight=True).destroyed
    assert add_pip(godlike, D.GODLIKE, None, highlight=True).full
    assert acting_level(D.GODLIKE, highlight=True) is D.GODLIKE
