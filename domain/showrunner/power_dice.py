"""Power Dice (Chapter 12.1): one d6 per level from NORMAL up to a Threat's or Actor's Power Level.

The pips a die shows are its durability (Opponents, Obstacles, Actors) or its scale (Projects),
and the Opposition Dice a check at that Difficulty faces. Every pip rolled here is asked
for with the dice purpose "power", highest die first.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..dice import DiceSource
from ..errors import RuleViolation
from .ladder import Difficulty

POWER = "power"
"""The dice purpose of every pip: starting pips, the reset of a cleared die, a Project's re-roll."""

Pip = Annotated[int, Field(strict=True, ge=1, le=6)]
_LEVELS = tuple(level for level in Difficulty if level is not Difficulty.EASY)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


def dice_count(level: Difficulty) -> int:
    """How many Power Dice a Power Level has: NORMAL 1 … GODLIKE 8 (a FORMIDABLE Threat has 3)."""
    if level is Difficulty.EASY:
        raise RuleViolation("EASY is not a Power Level: Power Levels run from NORMAL to GODLIKE")
    return level.rank


class PowerDice(_Frozen):
    """The pips on each die, NORMAL first. Dice are only ever lost from the top, so they stay contiguous."""

    pips: tuple[Pip, ...] = ()

    @field_validator("pips")
    @classmethod
    def _at_most_eight(cls, pips: tuple[int, ...]) -> tuple[int, ...]:
        if len(pips) > len(_LEVELS):
            raise ValueError(f"at most {len(_LEVELS)} Power Dice (NORMAL to GODLIKE), got {len(pips)}")
        return pips

    @property
    def top(self) -> Difficulty | None:
        """The highest die left, or None when every die is gone."""
        return _LEVELS[len(self.pips) - 1] if self.pips else None

    @property
    def levels(self) -> tuple[Difficulty, ...]:
        return _LEVELS[: len(self.pips)]

    def has(self, level: Difficulty) -> bool:
        return 1 <= level.rank <= len(self.pips)

    def pips_at(self, level: Difficulty) -> int:
        """The pips on the die at this level; 0 where there is no die (it adds no Opposition)."""
        return self.pips[level.rank - 1] if self.has(level) else 0

    def describe(self) -> str:
        return (
            " ".join(f"{level.letter}{pips}" for level, pips in zip(self.levels, self.pips, strict=True)) or "no dice"
        )


class PowerChange(_Frozen):
    """What one clear or one pip did to a set of Power Dice."""

    before: PowerDice
    after: PowerDice
    defeated: bool = False
    """The top die was cleared or reduced to 0: the Threat retreats, surrenders or escapes."""
    destroyed: bool = False
    """No die is left, or a die above the top was to be cleared: written off in its current form."""
    full: bool = False
    """A pip reached 6 on the top die, or was added above it: for a Project, it is complete."""
    steps: tuple[str, ...] = ()


class _Working:
    """The dice while one rule works on them; index 0 is the NORMAL die."""

    def __init__(self, power: PowerDice, dice: DiceSource | None) -> None:
        self.before = power
        self.pips = list(power.pips)
        self.dice = dice
        self.steps: list[str] = []
        self.defeated = self.destroyed = self.full = False

    def roll(self, why: str) -> int:
        if self.dice is None:
            raise RuleViolation(f"{why} needs a {POWER} die, but no dice were given")
        (face,) = self.dice.roll(POWER, 1)
        return face

    def level(self, index: int) -> str:
        return _LEVELS[index].value if index < len(_LEVELS) else "above GODLIKE"

    def carry(self, index: int) -> None:
        """An exploding 6 adds a pip to the next higher die (12.1B). A die already at 6 cannot
        show more, so the pip passes on upward; above the top die it is lost."""
        while index < len(self.pips) and self.pips[index] == 6:
            index += 1
        if index < len(self.pips):
            self.pips[index] += 1
            self.steps.append(f"an exploding 6 adds 1 pip to {self.level(index)} ({self.pips[index]})")
        else:
            self.steps.append("an exploding 6 has no die left to add a pip to")

    def exploding_roll(self, index: int) -> int:
        """Roll a die; a 6 below the top die adds a pip above and is re-rolled; the top die keeps a 6."""
        while True:
            face = self.roll(f"rolling the {self.level(index)} die")
            if face < 6 or index == len(self.pips) - 1:
                return face
            self.carry(index + 1)

    def clear(self, index: int) -> None:
        if index >= len(self.pips):
            self.destroyed = True
            self.steps.append(f"a clear at {self.level(index)} is above the top die: destroyed")
            return
        if index == len(self.pips) - 1:
            self.pips.pop()
            self.defeated = True
            self.destroyed = not self.pips
            self.steps.append(
                f"cleared the top die {self.level(index)}: it is removed and "
                + ("no die is left: destroyed" if self.destroyed else "the Threat is defeated")
            )
            return
        # 12.1E: reduce the next higher die first, then reset the cleared one.
        self.pips[index + 1] -= 1
        self.steps.append(f"cleared {self.level(index)}: {self.level(index + 1)} drops to {self.pips[index + 1]}")
        if self.pips[index + 1] == 0:
            self.clear(index + 1)
        self.pips[index] = self.exploding_roll(index)
        self.steps.append(f"{self.level(index)} is reset to {self.pips[index]}")

    def add(self, index: int) -> None:
        if index >= len(self.pips):
            self.full = True
            self.steps.append(f"a pip at {self.level(index)} is above the top die")
            return
        self.pips[index] = min(6, self.pips[index] + 1)
        self.steps.append(f"{self.level(index)} gains 1 pip ({self.pips[index]})")
        if self.pips[index] < 6:
            return
        if index == len(self.pips) - 1:
            self.full = True
            self.steps.append(f"the top die {self.level(index)} reached 6")
            return
        # 12.1H: a die that reaches 6 is re-rolled and carries a pip upward; a re-rolled 6 does the same.
        while True:
            face = self.roll(f"re-rolling the {self.level(index)} die")
            if face < 6:
                break
            self.add(index + 1)
        self.pips[index] = face
        self.steps.append(f"{self.level(index)} reached 6: re-rolled as {face}, 1 pip carries up")
        self.add(index + 1)

    def change(self) -> PowerChange:
        return PowerChange(
            before=self.before,
            after=PowerDice(pips=tuple(self.pips)),
            defeated=self.defeated,
            destroyed=self.destroyed,
            full=self.full,
            steps=tuple(self.steps),
        )


