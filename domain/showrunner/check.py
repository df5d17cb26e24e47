"""Resolving a Showrunner Ability Check (Chapters 5, 6 and 8), step by step.

`resolve` takes the campaign state, what the table asked for, and a dice source, and
returns a `Resolution`: every die with its provenance, every step (rolled, spent,
re-rolled, removed, blocked, kept), the outcome, the mark, and the exact effects on
the sheets. Given the same inputs and the same faces it always returns the same
resolution, which is what lets an audit re-judge a recorded check.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Collection, Sequence
from enum import StrEnum
from itertools import combinations
from typing import Literal, NamedTuple, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from ..dice import DiceSource, Roll
from ..errors import RuleViolation, UnknownName
from ..field_equality import FieldsEqual
from ..inputs import Input, Many
from ..names import name_key
from ..ruleset import LeftTheTable
from ..text import Line
from .effects import (
    AbilityMarked,
    AcclaimMarked,
    AwardPowerUsed,
    ComboChanged,
    ComplicationCleared,
    Effect,
    LimitMarked,
    PropsSpent,
    RelationshipMarked,
    ScarMarked,
    Step,
    StudioNotesChanged,
    WearMarked,
    Working,
    apply_effects,
)
from .influence import LABELS, PoolName, regain_into, spend_from
from .ladder import Difficulty, Quality
from .sheet import Ability, AbilityName, Award, CareerPath, Mastery, PropType, Scar, Specialty, StarSheet
from .state import ShowrunnerState
from .table_files import TableName, rows_for

ENGINE = "showrunner-check/1"
"""Named in every recorded check; a rules change that alters outcomes gets a new version."""

# 8.1C: a Prop of HARD Quality or higher gives back Influence when spent in a Scene.
QUALITY_REGAIN: dict[Quality, PoolName] = {
    Quality.HARD: "retake",
    Quality.FORMIDABLE: "grit",
    Quality.EPIC: "spotlight",
}
PLOT_ARMOR_SCAR = "Plot Armor scar"


class Outcome(StrEnum):
    HIGHLIGHT = "highlight"
    SUCCESS = "success"
    PARTIAL = "partial"
    FAILURE = "failure"
    DISASTER = "disaster"

    @property
    def label(self) -> str:
        return {"partial": "Partial Success"}.get(self.value, self.value.title())

    @property
    def consequences(self) -> int:
        """How many Consequences the outcome calls for (5.2 Results)."""
        return {"partial": 1, "failure": 1, "disaster": 2}.get(self.value, 0)


class Mark(StrEnum):
    PERFECT_TAKE = "perfect_take"
    HIT = "hit"
    BAD_TAKE = "bad_take"
    NOT_ROLLED = "not_rolled"
    """A Hero Prop's Power succeeded on its own: no dice, so no mark to hit or miss."""

    @property
    def label(self) -> str:
        return {"perfect_take": "Perfect Take", "hit": "Hit the Mark", "bad_take": "Bad Take", "not_rolled": "no roll"}[
            self.value
        ]


_OUTCOME_ORDER = [Outcome.HIGHLIGHT, Outcome.SUCCESS, Outcome.PARTIAL, Outcome.FAILURE, Outcome.DISASTER]
_MARK_ORDER = [Mark.PERFECT_TAKE, Mark.HIT, Mark.BAD_TAKE]


class PropSpend(FieldsEqual):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    type: PropType
    quality: Quality = Quality.NORMAL


class AfterRoll(FieldsEqual):
    """One spend after the dice are down, in the order the Star made it."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: Literal["retake", "retake_opposition", "spotlight", "duplicate", "grit"]
    faces: tuple[int, ...] = ()
    """retake: Action faces to re-roll; retake_opposition: Opposition faces (Retake Mastery);
    spotlight: Opposition faces to clear first (the rest by the default policy);
    duplicate: the one Action face Grit Mastery copies; grit: no faces, 1 Grit for one
    more Action Die rolled now (6.1: Influence may be spent before or after the roll)."""


class Trade(FieldsEqual):
    """A Bond or Grudge exhausted for this check (10.2A): a Bond to Aid, a Grudge to Harm."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: Literal["bond", "grudge"]
    name: str
    """Who the relationship is with."""


class SequenceTradeUse(FieldsEqual):
    """A Bond or Grudge a Star traded for a whole Action Sequence (10.2A Action Sequences): each
    Beat the Star performs is rolled one step lower, or at EASY with Relationship Mastery. The
    ◇ was exhausted once, when the Trade was recorded; the Beat only rolls lower."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    label: str
    """What was traded, as the check's steps name it: "Bond with Captain Ilse"."""
    to_easy: bool = False


