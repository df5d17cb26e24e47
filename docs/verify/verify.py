#!/usr/bin/env python3
"""Verify a showrunner-ledger export with nothing but Python's standard library (3.11+).

    python3 verify.py EXPORT.jsonl [--against VERSION:HASH]

Checks what docs/reference/ledger-format.md defines: every event's hash and link, the versions,
the fork links, the header against the events, every ledger die whose seed the export reveals
(dice v1 and v2), and that each roll a Star asked for is settled by the event after it. One
line per problem, then a summary. Exit 0 when everything holds, 1 when anything fails, 2 when
the input cannot be used (unreadable, not JSON, not an export).

This file is the format's reference verifier: it imports nothing of showrunner-ledger, so a
player can read it whole and run it on a machine the Director never touched.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeGuard

FORMAT = "showrunner-ledger/export"
FORMAT_VERSION = 1
EVENT_TAG = b"showrunner-ledger/event/v1\x00"
SEED_TAG = b"showrunner-ledger/dice-seed/v1\x00"
ENTROPY_TAG = b"showrunner-ledger/dice-entropy/v2\x00"
GENESIS = "0" * 64
HEX = frozenset("0123456789abcdef")

EXIT_OK, EXIT_FAILED, EXIT_UNUSABLE = 0, 1, 2

STARTED, FORKED = "ledger/CampaignStarted", "ledger/BranchForked"
REVEALED, COMMITTED = "ledger/SeedRevealed", "ledger/SeedCommitted"
REQUESTED, WITHDRAWN = "ledger/RollRequested", "ledger/RollRequestWithdrawn"

ENVELOPE = ("campaign", "schema", "timestamp", "recorded_by", "visibility", "command_id", "prev_hash", "hash")
EVENT_KEYS = frozenset(("branch", "version", "topic", *ENVELOPE, "payload", "command"))
REDACTED_KEYS = frozenset(("branch", "version", "campaign", "prev_hash", "hash", "redacted"))


class Unusable(Exception):
    """The input is not an export this verifier can read at all (exit 2)."""


# ----------------------------------------------------------------- hashes


def canonical_json(value: object) -> bytes:
    """Keys sorted by code point, no spaces, UTF-8 text unescaped (ledger-format.md, canonical JSON)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.encode("utf-8")


def hashed_fields(event: dict[str, Any]) -> dict[str, Any]:
    fields = {key: event[key] for key in ("campaign", "branch", "version", "topic", *ENVELOPE[1:6], "payload")}
    if event.get("command") is not None:
        fields["command"] = event["command"]
    return fields


def event_hash(prev_hash: str, event: dict[str, Any]) -> str:
    return hashlib.sha256(EVENT_TAG + prev_hash.encode("ascii") + canonical_json(hashed_fields(event))).hexdigest()


def seed_commitment(seed: bytes) -> str:
    return hashlib.sha256(SEED_TAG + seed).hexdigest()


