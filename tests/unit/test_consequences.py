"""Consequences on a Star's sheet (domain/showrunner/consequences.py), and their ledger record.

Rules: Section 14.3 (the Consequence Menu: Lose Grit, Depletion, Mark Wear, Mark Conditions,
Mark Limit; sized by the original Difficulty), Section 6.2 (the Final Defense, the Plot Armor
Scar), 6.4 (Pushing Your Limits, the Exhaustion example), 8.2A (each Wear marks 1 Asset XP),
11.2 (Grit and Plot Armor Masteries), Appendix C/D (Anomalies, Limit Breaks), and the readings
of /work/shared/RULES-NOTES.md "Losses" and "Things with no number". Dice here are table dice
typed in per purpose, and every face typed in must be used.
"""

from __future__ import annotations

from typing import Any

import pytest

from showrunner_ledger.domain.dice import ReplayDice, TableDice
from showrunner_ledger.domain.errors import InvalidDice, RuleViolation, UnknownName
from showrunner_ledger.domain.showrunner.check import CheckRequest, resolve, roll_plot_armor_scar
from showrunner_ledger.domain.showrunner.consequences import (
    ConsequenceKind,
    ConsequenceRequest,
    ConsequenceResolution,
    DeferredDice,
    PropChoice,
    apply_consequence,
    consequence_size,
    decide,
    option_problem,
)
from showrunner_ledger.domain.showrunner.effects import (
    AbilityMarked,
    HoldingWearMarked,
    LimitMarked,
    PropsSpent,
    ScarMarked,
    StudioNotesChanged,
    WearMarked,
    WrittenOff,
)
from showrunner_ledger.domain.showrunner.influence import Regained, Spent
from showrunner_ledger.domain.showrunner.ladder import Difficulty, Quality
from showrunner_ledger.domain.showrunner.sheet import (
    AbilityName,
    Holding,
    LimitTrack,
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

# Mara Voss: Grit 3/4, Plot Armor 2/2 (1 exhausted); Fight slots 1 "Swords" +2, 2 Scar "Broken
# Arm" -1, 5 "Disarming" +1; Move with 1 Condition; Endure with 1 locked Condition. Hero Prop
# "Father's Rapier" Wear 2/3, XP 1. Props: 3 NORMAL Money, 1 HARD Weapons, 2 NORMAL Medicine.
MARA = example_star("star-mara.toml")
# Tobias Quell: Grit 2/3 (1 exhausted), Plot Armor 3/3; Limit 2/3; Work slots 1 "Clockwork",
# 2 "Jury-rigging"; Hero Prop "Clockwork Familiar" Wear 5/7, XP 2. Props: 2 FORMIDABLE
# Batteries, 5 NORMAL Materials, 1 HARD Materials, 1 NORMAL Money.
TOBIAS = example_star("star-tobias.json")
NO_DICE: dict[str, list[int]] = {}


def cast(*sheets: StarSheet, studio_notes: int = 0) -> ShowrunnerState:
    state = ShowrunnerState(studio_notes=studio_notes)
    for sheet in sheets or (MARA, TOBIAS):
        state = state.with_star(sheet)
    return state


def with_pool(sheet: StarSheet, pool: str, current: int, max: int, exhausted: int = 0) -> StarSheet:
    influence = sheet.influence.model_copy(update={pool: Pool(current=current, max=max, exhausted=exhausted)})
    return sheet.model_copy(update={"influence": influence})


def mastering(sheet: StarSheet, *masteries: Mastery) -> StarSheet:
    return sheet.model_copy(update={"masteries": sheet.masteries | frozenset(masteries)})


def suffer(
    state: ShowrunnerState, star: str, kind: str, difficulty: str, faces: dict[str, list[int]] = NO_DICE, **options: Any
) -> tuple[ConsequenceResolution, ShowrunnerState]:
    """Decide with table dice (all of them must be used), and apply."""
    request = ConsequenceRequest(star=star, kind=kind, difficulty=difficulty, **options)
    dice = TableDice(faces)
    resolution = decide(state, request, dice)
    dice.check_all_used()
    return resolution, apply_consequence(state, resolution)


def grit(state: ShowrunnerState, star: str = "Mara Voss") -> Pool:
    return state.star(star).influence.grit


def plot_armor(state: ShowrunnerState, star: str = "Mara Voss") -> Pool:
    return state.star(star).influence.plot_armor


def texts(resolution: ConsequenceResolution) -> list[str]:
    return [step.text for step in resolution.steps]


# ------------------------------------------------------------------ size


@pytest.mark.parametrize(
    ("difficulty", "size"),
    [
        (Difficulty.EASY, 2),
        (Difficulty.NORMAL, 3),
        (Difficulty.HARD, 4),
        (Difficulty.FORMIDABLE, 5),
        (Difficulty.EPIC, 6),
    ],
)
def test_one_consequence_is_the_original_difficultys_number(difficulty: Difficulty, size: int) -> None:
    assert consequence_size(difficulty) == (1, size)
    resolution, _ = suffer(cast(), "Tobias", "conditions", difficulty.value, ability="work")
    assert (resolution.consequences, resolution.size, resolution.total) == (1, size, size)
    assert resolution.effects == (AbilityMarked(star="Tobias Quell", ability=AbilityName.WORK, conditions=size),)


@pytest.mark.parametrize(
    ("difficulty", "epics"),
    [(Difficulty.LEGENDARY, 2), (Difficulty.MYTHIC, 3), (Difficulty.ASCENDANT, 4), (Difficulty.GODLIKE, 5)],
)
def test_above_epic_a_consequence_is_several_epic_consequences(difficulty: Difficulty, epics: int) -> None:
    assert consequence_size(difficulty) == (epics, 6)
    resolution, after = suffer(cast(), "Tobias", "conditions", difficulty.value, ability="think")
    assert (resolution.consequences, resolution.size) == (epics, 6)
    assert after.star("Tobias").ability(AbilityName.THINK).conditions == 6 * epics
    assert f"{difficulty.value} is {epics} EPIC Consequences" in texts(resolution)[0]


def test_the_count_multiplies_the_consequences() -> None:
    resolution, after = suffer(cast(), "Mara", "conditions", "HARD", count=2, ability="move")
    assert (resolution.consequences, resolution.size, resolution.total) == (2, 4, 8)
    assert after.star("Mara").ability(AbilityName.MOVE).conditions == 1 + 8
    # The seed's example: failing a MYTHIC Climax Beat inflicts 3 EPIC Consequences; two of them, 6.
    resolution, _ = suffer(cast(), "Mara", "conditions", "MYTHIC", count=2, ability="move")
    assert (resolution.consequences, resolution.size) == (6, 6)


def test_a_difficulty_off_the_ladder_is_refused() -> None:
    with pytest.raises(ValueError):
        ConsequenceRequest(star="Mara", kind="conditions", difficulty="IMPOSSIBLE", ability="fight")
    with pytest.raises(ValueError):
        ConsequenceRequest(star="Mara", kind="conditions", difficulty="HARD", count=0, ability="fight")


# ------------------------------------------------------------------ Grit Loss: the Final Defense


def test_grit_covers_the_loss_and_no_plot_armor_is_spent_even_from_an_empty_pool() -> None:
    resolution, after = suffer(cast(), "Mara", "grit-loss", "EASY")
    assert resolution.effects == (Spent(star="Mara Voss", pool="grit", amount=2, from_pool=2, exhausted=0),)
    assert grit(after) == Pool(current=1, max=4)
    assert plot_armor(after) == plot_armor(cast())
    assert resolution.rolls == ()
    # "If this covers the loss, no Plot Armor is spent—even if your Plot Armor pool is empty."
    broke = with_pool(MARA, "plot_armor", 0, 0, 3)
    resolution, after = suffer(cast(broke), "Mara", "grit-loss", "NORMAL")
    assert grit(after) == Pool(current=0, max=4)
    assert not after.star("Mara").written_off
    assert texts(resolution) == ["Grit Loss at NORMAL: 3 Grit", "lost 3 Grit (3 → 0)"]


def test_grit_then_push_exhausts_one_grit_icon_per_remaining_point() -> None:
    resolution, after = suffer(cast(), "Mara", "grit-loss", "FORMIDABLE", push=True)
    # 3 from the pool, then 2 icons crossed off; Plot Armor is kept.
    assert resolution.effects == (Spent(star="Mara Voss", pool="grit", amount=5, from_pool=3, exhausted=2),)
    assert grit(after) == Pool(current=0, max=2, exhausted=2)
    assert plot_armor(after) == Pool(current=2, max=2, exhausted=1)
    assert texts(resolution)[1:] == [
        "lost 3 Grit (3 → 0)",
        "Pushed Their Limits: exhausted 2 Grit icons for the remaining 2 (Grit maximum 4 → 2)",
    ]


def test_the_books_exhaustion_example() -> None:
    """6.4: a Star with 0 Grit loses 4 at HARD and, keeping their last Plot Armor, pushes: 4 → 0."""
    star = with_pool(with_pool(MARA, "grit", 0, 4), "plot_armor", 1, 1)
    resolution, after = suffer(cast(star), "Mara", "grit-loss", "HARD", push=True, ability="fight")
    assert resolution.effects == (Spent(star="Mara Voss", pool="grit", amount=4, from_pool=0, exhausted=4),)
    assert grit(after) == Pool(current=0, max=0, exhausted=4)
    assert plot_armor(after) == Pool(current=1, max=1)
    assert resolution.rolls == ()


@pytest.mark.parametrize(("difficulty", "remainder"), [("NORMAL", 1), ("EPIC", 4), ("EPIC", 6)])
def test_one_plot_armor_absorbs_the_whole_remainder_whatever_its_size(difficulty: str, remainder: int) -> None:
    loss = Difficulty(difficulty).target
    assert loss is not None
    star = with_pool(MARA, "grit", loss - remainder, 4)
    resolution, after = suffer(cast(star), "Mara", "grit-loss", difficulty, {"scar_slot": [7]}, ability="fight")
    assert grit(after).current == 0
    assert plot_armor(after) == Pool(current=1, max=2, exhausted=1)
    spent = [e for e in resolution.effects if isinstance(e, Spent) and e.pool == "plot_armor"]
    assert spent == [Spent(star="Mara Voss", pool="plot_armor", amount=1, from_pool=1, exhausted=0)]
    assert f"spent 1 Plot Armor (2 → 1): it absorbs the remaining {remainder}" in texts(resolution)


def test_plot_armor_rolls_a_scar_under_the_ability_with_the_checks_reading() -> None:
    # Slot 1 holds a Specialty: rolled again; slot 2's Scar "Broken Arm" -1 deepens to -2.
    resolution, after = suffer(cast(), "Mara", "grit-loss", "HARD", {"scar_slot": [1, 2]}, ability="fight")
    assert resolution.effects[-1] == ScarMarked(
        star="Mara Voss", ability=AbilityName.FIGHT, slot=2, name="Broken Arm", penalty=2
    )
    assert after.star("Mara").ability(AbilityName.FIGHT).slots[2] == Scar(name="Broken Arm", penalty=2)
    assert [(r.purpose, r.sides, r.faces) for r in resolution.rolls] == [
        ("scar_slot", 10, (1,)),
        ("scar_slot", 10, (2,)),
    ]
    assert texts(resolution)[-1] == 'Plot Armor leaves a Scar under Fight: slot 2 "Broken Arm" -2'
    # The same function a check uses for its Plot Armor Scar, with the same dice.
    scar, _, faces = roll_plot_armor_scar(MARA, AbilityName.FIGHT, TableDice({"scar_slot": [1, 2]}))
    assert (scar, faces) == (resolution.effects[-1], (2,))
    # An empty slot takes a new Scar at 1.
    resolution, _ = suffer(cast(), "Mara", "grit-loss", "HARD", {"scar_slot": [9]}, ability="fight")
    assert resolution.effects[-1] == ScarMarked(
        star="Mara Voss", ability=AbilityName.FIGHT, slot=9, name="Plot Armor scar", penalty=1
    )


def test_plot_armor_mastery_spares_the_scar_and_needs_no_ability() -> None:
    resolution, after = suffer(cast(mastering(MARA, Mastery.PLOT_ARMOR)), "Mara", "grit-loss", "HARD")
    assert not any(isinstance(e, ScarMarked) for e in resolution.effects)
    assert resolution.rolls == ()
    assert plot_armor(after).current == 1
    assert texts(resolution)[-1] == "Plot Armor Mastery: no Scar"


def test_spending_plot_armor_without_an_ability_for_the_scar_is_refused() -> None:
    with pytest.raises(RuleViolation, match="rolls a Scar under the Ability used: pass --ability"):
        suffer(cast(), "Mara", "grit-loss", "HARD")


def test_push_does_not_cross_off_grit_icons_that_cannot_cover_the_whole_shortfall() -> None:
    """Plot Armor absorbs any remainder whole, so exhausting fewer icons would only cost icons."""
    star = with_pool(MARA, "grit", 0, 2)
    resolution, after = suffer(cast(star), "Mara", "grit-loss", "HARD", {"scar_slot": [9]}, push=True, ability="fight")
    assert grit(after) == Pool(current=0, max=2)
    assert plot_armor(after) == Pool(current=1, max=2, exhausted=1)  # the current Plot Armor, not an icon
    assert resolution.effects[0] == Spent(star="Mara Voss", pool="plot_armor", amount=1, from_pool=1, exhausted=0)


def test_an_empty_plot_armor_pool_with_push_exhausts_a_plot_armor_icon_permanently() -> None:
    star = with_pool(with_pool(MARA, "grit", 1, 2), "plot_armor", 0, 1, 1)
    resolution, after = suffer(cast(star), "Mara", "grit-loss", "EPIC", {"scar_slot": [9]}, push=True, ability="fight")
    assert resolution.effects[:2] == (
        Spent(star="Mara Voss", pool="grit", amount=1, from_pool=1, exhausted=0),
        Spent(star="Mara Voss", pool="plot_armor", amount=1, from_pool=0, exhausted=1),
    )
    assert grit(after) == Pool(current=0, max=2)  # 2 icons could not cover 5: none crossed off
    assert plot_armor(after) == Pool(current=0, max=0, exhausted=2)
    assert isinstance(resolution.effects[2], ScarMarked)
    assert not after.star("Mara").written_off
    assert "exhausted 1 Plot Armor icon, permanently (Plot Armor maximum 1 → 0)" in texts(resolution)[2]


@pytest.mark.parametrize(
    ("grit_pool", "plot_pool", "would"),
    [((0, 4), (0, 0, 2), "exhausts 4 Grit icons"), ((0, 2), (0, 1, 1), "exhausts 1 Plot Armor icon, permanently")],
)
def test_a_loss_only_pushing_can_cover_is_refused_without_push(grit_pool, plot_pool, would) -> None:
    """Written Off cannot be undone, and the book writes off only when even Pushing cannot cover."""
    star = with_pool(with_pool(MARA, "grit", *grit_pool), "plot_armor", *plot_pool)
    with pytest.raises(RuleViolation) as refused:
        suffer(cast(star), "Mara", "grit-loss", "HARD", ability="fight")
    assert str(refused.value) == (
        f"Mara Voss has 0 Grit and 0 Plot Armor against 4 Grit Loss: only Pushing Their Limits covers the "
        f"remaining 4; pass --push ({would})"
    )


@pytest.mark.parametrize("push", [False, True])
def test_with_nothing_left_to_cover_the_loss_the_character_is_written_off(push: bool) -> None:
    star = with_pool(with_pool(MARA, "grit", 1, 3, 1), "plot_armor", 0, 0, 3)
    resolution, after = suffer(cast(star), "Mara", "grit-loss", "FORMIDABLE", push=push, ability="fight")
    # Grit already lost is not restored; 3 icons cannot cover the other 4.
    assert resolution.effects == (
        Spent(star="Mara Voss", pool="grit", amount=1, from_pool=1, exhausted=0),
        WrittenOff(star="Mara Voss"),
    )
    assert resolution.written_off
    assert after.star("Mara").written_off
    assert grit(after) == Pool(current=0, max=3, exhausted=1)
    assert (
        texts(resolution)[-1]
        == "WRITTEN OFF: no Grit or Plot Armor can cover the remaining 4 (3 Grit icons left, too few)"
    )
    assert resolution.headline() == "Mara Voss suffered Grit Loss at FORMIDABLE (5 Grit): lost 1 Grit, WRITTEN OFF"


def test_a_written_off_star_suffers_no_more_consequences() -> None:
    gone = MARA.model_copy(update={"written_off": True})
    with pytest.raises(RuleViolation, match="has been written off the Show"):
        suffer(cast(gone), "Mara", "conditions", "HARD", ability="fight")


def test_grit_mastery_takes_one_less_grit_loss() -> None:
    master = mastering(MARA, Mastery.GRIT)
    resolution, after = suffer(cast(master), "Mara", "grit-loss", "HARD")  # 4 - 1 = 3: the pool covers it
    assert resolution.effects == (Spent(star="Mara Voss", pool="grit", amount=3, from_pool=3, exhausted=0),)
    assert plot_armor(after) == plot_armor(cast())
    assert texts(resolution)[1] == "Grit Mastery: 1 less Grit Loss (4 → 3)"
    # Without the Mastery the same loss costs a Plot Armor.
    resolution, _ = suffer(cast(), "Mara", "grit-loss", "HARD", {"scar_slot": [9]}, ability="fight")
    assert any(isinstance(e, Spent) and e.pool == "plot_armor" for e in resolution.effects)


def test_grit_mastery_counts_for_each_grit_loss() -> None:
    master = mastering(with_pool(MARA, "grit", 10, 12), Mastery.GRIT)
    resolution, after = suffer(cast(master), "Mara", "grit-loss", "LEGENDARY")  # 2 EPIC losses of 6 - 1
    assert grit(after) == Pool(current=0, max=12)
    assert [e.amount for e in resolution.effects if isinstance(e, Spent)] == [5, 5]


def test_each_grit_loss_goes_through_the_final_defense_on_its_own() -> None:
    """MYTHIC is 3 EPIC Grit Losses: each remainder takes its own Plot Armor and its own Scar."""
    resolution, after = suffer(cast(), "Tobias", "grit-loss", "MYTHIC", {"scar_slot": [4, 5, 6]}, ability="work")
    assert grit(after, "Tobias") == Pool(current=0, max=3, exhausted=1)
    assert plot_armor(after, "Tobias") == Pool(current=0, max=3)
    scars = [e for e in resolution.effects if isinstance(e, ScarMarked)]
    assert [(s.slot, s.penalty) for s in scars] == [(4, 1), (5, 1), (6, 1)]
    assert texts(resolution)[1:3] == [
        "Grit Loss 1 of 3: lost 2 Grit (2 → 0)",
        "Grit Loss 1 of 3: spent 1 Plot Armor (3 → 2): it absorbs the remaining 4",
    ]
    # A fourth, pushed: 3 Grit icons cannot cover 6, so a Plot Armor icon is crossed off for good.
    resolution, after = suffer(after, "Tobias", "grit-loss", "EPIC", {"scar_slot": [7]}, push=True, ability="work")
    assert plot_armor(after, "Tobias") == Pool(current=0, max=2, exhausted=1)
    assert grit(after, "Tobias") == Pool(current=0, max=3, exhausted=1)
    assert not after.star("Tobias").written_off


def test_grit_losses_after_the_character_is_written_off_are_not_resolved() -> None:
    star = with_pool(with_pool(TOBIAS, "grit", 0, 0, 3), "plot_armor", 1, 1)
    resolution, after = suffer(
        cast(star), "Tobias", "grit-loss", "ASCENDANT", {"scar_slot": [4, 5]}, push=True, ability="work"
    )
    # 4 EPIC Grit Losses: the Plot Armor, then its last icon, then nothing: Written Off.
    assert after.star("Tobias").written_off
    assert [type(e).__name__ for e in resolution.effects] == [
        "Spent",
        "ScarMarked",
        "Spent",
        "ScarMarked",
        "WrittenOff",
    ]
    assert texts(resolution)[-1] == "1 more Grit Loss falls on a Character already written off"


# ------------------------------------------------------------------ Mark Conditions


def test_conditions_are_marked_in_the_ability_named() -> None:
    resolution, after = suffer(cast(), "Mara", "conditions", "HARD", ability="move")
    move = after.star("Mara").ability(AbilityName.MOVE)
    assert (move.conditions, move.locked_conditions) == (1 + 4, 0)
    # Nothing else on the sheet moves.
    before = cast().star("Mara")
    assert after.star("Mara").model_copy(update={"abilities": before.abilities}) == before
    assert texts(resolution) == ["Mark Conditions at HARD: 4 Conditions", "marked 4 Conditions in Move (1 → 5)"]
    assert resolution.headline() == "Mara Voss suffered Mark Conditions at HARD (4 Conditions): 4 Conditions in Move"


# ------------------------------------------------------------------ Mark Wear


def test_each_wear_marked_also_marks_one_asset_xp() -> None:
    resolution, after = suffer(cast(), "Tobias", "wear", "EASY", hero_prop="clockwork familiar")
    assert resolution.effects == (WearMarked(star="Tobias Quell", hero_prop="Clockwork Familiar", wear=2, overflow=0),)
    familiar = after.star("Tobias").hero_props[0]
    assert (familiar.wear, familiar.wear_capacity, familiar.xp) == (7, 7, 4)


def test_wear_past_capacity_is_lost_earns_no_xp_and_leaves_the_prop_unusable() -> None:
    resolution, after = suffer(cast(), "Mara", "wear", "HARD", hero_prop="Father's Rapier")
    assert resolution.effects == (WearMarked(star="Mara Voss", hero_prop="Father's Rapier", wear=1, overflow=3),)
    rapier = after.star("Mara").hero_props[0]
    assert (rapier.wear, rapier.wear_capacity, rapier.xp) == (3, 3, 2)
    assert texts(resolution)[2:] == [
        "3 Wear found no empty box and is lost (no XP for it)",
        "Father's Rapier has all its Wear marked: it cannot be used until repaired",
    ]
    # Consistent with checks: a Prop with all its Wear marked cannot be used.
    request = CheckRequest(
        star="Mara", ability=AbilityName.FIGHT, difficulty=Difficulty.HARD, hero_prop="Father's Rapier"
    )
    with pytest.raises(RuleViolation, match="cannot be used until repaired"):
        resolve(after, request, TableDice({}))


def test_wear_on_a_hero_prop_with_no_empty_box_is_refused() -> None:
    _, state = suffer(cast(), "Mara", "wear", "EASY", hero_prop="Father's Rapier")
    with pytest.raises(RuleViolation, match="already has all 3 Wear marked: no Wear can be marked"):
        suffer(state, "Mara", "wear", "EASY", hero_prop="Father's Rapier")


def test_wear_on_an_unknown_hero_prop_is_refused_with_the_names() -> None:
    with pytest.raises(UnknownName, match=r"Mara Voss has no Hero Prop 'Sword' \(Hero Props: Father's Rapier\)"):
        suffer(cast(), "Mara", "wear", "EASY", hero_prop="Sword")


def holding_in_play(state: ShowrunnerState, quality: str = "NORMAL") -> ShowrunnerState:
    lighthouse = Holding(name="The Drowned Lighthouse", quality=Quality(quality), kind="Home Base")
    return state.model_copy(update={"ensemble": state.ensemble.model_copy(update={"holdings": (lighthouse,)})})


def test_a_holding_takes_some_of_the_wear_instead_of_the_hero_prop() -> None:
    """14.3: "the Holding might take some of the Wear instead of in addition to one of your Hero Props"."""
    resolution, after = suffer(
        holding_in_play(cast()),
        "Mara",
        "wear",
        "HARD",
        hero_prop="Father's Rapier",
        holding="the drowned lighthouse",
        holding_wear=3,
    )
    assert resolution.effects == (
        HoldingWearMarked(holding="The Drowned Lighthouse", wear=3),
        WearMarked(star="Mara Voss", hero_prop="Father's Rapier", wear=1, overflow=0),
    )
    lighthouse = after.ensemble.holdings[0]
    assert (lighthouse.wear, lighthouse.wear_capacity) == (3, 3)
    rapier = after.star("Mara").hero_props[0]
    assert (rapier.wear, rapier.xp) == (MARA.hero_props[0].wear + 1, MARA.hero_props[0].xp + 1)
    assert "4 Wear): 3 Wear on the Holding The Drowned Lighthouse, 1 Wear on Father's Rapier" in resolution.headline()


def test_a_holding_taking_all_the_wear_needs_no_hero_prop_and_earns_no_xp() -> None:
    resolution, after = suffer(
        holding_in_play(cast(), "EPIC"), "Mara", "wear", "HARD", holding="The Drowned Lighthouse"
    )
    assert resolution.effects == (HoldingWearMarked(holding="The Drowned Lighthouse", wear=4),)
    assert after.star("Mara") == cast().star("Mara")
    assert after.ensemble.holdings[0].wear_capacity == 6


def test_holding_wear_past_its_qualitys_boxes_is_lost_and_a_full_holding_is_refused() -> None:
    resolution, after = suffer(holding_in_play(cast()), "Mara", "wear", "FORMIDABLE", holding="The Drowned Lighthouse")
    assert resolution.effects == (HoldingWearMarked(holding="The Drowned Lighthouse", wear=3, overflow=2),)
    assert texts(resolution)[-1] == "2 Wear found no empty box on The Drowned Lighthouse and is lost"
    with pytest.raises(RuleViolation, match="The Drowned Lighthouse already has all 3 Wear marked"):
        suffer(after, "Mara", "wear", "EASY", holding="The Drowned Lighthouse")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "wear needs --hero-prop or --holding"),
        ({"holding_wear": 1, "hero_prop": "Father's Rapier"}, "--holding-wear needs --holding"),
        ({"holding": "The Drowned Lighthouse", "holding_wear": 2}, "2 of the 4 Wear is left for a Hero Prop"),
        (
            {"holding": "The Drowned Lighthouse", "holding_wear": 5, "hero_prop": "Father's Rapier"},
            "at most the 4 Wear",
        ),
        ({"holding": "The Drowned Lighthouse", "hero_prop": "Father's Rapier"}, "--hero-prop would take none"),
    ],
)
def test_a_wear_split_that_does_not_add_up_is_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleViolation, match=message):
        suffer(holding_in_play(cast()), "Mara", "wear", "HARD", **options)


