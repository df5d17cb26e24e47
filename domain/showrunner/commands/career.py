"""Acclaim, the Career Paths and Awards (Chapter 11): Acclaim marked, a full Path completed for
one of its two choices, Awards Season, and an Award's once-per-Episode power."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from ...ruleset import Action, Decided, RollContext
from ..path_choices import PathChoice
from ..state import ShowrunnerState
from ..vocabulary import AbilityName, Award, CareerPath, Mastery
from .progress import named, rolled


class Acclaim(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    path: CareerPath
    amount: int = 1
    reason: str = ""


class PathCompletion(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    path: CareerPath
    choice: PathChoice


class Nomination(BaseModel):
    """A nomination won as the Path's Award, a Mastery, or a Mastered Ability: one of the three."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    path: CareerPath
    award: Award | None = None
    mastery: Mastery | None = None
    ability: AbilityName | None = None


class AwardUse(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    award: Award
    note: str = ""


def mark(state: ShowrunnerState, asked: Acclaim, roll: RollContext | None) -> Decided:
    from ..progress_events import AcclaimEarned

    return [
        AcclaimEarned.decided(
            state, star=named(state, asked.star), path=asked.path, amount=asked.amount, reason=asked.reason
        )
    ]


def complete(state: ShowrunnerState, asked: PathCompletion, roll: RollContext | None) -> Decided:
    from ..progress_events import CareerPathCompleted

    return [
        rolled(CareerPathCompleted, state, roll, star=named(state, asked.star), path=asked.path, choice=asked.choice)
    ]


def awards_season(state: ShowrunnerState, asked: Nomination, roll: RollContext | None) -> Decided:
    from ..progress_events import AwardsSeasonHeld

    return [
        AwardsSeasonHeld.decided(
            state,
            star=named(state, asked.star),
            path=asked.path,
            award=asked.award,
            mastery=asked.mastery,
            ability=asked.ability,
        )
    ]


def use_award(state: ShowrunnerState, asked: AwardUse, roll: RollContext | None) -> Decided:
    from ..progress_events import AwardUsed

    return [AwardUsed.decided(state, star=named(state, asked.star), award=asked.award, note=asked.note)]


_CAREERS = "Acclaim, Career Paths and Awards"
CAREERS = {
    "acclaim-mark": Action("Mark Acclaim on a Career Path.", Acclaim, mark, subject=_CAREERS),
    "acclaim-complete": Action(
        "Complete a full Path for the Actor's or the Character's Choice, and mark its Minor Milestone.",
        PathCompletion,
        complete,
        rolls=True,
        subject=_CAREERS,
    ),
    "acclaim-awards-season": Action(
        "Awards Season: a nomination won as the Path's Award or a Mastery.",
        Nomination,
        awards_season,
        subject=_CAREERS,
    ),
    "acclaim-use-award": Action("Use an Award's power, once per Episode.", AwardUse, use_award, subject=_CAREERS),
}
