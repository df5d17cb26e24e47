"""The facts of the ledger itself, the same whatever ruleset a campaign is played by.

Topics are forever: never rename one; add a schema version and an upcaster instead.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from pydantic import Field

from ..domain.campaign import CampaignState, PendingRoll, Pitch
from ..domain.events import CampaignFact, Fact, RecapLine, known_topics
from ..domain.rulesets import all_rulesets, ruleset
from ..domain.text import Note


class CampaignStarted(CampaignFact[CampaignState], topic="ledger/CampaignStarted"):
    """Event #1 of a campaign's main branch: the pitch and the dice commitment."""

    name: str
    pitch: Pitch
    dice_commitment: str

    def apply(self, state: CampaignState) -> CampaignState:
        # The first event decides what the branch's state holds: the ruleset's own model.
        return ruleset(self.pitch.ruleset).new_state(pitch=self.pitch, dice_commitment=self.dice_commitment)

    def summary(self) -> str:
        return f"Campaign '{self.pitch.title}' started ({self.pitch.ruleset}); dice seed committed"


class BranchForked(CampaignFact[CampaignState], topic="ledger/BranchForked"):
    """The first event of a branch: it hashes in its parent, the fork point and its hash."""

    name: str
    parent_branch_id: UUID
    parent_name: str
    fork_version: int
    parent_hash: str
    dice_commitment: str | None = None
    """A fresh seed for the fork's ledger dice, so revealing the parent's seed exposes nothing here."""

    def apply(self, state: CampaignState) -> CampaignState:
        if self.dice_commitment is None:  # forked away from the Director's key file
            return state
        return state.model_copy(update={"dice_commitment": self.dice_commitment})

    def summary(self) -> str:
        return f"Branch '{self.name}' forked from '{self.parent_name}' at #{self.fork_version}"


# The registry streams: which campaigns a database holds and which branches each has.


class CampaignRegistered(Fact, topic="ledger/CampaignRegistered"):
    campaign_id: UUID
    name: str
    title: str
    ruleset: str
    main_branch_id: UUID


class BranchRegistered(Fact, topic="ledger/BranchRegistered"):
    branch_id: UUID
    name: str
    parent_branch_id: UUID | None
    fork_version: int


class NoteRecorded(CampaignFact[CampaignState], topic="ledger/NoteRecorded"):
    """A line of narration or a Director's private note; changes no state."""

    text: Note = Field(min_length=1)

    def summary(self) -> str:
        return self.text

    def recap(self) -> RecapLine | None:
        """Narration is what the table chose to write down: a notable beat, in its own words."""
        return RecapLine(weight=50, text=self.text, kind="note")


class SeedRevealed(CampaignFact[CampaignState], topic="ledger/SeedRevealed"):
    """The Director reveals the dice seed: every ledger roll made with it can now be re-derived."""

    seed: str
    commitment: str

    def apply(self, state: CampaignState) -> CampaignState:
        return state.model_copy(update={"revealed_seeds": {**state.revealed_seeds, self.commitment: self.seed}})

    def summary(self) -> str:
        return f"Dice seed {self.commitment[:12]}… revealed"


class SeedCommitted(CampaignFact[CampaignState], topic="ledger/SeedCommitted"):
    """A fresh seed for the rolls after a reveal; only its commitment is in the log."""

    commitment: str

    def apply(self, state: CampaignState) -> CampaignState:
        return state.model_copy(update={"dice_commitment": self.commitment})

    def summary(self) -> str:
        return f"New dice seed committed ({self.commitment[:12]}…)"


class RollRequested(CampaignFact[CampaignState], topic="ledger/RollRequested"):
    """A Star's command that rolls ledger dice, asked for from a device without the Director's
    key file: the command, its input and the entropy are in the chain before anyone can derive
    a die. The branch's next event must be its roll (that command, that input, that entropy,
    recorded as `by`) or its withdrawal; `audit` holds it to that."""

    command: str
    input: dict[str, Any]
    entropy: str
    by: str

    def apply(self, state: CampaignState) -> CampaignState:
        pending = PendingRoll(command=self.command, input=self.input, entropy=self.entropy, by=self.by)
        return state.model_copy(update={"pending_roll": pending})

    def summary(self) -> str:
        return f"{self.by} asked for a roll of ledger dice ({self.command}); the Director's machine rolls it"

    def stars(self) -> tuple[str, ...]:
        return (self.by,)


class RollRequestWithdrawn(CampaignFact[CampaignState], topic="ledger/RollRequestWithdrawn"):
    """The roll asked for just before is not rolled: withdrawn by the Star who asked, or by the Director."""

    command: str
    by: str

    def summary(self) -> str:
        return f"{self.by}'s roll ({self.command}) was withdrawn before it was rolled"

    def stars(self) -> tuple[str, ...]:
        return (self.by,)


def branch_fact_types() -> dict[str, type[Fact]]:
    """Every topic a branch's log can hold, of every registered ruleset.

    The registry's own facts (CampaignRegistered, BranchRegistered) never appear in a branch.
    """
    all_rulesets()  # loading every ruleset registers its topics
    return {topic: cls for topic, cls in known_topics().items() if issubclass(cls, CampaignFact)}
