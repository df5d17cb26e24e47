"""Ledger dice: faces derived from the campaign's secret seed, provable after a reveal.

face = the first byte b of HMAC-SHA256(seed, message) with b < 256 - 256 % sides, as
b % sides + 1 (rejection sampling: no modulo bias). The message names the branch, the
roll number, the purpose, the die's index within that purpose, and a counter that
moves on only when all 32 bytes of a digest were rejected. A fork is another branch,
so it rolls other dice; repeating a command cannot re-roll, as the faces depend only
on the seed and the roll's position.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import defaultdict
from uuid import UUID

from ..domain.dice import Source

DERIVATION = "showrunner-ledger/dice/v1"


def derive_face(seed: bytes, branch: UUID, roll_number: int, purpose: str, index: int, sides: int) -> int:
    limit = 256 - 256 % sides
    counter = 0
    while True:
        message = f"{DERIVATION}|{branch}|{roll_number}|{purpose}|{index}|{counter}".encode()
        for byte in hmac.new(seed, message, hashlib.sha256).digest():
            if byte < limit:
                return byte % sides + 1
        counter += 1


class LedgerDice:
    """The dice of one roll (one check) on one branch."""

    source: Source = "ledger"

    def __init__(self, seed: bytes, branch: UUID, roll_number: int) -> None:
        self.seed = seed
        self.branch = branch
        self.roll_number = roll_number
        self._next_index: dict[str, int] = defaultdict(int)

    def roll(self, purpose: str, count: int, sides: int = 6) -> list[int]:
        faces = []
        for _ in range(count):
            index = self._next_index[purpose]
            self._next_index[purpose] += 1
            faces.append(derive_face(self.seed, self.branch, self.roll_number, purpose, index, sides))
        return faces