def test_wear_on_a_holding_the_cast_does_not_hold_is_refused_with_the_names() -> None:
    with pytest.raises(UnknownName, match=r"no Holding 'The Moon' \(Holdings: The Drowned Lighthouse\)"):
        suffer(holding_in_play(cast()), "Mara", "wear", "EASY", holding="The Moon")


def test_a_holding_recorded_before_holdings_took_wear_dumps_as_it_did() -> None:
    assert Holding(name="Keep").model_dump(mode="json") == {"name": "Keep", "quality": "NORMAL", "kind": None}
    request = ConsequenceRequest(star="Mara", kind="wear", difficulty="EASY", hero_prop="Father's Rapier")
    assert "holding" not in request.model_dump(mode="json")


# ------------------------------------------------------------------ Depletion


def test_depletion_loses_props_of_the_type_named_and_gives_back_no_influence() -> None:
    resolution, after = suffer(cast(), "Tobias", "depletion", "EASY", prop=PropChoice.parse("Batteries:FORMIDABLE"))
    assert resolution.effects == (
        PropsSpent(star="Tobias Quell", type=PropType.BATTERIES, quality=Quality.FORMIDABLE, count=2),
    )
    assert not any(p.type is PropType.BATTERIES for p in after.star("Tobias").props)
    # Lost, not spent on-screen: a FORMIDABLE Prop regains no Grit (8.1C).
    assert not any(isinstance(e, Regained) for e in resolution.effects)
    assert grit(after, "Tobias") == grit(cast(), "Tobias")


