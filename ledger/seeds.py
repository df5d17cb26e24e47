"""The campaign's secret dice seed: committed in the log, kept out of it.

The seed lives in the Director's key store until a later event reveals it; the log holds
only its SHA-256 commitment from event #1. Two stores: key files (owner-only permissions)
on the Director's machine, the default; and the ledger database, encrypted, for several
server processes on several machines (ledger/key_store.py).
"""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path
from typing import Protocol
from uuid import UUID

from .errors import LedgerError

COMMITMENT_TAG = b"showrunner-ledger/dice-seed/v1\x00"
SEED_BYTES = 32


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    return hashlib.sha256(COMMITMENT_TAG + seed).hexdigest()


class KeyStore(Protocol):
    """Where the Director's secret seeds are kept: a campaign's seeds, oldest first."""

    def where(self, campaign_id: UUID) -> str:
        """Where the campaign's seeds are, for people (a file path, or a database table)."""
        ...

    def holds(self, campaign_id: UUID) -> bool:
        """Whether this store has the campaign's seeds: ledger dice can be rolled here."""
        ...

    def save(self, campaign_id: UUID, seed: bytes) -> None:
        """Keep a new campaign's first seed; a campaign's first seed is written once."""
        ...

    def add(self, campaign_id: UUID, seed: bytes) -> None:
        """Keep one more seed (after a reveal, or for a new branch)."""
        ...

    def load(self, campaign_id: UUID, committed: str | None = None) -> bytes:
        """The campaign's first seed, or the one with the given commitment."""
        ...

    def discard(self, campaign_id: UUID) -> None:
        """Forget a campaign that was never created (its creation failed)."""
        ...


class FileKeyStore:
    """One file per campaign under the user's data directory, readable by its owner only.

    One seed per line, oldest first: after a reveal a new seed is committed and added.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def path(self, campaign_id: UUID) -> Path:
        return self.directory / f"{campaign_id}.seed"

    def where(self, campaign_id: UUID) -> str:
        return str(self.path(campaign_id))

    def holds(self, campaign_id: UUID) -> bool:
        """Whether this machine has the campaign's key file: the Director's machine does."""
        return self.path(campaign_id).exists()

    def discard(self, campaign_id: UUID) -> None:
        self.path(campaign_id).unlink(missing_ok=True)

    def campaigns(self) -> list[UUID]:
        """Every campaign with a key file here (for moving them into the database store)."""
        if not self.directory.is_dir():
            return []
        found = []
        for path in sorted(self.directory.glob("*.seed")):
            try:
                found.append(UUID(path.stem))
            except ValueError:
                continue  # not a key file of ours
        return found

    def seeds(self, campaign_id: UUID) -> list[bytes]:
        """Every seed of the campaign, oldest first."""
        self.load(campaign_id)  # the file must exist and be sound
        return [bytes.fromhex(line) for line in self.path(campaign_id).read_text().split()]

    def save(self, campaign_id: UUID, seed: bytes) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        os.chmod(self.directory, 0o700)
        path = self.path(campaign_id)
        # O_EXCL: a campaign's seed is written once; O_CREAT with 0o600 so it is
        # never readable by others, not even between create and chmod.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(seed.hex() + "\n")

    def add(self, campaign_id: UUID, seed: bytes) -> None:
        self.load(campaign_id)  # the file must exist and be sound
        fd = os.open(self.path(campaign_id), os.O_WRONLY | os.O_APPEND)
        with os.fdopen(fd, "a") as f:
            f.write(seed.hex() + "\n")

    def load(self, campaign_id: UUID, committed: str | None = None) -> bytes:
        """The campaign's first seed, or the one with the given commitment."""
        path = self.path(campaign_id)
        try:
            seeds = [bytes.fromhex(line) for line in path.read_text().split()]
        except FileNotFoundError:
            raise LedgerError(
                f"the Director key file {path} is missing: ledger dice need the Director's machine; "
                "roll physical dice and type the faces in instead"
            ) from None
        except ValueError:
            raise LedgerError(f"the Director key file {path} is damaged") from None
        if not seeds:
            raise LedgerError(f"the Director key file {path} is empty")
        if committed is None:
            return seeds[0]
        for seed in seeds:
            if commitment(seed) == committed:
                return seed
        raise LedgerError(f"the Director key file {path} holds no seed for the commitment {committed[:12]}…")
