"""Verification: every fact that decides what a reader sees, checked against the hash chains.

Three kinds of record decide what a command shows, and each is checked here:
- a branch's events: each links to the one before and matches its own hash;
- the registry (the campaign catalog and each campaign's branch index): a hash chain of
  its own, whose every registration must agree with the branch's own first event (which
  is in the branch's chain), so a name, a parent, a fork point or a stream cannot be
  moved by editing the registry, even if its chain is recomputed;
- snapshots: a cache, used only where they match the chain (ledger/service.py), and
  compared here with a replay of the events up to them;
- the read index (ledger/read_index.py): each row compared here with its event.
What a recomputed chain could still hide (a branch dropped from the registry, a tail cut
off) is caught by a digest kept outside: a branch's `VERSION:HASH` or the campaign digest.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from ..domain.campaign import CampaignState
from ..domain.events import Fact
from .codec import decode_document, fields_for_hash
from .errors import LedgerError, RegistryDamaged, UnreadableEvent
from .facts import BranchForked, BranchRegistered, CampaignRegistered, CampaignStarted
from .head_check import drop_bad_head, heads_problem
from .integrity import GENESIS_HASH, CampaignDigest, Digest, Problem, VerifyReport, canonical_json, chain_hash
from .persistence import delete_snapshot, storage_damage
from .read_index import IndexWalk
from .registry import (
    CATALOG_ID,
    MAIN,
    BranchEntry,
    BranchIndex,
    CampaignEntry,
    campaign_entry,
    is_valid_name,
    registration_id,
)
from .registry_index import branch_row, campaign_row
from .requests import asked_for, rolled_otherwise, unsettled
from .service import BranchRef, Ledger, _uuid
from .streams import BranchSnapshot, Stream, fold_campaign

CAMPAIGN_TAG = b"showrunner-ledger/campaign/v1\x00"


# ----------------------------------------------------------------- chains


@dataclass
class _Link:
    """The running end of a chain walk."""

    prev: str = GENESIS_HASH
    version: int = 1


def _event_name(version: int) -> str:
    return f"event #{version}"


def _check_link(
    stored: StoredEvent, link: _Link, name: Callable[[int], str] = _event_name, scope: str = "event"
) -> tuple[Problem | None, dict[str, Any] | None]:
    """Check one stored event against the chain so far; advance the link if it holds."""
    version = stored.originator_version
    if version != link.version:
        noun = name(version).split(" #")[0]
        return Problem(
            link.version, f"{name(link.version)} is missing (the next stored {noun} is #{version})", scope
        ), None
    try:
        doc = decode_document(stored)
        fields = fields_for_hash(stored.originator_id, version, stored.topic, doc)
        stored_hash, stored_prev = doc["hash"], doc["prev_hash"]
        if not isinstance(stored_hash, str) or not isinstance(stored_prev, str):
            raise TypeError
        recomputed = chain_hash(stored_prev, fields)
    except UnreadableEvent as e:
        return Problem(version, str(e).replace(f"event #{version}", name(version), 1), scope), None
    except (KeyError, TypeError, ValueError, UnicodeEncodeError):
        return Problem(version, f"{name(version)} lacks its hash fields", scope), None
    if stored_prev != link.prev:
        return Problem(
            version, f"{name(version)} does not link to {name(version - 1)} (its previous-hash field differs)", scope
        ), None
    if recomputed != stored_hash:
        return Problem(
            version, f"{name(version)} ({stored.topic}) does not match its hash: its content was changed", scope
        ), None
    link.prev, link.version = stored_hash, version + 1
    return None, doc


# ----------------------------------------------------------------- the registry


@dataclass(frozen=True)
class RegistryReport:
    """The catalog and one campaign's branch index, walked and cross-checked."""

    campaign: str
    checked: int
    problem: Problem | None

    @property
    def ok(self) -> bool:
        return self.problem is None


def _registry_entries(
    ledger: Ledger, stream_id: UUID, name: Callable[[int], str]
) -> tuple[list[dict[str, Any]], Problem | None]:
    """The payloads of a registry stream, in order, or the first link that does not hold."""
    link = _Link()
    payloads: list[dict[str, Any]] = []
    for stored in ledger.registry_rows(stream_id):
        problem, doc = _check_link(stored, link, name, "registry")
        if problem is not None:
            return payloads, problem
        assert doc is not None
        payload = doc.get("payload")
        if not isinstance(payload, dict):
            return payloads, Problem(
                stored.originator_version, f"{name(stored.originator_version)} has no payload", "registry"
            )
        payloads.append({"topic": stored.topic, **payload})
    return payloads, None


