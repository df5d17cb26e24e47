"""Harms: cumulative levels by type, Major at Morale, Overkill past level 8, removal, Endurance."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..errors import RuleViolation
from ..names import name_key
from .rules import add_levels, endurance_spent, is_major, standing
from .sheet import Combatant, Harm
from .state import ResonanceState

HarmSource = Literal["physical", "magical", "other"]
ENDURANCE_LABEL = {"physical": "Physical Endurance", "magical": "Magical Endurance"}


class HarmDealt(BaseModel):
    """What one Harm did to a combatant: recorded in full, so the log shows it and an audit compares it."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    target: str
    type: str
    source: HarmSource
    dealt: int
    """The levels before Endurance: a Strike's Resonance, or the levels the Director set."""
    endurance_spent: int
    levels: int
    """Levels taken after Endurance."""
    level_before: int
    level_after: int
    overkill_gained: int
    overkill_after: int
    major: bool
    unique_count: int
    major_count: int
    removed: bool
    """The target is removed from the narrative after this Harm."""
    newly_removed: bool

    def describe(self) -> str:
        spent = ""
        if self.endurance_spent:
            spent = f"; {self.target} spent {self.endurance_spent} {ENDURANCE_LABEL[self.source]}"
        text = f"{self.dealt} {self.type} Harm{spent}: {self.levels} level{'s' if self.levels != 1 else ''} taken"
        if self.levels:
            text += f", {self.type} {self.level_before} -> {self.level_after}"
            if self.overkill_gained:
                text += f", {self.overkill_gained} Overkill (now {self.overkill_after})"
            if self.major:
                text += " (Major)"
        return text


def check_endurance(target: Combatant, source: HarmSource, pledged: int) -> None:
    """Refuse to spend Endurance the target does not have, or of a kind the source does not allow."""
    if pledged < 0:
        raise RuleViolation(f"Endurance spent must be 0 or more (got {pledged})")
    if pledged == 0:
        return
    if source == "other":
        raise RuleViolation("Endurance reduces only Physical or Magical harm: give --source physical or magical")
    left = target.endurance(source)
    if pledged > left:
        raise RuleViolation(f"{target.name} has {left} {ENDURANCE_LABEL[source]} left and cannot spend {pledged}")


def harm_type(text: str | None) -> str:
    cleaned = " ".join((text or "").split())
    if not cleaned:
        raise RuleViolation("name the type of Harm (e.g. --harm bleeding)")
    return cleaned


def inflict(target: Combatant, kind: str, source: HarmSource, dealt: int, pledged: int) -> HarmDealt:
    """The Harm `dealt` levels of `kind` do to `target` after spending up to `pledged` Endurance."""
    spent = endurance_spent(pledged, dealt)
    levels = dealt - spent
    existing = next((h.type for h in target.harms if name_key(h.type) == name_key(kind)), kind)
    before = target.harm_level(kind)
    after, overkill = add_levels(before, levels) if levels else (before, 0)
    others = [h.level for h in target.harms if name_key(h.type) != name_key(kind)]
    now = standing([*others, after], target.overkill + overkill, target.morale)
    return HarmDealt(
        target=target.name,
        type=existing,
        source=source,
        dealt=dealt,
        endurance_spent=spent,
        levels=levels,
        level_before=before,
        level_after=after,
        overkill_gained=overkill,
        overkill_after=target.overkill + overkill,
        major=is_major(after, target.morale),
        unique_count=now.unique,
        major_count=now.major,
        removed=target.removed or now.removed,
        newly_removed=now.removed and not target.removed,
    )


def apply_harm(state: ResonanceState, dealt: HarmDealt) -> ResonanceState:
    target = state.combatant(dealt.target)
    harms = [h for h in target.harms if name_key(h.type) != name_key(dealt.type)]
    position = next((i for i, h in enumerate(target.harms) if name_key(h.type) == name_key(dealt.type)), len(harms))
    if dealt.level_after > 0:
        harms.insert(position, Harm(type=dealt.type, level=dealt.level_after))
    changes: dict[str, object] = {"harms": tuple(harms), "overkill": dealt.overkill_after, "removed": dealt.removed}
    if dealt.endurance_spent:
        field = f"{dealt.source}_endurance"
        changes[field] = getattr(target, field) - dealt.endurance_spent
    return state.with_combatant(target.model_copy(update=changes))
