"""Props, the Backpack, Trinkets and Preparation (domain/showrunner/backpack.py).

Rules: Chapter 8.1 (Prop Types, Quality, the Backpack, Overflow in hand, Preparation and
Flashbacks), 11.2 (Prop and Preparation Masteries, the Method Actor's Award), Appendix E.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner import backpack as bp
from showrunner_ledger.domain.showrunner.ladder import Quality
from showrunner_ledger.domain.showrunner.sheet import Award, Mastery, Prop, PropType, StarSheet
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.showrunner.vocabulary import FlashbackAction
from showrunner_ledger.domain.structure import Structure
from tests.conftest import example_star

POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")


def star(name: str = "Ada", **fields) -> StarSheet:
    influence = {p: {"current": 1, "max": 2} for p in POOLS}
    return StarSheet.model_validate({"name": name, "influence": influence} | fields)


def state_of(*sheets: StarSheet, episode: int = 1, open_: bool = True) -> ShowrunnerState:
    state = ShowrunnerState(structure=Structure(episode=episode, episode_open=open_))
    for sheet in sheets:
        state = state.with_star(sheet)
    return state


def test_prop_types_fall_in_the_three_classes_of_8_1a():
    """8.1A: 4 Production Materials, 10 Consumables, 5 Equipment: all 19 Types, each once."""
    assert len(bp.PRODUCTION) == 4 and len(bp.CONSUMABLES) == 10 and len(bp.EQUIPMENT) == 5
    assert set(bp.PROP_CLASS) == set(PropType)


def test_quality_props_give_back_influence_and_prop_mastery_doubles_it():
    """8.1C: HARD regains 1 Retake, FORMIDABLE 1 Grit, EPIC 1 Spotlight; 11.2 Prop Mastery: two."""
    plain, mastered = star(), star(masteries=["prop"])
    assert bp.quality_regain(Quality.NORMAL, plain) == (None, 0)
    assert bp.quality_regain(Quality.HARD, plain) == ("retake", 1)
    assert bp.quality_regain(Quality.FORMIDABLE, plain) == ("grit", 1)
    assert bp.quality_regain(Quality.EPIC, plain) == ("spotlight", 1)
    assert bp.quality_regain(Quality.EPIC, mastered) == ("spotlight", 2)


def test_a_new_star_has_two_backpack_slots_one_hero_prop_slot_and_three_trinket_slots():
    """8.1D: "You start the Show with 2 unlocked Backpack Slots (1 of choice and 1 Money), 1
    unlocked Hero Prop Slot, and 3 Trinket Slots"; 5 of each Quality per slot."""
    sheet = star()
    assert (bp.backpack_slots(sheet), bp.hero_prop_slots(sheet), bp.trinket_slots(sheet)) == (2, 1, 3)
    assert bp.prop_limit(sheet) == 5


def test_prop_mastery_holds_ten_of_each_quality():
    """8.1D / 11.2: Prop Mastery raises the capacity from 5 to 10 of each Quality."""
    sheet = star(masteries=["prop"])
    assert bp.prop_limit(sheet) == 10
    sheet, placed = bp.stow(sheet, PropType.WEAPONS, Quality.NORMAL, 10)
    assert placed.to_backpack == 10 and placed.to_hand == 0


def test_one_slot_holds_five_of_each_quality_and_the_rest_goes_in_hand():
    """8.1D: 5 of each Quality per Type; a full Backpack overflows into the two hands."""
    sheet, placed = bp.stow(star(), PropType.WEAPONS, Quality.NORMAL, 7)
    assert (placed.to_backpack, placed.to_hand, placed.left_behind) == (5, 2, 0)
    assert sheet.in_hand == [Prop(type=PropType.WEAPONS, count=2)]
    assert bp.hands_free(sheet) == 0
    sheet, placed = bp.stow(sheet, PropType.WEAPONS, Quality.HARD, 5)
    assert placed.to_backpack == 5  # another Quality of the same Type: the same slot, its own 5


def test_the_starting_money_slot_holds_only_money():
    """8.1D "1 of choice and 1 Money": a second non-Money Type finds no slot."""
    sheet, _ = bp.stow(star(), PropType.WEAPONS, Quality.NORMAL, 1)
    sheet, placed = bp.stow(sheet, PropType.MONEY, Quality.NORMAL, 5)
    assert placed.to_backpack == 5
    sheet, placed = bp.stow(sheet, PropType.RATIONS, Quality.NORMAL, 1)
    assert (placed.to_backpack, placed.to_hand) == (0, 1)