def _registry_problem(number: int, message: str) -> Problem:
    return Problem(number, message, "registry")


def verify_catalog(ledger: Ledger) -> tuple[int, Problem | None]:
    """Every campaign registration (in the catalog of a database written before, and in each
    campaign's own stream): chains, one id and one name per campaign, names by the rule; then
    the registry index's campaign rows against them."""
    registered, checked, problem = _campaign_registrations(ledger)
    if problem is None:
        problem = _campaign_rows_problem(ledger, registered)
    return checked, problem


Registered = tuple[CampaignEntry, UUID, int]
"""A campaign as its registration says, and where that is: its stream and version."""


class _Registrations:
    """The registrations walked so far: a name or an id registered twice is named."""

    def __init__(self) -> None:
        self.found: list[Registered] = []
        self._names: set[str] = set()
        self._ids: set[str] = set()

    def add(self, entry: dict[str, Any], where: str, number: int, stream: UUID, version: int) -> Problem | None:
        if entry["topic"] != CampaignRegistered.topic:
            return _registry_problem(number, f"{where} is a {entry['topic']}, not a campaign registration")
        name, campaign_id = entry.get("name"), entry.get("campaign_id")
        if not isinstance(name, str) or not is_valid_name(name):
            return _registry_problem(number, f"{where} registers a campaign under an invalid name {name!r}")
        if name in self._names:
            return _registry_problem(number, f"{where} registers a second campaign named '{name}'")
        if campaign_id in self._ids:
            return _registry_problem(number, f"{where} registers campaign {campaign_id} a second time")
        try:
            fact = CampaignRegistered.model_validate({k: v for k, v in entry.items() if k != "topic"})
        except ValueError:
            return _registry_problem(number, f"{where} has fields that cannot be read")
        self._names.add(name)
        self._ids.add(str(campaign_id))
        self.found.append((campaign_entry(fact), stream, version))
        return None


def _campaign_registrations(ledger: Ledger) -> tuple[list[Registered], int, Problem | None]:
    entries, problem = _registry_entries(ledger, CATALOG_ID, lambda n: f"entry #{n} of the campaign catalog")
    walked = _Registrations()
    if problem is not None:
        return walked.found, len(entries), problem
    for number, entry in enumerate(entries, start=1):
        problem = walked.add(entry, f"entry #{number} of the campaign catalog", number, CATALOG_ID, number)
        if problem is not None:
            return walked.found, number, problem
    checked = len(entries)
    for stored in ledger.registry_index.registrations():
        if stored.originator_id == CATALOG_ID:
            continue
        checked += 1
        payload, problem = _own_registration(ledger, stored)
        if problem is None:
            assert payload is not None
            where = f"the registration of campaign '{payload.get('name')}'"
            problem = walked.add(payload, where, 1, _uuid(stored.originator_id), 1)
        if problem is not None:
            return walked.found, checked, problem
    return walked.found, checked, None


def _own_registration(ledger: Ledger, stored: StoredEvent) -> tuple[dict[str, Any] | None, Problem | None]:
    """A campaign's registration in its own stream: the stream's one event, under its name's stream id."""
    stream = _uuid(stored.originator_id)

    def name(number: int) -> str:
        return f"entry #{number} of registration stream {stream}"

    problem, doc = _check_link(stored, _Link(), name, "registry")
    if problem is not None:
        return None, problem
    assert doc is not None
    payload = doc.get("payload")
    if not isinstance(payload, dict):
        return None, _registry_problem(1, f"{name(1)} has no payload")
    registered = payload.get("name")
    if not isinstance(registered, str) or registration_id(registered) != stream:
        return None, _registry_problem(
            1, f"the registration of campaign {registered!r} is stored under another name's stream: it was moved"
        )
    if ledger.app.recorder.select_events(stream, gt=1, limit=1):
        return None, _registry_problem(2, f"the registration of campaign '{registered}' holds more than one entry")
    return {"topic": stored.topic, **payload}, None


def _changed(what: str) -> str:
    return f"{what}: the registry index was changed outside the ledger"


