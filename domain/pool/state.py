"""A d10 Pool branch's state: the characters, and each one's last roll (for Luck after a failure)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..campaign import CampaignState
from ..names import name_key
from .character import PoolCharacter


class LastRoll(BaseModel):
    """A character's latest check or contest: what a Luck roll after a failure reads."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    roll_number: int
    kind: Literal["check", "contest"]
    outcome: str
    """The degree's label for a check; 'won the contest' or 'lost the contest' for a contest."""
    failed: bool
    hidden: bool = False
    fortunate_mistake: bool = False
    """A Luck roll after this failure came up lucky: still a failure, but a fortunate one."""
    luck_rolled: bool = False


class PoolState(CampaignState):
    character_noun: ClassVar[str] = "character"

    characters: dict[str, PoolCharacter] = Field(default_factory=dict)
    last_rolls: dict[str, LastRoll] = Field(default_factory=dict)
    """By `name_key` of the character. Kept out of the sheets: a hidden roll's outcome is here too."""

    def roster(self) -> Mapping[str, PoolCharacter]:
        return self.characters

    def as_seen_by_players(self) -> PoolState:
        """Without a hidden roll's outcome: a character whose last roll was hidden has none to show."""
        return self.model_copy(update={"last_rolls": {k: r for k, r in self.last_rolls.items() if not r.hidden}})

    def member(self, name: str) -> PoolCharacter:
        found = self.character(name)
        assert isinstance(found, PoolCharacter)
        return found

    def with_character(self, character: PoolCharacter) -> PoolState:
        return self.model_copy(update={"characters": {**self.characters, name_key(character.name): character}})

    def with_last_roll(self, name: str, last: LastRoll) -> PoolState:
        return self.model_copy(update={"last_rolls": {**self.last_rolls, name_key(name): last}})

    def last_roll(self, name: str) -> LastRoll | None:
        """The character's latest check or contest on this branch (full name or its unique start)."""
        key = name_key(name)
        if key not in self.roster():
            key = name_key(self.character(name).name)
        return self.last_rolls.get(key)
