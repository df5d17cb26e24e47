"""The application service: every use of the ledger goes through `Ledger`.

Commands load the branch head (nearest snapshot, then the tail), let the domain
decide, and append the resulting facts in one save. A version conflict means
another writer got there first: reload and decide again. A command id recorded
with the events makes a retried command land once.
"""

from __future__ import annotations

import functools
import json
import random
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, NoReturn, TypeVar
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import (
    AggregateRecorder,
    IntegrityError,
    InterfaceError,
    OperationalError,
    PersistenceError,
    StoredEvent,
)
from pydantic import BaseModel

from ..domain.campaign import CampaignState, PendingRoll, Pitch
from ..domain.dice import DeferredDice, DiceSource, TableDice
from ..domain.errors import DomainError, InvalidDice, InvalidSheet, RuleViolation, UnknownName
from ..domain.events import Fact, Visibility
from ..domain.replaying import ReplayedRolls
from ..domain.ruleset import CHECK, JOIN, Decided, RollContext, Ruleset, WalkedAway, WalksAway
from ..domain.rulesets import all_rulesets, ruleset, ruleset_of
from .codec import FactMapper, decode_document
from .command_ids import CommandIdReused, RecordedId, command, given_part, note_replayed, stored_with_given_id
from .dice import LedgerDice, checked_entropy, new_entropy
from .errors import (
    BranchExists,
    BranchNotFound,
    CampaignExists,
    CampaignNotFound,
    CommandConflict,
    EventNotFound,
    HiddenFromStar,
    LedgerBusy,
    LedgerError,
    RegistryDamaged,
    RollAskedFor,
    RollPending,
    UnreadableEvent,
)
from .events import LedgerEvent, command_record, command_record_at
from .facts import (
    BranchForked,
    BranchRegistered,
    CampaignRegistered,
    CampaignStarted,
    NoteRecorded,
    RollRequested,
    RollRequestWithdrawn,
    SeedCommitted,
    SeedRevealed,
)
from .heads import Head
from .integrity import Digest
from .persistence import SQLiteLedgerRecorder, is_busy_error
from .read_index import entries_of
from .registry import (
    CATALOG_ID,
    MAIN,
    NO_CAMPAIGN,
    BranchEntry,
    BranchIndex,
    CampaignEntry,
    Catalog,
    Segment,
    ancestry,
    campaign_entry,
    check_name,
    fold_branch_index,
    fold_catalog,
    is_valid_name,
    registration_id,
    segments_of,
    slug,
)
from .registry_index import NO_ROWS, RegistryIndex, Rows, branch_row, campaign_row, rows_of
from .seeds import KeyStore, commitment, new_seed
from .streams import COMMAND_MEMORY, BranchSnapshot, Stamp, Stream, Unsaved, fold_campaign

S = TypeVar("S")

SNAPSHOT_TOPIC = "ledger/BranchSnapshot"
_NAMES_SHOWN = 10
"""How many names a "no campaign (or branch) named" message lists: a database may hold thousands."""
PAGE = 2000
DIRECTOR = "director"


class LedgerApplication(Application[UUID]):
    """eventsourcing's Application, given our mapper; persistence comes from the env."""

    name = "ShowrunnerLedger"
    mapper: FactMapper

    def construct_mapper(self) -> FactMapper:
        return FactMapper()


@dataclass(frozen=True)
class BranchRef:
    """A resolved branch: its campaign, its registry entry and where its history lives."""

    campaign: CampaignEntry
    branch: BranchEntry
    segments: tuple[Segment, ...]
    chain: tuple[BranchEntry, ...] = field(repr=False, compare=False)
    """The branch and its parents, root first."""
    load_index: Callable[[], BranchIndex] = field(repr=False, compare=False)

    @functools.cached_property
    def index(self) -> BranchIndex:
        """Every branch of the campaign, read only when asked for: a lookup reads its lineage alone."""
        return self.load_index()

    @property
    def parent_name(self) -> str | None:
        return self.chain[-2].name if len(self.chain) > 1 else None


@dataclass(frozen=True)
class BranchView:
    """A branch's state at one version."""

    ref: BranchRef
    version: int
    head_hash: str
    state: CampaignState


@dataclass(frozen=True)
class CommandResult:
    events: tuple[LedgerEvent, ...]
    replayed: bool = False
    """True when the command id had already been recorded: nothing new was written."""
    first_version: int = 0
    last_version: int = 0


def _not_a_command_of(rules: Ruleset, name: str) -> DomainError:
    for other in all_rulesets():
        found = other.command(name)
        if found is not None and found.subject:
            return RuleViolation(f"{found.subject} belong to {other.title} campaigns")
    known = ", ".join(rules.command_names())
    return UnknownName(f"{rules.title} has no command '{name}' (its commands: {known})")


def _now() -> datetime:
    from datetime import UTC

    return datetime.now(UTC)


