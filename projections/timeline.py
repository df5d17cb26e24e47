"""The timeline: Episodes, Scenes and key events along a campaign's branch tree.

Laid out like `git log --graph`: each branch is a lane, a fork opens a lane off its parent
at the event it left from, and the branch's own events run down its lane. These are the
rows only; cli/render_timeline.py draws them, in the terminal and as an HTML page.

Rows come from the events the reader may see: the Season/Episode/Scene facts, and every
other fact whose recap line weighs at least `min_weight` (50 by default: notable and
decisive beats). Nothing here knows a ruleset: a fact's weight is its own `recap()`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..domain.structure import EpisodeEnded, EpisodeStarted, SceneEnded, SceneStarted, SeasonEnded, SeasonStarted
from ..ledger.events import LedgerEvent
from ..ledger.facts import BranchForked, CampaignStarted
from .log import visible
from .recap import line_of

if TYPE_CHECKING:
    from ..ledger.service import BranchRef, Ledger

DEFAULT_MIN_WEIGHT = 50


@dataclass(frozen=True)
class Track:
    """One branch: where it forked, and its whole history (the parent's events up to the fork, then its own)."""

    name: str
    parent: str | None
    fork_version: int
    events: Sequence[LedgerEvent]


@dataclass(frozen=True)
class Row:
    branch: str
    depth: int
    """The branch's lane (0 for the root)."""
    kind: str
    version: int | None
    text: str
    nest: int = 0
    """0 outside Episodes, 1 inside an Episode, 2 inside a Scene."""
    director_only: bool = False

    def as_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "branch": self.branch,
            "depth": self.depth,
            "kind": self.kind,
            "version": self.version,
            "text": self.text,
            "nest": self.nest,
        }
        if self.director_only:
            doc["director_only"] = True
        return doc


def _item(event: LedgerEvent, nest: int, min_weight: int) -> tuple[str, str, int] | None:
    """(kind, text, nest of the row) for an event worth a row, else None."""
    fact = event.fact
    if isinstance(fact, CampaignStarted):
        concept = " ".join(fact.pitch.high_concept.split())
        return "opening", fact.pitch.title + (f": {concept}" if concept else ""), 0
    if isinstance(fact, SeasonStarted):
        return "season", f"Season {fact.number}" + (f" “{fact.title}”" if fact.title else ""), 0
    if isinstance(fact, SeasonEnded):
        return "season-end", f"Season {fact.number} ends", 0
    if isinstance(fact, EpisodeStarted):
        return "episode", f"Episode {fact.number}" + (f" “{fact.title}”" if fact.title else ""), 0
    if isinstance(fact, EpisodeEnded):
        ending = f" · Cliffhanger: {fact.cliffhanger}" if fact.cliffhanger else ""
        return "episode-end", f"Episode {fact.number} ends{ending}", 0
    if isinstance(fact, SceneStarted):
        return "scene", fact.describe(), 1
    if isinstance(fact, (SceneEnded, BranchForked)):
        return None
    line = line_of(event)
    if line is None or line.weight < min_weight or not line.text.strip():
        return None
    return ("decisive" if line.weight >= 100 else "beat"), " ".join(line.text.split()), nest


def _nest_after(event: LedgerEvent, nest: int) -> int:
    fact = event.fact
    if isinstance(fact, EpisodeStarted):
        return 1
    if isinstance(fact, SceneStarted):
        return 2
    if isinstance(fact, SceneEnded):
        return 1
    if isinstance(fact, EpisodeEnded):
        return 0
    return nest


def timeline_rows(
    tracks: Sequence[Track], *, director: bool = False, min_weight: int = DEFAULT_MIN_WEIGHT
) -> list[Row]:
    """The rows of the picture, root branch first, each fork drawn where it leaves its parent."""
    by_parent: dict[str | None, list[Track]] = {}
    for t in tracks:
        by_parent.setdefault(t.parent, []).append(t)
    for children in by_parent.values():
        children.sort(key=lambda t: (t.fork_version, t.name))
    rows: list[Row] = []

    def draw(track: Track, depth: int) -> None:
        seen = [e for e in track.events if visible(e, director=director)]
        pending = list(by_parent.get(track.name, []))
        nest = 0
        for event in seen:
            if event.version > track.fork_version:
                item = _item(event, nest, min_weight)
                if item is not None:
                    while pending and pending[0].fork_version < event.version:
                        fork(pending.pop(0), track, depth)
                    kind, text, row_nest = item
                    rows.append(
                        Row(track.name, depth, kind, event.version, text, row_nest, event.visibility != "public")
                    )
            nest = _nest_after(event, nest)
        while pending:
            fork(pending.pop(0), track, depth)
        head = seen[-1].version if seen else 0
        rows.append(Row(track.name, depth, "head", head, f"{track.name} at #{head}"))

    def fork(child: Track, parent: Track, depth: int) -> None:
        rows.append(
            Row(
                child.name,
                depth,
                "fork",
                child.fork_version,
                f"{child.name} leaves {parent.name} after #{child.fork_version}",
            )
        )
        draw(child, depth + 1)

    for root in by_parent.get(None, []):
        rows.append(Row(root.name, 0, "branch", None, root.name))
        draw(root, 0)
    return rows


@dataclass(frozen=True)
class CampaignTimeline:
    """Every branch of a campaign as one timeline: `timeline --json`, and the server's `/api/v1/timeline`."""

    campaign: str
    title: str
    tracks: list[Track]
    rows: list[Row]

    def as_json(self) -> dict[str, Any]:
        """The document, but for the page file a face may have written (its path is the face's to add)."""
        return {
            "campaign": self.campaign,
            "title": self.title,
            "branches": [{"name": t.name, "parent": t.parent, "fork_version": t.fork_version} for t in self.tracks],
            "rows": [r.as_json() for r in self.rows],
        }


def campaign_timeline(ledger: Ledger, current: BranchRef, *, director: bool, min_weight: int) -> CampaignTimeline:
    """The timeline of the campaign `current` belongs to: every branch, from the ledger."""
    index = current.index
    tracks = []
    for entry in sorted(index.branches.values(), key=lambda b: (b.fork_version, b.name)):
        ref = ledger.ref_in(current.campaign, index, entry)
        tracks.append(
            Track(entry.name, ref.parent_name, entry.fork_version if entry.parent_id else 0, list(ledger.events(ref)))
        )
    rows = timeline_rows(tracks, director=director, min_weight=min_weight)
    title = next(
        (
            t.events[0].fact.pitch.title
            for t in tracks
            if t.parent is None and t.events and hasattr(t.events[0].fact, "pitch")
        ),
        current.campaign.title,
    )
    return CampaignTimeline(current.campaign.name, title, tracks, rows)
