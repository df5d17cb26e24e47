"""Export a branch's lineage as JSONL, and import such a file into another database.

Line 1 is a header (campaign, lineage, event count, head); every further line is
one event exactly as stored, hashes included. The header is not hashed, so an import
trusts none of it: the campaign's name, title and ruleset come from its first event,
each branch's name, parent and fork point from the branch's own `BranchForked`, and
the header must say the same. The whole file is checked first (JSON and its types,
order, links, hashes, names, a replay of every event) and then written in one save,
or nothing is.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from ..domain.campaign import CampaignState
from ..domain.errors import DomainError
from ..domain.events import CampaignFact
from ..domain.rulesets import ruleset
from ..domain.text import unsafe
from .codec import decode_document, document_of, event_from_document, fields_for_hash, stored_event
from .errors import BadImport, CampaignExists, InvalidName, UnreadableEvent
from .events import LedgerEvent
from .facts import BranchForked, BranchRegistered, CampaignRegistered, CampaignStarted
from .integrity import GENESIS_HASH, chain_hash
from .registry import CATALOG_ID, MAIN, NO_CAMPAIGN, BranchIndex, check_name, fold_branch_index
from .service import BranchRef, Ledger
from .streams import Stamp, Stream, fold_campaign

FORMAT = "showrunner-ledger/export"
FORMAT_VERSION = 1

# The stored document of an event (ledger/codec.py document_of), and the columns beside it.
STORED_FIELDS = (
    "campaign",
    "schema",
    "timestamp",
    "recorded_by",
    "visibility",
    "command_id",
    "prev_hash",
    "hash",
    "payload",
)
OPTIONAL_STORED_FIELDS = ("command",)
EVENT_FIELDS = ("branch", "version", "topic", *STORED_FIELDS)
HEADER_FIELDS = ("format", "format_version", "campaign", "branch", "lineage", "events", "head", "redacted")
CAMPAIGN_FIELDS = ("id", "name", "title", "ruleset")
LINEAGE_FIELDS = ("branch_id", "name", "parent_branch_id", "fork_version")
HEAD_FIELDS = ("version", "hash")

T = TypeVar("T")


def export_lines(ledger: Ledger, ref: BranchRef, *, director: bool = True) -> Iterator[str]:
    """The header, then one line per event. A Star's export redacts Director-only payloads."""
    head = ledger.head(ref)
    started = next(ledger.events(ref, upto=1)).fact
    assert isinstance(started, CampaignStarted)
    header = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        # The campaign as its first event names it: an import reads the name from there,
        # whatever this database registered it under.
        "campaign": {
            "id": str(ref.campaign.id),
            "name": started.name,
            "title": started.pitch.title,
            "ruleset": started.pitch.ruleset,
        },
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
        line: dict[str, Any] = {
            "branch": str(stored.originator_id),
            "version": stored.originator_version,
            "topic": stored.topic,
            **doc,
        }
        if not director and doc.get("visibility") != "public":
            # Only the links survive: a player can still check the chain runs unbroken,
            # but not what the Director recorded, when, by whom, or of which kind.
            line = {key: line[key] for key in ("branch", "version", "campaign", "prev_hash", "hash")}
            line["redacted"] = True
        yield json.dumps(line, ensure_ascii=False, separators=(",", ":"))


def _str_or_none(value: UUID | None) -> str | None:
    return None if value is None else str(value)


