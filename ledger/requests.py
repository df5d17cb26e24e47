"""The rule that makes a roll asked for binding: the branch's next event settles it.

A Star on a device without the Director's key file asks for a roll (`RollRequested`: the
command, its input, the Star's entropy). Were anything else allowed in between, whoever holds
the seed could derive the die, dislike it, and record something else first. So the next
event on the branch is the roll itself (the command and input asked for, recorded as the
Star who asked, every ledger die derived with that entropy) or a `RollRequestWithdrawn`
naming it; a fork starting at the request leaves it behind. `verify` checks the events'
envelopes; `audit` checks each roll's entropy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .facts import BranchForked, RollRequested, RollRequestWithdrawn


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
    if record.get("name") != asked.get("command") or record.get("input") != asked.get("input"):
        return "it is not the command and input asked for: the roll must be settled before anything else"
    if doc.get("recorded_by") != asked.get("by"):
        return f"it is recorded as {doc.get('recorded_by')!r}, not as {asked.get('by')!r} who asked"
    if "dice_entropy" in payload and payload["dice_entropy"] != asked.get("entropy"):
        return "its dice were derived with other entropy than the entropy asked with"
    return None
