"""What a check pays and costs once the Result Dice are kept (domain/showrunner/check.py `_rewards`).

Rules: 5.2 Hitting the Mark (Retake and 1 XP; Perfect Take adds a Spotlight and an Acclaim; a Bad
Take gives the Director a Studio Note), Doubles Results (Highlight clears a Condition, Disaster
marks one), the Channel Limit, 6.3 Regaining Influence (each trigger pays on its own, so they
stack; pools never exceed their maximum) and 10.3 Inspirational Overflow (the excess goes to the
Ensemble Pool up to its maximum, the rest is lost).
"""

from __future__ import annotations

import pytest

from showrunner_ledger.domain.dice import Roll, TableDice
from showrunner_ledger.domain.showrunner.check import (
    CheckRequest,
    Mark,
    Outcome,
    PropSpend,
    Resolution,
    apply_resolution,
    resolve,
)
from showrunner_ledger.domain.showrunner.effects import (
    AbilityMarked,
    AcclaimMarked,
    LimitMarked,
    PropsSpent,
    StudioNotesChanged,
)
from showrunner_ledger.domain.showrunner.influence import Regained
from showrunner_ledger.domain.showrunner.ladder import Quality
from showrunner_ledger.domain.showrunner.sheet import (
    AbilityName,
    CareerPath,
    LimitTrack,
    Pool,
    Prop,
    PropType,
    StarSheet,
)
from showrunner_ledger.domain.showrunner.state import EnsemblePool, ShowrunnerState
from tests.conftest import example_star

# Mara Voss: Fight base 2, 1★, Mastered (3 Action Dice); Move base 1, 0★, 1 Condition, "Footwork" +1.
# Grit 3/4, Retake 2/2, Spotlight 0/1. The Ensemble Pool starts at 1 of each, maximum 1.
MARA = example_star()
NAME = "Mara Voss"
FIGHT, MOVE, CHANNEL = AbilityName.FIGHT, AbilityName.MOVE, AbilityName.CHANNEL


def with_ability(sheet: StarSheet, name: AbilityName, **changes) -> StarSheet:
    changed = sheet.ability(name).model_copy(update=changes)
    return sheet.model_copy(update={"abilities": {**sheet.abilities, name: changed}})


def with_pool(sheet: StarSheet, pool: str, current: int, max: int) -> StarSheet:
    return sheet.model_copy(
        update={"influence": sheet.influence.model_copy(update={pool: Pool(current=current, max=max)})}
    )


def cast(sheet: StarSheet = MARA, ensemble: EnsemblePool | None = None) -> ShowrunnerState:
    state = ShowrunnerState().with_star(sheet)
    return state if ensemble is None else state.model_copy(update={"ensemble": ensemble})


def check(state: ShowrunnerState, faces: dict[str, list[int]], **fields) -> Resolution:
    dice = TableDice(faces)
    fields = {"star": "Mara", "ability": "fight", "difficulty": "NORMAL", **fields}
    resolution = resolve(state, CheckRequest(**fields), dice)
    dice.check_all_used()
    return resolution


def regained(pool: str, kept: int = 1, to_ensemble: int = 0, lost: int = 0) -> Regained:
    return Regained(
        star=NAME, pool=pool, amount=kept + to_ensemble + lost, kept=kept, to_ensemble=to_ensemble, lost=lost
    )


# ------------------------------------------------------------------ Hitting the Mark


def test_hitting_the_mark_pays_on_a_failure():
    """5.2: "Regardless of whether your action succeeds or fails": Retake, 1 XP, and Grit for a 1★ Ability."""
    state = cast(with_pool(MARA, "retake", 1, 2))
    r = check(state, {"action": [2, 1, 1], "script": [2, 5]})
    assert (r.kept, r.outcome, r.mark) == ((2, 1), Outcome.FAILURE, Mark.HIT)
    assert r.effects == (
        regained("retake"),
        AbilityMarked(star=NAME, ability=FIGHT, xp=1),
        regained("grit"),
    )
    after = apply_resolution(state, r).star(NAME)
    assert (after.influence.retake, after.influence.grit) == (Pool(current=2, max=2), Pool(current=4, max=4))
    assert after.ability(FIGHT).xp == 2
    assert apply_resolution(state, r).studio_notes == 0  # a Hit is not a Bad Take


