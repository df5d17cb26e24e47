"""The log as people read it: one line per event, filtered by who is asking."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..domain.names import name_key
from ..ledger.errors import LedgerError
from ..ledger.events import LedgerEvent

if TYPE_CHECKING:
    from ..ledger.service import BranchRef, Ledger


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


@dataclass(frozen=True)
class LogPage:
    """One page of the log as one reader may see it: what `log --json` prints, and the server's `/api/v1/log`."""

    page: int
    pages: int
    total: int
    shown: list[LogEntry]

    def as_json(self, ref: BranchRef) -> dict[str, Any]:
        return {
            "campaign": ref.campaign.name,
            "branch": ref.branch.name,
            "page": self.page,
            "pages": self.pages,
            "total": self.total,
            "events": [r.as_json() for r in self.shown],
        }


class PageOutOfRange(LedgerError):
    """A page past the log's last."""


def log_page(
    ledger: Ledger, ref: BranchRef, *, director: bool, topics: set[str], star: str | None, page: int, per_page: int
) -> LogPage:
    """The page of the branch's log a reader asked for: the Director's every event, a Star's the
    public ones, filtered by topic and by Star (a name already resolved)."""
    from ..ledger.read_index import Filter, event_index

    if director and not topics and star is None:
        # Every event is shown, numbered 1 to the head without a gap: read only the page's.
        total = ledger.head(ref).version
        _check_page(page, total, per_page)
        first = (page - 1) * per_page
        shown = [entry(e) for e in ledger.events(ref, after=first, upto=min(first + per_page, total))]
    elif (index := event_index(ledger, ref)) is not None:
        # The index finds the page's events; they are filtered again as decoded, so a changed
        # index can leave an event out (which `verify` reports) but never show a hidden one.
        wanted = Filter(public_only=not director, topics=frozenset(topics), star=star)
        total = index.count(wanted)
        _check_page(page, total, per_page)
        versions = index.versions(wanted, offset=(page - 1) * per_page, limit=per_page)
        shown = list(entries(index.events(versions), director=director, topics=topics or None, star=star))
    else:  # a branch written before the read index
        rows = list(entries(ledger.events(ref), director=director, topics=topics or None, star=star))
        total = len(rows)
        _check_page(page, total, per_page)
        shown = rows[(page - 1) * per_page : page * per_page]
    return LogPage(page, _pages(total, per_page), total, shown)


def _pages(total: int, per_page: int) -> int:
    return max(1, -(-total // per_page))


def _check_page(page: int, total: int, per_page: int) -> None:
    pages = _pages(total, per_page)
    if page > pages:
        has = "1 page" if pages == 1 else f"{pages} pages"
        raise PageOutOfRange(f"page {page} does not exist: the log has {has} of {per_page}")
