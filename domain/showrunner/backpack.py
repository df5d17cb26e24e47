"""Props, the Backpack, Trinkets and Preparation (Chapter 8.1, Appendix E).

Pure rules: every function takes a sheet or a state and returns a new one with a record of
what happened. Capacities that the book prints only on the Star Profile are constants here,
in one place (docs/rules.md).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..dice import DiceSource
from ..errors import RuleViolation
from .influence import PoolName, apply_regain, apply_spend, decide_regain, decide_spend
from .ladder import Quality
from .sheet import Mastery, Prop, PropType, StarSheet
from .state import ShowrunnerState
from .vocabulary import FlashbackAction


class PropClass(StrEnum):
    """The three classes of Prop Types (8.1A)."""

    PRODUCTION = "production"
    CONSUMABLE = "consumable"
    EQUIPMENT = "equipment"


PRODUCTION = (PropType.JUNK, PropType.GOODS, PropType.MATERIALS, PropType.MONEY)
CONSUMABLES = (
    PropType.AMMO,
    PropType.BATTERIES,
    PropType.DRUGS,
    PropType.EXPLOSIVES,
    PropType.FUEL,
    PropType.MEDIA,
    PropType.MEDICINE,
    PropType.POISONS,
    PropType.RATIONS,
    PropType.REAGENTS,
)
EQUIPMENT = (PropType.ARMOR, PropType.CLOTHING, PropType.ELECTRONICS, PropType.GEAR, PropType.WEAPONS)
PROP_CLASS: dict[PropType, PropClass] = (
    {t: PropClass.PRODUCTION for t in PRODUCTION}
    | {t: PropClass.CONSUMABLE for t in CONSUMABLES}
    | {t: PropClass.EQUIPMENT for t in EQUIPMENT}
)

QUALITY_ORDER: tuple[Quality, ...] = tuple(Quality)
# 8.1C: the Influence a Quality Prop gives back when spent in a Scene.
QUALITY_REGAIN: dict[Quality, PoolName] = {
    Quality.HARD: "retake",
    Quality.FORMIDABLE: "grit",
    Quality.EPIC: "spotlight",
}

# 8.1D and 11.1B: the Star Profile's inventory, as printed capacities.
STARTING_BACKPACK_SLOTS = 2
"""1 of choice and 1 Money."""
MONEY_SLOTS = 1
"""Of the starting slots, one holds only Money."""
STARTING_HERO_PROP_SLOTS = 1
STARTING_TRINKET_SLOTS = 3
PROP_LIMIT = 5
MASTERED_PROP_LIMIT = 10
HANDS = 2
TICKS_PER_BUNDLE = 2
BUNDLE_TRINKET_SLOTS = 3


def quality_rank(quality: Quality) -> int:
    return QUALITY_ORDER.index(quality)


def quality_step(quality: Quality, steps: int) -> Quality:
    """Move a Quality up (or down), stopping at NORMAL and EPIC."""
    return QUALITY_ORDER[max(0, min(len(QUALITY_ORDER) - 1, quality_rank(quality) + steps))]


def quality_regain(quality: Quality, sheet: StarSheet) -> tuple[PoolName | None, int]:
    """8.1C and 11.2 Prop Mastery: the Influence a spent Quality Prop gives back, and how much."""
    pool = QUALITY_REGAIN.get(quality)
    if pool is None:
        return None, 0
    return pool, 2 if Mastery.PROP in sheet.masteries else 1


def bundles(sheet: StarSheet) -> int:
    """Utility Bundles completed on the Stuff track (11.1B)."""
    return sheet.stuff_ticks // TICKS_PER_BUNDLE


def backpack_slots(sheet: StarSheet) -> int:
    return STARTING_BACKPACK_SLOTS + bundles(sheet)


def hero_prop_slots(sheet: StarSheet) -> int:
    return STARTING_HERO_PROP_SLOTS + bundles(sheet)


def trinket_slots(sheet: StarSheet) -> int:
    return STARTING_TRINKET_SLOTS + BUNDLE_TRINKET_SLOTS * bundles(sheet)


def prop_limit(sheet: StarSheet) -> int:
    """How many of one Quality one slot holds: 5, 10 with Prop Mastery, less what Weakened crossed off."""
    full = MASTERED_PROP_LIMIT if Mastery.PROP in sheet.masteries else PROP_LIMIT
    return max(0, full - sheet.backpack_crossed)


def count_of(props: list[Prop] | tuple[Prop, ...], prop_type: PropType, quality: Quality) -> int:
    return sum(p.count for p in props if (p.type, p.quality) == (prop_type, quality))


def held(sheet: StarSheet, prop_type: PropType, quality: Quality) -> int:
    """Props of one Type and Quality the Star has: Backpack and hands."""
    return count_of(sheet.props, prop_type, quality) + count_of(sheet.in_hand, prop_type, quality)


def _added(props: list[Prop] | tuple[Prop, ...], prop_type: PropType, quality: Quality, count: int) -> list[Prop]:
    if count == 0:
        return list(props)
    out, done = [], False
    for prop in props:
        if (prop.type, prop.quality) == (prop_type, quality):
            prop = prop.model_copy(update={"count": prop.count + count})
            done = True
        out.append(prop)
    if not done:
        out.append(Prop(type=prop_type, quality=quality, count=count))
    return out


def _removed(props: list[Prop] | tuple[Prop, ...], prop_type: PropType, quality: Quality, count: int) -> list[Prop]:
    out = []
    for prop in props:
        if (prop.type, prop.quality) == (prop_type, quality) and count:
            taken = min(count, prop.count)
            count -= taken
            if prop.count > taken:
                out.append(prop.model_copy(update={"count": prop.count - taken}))
        else:
            out.append(prop)
    return out


def slot_room(
    props: list[Prop] | tuple[Prop, ...],
    slots: int,
    limit: int,
    prop_type: PropType,
    quality: Quality,
    *,
    money_slots: int = 0,
) -> int:
    """How many more Props of one Type and Quality a Backpack with these slots can take.

    A slot holds one Prop Type, up to `limit` of each Quality (8.1D). `money_slots` of the
    slots hold only Money. A Backpack already holding more Types than it has slots (a sheet
    written before slots were tracked) keeps them; only new Types are refused.
    """
    types = {p.type for p in props}
    if prop_type not in types:
        if prop_type is PropType.MONEY:
            free = money_slots if money_slots else slots - len(types - {PropType.MONEY})
        else:
            free = slots - money_slots - len(types - {PropType.MONEY})
        if free <= 0:
            return 0
    return max(0, limit - count_of(props, prop_type, quality))


class Placement(BaseModel):
    """Where gained Props went: the Backpack, the hands (8.1D Overflow), or left behind."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    type: PropType
    quality: Quality
    to_backpack: int = Field(ge=0)
    to_hand: int = Field(ge=0)
    left_behind: int = Field(ge=0)