class CheckRequest(FieldsEqual, Input):
    """Everything the table declared for one check. Recorded as it was asked."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    star: str
    ability: AbilityName
    difficulty: Difficulty
    specialties: tuple[str, ...] = ()
    scars: tuple[str, ...] = ()
    """Scars under the Ability that the situation triggers."""
    opposition: Many = Field(default=0, ge=0)
    """Opposition Dice from the target: the pips on its Power Die at this Difficulty, or a count given."""
    opposition_source: Line = "given"
    actor_specialty: bool = False
    actor_scar: bool = False
    studio_note: bool = False
    grit: Many = Field(default=0, ge=0)
    props: tuple[PropSpend, ...] = ()
    preparation: Many = Field(default=0, ge=0)
    plot_armor: bool = False
    hero_prop: str | None = None
    power_alone: bool = False
    """The Hero Prop's Power does the task on its own: an automatic Success, no roll (8.2)."""
    spotlight_steps: Many = Field(default=0, ge=0)
    """With Spotlight Mastery: Spotlight spent to lower the Difficulty one step each."""
    after_roll: tuple[AfterRoll, ...] = ()
    keep: tuple[int, int] | None = None
    acclaim_path: CareerPath = CareerPath.TRAINING
    push: bool = False
    """The Star may Push Their Limits to pay any spend the pools cannot."""
    trade: Trade | None = None
    """A Bond or Grudge traded: its ◇ at the Difficulty is exhausted and the check rolled one step
    lower (10.2A); an Advance puts its Acclaim on acclaim_path. Left out of a dump when None, so
    checks recorded before it dump (and hash) as they did."""
    combo: str | None = None
    """The goal of the Action Sequence this check is a Beat of, when its gains enter the Combo
    Pool (7.2 Building the Pool). Set by the Beat, never asked; left out of a dump when None."""
    from_combo: bool = False
    """Pay this Beat's Influence spends from the Combo Pool, as from the Star's own Profile
    (7.2 Spending Synergy). Left out of a dump when False."""
    award: Literal["artisan", "luminary"] | None = None
    """An Award's power (11.2): the Artisan's automatic Success, declared before the roll; the
    Luminary's Highlight in place of a regular Success (used only if the check is one). Left
    out of a dump when None."""
    sequence_trade: SequenceTradeUse | None = None
    """The Bond or Grudge the rolling Star traded for the whole Sequence this check is a Beat
    of. Set by the Beat from the Sequence, never asked; left out of a dump when None."""

    @model_serializer(mode="wrap")
    def _leave_out_no_trade(self, handler: SerializerFunctionWrapHandler) -> object:
        data = handler(self)
        if isinstance(data, dict):
            for name, unset in (
                ("trade", None),
                ("combo", None),
                ("from_combo", False),
                ("award", None),
                ("sequence_trade", None),
            ):
                if getattr(self, name) == unset:
                    data.pop(name, None)
        return data


class Die(FieldsEqual):
    """Where some of the pool came from: '+2 from Specialty "Swords"'."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    source: str
    dice: int


class Resolution(FieldsEqual):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    engine: str = ENGINE
    request: CheckRequest
    star: str
    action_pool: tuple[Die, ...]
    opposition_pool: tuple[Die, ...]
    rolls: tuple[Roll, ...]
    steps: tuple[Step, ...]
    action: tuple[int, ...]
    opposition: tuple[int, ...]
    script: tuple[int, int]
    blocked: tuple[int, ...]
    remaining: tuple[int, ...]
    kept: tuple[int, int]
    original_difficulty: Difficulty
    effective_difficulty: Difficulty
    progress_difficulty: Difficulty
    """The Difficulty progress and Threat effects use: one higher on a Highlight."""
    outcome: Outcome
    mark: Mark
    consequences_due: int
    effects: tuple[Effect, ...]

    def judged(self) -> tuple[object, ...]:
        """What an audit compares: every decision of the check."""
        return (
            self.action,
            self.opposition,
            self.script,
            self.blocked,
            self.remaining,
            self.kept,
            self.effective_difficulty,
            self.outcome,
            self.mark,
            self.effects,
        )


class _Check(Working):
    """The working state of one resolution."""

    def __init__(self, state: ShowrunnerState, request: CheckRequest, dice: DiceSource) -> None:
        super().__init__(state, request.star, dice)
        self.request = request

    def spend(self, pool: PoolName, amount: int, why: str) -> None:
        if amount <= 0:
            return
        if self.request.from_combo:
            self._spend_combo(pool, amount, why)
            return
        spent = spend_from(self.sheet, pool, amount, push=self.request.push)
        self.emit(spent)
        pushed = f" ({spent.exhausted} by Pushing Their Limits)" if spent.exhausted else ""
        self.step("spent", f"spent {amount} {LABELS[pool]}{pushed}: {why}")

    def _spend_combo(self, pool: PoolName, amount: int, why: str) -> None:
        goal = self.request.combo
        if goal is None:
            raise RuleViolation("only a Beat of an Action Sequence spends from a Combo Pool: leave out --from-combo")
        held = self.state.world.sequence(goal).combo.get(pool, 0)
        if held < amount:
            raise RuleViolation(
                f"the Combo Pool of '{goal}' holds {held} {LABELS[pool]} and the Beat spends {amount}: "
                f"leave out --from-combo to pay from {self.name}'s own Profile"
            )
        self.emit(ComboChanged(goal=goal, pool=pool, amount=-amount))
        self.step("spent", f"spent {amount} {LABELS[pool]} from the Combo Pool of '{goal}': {why}")

    def regain(self, pool: PoolName, amount: int, why: str) -> None:
        goal = self.request.combo
        if goal is not None:
            self.emit(ComboChanged(goal=goal, pool=pool, amount=amount))
            self.step("rewarded", f"{amount} {LABELS[pool]} into the Combo Pool of '{goal}': {why}")
            return
        regained = regain_into(self.sheet, self.ensemble, pool, amount)
        self.emit(regained)
        extra = ""
        if regained.to_ensemble:
            extra += f", {regained.to_ensemble} to the Ensemble Pool"
        if regained.lost:
            extra += f", {regained.lost} lost"
        self.step("rewarded", f"regained {regained.kept} {LABELS[pool]}{extra}: {why}")

    def has_mastery(self, mastery: Mastery) -> bool:
        return mastery in self.sheet.masteries


class View(BaseModel):
    """What a Star sees between the roll and the choice of Result Dice."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, defer_build=True)

    action: tuple[int, ...]
    opposition: tuple[int, ...]
    script: tuple[int, int]
    remaining: tuple[int, ...]
    sheet: StarSheet
    effective: Difficulty


