"""The Ensemble (Section 10.3): the shared Influence pool, the Ensemble Backpack, Holdings,
Ensemble XP and Levels.

Numbers the book prints only on the Ensemble Profile are the constants below, in one place
(docs/rules.md). Inspirational Overflow itself lives in influence.decide_regain.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from ..errors import RuleViolation, UnknownName
from ..names import name_key
from .backpack import _added, _removed, count_of, slot_room, stow, take
from .influence import LABELS, PoolName
from .ladder import Quality
from .sheet import CareerPath, Holding, PropType
from .state import EnsemblePool, ShowrunnerState

ENSEMBLE_XP_PER_LEVEL = 3
"""Ensemble XP △ from one Level to the next (the Ensemble track is not printed)."""
MAX_ENSEMBLE_LEVEL = 8
"""10.3C names Levels 2, 4, 6 and 8 as the even Levels: the track is read as ending at 8."""
ENSEMBLE_PROP_LIMIT = 5
STARTING_HOLDING_SLOTS = 1

MAJOR_MILESTONE_POOLS: dict[CareerPath, tuple[PoolName, ...]] = {
    CareerPath.TRAINING: ("retake",),
    CareerPath.PERSISTENCE: ("grit", "preparation"),
    CareerPath.TALENT: ("spotlight",),
    CareerPath.DESTINY: ("plot_armor",),
}
"""10.3A.3: the shared tracks a Major Milestone on each Career Path advances."""


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


def ensemble_backpack_slots(ensemble: EnsemblePool) -> int:
    """1 slot at Level 1, one more at every new Level (10.3B, 10.3D step 2)."""
    return ensemble.level


def holding_slots(ensemble: EnsemblePool) -> int:
    """1 at the start, one more at every even Level (10.3C)."""
    return STARTING_HOLDING_SLOTS + ensemble.level // 2


def grow_for_major_milestone(ensemble: EnsemblePool, path: CareerPath) -> EnsemblePool:
    """10.3A.3: each matching shared track's maximum +1 and the pool gains 1 of it."""
    update: dict[str, int] = {}
    for pool in MAJOR_MILESTONE_POOLS[path]:
        update[f"{pool}_max"] = getattr(ensemble, f"{pool}_max") + 1
        update[pool] = getattr(ensemble, pool) + 1
    return ensemble.model_copy(update=update)


def refresh(ensemble: EnsemblePool, pool: PoolName, amount: int) -> tuple[EnsemblePool, int]:
    """Add to the shared pool up to its maximum (a Montage refresh, 10.3A.2); returns what was kept."""
    kept = max(0, min(amount, getattr(ensemble, f"{pool}_max") - getattr(ensemble, pool)))
    return ensemble.model_copy(update={pool: getattr(ensemble, pool) + kept}), kept


# ------------------------------------------------------------------ spending the shared pool


class EnsembleSpent(_Record):
    """A spend from the Ensemble Pool with the proximity and consent it was made under."""

    star: str
    pool: PoolName
    amount: int = Field(ge=1)
    present_with: tuple[str, ...]
    """Other Cast members the Star is with or working beside (10.3A.1 Proximity)."""
    consent: tuple[str, ...]
    """Cast members who agreed to the spend (10.3A.1 Consent); the spender may be one."""
    state: ShowrunnerState


def cast(state: ShowrunnerState) -> list[str]:
    """The Cast: every Star not written off."""
    return [s.name for s in state.stars.values() if not s.written_off]


def _names(state: ShowrunnerState, names: Sequence[str], what: str) -> tuple[str, ...]:
    found: list[str] = []
    members = {name_key(n): n for n in cast(state)}
    for name in names:
        key = name_key(name)
        if key not in members:
            raise UnknownName(f"{what}: '{name}' is not in the Cast ({', '.join(members.values()) or 'none'})")
        if members[key] in found:
            raise RuleViolation(f"{what}: {members[key]} is named twice")
        found.append(members[key])
    return tuple(found)


def spend_from_ensemble(
    state: ShowrunnerState,
    star: str,
    pool: PoolName,
    amount: int,
    *,
    present_with: Sequence[str],
    consent: Sequence[str],
) -> EnsembleSpent:
    """10.3A.1: a Star spends shared Influence when with at least half of the other Cast
    members and with at least half the Cast agreeing. Both lists are recorded; a spend with
    no consent recorded is refused. The shared pool cannot be pushed past empty.
    """
    sheet = state.star(star)
    if sheet.written_off:
        raise RuleViolation(f"{sheet.name} has been written off the Show")
    if amount < 1:
        raise RuleViolation(f"the amount must be at least 1 (got {amount})")
    members = cast(state)
    if not consent:
        raise RuleViolation(
            f"spending from the Ensemble Pool needs the Cast's consent: name at least {-(-len(members) // 2)} "
            "of the Cast who agree"
        )
    present = _names(state, present_with, "present with")
    if sheet.name in present:
        raise RuleViolation(f"present with: {sheet.name} is the Star spending; name the others")
    agreed = _names(state, consent, "consent")
    others = len(members) - 1
    if 2 * len(present) < others:
        raise RuleViolation(
            f"{sheet.name} must be with at least half of the other Cast members ({-(-others // 2)} of {others}); "
            f"named {len(present)}"
        )
    if 2 * len(agreed) < len(members):
        raise RuleViolation(
            f"at least half the Cast ({-(-len(members) // 2)} of {len(members)}) must agree; {len(agreed)} did"
        )
    have = getattr(state.ensemble, pool)
    if amount > have:
        raise RuleViolation(f"the Ensemble Pool holds {have} {LABELS[pool]} and cannot pay {amount}")
    ensemble = state.ensemble.model_copy(update={pool: have - amount})
    return EnsembleSpent(
        star=sheet.name,
        pool=pool,
        amount=amount,
        present_with=present,
        consent=agreed,
        state=state.model_copy(update={"ensemble": ensemble}),
    )


