"""The two rewards a full Career Path is completed for (11.1): the Actor's Choice, or the
Path's own Character's Choice.

Input only, in a module of its own: the acclaim-complete command declares its input with
these at every start of the command line, and the Career rules (career.py) load only once a
Path is completed.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..inputs import Input
from .sheet import AbilityName, SlotNumber, Text


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class ActorsChoice(_Record):
    """Advance the Path's Influence (Retake, Grit, Spotlight or Plot Armor)."""

    kind: Literal["actor"] = "actor"


class LearnSkill(Input):
    """Training, Character's Choice: +1 Specialty in any Ability and slot."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["learn_skill"] = "learn_skill"
    ability: AbilityName
    slot: SlotNumber
    specialty: Text | None = None
    """The new Specialty's name; for a slot already holding a Specialty, omit it (or repeat it)."""


class ExpandKit(_Record):
    """Persistence, Character's Choice: one tick on the Stuff track."""

    kind: Literal["expand_kit"] = "expand_kit"


class InnateAptitude(_Record):
    """Talent, Character's Choice: 1d6 permanent XP, at most one per Ability; the first N named get one."""

    kind: Literal["innate_aptitude"] = "innate_aptitude"
    abilities: tuple[AbilityName, ...] = Field(min_length=1)


class Rewrite(_Record):
    what: Literal["clear_conditions", "soften_scar"]
    ability: AbilityName
    slot: SlotNumber | None = None
    """soften_scar: the slot holding the Scar."""


class BackstoryRewrites(_Record):
    """Destiny, Character's Choice: 1d6 rewrites; the first N listed are made."""

    kind: Literal["backstory_rewrites"] = "backstory_rewrites"
    rewrites: tuple[Rewrite, ...] = Field(min_length=1)


PathChoice = Annotated[
    ActorsChoice | LearnSkill | ExpandKit | InnateAptitude | BackstoryRewrites, Field(discriminator="kind")
]
