"""The facts of Casting (Chapters 2-4): one per step, each carrying the Star's Casting record
as the step left it, so a Star made in Casting can be audited step by step; and `Advanced`,
the Advance of play (`showrunner advance`).

Topics are forever: never rename one; add a schema version and an upcaster instead.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, Field

from ..dice import DiceSource, RecordingDice, Roll
from ..errors import RuleViolation
from ..events import CampaignFact, RolledFact
from ..names import name_key
from ..text import Line, Name
from . import casting as cast
from . import casting_tables as tables
from .advance import advance_ability, advance_hero_prop, advance_relationship
from .casting_record import Casting
from .check import Resolution
from .ensemble import grow_for_major_milestone
from .ladder import Difficulty
from .progress_events import Decision, OneStarFact, ProgressFact, ProgressRoll, RollsRedone, _active
from .sheet import AbilityName, CareerPath, Holding, Mastery, PropType
from .state import ShowrunnerState
from .table_files import TableName

Redone = tuple[Casting, list[str], dict[str, Any]]


class _Step:
    """What every Casting fact shares: the record after the step, and the lines told."""

    star: str
    record: Casting | None
    lines: tuple[str, ...]
    step: ClassVar[str] = ""

    def stars(self) -> tuple[str, ...]:
        return (self.star,)

    def summary(self) -> str:
        told = f": {'; '.join(self.lines)}" if self.lines else ""
        return f"{self.star} in Casting, {self.step}{told}"

    def keep(self, state: ShowrunnerState) -> ShowrunnerState:
        assert self.record is not None
        return state.model_copy(update={"casting": {**state.casting, name_key(self.record.sheet.name): self.record}})


class CastingFact(_Step, CampaignFact[ShowrunnerState]):
    star: Name
    record: Casting | None = None
    lines: tuple[str, ...] = ()

    def redo(self, state: ShowrunnerState) -> Redone:
        raise NotImplementedError

    @classmethod
    def decided(cls, state: ShowrunnerState, **inputs: Any) -> Self:
        draft = cls(**inputs)
        record, lines, extra = draft.redo(state)
        return draft.model_copy(update={"record": record, "lines": tuple(lines), **extra})

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return self.keep(state)


class CastingRoll(RollsRedone, _Step, RolledFact[ShowrunnerState]):
    star: Name
    record: Casting | None = None
    lines: tuple[str, ...] = ()
    rolls: tuple[Roll, ...] = ()

    def redo(self, state: ShowrunnerState, dice: DiceSource) -> Redone:
        raise NotImplementedError

    @classmethod
    def decided(cls, state: ShowrunnerState, dice: DiceSource, **inputs: Any) -> Self:
        draft = cls(**inputs)
        recorder = RecordingDice(dice)
        record, lines, extra = draft.redo(state, recorder)
        return draft.model_copy(
            update={"record": record, "lines": tuple(lines), "rolls": tuple(recorder.rolls), **extra}
        )

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        return self.keep(state)

    def differs(self, before: ShowrunnerState, outcome: Any) -> str | None:
        return "the Casting record after the roll differs from the record" if outcome != self.record else None


class CastingStarted(CastingFact, topic="showrunner/CastingStarted"):
    """A Star enters Casting (Chapter 2): a blank sheet with the starting Influence."""

    step: ClassVar[str] = "started"
    player: Name | None = None
    concept: Line | None = None
    acclaim_path: CareerPath = CareerPath.TRAINING
    """The Path the Acclaim of Casting's Bond and Grudge Advances goes on first (2.2 Special Note)."""

    def redo(self, state: ShowrunnerState) -> Redone:
        return cast.start(state, self.star, self.player, self.concept, self.acclaim_path), [], {}


def _record(state: ShowrunnerState, star: str) -> Casting:
    return cast.casting_of(state, star)


