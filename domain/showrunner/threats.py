"""Threats (12.1): Opponents, Obstacles and Projects, and what a check's outcome does to a Threat
or an Actor's Power Dice.

A check's outcome comes in as plain inputs, its label and its original Difficulty, so these
rules do not depend on how the check was resolved. Destroying is fast: a check that succeeds
against an Opponent, Obstacle or Actor clears a whole die. Building is slow: one against a
Project, or to aid an Actor, adds one pip.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, StringConstraints

from ..dice import DiceSource
from ..errors import RuleViolation
from .actors import Actor
from .ladder import Difficulty
from .power_dice import (
    PowerChange,
    PowerDice,
    acting_level,
    add_pip,
    clear,
    decisive_strike_difficulty,
    roll_power_dice,
)

if TYPE_CHECKING:
    from .world import World

OutcomeLabel = Literal["highlight", "success", "partial", "failure", "disaster"]
ThreatKind = Literal["opponent", "obstacle", "project"]
Status = Literal["active", "defeated", "destroyed", "complete"]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]

_OUTCOMES: tuple[OutcomeLabel, ...] = ("highlight", "success", "partial", "failure", "disaster")
_CONSEQUENCES: dict[OutcomeLabel, int] = {"partial": 1, "failure": 1, "disaster": 2}


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


def as_outcome(label: str) -> OutcomeLabel:
    """An outcome from its label, as a check reports it: "partial", "Partial Success", "HIGHLIGHT"…"""
    text = str(getattr(label, "value", label)).strip().lower().removesuffix(" success")
    for outcome in _OUTCOMES:
        if outcome == text:
            return outcome
    raise RuleViolation(f"'{label}' is not a check outcome (highlight, success, partial, failure or disaster)")


def succeeded(outcome: OutcomeLabel) -> bool:
    """Partial Success or better: the goal is achieved (with a Consequence on a Partial)."""
    return outcome in ("highlight", "success", "partial")


def consequences_due(outcome: OutcomeLabel) -> int:
    """5.2 Results: a Partial or a Failure calls for one Consequence, a Disaster for two."""
    return _CONSEQUENCES.get(outcome, 0)


class Threat(_Frozen):
    name: Text
    kind: ThreatKind
    power: PowerDice
    status: Status = "active"
    """A defeated Threat retreats but keeps its lower dice; destroyed and complete are final."""

    @property
    def finished(self) -> bool:
        return self.status in ("destroyed", "complete")


def new_threat(name: str, kind: ThreatKind, level: Difficulty, dice: DiceSource) -> Threat:
    """A Threat enters the scene (12.1B) with one die per level from NORMAL up, rolled top down."""
    return Threat(name=name, kind=kind, power=roll_power_dice(level, dice))


class CheckEffect(_Frozen):
    """What one check's outcome did to its target."""

    target: str
    outcome: OutcomeLabel
    level: Difficulty | None
    """The die the outcome worked on (one step up on a Highlight); None when it moved nothing."""
    change: PowerChange | None
    status: Status
    consequences: int
    consequence_difficulty: Difficulty
    """Consequences use the original Difficulty (the elevated one for a Decisive Strike)."""


def _original(difficulty: Difficulty) -> Difficulty:
    if difficulty is Difficulty.EASY:
        raise RuleViolation("give the check's original Difficulty: it is never set to EASY, only reduced to it")
    return difficulty


def _move_dice(
    power: PowerDice, builds: bool, outcome: OutcomeLabel, difficulty: Difficulty, dice: DiceSource | None
) -> tuple[Difficulty | None, PowerChange | None]:
    if not succeeded(outcome):
        return None, None
    highlight = outcome == "highlight"
    rule = add_pip if builds else clear
    return acting_level(difficulty, highlight), rule(power, difficulty, dice, highlight=highlight)


def _status(builds: bool, change: PowerChange | None, before: Status) -> Status:
    if change is None:
        return before
    if builds:
        return "complete" if change.full else before
    if change.destroyed:
        return "destroyed"
    return "defeated" if change.defeated else before