def stow(
    sheet: StarSheet,
    prop_type: PropType,
    quality: Quality,
    count: int,
    *,
    hands: bool = True,
    leave_behind: bool = False,
) -> tuple[StarSheet, Placement]:
    """Gain Props: into the Backpack while a slot has room, then in hand (2 at most, 8.1D).

    With leave_behind=False a gain that cannot all be carried is refused and nothing changes;
    with leave_behind=True (Props found by a die roll) what does not fit is left behind.
    """
    if count < 0:
        raise RuleViolation(f"a number of Props cannot be negative (got {count})")
    room = slot_room(sheet.props, backpack_slots(sheet), prop_limit(sheet), prop_type, quality, money_slots=MONEY_SLOTS)
    to_backpack = min(count, room)
    hand_room = HANDS - sum(p.count for p in sheet.in_hand) if hands else 0
    to_hand = min(count - to_backpack, hand_room)
    left = count - to_backpack - to_hand
    if left and not leave_behind:
        raise RuleViolation(
            f"{sheet.name} cannot carry {count} {quality.value} {prop_type.value}: the Backpack has room for "
            f"{to_backpack} and the hands for {hand_room if hands else 0}; spend, drop or stow something first"
        )
    new = sheet.model_copy(
        update={
            "props": _added(sheet.props, prop_type, quality, to_backpack),
            "in_hand": _added(sheet.in_hand, prop_type, quality, to_hand),
        }
    )
    return new, Placement(type=prop_type, quality=quality, to_backpack=to_backpack, to_hand=to_hand, left_behind=left)


def take(sheet: StarSheet, prop_type: PropType, quality: Quality, count: int) -> StarSheet:
    """Spend or give away Props: those in hand first (freeing the hands), then the Backpack."""
    have = held(sheet, prop_type, quality)
    if count > have:
        raise RuleViolation(f"{sheet.name} has {have} {quality.value} {prop_type.value} and cannot spend {count}")
    from_hand = min(count, count_of(sheet.in_hand, prop_type, quality))
    return sheet.model_copy(
        update={
            "in_hand": _removed(sheet.in_hand, prop_type, quality, from_hand),
            "props": _removed(sheet.props, prop_type, quality, count - from_hand),
        }
    )


