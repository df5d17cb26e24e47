"""The hash chain: how an event's hash is computed, and how a branch is verified.

hash = SHA-256(tag || previous hash || canonical JSON of the event document)

The document is the event as the ledger means it (campaign, branch, version, topic,
schema, time, author, visibility, command id, payload), in canonical JSON: sorted
keys, no spaces, UTF-8. It is computed from the payload *as stored at its schema
version*, so upcasting an old event never breaks its hash.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass

HASH_TAG = b"showrunner-ledger/event/v1\x00"
GENESIS_HASH = "0" * 64


def one_shot(encoder: json.JSONEncoder) -> Callable[[object], str]:
    """`encoder.encode`, its C encoder made once rather than on every call (making it was a fifth of
    encoding an event's document). It is the C encoder `encode` uses, with the encoder's settings, so
    the text is the same; only the check for a document that holds itself is left out: documents are
    model dumps, trees."""
    make = getattr(json.encoder, "c_make_encoder", None)  # None where Python was built without _json
    if make is None or encoder.indent is not None:
        return encoder.encode
    strings = json.encoder.encode_basestring_ascii if encoder.ensure_ascii else json.encoder.encode_basestring
    chunks = make(
        None,
        encoder.default,
        strings,
        encoder.indent,
        encoder.key_separator,
        encoder.item_separator,
        encoder.sort_keys,
        encoder.skipkeys,
        encoder.allow_nan,
    )
    return lambda document: "".join(chunks(document, 0))


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
_canonical_text = one_shot(_CANONICAL)


def canonical_json(document: Mapping[str, object]) -> bytes:
    return _canonical_text(document).encode("utf-8")


def hashed_fields(
    *,
    campaign: str,
    branch: str,
    version: int,
    topic: str,
    schema: int,
    timestamp: str,
    recorded_by: str,
    visibility: str,
    command_id: str,
    payload: Mapping[str, object],
    command: Mapping[str, object] | None = None,
) -> dict[str, object]:
    # `command` (the name and input of the command that recorded the event) came later: an
    # event without one hashes as it always did.
    extra = {} if command is None else {"command": command}
    return {
        "campaign": campaign,
        "branch": branch,
        "version": version,
        "topic": topic,
        "schema": schema,
        "timestamp": timestamp,
        "recorded_by": recorded_by,
        "visibility": visibility,
        "command_id": command_id,
        "payload": payload,
        **extra,
    }


def chain_hash(prev_hash: str, fields: Mapping[str, object]) -> str:
    digest = hashlib.sha256()
    digest.update(HASH_TAG)
    digest.update(prev_hash.encode("ascii"))
    digest.update(canonical_json(fields))
    return digest.hexdigest()


@dataclass(frozen=True)
class Digest:
    """A branch head as players keep it: `VERSION:HASH`."""

    version: int
    hash: str

    def __str__(self) -> str:
        return f"{self.version}:{self.hash}"

    @classmethod
    def parse(cls, text: str) -> Digest:
        version_text, sep, hash_text = text.strip().partition(":")
        hash_text = hash_text.lower()
        if (
            not sep
            or not version_text.isascii()
            or not version_text.isdigit()
            or len(version_text) > 12
            or len(hash_text) != 64
            or any(c not in "0123456789abcdef" for c in hash_text)
        ):
            raise ValueError(
                f"'{text}' is not a digest: expected VERSION:HASH, "
                "as printed by `showrunner head` (e.g. 42:3f9a…, 64 hex digits)"
            )
        return cls(int(version_text), hash_text)


@dataclass(frozen=True)
class CampaignDigest:
    """Every branch of a campaign as players keep it: `c1:V1.V2…:HASH`.

    The versions are each branch's head, in registration order, when the digest was
    taken; the hash covers the campaign's name and every branch's name, stream, parent,
    fork point and hash at that version (ledger/verification.py `campaign_digest`).
    """

    versions: tuple[int, ...]
    hash: str

    PREFIX = "c1"

    def __str__(self) -> str:
        return f"{self.PREFIX}:{'.'.join(str(v) for v in self.versions)}:{self.hash}"

    @classmethod
    def parse(cls, text: str) -> CampaignDigest:
        prefix, _, rest = text.strip().partition(":")
        versions_text, sep, hash_text = rest.rpartition(":")
        versions = versions_text.split(".")
        hash_text = hash_text.lower()
        if (
            prefix.lower() != cls.PREFIX
            or not sep
            or not all(v.isascii() and v.isdigit() and len(v) <= 12 for v in versions)
            or len(hash_text) != 64
            or any(c not in "0123456789abcdef" for c in hash_text)
        ):
            raise ValueError(
                f"'{text}' is not a campaign digest: expected c1:VERSIONS:HASH, "
                "as printed by `showrunner head --campaign`"
            )
        return cls(tuple(int(v) for v in versions), hash_text)

    @staticmethod
    def looks_like(text: str) -> bool:
        return text.strip().lower().startswith(CampaignDigest.PREFIX + ":")


@dataclass(frozen=True)
class Problem:
    version: int
    message: str
    scope: str = "event"
    """What the version counts: "event" (of the branch), "registry" (its entry), "branch" or "campaign"."""


@dataclass(frozen=True)
class VerifyReport:
    branch: str
    checked: int
    head: Digest
    problem: Problem | None

    @property
    def ok(self) -> bool:
        return self.problem is None
