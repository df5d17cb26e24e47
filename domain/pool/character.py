"""A d10 Pool character: seven stats, skills with ranks and a trained flag, and Luck.

The models check what one sheet can say on its own (ranges, one skill per name); how a
pool is built from them is `pool_for`, here too, so the sheet and the rules agree.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator
from pydantic_core import PydanticCustomError

from ..character_file import shown
from ..names import name_key
from ..ruleset import SheetSection
from ..text import CHARACTER_NAME, NAME, Line, Note

STAT_MIN, STAT_MAX = 1, 10
RANK_MIN, RANK_MAX = 0, 10
LUCK_MIN, LUCK_MAX = 0, 10
DEFAULT_LUCK = 5
"""Luck 5 is a plain coin-flip: a d10 at or under it comes up 5 times in 10."""


def _in_range(low: int, high: int) -> AfterValidator:
    # pydantic reports ge/le separately; a player needs both bounds in one sentence.
    def check(value: int) -> int:
        if not low <= value <= high:
            raise PydanticCustomError(
                "out_of_range",
                "must be between {low} and {high} (got {got})",
                {"low": low, "high": high, "got": shown(value)},
            )
        return value

    return AfterValidator(check)


# Strict: a file saying `power = "3"`, `3.0` or `true` is a mistake, not a number.
StatValue = Annotated[int, Field(strict=True), _in_range(STAT_MIN, STAT_MAX)]
Rank = Annotated[int, Field(strict=True), _in_range(RANK_MIN, RANK_MAX)]
LuckValue = Annotated[int, Field(strict=True), _in_range(LUCK_MIN, LUCK_MAX)]
# What a name may hold (domain/text.py) is checked as a file brings it in.
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1), NAME.validator()]
CharacterName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1), CHARACTER_NAME.validator()]


class Stat(StrEnum):
    """The seven stats a pool draws on. The book names Power and Social; the rest complete a body,
    a mind and a will."""

    POWER = "power"
    AGILITY = "agility"
    ENDURANCE = "endurance"
    INTELLECT = "intellect"
    PERCEPTION = "perception"
    SOCIAL = "social"
    WILL = "will"

    @property
    def label(self) -> str:
        return self.value.title()

    @classmethod
    def _missing_(cls, value: object) -> Stat | None:
        if isinstance(value, str):
            wanted = value.strip().lower()
            for member in cls:
                if member.value == wanted:
                    return member
        return None


STAT_HELP = {
    Stat.POWER: "strength, force, carrying, breaking",
    Stat.AGILITY: "speed, balance, aim, sleight of hand",
    Stat.ENDURANCE: "stamina, toughness, holding out",
    Stat.INTELLECT: "reasoning, knowledge, memory",
    Stat.PERCEPTION: "noticing, searching, reading a room",
    Stat.SOCIAL: "persuading, deceiving, leading, charming",
    Stat.WILL: "nerve, resolve, resisting pressure",
}


class Stats(BaseModel):
    """One value per stat, 1 (feeble) to 10 (the peak of what a person can be); all seven are required."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    power: StatValue
    agility: StatValue
    endurance: StatValue
    intellect: StatValue
    perception: StatValue
    social: StatValue
    will: StatValue

    def of(self, stat: Stat) -> int:
        return int(getattr(self, stat.value))


class Skill(BaseModel):
    """A skill's rank, and whether the character is trained in it: only a trained skill adds dice."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    rank: Rank
    trained: bool = Field(default=True, strict=True)

    @model_validator(mode="after")
    def _trained_needs_a_rank(self) -> Skill:
        if self.trained and self.rank == 0:
            raise PydanticCustomError(
                "trained_rank_zero", "a trained skill has rank 1 or more (write trained = false for an untrained one)"
            )
        return self

    @property
    def dice(self) -> int:
        """The dice the skill adds to a pool: its rank when trained, none when not."""
        return self.rank if self.trained else 0


class PoolCharacter(BaseModel):
    """A character of the d10 Pool ruleset as its file describes it."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: CharacterName
    concept: Line = ""
    stats: Stats
    skills: dict[Text, Skill] = Field(default_factory=dict)
    luck: LuckValue = DEFAULT_LUCK
    notes: Note = ""

    @field_validator("skills")
    @classmethod
    def _one_skill_per_name(cls, skills: dict[str, Skill]) -> dict[str, Skill]:
        seen: dict[str, str] = {}
        for name in skills:
            key = name_key(name)
            if key in seen:
                raise PydanticCustomError(
                    "duplicate_skill",
                    "{a} and {b} are the same skill (names ignore case)",
                    {"a": shown(seen[key]), "b": shown(name)},
                )
            seen[key] = name
        return skills

    def skill(self, name: str) -> tuple[str, Skill] | None:
        """The skill of that name (case and spacing ignored) as the sheet spells it, or None."""
        key = name_key(name)
        for written, skill in self.skills.items():
            if name_key(written) == key:
                return written, skill
        return None


class PoolParts(BaseModel):
    """How a pool was built: the stat, the skill (if any) and the dice each gave."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    character: str
    stat: Stat
    stat_value: int
    skill: str | None = None
    """The skill as the sheet spells it, or as asked when the sheet lacks it."""
    skill_rank: int = 0
    trained: bool = False
    on_sheet: bool = False

    @property
    def size(self) -> int:
        return self.stat_value + (self.skill_rank if self.trained else 0)

    def describe(self) -> str:
        stat = f"{self.stat.label} {self.stat_value}"
        if self.skill is None:
            return f"{stat} = {self.size}d10"
        if self.trained:
            return f"{stat} + {self.skill} {self.skill_rank} = {self.size}d10"
        why = "not on the sheet" if not self.on_sheet else f"rank {self.skill_rank}, untrained"
        return f"{stat} ({self.skill} {why}: stat alone) = {self.size}d10"

    def label(self) -> str:
        return self.stat.label + (f" + {self.skill}" if self.skill else "")


def pool_for(character: PoolCharacter, stat: Stat, skill: str | None) -> PoolParts:
    """One die per point of the stat, plus one per rank of the skill when trained (else the stat alone)."""
    stat_value = character.stats.of(stat)
    if skill is None or not skill.strip():
        return PoolParts(character=character.name, stat=stat, stat_value=stat_value)
    found = character.skill(skill)
    if found is None:
        return PoolParts(character=character.name, stat=stat, stat_value=stat_value, skill=" ".join(skill.split()))
    written, entry = found
    return PoolParts(
        character=character.name,
        stat=stat,
        stat_value=stat_value,
        skill=written,
        skill_rank=entry.rank,
        trained=entry.trained,
        on_sheet=True,
    )


def sheet(character: PoolCharacter) -> list[SheetSection]:
    rows = [("Name", character.name)]
    if character.concept:
        rows.append(("Concept", character.concept))
    rows.append(("Luck", f"{character.luck} (a d10 at or under it is a lucky break)"))
    sections = [SheetSection("Character", tuple(rows))]
    sections.append(SheetSection("Stats", tuple((s.label, str(character.stats.of(s))) for s in Stat)))
    skills = tuple(
        (name, f"{skill.rank} (trained)" if skill.trained else f"{skill.rank} (untrained: adds no dice)")
        for name, skill in sorted(character.skills.items(), key=lambda item: name_key(item[0]))
    )
    sections.append(SheetSection("Skills", skills or (("(none)", "every roll is the stat alone"),)))
    if character.notes:
        sections.append(SheetSection("Notes", (("", character.notes),)))
    return sections
