"""Resolving an Ability Check (domain/showrunner/check.py): the pool, the spends, blocking, the kept pair.

Rules: Chapter 5.2 (Action, Opposition and Script Dice; Opposition Blocking; Dice Shortfall;
Results; Doubles), Chapter 6 (Influence spent during a check, Pushing Your Limits, the Plot
Armor Scar), Chapter 8 (Props, Preparation, Hero Props), Chapter 11.2 (Masteries), and the
readings of /work/shared/RULES-NOTES.md "Difficulty and Power ladder" and "Checks".
Every roll here uses table dice typed in per purpose, and every face typed in must be used.
Rewards (Hitting the Mark, Highlight, Disaster, Channel) are in test_check_rewards.py.
"""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import ReplayDice, Roll, TableDice
from showrunner_ledger.domain.errors import InvalidDice, RuleViolation, UnknownName
from showrunner_ledger.domain.showrunner.check import (
    Abandoned,
    AfterRoll,
    CheckRequest,
    Die,
    Mark,
    Outcome,
    PropSpend,
    Resolution,
    View,
    apply_resolution,
    best_pair,
    block,
    hit_the_mark,
    judge,
    resolve,
)
from showrunner_ledger.domain.showrunner.effects import (
    AbilityMarked,
    PropsSpent,
    ScarMarked,
    StudioNotesChanged,
    WearMarked,
)
from showrunner_ledger.domain.showrunner.influence import Regained, Spent
from showrunner_ledger.domain.showrunner.ladder import Difficulty, Quality
from showrunner_ledger.domain.showrunner.sheet import (
    AbilityName,
    Mastery,
    Pool,
    Prop,
    PropType,
    Scar,
    Specialty,
    StarSheet,
)
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from tests.conftest import example_star

# Mara Voss: Fight base 2, 1★, Mastered (3 Action Dice before Specialties), slots 1 "Swords" +2,
# 2 Scar "Broken Arm" -1, 5 "Disarming" +1; Move base 1 with 1 Condition, slot 3 "Footwork" +1;
# Sense base 0. Grit 3/4, Retake 2/2, Spotlight 0/1, Plot Armor 2/2, Preparation 1/1.
# Hero Prop "Father's Rapier": Wear 2/3, XP 1, 4 milestones (its highest Difficulty milestone is N,
# no bonus dice). Props: 3 NORMAL Money, 1 HARD Weapons, 2 NORMAL Medicine. No Masteries.
MARA = example_star()
NAME = "Mara Voss"


def with_ability(sheet: StarSheet, name: str, **changes) -> StarSheet:
    ability = AbilityName(name)
    changed = sheet.ability(ability).model_copy(update=changes)
    return sheet.model_copy(update={"abilities": {**sheet.abilities, ability: changed}})


def with_pool(sheet: StarSheet, pool: str, current: int, max: int, exhausted: int = 0) -> StarSheet:
    influence = sheet.influence.model_copy(update={pool: Pool(current=current, max=max, exhausted=exhausted)})
    return sheet.model_copy(update={"influence": influence})


def with_hero_prop(sheet: StarSheet, **changes) -> StarSheet:
    return sheet.model_copy(update={"hero_props": [sheet.hero_props[0].model_copy(update=changes)]})


def mastering(sheet: StarSheet, *masteries: Mastery) -> StarSheet:
    return sheet.model_copy(update={"masteries": frozenset(masteries)})


def cast(sheet: StarSheet = MARA, *, studio_notes: int = 0) -> ShowrunnerState:
    return ShowrunnerState(studio_notes=studio_notes).with_star(sheet)


def request(**fields) -> CheckRequest:
    fields = {"star": "Mara", "ability": "fight", "difficulty": "NORMAL", **fields}
    return CheckRequest(**fields)


def check(state: ShowrunnerState, faces: dict[str, list[int]], chooser=None, **fields) -> Resolution:
    """Resolve with table dice; every face typed in must be used, as at the table."""
    dice = TableDice(faces)
    resolution = resolve(state, request(**fields), dice, chooser)
    dice.check_all_used()
    return resolution


def sheet_after(state: ShowrunnerState, resolution: Resolution) -> StarSheet:
    return apply_resolution(state, resolution).star(NAME)


# ------------------------------------------------------------------ the book's worked examples


def test_shortfall_example_action_1_4_5_against_opposition_1_5_keeps_4_and_0():
    """5.2 Dice Shortfall example: the 1s cancel, the 5s cancel, the Result Dice are (4, 0)."""
    r = check(cast(), {"action": [1, 4, 5], "opposition": [1, 5], "script": [2, 3]}, opposition=2)
    assert r.action_pool == (Die(source="base dice of Fight", dice=2), Die(source="Fight Mastery ⇧", dice=1))
    assert r.opposition_pool == (Die(source="given", dice=2),)
    assert (r.action, r.opposition, r.script) == ((1, 4, 5), (1, 5), (2, 3))
    assert r.blocked == (1, 5)
    assert r.remaining == (4,)
    assert r.kept == (4, 0)
    assert r.outcome is Outcome.PARTIAL  # 4 meets NORMAL's 3, the missing die counts as 0
    assert r.consequences_due == 1
    assert r.mark is Mark.BAD_TAKE
    assert r.effects == (StudioNotesChanged(amount=1),)


