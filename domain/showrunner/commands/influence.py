"""`spend` and `regain`: Influence outside a check (Chapter 6, Section 10.3)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from ...ruleset import Action, Decided, RollContext
from ..events import InfluenceRegained, InfluenceSpent
from ..influence import PoolName, decide_regain, decide_spend
from ..state import ShowrunnerState


class Spend(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    pool: PoolName
    amount: int = 1
    push: bool = False
    """Push Your Limits: pay what the pool lacks by exhausting icons."""
    reason: str = ""


class Regain(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    pool: PoolName
    amount: int = 1
    reason: str = ""


def spend(state: ShowrunnerState, request: Spend, roll: RollContext | None) -> Decided:
    spent = decide_spend(state, request.star, request.pool, request.amount, push=request.push)
    return [InfluenceSpent(spent=spent, reason=request.reason)]


def regain(state: ShowrunnerState, request: Regain, roll: RollContext | None) -> Decided:
    regained = decide_regain(state, request.star, request.pool, request.amount)
    return [InfluenceRegained(regained=regained, reason=request.reason)]


INFLUENCE = {
    "spend": Action("Spend Influence from a Star's pool.", Spend, spend, subject="Influence pools"),
    "regain": Action("Regain Influence up to the pool's maximum.", Regain, regain, subject="Influence pools"),
}