def text_lines(data: bytes) -> list[str]:
    """The lines of an export file read as bytes: UTF-8, LF or CRLF, a last newline or none."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise BadImport(
            f"line {line}: the file is not UTF-8 text (byte {e.start}); expected a showrunner-ledger export"
        ) from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    return [line.removesuffix("\r") for line in lines]


# ----------------------------------------------------------------- import


@dataclass(frozen=True)
class ImportResult:
    campaign: str
    branch: str
    events: int
    head_version: int
    head_hash: str


@dataclass(frozen=True)
class BranchToRegister:
    id: UUID
    name: str
    parent_id: UUID | None
    fork_version: int


@dataclass(frozen=True)
class CheckedExport:
    """An export file that passed every check: what an import registers, all from the events."""

    campaign_id: UUID
    name: str
    title: str
    ruleset: str
    branches: tuple[BranchToRegister, ...]
    """Root first; the last is the exported branch."""
    events: tuple[LedgerEvent, ...]

    @property
    def branch(self) -> str:
        return self.branches[-1].name

    @property
    def head(self) -> LedgerEvent:
        return self.events[-1]


def import_lines(
    ledger: Ledger, lines: Iterable[str], *, name: str | None = None, progress: Callable[[int], None] | None = None
) -> ImportResult:
    """Check the whole file, then register and save everything in one transaction, or nothing."""
    if name is not None:
        check_name("campaign", name)
    return import_checked(ledger, check_export(lines, progress), name=name)


def import_checked(ledger: Ledger, checked: CheckedExport, *, name: str | None = None) -> ImportResult:
    final_name = check_name("campaign", name) if name is not None else checked.name
    campaign_id = checked.campaign_id
    held = ledger.first_stored(campaign_id)
    if held is not None and held.topic == BranchRegistered.topic:  # the campaign's branch index
        raise CampaignExists(f"campaign {checked.name} ({campaign_id}) is already in this database")
    if ledger.campaign_named(final_name) is not None:
        raise CampaignExists(f"a campaign named '{final_name}' already exists here; import with --name NEW")
    for stream_id in (campaign_id, *(b.id for b in checked.branches)):
        # Stream ids are the file's to choose: one already used here would mix two histories.
        if ledger.first_stored(stream_id) is not None:
            raise BadImport(
                f"this database already holds a stream with the id {stream_id}, which the file uses for its own"
            )

    by_stream: dict[UUID, list[LedgerEvent]] = {}
    for event in checked.events:
        by_stream.setdefault(event.originator_id, []).append(event)
    stamp = Stamp(recorded_by="director", command_id=f"import:{checked.head.hash}", timestamp=ledger.clock())
    registration = ledger.registration(final_name)
    registration.record(
        CampaignRegistered(
            campaign_id=campaign_id,
            name=final_name,
            title=checked.title,
            ruleset=checked.ruleset,
            main_branch_id=checked.branches[0].id,
        ),
        **stamp,
    )
    index = Stream(campaign_id, campaign_id, fold_branch_index, BranchIndex())
    for branch in checked.branches:
        index.record(
            BranchRegistered(
                branch_id=branch.id,
                name=branch.name,
                parent_branch_id=branch.parent_id,
                fork_version=branch.fork_version,
            ),
            **stamp,
        )
    batches = [_Batch(stream_id, stream_events) for stream_id, stream_events in by_stream.items()]
    if ledger.save_streams(registration, index, *batches, backfill=ledger.catalog_backfill()) != "saved":
        raise BadImport("the database changed while importing; nothing was written, try again")
    return ImportResult(final_name, checked.branch, len(checked.events), checked.head.version, checked.head.hash)


class _Batch:
    """Already-hashed events for one stream, saved as they are (a Stream's saving interface)."""

    def __init__(self, stream_id: UUID, events: list[LedgerEvent]) -> None:
        self.id = stream_id
        self.version = events[-1].version
        self.pending = events

    def collect_rows(self) -> list[StoredEvent]:
        events, self.pending = self.pending, []
        return [stored_event(e) for e in events]


def check_export(lines: Iterable[str], progress: Callable[[int], None] | None = None) -> CheckedExport:
    """Every check an import makes, without a database: BadImport at the first that fails."""
    reader = _Reader(progress)
    for number, raw in enumerate(lines, start=1):
        reader.line(number, raw)
    return reader.finish()


@dataclass
class _Run:
    """The events of one stream in the file: a branch's own part of the history."""

    stream: UUID
    name: str
    parent: UUID | None
    fork_version: int


@dataclass
class _Header:
    campaign_id: str
    name: str
    title: str
    ruleset: str
    branch: str
    lineage: list[dict[str, Any]]
    events: int
    head_version: int
    head_hash: str


@dataclass
class _Reader:
    progress: Callable[[int], None] | None
    header: _Header | None = None
    segments: list[tuple[UUID, int, int | None]] = field(default_factory=list)
    events: list[LedgerEvent] = field(default_factory=list)
    runs: list[_Run] = field(default_factory=list)
    started: CampaignStarted | None = None
    state: CampaignState = field(default_factory=CampaignState)
    expected_prev: str = GENESIS_HASH
    last_line: int = 0

    def line(self, number: int, raw: str) -> None:
        self.last_line = number
        doc = _parse(number, raw)
        if self.header is None:
            self.header = _check_header(doc)
            self.segments = _segments(self.header.lineage)
            return
        try:
            event = self._event(number, doc)
        except RecursionError:  # a payload nested about as deeply as the JSON reader takes
            raise BadImport(f"line {number}: the event is nested too deeply to be read") from None
        self._place(number, event)
        try:
            self.state = fold_campaign(self.state, event.fact)
        except Exception as e:  # noqa: BLE001 - see below
            # A file can be forged with hashes that hold: facts no command would have decided
            # may then fail however their rules fail. Whatever a replay raises refuses the file.
            raise BadImport(
                f"line {number}: event #{event.version} cannot follow the events before it ({_first_line(e)})"
            ) from None
        self.events.append(event)
        self.expected_prev = event.hash
        if self.progress is not None:
            self.progress(len(self.events))

    def _event(self, number: int, doc: dict[str, Any]) -> LedgerEvent:
        assert self.header is not None
        if doc.get("redacted") is True:
            raise BadImport(f"line {number}: a redacted (player) export cannot be imported; export it as the Director")
        fields = _Fields(doc, number, "the event", EVENT_FIELDS, optional=OPTIONAL_STORED_FIELDS)
        version = fields.integer("version", minimum=1)
        expected = len(self.events) + 1
        if version != expected:
            raise BadImport(f"line {number}: expected event #{expected}, found #{version}")
        branch = fields.uuid("branch")
        topic = fields.text("topic")
        if _stream_for(self.segments, version) != branch:
            raise BadImport(f"line {number}: event #{version} belongs to a branch outside the file's lineage")
        if fields.text("campaign") != self.header.campaign_id:
            # Every event names its campaign in its hash: the header cannot make it another one.
            raise BadImport(f"line {number}: event #{version} belongs to another campaign than the header's")
        for key in ("timestamp", "recorded_by", "visibility", "command_id", "hash"):
            fields.text(key)
        fields.integer("schema", minimum=1)
        fields.mapping("payload")
        if fields.text("prev_hash") != self.expected_prev:
            raise BadImport(f"line {number}: event #{version} does not link to event #{version - 1}")
        if "command" in doc:
            fields.mapping("command")
        stored = {key: doc[key] for key in (*STORED_FIELDS, *OPTIONAL_STORED_FIELDS) if key in doc}
        hashed = fields_for_hash(branch, version, topic, stored)
        if _chain_hash(number, version, self.expected_prev, hashed) != stored["hash"]:
            raise BadImport(f"line {number}: event #{version} does not match its hash: the line was edited")
        try:
            event = event_from_document(branch, version, topic, stored)
        except UnreadableEvent as e:
            raise BadImport(f"line {number}: {e}") from None
        # Saved, the event is written again from what was read: it must come out as it came
        # in, or its stored hash would no longer hold (`verify` would fail on the copy).
        rewritten = fields_for_hash(branch, version, topic, document_of(event))
        if rewritten != hashed:
            differing = next(key for key in hashed if hashed[key] != rewritten.get(key))
            raise BadImport(
                f"line {number}: event #{version} ({topic}) would not be stored as it was written "
                f"(its {differing} reads back otherwise), so its hash would not hold after the import"
            )
        return event

    def _place(self, number: int, event: LedgerEvent) -> None:
        """Which facts may stand where: the campaign's start, each branch's fork, the ruleset's own."""
        version, fact, topic = event.version, event.fact, event.topic
        if version == 1:
            if not isinstance(fact, CampaignStarted):
                raise BadImport(f"line {number}: event #1 must be the campaign's {CampaignStarted.topic}, not {topic}")
            self.started = self._check_start(number, fact)
            self.runs.append(_Run(event.originator_id, MAIN, None, 0))
        elif isinstance(fact, CampaignStarted):
            raise BadImport(f"line {number}: event #{version} starts a campaign; only event #1 may")
        elif event.originator_id != self.runs[-1].stream:
            if not isinstance(fact, BranchForked):
                raise BadImport(
                    f"line {number}: event #{version} is the first of a branch but not its {BranchForked.topic}"
                )
            self.runs.append(self._check_fork(number, event, fact))
        elif isinstance(fact, BranchForked):
            raise BadImport(
                f"line {number}: event #{version} forks a branch in the middle of one; only a branch's first event may"
            )
        assert self.started is not None
        kind = topic.split("/", 1)[0]
        if not isinstance(fact, CampaignFact) or kind not in ("ledger", self.started.pitch.ruleset):
            raise BadImport(
                f"line {number}: event #{version} ({topic}) has no place in a {self.started.pitch.ruleset} campaign's log"
            )

    def _check_start(self, number: int, fact: CampaignStarted) -> CampaignStarted:
        _valid_name(number, "campaign", fact.name, "event #1 starts the campaign under")
        try:
            ruleset(fact.pitch.ruleset)
        except DomainError:
            raise BadImport(
                f"line {number}: event #1 starts the campaign with the ruleset {_shown(fact.pitch.ruleset)}, which this version does not know"
            ) from None
        # The rule for text typed in (domain/text.py): the title is shown on every face.
        bad = next(((i, ch) for i, ch in enumerate(fact.pitch.title, start=1) if unsafe(ch)), None)
        if bad is not None:
            raise BadImport(
                f"line {number}: event #1 gives the campaign a title that is not plain text: "
                f"character {bad[0]} is a control or formatting character (U+{ord(bad[1]):04X})"
            )
        return fact

    def _check_fork(self, number: int, event: LedgerEvent, fact: BranchForked) -> _Run:
        version = event.version
        parent = self.runs[-1]
        _valid_name(number, "branch", fact.name, f"event #{version} forks a branch under")
        if any(run.name == fact.name for run in self.runs):
            raise BadImport(f"line {number}: event #{version} forks a second branch named '{fact.name}'")
        if fact.fork_version != version - 1 or fact.parent_hash != event.prev_hash:
            raise BadImport(
                f"line {number}: event #{version} names a fork point that is not its parent's event #{version - 1}"
            )
        if fact.parent_branch_id != parent.stream:
            # A branch forked from another below that one's own fork point: the file holds none
            # of its parent's events, and a branch cannot be registered without its parent.
            raise BadImport(
                f"line {number}: branch '{fact.name}' was forked from {_shown(fact.parent_name)} below that branch's own fork "
                f"point, so the file holds none of its parent's events; such a lineage cannot be imported"
            )
        if fact.parent_name != parent.name:
            raise BadImport(
                f"line {number}: event #{version} names its parent {_shown(fact.parent_name)}, but the branch before it is '{parent.name}'"
            )
        return _Run(event.originator_id, fact.name, fact.parent_branch_id, fact.fork_version)

    def finish(self) -> CheckedExport:
        header = self.header
        if header is None:
            raise BadImport("the file is empty; expected a showrunner-ledger export")
        last_version = len(self.events)
        if last_version != header.events or self.expected_prev != header.head_hash:
            raise BadImport(
                f"line {self.last_line + 1}: the file ends after event #{last_version} but its header "
                f"announces {header.events} events ending in {header.head_hash[:12]}: it was truncated or edited"
            )
        if header.head_version != last_version:
            raise BadImport(
                f"line 1: the header's head.version is {header.head_version}, but the file's last event is #{last_version}"
            )
        assert self.started is not None
        pitch = self.started.pitch
        for key, stated, actual in (
            ("campaign.name", header.name, self.started.name),
            ("campaign.title", header.title, pitch.title),
            ("campaign.ruleset", header.ruleset, pitch.ruleset),
        ):
            if stated != actual:
                raise BadImport(
                    f"line 1: the header's {key} {_shown(stated)} is not the campaign's own, {_shown(actual)} (event #1)"
                )
        self._check_lineage(header)
        return CheckedExport(
            campaign_id=UUID(header.campaign_id),
            name=self.started.name,
            title=pitch.title,
            ruleset=pitch.ruleset,
            branches=tuple(BranchToRegister(run.stream, run.name, run.parent, run.fork_version) for run in self.runs),
            events=tuple(self.events),
        )

    def _check_lineage(self, header: _Header) -> None:
        """The header's lineage must be the branches the events fork, in order, as they name them."""
        lineage = header.lineage
        for position, entry in enumerate(lineage):
            where = f"lineage[{position}]"
            run = self.runs[position] if position < len(self.runs) else None
            if run is None or run.stream != UUID(entry["branch_id"]):
                raise BadImport(f"line 1: the header's {where} names a branch that holds none of the file's events")
            facts = {"name": run.name, "parent_branch_id": _str_or_none(run.parent), "fork_version": run.fork_version}
            for key, actual in facts.items():
                if entry[key] != actual:
                    told = f"event #{run.fork_version + 1}" if run.parent is not None else "the main branch"
                    raise BadImport(
                        f"line 1: the header's {where}.{key} {_shown(entry[key])} is not the branch's own, {_shown(actual)} ({told})"
                    )
        if header.branch != self.runs[-1].name:
            raise BadImport(
                f"line 1: the header's branch {_shown(header.branch)} is not the exported branch's own name, '{self.runs[-1].name}'"
            )


# ----------------------------------------------------------------- reading one line


class _NotJSON(ValueError):
    pass


def _refuse_constant(token: str) -> Any:
    raise _NotJSON(f"{token} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotJSON(f"the number {text[:20]} is too large")
    return value


def _parse(number: int, raw: str) -> dict[str, Any]:
    if not raw.strip():
        raise BadImport(f"line {number}: empty line; an export has one JSON object per line")
    if number == 1:
        raw = raw.removeprefix("\ufeff")  # the byte-order mark some editors write first is no part of the JSON
    try:
        doc = json.loads(raw, parse_constant=_refuse_constant, parse_float=_finite)
    except json.JSONDecodeError as e:
        raise BadImport(f"line {number}: not valid JSON ({e.msg}, column {e.colno})") from None
    except _NotJSON as e:
        raise BadImport(f"line {number}: not valid JSON ({e})") from None
    except RecursionError:
        raise BadImport(f"line {number}: not valid JSON for an export (nested too deeply)") from None
    except ValueError:  # an integer of thousands of digits
        raise BadImport(f"line {number}: not valid JSON for an export (a number too long to read)") from None
    if not isinstance(doc, dict):
        raise BadImport(f"line {number}: expected a JSON object")
    return doc


_JSON_TYPES = {
    bool: "true or false",
    int: "a whole number",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "an object",
    type(None): "null",
}


class _Fields:
    """Typed reads of one JSON object of the file; a refusal names the line and the field."""

    def __init__(
        self,
        doc: dict[str, Any],
        number: int,
        what: str,
        allowed: tuple[str, ...],
        path: str = "",
        optional: tuple[str, ...] = (),
    ) -> None:
        self.doc, self.number, self.what, self.path = doc, number, what, path
        unknown = next((key for key in doc if key not in allowed and key not in optional), None)
        if unknown is not None:
            raise BadImport(f"line {number}: {what} has a field an export does not write: {_shown(path + unknown)}")
        missing = next((key for key in allowed if key not in doc), None)
        if missing is not None:
            raise BadImport(f"line {number}: {what} lacks '{path}{missing}'")

    def _typed(self, key: str, kind: type[T], wanted: str) -> T:
        value = self.doc[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise BadImport(
                f"line {self.number}: '{self.path}{key}' in {self.what} must be {wanted}, not {_JSON_TYPES.get(type(value), 'that')}"
            )
        return value

    def text(self, key: str) -> str:
        return self._typed(key, str, "a string")

    def integer(self, key: str, minimum: int = 0) -> int:
        value = self._typed(key, int, "a whole number")
        if value < minimum:
            raise BadImport(
                f"line {self.number}: '{self.path}{key}' in {self.what} must be at least {minimum}, not {_shown(value)}"
            )
        return value

    def mapping(self, key: str) -> dict[str, Any]:
        return self._typed(key, dict, "an object")

    def items(self, key: str) -> list[Any]:
        return self._typed(key, list, "a list")

    def boolean(self, key: str) -> bool:
        return self._typed(key, bool, "true or false")

    def uuid(self, key: str) -> UUID:
        value = self.text(key)
        try:
            parsed = UUID(value)
        except ValueError:
            parsed = None
        if parsed is None or str(parsed) != value:
            raise BadImport(
                f"line {self.number}: '{self.path}{key}' in {self.what} is not a UUID written as an export writes one: {_shown(value)}"
            )
        return parsed


def _check_header(doc: dict[str, Any]) -> _Header:
    if doc.get("format") != FORMAT:
        raise BadImport("line 1: not a showrunner-ledger export (no export header)")
    version = doc.get("format_version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise BadImport(
            f"line 1: export format version {_shown(version)} is not supported (this version reads {FORMAT_VERSION})"
        )
    if doc.get("redacted") is True:
        raise BadImport("line 1: a redacted (player) export cannot be imported; export it as the Director")
    header = _Fields(doc, 1, "the export header", HEADER_FIELDS)
    header.boolean("redacted")  # true was refused above
    campaign = _Fields(header.mapping("campaign"), 1, "the export header", CAMPAIGN_FIELDS, "campaign.")
    head = _Fields(header.mapping("head"), 1, "the export header", HEAD_FIELDS, "head.")
    entries = header.items("lineage")
    if not entries:
        raise BadImport("line 1: the export header's lineage is empty; it must start at the main branch")
    lineage: list[dict[str, Any]] = []
    campaign_id = campaign.uuid("id")
    seen: set[UUID] = {campaign_id, CATALOG_ID, NO_CAMPAIGN}
    for position, item in enumerate(entries):
        path = f"lineage[{position}]."
        if not isinstance(item, dict):
            raise BadImport(
                f"line 1: '{path[:-1]}' in the export header must be an object, not {_JSON_TYPES.get(type(item), 'that')}"
            )
        entry = _Fields(item, 1, "the export header", LINEAGE_FIELDS, path)
        branch_id = entry.uuid("branch_id")
        if branch_id in seen:
            raise BadImport(
                f"line 1: the export header's {path}branch_id is used twice in the file, or is the campaign's or the catalog's id"
            )
        seen.add(branch_id)
        entry.text("name")
        entry.integer("fork_version")
        if position == 0:
            if item["parent_branch_id"] is not None or item["fork_version"] != 0:
                raise BadImport(
                    "line 1: the export header's lineage must start at the main branch (no parent, fork_version 0)"
                )
        elif entry.uuid("parent_branch_id") != UUID(lineage[-1]["branch_id"]):
            raise BadImport(
                f"line 1: the export header's {path}parent_branch_id is not the branch before it in the lineage"
            )
        lineage.append(item)
    return _Header(
        campaign_id=str(campaign_id),
        name=campaign.text("name"),
        title=campaign.text("title"),
        ruleset=campaign.text("ruleset"),
        branch=header.text("branch"),
        lineage=lineage,
        events=header.integer("events"),
        head_version=head.integer("version"),
        head_hash=_hex_hash(head.text("hash")),
    )


def _hex_hash(value: str) -> str:
    if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
        raise BadImport(f"line 1: 'head.hash' in the export header must be 64 hex digits, not {_shown(value)}")
    return value


def _segments(lineage: list[dict[str, Any]]) -> list[tuple[UUID, int, int | None]]:
    out = []
    for i, entry in enumerate(lineage):
        # As registry.lineage: a grandchild may fork below its parent's own fork point,
        # and then every earlier segment ends there, not at the next fork.
        later = [e["fork_version"] for e in lineage[i + 1 :]]
        upto = min(later) if later else None
        out.append((UUID(entry["branch_id"]), entry["fork_version"], upto))
    return out


def _stream_for(segments: list[tuple[UUID, int, int | None]], version: int) -> UUID | None:
    for branch, after, upto in segments:
        if version > after and (upto is None or version <= upto):
            return branch
    return None


def _chain_hash(number: int, version: int, prev: str, fields: dict[str, Any]) -> str:
    try:
        return chain_hash(prev, fields)
    except ValueError:  # a lone surrogate: JSON may escape one, UTF-8 cannot encode it
        raise BadImport(f"line {number}: event #{version} holds text that is not valid Unicode") from None


def _valid_name(number: int, kind: str, name: str, what: str) -> None:
    try:
        check_name(kind, name)
    except InvalidName:
        raise BadImport(
            f"line {number}: {what} {_shown(name)}, not a valid {kind} name (1-40 lower-case letters, digits, '-' or '_')"
        ) from None


def _shown(value: Any) -> str:
    """A value of the file inside a message: quoted, escaped, and short."""
    if isinstance(value, (list, dict)):
        return _JSON_TYPES[type(value)]
    text = repr(value[:61] if isinstance(value, str) else value)
    return text if len(text) <= 60 else text[:57] + "..."


def _first_line(error: BaseException) -> str:
    """An error's first line, escaped: it may quote the file's own text."""
    text = str(error).strip()
    line = text.splitlines()[0] if text else type(error).__name__
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in line[:200])