def test_matching_doubles_example_script_4_4():
    """5.2 Matching Doubles example: Script (4, 4); Result (4, 2) Hits the Mark, (4, 4) is a Perfect Take."""
    assert hit_the_mark((4, 2), (4, 4)) is Mark.HIT
    assert hit_the_mark((4, 4), (4, 4)) is Mark.PERFECT_TAKE
    hit = check(cast(), {"action": [4, 2, 1], "script": [4, 4]}, keep=(4, 2))
    assert (hit.kept, hit.mark, hit.outcome) == ((4, 2), Mark.HIT, Outcome.PARTIAL)
    perfect = check(cast(), {"action": [4, 4, 1], "script": [4, 4]})
    assert (perfect.kept, perfect.mark, perfect.outcome) == ((4, 4), Mark.PERFECT_TAKE, Outcome.HIGHLIGHT)


def test_each_result_die_matches_only_one_script_die_and_the_other_way_round():
    assert hit_the_mark((4, 4), (4, 2)) is Mark.HIT
    assert hit_the_mark((2, 4), (4, 2)) is Mark.PERFECT_TAKE  # in any order
    assert hit_the_mark((5, 3), (4, 2)) is Mark.BAD_TAKE


def test_exhaustion_example_through_a_checks_push():
    """6.4: a Star with 0 Grit of 4 Pushes Their Limits for 4: four icons crossed off, maximum 4 -> 0.

    The book's example absorbs Grit Loss; a check spends Grit "from an empty pool" the same way,
    and gets the full benefit (+4 Action Dice).
    """
    sheet = with_pool(MARA, "grit", 0, 4)
    r = check(cast(sheet), {"action": [6, 5, 4, 3, 2, 2, 1], "script": [6, 1]}, grit=4, push=True)
    assert r.action_pool[-1] == Die(source="Grit spent", dice=4)
    assert len(r.action) == 7
    assert r.effects[0] == Spent(star=NAME, pool="grit", amount=4, from_pool=0, exhausted=4)
    # Hitting the Mark with a 1★ Ability regains 1 Grit: the maximum is now 0 and the Ensemble's Grit
    # is full (1 of 1), so it is lost.
    assert r.effects[3] == Regained(star=NAME, pool="grit", amount=1, kept=0, to_ensemble=0, lost=1)
    assert sheet_after(cast(sheet), r).influence.grit == Pool(current=0, max=0, exhausted=4)
    assert "spent 4 Grit (4 by Pushing Their Limits): +4 Action Dice" in [s.text for s in r.steps]


def test_spending_grit_the_pool_lacks_without_push_is_refused():
    sheet = with_pool(MARA, "grit", 0, 4)
    with pytest.raises(RuleViolation) as refused:
        check(cast(sheet), {}, grit=4)
    assert str(refused.value) == (
        "Mara Voss has 0 Grit and wants to spend 4; pass --push to Push Your Limits (exhausts 4 icons)"
    )


# ------------------------------------------------------------------ the ladder


@pytest.mark.parametrize(
    ("difficulty", "target"),
    [("NORMAL", 3), ("HARD", 4), ("FORMIDABLE", 5), ("EPIC", 6)],
)
def test_a_result_die_must_meet_the_ladders_target(difficulty, target):
    """RULES-NOTES: EASY 2, NORMAL 3, HARD 4, FORMIDABLE 5, EPIC 6."""
    r = check(
        cast(), {"action": [target, target - 1, 1], "script": [1, 1]}, difficulty=difficulty, keep=(target, target - 1)
    )
    assert r.effective_difficulty.target == target
    assert r.outcome is Outcome.PARTIAL
    assert judge((target, target - 1), target) is Outcome.PARTIAL
    assert judge((target - 1, target - 2), target) is Outcome.FAILURE
    assert judge((6, target), target) is (Outcome.HIGHLIGHT if target == 6 else Outcome.SUCCESS)


def test_easy_targets_2_when_the_difficulty_is_reduced_to_it():
    r = check(cast(), {"action": [2, 1, 1], "script": [6, 6]}, hero_prop="Father's Rapier")
    assert r.effective_difficulty is Difficulty.EASY
    assert r.effective_difficulty.target == 2
    assert (r.kept, r.outcome) == ((2, 1), Outcome.PARTIAL)


@pytest.mark.parametrize("difficulty", ["LEGENDARY", "MYTHIC", "ASCENDANT", "GODLIKE"])
def test_a_single_check_above_epic_is_refused_as_a_set_piece(difficulty):
    with pytest.raises(RuleViolation) as refused:
        check(cast(), {}, difficulty=difficulty)
    assert str(refused.value) == (
        f"a single Ability Check cannot be {difficulty}: above EPIC it is a Set Piece and needs an Action Sequence"
    )


def test_a_checks_difficulty_is_never_set_to_easy():
    with pytest.raises(RuleViolation) as refused:
        check(cast(), {}, difficulty="EASY")
    assert str(refused.value) == "a check's Difficulty is never set to EASY, only reduced to it (NORMAL is the lowest)"


# ------------------------------------------------------------------ blocking and the Result Dice


def test_blocking_is_one_to_one():
    """5.2: two 4s and one Opposition 4: only one Action 4 is negated."""
    assert block([4, 4, 2], [4]) == ([4], [4, 2])
    r = check(cast(), {"action": [4, 4, 2], "opposition": [4], "script": [1, 1]}, opposition=1)
    assert (r.blocked, r.remaining, r.kept, r.outcome) == ((4,), (4, 2), (4, 2), Outcome.PARTIAL)


def test_an_opposition_die_no_action_die_shows_has_no_effect():
    assert block([4, 4, 2], [6, 6, 3]) == ([], [4, 4, 2])
    r = check(cast(), {"action": [4, 4, 2], "opposition": [6, 6, 3], "script": [1, 1]}, opposition=3)
    assert (r.blocked, r.remaining, r.kept, r.outcome) == ((), (4, 4, 2), (4, 4), Outcome.HIGHLIGHT)


