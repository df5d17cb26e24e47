"""Replayed dice: a command decided on another timeline with the faces its first record rolled.

Replaying a branch's commands onto a fork (`what-if`, `branch replay`) decides each one again
against the fork's state, with the same input and the same faces. The fork's rolls take the
fork's roll numbers; the faces come from the parent's rolls in the same order (the command's
first roll from its first, and so on), and every rolling fact of the fork cites the parent's
event its faces come from (`RolledFact.replayed_from`), so `audit` can prove them there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .dice import ReplayDice, Roll
from .events import Fact, ReplayedFaces, RolledFact, Visibility
from .ruleset import Decided


@dataclass(frozen=True)
class ReplayedRolls:
    """The rolls one recorded command made, by their offset in the command (its first roll 0),
    each with the event that recorded it."""

    rolls: Mapping[int, tuple[ReplayedFaces, tuple[Roll, ...]]] = field(default_factory=dict)
    walked_away: bool = False
    """The recorded command's chooser walked away after the roll: the replay leaves there too."""

    @classmethod
    def of(
        cls, first_number: int, rolled: Sequence[tuple[int, ReplayedFaces, tuple[Roll, ...]]], walked_away: bool
    ) -> ReplayedRolls:
        """`rolled`: (roll number, the event's citation, its rolls) of each rolling fact of a command
        whose first roll took `first_number`."""
        return cls({number - first_number: (cited, rolls) for number, cited, rolls in rolled}, walked_away)

    def dice_for(self, first_number: int) -> DiceFor:
        """Roll N's dice for a replay whose first roll takes `first_number`: a fresh source each call,
        so a decision tried twice (on a Star's view, then the Director's) is handed the same faces."""
        return DiceFor(self, first_number)

    def cited(self, decided: Decided, first_number: int) -> list[tuple[Fact, Visibility]]:
        """The decided facts, each rolling one that rolled dice citing the recorded roll they came from."""
        out: list[tuple[Fact, Visibility]] = []
        for item in decided:
            fact, visibility = item if isinstance(item, tuple) else (item, item.default_visibility)
            if isinstance(fact, RolledFact) and fact.recorded_rolls():
                found = self.rolls.get(fact.roll_number - first_number)
                if found is not None:
                    fact = fact.model_copy(
                        update={"replayed_from": found[0], "dice_commitment": None, "dice_entropy": None}
                    )
            out.append((fact, visibility))
        return out


@dataclass(frozen=True)
class DiceFor:
    replayed: ReplayedRolls
    first_number: int

    def __call__(self, number: int) -> ReplayDice:
        found = self.replayed.rolls.get(number - self.first_number)
        return ReplayDice(found[1] if found is not None else ())


def replayed_in(recorded: Sequence[tuple[Fact, Visibility]], first_number: int) -> ReplayedRolls:
    """The replayed rolls of a recorded command, as they were handed to it (for deciding it again)."""
    return ReplayedRolls.of(
        first_number,
        [
            (fact.roll_number, fact.replayed_from, fact.recorded_rolls())
            for fact, _ in recorded
            if isinstance(fact, RolledFact) and fact.replayed_from is not None
        ],
        walked_away=False,
    )
