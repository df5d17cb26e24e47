"""`actor-create`, `actor-contest`, `actor-tie`, `actor-manipulate` and `actor-hireling`: the
Supporting Cast (Appendix A; 12.1 I, J) and the Actors hired to accompany a Star (9.2D)."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict

from ...errors import RuleViolation, UnknownName
from ...inputs import Input
from ...names import name_key
from ...ruleset import Action, Decided, RollContext
from ...text import Line
from ..actors import ActorSpec, Person, TieKind, contest, relationship_difficulty, set_tie, shift_tie
from ..check import CheckRequest, Outcome
from ..ladder import Difficulty
from ..state import ShowrunnerState
from ..table_files import TableName
from ..vocabulary import PropType
from .check import answered, roll_check
from .world_common import check_standing, name_is_free


class ActorContest(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    first: str
    second: str
    difficulty: Difficulty
    """The Difficulty of the clash: the die whose pips are compared."""


class ActorTie(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    actor: str
    kind: TieKind
    person: str
    """The Star or Actor of the Bond or Grudge that moves (or a new one)."""
    to: Difficulty | None = None
    """The slot reached; None for one slot up (a new tie enters at NORMAL)."""


class ActorManipulate(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    request: CheckRequest
    """The Star's check; its Difficulty is the tie's current level and its Opposition the
    Actor's pips there, whatever the request says."""
    actor: str
    kind: TieKind
    person: str
    """The Star or Actor of the Bond or Grudge the Star moves."""
    direction: Literal["up", "down"]


class ActorHireling(Input):
    model_config = ConfigDict(frozen=True, extra="forbid")

    actor: str
    star: str
    """The Star the Actor accompanies, who pays."""
    difficulty: Difficulty
    """The Difficulty of the check the hireling makes an automatic Partial Success."""
    task: Line | None = None


MOVES_A_TIE = (Outcome.HIGHLIGHT, Outcome.SUCCESS, Outcome.PARTIAL)
"""A Partial Success moves it too, with the Consequence every Partial Success brings."""


def create_actor(state: ShowrunnerState, spec: ActorSpec, roll: RollContext | None) -> Decided:
    """Appendix A: an Actor given whole or rolled, cast into a roster slot (the next free one by default)."""
    assert roll is not None, "casting an Actor may roll (rolls=True)"
    from ..sfx import ChannelRerolls
    from ..world_events import ActorCreated, make_actor

    world = state.world
    name_is_free(state, spec.name)
    number, recorder = roll.recording()
    channel = ChannelRerolls.of(state)
    actor = make_actor(spec, recorder, channel=channel, archetypes=state.tables.get(TableName.ARCHETYPE))
    slot = world.roster.next_free() if spec.slot is None else spec.slot
    world.cast(actor, slot)  # refuses a filled slot or a taken name before anything is written
    return [
        ActorCreated(
            spec=spec, actor=actor, slot=slot, channel_rerolled=channel.recorded(), **roll.stamp(number, recorder)
        )
    ]


def contest_actors(state: ShowrunnerState, asked: ActorContest, roll: RollContext | None) -> Decided:
    """12.1J: Actor against Actor off-screen, by the pips on their dice at the Difficulty."""
    from ..world_events import ActorsContested

    one, two = state.world.actor(asked.first), state.world.actor(asked.second)
    if one.name == two.name:
        raise RuleViolation(f"{one.name} cannot contest against themselves")
    for actor in (one, two):
        check_standing(actor)
    result = contest(one, two, asked.difficulty)
    return [
        ActorsContested(
            first=one.name, second=two.name, difficulty=asked.difficulty, pips=result.pips, winner=result.winner
        )
    ]


def set_actor_tie(state: ShowrunnerState, asked: ActorTie, roll: RollContext | None) -> Decided:
    """12.1I: move an Actor's Bond or Grudge with a Star or another Actor up one slot, or to `to`;
    a new tie enters at NORMAL (or `to`). A slot above the Actor's Power Level, a move that is not
    upward and a tie already in the top slot are refused."""
    from ..world_events import ActorTieChanged

    found = state.world.actor(asked.actor)
    who = person(state, asked.person)
    moved = set_tie(found, asked.kind, who, asked.to)
    reached = moved.tier(asked.kind, who.name)
    assert reached is not None
    return [
        ActorTieChanged(
            name=found.name,
            kind=asked.kind,
            person=who,
            to=reached,
            before=found.tier(asked.kind, who.name),
            displaced=found.ties(asked.kind).get(reached),
            actor=moved,
        )
    ]


