"""The Ensemble (domain/showrunner/ensemble.py).

Rules: 10.3A (the shared pool: proximity, consent, Inspirational Overflow, Montage refresh,
Major Milestones), 10.3B (the Ensemble Backpack), 10.3C (Holdings), 10.3D (Ensemble XP and
Levels), 4.2 (the Home Base).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showrunner_ledger.domain.errors import RuleViolation, UnknownName
from showrunner_ledger.domain.showrunner import ensemble as en
from showrunner_ledger.domain.showrunner.influence import apply_regain, decide_regain
from showrunner_ledger.domain.showrunner.ladder import Quality
from showrunner_ledger.domain.showrunner.sheet import CareerPath, Holding, Prop, PropType, StarSheet
from showrunner_ledger.domain.showrunner.state import EnsemblePool, ShowrunnerState

POOLS = ("grit", "retake", "spotlight", "plot_armor", "preparation")


def star(name: str, **fields) -> StarSheet:
    influence = {p: {"current": 1, "max": 2} for p in POOLS}
    return StarSheet.model_validate({"name": name, "influence": influence} | fields)


def cast_of(*names: str, **ensemble) -> ShowrunnerState:
    state = ShowrunnerState(ensemble=EnsemblePool(**ensemble))
    for name in names:
        state = state.with_star(star(name))
    return state


def test_the_ensemble_starts_at_level_1_with_one_of_each_and_one_backpack_and_holding_slot():
    """10.3A: "starts with 1 of each Influence type"; 10.3B: "1 unlocked slot at Level 1"; 10.3C:
    "1 unlocked Holding Slot"."""
    ensemble = EnsemblePool()
    assert (ensemble.level, ensemble.xp, ensemble.grit, ensemble.grit_max) == (1, 0, 1, 1)
    assert en.ensemble_backpack_slots(ensemble) == 1 and en.holding_slots(ensemble) == 1


def test_an_old_ensemble_dumps_exactly_as_before():
    """New Ensemble fields are left out of a dump at their defaults (states hash the same)."""
    assert set(EnsemblePool().model_dump()) == {f"{p}{s}" for p in POOLS for s in ("", "_max")}
    assert "level" in EnsemblePool(level=2).model_dump()


def test_spending_from_the_shared_pool_with_proximity_and_consent():
    """10.3A.1: with at least half of the other Cast members, and at least half the Cast agreeing."""
    state = cast_of("Ada", "Bo", "Cy", "Di", grit=1)
    spent = en.spend_from_ensemble(state, "Ada", "grit", 1, present_with=["Bo", "cy"], consent=["Ada", "Di"])
    assert spent.state.ensemble.grit == 0 and spent.present_with == ("Bo", "Cy") and spent.consent == ("Ada", "Di")


def test_a_spend_without_consent_recorded_is_refused():
    state = cast_of("Ada", "Bo", "Cy")
    with pytest.raises(RuleViolation, match="needs the Cast's consent: name at least 2"):
        en.spend_from_ensemble(state, "Ada", "grit", 1, present_with=["Bo"], consent=[])
    with pytest.raises(RuleViolation, match="at least half the Cast \\(2 of 3\\) must agree; 1 did"):
        en.spend_from_ensemble(state, "Ada", "grit", 1, present_with=["Bo"], consent=["Bo"])


def test_a_spend_away_from_the_cast_is_refused():
    state = cast_of("Ada", "Bo", "Cy", "Di")
    with pytest.raises(RuleViolation, match="at least half of the other Cast members \\(2 of 3\\); named 1"):
        en.spend_from_ensemble(state, "Ada", "grit", 1, present_with=["Bo"], consent=["Bo", "Cy"])
    with pytest.raises(RuleViolation, match="Ada is the Star spending"):
        en.spend_from_ensemble(state, "Ada", "grit", 1, present_with=["Ada", "Bo"], consent=["Bo", "Cy"])
    with pytest.raises(UnknownName, match="'Zed' is not in the Cast"):
        en.spend_from_ensemble(state, "Ada", "grit", 1, present_with=["Zed"], consent=["Bo", "Cy"])


def test_the_shared_pool_cannot_be_pushed():
    state = cast_of("Ada", grit=0)
    with pytest.raises(RuleViolation, match="holds 0 Grit and cannot pay 1"):
        en.spend_from_ensemble(state, "Ada", "grit", 1, present_with=[], consent=["Ada"])


def test_a_solo_star_consents_for_the_cast_of_one():
    state = cast_of("Ada")
    assert (
        en.spend_from_ensemble(state, "Ada", "retake", 1, present_with=[], consent=["Ada"]).state.ensemble.retake == 0
    )


def test_inspirational_overflow_fills_the_shared_pool_up_to_its_maximum():
    """10.3A.2: excess Influence goes to the shared pool "up to its maximum" (influence.decide_regain)."""
    state = cast_of("Ada", retake=0)
    state = state.with_star(
        star("Ada").model_copy(
            update={
                "influence": star("Ada").influence.model_copy(
                    update={"retake": star("Ada").influence.retake.model_copy(update={"current": 2})}
                )
            }
        )
    )
    regained = decide_regain(state, "Ada", "retake", 3)
    assert (regained.kept, regained.to_ensemble, regained.lost) == (0, 1, 2)
    assert apply_regain(state, regained).ensemble.retake == 1


def test_a_montage_refresh_adds_to_the_shared_pool_up_to_its_maximum():
    ensemble, kept = en.refresh(EnsemblePool(grit=0, grit_max=2), "grit", 5)
    assert kept == 2 and ensemble.grit == 2


def test_major_milestones_grow_the_matching_shared_tracks():
    """10.3A.3: Training → Retake; Persistence → Grit and Preparation; Talent → Spotlight; Destiny → Plot Armor;
    each maximum +1 and the pool gains 1."""
    grown = en.grow_for_major_milestone(EnsemblePool(), CareerPath.PERSISTENCE)
    assert (grown.grit, grown.grit_max, grown.preparation, grown.preparation_max) == (2, 2, 2, 2)
    grown = en.grow_for_major_milestone(EnsemblePool(), CareerPath.DESTINY)
    assert (grown.plot_armor, grown.plot_armor_max, grown.grit_max) == (2, 2, 1)


def test_props_go_into_the_ensemble_backpack_any_time_and_come_out_only_during_a_montage():
    """10.3B Access: "only access, swap in/out, and spend Props … during a Montage Sequence. They may
    add Props to it at any time"."""
    state = cast_of("Ada").with_star(star("Ada", props=[{"type": "Rations", "count": 3}]))
    state = en.add_to_ensemble_backpack(state, "Ada", PropType.RATIONS, Quality.NORMAL, 2)
    assert state.ensemble.backpack == (Prop(type=PropType.RATIONS, count=2),)
    assert state.star("Ada").props == [Prop(type=PropType.RATIONS, count=1)]
    with pytest.raises(RuleViolation, match="only during a Montage"):
        en.take_from_ensemble_backpack(state, "Ada", PropType.RATIONS, Quality.NORMAL, 1, during_montage=False)
    state = en.take_from_ensemble_backpack(state, "Ada", PropType.RATIONS, Quality.NORMAL, 1, during_montage=True)
    assert state.ensemble.backpack == (Prop(type=PropType.RATIONS, count=1),)


