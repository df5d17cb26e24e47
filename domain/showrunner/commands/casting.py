"""`casting-*` and `advance`: Casting a Star step by step (Chapters 2-4), and the Advance of play.

Each step is one command recording one fact (casting_events.py); the last, `casting-join`,
records `CastingCompleted` and the same `StarJoined` a Star file gives.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from ...dice import TableDice
from ...inputs import Input
from ...ruleset import Action, Decided, RollContext
from ...text import Line, Name
from ..casting_tables import StartingAge
from ..ladder import Difficulty
from ..sheet import AbilityName, CareerPath, Mastery, PropType
from ..state import ShowrunnerState
from .progress import rolled


class _In(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    star: Name


class CastingHeritage(_In):
    heritage: Name
    specialties: tuple[Name, Name] | None = None
    scars: tuple[Name, Name] | None = None
    bond: Name | None = None
    grudge: Name | None = None
    specialty_abilities: tuple[AbilityName, AbilityName]
    scar_abilities: tuple[AbilityName, AbilityName]
    bond_face: Name | None = None
    grudge_face: Name | None = None


class CastingStart(_In):
    player: Name | None = None
    concept: Line | None = None
    acclaim_path: CareerPath = CareerPath.TRAINING
    heritage: CastingHeritage | None = None
    """The Heritage, taken in the same command (it comes first or not at all)."""


class StarInCasting(_In):
    pass


class ParentIn(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Name
    archetype: Line
    primary: AbilityName
    secondary: AbilityName


class CastingParents(_In):
    parents: tuple[ParentIn, ...]
    lost_parent: tuple[Line, ...] = ()
    orphan_status: Line = ""


class CastingSiblings(_In):
    names: tuple[Name, ...] = ()


class CastingAge(_In):
    age: StartingAge | None = None


class CastingSettle(_In):
    specialties: tuple[tuple[AbilityName, Name], ...] = ()
    scars: tuple[tuple[AbilityName, Name], ...] = ()
    hero_props: tuple[tuple[Name, Line | None], ...] = ()
    careers: tuple[CareerPath, ...] = ()
    masteries: tuple[Mastery, ...] = ()
    family_bonds: tuple[Name, ...] = ()
    family_grudges: tuple[Name, ...] = ()


class CastingDevelop(_In):
    ability: AbilityName
    specialty: Name
    hero_prop: Name
    power: Line | None = None
    prop_type: PropType = PropType.GEAR


class ActorIn(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Name
    primary: AbilityName
    power_level: Difficulty = Difficulty.NORMAL


class CastingEncounter(_In):
    ally: ActorIn
    rival: ActorIn
    ally_specialty: Name
    move: Literal["aid", "harm"]
    move_ability: AbilityName
    move_difficulty: Difficulty = Difficulty.NORMAL
    rival_opposition: int = Field(default=0, ge=0, le=20)
    move_opposition: int = Field(default=0, ge=0, le=20)
    sets: tuple[Line, ...] = ()


class CastingWardrobe(_In):
    look: Line
    mannerism: Line
    agenda: Line
    archetype: Line = ""
    primary: AbilityName | None = None
    secondary: AbilityName | None = None
    trinkets: tuple[Line, ...] = ()


class IncitingIn(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    ally: ActorIn
    antagonist: ActorIn
    specialties: tuple[tuple[Name, Name], ...]
    """(Star, Specialty) for each Star: the Slot Rule of the Advance in the Ally's Primary Ability."""


