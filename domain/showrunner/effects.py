"""Small, exact records of what a rule changed on the sheets, each able to apply itself.

A check or a Consequence decides once and records these; replaying the event applies
them again without re-deciding anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from ..dice import DiceSource, RecordingDice
from ..events import absent
from ..field_equality import FieldsEqual
from ..names import name_key
from ..text import Line
from .influence import PoolName, Regained, Spent
from .ladder import Quality
from .sheet import AbilityName, Award, CareerPath, PropType, Relationship, Scar, StarSheet
from .sheet_change import OffTheSheets, OnOneSheet
from .state import EnsemblePool, ShowrunnerState

_new = object.__new__
_set = object.__setattr__


class _Effect(FieldsEqual):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class AbilityMarked(OnOneSheet, _Effect):
    """XP and Conditions marked (positive) or cleared (negative) on one Ability."""

    kind: Literal["ability"] = "ability"
    star: str
    ability: AbilityName
    xp: int = 0
    conditions: int = 0

    def changed(self, sheet: StarSheet) -> StarSheet:
        ability = sheet.ability(self.ability)
        changed = ability.model_copy(
            update={"xp": ability.xp + self.xp, "conditions": ability.conditions + self.conditions}
        )
        return sheet.model_copy(update={"abilities": {**sheet.abilities, self.ability: changed}})


class LimitMarked(OnOneSheet, _Effect):
    """Limit ⦸ marked. Marks past the track are recorded as overflow (a Limit Break)."""

    kind: Literal["limit"] = "limit"
    star: str
    marked: int
    overflow: int = 0
    anomalies: tuple[int, ...] = ()
    """The d100 Anomaly rolled for each Limit taken (Appendix C)."""
    anomaly_rows: tuple[Line, ...] | None = Field(default=None, exclude_if=absent)
    """Each Anomaly's row of the group's Anomalies table file, when one is loaded; left out otherwise."""

    def changed(self, sheet: StarSheet) -> StarSheet:
        limit = sheet.limit.model_copy(update={"marked": sheet.limit.marked + self.marked})
        return sheet.model_copy(update={"limit": limit})


class AcclaimMarked(OnOneSheet, _Effect):
    kind: Literal["acclaim"] = "acclaim"
    star: str
    path: CareerPath
    amount: int = 1

    def changed(self, sheet: StarSheet) -> StarSheet:
        acclaim = {**sheet.acclaim, self.path: sheet.acclaim.get(self.path, 0) + self.amount}
        return sheet.model_copy(update={"acclaim": acclaim})


class WearMarked(OnOneSheet, _Effect):
    """Wear on a Hero Prop; each Wear marked gives the Prop 1 Asset XP (8.2A)."""

    kind: Literal["wear"] = "wear"
    star: str
    hero_prop: str
    wear: int
    overflow: int = 0
    """Wear that found no empty box: lost, as the sheet has no box for it."""

    def changed(self, sheet: StarSheet) -> StarSheet:
        target = sheet.hero_prop(self.hero_prop)
        props = [
            p.model_copy(update={"wear": p.wear + self.wear, "xp": p.xp + self.wear}) if p is target else p
            for p in sheet.hero_props
        ]
        return sheet.model_copy(update={"hero_props": props})


class HoldingWearMarked(OffTheSheets, _Effect):
    """Wear a Holding took in place of a Hero Prop (14.3 Mark Wear); a Holding has no XP track,
    so it earns none."""

    kind: Literal["holding-wear"] = "holding-wear"
    holding: str
    wear: int
    overflow: int = 0
    """Wear that found no empty box: lost."""

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        key = name_key(self.holding)
        holdings = tuple(
            h.model_copy(update={"wear": h.wear + self.wear}) if name_key(h.name) == key else h
            for h in state.ensemble.holdings
        )
        return state.model_copy(update={"ensemble": state.ensemble.model_copy(update={"holdings": holdings})})


class PropsSpent(OnOneSheet, _Effect):
    kind: Literal["props"] = "props"
    star: str
    type: PropType
    quality: Quality
    count: int

    def changed(self, sheet: StarSheet) -> StarSheet:
        props = []
        for prop in sheet.props:
            if (prop.type, prop.quality) == (self.type, self.quality):
                if prop.count > self.count:
                    props.append(prop.model_copy(update={"count": prop.count - self.count}))
            else:
                props.append(prop)
        return sheet.model_copy(update={"props": props})


class ScarMarked(OnOneSheet, _Effect):
    """A Scar placed in (or deepened in) one slot under an Ability."""

    kind: Literal["scar"] = "scar"
    star: str
    ability: AbilityName
    slot: int
    name: str
    penalty: int

    def changed(self, sheet: StarSheet) -> StarSheet:
        ability = sheet.ability(self.ability)
        slots = {**ability.slots, self.slot: Scar(name=self.name, penalty=self.penalty)}
        changed = ability.model_copy(update={"slots": dict(sorted(slots.items()))})
        return sheet.model_copy(update={"abilities": {**sheet.abilities, self.ability: changed}})


class StudioNotesChanged(OffTheSheets, _Effect):
    kind: Literal["studio_notes"] = "studio_notes"
    amount: int

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return state.model_copy(update={"studio_notes": state.studio_notes + self.amount})


class WrittenOff(OnOneSheet, _Effect):
    kind: Literal["written_off"] = "written_off"
    star: str

    def changed(self, sheet: StarSheet) -> StarSheet:
        return sheet.model_copy(update={"written_off": True})


class RelationshipMarked(OnOneSheet, _Effect):
    """A Bond or Grudge traded in a check (10.2A): the relationship as it stands after, and the
    Career Path of the 1 Acclaim an Advance gives (None when it did not Advance)."""

    kind: Literal["relationship"] = "relationship"
    star: str
    relationship: Literal["bond", "grudge"]
    after: Relationship
    acclaim_path: CareerPath | None = None

    def changed(self, sheet: StarSheet) -> StarSheet:
        field = "bonds" if self.relationship == "bond" else "grudges"
        kept = [self.after if name_key(r.with_) == name_key(self.after.with_) else r for r in getattr(sheet, field)]
        update: dict[str, object] = {field: kept}
        if self.acclaim_path is not None:
            update["acclaim"] = {**sheet.acclaim, self.acclaim_path: sheet.acclaim.get(self.acclaim_path, 0) + 1}
        return sheet.model_copy(update=update)


class ComboChanged(OffTheSheets, _Effect):
    """A Beat's check gaining Influence into its Sequence's Combo Pool (positive) or paying a
    spend from it (negative), in place of the rolling Star's own Profile (7.2)."""

    kind: Literal["combo"] = "combo"
    goal: str
    pool: PoolName
    amount: int

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        world = state.world
        sequence = world.sequence(self.goal)
        combo = {**sequence.combo, self.pool: sequence.combo.get(self.pool, 0) + self.amount}
        changed = sequence.model_copy(update={"combo": {p: n for p, n in combo.items() if n}})
        return state.model_copy(update={"world": world.with_sequence(changed)})