def to_backpack(sheet: StarSheet, prop_type: PropType, quality: Quality, count: int) -> StarSheet:
    """Move Props from the hands into the Backpack (a slot freed up)."""
    if count > count_of(sheet.in_hand, prop_type, quality):
        raise RuleViolation(f"{sheet.name} holds fewer than {count} {quality.value} {prop_type.value} in hand")
    room = slot_room(sheet.props, backpack_slots(sheet), prop_limit(sheet), prop_type, quality, money_slots=MONEY_SLOTS)
    if count > room:
        raise RuleViolation(
            f"{sheet.name}'s Backpack has room for {room} {quality.value} {prop_type.value}, not {count}"
        )
    return sheet.model_copy(
        update={
            "in_hand": _removed(sheet.in_hand, prop_type, quality, count),
            "props": _added(sheet.props, prop_type, quality, count),
        }
    )


def hands_free(sheet: StarSheet) -> int:
    """Hands not holding a Prop: an action needing both hands needs 2 (8.1D Occupied Hands)."""
    return HANDS - sum(p.count for p in sheet.in_hand)


def add_trinket(sheet: StarSheet, trinket: str) -> StarSheet:
    name = " ".join(trinket.split())
    if not name:
        raise RuleViolation("a Trinket needs a name")
    if len(sheet.trinkets) >= trinket_slots(sheet):
        raise RuleViolation(
            f"{sheet.name}'s {trinket_slots(sheet)} Trinket Slots are full: remove a Trinket first "
            "(a Utility Bundle on the Path of Persistence adds 3 slots)"
        )
    return sheet.model_copy(update={"trinkets": [*sheet.trinkets, name]})


def remove_trinket(sheet: StarSheet, trinket: str) -> StarSheet:
    wanted = " ".join(trinket.split()).casefold()
    kept = [t for t in sheet.trinkets if " ".join(t.split()).casefold() != wanted]
    if len(kept) == len(sheet.trinkets):
        raise RuleViolation(
            f"{sheet.name} has no Trinket '{trinket}' (Trinkets: {', '.join(sheet.trinkets) or 'none'})"
        )
    return sheet.model_copy(update={"trinkets": kept})


# ------------------------------------------------------------------ Influence helpers


def spend_influence(
    state: ShowrunnerState, star: str, pool: PoolName, amount: int, *, push: bool = False
) -> ShowrunnerState:
    return apply_spend(state, decide_spend(state, star, pool, amount, push=push))


def regain_influence(state: ShowrunnerState, star: str, pool: PoolName, amount: int) -> tuple[ShowrunnerState, int]:
    """Regain with Inspirational Overflow (10.3A.2); returns the state and the amount kept."""
    if amount <= 0:
        return state, 0
    regained = decide_regain(state, star, pool, amount)
    return apply_regain(state, regained), regained.kept


# ------------------------------------------------------------------ Preparation and Flashbacks


class PreparationUsed(BaseModel):
    """What spending Preparation did: a NORMAL Prop produced, or a Flashback."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: Literal["prop", "flashback"]
    star: str
    preparation_spent: int = Field(ge=0)
    placement: Placement | None = None
    flashback: FlashbackAction | None = None
    bonus: Placement | None = None
    """Mastered Preparation's free NORMAL Prop (11.2)."""
    award: bool = False
    """The Method Actor's Award paid for the Flashback instead of Preparation."""
    state: ShowrunnerState


def produce_prop(
    state: ShowrunnerState,
    star: str,
    prop_type: PropType,
    *,
    bonus_type: PropType | None = None,
    push: bool = False,
) -> PreparationUsed:
    """8.1E: spend 1 Preparation to produce 1 NORMAL Prop of any type on-screen.

    It goes to the Backpack, or in hand when the Backpack is full; refused when neither
    has room. With Mastered Preparation, `bonus_type` names the free NORMAL Prop, which must
    fit in the Backpack ("of any type you can carry to your backpack").
    """
    sheet = _active(state, star)
    _check_bonus(sheet, bonus_type)
    stowed, placement = stow(sheet, prop_type, Quality.NORMAL, 1)
    bonus = None
    if bonus_type is not None:
        stowed, bonus = stow(stowed, bonus_type, Quality.NORMAL, 1, hands=False)
    state = spend_influence(state, star, "preparation", 1, push=push)
    fresh = state.star(star).model_copy(update={"props": stowed.props, "in_hand": stowed.in_hand})
    return PreparationUsed(
        kind="prop",
        star=sheet.name,
        preparation_spent=1,
        placement=placement,
        bonus=bonus,
        state=state.with_star(fresh),
    )


