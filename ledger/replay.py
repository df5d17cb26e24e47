"""Replaying one branch's commands onto another: "what if event N had gone otherwise?"

Every command recorded through the one door keeps its name and input, so it can be decided
again against another timeline's state. A replay walks the source branch's commands in order
and runs each through `Ledger.run` on the target, with the same input, the same choices, and
the faces the source rolled (each rolling fact cites the source's event, ledger/audit.py proves
them there). What the rules no longer allow is refused with their message; `on_conflict`
says whether that stops the replay or skips the command.

`what_if` is the shortcut: fork just before a command, record an alternative to it (other dice,
other choices, another command, or nothing), then replay the rest. Both first decide everything
on states alone, writing nothing: a dry run stops there, and an alternative the rules refuse
is refused before anything is written.

Run under a given command id (`--command-id GIVEN`), every command a replay records takes an id
derived from it: `GIVEN/0` for the fork a what-if makes, `GIVEN/K` for its K-th command (a
what-if's alternative is the first, the source's later commands follow in order), all with one
digest of the whole replay's input. A retry with the same id and input finds them and records
nothing new (its report is the first one's); with other input it is refused at the first of them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import ValidationError

from ..domain.campaign import CampaignState
from ..domain.errors import DomainError
from ..domain.events import Fact, ReplayedFaces, RolledFact, Visibility
from ..domain.replaying import ReplayedRolls
from .command_ids import CommandIdReused, RecordedId, note_replayed, recorded_id
from .errors import BranchExists, HiddenFromStar, LedgerError
from .events import COUNTERFACTUAL, REPLAYED, LedgerEvent
from .facts import BranchForked, NoteRecorded, RollRequested, RollRequestWithdrawn, SeedCommitted, SeedRevealed
from .service import DIRECTOR, BranchRef, Ledger
from .streams import fold_campaign

Outcome = Literal["same", "other", "refused", "not-replayed"]
OnConflict = Literal["stop", "skip"]


_DICE_PROVENANCE = frozenset({"roll_number", "dice_commitment", "dice_entropy", "replayed_from"})
"""Where a roll's dice came from, not what they did: a replayed fact differs from its source there."""

_NOT_REPLAYED = {
    RollRequested: "a roll asked for is replayed with the command that rolled it",
    RollRequestWithdrawn: "a roll asked for is replayed with the command that rolled it",
    SeedRevealed: "a dice seed is revealed on its own branch: reveal the fork's with `showrunner seed reveal`",
    SeedCommitted: "a dice seed is revealed on its own branch: reveal the fork's with `showrunner seed reveal`",
}


class NotACommand(LedgerError):
    """The event named was not recorded by a command that can be decided again."""


class AlternativeRefused(LedgerError):
    """The rules refuse the alternative a what-if asks for."""


@dataclass(frozen=True)
class Recorded:
    """A command of the source branch: its events, and the source's state around it."""

    events: tuple[LedgerEvent, ...]
    before: CampaignState
    after: CampaignState

    @property
    def carrier(self) -> LedgerEvent | None:
        """The event holding the command's record (its name and input), if it has one."""
        return next((e for e in self.events if e.command is not None), None)

    @property
    def record(self) -> dict[str, Any] | None:
        carrier = self.carrier
        return carrier.command if carrier is not None else None

    @property
    def name(self) -> str:
        record = self.record
        return str(record["name"]) if record is not None else self.events[0].type_name

    @property
    def first(self) -> int:
        return self.events[0].version

    @property
    def last(self) -> int:
        return self.events[-1].version

    @property
    def by(self) -> str:
        return self.events[0].recorded_by

    @property
    def director_only(self) -> bool:
        return any(e.visibility == "director" for e in self.events)

    def citation(self) -> dict[str, Any]:
        """The event a replay or an alternative names: the one holding the record, else the first."""
        event = self.carrier or self.events[0]
        return {"branch": str(event.originator_id), "version": event.version, "hash": event.hash}

    def rolls(self) -> ReplayedRolls:
        """The faces this command rolled, for its replay."""
        rolled = [
            (e.fact.roll_number, ReplayedFaces(branch=e.originator_id, version=e.version, hash=e.hash), rolls)
            for e in self.events
            if isinstance(e.fact, RolledFact) and (rolls := e.fact.recorded_rolls())
        ]
        record = self.record or {}
        return ReplayedRolls.of(self.before.dice_rolls + 1, rolled, bool(record.get("walked_away")))


@dataclass(frozen=True)
class Alternative:
    """What a what-if records instead of the command at N."""

    skip: bool = False
    """Record nothing: the fork goes on as if the command had never been run."""
    instead: str | None = None
    """Another command's name; None: the same command again."""
    changes: Mapping[str, Any] = field(default_factory=dict)
    """Fields of the same command's input to change, or the other command's whole input."""
    faces: Mapping[str, Sequence[int]] | None = None
    """Table dice for the alternative; None: the faces the command rolled (for the same command)."""


