"""Auditing a recorded roll of any ruleset: re-judge it from its inputs, and prove its dice.

The re-judgement is twofold. The fact's own (`RolledFact.rejudge`): the ruleset replays the
recorded faces through its current engine against the state just before the roll and
compares every decision. And the command's (`domain.rejudge`), when the command's input was
recorded with it: the whole command is decided again against the state just before it, so
every fact it recorded, and every rule applied on the way, must come out the same. The dice
proof is the ledger's: it re-derives ledger dice from a revealed seed; table dice can only
be flagged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from ..domain.campaign import CampaignState, PendingRoll
from ..domain.dice import Roll
from ..domain.errors import DomainError
from ..domain.events import ReplayedFaces, RolledFact
from ..domain.rejudge import rejudge_command
from .dice import LedgerDice
from .errors import EventNotFound
from .events import LedgerEvent
from .service import BranchRef, Ledger
from .streams import fold_campaign


@dataclass(frozen=True)
class DiceProof:
    purpose: str
    recorded: tuple[int, ...]
    derived: tuple[int, ...]

    @property
    def ok(self) -> bool:
        return self.recorded == self.derived


@dataclass(frozen=True)
class Audit:
    event: LedgerEvent
    before: CampaignState
    problem: str | None
    """None when the re-judgement agrees with the record, else its first difference."""
    dice: str
    """'table', 'ledger (seed not revealed)', 'ledger (verified)' or 'ledger (MISMATCH)'; for faces
    replayed from another branch's roll, that roll's, or a MISMATCH when they are not its faces."""
    proofs: tuple[DiceProof, ...] = field(default=())
    replayed: str | None = None
    """For replayed faces: where they were rolled ("main #42"), or why the cited roll does not hold them."""

    @property
    def fact(self) -> RolledFact[CampaignState]:
        assert isinstance(self.event.fact, RolledFact)
        return self.event.fact

    @property
    def matches(self) -> bool:
        return self.problem is None

    @property
    def dice_ok(self) -> bool:
        return all(p.ok for p in self.proofs)


def audit(ledger: Ledger, ref: BranchRef, version: int, *, head: CampaignState | None = None) -> Audit:
    event = ledger.event(ref, version)
    if not isinstance(event.fact, RolledFact):
        raise EventNotFound(
            f"event #{version} is a {event.type_name}, not a roll; `showrunner audit --all` lists the rolls"
        )
    command = _command_around(ledger, ref, event)
    at_start = ledger.view(ref, command[0].version - 1).state
    before = at_start
    for earlier in (e for e in command if e.version < version):
        before = fold_campaign(before, earlier.fact)
    head = head if head is not None else ledger.view(ref).state
    return _audit(event, before, head, _rejudge_command(at_start, command), at_start.pending_roll, _cited(ledger, ref))


def audit_all(ledger: Ledger, ref: BranchRef, *, progress: Callable[[int], None] | None = None) -> Iterator[Audit]:
    """Every roll of the branch, folding once through the history."""
    head = ledger.view(ref).state
    cited = _cited(ledger, ref)
    state = CampaignState()
    command: list[tuple[LedgerEvent, CampaignState]] = []  # the command being read, each event with the state before it
    for count, event in enumerate(ledger.events(ref), start=1):
        if command and event.command_id != command[0][0].command_id:
            yield from _audit_command(command, head, cited)
            command = []
        command.append((event, state))
        state = fold_campaign(state, event.fact)
        if progress is not None:
            progress(count)
    yield from _audit_command(command, head, cited)


def _audit_command(
    command: Sequence[tuple[LedgerEvent, CampaignState]], head: CampaignState, cited: Cited
) -> Iterator[Audit]:
    rolled = [(event, before) for event, before in command if isinstance(event.fact, RolledFact)]
    if not rolled:
        return
    problem = _rejudge_command(command[0][1], [event for event, _ in command])
    for event, before in rolled:
        yield _audit(event, before, head, problem, command[0][1].pending_roll, cited)


def _command_around(ledger: Ledger, ref: BranchRef, event: LedgerEvent) -> list[LedgerEvent]:
    """The events recorded by the command that recorded `event`, in order."""
    same = event.command_id
    earlier: list[LedgerEvent] = []
    start = event.version
    while start > 1:
        chunk = list(ledger.events(ref, after=max(0, start - 1 - _CHUNK), upto=start - 1))
        kept = [e for e in reversed(chunk) if e.command_id == same]
        run = next((i for i, e in enumerate(reversed(chunk)) if e.command_id != same), len(chunk))
        earlier = list(reversed(kept[:run])) + earlier
        if run < len(chunk):
            break
        start -= len(chunk)
    later: list[LedgerEvent] = []
    for e in ledger.events(ref, after=event.version):
        if e.command_id != same:
            break
        later.append(e)
    return [*earlier, event, *later]


_CHUNK = 32


@dataclass(frozen=True)
class _CommandRejudged:
    recorded: bool
    """False for a command recorded before commands kept their input: it cannot be decided again."""
    problem: str | None = None
    """None when deciding it again agrees, else the first difference."""


def _rejudge_command(before: CampaignState, events: Sequence[LedgerEvent]) -> _CommandRejudged:
    record = next((e.command for e in events if e.command is not None), None)
    if record is None:
        return _CommandRejudged(recorded=False)
    return _CommandRejudged(True, rejudge_command(before, record, [(e.fact, e.visibility) for e in events]))


def _audit(
    event: LedgerEvent,
    before: CampaignState,
    head: CampaignState,
    command: _CommandRejudged,
    asked: PendingRoll | None,
    cited: Cited,
) -> Audit:
    """`asked`: the roll a Star asked for just before the command, which the command settles."""
    fact = event.fact
    assert isinstance(fact, RolledFact)
    problem = None
    # The command decided again re-judges every roll it made; the roll's own re-judgement is
    # still asked where that fails (its words name the roll's difference) or was not possible.
    if not command.recorded or command.problem is not None:
        try:
            problem = fact.rejudge(before)
        except DomainError as e:
            problem = f"the current engine refuses the recorded roll: {e}"
    problem = _seed_not_in_force(fact, before) or _not_as_asked(fact, asked) or problem or command.problem
    if fact.replayed_from is not None:
        return _replayed(event, fact, before, problem, cited(fact.replayed_from))
    dice, proofs = _prove(event, fact, head)
    return Audit(event, before, problem, dice, proofs)


Cited = Callable[[ReplayedFaces], "tuple[str, Audit | None]"]
"""The audit of the roll replayed faces cite, named as "branch #version"; None if it is not there."""


def _cited(ledger: Ledger, ref: BranchRef) -> Cited:
    def find(cite: ReplayedFaces) -> tuple[str, Audit | None]:
        entry = ref.index.branches.get(cite.branch)
        if entry is None:
            return f"branch {cite.branch} #{cite.version}", None
        where = f"{entry.name} #{cite.version}"
        try:
            found = audit(ledger, ledger.ref_in(ref.campaign, ref.index, entry), cite.version)
        except EventNotFound:
            return where, None
        return where, found if found.event.hash == cite.hash else None

    return find


def _replayed(
    event: LedgerEvent,
    fact: RolledFact[CampaignState],
    before: CampaignState,
    problem: str | None,
    cited: tuple[str, Audit | None],
) -> Audit:
    """Replayed faces are the cited roll's (each roll of this one the same as the cited roll's in
    turn: the rules may have asked for fewer), proven as that roll is."""
    where, source = cited
    if source is None:
        return Audit(event, before, problem, "ledger (MISMATCH)", (), f"{where}: no roll there with the hash cited")
    theirs = source.fact.recorded_rolls()
    proofs = tuple(
        DiceProof(roll.purpose, roll.faces, theirs[i].faces if i < len(theirs) else ())
        for i, roll in enumerate(fact.recorded_rolls())
    )
    alike = all(i < len(theirs) and roll == theirs[i] for i, roll in enumerate(fact.recorded_rolls()))
    dice = source.dice if alike and all(p.ok for p in proofs) else "ledger (MISMATCH)"
    return Audit(event, before, problem, dice, proofs + source.proofs, f"replayed from {where}")


def _seed_not_in_force(fact: RolledFact[CampaignState], before: CampaignState) -> str | None:
    """A ledger roll names the seed committed when it was rolled: pointed at another (a seed
    still secret, say), its faces could not be proved, or could be proved from a chosen one."""
    if fact.dice_commitment is None or fact.dice_commitment == before.dice_commitment:
        return None
    return (
        f"the roll names the dice seed {fact.dice_commitment[:12]}…, but the seed committed when it was "
        f"rolled is {before.dice_commitment[:12]}…"
    )


def _not_as_asked(fact: RolledFact[CampaignState], asked: PendingRoll | None) -> str | None:
    """A roll settling a request is derived with the entropy the Star asked with (ledger/requests.py)."""
    if asked is None or fact.dice_entropy == asked.entropy:
        return None
    return (
        f"the roll settles {asked.by}'s request, but its dice were not derived with the entropy recorded in the request"
    )


def _prove(
    event: LedgerEvent, fact: RolledFact[CampaignState], head: CampaignState
) -> tuple[str, tuple[DiceProof, ...]]:
    if fact.dice_commitment is None:
        return "table", ()
    seed_hex = head.revealed_seeds.get(fact.dice_commitment)
    if seed_hex is None:
        return "ledger (seed not revealed)", ()
    derive = LedgerDice(bytes.fromhex(seed_hex), event.originator_id, fact.roll_number, fact.dice_entropy)
    proofs = tuple(_proof(derive, roll) for roll in fact.recorded_rolls())
    return ("ledger (verified)" if all(p.ok for p in proofs) else "ledger (MISMATCH)"), proofs


def _proof(derive: LedgerDice, roll: Roll) -> DiceProof:
    return DiceProof(roll.purpose, roll.faces, tuple(derive.roll(roll.purpose, len(roll.faces), roll.sides)))