def test_depletion_without_a_quality_takes_the_lowest_qualities_first() -> None:
    resolution, after = suffer(cast(), "Tobias", "depletion", "EPIC", prop=PropChoice.parse("materials"))
    assert resolution.effects == (
        PropsSpent(star="Tobias Quell", type=PropType.MATERIALS, quality=Quality.NORMAL, count=5),
        PropsSpent(star="Tobias Quell", type=PropType.MATERIALS, quality=Quality.HARD, count=1),
    )
    assert [p for p in after.star("Tobias").props if p.type is PropType.MATERIALS] == []
    assert after.star("Tobias").props == [
        Prop(type=PropType.BATTERIES, quality=Quality.FORMIDABLE, count=2),
        Prop(type=PropType.MONEY),
    ]


def test_depletion_with_fewer_props_held_loses_all_of_them_and_says_so() -> None:
    resolution, after = suffer(cast(), "Mara", "depletion", "HARD", prop=PropChoice.parse("Weapons:H"))
    assert resolution.effects == (PropsSpent(star="Mara Voss", type=PropType.WEAPONS, quality=Quality.HARD, count=1),)
    assert texts(resolution)[1:] == [
        "lost 1 HARD Weapons (1 → 0)",
        "Mara Voss held only 1 HARD Weapons: all of them are lost, 3 short of 4",
    ]


