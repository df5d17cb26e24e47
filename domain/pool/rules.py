"""The d10 Pool rules as pure functions of the faces: no state, no dice source, no clock.

A pool of d10s is rolled against a DC (3 to 10). Each die at or above the DC is a success;
each 1 cancels one success. The net (successes − 1s, which may fall below zero) against the
successes required gives the degree; `margin` = net − required is kept with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from ..errors import RuleViolation

SIDES = 10
DC_MIN, DC_MAX = 3, 10
REQUIRED_MIN, REQUIRED_MAX = 1, 3

DC_NAMES: dict[int, str] = {
    3: "easy",
    4: "easy",
    5: "average",
    6: "average",
    7: "demanding",
    8: "hard",
    9: "very hard",
    10: "near-impossible",
}
DC_LADDER = "easy 3-4, average 5-6, demanding 7, hard 8, very hard 9, near-impossible 10"


def dc_name(dc: int) -> str:
    return DC_NAMES[dc]


def check_dc(dc: int, what: str = "DC") -> None:
    """Refuse a DC the book does not have, naming the ladder."""
    if not DC_MIN <= dc <= DC_MAX:
        raise RuleViolation(f"{what} {dc} is not a DC of this game: give one from 3 to 10 ({DC_LADDER})")


def check_required(required: int) -> None:
    if not REQUIRED_MIN <= required <= REQUIRED_MAX:
        raise RuleViolation(
            f"a check requires 1 to 3 successes (most need 1, demanding ones 2 or 3), not {required}; "
            "use --critical to double them"
        )


def needed(required: int, critical: bool) -> int:
    """The successes a roll must reach: a critical roll doubles what is required."""
    return required * 2 if critical else required


class Degree(StrEnum):
    """How well it went, best first."""

    PLENTY = "plenty"
    JUST_ENOUGH = "just_enough"
    JUST_SHORT = "just_short"
    BOTCH = "botch"

    @property
    def label(self) -> str:
        return {
            "plenty": "plenty of successes",
            "just_enough": "just enough",
            "just_short": "just short",
            "botch": "a botch",
        }[self.value]

    @property
    def meaning(self) -> str:
        return {
            "plenty": "it goes as well as it could",
            "just_enough": "success, with a wrinkle",
            "just_short": "failure with a door left open",
            "botch": "it goes as badly as it can",
        }[self.value]

    @property
    def succeeded(self) -> bool:
        return self in (Degree.PLENTY, Degree.JUST_ENOUGH)

    @property
    def rank(self) -> int:
        """Higher is better: botch 0, just short 1, just enough 2, plenty 3."""
        return {"botch": 0, "just_short": 1, "just_enough": 2, "plenty": 3}[self.value]


class Count(BaseModel):
    """The dice of one pool counted against one DC."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    faces: tuple[int, ...]
    dc: int
    successes: int
    ones: int

    @property
    def net(self) -> int:
        """Successes left after each 1 cancels one; below zero when 1s outnumber them."""
        return self.successes - self.ones

    @property
    def botched(self) -> bool:
        """Rolled 1s left no success: at least one 1, and a net of zero or less."""
        return self.ones > 0 and self.net <= 0

    @property
    def kept(self) -> int:
        """The successes that count: the net, never below zero."""
        return max(self.net, 0)


def count(faces: Sequence[int], dc: int) -> Count:
    """Each die at or above the DC is a success; each 1 is counted to cancel one."""
    check_dc(dc)
    for face in faces:
        if not 1 <= face <= SIDES:
            raise RuleViolation(f"{face} is not a d10 face (1-10)")
    return Count(
        faces=tuple(faces),
        dc=dc,
        successes=sum(1 for f in faces if f >= dc),
        ones=sum(1 for f in faces if f == 1),
    )


def degree(counted: Count, need: int) -> Degree:
    """Botch when 1s leave nothing; else short of the need, exactly it, or over it."""
    if counted.botched:
        return Degree.BOTCH
    if counted.net < need:
        return Degree.JUST_SHORT
    if counted.net == need:
        return Degree.JUST_ENOUGH
    return Degree.PLENTY


def contest_winner(attacker: Count, defender: Count) -> str:
    """'attacker' only when the side starting the contest keeps more successes; ties go to the defender.

    A side's kept successes are its net, never below zero: two botches are a tie of nothing.
    """
    return "attacker" if attacker.kept > defender.kept else "defender"


def luck_holds(face: int, luck: int) -> bool:
    """A lucky break when one d10 comes up at or under the character's Luck (Luck 5: a coin-flip)."""
    if not 1 <= face <= SIDES:
        raise RuleViolation(f"{face} is not a d10 face (1-10)")
    return face <= luck