@dataclass(frozen=True)
class ReplayIds:
    """The command ids of one replay run under a given id (see the module's docstring)."""

    given: str | None
    command: str
    arguments: Mapping[str, Any]

    def __call__(self, number: int) -> RecordedId | None:
        """The id of the fork (0) or of the replay's `number`-th command (from 1); None without a given id."""
        if self.given is None:
            return None
        return recorded_id(f"{self.given}/{number}", self.command, dict(self.arguments))

    @contextmanager
    def reused(self, what: str) -> Iterator[None]:
        """A derived id found with other input: refused in the words of the id given."""
        try:
            yield
        except CommandIdReused:
            raise CommandIdReused(
                f"the command id '{self.given}' was already used for another {what}; "
                "nothing was recorded: give a new command a new id"
            ) from None


@dataclass(frozen=True)
class Step:
    """One command as the target records it (or does not), beside its source."""

    source: Recorded
    outcome: Outcome
    name: str
    facts: tuple[tuple[Fact, Visibility], ...] = ()
    before: CampaignState | None = None
    after: CampaignState | None = None
    versions: tuple[int, int] | None = None
    """The target's events it wrote (None in a dry run, or when nothing was written)."""
    reason: str | None = None
    """Why it was refused or not replayed."""
    alternative: bool = False
    command_id: RecordedId | None = None
    """The id it records under, derived from a given one."""

    @property
    def director_only(self) -> bool:
        return self.source.director_only or any(v == "director" for _, v in self.facts)


@dataclass(frozen=True)
class Replay:
    campaign: str
    source: str
    target: str
    fork_version: int | None
    """Where a what-if's fork leaves the source (None: a replay onto a branch that exists)."""
    steps: tuple[Step, ...]
    written: bool
    source_head: CampaignState
    target_head: CampaignState
    stopped: bool = False
    replayed: bool = False
    """A retry under the same command id: nothing new was recorded, the steps are the first record's."""

    @property
    def alternative(self) -> Step | None:
        return next((s for s in self.steps if s.alternative), None)


class _Target:
    """Where a replay records: a branch that is written to, or (dry run) only a state."""

    def __init__(self, ledger: Ledger, ref: BranchRef, state: CampaignState, *, write: bool) -> None:
        self.ledger, self.ref, self.state, self.write = ledger, ref, state, write

    def run(
        self,
        name: str,
        request: object,
        *,
        by: str,
        faces: Mapping[str, Sequence[int]] | None,
        replaying: ReplayedRolls | None,
        marks: Mapping[str, Any],
        command_id: RecordedId | None,
    ) -> tuple[list[tuple[Fact, Visibility]], tuple[int, int] | None]:
        if self.write:
            result = self.ledger.run(
                self.ref,
                name,
                request,
                faces=faces,
                by=by,
                replaying=replaying,
                marks=marks,
                command_id=command_id,
            )
            facts = [(e.fact, e.visibility) for e in result.events]
            versions = (result.first_version, result.last_version) if result.events else None
        else:
            facts, _ = self.ledger.decide(
                self.ref, self.state, name, request, by=by, faces=faces, replaying=replaying, marks=marks
            )
            versions = None
        self._fold(facts)
        return facts, versions

    def record(
        self, facts: Sequence[tuple[Fact, Visibility]], by: str, command_id: RecordedId | None
    ) -> tuple[int, int] | None:
        versions = None
        if self.write:
            result = self.ledger.execute(self.ref, lambda _: list(facts), by=by, command_id=command_id)
            versions = (result.first_version, result.last_version)
        self._fold(facts)
        return versions

    def _fold(self, facts: Sequence[tuple[Fact, Visibility]]) -> None:
        for fact, _ in facts:
            self.state = fold_campaign(self.state, fact)


def recorded_at(ledger: Ledger, source: BranchRef, version: int) -> Recorded:
    """The command of the source branch that recorded event `version`."""
    command = next(commands_of(ledger, source, command_start(ledger, source, version)))
    if command.record is None:
        event = next(e for e in command.events if e.version == version)
        raise NotACommand(
            f"event #{version} ({event.type_name}) was not recorded by a command that can be decided again; "
            "`showrunner log` lists the commands' events"
        )
    return command


def commands_of(ledger: Ledger, source: BranchRef, first: int) -> Iterator[Recorded]:
    """The source's commands from event `first` on, each with the source's state around it."""
    state = ledger.view(source, first - 1).state if first > 1 else CampaignState()
    group: list[LedgerEvent] = []
    before = state
    for event in ledger.events(source, after=first - 1):
        if group and event.command_id != group[0].command_id:
            yield Recorded(tuple(group), before, state)
            group, before = [], state
        group.append(event)
        state = fold_campaign(state, event.fact)
    if group:
        yield Recorded(tuple(group), before, state)