def check_threat(
    threat: Threat, outcome: str, difficulty: Difficulty, dice: DiceSource | None
) -> tuple[Threat, CheckEffect]:
    """12.1 E, H: Partial or Success clears (Project: adds a pip to) the die at the check's
    Difficulty, a Highlight the die one step higher; Failure and Disaster leave the dice."""
    if threat.finished:
        raise RuleViolation(f"{threat.name} is {threat.status}: no check can move its Power Dice any more")
    label = as_outcome(outcome)
    original = _original(difficulty)
    builds = threat.kind == "project"
    level, change = _move_dice(threat.power, builds, label, original, dice)
    status = _status(builds, change, threat.status)
    if change is not None:
        threat = threat.model_copy(update={"power": change.after, "status": status})
    return threat, CheckEffect(
        target=threat.name,
        outcome=label,
        level=level,
        change=change,
        status=status,
        consequences=consequences_due(label),
        consequence_difficulty=original,
    )


def check_actor(
    actor: Actor, outcome: str, difficulty: Difficulty, dice: DiceSource | None, *, aid: bool = False
) -> tuple[Actor, CheckEffect]:
    """12.1D: a check against an Actor clears a die like an Opponent's; one to aid them adds a pip.
    An Actor destroyed is written off."""
    if actor.written_off:
        raise RuleViolation(f"{actor.name} has been written off the Show")
    label = as_outcome(outcome)
    original = _original(difficulty)
    level, change = _move_dice(actor.power, aid, label, original, dice)
    status = _status(aid, change, "active")
    if change is not None:
        actor = actor.model_copy(update={"power": change.after, "written_off": status == "destroyed"})
    return actor, CheckEffect(
        target=actor.name,
        outcome=label,
        level=level,
        change=change,
        status=status,
        consequences=consequences_due(label),
        consequence_difficulty=original,
    )


def decisive_strike(power: PowerDice, name: str, outcome: str) -> CheckEffect:
    """12.1G: a check (or Action Sequence) one step above the top die. Success or Highlight
    destroys the target at once; otherwise it keeps its dice and the Consequences are scaled to
    the elevated Difficulty."""
    label = as_outcome(outcome)
    elevated = decisive_strike_difficulty(power)
    won = label in ("highlight", "success")
    return CheckEffect(
        target=name,
        outcome=label,
        level=None,
        change=None,
        status="destroyed" if won else "active",
        consequences=consequences_due(label),
        consequence_difficulty=elevated,
    )


def check_against(
    world: World, name: str, outcome: str, difficulty: Difficulty, dice: DiceSource | None, *, aid: bool = False
) -> tuple[World, CheckEffect]:
    """A check's outcome against the Threat or Actor called `name`, applied to the world."""
    target = world.target(name)
    if isinstance(target, Threat):
        if aid:
            raise RuleViolation(f"{target.name} is a Threat: only an Actor is aided (a Project is built by any check)")
        threat, effect = check_threat(target, outcome, difficulty, dice)
        return world.with_threat(threat), effect
    actor, effect = check_actor(target, outcome, difficulty, dice, aid=aid)
    return world.with_actor(actor), effect


def strike_decisively(world: World, name: str, outcome: str) -> tuple[World, CheckEffect]:
    """A Decisive Strike against the Opponent, Obstacle or Actor called `name`."""
    target = world.target(name)
    if isinstance(target, Threat):
        if target.kind == "project":
            raise RuleViolation(
                f"{target.name} is a Project: a Decisive Strike is made against an Opponent or Obstacle"
            )
        if target.finished:
            raise RuleViolation(f"{target.name} is already {target.status}")
        effect = decisive_strike(target.power, target.name, outcome)
        return world.with_threat(target.model_copy(update={"status": effect.status})), effect
    if target.written_off:
        raise RuleViolation(f"{target.name} has been written off the Show")
    effect = decisive_strike(target.power, target.name, outcome)
    return world.with_actor(target.model_copy(update={"written_off": effect.status == "destroyed"})), effect
