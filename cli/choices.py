"""What an option may name, listed from the domain's enums: the Abilities, the Difficulty
ladder, Prop Types and Qualities; and the parsers that turn what was typed into the member.

The enums are imported here, when the command tree is built, because the help of `check`
lists the Abilities: they come from modules of plain enums (ladder, vocabulary), so building
the tree does not load the sheet's models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..domain.showrunner.ladder import Difficulty, Quality
from ..domain.showrunner.vocabulary import AbilityName, PropType
from .errors import UsageProblem

if TYPE_CHECKING:
    from ..domain.showrunner.check import PropSpend

ABILITIES = ", ".join(a.value for a in AbilityName)
ABILITY_NAMES = tuple(a.value for a in AbilityName)
CHECKED = tuple(d for d in Difficulty if d is not Difficulty.EASY and d.target is not None)
"""The Difficulties a check is rolled at (above EPIC is a Set Piece; EASY only by a spend)."""
_LETTERS = ", ".join(d.letter for d in Difficulty if d is not Difficulty.EASY)


def ladder(*, easy: bool = True) -> str:
    """The Difficulty ladder by name, then by letter (EASY, which has no letter, only if it may be named)."""
    names = ", ".join(d.value for d in Difficulty if easy or d is not Difficulty.EASY)
    return f"{names} (or {_LETTERS})"


def ability(value: str, flag: str | None = None) -> AbilityName:
    try:
        return AbilityName(value)
    except ValueError:
        where = f"{flag}: " if flag else ""
        raise UsageProblem(f"{where}unknown Ability '{value}' (Abilities: {ABILITIES})") from None


def difficulty(flag: str, value: str, *, easy: bool = False) -> Difficulty:
    try:
        level = Difficulty(value)
    except ValueError:
        raise UsageProblem(f"{flag}: '{value}' is not on the Difficulty ladder: {ladder(easy=easy)}") from None
    if level is Difficulty.EASY and not easy:
        raise UsageProblem(f"{flag}: EASY is not a Power Level or a Difficulty to set: {ladder(easy=False)}")
    return level


def quality(flag: str, value: str) -> Quality:
    try:
        return Quality(value)
    except ValueError:
        names = ", ".join(q.value for q in Quality)
        letters = ", ".join(q.letter for q in Quality)
        raise UsageProblem(f"{flag}: '{value}' is not a Quality ({names} or {letters})") from None


def prop(flag: str, value: str) -> tuple[PropType, Quality]:
    """TYPE[:QUALITY], e.g. Weapons:HARD or goods (a NORMAL Prop)."""
    kind, _, level = value.partition(":")
    try:
        prop_type = PropType(kind.strip())
    except ValueError:
        raise UsageProblem(
            f"{flag}: '{kind.strip()}' is not a Prop Type ({', '.join(t.value for t in PropType)})"
        ) from None
    return prop_type, quality(flag, level.strip() or "NORMAL")


def prop_spend(value: str) -> PropSpend:
    """--prop TYPE[:QUALITY], as a check spends it."""
    from ..domain.showrunner.check import PropSpend

    prop_type, level = prop("--prop", value)
    return PropSpend(type=prop_type, quality=level)