def what_if(
    ledger: Ledger,
    source: BranchRef,
    version: int,
    alternative: Alternative,
    *,
    name: str,
    on_conflict: OnConflict = "stop",
    write: bool = False,
    by: str = DIRECTOR,
    command_id: str | None = None,
) -> Replay:
    """Fork `source` just before the command that recorded event `version`, record `alternative`
    in its place, and replay the source's later commands onto the fork."""
    command = recorded_at(ledger, source, version)
    if by != DIRECTOR and command.director_only:
        raise NotACommand(f"event #{version} was not recorded by a command a Star may change")
    fork_version = command.first - 1
    rest = list(commands_of(ledger, source, command.last + 1))
    ids = ReplayIds(
        command_id,
        "what-if",
        {
            "source": source.branch.name,
            "version": version,
            "skip": alternative.skip,
            "instead": alternative.instead,
            "changes": dict(alternative.changes),
            "faces": {k: list(v) for k, v in (alternative.faces or {}).items()},
            "name": name,
            "on_conflict": on_conflict,
            "by": by,
        },
    )

    def play(target: _Target) -> tuple[list[Step], bool]:
        steps = [] if alternative.skip else [_alternative(target, command, alternative, by, ids(1))]
        more, stopped = _replay(target, rest, on_conflict, ids, first_number=2)
        return steps + more, stopped

    plan = _Target(ledger, source, command.before, write=False)
    steps, stopped = play(plan)
    replayed = False
    if write:
        existed = ledger.branches(source.campaign).by_name(name) is not None
        if existed and command_id is None:
            raise BranchExists(f"campaign '{source.campaign.name}' already has a branch '{name}'; pick another --name")
        # Under a given id, a fork of that name is this what-if's own when its id is found there
        # (a retry); create_branch refuses any other.
        with ids.reused("what-if"):
            fork = ledger.create_branch(source, name, at=fork_version, by=by, command_id=ids(0))
        if existed:
            steps, replayed = _as_recorded(ledger, fork, steps), True
        else:
            plan = _Target(ledger, fork, ledger.view(fork).state, write=True)
            steps, stopped = play(plan)
    return Replay(
        source.campaign.name,
        source.branch.name,
        name,
        fork_version,
        tuple(steps),
        write,
        ledger.view(source).state,
        plan.state,
        stopped,
        replayed,
    )


def replay_onto(
    ledger: Ledger,
    source: BranchRef,
    target: BranchRef,
    first: int,
    *,
    on_conflict: OnConflict = "stop",
    write: bool = False,
    command_id: str | None = None,
) -> Replay:
    """Replay the source's commands from event `first` (from the start of the command holding it)
    onto the head of `target`."""
    if source.branch.id == target.branch.id:
        raise LedgerError(f"branch '{source.branch.name}' cannot be replayed onto itself; name another with --onto")
    start = command_start(ledger, source, first)
    commands = list(commands_of(ledger, source, start))
    ids = ReplayIds(
        command_id,
        "branch-replay",
        {"source": source.branch.name, "onto": target.branch.name, "from": first, "on_conflict": on_conflict},
    )
    with ids.reused("branch replay"):
        found = _first_recorded(ledger, target, ids, len(commands))
    at = ledger.view(target, found - 1 if found is not None else None).state
    onto = _Target(ledger, target, at, write=write and found is None)
    steps, stopped = _replay(onto, commands, on_conflict, ids, first_number=1)
    if write and found is not None:  # a retry: the first record's report, nothing new
        steps = _as_recorded(ledger, target, steps)
    return Replay(
        source.campaign.name,
        source.branch.name,
        target.branch.name,
        None,
        tuple(steps),
        write,
        ledger.view(source).state,
        onto.state,
        stopped,
        write and found is not None,
    )


def _first_recorded(ledger: Ledger, target: BranchRef, ids: ReplayIds, count: int) -> int | None:
    """The first event the target recorded under the replay's ids (a retry's), if any."""
    found = [
        at for number in range(1, count + 1) if (cid := ids(number)) and (at := ledger.recorded_under(target, cid))
    ]
    return min(first for first, _ in found) if found else None


def _as_recorded(ledger: Ledger, target: BranchRef, planned: Sequence[Step]) -> list[Step]:
    """A retry's steps: as planned, each with the versions its id was first recorded at; one the
    first run did not record (the source has grown since) was not replayed."""
    steps = []
    found: list[tuple[int, int]] = []
    for step in planned:
        at = ledger.recorded_under(target, step.command_id) if step.command_id is not None else None
        if at is not None:
            found.append(at)
            steps.append(replace(step, versions=at))
        elif step.outcome in ("same", "other"):
            steps.append(
                replace(step, outcome="not-replayed", reason="not recorded by the first run under this command id")
            )
        else:
            steps.append(step)
    if found:
        note_replayed(min(f for f, _ in found), max(last for _, last in found))
    return steps


