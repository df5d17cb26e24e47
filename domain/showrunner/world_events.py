"""The world's facts: Actors cast, Threats faced, Action Sequences played, Subplots written and
Revealed, and the Solorunner's Oracle.

Every fact that may roll is a `RolledFact` holding its inputs, the dice it asked for (`rolls`,
in order) and what it decided; `apply` applies the recorded decision and `rejudge` decides again
from the inputs and the same dice. A Subplot in stasis is Director-only (`SubplotGenerated`):
nothing it will do happens until `SubplotRevealed`, which is public.

Topics are forever: never rename one; add a schema version and an upcaster instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..campaign import CampaignState
from ..dice import DiceSource, ReplayDice, Roll
from ..errors import DomainError, RuleViolation
from ..events import CampaignFact, RecapLine, RolledFact, Visibility, absent
from ..names import name_key
from ..text import Line, Name
from .actors import Actor, ActorSpec, Person, Roster, TieKind, roll_abilities, roll_actor
from .backpack import take
from .flavour import Flavour
from .hirelings import Hireling
from .influence import LABELS, PoolName
from .ladder import Difficulty, Quality
from .power_dice import PowerChange, PowerDice, add_die
from .sequences import BeatRecorded, Contribution, Sequence, SequenceTrade, play_beat, spend_combo, with_trade
from .sfx import ChannelRerolls, channel_rolled
from .sheet import AbilityName, PropType
from .state import ShowrunnerState
from .table_files import TableFile, TableName, read_by_rolls
from .threats import CheckEffect, Threat, ThreatKind, check_against, new_threat, strike_decisively
from .world import Due, World
from .world_consequences import WorldChange, WorldConsequenceRequest
from .world_consequences import decide as decide_world_consequence
from .writers_room import (
    BondAdvanced,
    DieCleared,
    GambitCalled,
    Hire,
    MinionSpawned,
    PipAdded,
    PowerLevelRaised,
    SchemeContest,
    Subplot,
    SubplotEffect,
    generate,
    resolve,
    reveal,
)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


def _with_world(state: ShowrunnerState, world: World) -> ShowrunnerState:
    return state.model_copy(update={"world": world})


def _world(state: CampaignState) -> World:
    return getattr(state, "world", None) or World()


class WorldRoll(RolledFact[ShowrunnerState]):
    """A world fact that may roll: the dice it asked for are kept, in order, in `rolls`."""

    rolls: tuple[Roll, ...] = ()

    def recorded_rolls(self) -> tuple[Roll, ...]:
        return self.rolls

    def roller(self) -> str:
        return "director"

    def dice_colour(self, purpose: str) -> str:
        return "other"

    def explain(self) -> list[str]:
        return [self.summary()]

    def rejudge(self, before: ShowrunnerState) -> str | None:
        replay = ReplayDice(self.rolls)
        try:
            problem = self.decide_again(before, replay)
        except DomainError as e:
            return f"the current engine refuses the recorded roll: {e}"
        if problem is None and replay.left_over:
            return f"the record holds {replay.left_over} roll(s) the engine did not ask for"
        return problem

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        """Decide again with the recorded dice: None if it agrees, else the first difference."""
        raise NotImplementedError


def _differs(what: str, recorded: object, again: object) -> str | None:
    return None if recorded == again else f"the {what} differs from the record"


# --------------------------------------------------------------------------- Actors


def make_actor(
    spec: ActorSpec, dice: DiceSource, *, channel: ChannelRerolls | None = None, archetypes: TableFile | None = None
) -> Actor:
    """Appendix A: roll what the table did not give, in the book's order (a Channel rolled again
    as the SFX Budget says); the Archetype at its two Abilities when the group's Random Archetype
    table is loaded (`archetypes`)."""
    actor = _rolled_actor(spec, dice, channel)
    if archetypes is None:
        return actor
    return actor.model_copy(update={"archetype": archetypes.pair(actor.primary, actor.secondary)})


def _rolled_actor(spec: ActorSpec, dice: DiceSource, channel: ChannelRerolls | None) -> Actor:
    fields: dict[str, Any] = dict(
        concept=spec.concept,
        specialties=spec.specialties,
        scars=spec.scars,
        agenda=spec.agenda,
        bonds=spec.bonds,
        grudges=spec.grudges,
    )
    if spec.pips is None:
        return roll_actor(
            spec.name,
            dice,
            scale=spec.scale,
            primary=spec.primary,
            secondary=spec.secondary,
            power_level=spec.power_level,
            channel=channel,
            **fields,
        )
    power = PowerDice(pips=spec.pips)
    if not spec.pips:
        raise RuleViolation(f"{spec.name} needs at least one Power Die")
    if spec.power_level is not None and spec.power_level is not power.top:
        raise RuleViolation(
            f"{len(spec.pips)} Power Dice make {spec.name} {power.top.value if power.top else 'nothing'}, "
            f"not {spec.power_level.value}"
        )
    primary, secondary = roll_abilities(spec.name, dice, spec.primary, spec.secondary, channel=channel)
    return Actor(name=spec.name, primary=primary, secondary=secondary, power=power, **fields)


def describe_actor(actor: Actor) -> str:
    level = actor.power.top.value if actor.power.top else "no dice"
    archetype = f" ({actor.archetype}, the Random Archetype table's row)" if actor.archetype else ""
    return (
        f"{level}, {actor.primary.value.title()}/{actor.secondary.value.title()}{archetype}, {actor.power.describe()}"
    )


class ActorCreated(WorldRoll, topic="showrunner/ActorCreated"):
    """An Actor joins the Supporting Cast in a roster slot, given or rolled (Appendix A)."""

    spec: ActorSpec
    actor: Actor
    slot: int
    channel_rerolled: bool | None = Field(default=None, exclude_if=absent)
    """True when a first Channel was rolled again (Low Magic, Unknown); left out otherwise."""

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        return channel_rolled(_with_world(state, _world(state).cast(self.actor, self.slot)), self.channel_rerolled)

    def summary(self) -> str:
        return f"{self.actor.name} joined the Supporting Cast in roster slot {self.slot} ({describe_actor(self.actor)})"

    def stars(self) -> tuple[str, ...]:
        return tuple(
            dict.fromkeys(p.name for p in (*self.actor.bonds.values(), *self.actor.grudges.values()) if p.star)
        )

    phrasings = ("actor",)

    def recap(self) -> RecapLine | None:
        concept = f", {self.actor.concept}" if self.actor.concept else ""
        return RecapLine(
            weight=10,
            text=f"{self.actor.name}{concept} joined the Supporting Cast.",
            kind="actor",
            slots={"actor": self.actor.name, "concept": concept},
        )

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        channel = ChannelRerolls.of(before)
        actor = make_actor(self.spec, dice, channel=channel, archetypes=before.tables.get(TableName.ARCHETYPE))
        if channel.recorded() != self.channel_rerolled:
            return "the Channel rolled again differs from the record"
        return _differs("Actor", self.actor, actor)


class PossessorEmpowered(WorldRoll, topic="showrunner/PossessorEmpowered"):
    """Appendix D 12 Possession rolled again for a Star already possessed: "the possessing Actor
    gains one Power Level", a new top Power Die rolled as a starting top die."""

    star: str
    actor: str
    change: PowerChange

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        world = _world(state)
        empowered = world.actor(self.actor).model_copy(update={"power": self.change.after})
        return _with_world(state, world.with_actor(empowered))

    def summary(self) -> str:
        return (
            f"{self.actor}, who possesses {self.star}, gains one Power Level: "
            f"{self.change.before.describe()} → {self.change.after.describe()}"
        )

    def stars(self) -> tuple[str, ...]:
        return (self.star,)

    phrasings = ("possessor-empowered",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=60,
            text=f"{self.actor}'s hold on {self.star} grew stronger.",
            kind="actor",
            phrase="possessor-empowered",
            slots={"actor": self.actor, "star": self.star},
            mood=-1,
        )

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        return _differs("Power Level gained", self.change, empower(_world(before), self.actor, dice))


