"""Actors, the Supporting Cast (Appendix A; 12.1 I, J; 13.2), and the d100 Supporting Cast Roster.

An Actor is given whole or rolled: what the table does not give is rolled. Dice purposes:
"ability" (a d10 each for the Primary and Secondary Ability), "power_level" (the 3d6 of the
Power Level) and "power" (the pips on the Power Dice).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationInfo, field_validator, model_validator

from ..dice import DiceSource, check_faces
from ..errors import InvalidDice, RuleViolation, UnknownName
from ..events import absent
from ..inputs import Input, is_input
from ..names import name_key
from ..text import NAME, Line, Name, Note
from .flavour import ability_for
from .ladder import Difficulty
from .power_dice import PowerDice, roll_power_dice
from .sfx import ChannelRerolls
from .sheet import AbilityName

POWER_LEVEL = "power_level"
"""The dice purpose of a 3d6 Power Level roll (an Actor's, or a Subplot's Power)."""

ROSTER_SIZE = 100
Scale = Literal["typical", "minor", "powerful"]
"""Appendix A's Scaled Power: the middle die; the lowest for a minor Actor; the highest for a powerful one."""
TieKind = Literal["bond", "grudge"]
TIE_KINDS: tuple[TieKind, ...] = ("bond", "grudge")
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
RosterNumber = Annotated[int, Field(ge=1, le=ROSTER_SIZE)]
_POWER_LEVELS = tuple(level for level in Difficulty if level is not Difficulty.EASY)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class PowerLevelRoll(_Frozen):
    faces: tuple[int, int, int]
    scale: Scale = "typical"
    level: Difficulty


def power_level_from(faces: Sequence[int], scale: Scale = "typical") -> PowerLevelRoll:
    """3d6: the middle die (or the lowest/highest when scaled) names NORMAL (1) … MYTHIC (6);
    doubles add 1 and triples add 2, so the ladder's top, GODLIKE (8), is reachable."""
    if len(faces) != 3:
        raise InvalidDice(f"a Power Level is rolled on 3d6, not {len(faces)} dice", purpose=POWER_LEVEL)
    check_faces(POWER_LEVEL, faces, 6)
    ordered = sorted(faces)
    value = {"minor": ordered[0], "typical": ordered[1], "powerful": ordered[2]}[scale]
    value += max(Counter(faces).values()) - 1  # a pair is +1, triples +2
    return PowerLevelRoll(faces=(faces[0], faces[1], faces[2]), scale=scale, level=_POWER_LEVELS[value - 1])


def roll_power_level(dice: DiceSource, scale: Scale = "typical") -> PowerLevelRoll:
    return power_level_from(dice.roll(POWER_LEVEL, 3), scale)


class Person(_Frozen):
    """Who fills a Bond or Grudge slot: an Actor of the world, or a Star (10.1 "Faces only")."""

    name: Text
    star: bool = False

    def is_(self, name: str) -> bool:
        return name_key(self.name) == name_key(name)


Ties = dict[Difficulty, Person]


def _tie_levels(ties: Ties, what: str) -> Ties:
    if Difficulty.EASY in ties:
        raise ValueError(f"{what} slots run from NORMAL up: there is no EASY slot")
    return dict(sorted(ties.items(), key=lambda item: item[0].rank))


class Actor(_Frozen):
    """A Supporting Cast member: one Bond and one Grudge slot per Power Level (Appendix A step 11)."""

    name: Text
    concept: str = ""
    archetype: str | None = Field(default=None, exclude_if=absent)
    """The row of the group's Random Archetype table file at the Actor's two Abilities, when one
    was loaded as the Actor was cast (the book does not print the table); left out otherwise."""
    primary: AbilityName
    secondary: AbilityName
    power: PowerDice
    specialties: tuple[str, ...] = ()
    scars: tuple[str, ...] = ()
    agenda: str = ""
    bonds: Ties = Field(default_factory=dict)
    grudges: Ties = Field(default_factory=dict)
    written_off: bool = False

    @field_validator("bonds")
    @classmethod
    def _bond_levels(cls, bonds: Ties) -> Ties:
        return _tie_levels(bonds, "Bond")

    @field_validator("grudges")
    @classmethod
    def _grudge_levels(cls, grudges: Ties) -> Ties:
        return _tie_levels(grudges, "Grudge")

    @model_validator(mode="after")
    def _consistent(self) -> Actor:
        if self.primary is self.secondary:
            raise ValueError(f"{self.name}'s Primary and Secondary Ability are both {self.primary.value.title()}")
        if not self.power.pips and not self.written_off:
            raise ValueError(f"{self.name} has no Power Dice: only a written-off Actor has none")
        for person in (*self.bonds.values(), *self.grudges.values()):
            if not person.star and person.is_(self.name):
                raise ValueError(f"{self.name} cannot hold a Bond or Grudge with themselves")
        return self

    @property
    def power_level(self) -> Difficulty:
        top = self.power.top
        if top is None:
            raise RuleViolation(f"{self.name} was written off with no Power Dice left and has no Power Level")
        return top

    def ties(self, kind: TieKind) -> Ties:
        return self.bonds if kind == "bond" else self.grudges

    def tier(self, kind: TieKind, name: str) -> Difficulty | None:
        """The highest slot of this kind that holds `name`, or None."""
        held = [level for level, person in self.ties(kind).items() if person.is_(name)]
        return max(held, key=lambda level: level.rank) if held else None

    def missing_ties(self) -> tuple[str, ...]:
        """The empty Bond and Grudge slots, one per Power Level (13.1 Social Web Prerequisite)."""
        return tuple(
            f"{kind.title()} at {level.value}"
            for kind in TIE_KINDS
            for level in _POWER_LEVELS[: self.power_level.rank]
            if level not in self.ties(kind)
        )