def _campaign_rows_problem(ledger: Ledger, registered: list[Registered]) -> Problem | None:
    """Each campaign row is a registration's, and each registration has its row (the catalog's
    from its first entry on: a catalog written before the index is indexed as it is written to)."""
    index = ledger.registry_index
    own = [entry for entry, stream, _ in registered if stream != CATALOG_ID]
    if not index.exists():
        if own:
            return _registry_problem(1, _changed(f"campaign '{own[0].name}' has no row in the registry index"))
        return None
    expected = {campaign_row(entry, stream, version): entry for entry, stream, version in registered}
    rows = index.all_campaign_rows()
    for row in rows:
        if row not in expected:
            return _registry_problem(1, _changed(f"the row of campaign '{row.name}' matches no registration"))
    held = set(rows)
    catalog_rows = sum(1 for row in rows if row.stream_id == CATALOG_ID.hex)
    for row, entry in expected.items():
        if row not in held and (row.stream_id != CATALOG_ID.hex or row.stream_version <= catalog_rows):
            return _registry_problem(row.stream_version, _changed(f"campaign '{entry.name}' has no row"))
    known = {entry.id.hex for entry, _, _ in registered}
    strays = sorted(index.campaigns_with_branch_rows() - known)
    if strays:
        return _registry_problem(1, _changed(f"it lists branches of campaign {strays[0]}, which is not registered"))
    return None


def _branch_rows_problem(ledger: Ledger, campaign: CampaignEntry, entries: list[dict[str, Any]]) -> Problem | None:
    """The campaign's branch rows are its registrations', in order from the first: every one of
    them for a campaign registered in its own stream (always written with its rows)."""
    index = ledger.registry_index
    if not index.exists():
        return None  # a campaign registered on its own has rows: the catalog's check names it
    rows = index.branch_rows(campaign.id)
    for position, row in enumerate(rows, start=1):
        where = f"branch row #{position} of campaign '{campaign.name}'"
        if position > len(entries) or row.position != position:
            return _registry_problem(position, _changed(f"{where} matches no registration"))
        entry = entries[position - 1]
        parent = entry["parent_branch_id"]
        try:
            branch = BranchEntry(
                UUID(entry["branch_id"]), entry["name"], UUID(parent) if parent else None, entry["fork_version"]
            )
        except (ValueError, TypeError, AttributeError):
            return _registry_problem(position, f"entry #{position} of the branch registry cannot be read")
        if row != branch_row(campaign.id, position, branch):
            return _registry_problem(position, _changed(f"{where} ('{row.name}') does not match its registration"))
    if len(rows) < len(entries) and ledger.first_stored(registration_id(campaign.name)) is not None:
        missing = entries[len(rows)]["name"]
        return _registry_problem(
            len(rows) + 1, _changed(f"branch '{missing}' of campaign '{campaign.name}' has no row")
        )
    return None


def verify_branch_index(ledger: Ledger, campaign: CampaignEntry) -> RegistryReport:
    """A campaign's branch index: its chain, its shape, and each entry against its branch's first event."""
    entries, problem = _registry_entries(
        ledger, campaign.id, lambda n: f"entry #{n} of the branch registry of campaign '{campaign.name}'"
    )
    checked = len(entries)
    if problem is None:
        problem = _check_index_shape(campaign, entries)
    if problem is None:
        problem = _check_against_branches(ledger, campaign, entries)
    if problem is None:
        problem = _branch_rows_problem(ledger, campaign, entries)
    return RegistryReport(campaign.name, checked, problem)