def test_every_action_die_blocked_is_a_disaster_at_0_0():
    r = check(cast(), {"action": [3, 3, 2], "opposition": [2, 3, 3], "script": [1, 1]}, opposition=3)
    assert (r.blocked, r.remaining, r.kept) == ((3, 3, 2), (), (0, 0))
    assert r.outcome is Outcome.DISASTER
    assert r.consequences_due == 2
    assert r.effects == (
        StudioNotesChanged(amount=1),
        AbilityMarked(star=NAME, ability=AbilityName.FIGHT, conditions=1),
    )


def test_no_action_dice_at_all_is_a_disaster_and_0_never_matches_a_script_die():
    """Mara's Sense has no base dice: no Action Dice are rolled and the result is (0, 0)."""
    r = check(cast(), {"script": [6, 6]}, ability="sense")
    assert r.rolls == (Roll(purpose="script", sides=6, faces=(6, 6), source="table"),)
    assert (r.action, r.kept, r.outcome, r.mark) == ((), (0, 0), Outcome.DISASTER, Mark.BAD_TAKE)


def test_a_zero_never_matches_a_script_die():
    # Script Dice are d6 faces, so only the rule itself can be asked about a 0.
    assert hit_the_mark((0, 0), (0, 0)) is Mark.BAD_TAKE
    assert hit_the_mark((5, 0), (5, 0)) is Mark.HIT
    assert hit_the_mark((0, 5), (5, 5)) is Mark.HIT


@pytest.mark.parametrize(
    ("remaining", "script", "target", "kept", "why"),
    [
        ([6, 6, 5, 3], (3, 5), 4, (6, 6), "a Highlight beats a Successful Perfect Take"),
        ([5, 1, 2], (1, 2), 4, (5, 2), "a Partial beats a Failure, even one with a Perfect Take"),
        ([6, 5, 4], (4, 1), 4, (6, 4), "among Successes, a Hit beats a higher sum"),
        ([6, 5, 2, 1], (3, 3), 3, (6, 5), "same outcome, same mark: the highest sum"),
        ([6, 2, 2], (1, 1), 3, (6, 2), "a Partial beats doubles that are a Disaster"),
        ([3], (3, 3), 3, (3, 0), "a shortfall keeps the 0"),
        ([], (1, 2), 3, (0, 0), "nothing left is (0, 0)"),
    ],
)
def test_the_default_keep_policy(remaining, script, target, kept, why):
    """RULES-NOTES: best outcome (Highlight > Success > Partial > Failure > Disaster), then best mark, then highest sum."""
    assert best_pair(remaining, script, target) == kept, why


def test_a_pair_the_star_keeps_is_recorded_as_kept_even_when_worse():
    r = check(cast(), {"action": [6, 5, 1], "script": [2, 2]}, keep=(1, 5))
    assert r.kept == (1, 5)
    assert r.outcome is Outcome.PARTIAL
    assert [s.text for s in r.steps if s.kind == "kept"] == ["Mara Voss kept 1 and 5"]


def test_a_pair_that_is_not_on_the_table_is_refused():
    with pytest.raises(RuleViolation) as refused:
        check(cast(), {"action": [6, 5, 1], "script": [2, 2]}, keep=(6, 6))
    assert str(refused.value) == "cannot keep 6,6: the dice left after blocking are 6,5,1"
    with pytest.raises(RuleViolation):  # a blocked die is not a Result Die
        check(cast(), {"action": [6, 5, 1], "opposition": [6], "script": [2, 2]}, opposition=1, keep=(6, 5))


# ------------------------------------------------------------------ effective and original Difficulty


def test_success_is_judged_against_the_effective_difficulty_and_progress_uses_the_original():
    """A NORMAL check lowered to EASY: (2, 2) is a Highlight at EASY; progress is one step above NORMAL."""
    r = check(cast(), {"action": [2, 2, 1], "script": [6, 6]}, hero_prop="Father's Rapier")
    assert (r.original_difficulty, r.effective_difficulty) == (Difficulty.NORMAL, Difficulty.EASY)
    assert r.outcome is Outcome.HIGHLIGHT
    assert r.progress_difficulty is Difficulty.HARD
    assert judge((2, 2), Difficulty.NORMAL.target) is Outcome.DISASTER  # what it would have been


@pytest.mark.parametrize(("difficulty", "progress"), [("HARD", "FORMIDABLE"), ("EPIC", "LEGENDARY")])
def test_a_highlight_counts_one_step_higher_for_progress(difficulty, progress):
    r = check(cast(), {"action": [6, 6, 1], "script": [1, 2]}, difficulty=difficulty)
    assert r.outcome is Outcome.HIGHLIGHT
    assert r.progress_difficulty is Difficulty(progress)


def test_without_a_highlight_progress_uses_the_original_difficulty():
    r = check(cast(), {"action": [2, 1, 1], "script": [6, 6]}, hero_prop="Father's Rapier")
    assert (r.outcome, r.progress_difficulty, r.effective_difficulty) == (
        Outcome.PARTIAL,
        Difficulty.NORMAL,
        Difficulty.EASY,
    )


# ------------------------------------------------------------------ the pool


def test_specialties_add_their_rank_and_triggered_scars_add_their_penalty_to_opposition():
    r = check(
        cast(),
        {"action": [1, 2, 3, 4, 5, 6], "opposition": [6, 5], "script": [1, 1]},
        specialties=("swords", "Disarming"),
        scars=("Broken Arm",),
        opposition=1,
    )
    assert r.action_pool == (
        Die(source="base dice of Fight", dice=2),
        Die(source='Specialty "Swords" +2', dice=2),
        Die(source='Specialty "Disarming" +1', dice=1),
        Die(source="Fight Mastery ⇧", dice=1),
    )
    assert r.opposition_pool == (Die(source="given", dice=1), Die(source='Scar "Broken Arm" -1', dice=1))
    assert (len(r.action), len(r.opposition)) == (6, 2)