# ------------------------------------------------------------------ the Ensemble Backpack


def ensemble_room(ensemble: EnsemblePool, prop_type: PropType, quality: Quality) -> int:
    return slot_room(ensemble.backpack, ensemble_backpack_slots(ensemble), ENSEMBLE_PROP_LIMIT, prop_type, quality)


def add_to_ensemble_backpack(
    state: ShowrunnerState, star: str, prop_type: PropType, quality: Quality, count: int
) -> ShowrunnerState:
    """10.3B: any Star may add Props to the Ensemble Backpack at any time during an Episode."""
    if count < 1:
        raise RuleViolation(f"the number of Props must be at least 1 (got {count})")
    room = ensemble_room(state.ensemble, prop_type, quality)
    if count > room:
        raise RuleViolation(
            f"the Ensemble Backpack has room for {room} {quality.value} {prop_type.value}, not {count} "
            f"({ensemble_backpack_slots(state.ensemble)} slots of {ENSEMBLE_PROP_LIMIT} per Quality)"
        )
    sheet = take(state.star(star), prop_type, quality, count)
    ensemble = state.ensemble.model_copy(
        update={"backpack": tuple(_added(state.ensemble.backpack, prop_type, quality, count))}
    )
    return state.with_star(sheet).model_copy(update={"ensemble": ensemble})


def take_from_ensemble_backpack(
    state: ShowrunnerState, star: str, prop_type: PropType, quality: Quality, count: int, *, during_montage: bool
) -> ShowrunnerState:
    """10.3B: Props come out of the Ensemble Backpack (swapped or spent) only during a Montage."""
    if not during_montage:
        raise RuleViolation(
            "the Ensemble Backpack is opened only during a Montage Sequence; Props may be added any time"
        )
    ensemble = spend_from_ensemble_backpack(state.ensemble, prop_type, quality, count)
    sheet, _ = stow(state.star(star), prop_type, quality, count)
    return state.with_star(sheet).model_copy(update={"ensemble": ensemble})


def spend_from_ensemble_backpack(
    ensemble: EnsemblePool, prop_type: PropType, quality: Quality, count: int
) -> EnsemblePool:
    have = count_of(ensemble.backpack, prop_type, quality)
    if count > have:
        raise RuleViolation(f"the Ensemble Backpack holds {have} {quality.value} {prop_type.value}, not {count}")
    return ensemble.model_copy(update={"backpack": tuple(_removed(ensemble.backpack, prop_type, quality, count))})


# ------------------------------------------------------------------ Holdings


def add_holding(ensemble: EnsemblePool, holding: Holding) -> EnsemblePool:
    """10.3C: a Holding fills an empty Holding Slot."""
    if any(name_key(h.name) == name_key(holding.name) for h in ensemble.holdings):
        raise RuleViolation(f"the Cast already holds '{holding.name}'")
    if len(ensemble.holdings) >= holding_slots(ensemble):
        raise RuleViolation(
            f"all {holding_slots(ensemble)} Holding Slots are full: a new slot opens at every even Ensemble Level"
        )
    return ensemble.model_copy(update={"holdings": (*ensemble.holdings, holding)})


# ------------------------------------------------------------------ Ensemble XP and Levels


class EnsembleGrowth(_Record):
    xp: int = Field(ge=0, le=2)
    levels: tuple[int, ...] = ()
    """Levels reached, each with its new Backpack slot and (even Levels) its new Holding Slot."""
    benefits: tuple[str, ...] = ()
    ensemble: EnsemblePool


def episode_end(
    ensemble: EnsemblePool, *, entertaining: bool, premise: bool, benefits: Sequence[str] = ()
) -> EnsembleGrowth:
    """10.3D: 1 Ensemble XP for each Yes; reaching the next Level clears the track, unlocks one
    Ensemble Benefit (named by the table, one per Level reached, in order), one Backpack slot,
    and at even Levels a Holding Slot. XP past the last Level is not marked.
    """
    xp = int(entertaining) + int(premise)
    level, track = ensemble.level, ensemble.xp
    reached: list[int] = []
    for _ in range(xp):
        if level >= MAX_ENSEMBLE_LEVEL:
            break
        track += 1
        if track >= ENSEMBLE_XP_PER_LEVEL:
            level, track = level + 1, 0
            reached.append(level)
    names = tuple(" ".join(b.split()) for b in benefits)
    if len(names) != len(reached) or not all(names):
        if reached:
            raise RuleViolation(
                f"the Ensemble reaches Level {', '.join(map(str, reached))}: name {len(reached)} Ensemble "
                f"Benefit{'s' if len(reached) > 1 else ''} to unlock (got {len([n for n in names if n])})"
            )
        raise RuleViolation("no new Ensemble Level is reached, so no Ensemble Benefit is unlocked")
    new = ensemble.model_copy(update={"xp": track, "level": level, "benefits": (*ensemble.benefits, *names)})
    return EnsembleGrowth(xp=xp, levels=tuple(reached), benefits=names, ensemble=new)
