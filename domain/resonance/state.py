"""A d4 Resonance branch's state: the characters and adversaries, the combat, the Scene and Arc."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from ..campaign import CampaignState
from ..errors import RuleViolation
from ..names import name_key
from .sheet import Combatant


class Combat(BaseModel):
    """A combat under way: the turn order by Speed, each combatant's Front, and whose turn it is."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    order: tuple[str, ...]
    fronts: dict[str, str] = Field(default_factory=dict)
    """name_key(combatant) -> the Front they are on."""
    turns: bool = False
    """Whether whose turn it is is kept: false for a combat begun before the ledger kept turns,
    whose records must fold and re-judge as they were decided."""
    round: int = 1
    turn: int = 0
    """The index in `order` of the combatant whose turn it is."""
    acted: bool = False
    """The combatant whose turn it is has used its Check or Ability (or a Support spent it)."""
    spent: tuple[str, ...] = ()
    """name_keys of combatants whose next turn's Check a Support has already spent."""

    def takes_part(self, name: str) -> bool:
        return name_key(name) in {name_key(n) for n in self.order}

    def front_of(self, name: str) -> str | None:
        return self.fronts.get(name_key(name))

    def current(self) -> str | None:
        """Whose turn it is, when turns are kept."""
        return self.order[self.turn] if self.turns else None


class ResonanceState(CampaignState):
    character_noun: ClassVar[str] = "character"

    characters: dict[str, Combatant] = Field(default_factory=dict)
    """Player characters and adversaries, by name_key."""
    combat: Combat | None = None
    scene: int = 1
    arc: int = 1
    arc_first_scene: int = 1
    """The number of the Arc's first Scene. Arcs ended before the ledger counted their Scenes
    leave it as it was, so such a campaign counts from its first Scene."""

    def roster(self) -> Mapping[str, Combatant]:
        return self.characters

    def stars_on_the_show(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.characters.values() if not c.adversary)

    def as_seen_by_players(self) -> ResonanceState:
        """Adversaries join Director-only: their ranks are not the players' to read."""
        return self.model_copy(update={"characters": {k: c for k, c in self.characters.items() if not c.adversary}})

    def combatant(self, name: str) -> Combatant:
        found = self.character(name)
        assert isinstance(found, Combatant)
        return found

    def active(self, name: str, doing: str) -> Combatant:
        """A combatant who may act; one removed from the narrative is refused."""
        found = self.combatant(name)
        if found.removed:
            raise RuleViolation(
                f"{found.name} has been removed from the narrative and cannot {doing}; "
                "`resonance rejoin` brings them back once their harms are healed"
            )
        return found

    def with_combatant(self, combatant: Combatant) -> ResonanceState:
        return self.model_copy(update={"characters": {**self.characters, name_key(combatant.name): combatant}})

    def updated(self, name: str, **changes: object) -> ResonanceState:
        return self.with_combatant(self.combatant(name).model_copy(update=changes))