def roll_power_dice(level: Difficulty, dice: DiceSource) -> PowerDice:
    """Starting pips (12.1B): roll from the highest die down; a 6 on a lower die adds 1 pip to
    the next higher die and is re-rolled; the top die keeps a 6."""
    work = _Working(PowerDice(), dice)
    work.pips = [0] * dice_count(level)  # filled from the top down, so a carry always lands on a rolled die
    for index in reversed(range(len(work.pips))):
        work.pips[index] = work.exploding_roll(index)
    return PowerDice(pips=tuple(work.pips))


def clear(power: PowerDice, level: Difficulty, dice: DiceSource | None, *, highlight: bool = False) -> PowerChange:
    """Clear the die at `level`, one step higher on a Highlight (12.1E): the next higher die loses
    1 pip (a die reduced to 0 is cleared in turn, so clears cascade upward), then the cleared die
    is reset with an exploding roll. The top die has no higher die: it is removed, and the Threat
    is defeated; with no die left, or a clear above the top die, it is destroyed."""
    work = _Working(power, dice)
    # Counted as an index, not a Difficulty, so a Highlight at GODLIKE still lands above the top die.
    work.clear(dice_count(level) - 1 + highlight)
    return work.change()


def add_pip(power: PowerDice, level: Difficulty, dice: DiceSource | None, *, highlight: bool = False) -> PowerChange:
    """Add 1 pip to the die at `level`, one step higher on a Highlight (12.1D, H): a die that
    reaches 6 is re-rolled and carries 1 pip to the next higher die. The top die stops at 6 and
    reports `full`."""
    work = _Working(power, dice)
    work.add(dice_count(level) - 1 + highlight)
    return work.change()


def add_die(power: PowerDice, dice: DiceSource) -> PowerChange:
    """A Power Level gained: a new top die, rolled like a starting top die (it keeps a 6)."""
    if len(power.pips) == len(_LEVELS):
        raise RuleViolation("a GODLIKE Power Level cannot rise: GODLIKE is the top of the ladder")
    work = _Working(power, dice)
    work.pips.append(1)
    work.pips[-1] = work.exploding_roll(len(work.pips) - 1)
    work.steps.append(f"a new {work.level(len(work.pips) - 1)} die rolled {work.pips[-1]}")
    return work.change()


def acting_level(difficulty: Difficulty, highlight: bool) -> Difficulty:
    """The level a check's progress works at: its original Difficulty, one step higher on a
    Highlight (named as GODLIKE at the top of the ladder, where `clear` and `add_pip` go above it)."""
    return difficulty.step(1) if highlight else difficulty


def opposition(power: PowerDice, difficulty: Difficulty) -> int:
    """Opposition Dice a die gives a check at `difficulty`: its pips, 0 where there is no die."""
    return power.pips_at(difficulty)


def decisive_strike_difficulty(power: PowerDice) -> Difficulty:
    """12.1G: one step above the highest active Power Level."""
    top = power.top
    if top is None:
        raise RuleViolation("a Threat with no Power Dice left has nothing to strike")
    if top is Difficulty.GODLIKE:
        raise RuleViolation("a GODLIKE Threat has no Difficulty above it: it can only be worn down")
    return top.step(1)


def decisive_strike_opposition(power: PowerDice) -> int:
    """12.1G: the pips on the highest die plus the number of dice below it."""
    if not power.pips:
        raise RuleViolation("a Threat with no Power Dice left has nothing to strike")
    return power.pips[-1] + len(power.pips) - 1
