"""9.2D Hire's Alternate Benefit: an Actor hired in a Montage to accompany a Star, up to the
highest Difficulty paid for, who provides automatic Partial Successes at 1 Money each."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from ..errors import RuleViolation
from .ladder import Difficulty, Quality


class Hireling(BaseModel):
    """An Actor accompanying a Star: the book sets the hire no end, so a new hire of the same
    Actor by the same Star only changes the highest Difficulty."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    actor: str
    most: Difficulty
    """The maximum Difficulty they will face for the Star: what the hire was paid for."""
    provided: int = 0
    """Automatic Partial Successes provided so far, each paid for."""


def partial_success_price(hireling: Hireling, difficulty: Difficulty) -> Quality:
    """The Money one automatic Partial Success costs: 1 of the Difficulty's Tier (EASY, below the
    Tiers, is paid in NORMAL Money). Refused above the hire's maximum Difficulty."""
    if difficulty.rank > hireling.most.rank:
        raise RuleViolation(
            f"{hireling.actor} was hired to face at most {hireling.most.value} for {hireling.star}: "
            f"a {difficulty.value} check is beyond the hire (hire them again at {difficulty.value})"
        )
    return Quality.NORMAL if difficulty is Difficulty.EASY else Quality(difficulty.value)
