"""A roll's audit document, as its reader may see it: the same for `showrunner audit --json` and
the shared table's roll card (`/api/v1/audit/{roll}`, `/roll/{roll}`).

The judging is the ledger's (`ledger/audit.py`); the ruleset adds its own fields through
`RolledFact.audited`. A Star may audit only a public roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..ledger.audit import Audit, audit
from ..ledger.errors import LedgerError
from ..ledger.service import BranchRef, Ledger

STATUS = {
    "table": "table",
    "ledger (seed not revealed)": "unrevealed",
    "ledger (verified)": "verified",
    "ledger (MISMATCH)": "mismatch",
}
"""The ledger's word for a roll's dice, as the documents name it."""


class DirectorOnlyRoll(LedgerError):
    """A Star asked to audit an event recorded for the Director only."""


def readable_audit(ledger: Ledger, ref: BranchRef, version: int, *, director: bool) -> Audit:
    """The audit of the roll at `version`, refused to a Star when the event is Director-only
    (before it is judged, so the refusal does not even say what kind of event it is)."""
    if not director and ledger.event(ref, version).visibility != "public":
        raise DirectorOnlyRoll(f"event #{version} is for the Director only")
    return audit(ledger, ref, version)


def audit_report(ref: BranchRef, found: Audit, *, verify_dice: bool) -> dict[str, Any]:
    """`audit ROLL --json`: the audit, whether it passes, and why not."""
    failed = failures(found, verify_dice)
    return {
        "campaign": ref.campaign.name,
        "branch": ref.branch.name,
        "ok": not failed,
        "verify_dice": verify_dice,
        "audit": audit_document(found),
        "failures": failed,
    }


def status_of(found: Audit) -> str:
    return STATUS[found.dice]


def failures(found: Audit, verify_dice: bool) -> list[str]:
    """What makes the audit fail, one line each."""
    out = []
    number = found.event.version
    status = status_of(found)
    # Forged dice first: a decision re-judged on forged dice differs because of them.
    if status == "mismatch":
        out.append(f"#{number} dice MISMATCH: {proof_lines(found)[0]}")
    if found.problem is not None:
        out.append(f"#{number} does not match the record: {found.problem}")
    if verify_dice and status == "unrevealed":
        out.append(f"#{number} ledger roll #{found.fact.roll_number} cannot be proven: its seed is not revealed")
    return out


def faces_csv(faces: Sequence[int]) -> str:
    return ",".join(str(f) for f in faces) or "none"


def proof_lines(found: Audit) -> list[str]:
    """A line for each group of dice that differs from the one derived from the revealed seed."""
    return [
        f"{p.purpose} dice recorded {faces_csv(p.recorded)}, derived from the seed {faces_csv(p.derived)}"
        for p in found.proofs
        if not p.ok
    ]


def derivation(found: Audit) -> str | None:
    """Which derivation a ledger roll's dice prove with: v2 when entropy was given for it."""
    if found.fact.dice_commitment is None:
        return None
    return "v2" if found.fact.dice_entropy is not None else "v1"


def audit_document(found: Audit) -> dict[str, Any]:
    """One roll's audit as plain JSON."""
    event = found.event
    fact = found.fact
    document: dict[str, Any] = {
        "event": event.version,
        "type": event.type_name,
        "recorded_by": event.recorded_by,
        "timestamp": event.timestamp.isoformat(),
        "as_of": event.version - 1,
        "star": fact.roller(),
        "summary": fact.summary(),
        "roll_number": fact.roll_number,
        "matches": found.matches,
        "problem": found.problem,
        "dice": {
            "source": "table" if fact.dice_commitment is None else "ledger",
            "status": status_of(found),
            "commitment": fact.dice_commitment,
            "derivation": derivation(found),
            "entropy": fact.dice_entropy,
            **({"replayed": found.replayed} if found.replayed is not None else {}),
            "proofs": [
                {"purpose": p.purpose, "recorded": list(p.recorded), "derived": list(p.derived), "ok": p.ok}
                for p in found.proofs
            ],
        },
        "rolls": [r.model_dump(mode="json") for r in fact.recorded_rolls()],
        "explain": fact.explain(),
    }
    document.update(fact.audited(found.before))
    return document