def empower(world: World, name: str, dice: DiceSource) -> PowerChange:
    """The possessing Actor's new Power Level, its new top die rolled."""
    return add_die(world.actor(name).power, dice)


class ActorsContested(CampaignFact[ShowrunnerState], topic="showrunner/ActorsContested"):
    """12.1J: two Actors clash off-screen; no dice: the higher pips at the Difficulty win, a tie loses both."""

    first: str
    second: str
    difficulty: Difficulty
    pips: tuple[int, int]
    winner: str | None

    def summary(self) -> str:
        result = f"{self.winner} wins" if self.winner else "a tie: both lose"
        return (
            f"{self.first} ({self.pips[0]}) against {self.second} ({self.pips[1]}) at {self.difficulty.value}: {result}"
        )

    phrasings = ("actors-won", "actors-even")

    def recap(self) -> RecapLine | None:
        result = f"{self.winner} came out on top" if self.winner else "neither came out on top"
        slots = {"first": self.first, "second": self.second}
        if self.winner:
            loser = self.second if name_key(self.winner) == name_key(self.first) else self.first
            slots |= {"winner": self.winner, "loser": loser}
        return RecapLine(
            weight=50,
            text=f"{self.first} clashed with {self.second}: {result}.",
            kind="contest",
            phrase="actors-won" if self.winner else "actors-even",
            slots=slots,
        )


class ActorTieChanged(CampaignFact[ShowrunnerState], topic="showrunner/ActorTieChanged"):
    """12.1I: the table moves an Actor's Bond or Grudge up a slot (or to a named one); the person
    who held that slot swaps down into the old one, or leaves the web if there was none."""

    name: str
    kind: TieKind
    person: Person
    to: Difficulty
    before: Difficulty | None = None
    """The slot `person` held before; None for a new tie."""
    displaced: Person | None = None
    """Who held the slot reached: moved down to `before`, or out of the web for a new tie."""
    actor: Actor
    """The Actor after the move."""

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return _with_world(state, _world(state).with_actor(self.actor))

    def summary(self) -> str:
        moved = f"rises to {self.to.value} (from {self.before.value})" if self.before else f"enters at {self.to.value}"
        text = f"{self.name}'s {self.kind.title()} with {self.person.name} {moved}"
        if self.displaced is not None:
            where = f"moves down to {self.before.value}" if self.before else "leaves the web"
            text += f"; {self.displaced.name} {where}"
        return text

    def stars(self) -> tuple[str, ...]:
        people = (self.person, self.displaced) if self.displaced else (self.person,)
        return tuple(p.name for p in people if p.star)

    phrasings = ("tie-bond", "tie-grudge")

    def recap(self) -> RecapLine | None:
        tie = "Bond with" if self.kind == "bond" else "Grudge against"
        return RecapLine(
            weight=50,
            text=f"{self.name}'s {tie} {self.person.name} grew ({self.to.value}).",
            kind="tie",
            phrase=f"tie-{self.kind}",
            slots={"actor": self.name, "person": self.person.name},
        )


class ActorTieSwayed(CampaignFact[ShowrunnerState], topic="showrunner/ActorTieSwayed"):
    """12.1I: a Star's check at the tie's level moved an Actor's Bond or Grudge one slot up or
    down (the CheckRolled before it holds the roll). Whoever held the slot reached swaps into the
    one left; moved down from NORMAL, the tie leaves the web."""

    star: str
    name: str
    kind: TieKind
    person: Person
    direction: Literal["up", "down"]
    before: Difficulty
    to: Difficulty | None
    """The slot reached; None when the tie left the web."""
    displaced: Person | None = None
    """Who held the slot reached, now in the slot `person` left."""
    actor: Actor
    """The Actor after the move."""

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return _with_world(state, _world(state).with_actor(self.actor))

    def summary(self) -> str:
        where = f"{self.direction} to {self.to.value}" if self.to else "out of the web"
        text = f"{self.star} moves {self.name}'s {self.kind.title()} with {self.person.name} {where} (from {self.before.value})"
        if self.displaced is not None:
            text += f"; {self.displaced.name} moves to {self.before.value}"
        return text

    def stars(self) -> tuple[str, ...]:
        people = (self.person, self.displaced) if self.displaced else (self.person,)
        return tuple(dict.fromkeys([self.star, *(p.name for p in people if p.star)]))


