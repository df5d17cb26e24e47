"""A Showrunner branch's state: the Stars, the Ensemble Pool and the Director's Studio Notes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import ConfigDict, Field, SerializerFunctionWrapHandler, field_validator, model_serializer

from ..campaign import CampaignState
from ..names import name_key
from ..quick_copy import QuickCopy
from .casting_record import Casting
from .sheet import Holding, Prop, StarSheet, quiet_defaults
from .table_files import TableFile, TableName
from .world import World


class EnsemblePool(QuickCopy):
    """The Cast's shared Influence: 1 of each type at the start of the Show (Section 10.3)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

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
    # The rest of the Ensemble Sheet (10.3B-D, domain/showrunner/ensemble.py). Left out of a dump
    # while at their defaults, so a state written before them dumps exactly as it did.
    xp: int = Field(default=0, ge=0)
    level: int = Field(default=1, ge=1)
    benefits: tuple[str, ...] = ()
    """The Ensemble Benefits (Synergy options) chosen at each new Level, as the table named them."""
    backpack: tuple[Prop, ...] = ()
    holdings: tuple[Holding, ...] = ()
    montage_episode: int = Field(default=0, ge=0)
    """The Episode whose Montage Sequence the Cast completed (9: once per Episode); 0 for none."""
    montage: Any = None
    """The Montage Sequence in progress (montage.MontageSequence), None between Montages. Typed
    loosely here only because montage.py imports this module; validated as a MontageSequence."""
    xp_episode: int = Field(default=0, ge=0)
    """The Episode whose two Ensemble XP questions were last answered (10.3D: once per Episode)."""

    _quiet: ClassVar[tuple[str, ...]] = (
        "xp",
        "level",
        "benefits",
        "backpack",
        "holdings",
        "montage_episode",
        "montage",
        "xp_episode",
    )

    @field_validator("montage", mode="before")
    @classmethod
    def _a_montage_sequence(cls, value: object) -> object:
        if value is None:
            return None
        from .montage import MontageSequence  # here: montage.py imports this module

        return MontageSequence.model_validate(value)

    @model_serializer(mode="wrap")
    def _leave_out_quiet_defaults(self, handler: SerializerFunctionWrapHandler) -> object:
        data = handler(self)
        if isinstance(data, dict):
            for name, key, default in quiet_defaults(type(self), self._quiet):
                if getattr(self, name) == default:
                    data.pop(key, None)
        return data


class ShowrunnerState(CampaignState):
    character_noun: ClassVar[str] = "Star"

    stars: dict[str, StarSheet] = Field(default_factory=dict)
    ensemble: EnsemblePool = Field(default_factory=EnsemblePool)
    studio_notes: int = Field(default=0, ge=0)
    """The Director's pool (5.2, 5.3): gained on a Bad Take, spent for +1d6 Opposition."""
    world: World = Field(default_factory=World)
    """The Supporting Cast, Threats, Subplots (stasis ones included: Director-only) and Action Sequences."""
    casting: dict[str, Casting] = Field(default_factory=dict, exclude_if=lambda casting: not casting)
    """Stars in Casting (Chapters 2-4) by name key, until they join; left out of a dump when none is."""
    antagonist: str | None = Field(default=None, exclude_if=lambda name: name is None)
    """The Season's antagonist named by the Inciting Incident (4.1 Step 4); None before it."""
    tables: dict[TableName, TableFile] = Field(default_factory=dict, exclude_if=lambda tables: not tables)
    """The table files loaded (`TableLoaded`), the latest of each table; left out of a dump when none is."""
    channel_rolled: bool = Field(default=False, exclude_if=lambda rolled: not rolled)
    """Whether Channel has come up on a random Ability roll and been rolled again once (Low Magic,
    Unknown), or, under Unknown, been revealed by a Star's Channel check: later Channels stand
    (sfx.py). Left out of a dump while False."""
    finale: Any = None
    """The Series Finale (finale.Finale), None before it begins. Typed loosely here only because
    finale.py imports this module's imports; validated as a Finale, left out of a dump while None
    so a state written before it dumps exactly as it did."""

    @field_validator("finale", mode="before")
    @classmethod
    def _a_finale(cls, value: object) -> object:
        if value is None:
            return None
        from .finale import Finale  # here: finale.py imports what imports this module

        return Finale.model_validate(value)

    @model_serializer(mode="wrap")
    def _leave_out_no_finale(self, handler: SerializerFunctionWrapHandler) -> object:
        data = handler(self)
        if isinstance(data, dict) and self.finale is None:
            data.pop("finale", None)
        return data

    def roster(self) -> Mapping[str, StarSheet]:
        return self.stars

    def stars_on_the_show(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.stars.values() if not s.written_off)

    def as_seen_by_players(self) -> ShowrunnerState:
        return self.model_copy(update={"world": self.world.as_seen_by_players()})

    def star(self, name: str) -> StarSheet:
        found = self.character(name)
        assert isinstance(found, StarSheet)
        return found

    def with_star(self, sheet: StarSheet) -> ShowrunnerState:
        return self.model_copy(update={"stars": {**self.stars, name_key(sheet.name): sheet}})