class Abandoned(LeftTheTable):
    """Raised by a Chooser when the Star walks away after seeing the dice.

    The dice were seen, so the roll still counts: `resolve` attaches what was rolled and
    what was already spent, for the ledger to record the abandoned check (spends and all)
    instead of letting it be rolled afresh.
    """

    def __init__(
        self, request: CheckRequest | None = None, rolls: tuple[Roll, ...] = (), effects: tuple[Effect, ...] = ()
    ) -> None:
        super().__init__("the check was abandoned after the roll")
        self.request = request
        self.rolls = rolls
        self.effects = effects


class Chooser(Protocol):
    """Asked after the roll: another spend, or the pair to keep."""

    def choose(self, view: View) -> AfterRoll | tuple[int, int]: ...


def resolve(
    state: ShowrunnerState, request: CheckRequest, dice: DiceSource, chooser: Chooser | None = None
) -> Resolution:
    return resolved(state, request, dice, chooser).resolution


class Resolved(NamedTuple):
    resolution: Resolution
    after: ShowrunnerState
    """The state once the resolution's effects are applied (as `apply_effects` applies them), not
    yet counting the roll."""


def resolved(
    state: ShowrunnerState, request: CheckRequest, dice: DiceSource, chooser: Chooser | None = None
) -> Resolved:
    """`resolve`, with the state the check worked on: a command deciding what follows the check
    starts from it instead of applying the effects again."""
    check = _Check(state, request, dice)
    resolution = _decide(check, chooser)
    return Resolved(resolution, check.state)