def _check_index_shape(campaign: CampaignEntry, entries: list[dict[str, Any]]) -> Problem | None:
    seen_ids: set[str] = set()
    seen_names: set[str] = set()
    for number, entry in enumerate(entries, start=1):
        where = f"entry #{number} of the branch registry of campaign '{campaign.name}'"
        if entry["topic"] != BranchRegistered.topic:
            return _registry_problem(number, f"{where} is a {entry['topic']}, not a branch registration")
        name, branch_id, parent = entry.get("name"), entry.get("branch_id"), entry.get("parent_branch_id")
        fork = entry.get("fork_version")
        if not isinstance(name, str) or not is_valid_name(name):
            return _registry_problem(number, f"{where} names a branch with an invalid name {name!r}")
        if name in seen_names:
            return _registry_problem(number, f"{where} registers a second branch named '{name}'")
        if branch_id in seen_ids:
            return _registry_problem(number, f"{where} points '{name}' at a stream another branch already reads")
        if number == 1:
            if name != MAIN or parent is not None or fork != 0 or branch_id != str(campaign.main_branch_id):
                return _registry_problem(
                    number, f"{where} must register the campaign's main branch, as the catalog names it"
                )
        elif parent is None or parent not in seen_ids:
            return _registry_problem(
                number, f"{where} gives '{name}' a parent that is not a branch registered before it"
            )
        elif not isinstance(fork, int) or isinstance(fork, bool) or fork < 1:
            return _registry_problem(number, f"{where} gives '{name}' an impossible fork point {fork!r}")
        seen_ids.add(str(branch_id))
        seen_names.add(name)
    if not entries:
        return _registry_problem(1, f"campaign '{campaign.name}' has no branch registry")
    return None


def _check_against_branches(ledger: Ledger, campaign: CampaignEntry, entries: list[dict[str, Any]]) -> Problem | None:
    """Each registration must say what the branch's own first event says (that one is hashed in its chain)."""
    for number, entry in enumerate(entries, start=1):
        where = f"entry #{number} ('{entry['name']}') of the branch registry of campaign '{campaign.name}'"
        first = ledger.first_stored(UUID(entry["branch_id"]))
        fork = entry["fork_version"]
        if first is None:
            return _registry_problem(number, f"{where} points at a stream that holds no events")
        if first.originator_version != fork + 1:
            return _registry_problem(
                number,
                f"{where} says the branch starts after #{fork}, but its own events start at "
                f"#{first.originator_version}: the fork point was moved",
            )
        try:
            doc = decode_document(first)
            payload = doc["payload"]
            if not isinstance(payload, dict):
                raise TypeError
        except (UnreadableEvent, KeyError, TypeError):
            return _registry_problem(number, f"{where}: the branch's first event cannot be read")
        if number == 1:
            pitch = payload.get("pitch")
            if not isinstance(pitch, dict):
                pitch = {}
            if first.topic != CampaignStarted.topic or doc.get("campaign") != str(campaign.id):
                return _registry_problem(number, f"{where}: the main branch's stream does not start this campaign")
            if pitch.get("title") != campaign.title or pitch.get("ruleset") != campaign.ruleset:
                return _registry_problem(
                    number,
                    f"the catalog gives campaign '{campaign.name}' a title or ruleset its first event does not",
                )
            continue
        expected = {
            "name": entry["name"],
            "parent_branch_id": entry["parent_branch_id"],
            "fork_version": fork,
        }
        stated = {key: payload.get(key) for key in expected}
        if first.topic != BranchForked.topic or doc.get("campaign") != str(campaign.id):
            return _registry_problem(number, f"{where} points at a stream that is not a fork of this campaign")
        if stated != expected:
            differing = ", ".join(k for k in expected if stated[k] != expected[k])
            return _registry_problem(
                number,
                f"{where} disagrees with the branch's own fork event on {differing}: the registry was changed",
            )
    return None


# ----------------------------------------------------------------- a branch


