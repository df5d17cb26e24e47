"""`consequence` and `world-consequence`: a Consequence on a Star's sheet or on the world (14.3),
each ticking off one the Star owed at its Difficulty."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ...events import Fact, absent
from ...ruleset import Action, Decided, RollContext
from ..consequences import ConsequenceRequest, PropChoice, decide
from ..events import ConsequenceSuffered
from ..state import ShowrunnerState
from ..world_consequences import WorldConsequenceKind, WorldConsequenceRequest
from ..world_consequences import decide as decide_world


class Consequence(BaseModel):
    """A Consequence as the table asks for it, its Prop written as text ('Weapons:HARD') or chosen.

    The fields stay loose here so that a bad value is refused by `ConsequenceRequest`, in its words.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    kind: Any
    difficulty: Any
    count: Any = 1
    ability: Any = None
    hero_prop: Any = None
    prop: Any = None
    push: Any = False
    holding: Any = Field(default=None, exclude_if=absent)
    holding_wear: Any = Field(default=None, exclude_if=absent)
    icon: Any = None

    def request(self) -> ConsequenceRequest:
        prop = PropChoice.parse(self.prop) if isinstance(self.prop, str) else self.prop
        return ConsequenceRequest(
            star=self.star,
            kind=self.kind,
            difficulty=self.difficulty,
            count=self.count,
            ability=self.ability,
            hero_prop=self.hero_prop,
            prop=prop,
            push=self.push,
            holding=self.holding,
            holding_wear=self.holding_wear,
            icon=self.icon or None,
        )


def consequence(state: ShowrunnerState, asked: Consequence, roll: RollContext | None) -> Decided:
    assert roll is not None, "a Consequence may roll (rolls=True)"
    resolution = decide(state, asked.request(), roll.dice)
    # Only a Consequence that rolled (a Plot Armor Scar's slot, Limit's Anomalies) takes the roll number.
    rolled = bool(resolution.rolls)
    suffered = ConsequenceSuffered(
        resolution=resolution,
        roll_number=roll.roll_number if rolled else None,
        **roll.seal(rolled),
    )
    return [suffered, *_settled(state, resolution.star, asked.request())]


def _settled(state: ShowrunnerState, star: str, request: ConsequenceRequest | WorldConsequenceRequest) -> list[Fact]:
    from ..world_events import settled

    ticked = settled(state, star, request.difficulty, request.count)
    return [ticked] if ticked is not None else []


def world_consequence(state: ShowrunnerState, asked: WorldConsequenceRequest, roll: RollContext | None) -> Decided:
    """14.3's Consequences on the world; Introduce a Subplot Reveals it, free."""
    assert roll is not None, "a World Consequence may roll (rolls=True)"
    from ..world_events import WorldConsequenceSuffered
    from .writers_room import revealed_subplot

    star = state.star(asked.star).name
    request = asked.model_copy(update={"star": star})
    number, recorder = roll.recording()
    decided = decide_world(state.world, request, recorder)
    facts: list[Fact] = [
        WorldConsequenceSuffered(request=request, change=decided.change, **roll.stamp(number, recorder))
    ]
    if request.kind is WorldConsequenceKind.SUBPLOT:
        assert request.subplot is not None
        facts.append(revealed_subplot(state, roll, request.subplot, cliffhanger=False, free=True))
    return facts + _settled(state, star, request)


CONSEQUENCES = {
    "consequence": Action(
        "Decide and record a Consequence on a Star's sheet.",
        Consequence,
        consequence,
        rolls=True,
        subject="Consequences",
    ),
    "world-consequence": Action(
        "Decide and record a Consequence on the world: Harm Allies, Boost Opposition, New Threat, a Subplot, a Complication.",
        WorldConsequenceRequest,
        world_consequence,
        rolls=True,
        subject="Consequences",
    ),
}
