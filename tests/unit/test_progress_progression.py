"""Ability and Hero Prop XP, Limit and Limit Breaks (domain/showrunner/progression.py).

Rules: 5.2 (base dice = highest printed number reached), 6.3 (★), 8.2A (the Hero Prop track,
the XP Loop), 11.1C (permanent XP in pen), 11.2 (Mastered Limit), Appendix D (Limit Breaks),
and RULES-NOTES "Things with no number in the text" (the track layouts are data).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showrunner_ledger.domain.dice import TableDice
from showrunner_ledger.domain.errors import InvalidDice, RuleViolation
from showrunner_ledger.domain.showrunner import flavour
from showrunner_ledger.domain.showrunner import progression as pg
from showrunner_ledger.domain.showrunner.ladder import Difficulty
from showrunner_ledger.domain.showrunner.sheet import (
    MILESTONE_ORDER,
    Ability,
    AbilityName,
    CareerPath,
    HeroProp,
    Scar,
    Specialty,
    StarSheet,
)
from showrunner_ledger.domain.showrunner.state import ShowrunnerState
from tests.conftest import example_star

POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")
FIGHT, CHANNEL = AbilityName.FIGHT, AbilityName.CHANNEL


def star(**fields) -> StarSheet:
    influence = {p: {"current": 1, "max": 2} for p in POOLS}
    return StarSheet.model_validate({"name": "Ada", "influence": influence} | fields)


def test_the_ability_track_is_data_in_one_place():
    """RULES-NOTES: the Ability XP track is printed only on the sheet; the default layout has the
    printed 1, 2, 3 and three ★ among ○, with growing △ costs."""
    marks = [m for m, _ in pg.ABILITY_TRACK]
    assert [m for m in marks if m.isdigit()] == ["1", "2", "3"]
    assert marks.count(pg.STAR) == 3
    costs = [c for _, c in pg.ABILITY_TRACK]
    assert costs == sorted(costs) and costs[0] == 2


def test_a_sheet_without_advances_is_placed_by_its_base_dice_and_stars():
    """Mara's Fight: base 2, 1★ → after ○ 1 ○ ★ ○ 2 (six milestones)."""
    mara = example_star("star-mara.toml")
    assert pg.ability_position(mara.ability(FIGHT)) == 6
    assert pg.ability_position(Ability()) == 0
    assert pg.ability_position(Ability(advances=3)) == 3


def test_xp_crosses_a_milestone_and_clears_the_pencil_track():
    """8.2A "clearing the XP track as with Abilities": 2 △ reach the first ○, 2 more reach 1."""
    sheet, progress = pg.gain_ability_xp(star(), FIGHT, 2)
    fight = sheet.ability(FIGHT)
    assert progress.reached == ("○",) and fight.xp == 0 and fight.advances == 1 and fight.base_dice == 0
    sheet, progress = pg.gain_ability_xp(sheet, FIGHT, 3)
    fight = sheet.ability(FIGHT)
    assert progress.reached == ("1",) and fight.base_dice == 1 and fight.xp == 1


def test_a_star_milestone_adds_a_star():
    sheet, progress = pg.gain_ability_xp(star(), FIGHT, 2 + 2 + 3 + 3)
    assert progress.reached == ("○", "1", "○", "★")
    assert sheet.ability(FIGHT).stars == 1 and sheet.ability(FIGHT).base_dice == 1


def test_permanent_xp_counts_toward_every_milestone_but_one_pencil_xp_is_always_needed():
    """11.1C: pen XP "are never erased when an Ability advances"."""
    sheet = star(abilities={"fight": {"permanent_xp": 1}})
    assert pg.ability_xp_needed(sheet.ability(FIGHT)) == 1
    sheet, progress = pg.gain_ability_xp(sheet, FIGHT, 1)
    assert progress.reached == ("○",) and sheet.ability(FIGHT).permanent_xp == 1
    loaded = star(abilities={"fight": {"permanent_xp": 5}})
    assert pg.ability_xp_needed(loaded.ability(FIGHT)) == 1


def test_a_permanent_xp_can_itself_complete_a_milestone():
    sheet = star(abilities={"fight": {"xp": 1}})
    sheet, progress = pg.gain_ability_xp(sheet, FIGHT, 1, permanent=True)
    assert progress.reached == ("○",) and sheet.ability(FIGHT).permanent_xp == 1 and sheet.ability(FIGHT).xp == 0


