"""Acclaim, Career Paths, Milestones and Awards Season (domain/showrunner/career.py).

Rules: Chapter 11 (Gaining Acclaim, 11.1 the four Paths and their two choices, 11.2 Awards
Season: the four Awards and the Masteries), 10.3A.3 (Major Milestones grow the Ensemble Pool).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner import backpack as bp
from showrunner_ledger.domain.showrunner import career as cr
from showrunner_ledger.domain.showrunner.progression import ability_of
from showrunner_ledger.domain.showrunner.sheet import (
    AbilityName,
    Award,
    CareerPath,
    Mastery,
    Pool,
    Scar,
    Specialty,
    StarSheet,
)
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from showrunner_ledger.domain.structure import Structure

POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")
T, P, TA, D = CareerPath.TRAINING, CareerPath.PERSISTENCE, CareerPath.TALENT, CareerPath.DESTINY
NO_DICE = TableDice({})


def star(**fields) -> StarSheet:
    influence = {p: {"current": 1, "max": 2} for p in POOLS}
    return StarSheet.model_validate({"name": "Ada", "influence": influence} | fields)


def state_of(sheet: StarSheet, **structure) -> ShowrunnerState:
    return ShowrunnerState(structure=Structure(**({"episode": 1, "episode_open": True} | structure))).with_star(sheet)


def full(path: CareerPath, **fields) -> ShowrunnerState:
    return state_of(star(acclaim={path.value: cr.PATH_COST[path]}, **fields))


def test_path_costs_are_3_4_5_6():
    """11.1: Training 3 ▷, Persistence 4, Talent 5, Destiny 6."""
    assert [cr.path_cost(star(), p) for p in (T, P, TA, D)] == [3, 4, 5, 6]


def test_an_award_lowers_its_path_cost_by_one_and_a_limit_break_bubble_raises_it():
    """11.2: "the Acclaim cost to complete this specific Career Path is now permanently reduced by
    one"; Appendix D 5 Impulsive adds a bubble to Training."""
    assert cr.path_cost(star(awards=["artisan"]), T) == 2
    assert cr.path_cost(star(career={"training": {"extra_cost": 1}}), T) == 4


def test_acclaim_fills_a_path_but_never_past_its_cost():
    sheet = cr.mark_acclaim(star(), T, 3)
    assert sheet.acclaim[T] == 3 and cr.paths_due(sheet) == [T]
    with pytest.raises(RuleViolation, match="holds 3 of 3 Acclaim and has room for 0: complete it"):
        cr.mark_acclaim(sheet, T)
    with pytest.raises(RuleViolation, match="at least 1"):
        cr.mark_acclaim(sheet, P, 0)


def test_a_path_not_full_cannot_be_completed():
    with pytest.raises(RuleViolation, match="holds 2 of 3 Acclaim: it is not full yet"):
        cr.complete_path(state_of(star(acclaim={"training": 2})), "Ada", T, cr.ActorsChoice(), NO_DICE)


def test_advance_retakes_raises_the_maximum_gains_one_and_clears_exhaustion():
    """11.1A Advance Retakes: "advance your maximum Retake pool by 1, gain 1 Retake, and
    immediately clear all Exhaustion"; 6.4 Recovery restores the maximum."""
    state = full(
        T, influence={p: {"current": 1, "max": 2} for p in POOLS} | {"retake": {"current": 0, "max": 1, "exhausted": 2}}
    )
    done = cr.complete_path(state, "Ada", T, cr.ActorsChoice(), NO_DICE)
    sheet = done.state.star("Ada")
    assert sheet.influence.retake == Pool(current=1, max=4, exhausted=0)
    assert sheet.acclaim[T] == 0 and sheet.career[T].minor == 1 and not done.major_milestone


def test_advance_plot_armor_keeps_its_exhaustion_permanent():
    """11.1D: "advance your maximum Plot Armor by 1 and gain 1 Plot Armor" (no clearing: 6.4
    Plot Armor Permanence)."""
    state = full(
        D,
        influence={p: {"current": 1, "max": 2} for p in POOLS}
        | {"plot_armor": {"current": 0, "max": 1, "exhausted": 1}},
    )
    sheet = cr.complete_path(state, "Ada", D, cr.ActorsChoice(), NO_DICE).state.star("Ada")
    assert sheet.influence.plot_armor == Pool(current=1, max=2, exhausted=1)


