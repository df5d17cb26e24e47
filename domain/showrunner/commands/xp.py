"""XP marked outside a check, every milestone it fills crossed, and Limit Breaks (Appendix D)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...events import CampaignFact, absent
from ...ruleset import Action, Decided, RollContext
from ...text import Name
from ..actors import ActorSpec, Person
from ..ladder import Difficulty
from ..progression import possession_turns
from ..state import ShowrunnerState
from ..vocabulary import AbilityName
from .actors import create_actor
from .progress import named, rolled
from .world_common import name_is_free

if TYPE_CHECKING:
    from ..world_events import PossessorEmpowered


class XP(BaseModel):
    """XP on one Ability or one Hero Prop, in pencil or (permanent) in pen."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    amount: int
    ability: AbilityName | None = None
    hero_prop: str | None = None
    permanent: bool = False
    reason: str = ""


class LimitBreak(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    resist: Difficulty
    """The Difficulty to resist the Major Anomaly's side-effects."""
    fixed_overload: int | None = None
    """The table always suffers this Internal Overload (else 2d10)."""
    fixed_anomaly: int | None = None
    """The table always suffers this Major Anomaly (else 2d10)."""
    ability_d10: Literal["alphabetical", "sheet"] = "sheet"
    """How a random Ability's d10 counts: "alphabetical" as the Appendices do (what the command
    line asks); "sheet" for a Limit Break recorded before one numbering, decided again alike."""
    possessor: Name | None = Field(default=None, exclude_if=absent)
    """The name of the hostile Actor a Possession casts, should one be rolled (else "<Star>'s Possessor")."""


def xp(state: ShowrunnerState, asked: XP, roll: RollContext | None) -> Decided:
    from ..progress_events import XPGained

    return [
        XPGained.decided(
            state,
            star=named(state, asked.star),
            ability=asked.ability,
            hero_prop=state.star(asked.star).hero_prop(asked.hero_prop).name if asked.hero_prop else None,
            amount=asked.amount,
            permanent=asked.permanent,
            reason=asked.reason,
        )
    ]


def limit_break(state: ShowrunnerState, asked: LimitBreak, roll: RollContext | None) -> Decided:
    """Appendix D. A Possession casts its hostile Actor into the Supporting Cast the first time
    (a Grudge with the Star, its Power Level rolled as a powerful Actor's) and raises it one
    Power Level each time after, each on a roll of its own."""
    from ..progress_events import LimitBroken

    assert roll is not None, "a Limit Break rolls (rolls=True)"
    star = named(state, asked.star)
    if asked.possessor is not None and state.star(star).possessor is None:
        name_is_free(state, asked.possessor)  # before any die: a taken name is refused at once
    broken = rolled(
        LimitBroken,
        state,
        roll,
        star=star,
        resist=asked.resist,
        fixed_overload=asked.fixed_overload,
        fixed_anomaly=asked.fixed_anomaly,
        ability_d10="alphabetical" if asked.ability_d10 == "alphabetical" else None,
        possessor=asked.possessor,
    )
    facts: list[CampaignFact[ShowrunnerState]] = [broken]
    after = broken.apply(state)
    possessor = after.star(star).possessor
    rolls = (o.roll for o in broken.overloads) if broken.ability_d10 is not None else ()
    for turn in possession_turns(state.star(star).possessor is not None, rolls):
        assert possessor is not None  # a Possession rolled names its Actor on the sheet
        if turn == "cast":
            spec = ActorSpec(
                name=possessor,
                concept=f"possesses {star}",
                scale="powerful",
                grudges={Difficulty.NORMAL: Person(name=star, star=True)},
            )
            made = [fact for fact in create_actor(after, spec, roll) if isinstance(fact, CampaignFact)]
        else:
            made = [empowered(after, star, possessor, roll)]
        for fact in made:
            after = fact.apply(after)
        facts += made
    return facts


def empowered(state: ShowrunnerState, star: str, possessor: str, roll: RollContext) -> PossessorEmpowered:
    from ..world_events import PossessorEmpowered, empower

    number, recorder = roll.recording()
    change = empower(state.world, possessor, recorder)
    return PossessorEmpowered(star=star, actor=possessor, change=change, **roll.stamp(number, recorder))


_XP = "XP and Limit Breaks"
XP_AND_LIMITS = {
    "xp": Action("Mark XP on an Ability or a Hero Prop and cross every milestone it fills.", XP, xp, subject=_XP),
    "limit-break": Action(
        "A Limit Break: an Internal Overload marked on the sheet in pen, and a Major Anomaly.",
        LimitBreak,
        limit_break,
        rolls=True,
        subject=_XP,
    ),
}