def test_an_unknown_specialty_is_refused_with_the_names_there():
    with pytest.raises(UnknownName) as refused:
        check(cast(), {}, specialties=("Axes",))
    assert (
        str(refused.value) == "Mara Voss has no Specialty 'Axes' under Fight (Specialty names there: Swords, Disarming)"
    )


def test_grit_spent_before_the_roll_adds_one_action_die_each():
    r = check(cast(), {"action": [1, 2, 3, 4, 5], "script": [6, 6]}, grit=2)
    assert r.action_pool[-1] == Die(source="Grit spent", dice=2)
    assert r.effects[0] == Spent(star=NAME, pool="grit", amount=2, from_pool=2, exhausted=0)
    assert sheet_after(cast(), r).influence.grit == Pool(current=1, max=4)


def test_a_prop_spent_adds_one_action_die_each():
    """8.1B: +1 Action Die per relevant Prop; NORMAL Props give nothing back."""
    props = (PropSpend(type=PropType.MEDICINE), PropSpend(type=PropType.MEDICINE))
    r = check(cast(), {"action": [1, 2, 3, 4, 5], "script": [6, 6]}, props=props)
    assert r.action_pool[-1] == Die(source="NORMAL Medicine Prop spent", dice=2)
    assert r.effects[0] == PropsSpent(star=NAME, type=PropType.MEDICINE, quality=Quality.NORMAL, count=2)
    assert not any(isinstance(e, Regained) for e in r.effects)
    assert sheet_after(cast(), r).props == [
        Prop(type=PropType.MONEY, count=3),
        Prop(type=PropType.WEAPONS, quality=Quality.HARD, count=1),
    ]


@pytest.mark.parametrize(("quality", "pool"), [("HARD", "retake"), ("FORMIDABLE", "grit"), ("EPIC", "spotlight")])
@pytest.mark.parametrize(("masteries", "regained"), [((), 1), ((Mastery.PROP,), 2)])
def test_a_quality_prop_regains_influence_and_prop_mastery_regains_two(quality, pool, masteries, regained):
    """8.1C: HARD regains a Retake, FORMIDABLE a Grit, EPIC a Spotlight; 11.2 Prop Mastery: two."""
    sheet = MARA.model_copy(update={"props": [Prop(type=PropType.GEAR, quality=Quality(quality), count=2)]})
    sheet = mastering(
        with_pool(with_pool(with_pool(sheet, "retake", 0, 5), "grit", 0, 5), "spotlight", 0, 5), *masteries
    )
    r = check(cast(sheet), {"action": [1, 2, 3, 4], "script": [6, 6]}, props=(PropSpend(type="gear", quality=quality),))
    assert r.action_pool[-1] == Die(source=f"{quality} Gear Prop spent", dice=1)
    assert r.effects[:2] == (
        PropsSpent(star=NAME, type=PropType.GEAR, quality=Quality(quality), count=1),
        Regained(star=NAME, pool=pool, amount=regained, kept=regained, to_ensemble=0, lost=0),
    )


def test_spending_more_props_than_held_is_refused():
    with pytest.raises(RuleViolation) as refused:
        check(cast(), {}, props=(PropSpend(type=PropType.MEDICINE),) * 3)
    assert str(refused.value) == "Mara Voss has 2 NORMAL Medicine Props and wants to spend 3"


def test_preparation_is_a_normal_prop_produced_and_spent():
    """8.1E: 1 Preparation produces 1 NORMAL Prop; spent on the check it is +1 Action Die and regains nothing."""
    r = check(cast(), {"action": [1, 2, 3, 4], "script": [6, 6]}, preparation=1)
    assert r.action_pool[-1] == Die(source="Preparation (a NORMAL Prop)", dice=1)
    assert r.effects[0] == Spent(star=NAME, pool="preparation", amount=1, from_pool=1, exhausted=0)
    assert not any(isinstance(e, Regained) for e in r.effects)


# ------------------------------------------------------------------ Opposition modifiers


@pytest.mark.parametrize(
    ("flags", "faces", "count", "source"),
    [
        (
            {"actor_specialty": True},
            {"actor_specialty": [3]},
            5,
            Die(source="opposing Actor's Specialty (1d6)", dice=3),
        ),
        ({"actor_scar": True}, {"actor_scar": [1]}, 1, Die(source="opposing Actor's Scar (-1d6)", dice=-1)),
        ({"actor_scar": True}, {"actor_scar": [4]}, 0, Die(source="opposing Actor's Scar (-1d6)", dice=-4)),
    ],
)
def test_an_actor_specialty_adds_1d6_and_an_actor_scar_takes_1d6_never_below_0(flags, faces, count, source):
    r = check(
        cast(), {"action": [1, 2, 3], "opposition": [6] * count, "script": [5, 5], **faces}, opposition=2, **flags
    )
    assert r.opposition_pool == (Die(source="given", dice=2), source)
    assert len(r.opposition) == count


def test_both_actor_modifiers_are_rolled_separately_and_both_apply():
    faces = {"actor_specialty": [2], "actor_scar": [3], "action": [1, 2, 3], "opposition": [6], "script": [5, 5]}
    r = check(cast(), faces, opposition=2, actor_specialty=True, actor_scar=True)
    assert [roll.purpose for roll in r.rolls[:2]] == ["actor_specialty", "actor_scar"]
    assert len(r.opposition) == 1  # 2 + 2 - 3


