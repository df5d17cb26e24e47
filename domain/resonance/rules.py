"""The d4 Resonance rules as pure functions: no dice are rolled here and no time is read.

Every number a check, a Harm or a Scene's end decides comes from these functions, so the
rules can be tested (and re-judged by an audit) without a ledger.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SIDES = 4
MAX_HARM_LEVEL = 8
"""A Harm's level stops at 8: each level past it becomes a point of Overkill."""
MIN_ARC_SCENES = 3
"""An Arc "should have no less than 3" Scenes, unless it is a single session."""


def two_largest(faces: Sequence[int]) -> tuple[int, ...]:
    """The dice a check keeps: the two largest (the only die with one die, none with none)."""
    return tuple(sorted(faces, reverse=True)[:2])


def total(faces: Sequence[int]) -> int:
    """A roll's result: the sum of its two largest dice (0 to 8 for d4s)."""
    return sum(two_largest(faces))


@dataclass(frozen=True)
class Judgement:
    success: bool
    resonance: int
    """Result - Difficulty on a success, at least 1; 0 on a failure."""
    dissonance: int
    """Difficulty - Result on a failure; 0 on a success."""


def judge(result: int, difficulty: int) -> Judgement:
    """A check succeeds when its result meets or exceeds the Difficulty."""
    if result >= difficulty:
        return Judgement(True, max(1, result - difficulty), 0)
    return Judgement(False, 0, difficulty - result)


def pool_size(rank: int, *, supported: bool = False, stretch: bool = False, bonus: int = 0) -> int:
    """d4s rolled: the rank, +1 with a supporter, -1 on a Stretch, + any bonus; never below 0."""
    return max(0, rank + (1 if supported else 0) - (1 if stretch else 0) + bonus)


def endurance_spent(pledged: int, resonance: int) -> int:
    """Endurance reduces the Resonance by 1 a point; no point is spent past the Resonance."""
    return max(0, min(pledged, resonance))


def add_levels(level: int, levels: int) -> tuple[int, int]:
    """A Harm's new level and the Overkill gained: levels past 8 become Overkill."""
    raised = level + levels
    if raised > MAX_HARM_LEVEL:
        return MAX_HARM_LEVEL, raised - MAX_HARM_LEVEL
    return raised, 0


def is_major(level: int, morale: int) -> bool:
    """A Harm whose level meets or exceeds the character's Morale is Major."""
    return level > 0 and level >= morale


@dataclass(frozen=True)
class Standing:
    unique: int
    """Harms at any level, each point of Overkill counting as one more."""
    major: int
    """Major Harms, each point of Overkill counting as one more."""
    removed: bool
    """Unique Harms at twice Morale, or Major Harms at Morale."""


def standing(levels: Iterable[int], overkill: int, morale: int) -> Standing:
    levels = [level for level in levels if level > 0]
    unique = len(levels) + overkill
    major = sum(1 for level in levels if is_major(level, morale)) + overkill
    return Standing(unique, major, unique >= 2 * morale or major >= morale)


def overkill_after_scene(overkill: int, *, arc_ends: bool) -> int:
    """A Scene's end heals 1 point of Overkill; an Arc's end heals it all."""
    return 0 if arc_ends else max(0, overkill - 1)


def overkill_after_rejoining(overkill: int) -> int:
    """A character who rejoins the narrative keeps their Overkill and gains one more point."""
    return overkill + 1


def healed_level(level: int, fortitude: int) -> int:
    """A Healing Potion reduces the level of a Harm by the user's Fortitude rank."""
    return max(0, level - fortitude)


def turn_order(speeds: Sequence[tuple[str, int]], tie_rolls: dict[str, list[int]]) -> list[str]:
    """Names from highest to lowest Speed; ties by the tie-break dice rolled, highest first, in order."""
    return [name for name, _ in sorted(speeds, key=lambda s: (-s[1], [-f for f in tie_rolls.get(s[0], [])]))]
