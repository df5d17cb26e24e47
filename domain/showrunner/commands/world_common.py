"""What the world's commands share: a name free for a new Actor or Threat, a target still standing,
a target as a fact records it, and the state after the facts a command has decided so far.

The world's facts (world_events.py) are a fact module, loaded only once a log or a decision needs
one: the decisions import them where they make them, never at the top of a module.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...errors import AlreadyExists, RuleViolation
from ...events import CampaignFact
from ...names import name_key
from ..actors import Actor
from ..state import ShowrunnerState
from ..threats import Threat
from ..world import World


def name_is_free(state: ShowrunnerState, name: str) -> None:
    """A new Actor or Threat never shares a name with a Star, an Actor or a Threat."""
    if name_key(name) in state.stars:
        raise AlreadyExists(f"'{name}' is a Star of this campaign: an Actor or a Threat needs another name")
    state.world._name_free(name)


def check_standing(found: Threat | Actor) -> None:
    """A finished Threat or a written-off Actor is not worked on any more."""
    if isinstance(found, Threat) and found.finished:
        raise RuleViolation(f"{found.name} is {found.status}: no check can move its Power Dice any more")
    if isinstance(found, Actor) and found.written_off:
        raise RuleViolation(f"{found.name} has been written off the Show")


def as_target(world: World, name: str | None) -> dict[str, Threat | Actor | None]:
    """The `threat` and `actor` fields of a fact: the target called `name` as it now stands."""
    moved = world.target(name) if name is not None else None
    return {
        "threat": moved if isinstance(moved, Threat) else None,
        "actor": moved if isinstance(moved, Actor) else None,
    }


def after(state: ShowrunnerState, facts: Iterable[CampaignFact[ShowrunnerState]]) -> ShowrunnerState:
    """The state once `facts` are applied: what a command's next fact is decided on."""
    for fact in facts:
        state = fact.apply(state)
    return state
