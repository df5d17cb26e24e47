"""A Star's sheet (the Star Profile) as frozen data.

The models check what one sheet can say on its own (ranges, one thing per slot, no Wear past
capacity); rules that need history or other sheets belong to the ledger.
"""

from __future__ import annotations

import functools
import json
from enum import Enum
from typing import Annotated, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    StrictBool,
    StringConstraints,
    ValidationInfo,
    field_serializer,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticCustomError

from ..errors import UnknownName
from ..field_equality import FieldsEqual
from ..inputs import MANY, AtMost, Input
from ..quick_copy import QuickCopy
from ..text import CHARACTER_NAME, LINE, NAME
from .ladder import Difficulty, Quality
from .vocabulary import AbilityName as AbilityName
from .vocabulary import Award as Award
from .vocabulary import CareerPath as CareerPath
from .vocabulary import Mastery as Mastery
from .vocabulary import PropType as PropType


def shown(value: object) -> str:
    """A value as a file would spell it, short enough for a one-line message."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def _in_range(low: int, high: int | None) -> AfterValidator:
    # pydantic reports ge/le separately; a player needs both bounds in one sentence.
    expect = f"{low} or more" if high is None else f"between {low} and {high}"

    def check(value: int) -> int:
        if value < low or (high is not None and value > high):
            context = {"expect": expect, "got": shown(value)}
            raise PydanticCustomError("out_of_range", "must be {expect} (got {got})", context)
        return value

    return AfterValidator(check)


def _at_most(field: str, value: int, limit_field: str, limit: int) -> None:
    if value > limit:
        raise PydanticCustomError(
            "over_max",
            "{field} ({value}) is more than {limit_field} ({limit})",
            {"field": field, "value": value, "limit_field": limit_field, "limit": limit},
        )


# Strict: a file saying `rank = "2"`, `2.0` or `true` is a mistake, not a number.
Count = Annotated[int, Field(strict=True), _in_range(0, None), AtMost(MANY)]
AtLeastOne = Annotated[int, Field(strict=True), _in_range(1, None), AtMost(MANY)]
Track = Annotated[int, Field(strict=True), _in_range(0, 3)]
Rating = Annotated[int, Field(strict=True), _in_range(1, 5)]
_Given = StringConstraints(strip_whitespace=True, min_length=1)
# What the characters of a name or a line may be (domain/text.py) is checked as a file is read.
Text = Annotated[str, _Given, NAME.validator()]
"""A name on the sheet: a Specialty, a Scar, a Hero Prop, who a Bond is with, a Holding."""
LineText = Annotated[str, _Given, LINE.validator()]
"""A phrase on the sheet: a concept, a Power, a Trinket, a drawback."""
StarName = Annotated[str, _Given, CHARACTER_NAME.validator()]
# Not strict: JSON object keys are strings, and "3" must come back as slot 3.
SlotNumber = Annotated[int, _in_range(1, 10)]


class _Frozen(FieldsEqual, QuickCopy):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    _quiet: ClassVar[tuple[str, ...]] = ()
    """Fields added after files and events were first written: left out of a dump while at their
    default, so an older sheet dumps (and hashes) exactly as it did."""

    @model_serializer(mode="wrap")
    def _leave_out_quiet_defaults(self, handler: SerializerFunctionWrapHandler) -> object:
        data = handler(self)
        if self._quiet and isinstance(data, dict):
            for name, key, default in quiet_defaults(type(self), self._quiet):
                if getattr(self, name) == default:
                    data.pop(key, None)
        return data


@functools.cache
def quiet_defaults(model: type[BaseModel], names: tuple[str, ...]) -> tuple[tuple[str, str, object], ...]:
    """(field, key in a dump, default) of each quiet field of `model`, worked out once: pydantic
    inspects a default factory's signature each time it is asked for its value, which made a
    sheet's dump (and every event, snapshot and hash carrying one) take milliseconds."""
    fields = model.model_fields
    return tuple(
        (name, fields[name].serialization_alias or name, fields[name].get_default(call_default_factory=True))
        for name in names
    )


class Specialty(_Frozen):
    kind: Literal["specialty"] = "specialty"
    name: Text
    rank: Rating


class Scar(_Frozen):
    kind: Literal["scar"] = "scar"
    name: Text
    penalty: Rating


Slot = Annotated[Specialty | Scar, Field(discriminator="kind")]