# --------------------------------------------------------------------------- Threats


class ThreatCreated(WorldRoll, topic="showrunner/ThreatCreated"):
    """An Opponent, Obstacle or Project enters with its Power Dice (12.1B), rolled or given."""

    name: Name
    kind: ThreatKind
    level: Difficulty
    pips: tuple[int, ...] | None = None
    """The pips given at the table instead of rolled."""
    threat: Threat

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        return _with_world(state, _world(state).add_threat(self.threat))

    def summary(self) -> str:
        return f"{self.kind.title()} '{self.name}' entered at {self.level.value} ({self.threat.power.describe()})"

    phrasings = ("threat-opponent", "threat-obstacle", "threat-project")

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=50,
            text=f"A {self.level.value} {self.kind.title()}, {self.name}, entered the story.",
            kind="threat",
            phrase=f"threat-{self.kind}",
            slots={"threat": self.name, "what": _threat_words(self.kind, self.level)},
            mood=-1 if self.kind != "project" else 0,
        )

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        return _differs("Threat", self.threat, decide_threat(self.name, self.kind, self.level, self.pips, dice))


def decide_threat(
    name: str, kind: ThreatKind, level: Difficulty, pips: tuple[int, ...] | None, dice: DiceSource
) -> Threat:
    if pips is None:
        return new_threat(name, kind, level, dice)
    if len(pips) != level.rank:
        raise RuleViolation(
            f"a {level.value} Threat has {level.rank} Power Dice, NORMAL first: {len(pips)} pips were given"
        )
    return Threat(name=name, kind=kind, power=PowerDice(pips=pips))


def _with_target(world: World, threat: Threat | None, actor: Actor | None) -> World:
    """The world with a check's or a Beat's target as it left it."""
    if threat is not None:
        world = world.with_threat(threat)
    if actor is not None:
        world = world.with_actor(actor)
    return world


_FINISHED = {"defeated": "defeated", "destroyed": "destroyed", "complete": "completed"}
"""The verb of a recap line for a target a check or a Beat finished."""

_MOOD = {"good": 1, "mixed": 0, "bad": -1}


def _turn(outcome: str) -> str:
    """Which way an outcome went, as a recap tells it: good, mixed or bad."""
    return "good" if outcome in ("highlight", "success") else "mixed" if outcome == "partial" else "bad"


def _goal(goal: str) -> str:
    """A Sequence's goal as a narrator quotes it, without its full stop."""
    return goal.strip().rstrip(".")


def _threat_words(kind: ThreatKind, level: Difficulty) -> str:
    """A Threat as a narrator names it: its level heard only when it is daunting ("a dangerous opponent")."""
    if level.rank <= Difficulty.NORMAL.rank:
        return f"{'an' if kind in ('opponent', 'obstacle') else 'a'} {kind}"
    return f"a {'dangerous' if level.rank <= Difficulty.FORMIDABLE.rank else 'fearsome'} {kind}"


def _effect_words(effect: CheckEffect) -> str:
    change = effect.change
    if effect.level is None and effect.status == "destroyed":
        return "destroyed by a Decisive Strike"
    if change is None:
        return "no dice moved"
    moved = f"{change.before.describe()} → {change.after.describe()}"
    done = {"defeated": ", defeated", "destroyed": ", destroyed", "complete": ", complete"}.get(effect.status, "")
    return f"{moved}{done}"


class ThreatChecked(WorldRoll, topic="showrunner/ThreatChecked"):
    """A check's outcome applied to the Threat or Actor it was made against (12.1 D, E, G, H)."""

    star: str
    target: str
    outcome: str
    difficulty: Difficulty
    """The check's original Difficulty (the elevated one for a Decisive Strike)."""
    decisive: bool = False
    aid: bool = False
    effect: CheckEffect
    threat: Threat | None = None
    actor: Actor | None = None
    """The target after the check."""

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        return _with_world(state, _with_target(_world(state), self.threat, self.actor))

    def summary(self) -> str:
        strike = "Decisive Strike" if self.decisive else ("check to aid" if self.aid else "check")
        return f"{self.star}'s {strike} against {self.target} ({self.outcome}): {_effect_words(self.effect)}"

    def stars(self) -> tuple[str, ...]:
        return (self.star,)

    def roller(self) -> str:
        return self.star

    phrasings = (
        "threat-defeated",
        "threat-destroyed",
        "threat-complete",
        "threat-written-off",
        "threat-worn",
        "threat-held",
    )

    def recap(self) -> RecapLine | None:
        status = self.effect.status
        slots = {"star": self.star, "target": self.target}
        if status in ("defeated", "destroyed", "complete") or (self.actor is not None and self.actor.written_off):
            verb = _FINISHED.get(status, "wrote off")
            return RecapLine(
                weight=100,
                text=f"{self.star} {verb} {self.target}.",
                kind="threat-" + status,
                phrase="threat-" + status if status in _FINISHED else "threat-written-off",
                slots=slots,
                mood=1,
            )
        if self.effect.change is not None:
            return RecapLine(
                weight=50,
                text=f"{self.star} wore down {self.target}.",
                kind="threat",
                phrase="threat-worn",
                slots=slots,
            )
        return RecapLine(
            weight=10,
            text=f"{self.star} made no headway against {self.target}.",
            kind="threat",
            phrase="threat-held",
            slots=slots,
            mood=-1,
        )

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        world = _world(before)
        if self.decisive:
            after, effect = strike_decisively(world, self.target, self.outcome)
        else:
            after, effect = check_against(world, self.target, self.outcome, self.difficulty, dice, aid=self.aid)
        return _differs("effect on the target", self.effect, effect)