def test_amnesia_boxes_make_each_milestone_cost_more():
    """Appendix D 14: an extra empty XP box in front of the track."""
    sheet = star(abilities={"fight": {"extra_xp_boxes": 1}})
    assert pg.ability_xp_needed(sheet.ability(FIGHT)) == 3


def test_xp_past_the_end_of_the_track_is_not_marked():
    sheet = star(abilities={"fight": {"advances": 12, "base_dice": 3, "stars": 3}})
    sheet, progress = pg.gain_ability_xp(sheet, FIGHT, 4)
    assert progress.lost == 4 and sheet.ability(FIGHT).xp == 0
    assert pg.ability_xp_needed(sheet.ability(FIGHT)) is None


def test_settling_xp_a_check_marked_crosses_the_milestone():
    """A check marks XP without crossing milestones; gaining 0 settles it."""
    sheet = star(abilities={"fight": {"xp": 5}})
    sheet, progress = pg.gain_ability_xp(sheet, FIGHT, 0)
    assert progress.reached == ("○", "1") and sheet.ability(FIGHT).xp == 1


def test_channel_dots_and_stars_trace_limit_boxes_doubled_by_mastered_limit():
    """11.2 Mastered Limit: "Whenever you gain a new dot or star in your Channel Ability, also
    trace another in your second row of Limit"."""
    sheet, progress = pg.gain_ability_xp(star(), CHANNEL, 2 + 2 + 3)
    assert progress.reached == ("○", "1", "○") and progress.limit_boxes == 2 and sheet.limit.max == 2
    mastered, progress = pg.gain_ability_xp(star(masteries=["limit"]), CHANNEL, 2)
    assert progress.limit_boxes == 2 and mastered.limit.max == 2
    other, progress = pg.gain_ability_xp(star(), FIGHT, 2)
    assert progress.limit_boxes == 0 and other.limit.max == 0


def test_negative_xp_is_refused():
    with pytest.raises(RuleViolation, match="cannot be negative"):
        pg.gain_ability_xp(star(), FIGHT, -1)


@given(parts=st.lists(st.integers(0, 8), max_size=8), pen=st.integers(0, 3), extra=st.integers(0, 2))
def test_xp_gained_in_parts_or_at_once_reaches_the_same_place(parts, pen, extra):
    """XP is marked one △ at a time, so splitting a gain changes nothing; nothing ever goes down."""
    start = star(abilities={"fight": {"permanent_xp": pen, "extra_xp_boxes": extra}})
    split = start
    for part in parts:
        before = split.ability(FIGHT)
        split, _ = pg.gain_ability_xp(split, FIGHT, part)
        after = split.ability(FIGHT)
        assert after.base_dice >= before.base_dice and after.stars >= before.stars
        assert pg.ability_position(after) >= pg.ability_position(before)
    whole, _ = pg.gain_ability_xp(start, FIGHT, sum(parts))
    assert pg.ability_position(whole.ability(FIGHT)) == pg.ability_position(split.ability(FIGHT))
    assert whole.ability(FIGHT).xp == split.ability(FIGHT).xp


# ------------------------------------------------------------------ Hero Props


def rapier(**fields) -> StarSheet:
    return star(hero_props=[{"name": "Rapier", "powers": ["Riposte"]} | fields])


def test_hero_prop_xp_per_milestone_is_data_aligned_with_the_milestone_order():
    assert len(pg.HERO_PROP_XP) == len(MILESTONE_ORDER) == 20


def test_hero_prop_xp_unlocks_wear_boxes_and_the_difficulty_milestone():
    """8.2A: ⛉ → 1st Power → ⛉ → N: a Wear box each ⛉; N sets the Prop's Tier."""
    sheet, progress = pg.gain_hero_prop_xp(rapier(), "Rapier", 8)
    prop = sheet.hero_prop("Rapier")
    assert progress.reached == ("⛉", "1st Power", "⛉", "N")
    assert prop.wear_capacity == 3 and prop.milestones == 4 and prop.xp == 0
    assert pg.hero_prop_tier(prop) is Difficulty.NORMAL


