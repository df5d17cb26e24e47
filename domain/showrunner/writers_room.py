"""The Writer's Room (Chapter 13): Subplots written in four phases, held in stasis, then Revealed.

Writing a Subplot changes nothing in the world except the roster slot it may unlock or cast
(13.1 rule 3). The Subplot holds every effect its Reveal will apply (pips, Bonds and Grudges, a
minion, a bounty) and the "power" dice that Reveal needs, rolled when it is written against the
world as it then stands. So `reveal(world, subplot)` needs no dice, gives the same world from the
same world, and refuses to run twice. Should the Actors' dice change in the meantime so that the
Reveal needs more dice than were kept, it asks for them.

Dice purposes: "plotter" (d100 on the roster), "power_level" (the 3d6 of the Subplot's Power),
"event" (d100), "bounty" (the d6s of Props in a Star's bounty), "power" (a minion's pips and the
dice the Reveal re-rolls).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from ..dice import DiceSource, RecordingDice, Source
from ..errors import InvalidDice, RuleViolation
from .actors import TIE_KINDS, Actor, Person, PowerLevelRoll, advance_tie, roll_power_level
from .flavour import Flavour
from .ladder import Difficulty, Quality
from .power_dice import add_die, add_pip, clear, roll_power_dice

if TYPE_CHECKING:
    from .table_files import TableFile
    from .world import World

SUBPLOT_COST = 1
"""Studio Notes per Subplot rolled during the Show (13.1 rule 2); Pre-Production's cost 0."""
AID_UP_TO = 50
"""Event d100: 01-50 Aid, 51-100 Harm."""

SubplotStatus = Literal["stasis", "revealed", "resolved"]
Approach = Literal["involve", "curry_favor", "ask_star"]
SchemeKind = Literal["actor", "in_person", "minion"]


class AlreadyRevealed(RuleViolation):
    """A Subplot's Reveal effects apply once (13.1 rule 5)."""


class SocialWebIncomplete(RuleViolation):
    """13.1 rule 1: no Subplot for an Actor until every Bond and Grudge slot is filled."""


class CastingNeeded(RuleViolation):
    """The roster roll asks for a new Actor and no casting was provided."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


# --------------------------------------------------------------------------- effects


class PipAdded(_Frozen):
    kind: Literal["pip_added"] = "pip_added"
    actor: str
    level: Difficulty
    why: str


class DieCleared(_Frozen):
    kind: Literal["die_cleared"] = "die_cleared"
    actor: str
    level: Difficulty
    why: str


class PowerLevelRaised(_Frozen):
    """Curry Favor on a weaker Ally: one more Power Die on top."""

    kind: Literal["power_level_raised"] = "power_level_raised"
    actor: str


class BondAdvanced(_Frozen):
    kind: Literal["bond_advanced"] = "bond_advanced"
    actor: str
    toward: Person
    level: Difficulty


class SchemeContest(_Frozen):
    """Phase 4 against an Actor: judged on the pips showing when the Subplot is Revealed."""

    kind: Literal["scheme_contest"] = "scheme_contest"
    plotter: str
    ally: str | None
    """The Ally Involved in Phase 3, whose pips the Plotter may use."""
    target: str
    level: Difficulty


class GambitCalled(_Frozen):
    """An Actor confronts a Star on-screen with a Gambit at this level (Appendix F)."""

    kind: Literal["gambit_called"] = "gambit_called"
    star: str
    by: str
    level: Difficulty


class MinionSpawned(_Frozen):
    """Rolled when written; takes the next Unlocked roster slot when Revealed."""

    kind: Literal["minion_spawned"] = "minion_spawned"
    minion: Actor


class BountyOffered(_Frozen):
    """Ask the Star for Help: paid when the mission against `against` is done."""

    kind: Literal["bounty_offered"] = "bounty_offered"
    star: str
    against: Person
    props: int
    quality: Quality
    hero_prop_advances: int
    faces: tuple[int, ...]


SubplotEffect = Annotated[
    PipAdded
    | DieCleared
    | PowerLevelRaised
    | BondAdvanced
    | SchemeContest
    | GambitCalled
    | MinionSpawned
    | BountyOffered,
    Field(discriminator="kind"),
]


class Subplot(_Frozen):
    number: int = Field(ge=1)
    plotter: str
    slot: int | None
    """The roster slot rolled; None when the Plotter was chosen."""
    power: Difficulty
    power_roll: PowerLevelRoll | None
    """The 3d6 of its Power; None for a Subplot a Star hired at a Power paid for (9.2D Hire)."""
    event: Literal["aid", "harm"]
    event_roll: int
    event_row: str | None = None
    """The Event d100's row of the group's Event table file, when one is loaded (Appendix H is
    not printed); left out otherwise."""
    ally: Person
    approach: Approach
    target: Person
    scheme: SchemeKind
    effects: tuple[SubplotEffect, ...]
    faces: tuple[int, ...] = ()
    """The "power" dice the Reveal uses, in order, rolled when the Subplot was written."""
    status: SubplotStatus = "stasis"
    free_reveal: bool = False
    """A repeat Plotter was rolled: the next Reveal costs no Studio Note."""
    scheme_form: Flavour | None = None
    """Appendix F: the form its Scheme takes in the story, once the Director fills it in."""
    favor_form: Flavour | None = None
    """Appendix G: how the Plotter curries favour with the Ally (a Curry Favor approach only)."""
    hired_by: str | None = None
    """The Star who hired the Plotter for this Subplot in a Montage (9.2D Hire)."""

    @model_serializer(mode="wrap")
    def _leave_out_unfilled(self, handler: SerializerFunctionWrapHandler) -> object:
        # The forms and hires came after Subplots were first stored: one without them dumps (and hashes) as before.
        data = handler(self)
        if isinstance(data, dict):
            for name in ("scheme_form", "favor_form", "hired_by", "event_row"):
                if getattr(self, name) is None:
                    data.pop(name, None)
        return data

    def form(self, kind: Literal["scheme", "favor"]) -> Flavour | None:
        return self.scheme_form if kind == "scheme" else self.favor_form


class CastingCall(_Frozen):
    """What the roster roll asks the table to cast (Appendix A), complete with Bonds and Grudges."""

    slot: int
    reason: Literal["unlocked", "written_off"]
    replacing: str | None
    """The written-off Actor whose vacuum the new one fills (family, rival, replacement)."""


Caster = Callable[[CastingCall], Actor]


class Generation(NamedTuple):
    world: World
    outcome: Literal["written", "slot_unlocked", "free_reveal", "already_revealed"]
    subplot: Subplot | None
    """The new Subplot, or the repeat Plotter's existing one."""
    slot: int | None
    cost: int
    """Studio Notes the attempt costs."""