class ActorSpec(Input):
    """What the table gave for a new Actor (Appendix A); the rest is rolled. The input of
    `actor-create`, kept in the ActorCreated it records."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Name
    concept: Line = ""
    scale: Scale = "typical"
    primary: AbilityName | None = None
    secondary: AbilityName | None = None
    power_level: Difficulty | None = None
    pips: tuple[int, ...] | None = None
    """The Power Dice given whole, NORMAL first: nothing is rolled for them."""
    specialties: tuple[Name, ...] = ()
    scars: tuple[Name, ...] = ()
    agenda: Note = ""
    bonds: Ties = Field(default_factory=dict)
    grudges: Ties = Field(default_factory=dict)
    slot: int | None = None

    @field_validator("bonds", "grudges")
    @classmethod
    def _plain_names(cls, ties: Ties, info: ValidationInfo) -> Ties:
        # A Person is also the state's, so its own field checks nothing: the names given here are new.
        if is_input(info):
            for person in ties.values():
                NAME.refuse(person.name, f"a {(info.field_name or 'tie')[:-1]}'s name")
        return ties


def detail_count(level: Difficulty) -> int:
    """Appendix A step 3: details kept from each section. The book skips EPIC; it sits with
    FORMIDABLE and LEGENDARY (two), between HARD (one) and MYTHIC (three)."""
    if level.rank <= Difficulty.HARD.rank:
        return 1
    return 2 if level.rank <= Difficulty.LEGENDARY.rank else 3


def roll_abilities(
    name: str,
    dice: DiceSource,
    primary: AbilityName | None,
    secondary: AbilityName | None,
    *,
    channel: ChannelRerolls | None = None,
) -> tuple[AbilityName, AbilityName]:
    """Appendix A Archetype: a d10 for each Ability not given, the Primary first; a Secondary
    rolled equal to the Primary is rolled again, and one given equal to it is refused. A Channel
    rolled is rolled again as the SFX Budget says (`channel`: No Magic always, Low Magic and
    Unknown the first time)."""
    rerolls = channel if channel is not None else ChannelRerolls()

    def rolled() -> AbilityName:
        while True:
            named = ability_for(dice.roll("ability", 1, 10)[0])
            if rerolls.keeps(named):
                return named

    if primary is None:
        primary = rolled()
    if secondary is primary:
        raise RuleViolation(f"{name}'s Secondary Ability must differ from the Primary ({primary.value.title()})")
    while secondary is None:
        again = rolled()
        secondary = None if again is primary else again
    return primary, secondary


def roll_actor(
    name: str,
    dice: DiceSource,
    *,
    concept: str = "",
    scale: Scale = "typical",
    primary: AbilityName | None = None,
    secondary: AbilityName | None = None,
    power_level: Difficulty | None = None,
    specialties: Sequence[str] = (),
    scars: Sequence[str] = (),
    agenda: str = "",
    bonds: Mapping[Difficulty, Person] | None = None,
    grudges: Mapping[Difficulty, Person] | None = None,
    channel: ChannelRerolls | None = None,
) -> Actor:
    """Appendix A: roll what is not given, in the book's order (Primary, Secondary, Power Level, pips).
    A Secondary Ability rolled equal to the Primary is rolled again: an Actor has two Abilities."""
    primary, secondary = roll_abilities(name, dice, primary, secondary, channel=channel)
    level = power_level if power_level is not None else roll_power_level(dice, scale).level
    return Actor(
        name=name,
        concept=concept,
        primary=primary,
        secondary=secondary,
        power=roll_power_dice(level, dice),
        specialties=tuple(specialties),
        scars=tuple(scars),
        agenda=agenda,
        bonds=dict(bonds or {}),
        grudges=dict(grudges or {}),
    )


def advance_tie(actor: Actor, kind: TieKind, person: Person, to: Difficulty | None = None) -> Actor:
    """Move `person` up to slot `to` (one step when not given; a new tie starts at NORMAL).

    Slots stop at the Actor's Power Level, and a tie never moves down. The Actor already in the
    slot swaps places with `person`, so the web stays full; if `person` held no slot, that Actor
    leaves the web.
    """
    ties = actor.ties(kind)
    held = actor.tier(kind, person.name)
    if to is None:
        to = Difficulty.NORMAL if held is None else held.step(1)
    to = min(to, actor.power_level, key=lambda level: level.rank)
    if held is not None and held.rank >= to.rank:
        return actor
    moved = dict(ties)
    displaced = moved.get(to)
    moved[to] = person
    if held is not None:
        if displaced is None:
            del moved[held]
        else:
            moved[held] = displaced
    return actor.model_copy(update={"bonds" if kind == "bond" else "grudges": _tie_levels(moved, kind.title())})


def set_tie(actor: Actor, kind: TieKind, person: Person, to: Difficulty | None = None) -> Actor:
    """The table moves a Bond or Grudge (`actor tie`): `advance_tie`, but what it would silently
    cap or leave alone is refused, so a command never records a tie that did not move. Refused: a
    written-off Actor, a tie with themselves, a slot above the Actor's Power Level (one slot per
    level, NORMAL up), a move that is not upward, and a tie already at the top slot."""
    what = kind.title()
    if actor.written_off:
        raise RuleViolation(f"{actor.name} has been written off the Show: their {what}s no longer move")
    if not person.star and person.is_(actor.name):
        raise RuleViolation(f"{actor.name} cannot hold a {what} with themselves")
    top = actor.power_level
    held = actor.tier(kind, person.name)
    slots = f"{actor.name} is {top.value}: {what} slots run from NORMAL to {top.value}, one per Power Level"
    if to is not None and to.rank > top.rank:
        raise RuleViolation(f"{slots}; there is no {to.value} slot")
    if held is not None and to is None and held is top:
        raise RuleViolation(f"{actor.name}'s {what} with {person.name} is already in the top slot ({slots})")
    if held is not None and to is not None and to.rank <= held.rank:
        raise RuleViolation(
            f"{actor.name}'s {what} with {person.name} is at {held.value}: a tie only moves up, not to {to.value}"
        )
    return advance_tie(actor, kind, person, to)


def relationship_difficulty(actor: Actor, kind: TieKind, name: str) -> Difficulty:
    """12.1I: moving an Actor's Bond or Grudge one slot is a check at that tie's current level."""
    tier = actor.tier(kind, name)
    if tier is None:
        held = ", ".join(f"{p.name} ({level.letter})" for level, p in actor.ties(kind).items()) or "none"
        raise UnknownName(f"{actor.name} holds no {kind.title()} with {name} ({kind.title()}s: {held})")
    return tier


def shift_tie(actor: Actor, kind: TieKind, person: Person, direction: Literal["up", "down"]) -> Actor:
    """12.1I: a Star's check moves an Actor's Bond or Grudge one slot up or down. Whoever held the
    slot reached swaps into the one left; a tie moved down from NORMAL leaves the web. Moving up
    from the top slot (the Actor's Power Level) is refused: there is no slot above it."""
    held = relationship_difficulty(actor, kind, person.name)
    what = kind.title()
    if direction == "up":
        if held.rank >= actor.power_level.rank:
            raise RuleViolation(
                f"{actor.name}'s {what} with {person.name} is in the top slot ({held.value}, "
                f"{actor.name}'s Power Level): it can only be moved down"
            )
        return advance_tie(actor, kind, person)
    ties = dict(actor.ties(kind))
    if held is Difficulty.NORMAL:
        del ties[held]
    else:
        below = held.step(-1)
        displaced = ties.get(below)
        ties[below] = person
        if displaced is None:
            del ties[held]
        else:
            ties[held] = displaced
    return actor.model_copy(update={"bonds" if kind == "bond" else "grudges": _tie_levels(ties, what)})


class Contest(_Frozen):
    """12.1J: two Actors clash off-screen; no dice, the higher pips win, a tie loses both."""

    difficulty: Difficulty
    pips: tuple[int, int]
    winner: str | None


def contest(first: Actor, second: Actor, difficulty: Difficulty) -> Contest:
    pips = (first.power.pips_at(difficulty), second.power.pips_at(difficulty))
    winner = first.name if pips[0] > pips[1] else second.name if pips[1] > pips[0] else None
    return Contest(difficulty=difficulty, pips=pips, winner=winner)


class Roster(_Frozen):
    """The Supporting Cast Roster: slots 1-100, rolled on with 1d100 (13.2 Phase 1)."""

    slots: dict[RosterNumber, str | None] = Field(default_factory=dict)
    """A slot not listed is empty; None marks it Unlocked; a name is the Actor cast in it."""

    def holder(self, slot: int) -> str | None:
        return self.slots.get(slot)

    def slot_of(self, name: str) -> int | None:
        return next(
            (n for n, held in self.slots.items() if held is not None and name_key(held) == name_key(name)), None
        )

    def with_slot(self, slot: int, holder: str | None) -> Roster:
        return Roster(slots=dict(sorted({**self.slots, slot: holder}.items())))

    def next_free(self) -> int:
        """The next Unlocked slot (the lowest); with none Unlocked, the lowest empty slot."""
        unlocked = [n for n, held in self.slots.items() if held is None]
        if unlocked:
            return min(unlocked)
        empty = next((n for n in range(1, ROSTER_SIZE + 1) if n not in self.slots), None)
        if empty is None:
            raise RuleViolation(f"all {ROSTER_SIZE} roster slots hold an Actor: there is no slot to cast into")
        return empty
