"""Comparing two branches: where they part, what each did since, how the sheets differ."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..domain.campaign import CampaignState
from ..ledger.registry import Segment


def divergence_version(a: tuple[Segment, ...], b: tuple[Segment, ...], head_a: int, head_b: int) -> int:
    """The last event both branches share (0 if none): their histories agree up to it."""
    shared = 0
    for seg_a, seg_b in zip(a, b):
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
    """Every field of every Star that differs between two states; missing Stars show as None."""
    changes: list[Change] = []
    for key in sorted(set(a.stars) | set(b.stars)):
        sheet_a, sheet_b = a.stars.get(key), b.stars.get(key)
        name = (sheet_a or sheet_b).name  # type: ignore[union-attr]
        if sheet_a is None or sheet_b is None:
            changes.append(Change(name, "(whole sheet)", None if sheet_a is None else "present", None if sheet_b is None else "present"))
            continue
        flat_a = _flatten(sheet_a.model_dump(mode="json"))
        flat_b = _flatten(sheet_b.model_dump(mode="json"))
        for field in sorted(set(flat_a) | set(flat_b)):
            if flat_a.get(field) != flat_b.get(field):
                changes.append(Change(name, field, flat_a.get(field), flat_b.get(field)))
    ensemble_a = a.ensemble.model_dump()
    ensemble_b = b.ensemble.model_dump()
    for field in sorted(ensemble_a):
        if ensemble_a[field] != ensemble_b[field]:
            changes.append(Change("(ensemble)", field, ensemble_a[field], ensemble_b[field]))
    return changes