# --------------------------------------------------------------------------- writing


def generation_cost(pre_production: bool) -> int:
    return 0 if pre_production else SUBPLOT_COST


def subplot_power(roll: PowerLevelRoll, plotter: Actor) -> Difficulty:
    """Over-power: a Subplot is never above its Plotter's current Power Level."""
    return roll.level if roll.level.rank <= plotter.power_level.rank else plotter.power_level


def generate(
    world: World,
    dice: DiceSource,
    *,
    plotter: str | None = None,
    cast: Caster | None = None,
    pre_production: bool = False,
    minion_name: str | None = None,
    hired: Hire | None = None,
    events: TableFile | None = None,
) -> Generation:
    """One Subplot attempt (13.2): the Plotter rolled on the roster (or chosen), then Power,
    Event, Ally and Target. `cast` supplies the Actor when the roll lands on an Unlocked slot or
    a written-off Actor's. A `hired` Subplot's Plotter and Power are the hire's, and it is free.
    With the group's Event table loaded (`events`), the Event d100's row goes with the Subplot."""
    cost = 0 if hired is not None else generation_cost(pre_production)
    slot: int | None  # a chosen Plotter may hold no roster slot
    if hired is not None:
        actor = check_hire(world, hired)
        slot = world.roster.slot_of(actor.name)
    elif plotter is None:
        spark = _roll_plotter(world, dice, cast, cost)
        if isinstance(spark, Generation):
            return spark
        world, actor, slot = spark
    else:
        actor, slot = _chosen_plotter(world, plotter)
    _check_web(world, actor)

    roll: PowerLevelRoll | None = None
    if hired is None:
        roll = roll_power_level(dice)
        power = subplot_power(roll, actor)
    else:
        power = hired.power
    (event_roll,) = dice.roll("event", 1, 100)
    event: Literal["aid", "harm"] = "aid" if event_roll <= AID_UP_TO else "harm"
    effects: list[SubplotEffect] = [
        PipAdded(actor=actor.name, level=power, why="Aid Event")
        if event == "aid"
        else DieCleared(actor=actor.name, level=power, why="Harm Event")
    ]
    ally, target = actor.bonds[power], actor.grudges[power]
    number = len(world.subplots) + 1
    approach, involved = _rally(world, actor, ally, target, power, effects, dice)
    minion = minion_name or f"{actor.name}'s minion (Subplot {number})"
    scheme = _scheme(actor, involved, target, power, effects, dice, minion)
    draft = Subplot(
        number=number,
        plotter=actor.name,
        slot=slot,
        power=power,
        power_roll=roll,
        event=event,
        event_roll=event_roll,
        event_row=events.row(event_roll).text if events is not None else None,
        ally=ally,
        approach=approach,
        target=target,
        scheme=scheme,
        effects=tuple(effects),
        hired_by=hired.by if hired is not None else None,
    )
    # Play the Reveal now, on the world as it stands, to roll the dice it will need.
    recorder = RecordingDice(dice)
    _apply(world, draft, recorder)
    subplot = draft.model_copy(update={"faces": tuple(face for rolled in recorder.rolls for face in rolled.faces)})
    return Generation(world.with_subplot(subplot), "written", subplot, slot, cost)


