"""The log as people read it: one line per event, filtered by who is asking."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..domain.names import name_key
from ..ledger.events import LedgerEvent


@dataclass(frozen=True)
class LogEntry:
    version: int
    type: str
    topic: str
    timestamp: str
    recorded_by: str
    visibility: str
    summary: str
    stars: tuple[str, ...]
    hash: str
    instead_of: dict[str, Any] | None = None
    """On a what-if's alternative: the parent's event it stands in for (the counterfactual mark)."""

    def as_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "type": self.type,
            "topic": self.topic,
            "timestamp": self.timestamp,
            "recorded_by": self.recorded_by,
            "visibility": self.visibility,
            "summary": self.summary,
            "stars": list(self.stars),
            "hash": self.hash,
            **({"counterfactual": {"instead_of": self.instead_of}} if self.instead_of is not None else {}),
        }


def visible(event: LedgerEvent, *, director: bool) -> bool:
    return director or event.visibility == "public"


def event_types() -> dict[str, set[str]]:
    """Event type names (as shown in the log) to their topics.

    Two rulesets may both have, say, a `CheckRolled`: the name stands for every such topic
    (a campaign is played by one ruleset, so its log holds one of them).
    """
    from ..ledger.facts import branch_fact_types

    types: dict[str, set[str]] = {}
    for topic, cls in branch_fact_types().items():
        types.setdefault(cls.__name__, set()).add(topic)
    return types


def resolve_types(names: Iterable[str]) -> set[str]:
    """Topics for type names given on the command line (class name or topic, any case)."""
    by_name: dict[str, set[str]] = {}
    for name, topics in event_types().items():
        by_name.setdefault(name.casefold(), set()).update(topics)
        for topic in topics:
            by_name[topic.casefold()] = {topic}
    wanted: set[str] = set()
    for name in names:
        try:
            wanted |= by_name[name.casefold()]
        except KeyError:
            known = ", ".join(sorted(event_types()))
            raise ValueError(f"unknown event type '{name}' (types: {known})") from None
    return wanted


def entries(
    events: Iterable[LedgerEvent],
    *,
    director: bool,
    topics: set[str] | None = None,
    star: str | None = None,
) -> Iterator[LogEntry]:
    wanted_star = name_key(star) if star else None
    for event in events:
        if not visible(event, director=director):
            continue
        if topics and event.topic not in topics:
            continue
        stars = event.fact.stars()
        if wanted_star is not None and wanted_star not in {name_key(s) for s in stars}:
            continue
        yield entry(event)


def entry(event: LedgerEvent) -> LogEntry:
    return LogEntry(
        version=event.version,
        type=event.type_name,
        topic=event.topic,
        timestamp=event.timestamp.isoformat(),
        recorded_by=event.recorded_by,
        visibility=event.visibility,
        summary=event.fact.summary(),
        stars=event.fact.stars(),
        hash=event.hash,
        instead_of=event.instead_of,
    )
