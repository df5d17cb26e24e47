"""A Star in Casting (Chapters 2-4): the sheet being built, the steps done, the choices owed.

Kept on the branch's state (ShowrunnerState.casting) from `CastingStarted` until the Star joins
with `StarJoined`; a Star in Casting is not a playing Star.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import ConfigDict, Field

from ..quick_copy import QuickCopy
from .ladder import Difficulty
from .sheet import StarSheet
from .vocabulary import AbilityName, CareerPath


class _Frozen(QuickCopy):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Step(StrEnum):
    """Casting's steps in the book's order (the Character Creation Summary)."""

    STARTED = "started"
    HERITAGE = "heritage"
    SOCIAL_CLASS = "social-class"
    PARENTS = "parents"
    SIBLINGS = "siblings"
    STARTING_AGE = "starting-age"
    DEVELOP = "develop"
    ENCOUNTER = "encounter"
    WARDROBE = "wardrobe"
    JOIN = "join"


OwedKind = Literal["specialty", "scar", "hero_prop", "career", "mastery", "family_bond", "family_grudge"]


class Owed(_Frozen):
    """A choice a roll left to the player: a Specialty for an Ability Advance (the Slot Rule), a
    Scar on a random Ability, a Hero Prop or Career Advance, a Path Mastery, a family member."""

    kind: OwedKind
    ability: AbilityName | None = None


class CastMember(_Frozen):
    """Someone of the Star's Supporting Cast made in Casting, and their ties to the Star."""

    name: str
    role: str
    primary: AbilityName | None = None
    power_level: Difficulty | None = None
    bond: Difficulty | None = None
    """Their Bond with the Star, if any."""
    grudge: Difficulty | None = None
    grudges: dict[str, Difficulty] = Field(default_factory=dict)
    """Their Grudges with other members of the cast (the Encounter's Ripple Effect)."""
    note: str = ""


class Wardrobe(_Frozen):
    look: str
    mannerism: str
    agenda: str
    archetype: str
    primary: AbilityName
    secondary: AbilityName


class Casting(_Frozen):
    sheet: StarSheet
    done: tuple[Step, ...] = (Step.STARTED,)
    owed: tuple[Owed, ...] = ()
    acclaim_path: CareerPath = CareerPath.TRAINING
    heritage: str | None = None
    social_class: str | None = None
    money: int = 0
    parental_status: str | None = None
    life_stages: int = 0
    stages_done: int = 0
    ability_advances: dict[AbilityName, int] = Field(default_factory=dict)
    """Ability Advances gained in Casting, for the Archetype (4.1 Step 2)."""
    majors: tuple[CareerPath, ...] = ()
    """Major Milestones marked in Casting: they grow the Ensemble Pool when the Star joins (4.2)."""
    cast: tuple[CastMember, ...] = ()
    wardrobe: Wardrobe | None = None
    channel_barred: bool = Field(default=False, exclude_if=lambda barred: not barred)
    """Unknown and No Magic (Chapter 1 Step 2B): no Channel Advances and no Mastered Channel
    in Casting. Set when Casting starts in such a show; left out of a dump while False."""

    @property
    def decade(self) -> int:
        """The decade of the next Life Stage, in years before the Show (30 for -30Y); 0 when none is left."""
        return 10 * (self.life_stages - self.stages_done)

    def member(self, name: str) -> CastMember | None:
        wanted = " ".join(name.split()).casefold()
        return next((m for m in self.cast if " ".join(m.name.split()).casefold() == wanted), None)
