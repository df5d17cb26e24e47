"""The state of one campaign branch at one event: what every rule decides against.

Frozen pydantic models, so a state can be kept, compared and snapshotted as it is.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from .errors import AlreadyExists, UnknownName
from .showrunner.sheet import StarSheet


class Pitch(BaseModel):
    """The show as pitched when the campaign was created."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    title: str = Field(min_length=1)
    high_concept: str = ""
    premise: str = ""
    sfx_budget: int = Field(default=0, ge=0)
    ruleset: str = "showrunner"


class EnsemblePool(BaseModel):
    """The Cast's shared Influence: 1 of each type at the start of the Show (Section 10.3)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    grit: int = 1
    retake: int = 1
    spotlight: int = 1
    plot_armor: int = 1
    preparation: int = 1
    grit_max: int = 1
    retake_max: int = 1
    spotlight_max: int = 1
    plot_armor_max: int = 1
    preparation_max: int = 1


def star_key(name: str) -> str:
    """Stars are looked up by name without regard to case or surrounding spaces."""
    return " ".join(name.split()).casefold()


class CampaignState(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    pitch: Pitch | None = None
    stars: dict[str, StarSheet] = Field(default_factory=dict)
    ensemble: EnsemblePool = Field(default_factory=EnsemblePool)
    studio_notes: int = Field(default=0, ge=0)
    """The Director's pool (5.2, 5.3): gained on a Bad Take, spent for +1d6 Opposition."""
    dice_rolls: int = Field(default=0, ge=0)
    """How many rolls the branch has made: the index that derives each ledger roll's dice."""
    dice_commitment: str = ""
    """SHA-256 commitment of the seed ledger dice are derived from now."""
    revealed_seeds: dict[str, str] = Field(default_factory=dict)
    """Seeds revealed so far (commitment -> seed, hex): anyone can re-derive their rolls."""

    def star(self, name: str) -> StarSheet:
        """A Star by full name, or by the start of it when only one Star's name starts so."""
        key = star_key(name)
        if key in self.stars:
            return self.stars[key]
        matches = [sheet for k, sheet in self.stars.items() if key and k.startswith(key)]
        if len(matches) == 1:
            return matches[0]
        known = ", ".join(s.name for s in self.stars.values()) or "none yet"
        if len(matches) > 1:
            raise UnknownName(f"'{name}' could be {', '.join(m.name for m in matches)}; give more of the name")
        raise UnknownName(f"unknown Star '{name}' (Stars in this campaign: {known})")

    def check_star_is_new(self, sheet: StarSheet) -> None:
        if star_key(sheet.name) in self.stars:
            raise AlreadyExists(
                f"a Star named '{sheet.name}' is already in this campaign; "
                "choose another name"
            )

    def with_pitch(self, pitch: Pitch) -> CampaignState:
        return self.model_copy(update={"pitch": pitch})

    def with_star(self, sheet: StarSheet) -> CampaignState:
        return self.model_copy(update={"stars": {**self.stars, star_key(sheet.name): sheet}})
