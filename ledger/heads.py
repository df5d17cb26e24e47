"""Each branch's characters as the branch head shows them, kept beside the events of a SQLite ledger.

A command that changes a branch writes, in the transaction that saves its events, the head it
leaves (version and hash) and each character's document (`Ruleset.character_document`). The
Director's `showrunner sheet` reads the document here when the head row still names the branch's
last event: no rules to import, no events to fold, so the answer costs about what Python takes to
import its libraries. Anything else (an older ledger, a fork not yet written to, a Star asking,
PostgreSQL, a name that is not one character's) reads the events as every other command does.

The rows are a cache the readers trust, so `verify` recomputes them from the events
(ledger/verification.py). This module imports only the standard library: it is on the path of
the command whose start-up it exists to cut.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..domain.names import matching_keys

HEADS = "ledger_heads"
CHARACTERS = "ledger_head_characters"
TABLES = (HEADS, CHARACTERS)
CREATE = (
    f"CREATE TABLE IF NOT EXISTS {HEADS} (branch_id TEXT PRIMARY KEY, campaign TEXT NOT NULL, "
    "branch TEXT NOT NULL, version INTEGER NOT NULL, hash TEXT NOT NULL)",
    f"CREATE TABLE IF NOT EXISTS {CHARACTERS} (branch_id TEXT NOT NULL, name_key TEXT NOT NULL, "
    "document TEXT NOT NULL, PRIMARY KEY (branch_id, name_key))",
)


@dataclass(frozen=True)
class Head:
    """What a command leaves at a branch head, for the rows above."""

    branch_id: str
    """As the events table stores the branch's stream id (hex)."""
    campaign: str
    branch: str
    version: int
    hash: str
    characters: Sequence[tuple[str, bytes]]
    """(name key, the character's document as JSON), for every character of the branch."""
    changed: frozenset[str]
    """The keys of the characters the command changed, as far as its writer knows; every key
    when the writer did not write this branch's head last."""


def create(cursor: Any) -> None:
    for statement in CREATE:
        cursor.execute(statement)


def write(cursor: Any, head: Head) -> None:
    """Bring the branch's rows to `head`, inside the caller's transaction (`cursor`: a DB-API
    cursor of the database the tables are in). Only the changed characters' documents are
    written, unless the rows kept are not one per character: then all of them are."""
    cursor.execute(
        f"INSERT INTO {HEADS} VALUES (?, ?, ?, ?, ?) ON CONFLICT (branch_id) DO UPDATE SET "
        "campaign = excluded.campaign, branch = excluded.branch, version = excluded.version, hash = excluded.hash",
        (head.branch_id, head.campaign, head.branch, head.version, head.hash),
    )
    upsert = (
        f"INSERT INTO {CHARACTERS} VALUES (?, ?, ?) ON CONFLICT (branch_id, name_key) "
        "DO UPDATE SET document = excluded.document"
    )
    rows = [(head.branch_id, key, document.decode()) for key, document in head.characters]
    changed = [row for row in rows if row[1] in head.changed]
    if changed:
        cursor.executemany(upsert, changed)
    cursor.execute(f"SELECT count(*) FROM {CHARACTERS} WHERE branch_id = ?", (head.branch_id,))
    if cursor.fetchone()[0] != len(rows):
        cursor.execute(f"DELETE FROM {CHARACTERS} WHERE branch_id = ?", (head.branch_id,))
        cursor.executemany(upsert, rows)


@dataclass(frozen=True)
class HeadCharacter:
    branch: str
    version: int
    document: dict[str, Any]


def read_character(path: Path, campaign: str, branch: str, name: str, *, timeout: float) -> HeadCharacter | None:
    """The character `name` of the campaign's branch at its head, if the rows here still hold
    that head; None whenever the answer must come from the events instead."""
    if not path.is_file():
        return None
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=timeout)
    except sqlite3.Error:
        return None
    try:
        return _read(conn, campaign, branch, name)
    except (sqlite3.Error, ValueError, KeyError, TypeError, RecursionError):
        return None
    finally:
        conn.close()


def _read(conn: sqlite3.Connection, campaign: str, branch: str, name: str) -> HeadCharacter | None:
    conn.execute("BEGIN")  # one snapshot of the file for the three reads
    heads = conn.execute(
        f"SELECT branch_id, version, hash FROM {HEADS} WHERE campaign = ? AND branch = ?", (campaign, branch)
    ).fetchall()
    if len(heads) != 1:
        return None
    branch_id, version, hash_ = heads[0]
    last = conn.execute(
        "SELECT originator_version, state FROM stored_events WHERE originator_id = ? "
        "ORDER BY originator_version DESC LIMIT 1",
        (branch_id,),
    ).fetchone()
    if last is None or last[0] != version or json.loads(last[1]).get("hash") != hash_:
        return None  # the branch moved on (or was never written here): the events decide
    documents = dict(conn.execute(f"SELECT name_key, document FROM {CHARACTERS} WHERE branch_id = ?", (branch_id,)))
    found = matching_keys(documents, name)
    if len(found) != 1:
        return None  # unknown or ambiguous: the events' reader words the error
    return HeadCharacter(branch, version, json.loads(documents[found[0]]))


# ----------------------------------------------------------------- for verify


@dataclass(frozen=True)
class KeptHead:
    branch_id: str
    campaign: str
    branch: str
    version: int
    hash: str


def _exists(cursor: Any) -> bool:
    cursor.execute(f"SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('{HEADS}', '{CHARACTERS}')")
    return bool(cursor.fetchone()[0] == len(TABLES))


def kept_for(cursor: Any, branch_id: str, campaign: str, branch: str) -> list[KeptHead]:
    """Every head row a read of this branch could take: its own, and any other under its names."""
    if not _exists(cursor):
        return []
    cursor.execute(
        f"SELECT branch_id, campaign, branch, version, hash FROM {HEADS} "
        "WHERE branch_id = ? OR (campaign = ? AND branch = ?)",
        (branch_id, campaign, branch),
    )
    return [KeptHead(*row) for row in cursor.fetchall()]


def documents(cursor: Any, branch_id: str) -> dict[str, str]:
    cursor.execute(f"SELECT name_key, document FROM {CHARACTERS} WHERE branch_id = ?", (branch_id,))
    return dict(cursor.fetchall())


def forget(cursor: Any, branch_ids: Sequence[str]) -> None:
    """Delete what is kept of these branches' heads: the next command writes it again."""
    if not _exists(cursor):
        return
    for branch_id in branch_ids:
        cursor.execute(f"DELETE FROM {HEADS} WHERE branch_id = ?", (branch_id,))
        cursor.execute(f"DELETE FROM {CHARACTERS} WHERE branch_id = ?", (branch_id,))