def test_the_ensemble_backpack_holds_five_of_each_quality_of_one_type_per_slot():
    """10.3B Capacity: "1 unlocked slot … up to 5 of each Quality of one chosen Prop Type"."""
    state = cast_of("Ada").with_star(
        star(
            "Ada",
            props=[{"type": "Rations", "count": 5}, {"type": "Money", "count": 5}],
            in_hand=[{"type": "Rations", "count": 1}],
        )
    )
    with pytest.raises(RuleViolation, match="room for 5 NORMAL Rations, not 6"):
        en.add_to_ensemble_backpack(state, "Ada", PropType.RATIONS, Quality.NORMAL, 6)
    state = en.add_to_ensemble_backpack(state, "Ada", PropType.RATIONS, Quality.NORMAL, 5)
    with pytest.raises(RuleViolation, match="room for 0 NORMAL Money"):
        en.add_to_ensemble_backpack(state, "Ada", PropType.MONEY, Quality.NORMAL, 1)


def test_holdings_fill_their_slots():
    """10.3C: 1 Holding Slot at the start (the Home Base, 4.2), one more at Levels 2, 4, 6 and 8."""
    home = en.add_holding(EnsemblePool(), Holding(name="The Rusty Anchor", kind="Community"))
    with pytest.raises(RuleViolation, match="all 1 Holding Slots are full"):
        en.add_holding(home, Holding(name="A Ship"))
    assert [en.holding_slots(EnsemblePool(level=n)) for n in range(1, 9)] == [1, 2, 2, 3, 3, 4, 4, 5]
    with pytest.raises(RuleViolation, match="already holds"):
        en.add_holding(home.model_copy(update={"level": 2}), Holding(name="the rusty anchor"))


