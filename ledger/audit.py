"""Auditing a recorded roll of any ruleset: re-judge it from its inputs, and prove its dice.

The re-judgement is the fact's own (`RolledFact.rejudge`): the ruleset replays the
recorded faces through its current engine against the state just before the roll and
compares every decision. The dice proof is the ledger's: it re-derives ledger dice from
a revealed seed; table dice can only be flagged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..domain.campaign import CampaignState
from ..domain.dice import Roll
from ..domain.errors import DomainError
from ..domain.events import RolledFact
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
    """'table', 'ledger (seed not revealed)', 'ledger (verified)' or 'ledger (MISMATCH)'."""
    proofs: tuple[DiceProof, ...] = field(default=())

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
    before = ledger.view(ref, version - 1).state
    head = head if head is not None else ledger.view(ref).state
    return _audit(event, before, head)


def audit_all(ledger: Ledger, ref: BranchRef, *, progress: Callable[[int], None] | None = None) -> Iterator[Audit]:
    """Every roll of the branch, folding once through the history."""
    head = ledger.view(ref).state
    state = CampaignState()
    for count, event in enumerate(ledger.events(ref), start=1):
        if isinstance(event.fact, RolledFact):
            yield _audit(event, state, head)
        state = fold_campaign(state, event.fact)
        if progress is not None:
            progress(count)


def _audit(event: LedgerEvent, before: CampaignState, head: CampaignState) -> Audit:
    fact = event.fact
    assert isinstance(fact, RolledFact)
    try:
        problem = fact.rejudge(before)
    except DomainError as e:
        problem = f"the current engine refuses the recorded roll: {e}"
    dice, proofs = _prove(event, fact, head)
    return Audit(event, before, problem, dice, proofs)


def _prove(
    event: LedgerEvent, fact: RolledFact[CampaignState], head: CampaignState
) -> tuple[str, tuple[DiceProof, ...]]:
    if fact.dice_commitment is None:
        return "table", ()
    seed_hex = head.revealed_seeds.get(fact.dice_commitment)
    if seed_hex is None:
        return "ledger (seed not revealed)", ()
    derive = LedgerDice(bytes.fromhex(seed_hex), event.originator_id, fact.roll_number)
    proofs = tuple(_proof(derive, roll) for roll in fact.recorded_rolls())
    return ("ledger (verified)" if all(p.ok for p in proofs) else "ledger (MISMATCH)"), proofs


def _proof(derive: LedgerDice, roll: Roll) -> DiceProof:
    return DiceProof(roll.purpose, roll.faces, tuple(derive.roll(roll.purpose, len(roll.faces), roll.sides)))
