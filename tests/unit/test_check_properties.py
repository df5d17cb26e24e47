"""Properties of the check resolver that must hold for every roll, not just the worked examples.

- Blocking (5.2): each Opposition Die cancels at most one Action Die, and only one showing its face;
  it cancels whenever it can.
- Outcome, mark and the default keep agree with definitions written straight from the text
  (5.2 Results, Doubles, Hitting the Mark; RULES-NOTES "Checks").
- Any resolved check, random sheet, random spends before and after the roll, re-judges to the very
  same Resolution from its recorded rolls (what an audit does).
- After any check every pool is within 0..max, the Ensemble within its maximum, Limit and Wear
  within their tracks.
- The state a check worked on (handed on to what the command decides next) is the state its
  recorded effects give when applied again, and the CheckRolled applied to the state before.
- Every step a check tells is the very step validating its values makes.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, permutations

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from showrunner_ledger.domain.dice import ReplayDice, Source
from showrunner_ledger.domain.errors import RuleViolation
from showrunner_ledger.domain.showrunner.check import (
    AfterRoll,
    CheckRequest,
    Mark,
    Outcome,
    PropSpend,
    View,
    apply_resolution,
    best_pair,
    block,
    hit_the_mark,
    judge,
    resolve,
    resolved,
)
from showrunner_ledger.domain.showrunner.effects import Step, apply_effects
from showrunner_ledger.domain.showrunner.events import CheckRolled
from showrunner_ledger.domain.showrunner.influence import POOLS
from showrunner_ledger.domain.showrunner.ladder import Difficulty, Quality
from showrunner_ledger.domain.showrunner.sheet import (
    AbilityName,
    LimitTrack,
    Mastery,
    Pool,
    Prop,
    PropType,
    Scar,
    Specialty,
    StarSheet,
)
from showrunner_ledger.domain.showrunner.state import EnsemblePool, ShowrunnerState
from tests.conftest import example_star

MARA = example_star()
FACES = st.integers(min_value=1, max_value=6)
TARGETS = st.sampled_from([2, 3, 4, 5, 6])


# ------------------------------------------------------------------ blocking


@given(st.lists(FACES, max_size=12), st.lists(FACES, max_size=12))
def test_blocking_cancels_one_action_die_per_opposition_die_of_the_same_face(action, opposition):
    blocked, remaining = block(action, opposition)
    assert Counter(blocked) + Counter(remaining) == Counter(action)  # nothing invented, nothing lost
    assert len(blocked) <= len(opposition)
    for face in range(1, 7):
        # never more than the Opposition Dice showing that face, and always as many as can be
        assert Counter(blocked)[face] == min(Counter(action)[face], Counter(opposition)[face])


# ------------------------------------------------------------------ outcome, mark and keep by definition


def outcome_by_definition(kept: tuple[int, int], target: int) -> Outcome:
    a, b = (face >= target for face in kept)
    doubles = kept[0] == kept[1]
    if a and b:
        return Outcome.HIGHLIGHT if doubles else Outcome.SUCCESS  # ✓✓ both meet and match
    if a != b:
        return Outcome.PARTIAL  # only one meets
    return Outcome.DISASTER if doubles else Outcome.FAILURE  # neither, matching or not


def mark_by_definition(kept: tuple[int, int], script: tuple[int, int]) -> Mark:
    """Try both ways of pairing Result Dice with Script Dice; a 0 is no die and matches nothing."""
    best = max(sum(1 for r, s in zip(kept, order, strict=True) if r != 0 and r == s) for order in permutations(script))
    return [Mark.BAD_TAKE, Mark.HIT, Mark.PERFECT_TAKE][best]


RESULT = st.integers(min_value=0, max_value=6)


@given(RESULT, RESULT, TARGETS)
def test_judge_agrees_with_the_text(a, b, target):
    assert judge((a, b), target) is outcome_by_definition((a, b), target)


def test_zero_zero_is_a_disaster_at_every_target():
    assert {judge((0, 0), t) for t in (2, 3, 4, 5, 6)} == {Outcome.DISASTER}


@given(RESULT, RESULT, FACES, FACES)
def test_hit_the_mark_agrees_with_matching_one_to_one_in_any_order(a, b, s, t):
    assert hit_the_mark((a, b), (s, t)) is mark_by_definition((a, b), (s, t))


OUTCOME_ORDER = [Outcome.HIGHLIGHT, Outcome.SUCCESS, Outcome.PARTIAL, Outcome.FAILURE, Outcome.DISASTER]
MARK_ORDER = [Mark.PERFECT_TAKE, Mark.HIT, Mark.BAD_TAKE]


def rank(pair: tuple[int, int], script: tuple[int, int], target: int) -> tuple[int, int, int]:
    return (
        OUTCOME_ORDER.index(outcome_by_definition(pair, target)),
        MARK_ORDER.index(mark_by_definition(pair, script)),
        -(pair[0] + pair[1]),
    )


@given(st.lists(FACES, max_size=8), FACES, FACES, TARGETS)
def test_the_default_keep_is_a_best_pair_among_all_pairs(remaining, s, t, target):
    dice = remaining + [0] * max(0, 2 - len(remaining))
    every_pair = [(dice[i], dice[j]) for i, j in combinations(range(len(dice)), 2)]
    kept = best_pair(remaining, (s, t), target)
    assert not Counter(kept) - Counter(dice)  # two dice that are on the table
    assert rank(kept, (s, t), target) == min(rank(p, (s, t), target) for p in every_pair)


# ------------------------------------------------------------------ whole checks, random


class RandomDice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.source: Source = "ledger"

    def roll(self, purpose: str, count: int, sides: int = 6) -> list[int]:
        return [self.rng.randint(1, sides) for _ in range(count)]


class DrawnChooser:
    """A Star at a terminal whose choices hypothesis makes, always among what the table allows."""

    def __init__(self, data: st.DataObject, masteries: frozenset[Mastery]) -> None:
        self.data = data
        self.masteries = masteries
        self.spends = 0

    def choose(self, view: View):
        options = ["keep"]
        if self.spends < 3:
            if view.action:
                options.append("retake")
            if view.opposition:
                options.append("spotlight")
                if Mastery.RETAKE in self.masteries:
                    options.append("retake_opposition")
            if view.action and Mastery.GRIT in self.masteries:
                options.append("duplicate")
        kind = self.data.draw(st.sampled_from(options))
        if kind == "keep":
            dice = list(view.remaining) + [0] * max(0, 2 - len(view.remaining))
            i, j = self.data.draw(st.sampled_from(list(combinations(range(len(dice)), 2))))
            return (dice[i], dice[j])
        self.spends += 1
        if kind == "duplicate":
            return AfterRoll(kind="duplicate", faces=(self.data.draw(st.sampled_from(view.action)),))
        if kind == "spotlight":
            return AfterRoll(
                kind="spotlight", faces=tuple(self.data.draw(st.lists(st.sampled_from(view.opposition), max_size=2)))
            )
        pool = view.action if kind == "retake" else view.opposition
        chosen = self.data.draw(
            st.lists(st.sampled_from(range(len(pool))), min_size=1, max_size=len(pool), unique=True)
        )
        return AfterRoll(kind=kind, faces=tuple(pool[i] for i in chosen))


@st.composite
def pools(draw: st.DrawFn) -> Pool:
    maximum = draw(st.integers(min_value=0, max_value=5))
    return Pool(
        current=draw(st.integers(min_value=0, max_value=maximum)), max=maximum, exhausted=draw(st.integers(0, 2))
    )


@st.composite
def scenes(draw: st.DrawFn) -> tuple[ShowrunnerState, CheckRequest]:
    masteries = frozenset(draw(st.sets(st.sampled_from(list(Mastery)))))
    ability_name = draw(st.sampled_from([AbilityName.FIGHT, AbilityName.MOVE, AbilityName.CHANNEL, AbilityName.SENSE]))
    slots = {
        1: Specialty(name="Swords", rank=draw(st.integers(1, 5))),
        2: Scar(name="Broken Arm", penalty=draw(st.integers(1, 5))),
        **({4: Specialty(name="Feints", rank=1)} if draw(st.booleans()) else {}),
    }
    ability = MARA.ability(ability_name).model_copy(
        update={
            "base_dice": draw(st.integers(0, 3)),
            "stars": draw(st.integers(0, 3)),
            "mastered": draw(st.booleans()),
            "conditions": draw(st.integers(0, 3)),
            "slots": slots,
        }
    )
    limit_max = draw(st.integers(0, 4))
    wear_capacity = draw(st.integers(1, 4))
    sheet = MARA.model_copy(
        update={
            "abilities": {**MARA.abilities, ability_name: ability},
            "influence": MARA.influence.model_copy(update={p: draw(pools()) for p in POOLS}),
            "masteries": masteries,
            "limit": LimitTrack(marked=draw(st.integers(0, limit_max)), max=limit_max),
            "hero_props": [
                MARA.hero_props[0].model_copy(
                    update={
                        "wear": draw(st.integers(0, wear_capacity - 1)),
                        "wear_capacity": wear_capacity,
                        "milestones": draw(st.integers(0, 20)),
                    }
                )
            ],
            "props": [
                Prop(type=PropType.WEAPONS, quality=Quality.HARD, count=2),
                Prop(type=PropType.GEAR, quality=Quality.FORMIDABLE, count=1),
                Prop(type=PropType.MEDIA, quality=Quality.EPIC, count=1),
                Prop(type=PropType.MONEY, count=3),
            ],
        }
    )
    ensemble = {}
    for p in POOLS:
        maximum = draw(st.integers(0, 2))
        ensemble |= {p: draw(st.integers(0, maximum)), f"{p}_max": maximum}
    notes = draw(st.integers(0, 2))
    state = ShowrunnerState(studio_notes=notes, ensemble=EnsemblePool(**ensemble)).with_star(sheet)

    difficulty = draw(st.sampled_from([Difficulty.NORMAL, Difficulty.HARD, Difficulty.FORMIDABLE, Difficulty.EPIC]))
    props = draw(
        st.lists(
            st.sampled_from(
                [
                    PropSpend(type=PropType.WEAPONS, quality=Quality.HARD),
                    PropSpend(type=PropType.GEAR, quality=Quality.FORMIDABLE),
                    PropSpend(type=PropType.MEDIA, quality=Quality.EPIC),
                    PropSpend(type=PropType.MONEY),
                ]
            ),
            max_size=2,
            unique=True,
        )
    )
    spotlight_steps = draw(st.integers(0, difficulty.rank)) if Mastery.SPOTLIGHT in masteries else 0
    request = CheckRequest(
        star="Mara Voss",
        ability=ability_name,
        difficulty=difficulty,
        specialties=tuple(draw(st.sets(st.sampled_from([s.name for s in slots.values() if isinstance(s, Specialty)])))),
        scars=("Broken Arm",) if draw(st.booleans()) else (),
        opposition=draw(st.integers(0, 6)),
        actor_specialty=draw(st.booleans()),
        actor_scar=draw(st.booleans()),
        studio_note=notes > 0 and draw(st.booleans()),
        grit=draw(st.integers(0, 2)),
        props=tuple(props),
        preparation=draw(st.integers(0, 1)),
        plot_armor=draw(st.booleans()),
        hero_prop=draw(st.sampled_from([None, "Father's Rapier"])),
        spotlight_steps=spotlight_steps if not draw(st.booleans()) else 0,
        acclaim_path=draw(st.sampled_from(["training", "persistence", "talent", "destiny"])),
        push=True,
    )
    return state, request


def resolve_or_reject(state, request, dice, chooser=None):
    try:
        return resolve(state, request, dice, chooser)
    except RuleViolation:
        reject()  # a spend no pool (and no icon left to exhaust) can pay


SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)


@SETTINGS
@given(scenes(), st.randoms(use_true_random=False), st.booleans(), st.data())
def test_every_check_re_judges_to_the_same_resolution_from_its_recorded_rolls(scene, rng, interactive, data):
    state, request = scene
    chooser = DrawnChooser(data, state.star("Mara").masteries) if interactive else None
    resolution = resolve_or_reject(state, request, RandomDice(rng), chooser)
    replay = ReplayDice(resolution.rolls)
    again = resolve(state, resolution.request, replay)
    assert replay.left_over == 0
    assert again.judged() == resolution.judged()
    assert again == resolution


def within(pool: Pool) -> bool:
    return 0 <= pool.current <= pool.max


@SETTINGS
@given(scenes(), st.randoms(use_true_random=False), st.booleans(), st.data())
def test_pools_stay_within_0_and_their_maximum_after_any_check(scene, rng, interactive, data):
    state, request = scene
    chooser = DrawnChooser(data, state.star("Mara").masteries) if interactive else None
    resolution = resolve_or_reject(state, request, RandomDice(rng), chooser)
    after = apply_resolution(state, resolution)
    sheet = after.star("Mara")
    for p in POOLS:
        pool = getattr(sheet.influence, p)
        before = getattr(state.star("Mara").influence, p)
        assert within(pool), (p, pool)
        assert pool.max + pool.exhausted == before.max + before.exhausted  # the printed track never changes length
        assert 0 <= getattr(after.ensemble, p) <= getattr(after.ensemble, f"{p}_max"), p
    assert 0 <= sheet.limit.marked <= sheet.limit.max
    assert all(0 <= prop.wear <= prop.wear_capacity for prop in sheet.hero_props)
    assert after.studio_notes >= 0
    assert after.dice_rolls == state.dice_rolls + 1
    StarSheet.model_validate(sheet.model_dump())  # the sheet's own validators agree


@SETTINGS
@given(scenes(), st.randoms(use_true_random=False), st.booleans(), st.data())
def test_the_state_a_check_worked_on_is_its_effects_applied_again(scene, rng, interactive, data):
    state, request = scene
    chooser = DrawnChooser(data, state.star("Mara").masteries) if interactive else None
    try:
        resolution, worked_on = resolved(state, request, RandomDice(rng), chooser)
    except RuleViolation:
        reject()
    again = apply_effects(state, resolution.effects)
    assert worked_on == again
    assert worked_on.model_dump(mode="json") == again.model_dump(mode="json")
    assert worked_on.model_fields_set == again.model_fields_set
    fact = CheckRolled(resolution=resolution, roll_number=state.dice_rolls + 1 + rng.randrange(3))
    assert fact.apply_after_effects(worked_on) == fact.apply(state)


@SETTINGS
@given(scenes(), st.randoms(use_true_random=False), st.booleans(), st.data())
def test_every_step_a_check_tells_is_the_step_validation_makes(scene, rng, interactive, data):
    state, request = scene
    chooser = DrawnChooser(data, state.star("Mara").masteries) if interactive else None
    resolution = resolve_or_reject(state, request, RandomDice(rng), chooser)
    for step in resolution.steps:
        validated = Step(kind=step.kind, text=step.text, faces=step.faces)
        assert type(step) is Step
        assert step.__dict__ == validated.__dict__
        assert all(type(face) is int for face in step.faces)
        assert step.model_fields_set == validated.model_fields_set
        assert (step.__pydantic_extra__, step.__pydantic_private__) == (None, None)
        assert step.model_dump_json() == validated.model_dump_json()
