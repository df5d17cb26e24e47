"""A replay's report, command by command: what each did on the target beside the source, in the
sheet's terms, as the reader may see it (a Star: no Director-only command, no hidden field)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..domain.campaign import CampaignState
from ..ledger.replay import Replay, Step
from .diff import Change, sheet_changes


@dataclass(frozen=True)
class Difference:
    star: str
    field: str
    source: tuple[Any, Any] | None
    """(before, after) where the source's command changed it, else None."""
    here: tuple[Any, Any] | None
    """(before, after) where the target's command changed it, else None."""

    def as_json(self) -> dict[str, Any]:
        return {
            "star": self.star,
            "field": self.field,
            "source": list(self.source) if self.source else None,
            "here": list(self.here) if self.here else None,
        }


@dataclass(frozen=True)
class Line:
    source_version: int
    name: str
    outcome: str
    alternative: bool
    versions: tuple[int, int] | None
    reason: str | None
    differences: tuple[Difference, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "source_version": self.source_version,
            "command": self.name,
            "outcome": "alternative" if self.alternative else self.outcome,
            "versions": list(self.versions) if self.versions else None,
            "reason": self.reason,
            "differences": [d.as_json() for d in self.differences],
        }


@dataclass(frozen=True)
class Report:
    campaign: str
    source: str
    target: str
    fork_version: int | None
    written: bool
    stopped: bool
    lines: tuple[Line, ...]
    sheet_differences: tuple[Change, ...]
    """The target's sheets against the source's heads."""

    def count(self, outcome: str) -> int:
        return sum(1 for line in self.lines if line.outcome == outcome and not line.alternative)

    def as_json(self) -> dict[str, Any]:
        return {
            "campaign": self.campaign,
            "source": self.source,
            "target": self.target,
            "fork_version": self.fork_version,
            "written": self.written,
            "stopped": self.stopped,
            "commands": [line.as_json() for line in self.lines],
            "sheet_differences": [c.as_json() for c in self.sheet_differences],
        }


def report(replay: Replay, *, director: bool) -> Report:
    """The report as the Director, or a Star (`director=False`), may read it."""
    seen: Callable[[CampaignState], CampaignState] = (lambda s: s) if director else (lambda s: s.as_seen_by_players())
    lines = tuple(_line(step, seen) for step in replay.steps if director or not step.director_only)
    return Report(
        replay.campaign,
        replay.source,
        replay.target,
        replay.fork_version,
        replay.written,
        replay.stopped,
        lines,
        tuple(sheet_changes(seen(replay.source_head), seen(replay.target_head))),
    )


def _line(step: Step, seen: Callable[[CampaignState], CampaignState]) -> Line:
    differences: tuple[Difference, ...] = ()
    if step.outcome == "other" and step.before is not None and step.after is not None:
        differences = _differences(
            sheet_changes(seen(step.source.before), seen(step.source.after)),
            sheet_changes(seen(step.before), seen(step.after)),
        )
    return Line(step.source.first, step.name, step.outcome, step.alternative, step.versions, step.reason, differences)


def _differences(source: list[Change], here: list[Change]) -> tuple[Difference, ...]:
    """Where the command changed a sheet otherwise on the target than on the source."""
    theirs = {(c.star, c.field): (c.before, c.after) for c in source}
    mine = {(c.star, c.field): (c.before, c.after) for c in here}
    out = []
    for key in sorted(set(theirs) | set(mine), key=lambda k: (str(k[0]), str(k[1]))):
        a, b = theirs.get(key), mine.get(key)
        if a is None or b is None or a[1] is None or b[1] is None or _delta(a) != _delta(b):
            out.append(Difference(key[0], key[1], a, b))
    return tuple(out)


def _delta(change: tuple[Any, Any]) -> Any:
    before, after = change
    if isinstance(before, int | float) and isinstance(after, int | float):
        return after - before
    return change