def _decide(check: _Check, chooser: Chooser | None) -> Resolution:
    request = check.request
    sheet = check.sheet
    if sheet.written_off:
        raise RuleViolation(f"{sheet.name} has been written off the Show and makes no more checks")
    original = request.difficulty
    if original is Difficulty.EASY:
        raise RuleViolation("a check's Difficulty is never set to EASY, only reduced to it (NORMAL is the lowest)")
    if original.rank > Difficulty.EPIC.rank:
        raise RuleViolation(
            f"a single Ability Check cannot be {original.value}: above EPIC it is a Set Piece "
            "and needs an Action Sequence"
        )
    pitch = check.state.pitch
    if pitch is not None and pitch.no_magic and request.ability is AbilityName.CHANNEL:
        raise RuleViolation(
            "this show's SFX Budget is No Magic: the Channel Ability does not exist and is never rolled"
        )
    if "burnout" in sheet.overloads and request.ability is AbilityName.CHANNEL:
        raise RuleViolation(
            f"{sheet.name} has Burnout (a Limit Break) and cannot attempt to Channel; forced by the narrative, "
            "it fails: record the Failure without a roll"
        )
    ability = sheet.ability(request.ability)
    label = request.ability.value.title()
    if request.sequence_trade is not None:
        effective = _sequence_trade(check, request.sequence_trade, original)
    else:
        effective = _trade(check, request.trade, original) if request.trade is not None else original

    # --- Action Dice (5.2.1), with where each came from.
    action_pool = [Die(source=f"base dice of {label}", dice=ability.base_dice)]
    for name in request.specialties:
        specialty = _slot(ability.slots.values(), Specialty, name, sheet.name, label)
        action_pool.append(Die(source=f'Specialty "{specialty.name}" +{specialty.rank}', dice=specialty.rank))
    if ability.mastered:
        action_pool.append(Die(source=f"{label} Mastery ⇧", dice=1))

    # --- Spends before the roll.
    if request.grit:
        check.spend("grit", request.grit, f"+{request.grit} Action Dice")
        action_pool.append(Die(source="Grit spent", dice=request.grit))
    if request.preparation:
        check.spend("preparation", request.preparation, "a NORMAL Prop produced and spent")
        action_pool.append(Die(source="Preparation (a NORMAL Prop)", dice=request.preparation))
    for prop, count in _count(request.props):
        _spend_props(check, prop, count)
        action_pool.append(Die(source=f"{prop.quality.value} {prop.type.value} Prop spent", dice=count))
    if request.power_alone and request.hero_prop is None:
        raise RuleViolation("a Power succeeds on its own only through a Hero Prop: name it with --hero-prop")
    if request.hero_prop is not None:
        effective = _use_hero_prop(check, request.hero_prop, original, effective, action_pool)
        if request.power_alone:
            return _power_alone(check, original, effective, action_pool)
    if request.award == "artisan":
        _use_award(check, Award.ARTISAN, "the Artisan's Award: an automatic Success, declared before the roll")
        return _power_alone(check, original, effective, action_pool, award=True)
    if request.spotlight_steps:
        if not check.has_mastery(Mastery.SPOTLIGHT):
            raise RuleViolation(f"{sheet.name} needs Spotlight Mastery to lower a Difficulty with Spotlight")
        if request.spotlight_steps > effective.rank:
            raise RuleViolation(
                f"{effective.value} is {effective.rank} step{'s' if effective.rank != 1 else ''} above EASY: "
                f"Spotlight cannot lower a Difficulty below EASY ({request.spotlight_steps} asked)"
            )
        check.spend("spotlight", request.spotlight_steps, "Spotlight Mastery lowers the Difficulty")
        effective = effective.step(-request.spotlight_steps)
        check.step("spent", f"Difficulty lowered to {effective.value}")
    if request.plot_armor:
        check.spend("plot_armor", 1, "Plot Armor: the task becomes EASY")
        effective = Difficulty.EASY

    # --- Opposition Dice (5.2.2).
    opposition_pool = [Die(source=request.opposition_source, dice=request.opposition)] if request.opposition else []
    for name in request.scars:
        scar = _slot(ability.slots.values(), Scar, name, sheet.name, label)
        opposition_pool.append(Die(source=f'Scar "{scar.name}" -{scar.penalty}', dice=scar.penalty))
    if request.actor_specialty:
        (extra,) = check.dice.roll("actor_specialty", 1)
        opposition_pool.append(Die(source="opposing Actor's Specialty (1d6)", dice=extra))
        check.step("rolled", f"opposing Actor's Specialty adds {extra} Opposition Dice", [extra])
    if request.actor_scar:
        (fewer,) = check.dice.roll("actor_scar", 1)
        opposition_pool.append(Die(source="opposing Actor's Scar (-1d6)", dice=-fewer))
        check.step("rolled", f"opposing Actor's Scar removes {fewer} Opposition Dice", [fewer])
    complication = check.state.world.complications.get(name_key(check.name), 0)
    if complication:
        # 14.3 Narrative Complication: added before a Studio Note's die, which stays the last entry.
        opposition_pool.append(Die(source="Narrative Complication", dice=complication))
        check.emit(ComplicationCleared(star=check.name, dice=complication))
        check.step("added", f"the Narrative Complication adds {complication} Opposition Dice")
    if request.studio_note:
        if check.state.studio_notes < 1:
            raise RuleViolation("the Director has no Studio Note to spend")
        check.emit(StudioNotesChanged(amount=-1))
        (extra,) = check.dice.roll("studio_note", 1)
        opposition_pool.append(Die(source="the Director's Studio Note (1d6)", dice=extra))
        check.step("spent", f"the Director spent a Studio Note: +{extra} Opposition Dice", [extra])

    action_count = sum(d.dice for d in action_pool)
    # 5.2.2: the Actor modifiers cannot take the pool below 0 (step 3); a Studio Note's 1d6 (step 4,
    # always the last entry) is added to what is left, so it is never swallowed by an Actor's Scar.
    noted = opposition_pool[-1].dice if request.studio_note else 0
    opposition_count = max(0, sum(d.dice for d in opposition_pool) - noted) + noted

    # --- The roll.
    action = check.dice.roll("action", action_count)
    opposition = check.dice.roll("opposition", opposition_count)
    script = check.dice.roll("script", 2)
    check.step("rolled", f"{action_count} Action Dice", action)
    check.step("rolled", f"{opposition_count} Opposition Dice", opposition)
    check.step("rolled", "2 Script Dice", script)

    # --- Spends after the roll: as declared, then (at a terminal) as the Star chooses.
    after_roll = list(request.after_roll)
    for spend in after_roll:
        action, opposition = _after_roll(check, spend, action, opposition)
    keep = request.keep
    if chooser is not None and keep is None:
        while True:
            try:
                choice = chooser.choose(
                    View(
                        action=tuple(action),
                        opposition=tuple(opposition),
                        script=(script[0], script[1]),
                        remaining=tuple(block(action, opposition)[1]),
                        sheet=check.sheet,
                        effective=effective,
                    )
                )
            except LeftTheTable:
                partial = request.model_copy(update={"after_roll": tuple(after_roll)})
                raise Abandoned(partial, tuple(check.dice.rolls), tuple(check.effects)) from None
            if isinstance(choice, tuple):
                keep = choice
                break
            action, opposition = _after_roll(check, choice, action, opposition)
            after_roll.append(choice)
        request = request.model_copy(update={"after_roll": tuple(after_roll), "keep": keep})

    # --- Blocking (5.2 Opposition Blocking): each Opposition Die cancels one matching Action Die.
    blocked, remaining = block(action, opposition)
    if blocked:
        check.step("blocked", f"blocked Action Dice {_faces(blocked)}", blocked)

    # --- The Result Dice.
    target = effective.target
    assert target is not None
    if keep is not None:
        kept = _check_keep(keep, remaining)
        check.step("kept", f"{sheet.name} kept {kept[0]} and {kept[1]}", kept)
    else:
        kept = best_pair(remaining, script, target)
        check.step(
            "kept", f"kept {kept[0]} and {kept[1]} (the best outcome, then the best mark, then the highest sum)", kept
        )
    outcome = judge(kept, target)
    mark = hit_the_mark(kept, script)
    check.step(
        "judged",
        f"{outcome.label} against {effective.value} ({target}+); {mark.label}",
        kept,
    )
    if outcome is Outcome.FAILURE and "jinxed" in sheet.overloads:
        outcome = Outcome.DISASTER
        check.step("judged", f"{sheet.name} is Jinxed (a Limit Break): the Failure is a Disaster")
    if outcome is Outcome.SUCCESS and request.award == "luminary":
        _use_award(check, Award.LUMINARY, "the Luminary Award turns the Success into a Highlight")
        outcome = Outcome.HIGHLIGHT
    progress = original.step(1) if outcome is Outcome.HIGHLIGHT else original

    # --- Rewards and costs (5.2 Results, Hitting the Mark, Channel Limit; 6.2; 6.3).
    _rewards(check, ability, outcome, mark)
    if request.plot_armor and not check.has_mastery(Mastery.PLOT_ARMOR):
        _plot_armor_scar(check, request.ability)

    return Resolution(
        request=request,
        star=sheet.name,
        action_pool=tuple(action_pool),
        opposition_pool=tuple(opposition_pool),
        rolls=tuple(check.dice.rolls),
        steps=tuple(check.steps),
        action=tuple(action),
        opposition=tuple(opposition),
        script=(script[0], script[1]),
        blocked=tuple(blocked),
        remaining=tuple(remaining),
        kept=kept,
        original_difficulty=original,
        effective_difficulty=effective,
        progress_difficulty=progress,
        outcome=outcome,
        mark=mark,
        consequences_due=outcome.consequences,
        effects=tuple(check.effects),
    )