class Ability(_Frozen):
    """One Ability's track and its ten slots.

    xp is the pencil XP on the track; permanent_xp is XP marked in pen, kept when the track
    clears. conditions are pencil ✘ marks; locked_conditions are the ✘ traced in pen.
    """

    base_dice: Track = 0
    stars: Track = 0
    xp: Count = 0
    permanent_xp: Count = 0
    mastered: StrictBool = False
    conditions: Count = 0
    locked_conditions: Count = 0
    slots: dict[SlotNumber, Slot] = Field(default_factory=dict)
    advances: Count | None = None
    """Milestones reached on the track (progression.ABILITY_TRACK); None: placed from base_dice and stars."""
    extra_xp_boxes: Count = 0
    """Empty XP boxes traced in pen in front of the track (Appendix D, Amnesia)."""

    _quiet: ClassVar[tuple[str, ...]] = ("advances", "extra_xp_boxes")

    @field_validator("slots")
    @classmethod
    def _in_slot_order(cls, slots: dict[int, Specialty | Scar]) -> dict[int, Specialty | Scar]:
        return dict(sorted(slots.items()))


class Pool(_Frozen):
    """An Influence pool: max is the maximum after exhaustion, exhausted the icons crossed off."""

    current: Count
    max: Count
    exhausted: Count = 0

    @model_validator(mode="after")
    def _current_within_max(self) -> Pool:
        _at_most("current", self.current, "max", self.max)
        return self


class Influence(_Frozen):
    grit: Pool
    retake: Pool
    spotlight: Pool
    plot_armor: Pool
    preparation: Pool


class LimitTrack(_Frozen):
    """The Limit ⦸ track under Channel: boxes marked out of the boxes traced."""

    marked: Count = 0
    max: Count = 0

    @model_validator(mode="after")
    def _marked_within_max(self) -> LimitTrack:
        _at_most("marked", self.marked, "max", self.max)
        return self


WEAR_UPGRADE = "⛉"
SECOND_POWER = "2nd Power"
# Chapter 8.2's Hero Prop track, left to right: the one place the layout lives.
MILESTONE_ORDER: tuple[str, ...] = (
    "⛉",
    "1st Power",
    "⛉",
    "N",
    "⛉",
    "1",
    "⛉",
    "H",
    "⛉",
    "2",
    "⛉",
    "2nd Power",
    "⛉",
    "F",
    "⛉",
    "3",
    "⛉",
    "E",
    "⛉",
    "4",
)


class HeroProp(_Frozen):
    """A Hero Prop. milestones counts the entries of MILESTONE_ORDER unlocked so far.

    The first Power comes with the Prop (8.2: "Unlocked immediately"), so a Prop at 0
    milestones already has one Power and its one starting Wear box.
    """

    name: Text
    wear: Count = 0
    wear_capacity: AtLeastOne = 1
    xp: Count = 0
    powers: list[LineText] = Field(min_length=1, max_length=2)
    milestones: Annotated[int, Field(strict=True), _in_range(0, len(MILESTONE_ORDER))] = 0
    permanent_xp: Count = 0
    """Asset XP marked in pen (11.2 Hero Prop Mastery): kept when the track clears."""
    extra_xp_boxes: Count = 0
    """Empty XP boxes traced in pen in front of the track (Appendix D, Glitched)."""

    _quiet: ClassVar[tuple[str, ...]] = ("permanent_xp", "extra_xp_boxes")

    @model_validator(mode="after")
    def _wear_within_capacity(self) -> HeroProp:
        # The sheet has no boxes past capacity, so a file cannot record such Wear.
        _at_most("wear", self.wear, "wear_capacity", self.wear_capacity)
        return self

    @property
    def unlocked_milestones(self) -> tuple[str, ...]:
        return MILESTONE_ORDER[: self.milestones]

    @property
    def unlocked_powers(self) -> int:
        return 2 if SECOND_POWER in self.unlocked_milestones else 1

    @property
    def bonus_dice(self) -> int:
        return max((int(m) for m in self.unlocked_milestones if m.isdigit()), default=0)

    @property
    def difficulty_milestone(self) -> Difficulty | None:
        tiers = [Difficulty(m) for m in self.unlocked_milestones if len(m) == 1 and m.isalpha()]
        return max(tiers, key=lambda tier: tier.rank, default=None)

    @property
    def wear_upgrades(self) -> int:
        return self.unlocked_milestones.count(WEAR_UPGRADE)


class Prop(_Frozen):
    type: PropType
    quality: Quality = Quality.NORMAL
    count: AtLeastOne = 1


