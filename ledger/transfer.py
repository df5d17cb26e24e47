"""Export a branch's lineage as JSONL, and import such a file into another database.

Line 1 is a header (campaign, lineage, event count, head); every further line is
one event exactly as stored, hashes included. An import checks the whole file
first (JSON, order, links, hashes, count, head) and writes everything in one
save, or nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from .codec import decode_document, event_from_document, fields_for_hash
from .errors import BadImport, CampaignExists, UnreadableEvent
from .events import LedgerEvent
from .facts import BranchRegistered, CampaignRegistered
from .integrity import GENESIS_HASH, chain_hash
from .registry import CATALOG_ID, NO_CAMPAIGN, BranchIndex, Catalog, check_name, fold_branch_index, fold_catalog
from .service import BranchRef, Ledger
from .streams import Stream

FORMAT = "showrunner-ledger/export"
FORMAT_VERSION = 1


def export_lines(ledger: Ledger, ref: BranchRef, *, director: bool = True) -> Iterator[str]:
    """The header, then one line per event. A Star's export redacts Director-only payloads."""
    head = ledger.head(ref)
    header = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "campaign": {"id": str(ref.campaign.id), "name": ref.campaign.name, "title": ref.campaign.title, "ruleset": ref.campaign.ruleset},
        "branch": ref.branch.name,
        "lineage": [
            {
                "branch_id": str(seg.branch_id),
                "name": ref.index.branches[seg.branch_id].name,
                "parent_branch_id": _str_or_none(ref.index.branches[seg.branch_id].parent_id),
                "fork_version": ref.index.branches[seg.branch_id].fork_version,
            }
            for seg in ref.segments
        ],
        "events": head.version,
        "head": {"version": head.version, "hash": head.hash},
        "redacted": not director,
    }
    yield json.dumps(header, ensure_ascii=False, separators=(",", ":"))
    for stored in ledger.stored_events(ref):
        doc = decode_document(stored)
        line: dict[str, Any] = {"branch": str(stored.originator_id), "version": stored.originator_version, "topic": stored.topic, **doc}
        if not director and doc.get("visibility") != "public":
            # Only the links survive: a player can still check the chain runs unbroken,
            # but not what the Director recorded, when, by whom, or of which kind.
            line = {key: line[key] for key in ("branch", "version", "campaign", "prev_hash", "hash")}
            line["redacted"] = True
        yield json.dumps(line, ensure_ascii=False, separators=(",", ":"))


def _str_or_none(value: UUID | None) -> str | None:
    return None if value is None else str(value)


@dataclass(frozen=True)
class ImportResult:
    campaign: str
    branch: str
    events: int
    head_version: int
    head_hash: str


class _Batch:
    """Already-hashed events for one stream, saved as they are."""

    def __init__(self, stream_id: UUID, events: list[LedgerEvent]) -> None:
        self.id = stream_id
        self._events = events

    def collect_events(self) -> list[LedgerEvent]:
        events, self._events = self._events, []
        return events


def import_lines(
    ledger: Ledger, lines: Iterable[str], *, name: str | None = None, progress: Callable[[int], None] | None = None
) -> ImportResult:
    header, events = _read(lines, progress)
    campaign = header["campaign"]
    campaign_id = UUID(campaign["id"])
    final_name = check_name("campaign", name or campaign["name"])
    existing = ledger.campaigns()
    if any(c.id == campaign_id for c in existing):
        raise CampaignExists(f"campaign {campaign['name']} ({campaign_id}) is already in this database")
    if any(c.name == final_name for c in existing):
        raise CampaignExists(f"a campaign named '{final_name}' already exists here; import with --name NEW")

    lineage = header["lineage"]
    main_id = UUID(lineage[0]["branch_id"])
    by_stream: dict[UUID, list[LedgerEvent]] = {}
    for event in events:
        by_stream.setdefault(event.originator_id, []).append(event)

    stamp = dict(recorded_by="director", command_id=f"import:{header['head']['hash']}", timestamp=ledger.clock())
    catalog = ledger.load_stream(CATALOG_ID, NO_CAMPAIGN, fold_catalog, Catalog())
    catalog.record(
        CampaignRegistered(campaign_id=campaign_id, name=final_name, title=campaign["title"], ruleset=campaign["ruleset"], main_branch_id=main_id),
        **stamp,
    )
    index = Stream(campaign_id, campaign_id, fold_branch_index, BranchIndex())
    parent: UUID | None = None
    for entry in lineage:
        branch_id = UUID(entry["branch_id"])
        if branch_id not in by_stream:
            # A grandchild forked below its parent's own fork point holds none of the
            # parent's events: registering the parent would leave a branch with no events.
            # Its child hangs from the branch before it (the hashes do not name parents).
            continue
        index.record(
            BranchRegistered(
                branch_id=branch_id, name=entry["name"],
                parent_branch_id=parent, fork_version=entry["fork_version"],
            ),
            **stamp,
        )
        parent = branch_id
    batches = [_Batch(stream_id, stream_events) for stream_id, stream_events in by_stream.items()]
    if ledger.save_streams(catalog, index, *batches) != "saved":
        raise BadImport("the database changed while importing; nothing was written, try again")
    return ImportResult(final_name, header["branch"], len(events), header["head"]["version"], header["head"]["hash"])


