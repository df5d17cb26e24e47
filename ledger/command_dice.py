"""The dice of one command that records several rolls: one table of faces, or ledger dice per roll.

A command may roll more than once (a check then a Threat's reset; a Montage scene's lead and
its Props). Each roll takes the branch's next roll number; typed-in faces are shared by
the whole command, and every one of them must be used by the time it is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..domain.campaign import CampaignState
from ..domain.dice import DeferredDice, DiceSource, RecordingDice, TableDice
from .dice import LedgerDice
from .service import BranchRef, Ledger

Faces = Mapping[str, Sequence[int]] | None


class CommandDice:
    def __init__(self, ledger: Ledger, ref: BranchRef, state: CampaignState, faces: Faces) -> None:
        self.ledger, self.ref = ledger, ref
        self.table = TableDice(faces) if faces else None
        self.next = state.dice_rolls + 1
        self.commitment = state.dice_commitment

    def ledger_dice(self, number: int) -> LedgerDice:
        return LedgerDice(self.ledger.keys.load(self.ref.campaign.id, self.commitment), self.ref.branch.id, number)

    def take(self) -> tuple[int, DiceSource]:
        """The next roll number and its dice (ledger dice are only derived if a die is asked for)."""
        number = self.next
        self.next += 1
        if self.table is not None:
            return number, self.table
        return number, DeferredDice("ledger", lambda: self.ledger_dice(number))

    def recording(self) -> tuple[int, RecordingDice]:
        number, dice = self.take()
        return number, RecordingDice(dice)

    @property
    def used(self) -> str | None:
        """The seed commitment to record with a roll: None for table dice."""
        return None if self.table is not None else self.commitment

    def stamp(self, number: int, recorder: RecordingDice) -> dict[str, Any]:
        ledger_rolled = bool(recorder.rolls) and self.table is None
        return {
            "roll_number": number,
            "dice_commitment": self.commitment if ledger_rolled else None,
            "rolls": tuple(recorder.rolls),
        }

    def done(self) -> None:
        if self.table is not None:
            self.table.check_all_used()