# --------------------------------------------------------------------------- Action Sequences


class SequenceDeclared(CampaignFact[ShowrunnerState], topic="showrunner/SequenceDeclared"):
    """7.1: a goal, its Beats and its Starting Combo Pool (the spends are their own facts, just before)."""

    sequence: Sequence
    contributions: tuple[Contribution, ...] = ()

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return _with_world(state, _world(state).with_sequence(self.sequence))

    def summary(self) -> str:
        s = self.sequence
        against = f" against {s.against}" if s.against else ""
        kind = "Set Piece" if s.set_piece else "Action Sequence"
        strike = " (Decisive Strike)" if s.decisive else ""
        return (
            f"{kind} declared: '{s.goal}' at {s.difficulty.value}{against}{strike}, {s.beats} Beats at "
            f"{s.beat_difficulty.value}, Combo Pool {_pool_words(s.combo)}"
        )

    def stars(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.star for c in self.contributions))

    phrasings = ("sequence-set-piece", "sequence-action")

    def recap(self) -> RecapLine | None:
        s = self.sequence
        against = f" against {s.against}" if s.against else ""
        kind = "a Set Piece" if s.set_piece else "an Action Sequence"
        return RecapLine(
            weight=50,
            text=f"The Cast launched {kind}: {s.goal}{against}.",
            kind="sequence",
            phrase="sequence-set-piece" if s.set_piece else "sequence-action",
            slots={"goal": _goal(s.goal), "against": against},
        )


def _pool_words(pools: Mapping[PoolName, int]) -> str:
    return ", ".join(f"{n} {LABELS[p]}" for p, n in pools.items() if n) or "empty"


class SequenceBeatPlayed(WorldRoll, topic="showrunner/SequenceBeatPlayed"):
    """One Beat of a running Sequence and what it did to the target (7.1, 7.3)."""

    goal: str
    outcome: str
    star: str | None = None
    recorded: BeatRecorded
    effect: CheckEffect | None = None
    threat: Threat | None = None
    actor: Actor | None = None

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        world = _with_target(_world(state), self.threat, self.actor)
        sequence = self.recorded.sequence
        world = world.without_sequence(self.goal) if sequence.finished else world.with_sequence(sequence)
        return _with_world(state, world)

    def summary(self) -> str:
        beat = self.recorded.beat
        which = "Climax" if beat.climax else f"Setup Beat {beat.number}"
        by = f" by {self.star}" if self.star else ""
        text = f"'{self.goal}' {which}{by} at {beat.difficulty.value}: {beat.outcome}"
        if self.effect is not None:
            text += f"; {self.effect.target}: {_effect_words(self.effect)}"
        if self.recorded.consequences:
            who = "every participant" if self.recorded.everyone else (self.star or "the Star who rolled")
            text += (
                f"; {self.recorded.consequences} Consequence(s) at "
                f"{self.recorded.consequence_difficulty.value} for {who}"
            )
        if self.recorded.sequence.finished:
            text += f"; the Sequence ends: {self.recorded.sequence.outcome}"
        return text

    def stars(self) -> tuple[str, ...]:
        return (self.star,) if self.star else ()

    def roller(self) -> str:
        return self.star or "director"

    phrasings = (
        "sequence-defeated",
        "sequence-destroyed",
        "sequence-complete",
        *(f"sequence-ended-{turn}" for turn in ("good", "mixed", "bad")),
        *(f"sequence-beat-{turn}" for turn in ("good", "mixed", "bad")),
    )

    def recap(self) -> RecapLine | None:
        effect = self.effect
        if effect is not None and effect.status in ("defeated", "destroyed", "complete"):
            verb = _FINISHED[effect.status]
            return RecapLine(
                weight=100,
                text=f"In '{self.goal}', the Cast {verb} {effect.target}.",
                kind="threat-" + effect.status,
                phrase="sequence-" + effect.status,
                slots={"target": effect.target},
                mood=1,
            )
        sequence = self.recorded.sequence
        goal = {"goal": _goal(self.goal)}
        if sequence.finished and sequence.outcome is not None:
            turn = _turn(sequence.outcome)
            return RecapLine(
                weight=50,
                text=f"The Sequence '{self.goal}' ended: {sequence.outcome}.",
                kind="sequence",
                phrase=f"sequence-ended-{turn}",
                slots=goal,
                mood=_MOOD[turn],
            )
        turn = _turn(self.recorded.beat.outcome)
        return RecapLine(
            weight=10,
            text=f"A Beat of '{self.goal}': {self.recorded.beat.outcome}.",
            kind="beat",
            phrase=f"sequence-beat-{turn}",
            slots=goal | {"star": self.star or "the cast"},
            mood=_MOOD[turn],
        )

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        # A Beat recorded before Beats named their Star keeps none: it is re-decided without one.
        named = self.recorded.beat.star
        if named is not None and named != self.star:
            return "the Beat's Star differs from the Star who rolled it"
        played = play_beat(_world(before), self.goal, self.outcome, dice, named)
        return _differs("Beat", (self.recorded, self.effect), (played.recorded, played.effect))