def test_depletion_of_a_prop_the_star_does_not_hold_loses_nothing_and_says_so() -> None:
    resolution, after = suffer(cast(), "Mara", "depletion", "HARD", prop=PropChoice.parse("Ammo"))
    assert resolution.effects == ()
    assert after.star("Mara") == MARA
    assert texts(resolution)[-1] == "Mara Voss holds no Ammo Props: nothing to lose"
    assert resolution.headline() == "Mara Voss suffered Depletion at HARD (4 Props): nothing lost"


@pytest.mark.parametrize(
    ("text", "message"),
    [("Lasers", "unknown Prop Type 'Lasers'"), ("Ammo:Z", "unknown Quality 'Z'"), ("Ammo:", "names no Quality")],
)
def test_an_unknown_prop_type_or_quality_is_refused(text: str, message: str) -> None:
    with pytest.raises(UnknownName, match=message):
        PropChoice.parse(text)


# ------------------------------------------------------------------ Mark Limit


def test_limit_is_marked_with_one_anomaly_each() -> None:
    star = TOBIAS.model_copy(update={"limit": LimitTrack(marked=2, max=10)})
    resolution, after = suffer(cast(star), "Tobias", "limit", "HARD", {"anomaly": [1, 50, 99, 100]})
    assert resolution.effects == (LimitMarked(star="Tobias Quell", marked=4, overflow=0, anomalies=(1, 50, 99, 100)),)
    assert after.star("Tobias").limit == LimitTrack(marked=6, max=10)
    assert [(r.purpose, r.sides) for r in resolution.rolls] == [("anomaly", 100)]