def test_an_influence_advances_to_ten_icons_and_its_mastery_opens_ten_more():
    """11.2 Influence Expansion: "A Star without an Influence Mastery cannot Advance … more than 10 times"."""
    tens = {p: {"current": 1, "max": 2} for p in POOLS} | {"grit": {"current": 1, "max": 10}}
    with pytest.raises(RuleViolation, match="Grit track is full at 10; Grit Mastery opens a second set of 10"):
        cr.complete_path(full(P, influence=tens), "Ada", P, cr.ActorsChoice(), NO_DICE)
    done = cr.complete_path(full(P, influence=tens, masteries=["grit"]), "Ada", P, cr.ActorsChoice(), NO_DICE)
    assert done.state.star("Ada").influence.grit.max == 11


def test_learn_a_skill_adds_a_specialty_or_a_rank():
    """11.1A Learn a Skill: "a free +1 Specialty in any Ability and slot of your choice"."""
    done = cr.complete_path(
        full(T), "Ada", T, cr.LearnSkill(ability=AbilityName.FIGHT, slot=3, specialty="Knives"), NO_DICE
    )
    assert done.state.star("Ada").abilities[AbilityName.FIGHT].slots[3] == Specialty(name="Knives", rank=1)
    skilled = full(T, abilities={"fight": {"slots": {"3": {"kind": "specialty", "name": "Knives", "rank": 4}}}})
    done = cr.complete_path(skilled, "Ada", T, cr.LearnSkill(ability=AbilityName.FIGHT, slot=3), NO_DICE)
    assert done.state.star("Ada").abilities[AbilityName.FIGHT].slots[3].rank == 5


def test_learn_a_skill_is_refused_on_a_scar_an_unnamed_empty_slot_or_a_plus_five():
    scarred = full(
        T,
        abilities={
            "fight": {
                "slots": {
                    "2": {"kind": "scar", "name": "Limp", "penalty": 1},
                    "4": {"kind": "specialty", "name": "Fists", "rank": 5},
                }
            }
        },
    )
    with pytest.raises(RuleViolation, match="holds the Scar"):
        cr.complete_path(scarred, "Ada", T, cr.LearnSkill(ability=AbilityName.FIGHT, slot=2, specialty="X"), NO_DICE)
    with pytest.raises(RuleViolation, match="is empty: name the new Specialty"):
        cr.complete_path(scarred, "Ada", T, cr.LearnSkill(ability=AbilityName.FIGHT, slot=5), NO_DICE)
    with pytest.raises(RuleViolation, match="already \\+5"):
        cr.complete_path(scarred, "Ada", T, cr.LearnSkill(ability=AbilityName.FIGHT, slot=4), NO_DICE)


def test_a_paths_character_choice_is_its_own():
    with pytest.raises(RuleViolation, match="Character's Choice is ExpandKit, not LearnSkill"):
        cr.complete_path(full(P), "Ada", P, cr.LearnSkill(ability=AbilityName.FIGHT, slot=1, specialty="X"), NO_DICE)


def test_two_stuff_ticks_complete_a_utility_bundle():
    """11.1B Expand Your Kit: every two ticks: 1 Hero Prop Slot, 1 Backpack Slot, +1 maximum and
    current Preparation, 3 Trinket Slots."""
    state = full(P, stuff_ticks=1)
    sheet = cr.complete_path(state, "Ada", P, cr.ExpandKit(), NO_DICE).state.star("Ada")
    assert sheet.stuff_ticks == 2
    assert (bp.hero_prop_slots(sheet), bp.backpack_slots(sheet), bp.trinket_slots(sheet)) == (2, 3, 6)
    assert sheet.influence.preparation == Pool(current=2, max=3)


def test_innate_aptitude_marks_permanent_xp_one_per_ability():
    """11.1C: "Roll 1d6. You gain that many permanent Ability XP … (maximum one per Ability …).
    Mark these in pen"."""
    choice = cr.InnateAptitude(abilities=(AbilityName.FIGHT, AbilityName.MOVE, AbilityName.TALK))
    done = cr.complete_path(full(TA), "Ada", TA, choice, TableDice({"innate_aptitude": [2]}))
    sheet = done.state.star("Ada")
    assert done.roll == 2
    assert [ability_of(sheet, a).permanent_xp for a in choice.abilities] == [1, 1, 0]
    done = cr.complete_path(full(TA), "Ada", TA, choice, TableDice({"innate_aptitude": [5]}))
    assert "2 XP rolled had no Ability named and are lost" in done.lines
    with pytest.raises(RuleViolation, match="name each Ability once"):
        cr.complete_path(
            full(TA), "Ada", TA, cr.InnateAptitude(abilities=(AbilityName.FIGHT, AbilityName.FIGHT)), NO_DICE
        )