class ConsequencesDue(CampaignFact[ShowrunnerState], topic="showrunner/ConsequencesDue"):
    """The Consequences a Beat calls for (5.2, 7.3B), recorded for the table to apply one by one
    with `showrunner consequence`: which of the Consequence Menu's kinds is the table's choice."""

    goal: str
    beat: int
    climax: bool
    outcome: str
    count: int = Field(ge=1)
    """Consequences for each Star named."""
    difficulty: Difficulty
    """Their size: the Beat's reduced Difficulty, the original one on the Climax."""
    who: tuple[str, ...] = ()
    """Who suffers them: every participant on the Climax, the Star who rolled a Setup Beat.
    Empty when the ledger does not know (a Setup Beat given as an outcome): the table names them."""
    tracked: bool | None = Field(default=None, exclude_if=absent)
    """True: the world keeps them owed (`World.dues`) until `consequence` ticks them off. None
    for those recorded before the ledger kept them, which fold as they did."""
    against: str | None = Field(default=None, exclude_if=absent)
    """Due from a check against this Threat or Actor, not from a Beat (`goal` names it too, `beat` is 0)."""

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        if not self.tracked:
            return state
        why = self.why()
        dues = tuple(Due(star=star, difficulty=self.difficulty, count=self.count, why=why) for star in self.who)
        return _with_world(state, _world(state).with_dues(dues))

    def why(self) -> str:
        if self.against is not None:
            return f"a check against {self.against}"
        return f"'{self.goal}' " + ("Climax" if self.climax else f"Setup Beat {self.beat}")

    def summary(self) -> str:
        if self.against is not None:
            many = "s" if self.count > 1 else ""
            return (
                f"{self.who[0] if self.who else 'The Star'}'s check against {self.against} ({self.outcome}): "
                f"{self.count} Consequence{many} at {self.difficulty.value} due (apply with `showrunner consequence`)"
            )
        which = "Climax" if self.climax else f"Setup Beat {self.beat}"
        who = ", ".join(self.who) if self.who else "the Star who rolled it"
        each = " each" if len(self.who) > 1 else ""
        return (
            f"'{self.goal}' {which} ({self.outcome}): {self.count} Consequence{'s' if self.count > 1 else ''} "
            f"at {self.difficulty.value}{each} due for {who} (apply with `showrunner consequence`)"
        )

    def stars(self) -> tuple[str, ...]:
        return self.who


class ConsequenceSettled(CampaignFact[ShowrunnerState], topic="showrunner/ConsequenceSettled"):
    """A Consequence applied ticks off as many of those the Star owed at its Difficulty."""

    star: str
    difficulty: Difficulty
    count: int = Field(ge=1)
    left: int = Field(ge=0)
    """How many the Star still owes, at any Difficulty, after this."""

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        world, _ = _world(state).settle(self.star, self.difficulty, self.count)
        return _with_world(state, world)

    def summary(self) -> str:
        left = f"{self.left} still due" if self.left else "none left due"
        return f"{self.star}: {self.count} {self.difficulty.value} Consequence(s) ticked off ({left})"

    def stars(self) -> tuple[str, ...]:
        return (self.star,)


def settled(state: ShowrunnerState, star: str, difficulty: Difficulty, count: int) -> ConsequenceSettled | None:
    """The `ConsequenceSettled` for a Consequence applied, when the Star owed one at its Difficulty."""
    world, ticked = _world(state).settle(star, difficulty, count)
    if not ticked:
        return None
    left = sum(d.count for d in world.dues if name_key(d.star) == name_key(star))
    return ConsequenceSettled(star=star, difficulty=difficulty, count=ticked, left=left)


class WorldConsequenceSuffered(WorldRoll, topic="showrunner/WorldConsequenceSuffered"):
    """A Consequence of 14.3 that acts on the world: Harm Allies, Boost Opposition, New Threat,
    Introduce a Subplot (followed by its `SubplotRevealed`, free) or a Narrative Complication."""

    request: WorldConsequenceRequest
    change: WorldChange

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        world = _world(state)
        change = self.change
        if self.request.kind == "new-threat" and change.threat is not None:
            world = world.add_threat(change.threat)
        else:
            world = _with_target(world, change.threat, change.actor)
        if change.complication:
            world = world.with_complication(self.request.star, change.complication)
        return _with_world(state, world)

    def summary(self) -> str:
        r = self.request
        times = f" ×{r.count}" if r.count > 1 else ""
        return f"{r.star} suffered {r.kind.label}{times} at {r.difficulty.value}: " + "; ".join(self.change.steps)

    def stars(self) -> tuple[str, ...]:
        return (self.request.star,)

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        again = decide_world_consequence(_world(before), self.request, dice)
        return _differs("World Consequence", self.change, again.change)


class SequenceTradeMade(CampaignFact[ShowrunnerState], topic="showrunner/SequenceTradeMade"):
    """10.2A Action Sequences: a Bond or Grudge traded at the Sequence's ultimate Difficulty (its
    ◇ exhausted by the RelationshipTraded just before) lowers every Beat the Star performs in it."""

    goal: str
    trade: SequenceTrade

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        world = _world(state)
        return _with_world(state, world.with_sequence(with_trade(world.sequence(self.goal), self.trade)))

    def summary(self) -> str:
        t = self.trade
        lowered = "to EASY (Relationship Mastery)" if t.to_easy else "one step"
        return (
            f"{t.star}'s Beats in '{self.goal}' roll {lowered} lower: the {t.label} was traded for the whole Sequence"
        )

    def stars(self) -> tuple[str, ...]:
        return (self.trade.star,)


class ComboSpent(CampaignFact[ShowrunnerState], topic="showrunner/ComboSpent"):
    """7.2: a participant spends from the Combo Pool as from their own Profile."""

    goal: str
    pool: PoolName
    amount: int
    star: str | None = None
    reason: Line = ""

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        world = _world(state)
        return _with_world(state, world.with_sequence(spend_combo(world.sequence(self.goal), self.pool, self.amount)))

    def summary(self) -> str:
        by = f"{self.star} spent" if self.star else "Spent"
        why = f" ({self.reason})" if self.reason else ""
        return f"{by} {self.amount} {LABELS[self.pool]} from the Combo Pool of '{self.goal}'{why}"

    def stars(self) -> tuple[str, ...]:
        return (self.star,) if self.star else ()