def apply_resolution(state: ShowrunnerState, resolution: Resolution) -> ShowrunnerState:
    return roll_counted(apply_effects(state, resolution.effects))


def roll_counted(state: ShowrunnerState) -> ShowrunnerState:
    """A check's effects applied, the check counts one roll more."""
    return state.model_copy(update={"dice_rolls": state.dice_rolls + 1})


# ----------------------------------------------------------------------- the pure rules


def block(action: Sequence[int], opposition: Sequence[int]) -> tuple[list[int], list[int]]:
    """Each Opposition Die cancels at most one Action Die showing the same face."""
    against = Counter(opposition)
    blocked, remaining = [], []
    for face in action:
        if against[face] > 0:
            against[face] -= 1
            blocked.append(face)
        else:
            remaining.append(face)
    return blocked, remaining


def result_dice(remaining: Sequence[int]) -> list[int]:
    """The dice available as Result Dice: a shortfall below two counts as 0s."""
    return list(remaining) + [0] * max(0, 2 - len(remaining))


def judge(kept: tuple[int, int], target: int) -> Outcome:
    made = sum(1 for face in kept if face >= target and face > 0)
    doubles = kept[0] == kept[1]
    if made == 2:
        return Outcome.HIGHLIGHT if doubles else Outcome.SUCCESS
    if made == 1:
        return Outcome.PARTIAL
    return Outcome.DISASTER if doubles else Outcome.FAILURE


def hit_the_mark(kept: tuple[int, int], script: Sequence[int]) -> Mark:
    """Match Result Dice to Script Dice one-to-one, in any order; a 0 never matches."""
    unmatched = list(script)
    matches = 0
    for face in kept:
        if face > 0 and face in unmatched:
            unmatched.remove(face)
            matches += 1
    return [Mark.BAD_TAKE, Mark.HIT, Mark.PERFECT_TAKE][matches]


def best_pair(remaining: Sequence[int], script: Sequence[int], target: int) -> tuple[int, int]:
    """The default choice: best outcome, then best mark, then highest sum."""
    return _best_pair(tuple(remaining), tuple(script), target)


@functools.lru_cache(maxsize=4096)  # a few dice each, so the same faces come back often
def _best_pair(remaining: tuple[int, ...], script: tuple[int, ...], target: int) -> tuple[int, int]:
    dice = result_dice(remaining)

    def rank(pair: tuple[int, int]) -> tuple[int, int, int]:
        return (
            _OUTCOME_ORDER.index(judge(pair, target)),
            _MARK_ORDER.index(hit_the_mark(pair, script)),
            -(pair[0] + pair[1]),
        )

    pairs = {(max(a, b), min(a, b)) for a, b in combinations(dice, 2)}
    return min(pairs, key=lambda pair: (rank(pair), pair))


