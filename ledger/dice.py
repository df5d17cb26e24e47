"""Ledger dice: faces derived from the campaign's secret seed, provable after a reveal.

face = the first byte b of HMAC-SHA256(seed, message) with b < 256 - 256 % sides, as
b % sides + 1 (rejection sampling: no modulo bias). The message names the branch, the
roll number, the purpose, the die's index within that purpose, and a counter that
moves on only when all 32 bytes of a digest were rejected. A fork is another branch,
so it rolls other dice; repeating a command cannot re-roll, as the faces depend only
on what the roll records.

v1 (rolls recorded without entropy) stops there, so whoever holds the seed can compute
every coming die. v2 ends the message with the digest of entropy given for the roll once
its parameters are fixed (typed by the Star who rolls, or made by the device that records
it): nobody knows a die before the entropy exists, and the seed, committed before, keeps
whoever gives the entropy from choosing the faces. docs/explanation/fair-dice.md gives the
threat model; docs/reference/ledger-format.md the exact bytes.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from collections import defaultdict
from uuid import UUID

from ..domain.dice import Source
from .errors import LedgerError

DERIVATION = "showrunner-ledger/dice/v1"
DERIVATION_V2 = "showrunner-ledger/dice/v2"
ENTROPY_TAG = b"showrunner-ledger/dice-entropy/v2\x00"
ENTROPY_MIN, ENTROPY_MAX = 8, 200
"""Typed entropy's length in characters: short enough to type, long enough not to be guessed
from a handful of favourites (made entropy is 32 hex digits, 128 bits)."""


def new_entropy() -> str:
    return secrets.token_hex(16)


def checked_entropy(text: str) -> str:
    """Entropy as it will be recorded and hashed: NFC, stripped; refused if too short, too
    long or holding control characters (it is printed with the roll)."""
    entropy = unicodedata.normalize("NFC", text.strip())
    if len(entropy) < ENTROPY_MIN:
        raise LedgerError(
            f"entropy must be at least {ENTROPY_MIN} characters (got {len(entropy)}): type anything "
            "nobody could guess, such as a made-up phrase"
        )
    if len(entropy) > ENTROPY_MAX:
        raise LedgerError(f"entropy must be at most {ENTROPY_MAX} characters (got {len(entropy)})")
    if any(unicodedata.category(c).startswith("C") for c in entropy):
        raise LedgerError("entropy must be printable text, without control characters")
    return entropy


def entropy_digest(entropy: str) -> str:
    return hashlib.sha256(ENTROPY_TAG + entropy.encode()).hexdigest()


def derive_face(
    seed: bytes, branch: UUID, roll_number: int, purpose: str, index: int, sides: int, entropy: str | None = None
) -> int:
    """One die: v1 without entropy (rolls recorded before v2), v2 with it."""
    limit = 256 - 256 % sides
    prefix = f"{DERIVATION}|{branch}|{roll_number}|{purpose}|{index}|"
    suffix = ""
    if entropy is not None:
        prefix = f"{DERIVATION_V2}|{branch}|{roll_number}|{purpose}|{index}|"
        suffix = f"|{entropy_digest(entropy)}"
    counter = 0
    while True:
        message = f"{prefix}{counter}{suffix}".encode()
        for byte in hmac.new(seed, message, hashlib.sha256).digest():
            if byte < limit:
                return byte % sides + 1
        counter += 1


class LedgerDice:
    """The dice of one roll (one check) on one branch: v2 when given entropy, else v1."""

    source: Source = "ledger"

    def __init__(self, seed: bytes, branch: UUID, roll_number: int, entropy: str | None = None) -> None:
        self.seed = seed
        self.branch = branch
        self.roll_number = roll_number
        self.entropy = entropy
        self._next_index: dict[str, int] = defaultdict(int)

    def roll(self, purpose: str, count: int, sides: int = 6) -> list[int]:
        faces = []
        for _ in range(count):
            index = self._next_index[purpose]
            self._next_index[purpose] += 1
            faces.append(derive_face(self.seed, self.branch, self.roll_number, purpose, index, sides, self.entropy))
        return faces