class Ledger:
    def __init__(
        self,
        app: LedgerApplication,
        *,
        keys: KeyStore,
        clock: Callable[[], datetime] | None = None,
        entropy: Callable[[], str] = new_entropy,
        snapshot_interval: int = 200,
        max_attempts: int = 60,
    ) -> None:
        """`clock` gives each command's timestamp; None for the time now, in UTC. `entropy`
        gives a command's ledger dice their entropy (dice v2) when none is given with it:
        typed by the Star who rolls, or made on this device."""
        self.app = app
        self.keys = keys
        self.clock = clock or _now
        self.entropy = entropy
        self.snapshot_interval = snapshot_interval
        self.max_attempts = max_attempts
        self.retries = 0  # conflicts seen by this process, for tests and benchmarks
        assert app.snapshots is not None, "snapshotting must be enabled"
        self._snapshots = app.snapshots.recorder
        self._last: tuple[Stream[CampaignState], bytes] | None = None
        """The branch the last command of this process saved, and its head event as stored."""
        self._documents: dict[int, tuple[Any, bytes]] = {}
        """Character documents made for the last head written, by the id of their character."""
        self._documents_at: tuple[UUID, int] | None = None
        """The branch and version of that head."""

    def close(self) -> None:
        self.app.close()

    # ----------------------------------------------------------------- registry

    @functools.cached_property
    def registry_index(self) -> RegistryIndex:
        return RegistryIndex(self.app.recorder)

    def _load_registry(
        self, stream_id: UUID, campaign_id: UUID, fold: Callable[[S, Fact], S], initial: S, what: str
    ) -> Stream[S]:
        """A registry stream; a damaged row is named as the registry's, not as a branch's event."""
        try:
            return self.load_stream(stream_id, campaign_id, fold, initial)
        except UnreadableEvent as e:
            detail = str(e).replace("event #", "entry #", 1)
            raise RegistryDamaged(f"{what} is damaged: {detail}; `showrunner verify --all` tells more") from None

    def _last_version(self, stream_id: UUID) -> int:
        found = self.app.recorder.select_events(stream_id, desc=True, limit=1)
        return found[0].originator_version if found else 0

    def _catalog(self) -> Catalog:
        """The one catalog of a database written before each campaign had its own registration."""
        return self._load_registry(CATALOG_ID, NO_CAMPAIGN, fold_catalog, Catalog(), "the campaign catalog").state

    def _catalog_indexed(self) -> bool:
        """Whether each entry of the catalog (if any) has its row in the registry index."""
        head = self._last_version(CATALOG_ID)
        return head == 0 or self.registry_index.catalog_rows_upto(CATALOG_ID) >= head

    def catalog_backfill(self) -> Rows:
        """The rows of the catalog's entries the index lacks, to write with the next registration."""
        head = self._last_version(CATALOG_ID)
        done = self.registry_index.catalog_rows_upto(CATALOG_ID)
        if done >= head:
            return NO_ROWS
        entries = list(self._catalog().campaigns.values())
        return Rows(campaigns=[campaign_row(e, CATALOG_ID, n) for n, e in enumerate(entries, start=1) if n > done])

    def campaigns(self) -> list[CampaignEntry]:
        """Every campaign, by name."""
        return self.campaign_page()[0]

    def campaign_page(self, offset: int = 0, limit: int | None = None) -> tuple[list[CampaignEntry], int]:
        """The campaigns by name from `offset` (at most `limit` of them), and how many there are."""
        index = self.registry_index
        if self._catalog_indexed():
            if not index.exists():
                return [], 0
            rows = index.campaign_page(offset, limit)
            return [r.entry() for r in rows], (index.campaign_count() if limit is not None else offset + len(rows))
        # A catalog not (or not wholly) indexed: replayed, beside the campaigns registered on their own.
        own = [r.entry() for r in index.all_campaign_rows() if r.stream_id != CATALOG_ID.hex]
        everything = sorted([*self._catalog().campaigns.values(), *own], key=lambda c: c.name)
        return everything[offset : None if limit is None else offset + limit], len(everything)

    def registration(self, name: str) -> Stream[Catalog]:
        """The stream that registers the campaign named `name` (empty if there is none)."""
        stream = self._load_registry(
            registration_id(name), NO_CAMPAIGN, fold_catalog, Catalog(), f"the registration of campaign '{name}'"
        )
        if stream.version and stream.state.by_name(name) is None:
            raise RegistryDamaged(
                f"the registration of campaign '{name}' names another campaign: it was changed outside the "
                "ledger; `showrunner verify --all` tells more"
            )
        return stream

    def campaign_named(self, name: str) -> CampaignEntry | None:
        """The campaign of that name, read from its registration: one stream, whatever the database holds."""
        if not is_valid_name(name):
            return None
        found = self.registration(name).state.by_name(name)
        return found if found is not None else self._catalog_campaign(name)

    def _catalog_campaign(self, name: str) -> CampaignEntry | None:
        if self._last_version(CATALOG_ID) == 0:
            return None
        if not self._catalog_indexed():
            return self._catalog().by_name(name)
        row = self.registry_index.campaign_row("name = ?", [name])
        if row is None or row.stream_id != CATALOG_ID.hex:
            return None
        # The row says where the registration is: what is used is the registration itself.
        stored = self.app.recorder.select_events(CATALOG_ID, gt=row.stream_version - 1, lte=row.stream_version)
        fact = self.app.mapper.to_fact(stored[0])[0] if stored else None
        if not isinstance(fact, CampaignRegistered) or campaign_entry(fact) != row.entry():
            raise RegistryDamaged(
                f"the registry index does not match the campaign catalog at '{name}': it was changed outside "
                "the ledger; `showrunner verify --all` tells more"
            )
        return row.entry()

    def campaign(self, ref: str) -> CampaignEntry:
        found = self.campaign_named(ref)
        if found is not None:
            return found
        wanted = ref.lower().replace("-", "")
        if len(wanted) >= 4:
            matches = self._campaigns_with_prefix(wanted)
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1:
                names = ", ".join(c.name for c in matches)
                raise CampaignNotFound(f"'{ref}' is the start of several campaign ids ({names}); give more of it")
        shown, total = self.campaign_page(0, _NAMES_SHOWN)
        known = ", ".join(c.name for c in shown) or "none yet; create one with `showrunner campaign new`"
        if total > len(shown):
            known += f", … ({total} in all: `showrunner campaign list`)"
        raise CampaignNotFound(f"no campaign named '{ref}' (campaigns: {known})")

    def _campaigns_with_prefix(self, prefix: str) -> list[CampaignEntry]:
        if not self._catalog_indexed():
            return [c for c in self.campaigns() if c.id.hex.startswith(prefix)]
        matches = self.registry_index.campaigns_with_prefix(prefix)
        if len(matches) != 1:
            return [r.entry() for r in matches]
        # Held to the registration, as a name is.
        found = self.campaign_named(matches[0].name)
        return [found] if found is not None and found.id.hex.startswith(prefix) else []

    def _branches_indexed(self, campaign: CampaignEntry) -> bool:
        head = self._last_version(campaign.id)
        return head > 0 and self.registry_index.has_branch_row(campaign.id, head)

    def branches(self, campaign: CampaignEntry) -> BranchIndex:
        """Every branch of the campaign, in registration order."""
        if self._branches_indexed(campaign):
            return BranchIndex({UUID(r.branch_id): r.entry() for r in self.registry_index.branch_rows(campaign.id)})
        return self.registered_branches(campaign)

    def registered_branches(self, campaign: CampaignEntry) -> BranchIndex:
        """The campaign's branch registry replayed from its facts, the index aside (for `verify`)."""
        what = f"the branch registry of campaign '{campaign.name}'"
        return self._load_registry(campaign.id, campaign.id, fold_branch_index, BranchIndex(), what).state

    def branch_page(
        self, campaign: CampaignEntry, offset: int = 0, limit: int | None = None
    ) -> tuple[list[BranchEntry], dict[UUID, str], int]:
        """The campaign's branches by fork point, then name, from `offset` (at most `limit`); the
        names of their parents; and how many branches there are."""
        if self._branches_indexed(campaign):
            index = self.registry_index
            rows = index.branch_rows(campaign.id, offset=offset, limit=limit, order="fork_version, name")
            entries = [r.entry() for r in rows]
            parents = index.branch_names(campaign.id, {e.parent_id for e in entries if e.parent_id is not None})
            return entries, parents, (index.branch_count(campaign.id) if limit is not None else offset + len(rows))
        every = self.registered_branches(campaign).branches
        ordered = sorted(every.values(), key=lambda b: (b.fork_version, b.name))
        page = ordered[offset : None if limit is None else offset + limit]
        parents = {b.parent_id: every[b.parent_id].name for b in page if b.parent_id in every}
        return page, parents, len(ordered)

    def resolve(self, campaign_ref: str | CampaignEntry, branch_name: str = MAIN) -> BranchRef:
        campaign = campaign_ref if isinstance(campaign_ref, CampaignEntry) else self.campaign(campaign_ref)
        if not self._branches_indexed(campaign):
            index = self.branches(campaign)
            entry = index.by_name(branch_name)
            if entry is None:
                names = sorted(b.name for b in index.branches.values())
                self._no_branch(campaign, branch_name, names[:_NAMES_SHOWN], len(names))
            return self.ref_in(campaign, index, entry)
        chain = self._indexed_ancestry(campaign, branch_name)
        for entry in chain:
            self._check_registration(campaign, entry)
        return BranchRef(campaign, chain[-1], tuple(segments_of(chain)), tuple(chain), lambda: self.branches(campaign))

    @staticmethod
    def _no_branch(campaign: CampaignEntry, name: str, shown: Sequence[str], total: int) -> NoReturn:
        known = ", ".join(shown)
        if total > len(shown):
            known += f", … ({total} in all: `showrunner branch list`)"
        raise BranchNotFound(f"campaign '{campaign.name}' has no branch '{name}' (branches: {known})")

    def _indexed_ancestry(self, campaign: CampaignEntry, name: str) -> list[BranchEntry]:
        index = self.registry_index
        row = index.branch_row(campaign.id, name=name)
        if row is None:
            names = [r.name for r in index.branch_rows(campaign.id, limit=_NAMES_SHOWN, order="name")]
            self._no_branch(campaign, name, names, index.branch_count(campaign.id))
        chain = [row.entry()]
        while (parent_id := chain[-1].parent_id) is not None:
            parent = index.branch_row(campaign.id, branch_id=parent_id)
            if parent is None or parent.entry() in chain:
                raise RegistryDamaged(
                    f"the branch registry gives '{chain[-1].name}' a parent it does not hold together with; "
                    "it was changed outside the ledger (`showrunner verify --all` tells more)"
                )
            chain.append(parent.entry())
        chain.reverse()
        return chain

    def _check_registration(self, campaign: CampaignEntry, entry: BranchEntry) -> None:
        """An index row is used only as the branch's own first event (in its chain) confirms it."""
        first = self.first_stored(entry.id)
        payload: Any = None
        if first is not None and first.originator_version == entry.fork_version + 1:
            with suppress(UnreadableEvent, KeyError):
                document = decode_document(first)
                if document.get("campaign") == str(campaign.id):
                    payload = document["payload"]
        if isinstance(payload, dict):
            if entry.parent_id is None:
                holds = (
                    first is not None and first.topic == CampaignStarted.topic and entry.id == campaign.main_branch_id
                )
            else:
                holds = (
                    first is not None
                    and first.topic == BranchForked.topic
                    and (
                        payload.get("name"),
                        payload.get("parent_branch_id"),
                        payload.get("fork_version"),
                    )
                    == (entry.name, str(entry.parent_id), entry.fork_version)
                )
            if holds:
                return
        raise RegistryDamaged(
            f"the registry index of campaign '{campaign.name}' does not match branch '{entry.name}': it was "
            "changed outside the ledger; `showrunner verify --all` tells more"
        )

    @staticmethod
    def ref_in(campaign: CampaignEntry, index: BranchIndex, entry: BranchEntry) -> BranchRef:
        """A branch of an index already read: a walk over every branch reads the registry once."""
        chain = ancestry(index, entry)
        return BranchRef(campaign, entry, tuple(segments_of(chain)), tuple(chain), lambda: index)

    def branch_heads(self, entries: Sequence[BranchEntry]) -> dict[UUID, Digest | LedgerError]:
        """The head of each branch, read together; a branch that cannot be read gets its error."""
        found = self.registry_index.last_events(e.id for e in entries)
        heads: dict[UUID, Digest | LedgerError] = {}
        for entry in entries:
            stored = found.get(entry.id)
            try:
                if stored is None:
                    raise UnreadableEvent(f"branch '{entry.name}' has no events; the log is damaged")
                heads[entry.id] = Digest(stored.originator_version, decode_document(stored)["hash"])
            except LedgerError as e:
                heads[entry.id] = e
        return heads

    def branch_head(self, entry: BranchEntry) -> Digest:
        """The head of a branch, read from its own stream (which always ends it)."""
        last = self.app.recorder.select_events(entry.id, desc=True, limit=1)
        if last:
            return Digest(last[0].originator_version, decode_document(last[0])["hash"])
        # A branch always has its BranchForked event, and main its CampaignStarted.
        raise UnreadableEvent(f"branch '{entry.name}' has no events; the log is damaged")

    # ----------------------------------------------------------------- reading

    def head(self, ref: BranchRef) -> Digest:
        return self.branch_head(ref.branch)

    def view(self, ref: BranchRef, at: int | None = None) -> BranchView:
        """The branch's state as of event `at` (its head if None)."""
        if at is not None:
            self._check_version(ref, at, self.head(ref))
        stream = self._load_branch(ref, at)
        return BranchView(ref, stream.version, stream.head_hash, stream.state)

    def events(self, ref: BranchRef, *, after: int = 0, upto: int | None = None) -> Iterator[LedgerEvent]:
        for stored in self.stored_events(ref, after=after, upto=upto):
            yield self.app.mapper.to_domain_event(stored)

    def event(self, ref: BranchRef, version: int) -> LedgerEvent:
        self._check_version(ref, version, self.head(ref))
        for event in self.events(ref, after=version - 1, upto=version):
            return event
        raise EventNotFound(f"event #{version} is missing from branch '{ref.branch.name}'")

    def _check_version(self, ref: BranchRef, version: int, head: Digest) -> None:
        if not 1 <= version <= head.version:
            raise EventNotFound(
                f"branch '{ref.branch.name}' has events #1 to #{head.version}; there is no event #{version}"
            )

    def stored_events(self, ref: BranchRef, *, after: int = 0, upto: int | None = None) -> Iterator[StoredEvent]:
        for segment in ref.segments:
            lo = max(after, segment.after)
            hi = segment.upto if upto is None else (upto if segment.upto is None else min(upto, segment.upto))
            if hi is not None and hi <= lo:
                continue
            while True:
                page = self.app.recorder.select_events(segment.branch_id, gt=lo, lte=hi, limit=PAGE)
                yield from page
                if len(page) < PAGE:
                    break
                lo = page[-1].originator_version

    # ----------------------------------------------------------------- loading

    def load_stream(self, stream_id: UUID, campaign_id: UUID, fold: Callable[[S, Fact], S], initial: S) -> Stream[S]:
        stream: Stream[S] = Stream(stream_id, campaign_id, fold, initial)
        self._fold_rows(stream, self._paged(stream_id))
        return stream

    def _fold_rows(self, stream: Stream[Any], rows: Iterable[StoredEvent]) -> None:
        to_fact = self.app.mapper.to_fact
        for stored in rows:
            stream.advance(stored.originator_version, *to_fact(stored))

    def _paged(self, stream_id: UUID, after: int = 0) -> Iterator[StoredEvent]:
        while True:
            page = self.app.recorder.select_events(stream_id, gt=after, limit=PAGE)
            yield from page
            if len(page) < PAGE:
                return
            after = page[-1].originator_version

    def _load_branch(self, ref: BranchRef, at: int | None = None) -> Stream[CampaignState]:
        """Nearest trusted snapshot at or below `at` anywhere in the lineage, then the tail."""
        stream: Stream[CampaignState] = Stream(ref.branch.id, ref.campaign.id, fold_campaign, CampaignState())
        snapshot = self._nearest_snapshot(ref, at)
        if snapshot is not None:
            stream.state = snapshot.state
            stream.version = snapshot.version
            stream.head_hash = snapshot.head_hash
            stream.recent_commands = dict(snapshot.recent_commands)
        self._fold_rows(stream, self.stored_events(ref, after=stream.version, upto=at))
        return stream

    def _last_head(self, ref: BranchRef) -> Stream[CampaignState] | None:
        """The branch as the last command left it, if its head is still that command's last event.

        The head's stored bytes, equal to those the command wrote, carry the hash that vouches
        for every event before it: the state folded then is the state of the branch now. So a
        run of commands reloads nothing (reloading the head was 86% of a one-event command).
        The stream itself, kept for the next command: record on a copy."""
        if self._last is None or self._last[0].id != ref.branch.id:
            return None
        stream, head = self._last
        found = self.app.recorder.select_events(stream.id, desc=True, limit=1)
        if not found or found[0].originator_version != stream.version or found[0].state != head:
            return None
        return stream

    def _nearest_snapshot(self, ref: BranchRef, at: int | None) -> BranchSnapshot | None:
        for segment in reversed(ref.segments):
            hi = segment.upto if at is None else (at if segment.upto is None else min(at, segment.upto))
            if hi is not None and hi <= segment.after:
                continue
            found = self._snapshots.select_events(segment.branch_id, gt=segment.after, lte=hi, desc=True, limit=1)
            if found:
                try:
                    snapshot = BranchSnapshot.load(found[0].state)
                except ValueError:
                    continue  # a snapshot is only a cache: fall back to the events
                if snapshot.version == found[0].originator_version and self._in_chain(segment.branch_id, snapshot):
                    return snapshot
        return None

    def _in_chain(self, stream_id: UUID, snapshot: BranchSnapshot) -> bool:
        """A snapshot counts only at an event that exists and whose hash it carries.

        So a row forged past the head, or at a version whose event was replaced, is
        never read (and never makes the next write leave a gap); `verify` reports it.
        """
        stored = self.app.recorder.select_events(stream_id, gt=snapshot.version - 1, lte=snapshot.version)
        if not stored:
            return False
        try:
            return decode_document(stored[0]).get("hash") == snapshot.head_hash
        except UnreadableEvent:
            return False

    def _take_snapshot(self, stream: Stream[CampaignState]) -> None:
        snapshot = BranchSnapshot.of(stream)
        # Another writer snapshotted this very version (IntegrityError), or the database
        # stayed busy: the command has committed and a snapshot is only a cache, so never
        # report a recorded command as failed (it would be re-run).
        with suppress(PersistenceError, LedgerBusy):
            self._snapshots.insert_events(
                [
                    StoredEvent(
                        originator_id=stream.id,
                        originator_version=stream.version,
                        topic=SNAPSHOT_TOPIC,
                        state=snapshot.model_dump_json().encode(),
                    )
                ]
            )

    # ----------------------------------------------------------------- commands

    def execute(
        self,
        ref: BranchRef,
        decide: Callable[[CampaignState], Sequence[Fact | tuple[Fact, Visibility]]],
        *,
        by: str = DIRECTOR,
        command_id: str | None = None,
        recorded_command: Callable[[], dict[str, Any] | None] | None = None,
        settles: PendingRoll | None = None,
    ) -> CommandResult:
        """Run a command against the branch head, retrying on version conflicts.

        A roll asked for (`RollRequested`) holds the branch: only the command that `settles`
        it (its roll, or its withdrawal) may record next.

        `recorded_command` gives, once `decide` has run, the command's name and input to record
        with its facts (`LedgerEvent.command`), on the event `command_record_at` picks.

        `command_id`: a `RecordedId` (an id its caller gave, through a `@command`) is looked
        for in the branch's whole history; any other (generated when None) among the last
        `COMMAND_MEMORY` commands, which covers a lost reply.
        """
        command_id = command_id or uuid.uuid4().hex
        loaded: Stream[CampaignState] | None = None
        for attempt in range(self.max_attempts):
            # `loaded` is the branch as read, left as it is (it may be the last command's stream);
            # the command records on a copy of it.
            if loaded is None:
                loaded = self._last_head(ref) or self._load_branch(ref)
                found = self._recorded(loaded, ref.segments, command_id)
            else:
                # After a conflict, read only what other writers added since the last
                # load: a full reload (up to a snapshot interval of events) takes longer
                # than they take to commit again, and 8 writers starved one out of 60 tries.
                loaded = loaded.copy()
                self._fold_rows(loaded, self.stored_events(ref, after=loaded.version))
                found = self._recorded(loaded, (), command_id)  # the store was searched on the first load
            if found is not None:
                return self._already_recorded(ref, *found)
            stream = loaded.copy()
            _check_pending(stream.state, settles)
            before = stream.version
            timestamp = self.clock()
            decided = [
                item if isinstance(item, tuple) else (item, item.default_visibility) for item in decide(stream.state)
            ]
            record = recorded_command() if recorded_command is not None else None
            at = command_record_at([visibility for _, visibility in decided])
            for index, (fact, visibility) in enumerate(decided):
                stream.record(
                    fact,
                    recorded_by=by,
                    command_id=command_id,
                    timestamp=timestamp,
                    visibility=visibility,
                    command=record if index == at else None,
                )
            events, saved = tuple(stream.pending), list(stream.rows)
            if not events:
                return CommandResult((), first_version=before, last_version=before)
            outcome = self.save_streams(stream, head=self._head(ref, stream, before))
            if outcome == "conflict":
                self._back_off(attempt)
                continue
            if outcome == "unknown":
                # The reply was lost: the events may or may not have been committed.
                check = self._load_branch(ref)
                if command_id in check.recent_commands:
                    return self._already_recorded(ref, *check.recent_commands[command_id], replayed=False)
                self._back_off(attempt)
                continue
            self._last = (stream, saved[-1].state)
            if stream.version // self.snapshot_interval != before // self.snapshot_interval:
                self._take_snapshot(stream)
            return CommandResult(events, first_version=events[0].version, last_version=events[-1].version)
        raise CommandConflict(
            f"branch '{ref.branch.name}' kept changing while this command ran ({self.max_attempts} attempts); try again"
        )

    def _head(self, ref: BranchRef, stream: Stream[CampaignState], before: int) -> Head | None:
        """The head `stream` leaves, with every character's document, where the database keeps
        heads. A document is made again only for a character the command changed: the fold
        leaves an unchanged character the very same object."""
        if not isinstance(self.app.recorder, SQLiteLedgerRecorder):
            return None
        rules = ruleset_of(stream.state)
        made: dict[int, tuple[Any, bytes]] = {}
        characters, changed = [], set()
        for key, character in stream.state.roster().items():
            kept = self._documents.get(id(character))
            if kept is None or kept[0] is not character:
                # As folded here: a state made in this process equals the state read back from its
                # events (snapshots rely on it too, and verify compares both with a replay).
                kept = (character, _compact(rules.character_document(character)))
                changed.add(key)
            made[id(character)] = kept
            characters.append((key, kept[1]))
        if self._documents_at != (ref.branch.id, before):
            changed = {key for key, _ in characters}  # the rows may be another writer's: write them all
        self._documents, self._documents_at = made, (ref.branch.id, stream.version)
        return Head(
            ref.branch.id.hex,
            ref.campaign.name,
            ref.branch.name,
            stream.version,
            stream.head_hash,
            characters,
            frozenset(changed),
        )

    def _already_recorded(self, ref: BranchRef, first: int, last: int, replayed: bool = True) -> CommandResult:
        if replayed:
            note_replayed(first, last)
        events = tuple(self.events(ref, after=first - 1, upto=last))
        return CommandResult(events, replayed=replayed, first_version=first, last_version=last)

    def _recorded(self, stream: Stream[Any], segments: Sequence[Segment], command_id: str) -> tuple[int, int] | None:
        """(first, last) version of the command recorded under `command_id` in the stream's history.

        A given id (a `RecordedId`) counts wherever it was recorded: in the stream's window, else
        in the store up to the window, across `segments`. Given there with other input, it is refused.
        """
        if command_id in stream.recent_commands:
            return stream.recent_commands[command_id]
        if not isinstance(command_id, RecordedId):
            return None
        prefix = command_id.given + "#"
        earlier = next(((k, *v) for k, v in stream.recent_commands.items() if k.startswith(prefix)), None)
        if earlier is None and segments and len(stream.recent_commands) >= COMMAND_MEMORY:
            # The window forgot older commands (while it holds fewer, it holds the whole history).
            oldest = next(iter(stream.recent_commands.values()))[0]
            earlier = self._stored_command(segments, command_id.given, below=oldest)
        if earlier is None:
            return None
        recorded, first, last = earlier
        if recorded != command_id:
            raise CommandIdReused(
                f"the command id '{command_id.given}' was already used for another command (recorded as #{first}); "
                "nothing was recorded: give a new command a new id"
            )
        return first, last

    def recorded_under(self, ref: BranchRef, recorded: RecordedId) -> tuple[int, int] | None:
        """(first, last) version of the command recorded on the branch under a given id, as
        recorded (`ID#DIGEST`); None if none was. The same id with another digest is refused.
        A question, not a command: it records nothing."""
        return self._recorded(self._last_head(ref) or self._load_branch(ref), ref.segments, recorded)

    def _stored_command(self, segments: Sequence[Segment], given: str, *, below: int) -> tuple[str, int, int] | None:
        """The id as recorded, first and last version of the command stored under `given`, before `below`."""
        within = [(s.branch_id, s.after, min(below - 1, s.upto) if s.upto is not None else below - 1) for s in segments]
        versions: list[int] = []
        recorded = ""
        for stored in stored_with_given_id(self.app.recorder, within, given):
            found = str(decode_document(stored).get("command_id", ""))
            if given_part(found) == given and (not versions or found == recorded):
                recorded = found
                versions.append(stored.originator_version)
        return (recorded, min(versions), max(versions)) if versions else None

    def save_streams(
        self, *streams: Unsaved, head: Head | None = None, backfill: Rows = NO_ROWS
    ) -> Literal["saved", "conflict", "unknown"]:
        """Save the pending events of several streams in one transaction (with the `head` they
        leave, ledger/heads.py, and the registry index's rows for their registrations, after the
        `backfill` rows of earlier registrations the index lacks).

        "conflict": another writer took a version first (reload and decide again);
        "unknown": the reply was lost, so the events may or may not be committed.
        """
        pending = [event for stream in streams for event in stream.pending]
        index = entries_of(pending)
        registered = rows_of(pending)
        registry = Rows([*backfill.campaigns, *registered.campaigns], [*backfill.branches, *registered.branches])
        rows = [row for stream in streams for row in stream.collect_rows()]
        extra: dict[str, Any] = {} if head is None else {"head": head}
        if registry:
            extra["registry"] = registry
        try:
            self.app.recorder.insert_events(rows, read_index=index, **extra)
        except IntegrityError:
            self.retries += 1
            return "conflict"
        except (OperationalError, InterfaceError) as e:
            if is_busy_error(e):
                raise LedgerBusy(
                    "the database is busy (another writer held it past the lock timeout); try again"
                ) from None
            return "unknown"
        except PersistenceError as e:
            raise LedgerError(f"the database refused the write: {e}") from None
        return "saved"

    def _back_off(self, attempt: int) -> None:
        time.sleep(random.uniform(0, min(0.002 * (2 ** min(attempt, 6)), 0.1)))

    # ----------------------------------------------------------------- campaigns

    @command
    def create_campaign(
        self,
        pitch: Pitch,
        *,
        name: str | None = None,
        by: str = DIRECTOR,
        command_id: str | None = None,
    ) -> CampaignEntry:
        name = check_name("campaign", name or slug(pitch.title))
        command_id = command_id or uuid.uuid4().hex
        campaign_id, main_id = uuid.uuid4(), uuid.uuid4()
        seed = new_seed()
        # The key file first: a campaign must never exist without its seed. Whatever
        # ends this call without creating *this* campaign removes the file again.
        self.keys.save(campaign_id, seed)
        created: CampaignEntry | None = None
        try:
            for attempt in range(self.max_attempts):
                # The campaign's own registration stream: creations of other names never meet this one.
                registration = self.registration(name)
                existing = registration.state.by_name(name)
                found = self._recorded(registration, (), command_id) if existing is not None else None
                existing = existing or self._catalog_campaign(name)
                if existing is not None:
                    if found is not None:  # a retry, or a lost reply
                        if attempt == 0:
                            note_replayed(*found)
                        created = existing
                        return existing
                    raise CampaignExists(f"a campaign named '{name}' already exists; pick another --name")
                index = Stream(campaign_id, campaign_id, fold_branch_index, BranchIndex())
                main = Stream(main_id, campaign_id, fold_campaign, CampaignState())
                stamp = Stamp(recorded_by=by, command_id=command_id, timestamp=self.clock())
                registration.record(
                    CampaignRegistered(
                        campaign_id=campaign_id,
                        name=name,
                        title=pitch.title,
                        ruleset=pitch.ruleset,
                        main_branch_id=main_id,
                    ),
                    **stamp,
                )
                index.record(
                    BranchRegistered(branch_id=main_id, name=MAIN, parent_branch_id=None, fork_version=0), **stamp
                )
                main.record(CampaignStarted(name=name, pitch=pitch, dice_commitment=commitment(seed)), **stamp)
                # Another creation of this name took the registration's first version, or the
                # name's index row, first: a conflict, and the next attempt finds it.
                if self.save_streams(registration, index, main, backfill=self.catalog_backfill()) == "saved":
                    created = registration.state.campaigns[campaign_id]
                    return created
                self._back_off(attempt)
            raise CommandConflict(f"the registration of campaign '{name}' kept changing; try again")
        finally:
            if created is None or created.id != campaign_id:
                self.keys.discard(campaign_id)

    # ----------------------------------------------------------------- branches

    @command
    def create_branch(
        self,
        source: BranchRef,
        name: str,
        *,
        at: int | None = None,
        by: str = DIRECTOR,
        command_id: str | None = None,
    ) -> BranchRef:
        """Fork `source` after event `at` (its head if None). Copies no events."""
        check_name("branch", name)
        fresh_id = command_id is None
        command_id = command_id or uuid.uuid4().hex
        fork_commitment: str | None = None
        seeded = False
        for attempt in range(self.max_attempts):
            # A first try under an id made here cannot have been recorded before: the head of the
            # campaign's registrations and the registry index's row for the name are all it needs.
            # A retry, or an id given, looks through the registrations themselves.
            index = self._registrations_head(source.campaign.id) if fresh_id and attempt == 0 else None
            if index is not None:
                found, backfill = None, NO_ROWS
                taken = self.registry_index.branch_row(source.campaign.id, name=name) is not None
            else:
                index = self.load_stream(source.campaign.id, source.campaign.id, fold_branch_index, BranchIndex())
                found = self._recorded(index, (Segment(source.campaign.id, 0, None),), command_id)
                done = self.registry_index.branch_rows_upto(source.campaign.id)
                backfill = Rows(
                    branches=[
                        branch_row(source.campaign.id, n, e)
                        for n, e in enumerate(index.state.branches.values(), start=1)
                        if n > done
                    ]
                )
                taken = index.state.by_name(name) is not None
            if taken:
                if found is not None:  # a retry, or a lost reply
                    if attempt == 0:
                        note_replayed(*found)
                    return self.resolve(source.campaign, name)
                raise BranchExists(f"campaign '{source.campaign.name}' already has a branch '{name}'")
            head = self.head(source)
            fork_at = head.version if at is None else at
            self._check_version(source, fork_at, head)
            parent_hash = self.event(source, fork_at).hash
            if not seeded:
                # Only once the fork is known to be possible: a refused one leaves no seed behind.
                fork_commitment, seeded = self._fresh_seed_for(source.campaign.id), True
            branch_id = uuid.uuid4()
            branch = Stream(
                branch_id, source.campaign.id, fold_campaign, CampaignState(), version=fork_at, head_hash=parent_hash
            )
            stamp = Stamp(recorded_by=by, command_id=command_id, timestamp=self.clock())
            index.record(
                BranchRegistered(
                    branch_id=branch_id, name=name, parent_branch_id=source.branch.id, fork_version=fork_at
                ),
                **stamp,
            )
            branch.record(
                BranchForked(
                    name=name,
                    parent_branch_id=source.branch.id,
                    parent_name=source.branch.name,
                    fork_version=fork_at,
                    parent_hash=parent_hash,
                    dice_commitment=fork_commitment,
                ),
                **stamp,
            )
            if self.save_streams(index, branch, backfill=backfill) == "saved":
                return self.resolve(source.campaign, name)
            self._back_off(attempt)
        raise CommandConflict("the branch index kept changing; try again")

    def _registrations_head(self, campaign_id: UUID) -> Stream[BranchIndex] | None:
        """The campaign's branch registrations as a stream at its last event, without folding them,
        when the registry index has a row for each (else None: they must be read).

        A new registration is chained to that event's hash; a name is looked up in the index, whose
        rows `verify` holds to the registrations."""
        last = self.app.recorder.select_events(campaign_id, desc=True, limit=1)
        if not last or self.registry_index.branch_rows_upto(campaign_id) != last[0].originator_version:
            return None
        head_hash = decode_document(last[0]).get("hash")
        if not isinstance(head_hash, str):
            return None
        return Stream(
            campaign_id,
            campaign_id,
            fold_branch_index,
            BranchIndex(),
            version=last[0].originator_version,
            head_hash=head_hash,
        )

    def _fresh_seed_for(self, campaign_id: UUID) -> str | None:
        """Add a seed for a new branch to the Director's key file; None away from it."""
        try:
            self.keys.load(campaign_id)
        except LedgerError:
            return None
        fresh = new_seed()
        self.keys.add(campaign_id, fresh)
        return commitment(fresh)

    # ----------------------------------------------------------------- characters

    @command
    def add_character(
        self, ref: BranchRef, character: BaseModel, *, by: str = DIRECTOR, command_id: str | None = None
    ) -> CommandResult:
        """Add a player character (a Star, in Showrunner) of the branch's ruleset."""
        rules = ruleset(ref.campaign.ruleset)
        if not isinstance(character, rules.character_type):
            raise InvalidSheet(f"this campaign is played by {rules.title}: a {type(character).__name__} cannot join it")
        return self.run(ref, JOIN, character, by=by, command_id=command_id)

    @command
    def note(
        self, ref: BranchRef, text: str, *, private: bool = False, by: str = DIRECTOR, command_id: str | None = None
    ) -> CommandResult:
        visibility: Visibility = "director" if private else "public"
        return self.execute(ref, lambda state: [(NoteRecorded(text=text), visibility)], by=by, command_id=command_id)

    # ----------------------------------------------------------------- checks and dice

    @command
    def run(
        self,
        ref: BranchRef,
        name: str,
        request: object,
        *,
        faces: Mapping[str, Sequence[int]] | None = None,
        chooser: Any = None,
        by: str = DIRECTOR,
        command_id: str | None = None,
        entropy: str | None = None,
        settles: PendingRoll | None = None,
        replaying: ReplayedRolls | None = None,
        marks: Mapping[str, Any] | None = None,
    ) -> CommandResult:
        """Run the branch's ruleset's command `name` (`Ruleset.command`) on `request`, its input.

        Ledger dice are derived with `entropy` (dice v2), else with what `self.entropy` gives,
        asked once, when the first die is rolled: the command's parameters are fixed by then.
        A Star's command that rolls ledger dice on a device without the Director's key file is
        recorded as a request instead (`ask_for_roll`), and `RollAskedFor` says so.

        The one way a ruleset's command is recorded: the command decides from the head, with
        table dice when faces are given, else ledger dice, and for a Star on the Star's view first.

        With a chooser (a Star at a terminal, asked once the dice are down) it decides once:
        if another roll lands while the Star chooses, nothing is recorded, since deciding again
        would show other dice, a re-roll the rules do not give.

        `replaying`: the command is another timeline's, replayed here with the faces it rolled
        there (each rolling fact cites them); `marks` adds to its record what it replays or
        stands for (`replayed`, `counterfactual`: ledger/replay.py).
        """
        rules = ruleset(ref.campaign.ruleset)
        called = rules.director_calls_rolls and by != DIRECTOR and settles is None and replaying is None
        if called and faces is not None and (chosen := rules.command(name)) is not None and chosen.rolls:
            raise RuleViolation(
                f"in a {rules.title} campaign every roll is the Director's call: {by} asks for it "
                "and the Director's machine rolls it (drop the typed faces)"
            )
        if called or (
            settles is None
            and faces is None
            and replaying is None
            and by != DIRECTOR
            and not self.keys.holds(ref.campaign.id)
        ):
            chosen = rules.command(name)
            if chosen is not None and chosen.rolls:
                asked = self.ask_for_roll(ref, name, request, by=by, entropy=entropy, command_id=command_id)
                raise RollAskedFor(
                    asked,
                    f"{by}'s roll is asked for (event #{asked.last_version}); "
                    "the Director's machine rolls it: showrunner dice resolve",
                )
        decide_at_head, record = self._command(ref, name, request, faces, chooser, by, entropy, replaying, marks)
        return self.execute(ref, decide_at_head, by=by, command_id=command_id, recorded_command=record, settles=settles)

    def decide(
        self,
        ref: BranchRef,
        state: CampaignState,
        name: str,
        request: object,
        *,
        by: str = DIRECTOR,
        faces: Mapping[str, Sequence[int]] | None = None,
        replaying: ReplayedRolls | None = None,
        marks: Mapping[str, Any] | None = None,
    ) -> tuple[list[tuple[Fact, Visibility]], dict[str, Any] | None]:
        """What `run` would record for this command on `state`, and its command record, writing
        nothing (a replay's dry run). Only with dice that need no seed: typed, or replayed."""
        decide_at_head, record = self._command(ref, name, request, faces, None, by, None, replaying, marks)
        decided = [
            item if isinstance(item, tuple) else (item, item.default_visibility) for item in decide_at_head(state)
        ]
        return decided, record()

    def _command(
        self,
        ref: BranchRef,
        name: str,
        request: object,
        faces: Mapping[str, Sequence[int]] | None,
        chooser: Any,
        by: str,
        entropy: str | None,
        replaying: ReplayedRolls | None,
        marks: Mapping[str, Any] | None,
    ) -> tuple[Callable[[CampaignState], Decided], Callable[[], dict[str, Any] | None]]:
        """The decision `run` records, and its command record once it has decided."""
        shown = False
        record: dict[str, Any] | None = None
        given = None if entropy is None else checked_entropy(entropy)

        @functools.cache
        def roll_entropy() -> str:
            return given if given is not None else checked_entropy(self.entropy())

        def decide_once(state: CampaignState, dice_state: CampaignState) -> Decided:
            nonlocal record
            rules = ruleset_of(state)
            chosen = rules.command(name)
            if chosen is None:
                raise _not_a_command_of(rules, name)
            checked = chosen.input.model_validate(request)
            if not chosen.rolls:
                if faces:
                    raise InvalidDice(f"'{name}' rolls no dice, so no faces can be given for it")
                decided = chosen.decide(state, checked, None)
                record = command_record(name, checked, marks=marks)
                return decided
            if replaying is not None and not faces:
                first = dice_state.dice_rolls + 1
                roll = RollContext(
                    first,
                    replaying.dice_for(first),
                    source="table",
                    commitment=None,
                    chooser=WalksAway() if replaying.walked_away else None,
                )
                try:
                    decided = chosen.decide(state, checked, roll)
                except WalkedAway as walked_away:
                    decided = walked_away.decided
                record = command_record(name, roll.settled or checked, walked_away=replaying.walked_away, marks=marks)
                return replaying.cited(decided, first)
            table = TableDice(faces) if faces else None
            roll = RollContext(
                dice_state.dice_rolls + 1,
                (lambda _: table)
                if table is not None
                else self._ledger_dice(ref, dice_state.dice_commitment, roll_entropy),
                source="table" if table is not None else "ledger",
                commitment=dice_state.dice_commitment,
                entropy=None if table is not None else roll_entropy,
                chooser=chooser,
            )
            try:
                decided = chosen.decide(state, checked, roll)
            except WalkedAway as walked_away:
                record = command_record(name, roll.settled or checked, walked_away=True, marks=marks)
                return walked_away.decided
            if table is not None:
                table.check_all_used()
            record = command_record(name, roll.settled or checked, marks=marks)
            return decided

        def decide_at_head(state: CampaignState) -> Decided:
            nonlocal shown
            if shown:
                raise CommandConflict(
                    "another roll was recorded on this branch while you chose; yours was not recorded: roll again"
                )
            if chooser is not None:
                # Asked once, on what the one who chooses may see: the choices cannot be asked twice.
                shown = True
                return decide_once(state, state)
            if by == DIRECTOR:
                return decide_once(state, state)
            # A Star acts on what a Star sees: deciding on the Star's view first means a
            # refusal never tells what the Director hid (a hidden roll's outcome, say) ...
            decide_once(state.as_seen_by_players(), state)
            try:
                decided = decide_once(state, state)
            except DomainError:
                raise HiddenFromStar(
                    "the rules refuse this because of something only the Director sees; ask the Director to record it"
                ) from None
            # ... and a result the Director would have to hide is not shown to the Star who asked.
            if any((item[1] if isinstance(item, tuple) else item.default_visibility) == "director" for item in decided):
                raise HiddenFromStar("this records a Director-only result; ask the Director to record it")
            return decided

        return decide_at_head, lambda: record

    def _ledger_dice(
        self, ref: BranchRef, seed_commitment: str | None, entropy: Callable[[], str]
    ) -> Callable[[int], DiceSource]:
        """Roll N's ledger dice, derived (and the Director's seed read, the entropy asked for)
        only once a die is asked for."""

        @functools.cache
        def seed() -> bytes:
            return self.keys.load(ref.campaign.id, seed_commitment)

        return lambda number: DeferredDice("ledger", lambda: LedgerDice(seed(), ref.branch.id, number, entropy()))

    # ----------------------------------------------------------------- rolls asked for

    @command
    def ask_for_roll(
        self,
        ref: BranchRef,
        name: str,
        request: object,
        *,
        by: str,
        entropy: str | None = None,
        command_id: str | None = None,
    ) -> CommandResult:
        """Record a Star's command that rolls ledger dice as a request (`RollRequested`), with
        entropy from this device (or typed): the Director's machine rolls it (`resolve_roll`).

        The command is tried first on the Star's view with throwaway dice, so what the rules
        refuse whatever the dice is refused here, not after the table waited for it."""
        made = checked_entropy(entropy if entropy is not None else self.entropy())

        def decide(state: CampaignState) -> list[Fact]:
            rules = ruleset_of(state)
            chosen = rules.command(name)
            if chosen is None:
                raise _not_a_command_of(rules, name)
            checked = chosen.input.model_validate(request)
            trial = RollContext(
                state.dice_rolls + 1,
                lambda number: LedgerDice(new_seed(), ref.branch.id, number, made),
                source="ledger",
                commitment=state.dice_commitment,
                entropy=lambda: made,
            )
            chosen.decide(state.as_seen_by_players(), checked, trial)
            return [RollRequested(command=name, input=command_record(name, checked)["input"], entropy=made, by=by)]

        return self.execute(ref, decide, by=by, command_id=command_id)

    @command
    def resolve_roll(self, ref: BranchRef, *, command_id: str | None = None) -> CommandResult:
        """Roll the roll asked for on the branch, on the Director's machine: the command, its
        input and its entropy as the request recorded them, recorded as the Star who asked."""
        pending = self._pending(ref, command_id)
        if isinstance(pending, CommandResult):
            return pending
        return self.run(
            ref,
            pending.command,
            pending.input,
            by=pending.by,
            entropy=pending.entropy,
            settles=pending,
            command_id=command_id,
        )

    @command
    def withdraw_roll(self, ref: BranchRef, *, by: str = DIRECTOR, command_id: str | None = None) -> CommandResult:
        """Withdraw the roll asked for on the branch, unrolled: by the Star who asked, or the Director."""
        pending = self._pending(ref, command_id)
        if isinstance(pending, CommandResult):
            return pending
        if by not in (DIRECTOR, pending.by):
            raise LedgerError(f"only {pending.by}, who asked for the roll, or the Director can withdraw it")
        withdrawn = RollRequestWithdrawn(command=pending.command, by=pending.by)
        return self.execute(ref, lambda state: [withdrawn], by=by, command_id=command_id, settles=pending)

    def _pending(self, ref: BranchRef, command_id: str | None) -> PendingRoll | CommandResult:
        """The roll asked for on the branch; or, once it is settled, the settling command's
        record when this is its retry under the same given id."""
        loaded = self._last_head(ref) or self._load_branch(ref)
        if loaded.state.pending_roll is not None:
            return loaded.state.pending_roll
        found = self._recorded(loaded, ref.segments, command_id) if command_id is not None else None
        if found is not None:
            return self._already_recorded(ref, *found)
        raise LedgerError(f"no roll is asked for on branch '{ref.branch.name}'")

    @command
    def roll(
        self,
        ref: BranchRef,
        request: object,
        *,
        faces: Mapping[str, Sequence[int]] | None = None,
        by: str = DIRECTOR,
        command_id: str | None = None,
    ) -> CommandResult:
        """A check of the branch's ruleset: table dice when faces are given, else ledger dice."""
        return self.run(ref, CHECK, request, faces=faces, by=by, command_id=command_id)

    @command
    def act(
        self,
        ref: BranchRef,
        action: str,
        request: object,
        *,
        faces: Mapping[str, Sequence[int]] | None = None,
        by: str = DIRECTOR,
        command_id: str | None = None,
    ) -> CommandResult:
        """One of the ruleset's own actions (`Ruleset.actions`), rolling if the action rolls."""
        # The catalog names the ruleset (verify holds it to the campaign's first event): no need
        # to load the branch, which `run` does once.
        rules = ruleset(ref.campaign.ruleset)
        if action not in rules.actions:
            known = ", ".join(sorted(rules.actions)) or "none"
            raise UnknownName(f"{rules.title} has no action '{action}' (its actions: {known})")
        return self.run(ref, action, request, faces=faces, by=by, command_id=command_id)

    @command
    def reveal_seed(self, ref: BranchRef, *, by: str = DIRECTOR, command_id: str | None = None) -> CommandResult:
        """Record the current seed in the log, and commit a fresh one for the rolls to come."""
        fresh = new_seed()
        added = False

        def decide(state: CampaignState) -> list[Fact]:
            nonlocal added
            seed = self.keys.load(ref.campaign.id, state.dice_commitment)
            if not added:
                # The new seed is kept before its commitment is written, as at creation.
                self.keys.add(ref.campaign.id, fresh)
                added = True
            return [
                SeedRevealed(seed=seed.hex(), commitment=state.dice_commitment),
                SeedCommitted(commitment=commitment(fresh)),
            ]

        return self.execute(ref, decide, by=by, command_id=command_id)

    # ----------------------------------------------------------------- for verification

    def registry_rows(self, stream_id: UUID) -> Iterator[StoredEvent]:
        """A registry stream as stored, for ledger/verification.py to walk."""
        return self._paged(stream_id)

    def first_stored(self, stream_id: UUID) -> StoredEvent | None:
        found = self.app.recorder.select_events(stream_id, limit=1)
        return found[0] if found else None

    def snapshot_rows(self, stream_id: UUID, *, after: int, upto: int | None) -> Sequence[StoredEvent]:
        return self._snapshots.select_events(stream_id, gt=after, lte=upto)

    @property
    def snapshot_recorder(self) -> AggregateRecorder:
        return self._snapshots

    def hash_at(self, ref: BranchRef, version: int) -> str:
        """The chain hash of the branch's event at `version`, read without decoding its payload."""
        for stored in self.stored_events(ref, after=version - 1, upto=version):
            return str(decode_document(stored)["hash"])
        raise EventNotFound(f"branch '{ref.branch.name}' has no event #{version}")


def _check_pending(state: CampaignState, settles: PendingRoll | None) -> None:
    pending = state.pending_roll
    if pending == settles:
        return
    if pending is None:
        raise CommandConflict("the roll asked for was rolled or withdrawn meanwhile; nothing is pending now")
    raise RollPending(
        f"{pending.by}'s roll ({pending.command}) is asked for and not yet rolled: the Director rolls it "
        "with `showrunner dice resolve`, or it is withdrawn with `showrunner dice withdraw`"
    )


def _compact(document: dict[str, Any]) -> bytes:
    return json.dumps(document, separators=(",", ":")).encode()


def _uuid(value: UUID | str) -> UUID:
    return value if isinstance(value, UUID) else UUID(str(value))