def test_a_studio_note_adds_1d6_opposition_only_when_the_director_has_one():
    with pytest.raises(RuleViolation) as refused:
        check(cast(studio_notes=0), {}, studio_note=True)
    assert str(refused.value) == "the Director has no Studio Note to spend"
    state = cast(studio_notes=2)
    r = check(
        state,
        {"studio_note": [3], "action": [1, 2, 4], "opposition": [6, 6, 6, 6], "script": [5, 5]},
        opposition=1,
        studio_note=True,
    )
    assert r.opposition_pool[-1] == Die(source="the Director's Studio Note (1d6)", dice=3)
    assert len(r.opposition) == 4
    assert r.effects[0] == StudioNotesChanged(amount=-1)
    assert apply_resolution(state, r).studio_notes == 2  # 2 - 1 spent + 1 for the Bad Take


def test_a_studio_note_adds_to_what_an_actors_scar_left_not_below_it():
    """5.2.2: step 3 cannot take the pool below 0; the Studio Note (step 4) then adds its 1d6 in full."""
    faces = {"actor_scar": [5], "studio_note": [3], "action": [1, 2, 4], "opposition": [6, 6, 6], "script": [5, 5]}
    r = check(cast(studio_notes=1), faces, opposition=1, actor_scar=True, studio_note=True)
    assert len(r.opposition) == 3  # max(0, 1 - 5) + 3, not max(0, 1 - 5 + 3)


# ------------------------------------------------------------------ Plot Armor


def test_plot_armor_makes_the_task_easy_and_rolls_a_scar_under_the_ability_used():
    """Ch. 0 / 6.2: Plot Armor reduces any task to EASY; spending it rolls a Scar in a random slot.

    Reading: a slot holding a Specialty is rolled again, a Scar already there deepens by 1.
    """
    faces = {"action": [2, 1, 1], "script": [6, 6], "scar_slot": [1, 5, 2]}
    r = check(cast(), faces, difficulty="HARD", plot_armor=True)
    assert (r.original_difficulty, r.effective_difficulty, r.outcome) == (
        Difficulty.HARD,
        Difficulty.EASY,
        Outcome.PARTIAL,
    )
    assert r.effects[0] == Spent(star=NAME, pool="plot_armor", amount=1, from_pool=1, exhausted=0)
    assert r.effects[-1] == ScarMarked(star=NAME, ability=AbilityName.FIGHT, slot=2, name="Broken Arm", penalty=2)
    assert [roll.faces for roll in r.rolls if roll.purpose == "scar_slot"] == [(1,), (5,), (2,)]
    assert all(roll.sides == 10 for roll in r.rolls if roll.purpose == "scar_slot")
    assert sheet_after(cast(), r).ability(AbilityName.FIGHT).slots[2] == Scar(name="Broken Arm", penalty=2)


def test_a_plot_armor_scar_in_an_empty_slot_is_a_new_scar_at_1():
    r = check(cast(), {"action": [2, 1, 1], "script": [6, 6], "scar_slot": [7]}, plot_armor=True)
    assert r.effects[-1] == ScarMarked(star=NAME, ability=AbilityName.FIGHT, slot=7, name="Plot Armor scar", penalty=1)


def test_a_plot_armor_scar_deepens_at_most_to_5():
    sheet = with_ability(
        MARA, "fight", slots={**MARA.ability(AbilityName.FIGHT).slots, 2: Scar(name="Broken Arm", penalty=5)}
    )
    r = check(cast(sheet), {"action": [2, 1, 1], "script": [6, 6], "scar_slot": [2]}, plot_armor=True)
    assert r.effects[-1] == ScarMarked(star=NAME, ability=AbilityName.FIGHT, slot=2, name="Broken Arm", penalty=5)


def test_plot_armor_mastery_spares_the_scar():
    r = check(cast(mastering(MARA, Mastery.PLOT_ARMOR)), {"action": [2, 1, 1], "script": [6, 6]}, plot_armor=True)
    assert r.effective_difficulty is Difficulty.EASY
    assert not any(isinstance(e, ScarMarked) for e in r.effects)
    assert not any(roll.purpose == "scar_slot" for roll in r.rolls)


def test_with_ten_specialties_the_plot_armor_scar_has_nowhere_to_land():
    slots = {n: Specialty(name=f"Skill {n}", rank=1) for n in range(1, 11)}
    sheet = with_ability(MARA, "fight", slots=slots)
    r = check(
        cast(sheet),
        {"action": [2] * 13, "script": [6, 6]},
        plot_armor=True,
        specialties=tuple(f"Skill {n}" for n in range(1, 11)),
    )
    assert not any(isinstance(e, ScarMarked) for e in r.effects)
    assert r.steps[-1].text == "no slot is free of Specialties: the Plot Armor Scar has nowhere to land"


# ------------------------------------------------------------------ Hero Props


def test_a_hero_prop_marks_one_wear_for_all_its_benefits_and_gains_one_asset_xp():
    """8.2B: 1 Wear gives every unlocked benefit together; that Wear is 1 Asset XP (8.2A)."""
    r = check(cast(), {"action": [2, 1, 1], "script": [6, 6]}, hero_prop="father's rapier")
    wear = [e for e in r.effects if isinstance(e, WearMarked)]
    assert wear == [WearMarked(star=NAME, hero_prop="Father's Rapier", wear=1)]
    assert len(r.action) == 3  # 4 milestones: no bonus dice yet
    prop = sheet_after(cast(), r).hero_props[0]
    assert (prop.wear, prop.xp) == (3, 2)