class AwardPowerUsed(OnOneSheet, _Effect):
    """An Award's once-per-Episode power used in a check or a Consequence (11.2)."""

    kind: Literal["award"] = "award"
    star: str
    award: Award
    episode: int

    def changed(self, sheet: StarSheet) -> StarSheet:
        return sheet.model_copy(update={"awards_used": {**sheet.awards_used, self.award: self.episode}})


class ComplicationCleared(OffTheSheets, _Effect):
    """14.3 Narrative Complication: the Star's next check took its extra Opposition Dice."""

    kind: Literal["complication"] = "complication"
    star: str
    dice: int

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return state.model_copy(update={"world": state.world.without_complication(self.star)})


Effect = Annotated[
    Spent
    | Regained
    | AbilityMarked
    | LimitMarked
    | AcclaimMarked
    | WearMarked
    | HoldingWearMarked
    | PropsSpent
    | ScarMarked
    | StudioNotesChanged
    | WrittenOff
    | RelationshipMarked
    | ComboChanged
    | ComplicationCleared
    | AwardPowerUsed,
    Field(discriminator="kind"),
]


def apply_effects(state: ShowrunnerState, effects: tuple[Effect, ...] | list[Effect]) -> ShowrunnerState:
    for effect in effects:
        state = effect.apply(state)
    return state


class Step(FieldsEqual):
    """One line of how a rule was applied: what the table would say aloud."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: str
    """rolled, spent, rerolled, removed, duplicated, blocked, kept, judged, rewarded, lost, …"""
    text: str
    faces: tuple[int, ...] = ()

    @classmethod
    def told(cls, kind: str, text: str, faces: tuple[int, ...]) -> Step:
        """The step validating these values makes, made without validating them: a check tells
        seven or more, and its own words and dice need no checking (a recorded step read back is)."""
        step = _new(cls)
        _set(step, "__dict__", {"kind": kind, "text": text, "faces": faces})
        _set(step, "__pydantic_fields_set__", {"kind", "text", "faces"})
        _set(step, "__pydantic_extra__", None)
        _set(step, "__pydantic_private__", None)
        return step


class Working:
    """A decision in progress: every effect applies at once, as at the table, and is kept.

    An effect on the sheet worked on changes that sheet alone; the sheet is put back in the state
    when the state is asked for. Putting it back after each effect, and finding it again, was most
    of what applying a check's rewards cost."""

    def __init__(self, state: ShowrunnerState, star: str, dice: DiceSource) -> None:
        self._state = state
        self._sheet_ahead = False
        """Whether `sheet` has changes that `_state` does not hold yet."""
        self.dice = RecordingDice(dice)
        self.sheet = state.star(star)
        self.name = self.sheet.name
        self.effects: list[Effect] = []
        self.steps: list[Step] = []

    @property
    def state(self) -> ShowrunnerState:
        """The state with every effect so far applied, as `apply_effects` gives it."""
        if self._sheet_ahead:
            self._state = self._state.with_star(self.sheet)
            self._sheet_ahead = False
        return self._state

    @property
    def ensemble(self) -> EnsemblePool:
        # No effect changes the Ensemble Pool but beyond the sheet, which applies at once.
        return self._state.ensemble

    def emit(self, effect: Effect) -> None:
        self.effects.append(effect)
        if isinstance(effect, OnOneSheet) and effect.star == self.name:
            self.sheet = effect.changed(self.sheet)
            self._state = effect.beyond_sheet(self._state)
            self._sheet_ahead = True
        elif isinstance(effect, OffTheSheets):
            self._state = effect.apply(self._state)
        else:
            self._state = effect.apply(self.state)
            self.sheet = self._state.star(self.name)

    def step(self, kind: str, text: str, faces: Sequence[int] = ()) -> None:
        self.steps.append(Step.told(kind, text, tuple(faces)))