def verify_branch(
    ledger: Ledger,
    ref: BranchRef,
    against: Digest | None = None,
    progress: Callable[[int], None] | None = None,
    *,
    with_registry: bool = True,
) -> VerifyReport:
    """Walk the branch and its ancestry; then its registrations and snapshots. Names the first fault.

    `with_registry=False` leaves the registry out, for a caller that checks it once for all branches.
    """
    link = _Link()
    checked = 0
    problem: Problem | None = None
    kept_hash: str | None = None
    forks = {s.branch_id: s.after for s in ref.segments}
    snapshots = _SnapshotWalk(ledger, ref)
    index = IndexWalk(ledger, ref)
    to_fact = ledger.app.mapper.to_fact_decoded
    asked: Mapping[str, Any] | None = None
    settling: tuple[object, int, Mapping[str, Any]] | None = None
    """The command settling a request (its id, the request's version, the request): its later events too."""
    for stored in ledger.stored_events(ref):
        fork_link = link.prev
        problem, doc = _check_link(stored, link)
        if problem is not None:
            break
        assert doc is not None
        version = stored.originator_version
        if asked is not None:
            if (why := unsettled(asked, stored.topic, doc)) is not None:
                problem = Problem(version, f"event #{version} follows the roll asked for at #{version - 1}, but {why}")
                break
            settling = (doc.get("command_id"), version - 1, asked)
        elif settling is not None and doc.get("command_id") == settling[0]:
            if (why := rolled_otherwise(settling[2], doc)) is not None:
                problem = Problem(version, f"event #{version} settles the roll asked for at #{settling[1]}, but {why}")
                break
        else:
            settling = None
        asked = asked_for(stored.topic, doc)
        if stored.topic == BranchForked.topic and forks.get(_uuid(stored.originator_id)) == version - 1:
            payload = doc["payload"]
            if (
                not isinstance(payload, dict)
                or payload.get("fork_version") != version - 1
                or payload.get("parent_hash") != fork_link
            ):
                problem = Problem(
                    version, f"event #{version} names a fork point that is not its parent's event #{version - 1}"
                )
                break
        if against is not None and version == against.version:
            kept_hash = link.prev
        fact = _decoded_once(stored, doc, to_fact)
        snapshots.fold(stored, fact)
        index.check(stored, doc.get("visibility"), fact)
        checked += 1
        if progress is not None:
            progress(checked)
    head = Digest(link.version - 1, link.prev)
    if problem is None and against is not None:
        problem = _against_branch_digest(head, against, kept_hash)
    if problem is None and with_registry:
        problem = _registry_problem_for(ledger, ref)
    if problem is None:
        problem = snapshots.problem(head)
    if problem is None:
        problem = index.problem()
    if problem is None:
        problem = heads_problem(ledger, ref, head)
    return VerifyReport(ref.branch.name, checked, head, problem)


def _against_branch_digest(head: Digest, against: Digest, kept_hash: str | None) -> Problem | None:
    if against.version > head.version:
        return Problem(
            head.version,
            f"the log ends at #{head.version} but the kept digest is at #{against.version}: "
            "events were cut off the end",
        )
    if kept_hash != against.hash:
        return Problem(
            against.version,
            f"event #{against.version} does not match the kept digest: the history up to it "
            "was rewritten, or the digest was kept from another branch",
        )
    return None


def storage_problem(ledger: Ledger) -> Problem | None:
    damage = storage_damage(ledger.app.recorder)
    return Problem(0, damage, "storage") if damage is not None else None


def _registry_problem_for(ledger: Ledger, ref: BranchRef) -> Problem | None:
    """What this branch's reading depends on beside its events: the file, the catalog, the campaign's index."""
    problem = storage_problem(ledger)
    if problem is not None:
        return problem
    problem = _registration_problem(ledger, ref.campaign)
    if problem is None:
        problem = verify_branch_index(ledger, ref.campaign).problem
    return problem


def _registration_problem(ledger: Ledger, campaign: CampaignEntry) -> Problem | None:
    """The campaign's own registration and its row; a campaign of the catalog, the whole catalog."""
    stored = ledger.first_stored(registration_id(campaign.name))
    if stored is None:
        return verify_catalog(ledger)[1]
    payload, problem = _own_registration(ledger, stored)
    if problem is not None:
        return problem
    assert payload is not None
    walked = _Registrations()
    problem = walked.add(payload, f"the registration of campaign '{campaign.name}'", 1, _uuid(stored.originator_id), 1)
    if problem is not None:
        return problem
    [(entry, stream, version)] = walked.found
    row = ledger.registry_index.campaign_row("name = ?", [campaign.name])
    if row != campaign_row(entry, stream, version):
        return _registry_problem(1, _changed(f"the row of campaign '{campaign.name}' does not match its registration"))
    return None


def _decoded_once(
    stored: StoredEvent, doc: dict[str, Any], to_fact: Callable[[StoredEvent, dict[str, Any]], tuple[Fact, str, str]]
) -> Callable[[], tuple[Fact, str, str]]:
    """The event's fact, hash and command id, validated from its decoded document on first use
    only: the snapshots want it up to the last of them, the read index where it has a row."""
    found: list[tuple[Fact, str, str]] = []

    def fact() -> tuple[Fact, str, str]:
        if not found:
            found.append(to_fact(stored, doc))
        return found[0]

    return fact


# ----------------------------------------------------------------- snapshots