class ComboPaidToEnsemble(CampaignFact[ShowrunnerState], topic="showrunner/ComboPaidToEnsemble"):
    """7.2 The Payout: the part of the Combo Pool the Cast gives the Ensemble Pool, up to its
    maximum (what does not fit is lost)."""

    goal: str
    pool: PoolName
    amount: int = Field(ge=1)
    kept: int = Field(ge=0)
    lost: int = Field(ge=0)

    @classmethod
    def decided(cls, state: ShowrunnerState, goal: str, pool: PoolName, amount: int) -> ComboPaidToEnsemble:
        ensemble = state.ensemble
        kept = min(amount, getattr(ensemble, f"{pool}_max") - getattr(ensemble, pool))
        return cls(goal=goal, pool=pool, amount=amount, kept=kept, lost=amount - kept)

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        ensemble = state.ensemble
        changed = ensemble.model_copy(update={self.pool: getattr(ensemble, self.pool) + self.kept})
        return state.model_copy(update={"ensemble": changed})

    def summary(self) -> str:
        lost = f" ({self.lost} lost: the Ensemble Pool is full)" if self.lost else ""
        return f"The Combo Pool of '{self.goal}' pays {self.kept} {LABELS[self.pool]} to the Ensemble Pool{lost}"


# --------------------------------------------------------------------------- the Writer's Room

GenerationOutcome = Literal["written", "slot_unlocked", "free_reveal", "already_revealed"]


class SubplotGenerated(WorldRoll, topic="showrunner/SubplotGenerated"):
    """One Subplot attempt (13.2). Director-only: a Subplot in stasis changes nothing on-screen."""

    default_visibility: ClassVar[Visibility] = "director"

    plotter: str | None = None
    """The Plotter chosen by the Director; None when rolled on the roster."""
    pre_production: bool = False
    outcome: GenerationOutcome
    slot: int | None = None
    cost: int = 0
    subplot: Subplot | None = None

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        world = _world(state)
        if self.outcome == "slot_unlocked" and self.slot is not None:
            world = world.with_roster(world.roster.with_slot(self.slot, None))
        elif self.outcome in ("written", "free_reveal") and self.subplot is not None:
            world = world.with_subplot(self.subplot)
        state = _with_world(state, world)
        return state.model_copy(update={"studio_notes": max(0, state.studio_notes - self.cost)})

    def summary(self) -> str:
        cost = f" ({self.cost} Studio Note{'s' if self.cost != 1 else ''})" if self.cost else " (free)"
        if self.outcome == "slot_unlocked":
            return f"A Subplot roll landed on empty roster slot {self.slot}: it is Unlocked{cost}"
        s = self.subplot
        assert s is not None
        if self.outcome == "free_reveal":
            return f"{s.plotter} was rolled again: Subplot {s.number} is marked for a free Reveal{cost}"
        if self.outcome == "already_revealed":
            return f"{s.plotter} was rolled again, with Subplot {s.number} already Revealed: nothing happens{cost}"
        return f"Subplot {s.number} written in stasis: {subplot_words(s)}{cost}"

    phrasings = ("subplot-written",)

    def recap(self) -> RecapLine | None:
        if self.outcome != "written" or self.subplot is None:
            return None
        return RecapLine(
            weight=50,
            text=f"Behind the scenes, {self.subplot.plotter} began to plot.",
            kind="subplot-written",
            slots={"plotter": self.subplot.plotter},
        )

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        again = generate(
            _world(before),
            dice,
            plotter=self.plotter,
            pre_production=self.pre_production,
            events=read_by_rolls(before.tables, TableName.EVENT),
        )
        return _differs(
            "Subplot",
            (self.outcome, self.slot, self.cost, self.subplot),
            (again.outcome, again.slot, again.cost, again.subplot),
        )


class HiredSubplotWritten(WorldRoll, topic="showrunner/HiredSubplotWritten"):
    """9.2D Hire: the Director adds the hired Actor's Subplot to the log, at the Power the Star
    paid for, written like any other from Phase 2 on (13.2). Director-only: it waits in stasis."""

    default_visibility: ClassVar[Visibility] = "director"

    star: str
    """Who hired the Actor (the claim's beneficiary)."""
    actor: str
    power: Difficulty
    subplot: Subplot

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        return _with_world(state, _world(state).with_subplot(self.subplot))

    def summary(self) -> str:
        return f"Subplot {self.subplot.number} written in stasis for {self.star}'s hire: {subplot_words(self.subplot)}"

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        again = generate(
            _world(before),
            dice,
            hired=Hire(actor=self.actor, power=self.power, by=self.star),
            events=read_by_rolls(before.tables, TableName.EVENT),
        )
        return _differs("Subplot", self.subplot, again.subplot)


class HirelingEngaged(CampaignFact[ShowrunnerState], topic="showrunner/HirelingEngaged"):
    """9.2D Hire, Alternate Benefit: the Actor accompanies the Star, up to the maximum
    Difficulty the scene's hire paid for (a new hire of them by the Star sets a new maximum)."""

    star: str
    actor: str
    most: Difficulty

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        world = _world(state)
        same = (name_key(self.star), name_key(self.actor))
        before = next((h for h in world.hirelings if (name_key(h.star), name_key(h.actor)) == same), None)
        provided = before.provided if before is not None else 0
        hired = Hireling(star=self.star, actor=self.actor, most=self.most, provided=provided)
        return _with_world(state, world.with_hireling(hired))

    def summary(self) -> str:
        return f"{self.actor} accompanies {self.star}, facing at most {self.most.value}"

    def stars(self) -> tuple[str, ...]:
        return (self.star,)