def test_each_yes_is_one_ensemble_xp():
    """10.3D: "For each the Director and Cast agree the answer is Yes … 1 Ensemble XP"."""
    grown = en.episode_end(EnsemblePool(), entertaining=True, premise=False)
    assert (grown.xp, grown.ensemble.xp, grown.levels) == (1, 1, ())


def test_reaching_a_level_unlocks_a_benefit_a_backpack_slot_and_at_even_levels_a_holding_slot():
    """10.3D Ensemble Evolution: mark the Level, clear the XP, 1 Benefit, 1 Backpack Slot, a Holding
    Slot at even Levels."""
    with pytest.raises(RuleViolation, match="reaches Level 2: name 1 Ensemble Benefit"):
        en.episode_end(EnsemblePool(xp=2), entertaining=True, premise=True)
    grown = en.episode_end(EnsemblePool(xp=2), entertaining=True, premise=True, benefits=["Shared Wardrobe"])
    ensemble = grown.ensemble
    assert (grown.levels, ensemble.level, ensemble.xp, ensemble.benefits) == ((2,), 2, 1, ("Shared Wardrobe",))
    assert en.ensemble_backpack_slots(ensemble) == 2 and en.holding_slots(ensemble) == 2
    with pytest.raises(RuleViolation, match="no new Ensemble Level"):
        en.episode_end(EnsemblePool(), entertaining=True, premise=False, benefits=["X"])


def test_xp_past_the_last_level_is_not_marked():
    top = en.episode_end(EnsemblePool(level=en.MAX_ENSEMBLE_LEVEL), entertaining=True, premise=True)
    assert top.ensemble.level == en.MAX_ENSEMBLE_LEVEL and top.ensemble.xp == 0


@given(st.lists(st.tuples(st.booleans(), st.booleans()), max_size=30))
def test_ensemble_levels_follow_the_xp_gained(answers):
    """Invariant: below the last Level, (Level − 1) × XP per Level + XP = the Yes answers so far."""
    ensemble = EnsemblePool()
    yeses = 0
    for entertaining, premise in answers:
        before = ensemble.level
        reach = 0
        probe, track = ensemble.level, ensemble.xp
        for _ in range(int(entertaining) + int(premise)):
            if probe < en.MAX_ENSEMBLE_LEVEL:
                track += 1
                if track >= en.ENSEMBLE_XP_PER_LEVEL:
                    probe, track, reach = probe + 1, 0, reach + 1
        ensemble = en.episode_end(
            ensemble, entertaining=entertaining, premise=premise, benefits=[f"B{n}" for n in range(reach)]
        ).ensemble
        yeses += int(entertaining) + int(premise)
        assert ensemble.level >= before and len(ensemble.benefits) == ensemble.level - 1
        if ensemble.level < en.MAX_ENSEMBLE_LEVEL:
            assert (ensemble.level - 1) * en.ENSEMBLE_XP_PER_LEVEL + ensemble.xp == yeses