def _snapshot_rows(ledger: Ledger, ref: BranchRef) -> Iterator[tuple[UUID, StoredEvent]]:
    """Every snapshot row a read of this branch could consider.

    The leaf's own stream is searched above its fork point without an upper bound: a row
    past the head is exactly what a forger would add.
    """
    for segment in ref.segments:
        for stored in ledger.snapshot_rows(segment.branch_id, after=segment.after, upto=segment.upto):
            yield segment.branch_id, stored


class _SnapshotWalk:
    """Every snapshot a read of the branch could use, compared with the state folded once along a
    walk of the branch's events (replaying the branch again after the walk was most of `verify`)."""

    def __init__(self, ledger: Ledger, ref: BranchRef) -> None:
        self.rows = list(_snapshot_rows(ledger, ref))
        self.wanted = {(branch_id, stored.originator_version): stored for branch_id, stored in self.rows}
        self.last = max((version for _, version in self.wanted), default=0)
        self.stream: Stream[CampaignState] = Stream(ref.branch.id, ref.campaign.id, fold_campaign, CampaignState())
        self.to_fact = ledger.app.mapper.to_fact_decoded
        self.mismatch: Problem | None = None
        self.unreadable: UnreadableEvent | None = None

    def fold(self, stored: StoredEvent, fact: Callable[[], tuple[Fact, str, str]] | None = None) -> None:
        """The next event of the walk, in order. `fact`: its fact, hash and command id, when the
        caller decodes them already (verify's walk does, once for every check of the event)."""
        version = stored.originator_version
        if version > self.last or self.mismatch is not None or self.unreadable is not None:
            return
        try:
            self.stream.advance(
                version, *(fact() if fact is not None else self.to_fact(stored, decode_document(stored)))
            )
        except UnreadableEvent as e:
            self.unreadable = e
            return
        snapshot = self.wanted.get((_uuid(stored.originator_id), version))
        if snapshot is None:
            return
        try:
            matches = BranchSnapshot.load(snapshot.state) == BranchSnapshot.of(self.stream)
        except ValueError:
            matches = False
        if not matches:
            self.mismatch = Problem(
                version,
                f"the snapshot at #{version} does not match the events up to it "
                "(it was changed outside the ledger); `showrunner verify --drop-bad-snapshots` removes it",
            )

    def problem(self, head: Digest) -> Problem | None:
        """Once the walk has reached the head: the first snapshot past it, else the first that differs."""
        for _, stored in self.rows:
            if stored.originator_version > head.version:
                return Problem(
                    stored.originator_version,
                    f"the snapshot at #{stored.originator_version} is past the branch's head #{head.version} "
                    "(it was added outside the ledger); `showrunner verify --drop-bad-snapshots` removes it",
                )
        if self.unreadable is not None:
            raise self.unreadable
        return self.mismatch


def check_snapshots(ledger: Ledger, ref: BranchRef, head: Digest | None = None) -> Problem | None:
    """A snapshot is a cache outside the chain: it must sit at or below the head and equal a replay."""
    head = head or ledger.head(ref)
    walk = _SnapshotWalk(ledger, ref)
    if walk.rows and walk.last <= head.version:
        for stored in ledger.stored_events(ref, upto=walk.last):
            walk.fold(stored)
    return walk.problem(head)


def drop_bad_snapshots(ledger: Ledger, ref: BranchRef) -> list[int]:
    """Delete every snapshot in the lineage that is misplaced or does not match its events."""
    dropped = []
    head = ledger.head(ref)
    while (problem := check_snapshots(ledger, ref, head)) is not None:
        segment = next(s for s in reversed(ref.segments) if problem.version > s.after)
        delete_snapshot(ledger.snapshot_recorder, segment.branch_id, problem.version)
        dropped.append(problem.version)
    return dropped + drop_bad_head(ledger, ref, head)


# ----------------------------------------------------------------- the campaign digest


