"""Comparing two branches: where they part, what each did since, how the sheets differ."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from ..domain.campaign import CampaignState, Named
from ..ledger.registry import Segment


def divergence_version(a: tuple[Segment, ...], b: tuple[Segment, ...], head_a: int, head_b: int) -> int:
    """The last event both branches share (0 if none): their histories agree up to it."""
    shared = 0
    for seg_a, seg_b in zip(a, b, strict=False):
        if seg_a.branch_id != seg_b.branch_id:
            break
        ends = [x for x in (seg_a.upto, seg_b.upto) if x is not None]
        if len(ends) < 2 and seg_a.upto == seg_b.upto:  # the same stream, read to its head
            return min(head_a, head_b)
        shared = min(ends) if ends else shared
        if seg_a.upto != seg_b.upto:
            break
    return min(shared, head_a, head_b)


@dataclass(frozen=True)
class Change:
    star: str
    field: str
    before: Any
    after: Any

    def as_json(self) -> dict[str, Any]:
        return {"star": self.star, "field": self.field, "a": self.before, "b": self.after}


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        flat: dict[str, Any] = {}
        for key, item in value.items():
            flat.update(_flatten(item, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    return {prefix: value}


def sheet_changes(a: CampaignState, b: CampaignState) -> list[Change]:
    """Every field of every character that differs between two states (a missing one shows as
    None), then every other track of the ruleset's state (Showrunner's Ensemble Pool, …)."""
    changes: list[Change] = []
    roster_a, roster_b = a.roster(), b.roster()
    for key in sorted(set(roster_a) | set(roster_b)):
        sheet_a, sheet_b = roster_a.get(key), roster_b.get(key)
        name = (roster_a[key] if key in roster_a else roster_b[key]).name
        if sheet_a is None or sheet_b is None:
            changes.append(
                Change(
                    name,
                    "(whole sheet)",
                    None if sheet_a is None else "present",
                    None if sheet_b is None else "present",
                )
            )
            continue
        changes += _differences(name, _sheet(sheet_a), _sheet(sheet_b))
    for field in type(a).model_fields:
        if field in _BOOKKEEPING or getattr(a, field) is roster_a:
            continue
        value_a, value_b = _dump(getattr(a, field, None)), _dump(getattr(b, field, None))
        if isinstance(value_a, dict) and isinstance(value_b, dict):
            changes += _differences(f"({field})", value_a, value_b)
        elif value_a != value_b:
            changes.append(Change("(campaign)", field, value_a, value_b))
    return changes


# The ledger's own fields of every state: not the table's business in a diff.
_BOOKKEEPING = frozenset({"pitch", "dice_rolls", "dice_commitment", "revealed_seeds", "pending_roll"})


def _sheet(character: Named) -> dict[str, Any]:
    """A character's fields as JSON (every ruleset's character is a pydantic model; its roster says only Named)."""
    assert isinstance(character, BaseModel)
    return character.model_dump(mode="json")


def _dump(value: Any) -> Any:
    """As JSON, models nested in a ruleset's own tracks too (d10 Pool's last rolls are a dict of models)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, dict):
        return {key: _dump(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_dump(item) for item in value]
    return value


def _differences(owner: str, a: dict[str, Any], b: dict[str, Any]) -> list[Change]:
    flat_a, flat_b = _flatten(a), _flatten(b)
    return [
        Change(owner, field, flat_a.get(field), flat_b.get(field))
        for field in sorted(set(flat_a) | set(flat_b))
        if flat_a.get(field) != flat_b.get(field)
    ]
