"""The state of one campaign branch at one event, whatever ruleset the table plays.

The ledger's own bookkeeping (the pitch and the dice) lives here; each ruleset's
state is a subclass adding its characters and tracks. Frozen pydantic models, so a
state can be kept, compared and snapshotted as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal, Protocol

from pydantic import ConfigDict, Field

from .errors import AlreadyExists, UnknownName
from .events import absent
from .inputs import Input, Many
from .names import matching_keys, name_key
from .quick_copy import QuickCopy
from .structure import Structure
from .text import Line, Note, Title


class Named(Protocol):
    @property
    def name(self) -> str: ...


SfxBudget = Literal["high-magic", "low-magic", "superpowers", "psionics", "unknown", "no-magic"]
"""Chapter 1 Step 2B: what the Channel Ability is in this show."""


class Pitch(Input):
    """The show as pitched when the campaign was created."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    title: Title = Field(min_length=1)
    high_concept: Line = ""
    premise: Note = ""
    sfx_budget: Many = Field(default=0, ge=0)
    ruleset: str = "showrunner"
    sfx: SfxBudget | None = Field(default=None, exclude_if=absent)
    """The SFX Budget named (Chapter 1 Step 2B); None for a show pitched without one, which
    plays Channel as every budget allows. Left out of a dump when None."""

    @property
    def no_magic(self) -> bool:
        """No Magic: "the Channel Ability doesn't exist and can never be used or advanced"."""
        return self.sfx == "no-magic"


class PendingRoll(QuickCopy):
    """A roll a Star asked for where the Director's key file is not: the command, its input and
    the Star's entropy are in the log before anyone can know the dice; the Director's machine
    rolls it next (ledger/requests.py)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    command: str
    input: dict[str, Any]
    entropy: str
    by: str


class CampaignState(QuickCopy):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    character_noun: ClassVar[str] = "character"
    """What the ruleset calls a player's character ("Star" in Showrunner), for messages."""

    pitch: Pitch | None = None
    dice_rolls: int = Field(default=0, ge=0)
    """How many rolls the branch has made: the index that derives each ledger roll's dice."""
    dice_commitment: str = ""
    """SHA-256 commitment of the seed ledger dice are derived from now."""
    revealed_seeds: dict[str, str] = Field(default_factory=dict)
    """Seeds revealed so far (commitment -> seed, hex): anyone can re-derive their rolls."""
    pending_roll: PendingRoll | None = None
    """A Star's roll asked for and not yet rolled: it holds the branch, since the next event
    must be its roll or its withdrawal."""
    structure: Structure = Field(default_factory=Structure)
    """The Season, Episode and Scene running now (domain/structure.py)."""

    def roster(self) -> Mapping[str, Named]:
        """The player characters by `name_key`; a ruleset's state says where it keeps them."""
        return {}

    def stars_on_the_show(self) -> tuple[str, ...]:
        """The full names of the players' characters still on the Show: each answers their own
        part of the Post-Show. A ruleset leaves out who is not a player's (or no longer)."""
        return tuple(c.name for c in self.roster().values())

    def as_seen_by_players(self) -> CampaignState:
        """The state a Star at the keyboard may see: without what only the Director knows.

        Director-only events are left out of a Star's log, export and recap; their effects
        on the state are left out here, by each ruleset where it keeps such things."""
        return self

    def character(self, name: str) -> Named:
        """A character by full name, or by the start of it when only one name starts so."""
        roster = self.roster()
        matches = [roster[k] for k in matching_keys(roster, name)]
        if len(matches) == 1:
            return matches[0]
        noun = self.character_noun
        if len(matches) > 1:
            raise UnknownName(f"'{name}' could be {', '.join(m.name for m in matches)}; give more of the name")
        known = ", ".join(c.name for c in roster.values()) or "none yet"
        raise UnknownName(f"unknown {noun} '{name}' ({noun}s in this campaign: {known})")

    def check_character_is_new(self, name: str) -> None:
        if name_key(name) in self.roster():
            raise AlreadyExists(
                f"a {self.character_noun} named '{name}' is already in this campaign; choose another name"
            )