class Relationship(_Frozen):
    """A Bond or a Grudge: its Tier and the ◇ of the Tiers exhausted since it last Advanced."""

    # "with" is a Python keyword, so the field is with_; files and JSON dumps say "with".
    model_config = ConfigDict(validate_by_name=True, validate_by_alias=True, serialize_by_alias=True)

    with_: Text = Field(alias="with")
    tier: Difficulty = Difficulty.NORMAL
    exhausted: frozenset[Difficulty] = frozenset()
    extra_marked: Count = 0
    """Boxes marked of the extra ones traced in front of Bond tracks (Appendix D, Heartless)."""

    _quiet: ClassVar[tuple[str, ...]] = ("extra_marked",)

    @field_validator("tier")
    @classmethod
    def _tier_from_normal(cls, tier: Difficulty) -> Difficulty:
        if tier is Difficulty.EASY:
            raise PydanticCustomError("no_easy_tier", 'must be N (NORMAL) or higher (got "EASY")')
        return tier

    @field_validator("exhausted")
    @classmethod
    def _exhausted_up_to_tier(cls, exhausted: frozenset[Difficulty], info: ValidationInfo) -> frozenset[Difficulty]:
        tier = info.data.get("tier")
        if tier is None:  # the tier itself was invalid and is already reported
            return exhausted
        for mark in sorted(exhausted, key=lambda d: d.rank):
            if mark is Difficulty.EASY:
                raise PydanticCustomError("no_easy_tier", 'must be tiers from N up (got "EASY")')
            if mark.rank > tier.rank:
                raise PydanticCustomError(
                    "above_tier",
                    "{mark} is above the relationship's tier {tier}",
                    {"mark": mark.letter, "tier": tier.letter},
                )
        return exhausted

    @field_serializer("exhausted")
    def _exhausted_in_ladder_order(self, exhausted: frozenset[Difficulty]) -> list[str]:
        # A set's order varies between runs; the ledger hashes canonical JSON.
        return [mark.value for mark in sorted(exhausted, key=lambda d: d.rank)]


class CareerTrack(_Frozen):
    """A Career Path's milestones (11.1, 11.2) and the Acclaim bubbles traced in pen past its cost."""

    minor: Count = 0
    major: Count = 0
    extra_cost: Count = 0
    """Empty Acclaim bubbles traced in pen (Appendix D: Disfigured, Impulsive, Flashbacks, Jinxed)."""


def _unworn(wear: int) -> bool:
    return wear == 0


class Holding(_Frozen, Input):
    """A Holding owned by the whole Cast (8, 10.3C): a Home Base, a ship, a workshop, a community."""

    name: Text
    quality: Quality = Quality.NORMAL
    kind: LineText | None = None
    wear: Count = Field(default=0, exclude_if=_unworn)
    """Wear a Mark Wear Consequence put on the Holding (14.3); left out of a dump at 0, so a
    Holding recorded before Holdings took Wear dumps as it always did."""

    @property
    def wear_capacity(self) -> int:
        """No Wear track is printed for a Holding: it has its Quality's number of boxes
        (NORMAL 3 … EPIC 6), as a Consequence at that Difficulty is sized (docs/rules.md)."""
        target = Difficulty(self.quality.value).target
        assert target is not None  # a Quality is NORMAL to EPIC
        return target


def _fill_keys(raw: object, keys: type[Enum], what: str, default: object) -> object:
    """Every member of keys in book order, default for those a file left out.

    Two spellings of one key ("Fight", "fight") would otherwise silently keep the last.
    """
    if not isinstance(raw, dict):
        return raw
    spelled: dict[Enum, str] = {}
    unknown = {}
    for key, value in raw.items():
        try:
            member = keys(key)
        except ValueError:
            unknown[key] = value  # left for the key's own validation to report
            continue
        if member in spelled:
            raise PydanticCustomError(
                "duplicate_key",
                "{first} and {second} name the same {what}",
                {"first": shown(spelled[member]), "second": shown(key), "what": what},
            )
        spelled[member] = key
    spelled = {m: spelled.get(m, m.value) for m in keys}
    # Keep the file's spelling so that error paths name what the file says.
    filled = {spelled[m]: raw.get(spelled[m], default) for m in keys}
    return filled | unknown


