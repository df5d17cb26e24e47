"""`consequence`: a Consequence on a Star's sheet (14.3)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from ...ruleset import Action, Decided, RollContext
from ..consequences import ConsequenceRequest, PropChoice, decide
from ..events import ConsequenceSuffered
from ..state import ShowrunnerState


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
        )


def consequence(state: ShowrunnerState, asked: Consequence, roll: RollContext | None) -> Decided:
    assert roll is not None, "a Consequence may roll (rolls=True)"
    resolution = decide(state, asked.request(), roll.dice)
    # Only a Consequence that rolled (a Plot Armor Scar's slot, Limit's Anomalies) takes the roll number.
    rolled = bool(resolution.rolls)
    return [
        ConsequenceSuffered(
            resolution=resolution,
            roll_number=roll.roll_number if rolled else None,
            **roll.seal(rolled),
        )
    ]


CONSEQUENCES = {
    "consequence": Action(
        "Decide and record a Consequence on a Star's sheet.",
        Consequence,
        consequence,
        rolls=True,
        subject="Consequences",
    ),
}