def manipulate_tie(state: ShowrunnerState, asked: ActorManipulate, roll: RollContext | None) -> Decided:
    """12.1I: a Star's check at the level of an Actor's Bond or Grudge moves it one slot up or
    down, against the Actor's pips at that level. The CheckRolled, then on a Partial Success or
    better the ActorTieSwayed, then the milestones the check's XP filled."""
    assert roll is not None, "a check always rolls (rolls=True)"
    from ..progress_events import with_milestones
    from ..world_events import ActorTieSwayed

    found = state.world.actor(asked.actor)
    check_standing(found)
    who = person(state, asked.person)
    level = relationship_difficulty(found, asked.kind, who.name)
    moved = shift_tie(found, asked.kind, who, asked.direction)  # refused before the roll
    request = asked.request.model_copy(
        update={
            "difficulty": level,
            "opposition": found.power.pips_at(level),
            "opposition_source": f"{found.name}'s {level.value} Power Die",
        }
    )
    checked, after_check = roll_check(
        state,
        request,
        roll,
        settled=lambda resolved: asked.model_copy(update={"request": answered(asked.request, resolved)}),
    )
    star = checked.resolution.star
    if checked.resolution.outcome not in MOVES_A_TIE:
        return with_milestones(after_check, [checked], star)
    reached = moved.tier(asked.kind, who.name)
    swayed = ActorTieSwayed(
        star=star,
        name=found.name,
        kind=asked.kind,
        person=who,
        direction=asked.direction,
        before=level,
        to=reached,
        displaced=found.ties(asked.kind).get(reached) if reached is not None else None,
        actor=moved,
    )
    return with_milestones(swayed.apply(after_check), [checked, swayed], star)


def hireling_partial_success(state: ShowrunnerState, asked: ActorHireling, roll: RollContext | None) -> Decided:
    """9.2D Hire: an Actor hired to accompany the Star provides an automatic Partial Success,
    "1 additional Money of the Difficulty's Tier" each, up to the hire's maximum Difficulty."""
    from ..backpack import held
    from ..hirelings import partial_success_price
    from ..world_events import HirelingPartialSucceeded

    star = state.star(asked.star)
    if star.written_off:
        raise RuleViolation(f"{star.name} has been written off the Show")
    found = state.world.actor(asked.actor)
    check_standing(found)
    hired = state.world.hireling(star.name, found.name)
    money = partial_success_price(hired, asked.difficulty)
    if held(star, PropType.MONEY, money) < 1:
        raise RuleViolation(
            f"{star.name} has no {money.value} Money to pay {found.name} for a {asked.difficulty.value} "
            "automatic Partial Success"
        )
    return [
        HirelingPartialSucceeded(
            star=star.name, actor=found.name, difficulty=asked.difficulty, money=money, task=asked.task
        )
    ]


def person(state: ShowrunnerState, name: str) -> Person:
    """An Actor of the world by full name, else a Star (by the start of the name, as everywhere)."""
    if name_key(name) in state.world.actors:
        return Person(name=state.world.actor(name).name)
    try:
        return Person(name=state.star(name).name, star=True)
    except UnknownName as e:
        actors = ", ".join(sorted(a.name for a in state.world.actors.values())) or "none"
        raise UnknownName(f"{e}; no Actor is called '{name}' either (Actors: {actors})") from None


ACTORS = {
    "actor-create": Action(
        "Cast an Actor into the Supporting Cast, given whole or rolled (Appendix A).",
        ActorSpec,
        create_actor,
        rolls=True,
        subject="Actors",
    ),
    "actor-contest": Action(
        "Play out a clash between two Actors off-screen, by their pips at the Difficulty (12.1J).",
        ActorContest,
        contest_actors,
        subject="Actors",
    ),
    "actor-tie": Action(
        "Move an Actor's Bond or Grudge up a slot, or to a named one (12.1I).",
        ActorTie,
        set_actor_tie,
        subject="Actors",
    ),
    "actor-manipulate": Action(
        "A Star's check that moves an Actor's Bond or Grudge one slot up or down, at its level (12.1I).",
        ActorManipulate,
        manipulate_tie,
        rolls=True,
        subject="Actors",
    ),
    "actor-hireling": Action(
        "An Actor hired to accompany a Star provides an automatic Partial Success, for 1 Money of its Tier (9.2D).",
        ActorHireling,
        hireling_partial_success,
        subject="Actors",
    ),
}