def test_limit_past_the_track_overflows_as_a_limit_break() -> None:
    resolution, after = suffer(cast(), "Tobias", "limit", "EASY", {"anomaly": [7, 8]})
    assert resolution.effects == (LimitMarked(star="Tobias Quell", marked=1, overflow=1, anomalies=(7, 8)),)
    assert after.star("Tobias").limit == LimitTrack(marked=3, max=3)
    assert (
        texts(resolution)[-1]
        == "LIMIT BREAK: 1 Limit overflowed the track (an Internal Overload and a Major Anomaly, Appendix D)"
    )
    # A full track: everything overflows.
    resolution, after = suffer(after, "Tobias", "limit", "EASY", {"anomaly": [7, 8]})
    assert resolution.effects[0].overflow == 2 and after.star("Tobias").limit == LimitTrack(marked=3, max=3)


def test_anomaly_faces_must_be_d100_faces() -> None:
    with pytest.raises(InvalidDice, match="anomaly die 101 is not a d100 face"):
        suffer(cast(), "Tobias", "limit", "EASY", {"anomaly": [7, 101]})


# ------------------------------------------------------------------ what every kind shares


ALL_KINDS = [
    ("grit-loss", {"scar_slot": [9]}, {"ability": "fight"}),
    ("conditions", NO_DICE, {"ability": "fight"}),
    ("wear", NO_DICE, {"hero_prop": "Father's Rapier"}),
    ("depletion", NO_DICE, {"prop": PropChoice.parse("Money")}),
    ("limit", {"anomaly": [1, 2, 3, 4]}, {}),
]


