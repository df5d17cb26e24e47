"""Spending and regaining Influence outside a check (Chapter 6, Section 10.3).

Decisions return a record of exactly what happened, so the event carries the
outcome and replay never re-decides.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..errors import RuleViolation
from .sheet import Pool
from .state import ShowrunnerState

PoolName = Literal["grit", "retake", "spotlight", "plot_armor", "preparation"]
POOLS: tuple[PoolName, ...] = ("grit", "retake", "spotlight", "plot_armor", "preparation")
LABELS: dict[PoolName, str] = {
    "grit": "Grit",
    "retake": "Retake",
    "spotlight": "Spotlight",
    "plot_armor": "Plot Armor",
    "preparation": "Preparation",
}


class Spent(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: Literal["spent"] = "spent"
    star: str
    pool: PoolName
    amount: int = Field(ge=1)
    from_pool: int = Field(ge=0)
    exhausted: int = Field(ge=0)
    """Points paid by crossing off icons (Pushing Your Limits); each lowers the maximum by one."""

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return apply_spend(state, self)


class Regained(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: Literal["regained"] = "regained"
    star: str
    pool: PoolName
    amount: int = Field(ge=1)
    kept: int = Field(ge=0)
    to_ensemble: int = Field(ge=0)
    lost: int = Field(ge=0)

    def apply(self, state: ShowrunnerState) -> ShowrunnerState:
        return apply_regain(state, self)


def decide_spend(state: ShowrunnerState, star: str, pool: PoolName, amount: int, *, push: bool) -> Spent:
    sheet = state.star(star)
    _check_amount(amount)
    current: Pool = getattr(sheet.influence, pool)
    from_pool = min(current.current, amount)
    shortfall = amount - from_pool
    label = LABELS[pool]
    if shortfall and not push:
        raise RuleViolation(
            f"{sheet.name} has {current.current} {label} and wants to spend {amount}; "
            f"pass --push to Push Your Limits (exhausts {shortfall} icon{'s' if shortfall > 1 else ''})"
        )
    # Once the pool is spent down to 0, every icon still on the track is empty and
    # may be crossed off; icons already crossed off are gone (Section 6.4).
    if shortfall > current.max:
        raise RuleViolation(
            f"{sheet.name} has only {current.max} {label} icon{'s' if current.max != 1 else ''} left "
            f"to exhaust and would need {shortfall}: the spend cannot be paid"
        )
    return Spent(star=sheet.name, pool=pool, amount=amount, from_pool=from_pool, exhausted=shortfall)


def decide_regain(state: ShowrunnerState, star: str, pool: PoolName, amount: int) -> Regained:
    sheet = state.star(star)
    _check_amount(amount)
    current: Pool = getattr(sheet.influence, pool)
    kept = min(amount, current.max - current.current)
    excess = amount - kept
    ensemble = state.ensemble
    room = getattr(ensemble, f"{pool}_max") - getattr(ensemble, pool)
    to_ensemble = min(excess, room)
    return Regained(
        star=sheet.name, pool=pool, amount=amount, kept=kept, to_ensemble=to_ensemble, lost=excess - to_ensemble
    )


def apply_spend(state: ShowrunnerState, spent: Spent) -> ShowrunnerState:
    sheet = state.star(spent.star)
    pool: Pool = getattr(sheet.influence, spent.pool)
    new_pool = pool.model_copy(
        update={
            "current": pool.current - spent.from_pool,
            "max": pool.max - spent.exhausted,
            "exhausted": pool.exhausted + spent.exhausted,
        }
    )
    return state.with_star(
        sheet.model_copy(update={"influence": sheet.influence.model_copy(update={spent.pool: new_pool})})
    )


def apply_regain(state: ShowrunnerState, regained: Regained) -> ShowrunnerState:
    sheet = state.star(regained.star)
    pool: Pool = getattr(sheet.influence, regained.pool)
    new_pool = pool.model_copy(update={"current": pool.current + regained.kept})
    state = state.with_star(
        sheet.model_copy(update={"influence": sheet.influence.model_copy(update={regained.pool: new_pool})})
    )
    if regained.to_ensemble:
        ensemble = state.ensemble
        state = state.model_copy(
            update={
                "ensemble": ensemble.model_copy(
                    update={regained.pool: getattr(ensemble, regained.pool) + regained.to_ensemble}
                )
            }
        )
    return state


def _check_amount(amount: int) -> None:
    if amount < 1:
        raise RuleViolation(f"the amount must be at least 1 (got {amount})")