class HeritageChosen(CastingFact, topic="showrunner/HeritageChosen"):
    """2.1: a sample Heritage or the table's own, with the Abilities its Specialties and Scars go under."""

    step: ClassVar[str] = "Heritage"
    heritage: Name
    specialties: tuple[Name, Name] | None = None
    scars: tuple[Name, Name] | None = None
    bond: Name | None = None
    grudge: Name | None = None
    specialty_abilities: tuple[AbilityName, AbilityName]
    scar_abilities: tuple[AbilityName, AbilityName]
    bond_face: Name | None = None
    grudge_face: Name | None = None

    def redo(self, state: ShowrunnerState) -> Redone:
        record = _record(state, self.star)
        custom = (self.specialties, self.scars, self.bond, self.grudge)
        sample = tables.heritage_named(self.heritage)
        if any(part is not None for part in custom):
            if any(part is None for part in custom):
                raise RuleViolation(
                    "a Heritage of the table's own names two Specialties, two Scars, a Bond and a Grudge"
                )
            assert self.specialties and self.scars and self.bond and self.grudge
            heritage = tables.Heritage(self.heritage, self.specialties, self.scars, self.bond, self.grudge)
        elif sample is None:
            known = ", ".join(h.name for h in tables.SAMPLE_HERITAGES)
            raise RuleViolation(
                f"'{self.heritage}' is not a sample Heritage ({known}); "
                "for one of your own give its Specialties, Scars, Bond and Grudge"
            )
        else:
            heritage = sample
        bond_face = self.bond_face or heritage.bond
        grudge_face = self.grudge_face or heritage.grudge
        after, lines = cast.choose_heritage(
            record, heritage, self.specialty_abilities, self.scar_abilities, bond_face, grudge_face
        )
        return after, lines, {}


class SocialClassRolled(CastingRoll, topic="showrunner/SocialClassRolled"):
    """2.2: the Social Class d10 and the Starting Money d6."""

    step: ClassVar[str] = "Social Class"

    def redo(self, state: ShowrunnerState, dice: DiceSource) -> Redone:
        return (*cast.roll_social_class(_record(state, self.star), dice), {})


class ParentGiven(BaseModel):
    """A parent as the table made them: the Archetype (rolled on the table's own Random Archetype
    Table) and its Primary and Secondary Abilities."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: Name
    archetype: Line
    primary: AbilityName
    secondary: AbilityName


class ParentsRolled(CastingRoll, topic="showrunner/ParentsRolled"):
    """2.3A: the Parental Status d10 and the Advances it gives, Lost Parent and Orphan Status d10s."""

    step: ClassVar[str] = "Parents"
    parents: tuple[ParentGiven, ...]
    lost_parent: tuple[Line, ...] = ()
    """The Lost Parent table's answer for each roll, as the table reads it (the book prints no table)."""
    orphan_status: Line = ""

    def redo(self, state: ShowrunnerState, dice: DiceSource) -> Redone:
        parents = [(p.name, p.archetype, p.primary, p.secondary) for p in self.parents]
        record = _record(state, self.star)
        return (*cast.roll_parents(record, parents, self.lost_parent, self.orphan_status, dice, state.tables), {})


class SiblingsRolled(CastingRoll, topic="showrunner/SiblingsRolled"):
    """2.3B: how many siblings (d10) and each one's age (d10); they join the Supporting Cast."""

    step: ClassVar[str] = "Siblings"
    names: tuple[Name, ...] = ()

    def redo(self, state: ShowrunnerState, dice: DiceSource) -> Redone:
        return (*cast.roll_siblings(_record(state, self.star), self.names, dice), {})


class StartingAgeChosen(CastingRoll, topic="showrunner/StartingAgeChosen"):
    """3A: the Starting Age chosen or rolled (d10), its effects, and the Life Stages to play."""

    step: ClassVar[str] = "Starting Age"
    age: tables.StartingAge | None = None

    def redo(self, state: ShowrunnerState, dice: DiceSource) -> Redone:
        return (*cast.choose_starting_age(_record(state, self.star), self.age, dice), {})


class CastingSettled(CastingFact, topic="showrunner/CastingSettled"):
    """The choices a roll left owed: Specialties (the Slot Rule), Scars, Hero Prop and Career
    Advances, Path Masteries, the family members of the Social Class."""

    step: ClassVar[str] = "choices"
    specialties: tuple[tuple[AbilityName, Name], ...] = ()
    scars: tuple[tuple[AbilityName, Name], ...] = ()
    hero_props: tuple[tuple[Name, Line | None], ...] = ()
    careers: tuple[CareerPath, ...] = ()
    masteries: tuple[Mastery, ...] = ()
    family_bonds: tuple[Name, ...] = ()
    family_grudges: tuple[Name, ...] = ()

    def redo(self, state: ShowrunnerState) -> Redone:
        after, lines = cast.settle(
            _record(state, self.star),
            specialties=self.specialties,
            scars=self.scars,
            hero_props=self.hero_props,
            careers=self.careers,
            masteries=self.masteries,
            family_bonds=self.family_bonds,
            family_grudges=self.family_grudges,
        )
        return after, lines, {}