class Hire(NamedTuple):
    """9.2D Hire: a Star pays an Actor for one Subplot of this Power."""

    actor: str
    power: Difficulty
    by: str


def check_hire(world: World, hired: Hire) -> Actor:
    """The hired Actor can write the Subplot: on the Show, with no unresolved Subplot (13.1 rule
    4), a complete social web (rule 1), and at least the Power paid for (no Subplot is above its
    Plotter's Power Level)."""
    actor, _ = _chosen_plotter(world, hired.actor)
    if hired.power.rank > actor.power_level.rank:
        raise RuleViolation(
            f"{actor.name} is {actor.power_level.value}: a {hired.power.value} Subplot is above their Power Level"
        )
    _check_web(world, actor)
    return actor


def _roll_plotter(
    world: World, dice: DiceSource, cast: Caster | None, cost: int
) -> Generation | tuple[World, Actor, int]:
    """Phase 1 by 1d100 on the roster: the attempt may end here (a slot unlocked, a repeat Plotter)."""
    (slot,) = dice.roll("plotter", 1, 100)
    state = world.slot_state(slot)
    if state == "empty":
        return Generation(world.with_roster(world.roster.with_slot(slot, None)), "slot_unlocked", None, slot, cost)
    holder = world.roster.holder(slot)
    if state == "filled" and holder is not None:
        actor = world.actor(holder)
        existing = world.unresolved_subplot(actor.name)
        return (world, actor, slot) if existing is None else _repeat_plotter(world, existing, slot, cost)
    call = CastingCall(slot=slot, reason=state, replacing=holder)
    if cast is None:
        what = (
            "is Unlocked: cast a new Actor"
            if state == "unlocked"
            else (f"held {holder}, who was written off: cast a related Actor")
        )
        raise CastingNeeded(f"roster slot {slot} {what} (Appendix A) to be the Plotter, then write the Subplot")
    actor = cast(call)
    return world.cast(actor, slot), actor, slot


def _chosen_plotter(world: World, name: str) -> tuple[Actor, int | None]:
    """Phase 1 by choice: an Actor still on the Show with no unresolved Subplot."""
    actor = world.actor(name)
    if actor.written_off:
        raise RuleViolation(f"{actor.name} has been written off and plots no more")
    existing = world.unresolved_subplot(actor.name)
    if existing is not None:
        raise RuleViolation(f"{actor.name} already has Subplot {existing.number} unresolved: choose an Actor with none")
    return actor, world.roster.slot_of(actor.name)


def _repeat_plotter(world: World, existing: Subplot, slot: int, cost: int) -> Generation:
    """13.1 rule 5: no second Subplot; a waiting one is marked for a free Reveal, a Revealed one stays."""
    if existing.status != "stasis":
        return Generation(world, "already_revealed", existing, slot, cost)
    marked = existing.model_copy(update={"free_reveal": True})
    return Generation(world.with_subplot(marked), "free_reveal", marked, slot, cost)


def _check_web(world: World, actor: Actor) -> None:
    problems = list(actor.missing_ties())
    for kind in TIE_KINDS:
        for level, person in actor.ties(kind).items():
            if level.rank <= actor.power_level.rank and not person.star and world.actor(person.name).written_off:
                problems.append(f"{kind.title()} at {level.value}: {person.name} was written off")
    if problems:
        raise SocialWebIncomplete(
            f"{actor.name}'s social web is not complete ({'; '.join(problems)}): fill every Bond and Grudge "
            f"slot up to {actor.power_level.value} (Appendix A) before writing their Subplot"
        )


