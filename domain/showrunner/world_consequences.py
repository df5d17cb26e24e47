"""The Consequences of Section 14.3 that act on the world, not on a Star's sheet.

Harm Allies clears a friendly Actor's Power Die at the check's Difficulty; Boost Opposition
adds a pip to a hostile Actor's or Threat's; New Threat brings an Obstacle or Opponent in at
the Difficulty; Introduce a Subplot brings one in stasis on-screen, free, when its Power Level
is at or below the Difficulty; a Narrative Complication gives the Star's next check extra
Opposition Dice. Each decides once, on the dice it is given, so an audit can decide it again.

Readings (docs/rules.md, "Consequences"):
- The size of the Difficulty (EASY 2 … EPIC 6; above EPIC, several EPIC Consequences) is the
  number of Obstacle Dice a Narrative Complication adds: "based on the Difficulty", as every
  other Consequence's number is.
- Harm Allies and Boost Opposition work on the die at the Difficulty itself, once per
  Consequence: Power Dice have levels above EPIC, so nothing needs splitting. "Their Power Die
  equal to your check's Difficulty" presumes one: on a target without a die that high they work
  on its top die (a clear there defeats it, as a check's would), never above it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from ..dice import DiceSource
from ..errors import RuleViolation
from ..inputs import Input, Many
from ..names import name_key
from .actors import Actor
from .consequences import consequence_size
from .ladder import Difficulty
from .power_dice import PowerChange, add_pip, clear
from .threats import Threat, new_threat
from .world import World


class WorldConsequenceKind(StrEnum):
    HARM_ALLIES = "harm-allies"
    BOOST_OPPOSITION = "boost-opposition"
    NEW_THREAT = "new-threat"
    SUBPLOT = "subplot"
    COMPLICATION = "complication"

    @property
    def label(self) -> str:
        return {
            "harm-allies": "Harm Allies",
            "boost-opposition": "Boost Opposition",
            "new-threat": "New Threat",
            "subplot": "Introduce a Subplot",
            "complication": "Narrative Complication",
        }[self.value]


NEEDS: dict[WorldConsequenceKind, str] = {
    WorldConsequenceKind.HARM_ALLIES: "--target: the friendly Actor whose die is cleared",
    WorldConsequenceKind.BOOST_OPPOSITION: "--target: the hostile Actor, Obstacle or Opponent that gains a pip",
    WorldConsequenceKind.NEW_THREAT: "--target: the new Threat's name (and --threat-kind obstacle or opponent)",
    WorldConsequenceKind.SUBPLOT: "--subplot: the number of a Subplot in stasis",
}


class WorldConsequenceRequest(Input):
    """What the table declared. Recorded as it was asked."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    star: str
    """The Star whose check called for it."""
    kind: WorldConsequenceKind
    difficulty: Difficulty
    """The original, unmodified Difficulty of the check (14.3)."""
    count: Many = Field(default=1, ge=1)
    target: str | None = None
    threat_kind: Literal["obstacle", "opponent"] = "obstacle"
    subplot: int | None = None


class WorldChange(BaseModel):
    """What a World Consequence did: the target as it left it, and the words for the table."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    threat: Threat | None = None
    actor: Actor | None = None
    changes: tuple[PowerChange, ...] = ()
    complication: int = 0
    """Narrative Complication: the Opposition Dice the Star's next check gains."""
    steps: tuple[str, ...] = ()


class Decided(NamedTuple):
    world: World
    change: WorldChange


def option_problem(request: WorldConsequenceRequest) -> str | None:
    kind = request.kind
    if kind is WorldConsequenceKind.SUBPLOT:
        return None if request.subplot is not None else f"{kind.value} needs {NEEDS[kind]}"
    if kind is WorldConsequenceKind.COMPLICATION:
        return None if request.target is None else f"--target does not apply to {kind.value}"
    return None if request.target is not None else f"{kind.value} needs {NEEDS[kind]}"


def decide(world: World, request: WorldConsequenceRequest, dice: DiceSource) -> Decided:
    problem = option_problem(request)
    if problem is not None:
        raise RuleViolation(problem)
    kind, level = request.kind, request.difficulty
    if kind is WorldConsequenceKind.COMPLICATION:
        consequences, size = consequence_size(level)
        extra = consequences * size * request.count
        return Decided(
            world.with_complication(request.star, extra),
            WorldChange(
                complication=extra,
                steps=(f"{request.star}'s next check gains {extra} Opposition Dice (Narrative Complication)",),
            ),
        )
    if kind is WorldConsequenceKind.SUBPLOT:
        return _subplot(world, request)
    if level is Difficulty.EASY:
        raise RuleViolation("give the check's original Difficulty: it is never set to EASY, only reduced to it")
    assert request.target is not None
    if kind is WorldConsequenceKind.NEW_THREAT:
        threat = new_threat(request.target, request.threat_kind, level, dice)
        step = f"{threat.kind.title()} {threat.name} enters at {level.value}: {threat.power.describe()}"
        return Decided(world.add_threat(threat), WorldChange(threat=threat, steps=(step,)))
    return _move(world, request, dice)


def _subplot(world: World, request: WorldConsequenceRequest) -> Decided:
    assert request.subplot is not None
    subplot = world.subplot(request.subplot)
    if subplot.status != "stasis":
        raise RuleViolation(f"Subplot {subplot.number} is already {subplot.status}: introduce one still in stasis")
    if subplot.power.rank > request.difficulty.rank:
        raise RuleViolation(
            f"Subplot {subplot.number} is {subplot.power.value}, above the {request.difficulty.value} check: "
            "introduce one whose Power Level is at or below the Difficulty"
        )
    step = f"Subplot {subplot.number} ({subplot.power.value}) comes on-screen, free"
    return Decided(world, WorldChange(steps=(step,)))


def _move(world: World, request: WorldConsequenceRequest, dice: DiceSource) -> Decided:
    assert request.target is not None
    harm = request.kind is WorldConsequenceKind.HARM_ALLIES
    target = world.target(request.target)
    if harm and isinstance(target, Threat):
        raise RuleViolation(f"{target.name} is a Threat: Harm Allies clears a friendly Actor's die")
    if isinstance(target, Threat) and target.finished:
        raise RuleViolation(f"{target.name} is {target.status}: its Power Dice no longer move")
    if isinstance(target, Actor) and target.written_off:
        raise RuleViolation(f"{target.name} has been written off the Show")
    rule = clear if harm else add_pip
    power, changes, steps = target.power, [], []
    for _ in range(request.count):
        top = power.top
        assert top is not None  # a standing target has a die left
        level = request.difficulty if power.has(request.difficulty) else top
        change = rule(power, level, dice)
        changes.append(change)
        power = change.after
        steps.append(f"{target.name} at {level.value}: {change.before.describe()} → {power.describe()}")
        if not power.pips:
            break
    if isinstance(target, Threat):
        status = target.status
        if changes[-1].destroyed:
            status = "destroyed"
        elif changes[-1].defeated:
            status = "defeated"
        threat = target.model_copy(update={"power": power, "status": status})
        return Decided(
            world.with_threat(threat), WorldChange(threat=threat, changes=tuple(changes), steps=tuple(steps))
        )
    actor = target.model_copy(update={"power": power, "written_off": target.written_off or changes[-1].destroyed})
    return Decided(world.with_actor(actor), WorldChange(actor=actor, changes=tuple(changes), steps=tuple(steps)))


def is_target(world: World, name: str) -> bool:
    key = name_key(name)
    return key in world.threats or key in world.actors
