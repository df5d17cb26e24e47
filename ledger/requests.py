"""The rule that makes a roll asked for binding: the branch's next event settles it.

A Star on a device without the Director's key file asks for a roll (`RollRequested`: the
command, its input, the Star's entropy). Were anything else allowed in between, whoever holds
the seed could derive the die, dislike it, and record something else first. So the next
event on the branch is the roll itself (the command and input asked for, recorded as the
Star who asked, every ledger die derived with that entropy) or a `RollRequestWithdrawn`
naming it; a fork starting at the request leaves it behind. `verify` checks the events'
envelopes and every roll record's entropy (the settling command's events, each of them);
`audit` also proves the dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .facts import BranchForked, RollRequested, RollRequestWithdrawn
from .integrity import canonical_json


def asked_for(topic: str, doc: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The request an event records, as stored, or None for any other event."""
    payload = doc.get("payload")
    return payload if topic == RollRequested.topic and isinstance(payload, Mapping) else None


def unsettled(asked: Mapping[str, Any], topic: str, doc: Mapping[str, Any]) -> str | None:
    """None when the event (as stored) settles the request just before it, else why not."""
    payload = doc.get("payload")
    payload = payload if isinstance(payload, Mapping) else {}
    if topic == BranchForked.topic:
        return None
    if topic == RollRequestWithdrawn.topic:
        if payload.get("command") != asked.get("command") or payload.get("by") != asked.get("by"):
            return "it withdraws another roll than the one asked for"
        if doc.get("recorded_by") not in ("director", asked.get("by")):
            return "it is withdrawn by someone other than the Star who asked or the Director"
        return None
    record = doc.get("command")
    record = record if isinstance(record, Mapping) else {}
    if record.get("name") != asked.get("command") or not _same_json(record.get("input"), asked.get("input")):
        return "it is not the command and input asked for: the roll must be settled before anything else"
    if doc.get("recorded_by") != asked.get("by"):
        return f"it is recorded as {doc.get('recorded_by')!r}, not as {asked.get('by')!r} who asked"
    return rolled_otherwise(asked, doc)


def rolled_otherwise(asked: Mapping[str, Any], doc: Mapping[str, Any]) -> str | None:
    """Why an event of the settling command (the first or a later one) breaks the request: a roll
    record whose dice were derived with other entropy than asked with; None otherwise."""
    payload = doc.get("payload")
    if not isinstance(payload, Mapping) or "dice_commitment" not in payload:
        return None
    number = payload.get("roll_number")
    if isinstance(number, int) and not isinstance(number, bool) and payload.get("dice_entropy") != asked.get("entropy"):
        return "its dice were derived with other entropy than the entropy asked with"
    return None


def _same_json(a: object, b: object) -> bool:
    """Equal as hashed (canonical JSON), as the standalone verifiers compare: Python's == takes 1 for true."""
    try:
        return canonical_json({"v": a}) == canonical_json({"v": b})
    except (TypeError, ValueError, UnicodeEncodeError):
        return False
