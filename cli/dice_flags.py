"""Table dice on the command line: the flags that take the faces of physical dice, how the
faces are read, and which flag an error about one purpose's dice is shown with.

The rules ask for dice by purpose ("action", "scar_slot", …); an `InvalidDice` about one
purpose carries it, and each command maps it to the flag it declared for those dice.

No `from __future__ import annotations` here: typer reads the option annotations as objects.
"""

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

import typer
from typer.models import OptionInfo

from ..domain.errors import FaceCountMismatch, InvalidDice
from .errors import UsageProblem

T = TypeVar("T")
TABLE = "Table dice (typed in from physical dice; any one makes every die of the command a table die)"

CHECK_FACES: dict[str, tuple[str, int]] = {
    "action": ("--action", 6),
    "opposition": ("--opposition-dice", 6),
    "script": ("--script", 6),
    "actor_specialty": ("--actor-specialty-die", 6),
    "actor_scar": ("--actor-scar-die", 6),
    "studio_note": ("--studio-note-die", 6),
    "retake": ("--retake-dice", 6),
    "opposition_retake": ("--opposition-retake-dice", 6),
    "spotlight": ("--spotlight-die", 6),
    "anomaly": ("--anomaly", 100),
    "scar_slot": ("--scar-slot", 10),
    "grit": ("--grit-dice", 6),
    "power": ("--power", 6),
}
"""A check's dice: {purpose: (flag, sides)}. `--opposition N` is the COUNT of Opposition Dice;
their faces go in --opposition-dice."""


def faces_option(flag: str, what: str, panel: str = TABLE) -> OptionInfo:
    """A table-dice flag, for `Annotated[list[str] | None, faces_option(...)]`."""
    option: OptionInfo = typer.Option(flag, metavar="FACES", help=what, rich_help_panel=panel)
    return option


def split_faces(flag: str, value: str) -> list[int]:
    """'1,4 5' -> [1, 4, 5]."""
    faces = []
    for part in (p for p in re.split(r"[\s,]+", value.strip()) if p):
        try:
            faces.append(int(part))
        except ValueError:
            raise UsageProblem(f"{flag}: '{part}' is not a die face (write faces like 1,4,5)") from None
    return faces


def read_faces(
    flag: str, values: Sequence[str], sides: int, *, refused: Callable[[str], Exception] = UsageProblem
) -> list[int]:
    """Every face given with one flag (repeated or comma-separated), each on a d`sides`."""
    found = [face for value in values for face in split_faces(flag, value)]
    for face in found:
        if not 1 <= face <= sides:
            raise refused(f"{flag}: {face} is not a d{sides} face (1-{sides})")
    return found


def parse_faces(given: Mapping[str, tuple[str, Sequence[str] | None, int]]) -> dict[str, list[int]]:
    """{purpose: (flag, values, sides)} -> {purpose: faces}, for the purposes given."""
    return {
        purpose: read_faces(flag, values, sides)
        for purpose, (flag, values, sides) in given.items()
        if values is not None
    }


def numbers(flag: str, values: Sequence[str]) -> list[int]:
    """The faces of a ruleset's table-dice flag, as numbers; the ruleset checks their range."""
    try:
        return [int(part) for value in values for part in re.split(r"[\s,]+", value.strip()) if part]
    except ValueError:
        raise UsageProblem(f"{flag} wants faces as numbers, e.g. 3,1,4 (got {','.join(values)!r})") from None


def keep_pair(value: str) -> tuple[int, int]:
    """--keep A,B: the two Result Dice to keep, 0 for a missing die."""
    pair = split_faces("--keep", value)
    if len(pair) != 2:
        raise UsageProblem(f"--keep takes two faces, like 5,4 (got '{value}')")
    for face in pair:
        if not 0 <= face <= 6:
            raise UsageProblem(f"--keep: {face} is not a die face (1-6, or 0 for a missing die)")
    return pair[0], pair[1]


def with_flags(error: InvalidDice, flags: Mapping[str, str], *, spaced: bool = False) -> InvalidDice:
    """The error naming this command's flag for the dice whose faces were miscounted.

    The rules name the dice by purpose; `spaced` writes the purpose in words ("actor
    specialty"), as `check` always has.
    """
    purpose = error.purpose
    if not isinstance(error, FaceCountMismatch) or purpose is None or purpose not in flags:
        return error
    dice = purpose.replace("_", " ") if spaced else purpose
    return InvalidDice(error.told(dice, flags[purpose]), purpose=purpose)


def recording(call: Callable[[], T], flags: Mapping[str, str]) -> T:
    """Run a command that records, naming this command's flag when the table dice do not fit."""
    try:
        return call()
    except InvalidDice as e:
        raise with_flags(e, flags) from None