class LifeStageDeveloped(CastingRoll, topic="showrunner/LifeStageDeveloped"):
    """3 Part 1, Character Development: Hone Your Skills, Gear Up, Pack Your Bags (1d6)."""

    step: ClassVar[str] = "Character Development"
    ability: AbilityName
    specialty: Name
    hero_prop: Name
    power: Line | None = None
    """The first Power of a new Hero Prop (Gear Up into an empty slot)."""
    prop_type: PropType = PropType.GEAR

    def redo(self, state: ShowrunnerState, dice: DiceSource) -> Redone:
        record = _record(state, self.star)
        after, lines = cast.develop(
            state, record, self.ability, self.specialty, self.hero_prop, self.power, self.prop_type, dice
        )
        return after, lines, {}


class ActorGiven(BaseModel):
    """An Actor of the Encounter: their name, Primary Ability and Power Level."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: Name
    primary: AbilityName
    power_level: Difficulty = Difficulty.NORMAL


class EncounterResolved(CastingRoll, topic="showrunner/EncounterResolved"):
    """3 Part 2, the three-act Encounter: the Dilemma d10, the Choice, the Rival's Move (a Gambit)
    and the Character's Move (an Ability Check), with both checks' resolutions."""

    step: ClassVar[str] = "Encounter"
    ally: ActorGiven
    rival: ActorGiven
    ally_specialty: Name
    """The Slot Rule's Specialty for the Advance in the Ally's Primary Ability."""
    move: Literal["aid", "harm"]
    move_ability: AbilityName
    move_difficulty: Difficulty = Difficulty.NORMAL
    rival_opposition: int = Field(default=0, ge=0, le=20)
    move_opposition: int = Field(default=0, ge=0, le=20)
    sets: tuple[Line, ...] = ()
    """The Standing Sets of the three acts, as the table names them (Appendix B is not printed)."""
    checks: tuple[Resolution, ...] = ()

    def redo(self, state: ShowrunnerState, dice: DiceSource) -> Redone:
        after, lines, checks = cast.encounter(
            state,
            _record(state, self.star),
            ally=(self.ally.name, self.ally.primary, self.ally.power_level),
            rival=(self.rival.name, self.rival.primary, self.rival.power_level),
            ally_specialty=self.ally_specialty,
            move=self.move,
            move_ability=self.move_ability,
            move_difficulty=self.move_difficulty,
            rival_opposition=self.rival_opposition,
            move_opposition=self.move_opposition,
            dice=dice,
        )
        return after, lines, {"checks": tuple(checks)}


class WardrobeFinished(CastingFact, topic="showrunner/WardrobeFinished"):
    """4.1 Steps 1-3: Look, Mannerism, Agenda, the Archetype and its two Mastered Abilities, Trinkets."""

    step: ClassVar[str] = "Wardrobe"
    look: Line
    mannerism: Line
    agenda: Line
    archetype: Line = ""
    """As the table's Random Archetype Table names it (the book does not print it); empty when
    the group's Random Archetype table file is loaded, whose row the record holds."""
    primary: AbilityName | None = None
    secondary: AbilityName | None = None
    trinkets: tuple[Line, ...] = ()

    def redo(self, state: ShowrunnerState) -> Redone:
        after, lines = cast.finish_wardrobe(
            _record(state, self.star),
            look=self.look,
            mannerism=self.mannerism,
            agenda=self.agenda,
            archetype=self.archetype,
            primary=self.primary,
            secondary=self.secondary,
            trinkets=self.trinkets,
            archetypes=state.tables.get(TableName.ARCHETYPE),
        )
        return after, lines, {}


class CastingCompleted(CastingFact, topic="showrunner/CastingCompleted"):
    """Casting's end: the record leaves the state, and the Major Milestones marked in Casting
    grow the Ensemble Pool (4.2 Step 2). The StarJoined after it adds the Star."""

    step: ClassVar[str] = "complete"

    def redo(self, state: ShowrunnerState) -> Redone:
        record = _record(state, self.star)
        cast.join(state, record)
        lines = [f"Major Milestone on {p.value.title()}: the Ensemble Pool grows" for p in record.majors]
        return record, lines, {}

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        assert self.record is not None
        ensemble = state.ensemble
        for path in self.record.majors:
            ensemble = grow_for_major_milestone(ensemble, path)
        casting = {k: v for k, v in state.casting.items() if k != name_key(self.record.sheet.name)}
        return state.model_copy(update={"casting": casting, "ensemble": ensemble})


