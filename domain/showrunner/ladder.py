"""The Difficulty / Power ladder shared by checks, Threats, Relationships and Props."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Protocol, TypeVar

# Target a Result Die must meet (RULES-NOTES): above EPIC a single check cannot be rolled.
_TARGETS = {"EASY": 2, "NORMAL": 3, "HARD": 4, "FORMIDABLE": 5, "EPIC": 6}


class _Lettered(Protocol):
    """A member of a ladder the book names by letter as well as by name."""

    @property
    def name(self) -> str: ...
    @property
    def letter(self) -> str: ...


_Rung = TypeVar("_Rung", bound=_Lettered)


def _by_name_or_letter(members: Iterable[_Rung], value: object) -> _Rung | None:
    """Case-insensitive lookup by name, then by the book's tier letter."""
    if not isinstance(value, str):
        return None
    text = value.strip().upper()
    for member in members:
        if member.name == text:
            return member
    for member in members:
        # EASY's "-" is a blank on the sheet, not a letter to parse.
        if text.isalpha() and member.letter == text:
            return member
    return None


class Difficulty(StrEnum):
    """Low to high; also the Power Levels of Actors and the Tiers of Relationships."""

    EASY = "EASY"
    NORMAL = "NORMAL"
    HARD = "HARD"
    FORMIDABLE = "FORMIDABLE"
    EPIC = "EPIC"
    LEGENDARY = "LEGENDARY"
    MYTHIC = "MYTHIC"
    ASCENDANT = "ASCENDANT"
    GODLIKE = "GODLIKE"

    @property
    def rank(self) -> int:
        return _LADDER.index(self)

    @property
    def target(self) -> int | None:
        return _TARGETS.get(self.name)

    @property
    def letter(self) -> str:
        # EASY has no tier on the sheet (Difficulty is only ever reduced to it), hence no letter;
        # "E" is EPIC's, as in the book's N, H, F, E milestones.
        return "-" if self is Difficulty.EASY else self.name[0]

    def step(self, n: int) -> Difficulty:
        """Move n steps up (n > 0) or down (n < 0), stopping at EASY and GODLIKE."""
        return _LADDER[max(0, min(len(_LADDER) - 1, self.rank + n))]

    @classmethod
    def _missing_(cls, value: object) -> Difficulty | None:
        return _by_name_or_letter(cls, value)


_LADDER = tuple(Difficulty)


class Quality(StrEnum):
    """The four Qualities a Prop can have (Chapter 8.1)."""

    NORMAL = "NORMAL"
    HARD = "HARD"
    FORMIDABLE = "FORMIDABLE"
    EPIC = "EPIC"

    @property
    def letter(self) -> str:
        return self.name[0]

    @classmethod
    def _missing_(cls, value: object) -> Quality | None:
        return _by_name_or_letter(cls, value)
