"""Where dice come from. Rules never call a random generator: a dice source is passed in.

Every die a rule rolls is asked for by *purpose* ("action", "opposition", "script",
"spotlight", …), so a roll can be recorded, typed in from physical dice, or replayed
for an audit, die by die.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal, Protocol

from pydantic import ConfigDict

from .errors import FaceCountMismatch, InvalidDice
from .field_equality import FieldsEqual

Source = Literal["ledger", "table"]


class DiceSource(Protocol):
    source: Source

    def roll(self, purpose: str, count: int, sides: int = 6) -> list[int]: ...


class Roll(FieldsEqual):
    """One request for dice and the faces that answered it."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    purpose: str
    sides: int
    faces: tuple[int, ...]
    source: Source


class RecordingDice:
    """Wraps a source and keeps every roll, in order, for the event."""

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.source = inner.source
        self.rolls: list[Roll] = []

    def roll(self, purpose: str, count: int, sides: int = 6) -> list[int]:
        if count <= 0:
            return []
        faces = self.inner.roll(purpose, count, sides)
        self.rolls.append(Roll(purpose=purpose, sides=sides, faces=tuple(faces), source=self.source))
        return faces


def check_faces(purpose: str, faces: Sequence[int], sides: int) -> None:
    for face in faces:
        if not 1 <= face <= sides:
            raise InvalidDice(f"{purpose} die {face} is not a d{sides} face (1-{sides})", purpose=purpose)


class TableDice:
    """Faces typed in from physical dice, one queue per purpose (e.g. --action 1,4,5)."""

    source: Source = "table"

    def __init__(self, faces: Mapping[str, Sequence[int]]) -> None:
        self._queues = {purpose: list(values) for purpose, values in faces.items()}
        self._given = {purpose: len(values) for purpose, values in faces.items()}

    def roll(self, purpose: str, count: int, sides: int = 6) -> list[int]:
        queue = self._queues.get(purpose, [])
        if len(queue) < count:
            given = self._given.get(purpose, 0)
            raise FaceCountMismatch(purpose, given=given, rolled=given - len(queue) + count)
        faces, self._queues[purpose] = queue[:count], queue[count:]
        check_faces(purpose, faces, sides)
        return faces

    def check_all_used(self) -> None:
        """Faces left over mean the table rolled dice the rules did not ask for: a mistake."""
        for purpose, queue in self._queues.items():
            if queue:
                given = self._given[purpose]
                raise FaceCountMismatch(purpose, given=given, rolled=given - len(queue))


class ReplayDice:
    """The recorded rolls, handed back in order: an audit re-judges with exactly these."""

    def __init__(self, rolls: Sequence[Roll]) -> None:
        self._rolls = list(rolls)
        self.source: Source = self._rolls[0].source if self._rolls else "ledger"

    def roll(self, purpose: str, count: int, sides: int = 6) -> list[int]:
        if not self._rolls:
            raise InvalidDice(
                f"the record has no {purpose} roll left; the engine asks for more dice than were rolled",
                purpose=purpose,
            )
        recorded = self._rolls.pop(0)
        if (recorded.purpose, recorded.sides, len(recorded.faces)) != (purpose, sides, count):
            raise InvalidDice(
                f"the engine asks for {count} {purpose} d{sides} but the record has "
                f"{len(recorded.faces)} {recorded.purpose} d{recorded.sides}"
            )
        self.source = recorded.source
        return list(recorded.faces)

    @property
    def left_over(self) -> int:
        return len(self._rolls)


class DeferredDice:
    """A dice source built on the first roll: a decision that rolls nothing needs no seed."""

    def __init__(self, source: Source, make: Callable[[], DiceSource]) -> None:
        self.source = source
        self._make = make
        self._inner: DiceSource | None = None

    def roll(self, purpose: str, count: int, sides: int = 6) -> list[int]:
        if self._inner is None:
            self._inner = self._make()
        return self._inner.roll(purpose, count, sides)