def test_hitting_the_mark_with_a_0_star_ability_regains_no_grit_and_marks_xp_in_the_ability_rolled():
    state = cast(with_pool(MARA, "retake", 1, 2))
    r = check(state, {"action": [4, 1], "script": [4, 6]}, ability="move", specialties=("Footwork",))
    assert (r.outcome, r.mark) == (Outcome.PARTIAL, Mark.HIT)
    assert r.effects == (regained("retake"), AbilityMarked(star=NAME, ability=MOVE, xp=1))


def test_a_perfect_take_with_a_3_star_ability_regains_two_spotlight():
    """6.3: "You hit a Perfect Take" and "Hit the Mark using an Ability at 3★" each regain 1 Spotlight."""
    sheet = with_pool(with_pool(with_ability(MARA, FIGHT, stars=3), "spotlight", 0, 3), "retake", 1, 2)
    r = check(cast(sheet), {"action": [5, 4, 1], "script": [4, 5]})
    assert (r.kept, r.outcome, r.mark) == ((5, 4), Outcome.SUCCESS, Mark.PERFECT_TAKE)
    assert r.effects == (
        regained("retake"),
        AbilityMarked(star=NAME, ability=FIGHT, xp=1),
        regained("grit"),
        regained("spotlight"),
        regained("spotlight"),
        AcclaimMarked(star=NAME, path=CareerPath.TRAINING),
    )
    assert apply_resolution(cast(sheet), r).star(NAME).influence.spotlight == Pool(current=2, max=3)


def test_a_perfect_take_marks_acclaim_on_the_path_the_star_names():
    r = check(cast(), {"action": [5, 4, 1], "script": [4, 5]}, acclaim_path="destiny")
    assert r.effects[-1] == AcclaimMarked(star=NAME, path=CareerPath.DESTINY, amount=1)
    assert apply_resolution(cast(), r).star(NAME).acclaim == {
        CareerPath.TRAINING: 2,
        CareerPath.PERSISTENCE: 0,
        CareerPath.TALENT: 1,
        CareerPath.DESTINY: 1,
    }


def test_a_perfect_take_on_a_disaster_pays_and_costs_both():
    r = check(cast(), {"action": [1, 1, 6], "script": [1, 1]}, keep=(1, 1))
    assert (r.outcome, r.mark, r.consequences_due) == (Outcome.DISASTER, Mark.PERFECT_TAKE, 2)
    assert r.effects == (
        regained("retake", kept=0, lost=1),  # Retake 2/2 and the Ensemble's Retake 1/1: nowhere to go
        AbilityMarked(star=NAME, ability=FIGHT, xp=1),
        regained("grit"),
        regained("spotlight"),
        AcclaimMarked(star=NAME, path=CareerPath.TRAINING),
        AbilityMarked(star=NAME, ability=FIGHT, conditions=1),
    )


def test_a_bad_take_gives_the_director_a_studio_note():
    r = check(cast(), {"action": [6, 5, 4], "script": [1, 2]})
    assert (r.outcome, r.mark) == (Outcome.SUCCESS, Mark.BAD_TAKE)
    assert r.effects == (StudioNotesChanged(amount=1),)
    assert apply_resolution(cast(), r).studio_notes == 1


# ------------------------------------------------------------------ pools and the Ensemble


def test_a_full_pool_overflows_to_the_ensemble_up_to_its_maximum():
    ensemble = EnsemblePool(retake=0)
    r = check(cast(ensemble=ensemble), {"action": [4, 2, 1], "script": [4, 6]})
    assert r.effects[0] == regained("retake", kept=0, to_ensemble=1)
    after = apply_resolution(cast(ensemble=ensemble), r)
    assert after.star(NAME).influence.retake == Pool(current=2, max=2)
    assert (after.ensemble.retake, after.ensemble.retake_max) == (1, 1)


def test_what_the_ensemble_cannot_hold_is_lost():
    r = check(cast(), {"action": [4, 2, 1], "script": [4, 6]})
    assert r.effects[0] == regained("retake", kept=0, lost=1)
    after = apply_resolution(cast(), r)
    assert (after.star(NAME).influence.retake, after.ensemble.retake) == (Pool(current=2, max=2), 1)


def test_a_quality_prop_regain_overflows_like_any_other():
    sheet = with_pool(MARA, "grit", 4, 4).model_copy(
        update={"props": [Prop(type=PropType.ARMOR, quality=Quality.FORMIDABLE, count=1)]}
    )
    ensemble = EnsemblePool(grit=0)
    r = check(
        cast(sheet, ensemble), {"action": [6, 5, 4, 3], "script": [1, 1]}, props=(PropSpend(type="armor", quality="F"),)
    )
    assert r.effects[:2] == (
        PropsSpent(star=NAME, type=PropType.ARMOR, quality=Quality.FORMIDABLE, count=1),
        regained("grit", kept=0, to_ensemble=1),
    )