@pytest.mark.parametrize(("kind", "faces", "options"), ALL_KINDS, ids=[k[0] for k in ALL_KINDS])
def test_consequences_never_touch_the_directors_studio_notes(kind: str, faces, options) -> None:
    state = cast(studio_notes=3)
    resolution, after = suffer(state, "Mara", kind, "HARD", faces, **options)
    assert resolution.effects
    assert after.studio_notes == 3
    assert not any(isinstance(e, StudioNotesChanged) for e in resolution.effects)
    # Only Mara's sheet moved.
    assert after.star("Tobias") == TOBIAS and after.ensemble == state.ensemble


@pytest.mark.parametrize(
    ("kind", "given", "problem"),
    [
        ("conditions", {}, "conditions needs --ability: the Ability just rolled, where the Conditions are marked"),
        (
            "wear",
            {},
            "wear needs --hero-prop or --holding: the Hero Prop or the Holding in the Scene that takes the Wear",
        ),
        ("depletion", {}, "depletion needs --prop: the Prop Type (and Quality) lost"),
        ("limit", {"push": True}, "--push does not apply to limit (limit takes none of them)"),
        (
            "wear",
            {"hero_prop": "x", "ability": AbilityName.FIGHT},
            "--ability does not apply to wear (wear takes --hero-prop, --holding, --holding-wear)",
        ),
        (
            "grit-loss",
            {"prop": PropChoice.parse("Ammo")},
            "--prop does not apply to grit-loss (grit-loss takes --ability, --push)",
        ),
    ],
)
def test_each_kind_takes_its_own_options(kind: str, given: dict, problem: str) -> None:
    assert option_problem(ConsequenceKind(kind), given) == problem
    with pytest.raises(RuleViolation, match=problem.replace("(", r"\(").replace(")", r"\)")):
        suffer(cast(), "Mara", kind, "HARD", **given)