def campaign_digest(ledger: Ledger, campaign: CampaignEntry, versions: Iterable[int] | None = None) -> CampaignDigest:
    """One digest over the campaign's name and every branch: name, stream, parent, fork point and head.

    Branches are taken in registration order (the index only grows), so a digest kept
    earlier names a prefix of them, each at the head it had then.
    """
    index = ledger.registered_branches(campaign)
    kept = list(versions) if versions is not None else None
    records = []
    for position, entry in enumerate(index.branches.values()):
        if kept is not None and position >= len(kept):
            break
        ref = ledger.ref_in(campaign, index, entry)
        head = ledger.head(ref)
        if kept is None:
            records.append(_branch_record(entry, head.version, head.hash))
            continue
        if kept[position] > head.version:
            raise LedgerError(
                f"branch '{entry.name}' ends at #{head.version} but the kept campaign digest has it at "
                f"#{kept[position]}: events were cut off the end"
            )
        records.append(_branch_record(entry, kept[position], ledger.hash_at(ref, kept[position])))
    if kept is not None and len(records) < len(kept):
        raise LedgerError(
            f"the kept campaign digest names {len(kept)} branches but campaign '{campaign.name}' "
            f"registers {len(records)}: a branch was removed"
        )
    document = {
        "campaign": str(campaign.id),
        "name": campaign.name,
        "title": campaign.title,
        "ruleset": campaign.ruleset,
        "branches": records,
    }
    digest = hashlib.sha256(CAMPAIGN_TAG + canonical_json(document)).hexdigest()
    return CampaignDigest(tuple(r["version"] for r in records), digest)


def _branch_record(entry: BranchEntry, version: int, hash_: str) -> dict[str, Any]:
    return {
        "branch": str(entry.id),
        "name": entry.name,
        "parent": str(entry.parent_id) if entry.parent_id is not None else None,
        "fork_version": entry.fork_version,
        "version": version,
        "hash": hash_,
    }


# ----------------------------------------------------------------- everything


@dataclass(frozen=True)
class CampaignReport:
    campaign: str
    registry: RegistryReport
    branches: tuple[VerifyReport, ...]
    digest: CampaignDigest | None
    problem: Problem | None
    """A problem with the campaign as a whole (the kept campaign digest), else None."""

    @property
    def ok(self) -> bool:
        return self.problem is None and self.registry.ok and all(b.ok for b in self.branches)


@dataclass(frozen=True)
class FullReport:
    storage_problem: Problem | None
    catalog_checked: int
    catalog_problem: Problem | None
    campaigns: tuple[CampaignReport, ...]

    @property
    def ok(self) -> bool:
        return self.storage_problem is None and self.catalog_problem is None and all(c.ok for c in self.campaigns)


def verify_campaign(
    ledger: Ledger,
    campaign: CampaignEntry,
    against: CampaignDigest | None = None,
    progress: Callable[[int], None] | None = None,
) -> CampaignReport:
    """Every branch of one campaign, its registry and, if kept, its campaign digest."""
    registry = verify_branch_index(ledger, campaign)
    reports: list[VerifyReport] = []
    try:
        index = ledger.registered_branches(campaign)
    except RegistryDamaged:
        index = BranchIndex()  # the registry report already names the damaged entry
    done = 0
    for entry in index.branches.values():
        step = None if progress is None else (lambda n, base=done: progress(base + n))
        try:
            report = verify_branch(ledger, ledger.ref_in(campaign, index, entry), progress=step, with_registry=False)
        except LedgerError as e:  # a damaged lineage or an unreadable event: this branch only
            report = VerifyReport(entry.name, 0, Digest(0, GENESIS_HASH), Problem(0, str(e), "branch"))
        reports.append(report)
        done += report.checked
    digest: CampaignDigest | None = None
    problem: Problem | None = None
    try:
        digest = campaign_digest(ledger, campaign)
        if against is not None:
            recomputed = campaign_digest(ledger, campaign, against.versions)
            if recomputed.hash != against.hash:
                problem = Problem(
                    0,
                    f"campaign '{campaign.name}' does not match the kept campaign digest: a branch was "
                    "renamed, hidden, re-parented, re-pointed or rewritten, or the campaign renamed",
                    "campaign",
                )
    except LedgerError as e:
        problem = Problem(0, str(e), "campaign")
    return CampaignReport(campaign.name, registry, tuple(reports), digest, problem)


def verify_everything(ledger: Ledger, progress: Callable[[int], None] | None = None) -> FullReport:
    """The file, the catalog, then every campaign it names, each with all its branches."""
    damage = storage_problem(ledger)
    checked, problem = verify_catalog(ledger)
    campaigns = ledger.campaigns() if problem is None else []
    reports = tuple(verify_campaign(ledger, c, progress=progress) for c in campaigns)
    return FullReport(damage, checked, problem, reports)