def _at_least(tier: Difficulty | None, power: Difficulty) -> bool:
    return tier is not None and tier.rank >= power.rank


def _rally(
    world: World,
    plotter: Actor,
    ally: Person,
    target: Person,
    power: Difficulty,
    effects: list[SubplotEffect],
    dice: DiceSource,
) -> tuple[Approach, str | None]:
    """Phase 3: the Ally from the Bond slot at the Subplot's Power. Returns the approach and the
    name of an Involved Ally."""
    if ally.star:
        above_epic = max(0, power.rank - Difficulty.EPIC.rank)
        faces = dice.roll("bounty", 1 + above_epic)
        effects.append(
            BountyOffered(
                star=ally.name,
                against=target,
                props=sum(faces),
                quality=Quality(power.value if power.rank <= Difficulty.EPIC.rank else "EPIC"),
                hero_prop_advances=2 * (power.rank - Difficulty.NORMAL.rank),
                faces=tuple(faces),
            )
        )
        return "ask_star", None
    helper = world.actor(ally.name)
    strong_enough = helper.power_level.rank >= power.rank
    close_enough = _at_least(helper.tier("bond", plotter.name), power) or _at_least(
        helper.tier("grudge", target.name), power
    )
    if strong_enough and close_enough:
        return "involve", helper.name
    level = helper.power_level
    if level.rank < power.rank:
        effects.append(PowerLevelRaised(actor=helper.name))
        level = level.step(1)
    # The pip lands on the die matching the Subplot's Power, or the top die of an Ally still below it.
    pip_level = power if power.rank <= level.rank else level
    effects.append(PipAdded(actor=helper.name, level=pip_level, why="Curry Favor"))
    effects.append(BondAdvanced(actor=helper.name, toward=Person(name=plotter.name), level=power))
    return "curry_favor", None


def _scheme(
    plotter: Actor,
    involved: str | None,
    target: Person,
    power: Difficulty,
    effects: list[SubplotEffect],
    dice: DiceSource,
    minion_name: str,
) -> SchemeKind:
    """Phase 4: the Target from the Grudge slot at the Subplot's Power."""
    if not target.star:
        effects.append(SchemeContest(plotter=plotter.name, ally=involved, target=target.name, level=power))
        return "actor"
    if power is plotter.power_level:
        effects.append(GambitCalled(star=target.name, by=plotter.name, level=power))
        return "in_person"
    minion = Actor(
        name=minion_name,
        concept=f"{plotter.name}'s minion or hit squad",
        primary=plotter.primary,
        secondary=plotter.secondary,
        power=roll_power_dice(power, dice),
        bonds={power: Person(name=plotter.name)},
        grudges={power: target},
    )
    effects.append(MinionSpawned(minion=minion))
    effects.append(GambitCalled(star=target.name, by=minion.name, level=power))
    return "minion"


def pre_production(world: World, dice: DiceSource) -> tuple[World, tuple[Subplot, ...]]:
    """4.3 Step 2: one Subplot, free, for every active Actor on the roster, in slot order."""
    written: list[Subplot] = []
    for slot, name in world.roster.slots.items():
        if name is None or world.slot_state(slot) != "filled" or world.unresolved_subplot(name) is not None:
            continue
        world, _, subplot, _, _ = generate(world, dice, plotter=name, pre_production=True)
        assert subplot is not None  # a chosen Plotter always yields a Subplot or an error
        written.append(subplot)
    return world, tuple(written)


# --------------------------------------------------------------------------- revealing


def reveal_cost(subplot: Subplot, *, cliffhanger: bool = False) -> int:
    """A Reveal costs 1 Studio Note; a marked free Reveal, or the Episode's cliffhanger (16.2), 0."""
    return 0 if subplot.free_reveal or cliffhanger else SUBPLOT_COST


def reveal(world: World, subplot: Subplot | int, dice: DiceSource | None = None) -> World:
    """Apply a Subplot's effects, once. `dice` is only asked when the world changed since the
    Subplot was written and its Reveal needs more "power" dice than were kept."""
    current = world.subplot(subplot if isinstance(subplot, int) else subplot.number)
    if current.status != "stasis":
        raise AlreadyRevealed(
            f"Subplot {current.number} ({current.plotter}) has already been revealed: its effects apply only once"
        )
    world = _apply(world, current, _Kept(current, dice))
    return world.with_subplot(current.model_copy(update={"status": "revealed"}))