class FoundersIn(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    benefit: Line
    home: Name
    kind: Line | None = None


class AdvanceIn(_In):
    ability: AbilityName | None = None
    hero_prop: Name | None = None
    bond: Name | None = None
    grudge: Name | None = None
    acclaim_path: CareerPath = CareerPath.TRAINING
    reason: Line = ""


def _fields(asked: Input) -> dict[str, Any]:
    return {name: getattr(asked, name) for name in type(asked).model_fields}


def start(state: ShowrunnerState, asked: CastingStart, roll: RollContext | None) -> Decided:
    """`CastingStarted`, and the `HeritageChosen` when the Heritage is given with it."""
    from ..casting_events import CastingStarted

    inputs = {k: v for k, v in _fields(asked).items() if k != "heritage"}
    started = CastingStarted.decided(state, **inputs)
    if asked.heritage is None:
        return [started]
    if asked.heritage.star != asked.star:
        from ...errors import RuleViolation

        raise RuleViolation(f"the Heritage given is {asked.heritage.star}'s, not {asked.star}'s")
    return [started, *_plain("HeritageChosen")(started.apply(state), asked.heritage, roll)]


def _plain(fact_name: str) -> Any:
    def decide(state: ShowrunnerState, asked: Input, roll: RollContext | None) -> Decided:
        from .. import casting_events

        fact = getattr(casting_events, fact_name)
        inputs = _fields(asked)
        if "star" in inputs:
            from ..casting import casting_of

            inputs["star"] = casting_of(state, inputs["star"]).sheet.name
        return [fact.decided(state, **_dumped(inputs))]

    return decide


def _dumped(inputs: dict[str, Any]) -> dict[str, Any]:
    """The input's fields as the fact takes them: a nested input (an Actor, a parent) as plain data."""

    def plain(value: Any) -> Any:
        if isinstance(value, Input):
            return value.model_dump()
        if isinstance(value, tuple):
            return tuple(plain(v) for v in value)
        return value

    return {k: plain(v) for k, v in inputs.items()}


def _rolling(fact_name: str) -> Any:
    def decide(state: ShowrunnerState, asked: Input, roll: RollContext | None) -> Decided:
        from .. import casting_events
        from ..casting import casting_of

        inputs = _dumped(_fields(asked))
        inputs["star"] = casting_of(state, inputs["star"]).sheet.name
        fact = rolled(getattr(casting_events, fact_name), state, roll, **inputs)
        assert roll is not None
        if isinstance(roll.dice, TableDice):
            roll.dice.check_all_used()
        return [fact]

    return decide


def join(state: ShowrunnerState, asked: StarInCasting, roll: RollContext | None) -> Decided:
    """The end of Casting: `CastingCompleted`, then the same `StarJoined` a Star file gives."""
    from ..casting import casting_of
    from ..casting_events import CastingCompleted
    from ..events import StarJoined

    record = casting_of(state, asked.star)
    done = CastingCompleted.decided(state, star=record.sheet.name)
    return [done, StarJoined(sheet=record.sheet)]


def inciting_incident(state: ShowrunnerState, asked: IncitingIn, roll: RollContext | None) -> Decided:
    """4.1 Step 4: the Cast's Connection, then the antagonist cast into the Supporting Cast at the
    raised Power Level when it is not an Actor yet (an Actor below it is refused)."""
    from ...errors import RuleViolation
    from ...names import name_key
    from ..actors import ActorSpec
    from ..casting_ensemble import antagonist_level
    from ..casting_events import IncitingIncidentPlayed
    from .actors import create_actor

    foe = asked.antagonist
    level = antagonist_level(state, foe.power_level)
    known = state.world.actors.get(name_key(foe.name))
    if known is not None and known.power_level.rank < level.rank:
        raise RuleViolation(
            f"{known.name} is {known.power_level.value} and the Cast's antagonist must be {level.value} at least: "
            "raise their Power Level first, or name a new Actor"
        )
    specialties = tuple((state.star(star).name, name) for star, name in asked.specialties)
    inputs = {"ally": asked.ally.model_dump(), "antagonist": foe.model_dump(), "specialties": specialties}
    played = rolled(IncitingIncidentPlayed, state, roll, **inputs)
    facts: list[Any] = [played]
    if known is None:
        after = played.apply(state)
        spec = ActorSpec(name=foe.name, primary=foe.primary, power_level=level, concept="the Season's antagonist")
        facts += create_actor(after, spec, roll)
    return facts


def founders_boons(state: ShowrunnerState, asked: FoundersIn, roll: RollContext | None) -> Decided:
    from ..casting_events import FoundersBoonsGranted
    from ..sheet import Holding

    home = Holding(name=asked.home, kind=asked.kind)
    return [FoundersBoonsGranted.decided(state, benefit=asked.benefit, home=home)]


def advance(state: ShowrunnerState, asked: AdvanceIn, roll: RollContext | None) -> Decided:
    from ..casting_events import Advanced

    inputs = _fields(asked)
    inputs["star"] = state.star(asked.star).name
    return [Advanced.decided(state, **inputs)]


CASTING = {
    "casting-start": Action(
        "Start Casting a Star (Chapter 2), with its Heritage if given.", CastingStart, start, subject="Casting"
    ),
    "casting-heritage": Action("2.1 Heritage.", CastingHeritage, _plain("HeritageChosen"), subject="Casting"),
    "casting-social-class": Action(
        "2.2 Social Class (d10, Starting Money d6).",
        StarInCasting,
        _rolling("SocialClassRolled"),
        rolls=True,
        subject="Casting",
    ),
    "casting-parents": Action(
        "2.3A Parental Status (d10).", CastingParents, _rolling("ParentsRolled"), rolls=True, subject="Casting"
    ),
    "casting-siblings": Action(
        "2.3B Siblings (d10).", CastingSiblings, _rolling("SiblingsRolled"), rolls=True, subject="Casting"
    ),
    "casting-starting-age": Action(
        "3A Starting Age (chosen or d10).", CastingAge, _rolling("StartingAgeChosen"), rolls=True, subject="Casting"
    ),
    "casting-settle": Action(
        "Make the choices a Casting roll left owed.", CastingSettle, _plain("CastingSettled"), subject="Casting"
    ),
    "casting-develop": Action(
        "3 Character Development (Pack Your Bags d6).",
        CastingDevelop,
        _rolling("LifeStageDeveloped"),
        rolls=True,
        subject="Casting",
    ),
    "casting-encounter": Action(
        "3 The Encounter (Dilemma d10, two checks).",
        CastingEncounter,
        _rolling("EncounterResolved"),
        rolls=True,
        subject="Casting",
    ),
    "casting-wardrobe": Action(
        "4.1 Getting into Wardrobe.", CastingWardrobe, _plain("WardrobeFinished"), subject="Casting"
    ),
    "casting-join": Action("The Star joins the Show at the end of Casting.", StarInCasting, join, subject="Casting"),
    "casting-inciting-incident": Action(
        "4.1 Step 4 The Inciting Incident (Dilemma d10; the antagonist's Power Dice).",
        IncitingIn,
        inciting_incident,
        rolls=True,
        subject="Casting",
    ),
    "casting-founders-boons": Action(
        "4.2 Step 3 The Founders' Boons: Ensemble Synergy and a Home Base.",
        FoundersIn,
        founders_boons,
        subject="Casting",
    ),
    "advance": Action(
        "Advance an Ability, Hero Prop, Bond or Grudge to its next milestone.", AdvanceIn, advance, subject="Advances"
    ),
}
