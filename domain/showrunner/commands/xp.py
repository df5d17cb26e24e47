"""XP marked outside a check, every milestone it fills crossed, and Limit Breaks (Appendix D)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ...ruleset import Action, Decided, RollContext
from ..ladder import Difficulty
from ..state import ShowrunnerState
from ..vocabulary import AbilityName
from .progress import named, rolled


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
    from ..progress_events import LimitBroken

    return [
        rolled(
            LimitBroken,
            state,
            roll,
            star=named(state, asked.star),
            resist=asked.resist,
            fixed_overload=asked.fixed_overload,
            fixed_anomaly=asked.fixed_anomaly,
            ability_d10="alphabetical" if asked.ability_d10 == "alphabetical" else None,
        )
    ]


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
