"""Spending and regaining Influence outside a check (Chapter 6, Section 10.3).

Decisions return a record of exactly what happened, so the event carries the
outcome and replay never re-decides.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from ..errors import RuleViolation
from ..field_equality import FieldsEqual
from .sheet import Pool, StarSheet
from .sheet_change import OnOneSheet
from .state import EnsemblePool, ShowrunnerState

PoolName = Literal["grit", "retake", "spotlight", "plot_armor", "preparation"]
POOLS: tuple[PoolName, ...] = ("grit", "retake", "spotlight", "plot_armor", "preparation")
LABELS: dict[PoolName, str] = {
    "grit": "Grit",
    "retake": "Retake",
    "spotlight": "Spotlight",
    "plot_armor": "Plot Armor",
    "preparation": "Preparation",
}


class Spent(OnOneSheet, FieldsEqual):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: Literal["spent"] = "spent"
    star: str
    pool: PoolName
    amount: int = Field(ge=1)
    from_pool: int = Field(ge=0)
    exhausted: int = Field(ge=0)
    """Points paid by crossing off icons (Pushing Your Limits); each lowers the maximum by one."""

    def changed(self, sheet: StarSheet) -> StarSheet:
        pool: Pool = getattr(sheet.influence, self.pool)
        new_pool = pool.model_copy(
            update={
                "current": pool.current - self.from_pool,
                "max": pool.max - self.exhausted,
                "exhausted": pool.exhausted + self.exhausted,
            }
        )
        return sheet.model_copy(update={"influence": sheet.influence.model_copy(update={self.pool: new_pool})})


class Regained(OnOneSheet, FieldsEqual):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: Literal["regained"] = "regained"
    star: str
    pool: PoolName
    amount: int = Field(ge=1)
    kept: int = Field(ge=0)
    to_ensemble: int = Field(ge=0)
    lost: int = Field(ge=0)

    def changed(self, sheet: StarSheet) -> StarSheet:
        pool: Pool = getattr(sheet.influence, self.pool)
        new_pool = pool.model_copy(update={"current": pool.current + self.kept})
        return sheet.model_copy(update={"influence": sheet.influence.model_copy(update={self.pool: new_pool})})

    def beyond_sheet(self, state: ShowrunnerState) -> ShowrunnerState:
        """What does not fit the Star's pool goes to the Ensemble Pool, as far as it has room."""
        if not self.to_ensemble:
            return state
        ensemble = state.ensemble
        return state.model_copy(
            update={
                "ensemble": ensemble.model_copy(update={self.pool: getattr(ensemble, self.pool) + self.to_ensemble})
            }
        )


def decide_spend(state: ShowrunnerState, star: str, pool: PoolName, amount: int, *, push: bool) -> Spent:
    return spend_from(state.star(star), pool, amount, push=push)


def spend_from(sheet: StarSheet, pool: PoolName, amount: int, *, push: bool) -> Spent:
    """`decide_spend` for the Star of `sheet`, as the sheet stands."""
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
    return regain_into(state.star(star), state.ensemble, pool, amount)


def regain_into(sheet: StarSheet, ensemble: EnsemblePool, pool: PoolName, amount: int) -> Regained:
    """`decide_regain` for the Star of `sheet`, as the sheet and the Ensemble Pool stand."""
    _check_amount(amount)
    current: Pool = getattr(sheet.influence, pool)
    kept = min(amount, current.max - current.current)
    excess = amount - kept
    room = getattr(ensemble, f"{pool}_max") - getattr(ensemble, pool)
    to_ensemble = min(excess, room)
    return Regained(
        star=sheet.name, pool=pool, amount=amount, kept=kept, to_ensemble=to_ensemble, lost=excess - to_ensemble
    )


def apply_spend(state: ShowrunnerState, spent: Spent) -> ShowrunnerState:
    return spent.apply(state)


def apply_regain(state: ShowrunnerState, regained: Regained) -> ShowrunnerState:
    return regained.apply(state)


def _check_amount(amount: int) -> None:
    if amount < 1:
        raise RuleViolation(f"the amount must be at least 1 (got {amount})")