def _read(lines: Iterable[str], progress: Callable[[int], None] | None) -> tuple[dict[str, Any], list[LedgerEvent]]:
    header: dict[str, Any] | None = None
    events: list[LedgerEvent] = []
    expected_prev, expected_version = GENESIS_HASH, 1
    segments: list[tuple[UUID, int, int | None]] = []
    number = 0
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            raise BadImport(f"line {number}: empty line; an export has one JSON object per line")
        try:
            doc = json.loads(raw)
        except ValueError as e:
            raise BadImport(f"line {number}: not valid JSON ({e})") from None
        if not isinstance(doc, dict):
            raise BadImport(f"line {number}: expected a JSON object")
        if header is None:
            header = _check_header(doc)
            segments = _segments(header)
            continue
        if doc.get("redacted"):
            raise BadImport(f"line {number}: a redacted (player) export cannot be imported; export it as the Director")
        try:
            branch, version, topic = UUID(doc["branch"]), int(doc["version"]), str(doc["topic"])
        except (KeyError, ValueError, TypeError):
            raise BadImport(f"line {number}: an event needs branch, version and topic") from None
        if version != expected_version:
            raise BadImport(f"line {number}: expected event #{expected_version}, found #{version}")
        if _stream_for(segments, version) != branch:
            raise BadImport(f"line {number}: event #{version} belongs to a branch outside the file's lineage")
        if doc.get("campaign") != header["campaign"]["id"]:
            # The header is not hashed: an edited campaign id would register a copy of a campaign.
            raise BadImport(f"line {number}: event #{version} belongs to another campaign than the header's")
        stored_doc = {k: v for k, v in doc.items() if k not in ("branch", "version", "topic")}
        try:
            if stored_doc["prev_hash"] != expected_prev:
                raise BadImport(f"line {number}: event #{version} does not link to event #{version - 1}")
            if chain_hash(expected_prev, fields_for_hash(branch, version, topic, stored_doc)) != stored_doc["hash"]:
                raise BadImport(f"line {number}: event #{version} does not match its hash: the line was edited")
            event = event_from_document(branch, version, topic, stored_doc)
        except KeyError as e:
            raise BadImport(f"line {number}: event #{version} lacks the field {e}") from None
        except UnreadableEvent as e:
            raise BadImport(f"line {number}: {e}") from None
        events.append(event)
        expected_prev, expected_version = event.hash, version + 1
        if progress is not None:
            progress(len(events))
    if header is None:
        raise BadImport("the file is empty; expected a showrunner-ledger export")
    if len(events) != header["events"] or expected_prev != header["head"]["hash"]:
        raise BadImport(
            f"line {number + 1}: the file ends after event #{expected_version - 1} but its header "
            f"announces {header['events']} events ending in {header['head']['hash'][:12]}: it was truncated or edited"
        )
    return header, events


def _check_header(doc: dict[str, Any]) -> dict[str, Any]:
    if doc.get("format") != FORMAT:
        raise BadImport("line 1: not a showrunner-ledger export (no export header)")
    if doc.get("format_version") != FORMAT_VERSION:
        raise BadImport(f"line 1: export format version {doc.get('format_version')} is not supported (this version reads {FORMAT_VERSION})")
    if doc.get("redacted"):
        raise BadImport("line 1: a redacted (player) export cannot be imported; export it as the Director")
    try:
        UUID(doc["campaign"]["id"])
        for key in ("name", "title", "ruleset"):
            str(doc["campaign"][key])
        if not doc["lineage"] or doc["lineage"][0]["parent_branch_id"] is not None:
            raise ValueError("the lineage must start at the main branch")
        for entry in doc["lineage"]:
            UUID(entry["branch_id"])
            int(entry["fork_version"])
        int(doc["events"])
        str(doc["head"]["hash"])
    except (KeyError, TypeError, ValueError) as e:
        raise BadImport(f"line 1: the export header is incomplete ({e})") from None
    return doc


def _segments(header: dict[str, Any]) -> list[tuple[UUID, int, int | None]]:
    lineage = header["lineage"]
    out = []
    for i, entry in enumerate(lineage):
        # As registry.lineage: a grandchild may fork below its parent's own fork point,
        # and then every earlier segment ends there, not at the next fork.
        later = [int(e["fork_version"]) for e in lineage[i + 1 :]]
        upto = min(later) if later else None
        out.append((UUID(entry["branch_id"]), int(entry["fork_version"]), upto))
    return out


def _stream_for(segments: list[tuple[UUID, int, int | None]], version: int) -> UUID | None:
    for branch, after, upto in segments:
        if version > after and (upto is None or version <= upto):
            return branch
    return None