def test_a_gain_that_cannot_all_be_carried_is_refused_unless_left_behind():
    """8.1D In-Hand Limits: only 2 more Props past a full Backpack. A gain asked for is refused
    whole; Props found by a die roll may be left behind."""
    with pytest.raises(
        RuleViolation, match="cannot carry 8 NORMAL Weapons: the Backpack has room for 5 and the hands for 2"
    ):
        bp.stow(star(), PropType.WEAPONS, Quality.NORMAL, 8)
    _, placed = bp.stow(star(), PropType.WEAPONS, Quality.NORMAL, 8, leave_behind=True)
    assert placed.left_behind == 1


def test_a_legacy_sheet_over_its_slots_keeps_its_props_but_takes_no_new_type():
    """Mara's file holds Money, Weapons and Medicine in 2 slots (written before slots were tracked)."""
    mara = example_star("star-mara.toml")
    _, placed = bp.stow(mara, PropType.MEDICINE, Quality.NORMAL, 3)
    assert placed.to_backpack == 3
    _, placed = bp.stow(mara, PropType.GEAR, Quality.NORMAL, 1)
    assert (placed.to_backpack, placed.to_hand) == (0, 1)


def test_take_spends_props_in_hand_first():
    sheet, _ = bp.stow(star(), PropType.WEAPONS, Quality.NORMAL, 6)
    sheet = bp.take(sheet, PropType.WEAPONS, Quality.NORMAL, 2)
    assert sheet.in_hand == [] and sheet.props == [Prop(type=PropType.WEAPONS, count=4)]
    with pytest.raises(RuleViolation, match="has 4 NORMAL Weapons and cannot spend 5"):
        bp.take(sheet, PropType.WEAPONS, Quality.NORMAL, 5)


def test_props_in_hand_move_into_a_backpack_with_room():
    sheet, _ = bp.stow(star(), PropType.WEAPONS, Quality.NORMAL, 6)
    sheet = bp.take(sheet, PropType.WEAPONS, Quality.NORMAL, 0)
    sheet = sheet.model_copy(update={"props": [Prop(type=PropType.WEAPONS, count=4)]})
    sheet = bp.to_backpack(sheet, PropType.WEAPONS, Quality.NORMAL, 1)
    assert sheet.in_hand == [] and sheet.props == [Prop(type=PropType.WEAPONS, count=5)]


def test_more_than_two_props_in_hand_is_not_a_valid_sheet():
    with pytest.raises(ValueError, match="a Star has two hands"):
        star(in_hand=[{"type": "Weapons", "count": 3}])


def test_trinkets_fill_three_slots_and_a_bundle_adds_three():
    """8.1D: 3 Trinket Slots; 11.1B: every Utility Bundle adds 3 more."""
    sheet = star(trinkets=["a", "b", "c"])
    with pytest.raises(RuleViolation, match="3 Trinket Slots are full"):
        bp.add_trinket(sheet, "d")
    sheet = bp.add_trinket(sheet.model_copy(update={"stuff_ticks": 2}), "d")
    assert sheet.trinkets[-1] == "d"
    assert bp.remove_trinket(sheet, " D ").trinkets == ["a", "b", "c"]
    with pytest.raises(RuleViolation, match="no Trinket 'z'"):
        bp.remove_trinket(sheet, "z")


def test_preparation_produces_one_normal_prop_of_any_type():
    """8.1E: spend 1 Preparation to produce 1 NORMAL-Quality Prop of any type on-screen."""
    used = bp.produce_prop(state_of(star()), "Ada", PropType.MEDICINE)
    sheet = used.state.star("Ada")
    assert sheet.influence.preparation.current == 0
    assert sheet.props == [Prop(type=PropType.MEDICINE, count=1)]
    assert used.placement is not None and used.placement.to_backpack == 1


def test_preparation_with_an_empty_pool_needs_push():
    empty = star(influence={p: {"current": 0, "max": 1} for p in POOLS})
    with pytest.raises(RuleViolation, match="--push"):
        bp.produce_prop(state_of(empty), "Ada", PropType.MEDICINE)
    used = bp.produce_prop(state_of(empty), "Ada", PropType.MEDICINE, push=True)
    assert used.state.star("Ada").influence.preparation.exhausted == 1