@pytest.mark.parametrize(
    ("milestones", "bonus"),
    [(4, 0), (6, 1), (10, 2), (16, 3), (20, 4)],
)
def test_hero_prop_bonus_dice_follow_the_milestones(milestones, bonus):
    sheet = with_hero_prop(MARA, wear=0, milestones=milestones)
    r = check(
        cast(sheet), {"action": [6] * (3 + bonus), "script": [1, 1]}, difficulty="EPIC", hero_prop="Father's Rapier"
    )
    assert len(r.action) == 3 + bonus
    expected = (Die(source=f"Hero Prop Father's Rapier +{bonus}", dice=bonus),) if bonus else ()
    assert r.action_pool[2:] == expected


def test_hero_prop_mastery_adds_one_bonus_die_even_before_the_first():
    sheet = mastering(with_hero_prop(MARA, wear=0, milestones=4), Mastery.HERO_PROP)
    r = check(cast(sheet), {"action": [6] * 4, "script": [1, 1]}, hero_prop="Father's Rapier")
    assert r.action_pool[-1] == Die(source="Hero Prop Father's Rapier +1", dice=1)


@pytest.mark.parametrize(
    ("milestones", "difficulty", "effective"),
    [
        (4, "NORMAL", "EASY"),  # N unlocked
        (4, "HARD", "HARD"),
        (8, "HARD", "NORMAL"),  # H unlocked
        (8, "FORMIDABLE", "FORMIDABLE"),
        (14, "FORMIDABLE", "HARD"),  # F unlocked
        (14, "EPIC", "EPIC"),
        (18, "EPIC", "FORMIDABLE"),  # E unlocked
        (3, "NORMAL", "NORMAL"),  # no Difficulty milestone yet
    ],
)
def test_a_hero_prop_lowers_the_difficulty_one_step_only_within_its_highest_milestone(
    milestones, difficulty, effective
):
    """8.2B "The Limit": compare the check's Difficulty before the reduction to the milestone."""
    sheet = with_hero_prop(MARA, wear=0, milestones=milestones)
    bonus = sheet.hero_props[0].bonus_dice
    r = check(
        cast(sheet), {"action": [6] * (3 + bonus), "script": [1, 1]}, difficulty=difficulty, hero_prop="Father's Rapier"
    )
    assert r.effective_difficulty is Difficulty(effective)


def test_a_hero_prop_compares_the_original_difficulty_even_after_spotlight_lowered_it():
    """Reading: "the check's Difficulty before this reduction" is the Difficulty the check was set at, so
    Spotlight Mastery cannot first bring a FORMIDABLE check within an H Prop's reach."""
    sheet = mastering(with_pool(with_hero_prop(MARA, wear=0, milestones=8), "spotlight", 1, 1), Mastery.SPOTLIGHT)
    r = check(
        cast(sheet),
        {"action": [6, 6, 6, 6], "script": [1, 1]},
        difficulty="FORMIDABLE",
        hero_prop="Father's Rapier",
        spotlight_steps=1,
    )
    assert r.effective_difficulty is Difficulty.HARD


def test_a_hero_prop_with_all_its_wear_marked_is_refused():
    sheet = with_hero_prop(MARA, wear=3)
    with pytest.raises(RuleViolation) as refused:
        check(cast(sheet), {}, hero_prop="Father's Rapier")
    assert str(refused.value) == (
        "Father's Rapier has all 3 Wear marked and cannot be used until repaired (the Repair Montage clears Wear)"
    )


# ------------------------------------------------------------------ spends after the roll


def test_spotlight_rolls_1d6_and_removes_that_many_opposition_dice_of_the_stars_choice():
    sheet = with_pool(MARA, "spotlight", 1, 1)
    faces = {"action": [5, 5, 3], "opposition": [5, 5, 3], "script": [1, 1], "spotlight": [1]}
    r = check(cast(sheet), faces, opposition=3, after_roll=(AfterRoll(kind="spotlight", faces=(3,)),))
    assert r.effects[0] == Spent(star=NAME, pool="spotlight", amount=1, from_pool=1, exhausted=0)
    assert r.opposition == (5, 5)
    assert (r.blocked, r.remaining, r.kept, r.outcome) == ((5, 5), (3,), (3, 0), Outcome.PARTIAL)
    assert "Spotlight rolled 1: removed Opposition Dice 3" in [s.text for s in r.steps]


def test_spotlight_removes_the_stars_faces_first_then_those_blocking_the_highest_dice():
    sheet = with_pool(MARA, "spotlight", 1, 1)
    faces = {"action": [5, 5, 3], "opposition": [5, 5, 3], "script": [1, 1], "spotlight": [2]}
    r = check(cast(sheet), faces, opposition=3, after_roll=(AfterRoll(kind="spotlight"),))
    assert r.opposition == (3,)
    assert (r.blocked, r.remaining, r.kept, r.outcome) == ((3,), (5, 5), (5, 5), Outcome.HIGHLIGHT)


def test_spotlight_removes_no_more_opposition_dice_than_are_present():
    sheet = with_pool(MARA, "spotlight", 1, 1)
    faces = {"action": [4, 2, 1], "opposition": [4], "script": [1, 1], "spotlight": [6]}
    r = check(cast(sheet), faces, opposition=1, after_roll=(AfterRoll(kind="spotlight"),))
    assert (r.opposition, r.blocked) == ((), ())
    assert "Spotlight rolled 6: removed Opposition Dice 4" in [s.text for s in r.steps]