def test_backstory_rewrites_clear_conditions_and_soften_scars():
    """11.1D: "Roll 1d6 … clear all Conditions … and reduce a Scar's penalty by 1 step as many
    times as the die result"."""
    state = full(
        D, abilities={"fight": {"conditions": 3, "slots": {"2": {"kind": "scar", "name": "Limp", "penalty": 2}}}}
    )
    rewrites = cr.BackstoryRewrites(
        rewrites=(
            cr.Rewrite(what="clear_conditions", ability=AbilityName.FIGHT),
            cr.Rewrite(what="soften_scar", ability=AbilityName.FIGHT, slot=2),
            cr.Rewrite(what="soften_scar", ability=AbilityName.FIGHT, slot=2),
        )
    )
    sheet = cr.complete_path(state, "Ada", D, rewrites, TableDice({"backstory_rewrites": [2]})).state.star("Ada")
    assert sheet.abilities[AbilityName.FIGHT].conditions == 0
    assert sheet.abilities[AbilityName.FIGHT].slots[2] == Scar(name="Limp", penalty=1)
    sheet = cr.complete_path(state, "Ada", D, rewrites, TableDice({"backstory_rewrites": [6]})).state.star("Ada")
    assert 2 not in sheet.abilities[AbilityName.FIGHT].slots


def test_a_rewrite_that_cannot_be_made_is_refused_before_the_roll():
    bad = cr.BackstoryRewrites(rewrites=(cr.Rewrite(what="soften_scar", ability=AbilityName.FIGHT, slot=5),))
    with pytest.raises(RuleViolation, match="slot 5 holds no Scar"):
        cr.complete_path(full(D), "Ada", D, bad, NO_DICE)  # no dice given: refused before any roll


def test_three_minor_milestones_make_a_major_one_that_grows_the_ensemble():
    """11.2 "When you mark all the Milestones … mark a Major Milestone"; 10.3A.3: Persistence
    raises the shared Grit and Preparation maximum and adds 1 of each."""
    state = full(P, career={"persistence": {"minor": 2}})
    done = cr.complete_path(state, "Ada", P, cr.ExpandKit(), NO_DICE)
    assert done.major_milestone and not done.nomination
    assert done.state.star("Ada").career[P].model_dump() == {"minor": 0, "major": 1, "extra_cost": 0}
    ensemble = done.state.ensemble
    assert (ensemble.grit, ensemble.grit_max, ensemble.preparation, ensemble.preparation_max) == (2, 2, 2, 2)
    assert ensemble.retake_max == 1


def test_the_second_major_milestone_is_a_nomination_and_awards_season_clears_it():
    state = full(T, career={"training": {"minor": 2, "major": 1}})
    done = cr.complete_path(state, "Ada", T, cr.ActorsChoice(), NO_DICE)
    assert done.nomination
    with pytest.raises(RuleViolation, match="hold Awards Season first"):
        cr.complete_path(
            done.state.with_star(done.state.star("Ada").model_copy(update={"acclaim": {T: 3}})),
            "Ada",
            T,
            cr.ActorsChoice(),
            NO_DICE,
        )
    won = cr.awards_season(done.state, "Ada", T, Award.ARTISAN)
    sheet = won.state.star("Ada")
    assert sheet.awards == {Award.ARTISAN} and sheet.career[T].major == 0 and cr.path_cost(sheet, T) == 2


def test_an_award_is_the_paths_own_and_is_won_once():
    """11.2: "Choose the specific Award corresponding to the Career Path … You may only gain each Award once"."""
    nominated = state_of(star(career={"training": {"major": 2}}))
    with pytest.raises(RuleViolation, match="not icon"):
        cr.awards_season(nominated, "Ada", T, Award.ICON)
    again = state_of(star(career={"training": {"major": 2}}, awards=["artisan"]))
    with pytest.raises(RuleViolation, match="already won this Award: each Award is won once; choose a Mastery"):
        cr.awards_season(again, "Ada", T, Award.ARTISAN)
    with pytest.raises(RuleViolation, match="a nomination needs 2"):
        cr.awards_season(state_of(star()), "Ada", T, Award.ARTISAN)