def test_an_unknown_star_is_refused() -> None:
    with pytest.raises(UnknownName, match="unknown Star 'Nobody'"):
        suffer(cast(), "Nobody", "limit", "HARD", {"anomaly": [1, 2, 3, 4]})


def test_a_consequence_that_rolls_uses_one_roll_number_and_one_that_does_not_uses_none() -> None:
    state = cast()
    rolled, after = suffer(state, "Mara", "grit-loss", "HARD", {"scar_slot": [9]}, ability="fight")
    assert after.dice_rolls == state.dice_rolls + 1
    quiet, after = suffer(after, "Mara", "conditions", "HARD", ability="fight")
    assert quiet.rolls == () and after.dice_rolls == state.dice_rolls + 1


def test_table_faces_a_consequence_does_not_use_are_refused() -> None:
    with pytest.raises(InvalidDice, match="1 scar_slot faces were given but the roll used 0"):
        suffer(cast(), "Mara", "grit-loss", "EASY", {"scar_slot": [3]}, ability="fight")


def test_replaying_the_recorded_rolls_decides_the_same() -> None:
    state = cast()
    request = ConsequenceRequest(star="Tobias", kind="grit-loss", difficulty="MYTHIC", ability="work")
    first = decide(state, request, TableDice({"scar_slot": [1, 2, 4, 1, 5, 6]}))
    again = decide(state, request, ReplayDice(first.rolls))
    assert again.judged() == first.judged() and again.steps == first.steps
    # The record survives its JSON round trip unchanged.
    assert ConsequenceResolution.model_validate_json(first.model_dump_json()) == first


def test_deferred_dice_are_built_only_when_a_die_is_rolled() -> None:
    built = []

    def make() -> TableDice:
        built.append(True)
        return TableDice({"scar_slot": [9]})

    decide(cast(), ConsequenceRequest(star="Mara", kind="grit-loss", difficulty="EASY"), DeferredDice("ledger", make))
    assert built == []
    resolution = decide(
        cast(),
        ConsequenceRequest(star="Mara", kind="grit-loss", difficulty="HARD", ability="fight"),
        DeferredDice("ledger", make),
    )
    assert built == [True] and resolution.rolls[0].faces == (9,)


