"""A Showrunner branch's state: the Stars, the Ensemble Pool and the Director's Studio Notes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from ..campaign import CampaignState, name_key
from .sheet import StarSheet


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


class ShowrunnerState(CampaignState):
    character_noun: ClassVar[str] = "Star"

    stars: dict[str, StarSheet] = Field(default_factory=dict)
    ensemble: EnsemblePool = Field(default_factory=EnsemblePool)
    studio_notes: int = Field(default=0, ge=0)
    """The Director's pool (5.2, 5.3): gained on a Bad Take, spent for +1d6 Opposition."""

    def roster(self) -> Mapping[str, StarSheet]:
        return self.stars

    def star(self, name: str) -> StarSheet:
        found = self.character(name)
        assert isinstance(found, StarSheet)
        return found

    def with_star(self, sheet: StarSheet) -> ShowrunnerState:
        return self.model_copy(update={"stars": {**self.stars, name_key(sheet.name): sheet}})
