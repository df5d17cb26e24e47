"""The Ensemble (10.3): its shared Influence spent with proximity and consent, its Backpack,
its Holdings, and its XP and Levels at the end of an Episode."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from ...ruleset import Action, Decided, RollContext
from ..influence import PoolName
from ..sheet import Holding
from ..state import ShowrunnerState
from .progress import named
from .props import Props


class EnsembleSpend(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    pool: PoolName
    amount: int = 1
    present_with: tuple[str, ...] = ()
    """The Cast members the Star is with: at least half of the others."""
    consent: tuple[str, ...] = ()
    """The Cast members who agree (the spender may be one): at least half the Cast."""
    reason: str = ""


class NewHolding(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    holding: Holding
    reason: str = ""


class EpisodeEnd(BaseModel):
    """The two questions at the end of an Episode, and the Ensemble Benefit each new Level unlocks."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    entertaining: bool
    premise: bool
    benefits: tuple[str, ...] = ()


def spend(state: ShowrunnerState, asked: EnsembleSpend, roll: RollContext | None) -> Decided:
    from ..progress_events import EnsembleInfluenceSpent

    return [
        EnsembleInfluenceSpent.decided(
            state,
            star=named(state, asked.star),
            pool=asked.pool,
            amount=asked.amount,
            present_with=tuple(named(state, name) for name in asked.present_with),
            consent=tuple(named(state, name) for name in asked.consent),
            reason=asked.reason,
        )
    ]


def stock(state: ShowrunnerState, asked: Props, roll: RollContext | None) -> Decided:
    from ..progress_events import EnsembleBackpackStocked

    return [
        EnsembleBackpackStocked.decided(
            state, star=named(state, asked.star), type=asked.type, quality=asked.quality, count=asked.count
        )
    ]


def take(state: ShowrunnerState, asked: Props, roll: RollContext | None) -> Decided:
    from ..progress_events import EnsembleBackpackOpened

    return [
        EnsembleBackpackOpened.decided(
            state, star=named(state, asked.star), type=asked.type, quality=asked.quality, count=asked.count
        )
    ]


def holding(state: ShowrunnerState, asked: NewHolding, roll: RollContext | None) -> Decided:
    from ..progress_events import HoldingAcquired

    return [HoldingAcquired.decided(state, holding=asked.holding, reason=asked.reason)]


def xp(state: ShowrunnerState, asked: EpisodeEnd, roll: RollContext | None) -> Decided:
    from ..progress_events import EnsembleXPGained

    return [
        EnsembleXPGained.decided(state, entertaining=asked.entertaining, premise=asked.premise, benefits=asked.benefits)
    ]


_ENSEMBLE = "the Ensemble's pool, Backpack, Holdings and Levels"
ENSEMBLE = {
    "ensemble-spend": Action(
        "Spend shared Influence from the Ensemble Pool, with proximity and consent recorded.",
        EnsembleSpend,
        spend,
        subject=_ENSEMBLE,
    ),
    "ensemble-stock": Action(
        "Put Props in the Ensemble Backpack (any time during an Episode).", Props, stock, subject=_ENSEMBLE
    ),
    "ensemble-take": Action(
        "Take Props out of the Ensemble Backpack (only during a Montage Sequence).", Props, take, subject=_ENSEMBLE
    ),
    "ensemble-holding": Action("A Holding fills an empty Holding Slot.", NewHolding, holding, subject=_ENSEMBLE),
    "ensemble-xp": Action(
        "At the end of an Episode: 1 Ensemble XP per Yes (once per Episode), a Level's Benefits unlocked.",
        EpisodeEnd,
        xp,
        subject=_ENSEMBLE,
    ),
}