def test_the_second_power_milestone_asks_for_a_second_power():
    sheet = rapier(milestones=11, wear_capacity=7)
    _, progress = pg.gain_hero_prop_xp(sheet, "Rapier", pg.HERO_PROP_XP[11])
    assert progress.reached == ("2nd Power",) and progress.needs_second_power


def test_hero_prop_tier_is_its_highest_difficulty_milestone():
    """9.2B "repairing a HARD sword is a HARD check": a Prop with H unlocked is a HARD Prop."""
    assert pg.hero_prop_tier(HeroProp(name="S", powers=["p"], milestones=8, wear_capacity=5)) is Difficulty.HARD
    assert pg.hero_prop_tier(HeroProp(name="S", powers=["p"])) is Difficulty.NORMAL


def test_wear_already_marked_settles_into_milestones():
    """8.2A The XP Loop: each Wear marks 1 XP; Mara's Rapier (4 milestones) with 4 XP crosses the next ⛉."""
    sheet = rapier(milestones=4, wear_capacity=3, xp=4)
    sheet, progress = pg.gain_hero_prop_xp(sheet, "Rapier", 0)
    assert progress.reached == ("⛉",) and sheet.hero_prop("Rapier").wear_capacity == 4
    assert sheet.hero_prop("Rapier").xp == 4 - pg.HERO_PROP_XP[4]


@given(parts=st.lists(st.integers(0, 10), max_size=6))
def test_a_fresh_hero_prop_has_one_wear_box_plus_one_per_wear_upgrade(parts):
    sheet = rapier()
    for part in parts:
        sheet, _ = pg.gain_hero_prop_xp(sheet, "Rapier", part)
    prop = sheet.hero_prop("Rapier")
    assert prop.wear_capacity == 1 + prop.wear_upgrades


@given(
    advances=st.none() | st.integers(0, 14),
    xp=st.integers(0, 9),
    pen=st.integers(0, 3),
    extra=st.integers(0, 2),
)
def test_an_ability_is_settled_exactly_when_marking_nothing_leaves_it_as_it_is(advances, xp, pen, extra):
    """`settle` marks only what `ability_settled` says has XP to settle: it must agree with the mark."""
    fields = {"advances": advances, "xp": xp, "permanent_xp": pen, "extra_xp_boxes": extra}
    sheet = star(abilities={"channel": fields})
    after, progress = pg.gain_ability_xp(sheet, CHANNEL, 0)
    unchanged = after == sheet and not progress.reached and not progress.lost
    assert pg.ability_settled(sheet.ability(CHANNEL)) == unchanged


@given(
    advances=st.none() | st.integers(0, 14),
    xp=st.integers(0, 9),
    pen=st.integers(0, 3),
    wear_xp=st.integers(0, 9),
)
def test_the_milestones_a_check_fills_are_the_fact_decided_or_none(advances, xp, pen, wear_xp):
    """`with_milestones` asks `crossed`, which settles the sheet once: it must give what `decided`
    gives, and None exactly when that fact changes no sheet (and is left out)."""
    from showrunner_ledger.domain.showrunner.progress_events import MilestonesReached

    prop = {"name": "Rapier", "powers": ["Riposte"], "xp": wear_xp}
    sheet = star(abilities={"channel": {"advances": advances, "xp": xp, "permanent_xp": pen}}, hero_props=[prop])
    state = ShowrunnerState().with_star(sheet)
    decided = MilestonesReached.decided(state, None, star=sheet.name)
    crossed = MilestonesReached.crossed(state, sheet.name)
    if crossed is None:
        assert decided.changed.stars == () and decided.lines == ()
    else:
        assert crossed == decided and crossed.model_fields_set == decided.model_fields_set
        assert crossed.model_dump_json() == decided.model_dump_json()


@given(milestones=st.integers(0, len(MILESTONE_ORDER)), xp=st.integers(0, 9), pen=st.integers(0, 3))
def test_a_hero_prop_is_settled_exactly_when_marking_nothing_leaves_it_as_it_is(milestones, xp, pen):
    prop = {"name": "Rapier", "powers": ["Riposte"], "milestones": milestones, "xp": xp, "permanent_xp": pen}
    sheet = star(hero_props=[prop])
    after, progress = pg.gain_hero_prop_xp(sheet, "Rapier", 0)
    unchanged = after == sheet and not progress.reached and not progress.lost
    assert pg.hero_prop_settled(sheet.hero_prop("Rapier")) == unchanged


