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
from dataclasses import dataclass
from typing import Any

HASH_TAG = b"showrunner-ledger/event/v1\x00"
GENESIS_HASH = "0" * 64


def canonical_json(document: dict[str, Any]) -> bytes:
    return json.dumps(
        document, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


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
    payload: dict[str, Any],
) -> dict[str, Any]:
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
    }


def chain_hash(prev_hash: str, fields: dict[str, Any]) -> str:
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
            or len(hash_text) != 64
            or any(c not in "0123456789abcdef" for c in hash_text)
        ):
            raise ValueError(
                f"'{text}' is not a digest: expected VERSION:HASH, "
                "as printed by `showrunner head` (e.g. 42:3f9a…, 64 hex digits)"
            )
        return cls(int(version_text), hash_text)


@dataclass(frozen=True)
class Problem:
    version: int
    message: str


@dataclass(frozen=True)
class VerifyReport:
    branch: str
    checked: int
    head: Digest
    problem: Problem | None

    @property
    def ok(self) -> bool:
        return self.problem is None