def test_a_retake_re_rolls_the_chosen_action_dice():
    faces = {"action": [1, 1, 6], "script": [2, 3], "retake": [6, 5]}
    r = check(cast(), faces, after_roll=(AfterRoll(kind="retake", faces=(1, 1)),))
    assert r.effects[0] == Spent(star=NAME, pool="retake", amount=1, from_pool=1, exhausted=0)
    assert r.action == (6, 6, 5)
    assert (r.kept, r.outcome) == ((6, 6), Outcome.HIGHLIGHT)
    assert r.rolls[-1] == Roll(purpose="retake", sides=6, faces=(6, 5), source="table")


def test_a_retake_names_dice_that_are_on_the_table():
    with pytest.raises(RuleViolation) as refused:
        check(cast(), {"action": [1, 1, 6], "script": [2, 3]}, after_roll=(AfterRoll(kind="retake", faces=(3,)),))
    assert str(refused.value) == "there is no Action Die showing 3 to re-roll (Action Dice: 1,1,6)"


def test_re_rolling_opposition_dice_needs_retake_mastery():
    faces = {"action": [4, 2, 1], "opposition": [4], "script": [1, 1], "opposition_retake": [3]}
    spend = (AfterRoll(kind="retake_opposition", faces=(4,)),)
    with pytest.raises(RuleViolation) as refused:
        check(cast(), faces, opposition=1, after_roll=spend)
    assert str(refused.value) == "Mara Voss needs Retake Mastery to re-roll Opposition Dice"
    r = check(cast(mastering(MARA, Mastery.RETAKE)), faces, opposition=1, after_roll=spend)
    assert (r.opposition, r.blocked, r.kept, r.mark) == ((3,), (), (4, 1), Mark.HIT)


def test_grit_mastery_duplicates_a_die_for_one_grit():
    faces = {"action": [6, 2, 1], "script": [3, 3]}
    spend = (AfterRoll(kind="duplicate", faces=(6,)),)
    with pytest.raises(RuleViolation) as refused:
        check(cast(), faces, after_roll=spend)
    assert str(refused.value) == "Mara Voss needs Grit Mastery to duplicate a die with Grit"
    r = check(cast(mastering(MARA, Mastery.GRIT)), faces, after_roll=spend)
    assert r.effects[0] == Spent(star=NAME, pool="grit", amount=1, from_pool=1, exhausted=0)
    assert r.action == (6, 2, 1, 6)
    assert (r.kept, r.outcome) == ((6, 6), Outcome.HIGHLIGHT)
    assert not any(roll.purpose in ("grit", "duplicate") for roll in r.rolls)  # nothing is rolled


def test_after_roll_spends_apply_in_the_order_made():
    sheet = with_pool(MARA, "spotlight", 1, 1)
    faces = {"action": [1, 1, 6], "opposition": [6], "script": [2, 3], "retake": [5, 4], "spotlight": [1]}
    spends = (AfterRoll(kind="retake", faces=(1, 1)), AfterRoll(kind="spotlight"))
    r = check(cast(sheet), faces, opposition=1, after_roll=spends)
    assert [s.kind for s in r.steps if s.kind in ("rerolled", "removed")] == ["rerolled", "removed"]
    assert (r.action, r.opposition, r.kept) == ((6, 5, 4), (), (6, 5))


# ------------------------------------------------------------------ Spotlight Mastery


def test_spotlight_mastery_lowers_the_difficulty_one_step_per_spotlight():
    sheet = mastering(with_pool(MARA, "spotlight", 2, 2), Mastery.SPOTLIGHT)
    r = check(cast(sheet), {"action": [2, 2, 1], "script": [6, 6]}, difficulty="HARD", spotlight_steps=2)
    assert r.effects[0] == Spent(star=NAME, pool="spotlight", amount=2, from_pool=2, exhausted=0)
    assert (r.effective_difficulty, r.outcome) == (Difficulty.EASY, Outcome.HIGHLIGHT)


def test_lowering_the_difficulty_with_spotlight_needs_spotlight_mastery():
    with pytest.raises(RuleViolation) as refused:
        check(cast(with_pool(MARA, "spotlight", 2, 2)), {}, spotlight_steps=1)
    assert str(refused.value) == "Mara Voss needs Spotlight Mastery to lower a Difficulty with Spotlight"


def test_spotlight_cannot_lower_a_difficulty_below_easy():
    """11.2 Mastered Spotlight: "cannot reduce the Difficulty below EASY": a Spotlight that would is not spent."""
    sheet = mastering(with_pool(MARA, "spotlight", 2, 2), Mastery.SPOTLIGHT)
    with pytest.raises(RuleViolation) as refused:
        check(cast(sheet), {}, spotlight_steps=2)
    assert str(refused.value) == "NORMAL is 1 step above EASY: Spotlight cannot lower a Difficulty below EASY (2 asked)"
    with pytest.raises(RuleViolation):  # the Hero Prop took the first step already
        check(cast(sheet), {}, hero_prop="Father's Rapier", spotlight_steps=1)


# ------------------------------------------------------------------ who may roll, and interactive checks


def test_a_written_off_star_makes_no_more_checks():
    sheet = MARA.model_copy(update={"written_off": True})
    with pytest.raises(RuleViolation) as refused:
        check(cast(sheet), {})
    assert str(refused.value) == "Mara Voss has been written off the Show and makes no more checks"


def test_table_dice_must_cover_the_roll():
    with pytest.raises(InvalidDice) as refused:
        check(cast(), {"action": [1, 2], "script": [1, 1]})
    assert str(refused.value) == "the roll needs 3 action dice but 2 were given (--action)"
    with pytest.raises(InvalidDice) as extra:
        check(cast(), {"action": [1, 2, 3, 4], "script": [1, 1]})
    assert str(extra.value) == "4 action faces were given but the roll used 3 (--action)"