def test_a_mastery_instead_of_an_award():
    nominated = state_of(star(career={"talent": {"major": 2}}))
    won = cr.awards_season(nominated, "Ada", TA, Mastery.SPOTLIGHT)
    assert won.state.star("Ada").masteries == {Mastery.SPOTLIGHT}
    again = state_of(star(career={"talent": {"major": 2}}, masteries=["spotlight"]))
    with pytest.raises(RuleViolation, match="already has Spotlight Mastery"):
        cr.awards_season(again, "Ada", TA, Mastery.SPOTLIGHT)


def test_mastered_ability_marks_another_ability_mastered():
    """11.2 Mastered Ability: "another Ability … permanently become a Mastered Ability (+1 Base)"."""
    nominated = state_of(star(career={"destiny": {"major": 2}}, abilities={"fight": {"mastered": True}}))
    won = cr.awards_season(nominated, "Ada", D, cr.MasterAbility(ability=AbilityName.MOVE))
    assert won.state.star("Ada").abilities[AbilityName.MOVE].mastered
    with pytest.raises(RuleViolation, match="Fight is already Mastered"):
        cr.awards_season(nominated, "Ada", D, cr.MasterAbility(ability=AbilityName.FIGHT))


def test_character_masteries_take_effect_when_taken():
    """11.2: Hero Prop Mastery marks 1 XP in pen in all Hero Props; Mastered Preparation traces an
    extra Preparation for each one unlocked; Mastered Limit traces the second row of Limit."""
    base = {
        "career": {"destiny": {"major": 2}},
        "limit": {"marked": 1, "max": 3},
        "hero_props": [{"name": "Rapier", "powers": ["Riposte"]}],
    }
    sheet = cr.awards_season(state_of(star(**base)), "Ada", D, Mastery.HERO_PROP).state.star("Ada")
    assert sheet.hero_props[0].permanent_xp == 1
    sheet = cr.awards_season(state_of(star(**base)), "Ada", D, Mastery.PREPARATION).state.star("Ada")
    assert sheet.influence.preparation == Pool(current=1, max=4)
    sheet = cr.awards_season(state_of(star(**base)), "Ada", D, Mastery.LIMIT).state.star("Ada")
    assert sheet.limit.max == 6


def test_an_award_power_is_used_once_per_episode_and_only_during_one():
    """11.2 The Accolades: each is "once per Episode"."""
    state = state_of(star(awards=["luminary"]), episode=2)
    used = cr.use_award(state, "Ada", Award.LUMINARY)
    with pytest.raises(RuleViolation, match="already used this Award's power in Episode 2"):
        cr.use_award(used, "Ada", Award.LUMINARY)
    with pytest.raises(RuleViolation, match="has not won"):
        cr.use_award(state, "Ada", Award.ICON)
    with pytest.raises(RuleViolation, match="during an Episode"):
        cr.use_award(state_of(star(awards=["luminary"]), episode=2, episode_open=False), "Ada", Award.LUMINARY)


@given(completions=st.lists(st.sampled_from([T, P, TA, D]), max_size=8))
def test_milestones_never_pass_their_track_and_every_major_grows_the_ensemble(completions):
    """Invariant: minor < 3 and major ≤ 2 on every Path; the Ensemble's maxima grow by exactly the
    Major Milestones marked (Persistence counts twice: Grit and Preparation)."""
    state = state_of(star())
    majors = 0
    for path in completions:
        sheet = state.star("Ada")
        if sheet.career.get(path) and sheet.career[path].major >= 2:
            state = cr.awards_season(
                state,
                "Ada",
                path,
                cr.PATH_AWARD[path]
                if cr.PATH_AWARD[path] not in sheet.awards
                else next(m for m in Mastery if m not in sheet.masteries),
            ).state
            sheet = state.star("Ada")
        state = state.with_star(
            sheet.model_copy(update={"acclaim": {**sheet.acclaim, path: cr.path_cost(sheet, path)}})
        )
        done = cr.complete_path(state, "Ada", path, cr.ExpandKit() if path is P else cr.ActorsChoice(), NO_DICE)
        state = done.state
        majors += (2 if path is P else 1) if done.major_milestone else 0
        for track in state.star("Ada").career.values():
            assert track.minor < cr.MINOR_MILESTONES_PER_MAJOR and track.major <= cr.MAJORS_TO_NOMINATION
    e = state.ensemble
    assert e.grit_max + e.retake_max + e.spotlight_max + e.plot_armor_max + e.preparation_max == 5 + majors