def test_mastered_preparation_adds_a_free_normal_prop_to_the_backpack():
    """11.2 Mastered Preparation: "Whenever you spend a Preparation, add 1 free NORMAL Prop of
    any type you can carry to your backpack"."""
    mastered = star(masteries=["preparation"])
    used = bp.produce_prop(state_of(mastered), "Ada", PropType.MEDICINE, bonus_type=PropType.MONEY)
    assert used.bonus is not None and used.bonus.to_backpack == 1
    with pytest.raises(RuleViolation, match="needs Mastered Preparation"):
        bp.produce_prop(state_of(star()), "Ada", PropType.MEDICINE, bonus_type=PropType.MONEY)


def test_a_flashback_costs_one_preparation():
    """8.1E Flashbacks: "You can spend 1 Preparation (□) at any time to … initiate a Flashback"."""
    used = bp.flashback(state_of(star()), "Ada", FlashbackAction.RESOURCE_TRADE)
    assert used.preparation_spent == 1 and used.state.star("Ada").influence.preparation.current == 0


def test_the_method_actors_award_pays_one_flashback_per_episode():
    """11.2 The Method Actor's Award: once per Episode, a Flashback without spending Preparation."""
    state = state_of(star(awards=["method_actor"]), episode=3)
    used = bp.flashback(state, "Ada", FlashbackAction.RETROACTIVE_PLANNING, award=True)
    assert used.preparation_spent == 0 and used.state.star("Ada").awards_used == {Award.METHOD_ACTOR: 3}
    with pytest.raises(RuleViolation, match="already used this Award's power in Episode 3"):
        bp.flashback(used.state, "Ada", FlashbackAction.RETROACTIVE_PLANNING, award=True)
    later = used.state.model_copy(update={"structure": Structure(episode=4, episode_open=True)})
    assert bp.flashback(later, "Ada", FlashbackAction.MONTAGE_ACTION, award=True).award


def test_random_prop_follows_appendix_e():
    """Appendix E: d10 1 Junk … 7 Materials; 8-10 the sub-table; Quality 1-4 N, 5-7 H, 8-9 F, 10 E."""
    found = bp.random_prop(TableDice({"prop_type": [6], "prop_quality": [5]}))
    assert (found.type, found.quality) == (PropType.MONEY, Quality.HARD)
    found = bp.random_prop(TableDice({"prop_type": [9], "prop_subtype": [5], "prop_quality": [10]}))
    assert (found.type, found.quality) == (PropType.WEAPONS, Quality.EPIC)


def test_random_prop_sub_table_9_10_raises_quality_then_rerolls():
    """Appendix E: "9-10: +1 Quality step, then re-roll"; the step is capped at EPIC."""
    dice = TableDice({"prop_type": [8], "prop_subtype": [10, 9, 8], "prop_quality": [4]})
    found = bp.random_prop(dice)
    assert (found.type, found.quality, found.quality_steps) == (PropType.POISONS, Quality.FORMIDABLE, 2)
    dice = TableDice({"prop_type": [10], "prop_subtype": [9, 2], "prop_quality": [10]})
    assert bp.random_prop(dice).quality is Quality.EPIC


def test_a_setting_specific_prop_is_one_of_five_types_by_a_d10():
    dice = TableDice({"prop_type": [8], "prop_subtype": [1], "prop_setting": [7], "prop_quality": [1]})
    assert bp.random_prop(dice).type is PropType.FUEL


@given(
    gains=st.lists(
        st.tuples(st.sampled_from(list(PropType)), st.sampled_from(list(Quality)), st.integers(0, 12)),
        max_size=12,
    ),
    mastery=st.booleans(),
)
def test_stowing_never_passes_a_limit_and_loses_no_prop(gains, mastery):
    """Invariant: at most `slots` Types (one kept for Money), at most the limit per Quality, 2 in
    hand; every Prop gained is in the Backpack, in hand, or reported left behind."""
    sheet = star(masteries=["prop"] if mastery else [])
    for prop_type, quality, count in gains:
        before = bp.held(sheet, prop_type, quality)
        sheet, placed = bp.stow(sheet, prop_type, quality, count, leave_behind=True)
        assert bp.held(sheet, prop_type, quality) == before + count - placed.left_behind
        types = {p.type for p in sheet.props}
        assert len(types - {PropType.MONEY}) <= bp.backpack_slots(sheet) - bp.MONEY_SLOTS
        assert all(p.count <= bp.prop_limit(sheet) for p in sheet.props)
        assert sum(p.count for p in sheet.in_hand) <= bp.HANDS
    assert Mastery.PROP in sheet.masteries or all(p.count <= 5 for p in sheet.props)