class HirelingPartialSucceeded(CampaignFact[ShowrunnerState], topic="showrunner/HirelingPartialSucceeded"):
    """9.2D Hire: an accompanying Actor provides the Star an automatic Partial Success, paid with 1
    Money of the Difficulty's Tier; like every Partial Success it brings the Star a Consequence,
    recorded as due for `consequence` to apply."""

    star: str
    actor: str
    difficulty: Difficulty
    money: Quality
    """The Quality of the 1 Money paid."""
    task: Line | None = None
    """What the hireling did, as the table says it."""

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        world = _world(state)
        hired = world.hireling(self.star, self.actor)
        world = world.with_hireling(hired.model_copy(update={"provided": hired.provided + 1}))
        due = Due(star=self.star, difficulty=self.difficulty, count=1, why=self.why())
        paid = state.with_star(take(state.star(self.star), PropType.MONEY, self.money, 1))
        return _with_world(paid, world.with_dues((due,)))

    def why(self) -> str:
        return f"{self.actor}'s automatic Partial Success"

    def summary(self) -> str:
        task = f" ({self.task})" if self.task else ""
        return (
            f"{self.actor} gives {self.star} an automatic Partial Success at {self.difficulty.value}{task} for "
            f"1 {self.money.value} Money: 1 Consequence at {self.difficulty.value} due "
            "(apply with `showrunner consequence`)"
        )

    def stars(self) -> tuple[str, ...]:
        return (self.star,)


def spoken_plan(s: Subplot) -> str:
    """What a Revealed Subplot meant to do, as a narrator says it: whom it went after, with whose help."""
    scheme = {"actor": "scheming against", "in_person": "coming for", "minion": "sending a minion after"}[s.scheme]
    return f"{scheme} {s.target.name}, with {s.ally.name}'s help"


def subplot_words(s: Subplot) -> str:
    """The plan of a Subplot in one line (only ever shown to the Director before its Reveal)."""
    ally = f"{s.ally.name}{' (Star)' if s.ally.star else ''}"
    target = f"{s.target.name}{' (Star)' if s.target.star else ''}"
    approach = {"involve": "involves", "curry_favor": "curries favour with", "ask_star": "asks the Star"}[s.approach]
    scheme = {"actor": "schemes against", "in_person": "confronts in person", "minion": "sends a minion against"}[
        s.scheme
    ]
    hired = f", hired by {s.hired_by}" if s.hired_by else ""
    row = f" ({s.event_row})" if s.event_row else ""
    return f"{s.plotter} at {s.power.value}{hired}, {s.event} event{row}; {approach} {ally}; {scheme} {target}"


def effect_words(effect: SubplotEffect) -> str:
    if isinstance(effect, PipAdded | DieCleared):
        verb = "gains a pip" if isinstance(effect, PipAdded) else "loses a die"
        return f"{effect.actor} {verb} at {effect.level.value} ({effect.why})"
    if isinstance(effect, PowerLevelRaised):
        return f"{effect.actor} rises one Power Level"
    if isinstance(effect, BondAdvanced):
        return f"{effect.actor}'s Bond with {effect.toward.name} rises to {effect.level.value}"
    if isinstance(effect, SchemeContest):
        return f"{effect.plotter} schemes against {effect.target} at {effect.level.value}"
    if isinstance(effect, GambitCalled):
        return f"{effect.by} calls a {effect.level.value} Gambit on {effect.star}"
    if isinstance(effect, MinionSpawned):
        return f"{effect.minion.name} enters the Supporting Cast"
    return (
        f"{effect.star} is offered a bounty of {effect.props} {effect.quality.value} Props"
        f" to act against {effect.against.name}"
    )


class SubplotRevealed(WorldRoll, topic="showrunner/SubplotRevealed"):
    """13.1 rule 5: a Subplot comes on-screen and every effect it holds applies, once."""

    number: int
    cost: int = 0
    cliffhanger: bool = False
    subplot: Subplot
    """The Subplot as Revealed: its plan is public from now on."""
    actors: tuple[Actor, ...] = ()
    """Every Actor the Reveal changed or cast, as it left them."""
    roster: Roster

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        world = _world(state)
        actors = {**world.actors, **{name_key(a.name): a for a in self.actors}}
        world = world.model_copy(update={"actors": actors, "roster": self.roster}).with_subplot(self.subplot)
        state = _with_world(state, world)
        return state.model_copy(update={"studio_notes": max(0, state.studio_notes - self.cost)})

    def summary(self) -> str:
        cost = f"{self.cost} Studio Note" if self.cost else ("free: the cliffhanger" if self.cliffhanger else "free")
        effects = "; ".join(effect_words(e) for e in self.subplot.effects)
        return f"Subplot {self.number} revealed ({cost}): {subplot_words(self.subplot)}. {effects}"

    def stars(self) -> tuple[str, ...]:
        s = self.subplot
        return tuple(dict.fromkeys(p.name for p in (s.ally, s.target) if p.star))

    phrasings = ("subplot-revealed",)

    def recap(self) -> RecapLine | None:
        s = self.subplot
        return RecapLine(
            weight=100,
            text=f"Revealed: {s.plotter}'s Subplot — {subplot_words(s)}.",
            kind="subplot-revealed",
            slots={"plotter": s.plotter, "plan": spoken_plan(s)},
            mood=-1,
        )

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        world = _world(before)
        after = reveal(world, self.number, dice)
        changed = changed_actors(world, after)
        return _differs("Reveal", (changed, after.roster), (self.actors, self.roster))


def changed_actors(before: World, after: World) -> tuple[Actor, ...]:
    return tuple(a for key, a in after.actors.items() if before.actors.get(key) != a)


class SubplotResolved(CampaignFact[ShowrunnerState], topic="showrunner/SubplotResolved"):
    """The story has settled a Revealed Subplot: its Plotter may have another."""

    number: int
    plotter: str

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return _with_world(state, resolve(_world(state), self.number))

    def summary(self) -> str:
        return f"Subplot {self.number} ({self.plotter}) resolved"

    phrasings = ("subplot-resolved",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=50,
            text=f"{self.plotter}'s Subplot was resolved.",
            kind="subplot-resolved",
            slots={"plotter": self.plotter},
        )


def form_words(flavour: Flavour) -> str:
    """A filled-in form in one line: the Ability, the dice that named it, and the row."""
    dice = ",".join(str(face) for face in flavour.ability_faces)
    row = (
        f"{flavour.form.title}: {flavour.form.text}"
        if flavour.form
        else "the book prints no table: the table describes it"
    )
    return f"{flavour.ability.value.title()} ({dice}), row {flavour.face}, {row}"