def test_clearing_wear_limit_and_conditions_stops_at_zero():
    sheet = star(hero_props=[{"name": "Rapier", "powers": ["Riposte"], "wear": 1}], limit={"marked": 2, "max": 3})
    cleared_sheet, cleared = pg.clear_wear(sheet, "Rapier", 4)
    assert cleared == 1 and cleared_sheet.hero_prop("Rapier").wear == 0
    limited, cleared = pg.clear_limit(sheet, 5)
    assert cleared == 2 and limited.limit.marked == 0
    hurt = star(abilities={"fight": {"conditions": 2, "locked_conditions": 1}, "move": {"conditions": 3}})
    healed, cleared = pg.clear_conditions(hurt, (AbilityName.MOVE, FIGHT), 4)
    assert cleared == 4 and healed.ability(AbilityName.MOVE).conditions == 0
    assert healed.ability(FIGHT).conditions == 1 and healed.ability(FIGHT).locked_conditions == 1


# ------------------------------------------------------------------ Limit Breaks


def broken_state(sheet: StarSheet) -> ShowrunnerState:
    return ShowrunnerState().with_star(sheet)


def test_a_limit_break_rolls_2d10_on_each_table():
    """Appendix D: 2d10 Internal Overload (6 Mad: one maximum Spotlight in pen) and 2d10 Major
    Anomaly (7 Flux)."""
    dice = TableDice({"overload": [2, 4], "major_anomaly": [3, 4]})
    broke = pg.limit_break(broken_state(star()), "Ada", dice, resist=Difficulty.HARD)
    assert [o.name for o in broke.overloads] == ["Mad"]
    assert [(a.name, a.resist) for a in broke.anomalies] == [("Flux", Difficulty.HARD)]
    spotlight = broke.state.star("Ada").influence.spotlight
    assert (spotlight.current, spotlight.max, spotlight.exhausted) == (1, 1, 0)


def test_roll_again_twice_suffers_both():
    """Appendix D 2: "Roll Again Twice: Suffer both rolled internal effects"."""
    dice = TableDice({"overload": [1, 1, 3, 5, 10, 10], "major_anomaly": [5, 5]})
    broke = pg.limit_break(broken_state(star()), "Ada", dice, resist=Difficulty.NORMAL)
    assert [o.roll for o in broke.overloads] == [8, 20]
    sheet = broke.state.star("Ada")
    assert sheet.influence.retake.max == 1 and sheet.influence.plot_armor.max == 1


def test_roll_again_empowered_raises_the_resist_difficulty():
    """Appendix D Major Anomaly 20: "Roll again on this chart, but increase the Difficulty … one step"."""
    dice = TableDice({"overload": [3, 3], "major_anomaly": [10, 10, 10, 10, 9, 10]})
    broke = pg.limit_break(broken_state(star()), "Ada", dice, resist=Difficulty.HARD)
    assert [(a.roll, a.resist) for a in broke.anomalies] == [(19, Difficulty.EPIC)]


def test_career_overloads_trace_an_extra_acclaim_bubble():
    """Appendix D 4 Disfigured (Talent), 5 Impulsive (Training), 18 Flashbacks (Persistence), 19 Jinxed (Destiny)."""
    state = broken_state(star())
    for roll, path in (
        (4, CareerPath.TALENT),
        (5, CareerPath.TRAINING),
        (18, CareerPath.PERSISTENCE),
        (19, CareerPath.DESTINY),
    ):
        dice = TableDice({"major_anomaly": [2, 3]})
        state = pg.limit_break(state, "Ada", dice, resist=Difficulty.NORMAL, fixed_overload=roll).state
        assert state.star("Ada").career[path].extra_cost == 1
    assert state.star("Ada").drawbacks == ["Jinxed"]


def test_broken_traces_conditions_in_pen_on_random_abilities():
    """Appendix D 3: "1d6 times, roll a random Ability and permanently mark one Condition X in pen"."""
    dice = TableDice({"overload_times": [2], "random_ability": [3, 3]})
    broke = pg.limit_break(
        broken_state(star()), "Ada", dice, resist=Difficulty.NORMAL, fixed_overload=3, fixed_anomaly=15
    )
    assert broke.state.star("Ada").ability(FIGHT).locked_conditions == 2