def resolve(world: World, number: int) -> World:
    """The story has settled a Revealed Subplot: its Plotter may have another."""
    subplot = world.subplot(number)
    if subplot.status != "revealed":
        raise RuleViolation(f"Subplot {number} is {subplot.status}: only a Revealed Subplot can be resolved")
    return world.with_subplot(subplot.model_copy(update={"status": "resolved"}))


class _Kept:
    """The dice kept in a Subplot, served in order; then the table's, if given."""

    def __init__(self, subplot: Subplot, more: DiceSource | None) -> None:
        self._faces = list(subplot.faces)
        self._number = subplot.number
        self._more = more
        self.source: Source = more.source if more is not None else "ledger"

    def roll(self, purpose: str, count: int, sides: int = 6) -> list[int]:
        taken, self._faces = self._faces[:count], self._faces[count:]
        if len(taken) == count:
            return taken
        if self._more is None:
            raise InvalidDice(
                f"revealing Subplot {self._number} needs more {purpose} dice than were rolled when it was written "
                f"(its Actors' dice have changed since): give --{purpose} dice for the rest",
                purpose=purpose,
            )
        return taken + self._more.roll(purpose, count - len(taken), sides)


def _standing(world: World, name: str) -> Actor | None:
    actor = world.actor(name)
    return None if actor.written_off else actor


def _add(world: World, name: str | None, level: Difficulty, dice: DiceSource) -> World:
    actor = _standing(world, name) if name else None
    if actor is None:
        return world
    return world.with_actor(actor.model_copy(update={"power": add_pip(actor.power, level, dice).after}))


def _clear(world: World, name: str | None, level: Difficulty, dice: DiceSource) -> World:
    actor = _standing(world, name) if name else None
    if actor is None:
        return world
    change = clear(actor.power, level, dice)
    return world.with_actor(actor.model_copy(update={"power": change.after, "written_off": change.destroyed}))


def _advance(world: World, name: str, kind: Literal["bond", "grudge"], toward: Person, to: Difficulty | None) -> World:
    actor = _standing(world, name)
    if actor is None:
        return world
    return world.with_actor(advance_tie(actor, kind, toward, to))


def _contest(world: World, effect: SchemeContest, dice: DiceSource) -> World:
    plotter, target = _standing(world, effect.plotter), _standing(world, effect.target)
    if plotter is None or target is None:
        return world  # one side was written off before the Reveal: there is no one to scheme with
    ally = _standing(world, effect.ally) if effect.ally else None
    level = effect.level
    side = max(plotter.power.pips_at(level), ally.power.pips_at(level) if ally else 0)
    against = target.power.pips_at(level)
    helper = ally.name if ally else None
    grudge = Person(name=plotter.name)
    if side > against:
        world = _add(_add(world, plotter.name, level, dice), helper, level, dice)
        return _advance(_clear(world, target.name, level, dice), target.name, "grudge", grudge, None)
    if against > side:
        world = _add(world, target.name, level, dice)
        return _clear(_clear(world, plotter.name, level, dice), helper, level, dice)
    world = _clear(_clear(_clear(world, plotter.name, level, dice), helper, level, dice), target.name, level, dice)
    return _advance(world, target.name, "grudge", grudge, None)


def _apply(world: World, subplot: Subplot, dice: DiceSource) -> World:
    for effect in subplot.effects:
        if isinstance(effect, PipAdded):
            world = _add(world, effect.actor, effect.level, dice)
        elif isinstance(effect, DieCleared):
            world = _clear(world, effect.actor, effect.level, dice)
        elif isinstance(effect, PowerLevelRaised):
            actor = _standing(world, effect.actor)
            if actor is not None and actor.power_level is not Difficulty.GODLIKE:
                world = world.with_actor(actor.model_copy(update={"power": add_die(actor.power, dice).after}))
        elif isinstance(effect, BondAdvanced):
            world = _advance(world, effect.actor, "bond", effect.toward, effect.level)
        elif isinstance(effect, SchemeContest):
            world = _contest(world, effect, dice)
        elif isinstance(effect, MinionSpawned):
            world = world.cast(effect.minion)
        # A Gambit called or a bounty offered happens on-screen: the Subplot's record is the change.
    return world