class Scripted:
    """A Star at a terminal: answers each question from a list, and remembers what was shown."""

    def __init__(self, *answers) -> None:
        self.answers = list(answers)
        self.seen: list[View] = []

    def choose(self, view: View):
        self.seen.append(view)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


def test_a_chooser_spends_after_seeing_the_dice_and_the_record_keeps_its_choices():
    chooser = Scripted(AfterRoll(kind="retake", faces=(1,)), (6, 5))
    r = check(cast(), {"action": [6, 1, 1], "script": [5, 2], "retake": [5]}, chooser=chooser)
    first = chooser.seen[0]
    assert (first.action, first.opposition, first.script, first.remaining, first.effective) == (
        (6, 1, 1),
        (),
        (5, 2),
        (6, 1, 1),
        Difficulty.NORMAL,
    )
    assert first.sheet.influence.retake == Pool(current=2, max=2)
    assert chooser.seen[1].action == (6, 1, 5)
    assert chooser.seen[1].sheet.influence.retake == Pool(current=1, max=2)
    assert r.request.after_roll == (AfterRoll(kind="retake", faces=(1,)),)
    assert r.request.keep == (6, 5)
    assert (r.kept, r.outcome, r.mark) == ((6, 5), Outcome.SUCCESS, Mark.HIT)
    # The record replays without the chooser: its choices are in the request.
    again = resolve(cast(), r.request, ReplayDice(r.rolls))
    assert again == r


def test_a_chooser_that_walks_away_raises_abandoned_with_the_dice_seen():
    chooser = Scripted(AfterRoll(kind="retake", faces=(1,)), Abandoned())
    with pytest.raises(Abandoned) as walked:
        check(cast(), {"action": [6, 1, 1], "script": [5, 2], "retake": [4]}, chooser=chooser)
    assert walked.value.request == request(after_roll=(AfterRoll(kind="retake", faces=(1,)),))
    assert [(r.purpose, r.faces) for r in walked.value.rolls] == [
        ("action", (6, 1, 1)),
        ("script", (5, 2)),
        ("retake", (4,)),
    ]


def test_a_declared_keep_is_not_asked_for():
    chooser = Scripted()
    r = check(cast(), {"action": [6, 1, 1], "script": [5, 2]}, chooser=chooser, keep=(6, 1))
    assert chooser.seen == []
    assert r.kept == (6, 1)


def test_the_same_request_and_faces_resolve_the_same_way():
    state = cast(with_pool(MARA, "spotlight", 1, 1), studio_notes=1)
    faces = {
        "action": [5, 5, 3, 2],
        "opposition": [5, 3, 6],
        "script": [5, 3],
        "studio_note": [2],
        "spotlight": [1],
        "retake": [4],
    }
    fields = dict(
        opposition=1,
        studio_note=True,
        grit=1,
        after_roll=(AfterRoll(kind="retake", faces=(2,)), AfterRoll(kind="spotlight", faces=(5,))),
    )
    first, second = check(state, faces, **fields), check(state, faces, **fields)
    assert first == second
    assert resolve(state, first.request, ReplayDice(first.rolls)) == first


# ------------------------------------------------------------------ a Power on its own; Grit after the roll


def _mara_state() -> ShowrunnerState:
    return ShowrunnerState().with_star(example_star())  # Father's Rapier: N milestone, Wear 2/3


def test_a_power_used_on_its_own_succeeds_without_a_roll_up_to_its_milestone() -> None:
    request = CheckRequest(
        star="Mara", ability="fight", difficulty="NORMAL", hero_prop="Father's Rapier", power_alone=True
    )
    resolution = resolve(_mara_state(), request, TableDice({}))
    assert (resolution.outcome, resolution.mark) == (Outcome.SUCCESS, Mark.NOT_ROLLED)
    assert resolution.rolls == () and resolution.consequences_due == 0
    assert [(e.kind, getattr(e, "wear", None)) for e in resolution.effects] == [("wear", 1)]
    # An audit re-judges it from no dice at all.
    assert resolve(_mara_state(), request, ReplayDice(())).judged() == resolution.judged()


def test_a_power_above_its_milestone_must_be_rolled() -> None:
    request = CheckRequest(
        star="Mara", ability="fight", difficulty="HARD", hero_prop="Father's Rapier", power_alone=True
    )
    with pytest.raises(RuleViolation, match="can succeed on its own up to NORMAL; a HARD task must be rolled"):
        resolve(_mara_state(), request, TableDice({}))


def test_a_power_on_its_own_needs_a_hero_prop() -> None:
    request = CheckRequest(star="Mara", ability="fight", difficulty="NORMAL", power_alone=True)
    with pytest.raises(RuleViolation, match="--hero-prop"):
        resolve(_mara_state(), request, TableDice({}))


def test_grit_after_the_roll_rolls_one_more_action_die() -> None:
    request = CheckRequest(
        star="Mara",
        ability="fight",
        difficulty="HARD",
        specialties=("Swords",),
        opposition=2,
        after_roll=(AfterRoll(kind="grit"),),
    )
    dice = {"action": [1, 4, 5, 6, 2], "opposition": [1, 5], "script": [3, 3], "grit": [6]}
    resolution = resolve(_mara_state(), request, TableDice(dice))
    assert resolution.action == (1, 4, 5, 6, 2, 6)
    assert resolution.kept == (6, 6) and resolution.outcome is Outcome.HIGHLIGHT
    spent = [e for e in resolution.effects if e.kind == "spent"]
    assert [(e.pool, e.amount) for e in spent] == [("grit", 1)]