# ----------------------------------------------------------------------- helpers


_Slotted = TypeVar("_Slotted", Specialty, Scar)


def _slot(slots: Collection[Specialty | Scar], kind: type[_Slotted], name: str, star: str, ability: str) -> _Slotted:
    wanted = " ".join(name.split()).casefold()
    for slot in slots:
        if isinstance(slot, kind) and " ".join(slot.name.split()).casefold() == wanted:
            return slot
    what = "Specialty" if kind is Specialty else "Scar"
    known = ", ".join(s.name for s in slots if isinstance(s, kind)) or "none"
    raise UnknownName(f"{star} has no {what} '{name}' under {ability} ({what} names there: {known})")


def _count(props: Sequence[PropSpend]) -> list[tuple[PropSpend, int]]:
    counted: dict[PropSpend, int] = {}
    for prop in props:
        counted[prop] = counted.get(prop, 0) + 1
    return list(counted.items())


def _spend_props(check: _Check, prop: PropSpend, count: int) -> None:
    held = next((p.count for p in check.sheet.props if (p.type, p.quality) == (prop.type, prop.quality)), 0)
    if held < count:
        raise RuleViolation(
            f"{check.name} has {held} {prop.quality.value} {prop.type.value} Prop{'s' if held != 1 else ''} "
            f"and wants to spend {count}"
        )
    check.emit(PropsSpent(star=check.name, type=prop.type, quality=prop.quality, count=count))
    check.step(
        "spent",
        f"spent {count} {prop.quality.value} {prop.type.value} Prop{'s' if count > 1 else ''}: +{count} Action Dice",
    )
    pool = QUALITY_REGAIN.get(prop.quality)
    if pool is not None:
        each = 2 if check.has_mastery(Mastery.PROP) else 1
        check.regain(pool, each * count, f"{prop.quality.value} Quality Prop")


def _trade(check: _Check, trade: Trade, original: Difficulty) -> Difficulty:
    """10.2A: exhaust the Bond's or Grudge's ◇ matching the Difficulty; the check is rolled one
    step lower (EASY with Relationship Mastery). Success and Consequences keep the original."""
    from .relationships import INTENT, tier_name, trade_advances  # relationships imports this module
    from .relationships import trade as trade_rule

    request = check.request
    path = request.acclaim_path if trade_advances(check.sheet, trade.kind, trade.name, original) else None
    traded = trade_rule(check.sheet, trade.kind, trade.name, original, INTENT[trade.kind], acclaim_path=path)
    after = next(r for r in getattr(traded.sheet, f"{trade.kind}s") if r.with_ == traded.with_)
    check.emit(
        RelationshipMarked(star=check.name, relationship=trade.kind, after=after, acclaim_path=traded.acclaim_path)
    )
    what = f"{trade.kind.title()} with {traded.with_}"
    box = (
        "a box in front of its track"
        if traded.front_box
        else f"its {original.letter} ({tier_name(trade.kind, original)}) ◇"
    )
    check.step("spent", f"traded the {what}: exhausted {box}; rolled at {traded.effective.value}")
    if traded.advanced_to is not None:
        assert traded.acclaim_path is not None
        check.step(
            "rewarded",
            f"the {what} Advances to {traded.advanced_to.letter} "
            f"({tier_name(trade.kind, traded.advanced_to)}): 1 Acclaim on the Path of "
            f"{traded.acclaim_path.value.title()}",
        )
    return traded.effective


def _sequence_trade(check: _Check, use: SequenceTradeUse, effective: Difficulty) -> Difficulty:
    if check.request.trade is not None:
        raise RuleViolation(
            f"{check.name} traded the {use.label} for the whole Sequence: only one Bond or Grudge is exhausted "
            "per Ability Check (Actor Limit), so trade no other on this Beat"
        )
    traded = (q.trade_of(check.name) for q in check.state.world.sequences.values())
    if not any(t is not None and t.label == use.label for t in traded):
        raise RuleViolation(
            f"{check.name} traded no {use.label} for a running Action Sequence: only its Beats roll lower for it"
        )
    lowered = Difficulty.EASY if use.to_easy else effective.step(-1)
    check.step("spent", f"the {use.label}, traded for the whole Sequence, lowers this Beat: rolled at {lowered.value}")
    return lowered


def _use_hero_prop(
    check: _Check, name: str, original: Difficulty, effective: Difficulty, action_pool: list[Die]
) -> Difficulty:
    prop = check.sheet.hero_prop(name)
    if prop.wear >= prop.wear_capacity:
        raise RuleViolation(
            f"{prop.name} has all {prop.wear_capacity} Wear marked and cannot be used until repaired "
            "(the Repair Montage clears Wear)"
        )
    check.emit(WearMarked(star=check.name, hero_prop=prop.name, wear=1))
    check.step("spent", f"marked 1 Wear on {prop.name} (+1 Asset XP)")
    bonus = prop.bonus_dice + (1 if check.has_mastery(Mastery.HERO_PROP) else 0)
    if bonus:
        action_pool.append(Die(source=f"Hero Prop {prop.name} +{bonus}", dice=bonus))
    milestone = prop.difficulty_milestone
    if milestone is not None and original.rank <= milestone.rank:
        effective = effective.step(-1)
        check.step(
            "spent", f"{prop.name} lowers the Difficulty to {effective.value} (within its {milestone.letter} milestone)"
        )
    return effective