def is_hash(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and set(value) <= HEX


# ----------------------------------------------------------------- dice


def _derive(seed: bytes, sides: int, message_for: Callable[[int], str], name: str) -> int:
    """The first byte of HMAC-SHA256(seed, message) below 256 - 256 % sides, as byte % sides + 1; the
    counter in the message moves on only when all 32 bytes of a digest were rejected."""
    if not 1 <= sides <= 256:
        # No byte could ever be taken (the limit would be 0): a forged record must not hang the check.
        raise ValueError(f"dice {name} derives dice of 1 to 256 sides, not {sides}")
    limit = 256 - 256 % sides
    counter = 0
    while True:
        for byte in hmac.new(seed, message_for(counter).encode(), hashlib.sha256).digest():
            if byte < limit:
                return byte % sides + 1
        counter += 1


def derive_face_v1(seed: bytes, branch: str, roll_number: int, purpose: str, index: int, sides: int) -> int:
    """Dice v1: the message names the branch, the roll, the purpose, the die's index and the counter."""
    prefix = f"showrunner-ledger/dice/v1|{branch}|{roll_number}|{purpose}|{index}|"
    return _derive(seed, sides, lambda counter: f"{prefix}{counter}", "v1")


def entropy_digest(entropy: str) -> str:
    return hashlib.sha256(ENTROPY_TAG + entropy.encode("utf-8")).hexdigest()


def derive_face_v2(
    seed: bytes, branch: str, roll_number: int, purpose: str, index: int, sides: int, entropy: str
) -> int:
    """Dice v2: v1's message under the v2 name, ended by the digest of the roll's recorded entropy."""
    prefix = f"showrunner-ledger/dice/v2|{branch}|{roll_number}|{purpose}|{index}|"
    suffix = f"|{entropy_digest(entropy)}"
    return _derive(seed, sides, lambda counter: f"{prefix}{counter}{suffix}", "v2")


Derivation = Callable[[bytes, str, int, str, int, int], int]


def derivation_of(record: dict[str, Any]) -> str:
    """The derivation a roll record's ledger dice use: v2 when it holds `dice_entropy`, else v1
    (ledger-format.md, "Choosing a derivation")."""
    return "v2" if "dice_entropy" in record else "v1"


def deriver(name: str, record: dict[str, Any]) -> Derivation | str:
    """The derivation `name` for this record's dice, or why the record cannot be derived."""
    if name == "v1":
        return derive_face_v1
    entropy = record.get("dice_entropy")
    if not isinstance(entropy, str):
        return "its dice_entropy is not text"
    return lambda seed, branch, roll_number, purpose, index, sides: derive_face_v2(
        seed, branch, roll_number, purpose, index, sides, entropy
    )


def rolls_of(payload: dict[str, Any]) -> object:
    """Where a roll record keeps its dice: `rolls`, or `resolution.rolls` for a ruleset's resolved roll."""
    if "rolls" in payload:
        return payload["rolls"]
    resolution = payload.get("resolution")
    return resolution.get("rolls") if isinstance(resolution, dict) else None


def is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def derived_faces(derive: Derivation, seed: bytes, branch: str, record: dict[str, Any], rolls: list[Any]) -> list[str]:
    """Each roll whose faces are not the derived ones, told in a few words; [] when all hold."""
    wrong = []
    next_index: dict[str, int] = {}
    for position, roll in enumerate(rolls, start=1):
        purpose, sides, faces = roll["purpose"], roll["sides"], roll["faces"]
        start = next_index.get(purpose, 0)
        next_index[purpose] = start + len(faces)
        try:
            derived = [
                derive(seed, branch, record["roll_number"], purpose, start + i, sides) for i in range(len(faces))
            ]
        except ValueError as e:
            wrong.append(f"roll {position} ({purpose} d{sides}) cannot be derived: {e}")
            continue
        if derived != faces:
            wrong.append(
                f"roll {position} ({purpose} d{sides}) recorded {_faces(faces)}, derived from the seed {_faces(derived)}"
            )
    return wrong


def _faces(faces: list[int]) -> str:
    return ",".join(str(f) for f in faces) or "none"


def well_formed_rolls(rolls: object) -> bool:
    return isinstance(rolls, list) and all(
        isinstance(r, dict)
        and isinstance(r.get("purpose"), str)
        and is_int(r.get("sides"))
        and r["sides"] >= 1
        and isinstance(r.get("faces"), list)
        and all(is_int(f) for f in r["faces"])
        for r in rolls
    )


# ----------------------------------------------------------------- reading


@dataclass
class Line:
    number: int
    value: Any
    error: str | None = None


def read_export(path: str) -> tuple[dict[str, Any], list[Line]]:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Unusable(f"cannot read {path}: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Unusable(f"{path} is not UTF-8 text (byte {e.start}): not a showrunner-ledger export") from None
    raw = text.removeprefix("\ufeff").split("\n")
    if raw[-1] == "":
        raw.pop()
    lines = [_parse(number, line.removesuffix("\r")) for number, line in enumerate(raw, start=1)]
    if not lines:
        raise Unusable(f"{path} is empty: not a showrunner-ledger export")
    header = lines[0]
    if header.error is not None:
        raise Unusable(f"line 1 is not JSON ({header.error}): not a showrunner-ledger export")
    if not isinstance(header.value, dict) or header.value.get("format") != FORMAT:
        raise Unusable("line 1 is not an export header: not a showrunner-ledger export")
    if header.value.get("format_version") != FORMAT_VERSION or not is_int(header.value.get("format_version")):
        raise Unusable(
            f"export format version {header.value.get('format_version')!r} is not one this verifier reads ({FORMAT_VERSION})"
        )
    return header.value, lines[1:]


def _refuse(token: str) -> Any:
    raise ValueError(f"{token} is not a JSON number")


def _parse(number: int, text: str) -> Line:
    if not text.strip():
        return Line(number, None, "an empty line")
    try:
        return Line(number, json.loads(text, parse_constant=_refuse))
    except RecursionError:
        return Line(number, None, "nested too deeply")
    except ValueError as e:
        return Line(number, None, str(e).split(":")[0])


# ----------------------------------------------------------------- the checks


@dataclass
class Segment:
    """A lineage entry and the versions its stream holds: (after, upto]."""

    index: int
    branch_id: str
    name: object
    parent: object
    after: int
    upto: int | None


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    events: int = 0
    links_only: int = 0
    forks: int = 0
    proven_rolls: int = 0
    proven_dice: int = 0
    unrevealed_rolls: int = 0
    table_rolls: int = 0
    replayed_rolls: int = 0
    """Rolls of a what-if fork whose faces are another branch's roll (`replayed_from`): proven
    with that branch's export, or here when the export holds the cited event."""
    asked_rolled: int = 0
    asked_withdrawn: int = 0
    asked_open: int = 0
    """Rolls asked for that the export leaves unsettled: the last event, or left behind by a fork."""

    def fail(self, message: str) -> None:
        self.problems.append(message)


class Verifier:
    def __init__(self, header: dict[str, Any], lines: list[Line]) -> None:
        self.header = header
        self.lines = lines
        self.report = Report()
        self.campaign = _nested(header, "campaign", "id")
        self.segments = _segments(header.get("lineage"))
        self.events: dict[int, dict[str, Any]] = {}
        """Every event line that could be placed, by version (redacted ones too)."""
        self.hashes: dict[int, str] = {}

    def run(self, against: tuple[int, str] | None) -> Report:
        self.check_header_shape()
        self.walk_chain()
        self.check_forks()
        self.check_header_against_events()
        self.check_dice()
        self.check_requests()
        if against is not None:
            self.check_against(*against)
        return self.report

    # -- the header on its own

    def check_header_shape(self) -> None:
        fail = self.report.fail
        header = self.header
        campaign = header.get("campaign")
        if not isinstance(campaign, dict) or not all(
            isinstance(campaign.get(k), str) for k in ("id", "name", "title", "ruleset")
        ):
            fail("line 1: the header's campaign must hold id, name, title and ruleset, each a string")
        if not self.segments:
            fail("line 1: the header's lineage must be a list of branches starting at main")
        for segment in self.segments:
            where = f"line 1: the header's lineage[{segment.index}]"
            if not isinstance(segment.name, str):
                fail(f"{where} has no branch name")
            if segment.index == 0 and (segment.parent is not None or segment.after != 0):
                fail(f"{where} must be the main branch (no parent, fork_version 0)")
            if segment.index > 0 and segment.parent != self.segments[segment.index - 1].branch_id:
                fail(f"{where}.parent_branch_id is not the branch before it in the lineage")
        if len({s.branch_id for s in self.segments}) != len(self.segments):
            fail("line 1: the header's lineage names a branch twice")
        head = header.get("head")
        if not isinstance(head, dict) or not is_int(head.get("version")) or not is_hash(head.get("hash")):
            fail("line 1: the header's head must be a version and a hash of 64 lower-case hex digits")
        if not is_int(header.get("events")):
            fail("line 1: the header's events must be a whole number")
        if not isinstance(header.get("redacted"), bool):
            fail("line 1: the header's redacted must be true or false")

    # -- the chain

    def walk_chain(self) -> None:
        fail = self.report.fail
        expected, prev = 1, GENESIS
        linked = True  # False right after a gap: the next event's predecessor is not in the file
        for line in self.lines:
            where = f"line {line.number}"
            if line.error is not None or not isinstance(line.value, dict):
                fail(f"{where}: not an event ({line.error or 'not a JSON object'}); the events after it are checked on")
                linked = False
                continue
            event = line.value
            version = event.get("version")
            if not is_int(version) or version < 1:
                fail(f"{where}: an event without a version number")
                linked = False
                continue
            name = f"event #{version} (line {line.number})"
            if version < expected:
                fail(f"{name} comes again or out of order after event #{expected - 1}")
                continue
            if version > expected:
                missing = f"#{expected}" if version == expected + 1 else f"#{expected} to #{version - 1}"
                fail(f"event {missing} missing: {where} holds event #{version}")
                linked = False
            expected = version + 1
            self.events[version] = event
            redacted = event.get("redacted") is True
            if not self.check_fields(name, event, redacted):
                linked = False
                continue
            self.report.events += 1
            if event["campaign"] != self.campaign:
                fail(f"{name} belongs to campaign {event['campaign']}, not the header's {self.campaign}")
            segment = self.segment_for(version)
            if segment is None or event["branch"] != segment.branch_id:
                fail(
                    f"{name} is stored in branch {event['branch']}, not the one the header's lineage gives for #{version}"
                )
            if linked and event["prev_hash"] != prev:
                fail(f"{name} does not link to event #{version - 1}: its prev_hash is not that event's hash")
            if redacted:
                self.report.links_only += 1
            else:
                try:
                    recomputed = event_hash(event["prev_hash"], event)
                except UnicodeEncodeError:
                    recomputed = "holds text that is not valid Unicode"
                except ValueError:
                    recomputed = "holds a number too large for JSON"
                if not is_hash(recomputed):
                    fail(f"{name} {recomputed}, so its hash cannot be recomputed")
                elif recomputed != event["hash"]:
                    fail(f"{name} ({event['topic']}) does not match its hash: its content was changed")
            self.hashes[version] = event["hash"]
            prev, linked = event["hash"], True

    def check_fields(self, name: str, event: dict[str, Any], redacted: bool) -> bool:
        fail = self.report.fail
        allowed = REDACTED_KEYS if redacted else EVENT_KEYS
        unknown = sorted(set(event) - allowed)
        if unknown:
            fail(f"{name} has a field an export does not write: {unknown[0]!r}")
            return False
        if redacted and self.header.get("redacted") is not True:
            fail(f"{name} is redacted, but the header says the export is not")
        texts = ["branch", "campaign"] if redacted else ["branch", "topic", *ENVELOPE[:1], *ENVELOPE[2:6]]
        for key in texts:
            if not isinstance(event.get(key), str):
                fail(f"{name} lacks its {key}, or it is not a string")
                return False
        for key in ("prev_hash", "hash"):
            if not is_hash(event.get(key)):
                fail(f"{name}'s {key} is not 64 lower-case hex digits")
                return False
        if redacted:
            return True
        if not is_int(event.get("schema")):
            fail(f"{name}'s schema is not a whole number")
            return False
        if not isinstance(event.get("payload"), dict):
            fail(f"{name} has no payload object")
            return False
        if "command" in event and event["command"] is not None and not isinstance(event["command"], dict):
            fail(f"{name}'s command is not an object")
            return False
        return True

    def segment_for(self, version: int) -> Segment | None:
        for segment in self.segments:
            if version > segment.after and (segment.upto is None or version <= segment.upto):
                return segment
        return None

    # -- the fork links

    def check_forks(self) -> None:
        fail = self.report.fail
        ruleset = _nested(self.events.get(1, {}), "payload", "pitch", "ruleset")
        first = self.events.get(1)
        if first is not None and first.get("redacted") is not True and first.get("topic") != STARTED:
            fail(f"event #1 is a {first.get('topic')}, not the campaign's {STARTED}")
        starts = {s.after + 1: s for s in self.segments if s.index > 0}
        for version, event in sorted(self.events.items()):
            topic = event.get("topic")
            if event.get("redacted") is True or not isinstance(topic, str):
                continue
            name = f"event #{version}"
            if topic == STARTED and version != 1:
                fail(f"{name} starts a campaign; only event #1 may")
            if topic == FORKED and version not in starts:
                fail(f"{name} forks a branch where no branch of the lineage starts")
            if topic.split("/", 1)[0] not in ("ledger", ruleset):
                fail(f"{name} ({topic}) has no place in a {ruleset} campaign's log")
        for version, segment in sorted(starts.items()):
            if segment.upto is not None and segment.upto < version:
                continue  # a branch forked below its own child's fork point holds no event of the file
            self.report.forks += 1
            forked = self.events.get(version)
            where = f"event #{version}, the first of branch {segment.name!r},"
            if forked is None:
                continue  # reported as missing by the chain walk
            if forked.get("redacted") is True:
                self.report.fail(f"{where} is redacted, so its fork cannot be checked")
                continue
            payload = forked.get("payload")
            if forked.get("topic") != FORKED or not isinstance(payload, dict):
                fail(f"{where} is a {forked.get('topic')}, not the {FORKED} that starts a branch")
                continue
            parent = self.segments[segment.index - 1]
            if payload.get("fork_version") != version - 1 or payload.get("parent_hash") != forked.get("prev_hash"):
                fail(f"{where} names a fork point that is not its parent's event #{version - 1}")
            if self.hashes.get(version - 1) not in (None, payload.get("parent_hash")):
                fail(f"{where} names a parent hash that is not the hash of event #{version - 1}")
            if payload.get("parent_branch_id") != parent.branch_id or payload.get("parent_name") != parent.name:
                fail(f"{where} names a parent other than the branch before it in the header's lineage")
            if payload.get("name") != segment.name:
                fail(
                    f"{where} names the branch {payload.get('name')!r}, but the header's lineage calls it {segment.name!r}"
                )

    # -- the header against the events

    def check_header_against_events(self) -> None:
        fail = self.report.fail
        header = self.header
        last = max(self.events, default=0)
        count = len(self.lines)
        if header.get("events") != count:
            fail(f"line 1: the header announces {header.get('events')} events, but the file holds {count} event lines")
        head = header["head"] if isinstance(header.get("head"), dict) else {}
        if head.get("version") != last:
            fail(f"line 1: the header's head is event #{head.get('version')}, but the file's last event is #{last}")
        elif head.get("hash") != self.hashes.get(last):
            fail(f"line 1: the header's head hash is not the hash of event #{last}: the file was truncated or edited")
        started = self.events.get(1)
        if started is not None and started.get("redacted") is not True:
            stated = (
                _nested(header, "campaign", "name"),
                _nested(header, "campaign", "title"),
                _nested(header, "campaign", "ruleset"),
            )
            actual = (
                _nested(started, "payload", "name"),
                _nested(started, "payload", "pitch", "title"),
                _nested(started, "payload", "pitch", "ruleset"),
            )
            for key, s, a in zip(("name", "title", "ruleset"), stated, actual, strict=True):
                if s != a:
                    fail(f"line 1: the header's campaign.{key} {s!r} is not event #1's {a!r}")
        if self.segments and header.get("branch") != self.segments[-1].name:
            fail(f"line 1: the header's branch {header.get('branch')!r} is not the last branch of its lineage")

    # -- the dice

    def check_dice(self) -> None:
        fail = self.report.fail
        seeds: dict[str, bytes] = {}
        committed: set[str] = set()
        in_force: str | None = None
        records: list[tuple[int, dict[str, Any], str | None]] = []
        for version, event in sorted(self.events.items()):
            payload = event.get("payload")
            if event.get("redacted") is True or not isinstance(payload, dict):
                continue
            topic = event.get("topic")
            commitment = payload.get("commitment") if topic == COMMITTED else payload.get("dice_commitment")
            if topic in (STARTED, FORKED, COMMITTED) and commitment is not None:
                committed.add(commitment)
                in_force = commitment
            elif topic == REVEALED:
                self.check_reveal(version, payload, committed, seeds)
            elif _is_roll_record(payload):
                records.append((version, payload, in_force))
        for version, record, expected in records:
            name = f"event #{version}"
            rolls = rolls_of(record)
            commitment = record["dice_commitment"]
            if not well_formed_rolls(rolls):
                fail(f"{name} records roll #{record['roll_number']} without well-formed dice")
                continue
            assert isinstance(rolls, list)
            if "replayed_from" in record:
                self.check_replayed(name, record, rolls)
                continue
            if commitment is None:
                self.report.table_rolls += 1
                continue
            if commitment != expected:
                fail(
                    f"{name}'s roll #{record['roll_number']} names the seed {str(commitment)[:12]}…, not the one committed for it"
                )
                continue
            seed = seeds.get(commitment)
            if seed is None:
                self.report.unrevealed_rolls += 1
                continue
            derive = deriver(derivation_of(record), record)
            if isinstance(derive, str):
                fail(f"{name}'s roll #{record['roll_number']} cannot be derived: {derive}")
                continue
            wrong = derived_faces(derive, seed, self.events[version]["branch"], record, rolls)
            for message in wrong:
                fail(f"{name}: ledger roll #{record['roll_number']} MISMATCH: {message}")
            if not wrong:
                self.report.proven_rolls += 1
                self.report.proven_dice += sum(len(r["faces"]) for r in rolls)

    def check_replayed(self, name: str, record: dict[str, Any], rolls: list[Any]) -> None:
        """A replayed roll hands back the faces of the roll it cites (ledger-format.md, "Replayed
        faces"): where this export holds the cited event, its hash and its rolls must agree."""
        cited = record["replayed_from"]
        self.report.replayed_rolls += 1
        if not (isinstance(cited, dict) and is_int(cited.get("version")) and isinstance(cited.get("hash"), str)):
            self.report.fail(f"{name} names the roll it replays without a branch, version and hash")
            return
        found = self.events.get(cited["version"])
        if found is None or found.get("branch") != cited.get("branch"):
            return  # another branch's event past this export's lineage: its own export proves it
        if found.get("hash") != cited["hash"]:
            self.report.fail(f"{name} replays event #{cited['version']} by a hash that is not that event's")
            return
        source = found.get("payload")
        theirs = rolls_of(source) if isinstance(source, dict) and _is_roll_record(source) else None
        mine = [(r["purpose"], r["sides"], r["faces"], r.get("source")) for r in rolls]
        if (
            not isinstance(theirs, list)
            or mine
            != [(r.get("purpose"), r.get("sides"), r.get("faces"), r.get("source")) for r in theirs][: len(mine)]
        ):
            self.report.fail(f"{name}'s replayed faces are not those of event #{cited['version']}")

    # -- the rolls asked for

    def check_requests(self) -> None:
        """A roll asked for (RollRequested) holds its branch: the next event settles it, or a fork
        leaves it behind (ledger-format.md, "Rolls asked for")."""
        for version, event in sorted(self.events.items()):
            payload = event.get("payload")
            if event.get("redacted") is True or event.get("topic") != REQUESTED or not isinstance(payload, dict):
                continue
            if not all(isinstance(payload.get(k), str) for k in ("command", "entropy", "by")) or not isinstance(
                payload.get("input"), dict
            ):
                self.report.fail(f"event #{version} asks for a roll without a command, its input, entropy and a Star")
                continue
            if version + 1 not in self.events:
                self.report.asked_open += 1  # still waiting at the end of the export (a gap is the chain's to report)
                continue
            for failing, why in self.unsettled(payload, version + 1):
                self.report.fail(f"event #{failing} follows the roll asked for at #{version}, but {why}")

    def unsettled(self, asked: dict[str, Any], version: int) -> list[tuple[int, str]]:
        """The events that fail to settle the request before `version`, and why; [] when it is settled."""
        event = self.events[version]
        if event.get("redacted") is True:
            return [(version, "it is redacted: a roll asked for is rolled or withdrawn in the open")]
        topic = event.get("topic")
        payload = event["payload"] if isinstance(event.get("payload"), dict) else {}
        if topic == FORKED:
            self.report.asked_open += 1
            return []
        if topic == WITHDRAWN:
            if payload.get("command") != asked["command"] or payload.get("by") != asked["by"]:
                return [(version, "it withdraws another roll than the one asked for")]
            if event.get("recorded_by") not in ("director", asked["by"]):
                return [(version, "it is withdrawn by someone other than the Star who asked or the Director")]
            self.report.asked_withdrawn += 1
            return []
        command = event.get("command")
        if (
            not isinstance(command, dict)
            or command.get("name") != asked["command"]
            or not same_json(command.get("input"), asked["input"])
        ):
            return [
                (version, "it is not the command and input asked for: the roll must be settled before anything else")
            ]
        if event.get("recorded_by") != asked["by"]:
            return [(version, f"it is recorded as {event.get('recorded_by')!r}, not as {asked['by']!r} who asked")]
        wrong = []
        at = version
        # Every roll record of the command (its consecutive events) derives its dice with the entropy asked with.
        while (
            at in self.events
            and self.events[at].get("redacted") is not True
            and self.events[at].get("command_id") == event.get("command_id")
        ):
            record = self.events[at].get("payload")
            if _is_roll_record(record) and record.get("dice_entropy") != asked["entropy"]:
                wrong.append((at, "its dice were not derived with the entropy asked with"))
            at += 1
        if not wrong:
            self.report.asked_rolled += 1
        return wrong

    def check_reveal(self, version: int, payload: dict[str, Any], committed: set[str], seeds: dict[str, bytes]) -> None:
        fail = self.report.fail
        name = f"event #{version}"
        seed_text, commitment = payload.get("seed"), payload.get("commitment")
        try:
            seed = bytes.fromhex(seed_text) if isinstance(seed_text, str) else None
        except ValueError:
            seed = None
        if seed is None:
            fail(f"{name} reveals a seed that is not hex text")
        elif seed_commitment(seed) != commitment:
            fail(f"{name} reveals a seed that does not open its commitment {str(commitment)[:12]}…")
        elif commitment not in committed:
            fail(f"{name} reveals the seed of a commitment {commitment[:12]}… no earlier event committed")
        else:
            seeds[commitment] = seed

    # -- a kept digest

    def check_against(self, version: int, kept: str) -> None:
        last = max(self.events, default=0)
        if version > last:
            self.report.fail(
                f"the export ends at event #{last} but the kept digest is at #{version}: events were cut off"
            )
        elif self.hashes.get(version) != kept:
            self.report.fail(f"event #{version} does not match the kept digest: the history up to it was rewritten")


def _is_roll_record(payload: object) -> TypeGuard[dict[str, Any]]:
    return isinstance(payload, dict) and is_int(payload.get("roll_number")) and "dice_commitment" in payload


def same_json(a: object, b: object) -> bool:
    """Equal as canonical JSON: as the values are hashed (so 1 is not true, nor 1.0)."""
    try:
        return canonical_json(a) == canonical_json(b)
    except (ValueError, UnicodeEncodeError):
        return False


def _nested(value: object, *keys: str) -> Any:
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def _segments(lineage: object) -> list[Segment]:
    if not isinstance(lineage, list) or not lineage or not all(isinstance(e, dict) for e in lineage):
        return []
    forks = [e.get("fork_version") for e in lineage]
    if not all(is_int(f) and f >= 0 for f in forks) or not all(isinstance(e.get("branch_id"), str) for e in lineage):
        return []
    segments = []
    for i, entry in enumerate(lineage):
        # A branch may fork below its parent's own fork point: then every earlier segment ends there.
        later = forks[i + 1 :]
        segments.append(
            Segment(
                i,
                entry["branch_id"],
                entry.get("name"),
                entry.get("parent_branch_id"),
                forks[i],
                min(later) if later else None,
            )
        )
    return segments


# ----------------------------------------------------------------- the command


def summary(header: dict[str, Any], report: Report) -> str:
    where = f"{_nested(header, 'campaign', 'name')}/{header.get('branch')}"
    r = report
    counts = (
        f"{r.events} events ({r.links_only} checked only as links: redacted), {r.forks} fork link(s); "
        f"dice: {r.proven_rolls} ledger roll(s) proven ({r.proven_dice} dice), "
        f"{r.unrevealed_rolls} with the seed not revealed, {r.table_rolls} table roll(s)"
    )
    if r.replayed_rolls:  # told only where a what-if fork replayed another branch's rolls
        counts += f", {r.replayed_rolls} replayed roll(s) (each proven with the export of the roll it cites)"
    if r.asked_rolled or r.asked_withdrawn or r.asked_open:  # told only where a Star asked for a roll
        counts += f"; rolls asked for: {r.asked_rolled} rolled, {r.asked_withdrawn} withdrawn, {r.asked_open} open"
    if r.problems:
        return f"FAILED: {len(r.problems)} problem(s) in the export of {where}; {counts}."
    return f"OK: the export of {where} holds; {counts}."


def parse_digest(text: str) -> tuple[int, str]:
    version, sep, digest = text.strip().partition(":")
    digest = digest.lower()
    if not sep or not version.isascii() or not version.isdigit() or not is_hash(digest):
        raise Unusable(
            f"--against {text!r} is not a branch digest VERSION:HASH (as `showrunner head` prints it); "
            "a campaign digest (c1:…) covers every branch, and an export holds one branch's lineage"
        )
    return int(version), digest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="verify.py", description="Verify a showrunner-ledger export (JSONL).")
    parser.add_argument("export", help="a file written by `showrunner export`")
    parser.add_argument("--against", metavar="VERSION:HASH", help="a branch digest kept earlier (`showrunner head`)")
    args = parser.parse_args(argv)
    try:
        against = parse_digest(args.against) if args.against is not None else None
        header, lines = read_export(args.export)
    except Unusable as e:
        print(f"verify.py: {e}", file=sys.stderr)
        return EXIT_UNUSABLE
    report = Verifier(header, lines).run(against)
    for problem in report.problems:
        print(problem)
    print(summary(header, report))
    return EXIT_FAILED if report.problems else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
