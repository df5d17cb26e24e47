"""The campaign's secret dice seed: committed in the log, kept out of it.

The seed lives in a Director key file (owner-only permissions) until a later
event reveals it; the log holds only its SHA-256 commitment from event #1.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path
from uuid import UUID

from .errors import LedgerError

COMMITMENT_TAG = b"showrunner-ledger/dice-seed/v1\x00"
SEED_BYTES = 32


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    return hashlib.sha256(COMMITMENT_TAG + seed).hexdigest()


class KeyStore:
    """One file per campaign under the user's data directory, readable by its owner only.

    One seed per line, oldest first: after a reveal a new seed is committed and added.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def path(self, campaign_id: UUID) -> Path:
        return self.directory / f"{campaign_id}.seed"

    def holds(self, campaign_id: UUID) -> bool:
        """Whether this machine has the campaign's key file: the Director's machine does."""
        return self.path(campaign_id).exists()

    def save(self, campaign_id: UUID, seed: bytes) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        os.chmod(self.directory, 0o700)
        path = self.path(campaign_id)
        # O_EXCL: a campaign's seed is written once; O_CREAT with 0o600 so it is
        # never readable by others, not even between create and chmod.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(seed.hex() + "\n")
        return path

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