class SubplotFormFilled(WorldRoll, topic="showrunner/SubplotFormFilled"):
    """Appendix F (a Scheme) or G (Currying Favor): the form a Subplot takes in the story,
    through its Plotter's Abilities. Director-only while the Subplot is in stasis."""

    number: int
    plotter: str
    kind: Literal["scheme", "favor"]
    choice: AbilityName | None = None
    """The Director's pick when a Scheme's 2d10 named neither the Primary nor the Secondary."""
    form: Flavour

    def apply_roll(self, state: ShowrunnerState) -> ShowrunnerState:
        world = _world(state)
        field = "scheme_form" if self.kind == "scheme" else "favor_form"
        return _with_world(state, world.with_subplot(world.subplot(self.number).model_copy(update={field: self.form})))

    def summary(self) -> str:
        what = "Scheme (Appendix F)" if self.kind == "scheme" else "Curry Favor (Appendix G)"
        return f"Subplot {self.number}'s {what}: {self.plotter} works through {form_words(self.form)}"

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        from .commands.writers_room import fill_form

        again = fill_form(_world(before), self.number, self.kind, dice, self.choice)
        return _differs("form", self.form, again)


# --------------------------------------------------------------------------- Solorunner


class OracleAnswered(WorldRoll, topic="showrunner/OracleAnswered"):
    """14.2: a Yes/No question put to the Oracle on 2d6."""

    question: Line
    difficulty: Difficulty
    faces: tuple[int, int]
    outcome: str
    answer: str

    def summary(self) -> str:
        return f'Oracle ({self.difficulty.value}): "{self.question}" {self.answer} ({self.faces[0]},{self.faces[1]})'

    phrasings = ("oracle",)

    def recap(self) -> RecapLine | None:
        return RecapLine(
            weight=10,
            text=f'The Oracle was asked "{self.question}": {self.answer}',
            kind="oracle",
            slots={"question": self.question.strip().rstrip("?"), "answer": self.answer.strip().rstrip(".")},
        )

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        from .solorunner import ask_oracle

        again = ask_oracle(self.question, dice, self.difficulty)
        return _differs("answer", (self.faces, self.answer), (again.faces, again.answer))


class SceneGoalRolled(WorldRoll, topic="showrunner/SceneGoalRolled"):
    """14.1A solo: an uncertain scene goal on a d6: a Scheme (1-2), Curry Favor (3-4) or an Event (5-6)."""

    face: int
    goal: Literal["scheme", "curry_favor", "event"]

    def summary(self) -> str:
        return f"Scene goal (d6 {self.face}): {self.goal.replace('_', ' ').title()}"

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        from .solorunner import roll_scene_goal

        return _differs("scene goal", self.goal, roll_scene_goal(dice))


class SoloStudioNoteRolled(WorldRoll, topic="showrunner/SoloStudioNoteRolled"):
    """5.2.2 solo: a d10 below the Studio Notes pooled spends one on the check (`check --studio-note`)."""

    studio_notes: int
    face: int
    spends: bool

    def summary(self) -> str:
        verdict = "a Studio Note is spent: +1d6 Opposition Dice (check --studio-note)" if self.spends else "none spent"
        return f"Solo Studio Note (d10 {self.face} against {self.studio_notes} pooled): {verdict}"

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        from .solorunner import solo_studio_note

        return _differs("Studio Note roll", self.spends, solo_studio_note(before.studio_notes, dice))


class MenuOptionRecord(_Frozen):
    number: int
    name: str
    text: str


class ConsequenceMenuRolled(WorldRoll, topic="showrunner/ConsequenceMenuRolled"):
    """14.3: 2d10 on the Consequence Menu; pick the more fitting option, or both on a Disaster."""

    difficulty: Difficulty
    disaster: bool = False
    faces: tuple[int, int]
    options: tuple[MenuOptionRecord, MenuOptionRecord]
    count: int
    size: int

    def summary(self) -> str:
        first, second = self.options
        how = "both apply (Disaster)" if self.disaster else "pick one"
        return (
            f"Consequence Menu at {self.difficulty.value} ({self.faces[0]},{self.faces[1]}): "
            f"{first.name} or {second.name}, {how}; {self.count} × size {self.size}"
        )

    def decide_again(self, before: ShowrunnerState, dice: DiceSource) -> str | None:
        from .solorunner import roll_consequence_menu

        again = roll_consequence_menu(dice, self.difficulty, disaster=self.disaster)
        return _differs("menu roll", self.faces, again.faces)


class WritersTurnTaken(CampaignFact[ShowrunnerState], topic="showrunner/WritersTurnTaken"):
    """14.1B: the world spends half the Studio Notes (the steps are the facts that follow)."""

    default_visibility: ClassVar[Visibility] = "director"

    studio_notes: int
    budget: int
    plan: tuple[str, ...]

    def summary(self) -> str:
        return (
            f"Writer's Turn: {self.budget} of {self.studio_notes} Studio Notes on {', '.join(self.plan) or 'nothing'}"
        )


__all__ = [
    "ActorCreated",
    "ActorSpec",
    "ActorTieChanged",
    "ActorTieSwayed",
    "ActorsContested",
    "ComboPaidToEnsemble",
    "ConsequenceSettled",
    "WorldConsequenceSuffered",
    "ComboSpent",
    "ConsequencesDue",
    "ConsequenceMenuRolled",
    "HiredSubplotWritten",
    "Contribution",
    "OracleAnswered",
    "SceneGoalRolled",
    "SequenceBeatPlayed",
    "SoloStudioNoteRolled",
    "SequenceDeclared",
    "SubplotFormFilled",
    "SubplotGenerated",
    "SubplotResolved",
    "SubplotRevealed",
    "ThreatChecked",
    "ThreatCreated",
    "WorldRoll",
    "WritersTurnTaken",
    "changed_actors",
    "decide_threat",
    "make_actor",
    "PossessorEmpowered",
    "empower",
]