# ------------------------------------------------------------------ the Advance of play


class Advanced(OneStarFact, topic="showrunner/Advanced"):
    """An Advance in play (2.2 Special Note): an Ability, a Hero Prop or a Bond or Grudge jumps
    to its next milestone, bypassing the XP track (a reward the Director gives)."""

    ability: AbilityName | None = None
    hero_prop: Name | None = None
    bond: Name | None = None
    grudge: Name | None = None
    acclaim_path: CareerPath = CareerPath.TRAINING
    reason: Line = ""

    def redo(
        self, state: ShowrunnerState, dice: DiceSource | None
    ) -> tuple[ShowrunnerState, list[str], dict[str, Any]]:
        sheet = _active(state, self.star)
        given = [x for x in (self.ability, self.hero_prop, self.bond, self.grudge) if x is not None]
        if len(given) != 1:
            raise RuleViolation("an Advance goes to one Ability, one Hero Prop, one Bond or one Grudge")
        if self.ability is not None:
            sheet, mark = advance_ability(sheet, self.ability)
            lines = [f"{self.ability.value.title()} reached {mark}"]
        elif self.hero_prop is not None:
            sheet, mark = advance_hero_prop(sheet, self.hero_prop)
            lines = [f"{sheet.hero_prop(self.hero_prop).name} unlocked {mark}"]
        else:
            kind: Literal["bond", "grudge"] = "bond" if self.bond is not None else "grudge"
            with_ = self.bond or self.grudge or ""
            sheet, tier, path = advance_relationship(sheet, kind, with_, casting=False, acclaim_path=self.acclaim_path)
            acclaim = f", 1 Acclaim on {path.value.title()}" if path else ", every Path is full: the Acclaim is lost"
            lines = [f"{kind.title()} with {with_} to {tier.value}{acclaim}"]
        return state.with_star(sheet), lines, {}

    def summary(self) -> str:
        target = self.ability.value.title() if self.ability else self.hero_prop or self.bond or self.grudge
        why = f" ({self.reason})" if self.reason else ""
        return self._text(f"{self.star} Advanced {target}{why}")


# ------------------------------------------------------------------ Ready for the Show (4.1 Step 4, 4.2)


class IncitingIncidentPlayed(ProgressRoll, topic="showrunner/IncitingIncidentPlayed"):
    """4.1 Step 4: the shared Dilemma d10 and, for every Star, the Connection of the Choice and
    the Dilemma's Career Advance. The antagonist is raised to the Cast's minimum Power Level."""

    ally: ActorGiven
    antagonist: ActorGiven
    """As the table gave it; `antagonist_level` is the Power Level it plays at."""
    specialties: tuple[tuple[Name, Name], ...]
    """Each Star's Specialty (the Slot Rule) for the Advance in the Ally's Primary Ability."""
    antagonist_level: Difficulty = Difficulty.EPIC

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        from .casting_ensemble import antagonist_level, inciting_incident

        assert dice is not None
        after, lines = inciting_incident(
            state,
            ally=(self.ally.name, self.ally.primary),
            antagonist=(self.antagonist.name, self.antagonist.primary),
            specialties=dict(self.specialties),
            dice=dice,
        )
        level = antagonist_level(state, self.antagonist.power_level)
        lines.append(f"{self.antagonist.name} is the Season's antagonist at {level.value}")
        return after, lines, {"antagonist_level": level}

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        return self.changed.apply(state).model_copy(update={"antagonist": self.antagonist.name})

    def stars(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.changed.stars)

    def summary(self) -> str:
        return self._text(f"The Inciting Incident: the Cast sides with {self.ally.name} against {self.antagonist.name}")


class FoundersBoonsGranted(ProgressFact, topic="showrunner/FoundersBoonsGranted"):
    """4.2 Step 3: the Ensemble Synergy (an Ensemble Benefit for every Star, as the table names it)
    and the Home Base, a Holding at NORMAL Quality."""

    benefit: Line
    home: Holding

    def redo(self, state: ShowrunnerState, dice: DiceSource | None) -> Decision:
        from .casting_ensemble import founders_boons

        return founders_boons(state, self.benefit, self.home), [], {}

    def summary(self) -> str:
        return f"The Founders' Boons: {self.benefit}; the Home Base {self.home.name}"