class StarSheet(_Frozen):
    name: StarName
    player: Text | None = None
    concept: LineText | None = None
    # Filled to all ten (and all four Paths below) however the sheet is made, even left out: a
    # sheet made in this process must equal the sheet read back from its event.
    abilities: dict[AbilityName, Ability] = Field(default_factory=dict, validate_default=True)
    influence: Influence
    limit: LimitTrack = Field(default_factory=LimitTrack)
    hero_props: list[HeroProp] = Field(default_factory=list)
    props: list[Prop] = Field(default_factory=list)
    trinkets: list[LineText] = Field(default_factory=list)
    bonds: list[Relationship] = Field(default_factory=list)
    grudges: list[Relationship] = Field(default_factory=list)
    acclaim: dict[CareerPath, Count] = Field(default_factory=dict, validate_default=True)
    masteries: frozenset[Mastery] = frozenset()
    written_off: StrictBool = False
    # Chapters 8-11 and Appendix D (domain/showrunner/{backpack,career,progression}.py). All
    # optional: a sheet written before they existed reads as a Star who has none of them yet.
    in_hand: list[Prop] = Field(default_factory=list)
    """Props carried in hand past a full Backpack (8.1D Overflow): 2 at most, one per hand."""
    stuff_ticks: Count = 0
    """Ticks on the "Stuff" track (11.1B Expand Your Kit); every two are one Utility Bundle."""
    backpack_crossed: Count = 0
    """Prop symbols crossed off in pen at the end of every Backpack row (Appendix D, Weakened)."""
    career: dict[CareerPath, CareerTrack] = Field(default_factory=dict)
    awards: frozenset[Award] = frozenset()
    awards_used: dict[Award, Count] = Field(default_factory=dict)
    """The Episode in which each Award's once-per-Episode power was last used."""
    bond_extra_boxes: Count = 0
    """Empty boxes traced in pen in front of every Bond track (Appendix D, Heartless)."""
    drawbacks: list[LineText] = Field(default_factory=list)
    """Lasting Limit Break drawbacks the sheet has no box for (Addiction, Possession, Jinxed)."""
    overloads: tuple[Literal["burnout", "jinxed"], ...] = ()
    """Internal Overloads that reach checks (Appendix D 11 Burnout: no Channel; 19 Jinxed:
    Failures are Disasters), marked by a Limit Break recorded since checks read them. One
    recorded before is only in `drawbacks`, and the checks after it are decided as they were."""
    possessor: LineText | None = None
    """The hostile Actor that possesses the Star (Appendix D 12 Possession), cast into the
    Supporting Cast by the Limit Break that rolled it; None for a Star never possessed."""
    relationship_added_episode: Count = 0
    """The Episode at whose end a Bond or Grudge was last added (10.2D: one per Episode)."""
    relationship_resolve_episode: Count = 0
    """The Episode at whose end a Bond or Grudge was last resolved (10.2E: one per Episode)."""

    _quiet: ClassVar[tuple[str, ...]] = (
        "in_hand",
        "stuff_ticks",
        "backpack_crossed",
        "career",
        "awards",
        "awards_used",
        "bond_extra_boxes",
        "drawbacks",
        "overloads",
        "possessor",
        "relationship_added_episode",
        "relationship_resolve_episode",
    )

    @field_serializer("awards")
    def _awards_in_book_order(self, awards: frozenset[Award]) -> list[str]:
        order = list(Award)
        return [a.value for a in sorted(awards, key=order.index)]

    @field_validator("in_hand")
    @classmethod
    def _two_hands(cls, in_hand: list[Prop]) -> list[Prop]:
        held = sum(p.count for p in in_hand)
        if held > 2:
            raise PydanticCustomError(
                "too_many_in_hand",
                "a Star has two hands: {held} Props cannot be carried in hand (2 at most)",
                {"held": held},
            )
        return in_hand

    @field_serializer("masteries")
    def _masteries_in_book_order(self, masteries: frozenset[Mastery]) -> list[str]:
        # A set's order varies between runs; the ledger hashes canonical JSON.
        order = list(Mastery)
        return [m.value for m in sorted(masteries, key=order.index)]

    def ability(self, name: AbilityName) -> Ability:
        return self.abilities[name]

    def hero_prop(self, name: str) -> HeroProp:
        wanted = " ".join(name.split()).casefold()
        for prop in self.hero_props:
            if " ".join(prop.name.split()).casefold() == wanted:
                return prop
        known = ", ".join(p.name for p in self.hero_props) or "none"
        raise UnknownName(f"{self.name} has no Hero Prop '{name}' (Hero Props: {known})")

    @field_validator("abilities", mode="before")
    @classmethod
    def _all_ten_abilities(cls, raw: object) -> object:
        return _fill_keys(raw, AbilityName, "Ability", {})

    @field_validator("acclaim", mode="before")
    @classmethod
    def _all_four_paths(cls, raw: object) -> object:
        return _fill_keys(raw, CareerPath, "Career Path", 0)

    @field_validator("props")
    @classmethod
    def _one_entry_per_type_and_quality(cls, props: list[Prop]) -> list[Prop]:
        first: dict[tuple[PropType, Quality], int] = {}
        for number, prop in enumerate(props, start=1):
            earlier = first.setdefault((prop.type, prop.quality), number)
            if earlier != number:
                context = {"earlier": earlier, "number": number, "quality": prop.quality.value, "type": prop.type.value}
                raise PydanticCustomError(
                    "duplicate_prop",
                    "entries {earlier} and {number} are both {quality} {type}: write one entry with the total count",
                    context,
                )
        return props