def flashback(
    state: ShowrunnerState,
    star: str,
    action: FlashbackAction,
    *,
    award: bool = False,
    bonus_type: PropType | None = None,
    push: bool = False,
) -> PreparationUsed:
    """8.1E: spend 1 Preparation to pause the Scene for a Flashback.

    award=True uses the Method Actor's Award instead (once per Episode, 11.2), and then no
    Preparation is spent, so Mastered Preparation gives no free Prop.
    """
    from .career import use_award  # career imports nothing of this module; kept local for clarity
    from .sheet import Award

    sheet = _active(state, star)
    if award:
        if bonus_type is not None:
            raise RuleViolation(
                "a Flashback paid by the Method Actor's Award spends no Preparation, so no free Prop comes with it"
            )
        state = use_award(state, star, Award.METHOD_ACTOR)
        return PreparationUsed(
            kind="flashback", star=sheet.name, preparation_spent=0, flashback=action, award=True, state=state
        )
    _check_bonus(sheet, bonus_type)
    bonus = None
    stowed = sheet
    if bonus_type is not None:
        stowed, bonus = stow(sheet, bonus_type, Quality.NORMAL, 1, hands=False)
    state = spend_influence(state, star, "preparation", 1, push=push)
    fresh = state.star(star).model_copy(update={"props": stowed.props, "in_hand": stowed.in_hand})
    return PreparationUsed(
        kind="flashback",
        star=sheet.name,
        preparation_spent=1,
        flashback=action,
        bonus=bonus,
        state=state.with_star(fresh),
    )


def _check_bonus(sheet: StarSheet, bonus_type: PropType | None) -> None:
    if bonus_type is not None and Mastery.PREPARATION not in sheet.masteries:
        raise RuleViolation(f"{sheet.name} needs Mastered Preparation to add a free Prop when spending Preparation")


def _active(state: ShowrunnerState, star: str) -> StarSheet:
    sheet = state.star(star)
    if sheet.written_off:
        raise RuleViolation(f"{sheet.name} has been written off the Show")
    return sheet


# ------------------------------------------------------------------ Appendix E


SETTING_SPECIFIC: tuple[PropType, ...] = (
    PropType.BATTERIES,
    PropType.ELECTRONICS,
    PropType.EXPLOSIVES,
    PropType.FUEL,
    PropType.REAGENTS,
)
RANDOM_PROP: dict[int, PropType | None] = {
    1: PropType.JUNK,
    2: PropType.GOODS,
    3: PropType.CLOTHING,
    4: PropType.RATIONS,
    5: PropType.AMMO,
    6: PropType.MONEY,
    7: PropType.MATERIALS,
    8: None,
    9: None,
    10: None,
}
"""Appendix E A (d10); None: roll on the sub-table."""
RANDOM_PROP_SUBTABLE: dict[int, PropType | str] = {
    1: "setting",
    2: PropType.GEAR,
    3: PropType.MEDIA,
    4: PropType.ARMOR,
    5: PropType.WEAPONS,
    6: PropType.MEDICINE,
    7: PropType.DRUGS,
    8: PropType.POISONS,
    9: "quality",
    10: "quality",
}
RANDOM_QUALITY: dict[int, Quality] = (
    {n: Quality.NORMAL for n in range(1, 5)}
    | {n: Quality.HARD for n in range(5, 8)}
    | {8: Quality.FORMIDABLE, 9: Quality.FORMIDABLE, 10: Quality.EPIC}
)
"""Appendix E B (d10)."""


class RandomProp(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    type: PropType
    quality: Quality
    quality_steps: int = Field(ge=0)
    """+1 Quality steps rolled on the sub-table (9-10), applied to the Quality roll, up to EPIC."""
    faces: tuple[int, ...]


def random_quality(dice: DiceSource) -> Quality:
    (face,) = dice.roll("prop_quality", 1, 10)
    return RANDOM_QUALITY[face]


def random_prop(dice: DiceSource) -> RandomProp:
    """Appendix E: the Type (d10, sub-table d10), then the Quality (d10), raised by any +1 steps.

    A Setting-Specific Prop is one of its five Types by a d10 (1-2 Batteries, 3-4 Electronics,
    5-6 Explosives, 7-8 Fuel, 9-10 Reagents).
    """
    faces: list[int] = []
    (face,) = dice.roll("prop_type", 1, 10)
    faces.append(face)
    found = RANDOM_PROP[face]
    steps = 0
    while found is None:
        (sub,) = dice.roll("prop_subtype", 1, 10)
        faces.append(sub)
        entry = RANDOM_PROP_SUBTABLE[sub]
        if entry == "quality":
            steps += 1
        elif entry == "setting":
            (pick,) = dice.roll("prop_setting", 1, 10)
            faces.append(pick)
            found = SETTING_SPECIFIC[(pick - 1) // 2]
        else:
            assert isinstance(entry, PropType)
            found = entry
    (q,) = dice.roll("prop_quality", 1, 10)
    faces.append(q)
    return RandomProp(
        type=found, quality=quality_step(RANDOM_QUALITY[q], steps), quality_steps=steps, faces=tuple(faces)
    )