# ------------------------------------------------------------------ Doubles


def test_a_highlight_clears_one_condition_in_the_ability_rolled():
    r = check(cast(), {"action": [5, 5], "script": [1, 1]}, ability="move", specialties=("Footwork",))
    assert r.outcome is Outcome.HIGHLIGHT
    assert r.effects == (StudioNotesChanged(amount=1), AbilityMarked(star=NAME, ability=MOVE, conditions=-1))
    assert apply_resolution(cast(), r).star(NAME).ability(MOVE).conditions == 0


def test_a_highlight_with_no_condition_to_clear_clears_nothing():
    r = check(cast(), {"action": [5, 5, 1], "script": [5, 2]})
    assert (r.kept, r.outcome, r.mark) == ((5, 5), Outcome.HIGHLIGHT, Mark.HIT)
    assert not any(isinstance(e, AbilityMarked) and e.conditions for e in r.effects)


def test_a_disaster_marks_one_condition_in_the_ability_rolled():
    r = check(cast(), {"action": [1, 1, 2], "opposition": [2], "script": [6, 6]}, opposition=1)
    assert (r.kept, r.outcome) == ((1, 1), Outcome.DISASTER)
    assert r.effects == (StudioNotesChanged(amount=1), AbilityMarked(star=NAME, ability=FIGHT, conditions=1))
    assert apply_resolution(cast(), r).star(NAME).ability(FIGHT).conditions == 1


# ------------------------------------------------------------------ the Channel Limit


CHANNELER = with_pool(with_ability(MARA, CHANNEL, base_dice=2), "retake", 1, 2).model_copy(
    update={"limit": LimitTrack(marked=0, max=3)}
)


def test_channel_hitting_the_mark_marks_one_limit_and_rolls_one_anomaly():
    r = check(cast(CHANNELER), {"action": [4, 1], "script": [4, 6], "anomaly": [57]}, ability="channel")
    assert r.mark is Mark.HIT
    assert r.effects == (
        regained("retake"),
        AbilityMarked(star=NAME, ability=CHANNEL, xp=1),
        LimitMarked(star=NAME, marked=1, overflow=0, anomalies=(57,)),
    )
    assert r.rolls[-1] == Roll(purpose="anomaly", sides=100, faces=(57,), source="table")
    assert apply_resolution(cast(CHANNELER), r).star(NAME).limit == LimitTrack(marked=1, max=3)


def test_channel_perfect_take_marks_two_limit_and_rolls_two_anomalies():
    r = check(cast(CHANNELER), {"action": [4, 6], "script": [6, 4], "anomaly": [12, 100]}, ability="channel")
    assert r.mark is Mark.PERFECT_TAKE
    assert r.effects[-1] == LimitMarked(star=NAME, marked=2, overflow=0, anomalies=(12, 100))


def test_channel_limit_past_the_track_is_recorded_as_overflow():
    sheet = CHANNELER.model_copy(update={"limit": LimitTrack(marked=2, max=3)})
    r = check(cast(sheet), {"action": [4, 6], "script": [6, 4], "anomaly": [3, 4]}, ability="channel")
    assert r.effects[-1] == LimitMarked(star=NAME, marked=1, overflow=1, anomalies=(3, 4))
    assert apply_resolution(cast(sheet), r).star(NAME).limit == LimitTrack(marked=3, max=3)


def test_channel_bad_take_marks_no_limit_and_rolls_no_anomaly():
    r = check(cast(CHANNELER), {"action": [4, 1], "script": [5, 6]}, ability="channel")
    assert r.mark is Mark.BAD_TAKE
    assert not any(isinstance(e, LimitMarked) for e in r.effects)
    assert [roll.purpose for roll in r.rolls] == ["action", "script"]


@pytest.mark.parametrize(
    ("ability", "action", "specialties"), [("fight", [4, 1, 1], ()), ("move", [4, 1], ("Footwork",))]
)
def test_only_a_channel_check_marks_limit(ability, action, specialties):
    r = check(cast(), {"action": action, "script": [4, 6]}, ability=ability, specialties=specialties, keep=(4, 1))
    assert r.mark is Mark.HIT
    assert not any(isinstance(e, LimitMarked) for e in r.effects)
