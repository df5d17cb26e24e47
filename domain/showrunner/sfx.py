"""The SFX Budget's rules for a random Ability that names Channel (Chapter 1 Step 2B).

No Magic: "Always re-roll it if it comes up randomly". Low Magic: "The first time Channel is
randomly rolled for any reason, re-roll it once". Unknown: the same, "until Channel is revealed
or otherwise rendered accessible by the Stars".

Readings (docs/rules.md, "SFX Budget"): "the first time" is the show's first, not each Star's
or each table's: once a Channel has been rolled again, `ShowrunnerState.channel_rolled` is set
by the fact that rolled it, and every later Channel stands. Under Unknown, a Star's Channel
check renders Channel accessible, so a show whose Stars already channelled keeps it too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .vocabulary import AbilityName

if TYPE_CHECKING:
    from .state import ShowrunnerState


class ChannelRerolls:
    """Whether a random Ability's d10 that names Channel stands or is rolled again, for one
    decision; `rerolled` says whether the once-only re-roll was taken."""

    def __init__(self, *, always: bool = False, once: bool = False) -> None:
        self._always = always
        self._once = once
        self.rerolled = False

    @classmethod
    def of(cls, state: ShowrunnerState) -> ChannelRerolls:
        sfx = state.pitch.sfx if state.pitch is not None else None
        return cls(always=sfx == "no-magic", once=sfx in ("low-magic", "unknown") and not state.channel_rolled)

    def keeps(self, name: AbilityName) -> bool:
        if name is not AbilityName.CHANNEL:
            return True
        if self._always:
            return False
        if self._once and not self.rerolled:
            self.rerolled = True
            return False
        return True

    def recorded(self) -> bool | None:
        """What a fact records: True when the once-only re-roll was taken, else nothing."""
        return True if self.rerolled else None


def channel_rolled(state: ShowrunnerState, rerolled: bool | None) -> ShowrunnerState:
    """The state once a fact that rolled a first Channel again is applied."""
    return state.model_copy(update={"channel_rolled": True}) if rerolled else state


def channel_checked(state: ShowrunnerState, ability: AbilityName) -> ShowrunnerState:
    """The state once a Star's check is applied: under Unknown a Channel check reveals Channel."""
    if ability is not AbilityName.CHANNEL or state.channel_rolled:
        return state
    if state.pitch is None or state.pitch.sfx != "unknown":
        return state
    return state.model_copy(update={"channel_rolled": True})