def command_start(ledger: Ledger, source: BranchRef, version: int) -> int:
    """The first event of the command holding event `version` (which must exist)."""
    event = ledger.event(source, version)
    while version > 1 and ledger.event(source, version - 1).command_id == event.command_id:
        version -= 1
    return version


def _alternative(
    target: _Target, command: Recorded, alternative: Alternative, by: str, command_id: RecordedId | None
) -> Step:
    record = command.record or {}
    if alternative.instead is None:
        name = command.name
        request: Any = {**record.get("input", {}), **alternative.changes}
        replaying = command.rolls() if alternative.faces is None else None
    else:
        name, request, replaying = alternative.instead, dict(alternative.changes), ReplayedRolls()
    before = target.state
    try:
        facts, versions = target.run(
            name,
            request,
            by=by,
            faces=alternative.faces,
            replaying=replaying,
            marks={COUNTERFACTUAL: {"instead_of": command.citation()}},
            command_id=command_id,
        )
    except ValidationError as e:
        raise AlternativeRefused(f"the alternative does not fit '{name}': {_first_error(e)}") from None
    except (DomainError, HiddenFromStar) as e:
        raise AlternativeRefused(f"the rules refuse the alternative to #{command.first} ({name}): {e}") from None
    return Step(
        command,
        _compared(command, facts),
        name,
        tuple(facts),
        before,
        target.state,
        versions,
        alternative=True,
        command_id=command_id,
    )


def _replay(
    target: _Target, commands: Sequence[Recorded], on_conflict: OnConflict, ids: ReplayIds, *, first_number: int
) -> tuple[list[Step], bool]:
    steps: list[Step] = []
    stopped = False
    for number, command in enumerate(commands, start=first_number):
        if stopped:
            steps.append(Step(command, "not-replayed", command.name, reason="the replay stopped at a refusal"))
            continue
        step = _one(target, command, ids(number))
        if step is None:
            continue
        steps.append(step)
        stopped = step.outcome == "refused" and on_conflict == "stop"
    return steps, stopped


def _one(target: _Target, command: Recorded, command_id: RecordedId | None) -> Step | None:
    record = command.record
    before = target.state
    if record is None:
        kinds = {type(e.fact) for e in command.events}
        if kinds <= {BranchForked}:
            return None  # where the source itself left its parent: not a command of the story
        if kinds <= {NoteRecorded}:
            facts = [(e.fact, e.visibility) for e in command.events]
            versions = target.record(facts, command.by, command_id)
            return Step(command, "same", "note", tuple(facts), before, target.state, versions, command_id=command_id)
        reason = next((_NOT_REPLAYED[k] for k in kinds if k in _NOT_REPLAYED), None)
        if reason is not None:
            return Step(command, "not-replayed", command.name, reason=reason)
        return Step(
            command, "refused", command.name, reason="recorded before commands kept their input: it cannot be replayed"
        )
    try:
        facts, versions = target.run(
            command.name,
            record.get("input"),
            by=command.by,
            faces=None,
            replaying=command.rolls(),
            marks={REPLAYED: command.citation()},
            command_id=command_id,
        )
    except (DomainError, HiddenFromStar, ValidationError) as e:
        reason = _first_error(e) if isinstance(e, ValidationError) else str(e)
        return Step(command, "refused", command.name, before=before, after=before, reason=reason)
    return Step(
        command,
        _compared(command, facts),
        command.name,
        tuple(facts),
        before,
        target.state,
        versions,
        command_id=command_id,
    )


def _compared(command: Recorded, facts: Sequence[tuple[Fact, Visibility]]) -> Outcome:
    """'same' when the target recorded what the source did, dice provenance aside."""
    if len(facts) != len(command.events):
        return "other"
    for event, (fact, visibility) in zip(command.events, facts, strict=True):
        if event.fact.topic != fact.topic or event.visibility != visibility:
            return "other"
        if _effect(event.fact) != _effect(fact):
            return "other"
    return "same"


def _effect(fact: Fact) -> dict[str, Any]:
    dumped = fact.model_dump(mode="json")
    return {k: v for k, v in dumped.items() if k not in _DICE_PROVENANCE}


def _first_error(e: ValidationError) -> str:
    return (
        str(e).splitlines()[0]
        if not e.errors()
        else f"{'.'.join(map(str, e.errors()[0]['loc']))}: {e.errors()[0]['msg']}"
    )