def _use_award(check: _Check, award: Award, why: str) -> None:
    from .career import award_episode  # career imports this module

    episode = award_episode(check.state, check.name, award)
    check.emit(AwardPowerUsed(star=check.name, award=award, episode=episode))
    check.step("spent", why)


def _power_alone(
    check: _Check, original: Difficulty, effective: Difficulty, action_pool: list[Die], *, award: bool = False
) -> Resolution:
    """8.2: marking 1 Wear gives an automatic Success, without rolling, up to the Prop's
    highest unlocked Difficulty milestone; above it the check must be rolled. The Artisan's
    Award (`award`) gives one at any Difficulty."""
    if award:
        check.step("judged", f"an automatic Success at {original.value}")
    else:
        prop = check.sheet.hero_prop(check.request.hero_prop or "")
        milestone = prop.difficulty_milestone
        if milestone is None or original.rank > milestone.rank:
            reach = f"up to {milestone.value}" if milestone else "not yet (no Difficulty milestone unlocked)"
            raise RuleViolation(
                f"{prop.name}'s Power can succeed on its own {reach}; a {original.value} task must be rolled"
            )
        check.step("judged", f"{prop.name}'s Power succeeds on its own: an automatic Success at {original.value}")
    return Resolution(
        request=check.request,
        star=check.name,
        action_pool=tuple(action_pool),
        opposition_pool=(),
        rolls=(),
        steps=tuple(check.steps),
        action=(),
        opposition=(),
        script=(0, 0),
        blocked=(),
        remaining=(),
        kept=(0, 0),
        original_difficulty=original,
        effective_difficulty=effective,
        progress_difficulty=original,
        outcome=Outcome.SUCCESS,
        mark=Mark.NOT_ROLLED,
        consequences_due=0,
        effects=tuple(check.effects),
    )


def _after_roll(
    check: _Check, spend: AfterRoll, action: list[int], opposition: list[int]
) -> tuple[list[int], list[int]]:
    name = check.name
    if spend.kind == "grit":
        check.spend("grit", 1, "one more Action Die, after the roll")
        extra = check.dice.roll("grit", 1)
        check.step("rolled", f"Grit after the roll: one more Action Die, {extra[0]}", extra)
        return [*action, *extra], opposition
    if spend.kind == "duplicate":
        if not check.has_mastery(Mastery.GRIT):
            raise RuleViolation(f"{name} needs Grit Mastery to duplicate a die with Grit")
        if len(spend.faces) != 1 or spend.faces[0] not in action:
            raise RuleViolation(f"name one Action Die to duplicate (Action Dice: {_faces(action)})")
        check.spend("grit", 1, f"Grit Mastery duplicates a {spend.faces[0]}")
        check.step("duplicated", f"a {spend.faces[0]} duplicated", spend.faces)
        return [*action, spend.faces[0]], opposition
    if spend.kind == "retake":
        return _retake(check, action, spend.faces, "Action"), opposition
    if spend.kind == "retake_opposition":
        if not check.has_mastery(Mastery.RETAKE):
            raise RuleViolation(f"{name} needs Retake Mastery to re-roll Opposition Dice")
        return action, _retake(check, opposition, spend.faces, "Opposition")
    check.spend("spotlight", 1, "clear 1d6 Opposition Dice")
    (cleared,) = check.dice.roll("spotlight", 1)
    removed = _choose_removals(opposition, action, cleared, spend.faces)
    left = list(opposition)
    for face in removed:
        left.remove(face)
    check.step("removed", f"Spotlight rolled {cleared}: removed Opposition Dice {_faces(removed)}", removed)
    return action, left


def _retake(check: _Check, dice: list[int], faces: Sequence[int], colour: str) -> list[int]:
    pool = Counter(dice)
    for face, wanted in Counter(faces).items():
        if pool[face] < wanted:
            raise RuleViolation(f"there is no {colour} Die showing {face} to re-roll ({colour} Dice: {_faces(dice)})")
    check.spend("retake", 1, f"re-roll {colour} Dice {_faces(faces)}")
    fresh = check.dice.roll("retake" if colour == "Action" else "opposition_retake", len(faces))
    result = list(dice)
    for face in faces:
        result.remove(face)
    result.extend(fresh)
    check.step("rerolled", f"{colour} Dice {_faces(faces)} re-rolled as {_faces(fresh)}", fresh)
    return result


