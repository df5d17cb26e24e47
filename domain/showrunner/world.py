"""The world's side of a campaign: the Supporting Cast Roster and its Actors, the Threats on the
soundstage, the Subplots (in stasis, revealed or resolved) and the running Action Sequences.

Frozen: every rule takes a World and returns a new one.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from ..errors import AlreadyExists, RuleViolation, UnknownName
from ..names import name_key
from ..quick_copy import QuickCopy
from .actors import Actor, Roster
from .hirelings import Hireling
from .ladder import Difficulty
from .sequences import Sequence
from .threats import Threat
from .writers_room import Subplot

SlotState = Literal["empty", "unlocked", "filled", "written_off"]


def _known(names: list[str]) -> str:
    return ", ".join(sorted(names)) or "none"


class Due(BaseModel):
    """Consequences a Star still owes (a `ConsequencesDue` recorded them), until `consequence` ticks them off."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    star: str
    difficulty: Difficulty
    count: int = Field(ge=1)
    why: str
    """What called for them: a Sequence's Beat, or a check against a Threat or Actor."""


class World(QuickCopy):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    roster: Roster = Field(default_factory=Roster)
    actors: dict[str, Actor] = Field(default_factory=dict)
    """Every Actor ever cast, written off ones included, by name without regard to case."""
    threats: dict[str, Threat] = Field(default_factory=dict)
    subplots: tuple[Subplot, ...] = ()
    """In the order they were written; a Subplot's number is its place in this list, from 1."""
    sequences: dict[str, Sequence] = Field(default_factory=dict)
    """The Action Sequences running now, by goal."""
    dues: tuple[Due, ...] = ()
    """Consequences recorded as due and not yet applied, in the order they fell due."""
    complications: dict[str, int] = Field(default_factory=dict)
    """14.3 Narrative Complication: the Opposition Dice each Star's next check gains, by name key."""
    hirelings: tuple[Hireling, ...] = ()
    """Actors hired to accompany a Star (9.2D Hire), in the order first hired."""

    _quiet: ClassVar[tuple[str, ...]] = ("dues", "complications", "hirelings")

    @model_serializer(mode="wrap")
    def _leave_out_empty(self, handler: SerializerFunctionWrapHandler) -> object:
        # Added after worlds were first stored: a world without them dumps (and hashes) as before.
        data = handler(self)
        if isinstance(data, dict):
            for name in self._quiet:
                if not getattr(self, name):
                    data.pop(name, None)
        return data

    # --- lookups

    def as_seen_by_players(self) -> World:
        """Without Subplots in stasis, nor the roster slots only a Subplot roll has Unlocked."""
        subplots = tuple(s for s in self.subplots if s.status != "stasis")
        slots = {n: held for n, held in self.roster.slots.items() if held is not None}
        return self.model_copy(update={"subplots": subplots, "roster": self.roster.model_copy(update={"slots": slots})})

    def actor(self, name: str) -> Actor:
        found = self.actors.get(name_key(name))
        if found is None:
            raise UnknownName(f"no Actor called '{name}' (Actors: {_known([a.name for a in self.actors.values()])})")
        return found

    def threat(self, name: str) -> Threat:
        found = self.threats.get(name_key(name))
        if found is None:
            raise UnknownName(f"no Threat called '{name}' (Threats: {_known([t.name for t in self.threats.values()])})")
        return found

    def target(self, name: str) -> Threat | Actor:
        """A Threat or an Actor: the two never share a name."""
        key = name_key(name)
        found: Threat | Actor | None = self.threats.get(key)
        if found is None:
            found = self.actors.get(key)
        if found is None:
            known = [t.name for t in self.threats.values()] + [a.name for a in self.actors.values()]
            raise UnknownName(f"no Threat or Actor called '{name}' (known: {_known(known)})")
        return found

    def standing(self, name: str) -> bool:
        """Still there to be worked on: not destroyed, complete or written off."""
        target = self.target(name)
        return not (target.finished if isinstance(target, Threat) else target.written_off)

    def slot_state(self, slot: int) -> SlotState:
        if slot not in self.roster.slots:
            return "empty"
        holder = self.roster.holder(slot)
        if holder is None:
            return "unlocked"
        return "written_off" if self.actor(holder).written_off else "filled"

    def subplot(self, number: int) -> Subplot:
        if not 1 <= number <= len(self.subplots):
            raise UnknownName(
                f"there is no Subplot {number} (Subplots: 1-{len(self.subplots)})"
                if self.subplots
                else f"there is no Subplot {number}: none has been written"
            )
        return self.subplots[number - 1]

    def unresolved_subplot(self, plotter: str) -> Subplot | None:
        """13.1 rule 4: an Actor's own Subplot waiting to be Revealed, or Revealed but not resolved."""
        return next(
            (s for s in self.subplots if s.status != "resolved" and name_key(s.plotter) == name_key(plotter)), None
        )

    def sequence(self, goal: str) -> Sequence:
        found = self.sequences.get(name_key(goal))
        if found is None:
            running = [s.goal for s in self.sequences.values()]
            raise UnknownName(f"no Action Sequence is running with the goal '{goal}' (running: {_known(running)})")
        return found

    def sequence_active(self, goal: str) -> bool:
        return name_key(goal) in self.sequences

    # --- changes

    def _name_free(self, name: str) -> None:
        key = name_key(name)
        if key in self.actors or key in self.threats:
            raise AlreadyExists(f"'{name}' already names an Actor or a Threat: choose another name")

    def cast(self, actor: Actor, slot: int | None = None) -> World:
        """A new Actor takes a roster slot: the one given (empty, Unlocked, or a written-off
        Actor's, to fill the vacuum), else the next Unlocked slot (Roster.next_free)."""
        self._name_free(actor.name)
        number = self.roster.next_free() if slot is None else slot
        if self.slot_state(number) == "filled":
            raise RuleViolation(f"roster slot {number} holds {self.roster.holder(number)}: cast into another slot")
        return self.model_copy(
            update={
                "roster": self.roster.with_slot(number, actor.name),
                "actors": {**self.actors, name_key(actor.name): actor},
            }
        )

    def with_actor(self, actor: Actor) -> World:
        self.actor(actor.name)
        return self.model_copy(update={"actors": {**self.actors, name_key(actor.name): actor}})

    def add_threat(self, threat: Threat) -> World:
        self._name_free(threat.name)
        return self.model_copy(update={"threats": {**self.threats, name_key(threat.name): threat}})

    def with_threat(self, threat: Threat) -> World:
        self.threat(threat.name)
        return self.model_copy(update={"threats": {**self.threats, name_key(threat.name): threat}})

    def with_roster(self, roster: Roster) -> World:
        return self.model_copy(update={"roster": roster})

    def with_subplot(self, subplot: Subplot) -> World:
        """Replace Subplot `subplot.number`, or add it when it is the next number."""
        if subplot.number == len(self.subplots) + 1:
            return self.model_copy(update={"subplots": (*self.subplots, subplot)})
        self.subplot(subplot.number)
        subplots = list(self.subplots)
        subplots[subplot.number - 1] = subplot
        return self.model_copy(update={"subplots": tuple(subplots)})

    def with_sequence(self, sequence: Sequence) -> World:
        return self.model_copy(update={"sequences": {**self.sequences, name_key(sequence.goal): sequence}})

    def hireling(self, star: str, actor: str) -> Hireling:
        """The Actor accompanying the Star, refused when no hire to accompany was paid for."""
        for hired in self.hirelings:
            if name_key(hired.star) == name_key(star) and name_key(hired.actor) == name_key(actor):
                return hired
        theirs = ", ".join(h.actor for h in self.hirelings if name_key(h.star) == name_key(star)) or "none"
        raise RuleViolation(
            f"{actor} does not accompany {star} (their hirelings: {theirs}); hire them in a Montage first "
            "(`montage scene hire` with the claim hire=ACTOR,accompany=LEVEL)"
        )

    def with_hireling(self, hired: Hireling) -> World:
        """The hireling added, or in place of the same Star's earlier hire of that Actor."""
        same = [
            i
            for i, h in enumerate(self.hirelings)
            if name_key(h.star) == name_key(hired.star) and name_key(h.actor) == name_key(hired.actor)
        ]
        hirelings = list(self.hirelings)
        if same:
            hirelings[same[0]] = hired
        else:
            hirelings.append(hired)
        return self.model_copy(update={"hirelings": tuple(hirelings)})

    def with_dues(self, dues: tuple[Due, ...]) -> World:
        return self.model_copy(update={"dues": (*self.dues, *dues)})

    def settle(self, star: str, difficulty: Difficulty, count: int) -> tuple[World, int]:
        """Tick off up to `count` of the Consequences `star` owes at `difficulty`, oldest first:
        the world after, and how many were ticked off."""
        left, kept = count, []
        for due in self.dues:
            if left and name_key(due.star) == name_key(star) and due.difficulty is difficulty:
                taken = min(left, due.count)
                left -= taken
                if due.count > taken:
                    kept.append(due.model_copy(update={"count": due.count - taken}))
                continue
            kept.append(due)
        return self.model_copy(update={"dues": tuple(kept)}), count - left

    def with_complication(self, star: str, dice: int) -> World:
        key = name_key(star)
        return self.model_copy(
            update={"complications": {**self.complications, key: self.complications.get(key, 0) + dice}}
        )

    def without_complication(self, star: str) -> World:
        return self.model_copy(
            update={"complications": {k: n for k, n in self.complications.items() if k != name_key(star)}}
        )

    def without_sequence(self, goal: str) -> World:
        self.sequence(goal)
        return self.model_copy(update={"sequences": {k: s for k, s in self.sequences.items() if k != name_key(goal)}})
