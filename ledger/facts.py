"""The facts of the ledger itself and of the campaign's first chapter.

Topics are forever: never rename one; add a schema version and an upcaster instead.
"""

from __future__ import annotations

from uuid import UUID

from ..domain.campaign import CampaignState, Pitch
from ..domain.showrunner.sheet import StarSheet
from .events import Fact


class CampaignFact(Fact):
    """A fact that changes the campaign state of the branch it is recorded on."""

    def apply(self, state: CampaignState) -> CampaignState:
        return state


class CampaignStarted(CampaignFact, topic="ledger/CampaignStarted"):
    """Event #1 of a campaign's main branch: the pitch and the dice commitment."""

    name: str
    pitch: Pitch
    dice_commitment: str

    def apply(self, state: CampaignState) -> CampaignState:
        return state.with_pitch(self.pitch)

    def summary(self) -> str:
        return f"Campaign '{self.pitch.title}' started ({self.pitch.ruleset}); dice seed committed"


class BranchForked(CampaignFact, topic="ledger/BranchForked"):
    """The first event of a branch: it hashes in its parent, the fork point and its hash."""

    name: str
    parent_branch_id: UUID
    parent_name: str
    fork_version: int
    parent_hash: str

    def summary(self) -> str:
        return f"Branch '{self.name}' forked from '{self.parent_name}' at #{self.fork_version}"


class StarJoined(CampaignFact, topic="showrunner/StarJoined"):
    sheet: StarSheet

    def apply(self, state: CampaignState) -> CampaignState:
        return state.with_star(self.sheet)

    def summary(self) -> str:
        return f"Star '{self.sheet.name}' joined the cast"

    def stars(self) -> tuple[str, ...]:
        return (self.sheet.name,)


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