def _choose_removals(opposition: list[int], action: Sequence[int], count: int, preferred: Sequence[int]) -> list[int]:
    """Which Opposition Dice Spotlight clears: the Star's faces first, then those that block the highest dice."""
    left = list(opposition)
    chosen: list[int] = []
    for face in preferred:
        if len(chosen) == count:
            break
        if face in left:
            left.remove(face)
            chosen.append(face)
    blocking = [face for face in sorted(left, reverse=True) if face in action]
    for face in blocking + sorted((f for f in left if f not in action), reverse=True):
        if len(chosen) == count:
            break
        if face in left:
            left.remove(face)
            chosen.append(face)
    return chosen


def _check_keep(keep: tuple[int, int], remaining: Sequence[int]) -> tuple[int, int]:
    available = Counter(result_dice(remaining))
    for face, wanted in Counter(keep).items():
        if available[face] < wanted:
            raise RuleViolation(
                f"cannot keep {keep[0]},{keep[1]}: the dice left after blocking are {_faces(result_dice(remaining))}"
            )
    return keep


def _rewards(check: _Check, ability: Ability, outcome: Outcome, mark: Mark) -> None:
    request = check.request
    if mark is not Mark.BAD_TAKE:
        check.regain("retake", 1, "Hit the Mark")
        check.emit(AbilityMarked(star=check.name, ability=request.ability, xp=1))
        check.step("rewarded", f"marked 1 XP in {request.ability.value.title()}")
        if ability.stars >= 1:
            check.regain("grit", 1, "Hit the Mark with an Ability at 1★ or higher")
        if ability.stars >= 3:
            check.regain("spotlight", 1, "Hit the Mark with an Ability at 3★")
    if mark is Mark.PERFECT_TAKE:
        check.regain("spotlight", 1, "Perfect Take")
        check.emit(AcclaimMarked(star=check.name, path=request.acclaim_path))
        check.step("rewarded", f"marked 1 Acclaim on the Path of {request.acclaim_path.value.title()}")
    if mark is Mark.BAD_TAKE:
        check.emit(StudioNotesChanged(amount=1))
        check.step("rewarded", "Bad Take: the Director gains 1 Studio Note")
    if request.ability is AbilityName.CHANNEL and mark is not Mark.BAD_TAKE:
        taken = 2 if mark is Mark.PERFECT_TAKE else 1
        anomalies = check.dice.roll("anomaly", taken, 100)
        rows = rows_for(check.state.tables, TableName.ANOMALY, anomalies)
        room = check.sheet.limit.max - check.sheet.limit.marked
        check.emit(
            LimitMarked(
                star=check.name,
                marked=min(taken, room),
                overflow=max(0, taken - room),
                anomalies=tuple(anomalies),
                anomaly_rows=rows,
            )
        )
        said = f" ({'; '.join(rows)}, the Anomalies table's rows)" if rows else ""
        check.step("rewarded", f"Channel: marked {taken} Limit ⦸; Anomaly roll {_faces(anomalies)}{said}", anomalies)
    current = check.sheet.ability(request.ability)
    if outcome is Outcome.HIGHLIGHT and current.conditions > 0:
        check.emit(AbilityMarked(star=check.name, ability=request.ability, conditions=-1))
        check.step("rewarded", "Highlight clears 1 Condition")
    if outcome is Outcome.DISASTER:
        check.emit(AbilityMarked(star=check.name, ability=request.ability, conditions=1))
        check.step("rewarded", "Disaster marks 1 Condition")


def _plot_armor_scar(check: _Check, ability_name: AbilityName) -> None:
    scar, text, faces = roll_plot_armor_scar(check.sheet, ability_name, check.dice)
    if scar is not None:
        check.emit(scar)
    check.step("rewarded", text, faces)


def roll_plot_armor_scar(
    sheet: StarSheet, ability_name: AbilityName, dice: DiceSource
) -> tuple[ScarMarked | None, str, tuple[int, ...]]:
    """6.2: spending Plot Armor rolls a Scar into a random slot under the Ability used.

    Reading: a slot holding a Specialty is rolled again; a Scar already there deepens by 1
    (at most 5); an empty slot takes a new Scar at 1. With ten Specialties, no Scar lands.
    Returns the Scar (None when it has nowhere to land), a line for the steps, and the slot.
    Shared by checks and Consequences (Grit Loss), with the same dice purpose "scar_slot".
    """
    ability = sheet.ability(ability_name)
    if all(isinstance(ability.slots.get(n), Specialty) for n in range(1, 11)):
        return None, "no slot is free of Specialties: the Plot Armor Scar has nowhere to land", ()
    while True:
        (slot,) = dice.roll("scar_slot", 1, 10)
        held = ability.slots.get(slot)
        if not isinstance(held, Specialty):
            break
    if isinstance(held, Scar):
        name, penalty = held.name, min(5, held.penalty + 1)
    else:
        name, penalty = PLOT_ARMOR_SCAR, 1
    scar = ScarMarked(star=sheet.name, ability=ability_name, slot=slot, name=name, penalty=penalty)
    return scar, f'Plot Armor leaves a Scar: slot {slot} "{name}" -{penalty}', (slot,)


def _faces(faces: Sequence[int]) -> str:
    return ",".join(str(f) for f in faces) or "none"
