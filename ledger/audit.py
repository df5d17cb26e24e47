"""Auditing a recorded check: re-judge it from its inputs, and prove its dice.

The re-judgement replays the recorded faces through the current engine against the
sheet as it stood just before the check, and compares every decision. The dice proof
re-derives ledger dice from a revealed seed; table dice can only be flagged as such.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..domain.campaign import CampaignState
from ..domain.dice import ReplayDice, Roll
from ..domain.errors import DomainError
from ..domain.showrunner.check import Abandoned, Resolution, View, resolve
from .dice import LedgerDice
from .errors import EventNotFound
from .events import LedgerEvent
from ..domain.showrunner.events import CheckAbandoned, CheckRolled
from .service import BranchRef, Ledger


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
    recorded: Resolution | None
    """None for a CheckAbandoned: it has rolls but no outcome."""
    rejudged: Resolution | None
    problem: str | None
    dice: str
    """'table', 'ledger (seed not revealed)', 'ledger (verified)' or 'ledger (MISMATCH)'."""
    proofs: tuple[DiceProof, ...] = field(default=())

    @property
    def matches(self) -> bool:
        return self.problem is None

    @property
    def dice_ok(self) -> bool:
        return all(p.ok for p in self.proofs)


def audit(ledger: Ledger, ref: BranchRef, version: int, *, head: CampaignState | None = None) -> Audit:
    event = ledger.event(ref, version)
    if not isinstance(event.fact, (CheckRolled, CheckAbandoned)):
        raise EventNotFound(f"event #{version} is a {event.type_name}, not a check; `showrunner log --type CheckRolled` lists the checks")
    before = ledger.view(ref, version - 1).state
    head = head if head is not None else ledger.view(ref).state
    return _audit(ref, event, before, head)


def audit_all(
    ledger: Ledger, ref: BranchRef, *, progress: Callable[[int], None] | None = None
) -> Iterator[Audit]:
    """Every check of the branch, folding once through the history."""
    from .streams import fold_campaign

    head = ledger.view(ref).state
    state = CampaignState()
    for count, event in enumerate(ledger.events(ref), start=1):
        if isinstance(event.fact, (CheckRolled, CheckAbandoned)):
            yield _audit(ref, event, state, head)
        state = fold_campaign(state, event.fact)
        if progress is not None:
            progress(count)


def _audit(ref: BranchRef, event: LedgerEvent, before: CampaignState, head: CampaignState) -> Audit:
    fact = event.fact
    if isinstance(fact, CheckAbandoned):
        return _audit_abandoned(event, fact, before, head)
    assert isinstance(fact, CheckRolled)
    recorded = fact.resolution
    problem: str | None = None
    rejudged: Resolution | None = None
    replay = ReplayDice(recorded.rolls)
    try:
        rejudged = resolve(before, recorded.request, replay)
        if replay.left_over:
            problem = f"the record holds {replay.left_over} roll(s) the engine did not ask for"
        elif rejudged.judged() != recorded.judged():
            problem = _first_difference(recorded, rejudged)
    except DomainError as e:
        problem = f"the current engine refuses the recorded check: {e}"
    dice, proofs = _prove(event, fact, head)
    return Audit(event, before, recorded, rejudged, problem, dice, proofs)


class _WalksAway:
    """The chooser of an abandoned check's re-judgement: it leaves where the Star left."""

    def choose(self, view: View) -> tuple[int, int]:
        raise Abandoned()


def _audit_abandoned(event: LedgerEvent, fact: CheckAbandoned, before: CampaignState, head: CampaignState) -> Audit:
    """Re-run the recorded request up to the choice: the engine must ask for exactly the recorded rolls."""
    problem: str | None = None
    replay = ReplayDice(fact.rolls)
    try:
        resolve(before, fact.request, replay, _WalksAway())
        problem = "the recorded request resolves without a choice, so it cannot have been abandoned"
    except Abandoned as walked:
        if replay.left_over:
            problem = f"the record holds {replay.left_over} roll(s) the engine did not ask for"
        elif walked.effects != fact.effects:
            problem = f"the effects differ: recorded {len(fact.effects)} effects, re-judged {len(walked.effects)} effects"
    except DomainError as e:
        problem = f"the current engine refuses the recorded check: {e}"
    dice, proofs = _prove(event, fact, head)
    return Audit(event, before, None, None, problem, dice, proofs)


def _prove(event: LedgerEvent, fact: CheckRolled | CheckAbandoned, head: CampaignState) -> tuple[str, tuple[DiceProof, ...]]:
    if fact.dice_commitment is None:
        return "table", ()
    seed_hex = head.revealed_seeds.get(fact.dice_commitment)
    if seed_hex is None:
        return "ledger (seed not revealed)", ()
    derive = LedgerDice(bytes.fromhex(seed_hex), event.originator_id, fact.roll_number)
    rolls = fact.rolls if isinstance(fact, CheckAbandoned) else fact.resolution.rolls
    proofs = tuple(_proof(derive, roll) for roll in rolls)
    return ("ledger (verified)" if all(p.ok for p in proofs) else "ledger (MISMATCH)"), proofs


def _proof(derive: LedgerDice, roll: Roll) -> DiceProof:
    return DiceProof(roll.purpose, roll.faces, tuple(derive.roll(roll.purpose, len(roll.faces), roll.sides)))


def _first_difference(recorded: Resolution, rejudged: Resolution) -> str:
    names = ("action dice", "opposition dice", "script dice", "blocked dice", "remaining dice", "kept pair",
             "effective Difficulty", "outcome", "mark", "effects")
    for name, was, now in zip(names, recorded.judged(), rejudged.judged()):
        if was != now:
            verb = "differ" if name.endswith(("dice", "effects")) else "differs"
            return f"the {name} {verb}: recorded {_show(was)}, re-judged {_show(now)}"
    return "the re-judged check differs from the record"


def _show(value: object) -> str:
    if isinstance(value, tuple) and value and hasattr(value[0], "model_dump"):
        return f"{len(value)} effects"
    return str(getattr(value, "value", value))