def test_lasting_sheet_overloads():
    """Appendix D 7 Weakened, 9 Heartless, 11 Burnout, 13 Glitched, 14 Amnesia, 15 Scarred."""
    sheet = star(
        hero_props=[{"name": "Rapier", "powers": ["Riposte"], "wear": 2, "wear_capacity": 3}],
        limit={"marked": 3, "max": 3},
    )
    state = broken_state(sheet)
    for roll, faces in (
        (7, {}),
        (9, {}),
        (11, {}),
        (13, {}),
        (14, {"random_ability": [4]}),
        (15, {"random_ability": [3], "scar_slot": [2]}),
    ):
        state = pg.limit_break(
            state, "Ada", TableDice(faces), resist=Difficulty.NORMAL, fixed_overload=roll, fixed_anomaly=9
        ).state
    after = state.star("Ada")
    assert after.backpack_crossed == 1 and after.bond_extra_boxes == 1
    assert (after.limit.marked, after.limit.max) == (2, 2)
    prop = after.hero_prop("Rapier")
    assert (prop.extra_xp_boxes, prop.wear_capacity, prop.wear) == (1, 2, 2)
    assert after.ability(AbilityName.IMPRESS).extra_xp_boxes == 1  # the Appendices' 4: Impress
    assert after.ability(FIGHT).slots[2] == Scar(name=pg.LIMIT_BREAK_SCAR, penalty=1)


@pytest.mark.parametrize(
    ("numbering", "named"), [(flavour.ABILITY_BY_D10, AbilityName.IMPRESS), (pg.SHEET_ORDER, AbilityName.MOVE)]
)
def test_a_random_ability_is_numbered_as_the_appendices_number_it(numbering, named):
    """RULES-NOTES "Random Ability d10: one numbering everywhere, the Appendices' alphabetical one";
    the sheet's order (4 Move) only for a Limit Break recorded before."""
    state = broken_state(star(limit={"marked": 3, "max": 3}))
    broke = pg.limit_break(
        state,
        "Ada",
        TableDice({"random_ability": [4]}),
        resist=Difficulty.NORMAL,
        fixed_overload=14,
        fixed_anomaly=9,
        numbering=numbering,
    )
    assert broke.state.star("Ada").ability(named).extra_xp_boxes == 1
    assert flavour.ability_for(4) is AbilityName.IMPRESS


def test_scarred_rolls_again_on_a_specialty_and_deepens_a_scar():
    sheet = star(
        abilities={
            "fight": {
                "slots": {
                    "1": {"kind": "specialty", "name": "Swords", "rank": 2},
                    "2": {"kind": "scar", "name": "Limp", "penalty": 2},
                }
            }
        }
    )
    dice = TableDice({"random_ability": [3], "scar_slot": [1, 2]})
    broke = pg.limit_break(
        broken_state(sheet), "Ada", dice, resist=Difficulty.NORMAL, fixed_overload=15, fixed_anomaly=9
    )
    slots = broke.state.star("Ada").ability(FIGHT).slots
    assert slots[1] == Specialty(name="Swords", rank=2) and slots[2] == Scar(name="Limp", penalty=3)


def test_chaos_rolls_one_regular_anomaly_per_limit_marked():
    """Appendix D Major Anomaly 11: "Roll standard regular Anomalies … equal to your current Limit total"."""
    sheet = star(limit={"marked": 2, "max": 3})
    broke = pg.limit_break(
        broken_state(sheet),
        "Ada",
        TableDice({"anomaly": [17, 88]}),
        resist=Difficulty.NORMAL,
        fixed_overload=10,
        fixed_anomaly=11,
    )
    assert broke.anomalies[0].anomalies == (17, 88)
    assert broke.state.star("Ada").drawbacks[0].startswith("Addiction")


def test_fixed_entries_and_resist_are_checked_first():
    with pytest.raises(RuleViolation, match="from 3 to 20"):
        pg.limit_break(broken_state(star()), "Ada", TableDice({}), resist=Difficulty.NORMAL, fixed_overload=2)
    with pytest.raises(RuleViolation, match="NORMAL or higher"):
        pg.limit_break(broken_state(star()), "Ada", TableDice({}), resist=Difficulty.EASY)
    with pytest.raises(InvalidDice):
        pg.limit_break(broken_state(star()), "Ada", TableDice({}), resist=Difficulty.NORMAL)