def test_kinds_are_read_in_any_case_and_with_underscores() -> None:
    assert ConsequenceKind("Grit_Loss") is ConsequenceKind.GRIT_LOSS
    assert ConsequenceKind(" WEAR ") is ConsequenceKind.WEAR


# ------------------------------------------------------------------ on the ledger


@pytest.fixture
def campaign(ledger):
    from showrunner_ledger.domain.campaign import Pitch

    entry = ledger.create_campaign(Pitch(title="Neon Harbor"))
    ref = ledger.resolve(entry)
    ledger.add_character(ref, MARA)
    ledger.add_character(ref, TOBIAS)
    return ref


def test_ledger_dice_take_a_fresh_roll_number_each_time_on_each_backend(ledger, campaign) -> None:
    from showrunner_ledger.domain.showrunner.events import ConsequenceSuffered

    ref = campaign
    first = (
        ledger.run(ref, "consequence", {"star": "Tobias", "kind": "grit-loss", "difficulty": "HARD", "ability": "work"})
        .events[-1]
        .fact
    )
    quiet = (
        ledger.run(
            ref, "consequence", {"star": "Tobias", "kind": "conditions", "difficulty": "HARD", "ability": "work"}
        )
        .events[-1]
        .fact
    )
    second = ledger.run(ref, "consequence", {"star": "Tobias", "kind": "limit", "difficulty": "EASY"}).events[-1].fact
    assert isinstance(first, ConsequenceSuffered)
    state = ledger.view(ref).state
    assert (first.roll_number, quiet.roll_number, second.roll_number) == (1, None, 2)
    assert first.dice_commitment == second.dice_commitment == state.dice_commitment
    assert quiet.dice_commitment is None
    assert state.dice_rolls == 2
    assert first.resolution.rolls[0].source == "ledger"
    # The event applies exactly what was decided.
    assert state.star("Tobias").influence.plot_armor == Pool(current=2, max=3)
    assert state.star("Tobias").ability(AbilityName.WORK).conditions == 4


def test_a_consequence_that_rolls_nothing_needs_no_director_key(ledger, campaign) -> None:
    ref = campaign
    ledger.keys.path(ref.campaign.id).unlink()
    result = ledger.run(
        ref, "consequence", {"star": "Mara", "kind": "wear", "difficulty": "EASY", "hero_prop": "Father's Rapier"}
    )
    assert result.events[-1].fact.roll_number is None
    from showrunner_ledger.ledger.errors import LedgerError

    head = ledger.head(ref).version
    with pytest.raises(LedgerError, match="key file"):
        ledger.run(ref, "consequence", {"star": "Mara", "kind": "grit-loss", "difficulty": "HARD", "ability": "fight"})
    # ... unless the table rolls the Scar's slot.
    ledger.run(
        ref,
        "consequence",
        {"star": "Mara", "kind": "grit-loss", "difficulty": "HARD", "ability": "fight"},
        faces={"scar_slot": [9]},
    )
    assert ledger.head(ref).version == head + 1


def test_a_retried_command_lands_once(ledger, campaign) -> None:
    ref = campaign
    one = ledger.run(
        ref,
        "consequence",
        {"star": "Mara", "kind": "conditions", "difficulty": "HARD", "ability": "move"},
        command_id="c-1",
    )
    two = ledger.run(
        ref,
        "consequence",
        {"star": "Mara", "kind": "conditions", "difficulty": "HARD", "ability": "move"},
        command_id="c-1",
    )
    assert two.replayed and two.last_version == one.last_version
    assert ledger.view(ref).state.star("Mara").ability(AbilityName.MOVE).conditions == 5


def test_refused_consequences_write_nothing(ledger, campaign) -> None:
    ref = campaign
    head = ledger.head(ref)
    for call in (
        lambda: ledger.run(ref, "consequence", {"star": "Nobody", "kind": "limit", "difficulty": "HARD"}),
        lambda: ledger.run(
            ref, "consequence", {"star": "Mara", "kind": "wear", "difficulty": "HARD", "hero_prop": "Sword"}
        ),
        lambda: ledger.run(ref, "consequence", {"star": "Mara", "kind": "conditions", "difficulty": "HARD"}),
        lambda: ledger.run(
            ref, "consequence", {"star": "Mara", "kind": "grit-loss", "difficulty": "HARD"}
        ),  # Plot Armor: no --ability
        lambda: ledger.run(
            ref, "consequence", {"star": "Mara", "kind": "limit", "difficulty": "HARD"}, faces={"anomaly": [1]}
        ),
    ):
        with pytest.raises((RuleViolation, UnknownName, InvalidDice)):
            call()
    assert ledger.head(ref) == head


def test_specialty_filled_abilities_take_no_scar() -> None:
    """With ten Specialties under the Ability the Scar has nowhere to land, and no die is rolled."""
    slots = {n: Specialty(name=f"Trick {n}", rank=1) for n in range(1, 11)}
    work = TOBIAS.ability(AbilityName.WORK).model_copy(update={"slots": slots})
    star = TOBIAS.model_copy(update={"abilities": {**TOBIAS.abilities, AbilityName.WORK: work}})
    resolution, after = suffer(cast(star), "Tobias", "grit-loss", "HARD", ability="work")
    assert resolution.rolls == () and after.dice_rolls == 0
    assert texts(resolution)[-1] == "no slot is free of Specialties: the Plot Armor Scar has nowhere to land"
