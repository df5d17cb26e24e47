"""A d4 Resonance character as frozen data: the sheet a file describes, and the combatant it becomes.

`CharacterSheet` is what a character file (or the Director's `adversary` command) says;
`Combatant` is that sheet in play, with the tracks the ledger keeps: Endurance left,
Harms, Overkill, Kits' charges, failed Spellcraft intents and the rewards of the Arc.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from ..character_file import shown
from ..inputs import MANY, AtMost
from ..names import name_key
from ..text import CHARACTER_NAME, NAME, Name, Note

MAX_RANK = 10
"""The highest Skill rank a sheet may hold (the rulebook prints none; see docs/rules.md)."""
DEFAULT_MORALE = 4
"""Each player begins with a Morale of 4."""

MAGIC_KITS: dict[str, tuple[str, int]] = {
    "healing potion kit": ("Healing Potion Kit", 2),
    "weapon enchantment kit": ("Weapon Enchantment Kit", 2),
}
"""The Magic Item Kits of the rulebook's index, with their charges (a file may add its own)."""


def _in_range(low: int, high: int | None) -> AfterValidator:
    expect = f"{low} or more" if high is None else f"between {low} and {high}"

    def check(value: int) -> int:
        if value < low or (high is not None and value > high):
            raise PydanticCustomError(
                "out_of_range", "must be {expect} (got {got})", {"expect": expect, "got": shown(value)}
            )
        return value

    return AfterValidator(check)


Rank = Annotated[int, Field(strict=True), _in_range(0, MAX_RANK)]
Count = Annotated[int, Field(strict=True), _in_range(0, None), AtMost(MANY)]
# What a name may hold (domain/text.py) is checked as a file or the Director's command brings it in.
Text = Annotated[str, Field(strict=True, min_length=1), NAME.validator()]
CharacterName = Annotated[str, Field(strict=True, min_length=1), CHARACTER_NAME.validator()]


def _clean(text: str) -> str:
    return " ".join(text.split())


class Kit(BaseModel):
    """A Kit carried: mundane (no charges) or a magic item Kit with charges left of its maximum."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: Text
    charges: Count | None = None
    """Charges left; None for a mundane Kit."""
    max_charges: Count | None = None
    """What a market refills the charges to at a Scene's end; None for a mundane Kit."""

    @property
    def magic(self) -> bool:
        return self.max_charges is not None

    def label(self) -> str:
        return f"{self.name} ({self.charges}/{self.max_charges} charges)" if self.magic else self.name


def kit_named(name: str, charges: int | None = None) -> Kit:
    """A Kit by name: the index's magic Kits get their printed charges; others are mundane unless charged."""
    clean = _clean(name)
    known = MAGIC_KITS.get(name_key(clean))
    if charges is None and known is not None:
        return Kit(name=known[0], charges=known[1], max_charges=known[1])
    if charges is None:
        return Kit(name=clean)
    return Kit(name=known[0] if known else clean, charges=charges, max_charges=charges)


class Trait(BaseModel):
    """A Trait; its Spellcraft keywords let the character attempt Spellcraft checks."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: Text
    spellcraft: tuple[Text, ...] = ()
    description: Note = ""


class CharacterSheet(BaseModel):
    """What a character file holds."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: CharacterName
    skills: dict[Name, Rank] = Field(default_factory=dict)
    """Skill name -> rank: the number of d4s rolled (Brawn, Academics, Fortitude, Speed and the rest)."""
    morale: Annotated[int, Field(strict=True), _in_range(1, 16)] = DEFAULT_MORALE
    physical_endurance: Count = 0
    magical_endurance: Count = 0
    traits: tuple[Trait, ...] = ()
    kits: tuple[Kit, ...] = ()
    notes: Note = ""

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        cleaned = _clean(value)
        if not cleaned:
            raise PydanticCustomError("blank", "must not be blank")
        return cleaned

    @field_validator("skills")
    @classmethod
    def _skills(cls, value: dict[str, int]) -> dict[str, int]:
        seen: dict[str, str] = {}
        for skill in value:
            key = name_key(skill)
            if not key:
                raise PydanticCustomError("blank", "a Skill name must not be blank")
            if key in seen:
                raise PydanticCustomError(
                    "duplicate", "{a} and {b} are the same Skill", {"a": shown(seen[key]), "b": shown(skill)}
                )
            seen[key] = skill
        return {_clean(k): v for k, v in value.items()}

    @field_validator("kits")
    @classmethod
    def _kits(cls, value: tuple[Kit, ...], info: ValidationInfo) -> tuple[Kit, ...]:
        skills = info.data.get("skills")
        if skills is None:  # the skills were refused already; that error is the one to report
            return value
        brawn = rank_in(skills, "Brawn") or 0
        if len(value) > brawn:
            raise PydanticCustomError(
                "too_many_kits",
                "{n} Kits but a character carries at most their Brawn rank ({brawn})",
                {"n": len(value), "brawn": brawn},
            )
        for kit in value:
            if kit.magic and (kit.charges or 0) > (kit.max_charges or 0):
                raise PydanticCustomError(
                    "charges", "{kit} has more charges than its maximum", {"kit": shown(kit.name)}
                )
        return value

    def rank(self, skill: str) -> int | None:
        return rank_in(self.skills, skill)

    def skill_name(self, skill: str) -> str | None:
        """The Skill as the sheet spells it, found without regard to case."""
        key = name_key(skill)
        return next((s for s in self.skills if name_key(s) == key), None)

    def spellcraft_keywords(self) -> dict[str, str]:
        """name_key(keyword) -> the Trait that grants it."""
        return {name_key(k): t.name for t in self.traits for k in t.spellcraft}


def rank_in(skills: dict[str, int], skill: str) -> int | None:
    key = name_key(skill)
    return next((rank for name, rank in skills.items() if name_key(name) == key), None)


class Harm(BaseModel):
    """One type of Harm and its cumulative level (1 to 8)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    type: str
    level: int


class Combatant(BaseModel):
    """A character (or an adversary) in play: the sheet and the tracks the ledger keeps."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    sheet: CharacterSheet
    adversary: bool = False
    physical_endurance: int
    magical_endurance: int
    harms: tuple[Harm, ...] = ()
    overkill: int = 0
    removed: bool = False
    kits: tuple[Kit, ...] = ()
    enchanted: bool = False
    """A Weapon Enchantment Kit was used this Scene: +1 die on Strikes."""
    failed_intents: tuple[str, ...] = ()
    """Spellcraft intents failed this Arc (as typed); the same intent cannot be tried again."""
    scene_rewards: tuple[str, ...] = ()
    """Scene Rewards chosen this Arc: none may be chosen twice."""
    rewards: tuple[str, ...] = ()
    """Every reward gained, as 'Scene 2: Insight' or 'Arc 1: Renown'."""

    @classmethod
    def of(cls, sheet: CharacterSheet, *, adversary: bool = False) -> Combatant:
        return cls(
            sheet=sheet,
            adversary=adversary,
            physical_endurance=sheet.physical_endurance,
            magical_endurance=sheet.magical_endurance,
            kits=sheet.kits,
        )

    @property
    def name(self) -> str:
        return self.sheet.name

    @property
    def morale(self) -> int:
        return self.sheet.morale

    def harm_level(self, harm_type: str) -> int:
        key = name_key(harm_type)
        return next((h.level for h in self.harms if name_key(h.type) == key), 0)

    def endurance(self, source: str) -> int:
        return self.physical_endurance if source == "physical" else self.magical_endurance
